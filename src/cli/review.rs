//! `puzzle-qa review`: every pending change (what bless would write, kept
//! by `check` or `cargo test` beside the expectation file, or under the
//! folder CI uploaded), one level at a time, worst first: what changed and
//! why, the expectation diff, and the level drawn with the old and the new
//! solution where they part. Accept, reject or skip each; or, without a
//! terminal, `--accept`, `--reject` and `--list --json`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use toml_edit::DocumentMut;

use super::Exit;
use super::targets::{Filters, Group, Selection};
use crate::games;
use crate::report::compare::{self, ValueChange};
use crate::report::{member_table, regression_meaning};
use puzzle_qa_core::_cli_support::harness::{
    LevelEntry, PendingPlace, Scope, Settings, Suite, shell_word, unified,
};
use puzzle_qa_core::_cli_support::picture::ascii;
use puzzle_qa_core::harness::Subject;

mod screen;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Keys: a accept, r reject, s skip, A accept all that are left, R reject all that are left, \
t toggle the diff and the picture, q quit (what is skipped or left stays pending).

--list --json prints one object per pending change, worst first: {level, game, file, \
expectation, pending, checks: [CHECK], why: [text], changes: [{key, owner, before, after, \
regression}], regression, accept: COMMAND}. --accept and --reject with --json print one \
object per level: {level, action: \"accepted\"|\"rejected\", expectation, changes: [text]}.

Exit status: 0 done (nothing pending is not an error); 2 bad usage, a FILTER that matches no \
pending change, no terminal for the interactive review, or a file that cannot be written.")]
pub struct Args {
    /// What to review: paths as `check` takes them (a game file on its own,
    /// `mygame.txt`, reviews the pending changes beside it), and filters:
    /// only the levels a FILTER selects, by their name (`GAME::LEVEL`,
    /// `GAME::FILE::N`; a filter selects the names it is whole `::` parts
    /// of). Default: the repository here, or, where there is none, the game
    /// files on their own in this folder.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// The game of the files given that stand outside any game's folder,
    /// instead of telling it from their text.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Accept the selected pending changes (all without a FILTER), without
    /// asking: their values are written into the expectation files.
    #[arg(long, conflicts_with_all = ["reject", "list"])]
    accept: bool,
    /// Reject the selected pending changes (all without a FILTER), without
    /// asking: the changes are dropped, the expectations left as they are.
    #[arg(long, conflicts_with = "list")]
    reject: bool,
    /// List the pending changes instead of reviewing them.
    #[arg(long)]
    list: bool,
    /// Print JSON lines (with --list, --accept or --reject).
    #[arg(long)]
    json: bool,
    /// Read the pending files from DIR (what CI uploaded as an artifact:
    /// DIR/expectations/GAME/LEVEL.toml.pending) instead of beside the
    /// expectation files; those accepted or rejected are deleted from DIR.
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
}

/// One level's pending change.
pub struct Change {
    subject: Arc<Subject>,
    /// The pending file.
    pending: PathBuf,
    /// The pending file as messages show it.
    shown_pending: String,
    /// The level's `solution` as the expectation file has it, and as
    /// accepting would leave it.
    solutions: [Option<String>; 2],
    /// The whole expectation file as it is and as accepting leaves it, for
    /// the diff.
    file_before: String,
    file_after: String,
    /// Every value that changes, machine-owned keys first.
    changes: Vec<ValueChange>,
    /// The checks whose keys change, in the game's order.
    checks: Vec<&'static str>,
}

impl Change {
    /// `GAME::LEVEL` (`GAME::FILE::N`).
    pub(super) fn level(&self) -> String {
        self.subject.entry().id()
    }

    /// A needed mechanic turns decoration: listed first.
    fn regression(&self) -> bool {
        self.changes.iter().any(|change| change.regression)
    }

    /// What changed, in words, one line per value: "a shortcut: par 7 → 6".
    pub(super) fn why(&self) -> Vec<String> {
        self.changes.iter().map(explain).collect()
    }

    /// The expectation diff, as `check` shows it.
    pub(super) fn diff(&self, color: bool) -> String {
        unified(
            &self.subject.entry().shown_expectation,
            &self.file_before,
            &self.file_after,
            color,
        )
    }

    /// The command that accepts this change alone.
    fn accept_command(&self, from: Option<&Path>) -> String {
        let entry = self.subject.entry();
        let file = match entry.standalone {
            true => format!(" {}", shell_word(&entry.shown_level)),
            false => String::new(),
        };
        let from = from.map_or(String::new(), |dir| {
            format!(" --from {}", shell_word(&dir.display().to_string()))
        });
        let level = shell_word(&self.level());
        let flags = games::flags();
        format!("puzzle-qa{flags} review{file}{from} --accept {level}")
    }

