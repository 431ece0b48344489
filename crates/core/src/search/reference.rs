//! The `pathfinding` crate's breadth-first search over the same [`Game`],
//! for the benchmark only (cargo feature `pathfinding`): the evidence that
//! the hand-written [`super::bfs`] earns its place.

use std::borrow::Borrow as _;
use std::time::Instant;

use super::{Outcome, Stats};
use crate::game::{Cost, Game};

/// [`pathfinding::directed::bfs::bfs`] from the level's start, states as
/// nodes (owned: a slice state is a `Vec` each), successors collected from
/// [`Game::successors`] into a vector (the crate's interface). It reports
/// no counts: `expanded` counts the calls to the successor function, and
/// `stored` and `state_bytes` are left 0 (its index map is not reachable
/// from outside). It returns the path as states, so only the path's
/// length, the par, is kept.
pub fn pathfinding_bfs<G: Game>(game: &G) -> Outcome<()> {
    let clock = Instant::now();
    let mut expanded = 0u64;
    let path = pathfinding::directed::bfs::bfs(
        &game.start(),
        |state| {
            expanded += 1;
            let mut next = Vec::new();
            game.successors(state.borrow(), |_, successor, _| {
                if !game.is_hung(successor) {
                    next.push(successor.to_owned());
                }
            });
            next
        },
        |state| game.is_won(state.borrow()),
    );
    let stats = Stats {
        expanded,
        stored: 0,
        elapsed: clock.elapsed(),
        state_bytes: 0,
        kept_bytes: 0,
    };
    match path {
        Some(states) => Outcome::Solved {
            par: (states.len() - 1) as Cost,
            path: vec![(); states.len() - 1],
            stats,
            hang: None,
        },
        None => Outcome::Unsolvable { stats },
    }
}
