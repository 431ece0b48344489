//! Matches that would write nothing, passed over.
//!
//! A rule that floods the board (`[boom | no player] -> [boom | boom]`)
//! matches mostly where its writes change nothing: the cells already hold
//! what it writes. The official engine visits every match in scan order,
//! checks again each one a cell of which an earlier match has changed, and
//! writes it. A match whose writes would change nothing when the rule
//! scanned, and no cell of which changes before its turn, changes nothing
//! at its turn either: it may be passed over unvisited. Such a match is
//! dormant here. When an earlier match's write changes one of its cells it
//! wakes, and is visited in its place, as the official engine visits it:
//! checked again, then written. The writes, their order, the changes
//! recorded and the sounds are the official engine's.
//!
//! This takes the rules of one plain row ([`Rule::plain_clears`]) on
//! boards matched by bits (`bitrows.rs`): alongside the starts where the
//! row matches, the holders tell the starts where a cell's write would
//! change its objects. No write sets a movement, and where the board's
//! masks hold none of the movements the writes clear, none clears one.

use super::Engine;
use super::bitrows::{BIT_WORDS, passing, shifted};
use super::matching::Starts;
use crate::bits::{Divisor, ones, ones_of_word};
use crate::compile::{Rule, Slot};

impl Engine<'_> {
    /// Whether `rule` is applied by [`Engine::apply_waking`] on the board
    /// as it is: a plain row, a game of one word of each a cell, rows
    /// matched by bits, no movement on the board that its writes clear,
    /// and the group's changes recorded (they tell which matches wake).
    #[inline(always)]
    pub(super) fn passes_dormant(&self, rule: &Rule) -> bool {
        let b = &self.s.board;
        rule.plain_clears
            .is_some_and(|clears| clears & b.map_moves().first().copied().unwrap_or(0) == 0)
            && self.game.single_word
            && self.rows_by_bits()
            && !self.s.scratch.visit_dormant
            && self.s.scratch.changes.recording()
    }

    /// Applies `rule`, one for which [`Engine::passes_dormant`] holds, at
    /// every match in scan order, passing over the dormant ones: `None` if
    /// it matches nowhere, else whether it changed anything.
    pub(super) fn apply_waking(&mut self, rule: &Rule) -> Option<bool> {
        match self.s.board.holders.words() {
            1 => self.apply_waking_words::<1>(rule),
            2 => self.apply_waking_words::<2>(rule),
            3 => self.apply_waking_words::<3>(rule),
            4 => self.apply_waking_words::<4>(rule),
            5 => self.apply_waking_words::<5>(rule),
            6 => self.apply_waking_words::<6>(rule),
            7 => self.apply_waking_words::<7>(rule),
            _ => self.apply_waking_words::<BIT_WORDS>(rule),
        }
    }

    /// [`Engine::apply_waking`] on a board of `W` words of cells.
    fn apply_waking_words<const W: usize>(&mut self, rule: &Rule) -> Option<bool> {
        let row = &rule.rows[0];
        let len = row.len();
        let d = self.delta(rule.direction);
        let starts = self.starts(rule.direction, len);
        let (at, live) = self.scan_waking::<W>(row, d)?;
        let b = &self.s.board;
        let shape = Shape {
            cells: b.len(),
            width: b.width,
            height: b.height,
            column: b.column(),
        };
        // The matches to visit, a bit each by place in scan order; the
        // dormant ones, by cell (some may be no start: they are told apart
        // only when one wakes).
        let mut todo = [0u64; W];
        let mut dormant = [0u64; W];
        let mut matched = false;
        for w in 0..W {
            dormant[w] = at[w] & !live[w];
            let mut bits = at[w] & live[w];
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(place) = shape.place(i, &starts) {
                    todo[place / 64] |= 1 << (place % 64);
                    matched = true;
                }
            }
        }
        if !matched && !ones(&dormant).any(|i| shape.place(i, &starts).is_some()) {
            return None;
        }
        let scanned = self.s.scratch.changes.now();
        let mut result = false;
        let mut w = 0;
        while w < W {
            if todo[w] == 0 {
                w += 1;
                continue;
            }
            let place = 64 * w + todo[w].trailing_zeros() as usize;
            todo[w] &= todo[w] - 1;
            let start = starts.start(place, shape.width, shape.height);
            let changes = &self.s.scratch.changes;
            let before = changes.now();
            // As `try_apply` checks a match: only if a cell has changed.
            let check = before != scanned && changes.covered(start, len, d, scanned);
            if !self.apply_row_single(row, start, d, check) {
                continue;
            }
            result = true;
            // The dormant matches covering a changed cell wake, if their
            // turn is still to come.
            for &cell in self.s.scratch.changes.since(before) {
                for k in 0..len as isize {
                    let s = cell.wrapping_add_signed(-k * d);
                    if s < 64 * W
                        && dormant[s / 64] >> (s % 64) & 1 == 1
                        && let Some(later) = shape.place(s, &starts)
                        && later > place
                    {
                        dormant[s / 64] &= !(1 << (s % 64));
                        todo[later / 64] |= 1 << (later % 64);
                        #[cfg(test)]
                        {
                            self.s.scratch.dormancy.woken += 1;
                        }
                    }
                }
            }
        }
        #[cfg(test)]
        {
            let passed = ones(&dormant).filter(|&i| shape.place(i, &starts).is_some());
            self.s.scratch.dormancy.passed += passed.count() as u64;
        }
        Some(result)
    }

    /// Where a plain row matches, `d` apart (`at`, as
    /// [`Engine::scan_row_bits`] finds its starts before it holds them to
    /// the board's edges), and the starts whose writes would change a
    /// cell's objects (`live`); `None` if it matches nowhere.
    #[inline(always)]
    fn scan_waking<const W: usize>(&self, row: &[Slot], d: isize) -> Option<([u64; W], [u64; W])> {
        let holders = &self.s.board.holders;
        let known = holders.known();
        let there = self.s.board.objects_there();
        let mut at = [u64::MAX; W];
        let mut live = [0u64; W];
        let mut all_live = false;
        for (k, slot) in row.iter().enumerate() {
            let Slot::Cell(p) = slot else { return None };
            let by = k as isize * d;
            let cells = passing::<W>(holders, there, p);
            let mut any = 0;
            for (w, at) in at.iter_mut().enumerate() {
                *at &= shifted(&cells, by, w);
                any |= *at;
            }
            if any == 0 {
                return None;
            }
            let Some(rep) = &p.replace else { continue };
            if all_live {
                continue;
            }
            let [clear, set, ..] = rep.first;
            let (present, absent) = (p.present[0], p.objects_seen[0] & !p.present[0]);
            // A matching cell holds what the pattern requires and lacks
            // what it forbids: the write changes it where it holds an
            // object that is cleared and not set again, or lacks one that
            // is set.
            let lost = clear & !set & !absent;
            let gained = set & !present;
            if lost & present != 0 || gained & !known != 0 {
                all_live = true;
                continue;
            }
            let mut changes = [0u64; W];
            for id in ones_of_word(lost & there) {
                for (c, h) in changes.iter_mut().zip(holders.object(id)) {
                    *c |= h;
                }
            }
            for id in ones_of_word(gained) {
                for (c, h) in changes.iter_mut().zip(holders.object(id)) {
                    *c |= !h;
                }
            }
            for (w, live) in live.iter_mut().enumerate() {
                *live |= shifted(&changes, by, w);
            }
        }
        if all_live {
            live = [u64::MAX; W];
        }
        Some((at, live))
    }
}

