//! `puzzle-qa generate`: evolve a level that meets a target, write it with
//! its expectations, and check the pair.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::Exit;
use puzzle_qa_core::_cli_support::generate::{Budget, Generated, Progress};
use puzzle_qa_core::_cli_support::generate::{Milestone, Placement, write_level};
use puzzle_qa_core::game::Cost;
use puzzle_qa_core::generate::{Generator, Target};
use puzzle_qa_core::harness::GameChecks;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game to make a level for (one that has a level generator).
    #[arg(value_name = "GAME")]
    game: String,
    /// The par the level must reach.
    #[arg(long, value_name = "N")]
    min_par: Cost,
    /// The grid's width, at most (default: the game's usual size).
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// The grid's height, at most.
    #[arg(long, value_name = "H")]
    height: Option<usize>,
    /// The mechanic kinds the generator may place, comma-separated, by the
    /// names `ablate` reports (default: all the game has).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    mechanics: Vec<String>,
    /// At least this many distinct mechanic kinds in the level.
    #[arg(long, value_name = "K", default_value_t = 0)]
    min_mechanics: usize,
    /// Every mechanic in the level must be needed: not decoration.
    #[arg(long)]
    require_needed: bool,
    /// The random seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Stop after N generations (reproducible).
    #[arg(long, value_name = "N")]
    generations: Option<u64>,
    /// Stop after SECS seconds (default 600 when --generations is not given;
    /// not reproducible).
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// The level file to write [default: levels/GAME/gen-SEED.txt]; its
    /// expectations go to expectations/GAME/ beside that levels/ folder, or
    /// next to the file outside a repository.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the level and expectation files if they exist.
    #[arg(long)]
    force: bool,
    /// The most states one search may store; a candidate that needs more is
    /// dropped (the default keeps the run fast; the suite's own limit is
    /// higher, so a written level always passes it).
    #[arg(long, value_name = "N", default_value_t = puzzle_qa_core::_cli_support::generate::DEFAULT_LIMIT)]
    limit: usize,
    /// Print one JSON object: {file, expectations, game, seed, par,
    /// mechanics: {NAME: class}, target_met, checks_passed, generations,
    /// candidates, seconds, history: [{generation, seconds, par}]}.
    #[arg(long)]
    json: bool,
}

/// Set by Ctrl-C: the run stops after the current generation and writes
/// the best level so far. A second Ctrl-C quits at once.
static STOP: AtomicBool = AtomicBool::new(false);

/// How long a run may take when neither `--generations` nor `--time` bounds it.
const DEFAULT_SECONDS: f64 = 600.0;

/// The `generate --json` object; scripts depend on these names.
#[derive(Serialize)]
struct GenerateJson<'a> {
    file: String,
    expectations: String,
    game: &'a str,
    seed: u64,
    par: Cost,
    mechanics: std::collections::BTreeMap<&'a str, &'a str>,
    target_met: bool,
    checks_passed: bool,
    generations: u64,
    candidates: u64,
    seconds: f64,
    history: &'a [Milestone],
}

pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let (game, generator, target) = match settle(&args) {
        Ok(settled) => settled,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("levels/{}/gen-{}.txt", game.name, args.seed)));
    let placement = Placement::of(&out, game);
    // Refused before the run, not after it.
    if let Some(path) = placement.existing().filter(|_| !args.force) {
        eprintln!(
            "error: {} already exists\n  = hint: choose another --out, or add --force to replace it",
            path.display()
        );
        return Exit::BadInput;
    }

    let seconds = match (args.time, args.generations) {
        (Some(seconds), _) => Some(seconds),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_SECONDS),
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let budget = Budget {
        generations: args.generations,
        deadline: seconds.map(|seconds| Instant::now() + Duration::from_secs_f64(seconds)),
        stop: &STOP,
        limit: args.limit,
        memory: memory.unwrap_or(puzzle_qa_core::search::DEFAULT_MEMORY),
    };
    let bar = progress_bar(args.generations, seconds);
    let mut observe = |progress: &Progress| show(&bar, progress, args.generations.is_some());
    let generated = puzzle_qa_core::_cli_support::generate::run(
        game,
        generator,
        &target,
        args.seed,
        &budget,
        &mut observe,
    );
    bar.finish_and_clear();
    let Some(generated) = generated else {
        eprintln!(
            "error: no solvable {} level of {}×{} turned up before the run ended\n  = hint: \
             give it more --time, or a larger --width/--height",
            game.name, target.width, target.height
        );
        return Exit::Failed;
    };

    let best = &generated.best;
    let header = [
        ("name", stem(&out)),
        (
            "hint",
            hint(
                best.classes()
                    .iter()
                    .map(|(name, class)| (name.as_ref(), class.name())),
            ),
        ),
    ];
    let header: Vec<(&str, &str)> = header.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let notes = notes(&args, memory, &target, &generated);
    let verdicts = match write_level(
        game,
        &placement,
        &best.candidate.level_text(&header),
        &notes,
        args.force,
    ) {
        Ok(verdicts) => verdicts,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    let checks_passed = verdicts.iter().all(|(_, verdict)| verdict.passed());

    if args.json {
        let json = GenerateJson {
            file: placement.level.display().to_string(),
            expectations: placement.expectations.display().to_string(),
            game: game.name,
            seed: args.seed,
            par: best.par,
            mechanics: best
                .classes()
                .iter()
                .map(|(name, class)| (name.as_ref(), class.name()))
                .collect(),
            target_met: generated.met,
            checks_passed,
            generations: generated.generations,
            candidates: generated.candidates,
            seconds: generated.elapsed.as_secs_f64(),
            history: &generated.history,
        };
        println!(
            "{}",
            serde_json::to_string(&json).expect("plain data serializes")
        );
    } else {
        print_summary(&placement, &target, &generated, &verdicts);
    }
    if generated.met && checks_passed {
        Exit::Passed
    } else {
        Exit::Failed
    }
}

/// The game, its generator and the target, from the arguments, or why they
/// do not make sense.
fn settle(args: &Args) -> Result<(&'static GameChecks, &'static dyn Generator, Target), String> {
    let game = crate::games::find(&args.game).ok_or_else(|| {
        format!(
            "unknown game `{}`\n  = hint: games are {}",
            args.game,
            crate::games::names()
        )
    })?;
    let generator = crate::games::generator(game.name).ok_or_else(|| {
        let able: Vec<&str> = crate::games::with_generators().collect();
        format!(
            "{} has no level generator\n  = hint: games with one: {}",
            game.name,
            able.join(", ")
        )
    })?;
    let known = generator.mechanics();
    let mut mechanics = Vec::new();
    for name in &args.mechanics {
        let found = known
            .iter()
            .find(|known| **known == name.as_str())
            .ok_or_else(|| {
                format!(
                    "{} has no mechanic `{name}`\n  = hint: its mechanics are {}",
                    game.name,
                    known.join(", ")
                )
            })?;
        if !mechanics.contains(found) {
            mechanics.push(*found);
        }
    }
    if args.mechanics.is_empty() {
        mechanics = known.to_vec();
    }
    let (default_width, default_height) = generator.default_size();
    let (max_width, max_height) = generator.max_size();
    let width = args.width.unwrap_or(default_width);
    let height = args.height.unwrap_or(default_height);
    if !(2..=max_width).contains(&width) || !(2..=max_height).contains(&height) {
        return Err(format!(
            "{width}×{height} is not a size {} levels can be generated in\n  = hint: from 2×2 to \
             {max_width}×{max_height}",
            game.name
        ));
    }
    if args.min_mechanics > mechanics.len() {
        return Err(format!(
            "--min-mechanics {} asks for more kinds than --mechanics allows ({})",
            args.min_mechanics,
            mechanics.join(", ")
        ));
    }
    if args
        .time
        .is_some_and(|seconds| !(seconds > 0.0 && seconds.is_finite()))
    {
        return Err("--time must be a positive number of seconds".to_string());
    }
    Ok((
        game,
        generator,
        Target {
            min_par: args.min_par,
            width,
            height,
            mechanics,
            min_mechanics: args.min_mechanics,
            require_needed: args.require_needed,
        },
    ))
}

