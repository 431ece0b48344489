//! Reading level files for a command, every game alike: which game a file
//! is, which of its levels the command acts on (`--level`), seeded how
//! (`--seed`), with warnings and errors rendered for the terminal.

use std::path::Path;

use crate::games::{all, find};
use puzzle_qa_core::_cli_support::level::{read_level, read_levels, read_text};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::{AnyLevel, Loaded};

/// What a command asked of the files it was given.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// `--game`: the game of every file, instead of telling it.
    pub game: Option<&'a str>,
    /// `--level N`: level N of a file of several (counting from 1).
    pub level: Option<u64>,
    /// `--seed`: the seed of the level's random generator.
    pub seed: Option<&'a str>,
}

/// Which level of one file a command plays (`replay`, `show`), and how.
#[derive(clap::Args, Debug)]
pub struct LevelArgs {
    /// The game of FILE, instead of telling it from its folder (or, for a
    /// file outside any game's folder, from its text).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// For a file of many levels (PuzzleScript): the level, counting grid
    /// levels from 1 (message entries are not levels); 1 by default.
    #[arg(long, value_name = "N")]
    level: Option<u64>,
    /// For a game that uses randomness: the seed of its random generator.
    #[arg(long, value_name = "TEXT")]
    seed: Option<String>,
}

impl LevelArgs {
    /// What these flags ask of a file.
    pub fn request(&self) -> Request<'_> {
        Request {
            game: self.game.as_deref(),
            level: self.level,
            seed: self.seed.as_deref(),
        }
    }
}

/// A level file read and parsed: its game and the levels picked from it.
pub struct LevelFile {
    pub game: &'static GameChecks,
    /// The file as messages show it.
    pub shown: String,
    /// The levels picked, in file order.
    pub levels: Vec<Picked>,
    /// Whether a picked level of the file did not load (its error printed;
    /// the others are in `levels`).
    pub bad: bool,
}

/// One level picked from a file.
pub struct Picked {
    /// The parsed level.
    pub level: Box<dyn AnyLevel>,
    /// Its number in its file, for a game whose files hold several.
    pub number: Option<u64>,
    /// The level as messages name it: `FILE`, or `FILE level N`.
    pub label: String,
}

impl LevelFile {
    /// The one level picked (a file read with [`one`]).
    pub fn into_level(self) -> Picked {
        self.levels
            .into_iter()
            .next()
            .expect("`one` picks one level")
    }
}

/// Reads `path` for a command that acts on one level: for a game whose
/// files hold several, level `--level` (default 1). `None` means an error
/// was printed (bad input, exit 2).
pub fn one(path: &Path, request: Request) -> Option<LevelFile> {
    read(path, request, Some(1))
        .map_err(|message| eprint!("{message}"))
        .ok()
        .filter(|file| !file.levels.is_empty())
}

/// Reads `path` for a command that acts on every level of a file: level
/// `--level` alone if given. `None` means an error was printed (bad input,
/// exit 2).
pub fn every(path: &Path, request: Request) -> Option<LevelFile> {
    read(path, request, None)
        .map_err(|message| eprint!("{message}"))
        .ok()
}

