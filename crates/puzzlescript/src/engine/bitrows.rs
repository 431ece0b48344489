//! A rule row matched over the whole board at once: per cell of the row, a
//! bitmap of the board's cells whose objects pass its test, read from the
//! holders (`holders.rs`); the row's starts are those bitmaps, each shifted
//! back by its cell's place in the row along the rule's direction, ANDed.
//! Where a cell also tests movements the bitmaps say only where it may
//! match, and each start they leave is tried cell by cell.
//!
//! A rule's sieve (`compile/sieve.rs`) computes the same starts: those of
//! the last sieve that passed are kept ([`Sifted`]), and matching that
//! rule on the same board starts from them.

use super::Engine;
use super::holders::Holders;
use super::matching::{Match, Starts};
use crate::bits::ones_of_word;
use crate::compile::{CellPattern, Rule, SieveCell, Slot};

/// The most words of cells (64 cells a word) a board may take to be
/// matched this way: the bitmaps live on the stack.
pub(super) const BIT_WORDS: usize = 8;

/// The most rows of a rule whose starts are kept ([`Sifted`]).
const SIFTED_ROWS: usize = 4;

/// The starts of each row of the rule whose sieve last passed (a rule of
/// up to [`SIFTED_ROWS`] rows), as the board was at `revision`
/// (`Board::revision`). Only a rule without ellipses has a sieve, so a
/// row's starts are those [`Engine::scan_row_bits`] would compute.
#[derive(Clone, Debug, Default)]
pub(super) struct Sifted {
    /// The rule's `first_row`, plus one (0: none).
    rule: usize,
    revision: u64,
    rows: [[u64; BIT_WORDS]; SIFTED_ROWS],
}

impl Sifted {
    /// Row `r`'s starts, `words` words, if they are kept for `rule` on the
    /// board at `revision`.
    #[inline(always)]
    pub(super) fn row(&self, rule: &Rule, revision: u64, r: usize, words: usize) -> Option<&[u64]> {
        (self.rule == rule.first_row + 1 && self.revision == revision)
            .then(|| &self.rows[r][..words])
    }
}

