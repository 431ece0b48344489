//! The checks a search game runs on each of its levels. They are game-neutral:
//! each asks [`Subject`] for the parsed level, its
//! expectations and its shared solution, and never names a game.
//!
//! In trial order: [`Parse`], [`Solvable`], [`Par`], [`Replay`], [`Routes`],
//! [`Ablations`]; each one's doc says what it proves and which expectation
//! keys it owns, and docs/checks.md has them side by side for designers.

mod ablation;
mod parse;
mod routes;
mod search;

pub use ablation::Ablations;
pub use parse::Parse;
pub use routes::{Route, Routes};
pub use search::{Par, Replay, Solvable};

use crate::game::Cost;
use crate::harness::{Check, MemoryFrom, Subject};
use crate::level::{AnyLevel, HangReport, Solution};
use crate::search::{Bound, Size};

/// The checks of a game whose levels are solved by search, in trial order.
pub static SEARCH: &[&dyn Check] = &[&Parse, &Solvable, &Par, &Replay, &Routes, &Ablations];

/// Plays a recorded move text on `level`: the moves counted toward par if
/// it wins, else why not, worded to follow "route `x` " or "the stored
/// solution ".
fn play(level: &dyn AnyLevel, moves: &str) -> Result<Cost, String> {
    let report = level
        .replay_text(moves)
        .map_err(|error| format!("does not read: column {}: {}", error.column, error.message))?;
    match (report.won, report.failed_at) {
        (true, None) => return Ok(report.moves),
        // A route is a whole solution: moves after the win are a slip.
        (true, Some(index)) => {
            return Err(format!(
                "wins before its end: the win takes {} moves, and move {} and those after it \
                 come after the win; cut them",
                report.moves,
                index + 1
            ));
        }
        (false, _) => {}
    }
    let at = report
        .failed_at
        .map_or(String::new(), |index| format!(" at move {}", index + 1));
    let reason = report.reason.as_deref().unwrap_or("it ends before the win");
    Err(format!("no longer wins{at}: {reason}"))
}

/// A move that never settles, as a check reports it: why, the fewest moves
/// that reach it, and the command that replays them.
fn hang_problem(subject: &crate::harness::Subject, hang: &HangReport) -> String {
    let entry = subject.entry();
    // The file as a command run from here reaches it (messages show it from
    // the project's root, which need not be here).
    let here = std::env::current_dir().ok();
    let path = here
        .and_then(|here| entry.level_path.strip_prefix(here).ok())
        .unwrap_or(&entry.level_path);
    let replay =
        subject
            .settings()
            .replay_command(&path.display().to_string(), entry.member, &hang.moves);
    format!(
        "a move never settles, so a player who makes it is stuck: {}\n  reached by the fewest \
         moves `{}`; replay them with `{replay}`",
        hang.reason, hang.moves
    )
}

/// What to do about a search of `subject` that stopped at a bound: how
/// much its last depth grew (when it was breadth-first), then which key of
/// the expectation file raises the bound, and to what it is set now.
fn raise_hint(subject: &Subject, solution: &Solution) -> String {
    let file = &subject.entry().shown_expectation;
    let raise = match solution.bound() {
        Some(Bound::Memory) => {
            let budget = Size(solution.budget.bytes);
            let now = match subject.memory().map(|(_, from)| from) {
                Ok(MemoryFrom::Key) => format!("now {budget}"),
                Ok(MemoryFrom::Flag) => format!("now {budget}, from --memory"),
                Ok(MemoryFrom::Default) | Err(_) => format!("now {budget}, the default"),
            };
            format!("raise `memory` in {file} ({now}), or make the level smaller")
        }
        Some(Bound::Machine(_)) => format!(
            "this machine gave the search less memory than its budget of {}: free some, or run \
             it where there is more; a smaller `memory` in {file} gives a verdict that does \
             not depend on the machine",
            Size(solution.budget.bytes)
        ),
        Some(Bound::States) | None => format!(
            "raise `limit` in {file} (now {}), or remove it and let the memory budget bound \
             the search, or make the level smaller",
            solution.budget.states
        ),
    };
    match solution.growth() {
        Some(growth) => format!("{growth}\n{raise}"),
        None => raise,
    }
}
