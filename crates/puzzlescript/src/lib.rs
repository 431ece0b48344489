//! PuzzleScript for puzzle-qa (`docs/games/puzzlescript.md`): a parser, a
//! compiler and a turn engine that play a game as the official engine does.
//!
//! * `ast.rs`: what the parser reads, section by section.
//! * `parse/`: the source text to [`ast::Parsed`], with the official
//!   engine's parse errors and warnings (a file per section).
//! * `log.rs`: those messages, kept as the official engine keeps them.
//! * `compile/`: the parsed game to a [`compile::Game`], a step a file.
//! * `engine/`: [`engine::Engine`], which plays it turn by turn, a concern
//!   a file.
//! * `bits.rs`: the masks both work in; `command.rs`: a rule's commands.

#![warn(missing_docs, unreachable_pub)]

pub mod ast;
pub mod log;
mod parse;

pub use parse::parse;
mod bits;
mod command;
pub mod engine;
mod harness;
pub use harness::GAME;
pub mod level;
pub mod play;
mod rng;
pub use rng::Rng;
pub mod compile;
mod draw;
mod pack;
mod palette;

use puzzle_qa_core::diagnostic::Diagnostic;

/// Compiles a game file: the game and its warnings, or every message when
/// any is an error (the official engine would not play it as written).
pub fn load(source: &str) -> Result<(compile::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (game, log) = compile::compile(source);
    match game {
        Some(game) if !log.has_errors() => Ok((game, log.diagnostics_in(source))),
        _ => {
            let mut all = log.diagnostics_in(source);
            if all.is_empty() {
                all.push(Diagnostic::error("the game does not compile"));
            }
            Err(all)
        }
    }
}

/// Whether a text reads as a PuzzleScript game: it has section headers
/// (OBJECTS and at least two others) on lines of their own.
pub fn looks_like(text: &str) -> bool {
    let headers: std::collections::HashSet<String> = text
        .lines()
        .map(|l| l.trim().to_lowercase())
        .filter(|l| parse::SECTIONS.contains(&l.as_str()))
        .collect();
    headers.contains("objects") && headers.len() >= 3
}
