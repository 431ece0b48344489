//! Bitsets as slices of 32-bit words: the currency of the engine.
//!
//! A cell's objects are one bit per object id; its movements are a field
//! of [`FIELD_BITS`] bits per collision layer ([`UP`], [`DOWN`], [`LEFT`],
//! [`RIGHT`], [`ACTION`]), layer `l` at bit `FIELD_BITS * l`, a field free
//! to straddle two words. The layouts are the official engine's, so that
//! object ids, and hence the order in which the random generator's choices
//! are listed, agree with it.

/// The most words a mask may have: 2,048 objects, or 409 collision layers
/// (a field each). The compiler refuses a bigger game.
pub(crate) const MAX_WORDS: usize = 64;

/// The bits of a layer's movement field.
pub(crate) const FIELD_BITS: usize = 5;

/// Every bit of a field.
pub(crate) const FIELD: u32 = (1 << FIELD_BITS) - 1;

// The movement bits of a field, as the official engine numbers them (a
// rule's direction is one of the first four too).
/// Up.
pub(crate) const UP: u32 = 0b00001;
/// Down.
pub(crate) const DOWN: u32 = 0b00010;
/// Left.
pub(crate) const LEFT: u32 = 0b00100;
/// Right.
pub(crate) const RIGHT: u32 = 0b01000;
/// The action key.
pub(crate) const ACTION: u32 = 0b10000;

/// Left or right.
pub(crate) const HORIZONTAL: u32 = LEFT | RIGHT;
/// Up or down.
pub(crate) const VERTICAL: u32 = UP | DOWN;

/// Any of the four directions: a rule's `moving`, a sound's `orthogonal`.
pub(crate) const MOVING: u32 = UP | DOWN | LEFT | RIGHT;

// The official engine's codes for three rule words that are not
// directions, kept so that a rule that writes one as a movement writes
// what upstream writes.
/// `no`.
pub(crate) const NO: u32 = UP | DOWN;
/// `randomdir`: a random direction is drawn for the layer.
pub(crate) const RANDOMDIR: u32 = UP | LEFT;
/// `random`.
pub(crate) const RANDOM: u32 = DOWN | ACTION;

/// Division by a number fixed in advance, as a multiplication: a cell's
/// column and row are asked many times a turn, and a division is the
/// slowest instruction a turn would otherwise run.
///
/// The quotient of `n` by `d` is `(n + 1) * floor((2^64 - 1) / d) / 2^64`,
/// exact for every `n` below 2^32 when `d` is below 2^31: the error of the
/// truncated inverse, at most `(n + 1) * (1 + 1 / d) / 2^64`, stays under
/// the `1 / d` that separates `n / d` from the next integer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: usize,
    inverse: u64,
}

impl Divisor {
    /// Division by `d` (not 0).
    pub(crate) fn new(d: usize) -> Divisor {
        assert!(d > 0 && d < 1 << 31, "a divisor of {d}");
        Divisor {
            d,
            inverse: u64::MAX / d as u64,
        }
    }

    /// `n / d` and `n % d`, for `n` below 2^32.
    #[inline(always)]
    pub(crate) fn split(self, n: usize) -> (usize, usize) {
        debug_assert!(n < 1 << 32);
        let q = (((n as u128 + 1) * u128::from(self.inverse)) >> 64) as usize;
        (q, n - q * self.d)
    }
}

/// A fixed-capacity bitset on the stack, for the turn's scratch masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scratch {
    words: [u32; MAX_WORDS],
    len: usize,
}

impl Scratch {
    pub(crate) fn zero(len: usize) -> Self {
        Scratch {
            words: [0; MAX_WORDS],
            len,
        }
    }

    pub(crate) fn from(words: &[u32]) -> Self {
        let mut s = Scratch::zero(words.len());
        s.words[..words.len()].copy_from_slice(words);
        s
    }

    pub(crate) fn get(&self) -> &[u32] {
        &self.words[..self.len]
    }

    pub(crate) fn get_mut(&mut self) -> &mut [u32] {
        &mut self.words[..self.len]
    }
}

/// The `k`th run of `n` words: cell `k`'s, in a board of `n` words a cell.
#[inline(always)]
pub(crate) fn span(words: &[u32], k: usize, n: usize) -> &[u32] {
    &words[k * n..][..n]
}

/// [`span`], to write.
#[inline(always)]
pub(crate) fn span_mut(words: &mut [u32], k: usize, n: usize) -> &mut [u32] {
    &mut words[k * n..][..n]
}

/// Whether bit `i` is set.
pub(crate) fn has(words: &[u32], i: usize) -> bool {
    words.get(i >> 5).is_some_and(|w| w & (1 << (i & 31)) != 0)
}

