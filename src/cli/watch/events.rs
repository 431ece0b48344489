//! File events, from the operating system's own notifications (inotify,
//! FSEvents, ReadDirectoryChangesW through `notify`): nothing is polled.
//! Events are gathered into one batch until the files have been quiet for
//! the debounce time, so an editor's save (a temporary file, a rename, a
//! metadata change) or a `git checkout` of many files is one change.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

use puzzle_qa_core::_cli_support::harness::PENDING_SUFFIX;

/// Keeps the folders watched while it lives.
pub struct Watching {
    _watcher: RecommendedWatcher,
}

/// Watches `folders` and sends each batch of changed paths, in path order,
/// through `send` (as `wrap` makes it a message) once they have been quiet
/// for `debounce`. The error says which folder could not be watched.
pub fn watch<M: Send + 'static>(
    folders: &[(PathBuf, RecursiveMode)],
    debounce: Duration,
    send: Sender<M>,
    wrap: fn(Vec<PathBuf>) -> M,
) -> Result<Watching, String> {
    let (raw, events) = mpsc::channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else {
            return;
        };
        if !changes_content(&event.kind) {
            return;
        }
        for path in event.paths {
            if !is_noise(&path) {
                let _ = raw.send(path);
            }
        }
    })
    .map_err(|error| format!("cannot watch files: {error}"))?;
    for (folder, mode) in folders {
        watcher
            .watch(folder, *mode)
            .map_err(|error| format!("cannot watch {}: {error}", folder.display()))?;
    }
    std::thread::Builder::new()
        .name("watch-debounce".into())
        .spawn(move || {
            // Blocks until the first event of a batch: no timer runs while
            // nothing changes.
            while let Ok(first) = events.recv() {
                let mut batch = BTreeSet::from([first]);
                loop {
                    match events.recv_timeout(debounce) {
                        Ok(path) => {
                            batch.insert(path);
                        }
                        Err(RecvTimeoutError::Timeout) => break,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                if send.send(wrap(batch.into_iter().collect())).is_err() {
                    return;
                }
            }
        })
        .map_err(|error| format!("cannot start the file watcher: {error}"))?;
    Ok(Watching { _watcher: watcher })
}

/// Whether an event can change what a file holds or whether it is there.
/// Reading a file is no change: the checks themselves open every level
/// file (and lock it), and those events must not start another check.
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Any | EventKind::Other => false,
    }
}

/// Files no check reads: what `check` itself writes beside the
/// expectations (pending files, bless's temporary files), and editors'
/// swap, backup and probe files. Hidden files are one of these.
fn is_noise(path: &Path) -> bool {
    let Some(name) = path.file_name().map(|name| name.to_string_lossy()) else {
        return true;
    };
    name.starts_with('.')
        || name.ends_with(PENDING_SUFFIX)
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name == "4913"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_check_writes_and_what_editors_leave_are_not_changes() {
        for noise in [
            "expectations/bloxorz/level01.toml.pending",
            "expectations/bloxorz/.level01.toml.a1B2c3.puzzle-qa-tmp",
            "levels/bloxorz/.level01.txt.swp",
            "levels/bloxorz/level01.txt~",
            "levels/bloxorz/4913",
        ] {
            assert!(is_noise(Path::new(noise)), "{noise}");
        }
        for change in [
            "levels/bloxorz/level01.txt",
            "expectations/bloxorz/level01.toml",
            "levels/mygame/game.toml",
        ] {
            assert!(!is_noise(Path::new(change)), "{change}");
        }
    }

    #[test]
    fn reading_a_file_is_no_change() {
        use notify::event::{CreateKind, ModifyKind};
        assert!(!changes_content(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!changes_content(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(changes_content(&EventKind::Modify(ModifyKind::Any)));
        assert!(changes_content(&EventKind::Create(CreateKind::File)));
    }
}
