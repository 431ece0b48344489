//! A PuzzleScript rule is named by its text, never by its line: edits that
//! change no rule (a comment, blank lines, sections' contents reordered,
//! the RULES section moved) stale nothing; an edited rule's entries follow
//! it, in memory during a check and on disk under bless, keeping comments;
//! the old names (`rule 42: …`) are followed once by bless. And ablation
//! that means something: the objects a win condition names are the goal,
//! each placed object is a piece of its own, a dead rule is said once.

use std::collections::BTreeMap;

use puzzle_qa_core::_cli_support::harness::Verdict;

use crate::support::{Project, expectation_path, failing, json_lines, level_path};

/// A game of three rules and three levels: level 2 needs the crate that
/// pushes a crate, level 3 the hole a crate fills (without it the crates
/// push through in fewer moves); each rule is dead where it is not needed.
const GAME: &str = "title Rule names
author puzzle-qa tests
noaction

========
OBJECTS
========

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

Hole
brown

=======
LEGEND
=======

. = Background
# = Wall
P = Player
C = Crate
T = Target
O = Hole

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Target, Hole
Player, Wall, Crate

======
RULES
======

(a player pushes a crate)
[ > Player | Crate ] -> [ > Player | > Crate ]
(a crate pushes the next one)
[ > Crate | Crate ] -> [ > Crate | > Crate ]
(a crate pushed into a hole fills it)
late [ Crate Hole ] -> [ ]

==============
WINCONDITIONS
==============

all Target on Crate

=======
LEVELS
=======

#####
#PCT#
#####

#######
#PCCTT#
#######

#######
#PCOCT#
#######
";

const PUSH: &str = "rule: [ > player | crate ] -> [ > player | > crate ]";
const CHAIN: &str = "rule: [ > crate | crate ] -> [ > crate | > crate ]";
const FILL: &str = "rule: late [ crate hole ] -> [ ]";

fn file() -> String {
    level_path("puzzlescript", "rules")
}

fn expectations() -> String {
    expectation_path("puzzlescript", "rules")
}

/// The 1-based line of `GAME` (as edited) that is `text`.
fn line_of(game: &str, text: &str) -> usize {
    game.lines()
        .position(|line| line == text)
        .unwrap_or_else(|| panic!("`{text}` in the game"))
        + 1
}

/// The game, blessed.
fn blessed() -> Project {
    let project = Project::new();
    project.write(&file(), GAME);
    let verdicts = project.run_suite(true);
    assert!(failing(&verdicts).is_empty(), "{:?}", failing(&verdicts));
    project
}

/// The game, blessed, with a designer's comment on an entry of level 3.
fn commented() -> Project {
    let project = blessed();
    project.edit(
        &expectations(),
        &format!("\"{FILL}\" = \"obstacle\""),
        &format!("# the hole costs a move\n\"{FILL}\" = \"obstacle\""),
    );
    project
}

/// The `ablation` check's notes: its message up to the diff.
fn notes(verdicts: &BTreeMap<String, Verdict>, trial: &str) -> String {
    let message = verdicts[trial].message().unwrap_or_default();
    message.split("\n\n---").next().unwrap().to_string()
}

#[test]
fn the_blessed_names_are_the_rules_text_and_classes_are_as_designed() {
    let project = commented();
    let text = project.read(&expectations());
    for level in 1..=3 {
        assert!(
            text.contains(&format!("[{level}.mechanics]\n")),
            "level {level}: {text}"
        );
    }
    for entry in [
        format!("\"{CHAIN}\" = \"essential\""),
        format!("# the hole costs a move\n\"{FILL}\" = \"obstacle\""),
        format!("\"{PUSH}\" = \"essential\""),
    ] {
        assert!(text.contains(&entry), "{entry}\n{text}");
    }
    assert!(!text.contains("rule 6"), "no line in a name: {text}");
}

