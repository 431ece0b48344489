//! `puzzle-qa check` and `puzzle-qa bless`: the harness's checks outside
//! `cargo test`, over the whole repository, a folder, files, game files on
//! their own, or trial-name filters.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeMap as _;

use super::Exit;
use super::bounds::KeptJson;
use super::targets::{Filters, Group, Selection};
use crate::games::all;

use puzzle_qa_core::_cli_support::harness::{
    LevelEntry, ORPHANS, Pruned, Scope, Settings, Suite, Verdict, afterword, prune_files,
    prune_tables, prune_tables_of, shell_word,
};
use puzzle_qa_core::harness::{GameChecks, Subject};
use puzzle_qa_core::level::HangReport;
use puzzle_qa_core::search::{Size, Status};

/// What the command does besides checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Check, keeping each stale level's change as a pending file.
    Check,
    /// Check mode (`--check`): write nothing into the repository.
    CheckOnly,
    /// Rewrite stale machine-owned expectations.
    Bless,
    /// Bless, and delete the expectations no level has: orphaned files of
    /// a whole repository, and the tables of the files checked.
    BlessAndPrune,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to check: a repository root, a levels/ folder, a game folder,
    /// level files, game files on their own (`mygame.txt`), or trial-name
    /// filters such as `GAME::LEVEL` or `::par` (a filter selects the trials
    /// it is whole `::` parts of). Default: every level under ./levels, or,
    /// where there is no repository, the game files on their own here.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// The game of the files given that stand outside any game's folder,
    /// instead of telling it from their text.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Print one JSON object per level (and one for `orphans`) instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the report as HTML pages into DIR: an index (failures
    /// first, a thumbnail per level) and a replay page per level.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Check mode: write nothing into the repository (no pending files;
    /// PUZZLE_QA_UPDATE=no does the same under `cargo test`). Without it, a
    /// stale level's change is kept as a pending file for `puzzle-qa
    /// review`, except in CI.
    #[arg(long)]
    check: bool,
}

/// `puzzle-qa check`.
pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let mode = if args.check {
        Mode::CheckOnly
    } else {
        Mode::Check
    };
    let asked = Asked {
        targets: &args.targets,
        game: args.game.as_deref(),
        memory,
    };
    check(asked, args.json, args.html.as_deref(), mode)
}

/// What the command line named, as `check` and `bless` take it.
#[derive(Clone, Copy)]
pub struct Asked<'a> {
    /// Paths and filters.
    pub targets: &'a [String],
    /// `--game`.
    pub game: Option<&'a str>,
    /// `--memory`.
    pub memory: Option<u64>,
}

impl Asked<'_> {
    /// `puzzle-qa COMMAND` on the same selection, ready to paste where it
    /// was asked.
    fn command(&self, command: &str) -> String {
        let mut words = format!("puzzle-qa{} {command}", repeat(self.memory));
        if let Some(game) = self.game {
            words.push_str(&format!(" --game {}", shell_word(game)));
        }
        for target in self.targets {
            words.push(' ');
            words.push_str(&shell_word(target));
        }
        words
    }
}

/// The flags a command that a message suggests must repeat to mean the
/// same: the games' (`--game-manifest`), and `--memory` if it was given.
pub fn repeat(memory: Option<u64>) -> String {
    let mut flags = crate::games::flags().to_string();
    if let Some(memory) = memory {
        flags.push_str(&format!(" --memory {:#}", Size(memory)));
    }
    flags
}

