//! Bitsets as slices of 32-bit words: the currency of the engine.
//!
//! A cell's objects are one bit per object id; its movements are a 5-bit
//! field per collision layer (up, down, left, right, action), layer `l` at
//! bit `5 l`, a field free to straddle two words. The layouts are the
//! official engine's, so that object ids, and hence the order in which the
//! random generator's choices are listed, agree with it.

/// The most words a mask may have: 2,048 objects, or 409 collision layers
/// (five movement bits each). The compiler refuses a bigger game.
pub(crate) const MAX_WORDS: usize = 64;

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

/// The set bits, lowest first.
pub(crate) fn ones(words: &[u32]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 32 + bit
            })
        })
    })
}

/// ORs the 5-bit `field` in at bit `shift` (it may straddle two words).
pub(crate) fn or_field(words: &mut [u32], field: u32, shift: usize) {
    let (w, b) = (shift >> 5, shift & 31);
    if let Some(x) = words.get_mut(w) {
        *x |= field << b;
    }
    if b > 27
        && let Some(x) = words.get_mut(w + 1)
    {
        *x |= field >> (32 - b);
    }
}

/// Clears the bits of the 5-bit `field` at bit `shift`.
pub(crate) fn clear_field(words: &mut [u32], field: u32, shift: usize) {
    let (w, b) = (shift >> 5, shift & 31);
    if let Some(x) = words.get_mut(w) {
        *x &= !(field << b);
    }
    if b > 27
        && let Some(x) = words.get_mut(w + 1)
    {
        *x &= !(field >> (32 - b));
    }
}

/// The 5-bit field at bit `shift`.
pub(crate) fn field(words: &[u32], shift: usize) -> u32 {
    let (w, b) = (shift >> 5, shift & 31);
    let mut v = words.get(w).map_or(0, |x| x >> b);
    if b > 27 {
        v |= words.get(w + 1).map_or(0, |x| x << (32 - b));
    }
    v & 0x1f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_straddle_words() {
        let mut w = [0u32; 2];
        or_field(&mut w, 0b10101, 30);
        assert_eq!(field(&w, 30), 0b10101);
        clear_field(&mut w, 0b00100, 30);
        assert_eq!(field(&w, 30), 0b10001);
        assert_eq!(ones(&w).collect::<Vec<_>>(), vec![30, 34]);
    }
}