#[test]
fn edits_that_change_no_rule_leave_every_verdict_fresh() {
    let rules_at = line_of(GAME, "[ > Player | Crate ] -> [ > Player | > Crate ]");
    let edits: [(&str, String); 5] = [
        (
            "a comment in the prelude",
            GAME.replacen("noaction\n", "noaction\n(a comment)\n", 1),
        ),
        (
            "blank lines and comments between the rules",
            GAME.replacen(
                "(a crate pushes the next one)\n",
                "\n\n(a crate pushes the next one: a second comment)\n\n",
                1,
            ),
        ),
        (
            "the rules' case and spacing",
            GAME.replacen(
                "[ > Crate | Crate ] -> [ > Crate | > Crate ]",
                "[> CRATE|Crate]->[> crate|> Crate]  (spaced otherwise)",
                1,
            ),
        ),
        (
            "OBJECTS and LEGEND reordered",
            GAME.replacen(
                "Wall\ngrey\n\nPlayer\nwhite\n",
                "Player\nwhite\n\nWall\ngrey\n",
                1,
            )
            .replacen("P = Player\nC = Crate\n", "C = Crate\nP = Player\n", 1),
        ),
        (
            "the RULES section moved down",
            GAME.replacen(
                "======\nRULES",
                "(The rules follow.\nThey are few.\nThree of them.)\n\n\n======\nRULES",
                1,
            ),
        ),
    ];
    for (what, game) in edits {
        let project = blessed();
        let before = project.read(&expectations());
        project.write(&file(), &game);
        let moved = line_of(&game, "[ > Player | Crate ] -> [ > Player | > Crate ]");
        if what.contains("moved") || what.contains("prelude") {
            assert_ne!(moved, rules_at, "{what}: the rules moved");
        }
        let verdicts = project.run_suite(false);
        assert!(
            failing(&verdicts).is_empty(),
            "{what}: {}",
            crate::support::failures(&verdicts)
        );
        let orphans = verdicts["orphans"].message().unwrap_or_default();
        assert!(!orphans.contains("follow"), "{what}: {orphans}");
        // Bless has nothing to write either.
        project.run_suite(true);
        assert_eq!(project.read(&expectations()), before, "{what}");
    }
}

#[test]
fn an_edited_rule_keeps_its_entries_where_its_class_holds() {
    let project = commented();
    let before = project.read(&expectations());
    // The crate still goes; the hole now stays: level 3's par is the same,
    // and so is the rule's class in every level.
    project.edit(
        &file(),
        "late [ Crate Hole ] -> [ ]",
        "late [ Crate Hole ] -> [ Hole ]",
    );
    let renamed = "rule: late [ crate hole ] -> [ hole ]";
    let line = line_of(&project.read(&file()), "late [ Crate Hole ] -> [ Hole ]");

    // A check: nothing stale, the entries follow in memory, and one note
    // for the file says so and what bless would do.
    let verdicts = project.run_suite(false);
    assert!(
        failing(&verdicts).is_empty(),
        "{}",
        crate::support::failures(&verdicts)
    );
    let orphans = verdicts["orphans"].message().unwrap_or_default();
    let said: Vec<&str> = orphans.lines().filter(|l| l.contains("follow")).collect();
    assert_eq!(said.len(), 1, "{orphans}");
    assert!(
        said[0].contains(&format!(
            "`{FILL}` → `{renamed}` on line {line} (levels 1–3)"
        )),
        "{orphans}"
    );
    assert!(said[0].contains("to rename them in"), "{orphans}");
    assert_eq!(project.read(&expectations()), before, "nothing written");
    assert!(!project.exists(&format!("{}.pending", expectations())));

    // Bless renames them on disk, classes and comments kept, once.
    let verdicts = project.run_suite(true);
    assert!(failing(&verdicts).is_empty());
    let text = project.read(&expectations());
    assert_eq!(
        text,
        before.replace(&format!("\"{FILL}\""), &format!("\"{renamed}\"")),
    );
    assert!(text.contains(&format!(
        "# the hole costs a move\n\"{renamed}\" = \"obstacle\""
    )));
    let verdicts = project.run_suite(false);
    assert!(failing(&verdicts).is_empty());
    let orphans = verdicts["orphans"].message().unwrap_or_default();
    assert!(!orphans.contains("follow"), "{orphans}");
}

