//! Hug Maze: two bears, Bubu and Dudu, must meet on a heart
//! (`docs/games/hugmaze.md`; the Hug Maze article for intent).
//!
//! * `level.rs`: the level file format and its checks.
//! * `rules.rs`: the pure step function and the state.
//! * `notation.rs`: move text (`B:R D:U`).
//! * `ablate`: the mechanics ablation takes out (`mouse-hole`, `block`,
//!   `jar`, `cushion`, `plate`, `gate`, `cat`).

#![warn(missing_docs, unreachable_pub)]

mod ablate;
mod level;
mod mutate;
pub use mutate::GENERATOR;
mod notation;
mod packed;
mod picture;
mod rules;
mod tables;

pub use level::{Kind, Level, Tile, parse, print};
pub use packed::{Packed, Word};
pub use rules::{Bear, Dir, Move, NOWHERE, Refusal, State};

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

/// Hug Maze, as the harness checks it.
pub const GAME: GameChecks =
    GameChecks::new("hugmaze", "txt", &load, puzzle_qa_core::checks::SEARCH);

/// Loads a level as the narrowest game its state packs into.
fn load(text: &str) -> Result<Loaded, Diagnostic> {
    let (level, warnings) = level::parse(text)?;
    Ok(if Packed::<u32>::fits(&level) {
        Loaded::new(Packed::<u32>::new(level), warnings)
    } else if Packed::<u64>::fits(&level) {
        Loaded::new(Packed::<u64>::new(level), warnings)
    } else if Packed::<u128>::fits(&level) {
        Loaded::new(Packed::<u128>::new(level), warnings)
    } else {
        Loaded::new(level, warnings)
    })
}

#[cfg(test)]
mod tests;
