//! One level of a PuzzleScript game as a puzzle-qa [`Game`], so that the
//! core's searches, replay and checks play it through the engine.
//!
//! A state is bytes, a stream of bits: two bits that say whether the level
//! is won (or, 2, a hang: a move whose `again` turns never stop, shown to a
//! search as the state it was played from; `Game::is_hung`), the board,
//! then, for a game that uses `checkpoint`, its restart target, then, for a
//! game that uses randomness, its random generator (so that a move draws on
//! from where the last one left it, as in play, and a replay is a chain of
//! pure steps). A board is packed (`pack/`): only the objects play can
//! change, each layer in the smaller of its codes for the level. A state is
//! padded with zeros to the most bits a board with the start's numbers of
//! objects can take, so that a level's states are all one length unless
//! play makes more objects than the start has, or objects appear or vanish
//! outside the cells where the start holds one. Movements are not part of
//! it: every turn ends with none.

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use puzzle_qa_core::game::{
    Ablation, Chance, Cost, Extras, Game as CoreGame, Idle, Mechanics, NoPar, NotationError,
};
use puzzle_qa_core::search::{self, Hang};

use crate::compile::{Game, LevelData};
use crate::engine::{Engine, Input, Mode, Session};
use crate::pack::{self, Packing};
use crate::play::{self, AGAIN_LIMIT, Move, Notation, drain};
use crate::rng;

/// A level of a compiled game.
#[derive(Debug)]
pub struct Level {
    game: Arc<Game>,
    /// Its index among all levels, message entries counted.
    index: usize,
    /// How a board packs.
    packing: Packing,
    /// Bytes of the start's state: every state has at least as many.
    length: usize,
    /// Whether the state carries the restart target.
    checkpoints: bool,
    /// Whether the state carries the random generator.
    random: bool,
    seed: String,
    start: Vec<u8>,
    /// Its engines track which rule lines fire (to find dead rules).
    tracking: bool,
    /// Sessions ready to lend to an engine: a search's threads reuse them
    /// instead of building a board per state. Each is marked with the
    /// thread that gave it back, which takes it again: its board and
    /// buffers are still in that core's cache.
    spare: Mutex<Vec<(ThreadId, Spare)>>,
}

/// What one search thread borrows to play a state: an engine's session,
/// the state unpacked (board, restart target, generator) and the buffers
/// packing uses, kept between uses.
#[derive(Debug)]
struct Spare {
    session: Session,
    buffers: Buffers,
}

/// What an engine holds of the state a move is played from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placed {
    /// Nothing known: the board and restart target are put in place.
    No,
    /// The state's board and restart target (the last move from it
    /// changed neither): nothing is copied.
    Board,
    /// The last move from it was played on this engine: the engine may
    /// put its board back itself ([`Engine::put_back_start`]).
    Start,
}

/// A state unpacked, and what packing the next reuses.
#[derive(Debug)]
struct Buffers {
    unpacked: Unpacked,
    next: Vec<u8>,
    scratch: pack::Scratch,
}

/// A state's parts as the engine holds them.
#[derive(Clone, Debug, Default)]
struct Unpacked {
    board: Vec<u32>,
    target: Vec<u32>,
    rng: Vec<u8>,
}

impl Clone for Level {
    fn clone(&self) -> Self {
        Level {
            game: Arc::clone(&self.game),
            index: self.index,
            packing: self.packing.clone(),
            length: self.length,
            checkpoints: self.checkpoints,
            random: self.random,
            seed: self.seed.clone(),
            start: self.start.clone(),
            tracking: self.tracking,
            spare: Mutex::new(Vec::new()),
        }
    }
}

/// What a move that settled tells of the board it was played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    /// The board is as it was: the turn changed nothing, and no again
    /// turn followed.
    BoardKept,
    /// The board may have changed (or changed and came back).
    Maybe,
    /// The board changed: the turn found it so, and no again turn
    /// followed.
    BoardLeft,
}

/// The first two bits of a state: neither won nor hung.
const PLAYING: u8 = 0;
/// The first two bits of a won state.
const WON: u8 = 1;
/// The first two bits of a hang: what a search is shown for a move whose
/// again turns never stop.
const HUNG: u8 = 2;
/// Those two bits.
const STATUS: u8 = 0b11;

