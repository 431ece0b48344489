//! Writing blessed values to an expectation file: serialized per level (a
//! lock on the level file, so parallel trials and parallel test processes
//! take turns), re-read under the lock, and replaced atomically (a temp file
//! in the same folder, then a rename), so a crash never leaves half a file.

use std::fs::{self, File};
use std::io::{ErrorKind, Write as _};
use std::path::Path;

use toml_edit::{DocumentMut, Item};

use super::discover::LevelEntry;
use super::expectations::{apply, print};

/// Writes `values` into the level's expectation file (creating it and its
/// folder if needed) and returns what changed; empty when the file already
/// said so, e.g. because another check of the same level blessed it first.
pub(super) fn write(
    entry: &LevelEntry,
    values: &[(&str, Option<Item>)],
    canonical: &[&str],
) -> Result<Vec<String>, String> {
    edit(entry, |document| {
        apply(document, entry.table().as_deref(), values, canonical)
    })
}

/// Edits the level's expectation file (empty when there is none yet) with
/// `change`, which says what it changed; writes the file back if anything
/// did. Under the level file's lock, the file re-read, so writers of one
/// file (threads, test processes) take turns and never lose each other's
/// edits. Bless, renumbering (`renumber.rs`) and `bless --prune`
/// (`prune.rs`) all write through it.
pub(super) fn edit(
    entry: &LevelEntry,
    change: impl FnOnce(&mut DocumentMut) -> Vec<String>,
) -> Result<Vec<String>, String> {
    let shown = &entry.shown_expectation;
    let failed = |what: &str, error: std::io::Error| format!("cannot {what} {shown}: {error}");
    let _lock = lock(entry)?;

    let current = match fs::read_to_string(&entry.expectation_path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == ErrorKind::NotFound => None,
        Err(error) => return Err(failed("read", error)),
    };
    let mut document = current
        .as_deref()
        .unwrap_or("")
        .parse::<DocumentMut>()
        .map_err(|error| format!("{shown} does not parse, so bless leaves it alone: {error}"))?;
    let changes = change(&mut document);
    if changes.is_empty() {
        return Ok(changes);
    }
    let text = print(&document, current.as_deref().unwrap_or(""));
    replace_whole(&entry.expectation_path, &text).map_err(|(what, error)| failed(what, error))?;
    Ok(changes)
}

/// Takes the level's lock, held until the file returned is dropped: the
/// level file is the lock (it exists, and it is never replaced by us), so
/// every writer of the level's expectation or pending file takes turns.
pub(super) fn lock(entry: &LevelEntry) -> Result<File, String> {
    let failed = |error: std::io::Error| {
        format!(
            "cannot lock the level of {}: {error}",
            entry.shown_expectation
        )
    };
    let lock = File::open(&entry.level_path).map_err(failed)?;
    lock.lock().map_err(failed)?;
    Ok(lock)
}

/// Writes `text` as the whole of the file at `path`, creating its folder:
/// through a temporary file in the same folder, renamed into place, so a
/// crash never leaves half a file, and keeping the old file's permissions
/// (`rw-r--r--` for a new one). On failure, says which step failed
/// ("create the folder of", "write", …) with the error.
pub fn replace_whole(path: &Path, text: &str) -> Result<(), (&'static str, std::io::Error)> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    fs::create_dir_all(folder).map_err(|error| ("create the folder of", error))?;
    let mut temp = tempfile::Builder::new()
        .prefix(&temporary_prefix(path))
        .suffix(TEMPORARY_SUFFIX)
        .tempfile_in(folder)
        .map_err(|error| ("write a temporary file beside", error))?;
    temp.write_all(text.as_bytes())
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|error| ("write", error))?;
    keep_permissions(path, temp.as_file()).map_err(|error| ("set the permissions of", error))?;
    temp.persist(path)
        .map_err(|error| ("replace", error.error))?;
    Ok(())
}

/// How the temporary files [`replace_whole`] writes end: hidden, named after
/// the file they replace (`.level01.toml.a1B2c3.puzzle-qa-tmp`), and
/// ignored by git (`.gitignore`), so one left by a killed process never
/// shows as a change.
const TEMPORARY_SUFFIX: &str = ".puzzle-qa-tmp";

/// `.NAME.`: the start of a temporary file's name for `path`.
fn temporary_prefix(path: &Path) -> String {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    format!(".{name}.")
}

/// Deletes the temporary files a killed bless left beside the level's
/// expectation file. It takes the level's lock first: every bless of that
/// file writes its temporary file under that lock, so any found then is
/// stale.
pub(crate) fn sweep(entry: &LevelEntry) {
    let Ok(lock) = File::open(&entry.level_path) else {
        return;
    };
    if lock.lock().is_ok() {
        remove_stale_temporaries(&entry.expectation_path);
    }
}

/// Deletes the temporary files a killed writer of `path` left beside it.
fn remove_stale_temporaries(path: &Path) {
    let (Some(folder), prefix) = (path.parent(), temporary_prefix(path)) else {
        return;
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(TEMPORARY_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Gives the new file the old one's permissions, or the usual `rw-r--r--`
/// for a new file (a temp file starts private).
fn keep_permissions(path: &Path, new: &File) -> std::io::Result<()> {
    let permissions = match fs::metadata(path) {
        Ok(metadata) => metadata.permissions(),
        Err(_) => default_permissions(new)?,
    };
    new.set_permissions(permissions)
}

#[cfg(unix)]
fn default_permissions(_: &File) -> std::io::Result<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt as _;
    Ok(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions(file: &File) -> std::io::Result<fs::Permissions> {
    Ok(file.metadata()?.permissions())
}
