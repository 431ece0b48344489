//! A game file on its own: a designer with `mygame.txt` and the binary, in a
//! folder with no repository around it (no `levels/`, no git). The whole
//! loop works there: check before the first bless, bless, review, levels
//! inserted and deleted, and every command a message suggests works where
//! it is printed.

use std::process::Output;

use serde_json::Value;

use crate::support::{Project, json_lines, stderr, stdout};

/// A PuzzleScript Sokoban of one rule, without its levels.
const RULES: &str = "\
title Tiny Crates
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
";

/// A corridor level whose par is `par`: the crate is pushed `par` cells
/// right onto its target. Levels of different pars differ in text, so in
/// fingerprint.
fn corridor(par: usize) -> String {
    let wall = "#".repeat(par + 4);
    format!("{wall}\n#P*{}o#\n{wall}\n", ".".repeat(par - 1))
}

/// The game with one corridor level per par in `pars`, in order.
fn game(pars: &[usize]) -> String {
    let mut text = RULES.to_string();
    for par in pars {
        text.push('\n');
        text.push_str(&corridor(*par));
    }
    text
}

/// Where the game file is in its folder: `games/mygame.txt`, so that a test
/// can run commands both beside it and from the folder above.
const FILE: &str = "games/mygame.txt";
const EXPECTATIONS: &str = "games/mygame.expectations.toml";

/// A designer's folder with the game of `pars` in `games/mygame.txt`.
fn designer(pars: &[usize]) -> Project {
    let project = Project::empty();
    project.write(FILE, game(pars));
    project
}

/// `puzzle-qa ARGS` run beside the game file, in `games/`.
fn beside(project: &Project, args: &[&str]) -> Output {
    crate::support::puzzle_qa_in(&project.join("games"), args)
}

/// The commands a text suggests: every `puzzle-qa …` in backquotes, split
/// into words as a shell would (single quotes kept together).
fn suggested(text: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for (index, quoted) in text.split('`').enumerate() {
        if index % 2 == 0 || !quoted.starts_with("puzzle-qa ") {
            continue;
        }
        let words = shell_words(quoted);
        if !commands.contains(&words) {
            commands.push(words);
        }
    }
    commands
}

fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Runs a suggested command (its words after `puzzle-qa`) in `dir`.
fn run_suggested(dir: &std::path::Path, command: &[String]) -> Output {
    assert_eq!(command[0], "puzzle-qa", "{command:?}");
    let args: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    crate::support::puzzle_qa_in(dir, &args)
}

/// The level's table in the expectation file, as TOML.
fn table(project: &Project, level: usize) -> Option<toml::Table> {
    let text = project.read(EXPECTATIONS);
    let document: toml::Table = text.parse().expect("the expectation file parses");
    document.get(&level.to_string())?.as_table().cloned()
}

