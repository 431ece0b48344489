//! The level in play: its cells' objects and movements, the rigid bodies'
//! bookkeeping, and the masks of its rows, columns and the whole board;
//! and the level as the conformance tables print it.

use super::Engine;
use super::holders::Holders;
use crate::bits::{self, span, span_mut};
use crate::compile::{Game, Grid};

/// A level in play.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Object bits, `stride_obj` words per cell.
    pub objects: Vec<u32>,
    stride_obj: usize,
    stride_mov: usize,
    /// Movement fields, `stride_mov` words per cell.
    pub(super) movements: Vec<u32>,
    /// Per cell, in each layer's field: the rigid group (its index plus
    /// one) of the rule that last wrote the layer's movement.
    rigid_group: Vec<u32>,
    /// Per cell: the layers whose movement a rigid rule wrote.
    rigid_applied: Vec<u32>,
    // The masks: per row, per column and for the whole board, the OR of
    // its cells' objects, and of their movements (or more).
    row_objects: Vec<u32>,
    col_objects: Vec<u32>,
    pub(super) map_objects: Vec<u32>,
    row_moves: Vec<u32>,
    col_moves: Vec<u32>,
    pub(super) map_moves: Vec<u32>,
    /// The objects the masks of objects were last computed from, and
    /// those masks (rows, columns, board, back to back): a solver plays
    /// every move from one board in turn, and its masks are computed once.
    masked: Vec<u32>,
    masks: Vec<u32>,
    /// Whether every movement is known to be zero (the board was just put
    /// in place): the masks of movements are then a plain clear.
    pub(super) still: bool,
    /// The cells that hold each object (games of one word of objects a
    /// cell), and a copy of them as they were for `masked`.
    pub(super) holders: Holders,
    saved_holders: Vec<u64>,
}

/// `N` words, or `stride` where `N` is 0: the words a cell takes, as a
/// constant where the caller knows it (code specialised for a game's
/// strides is generic over them, 0 standing for any).
#[inline(always)]
pub(super) fn words<const N: usize>(stride: usize) -> usize {
    if N > 0 { N } else { stride }
}

impl Board {
    pub(super) fn new(game: &Game, grid: &Grid) -> Board {
        let n = grid.width * grid.height;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        Board {
            width: grid.width,
            height: grid.height,
            objects: grid.cells.clone(),
            stride_obj: so,
            stride_mov: sm,
            movements: vec![0; n * sm],
            rigid_group: vec![0; n * sm],
            rigid_applied: vec![0; n * sm],
            row_objects: vec![0; grid.height * so],
            col_objects: vec![0; grid.width * so],
            map_objects: vec![0; so],
            row_moves: vec![0; grid.height * sm],
            col_moves: vec![0; grid.width * sm],
            map_moves: vec![0; sm],
            masked: Vec::new(),
            masks: Vec::new(),
            still: true,
            holders: Holders::new(so == 1, game.id_names.len(), n),
            saved_holders: Vec::new(),
        }
    }

    /// Cells.
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// True for a level without cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the cell at column `x`, row `y`.
    #[inline(always)]
    pub fn index(&self, x: usize, y: usize) -> usize {
        x * self.height + y
    }

    /// The column and row of cell `i`.
    #[inline(always)]
    pub(super) fn xy(&self, i: usize) -> (usize, usize) {
        (i / self.height, i % self.height)
    }

    /// The cells that hold each object, where the engine keeps them up to
    /// date (a game of one word of objects a cell) and they tell the board
    /// as it is: `words` words an object (bit `i % 64` of word `i / 64`:
    /// cell `i`), object `id` from word `id * words`; and `words`.
    #[inline]
    pub(crate) fn holding(&self) -> Option<(&[u64], usize)> {
        self.holders.all().map(|bits| (bits, self.holders.words()))
    }