/// How many again turns past [`AGAIN_LIMIT`] tell the rules that keep a
/// hang going: enough for any loop a designer writes by hand to come round.
const HANG_WITNESS: usize = 100;

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Level {
    /// Level `index` (message entries counted) of `game`, played with the
    /// random generator seeded with `seed`. `None` unless it is a grid level.
    pub fn new(game: Arc<Game>, index: usize, seed: &str) -> Option<Level> {
        let LevelData::Grid(_) = game.levels().get(index)? else {
            return None;
        };
        let mut engine = Engine::load(&game, index, seed, Mode::Solver)?;
        // A start whose again turns never stop is left as they leave it.
        drain(&mut engine);
        let layers: Vec<&[u32]> = game.layer_masks.iter().map(|l| &l[..]).collect();
        let packing = Packing::new(
            &engine.board().objects,
            game.stride(),
            &game.changing_objects(),
            &game.moving_objects(),
            &game.appearing_objects(),
            &layers,
        );
        let mut level = Level {
            checkpoints: game.uses_checkpoint(),
            random: game.uses_random(),
            game: Arc::clone(&game),
            index,
            packing,
            length: 0,
            seed: seed.to_string(),
            start: Vec::new(),
            tracking: false,
            spare: Mutex::new(Vec::new()),
        };
        let boards = if level.checkpoints { 2 } else { 1 };
        let rng_bits = if level.random { 8 * rng::BYTES } else { 0 };
        level.length = (2 + boards * level.packing.most_bits() + rng_bits).div_ceil(8);
        level.start = level.state_of(&engine);
        Some(level)
    }

    /// The compiled game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Columns and rows.
    pub fn size(&self) -> (usize, usize) {
        match &self.game.levels()[self.index] {
            LevelData::Grid(grid) => (grid.width, grid.height),
            LevelData::Message(_) => unreachable!("a level is a grid level"),
        }
    }

    /// The board of `state`, unpacked: `stride` words a cell, column-major
    /// (cell `(x, y)` at `x * height + y`).
    pub(crate) fn board_of(&self, state: &[u8]) -> Vec<u32> {
        let mut unpacked = self.blank();
        self.unpack(state, &mut pack::Scratch::default(), &mut unpacked);
        unpacked.board
    }

    /// Buffers of the right sizes for a state's parts.
    fn blank(&self) -> Unpacked {
        let (width, height) = self.size();
        let cells = width * height * self.game.stride();
        Unpacked {
            board: vec![0; cells],
            target: vec![0; if self.checkpoints { cells } else { 0 }],
            rng: vec![0; if self.random { rng::BYTES } else { 0 }],
        }
    }

    fn state_of(&self, engine: &Engine) -> Vec<u8> {
        let mut state = Vec::with_capacity(self.length);
        self.write_state(engine, &mut pack::Scratch::default(), &mut state);
        state
    }

    /// Appends the engine's state: status, board, restart target, random
    /// generator, at least [`Level::length`] bytes.
    fn write_state(&self, engine: &Engine, scratch: &mut pack::Scratch, out: &mut Vec<u8>) {
        scratch.writer.clear();
        let status = if engine.won() { WON } else { PLAYING };
        scratch.writer.put(u64::from(status), 2);
        let holding = engine
            .board()
            .holding()
            .map(|(bits, words)| pack::Holding { bits, words });
        self.packing
            .pack_from(&engine.board().objects, holding, scratch);
        if self.checkpoints {
            self.packing.pack(engine.restart_target(), scratch);
        }
        if self.random {
            for chunk in engine.rng().bytes().chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                scratch
                    .writer
                    .put(u64::from_le_bytes(word), 8 * chunk.len() as u32);
            }
        }
        #[cfg(debug_assertions)]
        let begin = out.len();
        scratch.writer.bytes_into(out, self.length);
        // Every board must come back as it went in, whichever form it
        // took: checked on every state a debug build stores.
        #[cfg(debug_assertions)]
        {
            let mut back = self.blank();
            self.unpack(&out[begin..], scratch, &mut back);
            assert!(back.board == engine.board().objects, "a board packs back");
            assert!(
                !self.checkpoints || back.target == engine.restart_target(),
                "a restart target packs back"
            );
            assert!(
                !self.random || engine.rng().is(&back.rng),
                "a generator packs back"
            );
        }
    }

    /// Reads `state` into `into`'s parts (buffers of [`Level::blank`]'s sizes).
    fn unpack(&self, state: &[u8], scratch: &mut pack::Scratch, into: &mut Unpacked) {
        let reader = &mut scratch.reader;
        reader.load(state);
        reader.get(2);
        self.packing.unpack(reader, &mut into.board);
        if self.checkpoints {
            self.packing.unpack(reader, &mut into.target);
        }
        for byte in &mut into.rng {
            *byte = reader.get(8) as u8;
        }
    }

    /// An engine, and `state` unpacked, with the buffers to pack the next.
    fn borrow(&self, state: &[u8]) -> (Engine<'_>, Buffers) {
        let me = std::thread::current().id();
        let spare = self
            .spare
            .lock()
            .map(|mut spare| {
                let mine = spare.iter().rposition(|(owner, _)| *owner == me);
                let at = mine.or(spare.len().checked_sub(1))?;
                Some(spare.swap_remove(at).1)
            })
            .unwrap_or(None);
        let (engine, mut buffers) = match spare {
            Some(s) => (Engine::resume(&self.game, s.session), s.buffers),
            None => {
                let load = if self.tracking {
                    Engine::load_tracking
                } else {
                    Engine::load
                };
                let engine = load(&self.game, self.index, &self.seed, Mode::Solver)
                    .expect("a grid level loads");
                let buffers = Buffers {
                    unpacked: self.blank(),
                    next: Vec::with_capacity(self.length),
                    scratch: pack::Scratch::default(),
                };
                (engine, buffers)
            }
        };
        self.unpack(state, &mut buffers.scratch, &mut buffers.unpacked);
        (engine, buffers)
    }

    fn give_back(&self, engine: Engine<'_>, buffers: Buffers) {
        if let Ok(mut spare) = self.spare.lock() {
            spare.push((
                std::thread::current().id(),
                Spare {
                    session: engine.into_session(),
                    buffers,
                },
            ));
        }
    }

    /// Plays `mv` from the unpacked state `from`; `None` if its again
    /// turns never stop.
    fn play(&self, engine: &mut Engine, from: &Unpacked, mv: Move) -> Option<Played> {
        self.play_from(engine, from, Placed::No, mv)
    }

    /// [`Level::play`], told by `placed` what the engine holds of `from`.
    fn play_from(
        &self,
        engine: &mut Engine,
        from: &Unpacked,
        placed: Placed,
        mv: Move,
    ) -> Option<Played> {
        match placed {
            Placed::Board => engine.keep_board(),
            Placed::Start if !self.checkpoints && engine.put_back_start() => {}
            _ => engine.set_board(|b, t| {
                b.copy_from_slice(&from.board);
                if self.checkpoints {
                    t.copy_from_slice(&from.target);
                }
            }),
        }
        if self.random {
            engine.rng_mut().read(&from.rng);
        }
        let changed = engine.input(mv.input());
        let again = engine.againing();
        if drain(engine) {
            return None;
        }
        // With no again turn after it, a turn that found the board changed,
        // or says it changed nothing, has told how it left the board: no
        // need to compare it.
        Some(if again {
            Played::Maybe
        } else if engine.left_start() {
            Played::BoardLeft
        } else if changed {
            Played::Maybe
        } else {
            Played::BoardKept
        })
    }

    /// The successors of `state`, unpacked in `buffers`, played on
    /// `engine`; each move starts from that copy.
    fn successors_on(
        &self,
        engine: &mut Engine,
        buffers: &mut Buffers,
        state: &[u8],
        mut visit: impl FnMut(Move, &[u8], Cost),
    ) {
        let Buffers {
            unpacked,
            next,
            scratch,
        } = buffers;
        let mut placed = Placed::No;
        for &mv in self.moves_list() {
            let Some(played) = self.play_from(engine, unpacked, placed, mv) else {
                placed = Placed::No;
                // Shown, not left out: the state it was played from,
                // marked. The search reports it, and `step` says why.
                next.clear();
                next.extend_from_slice(state);
                if let Some(first) = next.first_mut() {
                    *first = (*first & !STATUS) | HUNG;
                }
                visit(mv, next, 1);
                continue;
            };
            // A move that changes nothing leads nowhere new (it may win);
            // that is told on the unpacked board, before any packing.
            let board_kept = match played {
                Played::BoardKept => {
                    debug_assert!(engine.board().objects == unpacked.board);
                    true
                }
                Played::Maybe => engine.board().objects == unpacked.board,
                Played::BoardLeft => {
                    debug_assert!(engine.board().objects != unpacked.board);
                    false
                }
            };
            let target_kept = !self.checkpoints || engine.restart_target() == &unpacked.target[..];
            let kept = board_kept && target_kept;
            placed = if kept { Placed::Board } else { Placed::Start };
            let unchanged = kept && (!self.random || engine.rng().is(&unpacked.rng));
            if unchanged && !engine.won() {
                continue;
            }
            next.clear();
            self.write_state(engine, scratch, next);
            visit(mv, next, 1);
        }
    }

    /// Why `mv` from the unpacked state `from` never settles: its again
    /// turns do not stop, and these rule lines fire in them, again and
    /// again, past the limit (a line each).
    fn never_settles(&self, from: &Unpacked, mv: Move) -> Refusal {
        let mut engine = Engine::load_tracking(&self.game, self.index, &self.seed, Mode::Solver)
            .expect("a grid level loads");
        let firing: Vec<String> = match self.play(&mut engine, from, mv) {
            Some(_) => Vec::new(),
            None => {
                engine.forget_fired();
                for _ in 0..HANG_WITNESS {
                    if !engine.againing() {
                        break;
                    }
                    engine.again();
                }
                let fired: Vec<usize> = engine.fired().collect();
                self.game
                    .rule_lines()
                    .iter()
                    .filter(|rule| fired.contains(&rule.line))
                    .map(|rule| format!("\n  line {}: {}", rule.line, rule.written))
                    .collect()
            }
        };
        let rules = match &firing[..] {
            [] => String::new(),
            [one] => format!("; the rule that keeps firing:{one}"),
            many => format!("; the rules that keep firing:{}", many.concat()),
        };
        Refusal(format!(
            "the game keeps setting off `again` turns (more than {AGAIN_LIMIT} after one \
             move){rules}"
        ))
    }

    /// The moves from any state: the four directions, the action unless
    /// the prelude says `noaction`, and a tick where the game counts ticks.
    fn moves_list(&self) -> &'static [Move] {
        const ALL: [Move; 6] = [
            Move::Input(Input::Up),
            Move::Input(Input::Down),
            Move::Input(Input::Left),
            Move::Input(Input::Right),
            Move::Input(Input::Action),
            Move::Tick,
        ];
        const NO_ACTION: [Move; 5] = [
            Move::Input(Input::Up),
            Move::Input(Input::Down),
            Move::Input(Input::Left),
            Move::Input(Input::Right),
            Move::Tick,
        ];
        let ticks = usize::from(self.game.counts_ticks());
        if self.game.prelude().noaction {
            &NO_ACTION[..4 + ticks]
        } else {
            &ALL[..5 + ticks]
        }
    }
}

