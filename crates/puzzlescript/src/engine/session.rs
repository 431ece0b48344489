//! The session: levels loaded, undone and restarted.

use super::turn::Turn;
use super::{Board, Engine, Mode, Scratchpad, Session};
use crate::command::Commands;
use crate::compile::{Game, LevelData};
use crate::rng::Rng;

impl<'g> Engine<'g> {
    /// [`Engine::load`], with `track` for [`Engine::load_tracking`].
    pub(super) fn load_with(
        game: &'g Game,
        index: usize,
        seed: &str,
        mode: Mode,
        track: bool,
    ) -> Option<Engine<'g>> {
        let grid = match game.levels.get(index)? {
            LevelData::Grid(g) => g,
            LevelData::Message(_) => game.levels.iter().find_map(|l| match l {
                LevelData::Grid(g) => Some(g),
                _ => None,
            })?,
        };
        let board = Board::new(game, grid);
        let mut e = Engine {
            game,
            s: Session {
                restart_target: board.objects.clone(),
                board,
                queue: Commands::default(),
                rng: Rng::new(seed),
                backups: Vec::new(),
                againing: false,
                winning: false,
                text_mode: false,
                level_index: index,
                restarting: false,
                left_start: false,
                sfx_create: vec![0; game.stride_obj],
                sfx_destroy: vec![0; game.stride_obj],
                can_move: Vec::new(),
                cant_move: Vec::new(),
                sounds: Vec::new(),
                mode,
                scratch: Scratchpad::default(),
                finished: false,
                fired: if track {
                    let last = game.rule_lines.iter().map(|rule| rule.line).max();
                    vec![false; last.map_or(0, |last| last + 1)]
                } else {
                    Vec::new()
                },
            },
        };
        e.load_level(index, Some(seed));
        e.s.sounds.clear();
        Some(e)
    }

    /// Loads level `index`, and runs its level-start turn if the prelude
    /// asks for one; `seed` is the random generator's, `None` after a win.
    pub(super) fn load_level(&mut self, index: usize, seed: Option<&str>) {
        self.s.level_index = index;
        // A level loaded after a win gets a seed of its own, fixed so that
        // runs repeat (upstream takes one from the clock).
        self.s.rng = Rng::new(seed.unwrap_or("puzzle-qa"));
        self.s.againing = false;
        match &self.game.levels[index] {
            LevelData::Message(_) => {
                self.s.text_mode = true;
            }
            LevelData::Grid(g) => {
                self.s.text_mode = false;
                let board = Board::new(self.game, g);
                let old = std::mem::replace(&mut self.s.board, board);
                self.s.board.revise_after(&old);
                self.s.backups.clear();
                self.s.restart_target = self.s.board.objects.clone();
                if self.game.prelude.run_rules_on_level_start {
                    self.process(None, Turn::LevelStart);
                }
            }
        }
    }

    /// Pushes a copy of `level` on the undo stack (a solver keeps none).
    pub(super) fn push_backup(&mut self, level: &[u32]) {
        if self.s.mode.records() {
            self.s.backups.push(level.to_vec());
        }
    }

    /// Puts the level back as `objects` with nothing pending: no movement,
    /// no again turn, no command.
    pub(super) fn restore(&mut self, objects: &[u32]) {
        self.s.board.restore(objects);
        self.s.againing = false;
        self.s.queue.clear();
    }

    /// Goes back to the last backup that differs from the level. `force`:
    /// for a restart a rule asked for, which `noundo` does not stop.
    pub(super) fn do_undo(&mut self, force: bool) {
        if self.game.prelude.noundo && !force {
            return;
        }
        while self
            .s
            .backups
            .last()
            .is_some_and(|b| *b == self.s.board.objects)
        {
            self.s.backups.pop();
        }
        if let Some(top) = self.s.backups.pop() {
            self.restore(&top);
        }
    }

    /// Goes back to the restart target. `force`: a rule asked for it,
    /// which `norestart` does not stop, and which keeps no backup itself
    /// (the turn does).
    pub(super) fn do_restart(&mut self, force: bool) {
        if self.s.restarting {
            return;
        }
        if !force && self.game.prelude.norestart {
            return;
        }
        if self.s.againing {
            self.do_undo(force);
        }
        self.s.restarting = true;
        if !force {
            let level = std::mem::take(&mut self.s.board.objects);
            self.push_backup(&level);
            self.s.board.objects = level;
        }
        let target = std::mem::take(&mut self.s.restart_target);
        self.restore(&target);
        self.s.restart_target = target;
        if self.game.prelude.run_rules_on_level_start {
            self.process(None, Turn::LevelStart);
        }
        self.s.queue.clear();
        self.s.restarting = false;
    }

    /// Loads the level after this one, or ends the game after the last.
    pub(super) fn next_level(&mut self) {
        self.s.againing = false;
        if self.s.level_index + 1 < self.game.levels.len() {
            self.load_level(self.s.level_index + 1, None);
        } else {
            self.s.finished = true;
            self.s.text_mode = true;
        }
    }
}
