//! A level whose state space explodes ends cleanly: its trials fail at the
//! state limit with a message that says how many states were explored and
//! how to raise the limit, its ablations are skipped with one message, and
//! the other levels of the suite still pass.

use std::collections::BTreeMap;
use std::fs;
use std::time::Instant;

use puzzle_qa::games::GAMES;
use puzzle_qa_core::harness::{Settings, Suite, Verdict};

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
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("levels/hugmaze")).unwrap();
    fs::create_dir_all(root.join("expectations/hugmaze")).unwrap();
    fs::write(root.join("levels/hugmaze/explosion.txt"), explosion()).unwrap();
    fs::write(root.join("expectations/hugmaze/explosion.toml"), "").unwrap();
    fs::write(
        root.join("levels/hugmaze/calm.txt"),
        "name: calm\n#####\n#BHD#\n#####\n",
    )
    .unwrap();
    let bless = Settings {
        bless: true,
        ..Settings::new(root, GAMES)
    };
    // The calm level gets its expectations; bless cannot hide the explosion.
    let started = Instant::now();
    let verdicts: BTreeMap<String, Verdict> = Suite::discover(bless).run().into_iter().collect();
    eprintln!("the suite took {:?}", started.elapsed());
    let failing: Vec<&str> = verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        failing,
        [
            "hugmaze::explosion::ablation",
            "hugmaze::explosion::par",
            "hugmaze::explosion::replay",
            "hugmaze::explosion::solvable"
        ]
    );
    let solvable = verdicts["hugmaze::explosion::solvable"].message().unwrap();
    assert!(
        solvable.starts_with("the search stopped at its state limit (2000000 states stored)"),
        "{solvable}"
    );
    assert!(solvable.contains("raise `limit` in expectations/hugmaze/explosion.toml"));
    let ablation = verdicts["hugmaze::explosion::ablation"].message().unwrap();
    assert!(
        ablation.contains("its ablations were skipped"),
        "{ablation}"
    );
    assert_eq!(
        fs::read_to_string(root.join("expectations/hugmaze/explosion.toml")).unwrap(),
        ""
    );
}