    /// The objects the board may hold, among those the holders know (a
    /// game of one word of objects a cell): the board's mask of objects,
    /// exact as a turn starts and only widened within it, names every one
    /// it does hold, so the others' holders are empty and need no lookup.
    #[inline(always)]
    pub(super) fn objects_there(&self) -> u32 {
        self.holders.known() & self.map_objects.first().copied().unwrap_or(0)
    }

    /// Cell `i`'s objects.
    #[inline(always)]
    pub fn cell(&self, i: usize) -> &[u32] {
        self.cell_of::<0>(i)
    }

    /// Cell `i`'s movements.
    #[inline(always)]
    pub(super) fn moves(&self, i: usize) -> &[u32] {
        self.moves_of::<0>(i)
    }

    #[inline(always)]
    pub(super) fn cell_mut(&mut self, i: usize) -> &mut [u32] {
        let so = self.stride_obj;
        span_mut(&mut self.objects, i, so)
    }

    #[inline(always)]
    pub(super) fn moves_mut(&mut self, i: usize) -> &mut [u32] {
        let sm = self.stride_mov;
        span_mut(&mut self.movements, i, sm)
    }

    /// Cell `i`'s objects to read and its movements to write, at once.
    #[inline(always)]
    pub(super) fn cell_and_moves_mut(&mut self, i: usize) -> (&[u32], &mut [u32]) {
        let (so, sm) = (self.stride_obj, self.stride_mov);
        (
            span(&self.objects, i, so),
            span_mut(&mut self.movements, i, sm),
        )
    }

    /// [`Board::cell`], `SO` words long (0: as the game has): a matcher
    /// specialised for a game's strides reads cells through this.
    #[inline(always)]
    pub(super) fn cell_of<const SO: usize>(&self, i: usize) -> &[u32] {
        let so = words::<SO>(self.stride_obj);
        span(&self.objects, i, so)
    }

    /// [`Board::moves`], `SM` words long (0: as the game has).
    #[inline(always)]
    pub(super) fn moves_of<const SM: usize>(&self, i: usize) -> &[u32] {
        let sm = words::<SM>(self.stride_mov);
        span(&self.movements, i, sm)
    }

    /// The cells that hold a movement, in cell order, into `into`; the
    /// columns whose masks hold none are passed over. `SM` words of
    /// movements a cell (0: as the game has), so that the common games'
    /// test of a cell is one word's.
    #[inline]
    pub(super) fn moving_cells<const SM: usize>(&self, into: &mut Vec<usize>) {
        let sm = words::<SM>(self.stride_mov);
        for x in 0..self.width {
            if bits::is_zero(span(&self.col_moves, x, sm)) {
                continue;
            }
            for i in self.index(x, 0)..self.index(x + 1, 0) {
                if !bits::is_zero(self.moves_of::<SM>(i)) {
                    into.push(i);
                }
            }
        }
    }

