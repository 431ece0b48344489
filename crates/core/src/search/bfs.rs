use std::borrow::Borrow as _;
use std::time::Instant;

use super::arena::{Arena, Held, Insert, Seen, StoreOf, cheapest_step, hash_of, same};
use super::store::Store;
use super::{Outcome, Stats};
use crate::game::{Cost, Game};

/// Breadth-first search from the level's start: the fewest moves that win.
///
/// Exact when every move costs 1 ([`Game::unit_costs`]); [`super::solve`]
/// falls back to [`super::dijkstra`] otherwise. The goal is tested when a
/// state is generated, so the winning state itself is never stored; so is
/// a hang ([`Game::is_hung`]), whose first one in breadth-first order the
/// outcome reports.
///
/// ```
/// # use puzzle_qa_core::game::{Cost, Game, NotationError};
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
/// let outcome = puzzle_qa_core::search::bfs(&Corridor, 100);
/// assert_eq!(outcome.par(), Some(4));
/// assert_eq!(outcome.path(), Some(&[1, 1, 1, 1][..]));
/// assert_eq!(outcome.stats().expanded, 4);
/// assert!(matches!(puzzle_qa_core::search::bfs(&Corridor, 2), puzzle_qa_core::search::Outcome::LimitReached { .. }));
/// ```
pub fn bfs<G: Game>(game: &G, limit: usize) -> Outcome<G::Move> {
    let clock = Instant::now();
    let start = game.start();
    let mut arena = Arena::new(start.borrow());
    let stats = |expanded: usize, arena: &Arena<G>| Stats {
        expanded: expanded as u64,
        stored: arena.len() as u64,
        elapsed: clock.elapsed(),
        state_bytes: arena.state_bytes(),
    };
    if game.is_won(start.borrow()) {
        return Outcome::Solved {
            par: 0,
            path: Vec::new(),
            stats: stats(0, &arena),
            hang: None,
        };
    }

    let mut seen = Seen::new(arena.slots(game).next().expect("the start is stored"));
    // The successors of a chunk of queued states (one state, unless the
    // game asks for more at once: [`Game::BATCH`]), with their keys and
    // their ids' hashes, gathered before any is looked up, so that their
    // table slots are fetched in parallel. A `Copy` successor is held in
    // `probes` itself; a slice one in `batch`, reused, so it is copied,
    // never allocated. Each probe names the node it was generated from.
    let mut batch = StoreOf::<G>::default();
    let mut probes: Vec<(usize, Held<G>, G::Key, u64)> = Vec::new();
    let chunk = G::BATCH.max(1);
    // The node of the first successor that is a hang ([`Game::is_hung`]),
    // in breadth-first order; it is neither stored nor expanded.
    let mut hang: Option<usize> = None;
    // The arena is the queue: nodes are appended in breadth-first order, and
    // `head` is the next one to expand.
    let mut head = 0;
    while head < arena.len() {
        let end = (head + chunk).min(arena.len());
        // The first node of the chunk with a winning successor: the nodes
        // after it, and its successors after the winning one, are ignored,
        // exactly as if the nodes were expanded one by one.
        let mut won = None;
        // The chunk's first hang, if the search has met none before: its
        // node, and how many probes were generated before it (a full arena
        // stops the search at a probe, and a hang generated after that
        // probe is not met, as if the nodes were expanded one by one).
        let mut met: Option<(usize, usize)> = None;
        batch.clear();
        probes.clear();
        {
            // Most games let a move be undone: skipping the state we came
            // from without a table lookup is cheap, and it is already stored.
            let mut came_from = (usize::MAX, None);
            let mut take = |node: usize, next: &G::State, cost: Cost| {
                // One compare per edge keeps a game's broken promise from
                // turning into a silently wrong par.
                assert_eq!(cost, 1, "the game's unit_costs() promised moves of cost 1");
                if won.is_some() {
                    return;
                }
                if game.is_won(next) {
                    won = Some(node);
                    return;
                }
                if game.is_hung(next) {
                    if hang.is_none() && met.is_none() {
                        met = Some((node, probes.len()));
                    }
                    return;
                }
                if came_from.0 != node {
                    came_from = (
                        node,
                        arena.parent(node).map(|parent| arena.id(game, parent)),
                    );
                }
                let key = game.key(next);
                let id = StoreOf::<G>::id(key, next);
                if !came_from.1.is_some_and(|parent| same::<G>(parent, id)) {
                    let hash = hash_of(&id);
                    seen.prefetch(hash);
                    probes.push((node, batch.hold(next), key, hash));
                }
            };
            // One state needs no vector.
            let (one, many): ([&G::State; 1], Vec<&G::State>);
            let states: &[&G::State] = if chunk == 1 {
                one = [arena.state(head)];
                &one
            } else {
                many = (head..end).map(|node| arena.state(node)).collect();
                &many
            };
            game.successors_of_many(states, |index, _, next, cost| {
                take(head + index, next, cost);
            });
        }
        // The successors generated before a winning one are stored too, and
        // a full arena stops the search before the win is seen, exactly as
        // if each successor were looked up as it was generated.
        for (probe, (from, held, key, hash)) in probes.iter().enumerate() {
            let (key, hash) = (*key, *hash);
            let next = batch.held(held);
            let id = StoreOf::<G>::id(key, next);
            let node = arena.len();
            let slot = StoreOf::<G>::slot(key, node as u32);
            match seen.insert(
                hash,
                slot,
                |slot| same::<G>(arena.slot_id(slot), id),
                node < limit,
            ) {
                Insert::New => {
                    arena.push(next, *from);
                    if seen.is_full() {
                        seen.rebuild(arena.slots(game));
                    }
                }
                Insert::Known => {}
                Insert::Full => {
                    let hang = hang.or(met
                        .filter(|&(_, before)| before <= probe)
                        .map(|(node, _)| node));
                    return Outcome::LimitReached {
                        stats: stats(from + 1, &arena),
                        hang: hang.map(|node| arena.hang_after(game, node)),
                    };
                }
            }
        }
        hang = hang.or(met.map(|(node, _)| node));
        if let Some(winner) = won {
            let (mut path, reached) = arena.path_to(game, winner);
            let (last, _) = cheapest_step(game, reached.borrow(), |next| game.is_won(next))
                .expect("a state with the key of a winning state's parent wins too");
            path.push(last);
            return Outcome::Solved {
                par: path.len() as Cost,
                path,
                stats: stats(winner + 1, &arena),
                hang: hang.map(|node| arena.hang_after(game, node)),
            };
        }
        head = end;
    }
    let stats = stats(head, &arena);
    match hang {
        Some(node) => Outcome::Hung {
            hang: arena.hang_after(game, node),
            stats,
        },
        None => Outcome::Unsolvable { stats },
    }
}
