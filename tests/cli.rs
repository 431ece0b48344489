//! The `puzzle-qa` binary: its output formats and exit statuses (a contract
//! that scripts depend on).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn level(name: &str) -> String {
    format!("{}/levels/bloxorz/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}

/// `replay FILE --moves MOVES --json`: the exit status and the one report.
fn replay_json(file: &str, moves: &str) -> (Option<i32>, Value) {
    let output = run(&["replay", file, "--moves", moves, "--json"]);
    let mut lines = json_lines(&output);
    assert_eq!(lines.len(), 1, "{}", stderr(&output));
    (output.status.code(), lines.remove(0))
}

/// A level file written into `<temp>/bloxorz/<name>`, so its game is inferred.
fn scratch_level(dir: &Path, name: &str, text: &str) -> PathBuf {
    let folder = dir.join("bloxorz");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn solve_json_prints_one_object_per_level_with_the_contract_fields() {
    let output = run(&[
        "solve",
        "--json",
        &level("level01.txt"),
        &level("level08.txt"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    let first = lines[0].as_object().unwrap();
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    let mut expected = [
        "file", "game", "status", "par", "expanded", "stored", "ms", "solution",
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
    for name in ["level09.txt", "level16.txt", "level33.txt"] {
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
    let output = run(&["solve", &level("level01.txt"), &level("level02.txt")]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let header = text.lines().next().unwrap();
    for column in [
        "level", "status", "par", "expanded", "stored", "ms", "solution",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert!(text.contains("2 of 2 levels solved"), "{text}");
}

#[test]
fn an_unsolvable_level_or_a_reached_limit_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let walled = scratch_level(dir.path(), "walled.txt", "s p x e\n");
    let output = run(&["solve", "--json", walled.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let line = &json_lines(&output)[0];
    assert_eq!(line["status"], "unsolvable");
    assert_eq!(line["par"], Value::Null);
    assert_eq!(line["solution"], Value::Null);

    let limited = run(&["solve", "--json", "--limit", "50", &level("level10.txt")]);
    assert_eq!(limited.status.code(), Some(1));
    let line = &json_lines(&limited)[0];
    assert_eq!(line["status"], "limit");
    assert!(line["stored"].as_u64().unwrap() <= 50);
}

#[test]
fn bad_input_exits_2_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let bad = scratch_level(dir.path(), "bad.txt", "s p p\np q e\n");
    let output = run(&["solve", bad.to_str().unwrap(), &level("level01.txt")]);
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(errors.contains("error: unknown tile `q`"), "{errors}");
    assert!(errors.contains("bad.txt:2:3"), "{errors}");
    // The good level is still solved and shown.
    assert!(stdout(&output).contains("level01.txt"));

    let missing = run(&["solve", "no/such/level.txt", "--game", "bloxorz"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read no/such/level.txt"));

    let unknown_game = run(&["solve", bad.to_str().unwrap(), "--game", "chess"]);
    assert_eq!(unknown_game.status.code(), Some(2));
    assert!(stderr(&unknown_game).contains("unknown game `chess`"));

    let nowhere = dir.path().join("level.txt");
    std::fs::write(&nowhere, "s p e\n").unwrap();
    let uninferred = run(&["solve", nowhere.to_str().unwrap()]);
    assert_eq!(uninferred.status.code(), Some(2));
    assert!(stderr(&uninferred).contains("--game"));

    let binary = scratch_level(dir.path(), "binary.txt", "");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x9f]).unwrap();
    let output = run(&["solve", binary.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not a text file"));
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
    assert_eq!(
        run(&["replay", &level("level01.txt")]).status.code(),
        Some(2)
    );
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

#[test]
fn replay_reports_a_win_and_its_move_count() {
    let output = run(&["replay", &level("level01.txt"), "--moves", "R2 D R3 D"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).contains("wins in 7 moves"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn replay_json_says_where_a_move_list_fails() {
    // Level 1: `S` with a whole block does nothing but counts as a single
    // move, so the fall off the top edge is index 2.
    let (status, report) = replay_json(&level("level01.txt"), "R S U");
    assert_eq!(status, Some(1));
    assert_eq!(report["won"], false);
    assert_eq!(report["moves"], 1);
    assert_eq!(report["failed_at"], 2);
    assert_eq!(report["reason"], "falls off: no tile at (row 0, column 3)");
    assert!(report["file"].as_str().unwrap().ends_with("level01.txt"));

    // Level 1: the third roll falls off the top edge; `R2` counts as two
    // single moves, so the failing one has index 2.
    let (_, fallen) = replay_json(&level("level01.txt"), "R2 U");
    assert_eq!(fallen["failed_at"], 2);
    assert!(fallen["reason"].as_str().unwrap().starts_with("falls off"));

    let (status, report) = replay_json(&level("level01.txt"), "R2");
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
    let (status, report) = replay_json(&level("level01.txt"), "R2 D R3 D L");
    assert_eq!(status, Some(0));
    assert_eq!(report["won"], true);
    assert_eq!(report["moves"], 7);
    assert_eq!(report["failed_at"], 7);
    assert!(report["reason"].as_str().unwrap().contains("already won"));
}

#[test]
fn replay_of_unreadable_moves_exits_2_with_the_column() {
    let output = run(&["replay", &level("level01.txt"), "--moves", "R2 X"]);
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(errors.contains("unknown move `X`"), "{errors}");
    assert!(errors.contains("--moves:1:4"), "{errors}");
}

/// Runs the binary in `dir` with `CI` set to `ci` (or unset), whatever the
/// environment of this test process.
fn run_in(dir: &Path, ci: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"));
    command.current_dir(dir).args(args).env_remove("CI");
    if let Some(ci) = ci {
        command.env("CI", ci);
    }
    command.output().expect("the binary runs")
}

/// A copy of the harness fixture project, with a shortcut opened in its level.
fn fixture_with_shortcut() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/harness");
    for file in ["levels/bloxorz/hook.txt", "expectations/bloxorz/hook.toml"] {
        let target = dir.path().join(file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(fixture.join(file), target).unwrap();
    }
    let level = dir.path().join("levels/bloxorz/hook.txt");
    let text = std::fs::read_to_string(&level).unwrap();
    std::fs::write(&level, text.replacen("p p p x x x", "p p p p x x", 1)).unwrap();
    dir
}

#[test]
fn check_passes_on_the_repository_with_the_contract_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = run_in(root, None, &["check", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&output);
    let levels: usize = ["levels/bloxorz", "levels/hugmaze", "levels/snackrun"]
        .iter()
        .map(|folder| std::fs::read_dir(root.join(folder)).unwrap().count())
        .sum();
    assert!(levels >= 33 + 16 + 5, "{levels} level files");
    assert_eq!(lines.len(), levels + 1, "every level, then orphans");
    let first = lines[0].as_object().unwrap();
    assert_eq!(
        common::field_names(&lines[0]),
        [
            "checks", "expanded", "file", "game", "ms", "par", "status", "stored"
        ]
    );
    // Levels come sorted by game, then file name.
    let mut bloxorz: Vec<String> = std::fs::read_dir(root.join("levels/bloxorz"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    bloxorz.sort();
    assert_eq!(first["file"], format!("levels/bloxorz/{}", bloxorz[0]));
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let without_ms = |threads: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
            .current_dir(root)
            .args(["check", "--json"])
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
    assert!(one.lines().count() > 40, "{one}");
    assert_eq!(one, without_ms("2"));
    assert_eq!(one, without_ms("2"), "a second run differs");
}

#[test]
fn check_fails_on_a_shortcut_with_the_par_diff_and_bless_accepts_it() {
    let dir = fixture_with_shortcut();
    let expectations = dir.path().join("expectations/bloxorz/hook.toml");
    let original = std::fs::read_to_string(&expectations).unwrap();

    let output = run_in(dir.path(), None, &["check"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("-par = 11 #") && text.contains("+par = 6 #"),
        "{text}"
    );
    assert!(
        text.contains("`puzzle-qa bless bloxorz::hook::par`"),
        "{text}"
    );

    let json = json_lines(&run_in(dir.path(), None, &["check", "--json", "::par"]));
    assert_eq!(json.len(), 1);
    assert_eq!(json[0]["par"], 6);
    assert_eq!(json[0]["checks"]["par"]["ok"], false);

    let refused = run_in(dir.path(), Some("true"), &["bless"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("bless refused"));
    assert_eq!(std::fs::read_to_string(&expectations).unwrap(), original);

    let blessed = run_in(dir.path(), Some("0"), &["bless", "bloxorz::hook"]);
    // The designer's `optimal = true` route is now above par: bless leaves
    // that for a person, so the command still reports a failure.
    assert_eq!(blessed.status.code(), Some(1));
    assert!(stdout(&blessed).contains("par: 11 → 6"));
    let written = std::fs::read_to_string(&expectations).unwrap();
    assert!(written.contains("par = 6 # five rolls"), "{written}");
}

#[test]
fn check_with_a_path_that_does_not_exist_or_matches_nothing_exits_2() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing = run_in(root, None, &["check", "levels/bloxorz/level99.txt"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no such file"));
    let nothing = run_in(root, None, &["check", "no-such-level"]);
    assert_eq!(nothing.status.code(), Some(2));
    let empty = tempfile::tempdir().unwrap();
    let nowhere = run_in(empty.path(), None, &["check"]);
    assert_eq!(nowhere.status.code(), Some(2));
    assert!(stderr(&nowhere).contains("no levels/ folder here"));
}

/// A Hug Maze level where Dudu pushes the jar onto plate `q`, which opens
/// gate `Q` for both bears; plate `p` and the cat are in nobody's way.
fn hugmaze_level(dir: &Path, text: &str) -> PathBuf {
    let folder = dir.join("hugmaze");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("ablate.txt");
    std::fs::write(&path, text).unwrap();
    path
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

#[test]
fn ablate_json_has_the_contract_fields_and_only_mechanics_present() {
    let dir = tempfile::tempdir().unwrap();
    let file = hugmaze_level(dir.path(), ABLATE_LEVEL);
    let file = file.to_str().unwrap();
    let output = run(&["ablate", file, "--json", "--objects"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = &json_lines(&output)[0];
    assert_eq!(
        common::field_names(report),
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

    let plain = run(&["ablate", file, "--json"]);
    assert_eq!(json_lines(&plain)[0]["objects"], serde_json::json!([]));
}

#[test]
fn ablate_prints_a_table_and_exits_1_when_a_class_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let file = hugmaze_level(dir.path(), ABLATE_LEVEL);
    let file = file.to_str().unwrap();
    let output = run(&["ablate", file]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("cat       floor        decoration"), "{text}");
    let limited = run(&["ablate", file, "--limit", "20"]);
    assert_eq!(limited.status.code(), Some(1));
    assert!(
        stderr(&limited).contains("every class is unknown"),
        "{}",
        stderr(&limited)
    );
    let bloxorz = run(&["ablate", &level("level01.txt")]);
    assert_eq!(bloxorz.status.code(), Some(0));
    assert!(stdout(&bloxorz).contains("no mechanics to ablate"));
}

#[test]
fn solve_reports_reachability_for_snack_run_with_the_contract_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let clean = run_in(
        root,
        None,
        &["solve", "--json", "levels/snackrun/02-springboard.txt"],
    );
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let line = &json_lines(&clean)[0];
    assert_eq!(line["status"], "ok");
    assert_eq!(line["goal"], serde_json::json!({"B": true, "D": true}));
    assert_eq!(line["unreachable_snacks"], serde_json::json!([]));

    let trap = run_in(
        root,
        None,
        &[
            "solve",
            "--json",
            "--game",
            "snackrun",
            "tests/fixtures/snackrun/trap.txt",
        ],
    );
    assert_eq!(trap.status.code(), Some(1), "problems exit 1");
    let line = &json_lines(&trap)[0];
    assert_eq!(
        common::field_names(line),
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

    let ablate = run_in(
        root,
        None,
        &["ablate", "--json", "levels/snackrun/02-springboard.txt"],
    );
    assert_eq!(ablate.status.code(), Some(0), "{}", stderr(&ablate));
    let spring = &json_lines(&ablate)[0]["mechanics"]["spring"];
    assert_eq!(spring["class"], "essential");
    assert_eq!(
        spring["lost"],
        serde_json::json!(["goal: B", "goal: D", "snack: 3,12", "snack: 3,15"])
    );
}
