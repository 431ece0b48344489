//! Bless never loses a designer's work: each guarantee of the harness's
//! bless, tested through the `puzzle-qa` binary on a copy of the harness
//! fixture (`tests/fixtures/harness`).

use std::fs;
use std::process::Output;

use crate::support::{Project, expectation_path, level_path, stdout};

/// The fixture's level and its expectations, as paths in the project.
fn level() -> String {
    level_path("bloxorz", "hook")
}

fn expectations() -> String {
    expectation_path("bloxorz", "hook")
}

fn project() -> Project {
    let project = Project::copy_of("harness");
    // The fixture's route claims to be optimal, which a shortcut would
    // (rightly) fail; here only bless is under test.
    project.edit(&expectations(), "optimal = true", "optimal = false");
    project
}

fn puzzle_qa(project: &Project, args: &[&str]) -> Output {
    project.puzzle_qa(args)
}

/// Opens a shortcut in the level: par 11 becomes 6.
fn open_shortcut(project: &Project) {
    project.edit(&level(), "p p p x x x", "p p p p x x");
}

#[test]
fn comments_order_and_designer_fields_survive_and_nothing_else_is_left_behind() {
    let project = project();
    open_shortcut(&project);
    let before = project.read(&expectations());
    let output = puzzle_qa(&project, &["bless"]);
    assert_eq!(output.status.code(), Some(0));
    let after = project.read(&expectations());
    // Only the machine-owned values changed, in place.
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(old, new)| old != new)
        .collect();
    assert_eq!(before.lines().count(), after.lines().count());
    assert!(
        changed
            .iter()
            .all(|(old, _)| old.starts_with("par =") || old.starts_with("solution =")),
        "{changed:?}"
    );
    assert!(after.contains("par = 6 # five rolls to the corner, six down to the goal"));
    for designer in [
        "notes = ",
        "[[routes]]",
        "name = \"around\"",
        "optimal = false",
    ] {
        assert!(after.contains(designer), "{designer} lost:\n{after}");
    }
    // The write went through a temporary file renamed into place: none is
    // left beside the expectations.
    assert_eq!(
        project.listing(&["expectations", "bloxorz"].join("/")),
        ["hook.toml"]
    );
}

#[cfg(unix)]
#[test]
fn a_rewritten_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt as _;
    let project = project();
    let path = project.join(&expectations());
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    open_shortcut(&project);
    assert_eq!(puzzle_qa(&project, &["bless"]).status.code(), Some(0));
    assert!(project.read(&expectations()).contains("par = 6"));
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn a_level_that_does_not_parse_never_has_its_expectations_rewritten() {
    let project = project();
    let before = project.read(&expectations());
    project.edit(&level(), "p p p x x x", "p p q x x x");
    let output = puzzle_qa(&project, &["bless"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(project.read(&expectations()), before);
}

#[test]
fn blessing_twice_changes_nothing_the_second_time() {
    let project = project();
    open_shortcut(&project);
    assert_eq!(puzzle_qa(&project, &["bless"]).status.code(), Some(0));
    let once = project.read(&expectations());
    let again = puzzle_qa(&project, &["bless"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(project.read(&expectations()), once);
    let text = stdout(&again);
    assert!(!text.contains("blessed"), "{text}");
}

#[test]
fn bless_in_ci_writes_nothing() {
    let project = project();
    open_shortcut(&project);
    let before = project.read(&expectations());
    let output = project
        .command(&["bless", "--prune"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(project.read(&expectations()), before);
}

#[test]
fn an_orphaned_expectation_is_reported_and_kept_unless_prune_is_asked() {
    let project = project();
    let ghost = &project.expectation("bloxorz", "ghost", "par = 3\n");
    let check = puzzle_qa(&project, &["check"]);
    assert_eq!(check.status.code(), Some(1));
    let text = stdout(&check);
    assert!(text.contains("ghost.toml has no level"), "{text}");
    assert_eq!(puzzle_qa(&project, &["bless"]).status.code(), Some(1));
    assert!(project.exists(ghost), "plain bless deleted an orphan");
    // With a filter, --prune does not delete either.
    let filtered = puzzle_qa(&project, &["bless", "--prune", "::par"]);
    assert!(crate::support::stderr(&filtered).contains("nothing pruned"));
    assert!(project.exists(ghost));
    let pruned = puzzle_qa(&project, &["bless", "--prune"]);
    assert_eq!(pruned.status.code(), Some(0));
    let text = stdout(&pruned);
    assert!(text.contains(&format!("pruned {ghost}")), "{text}");
    assert!(!project.exists(ghost));
    assert!(project.exists(&expectations()));
}
