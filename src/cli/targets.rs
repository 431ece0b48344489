//! What `check` and `bless` were asked to check: a repository root, a
//! levels/ folder, a game folder, level files, or trial-name filters, each
//! path resolved to the project it belongs to.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::games::{all, find};
use puzzle_qa_core::_cli_support::harness::Settings;
use puzzle_qa_core::harness::GameChecks;

/// What the command line asked to check: levels per project root, and
/// trial-name filters (a check runs if its trial name contains any).
pub struct Selection {
    pub groups: BTreeMap<PathBuf, Group>,
    pub filters: Vec<String>,
}

pub enum Group {
    /// Every level under the root, and the `orphans` check.
    Whole,
    /// These level files only.
    Levels(Vec<(&'static GameChecks, PathBuf)>),
    /// Game files outside any repository (`mygame.txt` of PuzzleScript),
    /// each with its expectations beside it (`mygame.expectations.toml`).
    Bare(Vec<(&'static GameChecks, PathBuf)>),
}

/// Where a bare game file's expectations live: beside it,
/// `mygame.txt` → `mygame.expectations.toml`.
pub fn expectations_beside(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}.expectations.toml"))
}

impl Selection {
    pub fn of(targets: &[String]) -> Result<Self, String> {
        let mut selection = Selection {
            groups: BTreeMap::new(),
            filters: Vec::new(),
        };
        for target in targets {
            let path = Path::new(target);
            let looks_like_a_path = target.contains(['/', '\\']) || path.extension().is_some();
            if !looks_like_a_path && fs::symlink_metadata(path).is_err() {
                selection.filters.push(target.clone());
                continue;
            }
            let absolute = absolute(path).map_err(|why| match why {
                Missing::NotFound => format!("no such file or folder: {target}"),
                Missing::Other(why) => format!("{target}: {why}"),
            })?;
            // A file outside any game's folder: the game of --game-manifest,
            // or the game that recognises its text, checked where it stands.
            let bare = (absolute.is_file() && game_of_folder(absolute.parent()).is_none())
                .then(|| crate::games::named().or_else(|| super::load::recognised(&absolute)))
                .flatten();
            if let Some(game) = bare {
                let folder = ancestor(&absolute, 1);
                match selection
                    .groups
                    .entry(folder)
                    .or_insert_with(|| Group::Bare(Vec::new()))
                {
                    Group::Bare(files) if !files.iter().any(|(_, p)| *p == absolute) => {
                        files.push((game, absolute));
                    }
                    _ => {}
                }
                continue;
            }
            if absolute.is_file() {
                let game = game_of_folder(absolute.parent()).ok_or_else(|| {
                    format!(
                        "cannot tell the game of {target} from its folder\n  = hint: levels \
                         live in levels/<game>/ (games: {})",
                        crate::games::names()
                    )
                })?;
                selection.add(ancestor(&absolute, 3), vec![(game, absolute)]);
            } else if absolute.is_dir() {
                if absolute.join("levels").is_dir() {
                    selection.groups.insert(absolute, Group::Whole);
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
                    selection.add(root, levels);
                } else if absolute.file_name().is_some_and(|name| name == "levels") {
                    selection
                        .groups
                        .insert(ancestor(&absolute, 1), Group::Whole);
                } else if absolute
                    .parent()
                    .is_some_and(|folder| game_of_folder(Some(folder)).is_some())
                {
                    return Err(format!(
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
                    ));
                } else {
                    return Err(format!(
                        "{target} is neither a repository (no levels/ folder in it), a levels/ \
                         folder, a game folder (games: {}) nor a level file",
                        crate::games::names()
                    ));
                }
            } else {
                return Err(format!("no such file or folder: {target}"));
            }
        }
        if selection.groups.is_empty() {
            let here =
                std::env::current_dir().map_err(|error| format!("no current folder: {error}"))?;
            if !here.join("levels").is_dir() {
                let root = here
                    .ancestors()
                    .skip(1)
                    .find(|folder| folder.join("levels").is_dir());
                let hint = match root {
                    Some(root) => format!(
                        "the repository is {}: run from there, or name level files or a game \
                         folder from here",
                        root.display()
                    ),
                    None => "run from the repository root, or name a levels folder, a game \
                             folder or level files"
                        .to_string(),
                };
                return Err(format!("no levels/ folder here\n  = hint: {hint}"));
            }
            selection.groups.insert(here, Group::Whole);
        }
        Ok(selection)
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
