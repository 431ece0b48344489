//! Pending expectations: what bless would write, kept as a file of its own
//! (`level01.toml.pending`) for a person to accept or reject one level at
//! a time (`puzzle-qa review`), as insta keeps `.snap.new` files.
//!
//! A pending file is always "the expectation file as it is now, with the
//! pending machine-owned values in it": every check that produces values
//! merges its own into it, a check that passes merges the values that
//! agree (taking its part back out), and once it says nothing the
//! expectation file does not, it is deleted. Accepting a level writes its
//! pending machine-owned values into the expectation file as it is then
//! (so a designer's edit made since is kept), under the level's lock,
//! through the writer bless uses; rejecting takes the file's values back
//! into the pending file. Everything here happens under the level file's
//! lock, as bless does, so parallel checks and processes take turns.

use std::collections::BTreeSet;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item};

use super::bless::{lock, replace_whole};
use super::discover::LevelEntry;
use super::expectations::{apply, print};
use super::settings::{PendingPlace, Settings};

/// How a pending file's name ends: `level01.toml.pending`.
pub const SUFFIX: &str = ".pending";

/// Where the pending file of the expectation file at `expectation` goes
/// under `settings`, or `None` when pending files are not kept.
pub fn pending_path(settings: &Settings, expectation: &Path) -> Option<PathBuf> {
    let mut name = expectation.file_name()?.to_os_string();
    name.push(SUFFIX);
    match &settings.pending {
        PendingPlace::Nowhere => None,
        PendingPlace::Beside => Some(expectation.with_file_name(name)),
        PendingPlace::Under(dir) => {
            // The path from the root (`expectations/bloxorz/level01.toml`);
            // a file outside it keeps its path without the leading `/`.
            let relative = expectation
                .strip_prefix(&settings.root)
                .unwrap_or(expectation)
                .components()
                .filter(|part| matches!(part, std::path::Component::Normal(_)))
                .collect::<PathBuf>();
            Some(dir.join(relative).with_file_name(name))
        }
    }
}

