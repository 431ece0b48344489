//! The rules of Hug Maze as one pure step function
//! (`docs/games/hugmaze.md`, "Rules of play"). Each rule is a refusal, checked in
//! the rulebook's order, so a refused move reports the first rule it breaks.
//!
//! Gates are derived, never stored: a gate cell is open while anything
//! stands on a plate of its letter or in the gate cell itself. Every
//! judgement is made on a `Standing`: who stands where, with the pushing bear
//! lifted off the grid and a sliding cushion removed when the rule says so.
//!
//! Decisions where the rulebook is silent:
//! * Moves are generated Bubu first, then Dudu, each U, D, L, R; the order
//!   changes which optimal solution is printed, never the par.
//! * Coordinates in refusal messages are 0-based (row, column).

use std::fmt;

use super::level::{self, Kind, Level, MAX_OBJECTS, Tile};
use super::notation;
use puzzle_qa_core::diagnostic::place;
use puzzle_qa_core::game::{Cost, Extras, Game, NotationError};

/// A cell index that is no cell: an empty object slot, a lifted bear.
pub const NOWHERE: u16 = u16::MAX;

/// Bubu (small: mouse holes) or Dudu (heavy: blocks and jars).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bear {
    /// The small bear: fits through mouse holes, pushes only cushions.
    Bubu = 0,
    /// The heavy bear: pushes blocks, jars and cushions, but does not fit
    /// through mouse holes.
    Dudu = 1,
}

impl Bear {
    /// Both bears, Bubu first: the order their moves are generated in.
    pub const BOTH: [Bear; 2] = [Bear::Bubu, Bear::Dudu];

    /// The bear's name, as messages print it.
    pub fn name(self) -> &'static str {
        match self {
            Bear::Bubu => "Bubu",
            Bear::Dudu => "Dudu",
        }
    }

    /// The bear's letter, in move notation and on the grid (`B` or `D`).
    pub fn letter(self) -> char {
        match self {
            Bear::Bubu => 'B',
            Bear::Dudu => 'D',
        }
    }

    fn other(self) -> Bear {
        match self {
            Bear::Bubu => Bear::Dudu,
            Bear::Dudu => Bear::Bubu,
        }
    }
}

/// A direction. Rows grow downwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up: towards row 0.
    U,
    /// Down: towards the last row.
    D,
    /// Left: towards column 0.
    L,
    /// Right: towards the last column.
    R,
}

impl Dir {
    /// The four directions, in the order each bear's moves are generated.
    pub const ALL: [Dir; 4] = [Dir::U, Dir::D, Dir::L, Dir::R];

    /// The direction's letter in move notation.
    pub fn letter(self) -> char {
        match self {
            Dir::U => 'U',
            Dir::D => 'D',
            Dir::L => 'L',
            Dir::R => 'R',
        }
    }
}

/// One move: a bear steps one cell (pushing what is there, if it may).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The bear that moves.
    pub bear: Bear,
    /// Which way it steps.
    pub dir: Dir,
}

impl Move {
    /// The eight moves in the order the solvers try them.
    pub const ALL: [Move; 8] = {
        let mut all = [Move {
            bear: Bear::Bubu,
            dir: Dir::U,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i].bear = Bear::BOTH[i / 4];
            all[i].dir = Dir::ALL[i % 4];
            i += 1;
        }
        all
    };
}

/// Everything that changes: where the bears are and where the objects are.
/// Objects of one kind sit in consecutive slots in increasing cell order
/// (`Level::canonical`), so the state is its own visited-set key and two
/// identical objects swapped are the same state. Unused slots hold
/// [`NOWHERE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each bear's cell, indexed by `Bear as usize` (Bubu first).
    pub bears: [u16; 2],
    /// The cell of the object in each slot; the level fixes each slot's kind.
    pub objects: [u16; MAX_OBJECTS],
}

/// What a legal move does.
pub(crate) enum Step {
    /// The bear walks onto this cell; nothing else changes.
    Walk(u16),
    /// The bear pushed an object: the whole next state.
    Push(State),
}

