//! The `puzzle-qa` binary: its output formats and exit statuses (a contract
//! that scripts depend on). The levels are the fixture project's
//! (`tests/fixtures/project/`), read in place; what a test changes, it
//! changes in a project of its own. What a person reads is a snapshot
//! (`support::transcript`, timing redacted); the `--json` field names are
//! asserted one by one, because scripts read them.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{
    self, Project, expectation_path, field_names, fixture_level, fixture_project,
    in_fixture_project, json_lines, level_path, puzzle_qa_in, stderr, stdout, transcript,
};

/// A level of the fixture project, by its absolute path.
fn level(name: &str) -> String {
    fixture_level("bloxorz", name)
}

/// `puzzle-qa ARGS` in the fixture project (files given by absolute path).
fn run(args: &[&str]) -> Output {
    in_fixture_project(args)
}

/// `puzzle-qa ARGS` in `dir`: the output and its transcript.
fn seen(dir: &Path, args: &[&str]) -> (Output, String) {
    let output = puzzle_qa_in(dir, args);
    let seen = transcript(args, &output);
    (output, seen)
}

/// `replay FILE --moves MOVES --json`: the exit status and the one report.
fn replay_json(file: &str, moves: &str) -> (Option<i32>, Value) {
    let output = run(&["replay", file, "--moves", moves, "--json"]);
    let mut lines = json_lines(&output);
    assert_eq!(lines.len(), 1, "{}", stderr(&output));
    (output.status.code(), lines.remove(0))
}

