//! How a search keeps many states of one type, and tells them apart: the
//! storage behind [`crate::game::State`].
//!
//! Two kinds, chosen by the state's type, so each search is compiled for
//! one and pays nothing for the other:
//!
//! * A `Copy` state lives in a `Vec` of states, and the visited tables
//!   compare [`Game::key`](crate::game::Game::key)s: a packed integer costs
//!   its own size, and its key is the whole identity (the fast path: a BFS
//!   lookup touches its table only).
//! * A slice state (`[u8]`, `[u32]`), whose length the level fixes, lives
//!   in [`Slices`]: every state's elements back to back in one `Vec`, with
//!   no allocation, pointer or length per state. The visited tables hold
//!   node numbers and compare the stored elements, so a state's elements
//!   are never copied twice.

use std::collections::TryReserveError;
use std::hash::Hash;

/// A key's bounds (the game's [`Game::Key`](crate::game::Game::Key)).
pub trait Key: Copy + Eq + Hash + Send + Sync {}

impl<K: Copy + Eq + Hash + Send + Sync> Key for K {}

/// Many states of type `S`, numbered from 0 in the order pushed, and what
/// identifies one in a visited table.
///
/// Sealed: implemented for `Vec<T>` (a `Copy` state) and [`Slices`] (a
/// slice state) only, through [`crate::game::State`].
pub trait Store<S: ?Sized>: Default + Send + Sync {
    /// What tells two states apart: the key for a `Copy` state, the
    /// elements themselves for a slice. Equal ids, the same state.
    type Id<'a, K: Key>: Copy + Hash
    where
        Self: 'a,
        S: 'a;

    /// What BFS's visited table keeps per state: the key itself when it
    /// is one (so a lookup never reads the arena), else the node number.
    type Slot<K: Key>: Copy + Send + Sync;

    /// The id of `state`, whose key is `key`.
    fn id<'a, K: Key>(key: K, state: &'a S) -> Self::Id<'a, K>
    where
        Self: 'a;

    /// Whether two ids are of the same state. (An id is a projection,
    /// invariant in its lifetime, so ids borrowed for different lifetimes
    /// are compared here rather than with `==`.)
    fn same<'a, 'b, K: Key>(a: Self::Id<'a, K>, b: Self::Id<'b, K>) -> bool
    where
        Self: 'a + 'b;

    /// The slot of node `node`, whose key is `key`.
    fn slot<K: Key>(key: K, node: u32) -> Self::Slot<K>;

    /// The id of the state a slot stands for.
    fn slot_id<K: Key>(&self, slot: Self::Slot<K>) -> Self::Id<'_, K>;

    /// Whether a slot stands for a state kept in this store, so that
    /// comparing it is a fetch from memory: then a visited table keeps a
    /// few bits of each slot's hash too, and compares only the slots whose
    /// bits are those sought.
    const TAGGED: bool;

    /// What stands for a state held for a moment (BFS's successors, before
    /// they are looked up): the state itself when it is `Copy`, else its
    /// number in a store kept for the purpose.
    type Held: Copy + Send + Sync;

    /// Holds `state` in this store if it must, and says how to find it.
    fn hold(&mut self, state: &S) -> Self::Held;

    /// Whether [`Store::hold`] can hold `state` without the store growing
    /// (always, for a state held in itself).
    fn can_hold(&self, state: &S) -> bool;

    /// The state `held` stands for.
    fn held<'a>(&'a self, held: &'a Self::Held) -> &'a S;

    /// How many states are stored.
    fn len(&self) -> usize;

    /// State number `node`.
    fn get(&self, node: usize) -> &S;

    /// Every state, in number order.
    fn iter<'a>(&'a self) -> impl ExactSizeIterator<Item = &'a S>
    where
        S: 'a;

    /// Stores a copy of `state` as the next number.
    fn push(&mut self, state: &S);

    /// Forgets every state, keeping the memory for reuse.
    fn clear(&mut self);

    /// The bytes the stored states take, all together (what is in use,
    /// not the spare capacity).
    fn state_bytes(&self) -> u64;

    /// The bytes the store has allocated: its capacity, what a search
    /// counts against its memory budget.
    fn capacity_bytes(&self) -> u64;

    /// Whether `state` can be stored without the store growing.
    fn fits(&self, state: &S) -> bool;

    /// The bytes a store of `states` states would take, were they like
    /// those stored so far and `next`.
    fn bytes_for(&self, states: usize, next: &S) -> u64;

    /// Grows the store to room for `states` states like those stored so
    /// far and `next` (at least room for `next`), or says the allocator
    /// refused: the store is then as it was.
    fn try_grow(&mut self, states: usize, next: &S) -> Result<(), TryReserveError>;

    /// Takes on what `other` has learnt of its states' lengths: a store
    /// about to hold states like `other`'s grows room for what they need
    /// (a store of states of one size has nothing to learn).
    fn vary_like(&mut self, _other: &Self) {}

    /// Whether a slot names its state's node ([`Store::slot`]), so that a
    /// reader can tell a slot written after a moment from one written
    /// before ([`View::slot_id`]).
    const NODE_SLOTS: bool;

    /// Where the stored states are: read on other threads while this
    /// store takes more ([`Store::view`]).
    type View: View<S, Self>;

    /// A view of the states stored so far.
    ///
    /// # Safety
    ///
    /// The view reads this store's memory: the caller uses it only while
    /// the store is alive and has not grown or been cleared since (pushing
    /// states that [`Store::fits`] is fine), and only for states stored
    /// before the view was taken.
    unsafe fn view(&self) -> Self::View;
}

