//! `puzzle-qa report --base <rev>`: what a change did to every level, for
//! the reviewer of a merge, in one table.
//!
//! # What is compared
//!
//! * **Before** is the expectation files at the base commit: what was
//!   reviewed then. They are read with `git ls-tree` and `git cat-file`
//!   ([`git`]); nothing is checked out, and the levels at base are never
//!   parsed or solved (only their blob ids are needed).
//! * **After** is what the checks compute now on the working-tree levels:
//!   every check of every level runs through the harness ([`Suite`], as
//!   `puzzle-qa check` does), and each check's machine values are written
//!   into a copy of the working-tree expectation file
//!   ([`Subject::blessed_text`]): the file as bless would leave it.
//!   A check that fails outright leaves its keys as the file has them.
//! * The **working-tree expectation files** tell the two apart: where they
//!   differ from "after", the expectations are stale.
//!
//! Values are compared key by key ([`compare`]) over the keys the game's
//! checks declare ([`ExpectationKey`], machine or designer owned), so the
//! report knows no game: `par`, `[mechanics]` classes, a reachability
//! game's `goal`, `[snacks]` or `traps` are all just keys. Two things have
//! a meaning of their own, both game-neutral: an integer `par` gets a
//! column, and a value that names an ablation [`Class`](puzzle_qa_core::_cli_support::ablation::Class) turning from a
//! needed class into `decoration` is a **regression**.
//!
//! # How a level changed
//!
//! Level files are paired by game and name. A level whose blob differs is
//! **edited**; one whose blob is the same but whose expectation file
//! differs is **expectations**: if machine-owned values changed there
//! without the level changing, they are flagged as a **hand edit** (bless
//! after a solver change does that too, so it is a question for the
//! reviewer, not a failure). A level only at base is **removed**, only in
//! the working tree **new**; a removed and a new level of the same game
//! with identical content (the same blob id) are one **renamed** level,
//! paired in path order. A level renamed and edited at once shows as
//! removed + new.
//!
//! # Verdicts and exit status
//!
//! Each row gets the worst of: **failed** (a check fails, and bless would
//! not fix it: a broken route, an unreachable snack, a level that does not
//! parse), **regression**, **stale** (bless would fix it), **hand-edit**,
//! **changed**, **unchanged**. Rows are sorted worst first, then by level.
//! The command exits 1 when any check fails or is stale (or `orphans`
//! fails), 0 otherwise; a regression alone does not fail the gate (the
//! designer may mean it, as a breather level does), but it heads the table.
//! Output never depends on thread count: verdicts are computed once each,
//! and everything is sorted.

pub mod compare;
pub mod git;
pub mod render;
mod tables;

pub(crate) use tables::member_table;
use tables::{base_table, table_fingerprint};

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use toml_edit::DocumentMut;

pub use compare::ValueChange;
pub use git::{GitError, Repo, TreeFile};
use puzzle_qa_core::_cli_support::harness::{HARNESS_KEYS, Scope, Settings, Suite, Verdict};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::harness::{ExpectationKey, Subject};

/// The integer key that gets a column of its own: the search checks' par.
pub const PAR: &str = "par";

/// How a level's files changed from the base to the working tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// Only in the working tree.
    New,
    /// Only at base.
    Removed,
    /// Same content under a new name.
    Renamed,
    /// A level of a file of many, the same under a new number (a level
    /// was inserted or deleted before it).
    Renumbered,
    /// The level file changed.
    Edited,
    /// Only its expectation file changed.
    Expectations,
    /// Neither the level file nor its expectation file changed.
    Unchanged,
}

impl Change {
    /// The name in every output format.
    pub fn name(self) -> &'static str {
        match self {
            Change::New => "new",
            Change::Removed => "removed",
            Change::Renamed => "renamed",
            Change::Renumbered => "renumbered",
            Change::Edited => "edited",
            Change::Expectations => "expectations",
            Change::Unchanged => "unchanged",
        }
    }
}

