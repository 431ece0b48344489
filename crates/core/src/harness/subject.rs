//! The level under test: what checks may ask about it (its parsed level, its
//! expectations, its solution), each computed once and shared by all of its
//! checks, and the verdict of each check, also computed once.

use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use toml_edit::Item;

use super::bless;
use super::check::{Check, Finding};
use super::diff::unified;
use super::discover::LevelEntry;
use super::expectations::Expectations;
use super::follow::{self, Following};
use super::keys::{ExpectationKey, Owner};
use super::pending;
use super::renumber::Renumbering;
use super::settings::{Scope, Settings, review_written};
use crate::diagnostic::Diagnostic;
use crate::level::{AnyLevel, HangReport, Loaded, Solution, fingerprint, read_level, read_levels};
use crate::search::{
    Algorithm, Budget, DEFAULT_MEMORY, DEFAULT_STATE_LIMIT, SearchOptions, parse_size,
};

/// A level file read and parsed.
pub struct LevelFile {
    /// The file's text, as read.
    pub text: String,
    /// Its levels, each parsed or refused: one for a game of one level a
    /// file.
    pub levels: Vec<Result<Loaded, Diagnostic>>,
    /// Warnings about the file as a whole (a file of several levels).
    pub warnings: Vec<Diagnostic>,
    /// Each level's fingerprint (a file of several levels; else empty).
    pub fingerprints: Vec<String>,
}

/// What the levels of one file share: the file, read and parsed once, and
/// its expectation file, read (and renumbered, when levels moved) once.
#[derive(Default)]
pub(crate) struct SharedFile {
    source: OnceLock<Result<LevelFile, String>>,
    expectations: OnceLock<Result<(Expectations, Renumbering), String>>,
    /// The entries renamed with `expectations` to follow edited mechanics.
    followed: OnceLock<Following>,
}

/// One level and everything its checks share.
pub struct Subject {
    entry: LevelEntry,
    settings: Arc<Settings>,
    file: Arc<SharedFile>,
    expectations: OnceLock<Result<Expectations, String>>,
    solution: OnceLock<Result<Solution, String>>,
    verdicts: Vec<OnceLock<Verdict>>,
    /// The mechanics the `ablation` check found idle (dead) here.
    idle: OnceLock<Vec<String>>,
    /// The mechanics the `ablation` check found part of the goal here.
    goal: OnceLock<Vec<String>>,
    /// A move that never settles, met beyond the search's first win by the
    /// `ablation` check's exploration.
    hang: OnceLock<HangReport>,
    /// Each check's machine values, kept once its verdict is computed, so
    /// that [`Subject::blessed_text`] can say what bless would write
    /// without writing it.
    machine: Vec<OnceLock<MachineValues>>,
}

/// The machine-owned values one check reported (see [`Finding::machine`]).
type MachineValues = Vec<(&'static str, Option<Item>)>;

/// How one check went on one level. It is worked out once, in
/// `Subject::verdict`, and every front end (the `cargo test` runner, the
/// command line, the report, the HTML pages) shows it as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The check passed.
    Passed {
        /// What it had to say all the same (warnings, a route above par).
        notes: Vec<String>,
        /// What bless changed in the expectation file to make it pass.
        blessed: Vec<String>,
    },
    /// It failed only because the expectation file is out of date: bless
    /// fixes it.
    Stale {
        /// Why, with the diff and the command that accepts it.
        message: String,
    },
    /// It failed, and bless cannot fix it.
    Failed {
        /// Why.
        message: String,
        /// What bless wrote all the same (the machine values of a check
        /// that also has problems).
        blessed: Vec<String>,
    },
}

