//! Movements: the players' from the input, then resolved after the rules.

use super::Engine;
use crate::bits::{self, Scratch};

impl Engine<'_> {
    /// The cells holding a player, in cell order. The column masks must be
    /// up to date: columns without a player are skipped.
    pub(super) fn player_positions(&self, into: &mut Vec<usize>) {
        let so = self.game.stride_obj;
        let b = &self.s.board;
        into.clear();
        let player = &self.game.player;
        for x in 0..b.width {
            if !bits::any(player, &b.col_objects[x * so..][..so]) {
                continue;
            }
            for i in x * b.height..(x + 1) * b.height {
                let cell = &b.objects[i * so..][..so];
                let here = if self.game.player_all {
                    bits::within(player, cell)
                } else {
                    bits::any(player, cell)
                };
                if here {
                    into.push(i);
                }
            }
        }
    }

    pub(super) fn move_entities(&mut self, i: usize, dir: u32) {
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        let b = &mut self.s.board;
        let cell = &b.objects[i * so..][..so];
        let mv = &mut b.movements[i * sm..][..sm];
        for id in bits::ones(cell).filter(|&id| bits::has(&self.game.player, id)) {
            bits::or_field(mv, dir, 5 * self.game.layer_of_id[id]);
        }
        let (x, y) = (i / b.height, i % b.height);
        let mv = &b.movements[i * sm..][..sm];
        bits::or(&mut b.col_moves[x * sm..][..sm], mv);
        bits::or(&mut b.row_moves[y * sm..][..sm], mv);
        bits::or(&mut b.map_moves, mv);
    }

    fn reposition_on_layer(&mut self, i: usize, layer: usize, dir: u32) -> bool {
        let game = self.game;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        let (dx, dy): (isize, isize) = match dir {
            1 => (0, -1),
            2 => (0, 1),
            4 => (-1, 0),
            8 => (1, 0),
            3 | 15 | 16 => (0, 0),
            _ => return false,
        };
        let b = &mut self.s.board;
        let (x, y) = ((i / b.height) as isize, (i % b.height) as isize);
        let (tx, ty) = (x + dx, y + dy);
        if tx < 0 || ty < 0 || tx >= b.width as isize || ty >= b.height as isize {
            return false;
        }
        let target = (tx as usize) * b.height + ty as usize;
        let mask = &game.layer_masks[layer];
        if dir != 16 && bits::any(mask, &b.objects[target * so..][..so]) {
            return false;
        }
        // A solver collects no sound seeds: they would be cloned every turn.
        let sounds = if self.as_runner() {
            &game.sounds.movement[layer][..]
        } else {
            &[]
        };
        let b = &mut self.s.board;
        for s in sounds {
            if bits::any(&s.objects, &b.objects[i * so..][..so])
                && bits::any(&b.movements[i * sm..][..sm], &s.directions)
                && !self.s.can_move.contains(&s.seed)
            {
                self.s.can_move.push(s.seed.clone());
            }
        }
        if target == i {
            return true;
        }
        let mut moving = Scratch::from(&b.objects[i * so..][..so]);
        for (m, l) in moving.get_mut().iter_mut().zip(mask.iter()) {
            *m &= l;
        }
        bits::clear(&mut b.objects[i * so..][..so], mask);
        bits::or(&mut b.objects[target * so..][..so], moving.get());
        let (cx, cy) = (target / b.height, target % b.height);
        bits::or(&mut b.col_objects[cx * so..][..so], moving.get());
        bits::or(&mut b.row_objects[cy * so..][..so], moving.get());
        true
    }

    fn reposition_cell(&mut self, i: usize) -> bool {
        let sm = self.game.stride_mov;
        if bits::is_zero(&self.s.board.movements[i * sm..][..sm]) {
            return false;
        }
        let mut moved = false;
        for layer in 0..self.game.layer_count {
            let field = bits::field(&self.s.board.movements[i * sm..][..sm], 5 * layer);
            if field != 0 && self.reposition_on_layer(i, layer, field) {
                bits::clear_field(
                    &mut self.s.board.movements[i * sm..][..sm],
                    field,
                    5 * layer,
                );
                moved = true;
            }
        }
        let b = &mut self.s.board;
        let (x, y) = (i / b.height, i % b.height);
        for w in 0..sm {
            let m = b.movements[i * sm + w];
            b.col_moves[x * sm + w] |= m;
            b.row_moves[y * sm + w] |= m;
            b.map_moves[w] |= m;
        }
        moved
    }

    pub(super) fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        let game = self.game;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        // Repositioning moves objects, never movements, so only the cells
        // that hold a movement now can move at all: passes over them, in
        // cell order, are the official passes over every cell.
        let mut moving = std::mem::take(&mut self.s.scratch.moving);
        moving.clear();
        let b = &self.s.board;
        if !bits::is_zero(&b.map_moves) {
            for x in 0..b.width {
                if bits::is_zero(&b.col_moves[x * sm..][..sm]) {
                    continue;
                }
                for i in x * b.height..(x + 1) * b.height {
                    if !bits::is_zero(&b.movements[i * sm..][..sm]) {
                        moving.push(i);
                    }
                }
            }
        }
        let mut moved = !moving.is_empty();
        while moved {
            moved = false;
            for &i in &moving {
                moved |= self.reposition_cell(i);
            }
        }
        let mut undo = false;
        // A rigid game's bookkeeping is cleared in every cell.
        let count = if game.rigid {
            self.s.board.len()
        } else {
            moving.len()
        };
        for i in (0..count).map(|k| if game.rigid { k } else { moving[k] }) {
            if !bits::is_zero(&self.s.board.movements[i * sm..][..sm]) {
                let mut mv = Scratch::from(&self.s.board.movements[i * sm..][..sm]);
                if game.rigid {
                    let applied = &self.s.board.rigid_applied[i * sm..][..sm];
                    if !bits::is_zero(applied) {
                        for (m, a) in mv.get_mut().iter_mut().zip(applied) {
                            *m &= a;
                        }
                        if !bits::is_zero(mv.get())
                            && let Some(layer) =
                                (0..game.layer_count).find(|&l| bits::field(mv.get(), 5 * l) != 0)
                        {
                            let index =
                                bits::field(&self.s.board.rigid_group[i * sm..][..sm], 5 * layer)
                                    as usize;
                            if let Some(&g) =
                                index.checked_sub(1).and_then(|k| game.rigid_groups.get(k))
                                && !banned[g]
                            {
                                banned[g] = true;
                                undo = true;
                            }
                        }
                    }
                }
                let cell = &self.s.board.objects[i * so..][..so];
                let sounds = if self.as_runner() {
                    &game.sounds.cant_move[..]
                } else {
                    &[]
                };
                for s in sounds {
                    if bits::any(cell, &s.objects)
                        && bits::any(&s.directions, mv.get())
                        && !self.s.cant_move.contains(&s.seed)
                    {
                        self.s.cant_move.push(s.seed.clone());
                    }
                }
                self.s.board.movements[i * sm..][..sm].fill(0);
            }
            if game.rigid {
                self.s.board.rigid_group[i * sm..][..sm].fill(0);
                self.s.board.rigid_applied[i * sm..][..sm].fill(0);
            }
        }
        self.s.scratch.moving = moving;
        undo
    }
}
