//! The official engine's random generator, bit for bit: RC4 keyed by the
//! seed string, read seven bytes at a time into a float. Seeded cases of
//! the conformance tables depend on every step of it.

/// Bytes a generator takes in a state ([`Rng::bytes`]).
pub(crate) const BYTES: usize = 256 + 2;

/// The generator.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rng {
    /// A generator seeded with `seed`, as the official engine seeds one
    /// when a level loads.
    pub fn new(seed: &str) -> Rng {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        // Each UTF-16 unit of the seed gives its bytes, high byte first,
        // without leading zero bytes.
        let mut input = Vec::new();
        for unit in seed.encode_utf16() {
            if unit > 0xff {
                input.push((unit >> 8) as u8);
            }
            input.push((unit & 0xff) as u8);
        }
        if !input.is_empty() {
            let mut j: u8 = 0;
            for i in 0..256 {
                j = j.wrapping_add(s[i]).wrapping_add(input[i % input.len()]);
                s.swap(i, j as usize);
            }
        }
        Rng { s, i: 0, j: 0 }
    }

    /// The generator as bytes ([`BYTES`] of them): its permutation, then
    /// its two indices. A state of a game that uses randomness carries it,
    /// so that each move draws on from where the last one left off, as in
    /// play.
    pub(crate) fn bytes(&self) -> [u8; BYTES] {
        let mut out = [0; BYTES];
        out[..256].copy_from_slice(&self.s);
        (out[256], out[257]) = (self.i, self.j);
        out
    }

    /// Takes the generator from `bytes`, as [`Rng::bytes`] gave them.
    pub(crate) fn read(&mut self, bytes: &[u8]) {
        self.s.copy_from_slice(&bytes[..256]);
        (self.i, self.j) = (bytes[256], bytes[257]);
    }

    /// Whether `bytes` ([`Rng::bytes`]') hold this very generator.
    pub(crate) fn is(&self, bytes: &[u8]) -> bool {
        bytes[..256] == self.s && (bytes[256], bytes[257]) == (self.i, self.j)
    }

    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        let k = self.s[self.i as usize].wrapping_add(self.s[self.j as usize]);
        self.s[k as usize]
    }

    /// A number in `[0, 1]`, computed in floating point exactly as upstream.
    pub fn uniform(&mut self) -> f64 {
        let mut output = 0.0f64;
        for _ in 0..7 {
            output *= 256.0;
            output += f64::from(self.next_byte());
        }
        output / (2f64.powi(56) - 1.0)
    }

    /// `floor(uniform() * n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.uniform() * n as f64).floor() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let mut a = Rng::new("42");
        let mut b = Rng::new("42");
        for _ in 0..100 {
            let x = a.uniform();
            assert_eq!(x, b.uniform());
            assert!((0.0..=1.0).contains(&x));
        }
        assert_ne!(Rng::new("1").uniform(), Rng::new("2").uniform());
    }

    #[test]
    fn a_generator_read_back_from_its_bytes_goes_on_where_it_was() {
        let mut a = Rng::new("bytes");
        a.uniform();
        let bytes = a.bytes();
        let mut b = Rng::new("another seed");
        assert!(!b.is(&bytes));
        b.read(&bytes);
        assert!(b.is(&bytes));
        for _ in 0..50 {
            assert_eq!(a.uniform(), b.uniform());
        }
    }
}
