//! Writes: a matched rule's right-hand side into its cells.

use super::Engine;
use super::matching::Match;
use crate::bits::{self, Scratch};
use crate::compile::{Replacement, Rule, Slot};

impl Engine<'_> {
    pub(super) fn apply_at(
        &mut self,
        rule: &Rule,
        tuple: &[Match],
        check: bool,
        rigid_index: u32,
    ) -> bool {
        if check && !self.still_matches(rule, tuple) {
            return false;
        }
        let d = self.delta(rule.direction);
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
                            result |= self.replace(rep, index as usize, rule.rigid, rigid_index);
                        }
                        index += d;
                    }
                }
            }
        }
        result
    }

    fn replace(&mut self, rep: &Replacement, i: usize, rigid: bool, rigid_index: u32) -> bool {
        if rep.random {
            return self.replace_random(rep, i, rigid, rigid_index);
        }
        self.write_cell(
            i,
            &rep.set,
            &rep.clear,
            &rep.set_moves,
            &rep.clear_moves_all,
            &rep.layer_moves,
            rigid,
            rigid_index,
        )
    }

    /// A replacement that draws from the random generator: an object out
    /// of a property, or a direction.
    fn replace_random(
        &mut self,
        rep: &Replacement,
        i: usize,
        rigid: bool,
        rigid_index: u32,
    ) -> bool {
        let game = self.game;
        let mut set = Scratch::from(&rep.set);
        let mut clear = Scratch::from(&rep.clear);
        let mut set_moves = Scratch::from(&rep.set_moves);
        let mut clear_moves = Scratch::from(&rep.clear_moves_all);
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
        self.write_cell(
            i,
            set.get(),
            clear.get(),
            set_moves.get(),
            clear_moves.get(),
            &rep.layer_moves,
            rigid,
            rigid_index,
        )
    }

    /// Clears then sets a cell's objects and movements; true if anything,
    /// the rigid-body bookkeeping included, changed.
    #[allow(clippy::too_many_arguments)]
    fn write_cell(
        &mut self,
        i: usize,
        set: &[u32],
        clear: &[u32],
        set_moves: &[u32],
        clear_moves: &[u32],
        layer_moves: &[u32],
        rigid: bool,
        rigid_index: u32,
    ) -> bool {
        let game = self.game;
        let b = &mut self.s.board;
        let mut changed = false;
        if rigid {
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
        let [cell, col, row, map] = b.cell_masks_mut(i);
        for w in 0..cell.len() {
            let old = cell[w];
            let new = (old & !clear[w]) | set[w];
            if new != old {
                changed = true;
                cell[w] = new;
                self.s.sfx_create[w] |= new & !old;
                self.s.sfx_destroy[w] |= old & !new;
            }
            col[w] |= new;
            row[w] |= new;
            map[w] |= new;
        }
        let [mv, col, row, map] = b.moves_masks_mut(i);
        for w in 0..mv.len() {
            let old = mv[w];
            let new = (old & !clear_moves[w]) | set_moves[w];
            if new != old {
                changed = true;
                mv[w] = new;
            }
            col[w] |= new;
            row[w] |= new;
            map[w] |= new;
        }
        if changed {
            // Rigid bookkeeping aside, rules read nothing else of a cell.
            self.s.scratch.changes.record(i);
        }
        changed
    }
}
