//! The memory of a search: every stored state once, in one store, with a
//! `u32` parent link; and the two visited tables over it.
//!
//! Why this shape: the state is usually a packed integer (two players and
//! a few objects on a 12 × 12 grid fit a `u32`), so a stored state costs its own size plus 4
//! bytes of parent, plus its entry in a hash table. The store is the one
//! the state's type names ([`State`]): a `Vec` of `Copy` states, or every
//! slice state's elements back to back in one vector. Moves are not stored:
//! [`Arena::path_to`] re-derives them along the chain of parents, once, at
//! the end. The hash is rustc-hash's fixed-seed Fx hash, so runs are
//! reproducible.
//!
//! A state's id ([`Store::Id`]) is what tells it apart: its [`Game::key`]
//! for a `Copy` state, its elements for a slice.
//!
//! * [`Seen`] (breadth-first search) holds a slot per state: for a `Copy`
//!   state, the key itself, so a lookup touches the table only, never the
//!   arena, which is what makes the inner loop fast (most successors of a
//!   state have been seen); for a slice state, its node number, so its
//!   elements are held once, in the arena, and compared there.
//! * [`NodeIndex`] (best-first search, which must find a state's node to
//!   lower its cost) holds `u32` node numbers and compares ids recomputed
//!   from the arena, so keys are not stored twice.
//!
//! Every buffer here grows only when the search asks, through [`Kept`]:
//! the bytes it would take are weighed against the search's memory budget
//! first, and the allocation is fallible, so a search that runs out of
//! either stops with a limit ([`Bound`]) instead of aborting the process.

use std::borrow::Borrow as _;
use std::collections::{BinaryHeap, TryReserveError};
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU8, Ordering};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::FxBuildHasher;

use super::Hang;
use super::budget::Bound;
use super::ledger::Kept;
use super::store::{Store, View};
use crate::game::{Cost, Game, OwnedState, State};

/// The parent link of the start node.
const ROOT: u32 = u32::MAX;

/// Where a search keeps `G`'s states.
pub(crate) type StoreOf<G> = <<G as Game>::State as State>::Store;

/// What tells one of `G`'s states apart (its key, or its elements).
pub(crate) type Id<'a, G> = <StoreOf<G> as Store<<G as Game>::State>>::Id<'a, <G as Game>::Key>;

/// What [`Seen`] keeps for one of `G`'s states.
pub(crate) type Slot<G> = <StoreOf<G> as Store<<G as Game>::State>>::Slot<<G as Game>::Key>;

/// How BFS holds one of `G`'s successors before looking it up.
pub(crate) type Held<G> = <StoreOf<G> as Store<<G as Game>::State>>::Held;

pub(crate) struct Arena<G: Game> {
    states: StoreOf<G>,
    /// `parents[i]`: the node that node `i` was reached from ([`ROOT`] for
    /// the start).
    parents: Vec<u32>,
    /// `costs[i]`: the cheapest known cost to node `i`, for best-first
    /// search; empty (and never allocated) for breadth-first search.
    costs: Vec<Cost>,
    with_costs: bool,
}

/// The fewest nodes an arena grows to room for.
const MIN_NODES: usize = 1 << 10;

pub(crate) fn hash_of<K: Hash>(key: &K) -> u64 {
    FxBuildHasher.hash_one(key)
}

/// The id of `state`.
#[inline]
pub(crate) fn id_of<'a, G: Game>(game: &G, state: &'a G::State) -> Id<'a, G> {
    StoreOf::<G>::id(game.key(state), state)
}

/// Whether two ids are of the same state.
#[inline]
pub(crate) fn same<G: Game>(a: Id<'_, G>, b: Id<'_, G>) -> bool {
    StoreOf::<G>::same(a, b)
}

impl<G: Game> Arena<G> {
    /// An arena holding the start; `with_costs` keeps a cost per node too
    /// (best-first search, whose start costs 0).
    pub(super) fn new(start: &G::State, with_costs: bool, kept: &mut Kept) -> Self {
        let mut states = StoreOf::<G>::default();
        states.push(start);
        let arena = Arena {
            states,
            parents: vec![ROOT],
            costs: if with_costs { vec![0] } else { Vec::new() },
            with_costs,
        };
        kept.set(0, arena.bytes(), false);
        arena
    }

    /// The bytes the arena has allocated.
    pub(super) fn bytes(&self) -> u64 {
        self.states.capacity_bytes()
            + (self.parents.capacity() * size_of::<u32>()) as u64
            + (self.costs.capacity() * size_of::<Cost>()) as u64
    }