    /// The level's `solution` in the expectation file, and as accepting
    /// would leave it.
    pub(super) fn solutions(&self) -> &[Option<String>; 2] {
        &self.solutions
    }

    /// Every value that changes.
    pub(super) fn changes(&self) -> &[ValueChange] {
        &self.changes
    }

    fn machine_keys(&self) -> Vec<&'static str> {
        self.subject.entry().machine_keys()
    }

    /// Writes the change into the expectation file; what changed there.
    pub(super) fn accept(&self) -> Result<Vec<String>, String> {
        puzzle_qa_core::_cli_support::harness::accept(
            self.subject.entry(),
            &self.pending,
            &self.machine_keys(),
        )
    }

    /// Forgets the change; the expectation file stays as it is.
    pub(super) fn reject(&self) -> Result<(), String> {
        puzzle_qa_core::_cli_support::harness::reject(
            self.subject.entry(),
            &self.pending,
            &self.machine_keys(),
        )
    }

    /// The level drawn where the old solution and the new one part (or the
    /// start, when either is missing), each with its next move, side by side.
    fn picture(&self) -> String {
        let level = match self.subject.level() {
            Ok(level) => level,
            Err(message) => return format!("(the level does not load: {message})\n"),
        };
        let [old, new] = self.solutions.clone();
        let play = |moves: &Option<String>| {
            moves
                .as_deref()
                .and_then(|moves| level.playback(moves).ok().flatten())
        };
        let (Some(new_play), old_play) = (
            play(&new).or_else(|| play(&Some(String::new()))),
            play(&old),
        ) else {
            return "(this game draws no pictures)\n".to_string();
        };
        let mut out = String::new();
        let name = |moves: &Option<String>| match moves {
            Some(moves) if !moves.is_empty() => format!("`{moves}`"),
            _ => "none".to_string(),
        };
        out.push_str(&format!(
            "before: {}\nafter:  {}\n\n",
            name(&old),
            name(&new)
        ));
        let Some(old_play) = old_play.filter(|_| old.is_some() && new.is_some()) else {
            out.push_str("start:\n");
            out.push_str(&ascii::grid(&new_play.frames[0].scene));
            out.push_str(&ascii::key(&new_play.frames[0].scene));
            return out;
        };
        // The first move where they differ (frame 0 is the start).
        let longest = old_play.frames.len().max(new_play.frames.len());
        let Some(parting) = (1..longest).find(|&index| {
            let text = |play: &puzzle_qa_core::picture::Playback| {
                play.frames.get(index).map(|frame| frame.text.clone())
            };
            text(&old_play) != text(&new_play)
        }) else {
            let end = &new_play.frames[new_play.frames.len() - 1].scene;
            out.push_str("the same solution before and after; where it ends:\n");
            out.push_str(&ascii::grid(end));
            out.push_str(&ascii::key(end));
            return out;
        };
        let common = &new_play.frames[parting - 1].scene;
        out.push_str(&match parting {
            1 => "they part at the first move, from the start:\n".to_string(),
            2 => "they agree for 1 move, then part here:\n".to_string(),
            n => format!("they agree for {} moves, then part here:\n", n - 1),
        });
        out.push_str(&ascii::grid(common));
        out.push('\n');
        let next = |play: &puzzle_qa_core::picture::Playback, label: &str| match play
            .frames
            .get(parting)
        {
            Some(frame) => (
                format!("{label}: move {parting} `{}`", frame.text),
                ascii::grid(&frame.scene),
            ),
            None => (format!("{label}: ends here"), ascii::grid(common)),
        };
        out.push_str(&side_by_side(
            next(&old_play, "before"),
            next(&new_play, "after"),
        ));
        out.push_str(&ascii::key(common));
        out
    }
}