/// A view of the states a [`Store`] held when it was taken ([`Store::view`]):
/// plain addresses, so threads may read through it while one thread pushes
/// more states, and nobody holds a reference to the store meanwhile.
pub trait View<S: ?Sized, T: Store<S>>: Copy + Send + Sync {
    /// State `node`, stored before the view was taken.
    fn get(&self, node: usize) -> &S;

    /// The id of the state a slot stands for, unless it names a node
    /// stored after the view was taken.
    fn slot_id<K: Key>(&self, slot: T::Slot<K>) -> Option<T::Id<'_, K>>;
}

impl<T: Key> Store<T> for Vec<T> {
    type Id<'a, K: Key>
        = K
    where
        T: 'a;
    type Slot<K: Key> = K;
    const TAGGED: bool = false;

    #[inline]
    fn id<'a, K: Key>(key: K, _: &'a T) -> K
    where
        T: 'a,
    {
        key
    }

    #[inline]
    fn same<'a, 'b, K: Key>(a: K, b: K) -> bool
    where
        T: 'a + 'b,
    {
        a == b
    }

    #[inline]
    fn slot<K: Key>(key: K, _: u32) -> K {
        key
    }

    #[inline]
    fn slot_id<K: Key>(&self, slot: K) -> K {
        slot
    }

    type Held = T;

    #[inline]
    fn hold(&mut self, state: &T) -> T {
        *state
    }

    #[inline]
    fn can_hold(&self, _: &T) -> bool {
        true
    }

    #[inline]
    fn held<'a>(&'a self, held: &'a T) -> &'a T {
        held
    }

    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }

    #[inline]
    fn get(&self, node: usize) -> &T {
        &self[node]
    }

    fn iter<'a>(&'a self) -> impl ExactSizeIterator<Item = &'a T>
    where
        T: 'a,
    {
        self.as_slice().iter()
    }

    #[inline]
    fn push(&mut self, state: &T) {
        Vec::push(self, *state);
    }

    fn clear(&mut self) {
        Vec::clear(self);
    }

    fn state_bytes(&self) -> u64 {
        (Vec::len(self) * size_of::<T>()) as u64
    }

    fn capacity_bytes(&self) -> u64 {
        (self.capacity() * size_of::<T>()) as u64
    }

    #[inline]
    fn fits(&self, _: &T) -> bool {
        Vec::len(self) < self.capacity()
    }

    fn bytes_for(&self, states: usize, _: &T) -> u64 {
        (states * size_of::<T>()) as u64
    }

    fn try_grow(&mut self, states: usize, _: &T) -> Result<(), TryReserveError> {
        let states = states.max(Vec::len(self) + 1);
        self.try_reserve_exact(states - Vec::len(self))
    }

    const NODE_SLOTS: bool = false;

    type View = Values<T>;

    unsafe fn view(&self) -> Values<T> {
        Values {
            values: self.as_ptr(),
            len: Vec::len(self),
        }
    }
}

/// A view of a `Vec` of `Copy` states ([`Store::view`]).
pub struct Values<T> {
    values: *const T,
    len: usize,
}

impl<T> Clone for Values<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Values<T> {}

