//! `puzzle-qa check` and `puzzle-qa bless`: the harness's checks outside
//! `cargo test`, over the whole repository, a folder, files, or trial-name
//! filters.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeMap as _;

use super::Exit;
use super::targets::{Group, Selection, expectations_beside};
use crate::games::all;

use puzzle_qa_core::_cli_support::harness::{
    LevelEntry, ORPHANS, Pruned, Settings, Suite, Verdict, afterword, prune_files, prune_tables,
};
use puzzle_qa_core::harness::Subject;
use puzzle_qa_core::level::HangReport;
use puzzle_qa_core::search::Status;

/// What the command does besides checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Check, keeping each stale level's change as a pending file.
    Check,
    /// Check mode (`--check`): write nothing into the repository.
    CheckOnly,
    /// Rewrite stale machine-owned expectations.
    Bless,
    /// Bless, and delete orphaned expectation files of a whole repository.
    BlessAndPrune,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to check: a repository root, a levels/ folder, a game folder, level
    /// files, or trial-name filters such as `GAME::LEVEL` or `::par`
    /// (a check runs if its trial name contains any filter). Default: every
    /// level under ./levels.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
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
pub fn run(args: Args) -> Exit {
    let mode = if args.check {
        Mode::CheckOnly
    } else {
        Mode::Check
    };
    check(&args.targets, args.json, args.html.as_deref(), mode)
}

