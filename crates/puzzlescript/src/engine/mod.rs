//! The turn engine: one input in, rules and movements applied, commands
//! carried out, exactly in the official engine's order.
//!
//! [`Engine`] plays one game. Its level is a [`Board`]: per cell the
//! object bits and the movement fields, column-major (cell `(x, y)` at
//! `x * height + y`). Masks of what each row, column and the whole board
//! hold let a rule skip rows that cannot match; they may hold more than
//! the board (they are only ever widened within a turn), never less.
//!
//! One concern a file, each an `impl Engine` of its own beside this one's
//! public face:
//!
//! * `session.rs`: levels loaded, undone and restarted.
//! * `turn.rs`: a turn, the official `processInput`, and its command queue.
//! * `groups.rs`: rule groups applied in order, with their loops, at every
//!   match or at one chosen at random.
//! * `matching.rs`: where each row of a rule matches, by one cell matcher
//!   specialised for the game's words a cell.
//! * `bitrows.rs`: a rule row matched over the whole board at once, by
//!   bit operations on the holders, where the game and board allow.
//! * `dormant.rs`: a plain rule's matches that would write nothing passed
//!   over, unless an earlier match's write wakes them.
//! * `rescan.rs`: a group's later passes bring its rules' matches up to
//!   date from the cells changed since, rather than scan again.
//! * `holders.rs`: per object, the cells that hold it (games of one word
//!   of objects a cell), for the matcher, the players and the win.
//! * `write.rs`: a match's right-hand side written into its cells, as the
//!   matcher reads them: with the words a cell takes as constants.
//! * `movement.rs`: the players' movements, then every movement resolved.
//! * `win.rs`: the win, by a rule or by the win conditions.
//! * `board.rs`: the [`Board`], its cells and masks, and the level as the
//!   conformance tables print it.

/// Calls `$self.$method::<SO, SM>(…)` with the words of objects and of
/// movements the game's cells take as constants where they are one or two
/// (the common games: their loops unroll), else as 0 (read at run time).
/// Defined before the rooms, for the matcher's and the writes' use.
macro_rules! by_strides {
    ($self:ident.$method:ident($($arg:expr),* $(,)?)) => {
        match ($self.game.stride_obj, $self.game.stride_mov) {
            (1, 1) => $self.$method::<1, 1>($($arg),*),
            (2, 1) => $self.$method::<2, 1>($($arg),*),
            (1, 2) => $self.$method::<1, 2>($($arg),*),
            (2, 2) => $self.$method::<2, 2>($($arg),*),
            _ => $self.$method::<0, 0>($($arg),*),
        }
    };
}

mod bitrows;
mod board;
mod dormant;
mod groups;
mod holders;
mod matching;
mod movement;
mod rescan;
mod session;
mod turn;
mod win;
mod write;

pub use board::Board;
/// Random walks over the fixture and example games, for tests beyond the
/// engine's own.
#[cfg(test)]
pub(crate) use holders::tests::{games, random_input, walk};

use crate::bits;
use crate::command::Commands;
use crate::compile::Game;
use crate::rng::Rng;
use matching::{Match, Matches};
use rescan::{Changes, Kept};
use turn::Turn;

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
            Input::Up => bits::UP,
            Input::Down => bits::DOWN,
            Input::Left => bits::LEFT,
            Input::Right => bits::RIGHT,
            Input::Action => bits::ACTION,
        }
    }
}

/// Whom the engine plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The conformance runner: a win loads the next level at once, and
    /// play is recorded (an undo stack, the sounds played).
    Runner,
    /// A solver: a win stops the engine, with [`Engine::won`] set, and
    /// nothing is recorded (a solver never undoes, and hears nothing).
    Solver,
}

