//! Rescans: a group's later passes bring each row's matches up to date
//! from the cells changed since, rather than scan the board again.

use super::Engine;
use super::matching::{Match, Starts};
use crate::compile::Slot;

impl Engine<'_> {
    /// Brings up to date the matches of a row without ellipses that a scan
    /// found when `Changes::now` was `since`. Whether the row matches at a
    /// start depends only on the objects and movements of the cells from
    /// there, so a match whose cells have not changed since still holds,
    /// and a new match must cover a changed cell: only the starts whose
    /// row covers one are tried again. The result, in scan order, is what
    /// a full scan would find now.
    pub(super) fn rescan(
        &self,
        row: &[Slot],
        starts: &Starts,
        d: isize,
        since: usize,
        matches: &mut Vec<Match>,
        marks: &mut Vec<u64>,
    ) {
        let changes = &self.s.scratch.changes;
        let changed = changes.since(since);
        if changed.is_empty() {
            return;
        }
        let b = &self.s.board;
        let (w, h) = (b.width, b.height);
        let len = row.len() as isize;
        // Two bitsets by place in scan order: the kept matches that still
        // hold, then the starts to try.
        let words = b.len().div_ceil(64);
        marks.clear();
        marks.resize(2 * words, 0);
        let (keep, tried) = marks.split_at_mut(words);
        let mark = |set: &mut [u64], order: usize| set[order / 64] |= 1 << (order % 64);
        for m in matches.iter() {
            let covers_change =
                (0..len).any(|k| changes.changed_since(m.start.wrapping_add_signed(k * d), since));
            if !covers_change {
                let (x, y) = b.xy(m.start);
                mark(keep, starts.order(x, y, w, h));
            }
        }
        // The step in columns and rows (`d` alone cannot tell them apart
        // on a board one cell high).
        let (dx, dy) = if starts.horizontal {
            (d.signum(), 0)
        } else {
            (0, d.signum())
        };
        // A row's cells lie on one line: its start, `k` cells back from a
        // changed cell, must be a start the scan would try.
        for &cell in changed {
            let (cx, cy) = b.xy(cell);
            let (cx, cy) = (cx as isize, cy as isize);
            for k in 0..len {
                let (x, y) = (cx - k * dx, cy - k * dy);
                if x >= 0
                    && y >= 0
                    && starts.x.contains(&(x as usize))
                    && starts.y.contains(&(y as usize))
                {
                    mark(tried, starts.order(x as usize, y as usize, w, h));
                }
            }
        }
        matches.clear();
        for (k, (&keep, &tried)) in keep.iter().zip(tried.iter()).enumerate() {
            let mut bits = keep | tried;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = starts.start(64 * k + bit, w, h);
                if keep >> bit & 1 == 1 || self.row_matches(row, start, d) {
                    matches.push(Match {
                        start,
                        gaps: [0, 0],
                    });
                }
            }
        }
    }
}

/// What rules keep between their scans in a group's passes, with a
/// rescan's buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct Kept {
    /// By `Rule::first_row` and row.
    pub(super) rows: Vec<RowMatches>,
    /// A rescan's bitsets.
    pub(super) marks: Vec<u64>,
}

/// The cells changed while a group is applied, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Changes {
    /// Whether a group is being applied (changes are recorded).
    on: bool,
    /// Counts the groups applied: a row's kept matches are from this
    /// group's passes when they carry its count.
    pub(super) run: u64,
    /// Each change's cell (a cell changed twice is listed twice).
    cells: Vec<usize>,
    /// Per cell of the board: `cells.len()` just after its last change,
    /// 0 for none.
    at: Vec<usize>,
}

// Asked in the loops of matching and writing, from their own files: hence
// `#[inline]`.
impl Changes {
    /// Starts recording, for a board of `len` cells, with no change yet.
    #[inline]
    pub(super) fn start(&mut self, len: usize) {
        if self.at.len() == len {
            for &cell in &self.cells {
                self.at[cell] = 0;
            }
        } else {
            self.at.clear();
            self.at.resize(len, 0);
        }
        self.cells.clear();
        self.on = true;
        self.run += 1;
    }

    /// Stops recording.
    #[inline]
    pub(super) fn stop(&mut self) {
        self.on = false;
    }

    /// Whether changes are being recorded (a group is being applied).
    #[inline]
    pub(super) fn recording(&self) -> bool {
        self.on
    }

    /// Records a change of `cell`, while recording.
    #[inline]
    pub(super) fn record(&mut self, cell: usize) {
        if self.on {
            self.cells.push(cell);
            self.at[cell] = self.cells.len();
        }
    }

    /// A mark for [`Changes::since`]: the changes so far.
    #[inline]
    pub(super) fn now(&self) -> usize {
        self.cells.len()
    }

    /// The cells changed after the mark `since`.
    #[inline]
    pub(super) fn since(&self, since: usize) -> &[usize] {
        &self.cells[since..]
    }

    /// Whether one of the `len` cells from `start`, `d` apart (all on the
    /// board), changed after the mark `since`.
    #[inline]
    pub(super) fn covered(&self, start: usize, len: usize, d: isize, since: usize) -> bool {
        (0..len as isize).any(|k| self.changed_since(start.wrapping_add_signed(k * d), since))
    }

    /// Whether `cell` changed after the mark `since`.
    #[inline]
    fn changed_since(&self, cell: usize, since: usize) -> bool {
        self.at[cell] > since
    }
}

/// One rule row's matches, as its last scan in a group left them.
#[derive(Clone, Debug, Default)]
pub(super) struct RowMatches {
    /// [`Changes::run`] of that group (0: none yet).
    pub(super) run: u64,
    /// [`Changes::now`] at that scan.
    pub(super) scanned: usize,
    pub(super) matches: Vec<Match>,
}
