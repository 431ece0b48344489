//! What `watch` keeps an eye on: the parts of the selection (a repository,
//! some level files, game files on their own), the levels each holds now,
//! and the folders whose events can change them.

use std::path::PathBuf;
use std::sync::Arc;

use notify::RecursiveMode;

use puzzle_qa_core::_cli_support::harness::{LevelEntry, Settings, levels};
use puzzle_qa_core::harness::GameChecks;

/// One root's share of what was asked for, checked with its own settings.
pub struct Part {
    pub settings: Arc<Settings>,
    pub kind: Kind,
}

pub enum Kind {
    /// Every level under the root: a level file added or deleted there
    /// adds or drops a level.
    Whole,
    /// These level files (of a repository) only.
    Files(Vec<(&'static GameChecks, PathBuf)>),
    /// Game files on their own, each with its expectations beside it.
    Standalone(Vec<(&'static GameChecks, PathBuf)>),
}

impl Part {
    /// The part's levels as the files on disk hold them now: folder
    /// listings, and a file of several levels counted cheaply.
    pub fn entries(&self) -> Vec<LevelEntry> {
        let settings = &self.settings;
        match &self.kind {
            Kind::Whole => levels(settings),
            Kind::Files(files) => files
                .iter()
                .flat_map(|(game, path)| LevelEntry::all_in(settings, game, path.clone()))
                .collect(),
            Kind::Standalone(files) => files
                .iter()
                .flat_map(|(game, path)| LevelEntry::beside(settings, game, path.clone()))
                .collect(),
        }
    }

    /// The folders to watch and how: a repository's `levels/` and
    /// `expectations/` (and, where they are, the Rust sources a rebuild
    /// would compile: `crates/` and `src/`), or the folders the files given
    /// stand in. Folders, not files: an editor that saves by writing a new
    /// file and renaming it over the old one would end a file's watch.
    pub fn folders(&self) -> Vec<(PathBuf, RecursiveMode)> {
        let root = &self.settings.root;
        let mut folders = vec![(root.clone(), RecursiveMode::NonRecursive)];
        match &self.kind {
            Kind::Whole | Kind::Files(_) => {
                for name in ["levels", "expectations", "crates", "src"] {
                    let folder = root.join(name);
                    if folder.is_dir() {
                        folders.push((folder, RecursiveMode::Recursive));
                    }
                }
            }
            Kind::Standalone(files) => {
                for (_, path) in files {
                    if let Some(folder) = path.parent() {
                        folders.push((folder.to_path_buf(), RecursiveMode::NonRecursive));
                    }
                }
            }
        }
        folders.sort();
        folders.dedup();
        folders
    }
}