/// How bad a row is, worst first: rows are listed in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Concern {
    /// A check fails, and bless would not fix it.
    Failed,
    /// A needed mechanic is now decoration.
    Regression,
    /// The expectations are out of date: bless would fix them.
    Stale,
    /// Machine-owned values changed in the expectations, the level did not.
    HandEdit,
    /// Something changed, and nothing is wrong.
    Changed,
    /// Nothing changed, and nothing is wrong.
    Unchanged,
}

impl Concern {
    /// The name in every output format.
    pub fn name(self) -> &'static str {
        match self {
            Concern::Failed => "failed",
            Concern::Regression => "regression",
            Concern::Stale => "stale",
            Concern::HandEdit => "hand-edit",
            Concern::Changed => "changed",
            Concern::Unchanged => "unchanged",
        }
    }

    /// Every severity, worst first.
    pub const ALL: [Concern; 6] = [
        Concern::Failed,
        Concern::Regression,
        Concern::Stale,
        Concern::HandEdit,
        Concern::Changed,
        Concern::Unchanged,
    ];
}

/// A check that did not pass, with its message in full.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// The check's name.
    pub check: &'static str,
    /// Bless would fix it.
    pub stale: bool,
    /// Why it failed.
    pub message: String,
}

/// One level: what changed, and how its checks went.
#[derive(Clone, Debug)]
pub struct Row {
    /// `<game>::<level>`, its trial-name prefix (at base, for a removed level).
    pub level: String,
    /// The level's game.
    pub game: &'static str,
    /// The level file in the working tree (at base, for a removed level).
    pub file: String,
    /// The level file at base, for a renamed level.
    pub renamed_from: Option<String>,
    /// How the level's files changed since base.
    pub change: Change,
    /// The worst thing about the row; rows are sorted by it.
    pub severity: Concern,
    /// `par` before (base expectations) and after (what the checks found).
    pub par: [Option<i64>; 2],
    /// Every value that differs from the base expectations to what the
    /// checks found (designer keys: to the working-tree file).
    pub changes: Vec<ValueChange>,
    /// Machine-owned keys whose values changed in the expectation file
    /// while the level itself did not.
    pub hand_edited: Vec<String>,
    /// Each check that ran, in the game's order (none for a removed level).
    pub checks: Vec<(&'static str, Verdict)>,
    /// Each check that did not pass, with its message.
    pub failures: Vec<Failure>,
    /// The command that accepts the stale expectations, if any are.
    pub accept: Option<String>,
    /// Anything else worth knowing (a base expectation file that does not parse).
    pub notes: Vec<String>,
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub struct Report {
    /// The revision as the user named it.
    pub base: String,
    /// The commit it names.
    pub commit: String,
    /// Every level, worst first, then by level.
    pub rows: Vec<Row>,
    /// The `orphans` check's failure message, if it fails.
    pub orphans: Option<String>,
}

impl Report {
    /// Whether the gate fails: a check fails or is stale, or `orphans` fails.
    pub fn failed(&self) -> bool {
        self.orphans.is_some()
            || self
                .rows
                .iter()
                .any(|row| row.checks.iter().any(|(_, verdict)| !verdict.passed()))
    }

    /// How many rows have `severity`.
    pub fn count(&self, severity: Concern) -> usize {
        self.rows
            .iter()
            .filter(|row| row.severity == severity)
            .count()
    }

    /// How many rows have `change`.
    pub fn count_change(&self, change: Change) -> usize {
        self.rows.iter().filter(|row| row.change == change).count()
    }
}

/// A level file as a commit or the working tree has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelFile {
    /// The game, whose folder it is in.
    pub game: &'static str,
    /// The file name without its extension.
    pub stem: String,
    /// Relative to the project root, `/`-separated.
    pub path: String,
    /// Its git blob id: equal content has equal ids.
    pub blob: String,
}

/// Pairs removed levels with new ones of the same game and content: each
/// removed level (in path order) takes the first new one (in path order)
/// not yet taken. Returns (index in `removed`, index in `added`) pairs.
pub fn renames(removed: &[LevelFile], added: &[LevelFile]) -> Vec<(usize, usize)> {
    let mut removed_order: Vec<usize> = (0..removed.len()).collect();
    removed_order.sort_by(|&a, &b| removed[a].path.cmp(&removed[b].path));
    let mut added_order: Vec<usize> = (0..added.len()).collect();
    added_order.sort_by(|&a, &b| added[a].path.cmp(&added[b].path));
    let mut taken = vec![false; added.len()];
    let mut pairs = Vec::new();
    for old in removed_order {
        let found = added_order.iter().copied().find(|&new| {
            !taken[new]
                && added[new].game == removed[old].game
                && added[new].blob == removed[old].blob
        });
        if let Some(new) = found {
            taken[new] = true;
            pairs.push((old, new));
        }
    }
    pairs
}

/// Every key an expectation file of `game` may hold, machine keys in
/// bless's canonical order.
fn known_keys(game: &GameChecks) -> Vec<ExpectationKey> {
    let mut keys = HARNESS_KEYS.to_vec();
    for check in game.checks {
        keys.extend_from_slice(check.keys());
    }
    keys
}

/// What the base commit holds for the project under `settings.root`.
struct Base {
    levels: Vec<LevelFile>,
    /// Expectation file blob ids by (game, stem).
    expectations: BTreeMap<(&'static str, String), String>,
    /// Blob contents by id (expectation files only).
    blobs: BTreeMap<String, Vec<u8>>,
}

impl Base {
    fn read(repo: &Repo, commit: &str, games: &'static [GameChecks]) -> Result<Base, GitError> {
        let files = repo.tree(commit, &["levels", "expectations"])?;
        let mut levels = Vec::new();
        let mut expectations = BTreeMap::new();
        for file in files {
            let parts: Vec<&str> = file.path.split('/').collect();
            let [folder, game, name] = parts[..] else {
                continue;
            };
            let Some(game) = games.iter().find(|info| info.name == game) else {
                continue;
            };
            // As discovery does: hidden files are not levels.
            if name.starts_with('.') {
                continue;
            }
            let Some((stem, extension)) = name.rsplit_once('.') else {
                continue;
            };
            match folder {
                "levels" if extension == game.extension => levels.push(LevelFile {
                    game: game.name,
                    stem: stem.to_string(),
                    path: file.path.clone(),
                    blob: file.blob,
                }),
                "expectations" if extension == "toml" => {
                    expectations.insert((game.name, stem.to_string()), file.blob);
                }
                _ => {}
            }
        }
        let ids: Vec<&str> = expectations.values().map(String::as_str).collect();
        let blobs = repo.blobs(&ids)?;
        Ok(Base {
            levels,
            expectations,
            blobs,
        })
    }

