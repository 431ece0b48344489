//! The engine benchmark: `cargo bench -p puzzlescript --bench engine -- [FILTER] [--turns N]`.
//!
//! For every game in the folder `PUZZLESCRIPT_GAMES` (default: the
//! workplace's example games beside the repository) whose file name
//! contains FILTER, and every grid level of it, it plays N turns (default
//! 2,000) of a fixed pseudo-random walk of inputs, undoing now and then
//! (so the walk does not wander off into won or stuck states), and prints
//! turns per second per game and in all. A turn here is one input and its
//! again turns, as a solver plays a move.

use std::path::PathBuf;
use std::time::Instant;

use puzzlescript::compile::{LevelData, compile};
use puzzlescript::engine::{Engine, Input, OnWin};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut turns = 2_000usize;
    let mut filter = String::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--turns" {
            turns = args
                .get(i + 1)
                .and_then(|t| t.parse().ok())
                .unwrap_or(turns);
            i += 1;
        } else {
            filter = args[i].clone();
        }
        i += 1;
    }
    let dir = std::env::var_os("PUZZLESCRIPT_GAMES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/puzzlescript/games")
        });
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "no example games at {} (set PUZZLESCRIPT_GAMES); nothing measured",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let (mut all_turns, mut all_secs) = (0u64, 0f64);
    println!(
        "{:<28} {:>6} {:>10} {:>12}",
        "game", "levels", "turns", "turns/s"
    );
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (Some(game), log) = compile(&text) else {
            continue;
        };
        if log.has_errors() {
            continue;
        }
        let (mut played, mut secs, mut levels) = (0u64, 0f64, 0);
        for (index, level) in game.levels().iter().enumerate() {
            if !matches!(level, LevelData::Grid(_)) {
                continue;
            }
            let Some(mut engine) = Engine::load(&game, index, "bench", OnWin::Stop) else {
                continue;
            };
            levels += 1;
            let mut rng = 0x9e37_79b9_7f4a_7c15u64;
            let start = Instant::now();
            for t in 0..turns {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                if engine.won() || t % 64 == 63 {
                    let objects = engine.board().objects.clone();
                    let target = engine.restart_target().to_vec();
                    engine.set_state(&objects, &target);
                    engine.restart();
                }
                let input = [
                    Input::Up,
                    Input::Down,
                    Input::Left,
                    Input::Right,
                    Input::Action,
                ][(rng % 5) as usize];
                engine.input(Some(input));
                let mut again = 0;
                while engine.againing() && again < 1000 {
                    engine.again();
                    again += 1;
                }
                played += 1;
            }
            secs += start.elapsed().as_secs_f64();
        }
        all_turns += played;
        all_secs += secs;
        println!(
            "{:<28} {:>6} {:>10} {:>12.0}",
            name,
            levels,
            played,
            played as f64 / secs.max(1e-9)
        );
    }
    println!(
        "{:<28} {:>6} {:>10} {:>12.0}",
        "all",
        "",
        all_turns,
        all_turns as f64 / all_secs.max(1e-9)
    );
}