    /// Whether `state` can be pushed without the arena growing.
    #[inline]
    pub(super) fn fits(&self, state: &G::State) -> bool {
        // `costs` grows with `parents`, to the same capacity.
        self.parents.len() < self.parents.capacity() && self.states.fits(state)
    }

    /// Grows the arena so that `next` fits: to twice as many nodes, or as
    /// many as the search's budget leaves room for; else the bound that
    /// stops it.
    #[cold]
    #[inline(never)]
    pub(super) fn grow(&mut self, next: &G::State, kept: &mut Kept) -> Result<(), Bound> {
        let len = self.len();
        let per_node = (size_of::<u32>()
            + if self.with_costs {
                size_of::<Cost>()
            } else {
                0
            }) as u64;
        let bytes = |nodes: usize| self.states.bytes_for(nodes, next) + nodes as u64 * per_node;
        let want = (self.parents.capacity() * 2).max(MIN_NODES);
        let old = self.bytes();
        let granted = kept.allow(old, bytes(want), bytes(len + 1), false)?;
        // The most nodes whose bytes fit in the room granted.
        let (mut fits, mut over) = (len + 1, want + 1);
        while over - fits > 1 {
            let middle = fits + (over - fits) / 2;
            if bytes(middle) <= granted {
                fits = middle;
            } else {
                over = middle;
            }
        }
        let asked = bytes(fits).saturating_sub(old);
        let grown = self
            .states
            .try_grow(fits, next)
            .and_then(|()| self.parents.try_reserve_exact(fits - len))
            .and_then(|()| match self.with_costs {
                true => self.costs.try_reserve_exact(fits - len),
                false => Ok(()),
            });
        // What did grow is counted, refused or not.
        kept.set(old, self.bytes(), false);
        grown.map_err(|_| kept.refused(asked))
    }

    pub(super) fn len(&self) -> usize {
        self.parents.len()
    }

    /// A view of the nodes stored so far, for threads that read them while
    /// this thread pushes more.
    ///
    /// # Safety
    ///
    /// The caller uses the view only while the arena is alive and does
    /// not grow: [`Arena::push`] alone may change it meanwhile (where
    /// [`Arena::fits`]).
    pub(super) unsafe fn frozen(&self) -> Frozen<G> {
        Frozen {
            // SAFETY: the caller's promise, passed on.
            states: unsafe { self.states.view() },
            parents: self.parents.as_ptr(),
            len: self.len(),
        }
    }

    /// The store of the states themselves.
    pub(super) fn store(&self) -> &StoreOf<G> {
        &self.states
    }

    #[inline]
    pub(super) fn state(&self, node: usize) -> &G::State {
        self.states.get(node)
    }

