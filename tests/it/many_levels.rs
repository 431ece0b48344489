//! Files that hold many levels (a PuzzleScript game): one table per level in
//! the file's one expectation file, and levels that move when one is
//! inserted or deleted in the middle, recognised by their fingerprints and
//! renumbered by bless with their comments.

use crate::support::{Project, expectation_path, failing, level_path};

pub(crate) const GAME: &str = "title Pushes
author puzzle-qa
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

=======
LEGEND
=======

. = Background
# = Wall
P = Player
C = Crate
T = Target

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Target
Player, Wall, Crate

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ]

==============
WINCONDITIONS
==============

all Target on Crate

=======
LEVELS
=======

";

pub(crate) const ONE: &str = "#####\n#PCT#\n#####\n";
pub(crate) const TWO: &str = "#######\n#P.C.T#\n#######\n";
pub(crate) const THREE: &str = "#####\n#P..#\n#.C.#\n#..T#\n#####\n";
pub(crate) const NEW: &str = "######\n#PC.T#\n######\n";

/// The game's file and its expectations, in a temporary project.
pub(crate) fn file() -> String {
    level_path("puzzlescript", "pushes")
}

fn expectations() -> String {
    expectation_path("puzzlescript", "pushes")
}

pub(crate) fn game(levels: &[&str]) -> String {
    format!("{GAME}{}", levels.join("\n"))
}

/// A project whose game has levels ONE, TWO, THREE, blessed, with a
/// designer's comment and note on the tables of levels 2 and 3.
fn blessed() -> Project {
    let project = Project::new();
    project.write(&file(), game(&[ONE, TWO, THREE]));
    let verdicts = project.run_suite(true);
    assert!(failing(&verdicts).is_empty(), "{:?}", failing(&verdicts));
    project.edit(
        &expectations(),
        "[2]\n",
        "# the long push\n[2]\nnotes = \"three steps\"\n",
    );
    project.edit(&expectations(), "[3]\n", "# a corner to avoid\n[3]\n");
    project
}

#[test]
fn each_level_is_a_subject_with_a_table_of_its_own() {
    let project = blessed();
    let verdicts = project.run_suite(false);
    assert!(failing(&verdicts).is_empty());
    assert!(verdicts.contains_key("puzzlescript::pushes::3::par"));
    let text = project.read(&expectations());
    for table in ["[1]", "[2]", "[3]", "[2.mechanics]"] {
        assert!(
            text.contains(&format!("\n{table}\n")) || text.starts_with(table),
            "{text}"
        );
    }
    assert!(text.contains("par = 3"), "{text}");
}

#[test]
fn an_inserted_level_is_recognised_and_bless_moves_the_tables_with_their_comments() {
    let project = blessed();
    project.write(&file(), game(&[ONE, NEW, TWO, THREE]));

    // Without bless: the new level is new, the moved ones still pass
    // against their own tables, and one trial says what moved.
    let verdicts = project.run_suite(false);
    let failed = failing(&verdicts);
    assert!(
        failed
            .iter()
            .all(|name| name.starts_with("puzzlescript::pushes::2::") || *name == "orphans"),
        "{failed:?}"
    );
    assert!(failed.contains(&"orphans"), "{failed:?}");
    let orphans = verdicts["orphans"].message().unwrap();
    assert!(
        orphans.contains("levels 2–3 moved down by one (now 3–4)"),
        "{orphans}"
    );
    assert!(verdicts["puzzlescript::pushes::3::par"].passed());
    assert!(verdicts["puzzlescript::pushes::4::par"].passed());
    // Nothing was written.
    assert!(!project.read(&expectations()).contains("[4]"));

    // Bless renumbers, keeping comments and designer keys with their
    // levels, and adds the new level's table between them.
    let verdicts = project.run_suite(true);
    assert!(failing(&verdicts).is_empty(), "{:?}", failing(&verdicts));
    let text = project.read(&expectations());
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle} in\n{text}"))
    };
    assert!(at("[1]\n") < at("\n[2]\n"));
    assert!(at("\n[2]\n") < at("# the long push\n[3]\nnotes = \"three steps\""));
    assert!(at("# the long push") < at("# a corner to avoid\n[4]\n"));
    assert_eq!(
        project
            .run_suite(false)
            .values()
            .filter(|v| !v.passed())
            .count(),
        0
    );
}

#[test]
fn a_deleted_level_leaves_its_table_aside_for_a_person_to_remove() {
    let project = blessed();
    project.write(&file(), game(&[ONE, THREE]));
    let verdicts = project.run_suite(true);
    let failed = failing(&verdicts);
    assert_eq!(failed, ["orphans"]);
    let orphans = verdicts["orphans"].message().unwrap();
    assert!(
        orphans.contains("table [removed-2] belongs to no level"),
        "{orphans}"
    );
    let text = project.read(&expectations());
    assert!(text.contains("# the long push\n[removed-2]"), "{text}");
    assert!(text.contains("# a corner to avoid\n[2]\n"), "{text}");

    // Only `bless --prune` deletes it, and nothing else.
    let out = project.puzzle_qa(&["bless", "--prune"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stdout(&out)
    );
    let pruned = project.read(&expectations());
    assert!(!pruned.contains("removed-2"), "{pruned}");
    assert!(pruned.contains("# a corner to avoid\n[2]\n"), "{pruned}");
    assert!(failing(&project.run_suite(false)).is_empty());
}

#[test]
fn each_level_of_a_file_gets_its_own_page_in_the_html_report() {
    let project = blessed();
    let out = project.puzzle_qa(&["check", "--html", "report"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::support::stdout(&out)
    );
    assert_eq!(
        project.listing("report/puzzlescript"),
        ["pushes-1.html", "pushes-2.html", "pushes-3.html"]
    );
    // Drawn from the game's own art: each cell's layers as SVG.
    assert!(
        project
            .read("report/puzzlescript/pushes-2.html")
            .contains("<svg")
    );
}
