use std::borrow::Borrow as _;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::arena::{Arena, Indexed, NodeIndex, make_room};
use super::budget::{Bound, Budget, Reached};
use super::ledger::Kept;
use super::{Outcome, Stats};
use crate::game::{Cost, Game, OwnedState};

/// Uniform-cost search: the cheapest win for any move costs, free moves
/// included, within `budget` (a number alone is a state limit: [`Budget`]).
///
/// ```
/// # use puzzle_qa_core::game::{Cost, Game, NotationError};
/// // Reach 6 from 0: `+1` costs 1, `*2` is free.
/// struct Doubling;
/// impl Game for Doubling {
///     type State = u32;
///     type Key = u32;
///     type Move = char;
///     type Refusal = &'static str;
///     fn start(&self) -> u32 { 0 }
///     fn key(&self, s: &u32) -> u32 { *s }
///     fn is_won(&self, s: &u32) -> bool { *s == 6 }
///     fn moves(&self, _: &u32) -> impl Iterator<Item = char> { ['+', '*'].into_iter() }
///     fn step(&self, s: &u32, m: char) -> Result<(u32, Cost), &'static str> {
///         match m { '+' if *s < 6 => Ok((s + 1, 1)), '*' if *s * 2 <= 6 => Ok((s * 2, 0)), _ => Err("too big") }
///     }
///     fn unit_costs(&self) -> bool { false }
///     fn format_moves(&self, m: &[char]) -> String { m.iter().collect() }
///     fn parse_moves(&self, t: &str) -> Result<Vec<char>, NotationError> { Ok(t.chars().collect()) }
/// }
///
/// let outcome = puzzle_qa_core::search::dijkstra(&Doubling, 100);
/// assert_eq!(outcome.par(), Some(2)); // 0 +1 → 1 *2 → 2 +1 → 3 *2 → 6
/// assert_eq!(outcome.path().map(|p| Doubling.format_moves(p)), Some("+*+*".to_string()));
/// ```
pub fn dijkstra<G: Game>(game: &G, budget: impl Into<Budget>) -> Outcome<G::Move> {
    best_first(game, budget.into(), |_| 0)
}

/// A* search guided by [`Game::heuristic`]; with no heuristic it is
/// [`dijkstra`]. Exact as long as the heuristic never overestimates.
///
/// ```
/// # use puzzle_qa_core::game::{Cost, Game, NotationError};
/// // Walk on a line from 0 to 20 in steps of 1 or 2; the distance left,
/// // halved and rounded up, never overestimates.
/// struct Line;
/// impl Game for Line {
///     type State = i32;
///     type Key = i32;
///     type Move = i32;
///     type Refusal = &'static str;
///     fn start(&self) -> i32 { 0 }
///     fn key(&self, s: &i32) -> i32 { *s }
///     fn is_won(&self, s: &i32) -> bool { *s == 20 }
///     fn moves(&self, _: &i32) -> impl Iterator<Item = i32> { [-2, -1, 1, 2].into_iter() }
///     fn step(&self, s: &i32, d: i32) -> Result<(i32, Cost), &'static str> {
///         if (-50..=50).contains(&(s + d)) { Ok((s + d, 1)) } else { Err("edge") }
///     }
///     fn heuristic(&self, s: &i32) -> Option<Cost> { Some(((20 - s).unsigned_abs() + 1) / 2) }
///     fn format_moves(&self, m: &[i32]) -> String { format!("{m:?}") }
///     fn parse_moves(&self, _: &str) -> Result<Vec<i32>, NotationError> { Ok(vec![]) }
/// }
///
/// let informed = puzzle_qa_core::search::astar(&Line, 1000);
/// let blind = puzzle_qa_core::search::dijkstra(&Line, 1000);
/// assert_eq!(informed.par(), Some(10));
/// assert_eq!(blind.par(), Some(10));
/// assert!(informed.stats().expanded < blind.stats().expanded);
/// ```
pub fn astar<G: Game>(game: &G, budget: impl Into<Budget>) -> Outcome<G::Move> {
    best_first(game, budget.into(), |state| {
        game.heuristic(state).unwrap_or(0)
    })
}

