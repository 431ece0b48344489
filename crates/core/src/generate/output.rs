//! Writing a generated level where the suite will find it: the level file
//! and its expectation file, checked by the harness before it is reported.
//!
//! Writing a new level's expectations is part of generating it, not a
//! bless of reviewed values, so it happens even under CI.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::harness::GameChecks;
use crate::harness::Subject;
use crate::harness::bless::replace_whole;
use crate::harness::discover::LevelEntry;
use crate::harness::settings::{Frontend, Settings};
use crate::harness::subject::Verdict;
use crate::harness::suite::Suite;

/// Where a level file and its expectations go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The repository root, or the level's own folder outside a repository.
    pub root: PathBuf,
    /// The level file.
    pub level: PathBuf,
    /// The level's expectation file.
    pub expectations: PathBuf,
}

impl Placement {
    /// For a level file at `level`: inside a repository
    /// (`ROOT/levels/<game>/NAME.txt`), its expectations go to
    /// `ROOT/expectations/<game>/NAME.toml`, where the suite looks;
    /// anywhere else, beside the level as `NAME.toml`.
    pub fn of(level: &Path, game: &GameChecks) -> Placement {
        let folder = level.parent().unwrap_or(Path::new(""));
        let in_repository = folder.file_name().is_some_and(|name| name == game.name)
            && folder
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|name| name == "levels");
        let stem = level.file_stem().unwrap_or_default();
        if in_repository {
            let root = folder
                .parent()
                .and_then(Path::parent)
                .unwrap_or(Path::new(""));
            Placement {
                root: root.to_path_buf(),
                level: level.to_path_buf(),
                expectations: root
                    .join("expectations")
                    .join(game.name)
                    .join(stem)
                    .with_extension("toml"),
            }
        } else {
            Placement {
                root: folder.to_path_buf(),
                level: level.to_path_buf(),
                expectations: level.with_extension("toml"),
            }
        }
    }
}

impl Placement {
    /// The first of the two files that exists already, if any.
    pub fn existing(&self) -> Option<&Path> {
        [&self.level, &self.expectations]
            .into_iter()
            .find(|path| path.exists())
            .map(PathBuf::as_path)
    }
}

/// Writes `level_text` and an expectation file holding `notes`, then runs
/// the game's checks on the level with bless on, so the machine-owned values
/// are what the suite itself finds, and again without, to prove the pair
/// passes. Returns each check's verdict from the second run. Refuses to
/// replace an existing file unless `replace`.
pub fn write_level(
    game: &'static GameChecks,
    placement: &Placement,
    level_text: &str,
    notes: &str,
    replace: bool,
) -> Result<Vec<(String, Verdict)>, String> {
    if let Some(path) = placement.existing().filter(|_| !replace) {
        return Err(format!(
            "{} already exists: choose another --out, or add --force to replace it",
            path.display()
        ));
    }
    let mut expectations = toml_edit::DocumentMut::new();
    expectations["notes"] = toml_edit::value(notes);
    write_file(&placement.level, level_text)?;
    write_file(&placement.expectations, &expectations.to_string())?;

    let settings = Settings {
        bless: true,
        ci: false,
        frontend: Frontend::Cli,
        ..Settings::new(&placement.root, std::slice::from_ref(game))
    };
    check(game, placement, settings.clone());
    let verdicts = check(
        game,
        placement,
        Settings {
            bless: false,
            ..settings
        },
    );
    Ok(verdicts)
}

/// Runs every check of `game` on the placed level.
fn check(
    game: &'static GameChecks,
    placement: &Placement,
    settings: Settings,
) -> Vec<(String, Verdict)> {
    let mut entry = LevelEntry::new(&settings, game, placement.level.clone());
    entry.expectation_path = placement.expectations.clone();
    entry.shown_expectation = settings.shown(&placement.expectations);
    let suite = Suite::of(settings, vec![entry]);
    let work = suite.work(|_| true);
    Suite::compute(&work);
    let subject: &Arc<Subject> = &suite.subjects()[0];
    subject
        .verdicts()
        .map(|(check, verdict)| (check.to_string(), verdict.clone()))
        .collect()
}

/// Writes a whole file the way bless does (see
/// [`replace_whole`]): never half a file, never a private one.
fn write_file(path: &Path, text: &str) -> Result<(), String> {
    replace_whole(path, text)
        .map_err(|(what, error)| format!("cannot {what} {}: {error}", path.display()))
}
