//! puzzle-qa's core: prove that puzzle levels are solvable, that their par is
//! the true optimum, and that their solutions win under the game's own rules.
//! It names no game: games plug in through [`game::Game`].
//!
//! See ARCHITECTURE.md for a map of the modules.

#![warn(missing_docs, unreachable_pub)]

pub mod abandon;
pub mod ablation;
pub mod checks;
pub mod diagnostic;
pub mod game;
pub mod generate;
pub mod harness;
pub mod level;
pub mod picture;
pub mod replay;
pub mod search;
