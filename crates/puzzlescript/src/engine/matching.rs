//! Matching: where each row of a rule matches on the board.

use super::Engine;
use super::board::words;
use super::rescan::{Kept, RowMatches};
use crate::bits;
use crate::compile::{CellPattern, Rule, Slot};

impl Engine<'_> {
    /// The step between a rule's consecutive cells, scanning in `direction`.
    pub(super) fn delta(&self, direction: u32) -> isize {
        let h = self.s.board.height as isize;
        match direction {
            bits::UP => -1,
            bits::DOWN => 1,
            bits::LEFT => -h,
            bits::RIGHT => h,
            _ => 0,
        }
    }

    /// The words of objects and of movements a cell takes: `SO` and `SM`,
    /// or the game's where they are 0.
    #[inline(always)]
    fn strides<const SO: usize, const SM: usize>(&self) -> (usize, usize) {
        (
            words::<SO>(self.game.stride_obj),
            words::<SM>(self.game.stride_mov),
        )
    }

    /// Whether cell `i` matches a pattern, for `SO` words of objects and
    /// `SM` of movements a cell (0: as the game has): the one cell test.
    #[inline(always)]
    fn cell_matches<const SO: usize, const SM: usize>(&self, p: &CellPattern, i: usize) -> bool {
        let (so, sm) = self.strides::<SO, SM>();
        let b = &self.s.board;
        let cell = b.cell_of::<SO>(i);
        if !bits::seen_as(cell, &p.objects_seen[..so], &p.present[..so]) {
            return false;
        }
        if p.tests_moves {
            let mv = b.moves_of::<SM>(i);
            if !bits::seen_as(mv, &p.moves_seen[..sm], &p.moving[..sm]) {
                return false;
            }
        }
        p.any_of.chunks_exact(so).all(|m| bits::any(m, cell))
    }

    /// Whether consecutive cells match from `start`, `d` apart: the caller
    /// keeps them all on the board.
    #[inline(always)]
    pub(super) fn run_matches<const SO: usize, const SM: usize>(
        &self,
        cells: &[Slot],
        start: usize,
        d: isize,
    ) -> bool {
        let mut index = start;
        for slot in cells {
            let Slot::Cell(p) = slot else { return false };
            if !self.cell_matches::<SO, SM>(p, index) {
                return false;
            }
            index = index.wrapping_add_signed(d);
        }
        true
    }

    /// [`Engine::run_matches`] from a start that may put some of the cells
    /// off the board, which then do not match. The cells lie on a line, so
    /// they are all on the board when the first and the last are.
    #[inline]
    fn run_matches_on_board<const SO: usize, const SM: usize>(
        &self,
        cells: &[Slot],
        start: isize,
        d: isize,
    ) -> bool {
        let Some(span) = cells.len().checked_sub(1) else {
            return true;
        };
        let on_board = |index: isize| index >= 0 && (index as usize) < self.s.board.len();
        on_board(start)
            && on_board(start + d * span as isize)
            && self.run_matches::<SO, SM>(cells, start as usize, d)
    }

    /// Every match of a row without ellipses, line by line: a board row
    /// for a horizontal rule (cells `height` apart), a column for a
    /// vertical one (adjacent cells), skipping the lines whose masks say
    /// they cannot hold one.
    fn scan_row<const SO: usize, const SM: usize>(
        &self,
        row: &[Slot],
        needs: &Needs,
        starts: &Starts,
        d: isize,
        found: &mut Vec<Match>,
    ) {
        let Some((Slot::Cell(first), rest)) = row.split_first() else {
            return;
        };
        let (so, sm) = self.strides::<SO, SM>();
        let b = &self.s.board;
        if SO == 1 && b.holders.valid() {
            // The first cell needs an object, or one of a property's: the
            // cells that hold them are the only starts to try.
            let (mask, all) = match (first.present[0], &first.any_of[..]) {
                (0, [property]) => (*property, false),
                (present, _) => (present, true),
            };
            let words = b.holders.words();
            let starts_at = |k| b.holders.cells_with(mask, all, k, u32::MAX).count_ones() as usize;
            // A horizontal rule's matches are found by cell (column by
            // column) and sorted into its scan's order, row by row: worth
            // it for a few starts only.
            if mask != 0 && (!starts.horizontal || (0..words).map(starts_at).sum::<usize>() <= 4) {
                let before = found.len();
                for k in 0..words {
                    let mut cells = b.holders.cells_with(mask, all, k, u32::MAX);
                    while cells != 0 {
                        let i = 64 * k + cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let (x, y) = b.xy(i);
                        if starts.x.contains(&x)
                            && starts.y.contains(&y)
                            && self.cell_matches::<SO, SM>(first, i)
                            && self.run_matches::<SO, SM>(rest, i.wrapping_add_signed(d), d)
                        {
                            found.push(Match {
                                start: i,
                                gaps: [0, 0],
                            });
                        }
                    }
                }
                // Found by cell; a horizontal rule's scan goes row by row.
                if starts.horizontal {
                    found[before..].sort_unstable_by_key(|m| {
                        let (x, y) = b.xy(m.start);
                        y * b.width + x
                    });
                }
                return;
            }
        }
        let (outer, inner, step) = if starts.horizontal {
            (starts.y.clone(), starts.x.clone(), b.height)
        } else {
            (starts.x.clone(), starts.y.clone(), 1)
        };
        if inner.is_empty() {
            return;
        }
        let lines = b.lines(starts.horizontal);
        for line in outer {
            let (objects, moves) = lines.masks_of::<SO, SM>(line);
            if !needs.could_hold(so, sm, objects, moves) {
                continue;
            }
            let (x, y) = if starts.horizontal {
                (inner.start, line)
            } else {
                (line, inner.start)
            };
            // Most cells fail the first cell's test.
            let mut i = b.index(x, y);
            for _ in inner.clone() {
                if self.cell_matches::<SO, SM>(first, i)
                    && self.run_matches::<SO, SM>(rest, i.wrapping_add_signed(d), d)
                {
                    found.push(Match {
                        start: i,
                        gaps: [0, 0],
                    });
                }
                i += step;
            }
        }
    }

    /// Whether a row without ellipses matches from `start`, `d` apart,
    /// with the whole row on the board.
    pub(super) fn row_matches(&self, row: &[Slot], start: usize, d: isize) -> bool {
        by_strides!(self.run_matches(row, start, d))
    }

    /// Every match of a row of `rule` with `wild` ellipses (one or two),
    /// line by line as [`Engine::scan_row`] goes.
    fn scan_gapped_row<const SO: usize, const SM: usize>(
        &self,
        rule: &Rule,
        row: &[Slot],
        needs: &Needs,
        starts: &Starts,
        wild: usize,
        found: &mut Vec<Match>,
    ) {
        // The cells the row takes without its gaps.
        let len = row.len() - wild;
        let (so, sm) = self.strides::<SO, SM>();
        let b = &self.s.board;
        let d = self.delta(rule.direction);
        let visit = |x: usize, y: usize, found: &mut Vec<Match>| {
            let i = b.index(x, y);
            let kmax = match rule.direction {
                bits::LEFT => (x + 2).saturating_sub(len) as isize,
                bits::RIGHT => b.width as isize - (x + len) as isize + 1,
                bits::DOWN => b.height as isize - (y + len) as isize + 1,
                bits::UP => (y + 2).saturating_sub(len) as isize,
                _ => 0,
            };
            let kmax = kmax.max(0) as usize;
            // The cells before the first ellipsis are matched once,
            // then each gap's cells, as upstream does.
            let e1 = row
                .iter()
                .position(|s| *s == Slot::Ellipsis)
                .unwrap_or(row.len());
            if !self.run_matches_on_board::<SO, SM>(&row[..e1], i as isize, d) {
                return;
            }
            let rest = &row[e1 + 1..];
            if wild == 1 {
                for k in 0..kmax {
                    let at = i as isize + d * (e1 + k) as isize;
                    if self.run_matches_on_board::<SO, SM>(rest, at, d) {
                        found.push(Match {
                            start: i,
                            gaps: [k, 0],
                        });
                    }
                }
            } else {
                let e2 = rest
                    .iter()
                    .position(|s| *s == Slot::Ellipsis)
                    .unwrap_or(rest.len());
                let (middle, last) = (&rest[..e2], &rest[(e2 + 1).min(rest.len())..]);
                for k1 in 0..kmax {
                    let at = i as isize + d * (e1 + k1) as isize;
                    if !self.run_matches_on_board::<SO, SM>(middle, at, d) {
                        continue;
                    }
                    for k2 in 0..kmax.saturating_sub(k1) {
                        let at = i as isize + d * (e1 + e2 + k1 + k2) as isize;
                        if self.run_matches_on_board::<SO, SM>(last, at, d) {
                            found.push(Match {
                                start: i,
                                gaps: [k1, k2],
                            });
                        }
                    }
                }
            }
        };
        let (outer, inner) = if starts.horizontal {
            (starts.y.clone(), starts.x.clone())
        } else {
            (starts.x.clone(), starts.y.clone())
        };
        let lines = b.lines(starts.horizontal);
        for line in outer {
            let (objects, moves) = lines.masks_of::<SO, SM>(line);
            if !needs.could_hold(so, sm, objects, moves) {
                continue;
            }
            for k in inner.clone() {
                let (x, y) = if starts.horizontal {
                    (k, line)
                } else {
                    (line, k)
                };
                visit(x, y, found);
            }
        }
    }

    /// Whether every row of a rule still matches where `tuple` says it
    /// did (an earlier match's writes may have undone it).
    pub(super) fn still_matches(&self, rule: &Rule, tuple: &[Match]) -> bool {
        by_strides!(self.still_matches_of(rule, tuple))
    }

    /// [`Engine::still_matches`] for `SO` and `SM` words a cell.
    fn still_matches_of<const SO: usize, const SM: usize>(
        &self,
        rule: &Rule,
        tuple: &[Match],
    ) -> bool {
        let d = self.delta(rule.direction);
        rule.rows
            .iter()
            .zip(tuple)
            .zip(&rule.ellipses)
            .all(|((row, m), &wild)| {
                self.row_matches_at::<SO, SM>(row, m.start, d, &m.gaps[..wild.min(2)])
            })
    }

    /// Whether the row's cells match from `start`, with the given gaps at
    /// its ellipses.
    fn row_matches_at<const SO: usize, const SM: usize>(
        &self,
        row: &[Slot],
        start: usize,
        d: isize,
        gaps: &[usize],
    ) -> bool {
        let mut index = start as isize;
        let mut gap = 0;
        for slot in row {
            match slot {
                Slot::Ellipsis => {
                    index += d * gaps[gap] as isize;
                    gap += 1;
                }
                Slot::Cell(p) => {
                    if index < 0
                        || index as usize >= self.s.board.len()
                        || !self.cell_matches::<SO, SM>(p, index as usize)
                    {
                        return false;
                    }
                    index += d;
                }
            }
        }
        true
    }

    /// Every match of every row into `out`; false if some row has none.
    /// With `kept`, the rows' matches as this rule's last scan in the
    /// group being applied left them, if it has scanned: rows without
    /// ellipses are brought up to date from those (and kept again).
    #[inline]
    pub(super) fn find_matches(
        &self,
        rule: &Rule,
        out: &mut Matches,
        kept: Option<&mut Kept>,
    ) -> bool {
        // A rule whose rows all go by bits takes a path of its own, which
        // sets up none of what the others need.
        if self.rules_by_bits(rule) {
            self.find_matches_by_bits(rule, out)
        } else {
            self.find_matches_by_cells(rule, out, kept)
        }
    }

    /// Whether all of `rule`'s rows are matched by bits
    /// ([`Engine::find_matches_by_bits`]).
    #[inline(always)]
    pub(super) fn rules_by_bits(&self, rule: &Rule) -> bool {
        self.rows_by_bits() && rule.ellipses.iter().all(|&wild| wild == 0)
    }

    /// [`Engine::find_matches`] where [`Engine::rules_by_bits`] holds.
    #[inline(never)]
    pub(super) fn find_matches_by_bits(&self, rule: &Rule, out: &mut Matches) -> bool {
        out.all.clear();
        out.ends.clear();
        let d = self.delta(rule.direction);
        // Where the rule's sieve has just passed on this board (most
        // calls), its rows' starts are found already.
        let (sifted, revision) = (&self.s.scratch.sifted, self.s.board.revision);
        let words = self.s.board.holders.words();
        // Neither the rule's nor a row's needs are held against the
        // board's masks here (`try_apply` has held the rule's): where the
        // board lacks them the bits find nothing, for less than the asking
        // costs over all the rows that pass it.
        for (r, row) in rule.rows.iter().enumerate() {
            let before = out.all.len();
            let starts = self.starts(rule.direction, row.len());
            let row_sifted = sifted.row(rule, revision, r, words);
            self.scan_row_bits(row, &starts, d, row_sifted, &mut out.all);
            if out.all.len() == before {
                return false;
            }
            out.ends.push(out.all.len());
        }
        true
    }

    /// The starts that keep a row of `len` cells (its ellipses' gaps
    /// aside) on the board, scanning in `direction`.
    #[inline(always)]
    pub(super) fn starts(&self, direction: u32, len: usize) -> Starts {
        let b = &self.s.board;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, b.width, 0, b.height);
        match direction {
            bits::UP => ymin += len - 1,
            bits::DOWN => ymax = ymax.saturating_sub(len - 1),
            bits::LEFT => xmin += len - 1,
            bits::RIGHT => xmax = xmax.saturating_sub(len - 1),
            _ => {}
        }
        Starts {
            x: xmin..xmax,
            y: ymin..ymax,
            horizontal: direction & bits::HORIZONTAL != 0,
        }
    }

    /// [`Engine::find_matches`] for any rule, row by row: by bits where
    /// they may, cell by cell elsewhere.
    #[inline(never)]
    fn find_matches_by_cells(
        &self,
        rule: &Rule,
        out: &mut Matches,
        mut kept: Option<&mut Kept>,
    ) -> bool {
        out.all.clear();
        out.ends.clear();
        let b = &self.s.board;
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        if !bits::within(&rule.objects, b.map_objects()) {
            return false;
        }
        let d = self.delta(rule.direction);
        let by_bits = self.rows_by_bits();
        for (r, row) in rule.rows.iter().enumerate() {
            let needs = Needs {
                objects: &rule.row_objects[r],
                moves: &rule.row_moves[r],
                any_of: &rule.row_any_of[r],
            };
            let could_hold =
                |objects: &[u32], moves: &[u32]| needs.could_hold(so, sm, objects, moves);
            if !could_hold(b.map_objects(), b.map_moves()) {
                return false;
            }
            let wild = rule.ellipses[r];
            let len = row.len() - wild;
            let before = out.all.len();
            let found = &mut out.all;
            let starts = self.starts(rule.direction, len);
            if wild > 0 {
                by_strides!(self.scan_gapped_row(rule, row, &needs, &starts, wild, found));
            } else if by_bits {
                // Cheaper than a rescan: nothing is kept. (Whether rows go
                // by bits holds through a group's passes, so no pass finds
                // this row's kept matches from an earlier one stale.)
                self.scan_row_bits(row, &starts, d, None, found);
            } else {
                match &mut kept {
                    Some(kept) => {
                        let changes = &self.s.scratch.changes;
                        if kept.rows.len() < self.game.rule_rows {
                            kept.rows
                                .resize_with(self.game.rule_rows, RowMatches::default);
                        }
                        let last = &mut kept.rows[rule.first_row + r];
                        // A rescan tries up to `len` starts for each change,
                        // unsorted, where a scan tries at most every cell but
                        // skips whole lines: it pays only for a few changes.
                        let few = |since| changes.since(since).len() * len * 4 <= b.len();
                        if last.run == changes.run && few(last.scanned) {
                            let since = last.scanned;
                            self.rescan(row, &starts, d, since, &mut last.matches, &mut kept.marks);
                        } else {
                            last.matches.clear();
                            let matches = &mut last.matches;
                            by_strides!(self.scan_row(row, &needs, &starts, d, matches));
                            last.run = changes.run;
                        }
                        last.scanned = changes.now();
                        found.extend_from_slice(&last.matches);
                    }
                    None => by_strides!(self.scan_row(row, &needs, &starts, d, found)),
                }
            }
            if found.len() == before {
                return false;
            }
            out.ends.push(found.len());
        }
        true
    }
}