/// The pending files under `settings` that none of the expectation files
/// `owners` owns (given every level's, those whose level file is gone), in
/// path order. Every folder of the pending place is looked in, a game's
/// that is no longer registered too.
pub fn orphan_pending<'a>(
    settings: &Settings,
    owners: impl IntoIterator<Item = &'a Path>,
) -> Vec<PathBuf> {
    let owned: BTreeSet<PathBuf> = owners
        .into_iter()
        .filter_map(|expectation| pending_path(settings, expectation))
        .collect();
    let folder = match &settings.pending {
        PendingPlace::Under(dir) => dir.join("expectations"),
        _ => settings.expectations_dir(),
    };
    let mut found = Vec::new();
    for game in fs::read_dir(&folder).into_iter().flatten().flatten() {
        for file in fs::read_dir(game.path()).into_iter().flatten().flatten() {
            let path = file.path();
            let pending = path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().ends_with(SUFFIX));
            if pending && path.is_file() && !owned.contains(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Merges a check's machine-owned `values` into the level's pending file
/// (creating it from the expectation file when there is none) and deletes
/// it when it then says what the expectation file says. Returns where the
/// pending file is, if one is left.
pub(crate) fn record(
    entry: &LevelEntry,
    pending: &Path,
    values: &[(&str, Option<Item>)],
    canonical: &[&str],
) -> Result<Option<PathBuf>, String> {
    let _lock = lock(entry)?;
    let (current_text, current) = read_document(&entry.expectation_path)?;
    let mut proposed = match read_if_present(pending)? {
        Some((_, earlier)) => with_pending(entry, &current, &earlier, canonical),
        None => current.clone(),
    };
    apply(&mut proposed, entry.table().as_deref(), values, canonical);
    settle(pending, &proposed, &current, &current_text)
}

/// Accepts the pending change of one level: its machine-owned values are
/// written into the expectation file (its table, for a level of a file of
/// several); the pending file is deleted once nothing else in it is
/// pending. Returns what changed in the expectation file (`par: 7 → 6`).
pub fn accept(
    entry: &LevelEntry,
    pending: &Path,
    canonical: &[&str],
) -> Result<Vec<String>, String> {
    let _lock = lock(entry)?;
    let Some((_, proposal)) = read_if_present(pending)? else {
        return Ok(Vec::new());
    };
    let (current_text, mut current) = read_document(&entry.expectation_path)?;
    let scope = entry.table();
    let changes = overlay(&mut current, &proposal, scope.as_deref(), canonical);
    let text = print(&current, &current_text);
    if !changes.is_empty() {
        replace_whole(&entry.expectation_path, &text).map_err(|(what, error)| {
            format!("cannot {what} {}: {error}", entry.shown_expectation)
        })?;
    }
    // What is still pending for the file's other levels.
    let rest = with_pending(entry, &current, &proposal, canonical);
    settle(pending, &rest, &current, &text)?;
    Ok(changes)
}

/// Rejects the pending change of one level: the expectation file is left
/// as it is, and the pending file forgets that level (deleted once nothing
/// else in it is pending).
pub fn reject(entry: &LevelEntry, pending: &Path, canonical: &[&str]) -> Result<(), String> {
    let _lock = lock(entry)?;
    let Some((_, mut proposal)) = read_if_present(pending)? else {
        return Ok(());
    };
    let (current_text, current) = read_document(&entry.expectation_path)?;
    let scope = entry.table();
    overlay(&mut proposal, &current, scope.as_deref(), canonical);
    // A new level's table, which the expectation file does not have yet:
    // rejecting it drops it from the pending file.
    // (The pending file made that table from machine values alone.)
    if let Some(scope) = scope.as_deref()
        && current.get(scope).is_none()
    {
        proposal.remove(scope);
    }
    let rest = with_pending(entry, &current, &proposal, canonical);
    settle(pending, &rest, &current, &current_text)?;
    Ok(())
}

/// The expectation file's text as accepting the level would leave it, for
/// showing the change without making it; `None` when nothing is pending
/// for the level.
pub fn proposal(
    entry: &LevelEntry,
    pending: &Path,
    canonical: &[&str],
) -> Result<Option<String>, String> {
    let Some((_, proposal)) = read_if_present(pending)? else {
        return Ok(None);
    };
    let (current_text, mut current) = read_document(&entry.expectation_path)?;
    let changes = overlay(&mut current, &proposal, entry.table().as_deref(), canonical);
    Ok((!changes.is_empty()).then(|| print(&current, &current_text)))
}

/// Writes `proposed` as the pending file, or deletes the pending file when
/// `proposed` says nothing `current` does not.
fn settle(
    pending: &Path,
    proposed: &DocumentMut,
    current: &DocumentMut,
    current_text: &str,
) -> Result<Option<PathBuf>, String> {
    let text = print(proposed, current_text);
    let shown = shown(pending);
    if text == print(current, current_text) {
        return match fs::remove_file(pending) {
            Ok(()) => Ok(None),
            Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("cannot delete {shown}: {error}")),
        };
    }
    replace_whole(pending, &text)
        .map_err(|(what, error)| format!("cannot {what} {shown}: {error}"))?;
    Ok(Some(pending.to_path_buf()))
}

/// `current` with the machine-owned values of every level `pending` speaks
/// for: the pending file as it should read now.
fn with_pending(
    entry: &LevelEntry,
    current: &DocumentMut,
    pending: &DocumentMut,
    canonical: &[&str],
) -> DocumentMut {
    let mut proposed = current.clone();
    for scope in scopes(entry, pending) {
        overlay(&mut proposed, pending, scope.as_deref(), canonical);
    }
    proposed
}

/// Every level's scope a pending file may speak for: the whole file for a
/// file of one level; each numbered table for a file of several.
fn scopes(entry: &LevelEntry, document: &DocumentMut) -> Vec<Option<String>> {
    if entry.member.is_none() {
        return vec![None];
    }
    document
        .as_table()
        .iter()
        .filter(|(key, item)| item.is_table() && key.parse::<usize>().is_ok())
        .map(|(key, _)| Some(key.to_string()))
        .collect()
}

/// Writes the machine-owned values `from` holds in `scope` into `onto`
/// (a machine key `from` lacks there is removed), and says what changed.
/// Nothing, when `from` has no such scope.
fn overlay(
    onto: &mut DocumentMut,
    from: &DocumentMut,
    scope: Option<&str>,
    canonical: &[&str],
) -> Vec<String> {
    let table = match scope {
        None => Some(from.as_table()),
        Some(scope) => from.get(scope).and_then(Item::as_table),
    };
    let Some(table) = table else {
        return Vec::new();
    };
    let values: Vec<(&str, Option<Item>)> = canonical
        .iter()
        .map(|key| (*key, table.get(key).cloned()))
        .collect();
    apply(onto, scope, &values, canonical)
}

/// The file at `path` and its document; an absent file reads as empty.
fn read_document(path: &Path) -> Result<(String, DocumentMut), String> {
    Ok(read_if_present(path)?.unwrap_or_default())
}

/// The file at `path` and its document, or `None` when it does not exist.
fn read_if_present(path: &Path) -> Result<Option<(String, DocumentMut)>, String> {
    let shown = shown(path);
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {shown}: {error}")),
    };
    let document = text
        .parse::<DocumentMut>()
        .map_err(|error| format!("{shown} does not parse: {error}"))?;
    Ok(Some((text, document)))
}

/// `path` as messages show it: from the current folder when inside it,
/// without a leading `./`.
fn shown(path: &Path) -> String {
    let here = std::env::current_dir().ok();
    let relative = here
        .as_deref()
        .and_then(|here| path.strip_prefix(here).ok())
        .unwrap_or(path);
    relative
        .strip_prefix(".")
        .unwrap_or(relative)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_file_that_no_expectation_file_owns_is_an_orphan() {
        let root = tempfile::tempdir().unwrap();
        let under = root.path().join("uploaded");
        let settings = Settings {
            pending: PendingPlace::Under(under.clone()),
            ..Settings::new(root.path(), &[])
        };
        let owner = settings.expectations_dir().join("bloxorz/level01.toml");
        let folder = under.join("expectations");
        for name in [
            "bloxorz/level01.toml.pending",
            "bloxorz/gone.toml.pending",
            "bloxorz/notes.txt",
            "retired/old.toml.pending",
        ] {
            let path = folder.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "").unwrap();
        }
        // A game no longer registered leaves orphans too.
        assert_eq!(
            orphan_pending(&settings, [owner.as_path()]),
            [
                folder.join("bloxorz/gone.toml.pending"),
                folder.join("retired/old.toml.pending")
            ]
        );
    }
}
