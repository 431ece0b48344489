//! `puzzle-qa report` on temporary git repositories: a base commit whose
//! expectations bless wrote, then a change touching several levels (a par
//! change, a new level, a removed level, a renamed level, a mechanic turned
//! decoration), compared through the binary as CI would run it. The levels
//! are small real ones, copied from the fixture project
//! (`tests/fixtures/project/`), so every check really runs.

use std::ops::Deref;
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{self, Project, expectation_path, field_names, level_path, stderr, stdout};

/// A project in a git repository of its own.
struct Repository {
    project: Project,
}

impl Deref for Repository {
    type Target = Project;

    fn deref(&self) -> &Project {
        &self.project
    }
}

impl Repository {
    fn new() -> Repository {
        let repository = Repository {
            project: Project::new(),
        };
        repository.git(&["init", "-q"]);
        repository
    }

    /// git, isolated from the machine's and the user's configuration (and
    /// from a `GIT_DIR` a hook may have set), with fixed dates.
    fn git(&self, args: &[&str]) -> String {
        let output = isolated(Command::new("git"))
            .current_dir(self.path())
            .args(["-c", "init.defaultBranch=main"])
            .args(args)
            .env("GIT_AUTHOR_NAME", "Designer")
            .env("GIT_AUTHOR_EMAIL", "designer@example.com")
            .env("GIT_COMMITTER_NAME", "Designer")
            .env("GIT_COMMITTER_EMAIL", "designer@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(output.status.success(), "git {args:?}: {}", stderr(&output));
        stdout(&output)
    }

    /// `puzzle-qa ARGS` in the repository, isolated as git is.
    fn puzzle_qa(&self, args: &[&str]) -> Output {
        isolated(self.command(args)).output().unwrap()
    }

    /// `puzzle-qa bless --prune`, which must succeed: the expectations are
    /// what bless writes, as a designer would have committed them.
    fn bless(&self) {
        let output = self.puzzle_qa(&["bless", "--prune"]);
        assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    fn report(&self, args: &[&str]) -> Output {
        let mut all = vec!["report", "--base", "HEAD~1"];
        all.extend_from_slice(args);
        self.puzzle_qa(&all)
    }

    fn report_json(&self) -> (Option<i32>, Value) {
        let output = self.report(&["--json"]);
        let text = stdout(&output);
        assert_eq!(text.lines().count(), 1, "{text}{}", stderr(&output));
        (output.status.code(), serde_json::from_str(&text).unwrap())
    }
}

/// A command without the variables that would change what it does here:
/// CI refuses bless, BLESS blesses, GIT_* point git elsewhere.
fn isolated(mut command: Command) -> Command {
    for name in [
        "CI",
        "BLESS",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
    ] {
        command.env_remove(name);
    }
    command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("NO_COLOR", "1");
    command
}

/// Two commits: the base, blessed; then a par change (a cell opened next
/// to level01's goal: 7 → 6), a removed level (level02), a renamed level
/// (02-mouse-hole → 02-mouse-door), a new level (a Snack Run level) and a
/// mechanic turned decoration (the slide's heart moved before its gate:
/// the cushion is no longer needed), blessed again. One level
/// (01-first-hug) does not change.
fn two_commits() -> Repository {
    let project = Repository::new();
    let level01 = project.copy_level("bloxorz", "level01");
    let level02 = project.copy_level("bloxorz", "level02");
    project.copy_level("hugmaze", "01-first-hug");
    let mouse_hole = project.copy_level("hugmaze", "02-mouse-hole");
    let slide = project.level("hugmaze", "slide", support::SLIDE);
    project.bless();
    project.commit("levels");

    project.edit(&level01, "x x x x x p p e", "x x x x p p p e");
    project.remove(&level02);
    project.git(&["mv", &mouse_hole, &level_path("hugmaze", "02-mouse-door")]);
    project.git(&[
        "mv",
        &expectation_path("hugmaze", "02-mouse-hole"),
        &expectation_path("hugmaze", "02-mouse-door"),
    ]);
    project.copy_level("snackrun", "01-first-hops");
    project.edit(&slide, "#..H...#", "#......#");
    project.edit(&slide, "#......#\n#D", "#..H...#\n#D");
    project.bless();
    project.commit("a level change");
    project
}

/// The row of `level` in a `--json` report.
fn row<'a>(report: &'a Value, level: &str) -> &'a Value {
    report["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["level"] == level)
        .unwrap_or_else(|| panic!("no row for {level}: {report}"))
}

#[test]
fn the_markdown_report_of_a_level_change_shows_every_level_worst_first() {
    let project = two_commits();
    let output = project.report(&["--markdown"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let base = project.git(&["rev-parse", "--short=10", "HEAD~1"]);
    let markdown = stdout(&output).replace(base.trim(), "<base>");

    let table: Vec<&str> = markdown
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    let levels: Vec<&str> = table
        .iter()
        .map(|line| line.split('`').nth(1).unwrap())
        .collect();
    // The regression heads the table; the unchanged level is only counted.
    assert_eq!(
        levels,
        [
            "hugmaze::slide",
            "bloxorz::level01",
            "bloxorz::level02",
            "hugmaze::02-mouse-door",
            "snackrun::01-first-hops",
        ]
    );
    assert!(table[0].contains("**regression**"), "{}", table[0]);
    assert!(
        table[0].contains("`mechanics.cushion` essential → decoration"),
        "{}",
        table[0]
    );
    assert!(
        table[1].contains("| edited | changed | 7 → 6 |"),
        "{}",
        table[1]
    );
    assert!(table[2].contains("| removed |"), "{}", table[2]);
    assert!(
        table[3].contains(&format!(
            "renamed from `{}`",
            level_path("hugmaze", "02-mouse-hole")
        )),
        "{}",
        table[3]
    );
    assert!(table[4].contains("| new |"), "{}", table[4]);
    assert!(
        markdown.contains("1 unchanged level not listed"),
        "{markdown}"
    );
    assert!(markdown.len() < 1024 * 1024);
    insta::assert_snapshot!("markdown_report_of_two_commits", markdown);
}

#[test]
fn the_json_report_keeps_its_contract() {
    let project = two_commits();
    let (status, report) = project.report_json();
    assert_eq!(status, Some(0), "{report}");
    assert_eq!(
        field_names(&report),
        ["base", "commit", "levels", "orphans", "summary"]
    );
    assert_eq!(report["base"], "HEAD~1");
    assert_eq!(
        report["commit"].as_str().unwrap(),
        project.git(&["rev-parse", "HEAD~1"]).trim()
    );
    assert_eq!(
        field_names(&report["summary"]),
        [
            "changed",
            "failed",
            "gate",
            "hand_edit",
            "levels",
            "new",
            "regression",
            "removed",
            "renamed",
            "renumbered",
            "stale",
            "unchanged"
        ]
    );
    let summary = &report["summary"];
    assert_eq!(summary["levels"], 6);
    assert_eq!(summary["regression"], 1);
    assert_eq!(summary["unchanged"], 1);
    assert_eq!(
        [&summary["new"], &summary["removed"], &summary["renamed"]],
        [1, 1, 1]
    );
    assert_eq!(summary["gate"], "pass");
    assert_eq!(report["orphans"]["ok"], true);

    let level01 = row(&report, "bloxorz::level01");
    assert_eq!(
        field_names(level01),
        [
            "change",
            "changes",
            "checks",
            "failures",
            "file",
            "game",
            "hand_edited",
            "level",
            "notes",
            "par",
            "renamed_from",
            "severity"
        ]
    );
    assert_eq!(level01["change"], "edited");
    assert_eq!(level01["severity"], "changed");
    assert_eq!(level01["par"]["before"], 7);
    assert_eq!(level01["par"]["after"], 6);
    assert_eq!(level01["checks"]["par"], "ok");
    let par = &level01["changes"][0];
    assert_eq!(
        field_names(par),
        ["after", "before", "key", "owner", "regression"]
    );
    assert_eq!(
        [&par["key"], &par["owner"], &par["before"], &par["after"]],
        [
            &serde_json::json!("par"),
            &"machine".into(),
            &7.into(),
            &6.into()
        ]
    );

    let slide = row(&report, "hugmaze::slide");
    assert_eq!(slide["severity"], "regression");
    let cushion = slide["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|change| change["key"] == "mechanics.cushion")
        .unwrap();
    assert_eq!(cushion["before"], "essential");
    assert_eq!(cushion["after"], "decoration");
    assert_eq!(cushion["regression"], true);

    let removed = row(&report, "bloxorz::level02");
    assert_eq!(removed["change"], "removed");
    assert_eq!(removed["file"], level_path("bloxorz", "level02"));
    assert_eq!(removed["checks"], serde_json::json!({}));
    assert!(removed["par"]["before"].is_u64());
    assert_eq!(removed["par"]["after"], Value::Null);

    let renamed = row(&report, "hugmaze::02-mouse-door");
    assert_eq!(renamed["change"], "renamed");
    assert_eq!(
        renamed["renamed_from"],
        level_path("hugmaze", "02-mouse-hole")
    );
    assert_eq!(renamed["changes"], serde_json::json!([]));

    let new = row(&report, "snackrun::01-first-hops");
    assert_eq!(new["change"], "new");
    assert_eq!(new["checks"]["snacks"], "ok");
    assert!(
        new["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|change| change["key"] == "goal.D" && change["after"] == true),
        "{new}"
    );
    assert_eq!(row(&report, "hugmaze::01-first-hug")["change"], "unchanged");

    // `report --help` documents every field the output has.
    let help = stdout(&project.puzzle_qa(&["report", "--help"]));
    let failure = serde_json::json!({"check": 0, "stale": 0, "message": 0});
    for object in [&report, &report["summary"], level01, par, &failure] {
        for name in field_names(object) {
            assert!(help.contains(name), "`{name}` is not in report --help");
        }
    }
}

#[test]
fn an_expectation_file_left_behind_by_a_removed_level_fails_the_gate() {
    let project = two_commits();
    project.remove(&level_path("hugmaze", "01-first-hug"));
    let (status, report) = project.report_json();
    assert_eq!(status, Some(1), "{report}");
    assert_eq!(report["orphans"]["ok"], false);
    let message = report["orphans"]["message"].as_str().unwrap();
    assert!(message.contains("puzzle-qa bless --prune"), "{message}");
    assert_eq!(row(&report, "hugmaze::01-first-hug")["change"], "removed");

    let markdown = stdout(&project.report(&["--markdown"]));
    let first = markdown
        .lines()
        .find(|line| line.starts_with("| `"))
        .unwrap();
    assert!(first.starts_with("| `orphans` | — | **FAIL** |"), "{first}");
}

#[test]
fn stale_expectations_and_hand_edits_fail_the_gate_with_the_command_to_accept() {
    let project = two_commits();
    // The shortcut closed again, not blessed: stale.
    project.edit(
        &level_path("bloxorz", "level01"),
        "x x x x p p p e",
        "x x x x x p p e",
    );
    // A par edited by hand, its level untouched.
    project.edit(
        &expectation_path("hugmaze", "01-first-hug"),
        "par = 14",
        "par = 13",
    );
    let (status, report) = project.report_json();
    assert_eq!(status, Some(1), "{report}");
    assert_eq!(report["summary"]["gate"], "fail");

    let level01 = row(&report, "bloxorz::level01");
    assert_eq!(level01["severity"], "stale");
    assert_eq!(level01["checks"]["par"], "stale");
    let failure = &level01["failures"][0];
    assert_eq!(field_names(failure), ["check", "message", "stale"]);
    assert_eq!(failure["stale"], true);

    let hug = row(&report, "hugmaze::01-first-hug");
    assert_eq!(hug["change"], "expectations");
    assert_eq!(hug["hand_edited"], serde_json::json!(["par"]));
    // The checks still find 14, so the hand edit is stale too.
    assert_eq!(hug["severity"], "stale");
    assert_eq!(hug["par"]["before"], 14);
    assert_eq!(hug["par"]["after"], 14);

    let text = stdout(&project.report(&[]));
    assert!(
        text.contains("to accept, run `puzzle-qa bless bloxorz::level01`"),
        "{text}"
    );
    assert!(text.contains("hand edit? `par` changed"), "{text}");
    assert!(text.contains("---- bloxorz::level01::par ----"), "{text}");
    assert!(
        text.contains("The gate fails: expectations are out of date"),
        "{text}"
    );
}

#[test]
fn a_route_that_broke_fails_the_gate_and_heads_the_table() {
    let project = Repository::new();
    let first_hug = project.copy_level("hugmaze", "01-first-hug");
    project.copy_level("hugmaze", "02-mouse-hole");
    project.bless();
    let expectations = expectation_path("hugmaze", "01-first-hug");
    let solution = project.read(&expectations);
    let moves = solution
        .lines()
        .find_map(|line| line.strip_prefix("solution = "))
        .unwrap();
    project.write(
        &expectations,
        format!("{solution}\n[[routes]]\nname = \"tested\"\nmoves = {moves}\n"),
    );
    project.commit("levels");
    // A wall where Bubu's recorded route walks.
    project.edit(&first_hug, "#.###..#", "#####..#");
    // Bless writes the new par, and fails on the route it cannot fix.
    let blessed = project.puzzle_qa(&["bless"]);
    assert_eq!(blessed.status.code(), Some(1), "{}", stdout(&blessed));
    project.commit("a wall");

    let (status, report) = project.report_json();
    assert_eq!(status, Some(1), "{report}");
    assert_eq!(report["levels"][0]["level"], "hugmaze::01-first-hug");
    let hug = &report["levels"][0];
    assert_eq!(hug["severity"], "failed");
    assert_eq!(hug["checks"]["routes"], "failed");
    let message = hug["failures"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("route `tested` no longer wins"),
        "{message}"
    );

    let markdown = stdout(&project.report(&["--markdown"]));
    let first = markdown
        .lines()
        .find(|line| line.starts_with("| `"))
        .unwrap();
    assert!(first.contains("**FAIL**"), "{first}");
    assert!(
        first.contains("`routes` fails: route \\`tested\\` no longer wins"),
        "{first}"
    );
    assert!(markdown.contains("The gate fails"), "{markdown}");
}

#[test]
fn the_report_is_the_same_for_any_thread_count() {
    let project = two_commits();
    project.edit(
        &level_path("bloxorz", "level01"),
        "x x x x p p p e",
        "x x x x x p p e",
    );
    let report = |threads: &str| {
        let output = isolated(project.command(&["report", "--base", "HEAD~1", "--json"]))
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        stdout(&output)
    };
    let one = report("1");
    assert!(one.contains("\"stale\""), "{one}");
    assert_eq!(one, report("2"));
    assert_eq!(one, report("2"), "a second run differs");
}

#[test]
fn outside_a_repository_or_with_an_unknown_revision_it_exits_2_naming_the_next_step() {
    // A project with its `levels/` folder, but no repository.
    let plain = Project::new();
    let output = isolated(plain.command(&["report", "--base", "main"]))
        .env("GIT_CEILING_DIRECTORIES", plain.path().parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(errors.contains("not inside a git work tree"), "{errors}");
    assert!(errors.contains("puzzle-qa check"), "{errors}");

    let project = Repository::new();
    project.copy_level("hugmaze", "01-first-hug");
    project.bless();
    project.commit("one level");
    let output = project.puzzle_qa(&["report", "--base", "no-such-branch"]);
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(
        errors.contains("unknown revision `no-such-branch`"),
        "{errors}"
    );
    assert!(errors.contains("git log --oneline"), "{errors}");
    // The first commit has no parent.
    let output = project.report(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));

    let output = project.puzzle_qa(&["report", "--base", "HEAD", "--json", "--markdown"]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "the formats exclude each other"
    );
    let output = project.puzzle_qa(&["report", "--base", "HEAD", "no/such/root"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no levels/ folder"));
}

/// The report after a commit of the `many_levels` game with levels ONE,
/// TWO, THREE, then one whose levels are `after`, each blessed.
fn report_of_pushes(after: &[&str]) -> (Repository, Value) {
    use crate::many_levels::{ONE, THREE, TWO, file, game};
    let repository = Repository::new();
    repository.write(&file(), game(&[ONE, TWO, THREE]));
    repository.bless();
    repository.commit("three levels");
    repository.write(&file(), game(after));
    repository.bless();
    repository.commit("the levels changed");
    let (status, report) = repository.report_json();
    assert_eq!(status, Some(0), "{report}");
    (repository, report)
}

/// The `change` of the report's row for `level`.
fn change_of(report: &Value, level: &str) -> Value {
    report["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["level"] == level)
        .map_or(Value::Null, |row| row["change"].clone())
}

#[test]
fn a_level_inserted_in_a_file_of_many_shows_the_later_ones_as_renumbered() {
    use crate::many_levels::{NEW, ONE, THREE, TWO};
    let (repository, report) = report_of_pushes(&[ONE, NEW, TWO, THREE]);
    assert_eq!(change_of(&report, "puzzlescript::pushes::2"), "new");
    assert_eq!(change_of(&report, "puzzlescript::pushes::3"), "renumbered");
    assert_eq!(change_of(&report, "puzzlescript::pushes::4"), "renumbered");
    assert_eq!(report["summary"]["renumbered"], 2);
    let text = stdout(&repository.report(&[]));
    assert!(text.contains("renumbered: it is the old"), "{text}");
}

#[test]
fn a_level_deleted_from_a_file_of_many_is_a_removed_row() {
    use crate::many_levels::{ONE, THREE};
    let (_, report) = report_of_pushes(&[ONE, THREE]);
    assert_eq!(
        change_of(&report, "puzzlescript::pushes::2"),
        "renumbered",
        "{report}"
    );
    // The old level 2 is gone; its row says so, with its par at base.
    let rows = report["levels"].as_array().unwrap();
    let removed: Vec<&Value> = rows
        .iter()
        .filter(|row| row["change"] == "removed")
        .collect();
    assert_eq!(removed.len(), 1, "{report}");
    assert_eq!(removed[0]["par"]["before"], 3, "{report}");
}

#[test]
fn a_level_moved_and_edited_in_a_file_of_many_is_compared_with_the_table_it_takes() {
    use crate::many_levels::{NEW, ONE, THREE};
    // TWO with its target one cell further (par 3 → 4), after an inserted
    // level: edited and moved at once. Bless moves its table [2] to [3].
    const LONGER_TWO: &str = "########\n#P.C..T#\n########\n";
    let (_, report) = report_of_pushes(&[NEW, ONE, LONGER_TWO, THREE]);
    assert_eq!(change_of(&report, "puzzlescript::pushes::1"), "new");
    assert_eq!(change_of(&report, "puzzlescript::pushes::2"), "renumbered");
    assert_eq!(change_of(&report, "puzzlescript::pushes::4"), "renumbered");
    let edited = row(&report, "puzzlescript::pushes::3");
    assert_eq!(edited["change"], "edited", "{report}");
    assert_eq!(edited["par"]["before"], 3, "{report}");
    assert_eq!(edited["par"]["after"], 4, "{report}");
    // Its old table is taken, so no level of the file was removed.
    let rows = report["levels"].as_array().unwrap();
    assert!(
        rows.iter().all(|row| row["change"] != "removed"),
        "{report}"
    );
}