// SAFETY: a view only reads, and `Store::view`'s caller keeps what it
// reads alive and unwritten while it is used.
unsafe impl<T: Sync> Send for Values<T> {}
unsafe impl<T: Sync> Sync for Values<T> {}

impl<T: Key> View<T, Vec<T>> for Values<T> {
    #[inline]
    fn get(&self, node: usize) -> &T {
        assert!(node < self.len, "state {node} of a view of {}", self.len);
        // SAFETY: below the length when the view was taken (see `view`).
        unsafe { &*self.values.add(node) }
    }

    #[inline]
    fn slot_id<K: Key>(&self, slot: K) -> Option<K> {
        Some(slot)
    }
}

/// Slice states back to back in one vector of elements: state `i` is
/// `elements[i * stride..][..stride]` while every state has `stride`
/// elements, which is the usual case (a level fixes its cell count). The
/// first state of another length turns on an end offset per state, so
/// states of varying length (a child process's opaque bytes) cost their
/// elements plus 4 bytes each, and no fixed-length game pays for it.
///
/// An end is kept in 32 bits, its low half: the few states where the high
/// half steps up (every 4 Gi elements, which a store reaches only under a
/// memory budget of many gigabytes) are listed in `wraps`, so an end is
/// one load while that list is empty, and a binary search of a short list
/// after.
pub struct Slices<T> {
    elements: Vec<T>,
    /// Elements per state, while `ends` is empty.
    stride: usize,
    /// Where each state ends in `elements`, modulo 2³²; empty while all
    /// lengths are `stride`.
    ends: Vec<u32>,
    /// The states whose end is the first past another multiple of 2³²
    /// elements, in order.
    wraps: Vec<usize>,
    len: usize,
    /// Whether lengths have ever varied. Kept through `clear`: a buffer
    /// refilled round after round then makes room for ends before it
    /// needs them, not when a state of another length finds none.
    varied: bool,
}

impl<T> Default for Slices<T> {
    fn default() -> Self {
        Slices {
            elements: Vec::new(),
            stride: 0,
            ends: Vec::new(),
            wraps: Vec::new(),
            len: 0,
            varied: false,
        }
    }
}

impl<T> Slices<T> {
    /// Where state `node` ends in `elements`, once lengths vary.
    #[inline]
    fn end(&self, node: usize) -> usize {
        let low = self.ends[node] as usize;
        if self.wraps.is_empty() {
            low
        } else {
            let high = self.wraps.partition_point(|&wrap| wrap <= node) as u64;
            ((high << 32) | low as u64) as usize
        }
    }

    /// Whether a state of `length` elements turns on (or needs) the ends.
    fn varies_with(&self, length: usize) -> bool {
        !self.ends.is_empty() || (self.len > 0 && length != self.stride)
    }

    /// Whether growing for more states like one of `length` must make
    /// room for their ends: lengths vary now, or have varied before.
    fn grows_ends(&self, length: usize) -> bool {
        self.varied || self.varies_with(length)
    }

    /// How many wraps pushing a state of `length` elements may list (at
    /// most, and only past 4 Gi elements).
    fn wraps_for(&self, length: usize) -> usize {
        let (before, after) = (
            self.elements.len() as u64,
            (self.elements.len() + length) as u64,
        );
        match self.ends.is_empty() {
            // Turning the ends on lists every wrap so far.
            true => (after >> 32) as usize,
            false => usize::from(after >> 32 != before >> 32),
        }
    }

    /// Records that the state just stored ends at `end`.
    fn push_end(&mut self, end: usize) {
        let before = self.len.checked_sub(1).map_or(0, |last| self.end(last));
        if end as u64 >> 32 != before as u64 >> 32 {
            self.wraps.push(self.len);
        }
        self.ends.push(end as u32);
    }
}

impl<T: Key> Store<[T]> for Slices<T> {
    type Id<'a, K: Key>
        = &'a [T]
    where
        T: 'a;
    type Slot<K: Key> = u32;
    const TAGGED: bool = true;

