//! `puzzle-qa watch` without a page: it checks every level once, then, for
//! each edit, only the levels the edit can affect, as its terminal table
//! shows (a row per level checked). A project of its own, with a
//! PuzzleScript game of three levels beside the fixture project's.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::support::{Project, expectation_path, level_path, stderr};

/// A PuzzleScript game of crates, its levels after `LEVELS`.
const GAME: &str = "\
title Watched Crates
noaction

OBJECTS

Background
black

Wall
grey

Player
white

Crate
orange

Target
blue

LEGEND

. = Background
# = Wall
P = Player
* = Crate
o = Target

SOUNDS

COLLISIONLAYERS

Background
Target
Player, Wall, Crate

RULES

[ > Player | Crate ] -> [ > Player | > Crate ]

WINCONDITIONS

all Target on Crate

LEVELS

#######
#P*.o.#
#######

########
#P*...o#
########

#########
#P.*...o#
#########
";

/// The fixture project (its slowest level left out), the game above as
/// `levels/puzzlescript/crates.txt`, every expectation blessed.
pub fn watched_project() -> Project {
    let project = Project::copy_of("project");
    project.remove(&level_path("hugmaze", "17-article-example"));
    project.remove(&expectation_path("hugmaze", "17-article-example"));
    project.write(&level_path("puzzlescript", "crates"), GAME);
    let blessed = project.puzzle_qa(&["bless"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stderr(&blessed));
    project
}

/// A `puzzle-qa watch` running in a project, its stdout read a line at a
/// time; killed when dropped.
pub struct Watching {
    child: Child,
    lines: Receiver<String>,
}

impl Watching {
    pub fn start(project: &Project, args: &[&str]) -> Watching {
        let mut all = vec!["watch", "--debounce", "40"];
        all.extend(args);
        let mut child = project
            .command(&all)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("watch starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Watching { child, lines }
    }

    /// The lines up to and with the first that `end` accepts; fails after
    /// `within`.
    pub fn until(&self, end: impl Fn(&str) -> bool, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = end(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!(
                    "watch said nothing awaited within {within:?}; it said:\n{}",
                    seen.join("\n")
                ),
            }
        }
    }

    /// The next check's lines, to its `checked …` line.
    pub fn next_check(&self) -> Vec<String> {
        self.until(|line| line.starts_with("checked "), Duration::from_secs(20))
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The levels a check's table has a row for.
fn rows(lines: &[String]) -> Vec<String> {
    let header = lines
        .iter()
        .position(|line| line.starts_with("level "))
        .unwrap_or_else(|| panic!("no table in:\n{}", lines.join("\n")));
    lines[header + 1..]
        .iter()
        .take_while(|line| !line.starts_with("checked "))
        .map(|line| line.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn an_edit_checks_again_only_the_levels_it_can_affect() {
    let project = watched_project();
    let watch = Watching::start(&project, &[]);
    let first = watch.next_check();
    assert_eq!(rows(&first).len(), 15, "{}", first.join("\n"));
    assert!(first.last().unwrap().starts_with("checked 15 levels"));

    // One level file: that level, and its par no longer the declared one
    // (a shortcut).
    let level01 = level_path("bloxorz", "level01");
    project.edit(&level01, "x x x x x p p e p p", "x x x x p p p e p p");
    let check = watch.next_check();
    assert_eq!(rows(&check), ["bloxorz::level01"], "{}", check.join("\n"));
    assert!(
        check
            .iter()
            .any(|line| line.starts_with("changed: levels/bloxorz/level01.txt"))
    );
    let row = check
        .iter()
        .find(|line| line.starts_with("bloxorz::level01 "))
        .unwrap();
    assert!(row.contains(" stale "), "{row}");
    assert!(
        check.last().unwrap().starts_with("checked 1 level in "),
        "{}",
        check.join("\n")
    );

    // One level's map in a file of three: that level alone.
    let crates = level_path("puzzlescript", "crates");
    project.edit(&crates, "#P*...o#", "#P*..o.#");
    let check = watch.next_check();
    assert_eq!(
        rows(&check),
        ["puzzlescript::crates::2"],
        "{}",
        check.join("\n")
    );

    // Its rules: every level of the file, and only those.
    project.edit(&crates, "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ < Player | Crate ] -> [ < Player | < Crate ]");
    let check = watch.next_check();
    assert_eq!(
        rows(&check),
        [
            "puzzlescript::crates::1",
            "puzzlescript::crates::2",
            "puzzlescript::crates::3"
        ],
        "{}",
        check.join("\n")
    );

    // An expectation file: its level.
    let expectation = expectation_path("hugmaze", "01-first-hug");
    let text = project.read(&expectation);
    project.write(&expectation, format!("# reviewed\n{text}"));
    let check = watch.next_check();
    assert_eq!(
        rows(&check),
        ["hugmaze::01-first-hug"],
        "{}",
        check.join("\n")
    );

    // A new level file: that level.
    let text = project.read(&level_path("bloxorz", "level02"));
    project.write(&level_path("bloxorz", "level99"), text);
    let check = watch.next_check();
    assert_eq!(rows(&check), ["bloxorz::level99"], "{}", check.join("\n"));
    assert!(
        check.last().unwrap().contains("all 16:"),
        "{}",
        check.join("\n")
    );
}

#[test]
fn watch_refuses_to_run_in_ci() {
    let project = Project::copy_of("project");
    let output = project
        .command(&["watch"])
        .env("CI", "true")
        .output()
        .expect("watch runs");
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("watch refused: the CI environment variable is set"),
        "{said}"
    );
    assert!(said.contains("`puzzle-qa check`"), "{said}");
}

#[test]
fn a_change_to_a_games_rust_code_says_a_rebuild_is_needed() {
    let project = watched_project();
    project.write("crates/bloxorz/src/rules.rs", "// the rules\n");
    let watch = Watching::start(&project, &[]);
    watch.next_check();
    project.write("crates/bloxorz/src/rules.rs", "// the rules, changed\n");
    let said = watch.until(|line| line.starts_with("note: "), Duration::from_secs(10));
    let note = said.last().unwrap();
    assert!(
        note.starts_with(
            "note: crates/bloxorz/src/rules.rs changed: bloxorz's rules are compiled into the \
             puzzle-qa that runs watch"
        ),
        "{note}"
    );
    assert!(note.contains("rebuild (`cargo build --release`)"), "{note}");
    // Nothing was checked again for it (the verdicts would be this
    // build's): the next check is that of the next save, alone.
    let hug = level_path("hugmaze", "01-first-hug");
    project.write(&hug, project.read(&hug));
    let check = watch.next_check();
    assert_eq!(
        rows(&check),
        ["hugmaze::01-first-hug"],
        "{}",
        check.join("\n")
    );
}

#[test]
fn a_save_during_a_check_is_checked_after_it_and_wins() {
    // The fixture project whole: its slowest level keeps the first check
    // running for a while, so the save usually lands in the middle of it.
    let project = Project::copy_of("project");
    let watch = Watching::start(&project, &[]);
    watch.until(
        |line| line.starts_with("checking "),
        Duration::from_secs(10),
    );
    let level01 = level_path("bloxorz", "level01");
    project.edit(&level01, "x x x x x p p e p p", "x x x x p p p e p p");
    // Whatever the timing, the last word on level01 is the edited level's
    // (stale), every level is checked, and the runs end.
    let mut seen: Vec<String> = Vec::new();
    loop {
        let check = watch.next_check();
        seen.extend(check.iter().cloned());
        let summary = check.last().unwrap();
        let rows = rows(&check);
        let level01_last = seen
            .iter()
            .rev()
            .find(|line| line.starts_with("bloxorz::level01 "));
        if !summary.contains("left for the next check")
            && !rows.is_empty()
            && level01_last.is_some_and(|row| row.contains(" stale "))
        {
            break;
        }
        assert!(seen.len() < 200, "{}", seen.join("\n"));
    }
    let checked: std::collections::BTreeSet<&str> = seen
        .iter()
        .filter(|line| line.contains("::") && !line.starts_with("changed"))
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(checked.len(), 13, "{}", seen.join("\n"));
}
