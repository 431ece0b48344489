//! Games whose rules live in another language, played over puzzle-qa's
//! game protocol (docs/protocol.md): a manifest (`game.toml`) names the
//! command that starts the game; its processes load levels and play moves,
//! and the core's searches keep the visited set and the queue.
//!
//! - [`manifest`]: reading `game.toml`.
//! - `wire`: the messages, as JSON.
//! - `method`: each method's name, params and result, tied together.
//! - `child`: one process (start, greet, ask, and every fault it can make).
//! - `stderr`: a process's stderr, its last lines kept for a fault.
//! - `pool`: a game's processes, lent to parallel searches.
//! - [`level`]: a level as a core `Game`, each rule a request.
//! - [`harness`]: a manifest's game as the harness sees it.

#![warn(missing_docs, unreachable_pub)]

mod child;
pub mod harness;
pub mod level;
pub mod manifest;
mod method;
mod pool;
mod stderr;
mod wire;

pub use child::{Fault, Traffic, traffic};
pub use harness::game_checks;
pub use manifest::Manifest;
pub use wire::VERSION;
