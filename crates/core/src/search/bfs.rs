use std::borrow::Borrow as _;
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

use super::arena::{
    Arena, Grown, Held, Insert, Seen, Slot, StoreOf, cheapest_step, hash_of, make_room, same,
};
use super::budget::{Bound, Budget, Depths, Reached};
use super::ledger::Kept;
use super::parallel::share;
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
    let chunk = chunk_of::<G>();
    let per_round = (ROUND / chunk).max(1);
    // One lane per chunk of a round, reused round after round: lane `j`
    // always takes the round's `j`th chunk, so what each holds, and what
    // the search counts for it, depends on the level alone.
    let mut lanes: Vec<Mutex<Lane<G>>> = Vec::new();
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
        let end = (head + chunk * per_round).min(arena.len());
        let chunks = (end - head).div_ceil(chunk);
        let nodes = |j: usize| head + j * chunk..(head + (j + 1) * chunk).min(end);
        while lanes.len() < chunks {
            lanes.push(Mutex::new(Lane::default()));
            if G::BATCH > 1 {
                // The chunk's states, listed afresh for each chunk.
                kept.set(0, (chunk * size_of::<&G::State>()) as u64, false);
            }
        }
        // Every chunk of the round expanded at once, against the visited
        // table as it was when the round began: nothing is written to it
        // until they are all done.
        {
            let (arena, seen, lanes) = (&arena, &seen, &lanes);
            share(chunks, |j| {
                let mut lane = lanes[j].lock().unwrap_or_else(|p| p.into_inner());
                lane.expand(game, arena, seen, nodes(j), None);
            });
        }
        // Then their successors stored, chunk after chunk, in the order
        // one thread would have met them.
        for (j, lane) in lanes[..chunks].iter_mut().enumerate() {
            let lane = lane.get_mut().unwrap_or_else(|p| p.into_inner());
            if lane.marks.spilled {
                // Too many for the lane as it is: again, here, where it
                // may grow within the budget.
                lane.expand(game, &arena, &seen, nodes(j), Some(&mut kept));
            }
            let Lane {
                probes,
                batch,
                marks: Marks {
                    won, met, short, ..
                },
            } = lane;
            // The successors generated before a winning one are stored too,
            // and a full arena stops the search before the win is seen,
            // exactly as if each successor were looked up as it was
            // generated. Where the search stops, if it does: at which probe,
            // of which node, and why.
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
            let short = short
                .take()
                .map(|(from, bound)| (probes.len(), from, bound));
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
            if let Some(winner) = *won {
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

/// The states of one chunk of the frontier, for a game that takes them one
/// at a time: enough that a chunk's work outweighs handing it to a thread,
/// few enough that a round has a chunk for every core. A game that asks
/// for more at once ([`Game::BATCH`]) gets chunks of its batch.
const CHUNK: usize = 256;

/// The states of one round: its chunks are expanded at once, then their
/// successors stored in order. A game whose batch is this big or bigger
/// (one over the process protocol) has a chunk a round: its own processes
/// share a chunk's states out.
const ROUND: usize = 16 * CHUNK;

/// How many queued states one chunk holds.
fn chunk_of<G: Game>() -> usize {
    if G::BATCH > 1 { G::BATCH } else { CHUNK }
}

/// One successor held before it is looked up: the node it was generated
/// from, the state (or where it is held), its key and its id's hash.
type Probe<G> = (usize, Held<G>, <G as Game>::Key, u64);

/// One chunk's successors, as its expansion left them, and the buffers
/// that hold them.
struct Lane<G: Game> {
    /// The successors not in the visited table when the round began, in
    /// the order generated. A `Copy` successor is held here itself; a
    /// slice one in `batch`, so it is copied, never allocated.
    probes: Vec<Probe<G>>,
    batch: StoreOf<G>,
    marks: Marks,
}

impl<G: Game> Default for Lane<G> {
    fn default() -> Self {
        Lane {
            probes: Vec::new(),
            batch: StoreOf::<G>::default(),
            marks: Marks::default(),
        }
    }
}

impl<G: Game> Lane<G> {
    /// Generates the successors of `nodes`, keeping those the visited
    /// table does not know. With `kept`, the buffers grow within the
    /// search's budget (one thread, in order); without, they hold what
    /// fits and the lane is marked `spilled` if that is not all, so that
    /// no thread's work changes what the search counts.
    fn expand(
        &mut self,
        game: &G,
        arena: &Arena<G>,
        seen: &Seen<Slot<G>>,
        nodes: Range<usize>,
        mut kept: Option<&mut Kept>,
    ) {
        let Lane {
            probes,
            batch,
            marks,
        } = self;
        probes.clear();
        batch.clear();
        *marks = Marks::default();
        // Most games let a move be undone: skipping the state we came from
        // without a table lookup is cheap, and it is already stored.
        let mut came_from = (usize::MAX, None);
        let mut take = |probes: &mut Vec<Probe<G>>,
                        batch: &mut StoreOf<G>,
                        marks: &mut Marks,
                        node: usize,
                        next: &G::State,
                        cost: Cost| {
            // One compare per edge keeps a game's broken promise from
            // turning into a silently wrong par.
            assert_eq!(cost, 1, "the game's unit_costs() promised moves of cost 1");
            if marks.ended() {
                return;
            }
            if game.is_won(next) {
                marks.won = Some(node);
                return;
            }
            if game.is_hung(next) {
                if marks.met.is_none() {
                    marks.met = Some((node, probes.len()));
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
            if came_from.1.is_some_and(|parent| same::<G>(parent, id)) {
                return;
            }
            let hash = hash_of(&id);
            seen.prefetch(hash);
            if probes.len() == probes.capacity() || !batch.can_hold(next) {
                match kept.as_deref_mut() {
                    None => {
                        marks.spilled = true;
                        return;
                    }
                    Some(kept) => {
                        if let Err(bound) = hold_room::<G>(probes, batch, next, kept) {
                            marks.short = Some((node, bound));
                            return;
                        }
                    }
                }
            }
            probes.push((node, batch.hold(next), key, hash));
        };
        if G::BATCH > 1 {
            // The chunk's states in one call.
            let states: Vec<&G::State> = nodes.clone().map(|node| arena.state(node)).collect();
            game.successors_of_many(&states, |index, _, next, cost| {
                take(probes, batch, marks, nodes.start + index, next, cost);
            });
            sift(arena, seen, probes, batch, &mut marks.met, 0);
        } else {
            for node in nodes {
                let from = probes.len();
                game.successors_of_many(&[arena.state(node)], |_, _, next, cost| {
                    take(probes, batch, marks, node, next, cost);
                });
                // Looked up now, while the slots prefetched for this
                // node's successors are on their way or in cache.
                sift(arena, seen, probes, batch, &mut marks.met, from);
                if marks.ended() {
                    break;
                }
            }
        }
    }
}

/// What one chunk's expansion met besides successors to store.
#[derive(Default)]
struct Marks {
    /// The first node of the chunk with a winning successor: the nodes
    /// after it, and its successors after the winning one, are ignored,
    /// exactly as if the nodes were expanded one by one.
    won: Option<usize>,
    /// The chunk's first hang: its node, and how many probes were kept
    /// before it (a search that stops at a probe does not meet a hang
    /// generated after it, as if the nodes were expanded one by one).
    met: Option<(usize, usize)>,
    /// The node of the first successor that could not be held for want of
    /// memory, and the bound: every probe held came before it, and the
    /// successors after it are ignored, as after a win.
    short: Option<(usize, Bound)>,
    /// Expanded without growing, the buffers were too small: expand again
    /// with room to grow.
    spilled: bool,
}

impl Marks {
    /// Whether the chunk's later successors are ignored.
    fn ended(&self) -> bool {
        self.won.is_some() || self.short.is_some() || self.spilled
    }
}

/// Drops from `probes[from..]` the states the visited table holds (it is
/// not written while a round is expanded, so any thread may read it), and
/// keeps `met`'s count of the probes before a hang true.
#[inline]
fn sift<G: Game>(
    arena: &Arena<G>,
    seen: &Seen<Slot<G>>,
    probes: &mut Vec<Probe<G>>,
    batch: &StoreOf<G>,
    met: &mut Option<(usize, usize)>,
    from: usize,
) {
    let mut kept = from;
    for read in from..probes.len() {
        if let Some((_, before)) = met
            && *before == read
        {
            *before = kept;
        }
        let (_, held, key, hash) = &probes[read];
        let id = StoreOf::<G>::id(*key, batch.held(held));
        if !seen.contains(*hash, |slot| same::<G>(arena.slot_id(slot), id)) {
            probes[kept] = probes[read];
            kept += 1;
        }
    }
    if let Some((_, before)) = met
        && *before == probes.len()
    {
        *before = kept;
    }
    probes.truncate(kept);
}

/// Makes room to hold `next` as one more probe: in `probes`, and, for a
/// slice state, in `batch`; or says why not. Out of line, so that the
/// successor closure stays small enough to be inlined into the game's
/// loop.
#[cold]
#[inline(never)]
fn hold_room<G: Game>(
    probes: &mut Vec<Probe<G>>,
    batch: &mut StoreOf<G>,
    next: &G::State,
    kept: &mut Kept,
) -> Result<(), Bound> {
    if probes.len() == probes.capacity() {
        make_room(probes, kept)?;
    }
    match batch.can_hold(next) {
        true => Ok(()),
        false => grow_store(batch, next, kept),
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