fn progress_bar(generations: Option<u64>, seconds: Option<f64>) -> ProgressBar {
    // A bar over the generations when they bound the run, else over the time.
    let (length, unit) = match (generations, seconds) {
        (Some(generations), None) => (generations, "generations"),
        (_, Some(seconds)) => (seconds.ceil() as u64, "s"),
        (None, None) => (0, ""),
    };
    let bar = ProgressBar::new(length);
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} · {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

fn show(bar: &ProgressBar, progress: &Progress, by_generation: bool) {
    let seconds = progress.elapsed.as_secs_f64();
    bar.set_position(if by_generation {
        progress.generation
    } else {
        seconds as u64
    });
    let rate = progress.candidates as f64 / seconds.max(1e-3);
    let best = progress
        .best_par
        .map_or("none yet".to_string(), |par| par.to_string());
    bar.set_message(format!(
        "generation {} · best par {best} (any: {}) · {rate:.0} candidates/s",
        progress.generation, progress.top_par
    ));
}

/// The level's name: its file name without the extension.
fn stem(out: &std::path::Path) -> String {
    out.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A header hint that names the mechanics the level needs.
fn hint<'a>(mechanics: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let parts: Vec<String> = mechanics
        .map(|(name, class)| format!("{name} ({class})"))
        .collect();
    if parts.is_empty() {
        "no mechanics, just the grid".to_string()
    } else {
        format!("uses {}", parts.join(", "))
    }
}

/// The expectation file's `notes`: how the level was made and the command
/// that makes it again (with the generation count the run actually reached,
/// which is reproducible even when the run was bounded by time).
fn notes(args: &Args, memory: Option<u64>, target: &Target, generated: &Generated) -> String {
    let mut command = format!(
        "puzzle-qa generate {} --min-par {} --width {} --height {} --mechanics {}",
        args.game,
        target.min_par,
        target.width,
        target.height,
        target.mechanics.join(",")
    );
    if target.min_mechanics > 0 {
        command.push_str(&format!(" --min-mechanics {}", target.min_mechanics));
    }
    if target.require_needed {
        command.push_str(" --require-needed");
    }
    if args.limit != puzzle_qa_core::_cli_support::generate::DEFAULT_LIMIT {
        command.push_str(&format!(" --limit {}", args.limit));
    }
    if let Some(memory) = memory {
        command.push_str(&format!(
            " --memory {:#}",
            puzzle_qa_core::search::Size(memory)
        ));
    }
    command.push_str(&format!(
        " --seed {} --generations {}",
        args.seed, generated.generations
    ));
    format!(
        "Generated by `{command}`: par {} after {} generations ({} candidates).",
        generated.best.par, generated.generations, generated.candidates
    )
}

fn print_summary(
    placement: &Placement,
    target: &Target,
    generated: &Generated,
    verdicts: &[(String, puzzle_qa_core::_cli_support::harness::Verdict)],
) {
    let best = &generated.best;
    println!(
        "wrote {} and {}",
        placement.level.display(),
        placement.expectations.display()
    );
    let mechanics: Vec<String> = best
        .classes()
        .iter()
        .map(|(name, class)| format!("{name} {class}"))
        .collect();
    println!(
        "  par {} · mechanics: {} · {} generations, {} candidates in {:.1} s",
        best.par,
        if mechanics.is_empty() {
            "none".to_string()
        } else {
            mechanics.join(", ")
        },
        generated.generations,
        generated.candidates,
        generated.elapsed.as_secs_f64()
    );
    let checks: Vec<String> = verdicts
        .iter()
        .map(|(check, verdict)| format!("{check} {}", verdict.label()))
        .collect();
    println!("  checks: {}", checks.join(", "));
    for (check, verdict) in verdicts.iter().filter(|(_, verdict)| !verdict.passed()) {
        if let Some(message) = verdict.message() {
            println!("  {check}: {message}");
        }
    }
    let mut wanted = vec![format!("par ≥ {}", target.min_par)];
    if target.min_mechanics > 0 {
        wanted.push(format!("≥ {} mechanic kinds", target.min_mechanics));
    }
    if target.require_needed {
        wanted.push("every mechanic needed".to_string());
    }
    let verdict = if generated.met {
        "met"
    } else {
        "NOT met (the best level found is written)"
    };
    println!("  target {verdict}: {}", wanted.join(", "));
    println!(
        "Next: look at it with `puzzle-qa solve {}`, then commit both files.",
        placement.level.display()
    );
}