/// The board's size, to tell a cell's place in a row's scan.
struct Shape {
    cells: usize,
    width: usize,
    height: usize,
    /// Division by `height`.
    column: Divisor,
}

impl Shape {
    /// Cell `i`'s place in the scan, if it is one of `starts`.
    #[inline(always)]
    fn place(&self, i: usize, starts: &Starts) -> Option<usize> {
        if i >= self.cells {
            return None;
        }
        let (x, y) = self.column.split(i);
        (starts.x.contains(&x) && starts.y.contains(&y))
            .then(|| starts.order(x, y, self.width, self.height))
    }
}

/// How many dormant matches were passed over, and how many woke: counted
/// for the tests that hold this path to visiting every match.
#[cfg(test)]
#[derive(Clone, Debug, Default)]
pub(super) struct Dormancy {
    pub(super) passed: u64,
    pub(super) woken: u64,
}

#[cfg(test)]
mod tests {
    use crate::compile::LevelData;
    use crate::engine::holders::tests::{games, random_input, walk};
    use crate::engine::{Engine, Mode};

    /// A game whose writes wake dormant matches: a stone marks the cell
    /// after it and clears its own mark, so where two stones stand in a
    /// line the first match marks the second stone, whose own match, found
    /// dormant (its cells as it writes them), wakes and clears that mark.
    /// Its last rule writes nothing and plays a sound.
    const WAKING: &str = "title Waking
========
OBJECTS
========
Background
black
Target
red
Mark
yellow
Glow
white
Player
blue
Wall
grey
Stone
orange
=======
LEGEND
=======
. = Background
# = Wall
P = Player
S = Stone
T = Target
=======
SOUNDS
=======
sfx0 12345
================
COLLISIONLAYERS
================
Background
Target
Mark
Glow
Player, Wall, Stone
======
RULES
======
[ > Player | Stone ] -> [ > Player | > Stone ]
right [ Stone | ] -> [ Stone no Mark | Mark ]
down [ Stone | ] -> [ Stone no Mark | Mark ]
left [ Stone | no Wall ] -> [ Stone no Glow | Glow ]
up [ Stone | no Wall ] -> [ Stone no Glow | Glow ]
[ Glow | Mark ] -> [ Glow | Mark ] sfx0
==============
WINCONDITIONS
==============
All Target on Stone
=======
LEVELS
=======
#########
#.......#
#.SS.S..#
#.S..SS.#
#..P.S..#
#.T...T.#
#########

############
#..........#
#.SSS...S..#
#...S.P.S..#
#.T.SS..S..#
#....S.....#
#.T.....T..#
############
";