impl CoreGame for Level {
    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().chance().draw();
    type State = [u8];
    type Key = ();
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> Vec<u8> {
        self.start.clone()
    }

    fn key(&self, _: &[u8]) {}

    fn is_won(&self, state: &[u8]) -> bool {
        state.first().is_some_and(|b| b & STATUS == WON)
    }

    fn is_hung(&self, state: &[u8]) -> bool {
        state.first().is_some_and(|b| b & STATUS == HUNG)
    }

    fn moves(&self, _: &[u8]) -> impl Iterator<Item = Move> {
        self.moves_list().iter().copied()
    }

    fn step(&self, state: &[u8], mv: Move) -> Result<(Vec<u8>, Cost), Refusal> {
        let (mut engine, buffers) = self.borrow(state);
        let result = match self.play(&mut engine, &buffers.unpacked, mv) {
            Some(_) => Ok((self.state_of(&engine), 1)),
            None => Err(self.never_settles(&buffers.unpacked, mv)),
        };
        self.give_back(engine, buffers);
        result
    }

    fn successors(&self, state: &[u8], mut visit: impl FnMut(Move, &[u8], Cost)) {
        self.successors_of_many(&[state], |_, mv, next, cost| visit(mv, next, cost));
    }

    fn successors_of_many(
        &self,
        states: &[&[u8]],
        mut visit: impl FnMut(usize, Move, &[u8], Cost),
    ) {
        // One engine for all of them, borrowed once: a search thread keeps
        // it, and its buffers stay in that core's cache.
        let Some((first, _)) = states.split_first() else {
            return;
        };
        let (mut engine, mut buffers) = self.borrow(first);
        for (index, state) in states.iter().enumerate() {
            if index > 0 {
                self.unpack(state, &mut buffers.scratch, &mut buffers.unpacked);
            }
            self.successors_on(&mut engine, &mut buffers, state, |mv, next, cost| {
                visit(index, mv, next, cost)
            });
        }
        self.give_back(engine, buffers);
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        moves.iter().map(|&m| play::move_letter(m)).collect()
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        play::parse_moves(text, Notation::of(&self.game))
            .map_err(|(column, message)| NotationError::new(column, message))
    }
}