    /// The id of node `node`'s state.
    #[inline]
    pub(super) fn id(&self, game: &G, node: usize) -> Id<'_, G> {
        id_of(game, self.states.get(node))
    }

    /// The id of the state a [`Seen`] slot stands for.
    #[inline]
    pub(super) fn slot_id(&self, slot: Slot<G>) -> Id<'_, G> {
        self.states.slot_id(slot)
    }

    /// Every node's slot in [`Seen`], and its hash, in node order.
    pub(super) fn slots<'a>(&'a self, game: &'a G) -> impl Iterator<Item = (Slot<G>, u64)> + 'a {
        self.states.iter().enumerate().map(|(node, state)| {
            let key = game.key(state);
            (
                StoreOf::<G>::slot(key, node as u32),
                hash_of(&StoreOf::<G>::id(key, state)),
            )
        })
    }

    /// Every stored state, in node order.
    pub(super) fn states(&self) -> impl ExactSizeIterator<Item = &G::State> {
        self.states.iter()
    }

    /// The node that `node` was reached from, if any.
    #[inline]
    pub(super) fn parent(&self, node: usize) -> Option<usize> {
        let parent = self.parents[node];
        (parent != ROOT).then_some(parent as usize)
    }

    /// Stores a copy of `state`, reached from `parent`, as a new node.
    #[inline]
    pub(super) fn push(&mut self, state: &G::State, parent: usize) -> usize {
        let node = self.len();
        // A limit past 4 billion states would wrap the `u32` links silently.
        assert!(
            node < ROOT as usize,
            "a search stores fewer than u32::MAX states"
        );
        self.states.push(state);
        self.parents.push(parent as u32);
        node
    }

    /// Stores a copy of `state`, reached from `parent` at `cost` (kept
    /// only by an arena with costs), as a new node.
    #[inline]
    pub(super) fn push_with_cost(&mut self, state: &G::State, parent: usize, cost: Cost) -> usize {
        if self.with_costs {
            self.costs.push(cost);
        }
        self.push(state, parent)
    }

    /// The cheapest known cost to `node` (best-first search).
    #[inline]
    pub(super) fn cost(&self, node: usize) -> Cost {
        self.costs[node]
    }

    /// Re-parents a node: best-first search found a cheaper way to it, of
    /// `cost`.
    pub(super) fn relink(&mut self, node: usize, parent: usize, cost: Cost) {
        self.parents[node] = parent as u32;
        self.costs[node] = cost;
    }

    /// What the stored states take, all together ([`super::Stats::state_bytes`]).
    pub(super) fn state_bytes(&self) -> u64 {
        self.states.state_bytes()
    }

    /// The moves from the start to `node`, and the state they reach (with
    /// `node`'s id).
    ///
    /// Moves are re-derived, not stored: from the start, each step takes the
    /// cheapest move whose successor has the next node's id (the first in
    /// the game's move order on a tie). The walk starts from the real start
    /// and follows the states the moves actually produce, so the path replays
    /// through [`Game::step`] even where two states share a key but differ
    /// (a game may remember more than decides play, such as which of two identical pieces is in control).
    pub(super) fn path_to(&self, game: &G, node: usize) -> (Vec<G::Move>, OwnedState<G>) {
        let mut chain = Vec::new();
        let mut at = Some(node);
        while let Some(node) = at {
            chain.push(node);
            at = self.parent(node);
        }
        chain.reverse();
        let mut state = self.state(0).to_owned();
        let mut path = Vec::with_capacity(chain.len().saturating_sub(1));
        for &next in &chain[1..] {
            let id = self.id(game, next);
            let (mv, reached) =
                cheapest_step(game, state.borrow(), |s| same::<G>(id_of(game, s), id))
                    .expect("a stored node is a successor of its parent");
            path.push(mv);
            state = reached;
        }
        (path, state)
    }

    /// The first move from `node` that never settles ([`Game::is_hung`]),
    /// with the moves that lead there and the game's refusal of it.
    pub(super) fn hang_after(&self, game: &G, node: usize) -> Hang<G::Move> {
        let (mut moves, reached) = self.path_to(game, node);
        let (last, _) = cheapest_step(game, reached.borrow(), |next| game.is_hung(next))
            .expect("a node that showed a hang shows it again");
        let reason = match game.step(reached.borrow(), last) {
            Err(refusal) => refusal.to_string(),
            // A game whose `successors` and `step` disagree: say so rather
            // than make up a reason.
            Ok(_) => "the game's successors say this move never settles, yet its `step` plays \
                      it: a bug in the game"
                .to_string(),
        };
        moves.push(last);
        Hang { moves, reason }
    }
}

/// The nodes of an [`Arena`] as they were when [`Arena::frozen`] was
/// called: what the threads expanding a round read while the search's
/// thread stores the chunks of it already expanded. Its reads go to the
/// arena's memory, where the storing thread only appends.
pub(crate) struct Frozen<G: Game> {
    states: ViewOf<G>,
    parents: *const u32,
    len: usize,
}

/// How a view of `G`'s stored states reads them.
type ViewOf<G> = <StoreOf<G> as Store<<G as Game>::State>>::View;

impl<G: Game> Clone for Frozen<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Frozen<G> {}

// SAFETY: it only reads, what `Arena::frozen`'s caller keeps alive and
// unwritten.
unsafe impl<G: Game> Send for Frozen<G> {}
unsafe impl<G: Game> Sync for Frozen<G> {}

impl<G: Game> Frozen<G> {
    #[inline]
    pub(super) fn state(&self, node: usize) -> &G::State {
        self.states.get(node)
    }

    /// The id of node `node`'s state.
    #[inline]
    pub(super) fn id(&self, game: &G, node: usize) -> Id<'_, G> {
        id_of(game, self.states.get(node))
    }

    /// The id of the state a [`Seen`] slot stands for, unless the slot
    /// names a node stored after the view was taken.
    #[inline]
    pub(super) fn slot_id(&self, slot: Slot<G>) -> Option<Id<'_, G>> {
        self.states.slot_id(slot)
    }

    /// The node that `node` was reached from, if any.
    #[inline]
    pub(super) fn parent(&self, node: usize) -> Option<usize> {
        assert!(node < self.len, "node {node} of a view of {}", self.len);
        // SAFETY: below the length when the view was taken; parents are
        // only appended while it is used (see `Arena::frozen`).
        let parent = unsafe { *self.parents.add(node) };
        (parent != ROOT).then_some(parent as usize)
    }
}