/// Two captioned pictures, left and right.
fn side_by_side(
    (left_title, left): (String, String),
    (right_title, right): (String, String),
) -> String {
    let left: Vec<&str> = std::iter::once(left_title.as_str())
        .chain(left.lines())
        .collect();
    let right: Vec<&str> = std::iter::once(right_title.as_str())
        .chain(right.lines())
        .collect();
    let width = left
        .iter()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
        + 4;
    let mut out = String::new();
    for index in 0..left.len().max(right.len()) {
        let (a, b) = (
            left.get(index).copied().unwrap_or(""),
            right.get(index).copied().unwrap_or(""),
        );
        let line = format!("{a:<width$}{b}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One changed value in words.
fn explain(change: &ValueChange) -> String {
    use serde_json::Value as Json;
    let shown = |value: &Option<Json>| match value {
        None => "none".to_string(),
        Some(Json::String(text)) => format!("\"{text}\""),
        Some(other) => other.to_string(),
    };
    let (before, after) = (&change.before, &change.after);
    let number = |value: &Option<Json>| value.as_ref().and_then(Json::as_i64);
    let text = match (change.key.as_str(), number(before), number(after)) {
        ("par", Some(old), Some(new)) if new < old => format!("a shortcut: par {old} → {new}"),
        ("par", Some(old), Some(new)) => format!("a longer way: par {old} → {new}"),
        ("par", None, Some(new)) => format!("a par of {new}"),
        ("par", Some(old), None) => format!("no par now (it was {old})"),
        ("solution", ..) if before.is_none() => format!("a solution: {}", shown(after)),
        ("solution", ..) => format!("another solution: {} → {}", shown(before), shown(after)),
        _ => format!("{}: {} → {}", change.key, shown(before), shown(after)),
    };
    match regression_meaning(change) {
        Some(meaning) => format!("{text} ({meaning})"),
        None => text,
    }
}

/// The level's own keys in the expectation file's `text`: the whole file,
/// or its table `[N]` for a level of a file of several (`None` if absent).
fn level_keys(text: &str, member: Option<usize>) -> Option<DocumentMut> {
    let document = text.parse::<DocumentMut>().ok()?;
    match member {
        None => Some(document),
        Some(number) => member_table(Some(&document), number),
    }
}

/// The pending files of `suite`'s repository that belong to none of its
/// levels (their level file is gone), in path order.
fn orphans(suite: &Suite) -> Vec<PathBuf> {
    let expectations = suite
        .subjects()
        .iter()
        .map(|subject| subject.entry().expectation_path.as_path());
    puzzle_qa_core::_cli_support::harness::orphan_pending(suite.settings(), expectations)
}

/// Every pending change of `suite`'s levels that `filters` select, worst
/// first (a mechanic turned decoration), then in level order; and a
/// warning for each pending file left out (it does not parse, or the
/// levels of its file moved since it was written).
pub(super) fn pending_changes(suite: &Suite, filters: &Filters) -> (Vec<Change>, Vec<String>) {
    let settings = suite.settings();
    let (mut found, mut warnings) = (Vec::new(), Vec::new());
    let mut warn = |warning: String| {
        if !warnings.contains(&warning) {
            warnings.push(warning);
        }
    };
    for subject in suite.subjects() {
        let entry = subject.entry();
        if !filters.selects(&entry.id()) {
            continue;
        }
        let Some(anywhere) =
            puzzle_qa_core::_cli_support::harness::pending_path(settings, &entry.expectation_path)
                .filter(|path| path.exists())
        else {
            continue;
        };
        let Some(pending) = subject.pending_path() else {
            warn(format!(
                "{} left out: the levels of {} moved since it was written, so its tables have \
                 the old numbers; `{}` moves the tables (and drops it), then `{}` keeps what is \
                 still to review",
                settings.shown(&anywhere),
                entry.shown_level,
                settings.bless_command(entry, Scope::File),
                check_command(entry)
            ));
            continue;
        };
        let keys = entry.machine_keys();
        let file_after =
            match puzzle_qa_core::_cli_support::harness::proposal(entry, &pending, &keys) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                Err(message) => {
                    warn(format!(
                        "{} left out: {message}; fix it, or delete it and run `{}` to keep the \
                         change again",
                        settings.shown(&pending),
                        check_command(entry)
                    ));
                    continue;
                }
            };
        let file_before = std::fs::read_to_string(&entry.expectation_path).unwrap_or_default();
        let (before, after) = (
            level_keys(&file_before, entry.member),
            level_keys(&file_after, entry.member),
        );
        let changes = compare::changes(before.as_ref(), after.as_ref(), &entry.known_keys());
        let solution = |keys: &Option<DocumentMut>| {
            let solution = keys.as_ref()?.get("solution")?.as_str()?;
            Some(solution.to_string())
        };
        let root_key = |key: &str| key.split(['.', '[']).next().unwrap_or("").to_string();
        let checks = entry
            .game
            .checks
            .iter()
            .filter(|check| {
                check.keys().iter().any(|owned| {
                    changes
                        .iter()
                        .any(|change| root_key(&change.key) == owned.name)
                })
            })
            .map(|check| check.name())
            .collect();
        found.push(Change {
            subject: Arc::clone(subject),
            shown_pending: settings.shown(&pending),
            pending,
            solutions: [solution(&before), solution(&after)],
            file_before,
            file_after,
            changes,
            checks,
        });
    }
    (found, warnings)
}

/// The `check` that keeps `entry`'s change as a pending file again: of
/// the repository, or of the game file on its own.
fn check_command(entry: &LevelEntry) -> String {
    let file = match entry.standalone {
        true => format!(" {}", shell_word(&entry.shown_level)),
        false => String::new(),
    };
    format!("puzzle-qa{} check{file}", games::flags())
}

/// One pending change as `--list --json` prints it.
#[derive(Serialize)]
struct Listed<'a> {
    level: String,
    game: &'static str,
    file: &'a str,
    expectation: &'a str,
    pending: &'a str,
    checks: &'a [&'static str],
    why: Vec<String>,
    changes: &'a [ValueChange],
    regression: bool,
    accept: String,
}