#[test]
fn an_edited_rule_is_stale_only_where_its_class_changes() {
    let project = commented();
    // The hole no longer takes the crate: the rule changes nothing, so it
    // is dead everywhere; only level 3 needed it.
    project.edit(
        &file(),
        "late [ Crate Hole ] -> [ ]",
        "late [ Crate Hole ] -> [ Crate Hole ]",
    );
    let verdicts = project.run_suite(false);
    let failed = failing(&verdicts);
    assert!(
        failed
            .iter()
            .all(|name| name.starts_with("puzzlescript::rules::3::")),
        "{failed:?}"
    );
    assert!(
        failed.contains(&"puzzlescript::rules::3::ablation"),
        "{failed:?}"
    );
    let message = verdicts["puzzlescript::rules::3::ablation"]
        .message()
        .unwrap();
    let renamed = "rule: late [ crate hole ] -> [ crate hole ]";
    assert!(
        message.contains(&format!("\"{renamed}\" = \"obstacle\"")),
        "the entry as it is, followed: {message}"
    );
    assert!(
        message.contains(&format!("\"{renamed}\" = \"decoration\"")),
        "{message}"
    );
    insta::assert_snapshot!("edited_rule_dead_in_level_3", message);

    // Bless writes the rename and the new class, with the comment.
    project.run_suite(true);
    let text = project.read(&expectations());
    assert!(
        text.contains(&format!(
            "# the hole costs a move\n\"{renamed}\" = \"decoration\""
        )),
        "{text}"
    );
    assert!(!text.contains(FILL), "{text}");
    let verdicts = project.run_suite(false);
    assert!(failing(&verdicts).is_empty());
    // Dead in every level now: the file is told once, the rule by its
    // name and line.
    let line = line_of(
        &project.read(&file()),
        "late [ Crate Hole ] -> [ Crate Hole ]",
    );
    let orphans = verdicts["orphans"].message().unwrap_or_default();
    let dead: Vec<&str> = orphans
        .lines()
        .filter(|l| l.contains("dead in every level"))
        .collect();
    assert_eq!(dead.len(), 1, "{orphans}");
    assert!(
        dead[0].starts_with(&format!(
            "levels/puzzlescript/rules.txt: `{renamed}` on line {line} is dead in every level"
        )),
        "{orphans}"
    );
}

#[test]
fn bless_follows_the_old_numbered_names_once_keeping_comments() {
    let project = commented();
    let current = project.read(&expectations());
    // The names earlier versions wrote: the line's number and its text as
    // written.
    let mut old = current.clone();
    for (name, written) in [
        (PUSH, "[ > Player | Crate ] -> [ > Player | > Crate ]"),
        (CHAIN, "[ > Crate | Crate ] -> [ > Crate | > Crate ]"),
        (FILL, "late [ Crate Hole ] -> [ ]"),
    ] {
        let numbered = format!("rule {}: {written}", line_of(GAME, written));
        old = old.replace(&format!("\"{name}\""), &format!("\"{numbered}\""));
    }
    let fill = line_of(GAME, "late [ Crate Hole ] -> [ ]");
    assert!(
        old.contains(&format!("# the hole costs a move\n\"rule {fill}: late")),
        "{old}"
    );
    project.write(&expectations(), &old);

    let verdicts = project.run_suite(false);
    assert!(
        failing(&verdicts).is_empty(),
        "{}",
        crate::support::failures(&verdicts)
    );
    project.run_suite(true);
    assert_eq!(project.read(&expectations()), current);
}