    /// The masks of the board's rows (`horizontal`) or of its columns.
    #[inline(always)]
    pub(super) fn lines(&self, horizontal: bool) -> Lines<'_> {
        let (objects, moves) = if horizontal {
            (&self.row_objects, &self.row_moves)
        } else {
            (&self.col_objects, &self.col_moves)
        };
        Lines {
            objects,
            moves,
            stride_obj: self.stride_obj,
            stride_mov: self.stride_mov,
        }
    }

    /// Column `x`'s mask of objects.
    #[inline(always)]
    pub(super) fn col_objects(&self, x: usize) -> &[u32] {
        span(&self.col_objects, x, self.stride_obj)
    }

    /// Cell `i`'s rigid bookkeeping: its groups and its applied layers.
    #[inline(always)]
    pub(super) fn rigid(&self, i: usize) -> (&[u32], &[u32]) {
        let sm = self.stride_mov;
        (
            span(&self.rigid_group, i, sm),
            span(&self.rigid_applied, i, sm),
        )
    }

    /// [`Board::rigid`], to write.
    #[inline(always)]
    pub(super) fn rigid_mut(&mut self, i: usize) -> (&mut [u32], &mut [u32]) {
        let sm = self.stride_mov;
        (
            span_mut(&mut self.rigid_group, i, sm),
            span_mut(&mut self.rigid_applied, i, sm),
        )
    }

    /// Cell `i`'s objects and its movements, each with the masks that
    /// hold them (its column's, its row's and the board's), to write
    /// together: `SO` and `SM` words (0: as the game has).
    #[inline(always)]
    pub(super) fn write_masks_mut<const SO: usize, const SM: usize>(
        &mut self,
        i: usize,
    ) -> ([&mut [u32]; 4], [&mut [u32]; 4]) {
        let (x, y) = self.xy(i);
        let (so, sm) = (words::<SO>(self.stride_obj), words::<SM>(self.stride_mov));
        (
            [
                span_mut(&mut self.objects, i, so),
                span_mut(&mut self.col_objects, x, so),
                span_mut(&mut self.row_objects, y, so),
                &mut self.map_objects[..so],
            ],
            [
                span_mut(&mut self.movements, i, sm),
                span_mut(&mut self.col_moves, x, sm),
                span_mut(&mut self.row_moves, y, sm),
                &mut self.map_moves[..sm],
            ],
        )
    }

    /// Writes cell `i` of a board of one word of objects and one of
    /// movements a cell: `[clear, set, clear_moves, set_moves]`, each
    /// word cleared then set. Its masks are widened only if it changed
    /// (they already hold what it held). The objects' old and new word
    /// if the cell changed.
    #[inline(always)]
    pub(super) fn write_single(&mut self, i: usize, write: [u32; 4]) -> Option<(u32, u32)> {
        let [clear, set, clear_moves, set_moves] = write;
        let (old, old_moves) = (self.objects[i], self.movements[i]);
        let (new, new_moves) = ((old & !clear) | set, (old_moves & !clear_moves) | set_moves);
        if new == old && new_moves == old_moves {
            return None;
        }
        self.objects[i] = new;
        self.holders.change(i, old, new);
        self.movements[i] = new_moves;
        let (x, y) = self.xy(i);
        self.col_objects[x] |= new;
        self.row_objects[y] |= new;
        self.map_objects[0] |= new;
        self.col_moves[x] |= new_moves;
        self.row_moves[y] |= new_moves;
        self.map_moves[0] |= new_moves;
        Some((old, new))
    }

    /// Moves the objects of `layer` (a mask) from cell `i` to cell
    /// `target`, widening the target's masks.
    pub(super) fn move_layer(&mut self, i: usize, target: usize, layer: &[u32]) {
        let so = self.stride_obj;
        if so == 1 {
            let (from, to) = (self.objects[i], self.objects[target]);
            let moving = from & layer[0];
            let (new_from, new_to) = (from & !layer[0], to | moving);
            self.objects[i] = new_from;
            self.objects[target] = new_to;
            let (x, y) = self.xy(target);
            self.col_objects[x] |= new_to;
            self.row_objects[y] |= new_to;
            self.map_objects[0] |= new_to;
            self.holders.change(i, from, new_from);
            self.holders.change(target, to, new_to);
            return;
        }
        let (old_from, old_to) = (self.objects[i * so], self.objects[target * so]);
        let mut moving = bits::Scratch::from(self.cell(i));
        for (m, l) in moving.get_mut().iter_mut().zip(layer) {
            *m &= l;
        }
        bits::clear(self.cell_mut(i), layer);
        bits::or(self.cell_mut(target), moving.get());
        self.widen_objects(target);
        if self.holders.valid() {
            let (new_from, new_to) = (self.objects[i * so], self.objects[target * so]);
            self.holders.change(i, old_from, new_from);
            self.holders.change(target, old_to, new_to);
        }
    }

    /// Cell `i`'s word of objects (a game of one word a cell) went from
    /// `old` to `new`: the holders follow.
    #[inline(always)]
    pub(super) fn changed_single(&mut self, i: usize, old: u32, new: u32) {
        self.holders.change(i, old, new);
    }

    /// Widens cell `i`'s masks of objects by what the cell holds now.
    #[inline(always)]
    pub(super) fn widen_objects(&mut self, i: usize) {
        let so = self.stride_obj;
        let (x, y) = self.xy(i);
        widen([
            span_mut(&mut self.objects, i, so),
            span_mut(&mut self.col_objects, x, so),
            span_mut(&mut self.row_objects, y, so),
            &mut self.map_objects,
        ]);
    }

    /// Widens cell `i`'s masks of movements likewise.
    #[inline(always)]
    pub(super) fn widen_moves(&mut self, i: usize) {
        let sm = self.stride_mov;
        let (x, y) = self.xy(i);
        widen([
            span_mut(&mut self.movements, i, sm),
            span_mut(&mut self.col_moves, x, sm),
            span_mut(&mut self.row_moves, y, sm),
            &mut self.map_moves,
        ]);
    }

    /// Every mask from the cells, as a turn starts.
    #[inline]
    pub(super) fn compute_masks(&mut self) {
        let (rows, cols) = (self.row_objects.len(), self.col_objects.len());
        if self.masked == self.objects {
            // The board they were last computed from: as they were then.
            self.row_objects.copy_from_slice(&self.masks[..rows]);
            self.col_objects
                .copy_from_slice(&self.masks[rows..rows + cols]);
            self.map_objects.copy_from_slice(&self.masks[rows + cols..]);
            if !self.holders.valid() {
                self.holders.load(&self.saved_holders);
            }
        } else {
            or_columns(
                &self.objects,
                self.height,
                self.stride_obj,
                &mut self.row_objects,
                &mut self.col_objects,
                &mut self.map_objects,
            );
            if !self.holders.valid() {
                if self.masked.len() == self.objects.len() && !self.saved_holders.is_empty() {
                    // A solver's next board differs from the last in a few
                    // cells: the holders follow from those of the last.
                    self.holders.load(&self.saved_holders);
                    self.holders.follow(&self.masked, &self.objects);
                } else {
                    self.holders.rebuild(&self.objects);
                }
            }
            self.holders.save(&mut self.saved_holders);
            self.masked.clone_from(&self.objects);
            self.masks.clear();
            self.masks.extend_from_slice(&self.row_objects);
            self.masks.extend_from_slice(&self.col_objects);
            self.masks.extend_from_slice(&self.map_objects);
        }
        // The masks of objects are exact again.
        self.holders.settle();
        // A turn nearly always starts with no movement (the last one
        // resolved them all); only then are the masks a plain clear.
        // (An OR of every word, which vectorises, rather than a search.)
        let moving = !self.still && self.movements.iter().fold(0, |all, &m| all | m) != 0;
        // The turn about to run writes movements.
        self.still = false;
        if moving {
            or_columns(
                &self.movements,
                self.height,
                self.stride_mov,
                &mut self.row_moves,
                &mut self.col_moves,
                &mut self.map_moves,
            );
        } else {
            self.row_moves.fill(0);
            self.col_moves.fill(0);
            self.map_moves.fill(0);
        }
    }

    /// Puts the objects and movements back as a turn started, with no
    /// rigid bookkeeping, for the turn to run again.
    pub(super) fn rewind(&mut self, objects: &[u32], movements: &[u32]) {
        // The rules run again at once, with no new masks.
        self.holders.follow(&self.objects, objects);
        self.objects.copy_from_slice(objects);
        self.movements.copy_from_slice(movements);
        self.rigid_group.fill(0);
        self.rigid_applied.fill(0);
    }

    /// Puts `objects` back, with no movement and no rigid bookkeeping.
    pub(super) fn restore(&mut self, objects: &[u32]) {
        if objects.len() == self.objects.len() {
            self.holders.follow(&self.objects, objects);
        } else {
            self.holders.invalidate();
        }
        self.objects.clear();
        self.objects.extend_from_slice(objects);
        self.movements.fill(0);
        self.still = true;
        self.rigid_group.fill(0);
        self.rigid_applied.fill(0);
        self.row_objects.fill(0);
        self.col_objects.fill(0);
    }
}

