//! What a change can affect: the levels to check again, and what cannot be
//! checked again without a rebuild.
//!
//! - A level file: its level. In a file of several levels (a PuzzleScript
//!   game), only the levels whose own text changed (by their fingerprints),
//!   unless the rest of the file (its rules, legend, objects) changed: then
//!   every level of the file.
//! - An expectation file: its level; for a file of several levels, the
//!   levels whose table changed, or all of them when a key outside the
//!   tables did.
//! - A game's `game.toml`: that game's levels (its processes keep running
//!   as they started: a new command needs watch started again).
//! - Rust source under `crates/` or `src/`: nothing can be checked again,
//!   since the rules are compiled into this puzzle-qa; the levels it can
//!   change are marked as needing a rebuild.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml_edit::DocumentMut;

use puzzle_qa_core::_cli_support::harness::LevelEntry;
use puzzle_qa_core::_cli_support::level::{fingerprint, read_levels};

/// What one batch of changes calls for.
#[derive(Default, Debug)]
pub struct Affected {
    /// The levels to check again, by name.
    pub levels: BTreeSet<String>,
    /// The levels whose rules changed in Rust source: a rebuild is needed.
    pub rebuild: BTreeSet<String>,
    /// What to tell the designer, a line each.
    pub notes: Vec<String>,
}

/// What is remembered of each file of several levels and of its
/// expectation file, to tell which of its levels an edit reaches.
#[derive(Default)]
pub struct Memory {
    levels: BTreeMap<PathBuf, Levels>,
    tables: BTreeMap<PathBuf, Tables>,
}

/// A file of several levels as last read.
#[derive(PartialEq, Eq)]
struct Levels {
    /// The file without its levels' own lines (its rules, legend, objects,
    /// messages), or `None` when the file did not read.
    rest: Option<String>,
    /// Each level's fingerprint, level N at N - 1.
    fingerprints: Vec<String>,
}

/// An expectation file of several tables as last read.
#[derive(PartialEq, Eq)]
struct Tables {
    /// Everything outside the numbered tables, or the whole text when it
    /// does not parse.
    rest: String,
    /// Each numbered table as written.
    tables: BTreeMap<usize, String>,
}

impl Memory {
    /// Remembers every file of several levels among `entries` as it is now.
    pub fn remember(&mut self, entries: &[LevelEntry]) {
        for entry in entries.iter().filter(|entry| entry.member.is_some()) {
            if !self.levels.contains_key(&entry.level_path) {
                self.levels
                    .insert(entry.level_path.clone(), Levels::read(entry));
                self.tables.insert(
                    entry.expectation_path.clone(),
                    Tables::read(&entry.expectation_path),
                );
            }
        }
    }

    /// What the changed `paths` affect among `entries` (every level there
    /// is now), under the project `roots`.
    pub fn affected(
        &mut self,
        paths: &[PathBuf],
        entries: &[LevelEntry],
        roots: &[PathBuf],
    ) -> Affected {
        let mut affected = Affected::default();
        for path in paths {
            let of_level: Vec<&LevelEntry> =
                entries.iter().filter(|e| e.level_path == *path).collect();
            let of_expectations: Vec<&LevelEntry> = entries
                .iter()
                .filter(|e| e.expectation_path == *path)
                .collect();
            if let Some(first) = of_level.first() {
                let ids = match first.member {
                    None => of_level.iter().map(|e| e.id()).collect(),
                    Some(_) => self.levels_changed(first, &of_level),
                };
                affected.levels.extend(ids);
            }
            if let Some(first) = of_expectations.first() {
                let ids = match first.member {
                    None => of_expectations.iter().map(|e| e.id()).collect(),
                    Some(_) => self.tables_changed(path, &of_expectations),
                };
                affected.levels.extend(ids);
            }
            if !of_level.is_empty() || !of_expectations.is_empty() {
                continue;
            }
            let name = path.file_name().map(|name| name.to_string_lossy());
            if name.as_deref() == Some("game.toml")
                && let Some(game) = game_folder(path, roots)
            {
                let ids: Vec<String> = entries
                    .iter()
                    .filter(|e| e.game.name == game)
                    .map(LevelEntry::id)
                    .collect();
                affected.notes.push(format!(
                    "{} changed: {game}'s levels are checked again, by the processes watch \
                     started with; a new `command` takes effect when watch starts again",
                    shown(path, roots)
                ));
                affected.levels.extend(ids);
                continue;
            }
            if let Some(crate_name) = rust_source(path, roots) {
                let game = entries.iter().find(|e| e.game.name == crate_name);
                let ids: Vec<String> = entries
                    .iter()
                    .filter(|e| game.is_none() || e.game.name == crate_name)
                    .map(LevelEntry::id)
                    .collect();
                let whose = match game {
                    Some(_) => format!("{crate_name}'s rules are"),
                    None => "this code is".to_string(),
                };
                affected.notes.push(format!(
                    "{} changed: {whose} compiled into the puzzle-qa that runs watch, so its \
                     verdicts stay those of that build; rebuild (`cargo build --release`) and \
                     start watch again to check with it",
                    shown(path, roots)
                ));
                affected.rebuild.extend(ids);
            }
        }
        affected.notes.dedup();
        affected
    }

