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
    /// Division by `height`: a cell's column and row.
    column: bits::Divisor,
    /// Object bits, `stride_obj` words per cell.
    pub objects: Vec<u32>,
    stride_obj: usize,
    stride_mov: usize,
    /// Movement fields, `stride_mov` words per cell.
    pub(super) movements: Vec<u32>,
    /// A bit a cell (bit `i % 64` of word `i / 64`): every cell that holds
    /// a movement has its bit set, so the cells that move are found among
    /// a few set bits, not by a scan of every cell. A write of a cell's
    /// movements sets its bit; the bits are cleared only as a turn's masks
    /// are made with no movement left (a bit may be set over a cell with
    /// none: movements are cleared without clearing bits).
    stirred: Vec<u64>,
    /// Per cell, in each layer's field: the rigid group (its index plus
    /// one) of the rule that last wrote the layer's movement.
    rigid_group: Vec<u32>,
    /// Per cell: the layers whose movement a rigid rule wrote.
    rigid_applied: Vec<u32>,
    /// The masks of objects and of movements.
    object_masks: Masks,
    move_masks: Masks,
    /// The objects the masks of objects were last computed from, and
    /// those masks: a solver plays every move from one board in turn, and
    /// its masks are computed once.
    masked: Vec<u32>,
    /// Which objects the board holds, as a number: a new one after every
    /// write that may change them (or their masks), never one used
    /// before, so that two moments with one revision have the same
    /// objects. `revisions` is the last handed out; `masked_revision` was
    /// current when the masks were last made exact, the objects `masked`.
    pub(super) revision: u64,
    revisions: u64,
    masked_revision: u64,
    /// Whether the masks were last made exact as an input turn started,
    /// with nothing since (`Board::put_back_start`).
    masked_at_input: bool,
    masks: Vec<u32>,
    /// Whether every movement is known to be zero (the board was just put
    /// in place): the masks of movements are then a plain clear.
    pub(super) still: bool,
    /// The cells that hold each object (games of one word of objects a
    /// cell), and a copy of them as they were for `masked`.
    pub(super) holders: Holders,
    saved_holders: Vec<u64>,
}

