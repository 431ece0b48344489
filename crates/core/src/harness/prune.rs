//! `bless --prune`: deleting the expectations that belong to no level.
//! Bless itself never deletes (a level that fails to load, or a table a
//! moved level displaced, keeps what a person reviewed); only this, asked
//! for over a whole repository, does: expectation files whose level file
//! is gone, and the tables of a file of many levels that no level of the
//! file has. A table is deleted through bless's writer (`bless::edit`), so
//! it takes its turn with every other writer of the file.

use std::collections::BTreeSet;
use std::fs;

use toml_edit::{DocumentMut, Table};

use super::bless;
use super::discover::{LevelEntry, levels, orphan_expectations};
use super::settings::Settings;

/// What `bless --prune` deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pruned {
    /// An expectation file whose level does not exist.
    File {
        /// The expectation file, as messages show it.
        expectation: String,
    },
    /// Tables of the expectation file of a file of many levels that no
    /// level of the file has.
    Tables {
        /// The expectation file, as messages show it.
        expectation: String,
        /// The level file, as messages show it.
        level: String,
        /// The tables' keys, in file order: `removed-N`, or numbers past the
        /// file's last level.
        keys: Vec<String>,
    },
}

/// Deletes the expectation files of `settings`' repository whose level
/// does not exist: each one deleted, or why it could not be. No lock is
/// taken: the lock is the level file, which is gone, so no bless writes
/// the file.
pub fn prune_files(settings: &Settings) -> Vec<Result<Pruned, String>> {
    let levels = levels(settings);
    orphan_expectations(settings, &levels)
        .into_iter()
        .map(|(_, path)| {
            let expectation = settings.shown(&path);
            match fs::remove_file(&path) {
                Ok(()) => Ok(Pruned::File { expectation }),
                Err(error) => Err(format!("cannot delete {expectation}: {error}")),
            }
        })
        .collect()
}

/// Deletes, from the expectation file of each file of many levels in
/// `settings`' repository, the tables that belong to no level: each file's
/// tables deleted, or why they could not be. Run it after bless has
/// renumbered the tables of moved levels, so that a moved level's table
/// is not taken for an orphan.
///
/// A file that cannot be read, or does not parse, is left alone and not
/// named: its `parse` trial says what is wrong with it.
pub fn prune_tables(settings: &Settings) -> Vec<Result<Pruned, String>> {
    prune_tables_of(levels(settings))
}

/// [`prune_tables`] for the expectation files of `entries` alone (game
/// files checked on their own, each with its expectations beside it).
pub fn prune_tables_of(
    entries: impl IntoIterator<Item = LevelEntry>,
) -> Vec<Result<Pruned, String>> {
    let mut outcomes = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in entries {
        let (Some(_), Some(many)) = (entry.member, entry.game.many) else {
            continue;
        };
        if !seen.insert(entry.expectation_path.clone()) {
            continue;
        }
        let (Ok(level), Ok(text)) = (
            fs::read_to_string(&entry.level_path),
            fs::read_to_string(&entry.expectation_path),
        ) else {
            continue;
        };
        let count = (many.count)(&level);
        // Only a file with something to delete is locked and rewritten;
        // what goes is decided again on the file as it is under the lock.
        let Ok(document) = text.parse::<DocumentMut>() else {
            continue;
        };
        if stray_tables(document.as_table(), count).is_empty() {
            continue;
        }
        let deleted = bless::edit(&entry, |document| {
            let keys = stray_tables(document.as_table(), count);
            for key in &keys {
                document.remove(key);
            }
            keys
        });
        match deleted {
            Ok(keys) if keys.is_empty() => {}
            Ok(keys) => outcomes.push(Ok(Pruned::Tables {
                expectation: entry.shown_expectation.clone(),
                level: entry.shown_level.clone(),
                keys,
            })),
            Err(message) => outcomes.push(Err(message)),
        }
    }
    outcomes
}

