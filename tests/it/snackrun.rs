//! Snack Run through the same harness as every game: a level with a trap
//! the designer must fix (`tests/fixtures/snackrun/trap.txt`) fails `traps`
//! and `snacks` even after bless, until the designer fixes it or allows it;
//! and a shipped level (the fixture project's copy) whose snack is moved one
//! row too high fails `snacks` with a diff naming the snack's new position.
//! Messages are snapshots.

use std::collections::BTreeMap;

use puzzle_qa_core::_cli_support::harness::Verdict;

use crate::support::{self, Project, expectation_path, failures};

/// A project holding one Snack Run level, `<name>`.
fn project(name: &str, level: &str) -> Project {
    let project = Project::new();
    project.level("snackrun", name, level);
    project
}

fn run(project: &Project, bless: bool) -> BTreeMap<String, Verdict> {
    project.run_suite(bless)
}

fn expectations(project: &Project, name: &str) -> String {
    project.read(&expectation_path("snackrun", name))
}

#[test]
fn a_trap_and_an_unreachable_snack_fail_until_the_designer_allows_them() {
    let trap = std::fs::read_to_string(support::fixture("snackrun/trap.txt")).unwrap();
    let project = project("trap", &trap);
    // Bless writes what it found, yet the bugs still fail: bless cannot
    // excuse them.
    let blessed = run(&project, true);
    let written = expectations(&project, "trap");
    assert!(written.contains("traps = [[8, 5]]"), "{written}");
    assert!(written.contains("\"0,7\" = \"none\""), "{written}");
    assert!(
        !written.contains("allow_"),
        "bless wrote an allowance:\n{written}"
    );
    let failed: Vec<&str> = blessed
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(trial, _)| trial.as_str())
        .collect();
    assert_eq!(failed, ["snackrun::trap::snacks", "snackrun::trap::traps"]);
    let checked = run(&project, false);
    insta::assert_snapshot!(failures(&checked));

    // The designer accepts both, knowingly: everything passes.
    let allowed = format!("allow_unreachable = [[0, 7]]\nallow_traps = [[8, 5]]\n{written}");
    project.write(&expectation_path("snackrun", "trap"), allowed);
    let checked = run(&project, false);
    assert_eq!(failures(&checked), "");
}

#[test]
fn a_snack_one_row_too_high_fails_snacks_with_a_diff_naming_it() {
    let project = Project::new();
    let level = project.copy_level("snackrun", "04-low-ceiling");
    let text = project.read(&level);
    run(&project, true);
    assert_eq!(failures(&run(&project, false)), "");

    // The snack at (1, 8), 3 up from the overhang's top at (4, 8), goes up
    // to (0, 8): 4 up, one row beyond a jump.
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let first_row = rows.iter().position(|row| !row.contains(':')).unwrap();
    let (above, at) = (first_row, first_row + 1);
    assert_eq!(&rows[at][8..9], "o");
    assert_eq!(&rows[above][8..9], ".");
    rows[at].replace_range(8..9, ".");
    rows[above].replace_range(8..9, "o");
    project.write(&level, rows.join("\n") + "\n");

    let checked = run(&project, false);
    let message = checked["snackrun::04-low-ceiling::snacks"]
        .message()
        .unwrap();
    assert!(message.contains("(0, 8)"), "{message}");
    assert!(message.contains("+\"0,8\" = \"none\""), "{message}");
    insta::assert_snapshot!(failures(&checked));
}
