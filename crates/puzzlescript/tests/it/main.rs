//! The PuzzleScript crate's integration tests, one binary.

mod conformance;
mod compile_errors;
mod simulation;
