//! The game registry: the one place that names every game. Each game is a
//! crate of its own, known here only through
//! [`puzzle_qa_core::game::Game`] and its [`GameInfo`] entry here.

use puzzle_qa_core::level::GameInfo;

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
