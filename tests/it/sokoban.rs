//! The Sokoban example's game (`examples/sokoban/sokoban.rs`, with its XSB
//! splitter `xsb.rs`) through its public behaviour: the example is a
//! `harness = false` target, so it has no unit tests of its own, and its
//! module is compiled in here as it is. Its collections run through the
//! harness in projects of their own.

#[allow(dead_code)]
#[path = "../../examples/sokoban/sokoban.rs"]
mod game;

/// A corridor: the player, a box, a goal.
const CORRIDOR: &str = "#####\n#@$.#\n#####\n";

/// Where reading `moves` fails: its column and message.
fn notation_error(moves: &str) -> (usize, String) {
    let loaded = game::load(CORRIDOR).expect("the corridor loads");
    let error = loaded.level.replay_text(moves).unwrap_err();
    (error.column, error.message)
}

#[test]
fn a_notation_error_names_its_column_in_the_text_as_written() {
    // `X` is the fifth character: the spaces before it count.
    let (column, message) = notation_error("ur dX");
    assert_eq!(column, 5, "{message}");
    assert!(message.starts_with("`X` is not a move"), "{message}");
    assert_eq!(notation_error("X").0, 1);
    assert_eq!(notation_error("  \tu X").0, 6);
    // Columns count characters, not bytes.
    assert_eq!(notation_error("é").0, 1);
    assert_eq!(notation_error("u é r").0, 3);
}

#[test]
fn moves_with_spaces_read_as_without_them() {
    let loaded = game::load(CORRIDOR).expect("the corridor loads");
    let spaced = loaded.level.replay_text(" R ").unwrap();
    assert!(spaced.won);
    assert_eq!(spaced.moves, 1);
}

// XSB collections: examples/sokoban/xsb.rs, and the docs' rules
// (docs/adding-a-game.md, "XSB collections").

use puzzle_qa_core::_cli_support::harness::{Settings, Suite};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Many;

use crate::support::{Project, expectation_path, failing, level_file, verdicts};

/// Sokoban as the example registers it (`examples/sokoban/main.rs`).
static GAMES: &[GameChecks] = &[GameChecks::new(
    "sokoban",
    "xsb",
    &game::load,
    puzzle_qa_core::checks::SEARCH,
)
.with_many(Many::new(game::count, game::load_many))];

/// Six levels, every way of setting them apart: a file header set off by a
/// blank line, `;` titles above, a comment between two levels with no blank
/// line, `Title:` and `Author:` fields below, bare text, and no title.
const COLLECTION: &str = "\
; A collection
; by puzzle-qa

; One
#####
#@$.#
#####
; 2
######
#@$-.#
######
Title: Second
Author: puzzle-qa


  #####
  #@$.#
  #####
Title: Third
; 4
#####
#.$@#
#####
;

Level five
####
#@ #
#$ #
#. #
####

#####
#@$.#
#####

; set off by a blank line: no level's
";

/// Each level's first line, title and rows.
fn members(text: &str) -> Vec<(usize, Option<String>, String)> {
    let file = game::load_many(text).unwrap_or_else(|error| panic!("{error:?}"));
    assert_eq!(file.levels.len(), game::count(text));
    file.levels
        .into_iter()
        .map(|member| {
            assert!(member.level.is_ok(), "{:?}", member.level.err());
            (member.line, member.title, member.text)
        })
        .collect()
}

#[test]
fn a_collection_splits_at_blank_lines_and_notes_with_titles_above_or_below() {
    let title = |title: &str| Some(title.to_string());
    let corridor = "#####\n#@$.#\n#####".to_string();
    assert_eq!(
        members(COLLECTION),
        [
            (5, title("One"), corridor.clone()),
            (9, title("Second"), "######\n#@$-.#\n######".to_string()),
            (16, title("Third"), "  #####\n  #@$.#\n  #####".to_string()),
            (21, title("4"), "#####\n#.$@#\n#####".to_string()),
            (
                27,
                title("Level five"),
                "####\n#@ #\n#$ #\n#. #\n####".to_string()
            ),
            (33, None, corridor),
        ]
    );
}

#[test]
fn crlf_line_endings_split_alike_and_keep_no_carriage_return() {
    let crlf = COLLECTION.replace('\n', "\r\n");
    assert_eq!(members(&crlf), members(COLLECTION));
    let text = members(&crlf).into_iter().map(|(_, _, text)| text);
    assert!(text.into_iter().all(|text| !text.contains('\r')));
}

