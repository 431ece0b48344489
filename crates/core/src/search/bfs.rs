use std::borrow::Borrow as _;
use std::time::Instant;

use super::arena::{
    Arena, Grown, Held, Insert, Seen, StoreOf, cheapest_step, hash_of, make_room, same,
};
use super::budget::{Bound, Budget, Depths, Reached};
use super::ledger::Kept;
use super::store::Store;
use super::{Outcome, Stats};
use crate::game::{Cost, Game};

/// Breadth-first search from the level's start: the fewest moves that win,
/// within `budget` (a number alone is a state limit, with the default
/// memory budget: [`Budget`]).
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
pub fn bfs<G: Game>(game: &G, budget: impl Into<Budget>) -> Outcome<G::Move> {
    let Budget {
        states: limit,
        bytes,
    } = budget.into();
    let clock = Instant::now();
    let mut kept = Kept::new(bytes);
    let start = game.start();
    let mut arena = Arena::new(start.borrow(), false, &mut kept);
    let stats = |expanded: usize, arena: &Arena<G>, kept: &Kept| Stats {
        expanded: expanded as u64,
        stored: arena.len() as u64,
        elapsed: clock.elapsed(),
        state_bytes: arena.state_bytes(),
        kept_bytes: kept.peak(),
    };
    if game.is_won(start.borrow()) {
        return Outcome::Solved {
            par: 0,
            path: Vec::new(),
            stats: stats(0, &arena, &kept),
            hang: None,
        };
    }

    let first = arena.slots(game).next().expect("the start is stored");
    let mut seen = Seen::new(first, &mut kept);
    // The successors of a chunk of queued states (one state, unless the
    // game asks for more at once: [`Game::BATCH`]), with their keys and
    // their ids' hashes, gathered before any is looked up, so that their
    // table slots are fetched in parallel. A `Copy` successor is held in
    // `probes` itself; a slice one in `batch`, reused, so it is copied,
    // never allocated. Each probe names the node it was generated from.
    let mut batch = StoreOf::<G>::default();
    let mut probes: Vec<(usize, Held<G>, G::Key, u64)> = Vec::new();
    let chunk = G::BATCH.max(1);
    if chunk > 1 {
        // The chunk's states, listed afresh for each chunk.
        kept.set(0, (chunk * size_of::<&G::State>()) as u64, false);
    }
    // The first node of a hang ([`Game::is_hung`]) among the successors,
    // in breadth-first order; it is neither stored nor expanded.
    let mut hang: Option<usize> = None;
    // New states are stored while the arena is shorter than this: the
    // state limit, or the arena's length once the visited table can take
    // no more (and then why, in `closed`).
    let mut open_until = limit;
    let mut closed: Option<Bound> = None;
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
        // node, and how many probes were generated before it (a search that
        // stops at a probe does not meet a hang generated after it, as if
        // the nodes were expanded one by one).
        let mut met: Option<(usize, usize)> = None;
        // The first successor that could not be held for want of memory:
        // how many probes were held before it, and its node (and the bound,
        // in `refused`). The successors after it are ignored, as after a
        // win.
        let mut short: Option<(usize, usize)> = None;
        let mut refused: Option<Bound> = None;
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
                if won.is_some() || short.is_some() {
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
                    if (probes.len() == probes.capacity() || !batch.can_hold(next))
                        && !hold_room::<G>(&mut probes, &mut batch, next, &mut kept, &mut refused)
                    {
                        short = Some((probes.len(), node));
                        return;
                    }
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
        // Where the search stops, if it does: at which probe, of which node,
        // and why.
        let mut stop: Option<(usize, usize, Bound)> = None;
        'probes: for (probe, (from, held, key, hash)) in probes.iter().enumerate() {
            let (from, key, hash) = (*from, *key, *hash);
            let next = batch.held(held);
            let id = StoreOf::<G>::id(key, next);
            loop {
                let node = arena.len();
                let slot = StoreOf::<G>::slot(key, node as u32);
                let room = || node < open_until && arena.fits(next);
                match seen.insert(hash, slot, |slot| same::<G>(arena.slot_id(slot), id), room) {
                    Insert::New => {
                        arena.push(next, from);
                        if seen.is_full() {
                            match seen.grow(arena.slots(game), &mut kept) {
                                Ok(()) => {}
                                Err(Grown::Full(bound)) => {
                                    open_until = arena.len();
                                    closed = Some(bound);
                                }
                                Err(Grown::Lost(bound)) => {
                                    stop = Some((probe + 1, from, bound));
                                    break 'probes;
                                }
                            }
                        }
                    }
                    Insert::Known => {}
                    Insert::Full => {
                        let bound = if node >= limit {
                            Bound::States
                        } else if let Some(bound) = &closed {
                            bound.clone()
                        } else {
                            match arena.grow(next, &mut kept) {
                                // Room now: look it up again.
                                Ok(()) => continue,
                                Err(bound) => bound,
                            }
                        };
                        stop = Some((probe, from, bound));
                        break 'probes;
                    }
                }
                break;
            }
        }
        let short = short.map(|(probe, from)| {
            let bound = refused.take().expect("a successor not held says why");
            (probe, from, bound)
        });
        if let Some((probe, from, bound)) = stop.or(short) {
            let hang = hang.or(met
                .filter(|&(_, before)| before <= probe)
                .map(|(node, _)| node));
            return Outcome::LimitReached {
                stats: stats(from + 1, &arena, &kept),
                hang: hang.map(|node| arena.hang_after(game, node)),
                reached: Reached {
                    bound,
                    depths: Some(depths(&arena, from)),
                },
            };
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
                stats: stats(winner + 1, &arena, &kept),
                hang: hang.map(|node| arena.hang_after(game, node)),
            };
        }
        head = end;
    }
    let stats = stats(head, &arena, &kept);
    match hang {
        Some(node) => Outcome::Hung {
            hang: arena.hang_after(game, node),
            stats,
        },
        None => Outcome::Unsolvable { stats },
    }
}