impl Engine<'_> {
    /// The level as the conformance tables write it: each cell's object
    /// names, numbered the first time they are met.
    pub fn level_string(&self) -> String {
        let b = &self.s.board;
        let mut out = String::new();
        let mut seen: Vec<String> = Vec::new();
        // The tables list the cells in index order (column by column),
        // `width` to a line.
        for line in 0..b.height {
            for k in 0..b.width {
                let i = line * b.width + k;
                let names = self.game.names_in(b.cell(i)).join(" ");
                let n = match seen.iter().position(|s| *s == names) {
                    Some(n) => n,
                    None => {
                        seen.push(names.clone());
                        out.push_str(&names);
                        out.push(':');
                        seen.len() - 1
                    }
                };
                out.push_str(&n.to_string());
                out.push(',');
            }
            out.push('\n');
        }
        out
    }
}

/// ORs a cell's words into its masks.
#[inline(always)]
fn widen([cell, col, row, map]: [&mut [u32]; 4]) {
    bits::or(col, cell);
    bits::or(row, cell);
    bits::or(map, cell);
}

/// The masks of a board's rows, or of its columns, line by line.
pub(super) struct Lines<'b> {
    objects: &'b [u32],
    moves: &'b [u32],
    stride_obj: usize,
    stride_mov: usize,
}

