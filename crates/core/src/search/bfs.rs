use std::borrow::Borrow as _;
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

use super::arena::{
    Arena, Frozen, Grown, Held, Insert, Lookup, Seen, Slot, StoreOf, buffer_bytes, cheapest_step,
    hash_of, make_room, same,
};
use super::budget::{Bound, Budget, Depths, Reached};
use super::ledger::Kept;
use super::parallel::{Crew, Helm};
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
/// The frontier is expanded in rounds on every thread of the current
/// rayon pool, and what each round found stored in the order one thread
/// would have met it: the outcome, its counts and what the search kept are
/// the same on any number of threads (only the time differs).
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
    let arena = Arena::new(start.borrow(), false, &mut kept);
    if game.is_won(start.borrow()) {
        return Outcome::Solved {
            par: 0,
            path: Vec::new(),
            stats: figures(0, &arena, &kept, clock),
            hang: None,
        };
    }
    let first = arena.slots(game).next().expect("the start is stored");
    let seen = Seen::new(first, StoreOf::<G>::TAGGED, &mut kept);
    let mut search = Search {
        game,
        arena,
        seen,
        kept,
        clock,
        limit,
        open_until: limit,
        closed: None,
        hang: None,
    };

    let chunk = chunk_of::<G>();
    let span = chunk * (ROUND / chunk).max(1);
    // One lane per chunk of a round, reused round after round: lane `j`
    // always takes the round's `j`th chunk, so what each holds, and what
    // the search counts for it, depends on the level alone.
    let mut lanes: Lanes<G> = Vec::new();
    // The pool's other threads, called in by the first round that has a
    // chunk for them, and with the search to its end.
    let mut crew = Crew::new();
    // The arena is the queue: nodes are appended in breadth-first order,
    // and each round expands the next of them.
    let mut round = 0..1;
    while !round.is_empty() {
        search.ready(&mut lanes, &round, chunk);
        // Every chunk of the round is expanded against the arena and the
        // visited table as they were when the round began. This thread
        // stores the chunks' successors, chunk after chunk in the order
        // one thread would have met them, as soon as each chunk is
        // expanded, taking chunks itself while it waits; so the arena and
        // table are written while other threads read them. They read
        // them through views: the storing thread only appends and takes
        // free slots, a lookup passes over the nodes stored since the
        // round began, and the arena or table grows only once every chunk
        // is expanded ([`Search::store`]). What a chunk keeps so does not
        // depend on timing.
        // SAFETY: until the share returns, the arena and table are only
        // pushed and inserted into while a chunk may be expanded.
        let (frozen, lookup) = unsafe { (search.arena.frozen(), search.seen.view()) };
        let work = expander(game, &lanes, frozen, lookup, round.clone(), chunk);
        let stopped = crew.share_led(chunk_count(&round, chunk), work, |helm| {
            search.store(&lanes, &round, chunk, helm)
        });
        if let Some(outcome) = stopped {
            return outcome;
        }
        round = round.end..(round.end + span).min(search.arena.len());
    }
    let stats = search.stats(round.start);
    match search.hang {
        Some(node) => Outcome::Hung {
            hang: search.arena.hang_after(game, node),
            stats,
        },
        None => Outcome::Unsolvable { stats },
    }
}

/// One lane per chunk of a round.
type Lanes<G> = Vec<Mutex<Lane<G>>>;

/// How many chunks a round of `nodes` has.
fn chunk_count(nodes: &Range<usize>, chunk: usize) -> usize {
    nodes.len().div_ceil(chunk)
}

/// The nodes of a round's `j`th chunk.
fn chunk_nodes(nodes: &Range<usize>, chunk: usize, j: usize) -> Range<usize> {
    nodes.start + j * chunk..(nodes.start + (j + 1) * chunk).min(nodes.end)
}

/// The work of expanding chunk `j` of the round of `nodes` into lane `j`.
fn expander<'a, G: Game>(
    game: &'a G,
    lanes: &'a [Mutex<Lane<G>>],
    frozen: Frozen<G>,
    lookup: Lookup<Slot<G>>,
    nodes: Range<usize>,
    chunk: usize,
) -> impl Fn(usize) + Sync + 'a {
    move |j| {
        let mut lane = lanes[j].lock().unwrap_or_else(|p| p.into_inner());
        lane.expand(game, &frozen, &lookup, chunk_nodes(&nodes, chunk, j));
    }
}