#[test]
fn a_comment_between_two_rows_splits_them_and_a_file_of_one_level_is_a_collection_of_one() {
    // A comment ends a level: these are two levels, the second titled.
    let split = members("#####\n#@$.#\n#####\n; B\n#####\n#.$@#\n#####\n");
    let titles: Vec<Option<String>> = split.into_iter().map(|(_, title, _)| title).collect();
    assert_eq!(titles, [None, Some("B".to_string())]);
    assert_eq!(
        members(CORRIDOR),
        [(1, None, CORRIDOR.trim_end().to_string())]
    );
    // `load` reads a collection's first level.
    let first = game::load(COLLECTION).expect("the first level loads");
    assert!(first.level.replay_text("R").unwrap().won);
}

/// Five levels, three of them wrong, each in its own way.
const MIXED: &str = "\
; Good
#####
#@$.#
#####

; A typo
#####
#@X.#
#####

; Two players
######
#@$.@#
######

; No goal
#####
#@$ #
#####

; Good again
#####
#.$@#
#####
";

#[test]
fn a_level_that_does_not_parse_says_where_in_the_file_and_the_others_load() {
    let file = game::load_many(MIXED).expect("the file reads");
    assert_eq!(file.levels.len(), 5);
    let errors: Vec<Option<(usize, usize, String)>> = file
        .levels
        .into_iter()
        .map(|member| {
            let error = member.level.err()?;
            Some((error.line, error.column, error.message))
        })
        .collect();
    let error = |line, column, message: &str| Some((line, column, message.to_string()));
    assert_eq!(
        errors,
        [
            None,
            error(8, 3, "unknown cell `X`"),
            error(13, 5, "2 players: a level has one `@`"),
            error(
                17,
                1,
                "1 boxes and 0 goals: a level needs as many of each, 1 to 10"
            ),
            None,
        ]
    );
}

#[test]
fn count_agrees_with_load_without_parsing_a_level() {
    for text in [
        COLLECTION,
        MIXED,
        CORRIDOR,
        "; A\n#X#\n\n#?#\n",
        "#\r\n\r\n#",
    ] {
        let levels = game::load_many(text).map_or(0, |file| file.levels.len());
        assert_eq!(game::count(text), levels, "{text:?}");
    }
    // Nothing but notes: no level, and the file says so.
    for text in ["", "; only a comment\n", "Title: none\n\n"] {
        assert_eq!(game::count(text), 0);
        let errors = game::load_many(text).err().expect("no level");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "no level in the file");
    }
}

#[test]
fn a_collections_trials_are_named_by_file_level_and_check() {
    let project = Project::new();
    project.write(&level_file("sokoban", "mixed", "xsb"), MIXED);
    project.write(&level_file("sokoban", "one", "xsb"), CORRIDOR);
    let settings = Settings::new(project.path(), GAMES);
    let names = Suite::discover(settings.clone()).trial_names();
    let checks = ["parse", "solvable", "par", "replay", "routes", "ablation"];
    let mut expected: Vec<String> = Vec::new();
    for (file, levels) in [("mixed", 5), ("one", 1)] {
        for level in 1..=levels {
            let trials = checks.map(|check| format!("sokoban::{file}::{level}::{check}"));
            expected.extend(trials);
        }
    }
    expected.push("orphans".to_string());
    assert_eq!(names, expected);

    // Blessed, the good levels pass and each bad one fails alone, its
    // `parse` pointing into the file.
    let blessed = verdicts(Settings {
        bless: true,
        ..settings.clone()
    });
    let failed = failing(&blessed);
    let bad =
        |level: usize| move |name: &&str| name.starts_with(&format!("sokoban::mixed::{level}::"));
    assert!(
        failed
            .iter()
            .all(|name| (2..=4).any(|level| bad(level)(name))),
        "{failed:?}"
    );
    let parse = blessed["sokoban::mixed::2::parse"].message().unwrap();
    let at = format!("{}:8:3", level_file("sokoban", "mixed", "xsb"));
    assert!(parse.contains(&at), "{parse}");
    let text = project.read(&expectation_path("sokoban", "mixed"));
    assert!(text.contains("[1]\n") && text.contains("\n[5]\n"), "{text}");
    let one = project.read(&expectation_path("sokoban", "one"));
    assert!(one.starts_with("[1]\n") && one.contains("par = 1"), "{one}");
    let again = verdicts(settings);
    assert_eq!(failing(&again), failed);
}
