//! Bloxorz: a 1×1×2 block rolls over tiles to drop upright into the goal.
//!
//! * `level.rs`: the level file format and its checks ([`parse`], [`print()`]).
//! * `rules.rs`: the pure step function and the state encoding.
//! * `notation.rs`: move text.
//! * `ablate`: the mechanics ablation takes out (`weak-tile`,
//!   `strong-switch`, `bridge`, `teleport`).
//! * `bound`: the A* heuristic, distances to a win in relaxed games,
//!   computed once per level (and per ablated copy) when A* first asks.

#![warn(missing_docs, unreachable_pub)]

mod ablate;
mod bound;
mod level;
mod mutate;
pub use mutate::GENERATOR;
mod notation;
mod picture;
mod rules;

pub use level::{Level, parse, print};
pub use rules::{Dir, Move, Refusal, Shape, State};

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

/// Bloxorz, as the harness checks it.
pub const GAME: GameChecks =
    GameChecks::new("bloxorz", "txt", &load, puzzle_qa_core::checks::SEARCH);

fn load(text: &str) -> Result<Loaded, Diagnostic> {
    let (level, warnings) = level::parse(text)?;
    Ok(Loaded::new(level, warnings))
}

#[cfg(test)]
mod tests;