/// Why a move is refused. Cells are (row, column), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The target cell is off the grid (rule 2).
    OffGrid {
        /// The bear that tried to move.
        bear: Bear,
    },
    /// The target cell is a wall (rule 2).
    Wall {
        /// The bear that tried to move.
        bear: Bear,
        /// The wall's cell.
        at: (usize, usize),
    },
    /// The target cell holds a sleeping cat, which blocks like a wall
    /// (rule 2).
    Cat {
        /// The bear that tried to move.
        bear: Bear,
        /// The cat's cell.
        at: (usize, usize),
    },
    /// Dudu tried to enter a mouse hole, which only Bubu fits through
    /// (rule 3).
    HoleTooSmall {
        /// The mouse hole's cell.
        at: (usize, usize),
    },
    /// The target cell is a closed gate (rule 4).
    GateClosed {
        /// The bear that tried to move.
        bear: Bear,
        /// The gate's cell.
        at: (usize, usize),
    },
    /// The other bear stands on the target cell, and it is not a heart
    /// (rule 5).
    OtherBear {
        /// The bear that tried to move.
        bear: Bear,
        /// The other bear's cell.
        at: (usize, usize),
    },
    /// Bubu tried to push a block or a jar, which only Dudu pushes (rule 6).
    TooHeavy {
        /// The kind of object Bubu tried to push.
        kind: Kind,
        /// The object's cell.
        at: (usize, usize),
    },
    /// The cell beyond the pushed object is not free for it (rule 6).
    PushBlocked {
        /// The bear that tried to push.
        bear: Bear,
        /// The kind of object pushed.
        kind: Kind,
        /// The object's cell.
        at: (usize, usize),
    },
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Block => "block",
        Kind::Jar => "honey jar",
        Kind::Cushion => "cushion",
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::OffGrid { bear } => write!(f, "{} would leave the grid", bear.name()),
            Refusal::Wall { bear, at } => {
                write!(
                    f,
                    "{} walks into the wall at {}",
                    bear.name(),
                    place(at.0, at.1)
                )
            }
            Refusal::Cat { bear, at } => {
                write!(
                    f,
                    "{} cannot pass the sleeping cat at {}",
                    bear.name(),
                    place(at.0, at.1)
                )
            }
            Refusal::HoleTooSmall { at } => {
                write!(
                    f,
                    "Dudu does not fit through the mouse hole at {}",
                    place(at.0, at.1)
                )
            }
            Refusal::GateClosed { bear, at } => {
                write!(
                    f,
                    "the gate at {} is closed in front of {}",
                    place(at.0, at.1),
                    bear.name()
                )
            }
            Refusal::OtherBear { bear, at } => write!(
                f,
                "{} bumps into {} at {} (bears share only the heart)",
                bear.name(),
                bear.other().name(),
                place(at.0, at.1)
            ),
            Refusal::TooHeavy { kind, at } => {
                write!(
                    f,
                    "Bubu is too small to push the {} at {}",
                    kind_name(kind),
                    place(at.0, at.1)
                )
            }
            Refusal::PushBlocked { bear, kind, at } => write!(
                f,
                "{} cannot push the {} at {}: the cell beyond is not free",
                bear.name(),
                kind_name(kind),
                place(at.0, at.1)
            ),
        }
    }
}

/// Who stands where, for judging one rule (and for drawing a state).
pub(super) struct Standing {
    occupied: [u16; MAX_OBJECTS + 2],
    len: usize,
    /// Bit `l` is set while something stands on a plate of letter `l`.
    pressed: u32,
}

impl Standing {
    /// Everyone in `state`, except the `lifted` bear and the object in slot
    /// `removed`.
    pub(super) fn of(
        level: &Level,
        state: &State,
        lifted: Option<Bear>,
        removed: Option<usize>,
    ) -> Standing {
        let mut scene = Standing {
            occupied: [NOWHERE; MAX_OBJECTS + 2],
            len: 0,
            pressed: 0,
        };
        let bears = Bear::BOTH
            .into_iter()
            .filter(|bear| Some(*bear) != lifted)
            .map(|bear| state.bears[bear as usize]);
        let objects = (0..level.kinds.len())
            .filter(|slot| Some(*slot) != removed)
            .map(|slot| state.objects[slot]);
        for cell in bears.chain(objects) {
            scene.occupied[scene.len] = cell;
            scene.len += 1;
            if let Tile::Plate(letter) = level.tiles[cell as usize] {
                scene.pressed |= 1 << letter;
            }
        }
        scene
    }

    fn is_occupied(&self, cell: u16) -> bool {
        self.occupied[..self.len].contains(&cell)
    }

    /// A gate cell is open while a plate of its letter is pressed or
    /// something stands in the gate itself.
    pub(super) fn gate_open(&self, cell: u16, letter: u8) -> bool {
        self.pressed >> letter & 1 == 1 || self.is_occupied(cell)
    }

    /// Whether an object may move onto `cell`: on the grid, not a wall, cat,
    /// mouse hole or heart, not a closed gate, and nobody there.
    fn free_for_object(&self, level: &Level, cell: Option<u16>) -> bool {
        let Some(cell) = cell else { return false };
        let open = match level.tiles[cell as usize] {
            Tile::Floor | Tile::Plate(_) => true,
            Tile::Gate(letter) => self.gate_open(cell, letter),
            Tile::Wall | Tile::Cat | Tile::Hole | Tile::Heart => false,
        };
        open && !self.is_occupied(cell)
    }
}