/// `check` over what was `asked`; blessing rewrites stale expectations.
pub fn check(asked: Asked, json: bool, html: Option<&Path>, mode: Mode) -> Exit {
    let bless = matches!(mode, Mode::Bless | Mode::BlessAndPrune);
    let game = match asked.game {
        None => None,
        Some(name) => match crate::games::find(name) {
            Some(game) => Some(game),
            None => {
                eprintln!(
                    "error: unknown game `{name}`\n  = hint: games are {}",
                    crate::games::names()
                );
                return Exit::BadInput;
            }
        },
    };
    let selection = match Selection::of(asked.targets, game) {
        Ok(selection) => selection,
        Err(message) => {
            eprint!("{message}");
            return Exit::BadInput;
        }
    };
    let environment = match Settings::for_command_line(".", all(), !json) {
        Ok(settings) if mode == Mode::CheckOnly => settings.checking_only(),
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    let environment = Settings {
        repeat: repeat(asked.memory),
        memory: asked.memory,
        ..environment
    };
    if bless && environment.ci {
        eprintln!(
            "error: bless refused: the CI environment variable is set, and expectations are \
             never rewritten in CI; nothing was written\n  = hint: run `{}` on your machine, \
             review the diff, and commit it",
            asked.command("bless")
        );
        return Exit::BadInput;
    }
    if bless && environment.check_only {
        eprintln!(
            "error: bless refused: PUZZLE_QA_UPDATE=no asks that nothing be written; nothing \
             was written\n  = hint: unset PUZZLE_QA_UPDATE to bless"
        );
        return Exit::BadInput;
    }
    let prunes = mode == Mode::BlessAndPrune && selection.filters.is_empty();
    if mode == Mode::BlessAndPrune && !prunes {
        eprintln!(
            "note: nothing pruned: --prune deletes the expectations no level has only when no \
             filter is given (it is not a check a filter could select)"
        );
    }
    let mut verdict = Exit::Passed;
    let mut plans: Vec<Plan> = Vec::new();
    for (root, group) in selection.groups {
        let settings = Settings {
            root,
            bless,
            ..environment.clone()
        };
        let plan = match group {
            Group::Whole => {
                if prunes {
                    report_pruned(prune_files(&settings));
                }
                Plan {
                    suite: Suite::discover(settings),
                    entries: None,
                }
            }
            Group::Levels(levels) => {
                let entries = levels
                    .into_iter()
                    .filter(|(game, path)| holds_levels(game, path, &mut verdict))
                    .flat_map(|(game, path)| LevelEntry::all_in(&settings, game, path))
                    .collect();
                Plan::of(settings, entries)
            }
        };
        plans.push(plan);
    }
    if !selection.standalone.is_empty() {
        let settings = Settings {
            root: selection.here.clone(),
            bless,
            ..environment.clone()
        };
        let entries = selection
            .standalone
            .into_iter()
            .filter(|(game, path)| holds_levels(game, path, &mut verdict))
            .flat_map(|(game, path)| LevelEntry::beside(&settings, game, path))
            .collect();
        plans.push(Plan::of(settings, entries));
    }
    let names: Vec<String> = plans
        .iter()
        .flat_map(|plan| plan.suite.trial_names())
        .collect();
    let filters = Filters::new(&selection.filters, names.iter().map(String::as_str));
    let reports: Vec<SuiteRun> = plans
        .into_iter()
        .map(|plan| {
            let run = SuiteRun::run(&plan.suite, &filters, plan.entries.is_none());
            // After the run: bless has renumbered moved levels' tables by
            // now, so a table left without a level is really orphaned. The
            // verdicts are then those of the pruned files.
            if !prunes {
                return run;
            }
            let settings = plan.suite.settings().clone();
            match plan.entries {
                None if report_pruned(prune_tables(&settings)) => {
                    SuiteRun::run(&Suite::discover(settings), &filters, true)
                }
                Some(entries) if report_pruned(prune_tables_of(entries.clone())) => {
                    SuiteRun::run(&Suite::of(settings, entries), &filters, false)
                }
                _ => run,
            }
        })
        .collect();
    if reports.iter().all(SuiteRun::is_empty) {
        if verdict == Exit::Passed {
            eprintln!(
                "error: no level or check matches `{}`",
                asked.targets.join(" ")
            );
        }
        return Exit::BadInput;
    }
    if json {
        reports.iter().for_each(SuiteRun::print_json);
    } else {
        print_text(&reports, bless, &asked);
    }
    if let Some(dir) = html {
        let subjects: Vec<Arc<Subject>> = reports
            .iter()
            .flat_map(|report| report.levels.iter().cloned())
            .collect();
        match super::pages::write(dir, &subjects) {
            Ok(index) => eprintln!("report: {}", index.display()),
            Err(message) => {
                eprintln!("error: {message}");
                return Exit::BadInput;
            }
        }
    }
    if reports.iter().any(SuiteRun::failed) {
        verdict = verdict.max(Exit::Failed);
    }
    verdict
}

/// One suite to run: a whole repository, or the entries given (level
/// files of a repository, or game files on their own), kept to build the
/// suite again after a prune.
struct Plan {
    suite: Suite,
    entries: Option<Vec<LevelEntry>>,
}

impl Plan {
    fn of(settings: Settings, entries: Vec<LevelEntry>) -> Self {
        Plan {
            suite: Suite::of(settings, entries.clone()),
            entries: Some(entries),
        }
    }
}

/// Whether the file at `path`, given by name, has levels to check. A file
/// of several levels that reads but holds none has nothing to check: no
/// level's trials would be honest (there is no level 1), so what stops it
/// is said here, as `solve` says it (it does not compile, or it holds no
/// level), and the command ends as for bad input.
fn holds_levels(game: &'static GameChecks, path: &Path, verdict: &mut Exit) -> bool {
    let Some(many) = game.many else {
        return true;
    };
    let count = std::fs::read(path)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| (many.count)(&text));
    // A file that cannot be read has its level 1's `parse` say why.
    if count != Some(0) {
        return true;
    }
    let request = super::load::Request {
        game: Some(game.name),
        level: None,
        seed: None,
    };
    // Named as the other messages name it: from the current folder.
    let here = std::env::current_dir().unwrap_or_default();
    let shown = path.strip_prefix(&here).unwrap_or(path);
    if super::load::every(shown, request).is_some() {
        // Its game found levels the cheap count did not: check them.
        return true;
    }
    *verdict = Exit::BadInput;
    false
}