/// The states breadth-first search has seen, one slot each ([`Slot`]):
/// open addressing with linear probing over a power-of-two array of
/// slots, at most four fifths full (the search rebuilds it from its arena,
/// twice the size, when it gets there; when its budget has no room for
/// that, the table fills on to seven eighths, and then takes no more
/// states), with a mark per slot saying whether it is used (small enough
/// to stay in cache, so only the slot compare touches main memory).
///
/// Where a slot stands for a state in the arena (a slice state), its
/// compare is a fetch from the arena and a compare of bytes, dearer than
/// the rest of a lookup. There a slot's mark is a byte, not a bit: 0 for
/// unused, else 7 bits of its state's hash (a tag), and only the slots
/// whose tag is the one sought are compared, one in 128 of the others.
///
/// Hand-written rather than a general hash map for one reason: the search
/// knows a state's successors before it looks any of them up, so it can
/// [`Seen::prefetch`] all their slots first and let the memory fetches
/// overlap. Slots are never removed.
pub(crate) struct Seen<S> {
    slots: Vec<S>,
    /// A bit per slot, set where it is used; empty where `tags` is not.
    used: Vec<u64>,
    /// A byte per slot, where slots are tagged: 0 where it is unused,
    /// else [`Seen::tag_of`] its state's hash.
    tags: Vec<u8>,
    tagged: bool,
    len: usize,
    /// How many slots may be used before the table must grow.
    grow_at: usize,
}

impl<S: Copy> Seen<S> {
    const MIN_SLOTS: usize = 1 << 10;

    /// A table holding the start's `slot`, whose hash is `hash`; its
    /// slots are `tagged` where comparing one is dear.
    pub(super) fn new((slot, hash): (S, u64), tagged: bool, kept: &mut Kept) -> Self {
        let (used, tags) =
            Self::marks(Self::MIN_SLOTS, tagged).expect("a table of the fewest slots is allocated");
        let mut seen = Seen {
            slots: vec![slot; Self::MIN_SLOTS],
            used,
            tags,
            tagged,
            len: 0,
            grow_at: Self::MIN_SLOTS * 4 / 5,
        };
        kept.set(0, seen.bytes(), false);
        seen.insert(hash, slot, |_| false, || true);
        seen
    }

    /// The unused marks of `size` slots: bits, or `tagged`, bytes.
    fn marks(size: usize, tagged: bool) -> Result<(Vec<u64>, Vec<u8>), TryReserveError> {
        Ok(match tagged {
            true => (Vec::new(), fallible_vec(size, 0u8)?),
            false => (fallible_vec(size / 64, 0u64)?, Vec::new()),
        })
    }

    /// The bytes a table of `size` slots takes.
    fn bytes_of(&self, size: usize) -> u64 {
        let marks = match self.tagged {
            true => size,
            false => size / 64 * size_of::<u64>(),
        };
        (size * size_of::<S>() + marks) as u64
    }

    /// The bytes the table has allocated.
    pub(super) fn bytes(&self) -> u64 {
        (self.slots.capacity() * size_of::<S>()
            + self.used.capacity() * size_of::<u64>()
            + self.tags.capacity()) as u64
    }

    /// A view of the table as it is now, for threads that look states up
    /// while this thread inserts more.
    ///
    /// # Safety
    ///
    /// The caller uses the view only while the table is alive and does
    /// not grow: [`Seen::insert`] alone may change it meanwhile, and only
    /// where slots name nodes, so that a reader tells a slot inserted
    /// after the view from one before ([`Frozen::slot_id`]).
    pub(super) unsafe fn view(&self) -> Lookup<S> {
        Lookup {
            slots: self.slots.as_ptr(),
            used: self.used.as_ptr(),
            tags: self.tags.as_ptr(),
            bits: self.slots.len().trailing_zeros(),
            tagged: self.tagged,
        }
    }

    /// Slot `at`'s mark, as [`Lookup::mark`] reads it.
    #[inline]
    fn mark(&self, at: usize) -> u8 {
        match self.tagged {
            true => self.tags[at],
            false => (self.used[at / 64] >> (at % 64) & 1) as u8,
        }
    }

