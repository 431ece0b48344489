//! The level in play: cells and the masks of rows, columns and the board.

use super::Engine;
use crate::bits;
use crate::compile::{Game, Grid};

/// A level in play.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Object bits, `stride` words per cell.
    pub objects: Vec<u32>,
    pub(super) movements: Vec<u32>,
    pub(super) rigid_group: Vec<u32>,
    pub(super) rigid_applied: Vec<u32>,
    pub(super) row_objects: Vec<u32>,
    pub(super) col_objects: Vec<u32>,
    pub(super) map_objects: Vec<u32>,
    pub(super) row_moves: Vec<u32>,
    pub(super) col_moves: Vec<u32>,
    pub(super) map_moves: Vec<u32>,
}

impl Board {
    pub(super) fn new(game: &Game, grid: &Grid) -> Board {
        let n = grid.width * grid.height;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        Board {
            width: grid.width,
            height: grid.height,
            objects: grid.cells.clone(),
            movements: vec![0; n * sm],
            rigid_group: vec![0; n * sm],
            rigid_applied: vec![0; n * sm],
            row_objects: vec![0; grid.height * so],
            col_objects: vec![0; grid.width * so],
            map_objects: vec![0; so],
            row_moves: vec![0; grid.height * sm],
            col_moves: vec![0; grid.width * sm],
            map_moves: vec![0; sm],
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
}

impl Engine<'_> {
    pub(super) fn calculate_masks(&mut self) {
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        let b = &mut self.s.board;
        or_columns(
            &b.objects,
            b.height,
            so,
            &mut b.row_objects,
            &mut b.col_objects,
            &mut b.map_objects,
        );
        // A turn nearly always starts with no movement (the last one
        // resolved them all); only then are the masks a plain clear.
        if b.movements.iter().any(|&m| m != 0) {
            or_columns(
                &b.movements,
                b.height,
                sm,
                &mut b.row_moves,
                &mut b.col_moves,
                &mut b.map_moves,
            );
        } else {
            b.row_moves.fill(0);
            b.col_moves.fill(0);
            b.map_moves.fill(0);
        }
    }

    /// The level as the conformance tables write it.
    pub fn level_string(&self) -> String {
        let so = self.game.stride_obj;
        let b = &self.s.board;
        let mut out = String::new();
        let mut seen: Vec<String> = Vec::new();
        for y in 0..b.height {
            for x in 0..b.width {
                let i = x + y * b.width;
                let names = self.game.names_in(&b.objects[i * so..][..so]).join(" ");
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
