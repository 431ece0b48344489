//! A set of levels under test, shared by the `cargo test` runner and the
//! `puzzle-qa check` command: the same checks, the same verdicts.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::discover::{self, LevelEntry};
use super::settings::{Settings, review_written};
use super::subject::{SharedFile, Subject, Verdict};

/// One (level, check) pair: the level and the index of the check in its
/// game's list.
pub(crate) type Work = (Arc<Subject>, usize);

/// The name of the one suite-wide trial.
pub const ORPHANS: &str = "orphans";

/// The levels under test, one shared [`Subject`] each, and the settings they
/// are checked with.
pub struct Suite {
    settings: Arc<Settings>,
    subjects: Vec<Arc<Subject>>,
}

impl Suite {
    /// Every level under the settings' root.
    pub fn discover(settings: Settings) -> Self {
        let entries = discover::levels(&settings);
        Suite::of(settings, entries)
    }

    /// The given levels only.
    pub fn of(settings: Settings, entries: Vec<LevelEntry>) -> Self {
        let settings = Arc::new(settings);
        let mut files: BTreeMap<PathBuf, Arc<SharedFile>> = BTreeMap::new();
        let subjects = entries
            .into_iter()
            .map(|entry| {
                // The levels of one file share it: read, parsed, and its
                // expectations loaded once.
                let file = files.entry(entry.level_path.clone()).or_insert_with(|| {
                    if settings.may_write() {
                        super::bless::sweep(&entry);
                    }
                    Arc::default()
                });
                let file = Arc::clone(file);
                Arc::new(Subject::sharing(entry, Arc::clone(&settings), file))
            })
            .collect();
        Suite { settings, subjects }
    }

    /// The settings every level is checked with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// One subject per level, in the order discovered (by game, then file
    /// name) or given.
    pub fn subjects(&self) -> &[Arc<Subject>] {
        &self.subjects
    }