/// What replaces an ablated rule or object: nothing.
const NOTHING: &str = "nothing";

impl Level {
    /// The level as another compile of the game leaves it (same level,
    /// same seed); `None` when that compile fails or lacks the level.
    fn recompiled(&self, source: &str) -> Option<Level> {
        match crate::load(source) {
            Ok((game, _)) => Level::new(Arc::new(game), self.index, &self.seed),
            Err(_) => None,
        }
    }

    /// The objects the level's map places (the background aside, which
    /// every cell has), by id.
    fn placed(&self) -> Vec<usize> {
        let LevelData::Grid(grid) = &self.game.levels()[self.index] else {
            return Vec::new();
        };
        let stride = self.game.stride();
        let mut any = vec![0u32; stride];
        for cell in grid.cells.chunks(stride) {
            crate::bits::or(&mut any, cell);
        }
        crate::bits::ones(&any)
            .filter(|&id| Some(id) != self.game.background())
            .collect()
    }

    /// The level explored to the end (a won state leads nowhere), within
    /// `limit` states: the search's statistics (stored: every state play
    /// can reach, the start and won states included), and whether it ended
    /// before the limit.
    pub fn explore(&self, limit: usize) -> (search::Stats, bool) {
        let outcome = search::bfs(&Explore(self.clone()), limit);
        (outcome.stats(), outcome.status() != search::Status::Limit)
    }

