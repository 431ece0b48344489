//! Bits a state is written in: a writer and a reader over 64-bit words,
//! low bit first, and the codes a packed board uses (a count, a sorted list
//! of positions).
//!
//! Every code here is a function of what it codes, so equal boards write
//! equal bits: that is what keeps a packed state its own key.

/// Bits written low first into words; a region may be skipped (left zero)
/// and filled later at any position inside it.
///
/// The word being filled is kept apart (`acc`), so that an append is a
/// shift and an OR, and a word is pushed only once full.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    /// The full words.
    words: Vec<u64>,
    /// The word being filled, and how many of its bits are.
    acc: u64,
    filled: u32,
}

impl Writer {
    /// Forgets everything written.
    pub(crate) fn clear(&mut self) {
        self.words.clear();
        self.acc = 0;
        self.filled = 0;
    }

    /// Bits written so far.
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.words.len() * 64 + self.filled as usize
    }

    /// Appends the low `n` bits of `value` (`n` ≤ 64; the bits above `n`
    /// must be zero).
    #[inline]
    pub(crate) fn put(&mut self, value: u64, n: u32) {
        debug_assert!(n == 64 || value >> n == 0, "{value:#x} in {n} bits");
        self.acc |= value << self.filled;
        let filled = self.filled + n;
        if filled >= 64 {
            self.words.push(self.acc);
            // What did not fit: `value >> (64 - filled)`, written as two
            // shifts so that a `filled` of 0 (a shift by 64, which would
            // be no shift at all) gives 0, with no branch.
            self.acc = (value >> 1) >> (63 - self.filled);
            self.filled = filled - 64;
        } else {
            self.filled = filled;
        }
    }

    /// Leaves `n` zero bits to be filled by [`Writer::put_at`]; their
    /// start.
    pub(crate) fn skip(&mut self, mut n: usize) -> usize {
        let start = self.position();
        while n > 0 {
            let k = n.min(64);
            self.put(0, k as u32);
            n -= k;
        }
        start
    }

    /// Writes the low `n` bits of `value` at bit `at`, inside a region
    /// [`Writer::skip`] left zero.
    #[inline]
    pub(crate) fn put_at(&mut self, at: usize, value: u64, n: u32) {
        debug_assert!(
            at + n as usize <= self.position(),
            "inside a skipped region"
        );
        let (word, shift) = (at / 64, (at % 64) as u32);
        self.or_word(word, value << shift);
        if shift + n > 64 {
            self.or_word(word + 1, value >> (64 - shift));
        }
    }

    #[inline]
    fn or_word(&mut self, word: usize, bits: u64) {
        match self.words.get_mut(word) {
            Some(w) => *w |= bits,
            None => self.acc |= bits,
        }
    }

    /// Drops everything written from bit `at` on.
    pub(crate) fn truncate(&mut self, at: usize) {
        debug_assert!(at <= self.position());
        let (word, shift) = (at / 64, (at % 64) as u32);
        if word < self.words.len() {
            self.acc = self.words[word];
            self.words.truncate(word);
        }
        self.acc &= (1u64 << shift) - 1;
        self.filled = shift;
    }

    /// Appends `n` as an Elias gamma code of `n + 1`: as many zeros as
    /// `n + 1` has bits after its highest, a one, then those bits. Small
    /// counts take few bits: 0 takes 1, 1 and 2 take 3, 3 to 6 take 5.
    #[inline(always)]
    pub(crate) fn gamma(&mut self, n: u64) {
        let x = n + 1;
        let rest = 63 - x.leading_zeros();
        if rest < 32 {
            // The zeros, the one, then the bits: one append.
            self.put(((x ^ (1 << rest)) << 1 | 1) << rest, 2 * rest + 1);
        } else {
            self.put(1 << rest, rest + 1);
            self.put(x & ((1 << rest) - 1), rest);
        }
    }

    /// Appends `n` ones: `n` counts of 0.
    #[inline]
    pub(crate) fn ones(&mut self, mut n: u32) {
        while n > 0 {
            let k = n.min(63);
            self.put((1 << k) - 1, k);
            n -= k;
        }
    }

    /// Appends `positions` (strictly increasing, each below the universe
    /// `code` was chosen for) in `code`, [`ListCode::of`] their count and
    /// universe: the reader must be told both first.
    #[inline]
    pub(crate) fn positions(&mut self, positions: impl Iterator<Item = u32>, code: ListCode) {
        match code {
            ListCode::Plain(width) => {
                let width = u32::from(width);
                for p in positions {
                    self.put(u64::from(p), width);
                }
            }
            ListCode::Rice(low) => {
                let low = u32::from(low);
                let mut next = 0u32;
                for p in positions {
                    let gap = u64::from(p - next);
                    let (quotient, remainder) = (gap >> low, gap & ((1 << low) - 1));
                    // The quotient in unary: zeros, then a one.
                    let mut zeros = quotient;
                    while zeros >= 63 {
                        self.put(0, 63);
                        zeros -= 63;
                    }
                    let unary = zeros as u32 + 1;
                    if unary + low <= 64 {
                        // Both in one append, the quotient's bits first.
                        self.put(remainder << unary | 1 << zeros, unary + low);
                    } else {
                        self.put(1 << zeros, unary);
                        self.put(remainder, low);
                    }
                    next = p + 1;
                }
            }
        }
    }

    /// Appends the words written as bytes to `out`, at least `min` of them
    /// (zeros after the last written bit).
    pub(crate) fn bytes_into(&self, out: &mut Vec<u8>, min: usize) {
        let len = self.position().div_ceil(8).max(min);
        let start = out.len();
        for word in self.words.iter().chain([&self.acc]) {
            if out.len() - start >= len {
                break;
            }
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.resize(start + len, 0);
    }
}