    /// Every (level, check) trial name in order, then `orphans`.
    pub fn trial_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.work(|_| true).iter().map(trial_name).collect();
        names.push(ORPHANS.to_string());
        names
    }

    /// The `orphans` verdict: every expectation file has a level, every level
    /// an expectation file, every folder a game, and every entry of a level
    /// folder named like a level is one (other entries are noted as
    /// ignored); and [`Suite::tables`].
    pub fn orphans(&self) -> Verdict {
        let (all_levels, ignored) = discover::listing(&self.settings);
        let problems = discover::orphans(&self.settings, &all_levels, &ignored);
        let notes: Vec<String> = ignored
            .iter()
            .filter(|entry| !entry.meant_as_level)
            .map(|entry| format!("{}: ignored, because {}", entry.shown, entry.why))
            .collect();
        self.files_verdict(problems, notes)
    }

    /// The `orphans` verdict of the suite's own files, for levels checked
    /// without their repository (game files on their own): the tables of
    /// each file of several levels that moved with their levels or belong
    /// to none, and the mechanics dead in every level of a file.
    pub fn tables(&self) -> Verdict {
        self.files_verdict(Vec::new(), Vec::new())
    }

    /// `problems` and `notes`, with what each file of several levels says
    /// about its tables, as one verdict.
    fn files_verdict(&self, mut problems: Vec<String>, mut notes: Vec<String>) -> Verdict {
        let mut blessed = Vec::new();
        for subject in &self.subjects {
            let (wrong, done) = subject.file_findings();
            problems.extend(wrong);
            let shown = &subject.entry().shown_expectation;
            blessed.extend(done.into_iter().map(|done| format!("{shown}: {done}")));
            let (followed, done) = subject.file_followed();
            notes.extend(followed);
            blessed.extend(done.into_iter().map(|done| format!("{shown}: {done}")));
        }
        notes.extend(idle_everywhere(&self.subjects));
        notes.extend(goal_by_file(&self.subjects));
        if problems.is_empty() {
            Verdict::Passed { notes, blessed }
        } else {
            Verdict::Failed {
                message: problems
                    .into_iter()
                    .chain(notes)
                    .collect::<Vec<_>>()
                    .join("\n"),
                blessed: Vec::new(),
            }
        }
    }

    /// The (level, check) pairs whose trial names `selected` accepts, in
    /// trial order: what a run has to compute.
    pub(crate) fn work(&self, selected: impl Fn(&str) -> bool) -> Vec<Work> {
        self.subjects
            .iter()
            .flat_map(|subject| {
                let entry = subject.entry();
                entry
                    .game
                    .checks
                    .iter()
                    .enumerate()
                    .filter(|(_, check)| selected(&entry.trial(check.name())))
                    .map(|(index, _)| (Arc::clone(subject), index))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Computes the given (level, check) verdicts in parallel. A check that
    /// panics is left to fail in its own trial, where the panic is reported.
    pub(crate) fn compute(work: &[Work]) {
        work.par_iter().for_each(|(subject, index)| {
            let _ = catch_unwind(AssertUnwindSafe(|| subject.verdict(*index)));
        });
    }

    /// Computes, in parallel, the verdicts of the (level, check) trials
    /// whose names `selected` accepts; each subject's
    /// [`Subject::verdicts`] then has them.
    pub fn check(&self, selected: impl Fn(&str) -> bool) {
        Suite::compute(&self.work(selected));
    }

    /// Every trial's verdict, in trial order, computed in parallel.
    pub fn run(&self) -> Vec<(String, Verdict)> {
        let work = self.work(|_| true);
        Suite::compute(&work);
        let mut verdicts: Vec<(String, Verdict)> = work
            .iter()
            .map(|item| (trial_name(item), item.0.verdict(item.1).clone()))
            .collect();
        verdicts.push((ORPHANS.to_string(), self.orphans()));
        verdicts
    }
}

/// One note per mechanic that is idle (dead) in every level of a file of
/// several, once every level's ablation has run: worth one game-wide word.
fn idle_everywhere(subjects: &[Arc<Subject>]) -> Vec<String> {
    let mut by_file: BTreeMap<&PathBuf, Vec<&Arc<Subject>>> = BTreeMap::new();
    for subject in subjects.iter().filter(|s| s.entry().member.is_some()) {
        by_file
            .entry(&subject.entry().level_path)
            .or_default()
            .push(subject);
    }
    let mut notes = Vec::new();
    for levels in by_file.values() {
        let Some(sets) = levels.iter().map(|s| s.idle()).collect::<Option<Vec<_>>>() else {
            continue;
        };
        let Some((first, rest)) = sets.split_first() else {
            continue;
        };
        for mechanic in first.iter() {
            if rest.iter().all(|set| set.contains(mechanic)) {
                notes.push(format!(
                    "{}: {mechanic} is dead in every level: it takes part in no state any \
                     level can reach; remove it, or add a level that needs it",
                    levels[0].entry().shown_level
                ));
            }
        }
    }
    notes
}

/// One note per level file whose levels' ablations classed mechanics part
/// of the goal: the same win conditions hold for every level of a file,
/// so it is said once, not once a level.
fn goal_by_file(subjects: &[Arc<Subject>]) -> Vec<String> {
    let mut by_file: BTreeMap<&PathBuf, Vec<&str>> = BTreeMap::new();
    for subject in subjects {
        let Some(goal) = subject.goal() else {
            continue;
        };
        let names = by_file.entry(&subject.entry().level_path).or_default();
        for name in goal {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    let shown: BTreeMap<&PathBuf, &str> = subjects
        .iter()
        .map(|subject| {
            (
                &subject.entry().level_path,
                subject.entry().shown_level.as_str(),
            )
        })
        .collect();
    by_file
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(file, names)| {
            let (them, are) = if names.len() == 1 {
                ("it", "is")
            } else {
                ("them", "are")
            };
            format!(
                "{}: {} {are} part of the goal: a win condition names {them}, so ablation does \
                 not take {them} out (without {them}, winning would mean something else)",
                shown[file],
                in_words(&names)
            )
        })
        .collect()
}

/// `a`, `a and b`, `a, b and c`.
fn in_words(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The trial name of one (level, check) pair: `<game>::<level>::<check>`.
pub(crate) fn trial_name((subject, index): &Work) -> String {
    let entry = subject.entry();
    entry.trial(entry.game.checks[*index].name())
}

/// What passing trials had to say, and what bless wrote, in trial order;
/// `orphans` is the `orphans` verdict when that trial ran.
pub fn afterword(subjects: &[Arc<Subject>], orphans: Option<&Verdict>) -> String {
    let mut notes = String::new();
    let mut blessed = String::new();
    let mut written: Vec<&LevelEntry> = Vec::new();
    for subject in subjects {
        let entry = subject.entry();
        let mut changes = Vec::new();
        for (check, verdict) in subject.verdicts() {
            if let Verdict::Passed { notes: said, .. } = verdict
                && !said.is_empty()
            {
                notes.push_str(&format!("{}:\n", entry.trial(check)));
                for line in said.iter().flat_map(|note| note.lines()) {
                    notes.push_str(&format!("    {line}\n"));
                }
            }
            changes.extend(verdict.blessed().iter().cloned());
        }
        if !changes.is_empty() {
            blessed.push_str(&format!(
                "    {}: {}\n",
                entry.shown_expectation,
                changes.join("; ")
            ));
            written.push(entry);
        }
    }
    for done in orphans.map_or(&[][..], Verdict::blessed) {
        blessed.push_str(&format!("    {done}\n"));
        // `FILE: renumbered: …`: the file whose tables moved.
        let moved = subjects
            .iter()
            .map(|subject| subject.entry())
            .find(|entry| {
                done.strip_prefix(entry.shown_expectation.as_str())
                    .is_some_and(|rest| rest.starts_with(": "))
            });
        written.extend(moved);
    }
    if let Some(Verdict::Passed { notes: said, .. }) = orphans
        && !said.is_empty()
    {
        notes.push_str(&format!("{ORPHANS}:\n"));
        for note in said {
            notes.push_str(&format!("    {note}\n"));
        }
    }
    let mut pending: Vec<String> = Vec::new();
    let mut reviewed: Vec<&LevelEntry> = Vec::new();
    for subject in subjects {
        if let Some(file) = subject.pending_file().filter(|_| subject.is_stale())
            && !pending.contains(&file)
        {
            pending.push(file);
            reviewed.push(subject.entry());
        }
    }
    let mut out = String::new();
    if !notes.is_empty() {
        out.push_str(&format!("\nnotes from passing checks:\n{notes}"));
    }
    if let Some(first) = subjects.first().filter(|_| !pending.is_empty()) {
        out.push_str(&format!(
            "\npending changes (accept or reject each with {}):\n",
            first.settings().review_hint(reviewed)
        ));
        for file in pending {
            out.push_str(&format!("    {file}\n"));
        }
    }
    if !blessed.is_empty() {
        out.push_str(&format!(
            "\nblessed ({}):\n{blessed}",
            review_written(written)
        ));
    }
    out
}
