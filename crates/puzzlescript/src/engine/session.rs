//! The session: levels loaded, won, undone and restarted.

use super::turn::Turn;
use super::{Board, Engine};
use crate::compile::LevelData;
use crate::rng::Rng;

impl Engine<'_> {
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
                self.s.board = Board::new(self.game, g);
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

    pub(super) fn restore(&mut self, objects: &[u32]) {
        self.s.board.restore(objects);
        self.s.againing = false;
        self.s.queue.clear();
    }

    pub(super) fn do_undo(&mut self, force: bool, ignore_duplicates: bool) {
        if self.game.prelude.noundo && !force {
            return;
        }
        if ignore_duplicates {
            while self
                .s
                .backups
                .last()
                .is_some_and(|b| *b == self.s.board.objects)
            {
                self.s.backups.pop();
            }
        }
        if let Some(top) = self.s.backups.pop() {
            self.restore(&top);
        }
    }

    pub(super) fn do_restart(&mut self, force: bool) {
        if self.s.restarting {
            return;
        }
        if !force && self.game.prelude.norestart {
            return;
        }
        if self.s.againing {
            self.do_undo(force, true);
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