/// The verdicts of one suite.
struct SuiteRun {
    /// Each level with at least one selected check; its verdicts are those
    /// its subject computed (the suite is fresh, so exactly the selected).
    levels: Vec<Arc<Subject>>,
    orphans: Option<Verdict>,
}

impl SuiteRun {
    /// Runs the checks of `suite` that the filters select, in parallel;
    /// `whole`: the suite is a whole repository (its `orphans` check looks
    /// at every file), else only the files checked have their tables
    /// looked at, and the verdict is kept when it has something to say.
    fn run(suite: &Suite, filters: &Filters, whole: bool) -> Self {
        suite.check(|name| filters.selects(name));
        let levels = suite
            .subjects()
            .iter()
            .filter(|subject| subject.verdicts().next().is_some())
            .cloned()
            .collect();
        let orphans = match (filters.selects(ORPHANS), whole) {
            (false, _) => None,
            (true, true) => Some(suite.orphans()),
            (true, false) => Some(suite.tables()).filter(|verdict| {
                !verdict.passed() || verdict.message().is_some() || !verdict.blessed().is_empty()
            }),
        };
        SuiteRun { levels, orphans }
    }

    fn is_empty(&self) -> bool {
        self.levels.is_empty() && self.orphans.is_none()
    }

    /// Whether a verdict failed. A level of a game file on its own checked
    /// before its first bless only reports: its stale verdicts are what
    /// bless would record ([`unrecorded`]), not failures.
    fn failed(&self) -> bool {
        self.levels
            .iter()
            .flat_map(|subject| {
                let new = unrecorded(subject);
                subject
                    .verdicts()
                    .map(move |(_, verdict)| fails(verdict, new))
            })
            .chain(self.orphans.iter().map(|verdict| !verdict.passed()))
            .any(|failed| failed)
    }

