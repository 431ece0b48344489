//! Pending expectations and `puzzle-qa review`, as a designer uses them:
//! a stale level's change is kept beside its expectation file (under
//! `PUZZLE_QA_PENDING_DIR` in CI), and review accepts, rejects or skips
//! each one; check mode writes nothing. The terminal review is driven
//! through tmux, a screen per snapshot.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use puzzle_qa_core::_cli_support::harness::{Frontend, PendingPlace, Settings, Verdict};

use crate::support::{Project, expectation_path, json_lines, level_path, stderr, stdout, verdicts};

/// The fixture project with the designer's edits of README's walkthrough:
/// Bloxorz level 1 gets a shortcut (par 7 → 6; its route's `optimal`
/// claim dropped, as the walkthrough says), Hug Maze level 1 loses a wall
/// (par 14 → 10), and Hug Maze level 2's par is edited by hand (13 for 12).
fn edited(hand_edit: bool) -> Project {
    let project = Project::copy_of("project");
    project.edit(
        &level_path("bloxorz", "level01"),
        "x x x x x p p e",
        "x x x x p p p e",
    );
    project.edit(
        &expectation_path("bloxorz", "level01"),
        "optimal = true\n",
        "",
    );
    project.edit(
        &level_path("hugmaze", "01-first-hug"),
        "#.###..#",
        "#.#.#..#",
    );
    if hand_edit {
        project.edit(
            &expectation_path("hugmaze", "02-mouse-hole"),
            "par = 12",
            "par = 13",
        );
    }
    project
}

fn pending(game: &str, stem: &str) -> String {
    format!("{}.pending", expectation_path(game, stem))
}

/// Every file under `expectations/` with its text, for comparing trees.
fn tree(project: &Project) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let root = Path::new("expectations");
    for game in project.listing("expectations") {
        let folder = root.join(&game).display().to_string();
        for name in project.listing(&folder) {
            let relative = root.join(&game).join(&name).display().to_string();
            files.insert(relative.clone(), project.read(&relative));
        }
    }
    files
}

/// The suite as `cargo test` runs it on a designer's machine: messages for
/// `cargo test`, pending files beside the expectations.
fn cargo_test(project: &Project) -> BTreeMap<String, Verdict> {
    verdicts(Settings {
        frontend: Frontend::CargoTest,
        pending: PendingPlace::Beside,
        ..project.settings()
    })
}

