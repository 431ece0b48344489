//! The ablation check through the harness, on a Hug Maze level made for it:
//! a cushion must slide onto the plate and hold the gate open for both bears.
//! Its classes are blessed from the solver's own result, then the level is
//! changed the way a designer might, and the failure (a diff of
//! `[mechanics]`) is a snapshot.

use std::collections::BTreeMap;

use puzzle_qa_core::_cli_support::harness::Verdict;

use crate::support::{self, Project, expectation_path, failing, level_path};

/// A project holding the slide, blessed.
fn project() -> Project {
    let project = Project::new();
    project.level("hugmaze", "slide", support::SLIDE);
    project.run_suite(true);
    project
}

fn run(project: &Project, bless: bool) -> BTreeMap<String, Verdict> {
    project.run_suite(bless)
}

fn change_level(project: &Project, from: &str, to: &str) {
    project.edit(&level_path("hugmaze", "slide"), from, to);
}

#[test]
fn the_blessed_level_passes_and_its_cushion_is_essential() {
    let project = project();
    let verdicts = run(&project, false);
    assert!(failing(&verdicts).is_empty(), "{verdicts:#?}");
    assert!(verdicts.contains_key("hugmaze::slide::ablation"));
    let expectations = project.read(&expectation_path("hugmaze", "slide"));
    assert!(
        expectations.contains("[mechanics]\ncushion = \"essential\"\n"),
        "{expectations}"
    );
}

#[test]
fn the_essential_cushion_turned_into_a_wall_fails_with_a_diff() {
    let project = project();
    change_level(&project, "#B.C..p#", "#B.#..p#");
    let verdicts = run(&project, false);
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
    let project = project();
    change_level(&project, "#..H...#", "#......#");
    change_level(&project, "#......#\n#D", "#..H...#\n#D");
    let verdicts = run(&project, false);
    let message = verdicts["hugmaze::slide::ablation"].message().unwrap();
    assert!(message.contains("-cushion = \"essential\""), "{message}");
    assert!(message.contains("+cushion = \"decoration\""), "{message}");
    insta::assert_snapshot!("cushion_turned_into_decoration", message);
    // Bless accepts the new classes, and then all is green again.
    run(&project, true);
    assert!(failing(&run(&project, false)).is_empty());
}

#[test]
fn verdicts_and_messages_are_the_same_whatever_the_thread_count() {
    let project = project();
    change_level(&project, "#B.C..p#", "#B.#..p#");
    let with_threads = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run(&project, false))
    };
    let one = with_threads(1);
    assert!(!one["hugmaze::slide::ablation"].passed());
    assert_eq!(one, with_threads(3));
}