/// A search's figures, having expanded `expanded` nodes of `arena`.
fn figures<G: Game>(expanded: usize, arena: &Arena<G>, kept: &Kept, clock: Instant) -> Stats {
    Stats {
        expanded: expanded as u64,
        stored: arena.len() as u64,
        elapsed: clock.elapsed(),
        state_bytes: arena.state_bytes(),
        kept_bytes: kept.peak(),
    }
}

/// What a breadth-first search keeps from round to round.
struct Search<'g, G: Game> {
    game: &'g G,
    arena: Arena<G>,
    seen: Seen<Slot<G>>,
    kept: Kept,
    clock: Instant,
    limit: usize,
    /// New states are stored while the arena is shorter than this: the
    /// state limit, or the arena's length once the visited table can take
    /// no more (and then why, in `closed`).
    open_until: usize,
    closed: Option<Bound>,
    /// The first node of a hang ([`Game::is_hung`]) among the successors,
    /// in breadth-first order; it is neither stored nor expanded.
    hang: Option<usize>,
}

impl<G: Game> Search<'_, G> {
    /// The search's figures, having expanded `expanded` nodes.
    fn stats(&self, expanded: usize) -> Stats {
        figures(expanded, &self.arena, &self.kept, self.clock)
    }

    /// Makes `lanes` ready to expand the round of `nodes`.
    fn ready(&mut self, lanes: &mut Lanes<G>, nodes: &Range<usize>, chunk: usize) {
        let chunks = chunk_count(nodes, chunk);
        while lanes.len() < chunks {
            lanes.push(Mutex::new(Lane::default()));
            if G::BATCH > 1 {
                // The chunk's states, listed afresh for each chunk.
                self.kept
                    .set(0, (chunk * size_of::<&G::State>()) as u64, false);
            }
        }
        // Each lane of a round of several with room for as many successors
        // as the roomiest: a lane that fills while expanded (one first
        // used, or one whose chunk has more successors than it held
        // before) has the rest of its chunk expanded on one thread, when
        // it is stored. (A round of one chunk keeps its lane as it grew.)
        if chunks > 1 {
            let lanes = &mut lanes[..chunks];
            let widest = lanes
                .iter_mut()
                .map(|lane| lane_of(lane).probes.capacity())
                .max()
                .unwrap_or(0);
            for lane in lanes {
                lane_of(lane).reserve(widest, &self.arena, nodes.start, &mut self.kept);
            }
        }
    }

    /// Stores the successors `lanes` hold, those of the round of `nodes`,
    /// in order, each chunk's once `helm` says it is expanded; or the
    /// outcome, where the search stops in this round (or `None` where a
    /// chunk's expansion panicked, which the share raises again).
    ///
    /// Before the arena or the table grows (moves), every chunk of the
    /// round is expanded first. A table whose slots are keys, not nodes,
    /// is not written until then at all: a lookup could not tell a key
    /// stored in this round from one stored before.
    fn store(
        &mut self,
        lanes: &[Mutex<Lane<G>>],
        nodes: &Range<usize>,
        chunk: usize,
        helm: &mut Helm,
    ) -> Option<Outcome<G::Move>> {
        // A view reads a table's marks atomically only where they are
        // tags (see `Lookup::mark`).
        const { assert!(!StoreOf::<G>::NODE_SLOTS || StoreOf::<G>::TAGGED) };
        let game = self.game;
        if !StoreOf::<G>::NODE_SLOTS && !helm.finish() {
            return None;
        }
        for (j, lane) in lanes[..chunk_count(nodes, chunk)].iter().enumerate() {
            if !helm.wait_for(j) {
                return None;
            }
            let mut lane = lane.lock().unwrap_or_else(|p| p.into_inner());
            let lane = &mut *lane;
            if let Some(spill) = lane.marks.spilled.take() {
                // Too many for the lane as it was: the rest of it, from
                // the successor that did not fit, here, where it may grow
                // within the budget. What was held before it is kept.
                let rest = spill.node..chunk_nodes(nodes, chunk, j).end;
                // SAFETY: nothing is written to the arena or the table
                // while the lane is filled.
                let (frozen, lookup) = unsafe { (self.arena.frozen(), self.seen.view()) };
                lane.fill(
                    game,
                    &frozen,
                    &lookup,
                    rest,
                    Some(spill),
                    Some(&mut self.kept),
                );
            }
            let Lane {
                probes,
                batch,
                marks: Marks {
                    won, met, short, ..
                },
            } = lane;
            let (arena, seen, kept) = (&mut self.arena, &mut self.seen, &mut self.kept);
            // The successors generated before a winning one are stored too,
            // and a full arena stops the search before the win is seen,
            // exactly as if each successor were looked up as it was
            // generated. Where the search stops, if it does: at which probe,
            // of which node, and why.
            let mut stop: Option<(usize, usize, Bound)> = None;
            'probes: for (probe, (from, held, key, hash)) in probes.iter().enumerate() {
                let (from, key, hash) = (*from, *key, *hash);
                // The slots of the probes a little further on, fetched
                // while this one is stored: the round's expansion looked
                // at them, but on another core, or long enough ago.
                if let Some(ahead) = probes.get(probe + AHEAD) {
                    seen.prefetch(ahead.3);
                }
                let next = batch.held(held);
                let id = StoreOf::<G>::id(key, next);
                loop {
                    let node = arena.len();
                    let slot = StoreOf::<G>::slot(key, node as u32);
                    let room = || node < self.open_until && arena.fits(next);
                    match seen.insert(hash, slot, |slot| same::<G>(arena.slot_id(slot), id), room) {
                        Insert::New => {
                            arena.push(next, from);
                            if seen.is_full() {
                                if !helm.finish() {
                                    return None;
                                }
                                match seen.grow(arena.slots(game), kept) {
                                    Ok(()) => {}
                                    Err(Grown::Full(bound)) => {
                                        self.open_until = arena.len();
                                        self.closed = Some(bound);
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
                            let bound = if node >= self.limit {
                                Bound::States
                            } else if let Some(bound) = &self.closed {
                                bound.clone()
                            } else {
                                if !helm.finish() {
                                    return None;
                                }
                                match arena.grow(next, kept) {
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
                let hang = self.hang.or(met
                    .filter(|&(_, before)| before <= probe)
                    .map(|(node, _)| node));
                return Some(Outcome::LimitReached {
                    stats: self.stats(from + 1),
                    hang: hang.map(|node| self.arena.hang_after(game, node)),
                    reached: Reached {
                        bound,
                        depths: Some(depths(&self.arena, from)),
                    },
                });
            }
            self.hang = self.hang.or(met.map(|(node, _)| node));
            if let Some(winner) = *won {
                let (mut path, reached) = self.arena.path_to(game, winner);
                let (last, _) = cheapest_step(game, reached.borrow(), |next| game.is_won(next))
                    .expect("a state with the key of a winning state's parent wins too");
                path.push(last);
                return Some(Outcome::Solved {
                    par: path.len() as Cost,
                    path,
                    stats: self.stats(winner + 1),
                    hang: self.hang.map(|node| self.arena.hang_after(game, node)),
                });
            }
        }
        None
    }
}

/// The states of one chunk of the frontier, for a game that takes them one
/// at a time: enough that a chunk's work outweighs handing it to a thread,
/// few enough that a round has a chunk for every core, and that the
/// storing thread, which takes chunks between its stores, ends a round
/// close to when the others do. A game that asks for more at once
/// ([`Game::BATCH`]) gets chunks of its batch.
const CHUNK: usize = 128;

/// The states of one round: its chunks are expanded at once, and their
/// successors stored in order as each chunk is done. A game whose batch
/// is this big or bigger (one over the process protocol) has a chunk a
/// round: its own processes share a chunk's states out.
const ROUND: usize = 32 * CHUNK;

/// How many states of a chunk a game that takes them one at a time is
/// handed at once ([`Game::successors_of_many`]).
const GROUP: usize = 32;

/// How many probes ahead of the one being stored have their table slot
/// fetched.
const AHEAD: usize = 8;

/// How many queued states one chunk holds.
fn chunk_of<G: Game>() -> usize {
    if G::BATCH > 1 { G::BATCH } else { CHUNK }
}

/// One successor held before it is looked up: the node it was generated
/// from, the state (or where it is held), its key and its id's hash.
type Probe<G> = (usize, Held<G>, <G as Game>::Key, u64);

/// One chunk's successors, as its expansion left them, and the buffers
/// that hold them. Lanes sit side by side and different threads write
/// them at once (a probe pushed writes its vector's length): each on
/// cache lines of its own, so that no write evicts another core's lane.
#[repr(align(128))]
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
    /// table does not know: the lane's buffers hold what fits, and the
    /// lane is marked `spilled` where that is not all, so that no thread's
    /// work changes what the search counts.
    fn expand(&mut self, game: &G, arena: &Frozen<G>, seen: &Lookup<Slot<G>>, nodes: Range<usize>) {
        self.probes.clear();
        self.batch.clear();
        self.marks = Marks::default();
        self.fill(game, arena, seen, nodes, None, None);
    }

    /// Room for `count` successors like the arena's states (node `sample`
    /// tells a state's size), where the budget has it; short of budget,
    /// the lane grows as it fills.
    fn reserve(&mut self, count: usize, arena: &Arena<G>, sample: usize, kept: &mut Kept) {
        // States whose lengths have varied anywhere may vary in this lane.
        self.batch.vary_like(arena.store());
        let sample = arena.state(sample);
        // Refused by the allocator, a buffer is as it was: it grows as it
        // fills, or the search stops there.
        let old = buffer_bytes(&self.probes);
        let want = (count * size_of::<Probe<G>>()) as u64;
        if want > old && kept.allow(old, want, want, false).is_ok() {
            let _ = self.probes.try_reserve_exact(count - self.probes.len());
            kept.set(old, buffer_bytes(&self.probes), false);
        }
        let old = self.batch.capacity_bytes();
        let want = self.batch.bytes_for(count, sample);
        if want > old && kept.allow(old, want, want, false).is_ok() {
            let _ = self.batch.try_grow(count, sample);
            kept.set(old, self.batch.capacity_bytes(), false);
        }
    }

    /// [`Lane::expand`]'s work, adding to what the lane holds: from
    /// `nodes.start`, passing over its successors before `after`'s (those
    /// held before the lane spilled there). With `kept`, the buffers grow
    /// within the search's budget (one thread, in order).
    fn fill(
        &mut self,
        game: &G,
        arena: &Frozen<G>,
        seen: &Lookup<Slot<G>>,
        nodes: Range<usize>,
        after: Option<Spill>,
        mut kept: Option<&mut Kept>,
    ) {
        let Lane {
            probes,
            batch,
            marks,
        } = self;
        // The node whose successors are being taken, and how many it has
        // offered so far.
        let mut offered = (usize::MAX, 0);
        // Most games let a move be undone: skipping the state we came from
        // without a table lookup is cheap, and it is already stored. Its
        // id, looked up once a node, when first needed.
        let mut came_from = None;
        let mut take = |probes: &mut Vec<Probe<G>>,
                        batch: &mut StoreOf<G>,
                        marks: &mut Marks,
                        node: usize,
                        next: &G::State,
                        cost: Cost| {
            // One compare per edge keeps a game's broken promise from
            // turning into a silently wrong par.
            assert_eq!(cost, 1, "the game's unit_costs() promised moves of cost 1");
            if offered.0 != node {
                offered = (node, 0);
                came_from = None;
            }
            let index = offered.1;
            offered.1 += 1;
            if marks.ended() || after.is_some_and(|a| a.node == node && index < a.index) {
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
            let parent = *came_from
                .get_or_insert_with(|| arena.parent(node).map(|parent| arena.id(game, parent)));
            let key = game.key(next);
            let id = StoreOf::<G>::id(key, next);
            if parent.is_some_and(|parent| same::<G>(parent, id)) {
                return;
            }
            let hash = hash_of(&id);
            seen.prefetch(hash);
            if probes.len() == probes.capacity() || !batch.can_hold(next) {
                match kept.as_deref_mut() {
                    None => {
                        marks.spilled = Some(Spill { node, index });
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
        // Each node's successors are looked up as soon as the next node's
        // begin, while the slots prefetched for them are on their way or
        // in cache.
        let (mut current, mut from) = (nodes.start, probes.len());
        let mut play = |states: &[&G::State], first: usize| {
            game.successors_of_many(states, |index, _, next, cost| {
                let node = first + index;
                if node != current {
                    sift(arena, seen, probes, batch, &mut marks.met, from);
                    (current, from) = (node, probes.len());
                }
                take(probes, batch, marks, node, next, cost);
            });
        };
        if G::BATCH > 1 {
            // The chunk's states in one call.
            let states: Vec<&G::State> = nodes.clone().map(|node| arena.state(node)).collect();
            play(&states, nodes.start);
        } else {
            // A few states a call, listed on the stack, so that a game
            // borrows what it plays with (an engine and its buffers) once
            // for them all, on this thread, rather than once a state from
            // whichever thread had it last.
            for first in nodes.clone().step_by(GROUP) {
                let count = GROUP.min(nodes.end - first);
                let mut states = [arena.state(first); GROUP];
                for (slot, node) in states.iter_mut().zip(first..first + count) {
                    *slot = arena.state(node);
                }
                play(&states[..count], first);
            }
        }
        sift(arena, seen, probes, batch, &mut marks.met, from);
    }
}

/// A lane, as the one thread that stores a round has it.
fn lane_of<G: Game>(lane: &mut Mutex<Lane<G>>) -> &mut Lane<G> {
    lane.get_mut().unwrap_or_else(|p| p.into_inner())
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
    /// Expanded without growing, the buffers were too small for this
    /// successor: the chunk goes on from it with room to grow.
    spilled: Option<Spill>,
}

/// Where a lane's buffers were full: the `index`th successor of `node`
/// (counting every one the game offered), the first not held.
#[derive(Clone, Copy)]
struct Spill {
    node: usize,
    index: usize,
}

impl Marks {
    /// Whether the chunk's later successors are ignored.
    fn ended(&self) -> bool {
        self.won.is_some() || self.short.is_some() || self.spilled.is_some()
    }
}

/// Drops from `probes[from..]` the states the visited table holds (it is
/// not written while a round is expanded, so any thread may read it), and
/// keeps `met`'s count of the probes before a hang true.
#[inline]
fn sift<G: Game>(
    arena: &Frozen<G>,
    seen: &Lookup<Slot<G>>,
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
        let is = |slot| {
            arena
                .slot_id(slot)
                .is_some_and(|known| same::<G>(known, id))
        };
        if !seen.contains(*hash, is) {
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::game::NotationError;
    use crate::search::Status;

    /// A random graph of `size` states, four moves each, from state 1: the
    /// frontier grows about fourfold a depth until the graph fills, so a
    /// search runs many rounds. State 0 has `burst` more successors,
    /// leaves, more than a lane holds at once. From every state whose
    /// number is 5 more than a multiple of `hang_every` (if not 0), move 3
    /// never settles.
    #[derive(Clone, Copy)]
    struct Web {
        size: u64,
        goal: u64,
        burst: u64,
        hang_every: u64,
    }

    const HUNG: u64 = u64::MAX;

    impl Web {
        fn next(&self, state: u64, mv: u64) -> u64 {
            if mv >= 4 {
                return self.size + mv;
            }
            let mixed = state
                .wrapping_add(1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(mv.wrapping_mul(0xBF58_476D_1CE4_E5B9));
            (mixed >> 20) % self.size
        }

        fn hangs(&self, state: u64, mv: u64) -> bool {
            self.hang_every > 0 && mv == 3 && state % self.hang_every == 5
        }
    }

    impl Game for Web {
        type State = u64;
        type Key = u64;
        type Move = u64;
        type Refusal = &'static str;

        fn start(&self) -> u64 {
            1
        }
        fn key(&self, state: &u64) -> u64 {
            *state
        }
        fn is_won(&self, state: &u64) -> bool {
            *state == self.goal
        }
        fn is_hung(&self, state: &u64) -> bool {
            *state == HUNG
        }
        fn moves(&self, state: &u64) -> impl Iterator<Item = u64> {
            let burst = if *state == 0 { self.burst } else { 0 };
            0..4 + burst
        }
        fn step(&self, state: &u64, mv: u64) -> Result<(u64, Cost), &'static str> {
            if *state >= self.size || self.hangs(*state, mv) {
                return Err("never settles");
            }
            Ok((self.next(*state, mv), 1))
        }
        fn successors(&self, state: &u64, mut visit: impl FnMut(u64, &u64, Cost)) {
            if *state >= self.size {
                return;
            }
            for mv in self.moves(state) {
                match self.hangs(*state, mv) {
                    true => visit(mv, &HUNG, 1),
                    false => visit(mv, &self.next(*state, mv), 1),
                }
            }
        }
        fn format_moves(&self, moves: &[u64]) -> String {
            format!("{moves:?}")
        }
        fn parse_moves(&self, _: &str) -> Result<Vec<u64>, NotationError> {
            Ok(Vec::new())
        }
    }

    /// The same graph with each state as 8 bytes: a slice state, whose
    /// successors a lane holds in its own store.
    struct Bytes(Web);

    impl Game for Bytes {
        type State = [u8];
        type Key = ();
        type Move = u64;
        type Refusal = &'static str;
        const BATCH: usize = 1;

        fn start(&self) -> Vec<u8> {
            1u64.to_le_bytes().to_vec()
        }
        fn key(&self, _: &[u8]) {}
        fn is_won(&self, state: &[u8]) -> bool {
            self.0.is_won(&number(state))
        }
        fn is_hung(&self, state: &[u8]) -> bool {
            self.0.is_hung(&number(state))
        }
        fn moves(&self, state: &[u8]) -> impl Iterator<Item = u64> {
            let burst = if number(state) == 0 { self.0.burst } else { 0 };
            0..4 + burst
        }
        fn step(&self, state: &[u8], mv: u64) -> Result<(Vec<u8>, Cost), &'static str> {
            let (next, cost) = self.0.step(&number(state), mv)?;
            Ok((next.to_le_bytes().to_vec(), cost))
        }
        fn successors(&self, state: &[u8], mut visit: impl FnMut(u64, &[u8], Cost)) {
            self.0.successors(&number(state), |mv, next, cost| {
                visit(mv, &next.to_le_bytes(), cost)
            });
        }
        fn format_moves(&self, moves: &[u64]) -> String {
            self.0.format_moves(moves)
        }
        fn parse_moves(&self, text: &str) -> Result<Vec<u64>, NotationError> {
            self.0.parse_moves(text)
        }
    }

    fn number(bytes: &[u8]) -> u64 {
        u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
    }

    /// What the one-state-at-a-time search finds: status, par, path,
    /// expanded, stored, and the moves to its first hang.
    type Plain = (
        Status,
        Option<Cost>,
        Option<Vec<u64>>,
        u64,
        u64,
        Option<Vec<u64>>,
    );

    /// Breadth-first search in its plainest form, a state at a time, the
    /// goal tested when generated: what the rounds must agree with.
    fn plain(game: &Web, limit: usize) -> Plain {
        let mut states = vec![game.start()];
        let mut parents: Vec<Option<(usize, u64)>> = vec![None];
        let mut seen = HashMap::from([(game.start(), 0)]);
        let mut hang: Option<(usize, u64)> = None;
        let moves_to = |parents: &[Option<(usize, u64)>], mut node: usize| {
            let mut moves = Vec::new();
            while let Some((parent, mv)) = parents[node] {
                moves.push(mv);
                node = parent;
            }
            moves.reverse();
            moves
        };
        let with_hang = |parents: &[Option<(usize, u64)>], hang: Option<(usize, u64)>| {
            hang.map(|(node, mv)| {
                let mut moves = moves_to(parents, node);
                moves.push(mv);
                moves
            })
        };
        let mut node = 0;
        while node < states.len() {
            let mut found: Vec<(u64, u64)> = Vec::new();
            game.successors(&states[node], |mv, next, _| found.push((mv, *next)));
            for (mv, next) in found {
                if game.is_won(&next) {
                    let mut path = moves_to(&parents, node);
                    path.push(mv);
                    let par = path.len() as Cost;
                    let hang = with_hang(&parents, hang);
                    let expanded = node as u64 + 1;
                    return (
                        Status::Solved,
                        Some(par),
                        Some(path),
                        expanded,
                        states.len() as u64,
                        hang,
                    );
                }
                if game.is_hung(&next) {
                    hang = hang.or(Some((node, mv)));
                    continue;
                }
                if seen.contains_key(&next) {
                    continue;
                }
                if states.len() == limit {
                    let hang = with_hang(&parents, hang);
                    let (expanded, stored) = (node as u64 + 1, states.len() as u64);
                    return (Status::Limit, None, None, expanded, stored, hang);
                }
                seen.insert(next, states.len());
                states.push(next);
                parents.push(Some((node, mv)));
            }
            node += 1;
        }
        let status = if hang.is_some() {
            Status::Hang
        } else {
            Status::Unsolvable
        };
        let stored = states.len() as u64;
        (
            status,
            None,
            None,
            stored,
            stored,
            with_hang(&parents, hang),
        )
    }

    /// `outcome` as the plain search reports one.
    fn as_plain(outcome: &Outcome<u64>) -> Plain {
        let stats = outcome.stats();
        (
            outcome.status(),
            outcome.par(),
            outcome.path().map(<[u64]>::to_vec),
            stats.expanded,
            stats.stored,
            outcome.hang().map(|hang| hang.moves.clone()),
        )
    }

    /// `outcome` with its time taken out, the one thing threads change.
    fn timeless<M: Clone>(outcome: &Outcome<M>) -> Outcome<M> {
        let mut outcome = outcome.clone();
        match &mut outcome {
            Outcome::Solved { stats, .. }
            | Outcome::Unsolvable { stats }
            | Outcome::Hung { stats, .. }
            | Outcome::LimitReached { stats, .. } => stats.elapsed = Default::default(),
        }
        outcome
    }

    /// `search` on pools of 1, 2, 3, 8 and 64 threads, every outcome the
    /// same (but for time); the one-thread outcome.
    fn on_every_count<M: Clone + PartialEq + std::fmt::Debug + Send>(
        search: impl Fn() -> Outcome<M> + Sync,
    ) -> Outcome<M> {
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            timeless(&pool.install(&search))
        };
        let one = run(1);
        for threads in [2, 3, 8, 64] {
            assert_eq!(run(threads), one, "{threads} threads");
        }
        one
    }

    fn web(goal: u64) -> Web {
        Web {
            size: 200_000,
            goal,
            burst: 3_000,
            hang_every: 1_000_003,
        }
    }

    #[test]
    fn a_win_in_the_middle_of_a_round_is_the_one_state_at_a_time_win_on_any_thread_count() {
        // A goal deep enough that many rounds come before it, and not at
        // a chunk's edge: the states generated after it in its round are
        // dropped, stored and expanded alike.
        let game = web(123_457);
        let outcome = on_every_count(|| bfs(&game, usize::MAX));
        assert_eq!(as_plain(&outcome), plain(&game, usize::MAX));
        let stats = outcome.stats();
        assert_eq!(outcome.status(), Status::Solved);
        assert!(stats.stored > 4 * ROUND as u64, "{stats:?}");
        assert_ne!(stats.expanded % CHUNK as u64, 0, "{stats:?}");
        let bytes = Bytes(web(123_457));
        let sliced = on_every_count(|| bfs(&bytes, usize::MAX));
        assert_eq!(sliced.path(), outcome.path());
        assert_eq!(
            (sliced.stats().expanded, sliced.stats().stored),
            (stats.expanded, stats.stored)
        );
    }

    #[test]
    fn a_state_limit_in_the_middle_of_a_round_cuts_where_one_state_at_a_time_cuts() {
        let game = web(u64::MAX - 1);
        let bytes = Bytes(web(u64::MAX - 1));
        for limit in [1, 2, 1_000, 4_097, 30_001, 77_777] {
            let outcome = on_every_count(|| bfs(&game, limit));
            assert_eq!(as_plain(&outcome), plain(&game, limit), "limit {limit}");
            assert_eq!(outcome.stats().stored, limit as u64);
            let sliced = on_every_count(|| bfs(&bytes, limit));
            assert_eq!(as_plain(&sliced), as_plain(&outcome), "limit {limit}");
        }
    }

    /// A slice state's chunks are stored while the round's later chunks
    /// are expanded (a `Copy` state's wait for the whole round): what
    /// such a search finds is what one state at a time finds, on any
    /// number of threads, to the end and to a limit met in a round.
    #[test]
    fn rounds_of_slice_states_stored_as_they_are_expanded_find_what_one_state_at_a_time_finds() {
        // Every state, in some 50 rounds.
        let game = Web {
            burst: 0,
            hang_every: 0,
            ..web(u64::MAX - 1)
        };
        for limit in [usize::MAX, 150_001] {
            let outcome = on_every_count(|| bfs(&Bytes(game), limit));
            assert_eq!(as_plain(&outcome), plain(&game, limit), "limit {limit}");
        }
    }

    #[test]
    fn an_exhausted_space_and_its_first_hang_are_the_same_on_any_thread_count() {
        let game = Web {
            size: 50_000,
            goal: u64::MAX - 1,
            burst: 0,
            hang_every: 1_000,
        };
        let outcome = on_every_count(|| bfs(&game, usize::MAX));
        assert_eq!(outcome.status(), Status::Hang);
        assert_eq!(as_plain(&outcome), plain(&game, usize::MAX));
        let sliced = on_every_count(|| bfs(&Bytes(game), usize::MAX));
        assert_eq!(as_plain(&sliced), as_plain(&outcome));
        // A limit met before the first hang, and one after it.
        for limit in [3, 20_000] {
            let outcome = on_every_count(|| bfs(&game, limit));
            assert_eq!(as_plain(&outcome), plain(&game, limit), "limit {limit}");
            let sliced = on_every_count(|| bfs(&Bytes(game), limit));
            assert_eq!(as_plain(&sliced), as_plain(&outcome), "limit {limit}");
        }
        let unsolvable = Web {
            hang_every: 0,
            ..game
        };
        let outcome = on_every_count(|| bfs(&unsolvable, usize::MAX));
        assert_eq!(outcome.status(), Status::Unsolvable);
        assert_eq!(as_plain(&outcome), plain(&unsolvable, usize::MAX));
    }

    /// A lane whose buffers fill in the middle of a node's successors,
    /// then goes on from there with room to grow, holds what a lane that
    /// grew as it went holds: the same successors, in the same order, with
    /// the same marks.
    #[test]
    fn a_lane_that_spills_goes_on_from_the_successor_it_could_not_hold() {
        // State 0's 700 leaves overflow the 64 probes a lane first takes,
        // and its 651st successor (a leaf) wins, past where the lane fills;
        // every 7th state's move 3 hangs (state 5's, before state 0).
        let size = 1 << 12;
        let game = Bytes(Web {
            size,
            goal: size + 650,
            burst: 700,
            hang_every: 7,
        });
        let mut kept = Kept::new(u64::MAX);
        let mut arena = Arena::<Bytes>::new(&game.start(), false, &mut kept);
        for state in [40u64, 5, 0, 12, 19, 0x5a5] {
            let state = state.to_le_bytes();
            if !arena.fits(&state) {
                arena.grow(&state, &mut kept).unwrap();
            }
            arena.push(&state, 0);
        }
        let first = arena.slots(&game).next().unwrap();
        let seen = Seen::new(first, true, &mut kept);
        let nodes = 1..arena.len();
        // SAFETY: neither is written while the views are used.
        let (arena, seen) = unsafe { (arena.frozen(), seen.view()) };
        let held = |lane: &Lane<Bytes>| -> Vec<(usize, Vec<u8>)> {
            let probes = lane.probes.iter();
            probes
                .map(|(node, held, _, _)| (*node, lane.batch.held(held).to_vec()))
                .collect()
        };

        // A lane that has held a few successors before (its buffers hold
        // 64), so that it fills among state 0's.
        let mut spilled = Lane::<Bytes>::default();
        spilled.fill(&game, &arena, &seen, 1..2, None, Some(&mut kept));
        spilled.expand(&game, &arena, &seen, nodes.clone());
        let spill = spilled.marks.spilled.take().expect("the lane spilled");
        assert!(spill.index > 0, "it spilled in the middle of a node");
        let before = spilled.probes.len();
        let rest = spill.node..nodes.end;
        spilled.fill(&game, &arena, &seen, rest, Some(spill), Some(&mut kept));
        assert!(
            spilled.probes.len() > before + 500,
            "it went on past the spill"
        );

        let mut grown = Lane::<Bytes>::default();
        grown.fill(&game, &arena, &seen, nodes, None, Some(&mut kept));
        assert!(grown.marks.spilled.is_none());
        assert_eq!(held(&spilled), held(&grown));
        assert_eq!(spilled.marks.met, grown.marks.met);
        assert!(grown.marks.met.is_some(), "a hang was met");
        assert_eq!(spilled.marks.won, grown.marks.won);
        assert_eq!(grown.marks.won, Some(3), "state 0, node 3, has the win");
    }

    #[test]
    fn a_memory_budget_stops_a_search_at_the_same_place_on_any_thread_count() {
        let game = web(u64::MAX - 1);
        let bytes = Bytes(web(u64::MAX - 1));
        for budget in [40_000, 300_000, 1_500_000, 3 << 20] {
            let budget = Budget {
                states: usize::MAX,
                bytes: budget,
            };
            let outcome = on_every_count(|| bfs(&game, budget));
            let Outcome::LimitReached { stats, reached, .. } = &outcome else {
                panic!("a memory bound: {outcome:?}");
            };
            assert_eq!(reached.bound, Bound::Memory);
            assert!(stats.kept_bytes <= budget.bytes, "{stats:?}");
            let sliced = on_every_count(|| bfs(&bytes, budget));
            assert!(sliced.stats().kept_bytes <= budget.bytes, "{sliced:?}");
            assert_eq!(sliced.reached().map(|r| &r.bound), Some(&Bound::Memory));
        }
    }
}