impl<'b> Lines<'b> {
    /// Line `k`'s objects and movements, `SO` and `SM` words (0: as the
    /// game has).
    #[inline(always)]
    pub(super) fn masks_of<const SO: usize, const SM: usize>(
        &self,
        k: usize,
    ) -> (&'b [u32], &'b [u32]) {
        (
            span(self.objects, k, words::<SO>(self.stride_obj)),
            span(self.moves, k, words::<SM>(self.stride_mov)),
        )
    }
}

/// ORs a column-major board's words into its row, column and board masks
/// (cleared first). A column is contiguous, so this is one pass.
fn or_columns(
    cells: &[u32],
    height: usize,
    stride: usize,
    rows: &mut [u32],
    cols: &mut [u32],
    all: &mut [u32],
) {
    rows.fill(0);
    all.fill(0);
    // Games of one or two words a cell are common: with the stride known,
    // a cell's words are a fixed array and the loop is straight-line code.
    match stride {
        1 => return or_columns_of::<1>(cells, height, rows, cols, all),
        2 => return or_columns_of::<2>(cells, height, rows, cols, all),
        _ => {}
    }
    let columns = cells.chunks_exact((height * stride).max(1));
    for (col, column) in cols.chunks_exact_mut(stride).zip(columns) {
        col.fill(0);
        for (row, cell) in rows
            .chunks_exact_mut(stride)
            .zip(column.chunks_exact(stride))
        {
            bits::or(row, cell);
            bits::or(col, cell);
        }
        bits::or(all, col);
    }
}

/// [`or_columns`] for a stride of `N` words, `rows` and `all` cleared.
fn or_columns_of<const N: usize>(
    cells: &[u32],
    height: usize,
    rows: &mut [u32],
    cols: &mut [u32],
    all: &mut [u32],
) {
    let (cells, _) = cells.as_chunks::<N>();
    let (rows, _) = rows.as_chunks_mut::<N>();
    let (cols, _) = cols.as_chunks_mut::<N>();
    let mut every = [0; N];
    for (col, column) in cols.iter_mut().zip(cells.chunks_exact(height.max(1))) {
        let mut c = [0; N];
        for (row, cell) in rows.iter_mut().zip(column) {
            for w in 0..N {
                row[w] |= cell[w];
                c[w] |= cell[w];
            }
        }
        *col = c;
        for w in 0..N {
            every[w] |= c[w];
        }
    }
    all[..N].copy_from_slice(&every);
}
