//! Writes: a matched rule's right-hand side into its cells.

use super::Engine;
use super::matching::Match;
use crate::bits::{self, Scratch};
use crate::compile::{Replacement, Rule, Slot};

/// What a write does to a cell: clears bits, then sets others.
struct CellWrite<'a> {
    clear: &'a [u32],
    set: &'a [u32],
    clear_moves: &'a [u32],
    set_moves: &'a [u32],
    /// The layers whose movement the rule rewrote (rigid bodies track
    /// these).
    layer_moves: &'a [u32],
}

impl Engine<'_> {
    /// Writes a rule's right-hand side where a tuple (a match per row)
    /// says, checking first, with `check`, that it still matches there
    /// (an earlier tuple's writes may have undone it). True if anything
    /// changed; `rigid_index` is the group's, among the rigid groups.
    pub(super) fn apply_at(
        &mut self,
        rule: &Rule,
        tuple: &[Match],
        check: bool,
        rigid_index: u32,
    ) -> bool {
        let d = self.delta(rule.direction);
        if check {
            let holds = match (&rule.rows[..], tuple) {
                // One row without ellipses, the common case.
                ([row], [m]) if rule.ellipses[0] == 0 => self.row_matches(row, m.start, d),
                _ => self.still_matches(rule, tuple),
            };
            if !holds {
                return false;
            }
        }
        // A rigid rule's writes are booked to its group.
        let rigid = rule.rigid.then_some(rigid_index);
        let mut result = false;
        for (row, m) in rule.rows.iter().zip(tuple) {
            let mut index = m.start as isize;
            let mut gap = 0;
            for slot in row {
                match slot {
                    Slot::Ellipsis => {
                        index += d * m.gaps[gap] as isize;
                        gap += 1;
                    }
                    Slot::Cell(p) => {
                        if let Some(rep) = &p.replace {
                            result |= self.replace(rep, index as usize, rigid);
                        }
                        index += d;
                    }
                }
            }
        }
        result
    }

    /// [`Engine::apply_at`] for a tuple of a rule of several rows without
    /// ellipses and without rigid bodies, in a game of one word of objects
    /// and one of movements a cell: every row checked first (where
    /// `check`), then each written as [`Engine::apply_row_single`] writes.
    #[inline]
    pub(super) fn apply_rows_single(
        &mut self,
        rule: &Rule,
        tuple: &[Match],
        d: isize,
        check: bool,
    ) -> bool {
        if check
            && !rule
                .rows
                .iter()
                .zip(tuple)
                .all(|(row, m)| self.run_matches::<1, 1>(row, m.start, d))
        {
            return false;
        }
        let mut result = false;
        for (row, m) in rule.rows.iter().zip(tuple) {
            result |= self.apply_row_single(row, m.start, d, false);
        }
        result
    }

    /// [`Engine::apply_at`] for one row without ellipses of a rule
    /// without rigid bodies, matched from `start`, in a game of one word
    /// of objects and one of movements a cell: no tuple, no gaps, no
    /// bookkeeping, so that a match that changes nothing (a rule that
    /// floods the board finds mostly those) costs little more than
    /// reading its cells.
    #[inline]
    pub(super) fn apply_row_single(
        &mut self,
        row: &[Slot],
        start: usize,
        d: isize,
        check: bool,
    ) -> bool {
        if check && !self.run_matches::<1, 1>(row, start, d) {
            return false;
        }
        let mut i = start;
        let mut result = false;
        for slot in row {
            if let Slot::Cell(p) = slot
                && let Some(rep) = &p.replace
            {
                result |= if rep.random {
                    self.replace(rep, i, None)
                } else {
                    self.write_plain(rep.first, i)
                };
            }
            i = i.wrapping_add_signed(d);
        }
        result
    }

    /// Writes a replacement into cell `i`.
    fn replace(&mut self, rep: &Replacement, i: usize, rigid: Option<u32>) -> bool {
        if rep.random {
            return self.replace_random(rep, i, rigid);
        }
        if self.game.single_word && rigid.is_none() {
            // The common case: a word of each, no rigid bookkeeping.
            return self.write_plain(rep.first, i);
        }
        let write = CellWrite {
            clear: &rep.clear,
            set: &rep.set,
            clear_moves: &rep.clear_moves,
            set_moves: &rep.set_moves,
            layer_moves: &rep.layer_moves,
        };
        self.write_cell(i, &write, rigid)
    }

    /// Writes `[clear, set, clear_moves, set_moves]` into cell `i` of a
    /// game of one word of objects and one of movements a cell, with no
    /// rigid bookkeeping; true if it changed.
    #[inline(always)]
    fn write_plain(&mut self, write: [u32; 4], i: usize) -> bool {
        let Some((old, new)) = self.s.board.write_single(i, write) else {
            return false;
        };
        self.s.sfx_create[0] |= new & !old;
        self.s.sfx_destroy[0] |= old & !new;
        self.s.scratch.changes.record(i);
        true
    }

    /// A replacement that draws from the random generator: an object out
    /// of a property, or a direction.
    fn replace_random(&mut self, rep: &Replacement, i: usize, rigid: Option<u32>) -> bool {
        let game = self.game;
        let mut set = Scratch::from(&rep.set);
        let mut clear = Scratch::from(&rep.clear);
        let mut set_moves = Scratch::from(&rep.set_moves);
        let mut clear_moves = Scratch::from(&rep.clear_moves);
        if !bits::is_zero(&rep.random_object) {
            let count = bits::ones(&rep.random_object).count();
            let k = self.s.rng.below(count).min(count - 1);
            let pick = bits::ones(&rep.random_object).nth(k).expect("k < count");
            let layer = game.layer_of_id[pick];
            bits::set(set.get_mut(), pick);
            bits::or(clear.get_mut(), &game.layer_masks[layer]);
            bits::or_field(clear_moves.get_mut(), bits::FIELD, layer);
        }
        if !bits::is_zero(&rep.random_dir) {
            for layer in 0..game.layer_count {
                if bits::field(&rep.random_dir, layer) != 0 {
                    // One of up, down, left and right, in that order.
                    let dir = self.s.rng.below(4);
                    bits::or_field(set_moves.get_mut(), 1 << dir, layer);
                }
            }
        }
        let write = CellWrite {
            clear: clear.get(),
            set: set.get(),
            clear_moves: clear_moves.get(),
            set_moves: set_moves.get(),
            layer_moves: &rep.layer_moves,
        };
        self.write_cell(i, &write, rigid)
    }

    /// Writes cell `i`'s objects and movements, booking the layers it
    /// moves to rigid group `rigid` (its index), if any; true if anything,
    /// the rigid-body bookkeeping included, changed.
    fn write_cell(&mut self, i: usize, write: &CellWrite, rigid: Option<u32>) -> bool {
        by_strides!(self.write_cell_of(i, write, rigid))
    }

    /// [`Engine::write_cell`] for `SO` words of objects and `SM` of
    /// movements a cell (0: as the game has).
    fn write_cell_of<const SO: usize, const SM: usize>(
        &mut self,
        i: usize,
        write: &CellWrite,
        rigid: Option<u32>,
    ) -> bool {
        let game = self.game;
        let b = &mut self.s.board;
        let mut changed = false;
        let layer_moves = write.layer_moves;
        if let Some(rigid_index) = rigid {
            let fill = &game.rigid_fill[rigid_index as usize];
            let (group, applied) = b.rigid_mut(i);
            let mask_within = group
                .iter()
                .zip(fill.iter())
                .zip(layer_moves)
                .all(|((g, f), l)| f & l & !g == 0);
            if !mask_within && !bits::within(layer_moves, applied) {
                for ((g, f), l) in group.iter_mut().zip(fill.iter()).zip(layer_moves) {
                    *g |= f & l;
                }
                bits::or(applied, layer_moves);
                changed = true;
            }
        }
        let (objects, moves) = b.write_masks_mut::<SO, SM>(i);
        let so = objects[0].len();
        let (create, destroy) = (&mut self.s.sfx_create[..so], &mut self.s.sfx_destroy[..so]);
        let mut first = None;
        changed |= write_words(objects, write.clear, write.set, |w, old, new| {
            create[w] |= new & !old;
            destroy[w] |= old & !new;
            if w == 0 {
                first = Some((old, new));
            }
        });
        changed |= write_words(moves, write.clear_moves, write.set_moves, |_, _, _| {});
        if let Some((old, new)) = first
            && so == 1
        {
            b.changed_single(i, old, new);
        }
        if changed {
            // Rigid bookkeeping aside, rules read nothing else of a cell.
            self.s.scratch.changes.record(i);
        }
        changed
    }
}

/// Clears then sets a cell's words, widening their masks by the result,
/// and tells `changed` of each word that changes (its index, old and new
/// value); true if one did.
#[inline(always)]
fn write_words(
    [cell, col, row, map]: [&mut [u32]; 4],
    clear: &[u32],
    set: &[u32],
    mut changed: impl FnMut(usize, u32, u32),
) -> bool {
    // One length for all, so that no word is checked against its own.
    let n = cell.len();
    let (col, row, map) = (&mut col[..n], &mut row[..n], &mut map[..n]);
    let (clear, set) = (&clear[..n], &set[..n]);
    let mut any = false;
    for w in 0..n {
        let old = cell[w];
        let new = (old & !clear[w]) | set[w];
        if new != old {
            any = true;
            cell[w] = new;
            changed(w, old, new);
        }
        col[w] |= new;
        row[w] |= new;
        map[w] |= new;
    }
    any
}
