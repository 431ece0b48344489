//! `puzzle-qa replay` on PuzzleScript files: one level of a file of many,
//! the move notation, the JSON fields scripts read, and the errors; `solve`
//! of every level, and `show` of one.

use std::path::{Path, PathBuf};

use crate::support::{json_lines, puzzle_qa_in, repository, stderr, stdout};

/// A PuzzleScript game of the engine's own fixtures.
fn game(name: &str) -> PathBuf {
    repository()
        .join("crates/puzzlescript/tests/fixtures/puzzlescript")
        .join(format!("{name}.txt"))
}

fn replay(file: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["replay", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    puzzle_qa_in(repository(), &args)
}

#[test]
fn a_winning_replay_reports_the_level_and_its_cells() {
    let out = replay(
        &game("push"),
        &["--game", "puzzlescript", "--moves", "r R", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = &json_lines(&out)[0];
    let mut names: Vec<&str> = line
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "cells",
            "failed_at",
            "file",
            "level",
            "moves",
            "reason",
            "won"
        ]
    );
    assert_eq!(line["won"], true);
    assert_eq!(line["moves"], 2);
    assert_eq!(line["level"], 1);
    // The crate sits on the target at the right; the player beside it.
    let cells = line["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3, "three rows");
    assert_eq!(
        cells[1][4],
        serde_json::json!(["background", "crate", "target"])
    );
    assert_eq!(cells[1][3], serde_json::json!(["background", "player"]));
    assert_eq!(cells[0][0], serde_json::json!(["background", "wall"]));
}

#[test]
fn levels_count_grid_levels_from_one_and_moves_after_the_win_are_spare() {
    // Level 3 is the grid after the message: messages are not levels.
    let out = replay(
        &game("push"),
        &[
            "--game",
            "puzzlescript",
            "--level",
            "3",
            "--moves",
            "RR",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = &json_lines(&out)[0];
    assert_eq!(
        (
            line["won"].clone(),
            line["moves"].clone(),
            line["failed_at"].clone()
        ),
        (true.into(), 1.into(), 1.into())
    );
    assert_eq!(line["level"], 3);
}

#[test]
fn the_text_form_draws_the_level_after_each_move_in_the_legends_characters() {
    let out = replay(&game("push"), &["--game", "puzzlescript", "--moves", "L"]);
    assert_eq!(out.status.code(), Some(1), "not won: exit 1");
    let text = stdout(&out);
    assert!(
        text.contains("level 1: start\n######\n#PC.T#\n######\n"),
        "{text}"
    );
    assert!(
        text.contains("after move 1 (L)\n######\n#PC.T#\n"),
        "{text}"
    );
    assert!(
        text.contains("level 1: does not win (1 counted moves)"),
        "{text}"
    );
}

#[test]
fn a_file_standing_alone_is_told_by_its_section_headers() {
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("mygame.txt");
    std::fs::copy(game("push"), &alone).unwrap();
    let out = replay(&alone, &["--moves", "RR", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json_lines(&out)[0]["won"], true);
}

#[test]
fn bad_levels_moves_and_flags_are_bad_input() {
    let out = replay(
        &game("push"),
        &["--game", "puzzlescript", "--level", "9", "--moves", "R"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has 3 levels; there is no level 9"),
        "{}",
        stderr(&out)
    );

    let out = replay(
        &game("locked"),
        &["--game", "puzzlescript", "--moves", "RX"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no action move (its prelude says noaction)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--> --moves:1:2"), "{}", stderr(&out));

    let out = replay(
        &game("push"),
        &["--game", "puzzlescript", "--level", "0", "--moves", "R"],
    );
    assert_eq!(out.status.code(), Some(2), "levels count from 1");

    let bloxorz = repository().join("crates/bloxorz/tests/fixtures/official/level01.txt");
    let out = replay(
        &bloxorz,
        &["--game", "bloxorz", "--level", "2", "--moves", "R"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--level picks a level of a file of many levels"),
        "{}",
        stderr(&out)
    );
    let out = replay(
        &bloxorz,
        &["--game", "bloxorz", "--seed", "7", "--moves", "R"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--seed seeds a game's random generator; bloxorz levels have none"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_game_that_does_not_compile_is_refused_with_its_line() {
    let broken = repository().join("crates/puzzlescript/tests/fixtures/puzzlescript/broken");
    let file = std::fs::read_dir(&broken)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "txt"))
        .expect("a broken fixture game");
    let out = replay(&file, &["--game", "puzzlescript", "--moves", "R"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("error:") && stderr(&out).contains(" --> "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn solve_gives_every_level_of_a_file_its_own_line() {
    let out = puzzle_qa_in(
        repository(),
        &[
            "solve",
            game("push").to_str().unwrap(),
            "--game",
            "puzzlescript",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    let levels: Vec<u64> = lines.iter().map(|l| l["level"].as_u64().unwrap()).collect();
    assert_eq!(levels, [1, 2, 3], "message entries are not levels");
    assert!(
        lines
            .iter()
            .all(|l| l["status"] == "solved" && l["game"] == "puzzlescript")
    );
    assert_eq!(lines[0]["par"], 2);
    assert_eq!(lines[0]["solution"], "RR");

    let out = puzzle_qa_in(
        repository(),
        &[
            "solve",
            game("random").to_str().unwrap(),
            "--game",
            "puzzlescript",
            "--level",
            "1",
            "--json",
        ],
    );
    let line = &json_lines(&out)[0];
    assert_eq!(
        (line["status"].clone(), line["par"].clone()),
        ("random".into(), serde_json::Value::Null),
        "no fake par"
    );
    assert!(stderr(&out).contains("uses randomness"), "{}", stderr(&out));
}

#[test]
fn show_draws_a_level_of_a_file_in_the_games_own_art() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, html) = (dir.path().join("l2.svg"), dir.path().join("l2.html"));
    let out = puzzle_qa_in(
        repository(),
        &[
            "show",
            game("push").to_str().unwrap(),
            "--game",
            "puzzlescript",
            "--level",
            "2",
            "--svg",
            svg.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).unwrap();
    roxmltree::Document::parse(&picture).unwrap();
    // Each cell is a picture of its objects drawn once, and the player's
    // path is numbered.
    assert!(picture.contains("<defs>\n<g id=\"p"), "{picture}");
    assert!(picture.contains("<title>crate</title>"), "{picture}");
    assert!(picture.contains("<title>player</title>"), "{picture}");
    assert!(picture.contains(">step number</text>"), "{picture}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("push.txt level 2"),
        "the title names the level"
    );

    // The terminal picture is the replay's, in the legend's characters.
    let out = puzzle_qa_in(
        repository(),
        &[
            "show",
            game("push").to_str().unwrap(),
            "--game",
            "puzzlescript",
            "--moves",
            "L",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "not won: exit 1");
    let text = stdout(&out);
    assert!(text.starts_with("######\n#PC.T#\n######\n"), "{text}");
    assert!(
        text.contains("key: # wall, . background, C crate, T target, P player\n"),
        "{text}"
    );

    let out = puzzle_qa_in(
        repository(),
        &[
            "show",
            game("push").to_str().unwrap(),
            "--game",
            "puzzlescript",
            "--level",
            "4",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has 3 levels; there is no level 4"),
        "{}",
        stderr(&out)
    );
    let bloxorz = repository().join("crates/bloxorz/tests/fixtures/official/level01.txt");
    let out = puzzle_qa_in(
        repository(),
        &[
            "show",
            bloxorz.to_str().unwrap(),
            "--game",
            "bloxorz",
            "--level",
            "2",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--level picks a level of a file of many levels"),
        "{}",
        stderr(&out)
    );
}

/// A copy of the fixture game `name` as a bare file in a folder of its own
/// (no repository around it): what a designer with one game file has.
fn bare(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mygame.txt");
    std::fs::copy(game(name), &file).unwrap();
    (dir, file)
}

#[test]
fn a_bare_game_file_is_checked_then_blessed_beside_itself() {
    let (dir, file) = bare("push");
    let path = file.to_str().unwrap();
    // Before its first bless it reports every level, and does not fail.
    let out = puzzle_qa_in(dir.path(), &["check", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("puzzlescript::mygame::1"),
        "{}",
        stdout(&out)
    );
    assert!(!dir.path().join("mygame.expectations.toml").exists());
    let out = puzzle_qa_in(dir.path(), &["bless", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(dir.path().join("mygame.expectations.toml")).unwrap();
    assert!(written.starts_with("[1]\n"), "{written}");
    assert!(written.contains("fingerprint = "), "{written}");
    // Now the expectations hold it: an edit that changes a par fails.
    let out = puzzle_qa_in(dir.path(), &["check", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let edited = written.replacen("par = ", "par = 9", 1);
    std::fs::write(dir.path().join("mygame.expectations.toml"), edited).unwrap();
    let out = puzzle_qa_in(dir.path(), &["check", path]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}

#[test]
fn ablate_names_the_level_each_rules_line_and_the_dead_ones() {
    let (dir, file) = bare("push");
    let out = puzzle_qa_in(
        dir.path(),
        &["ablate", file.to_str().unwrap(), "--level", "1", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = &json_lines(&out)[0];
    assert_eq!(line["level"], 1);
    let mechanics = line["mechanics"].as_object().unwrap();
    let rules: Vec<(&String, &serde_json::Value)> = mechanics
        .iter()
        .filter(|(name, _)| name.starts_with("rule: "))
        .collect();
    assert!(!rules.is_empty(), "{line}");
    // Level 1 has one crate, so the crate-pushes-crate rule never fires.
    assert!(
        rules.iter().any(|(_, entry)| entry["dead"] == true),
        "{line}"
    );
    let source = std::fs::read_to_string(&file).unwrap();
    for (name, entry) in &rules {
        // Named by its text, lowercased and spaced as the compiler reads
        // it; its line says where it is.
        let number = entry["line"].as_u64().unwrap() as usize;
        let written = source.lines().nth(number - 1).unwrap();
        let words = |text: &str| {
            text.to_lowercase()
                .replace('[', " [ ")
                .replace(']', " ] ")
                .replace('|', " | ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(name.strip_prefix("rule: "), Some(words(written).as_str()));
        // A dead rule is decoration, found without a search.
        if entry["dead"] == true {
            assert_eq!(entry["class"], "decoration", "{name}");
        }
    }
    let out = puzzle_qa_in(
        dir.path(),
        &["ablate", file.to_str().unwrap(), "--level", "99"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("there is no level 99"),
        "{}",
        stderr(&out)
    );
}

/// A real-time game, standing alone, whose ball rolls one cell right on
/// each tick while the walled-in player can only wait.
fn ticking(dir: &Path, directive: &str) -> PathBuf {
    let file = dir.join(format!("ticking{}.txt", directive.len()));
    let source = format!(
        "title ticking\nrealtime_interval 0.5\nnoaction\n{directive}\n\n\
         OBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nBall\nred\n\nGoal\nblue\n\n\
         LEGEND\n\n. = Background\n# = Wall\nP = Player\nB = Ball\nG = Goal\n\nSOUNDS\n\n\
         COLLISIONLAYERS\n\nBackground\nGoal\nPlayer, Wall, Ball\n\n\
         RULES\n\n[ stationary Player ] [ Ball ] -> [ Player ] [ right Ball ]\n\n\
         WINCONDITIONS\n\nall Ball on Goal\n\nLEVELS\n\n#####\n#P###\n#B.G#\n#####\n"
    );
    std::fs::write(&file, source).unwrap();
    file
}

#[test]
fn a_real_time_game_counts_ticks_as_moves_once_its_designer_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |file: &Path| {
        let out = puzzle_qa_in(dir.path(), &["solve", file.to_str().unwrap(), "--json"]);
        json_lines(&out).remove(0)
    };
    let plain = ticking(dir.path(), "");
    let line = solve(&plain);
    assert_eq!(line["status"], "realtime");
    assert_eq!(line["par"], serde_json::Value::Null);
    let out = puzzle_qa_in(
        dir.path(),
        &["replay", plain.to_str().unwrap(), "--moves", "TT"],
    );
    assert_eq!(out.status.code(), Some(2), "no tick without the line");
    assert!(
        stderr(&out).contains("(puzzle-qa: a tick is a move)"),
        "{}",
        stderr(&out)
    );

    let counted = ticking(dir.path(), "(puzzle-qa: a tick is a move)");
    let line = solve(&counted);
    assert_eq!(line["status"], "solved");
    assert_eq!(line["par"], 2);
    assert_eq!(line["solution"], "TT");
    let out = puzzle_qa_in(
        dir.path(),
        &["replay", counted.to_str().unwrap(), "--moves", "t t"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("after move 2 (T)"),
        "{}",
        stdout(&out)
    );
}
