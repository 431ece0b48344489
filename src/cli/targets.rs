//! What `check`, `bless` and `review` were asked to act on: a repository
//! root, a levels/ folder, a game folder, level files, game files on their
//! own, or trial-name filters, each path resolved to the project it belongs
//! to; and how filters select names.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::games::{all, find};
use puzzle_qa_core::_cli_support::harness::Settings;
use puzzle_qa_core::harness::GameChecks;

/// What the command line asked for: levels per project root, game files on
/// their own, and trial-name filters ([`Filters`]).
pub struct Selection {
    pub groups: BTreeMap<PathBuf, Group>,
    /// Game files outside any repository (`mygame.txt` of PuzzleScript),
    /// each with its expectations beside it (`mygame.expectations.toml`),
    /// checked from the current folder: messages show paths from there, so
    /// a command they suggest names the file as it is typed here.
    pub standalone: Vec<(&'static GameChecks, PathBuf)>,
    /// The current folder: the root of the standalone files' checks.
    pub here: PathBuf,
    pub filters: Vec<String>,
}

pub enum Group {
    /// Every level under the root, and the `orphans` check.
    Whole,
    /// These level files only.
    Levels(Vec<(&'static GameChecks, PathBuf)>),
}

impl Selection {
    /// Reads `targets`; `game` is `--game`'s, the game of every file given
    /// that stands outside any game's folder. With no path: the repository
    /// here, or, where there is none (no `levels/` folder here or above),
    /// the game files on their own in this folder. The error is rendered
    /// (`error: …`, a line and column where it has them), ready to print.
    pub fn of(targets: &[String], game: Option<&'static GameChecks>) -> Result<Self, String> {
        let here = std::env::current_dir()
            .map_err(|error| format!("error: no current folder: {error}\n"))?;
        let mut selection = Selection {
            groups: BTreeMap::new(),
            standalone: Vec::new(),
            here,
            filters: Vec::new(),
        };
        let named = game.or_else(crate::games::named);
        for target in targets {
            let path = Path::new(target);
            let looks_like_a_path = target.contains(['/', '\\']) || path.extension().is_some();
            if !looks_like_a_path && fs::symlink_metadata(path).is_err() {
                selection.filters.push(target.clone());
                continue;
            }
            selection.add_path(target, named)?;
        }
        if selection.groups.is_empty() && selection.standalone.is_empty() {
            selection.default_here()?;
        }
        Ok(selection)
    }

    /// Adds the file or folder `target` names; the error rendered.
    fn add_path(&mut self, target: &str, named: Option<&'static GameChecks>) -> Result<(), String> {
        let path = Path::new(target);
        let absolute = absolute(path).map_err(|why| match why {
            Missing::NotFound => error(format!("no such file or folder: {target}")),
            Missing::Other(why) => error(format!("{target}: {why}")),
        })?;
        let in_game_folder = game_of_folder(absolute.parent());
        if absolute.is_file() && in_game_folder.is_none() {
            // A file outside any game's folder: the game `--game` (or
            // `--game-manifest`) names, or the game that recognises its
            // text, checked where it stands.
            let game = match named.or_else(|| super::load::recognised(&absolute)) {
                Some(game) => game,
                None => return Err(super::load::unrecognised(&absolute, target)),
            };
            if !self.standalone.iter().any(|(_, p)| *p == absolute) {
                self.standalone.push((game, absolute));
            }
            return Ok(());
        }
        if absolute.is_file() {
            let game = in_game_folder.expect("a file in a game's folder");
            if let Some(named) = named.filter(|named| named.name != game.name) {
                return Err(error(format!(
                    "{target} is a {} level (its folder says so), not a {} one\n  = hint: \
                     --game names the game of a file outside any levels/<game>/ folder",
                    game.name, named.name
                )));
            }
            self.add(ancestor(&absolute, 3), vec![(game, absolute)]);
        } else if absolute.is_dir() {
            if absolute.join("levels").is_dir() {
                self.groups.insert(absolute, Group::Whole);
            } else if let Some(game) = game_of_folder(Some(&absolute)) {
                let root = ancestor(&absolute, 2);
                let levels = puzzle_qa_core::_cli_support::harness::levels(&Settings::new(
                    root.clone(),
                    all(),
                ))
                .into_iter()
                .filter(|entry| entry.game.name == game.name)
                .map(|entry| (game, entry.level_path))
                .collect();
                self.add(root, levels);
            } else if absolute.file_name().is_some_and(|name| name == "levels") {
                self.groups.insert(ancestor(&absolute, 1), Group::Whole);
            } else if absolute
                .parent()
                .is_some_and(|folder| game_of_folder(Some(folder)).is_some())
            {
                return Err(error(format!(
                    "{target} is a folder, not a level file\n  = hint: a level is a file in \
                     levels/<game>/; check the whole game with `puzzle-qa check {}`",
                    Path::new(target).parent().map_or(".".into(), |folder| {
                        let shown = folder.display().to_string();
                        if shown.is_empty() {
                            ".".to_string()
                        } else {
                            shown
                        }
                    })
                )));
            } else {
                return Err(error(format!(
                    "{target} is a folder, and neither a repository (no levels/ folder in it), a \
                     levels/ folder, a game folder (games: {}) nor a level file",
                    crate::games::names()
                )));
            }
        } else {
            return Err(error(format!("no such file or folder: {target}")));
        }
        Ok(())
    }

    /// No path given: the repository here, else the game files on their own
    /// in this folder, else why neither.
    fn default_here(&mut self) -> Result<(), String> {
        if self.here.join("levels").is_dir() {
            self.groups.insert(self.here.clone(), Group::Whole);
            return Ok(());
        }
        let root = self
            .here
            .ancestors()
            .skip(1)
            .find(|folder| folder.join("levels").is_dir());
        if let Some(root) = root {
            return Err(format!(
                "error: no levels/ folder here\n  = hint: the repository is {}: run from there, \
                 or name level files or a game folder from here\n",
                root.display()
            ));
        }
        self.standalone = game_files_in(&self.here);
        if self.standalone.is_empty() {
            return Err(
                "error: no levels/ folder here, and no game file on its own\n  = hint: \
                        run from the repository root, or name a levels folder, a game folder \
                        or level files (a game file on its own: `puzzle-qa check mygame.txt`)\n"
                    .to_string(),
            );
        }
        Ok(())
    }

    fn add(&mut self, root: PathBuf, levels: Vec<(&'static GameChecks, PathBuf)>) {
        let group = self
            .groups
            .entry(root)
            .or_insert_with(|| Group::Levels(Vec::new()));
        if let Group::Levels(existing) = group {
            for level in levels {
                if !existing.iter().any(|(_, path)| *path == level.1) {
                    existing.push(level);
                }
            }
            existing.sort_by(|a, b| a.1.cmp(&b.1));
        }
    }
}

/// `message` as an error, rendered.
fn error(message: String) -> String {
    format!("error: {message}\n")
}

/// The game files on their own in `folder`: its visible files, named as a
/// game that tells its files by their text names them (`.txt`), whose text
/// that game recognises as one of its files (a PuzzleScript game, say), in
/// name order. Only those files are read.
fn game_files_in(folder: &Path) -> Vec<(&'static GameChecks, PathBuf)> {
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    let named_as_a_game = |path: &Path| {
        let extension = path.extension().map(|ext| ext.to_string_lossy());
        all()
            .iter()
            .any(|game| game.recognises.is_some() && extension.as_deref() == Some(game.extension))
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.is_file()
                && named_as_a_game(path)
                && !path
                    .file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|path| Some((super::load::recognised(&path)?, path)))
        .collect()
}

/// Trial-name filters, as `check`, `bless` and `review` read them. A
/// filter selects the names it is whole `::`-separated parts of:
/// `bloxorz::level01` is level01's trials, not level010's, and
/// `puzzlescript::crates::2::par` is level 2's `par`, not its `parse`; so
/// a name a message suggests selects exactly what it names. A filter that
/// is whole parts of no name at all selects the names that contain it
/// (`level0`: level01 to level09), as libtest's filters do.
pub struct Filters {
    /// Each filter, and whether it selects by whole parts.
    filters: Vec<(String, bool)>,
}

impl Filters {
    /// `filters`, read against every name there is to select from.
    pub fn new<'a>(filters: &[String], names: impl IntoIterator<Item = &'a str>) -> Self {
        let names: Vec<&str> = names.into_iter().collect();
        Filters {
            filters: filters
                .iter()
                .map(|filter| {
                    let whole = names.iter().any(|name| in_parts(name, filter));
                    (filter.clone(), whole)
                })
                .collect(),
        }
    }

    /// Whether `name` is selected: by any filter, or by none given.
    pub fn selects(&self, name: &str) -> bool {
        self.filters.is_empty()
            || self.filters.iter().any(|(filter, whole)| match whole {
                true => in_parts(name, filter),
                false => name.contains(filter.as_str()),
            })
    }
}

/// Whether `filter` occurs in `name` as whole `::`-separated parts: where
/// it starts, `name` starts or a part does (or the filter begins with
/// `::`); where it ends, `name` ends or a part does (or the filter ends with
/// `::`).
fn in_parts(name: &str, filter: &str) -> bool {
    if filter.is_empty() {
        return true;
    }
    name.match_indices(filter).any(|(at, _)| {
        let (before, after) = (&name[..at], &name[at + filter.len()..]);
        let starts = before.is_empty() || before.ends_with("::") || filter.starts_with("::");
        let ends = after.is_empty() || after.starts_with("::") || filter.ends_with("::");
        starts && ends
    })
}

/// The game whose name `folder` has.
fn game_of_folder(folder: Option<&Path>) -> Option<&'static GameChecks> {
    find(folder?.file_name()?.to_str()?)
}

/// The `n`th ancestor of `path` (`/repo/levels/GAME/NAME.txt`, 3 → `/repo`).
fn ancestor(path: &Path, n: usize) -> PathBuf {
    path.ancestors()
        .nth(n)
        .unwrap_or(Path::new("/"))
        .to_path_buf()
}

/// Why a path given on the command line cannot be used.
enum Missing {
    /// Nothing is there.
    NotFound,
    /// Something is, but it cannot be followed or read.
    Other(String),
}

/// `path` made absolute and free of `.` and `..`, the file itself left
/// as it is when it is a symbolic link (so a dangling link is reported as
/// one), or why it cannot be.
fn absolute(path: &Path) -> Result<PathBuf, Missing> {
    let name = path.file_name();
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let missing = |error: std::io::Error| match error.kind() {
        std::io::ErrorKind::NotFound => Missing::NotFound,
        _ => Missing::Other(error.to_string()),
    };
    let folder = folder.canonicalize().map_err(missing)?;
    let joined = match name {
        Some(name) if !path.ends_with("..") => folder.join(name),
        _ => path.canonicalize().map_err(missing)?,
    };
    match fs::symlink_metadata(&joined) {
        Ok(meta) if meta.file_type().is_symlink() => match fs::metadata(&joined) {
            Ok(_) => joined.canonicalize().map_err(missing),
            Err(error) => {
                let target = fs::read_link(&joined)
                    .map_or_else(|_| "?".to_string(), |target| target.display().to_string());
                Err(Missing::Other(format!(
                    "a symbolic link to `{target}`, which cannot be followed ({error})"
                )))
            }
        },
        Ok(_) => Ok(joined),
        Err(error) => Err(missing(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::Filters;

    fn selected<'a>(filter: &str, names: &[&'a str]) -> Vec<&'a str> {
        let filters = Filters::new(&[filter.to_string()], names.iter().copied());
        names
            .iter()
            .copied()
            .filter(|name| filters.selects(name))
            .collect()
    }

    #[test]
    fn a_filter_selects_the_names_it_is_whole_parts_of() {
        let names = [
            "puzzlescript::crates::1::parse",
            "puzzlescript::crates::1::par",
            "puzzlescript::crates::10::par",
            "puzzlescript::crates2::1::par",
        ];
        assert_eq!(
            selected("puzzlescript::crates::1::par", &names),
            ["puzzlescript::crates::1::par"]
        );
        assert_eq!(
            selected("puzzlescript::crates::1", &names),
            [
                "puzzlescript::crates::1::parse",
                "puzzlescript::crates::1::par"
            ]
        );
        assert_eq!(
            selected("::par", &names),
            [
                "puzzlescript::crates::1::par",
                "puzzlescript::crates::10::par",
                "puzzlescript::crates2::1::par"
            ]
        );
        assert_eq!(selected("crates", &names)[..], names[..3]);
    }

    #[test]
    fn a_filter_that_is_whole_parts_of_no_name_selects_those_that_contain_it() {
        let names = [
            "bloxorz::level01::par",
            "bloxorz::level02::par",
            "bloxorz::level10::par",
        ];
        assert_eq!(selected("level0", &names), &names[..2]);
        assert_eq!(selected("nothing", &names), Vec::<&str>::new());
    }
}
