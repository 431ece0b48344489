//! What the harness knows of a game: where its levels are, how one loads,
//! and what is asked of each.

use std::path::Path;

use crate::level::{Load, Many};

use super::check::Check;

/// A game as the harness checks it. Its name is also its folder under
/// `levels/` and `expectations/`; each level of it is one trial per check.
///
/// A game crate exports one, and the `cargo test` runner
/// ([`main`](super::main)) or the command line lists it.
#[derive(Clone, Copy)]
pub struct GameChecks {
    /// The game's name: also its folder under `levels/` and `expectations/`.
    pub name: &'static str,
    /// The extension of its level files, without the dot (`"txt"`).
    pub extension: &'static str,
    /// Parses a level file's text into a playable level plus its warnings,
    /// or returns the first error. For a game whose files hold several
    /// levels, it reads a file as its first level.
    pub load: Load,
    /// For a game whose files hold several levels (`None`: one a file):
    /// how to count and read them. Each level is then a subject of its own
    /// (`<game>::<file>::<N>::<check>`), with a table `[N]` in the file's
    /// one expectation file.
    pub many: Option<Many>,
    /// What the harness asks of every level, in trial order: one trial per
    /// (level, check). A search game uses [`crate::checks::SEARCH`].
    pub checks: &'static [&'static dyn Check],
}

impl GameChecks {
    /// The game in `games` whose name is the name of `path`'s folder
    /// (`levels/GAME/NAME.txt` is a `GAME` level).
    pub fn of_folder(path: &Path, games: &'static [GameChecks]) -> Option<&'static GameChecks> {
        let folder = path.parent()?.file_name()?.to_str()?;
        games.iter().find(|game| game.name == folder)
    }
}