#[test]
fn ablate_lists_each_placed_object_alone_and_the_goal_without_a_search() {
    let project = Project::new();
    project.write(&file(), GAME);
    let out = project.puzzle_qa(&["ablate", &file(), "--level", "3", "--objects", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stderr(&out)
    );
    let line = &json_lines(&out)[0];
    // Each object the map places (`#PCOCT#` in a frame of walls), each of
    // its cells, removed alone.
    let objects = line["objects"].as_array().unwrap();
    let count = |name: &str| objects.iter().filter(|o| o["mechanic"] == name).count();
    assert_eq!(
        [
            count("Wall"),
            count("Player"),
            count("Crate"),
            count("Target"),
            count("Hole")
        ],
        [16, 1, 2, 1, 1],
        "{line}"
    );
    let at = |name: &str| {
        objects
            .iter()
            .find(|o| o["mechanic"] == name)
            .map(|o| o["at"].clone())
            .unwrap()
    };
    assert_eq!(at("Player"), serde_json::json!([1, 1]));
    assert_eq!(at("Hole"), serde_json::json!([1, 3]));
    // The hole alone, taken out: the crates push through, par 2.
    let hole = objects.iter().find(|o| o["mechanic"] == "Hole").unwrap();
    assert_eq!(
        (&hole["class"], &hole["par"]),
        (&"obstacle".into(), &2.into())
    );
    // The win condition names Target and Crate: the goal, not searched
    // (without the target, `all Target on Crate` would hold at once).
    let mechanics = &line["mechanics"];
    for name in ["Target", "Crate"] {
        assert_eq!(mechanics[name]["class"], "goal", "{line}");
        assert_eq!(mechanics[name]["par"], serde_json::Value::Null, "{line}");
        for piece in objects.iter().filter(|o| o["mechanic"] == name) {
            assert_eq!(piece["class"], "goal", "{line}");
        }
    }
    assert_eq!(mechanics["Hole"]["class"], "obstacle", "{line}");
    // Each rule with its line.
    assert_eq!(
        mechanics[FILL]["line"],
        line_of(GAME, "late [ Crate Hole ] -> [ ]")
    );

    let out = project.puzzle_qa(&["ablate", &file(), "--level", "3"]);
    let text = crate::support::stdout(&out);
    assert!(
        text.contains(&format!(
            "{FILL} (line {})",
            line_of(GAME, "late [ Crate Hole ] -> [ ]")
        )),
        "{text}"
    );
    assert!(
        text.contains("2 goal: a win condition names them, so they are not taken out"),
        "{text}"
    );
}

#[test]
fn the_goal_is_said_once_for_the_file_and_a_dead_rule_once_a_level() {
    let project = Project::new();
    project.write(&file(), GAME);
    // Before the first bless: level 1 is new, its classes undeclared.
    let verdicts = project.run_suite(false);
    let said = notes(&verdicts, "puzzlescript::rules::1::ablation");
    for rule in [CHAIN, FILL] {
        // Told by its text, whatever the form of its name.
        let text = rule.trim_start_matches("rule: ");
        let lines: Vec<&str> = said
            .lines()
            .filter(|l| l.to_lowercase().contains(text))
            .collect();
        assert_eq!(lines.len(), 1, "{rule} once: {said}");
        assert!(
            lines[0].contains("is decoration (not declared yet)"),
            "{said}"
        );
        assert!(lines[0].contains("dead on this level"), "{said}");
    }
    let goal: Vec<&str> = said.lines().filter(|l| l.contains("goal")).collect();
    assert_eq!(goal.len(), 2, "Target and Crate, as new entries: {said}");

    // Once blessed: no level speaks of the goal; the file does, once.
    project.run_suite(true);
    let verdicts = project.run_suite(false);
    assert!(failing(&verdicts).is_empty());
    for level in 1..=3 {
        let trial = format!("puzzlescript::rules::{level}::ablation");
        let said = verdicts[&trial].message().unwrap_or_default();
        assert!(!said.contains("goal"), "{trial}: {said}");
    }
    let said = notes(&verdicts, "puzzlescript::rules::1::ablation");
    assert_eq!(
        said.lines().filter(|l| l.contains(FILL)).count(),
        1,
        "{said}"
    );
    let orphans = verdicts["orphans"].message().unwrap_or_default();
    let goal: Vec<&str> = orphans.lines().filter(|l| l.contains("goal")).collect();
    assert_eq!(goal.len(), 1, "{orphans}");
    assert!(
        goal[0].contains("`Target` and `Crate` are part of the goal"),
        "{orphans}"
    );
}