    /// The expectation file of (game, stem) at base, parsed; `Err` with a
    /// note when it does not parse.
    fn document(&self, game: &'static str, stem: &str) -> Result<Option<DocumentMut>, String> {
        let Some(blob) = self.expectations.get(&(game, stem.to_string())) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&self.blobs[blob]);
        text.parse::<DocumentMut>().map(Some).map_err(|_| {
            format!(
                "expectations/{game}/{stem}.toml does not parse at base: its values count as \
                 absent"
            )
        })
    }
}

/// Compares the project under `settings.root` with commit `base`, running
/// every check of every working-tree level. `settings` should not bless.
pub fn build(settings: Settings, base: &str) -> Result<Report, GitError> {
    let repo = Repo::open(&settings.root)?;
    let commit = repo.resolve(base)?;
    let games = settings.games;
    let old = Base::read(&repo, &commit, games)?;

    let suite = Suite::discover(settings);
    suite.check(|_| true);
    let orphans = suite.orphans();

    let subjects = suite.subjects();
    let level_paths: Vec<&str> = subjects
        .iter()
        .map(|subject| subject.entry().shown_level.as_str())
        .collect();
    let level_blobs = repo.hash_files(&level_paths)?;
    let with_expectations: Vec<&Arc<Subject>> = subjects
        .iter()
        .filter(|subject| subject.entry().expectation_path.is_file())
        .collect();
    let expectation_paths: Vec<&str> = with_expectations
        .iter()
        .map(|subject| subject.entry().shown_expectation.as_str())
        .collect();
    let expectation_blobs: BTreeMap<String, String> = expectation_paths
        .iter()
        .map(|path| path.to_string())
        .zip(repo.hash_files(&expectation_paths)?)
        .collect();

    let now: Vec<LevelFile> = subjects
        .iter()
        .zip(level_blobs)
        .map(|(subject, blob)| {
            let entry = subject.entry();
            LevelFile {
                game: entry.game.name,
                stem: entry.stem.clone(),
                path: entry.shown_level.clone(),
                blob,
            }
        })
        .collect();
    let key = |file: &LevelFile| (file.game, file.stem.clone());
    let at_base: BTreeMap<(&str, String), &LevelFile> =
        old.levels.iter().map(|file| (key(file), file)).collect();
    let in_tree: BTreeMap<(&str, String), &LevelFile> =
        now.iter().map(|file| (key(file), file)).collect();
    let removed: Vec<LevelFile> = old
        .levels
        .iter()
        .filter(|file| !in_tree.contains_key(&key(file)))
        .cloned()
        .collect();
    let added: Vec<usize> = (0..now.len())
        .filter(|&index| !at_base.contains_key(&key(&now[index])))
        .collect();
    let added_files: Vec<LevelFile> = added.iter().map(|&index| now[index].clone()).collect();
    let pairs = renames(&removed, &added_files);
    let renamed_from: BTreeMap<usize, &LevelFile> = pairs
        .iter()
        .map(|&(old, new)| (added[new], &removed[old]))
        .collect();

    let mut rows = Vec::new();
    // The base tables that a level of a file of many still has, by file.
    let mut kept: BTreeMap<(&str, String), Vec<usize>> = BTreeMap::new();
    for (index, (subject, file)) in subjects.iter().zip(&now).enumerate() {
        let entry = subject.entry();
        let (change, was) = match (at_base.get(&key(file)), renamed_from.get(&index)) {
            (Some(was), _) => {
                let change = if was.blob != file.blob {
                    Change::Edited
                } else if old.expectations.get(&key(file))
                    != expectation_blobs.get(&entry.shown_expectation)
                {
                    Change::Expectations
                } else {
                    Change::Unchanged
                };
                (change, Some(*was))
            }
            (None, Some(was)) => (Change::Renamed, Some(*was)),
            (None, None) => (Change::New, None),
        };
        let mut notes = Vec::new();
        let before = match was {
            Some(was) => old.document(was.game, &was.stem).unwrap_or_else(|note| {
                notes.push(note);
                None
            }),
            None => None,
        };
        let working = subject
            .expectations()
            .ok()
            .filter(|expectations| expectations.exists())
            .map(|expectations| parsed(expectations.text()));
        let after = subject.blessed_text().as_deref().map(parsed);
        // A level of a file of many: its own table, at base the one that
        // holds its fingerprint (it may have moved), else its number's.
        let (before, working, after, change, moved_from) = match entry.member {
            None => (before, working, after, change, None),
            Some(number) => {
                let fingerprint = subject.fingerprint();
                let others = subject
                    .source()
                    .map_or(&[][..], |source| &source.fingerprints[..]);
                let (old_number, before) = base_table(before.as_ref(), number, others);
                kept.entry(key(file)).or_default().extend(old_number);
                let same_level =
                    before.as_ref().and_then(table_fingerprint) == fingerprint.map(str::to_string);
                let change = match (change, &before, old_number) {
                    (Change::New, _, _) | (_, None, _) => Change::New,
                    // Edited, and maybe moved as well.
                    (_, Some(_), _) if !same_level => Change::Edited,
                    (_, Some(_), Some(old)) if old != number => Change::Renumbered,
                    (_, Some(table), _)
                        if Some(table.to_string())
                            != member_table(working.as_ref(), number).map(|t| t.to_string()) =>
                    {
                        Change::Expectations
                    }
                    _ => Change::Unchanged,
                };
                let moved_from = old_number
                    .filter(|old| *old != number)
                    .map(|old| format!("{} level {old}", file.path));
                (
                    before,
                    member_table(working.as_ref(), number),
                    member_table(after.as_ref(), number),
                    change,
                    moved_from,
                )
            }
        };
        let known = known_keys(entry.game);
        let changes = compare::changes(before.as_ref(), after.as_ref(), &known);
        let level_same = match entry.member {
            None => was.is_some_and(|was| was.blob == file.blob),
            Some(_) => matches!(
                change,
                Change::Unchanged | Change::Expectations | Change::Renumbered
            ),
        };
        let hand_edited = if level_same {
            compare::changes(before.as_ref(), working.as_ref(), &known)
                .into_iter()
                .filter(|change| change.owner == "machine")
                .map(|change| change.key)
                .collect()
        } else {
            Vec::new()
        };
        let mut checks = Vec::new();
        let mut failures = Vec::new();
        for (check, verdict) in subject.verdicts() {
            checks.push((check, verdict.clone()));
            if let Verdict::Stale { message } | Verdict::Failed { message, .. } = verdict {
                failures.push(Failure {
                    check,
                    stale: matches!(verdict, Verdict::Stale { .. }),
                    message: message.clone(),
                });
            }
        }
        let accept = failures
            .iter()
            .any(|failure| failure.stale)
            .then(|| suite.settings().bless_command(entry, Scope::Level));
        let mut row = Row {
            level: entry.id(),
            game: entry.game.name,
            file: file.path.clone(),
            renamed_from: match change {
                Change::Renamed => was.map(|was| was.path.clone()),
                Change::Renumbered => moved_from,
                _ => None,
            },
            change,
            severity: Concern::Unchanged,
            par: [
                compare::integer(before.as_ref(), PAR),
                compare::integer(after.as_ref(), PAR),
            ],
            changes,
            hand_edited,
            checks,
            failures,
            accept,
            notes,
        };
        row.severity = severity(&row);
        rows.push(row);
    }
    let paired: Vec<usize> = pairs.iter().map(|&(old, _)| old).collect();
    for (index, file) in removed.iter().enumerate() {
        if paired.contains(&index) {
            continue;
        }
        let Some(game) = games.iter().find(|game| game.name == file.game) else {
            continue;
        };
        let mut notes = Vec::new();
        let before = old.document(file.game, &file.stem).unwrap_or_else(|note| {
            notes.push(note);
            None
        });
        let level = format!("{}::{}", file.game, file.stem);
        rows.push(removed_row(level, game, &file.path, before.as_ref(), notes));
    }
    // A level deleted from a file of many: a table at base that no level
    // of the file has now.
    for ((game_name, stem), numbers) in &kept {
        let Some(game) = games.iter().find(|game| game.name == *game_name) else {
            continue;
        };
        let Ok(Some(base)) = old.document(game.name, stem) else {
            continue;
        };
        let path = at_base
            .get(&(*game_name, stem.clone()))
            .map_or_else(String::new, |file| file.path.clone());
        for (table, _) in base.iter() {
            let Some(number) = table.parse::<usize>().ok().filter(|n| !numbers.contains(n)) else {
                continue;
            };
            let before = member_table(Some(&base), number);
            let level = format!("{game_name}::{stem}::{number}");
            rows.push(removed_row(level, game, &path, before.as_ref(), Vec::new()));
        }
    }
    rows.sort_by(|a, b| (a.severity, &a.level).cmp(&(b.severity, &b.level)));
    Ok(Report {
        base: base.to_string(),
        commit,
        rows,
        orphans: (!orphans.passed()).then(|| orphans.message().unwrap_or_default()),
    })
}

/// The worst thing about a row.
fn severity(row: &Row) -> Concern {
    if row.failures.iter().any(|failure| !failure.stale) {
        Concern::Failed
    } else if row.changes.iter().any(|change| change.regression) {
        Concern::Regression
    } else if !row.failures.is_empty() {
        Concern::Stale
    } else if !row.hand_edited.is_empty() {
        Concern::HandEdit
    } else if row.change != Change::Unchanged || !row.changes.is_empty() {
        Concern::Changed
    } else {
        Concern::Unchanged
    }
}

/// The regression a change is, in words, for every output format.
pub fn regression_meaning(change: &ValueChange) -> Option<&'static str> {
    change
        .regression
        .then_some("a needed mechanic is now decoration: the par is the same without it")
}

