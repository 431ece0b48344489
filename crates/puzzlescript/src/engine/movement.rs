//! Movements: the players' from the input, then resolved after the rules.

use super::Engine;
use crate::bits::{self, Scratch};

impl Engine<'_> {
    /// The cells holding a player, in cell order. The masks must be up to
    /// date: columns without a player are skipped, and objects the board
    /// lacks are not looked up.
    pub(super) fn player_positions(&self, into: &mut Vec<usize>) {
        let b = &self.s.board;
        into.clear();
        let player = &self.game.player;
        if b.holders.valid() && player[0] != 0 {
            // Read from the cells that hold a player's objects, in order.
            let there = b.objects_there();
            for k in 0..b.holders.words() {
                let mut cells = b
                    .holders
                    .cells_with(player[0], self.game.player_all, k, there);
                while cells != 0 {
                    into.push(64 * k + cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
            return;
        }
        for x in 0..b.width {
            if !bits::any(player, b.col_objects(x)) {
                continue;
            }
            for i in b.index(x, 0)..b.index(x + 1, 0) {
                let cell = b.cell(i);
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

    /// Gives the players' objects in cell `i` the input's movement `dir`.
    pub(super) fn move_entities(&mut self, i: usize, dir: u32) {
        let game = self.game;
        let b = &mut self.s.board;
        if game.single_word {
            // Only the player's objects there, a word of each a cell.
            let mut ids = b.objects[i] & game.player[0];
            while ids != 0 {
                let id = ids.trailing_zeros() as usize;
                ids &= ids - 1;
                b.movements[i] |= dir << (bits::FIELD_BITS * game.layer_of_id[id]);
            }
        } else {
            let (cell, mv) = b.cell_and_moves_mut(i);
            for id in bits::ones(cell).filter(|&id| bits::has(&game.player, id)) {
                bits::or_field(mv, dir, game.layer_of_id[id]);
            }
        }
        b.widen_moves(i);
    }

    /// Moves cell `i`'s object on `layer` a step in `dir` if the cell
    /// there has room on that layer (an action takes no step, and always
    /// goes); true if it went.
    fn reposition_on_layer(&mut self, i: usize, layer: usize, dir: u32) -> bool {
        let game = self.game;
        let (dx, dy): (isize, isize) = match dir {
            bits::UP => (0, -1),
            bits::DOWN => (0, 1),
            bits::LEFT => (-1, 0),
            bits::RIGHT => (1, 0),
            // Upstream's table of steps has these too, as no step.
            bits::NO | bits::MOVING | bits::ACTION => (0, 0),
            _ => return false,
        };
        let b = &self.s.board;
        let (x, y) = b.xy(i);
        let (tx, ty) = (x as isize + dx, y as isize + dy);
        if tx < 0 || ty < 0 || tx >= b.width as isize || ty >= b.height as isize {
            return false;
        }
        let target = b.index(tx as usize, ty as usize);
        let mask = &game.layer_masks[layer];
        if dir != bits::ACTION && bits::any(mask, b.cell(target)) {
            return false;
        }
        // A solver collects no sound seeds: they would be cloned every turn.
        let sounds = if self.s.mode.records() {
            &game.sounds.movement[layer][..]
        } else {
            &[]
        };
        let b = &mut self.s.board;
        for s in sounds {
            if bits::any(&s.objects, b.cell(i))
                && bits::any(b.moves(i), &s.directions)
                && !self.s.can_move.contains(&s.seed)
            {
                self.s.can_move.push(s.seed.clone());
            }
        }
        if target == i {
            return true;
        }
        b.move_layer(i, target, mask);
        true
    }

    /// Moves what can move in cell `i`, layer by layer, and clears the
    /// movements that went; true if one did.
    fn reposition_cell(&mut self, i: usize) -> bool {
        if self.game.stride_mov == 1 {
            return self.reposition_cell_single(i);
        }
        if bits::is_zero(self.s.board.moves(i)) {
            return false;
        }
        let mut moved = false;
        for layer in 0..self.game.layer_count {
            let field = bits::field(self.s.board.moves(i), layer);
            if field != 0 && self.reposition_on_layer(i, layer, field) {
                bits::clear_field(self.s.board.moves_mut(i), field, layer);
                moved = true;
            }
        }
        self.s.board.widen_moves(i);
        moved
    }

    /// [`Engine::reposition_cell`] in a game of one word of movements a
    /// cell: only the layers whose field is set are visited, in order.
    #[inline]
    fn reposition_cell_single(&mut self, i: usize) -> bool {
        let mut left = self.s.board.movements[i];
        if left == 0 {
            return false;
        }
        let mut moved = false;
        while left != 0 {
            let layer = left.trailing_zeros() as usize / bits::FIELD_BITS;
            let shift = layer * bits::FIELD_BITS;
            left &= !(bits::FIELD << shift);
            // Read again: an earlier layer's move clears only its own field.
            let field = self.s.board.movements[i] >> shift & bits::FIELD;
            if field != 0 && self.reposition_on_layer(i, layer, field) {
                self.s.board.movements[i] &= !(field << shift);
                moved = true;
            }
        }
        self.s.board.widen_moves(i);
        moved
    }

    /// Moves everything that can move, over and over until nothing does;
    /// what is left cannot move (its sounds are played) and its movement
    /// is cleared. A rigid body left so bans its group: true when the turn
    /// must then run again without it.
    pub(super) fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        let game = self.game;
        // Repositioning moves objects, never movements, so only the cells
        // that hold a movement now can move at all: passes over them, in
        // cell order, are the official passes over every cell.
        let mut moving = std::mem::take(&mut self.s.scratch.moving);
        moving.clear();
        let b = &self.s.board;
        if !bits::is_zero(b.map_moves()) {
            match game.stride_mov {
                1 => b.moving_cells::<1>(&mut moving),
                2 => b.moving_cells::<2>(&mut moving),
                _ => b.moving_cells::<0>(&mut moving),
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
        if !game.rigid && !self.s.mode.records() {
            // Nothing to book and no sound to play: the movements left
            // are only cleared.
            let b = &mut self.s.board;
            if game.stride_mov == 1 {
                for &i in &moving {
                    b.movements[i] = 0;
                }
            } else {
                for &i in &moving {
                    b.moves_mut(i).fill(0);
                }
            }
            self.s.scratch.moving = moving;
            return false;
        }
        for i in (0..count).map(|k| if game.rigid { k } else { moving[k] }) {
            if !bits::is_zero(self.s.board.moves(i)) {
                let mut mv = Scratch::from(self.s.board.moves(i));
                if game.rigid {
                    let (group, applied) = self.s.board.rigid(i);
                    if !bits::is_zero(applied) {
                        for (m, a) in mv.get_mut().iter_mut().zip(applied) {
                            *m &= a;
                        }
                        if !bits::is_zero(mv.get())
                            && let Some(layer) =
                                (0..game.layer_count).find(|&l| bits::field(mv.get(), l) != 0)
                        {
                            let index = bits::field(group, layer) as usize;
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
                let cell = self.s.board.cell(i);
                let sounds = if self.s.mode.records() {
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
                self.s.board.moves_mut(i).fill(0);
            }
            if game.rigid {
                let (group, applied) = self.s.board.rigid_mut(i);
                group.fill(0);
                applied.fill(0);
            }
        }
        self.s.scratch.moving = moving;
        undo
    }
}