    /// The rule lines that fire in some state of the level's reachable
    /// space (the level-start turn included), or `None` when the space
    /// holds more than `limit` states or a move in it never settles.
    pub fn fired_rules(&self, limit: usize) -> Option<std::collections::BTreeSet<usize>> {
        self.explore_firing(limit)?.ok()
    }

    /// [`Level::fired_rules`], or the first move of the reachable space,
    /// in breadth-first order, that never settles (found even when the
    /// space is bigger than `limit`, if it was met before).
    fn explore_firing(
        &self,
        limit: impl Into<search::Budget>,
    ) -> Option<Result<std::collections::BTreeSet<usize>, Hang<Move>>> {
        let mut start = Engine::load_tracking(&self.game, self.index, &self.seed, Mode::Solver)?;
        drain(&mut start);
        let mut fired: std::collections::BTreeSet<usize> = start.fired().collect();
        let probe = Explore(Level {
            tracking: true,
            spare: Mutex::new(Vec::new()),
            ..self.clone()
        });
        let outcome = search::bfs(&probe, limit);
        if let Some(hang) = outcome.hang() {
            return Some(Err(hang.clone()));
        }
        if outcome.status() == search::Status::Limit {
            return None;
        }
        let spare = probe.0.spare.lock().ok()?;
        fired.extend(
            spare
                .iter()
                .flat_map(|(_, spare)| spare.session.fired_lines()),
        );
        Some(Ok(fired))
    }
}

