//! The memory of a search: every stored state once, in one vector, with a
//! `u32` parent link; and the two visited tables over it.
//!
//! Why this shape: the state is usually a packed integer (two players and
//! a few objects on a 12 × 12 grid fit a `u32`), so a stored state costs its own size plus 4
//! bytes of parent, plus its entry in a hash table. Moves are not stored:
//! [`Arena::path_to`] re-derives them along the chain of parents, once, at
//! the end. The hash is rustc-hash's fixed-seed Fx hash, so runs are
//! reproducible.
//!
//! * [`Seen`] (breadth-first search) holds the keys themselves: a lookup
//!   touches the table only, never the arena, which is what makes the inner
//!   loop fast (most successors of a state have been seen).
//! * [`NodeIndex`] (best-first search, which must find a state's node to
//!   lower its cost) holds `u32` node numbers and compares by recomputing
//!   [`Game::key`] from the arena, so keys are not stored twice.

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::FxBuildHasher;

use crate::game::{Cost, Game};

/// The parent link of the start node.
const ROOT: u32 = u32::MAX;

pub(crate) struct Arena<G: Game> {
    states: Vec<G::State>,
    /// `parents[i]`: the node that node `i` was reached from ([`ROOT`] for
    /// the start).
    parents: Vec<u32>,
}

fn hash_of<K: Hash>(key: &K) -> u64 {
    FxBuildHasher.hash_one(key)
}

