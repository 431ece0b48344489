//! PuzzleScript for puzzle-qa (`docs/games/puzzlescript.md`): a parser, a
//! compiler and a turn engine that play a game as the official engine does.
//!
//! * `ast.rs`: what the parser reads, section by section.
//! * `parse/`: the source text to [`ast::Parsed`], with the official
//!   engine's parse errors and warnings (a file per section).
//! * `log.rs`: those messages, kept as the official engine keeps them.

#![warn(missing_docs, unreachable_pub)]

pub mod ast;
pub mod log;
mod parse;

pub use parse::parse;
mod bits;
pub mod engine;
mod rng;
pub use rng::Rng;
pub mod compile;
mod palette;