impl Engine<'_> {
    /// Whether a row without ellipses is matched by [`Engine::scan_row_bits`]
    /// on this board: a game of one word of objects a cell, the holders
    /// kept and up to date, a board of at most [`BIT_WORDS`] words.
    #[inline(always)]
    pub(super) fn rows_by_bits(&self) -> bool {
        let h = &self.s.board.holders;
        self.game.stride_obj == 1
            && h.valid()
            && h.words() <= BIT_WORDS
            && !self.s.scratch.cell_by_cell
    }

    /// Every match of a row without ellipses, in scan order, as
    /// [`Engine::scan_row`] finds them; only where
    /// [`Engine::rows_by_bits`] holds.
    /// `sifted`: the row's starts as its rule's sieve found them on the
    /// board as it is ([`Sifted`]), if it did.
    pub(super) fn scan_row_bits(
        &self,
        row: &[Slot],
        starts: &Starts,
        d: isize,
        sifted: Option<&[u64]>,
        found: &mut Vec<Match>,
    ) {
        match self.s.board.holders.words() {
            1 => self.scan_row_words::<1>(row, starts, d, sifted, found),
            2 => self.scan_row_words::<2>(row, starts, d, sifted, found),
            3 => self.scan_row_words::<3>(row, starts, d, sifted, found),
            4 => self.scan_row_words::<4>(row, starts, d, sifted, found),
            5 => self.scan_row_words::<5>(row, starts, d, sifted, found),
            6 => self.scan_row_words::<6>(row, starts, d, sifted, found),
            7 => self.scan_row_words::<7>(row, starts, d, sifted, found),
            _ => self.scan_row_words::<BIT_WORDS>(row, starts, d, sifted, found),
        }
    }

    /// [`Engine::scan_row_bits`] on a board of `W` words of cells.
    fn scan_row_words<const W: usize>(
        &self,
        row: &[Slot],
        starts: &Starts,
        d: isize,
        sifted: Option<&[u64]>,
        found: &mut Vec<Match>,
    ) {
        let b = &self.s.board;
        let mut at = [u64::MAX; W];
        let mut moves = false;
        if let Some(sifted) = sifted.and_then(|words| <[u64; W]>::try_from(words).ok()) {
            at = sifted;
            moves = row
                .iter()
                .any(|slot| matches!(slot, Slot::Cell(p) if p.tests_moves));
        } else {
            let there = b.objects_there();
            for (k, slot) in row.iter().enumerate() {
                let Slot::Cell(p) = slot else { return };
                moves |= p.tests_moves;
                let cells = passing::<W>(&b.holders, there, p);
                // Start `i` needs this cell's test at `i + k * d`.
                let by = k as isize * d;
                let mut any = 0;
                for (w, at) in at.iter_mut().enumerate() {
                    *at &= shifted(&cells, by, w);
                    any |= *at;
                }
                if any == 0 {
                    return;
                }
            }
        }
        let before = found.len();
        for (w, &word) in at.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i >= b.len() {
                    break;
                }
                // A start whose row would leave the board (or, for a
                // vertical row, wrap into the next column) is no start.
                let (x, y) = b.xy(i);
                if starts.x.contains(&x)
                    && starts.y.contains(&y)
                    && (!moves || self.row_matches(row, i, d))
                {
                    found.push(Match {
                        start: i,
                        gaps: [0, 0],
                    });
                }
            }
        }
        // Found by cell (column by column); a horizontal row's scan goes
        // row by row: a few starts are sorted into that order, more are
        // put in it a bit each.
        let n = found.len() - before;
        if starts.horizontal && (2..=4).contains(&n) {
            found[before..].sort_unstable_by_key(|m| {
                let (x, y) = b.xy(m.start);
                y * b.width + x
            });
        } else if starts.horizontal && n > 4 {
            let mut by_rows = [0u64; W];
            for m in &found[before..] {
                let (x, y) = b.xy(m.start);
                let order = y * b.width + x;
                by_rows[order / 64] |= 1 << (order % 64);
            }
            found.truncate(before);
            for (w, &word) in by_rows.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let order = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    found.push(Match {
                        start: starts.start(order, b.width, b.height),
                        gaps: [0, 0],
                    });
                }
            }
        }
    }
}

impl Engine<'_> {
    /// Whether `rule`'s sieve (`compile/sieve.rs`) lets it through on the
    /// board as it is. False: some row has no start whose cells hold the
    /// objects it asks, so the rule matches nowhere. True where it has no
    /// sieve or the rows do not go by bits ([`Engine::rows_by_bits`]);
    /// true may also be wrong (movements are not looked at, and a vertical
    /// row's start may seem to wrap into the next column): the matcher
    /// settles what passes.
    /// Where it passes, the starts it found are kept ([`Sifted`]).
    #[inline]
    pub(super) fn sifts(&mut self, rule: &Rule) -> bool {
        let Some(sieve) = &rule.sieve else {
            return true;
        };
        if !self.rows_by_bits() {
            return true;
        }
        let b = &self.s.board;
        let holders = &b.holders;
        let d = sieve.step[0] * b.height as isize + sieve.step[1];
        let cells = &sieve.cells[..];
        let there = b.objects_there();
        let kept = &mut self.s.scratch.sifted;
        let rows = &mut kept.rows;
        let fits = rule.rows.len() <= SIFTED_ROWS;
        let passed = match holders.words() {
            1 => sift::<1>(holders, there, cells, d, rows),
            2 => sift::<2>(holders, there, cells, d, rows),
            3 => sift::<3>(holders, there, cells, d, rows),
            4 => sift::<4>(holders, there, cells, d, rows),
            5 => sift::<5>(holders, there, cells, d, rows),
            6 => sift::<6>(holders, there, cells, d, rows),
            7 => sift::<7>(holders, there, cells, d, rows),
            _ => sift::<BIT_WORDS>(holders, there, cells, d, rows),
        };
        kept.rule = if passed && fits {
            rule.first_row + 1
        } else {
            0
        };
        kept.revision = b.revision;
        passed
    }
}