/// Reads `path`: of a file of several levels, level `--level`, else level
/// `unasked` (`None`: every level).
fn read(path: &Path, request: Request, unasked: Option<u64>) -> Result<LevelFile, String> {
    let shown = path.display().to_string();
    let game = game_of(path, &shown, request.game)?;
    let seeded = |loaded: Loaded| -> Result<Box<dyn AnyLevel>, String> {
        match request.seed {
            None => Ok(loaded.level),
            Some(seed) => loaded.level.reseeded(seed).ok_or_else(|| {
                format!(
                    "error: --seed seeds a game's random generator; {} levels have none\n",
                    game.name
                )
            }),
        }
    };
    let Some(many) = game.many else {
        if request.level.is_some() {
            return Err(format!(
                "error: --level picks a level of a file of many levels; {shown} is one {} level\n  \
                 = hint: run the command without --level\n",
                game.name
            ));
        }
        let (text, loaded) = read_level(path, &shown, game.load)?;
        for warning in &loaded.warnings {
            eprint!("{}", warning.render(&shown, &text));
        }
        return Ok(LevelFile {
            game,
            levels: vec![Picked {
                level: seeded(loaded)?,
                number: None,
                label: shown.clone(),
            }],
            shown,
            bad: false,
        });
    };
    let (text, file) = read_levels(path, &shown, many)?;
    let count = file.levels.len();
    if count == 0 {
        return Err(format!(
            "error: {shown} holds no level: it reads as a {} file, but none of its entries is \
             a level, so there is nothing to play\n  = hint: add a level (in PuzzleScript, a grid \
             in LEVELS; a `message` is not a level)\n",
            game.name
        ));
    }
    let only = request.level.or(unasked);
    if let Some(number) = only
        && !(1..=count as u64).contains(&number)
    {
        return Err(format!(
            "error: {shown} has {count} level{}; there is no level {number}\n  = hint: --level \
             takes 1..={count} (levels count from 1; message entries are not levels)\n",
            if count == 1 { "" } else { "s" }
        ));
    }
    for warning in &file.warnings {
        eprint!("{}", warning.render(&shown, &text));
    }
    let mut picked = LevelFile {
        game,
        shown: shown.clone(),
        levels: Vec::new(),
        bad: false,
    };
    for (number, member) in (1..).zip(file.levels) {
        if only.is_some_and(|only| only != number) {
            continue;
        }
        match member.level {
            Ok(loaded) => {
                for warning in &loaded.warnings {
                    eprint!("{}", warning.render(&shown, &text));
                }
                picked.levels.push(Picked {
                    level: seeded(loaded)?,
                    number: Some(number),
                    label: format!("{shown} level {number}"),
                });
            }
            Err(error) => {
                eprint!("{}", error.render(&shown, &text));
                picked.bad = true;
            }
        }
    }
    Ok(picked)
}

/// The game of the file at `path`: `--game`'s, else the only
/// `--game-manifest`'s, else its folder's, else the first game that
/// recognises its text.
fn game_of(path: &Path, shown: &str, named: Option<&str>) -> Result<&'static GameChecks, String> {
    if let Some(name) = named {
        return find(name).ok_or_else(|| {
            format!(
                "error: unknown game `{name}`\n  = hint: games are {}\n",
                crate::games::names()
            )
        });
    }
    if let Some(game) = crate::games::named().or_else(|| GameChecks::of_folder(path, all())) {
        return Ok(game);
    }
    recognised(path).ok_or_else(|| unrecognised(path, shown))
}

/// The game whose files read like the text of `path`, for a file that
/// stands outside any game's folder (`mygame.txt` alone).
pub fn recognised(path: &Path) -> Option<&'static GameChecks> {
    let text = String::from_utf8(std::fs::read(path).ok()?).ok()?;
    GameChecks::of_text(&text, all())
}

/// Why no game could be told for the file at `path` (shown as `shown`),
/// which stands outside any game's folder, rendered: the real cause when
/// there is one (it is a folder, cannot be read, is not UTF-8 text, with
/// the line and column of the first bad byte, or is empty), else that no
/// game reads its text as one of its files.
pub fn unrecognised(path: &Path, shown: &str) -> String {
    if path.is_dir() {
        return format!(
            "error: {shown} is a folder, not a level file\n  = hint: name a level file, or a \
             game file such as `mygame.txt`\n"
        );
    }
    let text = match read_text(path, shown) {
        Ok(text) => text,
        Err(rendered) => return rendered,
    };
    if text.trim().is_empty() {
        return format!(
            "error: {shown} is empty: it holds no game and no level\n  = hint: a level file \
             holds a level (or, for a game of one file, the whole game); write one, or pass \
             --game GAME to hear what that game expects of it (games are {})\n",
            crate::games::names()
        );
    }
    format!(
        "error: cannot tell the game of {shown}: it is in no game's folder, and no game reads \
         its text as one of its files\n  = hint: put it under levels/<game>/ or pass --game \
         GAME (games are {})\n",
        crate::games::names()
    )
}
