//! A level whose state space explodes ends cleanly: its trials fail at the
//! state limit with a message that says how many states were explored and
//! how to raise the limit, its ablations are skipped with one message, and
//! the other levels of the suite still pass.

use std::time::Instant;

use crate::support::{Project, failing};

/// An open 24 × 24 room with a dozen cushions, and the heart walled off:
/// unsolvable, with far more states than any limit.
fn explosion() -> String {
    let side = 24;
    let mut grid = vec![vec!['.'; side]; side];
    for row in &mut grid {
        row[0] = '#';
        row[side - 1] = '#';
    }
    grid[0] = vec!['#'; side];
    grid[side - 1] = vec!['#'; side];
    grid[2][2] = 'B';
    grid[side - 3][side - 3] = 'D';
    for i in 0..12 {
        grid[4 + i % 6 * 3][5 + i / 6 * 12] = 'C';
    }
    let mut text = String::from("name: explosion\n");
    for row in &grid {
        text.extend(row);
        text.push('\n');
    }
    // The heart, out of reach behind the outer wall.
    text.replace_range(text.len() - 2..text.len() - 1, "H");
    text
}

#[test]
fn an_exploding_level_fails_at_the_limit_and_the_others_still_pass() {
    let project = Project::new();
    project.level("hugmaze", "explosion", &explosion());
    // The default bounds a search by memory alone (2 GiB): too long a wait
    // for a test, so the level names a state limit of its own.
    let expectations = project.expectation("hugmaze", "explosion", "limit = 200000\n");
    project.level("hugmaze", "calm", "name: calm\n#####\n#BHD#\n#####\n");
    // The calm level gets its expectations; bless cannot hide the explosion.
    let started = Instant::now();
    let verdicts = project.run_suite(true);
    eprintln!("the suite took {:?}", started.elapsed());
    assert_eq!(
        failing(&verdicts),
        [
            "hugmaze::explosion::ablation",
            "hugmaze::explosion::par",
            "hugmaze::explosion::replay",
            "hugmaze::explosion::solvable"
        ]
    );
    let solvable = verdicts["hugmaze::explosion::solvable"].message().unwrap();
    assert!(
        solvable.starts_with("the search stopped at its state limit (200000 states stored, "),
        "{solvable}"
    );
    assert!(solvable.contains(&format!("raise `limit` in {expectations}")));
    let ablation = verdicts["hugmaze::explosion::ablation"].message().unwrap();
    assert!(
        ablation.contains("its ablations were skipped"),
        "{ablation}"
    );
    assert_eq!(project.read(&expectations), "limit = 200000\n");
}

#[test]
fn a_level_with_a_memory_key_stops_at_that_budget_and_an_explicit_limit_still_holds() {
    let project = Project::new();
    project.level("hugmaze", "explosion", &explosion());
    let expectations = project.expectation("hugmaze", "explosion", "memory = \"8MiB\"\n");
    let verdicts = project.run_suite(false);
    let solvable = verdicts["hugmaze::explosion::solvable"].message().unwrap();
    assert!(
        solvable.starts_with("the search stopped at its memory budget of 8 MiB ("),
        "{solvable}"
    );
    assert!(
        solvable.contains(&format!("raise `memory` in {expectations} (now 8 MiB)")),
        "{solvable}"
    );
    assert!(solvable.contains("the last complete depth, "), "{solvable}");
    let par = verdicts["hugmaze::explosion::par"].message().unwrap();
    assert!(par.contains("stopped at its memory budget;"), "{par}");
    // A state limit below the budget is reached first.
    project.write(&expectations, "memory = \"8MiB\"\nlimit = 1000\n");
    let verdicts = project.run_suite(false);
    let solvable = verdicts["hugmaze::explosion::solvable"].message().unwrap();
    assert!(
        solvable.starts_with("the search stopped at its state limit (1000 states stored, "),
        "{solvable}"
    );
    assert!(solvable.contains(&format!("raise `limit` in {expectations}")));
}