    fn print_json(&self) {
        for subject in &self.levels {
            let entry = subject.entry();
            let solution = subject.solution_if_solved();
            print_line(&LevelLine {
                file: Some(&entry.shown_level),
                game: Some(entry.game.name),
                level: entry.member,
                status: solution.map(|solution| solution.status),
                par: solution.and_then(|solution| solution.par),
                expanded: solution.map(|solution| solution.stats.expanded),
                stored: solution.map(|solution| solution.stats.stored),
                ms: solution.map(|solution| solution.stats.milliseconds()),
                checks: Checks(subject.verdicts().collect()),
                pending: subject.is_stale().then(|| subject.pending_file()).flatten(),
                new: is_new(subject),
                hang: subject.hang(),
                memory: solution.map(KeptJson::of),
            });
        }
        if let Some(verdict) = &self.orphans {
            print_line(&LevelLine {
                file: None,
                game: None,
                level: None,
                status: None,
                par: None,
                expanded: None,
                stored: None,
                ms: None,
                checks: Checks(vec![(ORPHANS, verdict)]),
                pending: None,
                new: false,
                hang: None,
                memory: None,
            });
        }
    }
}

/// Whether `verdict` fails its level: not when it passed, nor when it is
/// only stale on a level nothing holds yet (`unrecorded`).
fn fails(verdict: &Verdict, unrecorded: bool) -> bool {
    match verdict {
        Verdict::Passed { .. } => false,
        Verdict::Stale { .. } => !unrecorded,
        Verdict::Failed { .. } => true,
    }
}

fn is_stale(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Stale { .. })
}

/// Whether the level has no expectations yet (no expectation file, or no
/// table for it in its file): a new level, whose stale checks say what
/// bless would record.
fn is_new(subject: &Subject) -> bool {
    subject
        .expectations()
        .is_ok_and(|expectations| !expectations.exists())
}

/// Whether the level is one of a game file on its own whose expectation
/// file does not exist yet (before its first bless): nothing holds it, so
/// its new values are reported, not failed.
fn unrecorded(subject: &Subject) -> bool {
    let entry = subject.entry();
    entry.standalone && !entry.expectation_path.exists()
}

/// One line of `check --json`; scripts depend on these names.
#[derive(Serialize)]
struct LevelLine<'a> {
    file: Option<&'a str>,
    game: Option<&'a str>,
    /// The level's number in its file, for a file of many levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<usize>,
    status: Option<Status>,
    par: Option<u32>,
    expanded: Option<u64>,
    stored: Option<u64>,
    ms: Option<f64>,
    checks: Checks<'a>,
    /// The level's pending file, when a stale check kept one for review.
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<String>,
    /// The level has no expectations yet (no expectation file, or no table
    /// for it): its stale checks say what bless would record.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    new: bool,
    /// The first move found that never settles, by the search or by the
    /// ablation check's exploration; absent when none was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    hang: Option<&'a HangReport>,
    /// What the search kept, and why it stopped at a bound.
    #[serde(flatten)]
    memory: Option<KeptJson<'a>>,
}

fn print_line(line: &LevelLine) {
    println!(
        "{}",
        serde_json::to_string(line).expect("plain data serializes")
    );
}

/// `{"<check>": {"ok": bool, "message": text or null}}`, in the game's order.
struct Checks<'a>(Vec<(&'static str, &'a Verdict)>);

impl Serialize for Checks<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct CheckLine {
            ok: bool,
            message: Option<String>,
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, verdict) in &self.0 {
            let line = CheckLine {
                ok: verdict.passed(),
                message: verdict.message(),
            };
            map.serialize_entry(name, &line)?;
        }
        map.end()
    }
}

