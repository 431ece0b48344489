//! What the harness knows of a game: where its levels are, how one loads,
//! and what is asked of each.

use std::path::Path;

use crate::level::{Load, Many};

use super::check::Check;

/// A game as the harness checks it. Its name is also its folder under
/// `levels/` and `expectations/`; each level of it is one trial per check.
///
/// A game crate exports one, built with [`GameChecks::new`] and the
/// methods after it, and the `cargo test` runner
/// ([`main`](super::main)) or the command line lists it. New optional
/// parts come as new methods, so a game written today keeps compiling.
///
/// ```
/// use puzzle_qa_core::checks::SEARCH;
/// use puzzle_qa_core::diagnostic::Diagnostic;
/// use puzzle_qa_core::harness::GameChecks;
/// use puzzle_qa_core::level::Loaded;
///
/// fn load(text: &str) -> Result<Loaded, Diagnostic> {
///     Err(Diagnostic::error(format!("{} bytes, and no rules yet", text.len())))
/// }
///
/// const GAME: GameChecks = GameChecks::new("mygame", "txt", &load, SEARCH)
///     .recognised_by(|text| text.starts_with("MYGAME"));
/// assert_eq!(GAME.name, "mygame");
/// assert!(GAME.many.is_none());
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
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
    /// Whether a file's text is one of this game's, for a file that stands
    /// outside any game's folder (`mygame.txt` alone): `None` when the
    /// game cannot tell its files from their text.
    pub recognises: Option<fn(text: &str) -> bool>,
}

impl GameChecks {
    /// A game called `name` (its folder under `levels/` and
    /// `expectations/`), whose level files end in `.extension`, read by
    /// `load`, each level asked `checks`; one level a file, told by its
    /// folder alone.
    pub const fn new(
        name: &'static str,
        extension: &'static str,
        load: Load,
        checks: &'static [&'static dyn Check],
    ) -> GameChecks {
        GameChecks {
            name,
            extension,
            load,
            many: None,
            checks,
            recognises: None,
        }
    }

    /// The same game, whose files each hold several levels, read by `many`.
    pub const fn with_many(self, many: Many) -> GameChecks {
        GameChecks {
            many: Some(many),
            ..self
        }
    }

    /// The same game, which tells its files from their text with
    /// `recognises` (a file outside any game's folder is this game's when it
    /// says so).
    pub const fn recognised_by(self, recognises: fn(text: &str) -> bool) -> GameChecks {
        GameChecks {
            recognises: Some(recognises),
            ..self
        }
    }

    /// The game in `games` whose name is the name of `path`'s folder
    /// (`levels/GAME/NAME.txt` is a `GAME` level).
    pub fn of_folder(path: &Path, games: &'static [GameChecks]) -> Option<&'static GameChecks> {
        let folder = path.parent()?.file_name()?.to_str()?;
        games.iter().find(|game| game.name == folder)
    }

    /// The first game in `games` that recognises `text` as one of its files
    /// ([`GameChecks::recognised_by`]).
    pub fn of_text(text: &str, games: &'static [GameChecks]) -> Option<&'static GameChecks> {
        games
            .iter()
            .find(|game| game.recognises.is_some_and(|recognises| recognises(text)))
    }
}
