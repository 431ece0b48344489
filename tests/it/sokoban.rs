//! The Sokoban example's game (`examples/sokoban/sokoban.rs`) through its
//! public behaviour: the example is a `harness = false` target, so it has
//! no unit tests of its own, and its module is compiled in here as it is.

#[allow(dead_code)]
#[path = "../../examples/sokoban/sokoban.rs"]
mod game;

/// A corridor: the player, a box, a goal.
const CORRIDOR: &str = "#####\n#@$.#\n#####\n";

/// Where reading `moves` fails: its column and message.
fn notation_error(moves: &str) -> (usize, String) {
    let loaded = game::load(CORRIDOR).expect("the corridor loads");
    let error = loaded.level.replay_text(moves).unwrap_err();
    (error.column, error.message)
}

#[test]
fn a_notation_error_names_its_column_in_the_text_as_written() {
    // `X` is the fifth character: the spaces before it count.
    let (column, message) = notation_error("ur dX");
    assert_eq!(column, 5, "{message}");
    assert!(message.starts_with("`X` is not a move"), "{message}");
    assert_eq!(notation_error("X").0, 1);
    assert_eq!(notation_error("  \tu X").0, 6);
    // Columns count characters, not bytes.
    assert_eq!(notation_error("é").0, 1);
    assert_eq!(notation_error("u é r").0, 3);
}

#[test]
fn moves_with_spaces_read_as_without_them() {
    let loaded = game::load(CORRIDOR).expect("the corridor loads");
    let spaced = loaded.level.replay_text(" R ").unwrap();
    assert!(spaced.won);
    assert_eq!(spaced.moves, 1);
}
