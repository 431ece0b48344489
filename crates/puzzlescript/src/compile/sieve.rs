//! A rule's rows as the engine's bitmaps of each object's cells test them,
//! flattened once when the game compiles: what lets the engine tell, for
//! a few instructions a cell, that a rule matches nowhere.
//!
//! Why: most rules a turn asks match nowhere (on `heroes_of_sokoban`
//! level 4, the sieves turn away three in four of those the board's masks
//! let through). The matcher finds that out too, but only
//! after the machinery that applying a group and collecting matches sets
//! up; a sieve says it first, from plain words held in the rule.

use super::patterns::Slot;
use crate::bits;

/// A rule's cells, row after row, each told by one word of objects a cell:
/// `None` for a rule with an ellipsis, with more than one word of objects
/// a cell, or with a cell of more than two properties (the matcher alone
/// tells those).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sieve {
    /// Every row's cells, back to back; a cell whose `place` is 0 starts
    /// a row.
    pub(crate) cells: Box<[SieveCell]>,
    /// The step from a cell to the next in a row, on a board of `height`
    /// rows: `step[0] * height + step[1]` (the rule's direction, told
    /// once rather than matched on every sift).
    pub(crate) step: [isize; 2],
}

/// A cell of a [`Sieve`]: which objects its cell must hold, must not, and
/// of which it must hold one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SieveCell {
    /// Its place in its row, from 0.
    pub(crate) place: u32,
    /// Every object it requires.
    pub(crate) present: u32,
    /// Every object it forbids.
    pub(crate) absent: u32,
    /// Up to two properties: an object of each (the first `properties`).
    pub(crate) any_of: [u32; 2],
    pub(crate) properties: u8,
}

impl SieveCell {
    /// Its properties' masks.
    #[inline(always)]
    pub(crate) fn properties(&self) -> &[u32] {
        &self.any_of[..usize::from(self.properties)]
    }
}

impl Sieve {
    /// The sieve of a rule of these rows, scanning in `direction`, if they
    /// can be told by one.
    pub(crate) fn of(rows: &[Vec<Slot>], direction: u32) -> Option<Sieve> {
        let mut cells = Vec::new();
        for row in rows {
            for (place, slot) in row.iter().enumerate() {
                let Slot::Cell(p) = slot else {
                    return None;
                };
                let ([present], [seen]) = (&p.present[..], &p.objects_seen[..]) else {
                    return None;
                };
                let properties = p.any_of.len();
                if properties > 2 {
                    return None;
                }
                let mut any_of = [0; 2];
                any_of[..properties].copy_from_slice(&p.any_of);
                cells.push(SieveCell {
                    place: place as u32,
                    present: *present,
                    absent: seen & !present,
                    any_of,
                    properties: properties as u8,
                });
            }
        }
        // Cells are stored column by column: a column's cells are
        // adjacent, a row's `height` apart.
        let step = match direction {
            bits::UP => [0, -1],
            bits::DOWN => [0, 1],
            bits::LEFT => [-1, 0],
            bits::RIGHT => [1, 0],
            _ => [0, 0],
        };
        Some(Sieve {
            cells: cells.into_boxed_slice(),
            step,
        })
    }
}
