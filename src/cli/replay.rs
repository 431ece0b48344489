//! `puzzle-qa replay`: does a move text win, and in how many moves? For a
//! game whose pictures show its whole board, the level after each move too.

use std::path::PathBuf;

use serde::Serialize;

use super::Exit;
use super::load::{self, LevelArgs};
use puzzle_qa_core::_cli_support::picture::ascii;
use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::game::Contents;
use puzzle_qa_core::level::ReplayReport;
use puzzle_qa_core::picture::Playback;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The moves, in the game's notation (docs/games/ gives each game's).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    moves: String,
    #[command(flatten)]
    level: LevelArgs,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
}

/// The line of `replay --json`; scripts depend on these names.
#[derive(Serialize)]
struct ReplayLine<'a> {
    file: &'a str,
    #[serde(flatten)]
    report: &'a ReplayReport,
    /// The level's number in its file, for a file of several levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u64>,
    /// What each cell holds after the last move played, for a game that
    /// tells ([`Draw::contents`](puzzle_qa_core::game::Draw::contents)).
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<&'a Contents>,
}

pub fn run(args: Args) -> Exit {
    let Some(file) = load::one(&args.file, args.level.request()) else {
        return Exit::BadInput;
    };
    let shown = file.shown.clone();
    let picked = file.into_level();
    let level = picked.level.as_ref();
    let bad_moves = |error: puzzle_qa_core::game::NotationError| {
        let message = Diagnostic::error(format!("the moves do not read: {}", error.message))
            .at(1, error.column, 1)
            .render("--moves", &args.moves);
        eprint!("{message}");
        Exit::BadInput
    };
    let report = match level.replay_text(&args.moves) {
        Ok(report) => report,
        Err(error) => return bad_moves(error),
    };
    // The same moves through the same loop, drawn: only a game whose
    // pictures are its whole board shows them.
    let board = match level.playback(&args.moves) {
        Ok(playback) => playback.filter(|playback| playback.contents.is_some()),
        Err(error) => return bad_moves(error),
    };
    if args.json {
        let line = ReplayLine {
            file: &shown,
            report: &report,
            level: picked.number,
            cells: board.as_ref().and_then(|board| board.contents.as_ref()),
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("plain data serializes")
        );
    } else {
        if let Some(board) = &board {
            print_frames(&picked.label, board);
        }
        print_verdict(&picked.label, &report);
    }
    if report.won {
        Exit::Passed
    } else {
        Exit::Failed
    }
}

/// The level at the start and after each move played, then what the
/// characters the game made up stand for.
fn print_frames(label: &str, board: &Playback) {
    for (index, frame) in board.frames.iter().enumerate() {
        match index {
            0 => println!("{label}: start"),
            _ => println!("after move {index} ({})", frame.text),
        }
        print!("{}", ascii::grid(&frame.scene));
    }
    print!("{}", ascii::invented(board));
}

/// Whether the moves win, and where they stop being legal.
fn print_verdict(label: &str, report: &ReplayReport) {
    if report.won {
        println!("{label}: wins in {} moves", report.moves);
        if let (Some(index), Some(reason)) = (report.failed_at, &report.reason) {
            println!(
                "  move {} (0-based {index}) and after are spare: {reason}",
                index + 1
            );
        }
        return;
    }
    let reason = report.reason.as_deref().unwrap_or("not won");
    match report.failed_at {
        Some(index) => println!(
            "{label}: fails at move {} (0-based {index}) after {} counted moves: {reason}",
            index + 1,
            report.moves
        ),
        None => println!(
            "{label}: does not win ({} counted moves): {reason}",
            report.moves
        ),
    }
}
