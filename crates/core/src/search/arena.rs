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

use std::borrow::Borrow as _;
use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::FxBuildHasher;

use super::Hang;
use super::store::Store;
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
}

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
    pub(super) fn new(start: &G::State) -> Self {
        let mut states = StoreOf::<G>::default();
        states.push(start);
        Arena {
            states,
            parents: vec![ROOT],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.parents.len()
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

    /// Re-parents a node: best-first search found a cheaper way to it.
    pub(super) fn relink(&mut self, node: usize, parent: usize) {
        self.parents[node] = parent as u32;
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

/// The states breadth-first search has seen, one slot each ([`Slot`]):
/// open addressing with linear probing over a power-of-two array of
/// slots, at most four fifths full (the search rebuilds it from its arena,
/// twice the size, when it gets there), with a bitset saying which slots
/// are used (small enough to stay in cache, so only the slot compare
/// touches main memory).
///
/// Hand-written rather than a general hash map for one reason: the search
/// knows a state's successors before it looks any of them up, so it can
/// [`Seen::prefetch`] all their slots first and let the memory fetches
/// overlap. Slots are never removed.
pub(crate) struct Seen<S> {
    slots: Vec<S>,
    used: Vec<u64>,
    len: usize,
}

impl<S: Copy> Seen<S> {
    const MIN_SLOTS: usize = 1 << 10;

    /// A table holding the start's `slot`, whose hash is `hash`.
    pub(super) fn new((slot, hash): (S, u64)) -> Self {
        let mut seen = Seen {
            slots: vec![slot; Self::MIN_SLOTS],
            used: vec![0; Self::MIN_SLOTS / 64],
            len: 0,
        };
        seen.insert(hash, slot, |_| false, true);
        seen
    }

    fn home(&self, hash: u64) -> usize {
        // The Fx hash's high bits are its best mixed.
        (hash >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Asks the CPU to start fetching the slot `hash` lands on.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; it never faults, even on a bad
        // address, and `home` is in bounds anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = self.slots.as_ptr().add(self.home(hash));
            _mm_prefetch::<_MM_HINT_T0>(slot.cast());
        }
    }

    #[inline]
    fn is_used(&self, slot: usize) -> bool {
        self.used[slot / 64] >> (slot % 64) & 1 == 1
    }

    /// Records `slot` (whose state's hash is `hash`) if there is `room`,
    /// unless a slot already there `is` the same state.
    #[inline]
    pub(super) fn insert(
        &mut self,
        hash: u64,
        slot: S,
        is: impl Fn(S) -> bool,
        room: bool,
    ) -> Insert {
        let mask = self.slots.len() - 1;
        let mut at = self.home(hash);
        while self.is_used(at) {
            if is(self.slots[at]) {
                return Insert::Known;
            }
            at = (at + 1) & mask;
        }
        if !room {
            return Insert::Full;
        }
        self.slots[at] = slot;
        self.used[at / 64] |= 1 << (at % 64);
        self.len += 1;
        Insert::New
    }

    /// Whether the table is four fifths full: time to [`Seen::rebuild`].
    pub(super) fn is_full(&self) -> bool {
        self.len * 5 > self.slots.len() * 4
    }

    /// Doubles the table and fills it with `slots` and their hashes, which
    /// must be every slot it holds (the search passes its arena's). The old
    /// table is freed before the new one is made, so growing never holds
    /// both: the peak memory of a search is its arena and one table.
    #[cold]
    #[inline(never)]
    pub(super) fn rebuild(&mut self, slots: impl Iterator<Item = (S, u64)>) {
        let size = self.slots.len() * 2;
        let filler = self.slots[0];
        self.slots = Vec::new();
        self.used = Vec::new();
        self.slots = vec![filler; size];
        self.used = vec![0; size / 64];
        let mask = size - 1;
        for (slot, hash) in slots {
            let mut at = self.home(hash);
            while self.is_used(at) {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
            self.used[at / 64] |= 1 << (at % 64);
        }
    }
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
    /// New, but the search may store no more states.
    Full,
}

/// Node numbers by id, for best-first search.
pub(crate) struct NodeIndex {
    table: HashTable<u32>,
}

impl NodeIndex {
    pub(super) fn new<G: Game>(game: &G, arena: &Arena<G>) -> Self {
        let mut table = HashTable::new();
        table.insert_unique(hash_of(&arena.id(game, 0)), 0, |_| 0);
        NodeIndex { table }
    }

    /// The node holding `state`'s id, or else the node a copy of `state` is
    /// pushed as now, reached from `parent` (if there is `room`).
    ///
    /// Always inlined into best-first's successor closure: otherwise the
    /// hash table's lookup is left a call of its own (on Hug Maze, A* runs
    /// 6% fewer instructions inlined, measured with callgrind).
    #[inline(always)]
    pub(super) fn find_or_push<G: Game>(
        &mut self,
        game: &G,
        arena: &mut Arena<G>,
        state: &G::State,
        parent: usize,
        room: bool,
    ) -> Indexed {
        let id = id_of(game, state);
        let stored = &*arena;
        let entry = self.table.entry(
            hash_of(&id),
            |&node| same::<G>(stored.id(game, node as usize), id),
            |&node| hash_of(&stored.id(game, node as usize)),
        );
        match entry {
            Entry::Occupied(found) => Indexed::Known(*found.get() as usize),
            Entry::Vacant(_) if !room => Indexed::Full,
            Entry::Vacant(slot) => {
                slot.insert(arena.len() as u32);
                Indexed::New(arena.push(state, parent))
            }
        }
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
        let insert = |seen: &mut Seen<u64>, key: u64, room| {
            seen.insert(hash_of(&key), key, |slot| slot == key, room)
        };
        let mut seen = Seen::new((keys[0], hash_of(&keys[0])));
        for (stored, &key) in keys.iter().enumerate().skip(1) {
            assert_eq!(insert(&mut seen, key, true), Insert::New);
            if seen.is_full() {
                seen.rebuild(keys[..=stored].iter().map(|&key| (key, hash_of(&key))));
            }
        }
        assert!(seen.slots.len() >= 131_072, "it grew");
        for &key in &keys {
            assert_eq!(insert(&mut seen, key, true), Insert::Known);
        }
        let fresh = u64::MAX;
        assert_eq!(insert(&mut seen, fresh, false), Insert::Full);
        assert_eq!(insert(&mut seen, fresh, true), Insert::New);
    }
}
