//! The turn engine: one input in, rules and movements applied, commands
//! carried out, exactly in the official engine's order.
//!
//! [`Engine`] plays one game. Its level is a [`Board`]: per cell the
//! object bits and the movement fields, column-major (cell `(x, y)` at
//! `x * height + y`). Masks of what each row, column and the whole board
//! hold let a rule skip rows that cannot match; they may hold more than
//! the board (they are only ever widened within a turn), never less.

use crate::bits::{self, Scratch};
use crate::compile::{Command, Game, Grid, Group, LevelData, Quantifier, Replacement, Rule, Slot};
use crate::rng::Rng;

/// An input, as the official engine numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// `0`.
    Up,
    /// `1`.
    Left,
    /// `2`.
    Down,
    /// `3`.
    Right,
    /// `4`.
    Action,
}

impl Input {
    /// The movement bit the input gives the player.
    fn bit(self) -> u32 {
        match self {
            Input::Up => 0b00001,
            Input::Down => 0b00010,
            Input::Left => 0b00100,
            Input::Right => 0b01000,
            Input::Action => 0b10000,
        }
    }
}

/// A level in play.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Object bits, `stride` words per cell.
    pub objects: Vec<u32>,
    movements: Vec<u32>,
    rigid_group: Vec<u32>,
    rigid_applied: Vec<u32>,
    row_objects: Vec<u32>,
    col_objects: Vec<u32>,
    map_objects: Vec<u32>,
    row_moves: Vec<u32>,
    col_moves: Vec<u32>,
    map_moves: Vec<u32>,
}

impl Board {
    fn new(game: &Game, grid: &Grid) -> Board {
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

/// Commands a rule can queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Queued {
    Cancel,
    Restart,
    Win,
    Again,
    Checkpoint,
    Message,
    Sfx(u8),
}

fn queued(c: &Command) -> Queued {
    match c.name.as_str() {
        "cancel" => Queued::Cancel,
        "restart" => Queued::Restart,
        "win" => Queued::Win,
        "again" => Queued::Again,
        "checkpoint" => Queued::Checkpoint,
        "message" => Queued::Message,
        s => Queued::Sfx(s.trim_start_matches("sfx").parse().unwrap_or(0)),
    }
}

/// How the engine behaves on a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnWin {
    /// As the conformance runner: the next level loads at once.
    NextLevel,
    /// As a solver wants: the engine stops, with [`Engine::won`] set.
    Stop,
}

/// One game in play, with the official engine's session state: undo
/// stack, restart target, random generator, again flag.
#[derive(Clone, Debug)]
pub struct Engine<'g> {
    game: &'g Game,
    s: Session,
}

/// Everything an [`Engine`] keeps between turns, apart from the game it
/// plays: a level in play and its session. Kept apart so that a caller can
/// hold one and lend it to engine after engine without allocating.
#[derive(Clone, Debug)]
pub struct Session {
    /// The level in play.
    board: Board,
    queue: Vec<Queued>,
    rng: Rng,
    backups: Vec<Vec<u32>>,
    restart_target: Vec<u32>,
    againing: bool,
    winning: bool,
    text_mode: bool,
    level_index: usize,
    restarting: bool,
    sfx_create: Vec<u32>,
    sfx_destroy: Vec<u32>,
    can_move: Vec<String>,
    cant_move: Vec<String>,
    /// The object sounds played, in order (as the conformance runner records them).
    sounds: Vec<String>,
    on_win: OnWin,
    scratch: Scratchpad,
    /// Grid levels after the last one: the game has returned to its title.
    finished: bool,
    /// Which rule lines have fired (changed the board or queued a
    /// command), indexed by line; empty unless the engine was loaded with
    /// [`Engine::load_tracking`].
    fired: Vec<bool>,
}

impl<'g> Engine<'g> {
    /// Loads level `index` (message levels count) with a seed, as the
    /// conformance runner does: the level-start turn runs, then the sound
    /// record is cleared. `None` if there is no such level.
    pub fn load(game: &'g Game, index: usize, seed: &str, on_win: OnWin) -> Option<Engine<'g>> {
        Engine::load_with(game, index, seed, on_win, false)
    }

    /// [`Engine::load`], keeping track of which rule lines fire from the
    /// level-start turn on ([`Engine::fired`]): what tells a dead rule.
    pub fn load_tracking(
        game: &'g Game,
        index: usize,
        seed: &str,
        on_win: OnWin,
    ) -> Option<Engine<'g>> {
        Engine::load_with(game, index, seed, on_win, true)
    }

