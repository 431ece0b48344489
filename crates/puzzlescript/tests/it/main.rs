//! The puzzlescript crate's integration tests, one binary: a module per
//! subject.

mod compile_errors;
mod conformance;
mod fixtures;
mod hang;
mod parse_messages;
mod pictures;
mod search;
mod simulation;
