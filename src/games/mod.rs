//! The game registry: the one place that names every game. Each game lives
//! in its own folder and is known to the rest of the crate only through
//! [`crate::game::Game`] and its [`GameInfo`] entry here.

pub mod bloxorz;
pub mod hugmaze;
pub mod snackrun;

use crate::level::GameInfo;

/// Every game puzzle-qa knows, by name.
pub static GAMES: &[GameInfo] = &[bloxorz::GAME, hugmaze::GAME, snackrun::GAME];

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|game| game.name == name)
}

/// The registered games' names, for messages: `bloxorz, hugmaze`.
pub fn names() -> String {
    GAMES
        .iter()
        .map(|game| game.name)
        .collect::<Vec<_>>()
        .join(", ")
}
