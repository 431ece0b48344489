//! The win: a rule's `win`, or the win conditions holding, and what a win
//! does in each [`Mode`].

use super::board::words;
use super::{Engine, Mode};
use crate::bits;
use crate::command::Command;
use crate::compile::Quantifier;

impl Engine<'_> {
    /// Wins the level if a rule said so, or if its conditions hold.
    pub(super) fn check_win(&mut self) {
        if self.s.queue.contains(Command::Win)
            || !self.game.win_conditions.is_empty() && self.conditions_hold()
        {
            self.do_win();
        }
    }

    /// Whether every win condition holds on the board.
    pub fn conditions_hold(&self) -> bool {
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
        let so = words::<SO>(self.game.stride_obj);
        let cells = || self.s.board.objects.chunks_exact(so);
        self.game.win_conditions.iter().all(|w| {
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
        })
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
