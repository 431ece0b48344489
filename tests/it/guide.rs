//! docs/adding-a-game.md quotes the Sokoban example: every Rust block in
//! the guide must appear, line for line, in `examples/sokoban/`, so the
//! guide cannot drift from code that compiles and passes its suite.

use crate::support::repository;

#[test]
fn every_rust_block_of_the_guide_is_in_the_example() {
    let root = repository();
    let guide = std::fs::read_to_string(root.join("docs/adding-a-game.md")).unwrap();
    let files = ["sokoban.rs", "main.rs", "xsb.rs"];
    let example: String = files
        .iter()
        .map(|file| format!("examples/sokoban/{file}"))
        .map(|path| std::fs::read_to_string(root.join(path)).unwrap())
        .collect();
    let mut blocks = 0;
    for block in guide.split("```rust\n").skip(1) {
        let code = block.split("```").next().unwrap();
        assert!(example.contains(code), "not in the example:\n{code}");
        blocks += 1;
    }
    assert!(blocks >= 5, "{blocks} Rust blocks");
}

#[test]
fn the_example_game_is_small_and_uses_only_the_public_api() {
    let root = repository();
    let game = std::fs::read_to_string(root.join("examples/sokoban/sokoban.rs")).unwrap();
    assert!(game.lines().count() < 250, "{} lines", game.lines().count());
    // A downstream crate reaches puzzle-qa only through `puzzle_qa::…`.
    assert!(!game.contains("crate::") && game.contains("use puzzle_qa_core::game::"));
}