/// Sets bit `i`.
pub(crate) fn set(words: &mut [u32], i: usize) {
    if let Some(w) = words.get_mut(i >> 5) {
        *w |= 1 << (i & 31);
    }
}

/// `a |= b`.
pub(crate) fn or(a: &mut [u32], b: &[u32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

/// `a &= !b`.
pub(crate) fn clear(a: &mut [u32], b: &[u32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= !y;
    }
}

/// Whether `a` and `b` share a bit.
pub(crate) fn any(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Whether every bit of `a` is set in `b`.
pub(crate) fn within(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == *x)
}

/// Whether `a`, looked at through `seen`, is `want` (all three of a length).
#[inline(always)]
pub(crate) fn seen_as(a: &[u32], seen: &[u32], want: &[u32]) -> bool {
    a.iter()
        .zip(seen)
        .zip(want)
        .fold(0, |differ, ((x, s), w)| differ | ((x & s) ^ w))
        == 0
}

/// Whether no bit is set.
pub(crate) fn is_zero(a: &[u32]) -> bool {
    a.iter().all(|x| *x == 0)
}

/// The set bits, lowest first: of words of objects (`u32`) or of
/// bitmaps of cells (`u64`).
pub(crate) fn ones<W: Copy + Into<u64>>(words: &[W]) -> impl Iterator<Item = usize> + '_ {
    let width = 8 * size_of::<W>();
    words.iter().enumerate().flat_map(move |(w, &word)| {
        let mut rest: u64 = word.into();
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * width + bit
            })
        })
    })
}

/// The set bits of one word (of objects, say), lowest first: a loop
/// that a caller's code inlines, for the engine's hot paths.
#[inline(always)]
pub(crate) fn ones_of_word(mut word: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

/// ORs `field` into layer `layer`'s field (it may straddle two words).
pub(crate) fn or_field(words: &mut [u32], field: u32, layer: usize) {
    let shift = FIELD_BITS * layer;
    let (w, b) = (shift >> 5, shift & 31);
    if let Some(x) = words.get_mut(w) {
        *x |= field << b;
    }
    if b + FIELD_BITS > 32
        && let Some(x) = words.get_mut(w + 1)
    {
        *x |= field >> (32 - b);
    }
}

/// Clears the bits of `field` in layer `layer`'s field.
pub(crate) fn clear_field(words: &mut [u32], field: u32, layer: usize) {
    let shift = FIELD_BITS * layer;
    let (w, b) = (shift >> 5, shift & 31);
    if let Some(x) = words.get_mut(w) {
        *x &= !(field << b);
    }
    if b + FIELD_BITS > 32
        && let Some(x) = words.get_mut(w + 1)
    {
        *x &= !(field >> (32 - b));
    }
}

/// Layer `layer`'s field.
pub(crate) fn field(words: &[u32], layer: usize) -> u32 {
    let shift = FIELD_BITS * layer;
    let (w, b) = (shift >> 5, shift & 31);
    let mut v = words.get(w).map_or(0, |x| x >> b);
    if b + FIELD_BITS > 32 {
        v |= words.get(w + 1).map_or(0, |x| x << (32 - b));
    }
    v & FIELD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_straddle_words() {
        // Layer 6's field is bits 30 to 34.
        let mut w = [0u32; 2];
        or_field(&mut w, 0b10101, 6);
        assert_eq!(field(&w, 6), 0b10101);
        clear_field(&mut w, 0b00100, 6);
        assert_eq!(field(&w, 6), 0b10001);
        assert_eq!(ones(&w).collect::<Vec<_>>(), vec![30, 34]);
    }

    #[test]
    fn a_divisor_divides_as_division_does() {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        for d in (1..=600).chain([(1 << 31) - 1, 1 << 30, 65_537]) {
            let divisor = Divisor::new(d);
            let near = [0, 1, d - 1, d, d + 1, (1 << 32) - 1, (1 << 32) - 2];
            let multiples = (1..40).flat_map(|k| [k * d - 1, k * d]);
            let random = (0..200).map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng >> 32) as usize
            });
            let below = |n: &usize| *n < 1 << 32;
            for n in near
                .into_iter()
                .chain(multiples)
                .chain(random)
                .filter(below)
            {
                assert_eq!(divisor.split(n), (n / d, n % d), "{n} by {d}");
            }
        }
    }

    #[test]
    fn ones_counts_by_the_width_of_its_words() {
        let cells = [1u64 << 63, 0, 0b101];
        assert_eq!(ones(&cells).collect::<Vec<_>>(), vec![63, 128, 130]);
        let objects = [1u32 << 31, 0b10];
        assert_eq!(ones(&objects).collect::<Vec<_>>(), vec![31, 33]);
    }
}