/// What `--accept` / `--reject` did to one level, as `--json` prints it.
#[derive(Serialize)]
struct Done<'a> {
    level: String,
    action: &'static str,
    expectation: &'a str,
    changes: Vec<String>,
}

/// Runs `puzzle-qa review`.
pub fn run(args: Args) -> Exit {
    if args.json && !(args.list || args.accept || args.reject) {
        eprintln!(
            "error: --json goes with --list, --accept or --reject (the interactive review is \
             for people)\n  = hint: `puzzle-qa review --list --json` lists the pending changes"
        );
        return Exit::BadInput;
    }
    let game = match args.game.as_deref() {
        None => None,
        Some(name) => match games::find(name) {
            Some(game) => Some(game),
            None => {
                eprintln!(
                    "error: unknown game `{name}`\n  = hint: games are {}",
                    games::names()
                );
                return Exit::BadInput;
            }
        },
    };
    let selection = match Selection::of(&args.targets, game) {
        Ok(selection) => selection,
        Err(message) => {
            eprint!("{message}");
            return Exit::BadInput;
        }
    };
    let settings = match Settings::for_command_line(".", games::all(), !args.json) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    let pending = match &args.from {
        Some(dir) if !dir.is_dir() => {
            eprintln!("error: --from {}: no such folder", dir.display());
            return Exit::BadInput;
        }
        Some(dir) => PendingPlace::Under(std::fs::canonicalize(dir).unwrap_or(dir.clone())),
        // Where `check` keeps them here, even in CI (nothing is kept there
        // without PUZZLE_QA_PENDING_DIR, so nothing would be found).
        None => match settings.pending {
            PendingPlace::Under(dir) => PendingPlace::Under(dir),
            _ => PendingPlace::Beside,
        },
    };
    let settings = Settings {
        pending,
        repeat: games::flags().to_string(),
        ..settings
    };
    if (args.accept || args.reject) && settings.check_only {
        eprintln!(
            "error: review refused: PUZZLE_QA_UPDATE=no asks that nothing be written; nothing \
             was written\n  = hint: unset PUZZLE_QA_UPDATE to accept or reject"
        );
        return Exit::BadInput;
    }
    let game_flag = args.game.as_deref().map_or(String::new(), |game| {
        format!(" --game {}", shell_word(game))
    });
    let again = Again {
        paths: game_flag
            + &args
                .targets
                .iter()
                .filter(|target| !selection.filters.contains(target))
                .map(|path| format!(" {}", shell_word(path)))
                .collect::<String>(),
        from: args.from.clone(),
    };
    // One suite per repository, and one for the game files on their own.
    let mut suites: Vec<(Suite, bool)> = Vec::new();
    for (root, group) in selection.groups {
        let settings = Settings {
            root,
            ..settings.clone()
        };
        suites.push(match group {
            Group::Whole => (Suite::discover(settings), true),
            Group::Levels(levels) => {
                let entries = levels
                    .into_iter()
                    .flat_map(|(game, path)| LevelEntry::all_in(&settings, game, path))
                    .collect();
                (Suite::of(settings, entries), false)
            }
        });
    }
    if !selection.standalone.is_empty() {
        let settings = Settings {
            root: selection.here.clone(),
            ..settings.clone()
        };
        let entries = selection
            .standalone
            .into_iter()
            .flat_map(|(game, path)| LevelEntry::beside(&settings, game, path))
            .collect();
        suites.push((Suite::of(settings, entries), false));
    }
    let filters = Filters::new(
        &selection.filters,
        suites
            .iter()
            .flat_map(|(suite, _)| suite.subjects())
            .map(|subject| subject.entry().id())
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str),
    );
    // Pending files whose level is gone (a repository's): deleted by a
    // plain `--reject`, else named.
    for (suite, whole) in &suites {
        if !*whole || !selection.filters.is_empty() {
            continue;
        }
        for path in orphans(suite) {
            let shown = suite.settings().shown(&path);
            if args.reject {
                match std::fs::remove_file(&path) {
                    Ok(()) => println!("deleted {shown}: its level is gone"),
                    Err(error) => {
                        eprintln!("error: cannot delete {shown}: {error}");
                        return Exit::BadInput;
                    }
                }
            } else {
                eprintln!(
                    "warning: {shown} belongs to no level (its level file is gone): `{}` \
                     deletes it",
                    again.command("--reject")
                );
            }
        }
    }
    let (mut changes, mut warnings) = (Vec::new(), Vec::new());
    for (suite, _) in &suites {
        let (found, said) = pending_changes(suite, &filters);
        changes.extend(found);
        warnings.extend(said);
    }
    // Stable: level order within each group.
    changes.sort_by_key(|change| !change.regression());
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    if changes.is_empty() {
        if !selection.filters.is_empty() {
            eprintln!(
                "error: no pending change matches `{}`\n  = hint: `{}` shows what is pending",
                selection.filters.join(" "),
                again.command("--list")
            );
            return Exit::BadInput;
        }
        if !args.json {
            let check = format!("puzzle-qa{} check{}", games::flags(), again.paths);
            println!(
                "nothing to review: no pending changes (a stale check keeps one when `{check}` \
                 or `cargo test` runs)"
            );
        }
        return Exit::Passed;
    }
    if args.list {
        list(&changes, args.json, args.from.as_deref());
        return Exit::Passed;
    }
    if args.accept || args.reject {
        let mut ok = true;
        for change in &changes {
            ok &= apply(change, args.accept, args.json);
        }
        return if ok { Exit::Passed } else { Exit::BadInput };
    }
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        eprintln!(
            "error: the interactive review needs a terminal\n  = hint: `{}` shows the {} \
             pending change(s); `{}` or `{}` settles them without one",
            again.command("--list"),
            changes.len(),
            again.command("--accept [FILTER]"),
            again.command("--reject [FILTER]"),
        );
        return Exit::BadInput;
    }
    screen::review(&changes, &again)
}