/// How a sorted list of positions is coded, told by its length and its
/// universe alone (so a reader that knows both knows the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListCode {
    /// Each position in this many bits.
    Plain(u8),
    /// Each gap to the next position (one past the last, from 0) as a
    /// Rice code with this many low bits: the gap's quotient in unary, then
    /// its low bits. For `n` positions among `u` it takes at most
    /// `n (low + 1) + u / 2^low` bits, about `n (log2(u/n) + 2)`: a crate
    /// of 150 among 3,000 floor cells in 7 bits rather than 12.
    Rice(u8),
}

impl ListCode {
    /// The code for `n` positions among `universe`: Rice with
    /// `floor(log2(universe / n))` low bits when its bound is below
    /// plain's, else plain.
    pub(crate) fn of(n: usize, universe: usize) -> ListCode {
        let width = bits_for(universe);
        if n == 0 {
            return ListCode::Plain(width as u8);
        }
        let low = (universe / n).max(1).ilog2();
        if rice_bound(n, universe, low) < n * width as usize {
            ListCode::Rice(low as u8)
        } else {
            ListCode::Plain(width as u8)
        }
    }

    /// [`ListCode::of`] every count from 0 to `universe`, by count.
    pub(crate) fn table(universe: usize) -> Vec<ListCode> {
        (0..=universe).map(|n| ListCode::of(n, universe)).collect()
    }

    /// The most bits `n` positions among `universe` take, count aside.
    pub(crate) fn most_bits(n: usize, universe: usize) -> usize {
        match ListCode::of(n, universe) {
            ListCode::Plain(width) => n * width as usize,
            ListCode::Rice(low) => rice_bound(n, universe, u32::from(low)),
        }
    }
}

fn rice_bound(n: usize, universe: usize, low: u32) -> usize {
    n * (low as usize + 1) + (universe >> low)
}

/// Bits a value below `universe` takes (0 when there is one value or none).
pub(crate) fn bits_for(universe: usize) -> u32 {
    usize::BITS - universe.saturating_sub(1).leading_zeros()
}

/// Bits [`Writer::gamma`] takes for `n`.
pub(crate) fn gamma_bits(n: usize) -> usize {
    2 * (usize::BITS - 1 - (n + 1).leading_zeros()) as usize + 1
}

/// Reads what a [`Writer`] wrote, from bytes copied into words.
#[derive(Debug, Default)]
pub(crate) struct Reader {
    words: Vec<u64>,
    at: usize,
}

impl Reader {
    /// Starts reading `bytes` from their first bit.
    pub(crate) fn load(&mut self, bytes: &[u8]) {
        self.words.clear();
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.words
                .push(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.words.push(u64::from_le_bytes(last));
        }
        // Slack: a read near the end looks one word past it.
        self.words.extend([0, 0]);
        self.at = 0;
    }

    /// The next 64 bits, without reading them (zeros past the end).
    #[inline]
    fn peek(&self) -> u64 {
        let (word, shift) = (self.at / 64, (self.at % 64) as u32);
        // The slack words make two words there nearly always: read with
        // one test and no branch on the shift (`<< 1 <<` is a shift by
        // 64 - `shift` that a `shift` of 0 does not overflow).
        let (low, high) = match self.words.get(word..word + 2) {
            Some(&[low, high]) => (low, high),
            _ => (self.words.get(word).copied().unwrap_or(0), 0),
        };
        (low >> shift) | (high << 1) << (63 - shift)
    }

    /// The next `n` bits (`n` ≤ 64).
    #[inline]
    pub(crate) fn get(&mut self, n: u32) -> u64 {
        let bits = self.peek();
        self.at += n as usize;
        if n == 64 { bits } else { bits & ((1 << n) - 1) }
    }

    /// Skips `n` bits.
    #[cfg(test)]
    pub(crate) fn skip(&mut self, n: usize) {
        self.at += n;
    }

    /// The bit position.
    #[cfg(test)]
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// Ones up to the next zero, at most `most` of them, read: how many.
    /// A run of empty lists ([`Writer::ones`]) is skipped in one read.
    #[inline]
    pub(crate) fn ones(&mut self, most: usize) -> usize {
        let run = (self.peek().trailing_ones() as usize).min(most);
        self.at += run;
        run
    }