/// The keys of the tables of `root` that no level of a file of `count`
/// levels has: every table but `[1]` to `[count]`.
fn stray_tables(root: &Table, count: usize) -> Vec<String> {
    root.iter()
        .filter(|(key, item)| {
            item.is_table() && !key.parse::<usize>().is_ok_and(|n| (1..=count).contains(&n))
        })
        .map(|(key, _)| key.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::harness::GameChecks;
    use crate::level::{Loaded, LoadedMany, Many};

    fn not_loaded(_: &str) -> Result<Loaded, Diagnostic> {
        Err(Diagnostic::error("pruning never loads a level"))
    }

    fn not_read(_: &str) -> Result<LoadedMany, Vec<Diagnostic>> {
        Err(vec![Diagnostic::error(
            "pruning never reads a file of levels",
        )])
    }

    /// A game whose files hold a level a line.
    static GAMES: &[GameChecks] = &[GameChecks::new("lines", "txt", &not_loaded, &[])
        .with_many(Many::new(|text| text.lines().count(), not_read))];

    const TABLES: &str = "# the crates\n[1]\npar = 1 # the first push\n\n# kept\n[2]\npar = 2\n\n\
                          # a deleted level\n[removed-3]\npar = 3\n\n[5]\npar = 5\n";

    /// A repository with a file of two levels and `expectations` for it.
    fn repository(expectations: &str) -> (tempfile::TempDir, Settings) {
        let root = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = root.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write("levels/lines/crates.txt", "one\ntwo\n");
        write("expectations/lines/crates.toml", expectations);
        let settings = Settings::new(root.path(), GAMES);
        (root, settings)
    }

    fn expectations(root: &tempfile::TempDir) -> std::path::PathBuf {
        root.path().join("expectations/lines/crates.toml")
    }

    fn pruned_tables(keys: &[&str]) -> Result<Pruned, String> {
        Ok(Pruned::Tables {
            expectation: "expectations/lines/crates.toml".to_string(),
            level: "levels/lines/crates.txt".to_string(),
            keys: keys.iter().map(|key| key.to_string()).collect(),
        })
    }

    #[cfg(unix)]
    fn inode(path: &std::path::Path) -> u64 {
        use std::os::unix::fs::MetadataExt as _;
        fs::metadata(path).unwrap().ino()
    }

    #[test]
    fn tables_of_no_level_are_deleted_by_rename_keeping_the_other_comments() {
        let (root, settings) = repository(TABLES);
        let path = expectations(&root);
        #[cfg(unix)]
        let before = inode(&path);
        assert_eq!(
            prune_tables(&settings),
            [pruned_tables(&["removed-3", "5"])]
        );
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# the crates\n[1]\npar = 1 # the first push\n\n# kept\n[2]\npar = 2\n"
        );
        // Replaced by a rename, as bless writes, not rewritten in place.
        #[cfg(unix)]
        assert_ne!(inode(&path), before);
        // Nothing is left to prune, and nothing is rewritten.
        assert_eq!(prune_tables(&settings), []);
    }

    #[test]
    fn a_prune_waits_for_a_writer_holding_the_level_and_keeps_its_edit() {
        let (root, settings) = repository(TABLES);
        let path = expectations(&root);
        let entry = levels(&settings).remove(0);
        // A writer of the file (bless, say) holds the level's lock: it has
        // read the file, and writes its edit while the prune waits.
        let lock = bless::lock(&entry).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let prune = std::thread::spawn(move || prune_tables(&settings));
        std::thread::sleep(std::time::Duration::from_millis(200));
        bless::replace_whole(&path, &text.replace("par = 1 #", "par = 7 #")).unwrap();
        drop(lock);
        assert_eq!(prune.join().unwrap(), [pruned_tables(&["removed-3", "5"])]);
        // Neither lost the other's edit.
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# the crates\n[1]\npar = 7 # the first push\n\n# kept\n[2]\npar = 2\n"
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_left_alone_unnamed() {
        let (root, settings) = repository("[1\npar = 1\n[removed-3]\n");
        assert_eq!(prune_tables(&settings), []);
        assert_eq!(
            fs::read_to_string(expectations(&root)).unwrap(),
            "[1\npar = 1\n[removed-3]\n"
        );
    }

    #[test]
    fn an_expectation_file_whose_level_is_gone_is_deleted() {
        let (root, settings) = repository(TABLES);
        let ghost = root.path().join("expectations/lines/ghost.toml");
        fs::write(&ghost, "[1]\npar = 1\n").unwrap();
        assert_eq!(
            prune_files(&settings),
            [Ok(Pruned::File {
                expectation: "expectations/lines/ghost.toml".to_string()
            })]
        );
        assert!(!ghost.exists());
        assert!(expectations(&root).exists());
    }
}