/// [`Engine::sifts`] on a board of `W` words of cells, rows `d` cells
/// apart a step: false when a row's cells, each shifted back by its place,
/// leave no start; else true, with each row's starts in `rows`.
#[inline(always)]
fn sift<const W: usize>(
    holders: &Holders,
    there: u32,
    cells: &[SieveCell],
    d: isize,
    rows: &mut [[u64; BIT_WORDS]; SIFTED_ROWS],
) -> bool {
    let mut at = [u64::MAX; W];
    // The row whose starts `at` holds.
    let mut r = 0;
    for (n, c) in cells.iter().enumerate() {
        if c.place == 0 && n > 0 {
            if let Some(row) = rows.get_mut(r) {
                row[..W].copy_from_slice(&at);
            }
            r += 1;
            at = [u64::MAX; W];
        }
        let pass = holding::<W>(holders, there, c.present, c.absent, c.properties());
        let by = c.place as isize * d;
        let mut left = 0;
        for (w, at) in at.iter_mut().enumerate() {
            *at &= shifted(&pass, by, w);
            left |= *at;
        }
        if left == 0 {
            return false;
        }
    }
    if let Some(row) = rows.get_mut(r) {
        row[..W].copy_from_slice(&at);
    }
    true
}

/// The cells whose objects pass `p`'s test, `W` words: every object it
/// requires, none it forbids, one of each of its properties (one word of
/// objects a cell), where no cell holds an object outside `there`. Bits
/// past the board's last cell may be set.
#[inline(always)]
pub(super) fn passing<const W: usize>(holders: &Holders, there: u32, p: &CellPattern) -> [u64; W] {
    let present = p.present[0];
    let absent = p.objects_seen[0] & !present;
    holding::<W>(holders, there, present, absent, &p.any_of)
}

/// The cells that hold every object of `present`, none of `absent`, and
/// one of each of `any_of`'s properties, `W` words (one word of objects a
/// cell), where no cell holds an object outside `there`: only those are
/// looked up. Bits past the board's last cell may be set.
#[inline(always)]
fn holding<const W: usize>(
    holders: &Holders,
    there: u32,
    present: u32,
    absent: u32,
    any_of: &[u32],
) -> [u64; W] {
    if present & !there != 0 {
        return [0; W];
    }
    let objects = holders.by_object::<W>();
    let mut cells = [u64::MAX; W];
    for id in ones_of_word(present) {
        for (c, h) in cells.iter_mut().zip(objects[id]) {
            *c &= h;
        }
    }
    for id in ones_of_word(absent & there) {
        for (c, h) in cells.iter_mut().zip(objects[id]) {
            *c &= !h;
        }
    }
    for &property in any_of {
        let mut any = [0; W];
        for id in ones_of_word(property & there) {
            for (a, h) in any.iter_mut().zip(objects[id]) {
                *a |= h;
            }
        }
        for (c, a) in cells.iter_mut().zip(any) {
            *c &= a;
        }
    }
    cells
}

/// Word `w` of `cells` moved `by` cells down: bit `i` of the result is bit
/// `i + by` of `cells` (0 off its words).
#[inline(always)]
pub(super) fn shifted<const W: usize>(cells: &[u64; W], by: isize, w: usize) -> u64 {
    let word = |k: isize| {
        if k >= 0 && (k as usize) < W {
            cells[k as usize]
        } else {
            0
        }
    };
    let (q, r) = (by.div_euclid(64), by.rem_euclid(64) as u32);
    let w = w as isize + q;
    if r == 0 {
        word(w)
    } else {
        (word(w) >> r) | (word(w + 1) << (64 - r))
    }
}