impl Mechanics for Level {
    /// Every rule line of the game, named by its text as the compiler
    /// reads it (`rule: [ > player | crate ] -> …`, see
    /// [`crate::compile::NamedRule`]), with its line; then every object
    /// the level's map places, by its name as the OBJECTS section writes
    /// it. An object a win condition names is part of the goal.
    fn mechanics(&self) -> Vec<Ablation> {
        let rules = self.game.rule_lines().iter().map(|rule| Ablation {
            line: Some(rule.line),
            ..Ablation::everywhere(rule.name.clone(), NOTHING)
        });
        let objects = self.placed().into_iter().map(|id| Ablation {
            goal: self.game.in_goal(id),
            ..Ablation::everywhere(self.game.shown_name(id).to_string(), NOTHING)
        });
        rules.chain(objects).collect()
    }

    /// Each object the level's map places (the background aside) on each
    /// cell where it places it, in the order of [`Mechanics::mechanics`],
    /// then row by row.
    fn pieces(&self) -> Vec<Ablation> {
        let LevelData::Grid(grid) = &self.game.levels()[self.index] else {
            return Vec::new();
        };
        let stride = self.game.stride();
        let mut pieces = Vec::new();
        for id in self.placed() {
            for row in 0..grid.height {
                for col in 0..grid.width {
                    let cell = &grid.cells[(col * grid.height + row) * stride..][..stride];
                    if cell[id / 32] >> (id % 32) & 1 == 1 {
                        pieces.push(Ablation {
                            at: Some((row, col)),
                            goal: self.game.in_goal(id),
                            ..Ablation::everywhere(self.game.shown_name(id).to_string(), NOTHING)
                        });
                    }
                }
            }
        }
        pieces
    }

    /// A rule: the game compiled without its line (the line left blank, so
    /// every other keeps its number); a `+` line alone leaves the rest of
    /// its group. An object: taken out of every cell of the level's map
    /// (or of its one cell, for a piece), before the level-start turn. A
    /// copy whose compile fails (removing a line can leave another
    /// meaningless) is played as the level itself.
    fn ablate(&self, ablation: &Ablation) -> Level {
        if let Some(line) = ablation.line {
            let source: Vec<&str> = self.game.source().split('\n').collect();
            let without: Vec<&str> = source
                .iter()
                .enumerate()
                .map(|(index, text)| if index + 1 == line { "" } else { text })
                .collect();
            return self
                .recompiled(&without.join("\n"))
                .unwrap_or_else(|| self.clone());
        }
        let Some(id) =
            (0..self.game.id_names.len()).find(|&id| self.game.shown_name(id) == ablation.mechanic)
        else {
            return self.clone();
        };
        let mut game = (*self.game).clone();
        let stride = game.stride();
        if let LevelData::Grid(grid) = &mut game.levels[self.index] {
            let height = grid.height;
            for (index, cell) in grid.cells.chunks_mut(stride).enumerate() {
                let (row, col) = (index % height, index / height);
                if ablation.at.is_none_or(|at| at == (row, col)) {
                    cell[id / 32] &= !(1 << (id % 32));
                }
            }
        }
        Level::new(Arc::new(game), self.index, &self.seed).unwrap_or_else(|| self.clone())
    }

    /// The rules that fire in no state the level can reach: taking one out
    /// changes no turn, so it is decoration, and dead for this level. Or
    /// the first move met there whose again turns never stop.
    fn idle(&self, limit: search::Budget) -> Option<Idle<Move>> {
        let fired = match self.explore_firing(limit)? {
            Ok(fired) => fired,
            Err(hang) => return Some(Err(hang)),
        };
        let dead = self
            .game
            .rule_lines()
            .iter()
            .filter(|rule| !fired.contains(&rule.line))
            .map(|rule| rule.name.clone())
            .collect();
        Some(Ok(dead))
    }