#[test]
fn cargo_test_keeps_each_change_pending_and_review_accepts_one_and_rejects_another() {
    let project = edited(false);
    let before = tree(&project);
    let verdicts = cargo_test(&project);
    let par = verdicts["bloxorz::level01::par"]
        .message()
        .expect("par is stale");
    assert!(
        par.contains(&format!(
            "pending: {} holds what bless would write; review it with `puzzle-qa review`",
            pending("bloxorz", "level01")
        )),
        "{par}"
    );
    // What bless would write, nothing else: the pending file is exactly the
    // expectation file a bless of the level leaves (made on a twin).
    let twin = edited(false);
    let blessed = twin.puzzle_qa(&["bless", "bloxorz::level01", "hugmaze::01-first-hug"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stdout(&blessed));
    for (game, stem) in [("bloxorz", "level01"), ("hugmaze", "01-first-hug")] {
        assert_eq!(
            project.read(&pending(game, stem)),
            twin.read(&expectation_path(game, stem)),
            "{game}::{stem}"
        );
    }
    // Only the edited levels' changes are pending, and nothing was blessed.
    let pending_files: Vec<String> = tree(&project)
        .into_keys()
        .filter(|path| path.ends_with(".pending"))
        .collect();
    assert_eq!(
        pending_files,
        [
            pending("bloxorz", "level01"),
            pending("hugmaze", "01-first-hug")
        ]
    );

    let accepted = project.puzzle_qa(&["review", "--accept", "bloxorz::level01"]);
    assert_eq!(accepted.status.code(), Some(0), "{}", stderr(&accepted));
    insta::assert_snapshot!(stdout(&accepted), @r#"accepted bloxorz::level01: expectations/bloxorz/level01.toml: par: 7 → 6; solution: "R D2 R2 D R" → "R2 D2 R2""#);
    let rejected = project.puzzle_qa(&["review", "--reject", "hugmaze::01-first-hug"]);
    assert_eq!(rejected.status.code(), Some(0), "{}", stderr(&rejected));
    // The tree: level 1's expectations as bless writes them, Hug Maze's as
    // they were, no pending file left.
    let mut expected = before;
    let level01 = expectation_path("bloxorz", "level01");
    expected.insert(level01.clone(), twin.read(&level01));
    assert_eq!(tree(&project), expected);
    // Nothing is left to review; the accepted level passes.
    let listed = project.puzzle_qa(&["review", "--list", "--json"]);
    assert_eq!(
        (listed.status.code(), stdout(&listed)),
        (Some(0), String::new())
    );
    let again = cargo_test(&project);
    let level01: Vec<_> = again
        .iter()
        .filter(|(trial, verdict)| trial.starts_with("bloxorz::level01::") && !verdict.passed())
        .collect();
    assert!(level01.is_empty(), "{level01:?}");
}

#[test]
fn a_pending_change_goes_once_the_level_is_no_longer_stale() {
    let project = edited(false);
    cargo_test(&project);
    assert!(project.exists(&pending("hugmaze", "01-first-hug")));
    project.edit(
        &level_path("hugmaze", "01-first-hug"),
        "#.#.#..#",
        "#.###..#",
    );
    let verdicts = cargo_test(&project);
    assert!(verdicts["hugmaze::01-first-hug::par"].passed());
    assert!(!project.exists(&pending("hugmaze", "01-first-hug")));
    // Bless takes a pending change away with the staleness.
    assert!(project.exists(&pending("bloxorz", "level01")));
    let blessed = project.puzzle_qa(&["bless", "bloxorz::level01"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stdout(&blessed));
    assert!(!project.exists(&pending("bloxorz", "level01")));
}

#[test]
fn check_mode_and_ci_write_nothing_beside_the_expectations() {
    let project = edited(true);
    let before = tree(&project);
    let out = project.puzzle_qa(&["check", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(!stdout(&out).contains("pending:"), "{}", stdout(&out));
    let out = project
        .command(&["check"])
        .env(puzzle_qa_core::_cli_support::harness::UPDATE, "no")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let out = project
        .command(&["check"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert_eq!(tree(&project), before);
    // Bless is refused in check mode, as in CI; a value not understood stops.
    let out = project
        .command(&["bless"])
        .env(puzzle_qa_core::_cli_support::harness::UPDATE, "no")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bless refused: PUZZLE_QA_UPDATE=no"),
        "{}",
        stderr(&out)
    );
    let out = project
        .command(&["check"])
        .env(puzzle_qa_core::_cli_support::harness::UPDATE, "maybe")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("PUZZLE_QA_UPDATE=maybe is not understood"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&project), before);
}

#[test]
fn ci_puts_pending_files_in_the_artifact_folder_and_review_from_applies_them() {
    let project = edited(true);
    let before = tree(&project);
    let artifact = tempfile::tempdir().unwrap();
    let out = project
        .command(&["check"])
        .env("CI", "true")
        .env(
            puzzle_qa_core::_cli_support::harness::PENDING_DIR,
            artifact.path(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // Nothing beside the expectations; the artifact mirrors their paths.
    assert_eq!(tree(&project), before);
    let held = |stem: &str, game: &str| artifact.path().join(pending(game, stem));
    for (game, stem) in [
        ("bloxorz", "level01"),
        ("hugmaze", "01-first-hug"),
        ("hugmaze", "02-mouse-hole"),
    ] {
        assert!(held(stem, game).is_file(), "{game}::{stem}");
    }
    // On the designer's machine: the list, worst first then by level, as JSON.
    let from = artifact.path().to_str().unwrap();
    let listed = project.puzzle_qa(&["review", "--from", from, "--list", "--json"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    let lines = json_lines(&listed);
    let levels: Vec<&str> = lines
        .iter()
        .map(|line| line["level"].as_str().unwrap())
        .collect();
    assert_eq!(
        levels,
        [
            "bloxorz::level01",
            "hugmaze::01-first-hug",
            "hugmaze::02-mouse-hole"
        ]
    );
    let mut first = lines[0].clone();
    assert_eq!(first["file"], level_path("bloxorz", "level01").as_str());
    assert_eq!(
        first["expectation"],
        expectation_path("bloxorz", "level01").as_str()
    );
    first["file"] = "<level file>".into();
    first["expectation"] = "<expectation file>".into();
    first["pending"] = "<artifact>".into();
    first["accept"] = "<command>".into();
    insta::assert_snapshot!(serde_json::to_string_pretty(&first).unwrap(), @r#"
    {
      "accept": "<command>",
      "changes": [
        {
          "after": 6,
          "before": 7,
          "key": "par",
          "owner": "machine",
          "regression": false
        },
        {
          "after": "R2 D2 R2",
          "before": "R D2 R2 D R",
          "key": "solution",
          "owner": "machine",
          "regression": false
        }
      ],
      "checks": [
        "par",
        "replay"
      ],
      "expectation": "<expectation file>",
      "file": "<level file>",
      "game": "bloxorz",
      "level": "bloxorz::level01",
      "pending": "<artifact>",
      "regression": false,
      "why": [
        "a shortcut: par 7 → 6",
        "another solution: \"R D2 R2 D R\" → \"R2 D2 R2\""
      ]
    }
    "#);
    assert_eq!(
        lines[2]["why"],
        serde_json::json!(["a shortcut: par 13 → 12"]),
        "the hand-edited par goes back to the solver's"
    );
    let accepted = project.puzzle_qa(&["review", "--from", from, "--accept", "hugmaze::"]);
    assert_eq!(accepted.status.code(), Some(0), "{}", stderr(&accepted));
    assert!(!held("01-first-hug", "hugmaze").exists());
    assert!(
        held("level01", "bloxorz").exists(),
        "not selected, still there"
    );
    assert!(
        project
            .read(&expectation_path("hugmaze", "02-mouse-hole"))
            .contains("par = 12\n")
    );
    assert!(
        project
            .read(&expectation_path("hugmaze", "01-first-hug"))
            .contains("par = 10\n")
    );
    // A filter that matches nothing pending is bad usage.
    let none = project.puzzle_qa(&["review", "--from", from, "--accept", "snackrun::"]);
    assert_eq!(none.status.code(), Some(2), "{}", stdout(&none));
    assert!(stderr(&none).contains("no pending change matches `snackrun::`"));
}

#[test]
fn review_without_a_terminal_says_how_to_review_without_one() {
    let project = edited(false);
    cargo_test(&project);
    let out = project.puzzle_qa(&["review"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    insta::assert_snapshot!(stderr(&out), @r"
    error: the interactive review needs a terminal
      = hint: `puzzle-qa review --list` shows the 2 pending change(s); `puzzle-qa review --accept [FILTER]` or `puzzle-qa review --reject [FILTER]` settles them without one
    ");
}

#[test]
fn the_levels_of_a_file_of_many_are_reviewed_one_by_one() {
    let project = Project::new();
    let game = "crates/puzzlescript/tests/fixtures/puzzlescript/push.txt";
    project.write(
        &level_path("puzzlescript", "push"),
        std::fs::read(crate::support::repository().join(game)).unwrap(),
    );
    let blessed = project.puzzle_qa(&["bless"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stdout(&blessed));
    let expectations = &expectation_path("puzzlescript", "push");
    let written = project.read(expectations);
    // Levels 1 and 2's pars edited by hand.
    let edited = hand_edit_par(&hand_edit_par(&written, "[1]"), "[2]");
    project.write(expectations, &edited);
    cargo_test(&project);
    let listed = project.puzzle_qa(&["review", "--list"]);
    let text = stdout(&listed);
    assert!(
        text.starts_with("puzzlescript::push::1: a shortcut: par "),
        "{text}"
    );
    assert!(
        text.contains("\npuzzlescript::push::2: a shortcut: par "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
    // Accept level 1 alone: its table is written, level 2's stays pending.
    let out = project.puzzle_qa(&["review", "--accept", "puzzlescript::push::1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let now = project.read(expectations);
    assert_eq!(now, hand_edit_par(&written, "[2]"));
    assert!(project.exists(&format!("{expectations}.pending")));
    let out = project.puzzle_qa(&["review", "--reject"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(project.read(expectations), now);
    assert!(!project.exists(&format!("{expectations}.pending")));

    // A new level at the end (the hand edit undone): its first table is
    // pending, and rejecting it leaves nothing pending.
    project.write(expectations, &written);
    let level = level_path("puzzlescript", "push");
    let mut text = project.read(&level);
    text.push_str("\n#######\n#P.C.T#\n#######\n");
    project.write(&level, &text);
    cargo_test(&project);
    let listed = stdout(&project.puzzle_qa(&["review", "--list"]));
    assert!(listed.starts_with("puzzlescript::push::4: "), "{listed}");
    let out = project.puzzle_qa(&["review", "--reject", "puzzlescript::push::4"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!project.exists(&format!("{expectations}.pending")));
    assert_eq!(project.read(expectations), written);

    // A level inserted first moves every other: a pending file written
    // before the move speaks of the old numbers, so review leaves it out
    // and says why, and bless (which moves the tables) drops it.
    cargo_test(&project);
    assert!(project.exists(&format!("{expectations}.pending")));
    let text = project.read(&level);
    let first = text.find("######\n#PC.T#").unwrap();
    project.write(
        &level,
        format!(
            "{}#######\n#P.C.T#\n#######\n\n{}",
            &text[..first],
            &text[first..]
        ),
    );
    let out = project.puzzle_qa(&["review", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("left out: the levels of levels/puzzlescript/push.txt moved"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("push::"), "{}", stdout(&out));
    let blessed = project.puzzle_qa(&["bless"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stdout(&blessed));
    assert!(!project.exists(&format!("{expectations}.pending")));
}

#[test]
fn a_pending_file_that_does_not_parse_is_left_out_and_the_others_reviewed() {
    let project = edited(true);
    cargo_test(&project);
    let broken = pending("hugmaze", "02-mouse-hole");
    let mut text = project.read(&broken);
    text.push_str("par = = 3\n");
    project.write(&broken, text);
    let out = project.puzzle_qa(&["review", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!(
            "warning: {broken} left out: {broken} does not parse"
        )),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    let levels: Vec<&str> = text
        .lines()
        .map(|line| line.split(": ").next().unwrap())
        .collect();
    assert_eq!(levels, ["bloxorz::level01", "hugmaze::01-first-hug"]);
}

/// `text` with the par of table `table` raised by 100.
fn hand_edit_par(text: &str, table: &str) -> String {
    let start = text.find(&format!("{table}\n")).expect(table);
    let at = start + text[start..].find("par = ").expect("a par") + "par = ".len();
    let end = at + text[at..].find('\n').unwrap();
    let par: u64 = text[at..end].parse().unwrap();
    format!("{}{}{}", &text[..at], par + 100, &text[end..])
}

/// A terminal of its own (an isolated tmux server), running a command in
/// a project, read a screen at a time.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `None`, with a note, where tmux is not installed.
    fn start(dir: &Path, command: &str) -> Option<Tmux> {
        let socket = format!("puzzle-qa-review-{}", std::process::id());
        let started = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "100", "-y", "60", "-c"])
            .arg(dir)
            .arg(command)
            .status();
        match started {
            Ok(status) if status.success() => Some(Tmux { socket }),
            _ => {
                // Straight to stderr, past the test harness's capture: a
                // skip must be seen.
                use std::io::Write as _;
                let _ = writeln!(
                    std::io::stderr(),
                    "terminal review test SKIPPED: tmux is not installed (Debian's `tmux`); \
                     the screens were not checked"
                );
                None
            }
        }
    }

    fn keys(&self, keys: &str) {
        let sent = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-l", keys])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// The screen, once it shows `marker` and is drawn to its foot (within
    /// 20 s), without the blank lines at its foot.
    fn screen(&self, marker: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let out = Command::new("tmux")
                .args(["-L", &self.socket, "capture-pane", "-p"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
            let whole = text.ends_with(" q quit") || text.contains("[review exited");
            if text.contains(marker) && whole {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "no `{marker}` on the screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

#[test]
fn the_terminal_review_accepts_rejects_and_skips_a_screen_at_a_time() {
    let project = edited(true);
    let before = tree(&project);
    cargo_test(&project);
    let twin = edited(true);
    twin.puzzle_qa(&["bless", "bloxorz::level01"]);
    let command = format!(
        "env -u CI -u BLESS -u PUZZLE_QA_PENDING_DIR -u PUZZLE_QA_UPDATE TERM=xterm {} review; echo \"[review exited $?]\"; sleep 60",
        env!("CARGO_BIN_EXE_puzzle-qa")
    );
    let Some(tmux) = Tmux::start(project.path(), &command) else {
        return;
    };
    insta::assert_snapshot!("review_1_diff", tmux.screen("review 1 of 3"));
    tmux.keys("t");
    insta::assert_snapshot!("review_1_picture", tmux.screen("\nbefore: "));
    // The view stays as toggled: the next level comes as a picture.
    tmux.keys("a");
    insta::assert_snapshot!("review_2_picture", tmux.screen("review 2 of 3"));
    tmux.keys("t");
    insta::assert_snapshot!(
        "review_2_diff",
        tmux.screen("--- expectations/hugmaze/01-first-hug.toml")
    );
    tmux.keys("r");
    insta::assert_snapshot!("review_3_diff", tmux.screen("review 3 of 3"));
    tmux.keys("s");
    insta::assert_snapshot!("review_summary", tmux.screen("[review exited"));
    // Accepted: as bless writes it. Rejected: as it was, no pending file.
    // Skipped: as it was, its pending file kept for the next review.
    let mut expected = before;
    let level01 = expectation_path("bloxorz", "level01");
    expected.insert(level01.clone(), twin.read(&level01));
    let mouse_hole = pending("hugmaze", "02-mouse-hole");
    expected.insert(mouse_hole.clone(), project.read(&mouse_hole));
    assert_eq!(tree(&project), expected);
    assert!(project.read(&mouse_hole).contains("par = 12\n"));
}

#[test]
fn check_json_names_the_pending_file_of_a_stale_level() {
    let project = edited(false);
    let out = project.puzzle_qa(&["check", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&out);
    let line = |file: &str| {
        lines
            .iter()
            .find(|line| line["file"] == file)
            .unwrap_or_else(|| panic!("{file}"))
    };
    assert_eq!(
        line(&level_path("hugmaze", "01-first-hug"))["pending"],
        pending("hugmaze", "01-first-hug").as_str()
    );
    assert!(
        line(&level_path("hugmaze", "02-mouse-hole"))
            .get("pending")
            .is_none()
    );
}

#[test]
fn a_pending_file_whose_level_is_gone_is_named_and_a_plain_reject_deletes_it() {
    let project = edited(false);
    cargo_test(&project);
    project.remove(&level_path("hugmaze", "01-first-hug"));
    let orphan = pending("hugmaze", "01-first-hug");
    let out = project.puzzle_qa(&["review", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {orphan} belongs to no level (its level file is gone): `puzzle-qa review \
             --reject` deletes it\n"
        )
    );
    assert!(
        stdout(&out).starts_with("bloxorz::level01: "),
        "{}",
        stdout(&out)
    );
    // A filtered reject leaves it; a plain one deletes it with the rest.
    let out = project.puzzle_qa(&["review", "--reject", "bloxorz::"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(project.exists(&orphan));
    cargo_test(&project);
    let out = project.puzzle_qa(&["review", "--reject"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("deleted {orphan}: its level is gone")));
    assert!(!project.exists(&orphan));
    assert!(!project.exists(&pending("bloxorz", "level01")));
}