    /// Marks slot `at` used by a state whose tag is `tag`. A tag is
    /// written after its slot, so that a reader on another thread that
    /// sees the tag sees the slot ([`Seen::view`]).
    #[inline]
    fn set_mark(&mut self, at: usize, tag: u8) {
        match self.tagged {
            // SAFETY: `at` is a slot of the table; the byte is written
            // atomically because a view may be reading it.
            true => unsafe { AtomicU8::from_ptr(self.tags.as_mut_ptr().add(at)) }
                .store(tag, Ordering::Release),
            false => self.used[at / 64] |= 1 << (at % 64),
        }
    }

    /// Writes slot `at` through a pointer, so that no reference to the
    /// whole table is made while a view reads other slots.
    #[inline]
    fn set_slot(&mut self, at: usize, slot: S) {
        assert!(at < self.slots.len());
        // SAFETY: in bounds, checked above; no view reads this slot until
        // its mark is set, after this.
        unsafe { self.slots.as_mut_ptr().add(at).write(slot) }
    }

    /// Asks the CPU to start fetching the slot `hash` lands on (and its
    /// tag).
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        // SAFETY: used at once, while `&self` keeps the table as it is.
        unsafe { self.view() }.prefetch(hash);
    }

    /// Whether a slot already there `is` the state whose hash is `hash`.
    #[cfg(test)]
    pub(super) fn contains(&self, hash: u64, is: impl Fn(S) -> bool) -> bool {
        // SAFETY: as in `prefetch`.
        unsafe { self.view() }.contains(hash, is)
    }

    /// Records `slot` (whose state's hash is `hash`) if there is `room`
    /// (asked only for a state not seen), unless a slot already there `is`
    /// the same state.
    #[inline]
    pub(super) fn insert(
        &mut self,
        hash: u64,
        slot: S,
        is: impl Fn(S) -> bool,
        room: impl FnOnce() -> bool,
    ) -> Insert {
        let mask = self.slots.len() - 1;
        // SAFETY: only its arithmetic is used.
        let view = unsafe { self.view() };
        let tag = view.tag_of(hash);
        let mut at = view.home(hash);
        loop {
            match self.mark(at) {
                0 => break,
                mark if mark == tag && is(self.slots[at]) => return Insert::Known,
                _ => at = (at + 1) & mask,
            }
        }
        if !room() {
            return Insert::Full;
        }
        self.set_slot(at, slot);
        self.set_mark(at, tag);
        self.len += 1;
        Insert::New
    }

    /// Whether the table is as full as it may be: time to [`Seen::grow`].
    #[inline]
    pub(super) fn is_full(&self) -> bool {
        self.len > self.grow_at
    }

    /// Makes room for more states: doubles the table and fills it with
    /// `slots` and their hashes, which must be every slot it holds (the
    /// search passes its arena's), if the budget has room; else lets it
    /// fill to seven eighths. `Err`: it may take no more states (the bound
    /// that stops the search), or, refused by the allocator, it has lost
    /// its slots and the search must stop now ([`Grown::Lost`]).
    ///
    /// The old table is freed before the new one is made, so growing never
    /// holds both: the peak memory of a search is its arena and one table.
    #[cold]
    #[inline(never)]
    pub(super) fn grow(
        &mut self,
        slots: impl Iterator<Item = (S, u64)>,
        kept: &mut Kept,
    ) -> Result<(), Grown> {
        let size = self.slots.len() * 2;
        let old = self.bytes();
        let new = self.bytes_of(size);
        if let Err(bound) = kept.allow(old, new, new, false) {
            let most = self.slots.len() / 8 * 7;
            if self.grow_at < most {
                self.grow_at = most;
                return Ok(());
            }
            return Err(Grown::Full(bound));
        }
        let filler = self.slots[0];
        self.slots = Vec::new();
        (self.used, self.tags) = (Vec::new(), Vec::new());
        let made = fallible_vec(size, filler)
            .and_then(|slots| Ok((slots, Self::marks(size, self.tagged)?)));
        let (new_slots, (new_used, new_tags)) = match made {
            Ok(made) => made,
            Err(_) => {
                kept.set(old, 0, false);
                return Err(Grown::Lost(kept.refused(new)));
            }
        };
        self.slots = new_slots;
        (self.used, self.tags) = (new_used, new_tags);
        self.grow_at = size / 5 * 4;
        kept.set(old, self.bytes(), false);
        let mask = size - 1;
        // SAFETY: only its arithmetic is used.
        let view = unsafe { self.view() };
        for (slot, hash) in slots {
            let mut at = view.home(hash);
            while self.mark(at) != 0 {
                at = (at + 1) & mask;
            }
            self.set_slot(at, slot);
            self.set_mark(at, view.tag_of(hash));
        }
        Ok(())
    }
}

