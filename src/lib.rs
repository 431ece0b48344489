//! The `puzzle-qa` command line and the merge-gate report: the one crate
//! that names the games. Everything game-neutral is in `puzzle-qa-core`.

#![warn(missing_docs)]

pub mod cli;
pub mod games;
pub mod report;
