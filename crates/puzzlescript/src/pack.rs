//! A level's cells packed for a solver's arena: only the object bits that
//! play can change, a few per cell, back to back in 32-bit words.
//!
//! A game of at most 32 objects has one word per cell, but most of its bits
//! never change in play (walls, floors, targets). [`Packing`] keeps the
//! changing ones (`k` of them) and packs each cell's `k` bits one cell after
//! another; the rest of every cell is the level's start, kept once. Byte
//! tables gather and scatter the bits, four look-ups a cell each way.

/// How a level's cells pack.
#[derive(Clone, Debug)]
pub(crate) struct Packing {
    /// The bits that change, and what every cell holds outside them.
    changing: u32,
    fixed: Vec<u32>,
    /// Bits kept per cell.
    k: u32,
    /// Per byte of a cell: its changing bits gathered (`gather[b][byte]`),
    /// and those gathered bits put back (`scatter[b][bits]`).
    gather: [[u8; 256]; 4],
    scatter: [[u8; 256]; 4],
    /// Per byte: where its gathered bits start, and how many there are.
    shift: [u32; 4],
    width: [u32; 4],
}

impl Packing {
    /// The packing of a level whose start is `start` (one word per cell),
    /// where only the bits of `changing` can change.
    pub(crate) fn new(start: &[u32], changing: u32) -> Packing {
        let mut p = Packing {
            changing,
            fixed: start.iter().map(|c| c & !changing).collect(),
            k: changing.count_ones(),
            gather: [[0; 256]; 4],
            scatter: [[0; 256]; 4],
            shift: [0; 4],
            width: [0; 4],
        };
        let mut at = 0;
        for b in 0..4 {
            let mask = ((changing >> (8 * b)) & 0xff) as u8;
            p.shift[b] = at;
            p.width[b] = mask.count_ones();
            at += p.width[b];
            for value in 0..256u32 {
                let (mut out, mut k) = (0u8, 0);
                for bit in 0..8 {
                    if mask & (1 << bit) != 0 {
                        if value & (1 << bit) != 0 {
                            out |= 1 << k;
                        }
                        k += 1;
                    }
                }
                p.gather[b][value as usize] = out;
            }
            for bits in 0..(1u32 << p.width[b]) {
                let (mut out, mut k) = (0u8, 0);
                for bit in 0..8 {
                    if mask & (1 << bit) != 0 {
                        if bits & (1 << k) != 0 {
                            out |= 1 << bit;
                        }
                        k += 1;
                    }
                }
                p.scatter[b][bits as usize] = out;
            }
        }
        p
    }

    /// Words a packed board takes.
    pub(crate) fn words(&self) -> usize {
        (self.fixed.len() * self.k as usize).div_ceil(32)
    }

    /// Appends `cells` packed to `out`.
    pub(crate) fn pack(&self, cells: &[u32], out: &mut Vec<u32>) {
        let (mut acc, mut filled) = (0u64, 0u32);
        for (&cell, &fixed) in cells.iter().zip(&self.fixed) {
            // What packing drops must be what unpacking puts back.
            debug_assert_eq!(
                cell & !self.changing,
                fixed,
                "a bit outside the changing objects changed"
            );
            let mut bits = 0u32;
            for b in 0..4 {
                bits |=
                    u32::from(self.gather[b][((cell >> (8 * b)) & 0xff) as usize]) << self.shift[b];
            }
            acc |= u64::from(bits) << filled;
            filled += self.k;
            if filled >= 32 {
                out.push(acc as u32);
                acc >>= 32;
                filled -= 32;
            }
        }
        if filled > 0 {
            out.push(acc as u32);
        }
    }

    /// Writes the cells `packed` holds into `cells`.
    pub(crate) fn unpack(&self, packed: &[u32], cells: &mut [u32]) {
        let mask = if self.k == 32 {
            u64::from(u32::MAX)
        } else {
            (1u64 << self.k) - 1
        };
        let mut words = packed.iter();
        let (mut acc, mut filled) = (0u64, 0u32);
        for (cell, &fixed) in cells.iter_mut().zip(&self.fixed) {
            if filled < self.k {
                acc |= u64::from(*words.next().unwrap_or(&0)) << filled;
                filled += 32;
            }
            let bits = (acc & mask) as u32;
            acc >>= self.k;
            filled -= self.k;
            // All four bytes, a constant loop the compiler unrolls: a byte
            // with no changing bit has width 0 and scatters nothing.
            let mut value = fixed;
            for b in 0..4 {
                let part = (bits >> self.shift[b]) & ((1 << self.width[b]) - 1);
                value |= u32::from(self.scatter[b][part as usize]) << (8 * b);
            }
            *cell = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Packing;

    #[test]
    fn cells_come_back_as_they_went_in() {
        let start = vec![
            0x0000_0101,
            0x8000_0001,
            0x0001_0001,
            0x0000_0001,
            0xffff_ffff,
        ];
        for changing in [0u32, 0x0000_0006, 0x8001_0106, 0xffff_ffff, 0x00ff_00f0] {
            let p = Packing::new(&start, changing);
            let mut cells = start.clone();
            // Any values in the changing bits, the rest as at the start.
            for (i, c) in cells.iter_mut().enumerate() {
                *c = (*c & !changing) | ((0x9e37_79b9u32.wrapping_mul(i as u32 + 1)) & changing);
            }
            let mut packed = Vec::new();
            p.pack(&cells, &mut packed);
            assert_eq!(packed.len(), p.words());
            let mut back = vec![0; cells.len()];
            p.unpack(&packed, &mut back);
            assert_eq!(back, cells, "changing {changing:#x}");
        }
    }
}
