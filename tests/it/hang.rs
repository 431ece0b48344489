//! A PuzzleScript game with a move whose `again` turns never stop
//! (crates/puzzlescript/tests/fixtures/hang/bounce.txt), as a designer with
//! that one file meets it: `solve --json` and `check --json` name the hang,
//! `solvable` fails with the command that replays it, that command is
//! refused at the last move, ablation classes nothing on a level that hangs
//! and calls a rule whose removal makes the game hang essential, and the
//! hang named is the same whatever the thread count.

use serde_json::Value;

use crate::support::{Project, field_names, json_lines, puzzle_qa_in, repository, stderr, stdout};

/// The game, written into a project's folder as a designer keeps it.
fn designer() -> Project {
    let project = Project::new();
    let source = repository().join("crates/puzzlescript/tests/fixtures/hang/bounce.txt");
    project.write("bounce.txt", std::fs::read(source).unwrap());
    project
}

/// The rule line that keeps asking for another turn.
const AGAIN: &str = "line 82: late [ Player Trigger ] -> [ Player Trigger ] again";

/// Level `n`'s line of a JSON output.
fn level(lines: &[Value], n: u64) -> &Value {
    lines
        .iter()
        .find(|line| line["level"] == n)
        .unwrap_or_else(|| panic!("no level {n} in {lines:?}"))
}

#[test]
fn solve_json_names_the_hang_and_calls_no_level_with_one_unsolvable() {
    let project = designer();
    let out = project.puzzle_qa(&["solve", "bounce.txt", "--json"]);
    assert_eq!(out.status.code(), Some(1), "a hang fails: {}", stderr(&out));
    let lines = json_lines(&out);
    // Solved, and a hang on the way to the win.
    let first = level(&lines, 1);
    assert_eq!(
        field_names(first),
        [
            "bytes_per_state",
            "expanded",
            "file",
            "game",
            "hang",
            "kept_bytes",
            "level",
            "ms",
            "par",
            "solution",
            "status",
            "stored"
        ]
    );
    assert_eq!(
        (&first["status"], &first["par"]),
        (&"solved".into(), &3.into())
    );
    assert_eq!(first["hang"]["moves"], "LL");
    let reason = first["hang"]["reason"].as_str().unwrap();
    assert!(reason.contains(AGAIN), "{reason}");
    // No win, and a hang in the way: not unsolvable.
    let second = level(&lines, 2);
    assert_eq!(
        (&second["status"], &second["par"]),
        (&"hang".into(), &Value::Null)
    );
    assert_eq!(second["hang"]["moves"], "RR");
    // The search stops at the first win: no hang met, no field.
    for n in [3, 4] {
        assert!(level(&lines, n).get("hang").is_none(), "{lines:?}");
    }

    let out = project.puzzle_qa(&["solve", "bounce.txt", "--level", "2"]);
    let text = stdout(&out);
    assert!(text.contains("level 2"), "{text}");
    assert!(text.contains(" hang "), "{text}");
    assert!(
        text.contains("a move never settles: the game keeps setting off `again` turns"),
        "{text}"
    );
    assert!(text.contains("reached by the fewest moves `RR`"), "{text}");
}