#[cfg(test)]
mod tests {
    use super::shifted;
    use crate::compile::LevelData;
    use crate::engine::Engine;
    use crate::engine::holders::tests::{games, next, random_input, walk};
    use crate::engine::matching::Matches;

    /// Every rule's matches on the board as it is, by bits where the board
    /// allows (false if it does not) and cell by cell: the same, in the
    /// same order. Returns how many rows matched somewhere.
    fn same_matches(engine: &mut Engine<'_>, what: &str) -> Option<usize> {
        engine.s.scratch.cell_by_cell = false;
        if !engine.rows_by_bits() {
            return None;
        }
        let game = engine.game;
        let (mut bits, mut cells) = (Matches::default(), Matches::default());
        let mut rows = 0;
        for rule in game
            .rules
            .iter()
            .chain(&game.late_rules)
            .flat_map(|g| &g.rules)
        {
            engine.s.scratch.cell_by_cell = false;
            let by_bits = engine.find_matches(rule, &mut bits, None);
            engine.s.scratch.cell_by_cell = true;
            let by_cells = engine.find_matches(rule, &mut cells, None);
            engine.s.scratch.cell_by_cell = false;
            assert_eq!(by_bits, by_cells, "{what}, rule line {}", rule.line);
            if by_cells {
                assert_eq!(bits.all, cells.all, "{what}, rule line {}", rule.line);
                assert_eq!(bits.ends, cells.ends, "{what}, rule line {}", rule.line);
                rows += cells.ends.len();
            }
        }
        Some(rows)
    }

    /// Every grid level of every game played from random inputs (`seed`
    /// and the level's index) for `turns` turns; after each, `each` gets
    /// the engine, its masks as a turn's rules see them, and a copy with
    /// movements put in its cells at random, its masks widened as a write
    /// widens them, and says where it is.
    fn after_random_turns(
        seed: u64,
        turns: usize,
        mut each: impl for<'g> FnMut(&mut Engine<'g>, &mut Engine<'g>, &str),
    ) {
        for text in games() {
            let Ok((game, _)) = crate::load(&text) else {
                continue;
            };
            for (index, level) in game.levels().iter().enumerate() {
                if !matches!(level, LevelData::Grid(_)) {
                    continue;
                }
                let Some(mut engine) =
                    Engine::load(&game, index, "bits", crate::engine::Mode::Solver)
                else {
                    continue;
                };
                let mut rng = seed ^ index as u64;
                for turn in 0..turns {
                    walk(&mut engine, random_input(&mut rng), turn, 30);
                    // A turn that ends by putting a board back leaves its
                    // masks to the next.
                    engine.s.board.compute_masks(false);
                    let mut probe = Engine {
                        game: engine.game,
                        s: engine.s.clone(),
                    };
                    let b = &mut probe.s.board;
                    for i in 0..b.len() {
                        if next(&mut rng).is_multiple_of(3) {
                            for m in b.moves_mut(i) {
                                *m = next(&mut rng) as u32;
                            }
                            b.widen_moves(i);
                        }
                    }
                    let what = format!("level {index}, turn {turn}");
                    each(&mut engine, &mut probe, &what);
                }
            }
        }
    }

    /// Every level of every game played from random inputs; after every
    /// turn, and again with random movements put in the cells, every
    /// rule's matches found by bits are those found cell by cell, in the
    /// same order.
    #[test]
    fn bits_find_what_matching_cell_by_cell_finds() {
        let (mut boards, mut matched, mut moving) = (0, 0, 0);
        after_random_turns(0x9e37_79b9_7f4a_7c15, 60, |engine, probe, what| {
            let Some(rows) = same_matches(engine, what) else {
                return;
            };
            boards += 1;
            matched += rows;
            moving += same_matches(probe, &format!("{what}, moving")).unwrap_or(0);
        });
        eprintln!("{boards} boards, {matched} rows matched, {moving} with movements");
        // The fixture games alone (a plain `cargo test`) give a few
        // hundred of each; the example games, thousands.
        assert!(boards > 200, "{boards} boards matched by bits");
        assert!(matched > 200, "{matched} rows matched on them");
        assert!(moving > 200, "{moving} rows matched with movements");
    }