    #[inline]
    fn id<'a, K: Key>(_: K, state: &'a [T]) -> &'a [T]
    where
        T: 'a,
    {
        state
    }

    #[inline]
    fn same<'a, 'b, K: Key>(a: &'a [T], b: &'b [T]) -> bool
    where
        T: 'a + 'b,
    {
        a == b
    }

    #[inline]
    fn slot<K: Key>(_: K, node: u32) -> u32 {
        node
    }

    #[inline]
    fn slot_id<K: Key>(&self, slot: u32) -> &[T] {
        self.get(slot as usize)
    }

    type Held = u32;

    #[inline]
    fn hold(&mut self, state: &[T]) -> u32 {
        self.push(state);
        (self.len - 1) as u32
    }

    #[inline]
    fn can_hold(&self, state: &[T]) -> bool {
        self.fits(state)
    }

    #[inline]
    fn held<'a>(&'a self, held: &'a u32) -> &'a [T] {
        self.get(*held as usize)
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, node: usize) -> &[T] {
        if self.ends.is_empty() {
            debug_assert!(node < self.len, "state {node} of {}", self.len);
            &self.elements[node * self.stride..][..self.stride]
        } else {
            let start = node.checked_sub(1).map_or(0, |before| self.end(before));
            &self.elements[start..self.end(node)]
        }
    }

    fn iter<'a>(&'a self) -> impl ExactSizeIterator<Item = &'a [T]>
    where
        T: 'a,
    {
        (0..self.len).map(|node| self.get(node))
    }

    #[inline]
    fn push(&mut self, state: &[T]) {
        if self.len == 0 {
            self.stride = state.len();
        } else if self.ends.is_empty() && state.len() != self.stride {
            self.varied = true;
            let ends = (1..=self.len).map(|node| node * self.stride);
            self.ends.reserve(self.len + 1);
            for (node, end) in ends.enumerate() {
                if node > 0 && end as u64 >> 32 != (end - self.stride) as u64 >> 32 {
                    self.wraps.push(node);
                }
                self.ends.push(end as u32);
            }
        }
        self.elements.extend_from_slice(state);
        if !self.ends.is_empty() {
            self.push_end(self.elements.len());
        }
        self.len += 1;
    }

    fn clear(&mut self) {
        self.elements.clear();
        self.ends.clear();
        self.wraps.clear();
        self.len = 0;
    }

    fn state_bytes(&self) -> u64 {
        (self.elements.len() * size_of::<T>() + self.ends.len() * size_of::<u32>()) as u64
    }

    fn capacity_bytes(&self) -> u64 {
        (self.elements.capacity() * size_of::<T>()
            + self.ends.capacity() * size_of::<u32>()
            + self.wraps.capacity() * size_of::<usize>()) as u64
    }

    #[inline]
    fn fits(&self, state: &[T]) -> bool {
        let elements = self.elements.len() + state.len() <= self.elements.capacity();
        if self.varies_with(state.len()) {
            // An end for every state so far and this one (turning the ends
            // on writes them all), and the wraps they list: a push that
            // fits moves no vector, which a view relies on.
            elements
                && self.ends.capacity() > self.len
                && self.wraps.capacity() - self.wraps.len() >= self.wraps_for(state.len())
        } else {
            elements
        }
    }

    fn bytes_for(&self, states: usize, next: &[T]) -> u64 {
        // As many elements a state as those stored and `next` average.
        let stored = (self.elements.len() + next.len()) as u128;
        let elements = (stored * states as u128).div_ceil(self.len as u128 + 1);
        let ends = if self.grows_ends(next.len()) {
            states * size_of::<u32>()
        } else {
            0
        };
        (elements as u64).saturating_mul(size_of::<T>() as u64) + ends as u64
    }

    fn vary_like(&mut self, other: &Self) {
        self.varied |= other.varied;
    }

    const NODE_SLOTS: bool = true;

    type View = Spans<T>;

    unsafe fn view(&self) -> Spans<T> {
        Spans {
            elements: self.elements.as_ptr(),
            stride: self.stride,
            ends: self.ends.as_ptr(),
            varied: !self.ends.is_empty(),
            wraps: self.wraps.as_ptr(),
            wrapped: self.wraps.len(),
            len: self.len,
        }
    }

    fn try_grow(&mut self, states: usize, next: &[T]) -> Result<(), TryReserveError> {
        let states = states.max(self.len + 1);
        let stored = (self.elements.len() + next.len()) as u128;
        let elements = ((stored * states as u128).div_ceil(self.len as u128 + 1) as usize)
            .max(self.elements.len() + next.len());
        let varies = self.grows_ends(next.len());
        // Both vectors are reserved before either grows, so a refusal
        // leaves the store as it was (a reserve that succeeded only adds
        // capacity).
        self.elements
            .try_reserve_exact(elements - self.elements.len())?;
        if varies {
            self.ends.try_reserve_exact(states - self.ends.len())?;
            self.wraps.try_reserve_exact(self.wraps_for(next.len()))?;
        }
        Ok(())
    }
}

