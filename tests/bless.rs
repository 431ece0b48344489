//! Bless never loses a designer's work: each guarantee of the harness's
//! bless, tested through the `puzzle-qa` binary on a copy of the harness
//! fixture (`tests/fixtures/harness`).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use tempfile::TempDir;

const LEVEL: &str = "levels/bloxorz/hook.txt";
const EXPECTATIONS: &str = "expectations/bloxorz/hook.toml";

fn project() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/harness");
    for file in [LEVEL, EXPECTATIONS] {
        let target = dir.path().join(file);
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::copy(fixture.join(file), target).unwrap();
    }
    // The fixture's route claims to be optimal, which a shortcut would
    // (rightly) fail; here only bless is under test.
    let text = read(&dir, EXPECTATIONS).replacen("optimal = true", "optimal = false", 1);
    write(&dir, EXPECTATIONS, &text);
    dir
}

fn puzzle_qa(dir: &TempDir, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
        .current_dir(dir.path())
        .args(args)
        .env_remove("CI")
        .env_remove("BLESS")
        .output()
        .unwrap()
}

fn read(dir: &TempDir, file: &str) -> String {
    fs::read_to_string(dir.path().join(file)).unwrap()
}

fn write(dir: &TempDir, file: &str, text: &str) {
    let path = dir.path().join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Opens a shortcut in the level: par 11 becomes 6.
fn open_shortcut(dir: &TempDir) {
    let text = read(dir, LEVEL).replacen("p p p x x x", "p p p p x x", 1);
    write(dir, LEVEL, &text);
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn comments_order_and_designer_fields_survive_and_nothing_else_is_left_behind() {
    let dir = project();
    open_shortcut(&dir);
    let before = read(&dir, EXPECTATIONS);
    let output = puzzle_qa(&dir, &["bless"]);
    assert_eq!(output.status.code(), Some(0));
    let after = read(&dir, EXPECTATIONS);
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
        listing(&dir.path().join("expectations/bloxorz")),
        ["hook.toml"]
    );
}

#[cfg(unix)]
#[test]
fn a_rewritten_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = project();
    let path = dir.path().join(EXPECTATIONS);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    open_shortcut(&dir);
    assert_eq!(puzzle_qa(&dir, &["bless"]).status.code(), Some(0));
    assert!(read(&dir, EXPECTATIONS).contains("par = 6"));
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn a_level_that_does_not_parse_never_has_its_expectations_rewritten() {
    let dir = project();
    let before = read(&dir, EXPECTATIONS);
    write(
        &dir,
        LEVEL,
        &read(&dir, LEVEL).replacen("p p p x x x", "p p q x x x", 1),
    );
    let output = puzzle_qa(&dir, &["bless"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(read(&dir, EXPECTATIONS), before);
}

#[test]
fn blessing_twice_changes_nothing_the_second_time() {
    let dir = project();
    open_shortcut(&dir);
    assert_eq!(puzzle_qa(&dir, &["bless"]).status.code(), Some(0));
    let once = read(&dir, EXPECTATIONS);
    let again = puzzle_qa(&dir, &["bless"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(read(&dir, EXPECTATIONS), once);
    let text = String::from_utf8(again.stdout).unwrap();
    assert!(!text.contains("blessed"), "{text}");
}

#[test]
fn bless_in_ci_writes_nothing() {
    let dir = project();
    open_shortcut(&dir);
    let before = read(&dir, EXPECTATIONS);
    let output = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
        .current_dir(dir.path())
        .args(["bless", "--prune"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(read(&dir, EXPECTATIONS), before);
}

#[test]
fn an_orphaned_expectation_is_reported_and_kept_unless_prune_is_asked() {
    let dir = project();
    let ghost = "expectations/bloxorz/ghost.toml";
    write(&dir, ghost, "par = 3\n");
    let check = puzzle_qa(&dir, &["check"]);
    assert_eq!(check.status.code(), Some(1));
    let text = String::from_utf8(check.stdout).unwrap();
    assert!(text.contains("ghost.toml has no level"), "{text}");
    assert_eq!(puzzle_qa(&dir, &["bless"]).status.code(), Some(1));
    assert!(
        dir.path().join(ghost).exists(),
        "plain bless deleted an orphan"
    );
    // With a filter, --prune does not delete either.
    let filtered = puzzle_qa(&dir, &["bless", "--prune", "::par"]);
    assert!(
        String::from_utf8(filtered.stderr)
            .unwrap()
            .contains("nothing pruned")
    );
    assert!(dir.path().join(ghost).exists());
    let pruned = puzzle_qa(&dir, &["bless", "--prune"]);
    assert_eq!(pruned.status.code(), Some(0));
    let text = String::from_utf8(pruned.stdout).unwrap();
    assert!(
        text.contains("pruned expectations/bloxorz/ghost.toml"),
        "{text}"
    );
    assert!(!dir.path().join(ghost).exists());
    assert!(dir.path().join(EXPECTATIONS).exists());
}