    /// Zeros up to the next one, which is read too: how many.
    #[inline]
    fn unary(&mut self) -> u64 {
        let mut zeros = 0u64;
        loop {
            let bits = self.peek();
            if bits != 0 {
                let z = bits.trailing_zeros();
                self.at += z as usize + 1;
                return zeros + u64::from(z);
            }
            // Past the end of a corrupt stream: stop rather than spin.
            if self.at / 64 >= self.words.len() {
                return zeros;
            }
            self.at += 64;
            zeros += 64;
        }
    }

    /// A count written by [`Writer::gamma`].
    #[inline]
    pub(crate) fn gamma(&mut self) -> u64 {
        let rest = self.unary() as u32;
        ((1u64 << rest) | self.get(rest)) - 1
    }

    /// `n` positions written by [`Writer::positions`] in `code`, each
    /// handed to `each` in order.
    #[inline]
    pub(crate) fn positions(&mut self, n: usize, code: ListCode, mut each: impl FnMut(u32)) {
        match code {
            ListCode::Plain(width) => {
                for _ in 0..n {
                    each(self.get(u32::from(width)) as u32);
                }
            }
            ListCode::Rice(low) => {
                let low = u32::from(low);
                let mut next = 0u64;
                for _ in 0..n {
                    let quotient = self.unary();
                    let p = next + (quotient << low | self.get(low));
                    each(p as u32);
                    next = p + 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_back(w: &Writer) -> Reader {
        let mut bytes = Vec::new();
        w.bytes_into(&mut bytes, 0);
        assert_eq!(bytes.len(), w.position().div_ceil(8));
        let mut r = Reader::default();
        r.load(&bytes);
        r
    }

    #[test]
    fn counts_and_fields_read_back_as_written() {
        let mut w = Writer::default();
        let counts = [0u64, 1, 2, 3, 6, 7, 255, 1 << 20, 12_345_678];
        for &n in &counts {
            w.gamma(n);
            w.put(n & 0x1f, 5);
        }
        w.put(u64::MAX, 64);
        let mut r = read_back(&w);
        for &n in &counts {
            assert_eq!(r.gamma(), n);
            assert_eq!(r.get(5), n & 0x1f);
        }
        assert_eq!(r.get(64), u64::MAX);
        assert_eq!(r.position(), w.position());
    }

    #[test]
    fn a_count_takes_the_bits_gamma_bits_says() {
        for n in [0usize, 1, 2, 3, 6, 7, 100, 4095] {
            let mut w = Writer::default();
            w.gamma(n as u64);
            assert_eq!(w.position(), gamma_bits(n), "{n}");
        }
    }

    #[test]
    fn lists_read_back_within_their_bound() {
        // Dense, sparse, a long first gap, the universe's last position.
        let cases: [(&[u32], usize); 6] = [
            (&[], 10),
            (&[0], 1),
            (&[9], 10),
            (&[0, 1, 2, 3, 4, 5, 6, 7], 8),
            (&[3, 700, 701, 2999], 3000),
            (&[5000, 9999], 10_000),
        ];
        for (positions, universe) in cases {
            let mut w = Writer::default();
            w.put(1, 1);
            let code = ListCode::of(positions.len(), universe);
            w.positions(positions.iter().copied(), code);
            let written = w.position() - 1;
            assert!(
                written <= ListCode::most_bits(positions.len(), universe),
                "{positions:?} among {universe}: {written} bits"
            );
            let mut r = read_back(&w);
            r.get(1);
            let mut back = Vec::new();
            r.positions(positions.len(), code, |p| back.push(p));
            assert_eq!(back, positions);
        }
    }

    #[test]
    fn rice_is_chosen_where_it_is_smaller() {
        // 150 crates among 3,000 cells: 4 low bits, about 7 bits a crate.
        assert_eq!(ListCode::of(150, 3000), ListCode::Rice(4));
        assert!(ListCode::most_bits(150, 3000) < 150 * 8);
        // One player among 40 cells: its 6 bits.
        assert_eq!(ListCode::of(1, 40), ListCode::Plain(6));
    }

    #[test]
    fn a_skipped_region_is_filled_in_place_and_truncation_clears() {
        let mut w = Writer::default();
        w.put(0b101, 3);
        let region = w.skip(70);
        w.put(0b11, 2);
        w.put_at(region + 60, 0xff, 8);
        let mut r = read_back(&w);
        assert_eq!(r.get(3), 0b101);
        r.skip(60);
        assert_eq!(r.get(8), 0xff);
        r.skip(2);
        assert_eq!(r.get(2), 0b11);
        w.truncate(3);
        w.put(1, 1);
        let mut bytes = Vec::new();
        w.bytes_into(&mut bytes, 3);
        assert_eq!(bytes, [0b1101, 0, 0]);
    }
}
