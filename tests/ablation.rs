//! The ablation check through the harness, on a Hug Maze level made for it:
//! a cushion must slide onto the plate and hold the gate open for both bears.
//! Its classes are blessed from the solver's own result, then the level is
//! changed the way a designer might, and the failure (a diff of
//! `[mechanics]`) is a snapshot.

mod common;

use std::collections::BTreeMap;
use std::fs;

use puzzle_qa_core::harness::Verdict;
use tempfile::TempDir;

const LEVEL: &str = "levels/hugmaze/slide.txt";
const EXPECTATIONS: &str = "expectations/hugmaze/slide.toml";

fn project() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("levels/hugmaze")).unwrap();
    fs::create_dir_all(dir.path().join("expectations/hugmaze")).unwrap();
    fs::write(dir.path().join(LEVEL), common::SLIDE).unwrap();
    run(&dir, true);
    dir
}

fn run(dir: &TempDir, bless: bool) -> BTreeMap<String, Verdict> {
    common::run_suite(dir.path(), bless)
}

fn read(dir: &TempDir, file: &str) -> String {
    fs::read_to_string(dir.path().join(file)).unwrap()
}

fn change_level(dir: &TempDir, from: &str, to: &str) {
    let text = read(dir, LEVEL);
    assert_eq!(text.matches(from).count(), 1, "`{from}`");
    fs::write(dir.path().join(LEVEL), text.replacen(from, to, 1)).unwrap();
}

fn failing(verdicts: &BTreeMap<String, Verdict>) -> Vec<&str> {
    verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, _)| name.as_str())
        .collect()
}

#[test]
fn the_blessed_level_passes_and_its_cushion_is_essential() {
    let dir = project();
    let verdicts = run(&dir, false);
    assert!(failing(&verdicts).is_empty(), "{verdicts:#?}");
    assert!(verdicts.contains_key("hugmaze::slide::ablation"));
    let expectations = read(&dir, EXPECTATIONS);
    assert!(
        expectations.contains("[mechanics]\ncushion = \"essential\"\n"),
        "{expectations}"
    );
}

#[test]
fn the_essential_cushion_turned_into_a_wall_fails_with_a_diff() {
    let dir = project();
    change_level(&dir, "#B.C..p#", "#B.#..p#");
    let verdicts = run(&dir, false);
    assert_eq!(
        failing(&verdicts),
        [
            "hugmaze::slide::ablation",
            "hugmaze::slide::par",
            "hugmaze::slide::replay",
            "hugmaze::slide::solvable"
        ]
    );
    let message = verdicts["hugmaze::slide::ablation"].message().unwrap();
    assert!(message.contains("-cushion = \"essential\""), "{message}");
    insta::assert_snapshot!("cushion_turned_into_a_wall", message);
}

#[test]
fn a_heart_moved_before_the_gate_turns_the_cushion_into_decoration() {
    let dir = project();
    change_level(&dir, "#..H...#", "#......#");
    change_level(&dir, "#......#\n#D", "#..H...#\n#D");
    let verdicts = run(&dir, false);
    let message = verdicts["hugmaze::slide::ablation"].message().unwrap();
    assert!(message.contains("-cushion = \"essential\""), "{message}");
    assert!(message.contains("+cushion = \"decoration\""), "{message}");
    insta::assert_snapshot!("cushion_turned_into_decoration", message);
    // Bless accepts the new classes, and then all is green again.
    run(&dir, true);
    assert!(failing(&run(&dir, false)).is_empty());
}

#[test]
fn verdicts_and_messages_are_the_same_whatever_the_thread_count() {
    let dir = project();
    change_level(&dir, "#B.C..p#", "#B.#..p#");
    let with_threads = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run(&dir, false))
    };
    let one = with_threads(1);
    assert!(!one["hugmaze::slide::ablation"].passed());
    assert_eq!(one, with_threads(3));
}