    fn load_with(
        game: &'g Game,
        index: usize,
        seed: &str,
        on_win: OnWin,
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
                queue: Vec::new(),
                rng: Rng::new(seed),
                backups: Vec::new(),
                againing: false,
                winning: false,
                text_mode: false,
                level_index: index,
                restarting: false,
                sfx_create: vec![0; game.stride_obj],
                sfx_destroy: vec![0; game.stride_obj],
                can_move: Vec::new(),
                cant_move: Vec::new(),
                sounds: Vec::new(),
                on_win,
                scratch: Scratchpad::default(),
                finished: false,
                fired: if track {
                    let last = game.rule_lines.iter().map(|(line, _)| *line).max();
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

    /// The level in play.
    pub fn board(&self) -> &Board {
        &self.s.board
    }

    /// Whether an `again` turn is due ([`Engine::drain`] runs them).
    pub fn againing(&self) -> bool {
        self.s.againing
    }

    /// Runs one due again turn (a turn with no input).
    pub fn again(&mut self) {
        self.s.againing = false;
        self.process(None, false, false);
    }

    /// The object sounds played since the level loaded, in order.
    pub fn sounds(&self) -> &[String] {
        &self.s.sounds
    }

    /// Whether the game has gone past its last level, to its title.
    pub fn finished(&self) -> bool {
        self.s.finished
    }

    /// The rule lines that have fired so far, when tracked
    /// ([`Engine::load_tracking`]): each changed the board or queued a
    /// command in some turn.
    pub fn fired(&self) -> impl Iterator<Item = usize> + '_ {
        self.s.fired_lines()
    }

    /// The session, to keep for another engine on the same game and level.
    pub fn into_session(self) -> Session {
        self.s
    }

    /// An engine that goes on from a kept session (of the same game).
    pub fn resume(game: &'g Game, session: Session) -> Engine<'g> {
        Engine { game, s: session }
    }

    /// Whether the level was won (with [`OnWin::Stop`]).
    pub fn won(&self) -> bool {
        self.s.winning
    }

    /// The index of the level in play (message levels count).
    pub fn level_index(&self) -> usize {
        self.s.level_index
    }

    /// The restart target: the level's start, or its last checkpoint.
    pub fn restart_target(&self) -> &[u32] {
        &self.s.restart_target
    }

    /// Puts the engine at a stored state, for a solver: `fill` writes the
    /// board and the restart target in place; movements are cleared, no
    /// again is pending, the level is not won.
    pub fn set_board(&mut self, fill: impl FnOnce(&mut [u32], &mut [u32])) {
        fill(&mut self.s.board.objects, &mut self.s.restart_target);
        self.s.board.movements.fill(0);
        self.s.againing = false;
        self.s.winning = false;
        self.s.queue.clear();
    }

    /// Reseeds the random generator, as a level load does.
    pub fn reseed(&mut self, seed: &str) {
        self.s.rng = Rng::new(seed);
    }

    fn load_level(&mut self, index: usize, seed: Option<&str>) {
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
                    self.process(None, true, false);
                }
            }
        }
    }

    /// One turn with an input (`Some`) or none (a tick, or an again turn).
    /// Returns whether the level changed.
    pub fn input(&mut self, input: Option<Input>) -> bool {
        self.process(input, false, false)
    }

    /// Runs the again turns that are due.
    pub fn drain(&mut self) {
        while self.s.againing {
            self.s.againing = false;
            self.process(None, false, false);
        }
    }

    /// Undo, as the runner's `undo` input.
    pub fn undo(&mut self) {
        self.do_undo(false, true);
    }

    /// Restart, as the runner's `restart` input.
    pub fn restart(&mut self) {
        self.do_restart(false);
    }

    /// Whether the engine keeps an undo stack and a record of sounds: it
    /// does as the conformance runner plays, not for a solver (which never
    /// undoes and hears nothing).
    fn as_runner(&self) -> bool {
        self.s.on_win == OnWin::NextLevel
    }

    /// Pushes a copy of `level` on the undo stack (a solver keeps none).
    fn push_backup(&mut self, level: &[u32]) {
        if self.as_runner() {
            self.s.backups.push(level.to_vec());
        }
    }

    fn restore(&mut self, objects: &[u32]) {
        self.s.board.objects.clear();
        self.s.board.objects.extend_from_slice(objects);
        self.s.board.movements.fill(0);
        self.s.board.rigid_group.fill(0);
        self.s.board.rigid_applied.fill(0);
        self.s.board.row_objects.fill(0);
        self.s.board.col_objects.fill(0);
        self.s.againing = false;
        self.s.queue.clear();
    }

    fn do_undo(&mut self, force: bool, ignore_duplicates: bool) {
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

    fn do_restart(&mut self, force: bool) {
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
            self.process(None, true, false);
        }
        self.s.queue.clear();
        self.s.restarting = false;
    }

    /// The cells holding a player, in cell order. The column masks must be
    /// up to date: columns without a player are skipped.
    fn player_positions(&self, into: &mut Vec<usize>) {
        let so = self.game.stride_obj;
        let b = &self.s.board;
        into.clear();
        let player = &self.game.player;
        for x in 0..b.width {
            if !bits::any(player, &b.col_objects[x * so..][..so]) {
                continue;
            }
            for i in x * b.height..(x + 1) * b.height {
                let cell = &b.objects[i * so..][..so];
                let here = if self.game.player_all {
                    bits::within(player, cell)
                } else {
                    bits::any(player, cell)
                };
                if here {
                    into.push(i);
                }
            }
        }
    }

    fn move_entities(&mut self, i: usize, dir: u32) {
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        let b = &mut self.s.board;
        let cell = &b.objects[i * so..][..so];
        let mv = &mut b.movements[i * sm..][..sm];
        for id in bits::ones(cell).filter(|&id| bits::has(&self.game.player, id)) {
            bits::or_field(mv, dir, 5 * self.game.layer_of_id[id]);
        }
        let (x, y) = (i / b.height, i % b.height);
        let mv = &b.movements[i * sm..][..sm];
        bits::or(&mut b.col_moves[x * sm..][..sm], mv);
        bits::or(&mut b.row_moves[y * sm..][..sm], mv);
        bits::or(&mut b.map_moves, mv);
    }

    fn calculate_masks(&mut self) {
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

    /// The official `processInput`. Returns whether the level changed (or,
    /// for an again probe, whether an again turn would do anything).
    fn process(&mut self, input: Option<Input>, dont_do_win: bool, dont_modify: bool) -> bool {
        self.s.againing = false;
        // A turn can nest another (a restart reruns the level-start turn,
        // an again is probed), so its backup comes from a pool, not a field.
        let mut bak = self.s.scratch.levels.pop().unwrap_or_default();
        bak.clear();
        bak.extend_from_slice(&self.s.board.objects);
        let mut players = std::mem::take(&mut self.s.scratch.players);
        players.clear();
        // The masks are taken before the players move; moving them widens
        // the movement masks as it goes, so they end as upstream's.
        self.calculate_masks();
        if let Some(input) = input {
            self.player_positions(&mut players);
            for &p in &players {
                self.move_entities(p, input.bit());
            }
        }
        let game = self.game;
        let mut banned = std::mem::take(&mut self.s.scratch.banned);
        banned.clear();
        banned.resize(game.rules.len(), false);
        self.s.queue.clear();
        let mut start_objects = std::mem::take(&mut self.s.scratch.start_objects);
        start_objects.clear();
        start_objects.extend_from_slice(&self.s.board.objects);
        let mut start_moves = std::mem::take(&mut self.s.scratch.start_moves);
        start_moves.clear();
        start_moves.extend_from_slice(&self.s.board.movements);
        self.s.sfx_create.fill(0);
        self.s.sfx_destroy.fill(0);
        self.s.can_move.clear();
        self.s.cant_move.clear();
        let mut rounds = 0;
        loop {
            rounds += 1;
            self.apply_rules(&game.rules, &game.loop_point, Some(&banned));
            let undo = self.resolve_movements(&mut banned);
            if undo {
                self.s.board.objects.copy_from_slice(&start_objects);
                self.s.board.movements.copy_from_slice(&start_moves);
                self.s.board.rigid_group.fill(0);
                self.s.board.rigid_applied.fill(0);
                self.s.queue.clear();
                self.s.sfx_create.fill(0);
                self.s.sfx_destroy.fill(0);
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
        self.s.scratch.start_objects = start_objects;
        self.s.scratch.start_moves = start_moves;

        let still = !players.is_empty()
            && game.prelude.require_player_movement
            && !players.iter().any(|&p| {
                !bits::any(
                    &game.player,
                    &self.s.board.objects[p * game.stride_obj..][..game.stride_obj],
                )
            });
        self.s.scratch.players = players;
        let modified = if still {
            self.restore(&bak);
            self.s.text_mode = false;
            false
        } else {
            let modified = self.command_queue(&bak, dont_modify, dont_do_win, input.is_some());
            if self.s.winning {
                self.s.againing = false;
            }
            modified
        };
        self.s.scratch.levels.push(bak);
        modified
    }

    fn command_queue(
        &mut self,
        bak: &[u32],
        dont_modify: bool,
        dont_do_win: bool,
        had_input: bool,
    ) -> bool {
        if self.s.queue.contains(&Queued::Cancel) {
            let left = self.s.queue.len() > 1;
            self.restore(bak);
            return left;
        }
        if self.s.queue.contains(&Queued::Restart) {
            self.push_backup(bak);
            if !dont_modify {
                self.do_restart(true);
            }
        }
        let mut modified = false;
        if self.s.board.objects != bak {
            if dont_modify {
                self.restore(bak);
                return true;
            }
            if had_input {
                self.push_backup(bak);
            }
            modified = true;
        }
        if dont_modify
            && (self.s.queue.contains(&Queued::Win) || self.s.queue.contains(&Queued::Restart))
        {
            return true;
        }
        if !dont_modify {
            self.play_sounds();
        }
        if !self.s.text_mode {
            self.check_win(dont_do_win);
        }
        if !self.s.winning {
            if self.s.queue.contains(&Queued::Checkpoint) {
                self.s.restart_target.clone_from(&self.s.board.objects);
            }
            // The probe runs only when an again is queued and the turn changed the level.
            if self.s.queue.contains(&Queued::Again) && modified && self.process(None, true, true) {
                self.s.againing = true;
            }
        }
        self.s.queue.clear();
        modified
    }

    fn play_sounds(&mut self) {
        if !self.as_runner() {
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

    fn check_win(&mut self, dont_do_win: bool) {
        if self.s.queue.contains(&Queued::Win) {
            if !dont_do_win {
                self.do_win();
            }
            return;
        }
        if self.game.win_conditions.is_empty() {
            return;
        }
        if self.conditions_hold() && !dont_do_win {
            self.do_win();
        }
    }

    /// Whether every win condition holds on the board.
    pub fn conditions_hold(&self) -> bool {
        let so = self.game.stride_obj;
        let cells = || self.s.board.objects.chunks(so);
        self.game.win_conditions.iter().all(|w| {
            let f1 = |c: &[u32]| {
                if w.a_all {
                    bits::within(&w.a, c)
                } else {
                    bits::any(&w.a, c)
                }
            };
            let f2 = |c: &[u32]| {
                if w.b_all {
                    bits::within(&w.b, c)
                } else {
                    bits::any(&w.b, c)
                }
            };
            match w.quantifier {
                Quantifier::No => !cells().any(|c| f1(c) && f2(c)),
                Quantifier::Some => cells().any(|c| f1(c) && f2(c)),
                Quantifier::All => !cells().any(|c| f1(c) && !f2(c)),
            }
        })
    }

    fn do_win(&mut self) {
        if self.s.winning {
            return;
        }
        self.s.againing = false;
        match self.s.on_win {
            OnWin::Stop => self.s.winning = true,
            OnWin::NextLevel => self.next_level(),
        }
    }

    fn next_level(&mut self) {
        self.s.againing = false;
        if self.s.level_index + 1 < self.game.levels.len() {
            self.load_level(self.s.level_index + 1, None);
        } else {
            self.s.finished = true;
            self.s.text_mode = true;
        }
    }

    fn apply_rules(
        &mut self,
        groups: &[Group],
        loop_point: &[Option<usize>],
        banned: Option<&[bool]>,
    ) {
        let mut propagated = false;
        let mut loops = 0;
        let mut g = 0;
        while g < groups.len() {
            if !banned.is_some_and(|b| b.get(g).copied().unwrap_or(false)) {
                propagated = self.apply_group(&groups[g]) || propagated;
            }
            if propagated && let Some(Some(back)) = loop_point.get(g) {
                g = *back;
                propagated = false;
                loops += 1;
                if loops > 200 {
                    break;
                }
                continue;
            }
            g += 1;
        }
    }

    fn apply_group(&mut self, group: &Group) -> bool {
        if !self.group_could_match(group) {
            return false;
        }
        if group.random {
            return self.apply_random_group(group);
        }
        // The group's passes repeat until one changes nothing; after the
        // first, a rule's rows are rescanned only around the cells changed
        // since it last scanned them (see `Engine::rescan`).
        self.s.scratch.changes.start(self.s.board.len());
        let mut changed = false;
        let mut again = true;
        let mut loops = 0;
        while again && loops < 200 {
            loops += 1;
            again = false;
            for rule in &group.rules {
                if self.try_apply(rule, group.rigid_index) {
                    again = true;
                }
            }
            changed |= again;
        }
        self.s.scratch.changes.stop();
        changed
    }

    fn apply_random_group(&mut self, group: &Group) -> bool {
        // Random groups are rare: their tuples are simply listed.
        let mut all: Vec<(usize, Vec<Match>)> = Vec::new();
        let mut found = Matches::default();
        for (r, rule) in group.rules.iter().enumerate() {
            if self.find_matches(rule, &mut found, None) {
                let rows: Vec<Vec<Match>> = (0..found.ends.len())
                    .map(|k| found.row(k).to_vec())
                    .collect();
                for tuple in tuples(&rows) {
                    all.push((r, tuple));
                }
            }
        }
        if all.is_empty() {
            return false;
        }
        let pick = self.s.rng.below(all.len());
        let (r, tuple) = &all[pick.min(all.len() - 1)];
        let rule = &group.rules[*r];
        let modified = self.apply_at(rule, tuple, false, group.rigid_index);
        self.note_fired(rule, modified);
        self.queue_commands(rule);
        modified
    }

    /// Whether the board holds every object and movement the rule needs
    /// somewhere: most rules fail here, before any row is looked at.
    #[inline]
    fn could_match(&self, rule: &Rule) -> bool {
        let b = &self.s.board;
        if self.game.single_word {
            return rule.objects[0] & !b.map_objects[0] == 0
                && rule.moves[0] & !b.map_moves[0] == 0;
        }
        bits::within(&rule.objects, &b.map_objects) && bits::within(&rule.moves, &b.map_moves)
    }

    /// Whether the board holds what every rule of the group needs: most
    /// groups fail here, before any of their rules is looked at.
    #[inline]
    fn group_could_match(&self, group: &Group) -> bool {
        let b = &self.s.board;
        if self.game.single_word {
            return group.objects[0] & !b.map_objects[0] == 0
                && group.moves[0] & !b.map_moves[0] == 0;
        }
        bits::within(&group.objects, &b.map_objects) && bits::within(&group.moves, &b.map_moves)
    }

    /// Applies a rule of a group being applied at every match.
    fn try_apply(&mut self, rule: &Rule, rigid_index: u32) -> bool {
        if !self.could_match(rule) {
            return false;
        }
        let mut found = std::mem::take(&mut self.s.scratch.matches);
        let mut kept = std::mem::take(&mut self.s.scratch.kept);
        let matched = self.find_matches(rule, &mut found, Some(&mut kept));
        self.s.scratch.kept = kept;
        if !matched {
            self.s.scratch.matches = found;
            return false;
        }
        let mut result = false;
        if rule.has_replacements {
            let rows = found.ends.len();
            if rows == 1 {
                // One row: its matches, in order, are the combinations of
                // one match per row (each after the first checked again).
                for (k, m) in found.all.iter().enumerate() {
                    result |= self.apply_at(rule, std::slice::from_ref(m), k > 0, rigid_index);
                }
            } else {
                result = self.apply_combinations(rule, &found, rigid_index);
            }
        }
        self.s.scratch.matches = found;
        self.note_fired(rule, result);
        self.queue_commands(rule);
        result
    }

    /// Applies a rule of several rows at every combination of one match
    /// per row, the first row varying fastest, as upstream lists them.
    fn apply_combinations(&mut self, rule: &Rule, found: &Matches, rigid_index: u32) -> bool {
        let rows = found.ends.len();
        let mut result = false;
        let mut at = std::mem::take(&mut self.s.scratch.odometer);
        at.clear();
        at.resize(rows, 0);
        let mut tuple = std::mem::take(&mut self.s.scratch.tuple);
        let mut first = true;
        'tuples: loop {
            tuple.clear();
            tuple.extend((0..rows).map(|r| found.row(r)[at[r]]));
            result |= self.apply_at(rule, &tuple, !first, rigid_index);
            first = false;
            let mut r = 0;
            loop {
                if r == rows {
                    break 'tuples;
                }
                at[r] += 1;
                if at[r] < found.row(r).len() {
                    break;
                }
                at[r] = 0;
                r += 1;
            }
        }
        self.s.scratch.odometer = at;
        self.s.scratch.tuple = tuple;
        result
    }

    /// Records that `rule` matched, if it changed something or has
    /// commands to queue (a match that does neither leaves play as it was).
    #[inline]
    fn note_fired(&mut self, rule: &Rule, modified: bool) {
        if !self.s.fired.is_empty()
            && (modified || !rule.commands.is_empty())
            && let Some(fired) = self.s.fired.get_mut(rule.line)
        {
            *fired = true;
        }
    }

    fn queue_commands(&mut self, rule: &Rule) {
        if rule.commands.is_empty() {
            return;
        }
        if self.s.queue.contains(&Queued::Cancel) {
            return;
        }
        let cancel = rule.commands.iter().any(|c| c.name == "cancel");
        let restart = rule.commands.iter().any(|c| c.name == "restart");
        if self.s.queue.contains(&Queued::Restart) && !cancel {
            return;
        }
        if cancel || restart {
            self.s.queue.clear();
        }
        for c in &rule.commands {
            let q = queued(c);
            if self.s.queue.contains(&q) {
                continue;
            }
            self.s.queue.push(q);
        }
    }

    fn delta(&self, direction: u32) -> isize {
        let h = self.s.board.height as isize;
        match direction {
            1 => -1,
            2 => 1,
            4 => -h,
            8 => h,
            _ => 0,
        }
    }

    #[inline(always)]
    fn cell_matches(&self, p: &crate::compile::CellPattern, i: usize) -> bool {
        if self.game.single_word {
            let (c, m) = (self.s.board.objects[i], self.s.board.movements[i]);
            let [present, missing, moving, still] = p.word;
            return c & present == present
                && c & missing == 0
                && m & moving == moving
                && m & still == 0
                && p.any_word.iter().all(|a| c & a != 0);
        }
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        let cell = &self.s.board.objects[i * so..][..so];
        for ((c, want), not) in cell.iter().zip(p.present.iter()).zip(p.missing.iter()) {
            if c & want != *want || c & not != 0 {
                return false;
            }
        }
        let mv = &self.s.board.movements[i * sm..][..sm];
        for ((m, want), not) in mv.iter().zip(p.moving.iter()).zip(p.still.iter()) {
            if m & want != *want || m & not != 0 {
                return false;
            }
        }
        p.any_of.iter().all(|m| bits::any(m, cell))
    }

    /// Whether consecutive cells `cells` match from `start` on, `d` apart.
    #[inline]
    fn run_matches(&self, cells: &[Slot], start: isize, d: isize) -> bool {
        let mut index = start;
        for slot in cells {
            let Slot::Cell(p) = slot else { return false };
            if index < 0
                || index as usize >= self.s.board.len()
                || !self.cell_matches(p, index as usize)
            {
                return false;
            }
            index += d;
        }
        true
    }

    /// Brings up to date the matches of a row without ellipses that a scan
    /// found when `Changes::now` was `since`. Whether the row matches at a
    /// start depends only on the objects and movements of the cells from
    /// there, so a match whose cells have not changed since still holds,
    /// and a new match must cover a changed cell: only the starts whose
    /// row covers one are tried again. The result, in scan order, is what
    /// a full scan would find now.
    fn rescan(
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
                mark(keep, starts.order(m.start / h, m.start % h, w, h));
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
            let (cx, cy) = ((cell / h) as isize, (cell % h) as isize);
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
                if keep >> bit & 1 == 1 || self.fits_at(row, start, d) {
                    matches.push(Match {
                        start,
                        gaps: [0, 0],
                    });
                }
            }
        }
    }

    /// Every match of a row without ellipses, line by line: a board row
    /// for a horizontal rule (cells `height` apart), a column for a
    /// vertical one (adjacent cells), skipping the lines whose masks say
    /// they cannot hold one.
    fn scan_row(
        &self,
        row: &[Slot],
        needs: &Needs,
        starts: &Starts,
        d: isize,
        found: &mut Vec<Match>,
    ) {
        // Games of one or two words of objects, and of movements, a cell
        // are the common ones: for them the words are counted at compile
        // time, and their loops unrolled.
        match (self.game.stride_obj, self.game.stride_mov) {
            (1, 1) => self.scan_row_of::<1, 1>(row, needs, starts, d, found),
            (2, 1) => self.scan_row_of::<2, 1>(row, needs, starts, d, found),
            (1, 2) => self.scan_row_of::<1, 2>(row, needs, starts, d, found),
            (2, 2) => self.scan_row_of::<2, 2>(row, needs, starts, d, found),
            _ => self.scan_row_of::<0, 0>(row, needs, starts, d, found),
        }
    }

    /// [`Engine::scan_row`] for `SO` words of objects and `SM` of
    /// movements a cell (0: as the game has).
    fn scan_row_of<const SO: usize, const SM: usize>(
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
        let (outer, inner, step, objects, moves) = if starts.horizontal {
            let (o, m) = (&b.row_objects, &b.row_moves);
            (starts.y.clone(), starts.x.clone(), b.height, o, m)
        } else {
            let (o, m) = (&b.col_objects, &b.col_moves);
            (starts.x.clone(), starts.y.clone(), 1, o, m)
        };
        if inner.is_empty() {
            return;
        }
        for line in outer {
            let masks = (&objects[line * so..][..so], &moves[line * sm..][..sm]);
            if !needs.could_hold(so, sm, masks.0, masks.1) {
                continue;
            }
            let (x, y) = if starts.horizontal {
                (inner.start, line)
            } else {
                (line, inner.start)
            };
            // Most cells fail the first cell's test.
            let mut i = x * b.height + y;
            for _ in inner.clone() {
                if self.cell_fits::<SO, SM>(first, i)
                    && self.run_fits::<SO, SM>(rest, i.wrapping_add_signed(d), d)
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

    /// The words of objects and of movements a cell takes: `SO` and `SM`,
    /// or the game's where they are 0.
    #[inline(always)]
    fn strides<const SO: usize, const SM: usize>(&self) -> (usize, usize) {
        let so = if SO > 0 { SO } else { self.game.stride_obj };
        let sm = if SM > 0 { SM } else { self.game.stride_mov };
        (so, sm)
    }

    /// [`Engine::cell_matches`], with the words a cell takes as in
    /// [`Engine::scan_row_of`].
    #[inline(always)]
    fn cell_fits<const SO: usize, const SM: usize>(
        &self,
        p: &crate::compile::CellPattern,
        i: usize,
    ) -> bool {
        let (so, sm) = self.strides::<SO, SM>();
        let b = &self.s.board;
        let cell = &b.objects[i * so..][..so];
        if !bits::seen_as(cell, &p.objects_seen[..so], &p.present[..so]) {
            return false;
        }
        if p.tests_moves {
            let mv = &b.movements[i * sm..][..sm];
            if !bits::seen_as(mv, &p.moves_seen[..sm], &p.moving[..sm]) {
                return false;
            }
        }
        p.any_of.iter().all(|m| bits::any(&m[..so], cell))
    }

    /// [`Engine::run_fits`] for the game's strides.
    fn fits_at(&self, row: &[Slot], start: usize, d: isize) -> bool {
        match (self.game.stride_obj, self.game.stride_mov) {
            (1, 1) => self.run_fits::<1, 1>(row, start, d),
            (2, 1) => self.run_fits::<2, 1>(row, start, d),
            (1, 2) => self.run_fits::<1, 2>(row, start, d),
            (2, 2) => self.run_fits::<2, 2>(row, start, d),
            _ => self.run_fits::<0, 0>(row, start, d),
        }
    }

    /// Whether a row without ellipses matches from `start`, `d` apart: the
    /// caller keeps the whole row on the board.
    #[inline(always)]
    fn run_fits<const SO: usize, const SM: usize>(
        &self,
        row: &[Slot],
        start: usize,
        d: isize,
    ) -> bool {
        let mut index = start;
        for slot in row {
            let Slot::Cell(p) = slot else { return false };
            if !self.cell_fits::<SO, SM>(p, index) {
                return false;
            }
            index = index.wrapping_add_signed(d);
        }
        true
    }

    /// Whether the row's cells match from `start`, with the given gaps at
    /// its ellipses.
    fn row_matches_at(&self, row: &[Slot], start: usize, d: isize, gaps: &[usize]) -> bool {
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
                        || !self.cell_matches(p, index as usize)
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
    fn find_matches(&self, rule: &Rule, out: &mut Matches, mut kept: Option<&mut Kept>) -> bool {
        out.all.clear();
        out.ends.clear();
        let b = &self.s.board;
        let (so, sm) = (self.game.stride_obj, self.game.stride_mov);
        if !bits::within(&rule.objects, &b.map_objects) {
            return false;
        }
        let d = self.delta(rule.direction);
        for (r, row) in rule.rows.iter().enumerate() {
            let needs = Needs {
                objects: &rule.row_objects[r],
                moves: &rule.row_moves[r],
                any_of: &rule.row_any_of[r],
            };
            let could_hold =
                |objects: &[u32], moves: &[u32]| needs.could_hold(so, sm, objects, moves);
            if !could_hold(&b.map_objects, &b.map_moves) {
                return false;
            }
            let wild = rule.ellipses[r];
            let len = row.len() - wild;
            let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, b.width, 0, b.height);
            match rule.direction {
                1 => ymin += len - 1,
                2 => ymax = ymax.saturating_sub(len - 1),
                4 => xmin += len - 1,
                8 => xmax = xmax.saturating_sub(len - 1),
                _ => {}
            }
            let horizontal = rule.direction > 2;
            let before = out.all.len();
            let found = &mut out.all;
            if wild == 0 {
                let starts = Starts {
                    x: xmin..xmax,
                    y: ymin..ymax,
                    horizontal,
                };
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
                            self.scan_row(row, &needs, &starts, d, &mut last.matches);
                            last.run = changes.run;
                        }
                        last.scanned = changes.now();
                        found.extend_from_slice(&last.matches);
                    }
                    None => self.scan_row(row, &needs, &starts, d, found),
                }
                if found.len() == before {
                    return false;
                }
                out.ends.push(found.len());
                continue;
            }
            let visit = |x: usize, y: usize, found: &mut Vec<Match>| {
                let i = x * b.height + y;
                let kmax = match rule.direction {
                    4 => (x + 2).saturating_sub(len) as isize,
                    8 => b.width as isize - (x + len) as isize + 1,
                    2 => b.height as isize - (y + len) as isize + 1,
                    1 => (y + 2).saturating_sub(len) as isize,
                    _ => 0,
                };
                let kmax = kmax.max(0) as usize;
                // The cells before the first ellipsis are matched once,
                // then each gap's cells, as upstream does.
                let e1 = row
                    .iter()
                    .position(|s| *s == Slot::Ellipsis)
                    .unwrap_or(row.len());
                if !self.run_matches(&row[..e1], i as isize, d) {
                    return;
                }
                let rest = &row[e1 + 1..];
                if wild == 1 {
                    for k in 0..kmax {
                        if self.run_matches(rest, i as isize + d * (e1 + k) as isize, d) {
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
                        if !self.run_matches(middle, i as isize + d * (e1 + k1) as isize, d) {
                            continue;
                        }
                        for k2 in 0..kmax.saturating_sub(k1) {
                            if self.run_matches(
                                last,
                                i as isize + d * (e1 + e2 + k1 + k2) as isize,
                                d,
                            ) {
                                found.push(Match {
                                    start: i,
                                    gaps: [k1, k2],
                                });
                            }
                        }
                    }
                }
            };
            if horizontal {
                for y in ymin..ymax {
                    if !could_hold(&b.row_objects[y * so..][..so], &b.row_moves[y * sm..][..sm]) {
                        continue;
                    }
                    for x in xmin..xmax {
                        visit(x, y, found);
                    }
                }
            } else {
                for x in xmin..xmax {
                    if !could_hold(&b.col_objects[x * so..][..so], &b.col_moves[x * sm..][..sm]) {
                        continue;
                    }
                    for y in ymin..ymax {
                        visit(x, y, found);
                    }
                }
            }
            if found.len() == before {
                return false;
            }
            out.ends.push(found.len());
        }
        true
    }

    fn apply_at(&mut self, rule: &Rule, tuple: &[Match], check: bool, rigid_index: u32) -> bool {
        let d = self.delta(rule.direction);
        if check {
            for ((row, m), &wild) in rule.rows.iter().zip(tuple).zip(&rule.ellipses) {
                if !self.row_matches_at(row, m.start, d, &m.gaps[..wild.min(2)]) {
                    return false;
                }
            }
        }
        let mut result = false;
        for (row, m) in rule.rows.iter().zip(tuple) {
            let mut index = m.start as isize;
            let mut gap = 0;
            for slot in row {
                match slot {
                    Slot::Ellipsis => {
                        index += d * m.gaps[gap] as isize;
                        gap += 1;
                    }
                    Slot::Cell(p) => {
                        if let Some(rep) = &p.replace {
                            result |= self.replace(rep, index as usize, rule.rigid, rigid_index);
                        }
                        index += d;
                    }
                }
            }
        }
        result
    }

    fn replace(&mut self, rep: &Replacement, i: usize, rigid: bool, rigid_index: u32) -> bool {
        if rep.random {
            return self.replace_random(rep, i, rigid, rigid_index);
        }
        self.write_cell(
            i,
            &rep.set,
            &rep.clear,
            &rep.set_moves,
            &rep.clear_moves_all,
            &rep.layer_moves,
            rigid,
            rigid_index,
        )
    }

    /// A replacement that draws from the random generator: an object out
    /// of a property, or a direction.
    fn replace_random(
        &mut self,
        rep: &Replacement,
        i: usize,
        rigid: bool,
        rigid_index: u32,
    ) -> bool {
        let game = self.game;
        let mut set = Scratch::from(&rep.set);
        let mut clear = Scratch::from(&rep.clear);
        let mut set_moves = Scratch::from(&rep.set_moves);
        let mut clear_moves = Scratch::from(&rep.clear_moves_all);
        if !bits::is_zero(&rep.random_object) {
            let count = bits::ones(&rep.random_object).count();
            let k = self.s.rng.below(count).min(count - 1);
            let pick = bits::ones(&rep.random_object).nth(k).expect("k < count");
            let layer = game.layer_of_id[pick];
            bits::set(set.get_mut(), pick);
            bits::or(clear.get_mut(), &game.layer_masks[layer]);
            bits::or_field(clear_moves.get_mut(), 0x1f, 5 * layer);
        }
        if !bits::is_zero(&rep.random_dir) {
            for layer in 0..game.layer_count {
                if bits::has(&rep.random_dir, 5 * layer) {
                    let dir = self.s.rng.below(4);
                    bits::set(set_moves.get_mut(), dir + 5 * layer);
                }
            }
        }
        self.write_cell(
            i,
            set.get(),
            clear.get(),
            set_moves.get(),
            clear_moves.get(),
            &rep.layer_moves,
            rigid,
            rigid_index,
        )
    }

    /// Clears then sets a cell's objects and movements; true if anything,
    /// the rigid-body bookkeeping included, changed.
    #[allow(clippy::too_many_arguments)]
    fn write_cell(
        &mut self,
        i: usize,
        set: &[u32],
        clear: &[u32],
        set_moves: &[u32],
        clear_moves: &[u32],
        layer_moves: &[u32],
        rigid: bool,
        rigid_index: u32,
    ) -> bool {
        let game = self.game;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        let b = &mut self.s.board;
        let mut changed = false;
        if rigid {
            let fill = &game.rigid_fill[rigid_index as usize];
            let group = &mut b.rigid_group[i * sm..][..sm];
            let applied = &mut b.rigid_applied[i * sm..][..sm];
            let mask_within = group
                .iter()
                .zip(fill.iter())
                .zip(layer_moves)
                .all(|((g, f), l)| f & l & !g == 0);
            if !mask_within && !bits::within(layer_moves, applied) {
                for ((g, f), l) in group.iter_mut().zip(fill.iter()).zip(layer_moves) {
                    *g |= f & l;
                }
                bits::or(applied, layer_moves);
                changed = true;
            }
        }
        let (x, y) = (i / b.height, i % b.height);
        let cell = &mut b.objects[i * so..][..so];
        for w in 0..so {
            let old = cell[w];
            let new = (old & !clear[w]) | set[w];
            if new != old {
                changed = true;
                cell[w] = new;
                self.s.sfx_create[w] |= new & !old;
                self.s.sfx_destroy[w] |= old & !new;
            }
            b.col_objects[x * so + w] |= new;
            b.row_objects[y * so + w] |= new;
            b.map_objects[w] |= new;
        }
        let mv = &mut b.movements[i * sm..][..sm];
        for w in 0..sm {
            let old = mv[w];
            let new = (old & !clear_moves[w]) | set_moves[w];
            if new != old {
                changed = true;
                mv[w] = new;
            }
            b.col_moves[x * sm + w] |= new;
            b.row_moves[y * sm + w] |= new;
            b.map_moves[w] |= new;
        }
        if changed {
            // Rigid bookkeeping aside, rules read nothing else of a cell.
            self.s.scratch.changes.record(i);
        }
        changed
    }

    fn reposition_on_layer(&mut self, i: usize, layer: usize, dir: u32) -> bool {
        let game = self.game;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        let (dx, dy): (isize, isize) = match dir {
            1 => (0, -1),
            2 => (0, 1),
            4 => (-1, 0),
            8 => (1, 0),
            3 | 15 | 16 => (0, 0),
            _ => return false,
        };
        let b = &mut self.s.board;
        let (x, y) = ((i / b.height) as isize, (i % b.height) as isize);
        let (tx, ty) = (x + dx, y + dy);
        if tx < 0 || ty < 0 || tx >= b.width as isize || ty >= b.height as isize {
            return false;
        }
        let target = (tx as usize) * b.height + ty as usize;
        let mask = &game.layer_masks[layer];
        if dir != 16 && bits::any(mask, &b.objects[target * so..][..so]) {
            return false;
        }
        // A solver collects no sound seeds: they would be cloned every turn.
        let sounds = if self.as_runner() {
            &game.sounds.movement[layer][..]
        } else {
            &[]
        };
        let b = &mut self.s.board;
        for s in sounds {
            if bits::any(&s.objects, &b.objects[i * so..][..so])
                && bits::any(&b.movements[i * sm..][..sm], &s.directions)
                && !self.s.can_move.contains(&s.seed)
            {
                self.s.can_move.push(s.seed.clone());
            }
        }
        if target == i {
            return true;
        }
        let mut moving = Scratch::from(&b.objects[i * so..][..so]);
        for (m, l) in moving.get_mut().iter_mut().zip(mask.iter()) {
            *m &= l;
        }
        bits::clear(&mut b.objects[i * so..][..so], mask);
        bits::or(&mut b.objects[target * so..][..so], moving.get());
        let (cx, cy) = (target / b.height, target % b.height);
        bits::or(&mut b.col_objects[cx * so..][..so], moving.get());
        bits::or(&mut b.row_objects[cy * so..][..so], moving.get());
        true
    }

    fn reposition_cell(&mut self, i: usize) -> bool {
        let sm = self.game.stride_mov;
        if bits::is_zero(&self.s.board.movements[i * sm..][..sm]) {
            return false;
        }
        let mut moved = false;
        for layer in 0..self.game.layer_count {
            let field = bits::field(&self.s.board.movements[i * sm..][..sm], 5 * layer);
            if field != 0 && self.reposition_on_layer(i, layer, field) {
                bits::clear_field(
                    &mut self.s.board.movements[i * sm..][..sm],
                    field,
                    5 * layer,
                );
                moved = true;
            }
        }
        let b = &mut self.s.board;
        let (x, y) = (i / b.height, i % b.height);
        for w in 0..sm {
            let m = b.movements[i * sm + w];
            b.col_moves[x * sm + w] |= m;
            b.row_moves[y * sm + w] |= m;
            b.map_moves[w] |= m;
        }
        moved
    }

    fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        let game = self.game;
        let (so, sm) = (game.stride_obj, game.stride_mov);
        // Repositioning moves objects, never movements, so only the cells
        // that hold a movement now can move at all: passes over them, in
        // cell order, are the official passes over every cell.
        let mut moving = std::mem::take(&mut self.s.scratch.moving);
        moving.clear();
        let b = &self.s.board;
        if !bits::is_zero(&b.map_moves) {
            for x in 0..b.width {
                if bits::is_zero(&b.col_moves[x * sm..][..sm]) {
                    continue;
                }
                for i in x * b.height..(x + 1) * b.height {
                    if !bits::is_zero(&b.movements[i * sm..][..sm]) {
                        moving.push(i);
                    }
                }
            }
        }
        let mut moved = !moving.is_empty();
        while moved {
            moved = false;
            for &i in &moving {
                moved |= self.reposition_cell(i);
            }
        }
        let mut undo = false;
        // A rigid game's bookkeeping is cleared in every cell.
        let count = if game.rigid {
            self.s.board.len()
        } else {
            moving.len()
        };
        for i in (0..count).map(|k| if game.rigid { k } else { moving[k] }) {
            if !bits::is_zero(&self.s.board.movements[i * sm..][..sm]) {
                let mut mv = Scratch::from(&self.s.board.movements[i * sm..][..sm]);
                if game.rigid {
                    let applied = &self.s.board.rigid_applied[i * sm..][..sm];
                    if !bits::is_zero(applied) {
                        for (m, a) in mv.get_mut().iter_mut().zip(applied) {
                            *m &= a;
                        }
                        if !bits::is_zero(mv.get())
                            && let Some(layer) =
                                (0..game.layer_count).find(|&l| bits::field(mv.get(), 5 * l) != 0)
                        {
                            let index =
                                bits::field(&self.s.board.rigid_group[i * sm..][..sm], 5 * layer)
                                    as usize;
                            if let Some(&g) =
                                index.checked_sub(1).and_then(|k| game.rigid_groups.get(k))
                                && !banned[g]
                            {
                                banned[g] = true;
                                undo = true;
                            }
                        }
                    }
                }
                let cell = &self.s.board.objects[i * so..][..so];
                let sounds = if self.as_runner() {
                    &game.sounds.cant_move[..]
                } else {
                    &[]
                };
                for s in sounds {
                    if bits::any(cell, &s.objects)
                        && bits::any(&s.directions, mv.get())
                        && !self.s.cant_move.contains(&s.seed)
                    {
                        self.s.cant_move.push(s.seed.clone());
                    }
                }
                self.s.board.movements[i * sm..][..sm].fill(0);
            }
            if game.rigid {
                self.s.board.rigid_group[i * sm..][..sm].fill(0);
                self.s.board.rigid_applied[i * sm..][..sm].fill(0);
            }
        }
        self.s.scratch.moving = moving;
        undo
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

impl Session {
    /// The rule lines that fired in this session, when tracked.
    pub fn fired_lines(&self) -> impl Iterator<Item = usize> + '_ {
        self.fired
            .iter()
            .enumerate()
            .filter_map(|(line, fired)| fired.then_some(line))
    }
}

/// Buffers a turn reuses, so that playing allocates nothing once warm.
#[derive(Clone, Debug, Default)]
struct Scratchpad {
    /// Spare level copies, for the backups of nested turns.
    levels: Vec<Vec<u32>>,
    start_objects: Vec<u32>,
    start_moves: Vec<u32>,
    players: Vec<usize>,
    /// The cells holding a movement when movements are resolved.
    moving: Vec<usize>,
    banned: Vec<bool>,
    matches: Matches,
    odometer: Vec<usize>,
    tuple: Vec<Match>,
    /// The group being applied: the cells its rules have changed, and its
    /// rules' rows' matches as each one's last scan left them.
    changes: Changes,
    kept: Kept,
}

/// What rules keep between their scans in a group's passes, with a
/// rescan's buffers.
#[derive(Clone, Debug, Default)]
struct Kept {
    /// By `Rule::first_row` and row.
    rows: Vec<RowMatches>,
    /// A rescan's bitsets.
    marks: Vec<u64>,
}

/// The cells changed while a group is applied, in order.
#[derive(Clone, Debug, Default)]
struct Changes {
    /// Whether a group is being applied (changes are recorded).
    on: bool,
    /// Counts the groups applied: a row's kept matches are from this
    /// group's passes when they carry its count.
    run: u64,
    /// Each change's cell (a cell changed twice is listed twice).
    cells: Vec<usize>,
    /// Per cell of the board: `cells.len()` just after its last change,
    /// 0 for none.
    at: Vec<usize>,
}

impl Changes {
    /// Starts recording, for a board of `len` cells, with no change yet.
    fn start(&mut self, len: usize) {
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

    fn stop(&mut self) {
        self.on = false;
    }

    fn record(&mut self, cell: usize) {
        if self.on {
            self.cells.push(cell);
            self.at[cell] = self.cells.len();
        }
    }

    /// A mark for [`Changes::since`]: the changes so far.
    fn now(&self) -> usize {
        self.cells.len()
    }

    /// The cells changed after the mark `since`.
    fn since(&self, since: usize) -> &[usize] {
        &self.cells[since..]
    }

    fn changed_since(&self, cell: usize, since: usize) -> bool {
        self.at[cell] > since
    }
}

/// One rule row's matches, as its last scan in a group left them.
#[derive(Clone, Debug, Default)]
struct RowMatches {
    /// [`Changes::run`] of that group (0: none yet).
    run: u64,
    /// [`Changes::now`] at that scan.
    scanned: usize,
    matches: Vec<Match>,
}

/// What a line of the board (a row or a column) must hold for a rule row
/// to match in it: every object and movement the row requires, and an
/// object of each of its properties. A line's masks are the OR of its
/// cells (or more), so a line that fails this holds no match.
struct Needs<'r> {
    objects: &'r [u32],
    moves: &'r [u32],
    any_of: &'r [Box<[u32]>],
}

impl Needs<'_> {
    /// Whether a line with these masks, `so` and `sm` words, could hold a match.
    #[inline(always)]
    fn could_hold(&self, so: usize, sm: usize, objects: &[u32], moves: &[u32]) -> bool {
        bits::within(&self.objects[..so], objects)
            && bits::within(&self.moves[..sm], moves)
            && self.any_of.iter().all(|m| bits::any(&m[..so], objects))
    }
}

/// The cells at which a row of a rule may start: those that keep all of it
/// on the board.
struct Starts {
    x: std::ops::Range<usize>,
    y: std::ops::Range<usize>,
    horizontal: bool,
}

impl Starts {
    /// Where a start comes in a scan: a horizontal rule's go row by row, a
    /// vertical rule's column by column.
    fn order(&self, x: usize, y: usize, width: usize, height: usize) -> usize {
        if self.horizontal {
            y * width + x
        } else {
            x * height + y
        }
    }

    /// The start that comes at `order` in a scan.
    fn start(&self, order: usize, width: usize, height: usize) -> usize {
        if self.horizontal {
            (order % width) * height + order / width
        } else {
            order
        }
    }
}

/// Every row's matches of one rule, back to back: row `r`'s end at `ends[r]`.
#[derive(Clone, Debug, Default)]
struct Matches {
    all: Vec<Match>,
    ends: Vec<usize>,
}

impl Matches {
    fn row(&self, r: usize) -> &[Match] {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        &self.all[start..self.ends[r]]
    }
}

/// Where one row of a rule matched: its first cell and its ellipses' gaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Match {
    start: usize,
    gaps: [usize; 2],
}

/// Every combination of one match per row, the first row varying fastest.
fn tuples(rows: &[Vec<Match>]) -> Vec<Vec<Match>> {
    let mut out: Vec<Vec<Match>> = vec![Vec::new()];
    for row in rows {
        let mut next = Vec::with_capacity(out.len() * row.len());
        for m in row {
            for t in &out {
                let mut t = t.clone();
                t.push(*m);
                next.push(t);
            }
        }
        out = next;
    }
    out
}