impl Mode {
    /// Whether play is recorded: an undo stack, and the sounds played.
    fn records(self) -> bool {
        self == Mode::Runner
    }
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
    /// The commands the turn's rules have queued.
    queue: Commands,
    rng: Rng,
    backups: Vec<Vec<u32>>,
    restart_target: Vec<u32>,
    againing: bool,
    /// Whether the last turn of play ended on objects other than those it
    /// started from, as the turn found comparing them (false where it did
    /// not compare: nothing written, a cancel, a turn undone).
    left_start: bool,
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
    mode: Mode,
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
    pub fn load(game: &'g Game, index: usize, seed: &str, mode: Mode) -> Option<Engine<'g>> {
        Engine::load_with(game, index, seed, mode, false)
    }

    /// [`Engine::load`], keeping track of which rule lines fire from the
    /// level-start turn on ([`Engine::fired`]): what tells a dead rule.
    pub fn load_tracking(
        game: &'g Game,
        index: usize,
        seed: &str,
        mode: Mode,
    ) -> Option<Engine<'g>> {
        Engine::load_with(game, index, seed, mode, true)
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
        self.process(None, Turn::Play);
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

    /// Forgets which rule lines have fired, so that [`Engine::fired`] tells
    /// those that fire from now on (the ones that keep a loop going).
    pub fn forget_fired(&mut self) {
        self.s.fired.fill(false);
    }

    /// The session, to keep for another engine on the same game and level.
    pub fn into_session(self) -> Session {
        self.s
    }

    /// An engine that goes on from a kept session (of the same game).
    pub fn resume(game: &'g Game, session: Session) -> Engine<'g> {
        Engine { game, s: session }
    }

    /// Whether the last turn of play is known to have left the objects
    /// other than it found them (a solver then need not compare them).
    pub fn left_start(&self) -> bool {
        self.s.left_start
    }

    /// Whether the level was won (by a [`Mode::Solver`] engine).
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
        fill(self.s.board.objects_mut(), &mut self.s.restart_target);
        self.keep_board();
    }

    /// [`Engine::keep_board`], but with the board the last turn with an
    /// input started from put back (the restart target and the generator
    /// are as they are): for a solver playing another move from one
    /// state. False, and nothing done, where the engine no longer knows
    /// that board (a turn without input has run since).
    pub fn put_back_start(&mut self) -> bool {
        if !self.s.board.put_back_start() {
            return false;
        }
        self.keep_board();
        true
    }

    /// [`Engine::set_board`] for the board and restart target the engine
    /// holds: what it knows of them (the cells holding each object, the
    /// masks) is kept.
    pub fn keep_board(&mut self) {
        self.s.board.movements.fill(0);
        self.s.board.still = true;
        self.s.againing = false;
        self.s.winning = false;
        self.s.queue.clear();
    }

    /// The random generator, where the last turn left it.
    pub(crate) fn rng(&self) -> &Rng {
        &self.s.rng
    }

    /// The random generator, to put where a stored state left it.
    pub(crate) fn rng_mut(&mut self) -> &mut Rng {
        &mut self.s.rng
    }

    /// One turn with an input (`Some`) or none (a tick, or an again turn).
    /// Returns whether the level changed.
    pub fn input(&mut self, input: Option<Input>) -> bool {
        self.process(input, Turn::Play)
    }

    /// Runs the again turns that are due.
    pub fn drain(&mut self) {
        while self.s.againing {
            self.s.againing = false;
            self.process(None, Turn::Play);
        }
    }

    /// Undo, as the runner's `undo` input.
    pub fn undo(&mut self) {
        self.do_undo(false);
    }

    /// Restart, as the runner's `restart` input.
    pub fn restart(&mut self) {
        self.do_restart(false);
    }
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
    /// The rows' starts the last sieve that passed found.
    sifted: bitrows::Sifted,
    /// Rule rows are matched cell by cell even where `bitrows.rs` could
    /// match them (set by the tests that hold the two to each other).
    cell_by_cell: bool,
    /// Every match of a rule is visited, even those `dormant.rs` passes
    /// over (set by the tests that hold the two to each other).
    visit_dormant: bool,
    /// The dormant matches passed over and woken, for those tests.
    #[cfg(test)]
    dormancy: dormant::Dormancy,
}