/// `check` over `targets`; blessing rewrites stale expectations.
pub fn check(targets: &[String], json: bool, html: Option<&Path>, mode: Mode) -> Exit {
    let bless = matches!(mode, Mode::Bless | Mode::BlessAndPrune);
    let selection = match Selection::of(targets) {
        Ok(selection) => selection,
        Err(message) => {
            eprintln!("error: {message}");
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
        repeat: crate::games::flags().to_string(),
        ..environment
    };
    if bless && environment.ci {
        eprintln!(
            "error: bless refused: the CI environment variable is set, and expectations are \
             never rewritten in CI; nothing was written\n  = hint: run `puzzle-qa bless` on \
             your machine, review the diff, and commit it"
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
    let prunes = mode == Mode::BlessAndPrune
        && selection.filters.is_empty()
        && selection
            .groups
            .values()
            .any(|group| matches!(group, Group::Whole));
    if mode == Mode::BlessAndPrune && !prunes {
        eprintln!(
            "note: nothing pruned: --prune deletes orphaned expectations only when a whole \
             repository is blessed, without level files or filters"
        );
    }
    let reports: Vec<SuiteRun> = selection
        .groups
        .into_iter()
        .map(|(root, group)| {
            let settings = Settings {
                root,
                bless,
                ..environment.clone()
            };
            let (suite, whole) = match group {
                Group::Whole => {
                    if prunes {
                        report_pruned(prune_files(&settings));
                    }
                    (Suite::discover(settings), true)
                }
                Group::Bare(files) => {
                    let entries = files
                        .into_iter()
                        .flat_map(|(game, path)| {
                            let beside = expectations_beside(&path);
                            let shown = settings.shown(&beside);
                            LevelEntry::all_in(&settings, game, path).into_iter().map(
                                move |entry| LevelEntry {
                                    expectation_path: beside.clone(),
                                    shown_expectation: shown.clone(),
                                    ..entry
                                },
                            )
                        })
                        .collect();
                    (Suite::of(settings, entries), false)
                }
                Group::Levels(levels) => {
                    let entries = levels
                        .into_iter()
                        .flat_map(|(game, path)| LevelEntry::all_in(&settings, game, path))
                        .collect();
                    (Suite::of(settings, entries), false)
                }
            };
            let run = SuiteRun::run(&suite, &selection.filters, whole);
            // After the run: bless has renumbered moved levels' tables by
            // now, so a table left without a level is really orphaned. The
            // verdicts are then those of the pruned files.
            if prunes && whole && report_pruned(prune_tables(suite.settings())) {
                let again = Suite::discover(suite.settings().clone());
                return SuiteRun::run(&again, &selection.filters, whole);
            }
            run
        })
        .collect();
    if reports.iter().all(SuiteRun::is_empty) {
        eprintln!("error: no level or check matches `{}`", targets.join(" "));
        return Exit::BadInput;
    }
    if json {
        reports.iter().for_each(SuiteRun::print_json);
    } else {
        print_text(&reports, bless);
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
        Exit::Failed
    } else {
        Exit::Passed
    }
}

/// The verdicts of one suite.
struct SuiteRun {
    /// Each level with at least one selected check; its verdicts are those
    /// its subject computed (the suite is fresh, so exactly the selected).
    levels: Vec<Arc<Subject>>,
    orphans: Option<Verdict>,
}

impl SuiteRun {
    /// Runs the checks of `suite` that the filters select, in parallel.
    fn run(suite: &Suite, filters: &[String], whole: bool) -> Self {
        let selected =
            |name: &str| filters.is_empty() || filters.iter().any(|filter| name.contains(filter));
        suite.check(selected);
        let levels = suite
            .subjects()
            .iter()
            .filter(|subject| subject.verdicts().next().is_some())
            .cloned()
            .collect();
        let orphans = (whole && selected(ORPHANS)).then(|| suite.orphans());
        SuiteRun { levels, orphans }
    }

    fn is_empty(&self) -> bool {
        self.levels.is_empty() && self.orphans.is_none()
    }

    fn verdicts(&self) -> impl Iterator<Item = &Verdict> {
        self.levels
            .iter()
            .flat_map(|subject| subject.verdicts().map(|(_, verdict)| verdict))
            .chain(&self.orphans)
    }

    /// Whether a verdict failed. A level with no expectations yet (a bare
    /// game file checked before its first bless) only reports: its stale
    /// verdicts are what bless would record, not failures.
    fn failed(&self) -> bool {
        let unrecorded = |subject: &Arc<Subject>| {
            let path = &subject.entry().expectation_path;
            !path.exists()
                && path
                    .file_name()
                    .is_some_and(|name| name.to_string_lossy().ends_with(".expectations.toml"))
        };
        self.levels
            .iter()
            .flat_map(|subject| {
                let new = unrecorded(subject);
                subject.verdicts().map(move |(_, verdict)| {
                    let only_unrecorded = new && matches!(verdict, Verdict::Stale { .. });
                    !verdict.passed() && !only_unrecorded
                })
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
                hang: subject.hang(),
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
                hang: None,
            });
        }
    }
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
    /// The first move found that never settles, by the search or by the
    /// ablation check's exploration; absent when none was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    hang: Option<&'a HangReport>,
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

/// The summary table, then each failure in full, then notes and what bless
/// wrote, then a one-line total with the next command to run.
fn print_text(reports: &[SuiteRun], bless: bool) {
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
        let verdicts: Vec<(&str, &Verdict)> = subject.verdicts().collect();
        for column in &columns {
            let verdict = verdicts.iter().find(|(name, _)| name == column);
            row.push(
                verdict
                    .map_or("-", |(_, verdict)| verdict.label())
                    .to_string(),
            );
            if let Some((name, verdict)) = verdict
                && !verdict.passed()
            {
                failures.push_str(&failure(&entry.trial(name), verdict));
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
    if !failures.is_empty() {
        print!("\nfailures:\n{failures}");
    }
    for report in reports {
        print!("{}", afterword(&report.levels, report.orphans.as_ref()));
    }
    let verdicts: Vec<&Verdict> = reports.iter().flat_map(SuiteRun::verdicts).collect();
    let failed = verdicts.iter().filter(|verdict| !verdict.passed()).count();
    let stale = verdicts
        .iter()
        .filter(|verdict| matches!(verdict, Verdict::Stale { .. }))
        .count();
    let levels: usize = reports.iter().map(|report| report.levels.len()).sum();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    print!(
        "\n{levels} level{}, {} check{}: {} passed, {failed} failed",
        plural(levels),
        verdicts.len(),
        plural(verdicts.len()),
        verdicts.len() - failed
    );
    if stale > 0 && !bless {
        print!(
            " ({stale} only because expectations are out of date: `puzzle-qa review` goes \
             through them, `puzzle-qa bless` accepts them all)"
        );
    }
    println!();
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