#[test]
fn before_its_first_bless_a_game_file_reports_its_levels_as_new_and_passes() {
    let project = designer(&[1, 2, 3]);
    let out = beside(&project, &["check", "mygame.txt"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(!text.contains("failures:"), "{text}");
    assert!(
        text.contains(
            "new levels (mygame.expectations.toml not written yet: their stale checks are what \
             bless would record, not failures):\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("    puzzlescript::mygame::2  solved, par 2: RR\n"),
        "{text}"
    );
    assert!(
        text.contains("to record them: `puzzle-qa bless mygame.txt`\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "3 levels, 19 checks: 4 passed, 0 failed, 15 new (what bless would record)\n"
        ),
        "{text}"
    );
    // The row says what each check is: new, not stale.
    let row = text
        .lines()
        .find(|line| line.starts_with("puzzlescript::mygame::1 "))
        .unwrap();
    assert!(row.contains("new") && !row.contains("stale"), "{row}");
    // In JSON, every level says it is new.
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    // One line a level, then the file's own (its goal's note).
    let lines: Vec<_> = json_lines(&out)
        .into_iter()
        .filter(|line| !line["file"].is_null())
        .collect();
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    assert!(lines.iter().all(|line| line["new"] == true), "{lines:?}");
    // The suggested bless records them, and then nothing is new.
    let out = run_suggested(&project.join("games"), &suggested(&text)[0]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    assert!(
        json_lines(&out)
            .iter()
            .all(|line| line.get("new").is_none())
    );
}

#[test]
fn a_game_that_does_not_compile_fails_before_its_first_bless() {
    let project = Project::empty();
    project.write(
        FILE,
        game(&[1, 2]).replace("all Target on Crate", "all Target on Crates"),
    );
    let out = beside(&project, &["check", "mygame.txt"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("failures:"), "{text}");
    assert!(
        text.contains("\"CRATES\" is not a valid object name"),
        "{text}"
    );
    assert!(text.contains("--> mygame.txt:"), "{text}");
    assert!(!text.contains("new levels"), "{text}");
}

#[test]
fn review_finds_the_pending_changes_of_the_game_files_it_is_given_or_finds_beside_it() {
    let project = designer(&[1, 2, 3]);
    let out = project.puzzle_qa(&["check", FILE]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // From the folder above, naming the file.
    let out = project.puzzle_qa(&["review", FILE, "--list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed = json_lines(&out);
    assert_eq!(listed.len(), 3, "{}", stdout(&out));
    for (number, change) in (1..).zip(&listed) {
        assert_eq!(change["file"], FILE);
        assert_eq!(change["expectation"], EXPECTATIONS);
        assert_eq!(change["pending"], format!("{EXPECTATIONS}.pending"));
        assert_eq!(
            change["accept"],
            format!("puzzle-qa review {FILE} --accept puzzlescript::mygame::{number}")
        );
    }
    // The command a change names accepts it alone, from where it was listed.
    let accept = shell_words(listed[1]["accept"].as_str().unwrap());
    let out = run_suggested(project.path(), &accept);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(table(&project, 2).unwrap()["par"].as_integer(), Some(2));
    assert!(table(&project, 1).is_none() && table(&project, 3).is_none());
    // Beside the file, without naming it: the game files here.
    let out = beside(&project, &["review", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed = stdout(&out);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("puzzlescript::mygame::1: "),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("puzzlescript::mygame::3: "),
        "{lines:?}"
    );
    // Without a terminal, the interactive review names commands that work.
    let out = beside(&project, &["review"]);
    assert_eq!(out.status.code(), Some(2));
    for command in suggested(&stderr(&out)) {
        let words: Vec<String> = command
            .into_iter()
            .filter(|word| word != "[FILTER]")
            .collect();
        let is_list = words.iter().any(|word| word == "--list");
        let out = run_suggested(&project.join("games"), &words);
        assert_eq!(out.status.code(), Some(0), "{words:?}: {}", stderr(&out));
        if is_list {
            assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
        }
    }
    // `--accept` (or `--reject`) settled both: nothing is pending, and the
    // game passes.
    let out = beside(&project, &["review", "--list", "--json"]);
    assert_eq!(stdout(&out), "");
    assert!(!project.exists(&format!("{EXPECTATIONS}.pending")));
}

#[test]
fn review_with_no_game_file_here_and_no_repository_says_what_to_name() {
    let project = Project::empty();
    let out = project.puzzle_qa(&["review", "--list"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no levels/ folder here, and no game file on its own\n  = hint: run from the \
         repository root, or name a levels folder, a game folder or level files (a game file \
         on its own: `puzzle-qa check mygame.txt`)\n"
    );
    // With a game file beside it but nothing pending, there is nothing to
    // do, and the `check` that would keep a change works here.
    project.write("mygame.txt", game(&[1]));
    let out = project.puzzle_qa(&["review", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "nothing to review: no pending changes (a stale check keeps one when `puzzle-qa \
         check` or `cargo test` runs)\n"
    );
    let out = run_suggested(project.path(), &suggested(&stdout(&out))[0]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(project.exists("mygame.expectations.toml.pending"));
}

/// The designer's game blessed, then level 2 edited so that its crate
/// starts one cell nearer its target (par 2 → 1).
fn shortcut_in_level_two() -> Project {
    let project = designer(&[1, 2, 3]);
    let out = beside(&project, &["bless", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    project.edit(FILE, "#P*.o#", "#.P*o#");
    project
}

#[test]
fn every_command_check_suggests_beside_a_game_file_works_where_it_is_printed() {
    // From the folder above the game, so the file is named by its path.
    let project = shortcut_in_level_two();
    let out = project.puzzle_qa(&["check", FILE]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let commands = suggested(&text);
    let shown: Vec<String> = commands.iter().map(|words| words.join(" ")).collect();
    assert_eq!(
        shown,
        [
            "puzzle-qa review games/mygame.txt",
            "puzzle-qa bless games/mygame.txt puzzlescript::mygame::2::parse",
            "puzzle-qa bless games/mygame.txt puzzlescript::mygame::2::par",
            "puzzle-qa bless games/mygame.txt puzzlescript::mygame::2::replay",
            "puzzle-qa bless games/mygame.txt",
        ]
    );
    assert!(!text.contains("git diff"), "{text}");
    assert!(
        text.contains("then review games/mygame.expectations.toml\n"),
        "{text}"
    );
    for words in commands {
        // Each in a folder of its own as `check` left it.
        let project = shortcut_in_level_two();
        let out = project.puzzle_qa(&["check", FILE]);
        assert_eq!(out.status.code(), Some(1));
        let mut words = words;
        if words[1] == "review" {
            // The interactive review needs a terminal; its list is the same.
            words.push("--list".to_string());
        }
        let out = run_suggested(project.path(), &words);
        assert_eq!(out.status.code(), Some(0), "{words:?}: {}", stderr(&out));
        assert!(!stdout(&out).is_empty(), "{words:?}");
    }
}

#[test]
fn a_hinted_check_blesses_that_check_and_nothing_else() {
    let project = shortcut_in_level_two();
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    let lines = json_lines(&out);
    let message = lines[1]["checks"]["par"]["message"].as_str().unwrap();
    let hint = suggested(message)
        .into_iter()
        .find(|words| words[1] == "bless")
        .unwrap();
    assert_eq!(
        hint.join(" "),
        "puzzle-qa bless mygame.txt puzzlescript::mygame::2::par"
    );
    let before = table(&project, 2).unwrap();
    let out = run_suggested(&project.join("games"), &hint);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let after = table(&project, 2).unwrap();
    // `par` alone: `parse` (the fingerprint) and `replay` (the solution)
    // are still as they were, and still stale.
    assert_eq!(after["par"].as_integer(), Some(1));
    assert_eq!(after["fingerprint"], before["fingerprint"]);
    assert_eq!(after["solution"], before["solution"]);
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    let checks = &json_lines(&out)[1]["checks"];
    assert_eq!(checks["par"]["ok"], true);
    assert_eq!(checks["parse"]["ok"], false);
    assert_eq!(checks["replay"]["ok"], false);
}

#[test]
fn a_hinted_level_blesses_that_level_and_not_the_ones_whose_number_starts_alike() {
    let project = designer(&(1..=11).collect::<Vec<_>>());
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    let message = json_lines(&out)[0]["checks"]["par"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    let hint = suggested(&message).remove(0);
    assert_eq!(
        hint.join(" "),
        "puzzle-qa bless mygame.txt puzzlescript::mygame::1"
    );
    let out = run_suggested(&project.join("games"), &hint);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(table(&project, 1).is_some());
    assert!(table(&project, 10).is_none() && table(&project, 11).is_none());
    // A filter that is whole parts of no name still selects by what it
    // contains: `mygame::1` then stands for level 1 alone, `::1` too.
    let out = beside(&project, &["check", "mygame.txt", "::1", "--json"]);
    let levels: Vec<Value> = json_lines(&out)
        .iter()
        .map(|line| line["level"].clone())
        .collect();
    assert_eq!(levels, [Value::from(1)]);
}

#[test]
fn bless_names_the_file_it_wrote_where_there_is_no_git() {
    let project = designer(&[1, 2]);
    let out = beside(&project, &["bless"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("\nblessed (review mygame.expectations.toml):\n"),
        "{text}"
    );
    assert!(!text.contains("git"), "{text}");
    // With no path, `check` and `bless` take the game files here.
    let out = beside(&project, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("puzzlescript::mygame::2 "));
}

#[test]
fn a_deleted_last_level_fails_check_with_the_prune_command_which_deletes_its_table() {
    let project = designer(&[1, 2, 3]);
    let out = beside(&project, &["bless", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    project.write(FILE, game(&[1, 2]));
    let out = beside(&project, &["check", "mygame.txt"]);
    let text = stdout(&out);
    // As `orphans` fails in a repository: the expectations speak of a level
    // that is gone, which a person settles (prune, or restore the level).
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("\norphans: FAIL\n"), "{text}");
    assert!(
        text.contains(
            "mygame.expectations.toml: table [3] belongs to no level (mygame.txt holds 2 \
             levels): delete it, or run `puzzle-qa bless --prune mygame.txt`"
        ),
        "{text}"
    );
    // Bless alone keeps it, and still says so.
    let out = beside(&project, &["bless", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(table(&project, 3).is_some());
    let command = suggested(&text).pop().unwrap();
    let out = run_suggested(&project.join("games"), &command);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with(
            "pruned from mygame.expectations.toml: [3] (no level of mygame.txt has them)\n"
        ),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(table(&project, 3).is_none() && table(&project, 2).is_some());
    let out = beside(&project, &["check", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // The file's tables say nothing more (the goal's note aside).
    assert!(stdout(&out).contains("\norphans: ok\n"), "{}", stdout(&out));
    assert!(
        !stdout(&out).contains("belongs to no level"),
        "{}",
        stdout(&out)
    );
}

/// The lines of a unified diff's `-` side (context and removed lines), each
/// with its line number in the old file.
fn old_side(diff: &str) -> Vec<(usize, &str)> {
    diff.lines()
        .filter_map(|line| {
            let (numbers, text) = line.split_once(" |")?;
            let old = numbers.get(..4)?.trim().parse().ok()?;
            let text = text.strip_prefix([' ', '-'])?;
            Some((old, text))
        })
        .collect()
}

#[test]
fn an_inserted_level_is_announced_and_its_diff_starts_from_the_file_on_disk() {
    let project = designer(&[1, 2, 3]);
    let out = beside(&project, &["bless", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let on_disk = project.read(EXPECTATIONS);
    project.write(FILE, game(&[1, 5, 2, 3]));
    let out = beside(&project, &["check", "mygame.txt"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "mygame.expectations.toml: levels 2–3 moved down by one (now 3–4). Run `puzzle-qa \
             bless mygame.txt` to move their tables with them (comments are kept)"
        ),
        "{text}"
    );
    // The moved levels pass against their own tables; the new one is new.
    let row = |level: usize| {
        text.lines()
            .find(|line| line.starts_with(&format!("puzzlescript::mygame::{level} ")))
            .unwrap()
            .to_string()
    };
    assert!(!row(3).contains("stale") && !row(4).contains("stale"));
    assert!(row(2).contains("new"), "{}", row(2));
    // The new level is told as new, not as a failure of each check.
    assert!(
        text.contains("\nnew levels (no table in mygame.expectations.toml yet: ")
            && text.contains("    puzzlescript::mygame::2  solved, par 5: ")
            && !text.contains("---- puzzlescript::mygame::2::"),
        "{text}"
    );
    // Its checks' messages hold the diff (`check --json`, `cargo test`):
    // the side labelled "as it is" is the file as it is.
    let out = beside(&project, &["check", "mygame.txt", "--json"]);
    let lines = json_lines(&out);
    let message = lines[1]["checks"]["parse"]["message"].as_str().unwrap();
    let diff = message
        .split("--- mygame.expectations.toml (expected: as it is)\n")
        .nth(1)
        .unwrap();
    let diff = diff.split("\n\n").next().unwrap();
    let disk: Vec<&str> = on_disk.lines().collect();
    let old = old_side(diff);
    assert!(old.len() > 4, "{diff}");
    for (number, line) in old {
        assert_eq!(disk[number - 1], line, "line {number} of the diff:\n{diff}");
    }
    // Bless moves the tables, says so, and writes the new level's.
    let out = beside(&project, &["bless", "mygame.txt"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "    mygame.expectations.toml: renumbered: levels 2–3 moved down by one (now 3–4)\n"
        ),
        "{text}"
    );
    assert_eq!(table(&project, 2).unwrap()["par"].as_integer(), Some(5));
    assert_eq!(table(&project, 4).unwrap()["par"].as_integer(), Some(3));
    let out = beside(&project, &["check", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn a_levels_section_of_messages_alone_has_no_level_to_solve_or_check() {
    let project = Project::empty();
    project.write(FILE, format!("{RULES}\nmessage nothing to play yet\n"));
    let said = "error: mygame.txt holds no level: it reads as a puzzlescript file, but none of \
                its entries is a level, so there is nothing to play\n  = hint: add a level (in \
                PuzzleScript, a grid in LEVELS; a `message` is not a level)\n";
    for command in ["solve", "check", "bless"] {
        let out = beside(&project, &[command, "mygame.txt"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(stderr(&out), said, "{command}");
        assert_eq!(stdout(&out), "", "{command}: no phantom level 1");
    }
    assert!(!project.exists(EXPECTATIONS));
}

#[test]
fn an_empty_file_a_binary_file_and_a_folder_get_their_real_cause() {
    let project = Project::empty();
    project.write("games/empty.txt", "");
    project.write("games/binary.txt", b"title x\nauthor \xff\xfe yo\n");
    std::fs::create_dir_all(project.join("games/folder.txt")).unwrap();
    let cases = [
        (
            "empty.txt",
            "error: empty.txt is empty: it holds no game and no level\n",
        ),
        (
            "binary.txt",
            "error: not a text file: invalid UTF-8 at byte 15 (line 2, column 8)\n --> \
             binary.txt:2:8\n",
        ),
    ];
    for command in ["solve", "check", "show", "review"] {
        for (file, said) in cases {
            let out = beside(&project, &[command, file]);
            assert_eq!(out.status.code(), Some(2), "{command} {file}");
            assert!(
                stderr(&out).starts_with(said),
                "{command} {file}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("from its folder"));
        }
    }
    let out = beside(&project, &["solve", "folder.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: folder.txt is a folder, not a level file\n"),
        "{}",
        stderr(&out)
    );
    let out = beside(&project, &["check", "folder.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: folder.txt is a folder, and neither a repository"),
        "{}",
        stderr(&out)
    );
    // A text no game reads is said to be so.
    project.write("games/notes.txt", "buy milk\n");
    let out = beside(&project, &["check", "notes.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "error: cannot tell the game of notes.txt: it is in no game's folder, and no game \
             reads its text as one of its files\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_takes_game_as_the_other_commands_do() {
    let project = Project::empty();
    // A PuzzleScript game its text alone does not give away: no section
    // headers, so only `--game` says what it is.
    project.write("games/empty.txt", "");
    let out = beside(&project, &["check", "--game", "puzzlescript", "empty.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("There must be a player!"),
        "{}",
        stderr(&out)
    );
    let out = beside(&project, &["check", "--game", "nosuch", "empty.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: unknown game `nosuch`\n"));
    project.write(FILE, game(&[1]));
    let out = beside(&project, &["bless", "--game", "puzzlescript", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(table(&project, 1).is_some());
}

#[test]
fn a_level_out_of_range_names_the_files_range() {
    let project = designer(&[1, 2, 3]);
    for command in ["solve", "show", "replay", "ablate"] {
        let mut args = vec![command, "mygame.txt", "--level", "0"];
        if command == "replay" {
            args.extend(["--moves", "R"]);
        }
        let out = beside(&project, &args);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(
            stderr(&out),
            "error: mygame.txt has 3 levels; there is no level 0\n  = hint: --level takes \
             1..=3 (levels count from 1; message entries are not levels)\n",
            "{command}"
        );
    }
}

#[test]
fn show_says_in_full_why_an_unsolvable_level_has_no_win() {
    let project = Project::empty();
    // The crate is against the wall, on the wrong side of its target.
    project.write(FILE, format!("{RULES}\n######\n#*P.o#\n######\n"));
    let out = beside(&project, &["show", "mygame.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let last = stdout(&out).lines().last().unwrap().to_string();
    assert_eq!(
        last,
        "unsolvable: no sequence of moves wins this level (3 states explored)"
    );
}