impl<G: Game> Arena<G> {
    pub(super) fn new(start: G::State) -> Self {
        Arena {
            states: vec![start],
            parents: vec![ROOT],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.states.len()
    }

    pub(super) fn state(&self, node: usize) -> G::State {
        self.states[node]
    }

    /// Every stored state, in node order.
    pub(super) fn states(&self) -> &[G::State] {
        &self.states
    }

    /// The state of the node that `node` was reached from, if any.
    pub(super) fn parent_state(&self, node: usize) -> Option<G::State> {
        let parent = self.parents[node];
        (parent != ROOT).then(|| self.states[parent as usize])
    }

    /// Stores `state`, reached from `parent`, as a new node.
    pub(super) fn push(&mut self, state: G::State, parent: usize) -> usize {
        let node = self.states.len();
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

    /// The moves from the start to `node`, and the state they reach (with
    /// `node`'s key).
    ///
    /// Moves are re-derived, not stored: from the start, each step takes the
    /// cheapest move whose successor has the next node's key (the first in
    /// the game's move order on a tie). The walk starts from the real start
    /// and follows the states the moves actually produce, so the path replays
    /// through [`Game::step`] even where two states share a key but differ
    /// (a game may remember more than decides play, such as which of two identical pieces is in control).
    pub(super) fn path_to(&self, game: &G, node: usize) -> (Vec<G::Move>, G::State) {
        let mut chain = Vec::new();
        let mut at = node as u32;
        while at != ROOT {
            chain.push(at);
            at = self.parents[at as usize];
        }
        chain.reverse();
        let mut state = self.states[0];
        let mut path = Vec::with_capacity(chain.len().saturating_sub(1));
        for &next in &chain[1..] {
            let key = game.key(&self.states[next as usize]);
            let (mv, reached) = cheapest_step(game, &state, |s| game.key(s) == key)
                .expect("a stored node is a successor of its parent");
            path.push(mv);
            state = reached;
        }
        (path, state)
    }
}

/// The keys breadth-first search has seen: open addressing with linear
/// probing over a power-of-two array of keys, at most four fifths full
/// (the search rebuilds it from its arena, twice the size, when it gets
/// there), with a bitset saying which slots are used (small enough to stay
/// in cache, so only the key compare touches main memory).
///
/// Hand-written rather than a general hash map for one reason: the search
/// knows a state's successors before it looks any of them up, so it can
/// [`Seen::prefetch`] all their slots first and let the memory fetches
/// overlap. Keys are never removed.
pub(crate) struct Seen<K> {
    slots: Vec<K>,
    used: Vec<u64>,
    len: usize,
}

impl<K: Copy + Eq + Hash> Seen<K> {
    const MIN_SLOTS: usize = 1 << 10;

    pub(super) fn new(start: K) -> Self {
        let mut seen = Seen {
            slots: vec![start; Self::MIN_SLOTS],
            used: vec![0; Self::MIN_SLOTS / 64],
            len: 0,
        };
        seen.insert(start, hash_of(&start), true);
        seen
    }

    pub(super) fn hash(key: &K) -> u64 {
        hash_of(key)
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

    /// Records `key` (whose hash is `hash`), if it is new and there is `room`.
    #[inline]
    pub(super) fn insert(&mut self, key: K, hash: u64, room: bool) -> Insert {
        let mask = self.slots.len() - 1;
        let mut slot = self.home(hash);
        while self.is_used(slot) {
            if self.slots[slot] == key {
                return Insert::Known;
            }
            slot = (slot + 1) & mask;
        }
        if !room {
            return Insert::Full;
        }
        self.slots[slot] = key;
        self.used[slot / 64] |= 1 << (slot % 64);
        self.len += 1;
        Insert::New
    }

    /// Whether the table is four fifths full: time to [`Seen::rebuild`].
    pub(super) fn is_full(&self) -> bool {
        self.len * 5 > self.slots.len() * 4
    }

    /// Doubles the table and fills it with `keys`, which must be every key
    /// it holds (the search passes its arena's). The old table is freed
    /// before the new one is made, so growing never holds both: the peak
    /// memory of a search is its arena and one table.
    #[cold]
    #[inline(never)]
    pub(super) fn rebuild(&mut self, keys: impl Iterator<Item = K>) {
        let size = self.slots.len() * 2;
        let filler = self.slots[0];
        self.slots = Vec::new();
        self.used = Vec::new();
        self.slots = vec![filler; size];
        self.used = vec![0; size / 64];
        let mask = size - 1;
        for key in keys {
            let mut at = self.home(hash_of(&key));
            while self.is_used(at) {
                at = (at + 1) & mask;
            }
            self.slots[at] = key;
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

/// Node numbers by key, for best-first search.
pub(crate) struct NodeIndex {
    table: HashTable<u32>,
}

impl NodeIndex {
    pub(super) fn new<G: Game>(game: &G, arena: &Arena<G>) -> Self {
        let mut table = HashTable::new();
        table.insert_unique(hash_of(&game.key(&arena.states[0])), 0, |_| 0);
        NodeIndex { table }
    }

    /// The node holding `state`'s key, or else the node `state` is pushed
    /// as now, reached from `parent` (if there is `room`).
    pub(super) fn find_or_push<G: Game>(
        &mut self,
        game: &G,
        arena: &mut Arena<G>,
        state: G::State,
        parent: usize,
        room: bool,
    ) -> Indexed {
        let key = game.key(&state);
        let states = &arena.states;
        let entry = self.table.entry(
            hash_of(&key),
            |&node| game.key(&states[node as usize]) == key,
            |&node| hash_of(&game.key(&states[node as usize])),
        );
        match entry {
            Entry::Occupied(found) => Indexed::Known(*found.get() as usize),
            Entry::Vacant(_) if !room => Indexed::Full,
            Entry::Vacant(slot) => {
                slot.insert(states.len() as u32);
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
) -> Option<(G::Move, G::State)> {
    let mut best: Option<(G::Move, G::State, Cost)> = None;
    game.successors(state, |mv, next, cost| {
        if wanted(&next) && best.as_ref().is_none_or(|&(_, _, known)| cost < known) {
            best = Some((mv, next, cost));
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
        let mut seen = Seen::new(keys[0]);
        for (stored, &key) in keys.iter().enumerate().skip(1) {
            assert_eq!(seen.insert(key, Seen::hash(&key), true), Insert::New);
            if seen.is_full() {
                seen.rebuild(keys[..=stored].iter().copied());
            }
        }
        assert!(seen.slots.len() >= 131_072, "it grew");
        for &key in &keys {
            assert_eq!(seen.insert(key, Seen::hash(&key), true), Insert::Known);
        }
        let fresh = u64::MAX;
        assert_eq!(seen.insert(fresh, Seen::hash(&fresh), false), Insert::Full);
        assert_eq!(seen.insert(fresh, Seen::hash(&fresh), true), Insert::New);
    }
}
