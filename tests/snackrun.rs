//! Snack Run through the same harness as every game: a level with a trap
//! the designer must fix (`tests/fixtures/snackrun/trap.txt`) fails `traps`
//! and `snacks` even after bless, until the designer fixes it or allows it;
//! and a shipped level whose snack is moved one row too high fails `snacks`
//! with a diff naming the snack's new position. Messages are snapshots.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use puzzle_qa_core::harness::Verdict;
use tempfile::TempDir;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/snackrun/trap.txt"
);

/// A project holding one Snack Run level, `levels/snackrun/<name>.txt`.
fn project(name: &str, level: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("levels/snackrun");
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join(format!("{name}.txt")), level).unwrap();
    dir
}

fn run(dir: &TempDir, bless: bool) -> BTreeMap<String, Verdict> {
    common::run_suite(dir.path(), bless)
}

fn failures(verdicts: &BTreeMap<String, Verdict>) -> String {
    verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(trial, verdict)| {
            format!(
                "---- {trial} ----\n{}\n",
                verdict.message().unwrap_or_default()
            )
        })
        .collect()
}

fn expectations(dir: &TempDir, name: &str) -> String {
    fs::read_to_string(
        dir.path()
            .join(format!("expectations/snackrun/{name}.toml")),
    )
    .unwrap()
}

#[test]
fn a_trap_and_an_unreachable_snack_fail_until_the_designer_allows_them() {
    let dir = project("trap", &fs::read_to_string(FIXTURE).unwrap());
    // Bless writes what it found, yet the bugs still fail: bless cannot
    // excuse them.
    let blessed = run(&dir, true);
    let written = expectations(&dir, "trap");
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
    let checked = run(&dir, false);
    insta::assert_snapshot!(failures(&checked));

    // The designer accepts both, knowingly: everything passes.
    let allowed = format!("allow_unreachable = [[0, 7]]\nallow_traps = [[8, 5]]\n{written}");
    fs::write(dir.path().join("expectations/snackrun/trap.toml"), allowed).unwrap();
    let checked = run(&dir, false);
    assert_eq!(failures(&checked), "");
}

#[test]
fn a_snack_one_row_too_high_fails_snacks_with_a_diff_naming_it() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/snackrun/04-low-ceiling.txt");
    let text = fs::read_to_string(shipped).unwrap();
    let dir = project("04-low-ceiling", &text);
    run(&dir, true);
    assert_eq!(failures(&run(&dir, false)), "");

    // The snack at (1, 8), 3 up from the overhang's top at (4, 8), goes up
    // to (0, 8): 4 up, one row beyond a jump.
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let first_row = rows.iter().position(|row| !row.contains(':')).unwrap();
    let (above, at) = (first_row, first_row + 1);
    assert_eq!(&rows[at][8..9], "o");
    assert_eq!(&rows[above][8..9], ".");
    rows[at].replace_range(8..9, ".");
    rows[above].replace_range(8..9, "o");
    fs::write(
        dir.path().join("levels/snackrun/04-low-ceiling.txt"),
        rows.join("\n") + "\n",
    )
    .unwrap();

    let checked = run(&dir, false);
    let message = checked["snackrun::04-low-ceiling::snacks"]
        .message()
        .unwrap();
    assert!(message.contains("(0, 8)"), "{message}");
    assert!(message.contains("+\"0,8\" = \"none\""), "{message}");
    insta::assert_snapshot!(failures(&checked));
}