/// A view of a [`Seen`] table ([`Seen::view`]): what the threads
/// expanding a round look their successors up in, while the search's
/// thread may be inserting those of the chunks already expanded.
pub(crate) struct Lookup<S> {
    slots: *const S,
    used: *const u64,
    tags: *const u8,
    /// The table has 2^`bits` slots.
    bits: u32,
    tagged: bool,
}

impl<S> Clone for Lookup<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Lookup<S> {}

// SAFETY: it only reads, what `Seen::view`'s caller keeps alive; the one
// thing written meanwhile, a free slot taken, is read with the ordering
// that makes its slot visible first.
unsafe impl<S: Sync> Send for Lookup<S> {}
unsafe impl<S: Sync> Sync for Lookup<S> {}

impl<S: Copy> Lookup<S> {
    #[inline]
    fn home(&self, hash: u64) -> usize {
        // The Fx hash's high bits are its best mixed.
        (hash >> (64 - self.bits)) as usize
    }

    /// The mark of a used slot whose state's hash is `hash`: in a tagged
    /// table, 7 bits of it, apart from those `home` reads (for tables of
    /// up to 2³² slots), with the high bit set so that it is not 0.
    #[inline]
    fn tag_of(&self, hash: u64) -> u8 {
        match self.tagged {
            true => 0x80 | (hash >> 24) as u8,
            false => 1,
        }
    }

    /// Slot `at`'s mark: 0 if it is unused, else its state's tag (1 in a
    /// table without tags).
    #[inline]
    fn mark(&self, at: usize) -> u8 {
        // SAFETY: `at` is below the table's size, and the table is alive
        // and the same size (see `Seen::view`). A tag is read atomically
        // because the storing thread may be writing it; bits are not
        // written while a view is read (only tagged tables' are).
        unsafe {
            match self.tagged {
                true => AtomicU8::from_ptr(self.tags.add(at).cast_mut()).load(Ordering::Acquire),
                false => (*self.used.add(at / 64) >> (at % 64) & 1) as u8,
            }
        }
    }

