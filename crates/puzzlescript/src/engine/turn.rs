//! A turn: the official `processInput`, and its command queue.

use super::{Engine, Input};
use crate::bits;
use crate::command::Command;
use crate::compile::Rule;

/// What a turn is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turn {
    /// A turn of play: an input, a tick, or an again turn.
    Play,
    /// The rules run as a level starts (`run_rules_on_level_start`): the
    /// level may not be won by them.
    LevelStart,
    /// Whether an again turn would change anything: nothing it does is
    /// kept (upstream's `dontModify`), and it wins nothing.
    AgainProbe,
}

impl Engine<'_> {
    /// The official `processInput`. Returns whether the level changed (or,
    /// for an again probe, whether an again turn would do anything).
    pub(super) fn process(&mut self, input: Option<Input>, turn: Turn) -> bool {
        self.s.againing = false;
        // The masks are taken before the players move; moving them widens
        // the movement masks as it goes, so they end as upstream's.
        self.s
            .board
            .compute_masks(input.is_some() && turn == Turn::Play);
        // The objects as the turn starts, its backup: those the masks were
        // just made from, lent by the board. A turn can nest another (a
        // restart reruns the level-start turn, an again is probed), so
        // what stands in for them comes from a pool, not a field.
        let mut bak = self.s.scratch.levels.pop().unwrap_or_default();
        let lent = self.s.board.lend_start(&mut bak);
        // Where no write has been made by the turn's end, the objects are
        // still `bak`, with no need to compare them.
        let revision = self.s.board.revision;
        let mut players = std::mem::take(&mut self.s.scratch.players);
        players.clear();
        if let Some(input) = input {
            self.player_positions(&mut players);
            for &p in &players {
                self.move_entities(p, input.bit());
            }
        }
        let game = self.game;
        // Only a rigid body undoes a turn's rules: only then are the
        // movements kept and the groups banned counted. The objects are
        // still `bak`'s (the players' movements touched none).
        let mut banned = std::mem::take(&mut self.s.scratch.banned);
        banned.clear();
        let mut start_moves = std::mem::take(&mut self.s.scratch.start_moves);
        start_moves.clear();
        if game.rigid {
            banned.resize(game.rules.len(), false);
            start_moves.extend_from_slice(&self.s.board.movements);
        }
        self.s.queue.clear();
        self.clear_sfx();
        self.s.can_move.clear();
        self.s.cant_move.clear();
        let mut rounds = 0;
        loop {
            rounds += 1;
            let bans = game.rigid.then_some(&banned[..]);
            self.apply_rules(&game.rules, &game.loop_point, bans);
            let undo = self.resolve_movements(&mut banned);
            if undo {
                self.s.board.rewind(&bak, &start_moves);
                self.s.queue.clear();
                self.clear_sfx();
                // Can't-move sounds are kept through the retry, as upstream.
                self.s.can_move.clear();
                if rounds < 50 {
                    continue;
                }
            } else {
                self.apply_rules(&game.late_rules, &game.late_loop_point, None);
            }
            break;
        }
        self.s.scratch.banned = banned;
        self.s.scratch.start_moves = start_moves;

        let still = !players.is_empty()
            && game.prelude.require_player_movement
            && !players
                .iter()
                .any(|&p| !bits::any(&game.player, self.s.board.cell(p)));
        self.s.scratch.players = players;
        let mut left = false;
        let modified = if still {
            self.restore(&bak);
            self.s.text_mode = false;
            false
        } else {
            let modified = self.command_queue(&bak, revision, turn, input.is_some(), &mut left);
            if self.s.winning {
                self.s.againing = false;
            }
            modified
        };
        if turn == Turn::Play {
            self.s.left_start = left;
        }
        self.s.board.take_back(&mut bak, lent);
        self.s.scratch.levels.push(bak);
        modified
    }

    /// Carries out the queued commands, keeps or undoes the turn's
    /// changes, and sees to the win. Returns whether the level changed.
    /// `revision`: the board's as the turn started, its objects `bak`;
    /// `left` is set if the objects were found to differ from `bak` (what
    /// follows that comparison writes no object in a solver's turn).
    fn command_queue(
        &mut self,
        bak: &[u32],
        revision: u64,
        turn: Turn,
        had_input: bool,
        left: &mut bool,
    ) -> bool {
        let probe = turn == Turn::AgainProbe;
        if self.s.queue.contains(Command::Cancel) {
            let left = self.s.queue.len() > 1;
            self.restore(bak);
            return left;
        }
        if self.s.queue.contains(Command::Restart) {
            self.push_backup(bak);
            if !probe {
                self.do_restart(true);
            }
        }
        let mut modified = false;
        if self.s.board.revision != revision && self.s.board.objects != bak {
            *left = true;
            if probe {
                self.restore(bak);
                return true;
            }
            if had_input {
                self.push_backup(bak);
            }
            modified = true;
        }
        if probe && (self.s.queue.contains(Command::Win) || self.s.queue.contains(Command::Restart))
        {
            return true;
        }
        // Asked here, not in the call: a solver's turn hears nothing.
        if !probe && self.s.mode.records() {
            self.play_sounds();
        }
        if !self.s.text_mode && turn == Turn::Play {
            self.check_win();
        }
        if !self.s.winning {
            if self.s.queue.contains(Command::Checkpoint) {
                self.s.restart_target.clone_from(&self.s.board.objects);
            }
            // The probe runs only when an again is queued and the turn changed the level.
            if self.s.queue.contains(Command::Again)
                && modified
                && self.process(None, Turn::AgainProbe)
            {
                self.s.againing = true;
            }
        }
        self.s.queue.clear();
        modified
    }

    /// Forgets the objects created and destroyed so far: they are heard
    /// only where play is recorded (a solver's writes mark them, unread).
    #[inline]
    fn clear_sfx(&mut self) {
        if self.s.mode.records() {
            self.s.sfx_create.fill(0);
            self.s.sfx_destroy.fill(0);
        }
    }

    /// Records the sounds of the turn, for the runner.
    fn play_sounds(&mut self) {
        if !self.s.mode.records() {
            return;
        }
        self.s.sounds.extend(self.s.cant_move.iter().cloned());
        self.s.sounds.extend(self.s.can_move.iter().cloned());
        for s in &self.game.sounds.create {
            if bits::any(&self.s.sfx_create, &s.objects) {
                self.s.sounds.push(s.seed.clone());
            }
        }
        for s in &self.game.sounds.destroy {
            if bits::any(&self.s.sfx_destroy, &s.objects) {
                self.s.sounds.push(s.seed.clone());
            }
        }
    }

    /// Queues the commands of a rule that matched, as upstream does: once
    /// a `cancel` is queued nothing more is, and after a `restart` only a
    /// `cancel`, which (as a `restart`) first empties the queue.
    pub(super) fn queue_commands(&mut self, rule: &Rule) {
        if rule.commands.is_empty() {
            return;
        }
        if self.s.queue.contains(Command::Cancel) {
            return;
        }
        let cancel = rule.commands.contains(Command::Cancel);
        let restart = rule.commands.contains(Command::Restart);
        if self.s.queue.contains(Command::Restart) && !cancel {
            return;
        }
        if cancel || restart {
            self.s.queue.clear();
        }
        self.s.queue.add(rule.commands);
    }
}
