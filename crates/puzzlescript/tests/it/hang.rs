//! A move whose `again` turns never stop, in a game written with that bug
//! on purpose (tests/fixtures/hang/bounce.txt): the searches report it with
//! the fewest moves that reach it and the rule lines that keep firing; the
//! exploration for dead rules finds one past the first win; a replay is
//! refused at it.

use std::sync::Arc;

use puzzle_qa_core::game::{Game as _, Mechanics as _};
use puzzle_qa_core::search::{Status, bfs};
use puzzlescript::engine::Input;
use puzzlescript::level::Level;
use puzzlescript::play::{self, Move};

/// Level `n` of the fixture game.
fn bounce(n: usize) -> Level {
    let path = format!(
        "{}/tests/fixtures/hang/bounce.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (game, _) = puzzlescript::load(&source).unwrap_or_else(|e| panic!("{e:?}"));
    let game = Arc::new(game);
    let index = play::grid_index(&game, n).expect("the level exists");
    Level::new(game, index, "test").expect("a grid level")
}

/// The rule line of the fixture that asks for another turn, as a hang's
/// reason names it.
const AGAIN: &str = "\n  line 82: late [ Player Trigger ] -> [ Player Trigger ] again";

const LEFT: Move = Move::Input(Input::Left);
const RIGHT: Move = Move::Input(Input::Right);

#[test]
fn a_hang_before_the_win_is_reported_with_the_rules_that_keep_firing_and_the_par_still_found() {
    let outcome = bfs(&bounce(1), 10_000);
    assert_eq!(outcome.par(), Some(3));
    let hang = outcome.hang().expect("the trigger is two steps away");
    assert_eq!(hang.moves, [LEFT, LEFT]);
    assert!(
        hang.reason
            .starts_with("the game keeps setting off `again` turns (more than 10000"),
        "{}",
        hang.reason
    );
    assert!(hang.reason.contains(AGAIN), "{}", hang.reason);
    // The ball's rules keep firing too; the crate's never fire again.
    assert!(hang.reason.contains("line 76: "), "{}", hang.reason);
    assert!(!hang.reason.contains("line 69: "), "{}", hang.reason);
}

#[test]
fn a_level_with_no_win_but_a_hang_is_a_hang_not_unsolvable() {
    let outcome = bfs(&bounce(2), 10_000);
    assert_eq!(outcome.status(), Status::Hang);
    assert_eq!(
        outcome.hang().map(|hang| &hang.moves[..]),
        Some(&[RIGHT, RIGHT][..])
    );
    // Stored: the start and the step before the trigger; never the hang.
    assert_eq!(outcome.stats().stored, 2);
}

#[test]
fn step_refuses_the_move_that_never_settles_and_says_why() {
    let level = bounce(1);
    let (after_one, _) = level.step(&level.start(), LEFT).expect("a plain step");
    let refusal = level
        .step(&after_one, LEFT)
        .expect_err("the move onto the trigger never settles")
        .to_string();
    assert!(refusal.contains(AGAIN), "{refusal}");
}

#[test]
fn a_hang_past_the_first_win_is_found_by_the_exploration_for_dead_rules() {
    let level = bounce(3);
    let outcome = bfs(&level, 10_000);
    assert_eq!((outcome.par(), outcome.hang()), (Some(1), None));
    let hang = level
        .idle(10_000.into())
        .expect("the space is small")
        .expect_err("the trigger is four steps away");
    assert_eq!(hang.moves, [RIGHT; 4]);
    assert!(hang.reason.contains(AGAIN), "{}", hang.reason);
    assert_eq!(level.fired_rules(10_000), None);
    // A level whose every move settles has its dead rules as before.
    let plugged = bounce(4);
    let dead = plugged
        .idle(10_000.into())
        .expect("small")
        .expect("no hang");
    assert!(dead.iter().any(|rule| rule.contains("again")), "{dead:?}");
}
