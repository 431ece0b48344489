//! The generator benchmark: `cargo bench --bench generate -- [GAME...]
//! [--seeds 1,2,3] [--minutes 10] [--min-par N]`.
//!
//! For each game (default: bloxorz and hugmaze) and each seed, it runs the
//! generator for `--minutes` with the issue's target (Bloxorz: 15×10,
//! bridge, teleport and weak tiles, at least two kinds, all needed; Hug
//! Maze: 12×12, every mechanic, at least three kinds, all needed). The run
//! does not stop at the target: `--min-par` (default: out of reach) keeps it
//! going, so it prints the best qualifying par after 1, 3 and 10 minutes
//! (those within the run) and when it first reached the issue's par (150,
//! 60). Writes nothing. Wall-clock figures: run it on a quiet machine.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use puzzle_qa_core::_cli_support::generate::{self as evolve, Budget};
use puzzle_qa_core::game::Cost;
use puzzle_qa_core::generate::Target;

struct Setup {
    game: &'static str,
    size: (usize, usize),
    mechanics: &'static [&'static str],
    min_mechanics: usize,
    issue_par: Cost,
}

const SETUPS: [Setup; 2] = [
    Setup {
        game: "bloxorz",
        size: (15, 10),
        mechanics: &["bridge", "teleport", "weak-tile"],
        min_mechanics: 2,
        issue_par: 150,
    },
    Setup {
        game: "hugmaze",
        size: (12, 12),
        // Every mechanic the game has.
        mechanics: &[],
        min_mechanics: 3,
        issue_par: 60,
    },
];

fn main() {
    let mut games: Vec<String> = Vec::new();
    let mut seeds: Vec<u64> = vec![1, 2, 3];
    let mut minutes = 10.0;
    let mut min_par: Cost = Cost::MAX / 8;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => {
                let list = args.next().expect("--seeds needs a list");
                seeds = list
                    .split(',')
                    .map(|s| s.parse().expect("a seed"))
                    .collect();
            }
            "--minutes" => minutes = args.next().and_then(|m| m.parse().ok()).expect("minutes"),
            "--min-par" => min_par = args.next().and_then(|m| m.parse().ok()).expect("a par"),
            "--bench" => {}
            other => games.push(other.to_string()),
        }
    }
    let checkpoints: Vec<f64> = [1.0, 3.0, 10.0]
        .into_iter()
        .filter(|m| *m <= minutes)
        .collect();
    for setup in SETUPS
        .iter()
        .filter(|setup| games.is_empty() || games.iter().any(|g| g == setup.game))
    {
        let game = puzzle_qa::games::find(setup.game).expect("a registered game");
        let generator = puzzle_qa::games::generator(setup.game).expect("a game with a generator");
        let target = Target {
            min_par,
            width: setup.size.0,
            height: setup.size.1,
            mechanics: if setup.mechanics.is_empty() {
                generator.mechanics().to_vec()
            } else {
                setup.mechanics.to_vec()
            },
            min_mechanics: setup.min_mechanics,
            require_needed: true,
        };
        for &seed in &seeds {
            let stop = AtomicBool::new(false);
            let budget = Budget {
                generations: None,
                deadline: Some(Instant::now() + Duration::from_secs_f64(minutes * 60.0)),
                stop: &stop,
                limit: evolve::DEFAULT_LIMIT,
                memory: puzzle_qa_core::search::DEFAULT_MEMORY,
            };
            let run = evolve::run(game, generator, &target, seed, &budget, &mut |_| {});
            let Some(run) = run else {
                println!("{} seed {seed}: no solvable level", setup.game);
                continue;
            };
            let par_at = |minute: f64| {
                run.history
                    .iter()
                    .take_while(|m| m.seconds <= minute * 60.0)
                    .last()
                    .map_or("-".to_string(), |m| m.par.to_string())
            };
            let reached = run
                .history
                .iter()
                .find(|m| m.par >= setup.issue_par)
                .map_or("never".to_string(), |m| {
                    format!("{:.1} s (generation {})", m.seconds, m.generation)
                });
            let at: Vec<String> = checkpoints
                .iter()
                .map(|m| format!("{m} min: {}", par_at(*m)))
                .collect();
            println!(
                "{} seed {seed}: best par {} · {} · par ≥ {} after {reached} · {} generations, \
                 {} candidates ({:.0}/s)",
                setup.game,
                run.best.par,
                at.join(", "),
                setup.issue_par,
                run.generations,
                run.candidates,
                run.candidates as f64 / run.elapsed.as_secs_f64()
            );
        }
    }
}
