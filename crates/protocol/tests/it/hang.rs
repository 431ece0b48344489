//! A game whose rules never settle on some move (the Python game's `@`, a
//! whirlpool it sleeps on) is a finding, not a fault: the search goes on
//! past the request that got no answer, names the fewest moves that reach
//! it, and a replay of them is refused at the last.

use std::time::{Duration, Instant};

use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

use crate::{game, load, manifest, python};

const OPTIONS: SearchOptions = SearchOptions {
    algorithm: Algorithm::Bfs,
    limit: 1000,
    memory: puzzle_qa_core::search::DEFAULT_MEMORY,
};

/// A short timeout: each hang found costs a few of them.
const TIMEOUT: &str = "timeout_seconds = 1\n";

#[test]
fn a_move_that_gets_no_answer_is_a_hang_and_the_search_still_finds_the_par() {
    if !python() {
        return;
    }
    let clock = Instant::now();
    let (_folder, path) = manifest(TIMEOUT, &[]);
    let game = game(&path);
    // From the start, two steps left and one more win; one step right and
    // one more lands on the whirlpool.
    let level = load(&game, "G..P.@\n").level;
    let solution = level.solve(OPTIONS);
    assert_eq!(
        (solution.status, solution.par, solution.moves.as_deref()),
        (Status::Solved, Some(3), Some("LLL"))
    );
    let hang = solution.hang.expect("the whirlpool is met before the win");
    assert_eq!(hang.moves, "RR");
    assert!(hang.reason.contains("request `step`"), "{}", hang.reason);
    assert!(
        hang.reason.contains("no answer within 1 s"),
        "{}",
        hang.reason
    );

    // A replay of the moves named is refused at the last, for that reason.
    let replayed = level.replay_text(&hang.moves).unwrap();
    assert_eq!((replayed.won, replayed.failed_at), (false, Some(1)));
    let reason = replayed.reason.unwrap();
    assert!(reason.contains("no answer within 1 s"), "{reason}");
    assert!(
        clock.elapsed() < Duration::from_secs(30),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_level_whose_only_way_on_never_settles_is_a_hang_not_unsolvable() {
    if !python() {
        return;
    }
    let (_folder, path) = manifest(TIMEOUT, &[]);
    let game = game(&path);
    let level = load(&game, "P.@.G\n").level;
    let solution = level.solve(OPTIONS);
    assert_eq!((solution.status, solution.par), (Status::Hang, None));
    assert_eq!(solution.hang.unwrap().moves, "RR");
}

#[test]
fn a_start_that_gets_no_answer_before_any_move_is_named_is_a_hang_of_the_start() {
    if !python() {
        return;
    }
    let (_folder, path) = manifest(TIMEOUT, &[]);
    let game = game(&path);
    let level = load(&game, "@P.G\n").level;
    let solution = level.solve(OPTIONS);
    assert_eq!(solution.status, Status::Hang);
    let hang = solution.hang.unwrap();
    // No move can be blamed: the state the (no) moves reach is.
    assert_eq!(hang.moves, "");
    assert!(
        hang.reason.contains("request `successors`"),
        "{}",
        hang.reason
    );
    assert!(
        hang.reason
            .contains("no move of the game was known yet to try alone"),
        "{}",
        hang.reason
    );
}
