//! The puzzlescript crate's integration tests, one binary: a module per
//! subject.

mod parse_messages;