#[test]
fn check_fails_with_the_hang_bless_cannot_fix_and_its_replay_is_refused_at_the_last_move() {
    let project = designer();
    let out = project.puzzle_qa(&["bless", "bounce.txt"]);
    assert_eq!(out.status.code(), Some(1), "bless cannot fix a hang");
    // Bless records what the search found, a hang's status too.
    let expectations = project.read("bounce.expectations.toml");
    assert!(expectations.contains("[2]\n"), "{expectations}");
    assert!(expectations.contains("status = \"hang\""), "{expectations}");

    let out = project.puzzle_qa(&["check", "bounce.txt", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&out);
    let first = level(&lines, 1);
    assert_eq!(first["status"], "solved");
    assert_eq!(first["hang"]["moves"], "LL");
    let solvable = &first["checks"]["solvable"];
    assert_eq!(solvable["ok"], false);
    let message = solvable["message"].as_str().unwrap();
    assert!(
        message.starts_with("a move never settles, so a player who makes it is stuck: "),
        "{message}"
    );
    assert!(message.contains(AGAIN), "{message}");
    let command = "puzzle-qa replay bounce.txt --level 1 --moves LL";
    assert!(message.contains(&format!("`{command}`")), "{message}");
    // The level's par, solution and routes are as the search found them.
    for check in ["par", "replay", "routes"] {
        assert_eq!(first["checks"][check]["ok"], true, "{check}: {first}");
    }
    // A level that hangs gets no classes, and says where the hang is told.
    let ablation = first["checks"]["ablation"]["message"].as_str().unwrap();
    assert!(ablation.starts_with("no classes: "), "{ablation}");
    assert!(
        ablation.contains("`puzzlescript::bounce::1::solvable`"),
        "{ablation}"
    );

    let second = level(&lines, 2);
    assert_eq!(second["status"], "hang");
    let message = second["checks"]["solvable"]["message"].as_str().unwrap();
    assert!(
        message.contains("no win was found among the moves that settle"),
        "{message}"
    );

    // A hang beyond the first win: the exploration for dead rules meets it,
    // and ablation tells it, once.
    let third = level(&lines, 3);
    assert_eq!(
        (&third["status"], &third["par"]),
        (&"solved".into(), &1.into())
    );
    assert_eq!(third["checks"]["solvable"]["ok"], true);
    assert_eq!(third["hang"]["moves"], "RRRR");
    let ablation = third["checks"]["ablation"]["message"].as_str().unwrap();
    assert!(ablation.contains("`RRRR`"), "{ablation}");
    assert!(ablation.contains("met beyond the first win"), "{ablation}");

    // Level 4 settles everywhere; what keeps it settled is essential, and
    // the note says why even once that is declared.
    let fourth = level(&lines, 4);
    assert!(fourth.get("hang").is_none(), "{fourth}");
    let checks = fourth["checks"].as_object().unwrap();
    assert!(checks.values().all(|check| check["ok"] == true), "{fourth}");
    let notes = checks["ablation"]["message"].as_str().unwrap();
    assert!(
        notes.contains("`Plug` is essential: without it, a move never settles, reached by `R`"),
        "{notes}"
    );

    // The command the message names, run where it was printed: refused at
    // the last move, for the same reason.
    let args: Vec<&str> = command.split(' ').skip(1).chain(["--json"]).collect();
    let out = puzzle_qa_in(project.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    let replayed = &json_lines(&out)[0];
    assert_eq!(
        (&replayed["won"], &replayed["failed_at"]),
        (&false.into(), &1.into())
    );
    assert_eq!(replayed["reason"], first["hang"]["reason"]);
}

#[test]
fn ablate_classes_nothing_on_a_level_that_hangs_and_calls_what_keeps_the_game_settled_essential() {
    let project = designer();
    let out = project.puzzle_qa(&["ablate", "bounce.txt", "--level", "1", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = &json_lines(&out)[0];
    assert_eq!(report["hang"]["moves"], "LL");
    assert_eq!(report["mechanics"], serde_json::json!({}));
    assert!(
        stderr(&out).contains("nothing is classed"),
        "{}",
        stderr(&out)
    );

    // Level 4: the plug's rule and the plug itself keep the trigger from
    // ever holding the player; without either, the first step right hangs.
    let out = project.puzzle_qa(&["ablate", "bounce.txt", "--level", "4", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = &json_lines(&out)[0];
    assert!(report.get("hang").is_none(), "{report}");
    let mechanics = report["mechanics"].as_object().unwrap();
    let (rule, plug_rule) = mechanics
        .iter()
        .find(|(name, _)| name.contains("[ player trigger ] [ plug ] -> [ player ] [ plug ]"))
        .expect("the plug's rule is a mechanic");
    for (name, line) in [(rule.as_str(), plug_rule), ("Plug", &mechanics["Plug"])] {
        assert_eq!(line["class"], "essential", "{name}");
        assert_eq!(
            line["par"],
            Value::Null,
            "{name}: a copy that hangs has no par"
        );
        assert_eq!(line["hang"]["moves"], "R", "{name}");
    }
    // A copy that settles still has its par.
    assert_eq!(mechanics["Trigger"]["class"], "decoration");
    assert_eq!(mechanics["Trigger"]["par"], 2);
}

#[test]
fn the_hang_named_is_the_same_whatever_the_thread_count() {
    let project = designer();
    let run = |threads: &str| {
        let out = project
            .command(&["check", "bounce.txt", "--json", "--check"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        json_lines(&out)
            .into_iter()
            .filter(|line| line.get("level").is_some())
            .map(|line| {
                (
                    line["level"].clone(),
                    line["hang"].clone(),
                    line["checks"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 4);
    assert_eq!(run("4"), one);
}
