//! The game registry: the one place that names every game. Each game is a
//! crate of its own, written against `puzzle-qa-core` alone; here its
//! checks (what the harness needs) and its level generator, if it has one,
//! meet.

use puzzle_qa_core::generate::Generator;
use puzzle_qa_core::harness::GameChecks;

/// Every game puzzle-qa knows, by name.
pub static GAMES: &[GameChecks] = &[
    bloxorz::GAME,
    hugmaze::GAME,
    snackrun::GAME,
    puzzlescript::GAME,
];

/// The games that can make levels (`puzzle-qa generate`), each with its
/// level generator.
static GENERATORS: &[(&str, &dyn Generator)] = &[
    (bloxorz::GAME.name, bloxorz::GENERATOR),
    (hugmaze::GAME.name, hugmaze::GENERATOR),
];

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static GameChecks> {
    GAMES.iter().find(|game| game.name == name)
}

/// The level generator of the game called `name`, if it has one.
pub fn generator(name: &str) -> Option<&'static dyn Generator> {
    GENERATORS
        .iter()
        .find(|(game, _)| *game == name)
        .map(|(_, generator)| *generator)
}

/// The names of the games that have a level generator.
pub fn with_generators() -> impl Iterator<Item = &'static str> {
    GENERATORS.iter().map(|(game, _)| *game)
}

/// The registered games' names, for messages: `bloxorz, hugmaze`.
pub fn names() -> String {
    GAMES
        .iter()
        .map(|game| game.name)
        .collect::<Vec<_>>()
        .join(", ")
}
