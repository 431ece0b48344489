use std::time::Instant;

use rustc_hash::FxHashSet;

use super::arena::Arena;
use super::{Outcome, Stats};
use crate::game::{Cost, Game};

/// Breadth-first search from the level's start: the fewest moves that win.
///
/// Exact when every move costs 1 ([`Game::unit_costs`]); [`super::solve`]
/// falls back to [`super::dijkstra`] otherwise. The goal is tested when a
/// state is generated, so the winning state itself is never stored.
///
/// ```
/// # use puzzle_qa::game::{Cost, Game, NotationError};
/// // A corridor of 5 cells; walk from cell 0 to cell 4, one cell per move.
/// struct Corridor;
/// impl Game for Corridor {
///     type State = i32;
///     type Key = i32;
///     type Move = i32;
///     type Refusal = &'static str;
///     fn start(&self) -> i32 { 0 }
///     fn key(&self, s: &i32) -> i32 { *s }
///     fn is_won(&self, s: &i32) -> bool { *s == 4 }
///     fn moves(&self, _: &i32) -> impl Iterator<Item = i32> { [-1, 1].into_iter() }
///     fn step(&self, s: &i32, d: i32) -> Result<(i32, Cost), &'static str> {
///         if (0..5).contains(&(s + d)) { Ok((s + d, 1)) } else { Err("wall") }
///     }
///     fn format_moves(&self, m: &[i32]) -> String { format!("{m:?}") }
///     fn parse_moves(&self, _: &str) -> Result<Vec<i32>, NotationError> { Ok(vec![]) }
/// }
///
/// let outcome = puzzle_qa::search::bfs(&Corridor, 100);
/// assert_eq!(outcome.par(), Some(4));
/// assert_eq!(outcome.path(), Some(&[1, 1, 1, 1][..]));
/// assert_eq!(outcome.stats().expanded, 4);
/// assert!(matches!(puzzle_qa::search::bfs(&Corridor, 2), puzzle_qa::search::Outcome::LimitReached { .. }));
/// ```
pub fn bfs<G: Game>(game: &G, limit: usize) -> Outcome<G::Move> {
    let clock = Instant::now();
    let start = game.start();
    let stats = |expanded: u64, stored: usize| Stats {
        expanded,
        stored: stored as u64,
        elapsed: clock.elapsed(),
    };
    if game.is_won(&start) {
        return Outcome::Solved {
            par: 0,
            path: Vec::new(),
            stats: stats(0, 1),
        };
    }

    let mut arena = Arena::<G>::new(start);
    let mut seen = FxHashSet::default();
    seen.insert(game.key(&start));
    // The arena is the queue: nodes are appended in breadth-first order, and
    // `head` is the next one to expand.
    let mut head = 0;
    while head < arena.len() {
        let state = *arena.state(head);
        let mut win = None;
        let mut over_limit = false;
        game.successors(&state, |mv, next, cost| {
            // One compare per edge keeps a game's broken promise from
            // turning into a silently wrong par.
            assert_eq!(cost, 1, "the game's unit_costs() promised moves of cost 1");
            if win.is_some() || over_limit {
                return;
            }
            if game.is_won(&next) {
                win = Some(mv);
            } else if seen.insert(game.key(&next)) {
                if arena.len() >= limit {
                    over_limit = true;
                } else {
                    arena.push(next, head, mv);
                }
            }
        });
        head += 1;
        if let Some(mv) = win {
            let mut path = arena.path_to(head - 1);
            path.push(mv);
            return Outcome::Solved {
                par: path.len() as Cost,
                path,
                stats: stats(head as u64, arena.len()),
            };
        }
        if over_limit {
            return Outcome::LimitReached {
                stats: stats(head as u64, arena.len()),
            };
        }
    }
    Outcome::Unsolvable {
        stats: stats(head as u64, arena.len()),
    }
}