/// One best-first loop serves both: nodes are ordered by `g + h`, ties broken
/// towards the larger `g` (closer to a goal) and then by insertion order, so
/// the result is deterministic. The goal is tested when a node is taken off
/// the frontier, which is what makes the cost optimal. A hang
/// ([`Game::is_hung`]) is noted when it is generated, and the first kept.
fn best_first<G: Game>(
    game: &G,
    budget: Budget,
    heuristic: impl Fn(&G::State) -> Cost,
) -> Outcome<G::Move> {
    let Budget {
        states: limit,
        bytes,
    } = budget;
    let clock = Instant::now();
    let mut kept = Kept::new(bytes);
    let start = game.start();
    // Each node's best known cost is kept beside it, in the arena.
    let mut arena = Arena::new(start.borrow(), true, &mut kept);
    let mut index = NodeIndex::new(game, &arena, &mut kept);
    // Entries: (f, Reverse-ordered g, sequence number, node). A min-heap via
    // `Reverse`; stale entries (whose g is no longer the node's best) are
    // skipped when popped. `f` saturates: a game may answer a huge bound
    // for a state that can never win.
    let mut frontier = BinaryHeap::new();
    make_room(&mut frontier, &mut kept).expect("a few entries fit any budget");
    let mut sequence = 0u64;
    frontier.push(Reverse((
        heuristic(start.borrow()),
        Cost::MAX,
        sequence,
        0usize,
    )));
    let mut expanded = 0u64;
    let stats = |expanded: u64, arena: &Arena<G>, kept: &Kept| Stats {
        expanded,
        stored: arena.len() as u64,
        elapsed: clock.elapsed(),
        state_bytes: arena.state_bytes(),
        kept_bytes: kept.peak(),
    };
    // The state being expanded, copied out of the arena, which grows while
    // its successors are pushed; reused, so a slice state is not allocated.
    let mut state: OwnedState<G> = start;
    // The node of the first hang generated ([`Game::is_hung`]).
    let mut hang: Option<usize> = None;

    while let Some(Reverse((_, inverted_g, _, node))) = frontier.pop() {
        let g = Cost::MAX - inverted_g;
        if g != arena.cost(node) {
            continue;
        }
        arena.state(node).clone_into(&mut state);
        if game.is_won(state.borrow()) {
            return Outcome::Solved {
                par: g,
                path: arena.path_to(game, node).0,
                stats: stats(expanded, &arena, &kept),
                hang: hang.map(|node| arena.hang_after(game, node)),
            };
        }
        expanded += 1;
        // Why the search stops here, once a successor cannot be kept.
        let mut stop: Option<Bound> = None;
        game.successors(state.borrow(), |_, next, cost| {
            if stop.is_some() {
                return;
            }
            if game.is_hung(next) {
                hang = hang.or(Some(node));
                return;
            }
            let next_g = g + cost;
            let room = |arena: &Arena<G>| arena.len() < limit && arena.fits(next);
            let found = loop {
                match index.find_or_push(game, &mut arena, (next, node, next_g), room, &mut kept) {
                    Ok(Indexed::Full) if arena.len() >= limit => break Err(Bound::States),
                    Ok(Indexed::Full) => match arena.grow(next, &mut kept) {
                        // Room now: look it up again.
                        Ok(()) => continue,
                        Err(bound) => break Err(bound),
                    },
                    found => break found,
                }
            };
            let child = match found {
                Ok(Indexed::Known(known)) if arena.cost(known) <= next_g => return,
                Ok(Indexed::Known(known)) => {
                    arena.relink(known, node, next_g);
                    known
                }
                Ok(Indexed::New(child)) => child,
                Ok(Indexed::Full) => unreachable!("a full arena grows or stops the search"),
                Err(bound) => {
                    stop = Some(bound);
                    return;
                }
            };
            if frontier.len() == frontier.capacity()
                && let Err(bound) = make_room(&mut frontier, &mut kept)
            {
                stop = Some(bound);
                return;
            }
            sequence += 1;
            frontier.push(Reverse((
                next_g.saturating_add(heuristic(next)),
                Cost::MAX - next_g,
                sequence,
                child,
            )));
        });
        if let Some(bound) = stop {
            return Outcome::LimitReached {
                stats: stats(expanded, &arena, &kept),
                hang: hang.map(|node| arena.hang_after(game, node)),
                reached: Reached {
                    bound,
                    depths: None,
                },
            };
        }
    }
    let stats = stats(expanded, &arena, &kept);
    match hang {
        Some(node) => Outcome::Hung {
            hang: arena.hang_after(game, node),
            stats,
        },
        None => Outcome::Unsolvable { stats },
    }
}