impl Verdict {
    fn failed(message: String) -> Self {
        Verdict::Failed {
            message,
            blessed: Vec::new(),
        }
    }

    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Passed { .. })
    }

    /// Why it failed; or, when it passed, its notes (if any), one a line.
    pub fn message(&self) -> Option<String> {
        match self {
            Verdict::Passed { notes, .. } => (!notes.is_empty()).then(|| notes.join("\n")),
            Verdict::Stale { message } | Verdict::Failed { message, .. } => Some(message.clone()),
        }
    }

    /// What bless changed in the expectation file.
    pub fn blessed(&self) -> &[String] {
        match self {
            Verdict::Passed { blessed, .. } | Verdict::Failed { blessed, .. } => blessed,
            Verdict::Stale { .. } => &[],
        }
    }

    /// `ok`, `stale` or `failed`: the verdict's name in JSON output.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Passed { .. } => "ok",
            Verdict::Stale { .. } => "stale",
            Verdict::Failed { .. } => "failed",
        }
    }

    /// `ok`, `stale` or `FAIL`: the verdict in a table cell, a failure
    /// made to stand out.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Passed { .. } => "ok",
            Verdict::Stale { .. } => "stale",
            Verdict::Failed { .. } => "FAIL",
        }
    }
}

/// The harness's own expectation keys that the harness reads (`notes` is
/// for people; their shapes are checked by `parse`), each read on its own
/// so that a message can name the one that cannot be read.
#[derive(Deserialize)]
struct LimitField {
    limit: Option<usize>,
}

/// See [`LimitField`].
#[derive(Deserialize)]
struct MemoryField {
    #[serde(default, deserialize_with = "memory_size")]
    memory: Option<u64>,
}

/// `memory = "4GiB"`: a size as [`parse_size`] reads it, or an error that
/// the expectation file's reader renders at the value.
fn memory_size<'de, D: serde::Deserializer<'de>>(value: D) -> Result<Option<u64>, D::Error> {
    let text = String::deserialize(value)?;
    parse_size(&text)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// Where a level's memory budget comes from, for the message that says
/// how to raise it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryFrom {
    /// Its expectations' `memory` key.
    Key,
    /// The command line's `--memory`.
    Flag,
    /// Neither: [`DEFAULT_MEMORY`].
    Default,
}

