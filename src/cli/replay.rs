//! `puzzle-qa replay`: does a move text win, and in how many moves?

use serde::Serialize;

use super::load::load;
use super::{Exit, ReplayArgs};
use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::level::ReplayReport;

/// The line of `replay --json`; scripts depend on these names.
#[derive(Serialize)]
struct ReplayLine<'a> {
    file: &'a str,
    #[serde(flatten)]
    report: &'a ReplayReport,
}

pub fn run(args: ReplayArgs) -> Exit {
    if super::puzzlescript::recognise(&args.file, args.game.as_deref()) {
        return super::puzzlescript::replay(&args);
    }
    let file = args.file.display().to_string();
    if args.level.is_some() || args.seed.is_some() {
        eprintln!(
            "error: --level and --seed are for PuzzleScript files (many levels, random rules); {file} is one level of its game\n  = hint: run `puzzle-qa replay {file} --moves ...`"
        );
        return Exit::BadInput;
    }
    let Some(loaded) = load(&args.file, args.game.as_deref(), None) else {
        return Exit::BadInput;
    };
    let report = match loaded.loaded.level.replay_text(&args.moves) {
        Ok(report) => report,
        Err(error) => {
            let width = 1;
            let message = Diagnostic::error(format!("the moves do not read: {}", error.message))
                .at(1, error.column, width)
                .render("--moves", &args.moves);
            eprint!("{message}");
            return Exit::BadInput;
        }
    };
    if args.json {
        let line = ReplayLine {
            file: &file,
            report: &report,
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("plain data serializes")
        );
    } else if report.won {
        println!("{file}: wins in {} moves", report.moves);
        if let (Some(index), Some(reason)) = (report.failed_at, &report.reason) {
            println!(
                "  move {} (0-based {index}) and after are spare: {reason}",
                index + 1
            );
        }
    } else {
        let reason = report.reason.as_deref().unwrap_or("not won");
        match report.failed_at {
            Some(index) => println!(
                "{file}: fails at move {} (0-based {index}) after {} counted moves: {reason}",
                index + 1,
                report.moves
            ),
            None => println!(
                "{file}: does not win ({} counted moves): {reason}",
                report.moves
            ),
        }
    }
    if report.won {
        Exit::Passed
    } else {
        Exit::Failed
    }
}