/// What a line of the board (a row or a column) must hold for a rule row
/// to match in it: every object and movement the row requires, and an
/// object of each of its properties. A line's masks are the OR of its
/// cells (or more), so a line that fails this holds no match.
struct Needs<'r> {
    objects: &'r [u32],
    moves: &'r [u32],
    /// The masks of the row's properties, `so` words each.
    any_of: &'r [u32],
}

impl Needs<'_> {
    /// Whether a line with these masks, `so` and `sm` words, could hold a match.
    #[inline(always)]
    fn could_hold(&self, so: usize, sm: usize, objects: &[u32], moves: &[u32]) -> bool {
        bits::within(&self.objects[..so], objects)
            && bits::within(&self.moves[..sm], moves)
            && self.any_of.chunks_exact(so).all(|m| bits::any(m, objects))
    }
}

/// The cells at which a row of a rule may start: those that keep all of it
/// on the board.
pub(super) struct Starts {
    pub(super) x: std::ops::Range<usize>,
    pub(super) y: std::ops::Range<usize>,
    pub(super) horizontal: bool,
}

impl Starts {
    /// Where a start comes in a scan: a horizontal rule's go row by row, a
    /// vertical rule's column by column.
    pub(super) fn order(&self, x: usize, y: usize, width: usize, height: usize) -> usize {
        if self.horizontal {
            y * width + x
        } else {
            x * height + y
        }
    }

    /// The start that comes at `order` in a scan.
    pub(super) fn start(&self, order: usize, width: usize, height: usize) -> usize {
        if self.horizontal {
            (order % width) * height + order / width
        } else {
            order
        }
    }
}

/// Every row's matches of one rule, back to back: row `r`'s end at `ends[r]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Matches {
    pub(super) all: Vec<Match>,
    pub(super) ends: Vec<usize>,
}

impl Matches {
    /// Row `r`'s matches.
    pub(super) fn row(&self, r: usize) -> &[Match] {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        &self.all[start..self.ends[r]]
    }
}

/// Where one row of a rule matched: its first cell and its ellipses' gaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Match {
    pub(super) start: usize,
    pub(super) gaps: [usize; 2],
}