/// The summary table, then each failure in full, then the new levels of a
/// game file on its own before its first bless, then notes and what bless
/// wrote, then a one-line total with the next command to run.
fn print_text(reports: &[SuiteRun], bless: bool, asked: &Asked) {
    let mut columns: Vec<&'static str> = Vec::new();
    for subject in reports.iter().flat_map(|report| &report.levels) {
        for check in subject.entry().game.checks {
            if !columns.contains(&check.name()) {
                columns.push(check.name());
            }
        }
    }
    let mut header = vec!["level", "par", "states", "ms"];
    header.extend(&columns);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut failures = String::new();
    let mut new_subjects: Vec<&Arc<Subject>> = Vec::new();
    let mut pointers = 0;
    let mut shown: Vec<String> = Vec::new();
    for subject in reports.iter().flat_map(|report| &report.levels) {
        let entry = subject.entry();
        let solution = subject.solution_if_solved();
        let number = |value: Option<String>| value.unwrap_or_else(|| "-".to_string());
        let mut row = vec![
            entry.id(),
            number(
                solution
                    .and_then(|solution| solution.par)
                    .map(|par| par.to_string()),
            ),
            number(solution.map(|solution| solution.stats.stored.to_string())),
            number(solution.map(|solution| format!("{:.2}", solution.stats.milliseconds()))),
        ];
        let (new, unrecorded) = (is_new(subject), unrecorded(subject));
        if new && subject.is_stale() {
            new_subjects.push(subject);
        }
        let verdicts: Vec<(&str, &Verdict)> = subject.verdicts().collect();
        // A level that does not load fails every check, each pointing at
        // its `parse` (every level of a file that does not read at all, at
        // the first level's): when that failure is shown, the others are
        // counted, not repeated.
        let unread = subject.level().is_err();
        let pointed = if subject.source().is_err() && entry.member.is_some() {
            format!("{}::{}::1::parse", entry.game.name, entry.stem)
        } else {
            entry.trial("parse")
        };
        for column in &columns {
            let verdict = verdicts.iter().find(|(name, _)| name == column);
            row.push(match verdict {
                None => "-".to_string(),
                Some((_, verdict)) if new && is_stale(verdict) => "new".to_string(),
                Some((_, verdict)) => verdict.label().to_string(),
            });
            // A new level's stale checks are told in one block, below:
            // what the level is and how to record it, not a diff each.
            if let Some((name, verdict)) = verdict
                && fails(verdict, unrecorded)
                && !(new && is_stale(verdict))
            {
                let trial = entry.trial(name);
                if unread && trial != pointed && shown.contains(&pointed) {
                    pointers += 1;
                } else {
                    failures.push_str(&failure(&trial, verdict));
                    shown.push(trial);
                }
            }
        }
        rows.push(row);
    }
    let mut widths: Vec<usize> = header.iter().map(|title| title.len()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let mut out = String::new();
        for (index, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            match index {
                0 => out.push_str(&format!("{cell:<width$}")),
                1..=3 => out.push_str(&format!("  {cell:>width$}")),
                _ => out.push_str(&format!("  {cell:<width$}")),
            }
        }
        println!("{}", out.trim_end());
    };
    if !rows.is_empty() {
        line(&header);
        for row in &rows {
            line(&row.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
    for report in reports {
        if let Some(verdict) = &report.orphans {
            println!("{ORPHANS}: {}", verdict.label());
            if !verdict.passed() {
                failures.push_str(&failure(ORPHANS, verdict));
            }
        }
    }
    if pointers > 0 {
        failures.push_str(&format!(
            "\n({pointers} more failed only because their level does not load: each points at \
             the `parse` failure above)\n"
        ));
    }
    if !failures.is_empty() {
        print!("\nfailures:\n{failures}");
    }
    print!("{}", new_levels(&new_subjects));
    for report in reports {
        print!("{}", afterword(&report.levels, report.orphans.as_ref()));
    }
    let mut counts = Counts::default();
    for report in reports {
        for subject in &report.levels {
            let excused = unrecorded(subject);
            for (_, verdict) in subject.verdicts() {
                counts.add(verdict, excused);
            }
        }
        if let Some(verdict) = &report.orphans {
            counts.add(verdict, false);
        }
    }
    let levels: usize = reports.iter().map(|report| report.levels.len()).sum();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    print!(
        "\n{levels} level{}, {} check{}: {} passed, {} failed",
        plural(levels),
        counts.all,
        plural(counts.all),
        counts.passed,
        counts.failed
    );
    if counts.new > 0 {
        print!(", {} new (what bless would record)", counts.new);
    }
    if counts.stale > 0 && !bless {
        // Review goes through the changes kept as pending files, if any.
        let kept: Vec<&Arc<Subject>> = reports
            .iter()
            .flat_map(|report| &report.levels)
            .filter(|subject| {
                subject.is_stale() && !unrecorded(subject) && subject.pending_file().is_some()
            })
            .collect();
        let review = kept.first().map_or(String::new(), |first| {
            let entries = kept.iter().map(|subject| subject.entry());
            format!(
                "{} goes through them, ",
                first.settings().review_hint(entries)
            )
        });
        print!(
            " ({} only because expectations are out of date: {review}`{}` accepts them all)",
            counts.stale,
            asked.command("bless")
        );
    }
    println!();
}

/// How the verdicts of a run went, for its last line.
#[derive(Default)]
struct Counts {
    all: usize,
    passed: usize,
    failed: usize,
    /// Failed only because expectations are out of date.
    stale: usize,
    /// Stale, of levels nothing holds yet ([`unrecorded`]): not failed.
    new: usize,
}

impl Counts {
    fn add(&mut self, verdict: &Verdict, unrecorded: bool) {
        self.all += 1;
        match verdict {
            Verdict::Passed { .. } => self.passed += 1,
            Verdict::Stale { .. } if unrecorded => self.new += 1,
            Verdict::Stale { .. } => {
                self.failed += 1;
                self.stale += 1;
            }
            Verdict::Failed { .. } => self.failed += 1,
        }
    }
}

/// The new levels (no expectations for them yet): what each is (its
/// status, par and solution), and how to record them; nothing when there
/// are none. Before a game file's first bless they are not failures
/// ([`unrecorded`]); once its expectations exist, a level they leave out
/// fails the run until bless records it, as a stale one does.
fn new_levels(subjects: &[&Arc<Subject>]) -> String {
    let Some(first) = subjects.first() else {
        return String::new();
    };
    let mut files: Vec<&LevelEntry> = Vec::new();
    for subject in subjects {
        let entry = subject.entry();
        if !files.iter().any(|file| file.level_path == entry.level_path) {
            files.push(entry);
        }
    }
    let expectations: Vec<String> = files
        .iter()
        .map(|entry| {
            if entry.expectation_path.exists() {
                format!("no table in {} yet", entry.shown_expectation)
            } else {
                format!("{} not written yet", entry.shown_expectation)
            }
        })
        .collect();
    let what = if subjects.iter().all(|subject| unrecorded(subject)) {
        "their stale checks are what bless would record, not failures"
    } else {
        "their stale checks are what bless would record; they fail the run until it does"
    };
    let mut out = format!("\nnew levels ({}: {what}):\n", expectations.join(", "));
    let width = subjects
        .iter()
        .map(|subject| subject.entry().id().chars().count())
        .max()
        .unwrap_or(0);
    for subject in subjects {
        let what = match subject.solution_if_solved() {
            Some(solution) => {
                let mut what = solution.status.to_string();
                if let Some(par) = solution.par {
                    what.push_str(&format!(", par {par}"));
                }
                if let Some(moves) = solution.moves.as_deref().filter(|moves| !moves.is_empty()) {
                    what.push_str(&format!(": {moves}"));
                }
                what
            }
            None => "not solved (see its checks)".to_string(),
        };
        out.push_str(&format!("    {:<width$}  {what}\n", subject.entry().id()));
    }
    let settings = first.settings();
    let bless: Vec<String> = files
        .iter()
        .map(|entry| settings.bless_command(entry, Scope::File))
        .collect();
    out.push_str(&format!("to record them: `{}`\n", bless.join("`, `")));
    out
}

fn failure(name: &str, verdict: &Verdict) -> String {
    let message = verdict
        .message()
        .unwrap_or_else(|| "(no message)".to_string());
    format!("\n---- {name} ----\n{}\n", message.trim_end())
}

/// Says what `bless --prune` deleted, and what it could not; whether it
/// deleted anything.
fn report_pruned(outcomes: Vec<Result<Pruned, String>>) -> bool {
    let pruned = outcomes.iter().any(Result::is_ok);
    for outcome in outcomes {
        match outcome {
            Ok(Pruned::File { expectation }) => {
                println!("pruned {expectation} (its level does not exist)");
            }
            Ok(Pruned::Tables {
                expectation,
                level,
                keys,
            }) => println!(
                "pruned from {expectation}: {} (no level of {level} has them)",
                keys.iter()
                    .map(|key| format!("[{key}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Err(message) => eprintln!("error: {message}"),
        }
    }
    pruned
}
