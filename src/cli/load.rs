//! Reading a level file from disk for a command, with errors rendered for
//! the terminal.

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::games::{GAMES, find};
use crate::level::{GameInfo, Loaded, infer_game};

/// A level file read and parsed.
pub struct LoadedFile {
    pub game: &'static GameInfo,
    pub loaded: Loaded,
}

/// Reads and parses `path`; warnings go to stderr, and an error comes back
/// rendered, ready to print.
pub fn load(path: &Path, game: Option<&str>) -> Result<LoadedFile, String> {
    let shown = path.display().to_string();
    let game = match game {
        Some(name) => find(name).ok_or_else(|| {
            format!(
                "error: unknown game `{name}`\n  = hint: games are {}\n",
                game_names()
            )
        })?,
        None => infer_game(path, GAMES).ok_or_else(|| {
            format!(
                "error: cannot tell the game of {shown} from its folder\n  = hint: put it under \
                 levels/<game>/ or pass --game GAME (games are {})\n",
                game_names()
            )
        })?,
    };
    let bytes =
        std::fs::read(path).map_err(|error| format!("error: cannot read {shown}: {error}\n"))?;
    let text = String::from_utf8(bytes).map_err(|error| {
        Diagnostic::error(format!(
            "not a text file: invalid UTF-8 at byte {}",
            error.utf8_error().valid_up_to()
        ))
        .render(&shown, "")
    })?;
    let loaded = (game.load)(&text).map_err(|error| error.render(&shown, &text))?;
    for warning in &loaded.warnings {
        eprint!("{}", warning.render(&shown, &text));
    }
    Ok(LoadedFile { game, loaded })
}

fn game_names() -> String {
    GAMES
        .iter()
        .map(|game| game.name)
        .collect::<Vec<_>>()
        .join(", ")
}