impl Level {
    /// The cell one step from `cell` in `dir`, if it is on the grid.
    pub(crate) fn neighbour(&self, cell: u16, dir: Dir) -> Option<u16> {
        let next = self.steps[cell as usize][dir as usize];
        (next != NOWHERE).then_some(next)
    }

    fn object_at(&self, state: &State, cell: u16) -> Option<usize> {
        state.objects[..self.kinds.len()]
            .iter()
            .position(|&at| at == cell)
    }

    /// The rules themselves, telling a plain walk (only the bear moves)
    /// from a push, so that a packed state can change one field for a walk.
    #[inline(always)]
    pub(crate) fn play(&self, state: &State, Move { bear, dir }: Move) -> Result<Step, Refusal> {
        let from = state.bears[bear as usize];
        // Rule 2: the target cell.
        let target = self.neighbour(from, dir).ok_or(Refusal::OffGrid { bear })?;
        // Computed only for a refusal: most moves tried are legal or hit a
        // wall, and the division is the dearest step here.
        let at = || self.row_col(target);
        let tile = self.tiles[target as usize];
        match tile {
            Tile::Wall => return Err(Refusal::Wall { bear, at: at() }),
            Tile::Cat => return Err(Refusal::Cat { bear, at: at() }),
            // Rule 3.
            Tile::Hole if bear == Bear::Dudu => return Err(Refusal::HoleTooSmall { at: at() }),
            _ => {}
        }
        // Rule 4: judged with the moving bear still on its cell.
        if let Tile::Gate(letter) = tile
            && !Standing::of(self, state, None, None).gate_open(target, letter)
        {
            return Err(Refusal::GateClosed { bear, at: at() });
        }
        // Rule 5.
        if state.bears[bear.other() as usize] == target && tile != Tile::Heart {
            return Err(Refusal::OtherBear { bear, at: at() });
        }
        // Rule 6: a push, judged with the pushing bear lifted.
        if let Some(slot) = self.object_at(state, target) {
            let kind = self.kinds[slot];
            if kind != Kind::Cushion && bear != Bear::Dudu {
                return Err(Refusal::TooHeavy { kind, at: at() });
            }
            let lifted = Standing::of(self, state, Some(bear), None);
            let first = self.neighbour(target, dir);
            if !lifted.free_for_object(self, first) {
                return Err(Refusal::PushBlocked {
                    bear,
                    kind,
                    at: at(),
                });
            }
            let mut resting = first.expect("a free cell is on the grid");
            if kind == Kind::Cushion {
                // Past the first cell the cushion is off the grid too: it
                // presses no plate and holds no gate on its way.
                let sliding = Standing::of(self, state, Some(bear), Some(slot));
                while let Some(further) = self.neighbour(resting, dir)
                    && sliding.free_for_object(self, Some(further))
                {
                    resting = further;
                }
            }
            let mut next = *state;
            next.objects[slot] = resting;
            next = self.canonical(next, slot);
            // Rule 7.
            next.bears[bear as usize] = target;
            return Ok(Step::Push(next));
        }
        // Rule 7.
        Ok(Step::Walk(target))
    }

    /// Won with Bubu on `bubu` and Dudu on `dudu`.
    pub(crate) fn won_by(&self, bubu: u16, dudu: u16) -> bool {
        bubu == dudu && self.tiles[bubu as usize] == Tile::Heart
    }
}

impl Game for Level {
    type State = State;
    type Key = State;
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> State {
        self.start
    }

    fn key(&self, state: &State) -> State {
        *state
    }

    /// Won: both bears on the same heart.
    fn is_won(&self, state: &State) -> bool {
        let [bubu, dudu] = state.bears;
        self.won_by(bubu, dudu)
    }

    fn moves(&self, _: &State) -> impl Iterator<Item = Move> {
        Move::ALL.into_iter()
    }

    /// Rules 2–7 (rule 1, no move after a win, is the framework's).
    fn step(&self, state: &State, mv: Move) -> Result<(State, Cost), Refusal> {
        let next = match self.play(state, mv)? {
            Step::Walk(target) => {
                let mut next = *state;
                next.bears[mv.bear as usize] = target;
                next
            }
            Step::Push(next) => next,
        };
        Ok((next, 1))
    }

    fn heuristic(&self, state: &State) -> Option<Cost> {
        Some(self.lower_bound(state.bears))
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        notation::format(moves)
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        notation::parse(text)
    }

    fn level_text(&self) -> Option<String> {
        Some(level::print(self))
    }

    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw();
}
