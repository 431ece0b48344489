//! A manifest's game as the harness sees it: its [`GameChecks`].

use std::sync::Arc;

use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

use crate::level::{Level, Shared};
use crate::manifest::Manifest;
use crate::pool::Pool;

/// The checks of the game `manifest` declares: every search check, its
/// levels loaded (and played) by the game's own processes. The game lives
/// as long as the program: a command names its games once.
pub fn game_checks(manifest: Manifest) -> GameChecks {
    let name: &'static str = Box::leak(manifest.name.clone().into_boxed_str());
    let extension: &'static str = Box::leak(manifest.extension.clone().into_boxed_str());
    let shared = Arc::new(Shared::new(Pool::new(manifest)));
    let load = Box::leak(Box::new(move |text: &str| {
        let (level, warnings) = Level::load(&shared, text)?;
        Ok(Loaded::new(level, warnings))
    }));
    GameChecks::new(name, extension, load, puzzle_qa_core::checks::SEARCH)
}