    /// A rule's name is its text: it changes when the rule is edited.
    fn named_by_text(&self, name: &str) -> bool {
        crate::compile::is_rule_name(name)
    }
}

impl Chance for Level {
    fn no_par(&self) -> Option<NoPar> {
        if self.game.uses_random() {
            return Some(NoPar {
                status: "random",
                note: "the game uses randomness (a random rule group, a random object or \
                       randomdir): outcomes depend on the generator, so the level has no par"
                    .to_string(),
            });
        }
        if self.game.counts_ticks() {
            return None;
        }
        self.game.prelude().realtime_interval.map(|_| NoPar {
            status: "realtime",
            note: format!(
                "the game runs in real time (realtime_interval): turns happen without \
                 input, so the level has no par; to count a tick as a move (`T`), add \
                 the line `{}` to the game",
                play::TICKS_DIRECTIVE
            ),
        })
    }

    fn reseeded(&self, seed: &str) -> Level {
        Level::new(Arc::clone(&self.game), self.index, seed).unwrap_or_else(|| self.clone())
    }
}

/// A level explored to the end: nothing counts as a win, and a won state
/// leads nowhere, so a search visits every state play can reach.
struct Explore(Level);

impl CoreGame for Explore {
    type State = [u8];
    type Key = ();
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> Vec<u8> {
        self.0.start()
    }

    fn key(&self, _: &[u8]) {}

    fn is_won(&self, _: &[u8]) -> bool {
        false
    }

    fn is_hung(&self, state: &[u8]) -> bool {
        self.0.is_hung(state)
    }

    fn moves(&self, state: &[u8]) -> impl Iterator<Item = Move> {
        let moves = if self.0.is_won(state) {
            &[][..]
        } else {
            self.0.moves_list()
        };
        moves.iter().copied()
    }

    fn step(&self, state: &[u8], mv: Move) -> Result<(Vec<u8>, Cost), Refusal> {
        self.0.step(state, mv)
    }

    fn successors(&self, state: &[u8], visit: impl FnMut(Move, &[u8], Cost)) {
        if !self.0.is_won(state) {
            self.0.successors(state, visit);
        }
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        self.0.format_moves(moves)
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        self.0.parse_moves(text)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Level;
    use crate::engine::{Engine, Mode, games, random_input, walk};
    use crate::pack::{Holding, Scratch};

    /// Every level of every game played from random inputs: after every
    /// turn, the board packed from the engine's bitmaps of each object's
    /// cells is the bits the scan of every cell packs it to, and most
    /// boards of one word a cell were packed from them.
    #[test]
    fn boards_pack_from_the_holders_to_the_bits_the_scan_writes() {
        let (mut boards, mut held) = (0, 0);
        let (mut from, mut scanned) = (Scratch::default(), Scratch::default());
        for text in games() {
            let Ok((game, _)) = crate::load(&text) else {
                continue;
            };
            let game = Arc::new(game);
            for index in 0..game.levels().len() {
                let (Some(level), Some(mut engine)) = (
                    Level::new(Arc::clone(&game), index, "pack"),
                    Engine::load(&game, index, "pack", Mode::Solver),
                ) else {
                    continue;
                };
                let mut rng = 0x2545_f491_4f6c_dd1du64 ^ index as u64;
                for turn in 0..200 {
                    walk(&mut engine, random_input(&mut rng), turn, 50);
                    let board = engine.board();
                    let holding = board.holding().map(|(bits, words)| Holding { bits, words });
                    boards += 1;
                    held += usize::from(level.packing.packs_from(holding));
                    let bytes =
                        [(&mut from, holding), (&mut scanned, None)].map(|(scratch, holding)| {
                            scratch.writer.clear();
                            level.packing.pack_from(&board.objects, holding, scratch);
                            let mut bytes = Vec::new();
                            scratch.writer.bytes_into(&mut bytes, 0);
                            bytes
                        });
                    assert_eq!(bytes[0], bytes[1], "level {index}, turn {turn}");
                }
            }
        }
        assert!(
            held > 5000,
            "{held} of {boards} boards packed from the holders"
        );
    }
}
