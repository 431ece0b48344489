//! Snack Run: a side-view platformer checked for reachability rather than
//! solved for a par (`docs/games/snackrun.md`). Can each bear reach the
//! goal, is every snack reachable, and can nothing trap a bear?
//!
//! * `level.rs`: the level file format and its checks.
//! * `physics.rs`: walks, falls and jump arcs, traced cell by cell.
//! * `graph.rs`: the reachability graph and each bear's search of it.
//! * `ablate.rs`: the mechanics ablation takes out (`spring`, `one-way`).
//! * `course.rs`: a level with its graph and reach, as a [`puzzle_qa_core::game::Game`].
//! * `checks.rs`: `goal`, `snacks`, `traps`, `ablation`.

#![warn(missing_docs, unreachable_pub)]

mod ablate;
mod checks;
mod course;
mod graph;
mod level;
mod physics;
mod picture;

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

/// Snack Run, as the harness checks it.
pub const GAME: GameChecks = GameChecks::new("snackrun", "txt", &load, checks::CHECKS);

fn load(text: &str) -> Result<Loaded, Diagnostic> {
    let (level, warnings) = parse(text)?;
    Ok(Loaded::new(Course::new(level), warnings))
}

pub use ablate::Mechanic;
pub use course::Course;
pub use graph::{Graph, Reach, shortfall};
pub use level::{Bear, Level, MAX_CELLS, Tile, parse};
pub use physics::{APEX_RUN, End, JUMP_RISE, Motion, Pos, SPRING_RISE};

#[cfg(test)]
mod tests;