/// An expectation file the harness has already read (so it parses), as a
/// document to compare key by key.
/// The row of a level that is gone: its values at base, nothing after.
fn removed_row(
    level: String,
    game: &'static GameChecks,
    file: &str,
    before: Option<&DocumentMut>,
    notes: Vec<String>,
) -> Row {
    let mut row = Row {
        level,
        game: game.name,
        file: file.to_string(),
        renamed_from: None,
        change: Change::Removed,
        severity: Concern::Unchanged,
        par: [compare::integer(before, PAR), None],
        changes: compare::changes(before, None, &known_keys(game)),
        hand_edited: Vec::new(),
        checks: Vec::new(),
        failures: Vec::new(),
        accept: None,
        notes,
    };
    row.severity = severity(&row);
    row
}

fn parsed(text: &str) -> DocumentMut {
    text.parse().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(game: &'static str, path: &str, blob: &str) -> LevelFile {
        LevelFile {
            game,
            stem: path.rsplit('/').next().unwrap().to_string(),
            path: path.to_string(),
            blob: blob.to_string(),
        }
    }

    #[test]
    fn a_removed_and_a_new_level_with_the_same_content_are_a_rename() {
        let removed = [
            file("a", "levels/a/old.txt", "111"),
            file("a", "levels/a/gone.txt", "222"),
        ];
        let added = [
            file("a", "levels/a/fresh.txt", "333"),
            file("a", "levels/a/new.txt", "111"),
        ];
        assert_eq!(renames(&removed, &added), [(0, 1)]);
    }

    #[test]
    fn a_rename_stays_within_its_game_and_pairs_each_level_once_in_path_order() {
        let removed = [
            file("a", "levels/a/y.txt", "111"),
            file("a", "levels/a/x.txt", "111"),
        ];
        let added = [
            file("b", "levels/b/q.txt", "111"),
            file("a", "levels/a/w.txt", "111"),
            file("a", "levels/a/v.txt", "111"),
        ];
        // x (first by path) takes v (first by path), y takes w; b's copy
        // is a new level of another game.
        assert_eq!(renames(&removed, &added), [(1, 2), (0, 1)]);
        assert!(renames(&removed[..1], &added[..1]).is_empty());
    }

    #[test]
    fn the_worst_thing_about_a_row_is_its_severity() {
        let mut row = Row {
            level: "a::x".into(),
            game: "a",
            file: "levels/a/x.txt".into(),
            renamed_from: None,
            change: Change::Unchanged,
            severity: Concern::Unchanged,
            par: [None, None],
            changes: Vec::new(),
            hand_edited: Vec::new(),
            checks: Vec::new(),
            failures: Vec::new(),
            accept: None,
            notes: Vec::new(),
        };
        assert_eq!(severity(&row), Concern::Unchanged);
        row.change = Change::Edited;
        assert_eq!(severity(&row), Concern::Changed);
        row.hand_edited.push("par".into());
        assert_eq!(severity(&row), Concern::HandEdit);
        row.failures.push(Failure {
            check: "par",
            stale: true,
            message: String::new(),
        });
        assert_eq!(severity(&row), Concern::Stale);
        row.changes.push(ValueChange {
            key: "mechanics.x".into(),
            owner: "machine",
            before: Some("essential".into()),
            after: Some("decoration".into()),
            regression: true,
        });
        assert_eq!(severity(&row), Concern::Regression);
        assert!(regression_meaning(&row.changes[0]).is_some());
        row.failures.push(Failure {
            check: "routes",
            stale: false,
            message: String::new(),
        });
        assert_eq!(severity(&row), Concern::Failed);
    }
}
