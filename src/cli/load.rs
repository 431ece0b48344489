//! Reading a level file from disk for a command, with errors rendered for
//! the terminal.

use std::path::Path;

use crate::games::{all, find};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::{Loaded, read_level, read_levels};

/// A level file read and parsed.
pub struct LoadedFile {
    pub game: &'static GameChecks,
    pub loaded: Loaded,
    /// The level's number in its file, for a game whose files hold several.
    pub level: Option<u64>,
}

/// Reads and parses `path`: for a game whose files hold several levels,
/// level `level` of it (default 1). Warnings and any error go to stderr,
/// rendered against the file; `None` means the error was printed (bad
/// input, exit 2).
pub fn load(path: &Path, game: Option<&str>, level: Option<u64>) -> Option<LoadedFile> {
    match read(path, game, level) {
        Ok(loaded) => Some(loaded),
        Err(message) => {
            eprint!("{message}");
            None
        }
    }
}

fn read(path: &Path, game: Option<&str>, level: Option<u64>) -> Result<LoadedFile, String> {
    let shown = path.display().to_string();
    let game = match game {
        Some(name) => find(name).ok_or_else(|| {
            format!(
                "error: unknown game `{name}`\n  = hint: games are {}\n",
                crate::games::names()
            )
        })?,
        None if let Some(named) = crate::games::named() => named,
        None if GameChecks::of_folder(path, all()).is_none()
            && super::puzzlescript::recognise(path, None) =>
        {
            find(super::puzzlescript::NAME).expect("PuzzleScript is registered")
        }
        None => GameChecks::of_folder(path, all()).ok_or_else(|| {
            format!(
                "error: cannot tell the game of {shown} from its folder\n  = hint: put it under \
                 levels/<game>/ or pass --game GAME (games are {})\n",
                crate::games::names()
            )
        })?,
    };
    let Some(many) = game.many else {
        if level.is_some() {
            return Err(format!(
                "error: --level: a {} file holds one level\n",
                game.name
            ));
        }
        let (text, loaded) = read_level(path, &shown, game.load)?;
        for warning in &loaded.warnings {
            eprint!("{}", warning.render(&shown, &text));
        }
        return Ok(LoadedFile {
            game,
            loaded,
            level: None,
        });
    };
    let (text, file) = read_levels(path, &shown, many)?;
    let number = level.unwrap_or(1);
    let count = file.levels.len();
    let member = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|index| file.levels.into_iter().nth(index))
        .ok_or_else(|| {
            format!(
                "error: {shown} has {count} levels; there is no level {number}\n  = hint: \
                 levels count from 1\n"
            )
        })?;
    let loaded = member.level.map_err(|error| error.render(&shown, &text))?;
    for warning in file.warnings.iter().chain(&loaded.warnings) {
        eprint!("{}", warning.render(&shown, &text));
    }
    Ok(LoadedFile {
        game,
        loaded,
        level: Some(number),
    })
}