    /// Asks the CPU to start fetching the slot `hash` lands on (and its
    /// tag).
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; it never faults, even on a bad
        // address, and `home` is in bounds anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let home = self.home(hash);
            _mm_prefetch::<_MM_HINT_T0>(self.slots.add(home).cast());
            if self.tagged {
                _mm_prefetch::<_MM_HINT_T0>(self.tags.add(home).cast());
            }
        }
    }

    /// Whether a slot already there `is` the state whose hash is `hash`.
    #[inline]
    pub(super) fn contains(&self, hash: u64, is: impl Fn(S) -> bool) -> bool {
        let mask = (1usize << self.bits) - 1;
        let tag = self.tag_of(hash);
        let mut at = self.home(hash);
        loop {
            match self.mark(at) {
                0 => return false,
                // SAFETY: a used slot (its mark read with `Acquire`, after
                // the slot was written), in bounds.
                mark if mark == tag && is(unsafe { *self.slots.add(at) }) => return true,
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// Why [`Seen::grow`] could not grow the table.
#[derive(Debug)]
pub(crate) enum Grown {
    /// The table may take no more states: it stays as it is.
    Full(Bound),
    /// The allocator refused the new table after the old was freed.
    Lost(Bound),
}

/// `size` copies of `item`, or the allocator's refusal.
fn fallible_vec<T: Copy>(size: usize, item: T) -> Result<Vec<T>, TryReserveError> {
    let mut made = Vec::new();
    made.try_reserve_exact(size)?;
    made.resize(size, item);
    Ok(made)
}

/// A buffer whose growth a search counts: a `Vec` or a `BinaryHeap`.
pub(crate) trait Buffer {
    /// The bytes of one item.
    const ITEM: usize;
    fn length(&self) -> usize;
    fn room(&self) -> usize;
    fn reserve_exactly(&mut self, additional: usize) -> Result<(), TryReserveError>;
}

impl<T> Buffer for Vec<T> {
    const ITEM: usize = size_of::<T>();
    fn length(&self) -> usize {
        self.len()
    }
    fn room(&self) -> usize {
        self.capacity()
    }
    fn reserve_exactly(&mut self, additional: usize) -> Result<(), TryReserveError> {
        self.try_reserve_exact(additional)
    }
}

impl<T: Ord> Buffer for BinaryHeap<T> {
    const ITEM: usize = size_of::<T>();
    fn length(&self) -> usize {
        self.len()
    }
    fn room(&self) -> usize {
        self.capacity()
    }
    fn reserve_exactly(&mut self, additional: usize) -> Result<(), TryReserveError> {
        self.try_reserve_exact(additional)
    }
}

/// The bytes `buffer` has allocated.
pub(crate) fn buffer_bytes<B: Buffer>(buffer: &B) -> u64 {
    (buffer.room() * B::ITEM) as u64
}

/// Makes room for one more item in `buffer`: twice its capacity, or as
/// much as the search's budget leaves, or the bound that stops it.
#[cold]
#[inline(never)]
pub(crate) fn make_room<B: Buffer>(buffer: &mut B, kept: &mut Kept) -> Result<(), Bound> {
    let item = B::ITEM.max(1) as u64;
    let old = buffer_bytes(buffer);
    let want = (buffer.room() * 2).max(64) as u64 * item;
    let need = (buffer.length() + 1) as u64 * item;
    let granted = kept.allow(old, want, need, false)?;
    let items = (granted / item) as usize;
    let grown = buffer.reserve_exactly(items - buffer.length());
    kept.set(old, buffer_bytes(buffer), false);
    grown.map_err(|_| kept.refused(granted.saturating_sub(old)))
}

/// What a visited table did with a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insert {
    New,
    Known,
    /// New, but the search may store no more states.
    Full,
}

/// What [`NodeIndex::find_or_push`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Indexed {
    Known(usize),
    New(usize),
    /// New, but there is no `room` for it.
    Full,
}

/// Node numbers by id, for best-first search.
pub(crate) struct NodeIndex {
    table: HashTable<u32>,
}

impl NodeIndex {
    pub(super) fn new<G: Game>(game: &G, arena: &Arena<G>, kept: &mut Kept) -> Self {
        let mut table = HashTable::new();
        table.insert_unique(hash_of(&arena.id(game, 0)), 0, |_| 0);
        let index = NodeIndex { table };
        kept.set(0, index.bytes(), false);
        index
    }

    /// The bytes the table has allocated.
    pub(super) fn bytes(&self) -> u64 {
        self.table.allocation_size() as u64
    }

    /// The node holding `state`'s id, or else the node a copy of `state` is
    /// pushed as now, reached from `parent` at `cost` (if there is `room`,
    /// asked only for a state not seen). `Err`: the table could not grow
    /// (its bound stops the search).
    ///
    /// Always inlined into best-first's successor closure: otherwise the
    /// hash table's lookup is left a call of its own (on Hug Maze, A* runs
    /// 6% fewer instructions inlined, measured with callgrind).
    #[inline(always)]
    pub(super) fn find_or_push<G: Game>(
        &mut self,
        game: &G,
        arena: &mut Arena<G>,
        (state, parent, cost): (&G::State, usize, Cost),
        room: impl Fn(&Arena<G>) -> bool,
        kept: &mut Kept,
    ) -> Result<Indexed, Bound> {
        let id = id_of(game, state);
        let hash = hash_of(&id);
        if self.table.len() == self.table.capacity() {
            // A lookup through `entry` would grow a full table on its own,
            // infallibly: look first, and grow only for a new state.
            let stored = &*arena;
            let found = self
                .table
                .find(hash, |&node| same::<G>(stored.id(game, node as usize), id));
            if let Some(&node) = found {
                return Ok(Indexed::Known(node as usize));
            }
            if !room(arena) {
                return Ok(Indexed::Full);
            }
            self.grow(game, arena, kept)?;
        }
        let stored = &*arena;
        let entry = self.table.entry(
            hash,
            |&node| same::<G>(stored.id(game, node as usize), id),
            |&node| hash_of(&stored.id(game, node as usize)),
        );
        Ok(match entry {
            Entry::Occupied(found) => Indexed::Known(*found.get() as usize),
            Entry::Vacant(_) if !room(arena) => Indexed::Full,
            Entry::Vacant(slot) => {
                slot.insert(arena.len() as u32);
                Indexed::New(arena.push_with_cost(state, parent, cost))
            }
        })
    }

    /// Doubles the table (hashbrown holds the old one while it fills the
    /// new), if the budget has room and the allocator agrees.
    #[cold]
    #[inline(never)]
    fn grow<G: Game>(&mut self, game: &G, arena: &Arena<G>, kept: &mut Kept) -> Result<(), Bound> {
        let old = self.bytes();
        let new = (old * 2).max(1 << 10);
        kept.allow(old, new, new, true)?;
        let grown = self
            .table
            .try_reserve(1, |&node| hash_of(&arena.id(game, node as usize)));
        kept.set(old, self.bytes(), true);
        grown.map_err(|_| kept.refused(new))
    }
}

/// The cheapest move from `state` whose successor satisfies `wanted`, with
/// that successor (the first in move order on a tie).
pub(crate) fn cheapest_step<G: Game>(
    game: &G,
    state: &G::State,
    wanted: impl Fn(&G::State) -> bool,
) -> Option<(G::Move, OwnedState<G>)> {
    let mut best: Option<(G::Move, OwnedState<G>, Cost)> = None;
    game.successors(state, |mv, next, cost| {
        if wanted(next) && best.as_ref().is_none_or(|(_, _, known)| cost < *known) {
            best = Some((mv, next.to_owned(), cost));
        }
    });
    best.map(|(mv, next, _)| (mv, next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_visited_set_keeps_every_key_across_rebuilds() {
        let keys: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let insert = |seen: &mut Seen<u64>, key: u64, room: bool| {
            seen.insert(hash_of(&key), key, |slot| slot == key, || room)
        };
        for tagged in [false, true] {
            let mut kept = Kept::new(u64::MAX);
            let mut seen = Seen::new((keys[0], hash_of(&keys[0])), tagged, &mut kept);
            for (stored, &key) in keys.iter().enumerate().skip(1) {
                assert_eq!(insert(&mut seen, key, true), Insert::New);
                if seen.is_full() {
                    let slots = keys[..=stored].iter().map(|&key| (key, hash_of(&key)));
                    seen.grow(slots, &mut kept).expect("no budget to speak of");
                }
            }
            assert_eq!(kept.peak(), seen.bytes());
            assert!(seen.slots.len() >= 131_072, "it grew");
            for &key in &keys {
                assert_eq!(insert(&mut seen, key, true), Insert::Known);
            }
            let fresh = u64::MAX;
            assert_eq!(insert(&mut seen, fresh, false), Insert::Full);
            assert_eq!(insert(&mut seen, fresh, true), Insert::New);
        }
    }

    /// A tagged table compares a slot with the state sought only where
    /// their tags agree: about once per lookup of a state it holds, and
    /// nearly never for one it does not; a table without tags compares
    /// every slot on the way.
    #[test]
    fn a_tagged_table_compares_few_slots() {
        let keys: Vec<u64> = (0..50_000u64)
            .map(|i| i.wrapping_mul(0xD6E8_FEB8_6659_FD93))
            .collect();
        for tagged in [false, true] {
            let mut kept = Kept::new(u64::MAX);
            let mut seen = Seen::new((keys[0], hash_of(&keys[0])), tagged, &mut kept);
            for (stored, &key) in keys.iter().enumerate().skip(1) {
                seen.insert(hash_of(&key), key, |slot| slot == key, || true);
                if seen.is_full() {
                    let slots = keys[..=stored].iter().map(|&key| (key, hash_of(&key)));
                    seen.grow(slots, &mut kept).expect("no budget to speak of");
                }
            }
            let compares = std::cell::Cell::new(0);
            let count = |key: u64| {
                seen.contains(hash_of(&key), |slot| {
                    compares.set(compares.get() + 1);
                    slot == key
                })
            };
            assert!(keys.iter().all(|&key| count(key)));
            let held = compares.replace(0);
            let absent = (0..50_000u64)
                .map(|i| !i)
                .filter(|&key| !count(key))
                .count();
            let missed = compares.get();
            assert_eq!(absent, 50_000);
            if tagged {
                assert!(
                    held < keys.len() * 102 / 100,
                    "{held} compares for held keys"
                );
                assert!(missed < absent / 10, "{missed} compares for absent keys");
            } else {
                assert!(held > keys.len() * 11 / 10, "{held} compares for held keys");
                assert!(missed > absent, "{missed} compares for absent keys");
            }
        }
    }
}