/// A view of [`Slices`] ([`Store::view`]): its vectors' addresses and
/// lengths when it was taken.
pub struct Spans<T> {
    elements: *const T,
    stride: usize,
    ends: *const u32,
    varied: bool,
    wraps: *const usize,
    wrapped: usize,
    len: usize,
}

impl<T> Clone for Spans<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Spans<T> {}

// SAFETY: as for `Values`.
unsafe impl<T: Sync> Send for Spans<T> {}
unsafe impl<T: Sync> Sync for Spans<T> {}

impl<T> Spans<T> {
    /// Where state `node` ends, once lengths vary (as [`Slices::end`]).
    #[inline]
    fn end(&self, node: usize) -> usize {
        // SAFETY: `node` is below the length when the view was taken, and
        // so are the wraps listed then (see `Store::view`).
        let low = unsafe { *self.ends.add(node) } as usize;
        if self.wrapped == 0 {
            low
        } else {
            let wraps = unsafe { std::slice::from_raw_parts(self.wraps, self.wrapped) };
            let high = wraps.partition_point(|&wrap| wrap <= node) as u64;
            ((high << 32) | low as u64) as usize
        }
    }
}

impl<T: Key> View<[T], Slices<T>> for Spans<T> {
    #[inline]
    fn get(&self, node: usize) -> &[T] {
        assert!(node < self.len, "state {node} of a view of {}", self.len);
        let (start, end) = match self.varied {
            false => (node * self.stride, (node + 1) * self.stride),
            true => {
                let start = node.checked_sub(1).map_or(0, |before| self.end(before));
                (start, self.end(node))
            }
        };
        // SAFETY: a state stored before the view was taken, whose
        // elements the store neither moves nor writes (see `view`).
        unsafe { std::slice::from_raw_parts(self.elements.add(start), end - start) }
    }

    #[inline]
    fn slot_id<K: Key>(&self, slot: u32) -> Option<&[T]> {
        ((slot as usize) < self.len).then(|| self.get(slot as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_length_states_cost_their_elements_alone() {
        let mut store = Slices::<u32>::default();
        for i in 0..100u32 {
            store.push(&[i, i + 1, i + 2]);
        }
        assert_eq!(store.len(), 100);
        assert_eq!(store.get(41), [41, 42, 43]);
        assert_eq!(store.state_bytes(), 100 * 3 * 4);
    }

    #[test]
    fn lengths_may_vary_from_any_state_on() {
        let mut store = Slices::<u8>::default();
        store.push(b"ab");
        store.push(b"cd");
        store.push(b"");
        store.push(b"efghi");
        store.push(b"jk");
        let all: Vec<&[u8]> = (0..store.len()).map(|node| store.get(node)).collect();
        assert_eq!(all, [&b"ab"[..], b"cd", b"", b"efghi", b"jk"]);
        assert_eq!(store.state_bytes(), 11 + 5 * 4);
        store.clear();
        store.push(b"xyz");
        store.push(b"uvw");
        assert_eq!((store.get(1), store.state_bytes()), (&b"uvw"[..], 6));
    }

    /// A search's lane is cleared and grown again every round: once its
    /// states have varied in length, growing makes room for their ends
    /// too, so states of any length fit as far as the elements do.
    #[test]
    fn a_store_whose_lengths_varied_grows_room_for_their_ends() {
        let mut store = Slices::<u8>::default();
        store.push(b"ab");
        store.push(b"abc");
        store.clear();
        store.try_grow(100, b"ab").expect("room for 100 states");
        assert!(store.bytes_for(100, b"ab") >= 100 * 2 + 100 * 4);
        for i in 0..100 {
            let state: &[u8] = if i % 3 == 0 { b"abc" } else { b"a" };
            assert!(store.fits(state), "state {i} fits");
            store.push(state);
        }
        // A store whose lengths never varied keeps no ends.
        let mut plain = Slices::<u8>::default();
        plain.push(b"ab");
        plain.clear();
        assert_eq!(plain.bytes_for(100, b"ab"), 200);
    }

    #[test]
    fn empty_states_are_counted() {
        let mut store = Slices::<u8>::default();
        store.push(b"");
        store.push(b"");
        assert_eq!((store.len(), store.get(1)), (2, &b""[..]));
    }
}
