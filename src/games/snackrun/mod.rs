//! Snack Run: a side-view platformer checked for reachability rather than
//! solved for a par (`shared/games/snackrun.md`). Can each bear reach the
//! goal, is every snack reachable, and can nothing trap a bear?
//!
//! * [`level`]: the level file format and its checks.
//! * [`physics`]: walks, falls and jump arcs, traced cell by cell.
//! * [`graph`]: the reachability graph and each bear's search of it.
//! * [`ablate`]: the mechanics ablation takes out (`spring`, `one-way`).
//!
//! Not yet in the game registry: the harness integration comes later.

pub mod ablate;
pub mod graph;
pub mod level;
pub mod physics;

pub use ablate::Mechanic;
pub use graph::{Graph, Reach, Shortfall, shortfall};
pub use level::{Bear, Level, Tile, parse};
pub use physics::{APEX_RUN, End, JUMP_RISE, Motion, Pos, SPRING_RISE};

#[cfg(test)]
mod tests;