/// Makes room to hold `next` as one more probe: in `probes`, and, for a
/// slice state, in `batch`; or says why not in `refused`. Out of line, and
/// with nothing to drop in the caller, so that the successor closure stays
/// small enough to be inlined into the game's loop.
#[cold]
#[inline(never)]
fn hold_room<G: Game>(
    probes: &mut Vec<(usize, Held<G>, G::Key, u64)>,
    batch: &mut StoreOf<G>,
    next: &G::State,
    kept: &mut Kept,
    refused: &mut Option<Bound>,
) -> bool {
    let room = if probes.len() == probes.capacity() {
        make_room(probes, kept)
    } else {
        Ok(())
    };
    match room.and_then(|()| match batch.can_hold(next) {
        true => Ok(()),
        false => grow_store(batch, next, kept),
    }) {
        Ok(()) => true,
        Err(bound) => {
            *refused = Some(bound);
            false
        }
    }
}

/// Grows `store` (BFS's batch of slice successors) so that `next` fits:
/// twice the states, or as many as the budget leaves room for.
#[cold]
#[inline(never)]
fn grow_store<S: ?Sized, T: Store<S>>(
    store: &mut T,
    next: &S,
    kept: &mut Kept,
) -> Result<(), Bound> {
    let len = store.len();
    let old = store.capacity_bytes();
    let want = (len * 2).max(64);
    let granted = kept.allow(
        old,
        store.bytes_for(want, next),
        store.bytes_for(len + 1, next),
        false,
    )?;
    let mut states = want;
    while states > len + 1 && store.bytes_for(states, next) > granted {
        states = len + 1 + (states - len - 1) / 2;
    }
    let asked = store.bytes_for(states, next).saturating_sub(old);
    let grown = store.try_grow(states, next);
    kept.set(old, store.capacity_bytes(), false);
    grown.map_err(|_| kept.refused(asked))
}

/// How far a breadth-first search had got when it stopped expanding
/// `from`: the arena holds its nodes in breadth-first order, so each depth
/// is a run of nodes, found by a binary search on a node's depth (its
/// chain of parents). `from`'s depth is complete: every node of it was
/// stored before the first was expanded.
fn depths<G: Game>(arena: &Arena<G>, from: usize) -> Depths {
    let depth_of = |mut node: usize| {
        let mut depth = 0;
        while let Some(parent) = arena.parent(node) {
            node = parent;
            depth += 1;
        }
        depth
    };
    // The first node at `depth` or deeper.
    let first_at = |depth: u32| {
        let (mut low, mut high) = (0, arena.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if depth_of(middle) < depth {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    };
    let deepest = depth_of(from);
    let (starts, next) = (first_at(deepest), first_at(deepest + 1));
    let before = if deepest == 0 {
        0
    } else {
        starts - first_at(deepest - 1)
    };
    Depths {
        deepest,
        states: (next - starts) as u64,
        before: before as u64,
        beyond: (arena.len() - next) as u64,
    }
}
