//! Writing blessed values to an expectation file: serialized per level (a
//! lock on the level file, so parallel trials and parallel test processes
//! take turns), re-read under the lock, and replaced atomically (a temp file
//! in the same folder, then a rename), so a crash never leaves half a file.

use std::fs::{self, File};
use std::io::{ErrorKind, Write as _};

use toml_edit::{DocumentMut, Item};

use super::discover::LevelEntry;
use super::expectations::{apply, print};

/// Writes `values` into the level's expectation file (creating it and its
/// folder if needed) and returns what changed; empty when the file already
/// said so, e.g. because another check of the same level blessed it first.
pub fn write(
    entry: &LevelEntry,
    values: &[(&str, Option<Item>)],
    canonical: &[&str],
) -> Result<Vec<String>, String> {
    let shown = &entry.shown_expectation;
    let failed = |what: &str, error: std::io::Error| format!("cannot {what} {shown}: {error}");
    // The level file is the lock: it exists, and it is never replaced by us.
    let lock = File::open(&entry.level_path).map_err(|error| failed("lock the level of", error))?;
    lock.lock()
        .map_err(|error| failed("lock the level of", error))?;

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
    let changes = apply(&mut document, values, canonical);
    if changes.is_empty() {
        return Ok(changes);
    }
    let folder = entry
        .expectation_path
        .parent()
        .ok_or_else(|| format!("{shown} has no folder"))?;
    fs::create_dir_all(folder).map_err(|error| failed("create the folder of", error))?;
    let mut temp = tempfile::NamedTempFile::new_in(folder)
        .map_err(|error| failed("write a temporary file beside", error))?;
    temp.write_all(print(&document, current.as_deref().unwrap_or("")).as_bytes())
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|error| failed("write", error))?;
    keep_permissions(&entry.expectation_path, temp.as_file())
        .map_err(|error| failed("set the permissions of", error))?;
    temp.persist(&entry.expectation_path)
        .map_err(|error| failed("replace", error.error))?;
    Ok(changes)
}

/// Gives the new file the old one's permissions, or the usual `rw-r--r--`
/// for a new file (a temp file starts private).
fn keep_permissions(path: &std::path::Path, new: &File) -> std::io::Result<()> {
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
