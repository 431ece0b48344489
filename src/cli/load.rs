//! Reading a level file from disk for a command, with errors rendered for
//! the terminal.

use std::path::Path;

use crate::games::{GAMES, find};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::{Loaded, read_level};

/// A level file read and parsed.
pub struct LoadedFile {
    pub game: &'static GameChecks,
    pub loaded: Loaded,
}

/// Reads and parses `path`. Warnings and any error go to stderr, rendered
/// against the file; `None` means the error was printed (bad input, exit 2).
pub fn load(path: &Path, game: Option<&str>) -> Option<LoadedFile> {
    match read(path, game) {
        Ok(loaded) => Some(loaded),
        Err(message) => {
            eprint!("{message}");
            None
        }
    }
}

fn read(path: &Path, game: Option<&str>) -> Result<LoadedFile, String> {
    let shown = path.display().to_string();
    let game = match game {
        Some(name) => find(name).ok_or_else(|| {
            format!(
                "error: unknown game `{name}`\n  = hint: games are {}\n",
                crate::games::names()
            )
        })?,
        None => GameChecks::of_folder(path, GAMES).ok_or_else(|| {
            format!(
                "error: cannot tell the game of {shown} from its folder\n  = hint: put it under \
                 levels/<game>/ or pass --game GAME (games are {})\n",
                crate::games::names()
            )
        })?,
    };
    let (text, loaded) = read_level(path, &shown, game.load)?;
    for warning in &loaded.warnings {
        eprint!("{}", warning.render(&shown, &text));
    }
    Ok(LoadedFile { game, loaded })
}