    /// Every level of every game played from one stream of random inputs
    /// by two engines, one passing dormant matches over, the other
    /// visiting every match: after every turn the same level and win; as
    /// the conformance runner plays, the same sounds, level and rule lines
    /// fired. Dormant matches must have been passed over, and some woken by
    /// an earlier match's write, for the test to tell anything.
    #[test]
    fn passing_dormant_matches_over_plays_as_visiting_them() {
        let (mut levels, mut passed, mut woken) = (0, 0, 0);
        for text in games().into_iter().chain([WAKING.to_string()]) {
            let Ok((game, _)) = crate::load(&text) else {
                continue;
            };
            for (index, level) in game.levels().iter().enumerate() {
                if !matches!(level, LevelData::Grid(_)) {
                    continue;
                }
                for mode in [Mode::Solver, Mode::Runner] {
                    let (Some(mut skipping), Some(mut visiting)) = (
                        Engine::load_tracking(&game, index, "dormant", mode),
                        Engine::load_tracking(&game, index, "dormant", mode),
                    ) else {
                        continue;
                    };
                    // The level-start turn has passed dormant matches
                    // over in both; every later turn is held to visiting.
                    visiting.s.scratch.visit_dormant = true;
                    visiting.s.scratch.dormancy = Default::default();
                    levels += 1;
                    let mut rng = 0x5851_f42d_4c95_7f2du64 ^ index as u64;
                    for turn in 0..200 {
                        let input = random_input(&mut rng);
                        for engine in [&mut skipping, &mut visiting] {
                            walk(engine, input, turn, 50);
                        }
                        let what = format!("level {index}, {mode:?}, turn {turn}");
                        let (a, b) = (&skipping, &visiting);
                        assert_eq!(a.level_string(), b.level_string(), "{what}");
                        assert_eq!(a.won(), b.won(), "{what}");
                        assert_eq!(a.level_index(), b.level_index(), "{what}");
                        assert_eq!(a.sounds(), b.sounds(), "{what}");
                        assert!(a.fired().eq(b.fired()), "{what}");
                    }
                    let counts = &skipping.s.scratch.dormancy;
                    passed += counts.passed;
                    woken += counts.woken;
                    assert_eq!(visiting.s.scratch.dormancy.passed, 0, "visiting");
                }
            }
        }
        eprintln!("{levels} levels, {passed} dormant matches passed over, {woken} woken");
        assert!(levels > 10, "{levels} levels played");
        assert!(passed > 1000, "{passed} dormant matches passed over");
        assert!(woken > 10, "{woken} dormant matches woken");
    }
}