/// How to run this review again, as messages suggest it: the paths it was
/// given, and the folder it read the pending files from.
pub struct Again {
    /// ` --game GAME` if given, then ` PATH` for each path given, as given.
    paths: String,
    /// `--from DIR`.
    from: Option<PathBuf>,
}

impl Again {
    /// `puzzle-qa review PATHS [--from DIR] ARGS`.
    fn command(&self, args: &str) -> String {
        let from = self.from.as_ref().map_or(String::new(), |dir| {
            format!(" --from {}", shell_word(&dir.display().to_string()))
        });
        let args = match args.is_empty() {
            true => String::new(),
            false => format!(" {args}"),
        };
        format!(
            "puzzle-qa{} review{}{from}{args}",
            games::flags(),
            self.paths
        )
    }
}

/// `--list`: a line per change (or a JSON object).
fn list(changes: &[Change], json: bool, from: Option<&Path>) {
    for change in changes {
        let entry = change.subject.entry();
        if json {
            let listed = Listed {
                level: change.level(),
                game: entry.game.name,
                file: &entry.shown_level,
                expectation: &entry.shown_expectation,
                pending: &change.shown_pending,
                checks: &change.checks,
                why: change.why(),
                changes: &change.changes,
                regression: change.regression(),
                accept: change.accept_command(from),
            };
            println!(
                "{}",
                serde_json::to_string(&listed).expect("a listing serializes")
            );
        } else {
            println!("{}: {}", change.level(), change.why().join("; "));
        }
    }
}

/// Accepts (or rejects) one change and says so; whether it worked.
fn apply(change: &Change, accept: bool, json: bool) -> bool {
    let entry = change.subject.entry();
    let result = if accept {
        change.accept()
    } else {
        change.reject().map(|()| Vec::new())
    };
    match result {
        Ok(changed) => {
            let action = if accept { "accepted" } else { "rejected" };
            if json {
                let done = Done {
                    level: change.level(),
                    action,
                    expectation: &entry.shown_expectation,
                    changes: changed,
                };
                println!(
                    "{}",
                    serde_json::to_string(&done).expect("a result serializes")
                );
            } else if accept {
                println!(
                    "accepted {}: {}: {}",
                    change.level(),
                    entry.shown_expectation,
                    changed.join("; ")
                );
            } else {
                println!(
                    "rejected {}: {} left as it is",
                    change.level(),
                    entry.shown_expectation
                );
            }
            true
        }
        Err(message) => {
            eprintln!("error: {}: {message}", change.level());
            false
        }
    }
}