#[test]
fn solve_json_prints_one_object_per_level_with_the_contract_fields() {
    let output = run(&["solve", "--json", &level("level01"), &level("level08")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    let first = lines[0].as_object().unwrap();
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    let mut expected = [
        "file",
        "game",
        "status",
        "par",
        "expanded",
        "stored",
        "ms",
        "solution",
        "kept_bytes",
        "bytes_per_state",
    ];
    expected.sort();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    assert_eq!(first["game"], "bloxorz");
    assert_eq!(first["status"], "solved");
    assert_eq!(first["par"], 7);
    assert!(first["expanded"].as_u64().unwrap() > 0);
    assert!(first["stored"].as_u64().unwrap() >= first["expanded"].as_u64().unwrap());
    assert!(first["ms"].is_number());
    assert_eq!(lines[1]["par"], 10);
    assert!(lines[1]["solution"].as_str().unwrap().contains('S'));
}

#[test]
fn a_printed_solution_replays_to_a_win_at_par() {
    for name in ["level09", "level16", "level33"] {
        let solved = json_lines(&run(&["solve", "--json", &level(name)]));
        let moves = solved[0]["solution"].as_str().unwrap();
        let (status, report) = replay_json(&level(name), moves);
        assert_eq!(status, Some(0), "{name}");
        assert_eq!(report["won"], true);
        assert_eq!(report["moves"], solved[0]["par"]);
        assert_eq!(report["failed_at"], Value::Null);
        assert_eq!(report["reason"], Value::Null);
    }
}

#[test]
fn solve_prints_a_table_by_default() {
    let (output, seen) = seen(
        &fixture_project(),
        &[
            "solve",
            &level_path("bloxorz", "level01"),
            &level_path("bloxorz", "level02"),
        ],
    );
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!(seen);
}

#[test]
fn an_unsolvable_level_or_a_reached_limit_exits_1() {
    let project = Project::new();
    // In a folder named for its game, so the game is inferred.
    project.write("bloxorz/walled.txt", "s p x e\n");
    let output = project.puzzle_qa(&["solve", "--json", "bloxorz/walled.txt"]);
    assert_eq!(output.status.code(), Some(1));
    let line = &json_lines(&output)[0];
    assert_eq!(line["status"], "unsolvable");
    assert_eq!(line["par"], Value::Null);
    assert_eq!(line["solution"], Value::Null);

    let limited = run(&["solve", "--json", "--limit", "50", &level("level10")]);
    assert_eq!(limited.status.code(), Some(1));
    let line = &json_lines(&limited)[0];
    assert_eq!(line["status"], "limit");
    assert!(line["stored"].as_u64().unwrap() <= 50);
}

#[test]
fn bad_input_exits_2_and_says_where() {
    let project = Project::new();
    project.write("bloxorz/bad.txt", "s p p\np q e\n");
    let good = project.copy_level("bloxorz", "level01");
    project.write("level.txt", "s p e\n");
    project.write("bloxorz/binary.txt", [0xff, 0xfe, 0x00, 0x9f]);
    let runs: [&[&str]; 5] = [
        // The error says where; the good level is still solved and shown.
        &["solve", "bloxorz/bad.txt", &good],
        &["solve", "no/such/level.txt", "--game", "bloxorz"],
        &["solve", "bloxorz/bad.txt", "--game", "chess"],
        // Not in a game's folder, and no --game.
        &["solve", "level.txt"],
        &["solve", "bloxorz/binary.txt"],
    ];
    let mut all = String::new();
    for args in runs {
        let (output, seen) = seen(project.path(), args);
        assert_eq!(output.status.code(), Some(2), "{seen}");
        all.push_str(&seen);
        all.push('\n');
    }
    insta::assert_snapshot!(all);
}

#[test]
fn wrong_usage_exits_2() {
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["solve"]).status.code(), Some(2));
    assert_eq!(
        run(&["solve", "--algorithm", "magic", "x.txt"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["replay", &level("level01")]).status.code(), Some(2));
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

#[test]
fn replay_reports_a_win_and_its_move_count() {
    let (output, seen) = seen(
        &fixture_project(),
        &[
            "replay",
            &level_path("bloxorz", "level01"),
            "--moves",
            "R2 D R3 D",
        ],
    );
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!(seen);
}

#[test]
fn replay_json_says_where_a_move_list_fails() {
    // Level 1: `S` with a whole block does nothing but counts as a single
    // move, so the fall off the top edge is index 2.
    let (status, report) = replay_json(&level("level01"), "R S U");
    assert_eq!(status, Some(1));
    assert_eq!(report["won"], false);
    assert_eq!(report["moves"], 1);
    assert_eq!(report["failed_at"], 2);
    assert_eq!(report["reason"], "falls off: no tile at (row 0, column 3)");
    assert!(report["file"].as_str().unwrap().ends_with("level01.txt"));

    // Level 1: the third roll falls off the top edge; `R2` counts as two
    // single moves, so the failing one has index 2.
    let (_, fallen) = replay_json(&level("level01"), "R2 U");
    assert_eq!(fallen["failed_at"], 2);
    assert!(fallen["reason"].as_str().unwrap().starts_with("falls off"));

    let (status, report) = replay_json(&level("level01"), "R2");
    assert_eq!(status, Some(1));
    assert_eq!(report["failed_at"], Value::Null);
    assert_eq!(report["moves"], 2);
    assert!(
        report["reason"]
            .as_str()
            .unwrap()
            .contains("before the level is won")
    );
}

#[test]
fn moves_after_the_win_are_refused_but_the_level_is_won() {
    let (status, report) = replay_json(&level("level01"), "R2 D R3 D L");
    assert_eq!(status, Some(0));
    assert_eq!(report["won"], true);
    assert_eq!(report["moves"], 7);
    assert_eq!(report["failed_at"], 7);
    assert!(report["reason"].as_str().unwrap().contains("already won"));
}

#[test]
fn replay_of_unreadable_moves_exits_2_with_the_column() {
    let (output, seen) = seen(
        &fixture_project(),
        &[
            "replay",
            &level_path("bloxorz", "level01"),
            "--moves",
            "R2 X",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    insta::assert_snapshot!(seen);
}

/// A copy of the harness fixture project, with a shortcut opened in its level.
fn fixture_with_shortcut() -> Project {
    let project = Project::copy_of("harness");
    let level = level_path("bloxorz", "hook");
    let text = project.read(&level);
    project.write(&level, text.replacen("p p p x x x", "p p p p x x", 1));
    project
}

/// The level files of the fixture project, game by game.
fn fixture_levels() -> Vec<(String, Vec<String>)> {
    let levels = fixture_project().join("levels");
    let mut games: Vec<(String, Vec<String>)> = std::fs::read_dir(levels)
        .unwrap()
        .map(|game| {
            let game = game.unwrap();
            let mut files: Vec<String> = std::fs::read_dir(game.path())
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            (game.file_name().to_string_lossy().into_owned(), files)
        })
        .collect();
    games.sort();
    games
}

#[test]
fn check_passes_on_the_fixture_project_with_the_contract_fields() {
    let output = in_fixture_project(&["check", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&output);
    let games = fixture_levels();
    let names: Vec<&str> = games.iter().map(|(game, _)| game.as_str()).collect();
    assert_eq!(names, ["bloxorz", "hugmaze", "snackrun"], "every game");
    let levels: usize = games.iter().map(|(_, files)| files.len()).sum();
    assert!(levels >= 7 + 3 + 3, "{levels} level files");
    assert_eq!(lines.len(), levels + 1, "every level, then orphans");
    let first = lines[0].as_object().unwrap();
    assert_eq!(
        field_names(&lines[0]),
        [
            "bytes_per_state",
            "checks",
            "expanded",
            "file",
            "game",
            "kept_bytes",
            "ms",
            "par",
            "status",
            "stored"
        ]
    );
    // Levels come sorted by game, then file name.
    let files: Vec<String> = games
        .iter()
        .flat_map(|(game, files)| files.iter().map(move |file| (game, file)))
        .map(|(game, file)| level_path(game, file.trim_end_matches(".txt")))
        .collect();
    let printed: Vec<&str> = lines[..levels]
        .iter()
        .map(|line| line["file"].as_str().unwrap())
        .collect();
    assert_eq!(printed, files);
    assert_eq!(first["status"], "solved");
    // Checks come in the game's trial order.
    let text = stdout(&output);
    let line = text.lines().next().unwrap();
    let at = |check: &str| line.find(&format!("\"{check}\":{{\"ok\"")).unwrap();
    let order = ["parse", "solvable", "par", "replay", "routes", "ablation"].map(at);
    assert!(order.is_sorted(), "{line}");
    assert_eq!(first["checks"]["par"]["ok"], true);
    assert_eq!(lines[levels]["file"], Value::Null);
    assert_eq!(lines[levels]["checks"]["orphans"]["ok"], true);
}

#[test]
fn check_json_is_byte_identical_for_any_thread_count_and_run_but_for_ms() {
    let levels: usize = fixture_levels().iter().map(|(_, files)| files.len()).sum();
    let without_ms = |threads: &str| {
        let output = support::command_in(&fixture_project(), &["check", "--json"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let text = stdout(&output);
        // Drop `"ms":<number>,` and nothing else.
        let mut kept = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("\"ms\":") {
            kept.push_str(&rest[..at]);
            let after = &rest[at + 5..];
            let end = after.find(',').expect("ms is followed by more fields");
            rest = &after[end + 1..];
        }
        kept.push_str(rest);
        kept
    };
    let one = without_ms("1");
    assert_eq!(one.lines().count(), levels + 1, "{one}");
    assert_eq!(one, without_ms("2"));
    assert_eq!(one, without_ms("2"), "a second run differs");
}

#[test]
fn check_fails_on_a_shortcut_with_the_par_diff_and_bless_accepts_it() {
    let project = fixture_with_shortcut();
    let expectations = expectation_path("bloxorz", "hook");
    let original = project.read(&expectations);

    let (output, check) = seen(project.path(), &["check"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("check_shortcut", check);

    let json = json_lines(&project.puzzle_qa(&["check", "--json", "::par"]));
    assert_eq!(json.len(), 1);
    assert_eq!(json[0]["par"], 6);
    assert_eq!(json[0]["checks"]["par"]["ok"], false);

    let refused = project
        .command(&["bless"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    insta::assert_snapshot!("bless_refused_in_ci", transcript(&["bless"], &refused));
    assert_eq!(project.read(&expectations), original);

    let args = ["bless", "bloxorz::hook"];
    let blessed = project.command(&args).env("CI", "0").output().unwrap();
    // The designer's `optimal = true` route is now above par: bless leaves
    // that for a person, so the command still reports a failure.
    assert_eq!(blessed.status.code(), Some(1));
    insta::assert_snapshot!("bless_shortcut", transcript(&args, &blessed));
    let written = project.read(&expectations);
    assert!(written.contains("par = 6 # five rolls"), "{written}");
}

#[test]
fn check_with_a_path_that_does_not_exist_or_matches_nothing_exits_2() {
    let missing = level_path("bloxorz", "level99");
    let mut all = String::new();
    for args in [["check", missing.as_str()], ["check", "no-such-level"]] {
        let (output, seen) = seen(&fixture_project(), &args);
        assert_eq!(output.status.code(), Some(2), "{seen}");
        all.push_str(&seen);
        all.push('\n');
    }
    let empty = tempfile::tempdir().unwrap();
    let (nowhere, seen) = seen(empty.path(), &["check"]);
    assert_eq!(nowhere.status.code(), Some(2));
    all.push_str(&seen);
    insta::assert_snapshot!(all);
}

const ABLATE_LEVEL: &str = "\
name: Ablate me
#########
#B.p....#
#.......#
#D..J.q.#
###P#Q###
#...H..c#
#########
";

/// A project holding a Hug Maze level where Dudu pushes the jar onto plate
/// `q`, which opens gate `Q` for both bears; plate `p` and the cat are in
/// nobody's way. The level is `hugmaze/ablate.txt`, in its game's folder.
fn ablate_project() -> Project {
    let project = Project::new();
    project.write("hugmaze/ablate.txt", ABLATE_LEVEL);
    project
}

#[test]
fn ablate_json_has_the_contract_fields_and_only_mechanics_present() {
    let project = ablate_project();
    let file = "hugmaze/ablate.txt";
    let output = project.puzzle_qa(&["ablate", file, "--json", "--objects"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = &json_lines(&output)[0];
    assert_eq!(
        field_names(report),
        ["file", "game", "mechanics", "objects", "par"]
    );
    assert_eq!(report["game"], "hugmaze");
    let mut mechanics: Vec<&str> = report["mechanics"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // Printed in the rulebook's order.
    let text = stdout(&output);
    mechanics.sort_by_key(|name| text.find(&format!("\"{name}\":{{")).unwrap());
    assert_eq!(mechanics, ["jar", "plate", "gate", "cat"]);
    for (_, line) in report["mechanics"].as_object().unwrap() {
        let mut fields: Vec<&str> = line
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort();
        assert_eq!(fields, ["class", "par"]);
    }
    // The cat in the corner is a red herring.
    assert_eq!(report["mechanics"]["cat"]["class"], "decoration");
    assert_eq!(report["mechanics"]["cat"]["par"], report["par"]);
    let cat = report["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|object| object["mechanic"] == "cat")
        .unwrap();
    assert_eq!(cat["at"], serde_json::json!([5, 7]));
    assert_eq!(cat["replacement"], "floor");
    assert_eq!(cat["class"], "decoration");
    let objects = report["objects"].as_array().unwrap().len();
    assert_eq!(
        objects,
        1 + 2 + 2 + 1,
        "a jar, two plates, two gates, a cat"
    );
    let plate_p = &report["objects"][1];
    assert_eq!(plate_p["at"], serde_json::json!([1, 3]));
    assert_eq!(plate_p["class"], "decoration");

    let plain = project.puzzle_qa(&["ablate", file, "--json"]);
    assert_eq!(json_lines(&plain)[0]["objects"], serde_json::json!([]));
}

#[test]
fn ablate_prints_a_table_and_exits_1_when_a_class_is_unknown() {
    let project = ablate_project();
    project.copy_level("bloxorz", "level01");
    let file = "hugmaze/ablate.txt";
    let (output, table) = seen(project.path(), &["ablate", file]);
    assert_eq!(output.status.code(), Some(0), "{table}");
    let (limited, unknown) = seen(project.path(), &["ablate", file, "--limit", "20"]);
    assert_eq!(limited.status.code(), Some(1), "{unknown}");
    let (bloxorz, nothing) = seen(
        project.path(),
        &["ablate", &level_path("bloxorz", "level01")],
    );
    assert_eq!(bloxorz.status.code(), Some(0), "{nothing}");
    insta::assert_snapshot!(format!("{table}\n{unknown}\n{nothing}"));
}

#[test]
fn solve_reports_reachability_for_snack_run_with_the_contract_fields() {
    let springboard = level_path("snackrun", "02-springboard");
    let clean = in_fixture_project(&["solve", "--json", &springboard]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let line = &json_lines(&clean)[0];
    assert_eq!(line["status"], "ok");
    assert_eq!(line["goal"], serde_json::json!({"B": true, "D": true}));
    assert_eq!(line["unreachable_snacks"], serde_json::json!([]));

    let trap = support::fixture("snackrun/trap.txt");
    let trap = run(&[
        "solve",
        "--json",
        "--game",
        "snackrun",
        trap.to_str().unwrap(),
    ]);
    assert_eq!(trap.status.code(), Some(1), "problems exit 1");
    let line = &json_lines(&trap)[0];
    assert_eq!(
        field_names(line),
        [
            "file",
            "game",
            "goal",
            "shortfalls",
            "status",
            "traps",
            "unreachable_snacks"
        ]
    );
    assert_eq!(line["status"], "problems");
    assert_eq!(line["unreachable_snacks"], serde_json::json!([[0, 7]]));
    assert_eq!(line["traps"], serde_json::json!([[8, 5]]));
    assert_eq!(
        line["shortfalls"],
        serde_json::json!([{"snack": [0, 7], "from": [4, 7], "rise": 4, "sideways": 0}])
    );

    let ablate = in_fixture_project(&["ablate", "--json", &springboard]);
    assert_eq!(ablate.status.code(), Some(0), "{}", stderr(&ablate));
    let spring = &json_lines(&ablate)[0]["mechanics"]["spring"];
    assert_eq!(spring["class"], "essential");
    assert_eq!(
        spring["lost"],
        serde_json::json!(["goal: B", "goal: D", "snack: 3,12", "snack: 3,15"])
    );
}
