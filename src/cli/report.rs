//! `puzzle-qa report --base <rev>`: what a change did to every level,
//! against a commit (see [`crate::report`] for what is compared).

use std::path::PathBuf;

use super::Exit;
use crate::games;
use crate::report::{self, render};
use puzzle_qa_core::_cli_support::harness::Settings;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Before: the expectation files at REV (read with git ls-tree and git cat-file; nothing is \
checked out). After: what every check computes now on the working-tree levels. Rows, worst \
first: failed, regression (a needed mechanic turned decoration), stale, hand-edit (machine \
values edited while the level did not change), changed; unchanged levels are counted.

--json prints one object: {base, commit, summary: {levels, failed, regression, stale, \
hand_edit, changed, unchanged, new, removed, renamed, renumbered, gate: \"pass\"|\"fail\"}, \
levels: [{level, game, file, renamed_from (a renumbered level: FILE level N, its old number), \
change: \"new\"|\"removed\"|\"renamed\"|\"renumbered\"|\"edited\"|\"expectations\"|\
\"unchanged\", severity: \"failed\"|\"regression\"|\"stale\"|\"hand-edit\"|\
\"changed\"|\"unchanged\", par: {before, after}, changes: [{key, owner: \"machine\"|\
\"designer\", before, after, regression}], hand_edited: [key], checks: {CHECK: \"ok\"|\
\"stale\"|\"failed\"}, failures: [{check, stale, message}], notes: [text]}], orphans: {ok, \
message}}.

Exit status: 0 the gate passes; 1 a check fails or expectations are stale (or orphans \
fails); 2 bad usage, not a git repository, or an unknown REV.")]
pub struct Args {
    /// The commit to compare with: a branch, tag, or commit (`main`,
    /// `HEAD~1`, `origin/main`).
    #[arg(long, value_name = "REV")]
    base: String,
    /// Print GitHub-flavoured Markdown for a step summary (one table,
    /// under 1 MiB).
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// Print one JSON object (fields below).
    #[arg(long)]
    json: bool,
    /// The project root, holding levels/ and expectations/.
    #[arg(value_name = "ROOT", default_value = ".")]
    root: PathBuf,
}

/// Runs the report and prints it in the chosen format.
pub fn run(args: Args, memory: Option<u64>) -> Exit {
    if !args.root.join("levels").is_dir() {
        eprintln!(
            "error: no levels/ folder in {}\n  = hint: run `puzzle-qa report --base {}` from \
             the repository root, or name the root",
            args.root.display(),
            args.base
        );
        return Exit::BadInput;
    }
    let text = !args.json && !args.markdown;
    // Only the full failure messages of the text output are coloured.
    // The report only reads: a pending file goes only where
    // PUZZLE_QA_PENDING_DIR asks.
    let settings = match Settings::for_command_line(args.root, games::all(), text) {
        Ok(settings) => Settings {
            repeat: super::check::repeat(memory),
            memory,
            ..settings.checking_only()
        },
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    let report = match report::build(settings, &args.base) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("error: {error}");
            return Exit::BadInput;
        }
    };
    if args.json {
        println!("{}", render::json(&report));
    } else if args.markdown {
        print!("{}", render::markdown(&report, render::STEP_SUMMARY_LIMIT));
    } else {
        print!("{}", render::text(&report));
    }
    if report.failed() {
        Exit::Failed
    } else {
        Exit::Passed
    }
}