    /// The levels of a file of several, `file` its entries now, whose own
    /// text changed; all of them when the rest of the file did.
    fn levels_changed(&mut self, first: &LevelEntry, file: &[&LevelEntry]) -> Vec<String> {
        let now = Levels::read(first);
        let before = self.levels.insert(first.level_path.clone(), now);
        let now = &self.levels[&first.level_path];
        let all = || file.iter().map(|e| e.id()).collect();
        let Some(before) = before else {
            return all();
        };
        if now.rest.is_none() || before.rest != now.rest {
            return all();
        }
        file.iter()
            .filter(|entry| {
                let index = entry.member.unwrap_or(1) - 1;
                before.fingerprints.get(index) != now.fingerprints.get(index)
            })
            .map(|e| e.id())
            .collect()
    }

    /// The levels of a file of several, `file` its entries, whose table in
    /// the expectation file at `path` changed; all of them when a key
    /// outside the tables did.
    fn tables_changed(&mut self, path: &Path, file: &[&LevelEntry]) -> Vec<String> {
        let now = Tables::read(path);
        let before = self.tables.insert(path.to_path_buf(), now);
        let now = &self.tables[path];
        let Some(before) = before.filter(|before| before.rest == now.rest) else {
            return file.iter().map(|e| e.id()).collect();
        };
        file.iter()
            .filter(|entry| {
                let number = entry.member.unwrap_or(1);
                before.tables.get(&number) != now.tables.get(&number)
            })
            .map(|e| e.id())
            .collect()
    }
}

impl Levels {
    /// The file of `entry` as it reads now.
    fn read(entry: &LevelEntry) -> Self {
        let Some(many) = entry.game.many else {
            return Levels {
                rest: None,
                fingerprints: Vec::new(),
            };
        };
        match read_levels(&entry.level_path, &entry.shown_level, many) {
            Ok((text, file)) => {
                let mut theirs = BTreeSet::new();
                for member in &file.levels {
                    let lines = member.text.lines().count().max(1);
                    theirs.extend(member.line..member.line + lines);
                }
                let rest = text
                    .lines()
                    .enumerate()
                    .filter(|(index, _)| !theirs.contains(&(index + 1)))
                    .map(|(_, line)| line)
                    .collect::<Vec<_>>()
                    .join("\n");
                Levels {
                    rest: Some(rest),
                    fingerprints: file
                        .levels
                        .iter()
                        .map(|member| fingerprint(&member.text))
                        .collect(),
                }
            }
            Err(_) => Levels {
                rest: None,
                fingerprints: Vec::new(),
            },
        }
    }
}

impl Tables {
    fn read(path: &Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let Ok(document) = text.parse::<DocumentMut>() else {
            return Tables {
                rest: text,
                tables: BTreeMap::new(),
            };
        };
        let mut rest = String::new();
        let mut tables = BTreeMap::new();
        for (key, item) in document.as_table().iter() {
            match key.parse::<usize>() {
                Ok(number) if item.is_table() => {
                    tables.insert(number, item.to_string());
                }
                _ => rest.push_str(&format!("{key} = {item}\n")),
            }
        }
        Tables { rest, tables }
    }
}

/// The game whose folder holds `path` (`ROOT/levels/GAME/game.toml`).
fn game_folder(path: &Path, roots: &[PathBuf]) -> Option<String> {
    let folder = path.parent()?;
    let levels = folder.parent()?;
    roots
        .iter()
        .any(|root| root.join("levels") == levels)
        .then(|| folder.file_name()?.to_str().map(str::to_string))
        .flatten()
}

/// For Rust source (`.rs`, `Cargo.toml`) under a root's `crates/NAME/` or
/// `src/`: the crate's folder name (`src/` is the command line's, named
/// `puzzle-qa`).
fn rust_source(path: &Path, roots: &[PathBuf]) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    if !(name.ends_with(".rs") || name == "Cargo.toml") {
        return None;
    }
    roots.iter().find_map(|root| {
        if path.starts_with(root.join("src")) {
            return Some("puzzle-qa".to_string());
        }
        let inside = path.strip_prefix(root.join("crates")).ok()?;
        Some(
            inside
                .components()
                .next()?
                .as_os_str()
                .to_str()?
                .to_string(),
        )
    })
}

/// `path` from the root it is under.
fn shown(path: &Path, roots: &[PathBuf]) -> String {
    roots
        .iter()
        .find_map(|root| path.strip_prefix(root).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}
