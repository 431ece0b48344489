//! The win: a rule's `win`, or the win conditions holding, and what a win
//! does in each [`Mode`].

use super::board::words;
use super::{Engine, Mode};
use crate::bits;
use crate::command::Command;
use crate::compile::{Quantifier, WinCondition};

impl Engine<'_> {
    /// Wins the level if a rule said so, or if its conditions hold.
    pub(super) fn check_win(&mut self) {
        if self.s.queue.contains(Command::Win)
            || !self.game.win_conditions.is_empty() && self.conditions_hold()
        {
            self.do_win();
        }
    }

    /// Whether every win condition holds on the board, as a turn ends
    /// (the board's masks name every object it holds).
    fn conditions_hold(&self) -> bool {
        // A game of one or two words of objects a cell has them counted
        // at compile time, as the matcher does.
        match self.game.stride_obj {
            1 => self.conditions_hold_of::<1>(),
            2 => self.conditions_hold_of::<2>(),
            _ => self.conditions_hold_of::<0>(),
        }
    }

    /// [`Engine::conditions_hold`] for `SO` words of objects a cell (0: as
    /// the game has).
    fn conditions_hold_of<const SO: usize>(&self) -> bool {
        let holders = &self.s.board.holders;
        if SO == 1 && holders.valid() {
            let there = self.s.board.objects_there();
            // A board of a few words of cells, read as arrays of them.
            match holders.words() {
                1 => return self.conditions_hold_by_holders::<1>(there),
                2 => return self.conditions_hold_by_holders::<2>(there),
                3 => return self.conditions_hold_by_holders::<3>(there),
                4 => return self.conditions_hold_by_holders::<4>(there),
                _ => {}
            }
            // Word by word: the first word with such a cell settles it.
            return self.conditions_hold_by(|w, a, b| {
                (0..holders.words()).any(|k| {
                    let with_a = holders.cells_with(a, w.a_all, k, there);
                    with_a != 0 && meeting(w, with_a, holders.cells_with(b, w.b_all, k, there)) != 0
                })
            });
        }
        self.game
            .win_conditions
            .iter()
            .all(|w| self.condition_holds_by_cells_of::<SO>(w))
    }

    /// [`Engine::conditions_hold`] from the holders of a board of `W`
    /// words of cells (one word of objects a cell), where no cell holds
    /// an object outside `there`.
    fn conditions_hold_by_holders<const W: usize>(&self, there: u32) -> bool {
        let objects = self.s.board.holders.by_object::<W>();
        self.conditions_hold_by(|w, a, b| {
            let with_a = cells_holding::<W>(objects, a, w.a_all, there);
            with_a.iter().any(|&cells| cells != 0) && {
                let with_b = cells_holding::<W>(objects, b, w.b_all, there);
                with_a
                    .iter()
                    .zip(with_b)
                    .any(|(&a, b)| meeting(w, a, b) != 0)
            }
        })
    }

    /// Whether every win condition holds, told by the holders: `met(w, a,
    /// b)` says whether some cell holds `a` (the first words of `w.a`) with
    /// `b` (or, for `All`, without it). A condition with an empty mask goes
    /// cell by cell, which says what it means.
    #[inline(always)]
    fn conditions_hold_by(&self, met: impl Fn(&WinCondition, u32, u32) -> bool) -> bool {
        self.game.win_conditions.iter().all(|w| {
            let (a, b) = (w.a[0], w.b[0]);
            if a == 0 || b == 0 {
                return self.condition_holds_by_cells(w);
            }
            let met = met(w, a, b);
            match w.quantifier {
                Quantifier::Some => met,
                Quantifier::No | Quantifier::All => !met,
            }
        })
    }

    /// Whether a win condition holds, cell by cell.
    fn condition_holds_by_cells(&self, w: &WinCondition) -> bool {
        match self.game.stride_obj {
            1 => self.condition_holds_by_cells_of::<1>(w),
            2 => self.condition_holds_by_cells_of::<2>(w),
            _ => self.condition_holds_by_cells_of::<0>(w),
        }
    }

    /// [`Engine::condition_holds_by_cells`] for `SO` words a cell.
    fn condition_holds_by_cells_of<const SO: usize>(&self, w: &WinCondition) -> bool {
        let so = words::<SO>(self.game.stride_obj);
        let cells = || self.s.board.objects.chunks_exact(so);
        {
            let (a, b) = (&w.a[..so], &w.b[..so]);
            let f1 = |c: &[u32]| {
                if w.a_all {
                    bits::within(a, c)
                } else {
                    bits::any(a, c)
                }
            };
            let f2 = |c: &[u32]| {
                if w.b_all {
                    bits::within(b, c)
                } else {
                    bits::any(b, c)
                }
            };
            match w.quantifier {
                Quantifier::No => !cells().any(|c| f1(c) && f2(c)),
                Quantifier::Some => cells().any(|c| f1(c) && f2(c)),
                Quantifier::All => !cells().any(|c| f1(c) && !f2(c)),
            }
        }
    }

    /// A win: the engine stops as a solver wants, or the next level loads
    /// as the runner plays.
    fn do_win(&mut self) {
        if self.s.winning {
            return;
        }
        self.s.againing = false;
        match self.s.mode {
            Mode::Solver => self.s.winning = true,
            Mode::Runner => self.next_level(),
        }
    }
}

/// The cells holding every object of `mask` (`all`) or one of them, `W`
/// words, from each object's cells; no cell holds an object outside
/// `there`. `mask` is not empty.
#[inline(always)]
fn cells_holding<const W: usize>(
    objects: &[[u64; W]],
    mask: u32,
    all: bool,
    there: u32,
) -> [u64; W] {
    if all {
        if mask & !there != 0 {
            return [0; W];
        }
        let mut cells = [u64::MAX; W];
        for id in bits::ones_of_word(mask) {
            for (c, h) in cells.iter_mut().zip(objects[id]) {
                *c &= h;
            }
        }
        cells
    } else {
        let mut cells = [0; W];
        for id in bits::ones_of_word(mask & there) {
            for (c, h) in cells.iter_mut().zip(objects[id]) {
                *c |= h;
            }
        }
        cells
    }
}

/// The cells of a word that settle `w`: those holding its `a` objects
/// (`with_a`) with its `b` objects (`with_b`), or without them for `All`.
#[inline(always)]
fn meeting(w: &WinCondition, with_a: u64, with_b: u64) -> u64 {
    match w.quantifier {
        Quantifier::No | Quantifier::Some => with_a & with_b,
        Quantifier::All => with_a & !with_b,
    }
}