/// Sets cell `i`'s bit in `stirred` ([`Board::stirred`]'s layout).
#[inline(always)]
fn stir(stirred: &mut [u64], i: usize) {
    stirred[i / 64] |= 1 << (i % 64);
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
            column: bits::Divisor::new(grid.height.max(1)),
            objects: grid.cells.clone(),
            stride_obj: so,
            stride_mov: sm,
            movements: vec![0; n * sm],
            stirred: vec![0; n.div_ceil(64)],
            rigid_group: vec![0; n * sm],
            rigid_applied: vec![0; n * sm],
            object_masks: Masks::new(grid.width, grid.height, so),
            move_masks: Masks::new(grid.width, grid.height, sm),
            masked: Vec::new(),
            masks: Vec::new(),
            revision: 1,
            revisions: 1,
            masked_revision: 0,
            masked_at_input: false,
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

    /// Division by `height`, which tells a cell's column and row.
    #[inline(always)]
    pub(super) fn column(&self) -> bits::Divisor {
        self.column
    }

    /// The column and row of cell `i`.
    #[inline(always)]
    pub(super) fn xy(&self, i: usize) -> (usize, usize) {
        self.column.split(i)
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
        self.holders.known() & self.object_masks.first_of_map()
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
        self.revise();
        let so = self.stride_obj;
        span_mut(&mut self.objects, i, so)
    }

    #[inline(always)]
    pub(super) fn moves_mut(&mut self, i: usize) -> &mut [u32] {
        self.stir(i);
        let sm = self.stride_mov;
        span_mut(&mut self.movements, i, sm)
    }

    /// Notes that cell `i`'s movements may have been written.
    #[inline(always)]
    fn stir(&mut self, i: usize) {
        stir(&mut self.stirred, i);
    }

    /// A new revision: the objects may change.
    #[inline(always)]
    fn revise(&mut self) {
        self.revisions += 1;
        self.revision = self.revisions;
    }

    /// Goes on from `old`'s revisions (a level loaded over another), so
    /// that none is used twice in a session.
    pub(super) fn revise_after(&mut self, old: &Board) {
        self.revisions = self.revisions.max(old.revisions) + 1;
        self.revision = self.revisions;
    }

    /// Puts back the objects the last input turn started from, with their
    /// masks and holders as they were then; false (and
    /// nothing done) where the masks have been made exact since, or were
    /// not then. Cheaper than putting a board in place: nothing is
    /// compared.
    pub(super) fn put_back_start(&mut self) -> bool {
        if !self.masked_at_input || self.masked.len() != self.objects.len() {
            return false;
        }
        self.objects.copy_from_slice(&self.masked);
        self.object_masks.words.copy_from_slice(&self.masks);
        self.holders.load(&self.saved_holders);
        self.revision = self.masked_revision;
        true
    }

    /// Lends a turn the objects the masks were made from, which are the
    /// board's own as the turn starts (just after
    /// [`Board::compute_masks`]): its backup, with no copy. `spare`,
    /// emptied, stands in for them; a turn nested in this one that makes
    /// the masks again fills it. The token for [`Board::take_back`].
    pub(super) fn lend_start(&mut self, spare: &mut Vec<u32>) -> u64 {
        debug_assert!(self.masked_revision == self.revision && self.masked == self.objects);
        spare.clear();
        std::mem::swap(&mut self.masked, spare);
        self.masked_revision
    }

    /// Takes back what [`Board::lend_start`] lent, as `lent`, unless the
    /// masks were made again meanwhile: `lent` is then only a spare.
    pub(super) fn take_back(&mut self, lent: &mut Vec<u32>, token: u64) {
        if self.masked_revision == token {
            // Masks made again with nothing written since leave the
            // spare as it was: empty.
            debug_assert!(self.masked.is_empty());
            std::mem::swap(&mut self.masked, lent);
        }
    }

    /// Every cell's objects, to be written over as a whole (the holders
    /// are then out of date until the next turn's masks).
    pub(super) fn objects_mut(&mut self) -> &mut [u32] {
        self.revise();
        self.holders.invalidate();
        &mut self.objects
    }

    /// Cell `i`'s objects to read and its movements to write, at once.
    #[inline(always)]
    pub(super) fn cell_and_moves_mut(&mut self, i: usize) -> (&[u32], &mut [u32]) {
        self.stir(i);
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

    /// The cells that hold a movement, in cell order, into `into`: found
    /// among the stirred cells (`stirred`). `SM`
    /// words of movements a cell (0: as the game has), so that the common
    /// games' test of a cell is one word's.
    #[inline]
    pub(super) fn moving_cells<const SM: usize>(&self, into: &mut Vec<usize>) {
        for (k, &word) in self.stirred.iter().enumerate() {
            let mut left = word;
            while left != 0 {
                let i = k * 64 + left.trailing_zeros() as usize;
                left &= left - 1;
                let moves = if SM == 1 {
                    self.movements[i] != 0
                } else {
                    !bits::is_zero(self.moves_of::<SM>(i))
                };
                if moves {
                    into.push(i);
                }
            }
        }
    }

    /// The masks of the board's rows (`horizontal`) or of its columns.
    #[inline(always)]
    pub(super) fn lines(&self, horizontal: bool) -> Lines<'_> {
        let (objects, moves) = if horizontal {
            (self.object_masks.rows(), self.move_masks.rows())
        } else {
            (self.object_masks.cols(), self.move_masks.cols())
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
        span(self.object_masks.cols(), x, self.stride_obj)
    }

    /// The board's mask of objects: every object a cell holds, or more.
    #[inline(always)]
    pub(super) fn map_objects(&self) -> &[u32] {
        self.object_masks.map()
    }

    /// The board's mask of movements.
    #[inline(always)]
    pub(super) fn map_moves(&self) -> &[u32] {
        self.move_masks.map()
    }

    /// The first words of the board's masks of objects and of movements.
    #[inline(always)]
    pub(super) fn first_of_maps(&self) -> [u32; 2] {
        [
            self.object_masks.first_of_map(),
            self.move_masks.first_of_map(),
        ]
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
        self.revise();
        self.stir(i);
        let (x, y) = self.xy(i);
        let (so, sm) = (words::<SO>(self.stride_obj), words::<SM>(self.stride_mov));
        let (object_rows, object_cols, object_map) = self.object_masks.parts_mut();
        let (move_rows, move_cols, move_map) = self.move_masks.parts_mut();
        (
            [
                span_mut(&mut self.objects, i, so),
                span_mut(object_cols, x, so),
                span_mut(object_rows, y, so),
                &mut object_map[..so],
            ],
            [
                span_mut(&mut self.movements, i, sm),
                span_mut(move_cols, x, sm),
                span_mut(move_rows, y, sm),
                &mut move_map[..sm],
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
        self.revise();
        self.objects[i] = new;
        self.holders.change(i, old, new);
        self.movements[i] = new_moves;
        self.stir(i);
        let (x, y) = self.xy(i);
        self.object_masks.widen_single(x, y, new);
        self.move_masks.widen_single(x, y, new_moves);
        Some((old, new))
    }

    /// Moves the objects of `layer` (a mask) from cell `i` to cell
    /// `target`, widening the target's masks.
    pub(super) fn move_layer(&mut self, i: usize, target: usize, layer: &[u32]) {
        self.revise();
        let so = self.stride_obj;
        if so == 1 {
            let (from, to) = (self.objects[i], self.objects[target]);
            let moving = from & layer[0];
            let (new_from, new_to) = (from & !layer[0], to | moving);
            self.objects[i] = new_from;
            self.objects[target] = new_to;
            let (x, y) = self.xy(target);
            self.object_masks.widen_single(x, y, new_to);
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
        let (x, y) = self.xy(i);
        if self.stride_obj == 1 {
            self.object_masks.widen_single(x, y, self.objects[i]);
            return;
        }
        self.object_masks
            .widen(x, y, span(&self.objects, i, self.stride_obj));
    }

    /// Widens cell `i`'s masks of movements likewise.
    #[inline(always)]
    pub(super) fn widen_moves(&mut self, i: usize) {
        self.stir(i);
        let (x, y) = self.xy(i);
        if self.stride_mov == 1 {
            self.move_masks.widen_single(x, y, self.movements[i]);
            return;
        }
        self.move_masks
            .widen(x, y, span(&self.movements, i, self.stride_mov));
    }

    /// Every mask from the cells, as a turn starts; `at_input`: a turn
    /// with an input ([`Board::put_back_start`] puts this start back).
    #[inline]
    pub(super) fn compute_masks(&mut self, at_input: bool) {
        self.masked_at_input = at_input;
        if self.revision == self.masked_revision {
            // Nothing written since they were made exact: they still are.
            if !self.holders.valid() {
                self.holders.load(&self.saved_holders);
            }
        } else if self.masked == self.objects {
            // The board they were last computed from: as they were then.
            self.object_masks.words.copy_from_slice(&self.masks);
            if !self.holders.valid() {
                self.holders.load(&self.saved_holders);
            }
        } else {
            let (rows, cols, map) = self.object_masks.parts_mut();
            or_columns(&self.objects, self.height, self.stride_obj, rows, cols, map);
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
            self.masks.clone_from(&self.object_masks.words);
        }
        self.masked_revision = self.revision;
        // The masks of objects are exact again.
        self.holders.settle();
        // A turn nearly always starts with no movement (the last one
        // resolved them all); only then are the masks a plain clear.
        // (An OR of every word, which vectorises, rather than a search.)
        let moving = !self.still && self.movements.iter().fold(0, |all, &m| all | m) != 0;
        // The turn about to run writes movements.
        self.still = false;
        if moving {
            // Every cell with a movement is stirred.
            for (i, moves) in self.movements.chunks(self.stride_mov).enumerate() {
                if !bits::is_zero(moves) {
                    stir(&mut self.stirred, i);
                }
            }
            let (rows, cols, map) = self.move_masks.parts_mut();
            or_columns(
                &self.movements,
                self.height,
                self.stride_mov,
                rows,
                cols,
                map,
            );
        } else {
            self.move_masks.words.fill(0);
            // A word or two: only those set are written (a fill would
            // call `memset`).
            for word in self.stirred.iter_mut().filter(|word| **word != 0) {
                *word = 0;
            }
        }
    }

    /// Puts the objects and movements back as a turn started, with no
    /// rigid bookkeeping, for the turn to run again.
    pub(super) fn rewind(&mut self, objects: &[u32], movements: &[u32]) {
        // The rules run again at once, with no new masks.
        self.revise();
        self.holders.follow(&self.objects, objects);
        self.objects.copy_from_slice(objects);
        self.movements.copy_from_slice(movements);
        self.rigid_group.fill(0);
        self.rigid_applied.fill(0);
    }

    /// Puts `objects` back, with no movement and no rigid bookkeeping.
    pub(super) fn restore(&mut self, objects: &[u32]) {
        self.revise();
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
        let (rows, cols, _) = self.object_masks.parts_mut();
        rows.fill(0);
        cols.fill(0);
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

/// The masks of a board's rows, of its columns and of the whole board, of
/// objects or of movements: the OR of their cells' words, or more.
///
/// Back to back in one buffer, so that a turn puts them back, or clears
/// them, in one copy rather than three; the board's first, the most read.
#[derive(Clone, Debug)]
struct Masks {
    /// The board's (`stride` words), then the rows' (`stride` words a
    /// row), then the columns'.
    words: Vec<u32>,
    /// Where the rows' start, and the columns'.
    rows: usize,
    cols: usize,
}

impl Masks {
    fn new(width: usize, height: usize, stride: usize) -> Masks {
        Masks {
            words: vec![0; (1 + height + width) * stride],
            rows: stride,
            cols: (1 + height) * stride,
        }
    }

    #[inline(always)]
    fn rows(&self) -> &[u32] {
        &self.words[self.rows..self.cols]
    }

    #[inline(always)]
    fn cols(&self) -> &[u32] {
        &self.words[self.cols..]
    }

    #[inline(always)]
    fn map(&self) -> &[u32] {
        &self.words[..self.rows]
    }

    /// The first word of the board's.
    #[inline(always)]
    fn first_of_map(&self) -> u32 {
        self.words.first().copied().unwrap_or(0)
    }

    /// The rows', the columns' and the board's, to write.
    #[inline(always)]
    fn parts_mut(&mut self) -> (&mut [u32], &mut [u32], &mut [u32]) {
        let (map, rest) = self.words.split_at_mut(self.rows);
        let (rows, cols) = rest.split_at_mut(self.cols - self.rows);
        (rows, cols, map)
    }

    /// Widens the masks of cell `(x, y)` by its words, `cell`.
    #[inline(always)]
    fn widen(&mut self, x: usize, y: usize, cell: &[u32]) {
        let n = cell.len();
        let (rows, cols, map) = self.parts_mut();
        bits::or(span_mut(cols, x, n), cell);
        bits::or(span_mut(rows, y, n), cell);
        bits::or(map, cell);
    }

    /// [`Masks::widen`] for one word a cell.
    #[inline(always)]
    fn widen_single(&mut self, x: usize, y: usize, word: u32) {
        debug_assert_eq!(self.rows, 1);
        self.words[0] |= word;
        self.words[1 + y] |= word;
        self.words[self.cols + x] |= word;
    }
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
