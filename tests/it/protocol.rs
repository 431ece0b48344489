//! Games over the process protocol from the command line: named with
//! `--game-manifest`, or found in the repository's `levels/*/game.toml`;
//! the same JSON as a built-in game's, bless and check, and a game process
//! that fails taking down only its own level's checks.

use crate::support::{
    Project, expectation_path, field_names, json_lines, level_file, puzzle_qa_in, repository,
    stderr, stdout,
};

/// Where the test game's manifest goes in a project: its level folder.
fn manifest_path() -> String {
    level_file("line", "game", "toml")
}

/// Whether `python3` runs here; the tests say so and check nothing if not.
fn python() -> bool {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!("python3 is not installed: these tests of the protocol check nothing");
    }
    found
}

/// The manifest of the protocol's Python test game, run from anywhere.
fn manifest() -> String {
    let script = repository().join("crates/protocol/tests/fixtures/line.py");
    format!(
        "name = \"line\"\ncommand = [\"python3\", {:?}]\n",
        script.display().to_string()
    )
}

#[test]
fn solve_with_a_game_manifest_prints_what_a_built_in_game_prints() {
    if !python() {
        return;
    }
    let project = Project::new();
    project.write("elsewhere/game.toml", manifest());
    project.write("some/where/ice.txt", "P~~~G\n");
    let out = project.puzzle_qa(&[
        "solve",
        "--game-manifest",
        "elsewhere/game.toml",
        "some/where/ice.txt",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = &json_lines(&out)[0];
    assert_eq!(
        field_names(line),
        [
            "bytes_per_state",
            "expanded",
            "file",
            "game",
            "kept_bytes",
            "ms",
            "par",
            "solution",
            "status",
            "stored"
        ]
    );
    assert_eq!(
        (line["game"].as_str(), line["par"].as_u64()),
        (Some("line"), Some(1))
    );
    assert_eq!(line["solution"], "R");

    let out = project.puzzle_qa(&[
        "replay",
        "--game-manifest",
        "elsewhere/game.toml",
        "some/where/ice.txt",
        "--moves",
        "L",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_lines(&out)[0]["failed_at"], 0);
}

#[test]
fn a_repositorys_own_manifest_is_found_blessed_and_checked() {
    if !python() {
        return;
    }
    let project = Project::new();
    project.write(&manifest_path(), manifest());
    project.level("line", "01-ice", "P~~~G\n");
    project.level("line", "02-walk", "P...G\n");
    let out = project.puzzle_qa(&["bless"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let written = project.read(&expectation_path("line", "01-ice"));
    assert!(
        written.contains("par = 1") && written.contains("ice = \"shortcut\""),
        "{written}"
    );
    let out = project.puzzle_qa(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        !stdout(&out).contains("game.toml"),
        "the manifest is no odd entry: {}",
        stdout(&out)
    );
    // The designer's edit fails its level's trials, and no other's.
    project.level("line", "02-walk", "P....G\n");
    let out = project.puzzle_qa(&["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("line::02-walk::par"),
        "{}",
        stdout(&out)
    );
    assert!(
        !stdout(&out).contains("line::01-ice::par"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_game_that_crashes_on_one_level_fails_that_levels_checks_only() {
    if !python() {
        return;
    }
    let project = Project::new();
    project.write(&manifest_path(), manifest());
    project.level("line", "01-fine", "P.G\n");
    project.level("line", "02-trapdoor", "P!G\n");
    let out = project.puzzle_qa(&["check", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&out);
    let of = |level: &str| {
        lines
            .iter()
            .find(|line| line["file"].as_str().is_some_and(|f| f.contains(level)))
            .unwrap_or_else(|| panic!("no line for {level}: {lines:?}"))
            .clone()
    };
    let fine = of("01-fine");
    assert_eq!(fine["par"], 2, "{fine}");
    let broken = of("02-trapdoor").to_string();
    assert!(broken.contains("exited with status 4"), "{broken}");
    assert!(broken.contains("the floor gave way"), "{broken}");
}

#[test]
fn a_broken_manifest_is_bad_input_at_its_line() {
    let project = Project::new();
    project.write(&manifest_path(), "name = \"line\"\ncommand = \"python3\"\n");
    let out = project.puzzle_qa(&["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("game.toml:2:"), "{}", stderr(&out));
    let elsewhere = Project::new();
    let out = puzzle_qa_in(
        elsewhere.path(),
        &["solve", "--game-manifest", "nowhere.toml", "x.txt"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nowhere.toml"), "{}", stderr(&out));
}

#[test]
fn a_suggested_command_repeats_the_game_manifest_it_needs() {
    if !python() {
        return;
    }
    let project = Project::new();
    project.write("elsewhere/game.toml", manifest());
    project.level("line", "02-walk", "P...G\n");
    let flag = ["--game-manifest", "elsewhere/game.toml"];
    let out = project.puzzle_qa(&[&flag[..], &["bless"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    project.level("line", "02-walk", "P....G\n");
    let out = project.puzzle_qa(&[&flag[..], &["check"]].concat());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "to accept: `puzzle-qa --game-manifest elsewhere/game.toml bless line::02-walk::par`"
        ),
        "{text}"
    );
    assert!(
        text.contains("review it with `puzzle-qa --game-manifest elsewhere/game.toml review`"),
        "{text}"
    );
    // The command as suggested does what it says.
    let out = project.puzzle_qa(&[&flag[..], &["review", "--accept"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = project.puzzle_qa(&[&flag[..], &["check"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}