impl Subject {
    /// The subject for level `entry`, sharing `file` with the other levels
    /// of its file; nothing is read or computed until a check asks.
    pub(crate) fn sharing(
        entry: LevelEntry,
        settings: Arc<Settings>,
        file: Arc<SharedFile>,
    ) -> Self {
        let checks = entry.game.checks.len();
        Subject {
            entry,
            settings,
            file,
            idle: OnceLock::new(),
            goal: OnceLock::new(),
            hang: OnceLock::new(),
            expectations: OnceLock::new(),
            solution: OnceLock::new(),
            verdicts: (0..checks).map(|_| OnceLock::new()).collect(),
            machine: (0..checks).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Records the mechanics the level's ablation found idle (dead), for a
    /// note on a mechanic idle in every level of its file.
    pub(crate) fn record_idle(&self, idle: Vec<String>) {
        let _ = self.idle.set(idle);
    }

    /// Records a move that never settles, met by the ablation check's
    /// exploration where the search did not look.
    pub(crate) fn record_hang(&self, hang: HangReport) {
        let _ = self.hang.set(hang);
    }

    /// The first move found so far that never settles: the search's, or
    /// else the ablation check's exploration's.
    #[doc(hidden)]
    pub fn hang(&self) -> Option<&HangReport> {
        self.solution_if_solved()
            .and_then(|solution| solution.hang.as_ref())
            .or_else(|| self.hang.get())
    }

    /// The mechanics found idle here, once the ablation check has run.
    pub(crate) fn idle(&self) -> Option<&[String]> {
        self.idle.get().map(Vec::as_slice)
    }

    /// Records the mechanics the level's ablation classed part of the goal,
    /// for one note about them for the whole file.
    pub(crate) fn record_goal(&self, goal: Vec<String>) {
        let _ = self.goal.set(goal);
    }

    /// The mechanics found part of the goal here, once the ablation check
    /// has run.
    pub(crate) fn goal(&self) -> Option<&[String]> {
        self.goal.get().map(Vec::as_slice)
    }

    /// Which level this is: its game, stem and paths.
    #[doc(hidden)]
    pub fn entry(&self) -> &LevelEntry {
        &self.entry
    }

    /// The settings the checks run with.
    #[doc(hidden)]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The level file read and parsed (all its levels), or the rendered
    /// error (file, line, column, caret) that stops it from being read.
    #[doc(hidden)]
    pub fn source(&self) -> Result<&LevelFile, &str> {
        self.file
            .source
            .get_or_init(|| read_file(&self.entry))
            .as_ref()
            .map_err(String::as_str)
    }

    /// This level, parsed, with its warnings.
    fn loaded(&self) -> Option<&Loaded> {
        let index = self.entry.member.map_or(0, |number| number - 1);
        self.source().ok()?.levels.get(index)?.as_ref().ok()
    }

    /// Why the level does not load, rendered in full, or `None` when it
    /// does: for the `parse` check. The error of a file that cannot be read
    /// at all is shown by its first level's `parse`; the others point there.
    pub(crate) fn load_error(&self) -> Option<String> {
        let source = match self.source() {
            Ok(source) => source,
            Err(error) if self.entry.member.is_none_or(|number| number == 1) => {
                return Some(error.to_string());
            }
            Err(_) => {
                let first = LevelEntry {
                    member: Some(1),
                    ..self.entry.clone()
                };
                return Some(format!(
                    "{} does not load; see `{}`",
                    self.entry.shown_level,
                    first.trial("parse")
                ));
            }
        };
        let index = self.entry.member.map_or(0, |number| number - 1);
        match source.levels.get(index) {
            Some(Ok(_)) => None,
            Some(Err(error)) => Some(error.render(&self.entry.shown_level, &source.text)),
            None if source.levels.is_empty() => Some(format!(
                "{} holds no level (it reads, but none of its entries is a level), so there is \
                 no level {}",
                self.entry.shown_level,
                index + 1
            )),
            None => Some(format!(
                "{} holds {} levels now, so there is no level {}",
                self.entry.shown_level,
                source.levels.len(),
                index + 1
            )),
        }
    }

    /// The level's warnings, rendered against its file; a file of several
    /// levels has its own warnings shown with its first level's.
    pub(crate) fn warnings(&self) -> Vec<String> {
        let Ok(source) = self.source() else {
            return Vec::new();
        };
        let own = self.loaded().map_or(&[][..], |loaded| &loaded.warnings[..]);
        let file = if self.entry.member.is_none_or(|number| number == 1) {
            &source.warnings[..]
        } else {
            &[][..]
        };
        file.iter()
            .chain(own)
            .map(|warning| warning.render(&self.entry.shown_level, &source.text))
            .collect()
    }

    /// The playable level; if it does not load, a one-line pointer to the
    /// `parse` trial, which shows the error.
    pub fn level(&self) -> Result<&dyn AnyLevel, String> {
        self.loaded()
            .map(|loaded| loaded.level.as_ref())
            .ok_or_else(|| {
                format!(
                    "{} does not load; see `{}`",
                    self.entry.shown_subject(),
                    self.entry.trial("parse")
                )
            })
    }

    /// The level's fingerprint, for a level of a file of several that loads.
    #[doc(hidden)]
    pub fn fingerprint(&self) -> Option<&str> {
        let index = self.entry.member? - 1;
        Some(self.source().ok()?.fingerprints.get(index)?.as_str())
    }

    /// The whole expectation file (for a file of several levels, with its
    /// tables renumbered to follow moved levels: on disk under bless, else
    /// in memory) and what moved, read once for all the file's levels.
    pub(crate) fn file_expectations(&self) -> Result<&(Expectations, Renumbering), &str> {
        self.file
            .expectations
            .get_or_init(|| {
                let fingerprints = self
                    .source()
                    .ok()
                    .map_or(&[][..], |source| &source.fingerprints[..]);
                let (expectations, plan) =
                    super::renumber::load(&self.entry, &self.settings, fingerprints)?;
                let (expectations, followed) = follow::load(
                    &self.entry,
                    &self.settings,
                    expectations,
                    &self.levels_now(),
                )?;
                let _ = self.file.followed.set(followed);
                Ok((expectations, plan))
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The file's levels that load, each with the key of its table, for
    /// [`follow::load`].
    fn levels_now(&self) -> Vec<follow::Now<'_>> {
        let Ok(source) = self.source() else {
            return Vec::new();
        };
        let many = self.entry.member.is_some();
        source
            .levels
            .iter()
            .enumerate()
            .filter_map(|(index, level)| {
                Some(follow::Now {
                    table: many.then(|| (index + 1).to_string()),
                    level: level.as_ref().ok()?.level.as_ref(),
                })
            })
            .collect()
    }

    /// For the first level of its file: the entries renamed to follow
    /// mechanics whose text was edited, as notes (renamed in memory only:
    /// what bless would write) and as what bless did.
    pub(crate) fn file_followed(&self) -> (Vec<String>, Vec<String>) {
        if self.entry.member.is_some_and(|number| number != 1) || self.file_expectations().is_err()
        {
            return (Vec::new(), Vec::new());
        }
        let Some(followed) = self.file.followed.get().filter(|f| !f.renames.is_empty()) else {
            return (Vec::new(), Vec::new());
        };
        let summary = followed.summary();
        if followed.written {
            return (
                Vec::new(),
                summary
                    .into_iter()
                    .map(|s| format!("renamed: {s}"))
                    .collect(),
            );
        }
        let bless = self.settings.bless_command(&self.entry, Scope::File);
        let notes = summary
            .into_iter()
            .map(|rename| {
                format!(
                    "{}: an edited mechanic's entries follow it: {rename}; run `{}` to rename them in \
                     {} (comments are kept)",
                    self.entry.shown_level,
                    bless,
                    self.entry.shown_expectation
                )
            })
            .collect();
        (notes, Vec::new())
    }

    /// For the first level of a file of several: what is wrong with the
    /// file's tables as a whole (tables with no level, keys outside any
    /// table, levels that moved while their tables did not), and what bless
    /// did about it (renumbered them). Empty for any other level.
    pub(crate) fn file_findings(&self) -> (Vec<String>, Vec<String>) {
        let (mut problems, mut blessed) = (Vec::new(), Vec::new());
        if self.entry.member != Some(1) {
            return (problems, blessed);
        }
        let Ok((expectations, plan)) = self.file_expectations() else {
            return (problems, blessed); // `parse` reports it
        };
        let shown = &self.entry.shown_expectation;
        if !plan.is_empty() {
            let summary = plan.summary().join("; ");
            if plan.written {
                blessed.push(format!("renumbered: {summary}"));
            } else {
                problems.push(format!(
                    "{shown}: {summary}. Run `{}` to move their tables with them (comments \
                     are kept)",
                    self.settings.bless_command(&self.entry, Scope::File)
                ));
            }
        }
        let count = self.source().ok().map(|source| source.levels.len());
        for (key, item) in expectations.document().as_table() {
            let number = key.parse::<usize>().ok().filter(|&n| n >= 1);
            match (item.is_table(), number, count) {
                (true, Some(n), Some(count)) if n <= count => {}
                (true, Some(_), None) => {}
                (true, _, _) => problems.push(format!(
                    "{shown}: table [{key}] belongs to no level ({} holds {} levels): delete \
                     it, or run {}",
                    self.entry.shown_level,
                    count.map_or("?".to_string(), |count| count.to_string()),
                    self.settings.prune_hint(Some(&self.entry))
                )),
                (false, _, _) => problems.push(format!(
                    "{shown}: `{key}` is outside every level's table; in a file of several \
                     levels each key belongs in its level's table (`[1]`, `[2]`, …)"
                )),
            }
        }
        (problems, blessed)
    }

    /// The expectation file (for a level of a file of several, its table),
    /// or its rendered error: for the `parse` check.
    pub(crate) fn expectations_in_full(&self) -> Result<&Expectations, &str> {
        self.expectations
            .get_or_init(|| {
                let (file, _) = self.file_expectations().map_err(str::to_string)?;
                Ok(match self.entry.table() {
                    Some(table) => file.member(&table),
                    None => file.clone(),
                })
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The expectation file (empty if there is none yet); if it cannot be
    /// read, a one-line pointer to the `parse` trial.
    pub fn expectations(&self) -> Result<&Expectations, String> {
        self.expectations_in_full().map_err(|_| {
            format!(
                "{} cannot be read; see `{}`",
                self.entry.shown_expectation,
                self.entry.trial("parse")
            )
        })
    }

    /// The level's state limit: its `limit` key, else the default. Checking
    /// the harness's own keys' types is part of `parse`.
    pub fn limit(&self) -> Result<usize, String> {
        let fields: LimitField = self.harness_fields()?;
        Ok(fields.limit.unwrap_or(DEFAULT_STATE_LIMIT))
    }

    /// The level's memory budget and where it comes from: its `memory`
    /// key, else the command line's `--memory`, else the default. The key
    /// wins: it is the level's own, reviewed with its expectations, and
    /// `cargo test` (which has no flag) must reach the same verdict.
    pub fn memory(&self) -> Result<(u64, MemoryFrom), String> {
        let fields: MemoryField = self.harness_fields()?;
        Ok(match (fields.memory, self.settings.memory) {
            (Some(bytes), _) => (bytes, MemoryFrom::Key),
            (None, Some(bytes)) => (bytes, MemoryFrom::Flag),
            (None, None) => (DEFAULT_MEMORY, MemoryFrom::Default),
        })
    }

    /// The level's bounds: its state limit and memory budget.
    pub fn budget(&self) -> Result<Budget, String> {
        Ok(Budget {
            states: self.limit()?,
            bytes: self.memory()?.0,
        })
    }

    fn harness_fields<T: serde::de::DeserializeOwned>(&self) -> Result<T, String> {
        self.expectations_in_full().map_err(str::to_string)?.read()
    }

    /// The level solved once (breadth-first, or Dijkstra when moves cost
    /// differently) within its state limit and memory budget, shared by
    /// every check.
    pub fn solution(&self) -> Result<&Solution, String> {
        self.solution
            .get_or_init(|| {
                let level = self.level()?;
                self.expectations()?;
                let budget = self.budget().map_err(|_| {
                    let key = if self.limit().is_err() {
                        "limit"
                    } else {
                        "memory"
                    };
                    format!(
                        "the `{key}` in {} cannot be read; see `{}`",
                        self.entry.shown_expectation,
                        self.entry.trial("parse")
                    )
                })?;
                // A game over the process protocol may fail mid-search.
                crate::abandon::caught(|| {
                    level.solve(SearchOptions {
                        algorithm: Algorithm::Bfs,
                        limit: budget.states,
                        memory: budget.bytes,
                    })
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The shared solution if some check has already asked for it.
    #[doc(hidden)]
    pub fn solution_if_solved(&self) -> Option<&Solution> {
        self.solution.get()?.as_ref().ok()
    }

    /// Every top-level key an expectation file of this game may hold.
    #[doc(hidden)]
    pub fn known_keys(&self) -> Vec<ExpectationKey> {
        self.entry.known_keys()
    }

    /// The machine-owned keys in the order bless lays them out.
    fn machine_keys(&self) -> Vec<&'static str> {
        self.entry.machine_keys()
    }

    /// The verdict of the game's check number `index`, computed at most once.
    pub(crate) fn verdict(&self, index: usize) -> &Verdict {
        self.verdicts[index].get_or_init(|| self.evaluate(index))
    }

    /// The verdicts computed so far, with their checks' names.
    #[doc(hidden)]
    pub fn verdicts(&self) -> impl Iterator<Item = (&'static str, &Verdict)> {
        self.entry
            .game
            .checks
            .iter()
            .zip(&self.verdicts)
            .filter_map(|(check, verdict)| Some((check.name(), verdict.get()?)))
    }

    /// The expectation file as bless would leave it, given the verdicts
    /// computed so far: the machine values of every check that produced a
    /// finding, written into a copy of the file as it is (designer keys
    /// untouched). A check that failed outright leaves its keys as they
    /// are. `None` when the file cannot be read.
    #[doc(hidden)]
    pub fn blessed_text(&self) -> Option<String> {
        let expectations = self.expectations().ok()?;
        let mut document = expectations.document().clone();
        let values: Vec<(&str, Option<Item>)> = self
            .machine
            .iter()
            .filter_map(OnceLock::get)
            .flatten()
            .map(|(key, item)| (*key, item.clone()))
            .collect();
        super::expectations::apply(
            &mut document,
            expectations.scope(),
            &values,
            &self.machine_keys(),
        );
        Some(super::expectations::print(&document, expectations.text()))
    }

    fn evaluate(&self, index: usize) -> Verdict {
        let check: &dyn Check = self.entry.game.checks[index];
        let finding = match crate::abandon::caught(|| check.run(self)) {
            Ok(Ok(finding)) => finding,
            Ok(Err(message)) | Err(message) => return Verdict::failed(message),
        };
        let _ = self.machine[index].set(finding.machine.clone());
        let verdict = self.compare(check, &finding);
        if finding.problems.is_empty() {
            return verdict;
        }
        // Problems fail the check whatever the values say; what the values
        // say (a diff, or what bless wrote) follows them.
        let mut message = finding.problems.join("\n");
        if let Verdict::Stale { message: more } | Verdict::Failed { message: more, .. } = &verdict {
            message.push_str("\n\n");
            message.push_str(more);
        }
        // Not stale: bless alone cannot make it pass.
        Verdict::Failed {
            message,
            blessed: verdict.blessed().to_vec(),
        }
    }

    /// Compares a finding's machine values with the expectation file.
    fn compare(&self, check: &dyn Check, finding: &Finding) -> Verdict {
        if finding.machine.is_empty() {
            return Verdict::Passed {
                notes: finding.notes.clone(),
                blessed: Vec::new(),
            };
        }
        for (key, _) in &finding.machine {
            let owned = check
                .keys()
                .iter()
                .any(|owned| owned.name == *key && owned.owner == Owner::Machine);
            if !owned {
                return Verdict::failed(format!(
                    "check `{}` reported a value for `{key}`, which it does not own as a \
                     machine-owned key (a bug in the check)",
                    check.name()
                ));
            }
        }
        let expectations = match self.expectations() {
            Ok(expectations) => expectations,
            Err(message) => return Verdict::failed(message),
        };
        let canonical = self.machine_keys();
        let (proposed, changes) = expectations.with_values(&finding.machine, &canonical);
        if changes.is_empty() {
            // An earlier run's pending change to these values is void now.
            self.tidy_pending(&finding.machine, &canonical);
            return Verdict::Passed {
                notes: finding.notes.clone(),
                blessed: Vec::new(),
            };
        }
        if self.settings.may_write() {
            return match bless::write(&self.entry, &finding.machine, &canonical) {
                // The change summary says what the notes would have.
                Ok(blessed) => {
                    self.tidy_pending(&finding.machine, &canonical);
                    Verdict::Passed {
                        notes: Vec::new(),
                        blessed,
                    }
                }
                Err(message) => Verdict::failed(message),
            };
        }
        let pending = self.keep_pending(&finding.machine, &canonical);
        Verdict::Stale {
            message: self.stale_message(check, expectations, &proposed, &changes, finding, pending),
        }
    }

    /// Where this level's pending file is (or would be), if pending files
    /// are kept and the expectation file's tables are where its levels are
    /// (a file whose levels moved needs bless to move its tables first: a
    /// pending file written before the move speaks of the old numbers).
    #[doc(hidden)]
    pub fn pending_path(&self) -> Option<std::path::PathBuf> {
        let path = pending::pending_path(&self.settings, &self.entry.expectation_path)?;
        if self.entry.member.is_some() {
            let (_, plan) = self.file_expectations().ok()?;
            if !plan.is_empty() && !plan.written {
                return None;
            }
        }
        // Nor while entries follow edited mechanics in memory only.
        if self
            .file
            .followed
            .get()
            .is_some_and(|followed| !followed.renames.is_empty() && !followed.written)
        {
            return None;
        }
        Some(path)
    }

    /// Whether a check computed so far is stale (bless would fix it).
    #[doc(hidden)]
    pub fn is_stale(&self) -> bool {
        self.verdicts()
            .any(|(_, verdict)| matches!(verdict, Verdict::Stale { .. }))
    }

    /// The level's pending file, if it has one now (as messages show it).
    #[doc(hidden)]
    pub fn pending_file(&self) -> Option<String> {
        self.pending_path()
            .filter(|path| path.exists())
            .map(|path| self.settings.shown(&path))
    }

    /// Merges a stale check's values into the level's pending file: the
    /// pending file's path as messages show it, or why it could not be kept.
    fn keep_pending(
        &self,
        values: &[(&'static str, Option<Item>)],
        canonical: &[&str],
    ) -> Option<Result<String, String>> {
        let path = self.pending_path()?;
        Some(
            pending::record(&self.entry, &path, values, canonical)
                .map(|kept| self.settings.shown(kept.as_deref().unwrap_or(&path))),
        )
    }

    /// Takes an agreeing check's part out of an earlier pending file
    /// (deleting it once it holds nothing more). A failure here costs
    /// nothing but a stale pending file, which `review` shows as it is.
    fn tidy_pending(&self, values: &[(&'static str, Option<Item>)], canonical: &[&str]) {
        if let Some(path) = self.pending_path().filter(|path| path.exists()) {
            let _ = pending::record(&self.entry, &path, values, canonical);
        }
    }

    fn stale_message(
        &self,
        check: &dyn Check,
        expectations: &Expectations,
        proposed: &str,
        changes: &[String],
        finding: &Finding,
        pending: Option<Result<String, String>>,
    ) -> String {
        let shown = &self.entry.shown_expectation;
        let (scope, what) = if expectations.exists() {
            (
                Scope::Check(check.name()),
                format!("{shown} is out of date ({})", changes.join("; ")),
            )
        } else {
            let command = self.settings.bless_command(&self.entry, Scope::Level);
            (
                Scope::Level,
                match self.entry.table() {
                    Some(table) => {
                        format!(
                            "new level: run `{command}` to write its table [{table}] in {shown}"
                        )
                    }
                    None => format!("new level: run `{command}` to write {shown}"),
                },
            )
        };
        let mut message = what;
        for note in &finding.notes {
            message.push('\n');
            message.push_str(note);
        }
        message.push_str("\n\n");
        message.push_str(&unified(
            shown,
            &self.text_on_disk(expectations),
            proposed,
            self.settings.color,
        ));
        message.push('\n');
        let command = self.settings.bless_command(&self.entry, scope);
        match pending {
            Some(Ok(path)) => message.push_str(&format!(
                "pending: {path} holds what bless would write; review it with {}\n",
                self.settings.review_hint([&self.entry])
            )),
            Some(Err(why)) => {
                message.push_str(&format!("the pending change was not kept: {why}\n"));
            }
            None => {}
        }
        if let Some(reason) = self.settings.bless_refused() {
            message.push_str(&format!(
                "bless refused: {reason}; nothing was written.\nrun `{command}` on your \
                 machine, review the diff, and commit it.\n"
            ));
        } else if !finding.problems.is_empty() {
            // Bless's advice would mislead: it cannot make this check pass.
            message.push_str(
                "bless records these values, but the check fails until the problems above are \
                 fixed\n",
            );
        } else if expectations.exists() {
            message.push_str(&format!(
                "to accept: `{command}`, then {}\n",
                review_written([&self.entry])
            ));
        }
        message
    }

    /// The expectation file as it is on disk, for the `-` side of a diff
    /// ("expected: as it is"): `expectations` unless its tables were
    /// renumbered in memory only (levels moved, and bless has not moved
    /// their tables yet); then the file is read again as it stands.
    fn text_on_disk(&self, expectations: &Expectations) -> String {
        let in_memory = self.entry.member.is_some()
            && self
                .file_expectations()
                .is_ok_and(|(_, plan)| !plan.is_empty() && !plan.written);
        if in_memory {
            std::fs::read_to_string(&self.entry.expectation_path).unwrap_or_default()
        } else {
            expectations.text().to_string()
        }
    }
}

/// Reads and parses the file of `entry`: its one level, or all its levels.
fn read_file(entry: &LevelEntry) -> Result<LevelFile, String> {
    let shown = &entry.shown_level;
    let Some(many) = entry.game.many else {
        let (text, loaded) = read_level(&entry.level_path, shown, entry.game.load)?;
        return Ok(LevelFile {
            text,
            levels: vec![Ok(loaded)],
            warnings: Vec::new(),
            fingerprints: Vec::new(),
        });
    };
    let (text, file) = read_levels(&entry.level_path, shown, many)?;
    let fingerprints = file
        .levels
        .iter()
        .map(|member| fingerprint(&member.text))
        .collect();
    Ok(LevelFile {
        levels: file.levels.into_iter().map(|member| member.level).collect(),
        warnings: file.warnings,
        fingerprints,
        text,
    })
}