    /// Every level of every game played from random inputs; after every
    /// turn, and again with random movements put in the cells, no rule
    /// that matches (cell by cell) is turned away by its sieve, and some
    /// that do not are.
    #[test]
    fn a_sieve_never_turns_away_a_rule_that_matches() {
        let (mut asked, mut turned_away) = (0, 0);
        let mut found = Matches::default();
        after_random_turns(0x5851_f42d_4c95_7f2d, 40, |engine, probe, what| {
            for e in [engine, probe] {
                if !e.rows_by_bits() {
                    continue;
                }
                let game = e.game;
                let rules = game.rules.iter().chain(&game.late_rules);
                for rule in rules.flat_map(|g| &g.rules) {
                    if rule.sieve.is_none() {
                        continue;
                    }
                    let sifts = e.sifts(rule);
                    e.s.scratch.cell_by_cell = true;
                    let matched = e.find_matches(rule, &mut found, None);
                    e.s.scratch.cell_by_cell = false;
                    assert!(
                        sifts || !matched,
                        "{what}: rule line {} matches, but its sieve turned it away",
                        rule.line
                    );
                    asked += 1;
                    turned_away += usize::from(!sifts);
                }
            }
        });
        eprintln!("{asked} rules asked, {turned_away} turned away by their sieves");
        assert!(turned_away > 200, "{turned_away} of {asked} turned away");
    }

    /// Every level of every game played from one stream of random inputs
    /// by two engines, one matching rows by bits where it can, the other
    /// cell by cell: after every turn the same level, the same win.
    #[test]
    fn bits_play_as_matching_cell_by_cell_plays() {
        let mut levels = 0;
        for text in games() {
            let Ok((game, _)) = crate::load(&text) else {
                continue;
            };
            for (index, level) in game.levels().iter().enumerate() {
                if !matches!(level, LevelData::Grid(_)) {
                    continue;
                }
                let (Some(mut bits), Some(mut cells)) = (
                    Engine::load(&game, index, "bits", crate::engine::Mode::Solver),
                    Engine::load(&game, index, "bits", crate::engine::Mode::Solver),
                ) else {
                    continue;
                };
                cells.s.scratch.cell_by_cell = true;
                levels += 1;
                let mut rng = 0x2545_f491_4f6c_dd1du64 ^ index as u64;
                for turn in 0..200 {
                    let input = random_input(&mut rng);
                    for engine in [&mut bits, &mut cells] {
                        walk(engine, input, turn, 50);
                    }
                    let what = format!("level {index}, turn {turn}");
                    assert_eq!(bits.level_string(), cells.level_string(), "{what}");
                    assert_eq!(bits.won(), cells.won(), "{what}");
                }
            }
        }
        assert!(levels > 10, "{levels} levels played");
    }

    /// A shift by any amount, either way, moves every bit to its place.
    #[test]
    fn shifted_moves_each_bit_by_the_amount() {
        const WORDS: usize = 3;
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut cells = [0u64; WORDS];
            for c in cells.iter_mut() {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *c = rng;
            }
            for by in -150isize..150 {
                for i in 0..64 * WORDS {
                    let got = shifted(&cells, by, i / 64) >> (i % 64) & 1;
                    let from = i as isize + by;
                    let want = if (0..(64 * WORDS) as isize).contains(&from) {
                        cells[from as usize / 64] >> (from % 64) & 1
                    } else {
                        0
                    };
                    assert_eq!(got, want, "bit {i} moved by {by}");
                }
            }
        }
    }
}
