//! The rules of Bloxorz as one pure step function (`docs/games/bloxorz.md`).
//!
//! The two-cube phase follows the rulebook's implementation note: either
//! cube may roll at cost 1, and passing control (`S`) is folded into the
//! roll that needs it, so breadth-first search is exact. The state still
//! remembers which cube has control, so that a replay of typed moves (where
//! `S` is its own token) follows the game; the visited-set key forgets it
//! and orders the two cubes, because neither matters to what can happen next.
//!
//! Decisions where the rulebook is silent:
//! * `S` while the block is whole does nothing and costs nothing: the game
//!   ignores the key then.
//! * Once the block has dropped into the goal, every move is refused (by
//!   the generic replay: a win is terminal in every game).
//! * When a lying block fires two switches, the cells under the block are
//!   checked once, after both have fired.
//! * Coordinates in refusal messages are 0-based (row, column), as in the
//!   rulebook ("row 0 at the top").

use std::fmt;

use super::level::{self, Level, Presence, Tile};
use super::{bound, notation};
use puzzle_qa_core::diagnostic::place;
use puzzle_qa_core::game::{Cost, Extras, Game, NotationError};

/// A direction of roll. Rows grow downwards.
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
    /// The four directions, in the order the solver tries them.
    pub const ALL: [Dir; 4] = [Dir::U, Dir::D, Dir::L, Dir::R];

    pub(crate) fn delta(self) -> (i32, i32) {
        match self {
            Dir::U => (-1, 0),
            Dir::D => (1, 0),
            Dir::L => (0, -1),
            Dir::R => (0, 1),
        }
    }

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

/// Where a whole block lands when it rolls `dir`: its new shape and the
/// (row, col) of the cells it then covers, in reading order (`None` for the
/// second when it lands upright). `first` is the block's first cell in
/// reading order (`State::a`). Cells may be off the grid; the caller checks.
///
/// Every roll can be undone: rolling the landed block the opposite way gives
/// back the block it came from, which the heuristic's backward search
/// (`bound.rs`) relies on.
pub(crate) fn landing(
    shape: Shape,
    (row, col): (i32, i32),
    dir: Dir,
) -> (Shape, (i32, i32), Option<(i32, i32)>) {
    let (dr, dc) = dir.delta();
    match (shape, dir) {
        (Shape::Upright, Dir::U) => (Shape::Vertical, (row - 2, col), Some((row - 1, col))),
        (Shape::Upright, Dir::D) => (Shape::Vertical, (row + 1, col), Some((row + 2, col))),
        (Shape::Upright, Dir::L) => (Shape::Horizontal, (row, col - 2), Some((row, col - 1))),
        (Shape::Upright, Dir::R) => (Shape::Horizontal, (row, col + 1), Some((row, col + 2))),
        (Shape::Horizontal, Dir::L) => (Shape::Upright, (row, col - 1), None),
        (Shape::Horizontal, Dir::R) => (Shape::Upright, (row, col + 2), None),
        (Shape::Vertical, Dir::U) => (Shape::Upright, (row - 1, col), None),
        (Shape::Vertical, Dir::D) => (Shape::Upright, (row + 2, col), None),
        (Shape::Horizontal, _) => (
            Shape::Horizontal,
            (row + dr, col),
            Some((row + dr, col + 1)),
        ),
        (Shape::Vertical, _) => (Shape::Vertical, (row, col + dc), Some((row + 1, col + dc))),
        (Shape::Split, _) => unreachable!("cubes roll one at a time"),
    }
}

/// A move. The solver only makes `Roll`s; a replay of typed text makes a
/// `Pass` for each `S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Roll the block, or the controlled cube; with `pass_first`, control
    /// passes to the other cube first (printed `S` then the roll; the pass
    /// does nothing while the block is whole).
    Roll {
        /// Which way to roll.
        dir: Dir,
        /// Pass control to the other cube before rolling.
        pass_first: bool,
    },
    /// Pass control to the other cube (`S`): free, and nothing happens while
    /// the block is whole.
    Pass,
}

impl Move {
    /// A roll in `dir` without passing control first.
    pub fn roll(dir: Dir) -> Move {
        Move::Roll {
            dir,
            pass_first: false,
        }
    }
}

/// The shape of what is on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Standing on cell `a` (`b == a`).
    Upright,
    /// Lying across `a` and `b = a + 1` in one row.
    Horizontal,
    /// Lying across `a` and `b = a + width` in one column.
    Vertical,
    /// Two cubes: `a` has control, `b` is the other.
    Split,
}

/// Everything that changes during play: the block (or cubes) and which
/// switchable tiles are present (bit `i` of `mask` for dynamic name `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Whether the block stands, lies, or is split into two cubes.
    pub shape: Shape,
    /// The cell the block stands on, its first cell in reading order when
    /// lying, or the cube in control when split.
    pub a: u16,
    /// The block's other cell (`a` again when upright), or the cube without
    /// control when split.
    pub b: u16,
    /// Which dynamic tiles are present: bit `i` for dynamic name `i`.
    pub mask: u64,
}

/// Why a move is illegal. Cells are (row, column), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The block, or a cube, would land where there is no tile: a missing
    /// cell or off the grid (rules 6 and 12).
    Falls {
        /// The missing cell's row (may be off the grid).
        row: i32,
        /// The missing cell's column (may be off the grid).
        col: i32,
    },
    /// The block would end upright on a weak tile (rule 7).
    BreaksWeakTile {
        /// The weak tile's row.
        row: i32,
        /// The weak tile's column.
        col: i32,
    },
    /// A switch the move fires would remove a tile under the block or a cube
    /// (rules 8 and 12).
    SwitchRemovesTile {
        /// The removed tile's row.
        row: i32,
        /// The removed tile's column.
        col: i32,
    },
    /// A split would drop a cube where there is no tile (rule 9).
    SplitTargetMissing {
        /// The missing target's row.
        row: i32,
        /// The missing target's column.
        col: i32,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::Falls { row, col } => {
                write!(f, "falls off: no tile at {}", place(row, col))
            }
            Refusal::BreaksWeakTile { row, col } => {
                write!(
                    f,
                    "the block stands upright on the weak tile at {} and breaks it",
                    place(row, col)
                )
            }
            Refusal::SwitchRemovesTile { row, col } => {
                write!(
                    f,
                    "a switch removes the tile under the block at {}",
                    place(row, col)
                )
            }
            Refusal::SplitTargetMissing { row, col } => {
                write!(
                    f,
                    "the split drops a cube where there is no tile, at {}",
                    place(row, col)
                )
            }
        }
    }
}

impl Level {
    pub(crate) fn row_col(&self, cell: u16) -> (i32, i32) {
        let cell = cell as usize;
        ((cell / self.width) as i32, (cell % self.width) as i32)
    }

    /// The cell at (row, col) if it is on the grid.
    fn cell_at(&self, row: i32, col: i32) -> Option<u16> {
        let on_grid =
            (0..self.height as i32).contains(&row) && (0..self.width as i32).contains(&col);
        on_grid.then(|| (row as usize * self.width + col as usize) as u16)
    }

    fn present(&self, cell: u16, mask: u64) -> bool {
        match self.cells[cell as usize].presence {
            Presence::Static(present) => present,
            Presence::Dynamic(bit) => mask >> bit & 1 == 1,
        }
    }

    fn tile(&self, cell: u16) -> Tile {
        self.cells[cell as usize].tile
    }

    /// The present cell at (row, col), or the refusal for falling there.
    fn land(&self, (row, col): (i32, i32), mask: u64) -> Result<u16, Refusal> {
        match self.cell_at(row, col) {
            Some(cell) if self.present(cell, mask) => Ok(cell),
            _ => Err(Refusal::Falls { row, col }),
        }
    }

    fn still_there(&self, cell: u16, mask: u64) -> Result<(), Refusal> {
        if self.present(cell, mask) {
            Ok(())
        } else {
            let (row, col) = self.row_col(cell);
            Err(Refusal::SwitchRemovesTile { row, col })
        }
    }

    fn fire(&self, cell: u16, mask: u64) -> u64 {
        match self.cells[cell as usize].switch {
            Some(switch) => self.switches[switch as usize].apply(mask),
            None => mask,
        }
    }

    pub(crate) fn adjacent(&self, one: u16, other: u16) -> bool {
        let (r1, c1) = self.row_col(one);
        let (r2, c2) = self.row_col(other);
        (r1 - r2).abs() + (c1 - c2).abs() == 1
    }

    /// Rules 5–10: the whole block rolls.
    fn roll_block(&self, state: &State, dir: Dir) -> Result<State, Refusal> {
        let (shape, first, second) = landing(state.shape, self.row_col(state.a), dir);
        let mask = state.mask;
        let a = self.land(first, mask)?;
        let b = match second {
            Some(cell) => self.land(cell, mask)?,
            None => a,
        };

        if shape == Shape::Upright {
            if self.tile(a) == Tile::Weak {
                return Err(Refusal::BreaksWeakTile {
                    row: first.0,
                    col: first.1,
                });
            }
            let mask = match self.tile(a) {
                Tile::StrongSwitch | Tile::WeakSwitch => self.fire(a, mask),
                _ => mask,
            };
            self.still_there(a, mask)?;
            if let Some([one, two]) = self.cells[a as usize].teleport {
                return self.split(one, two, mask);
            }
            return Ok(State { shape, a, b, mask });
        }

        // Lying: each covered weak switch fires, a name covered twice once.
        let mut fired = mask;
        if self.tile(a) == Tile::WeakSwitch {
            fired = self.fire(a, fired);
        }
        if self.tile(b) == Tile::WeakSwitch
            && self.cells[b as usize].switch != self.cells[a as usize].switch
        {
            fired = self.fire(b, fired);
        }
        self.still_there(a, fired)?;
        self.still_there(b, fired)?;
        Ok(State {
            shape,
            a,
            b,
            mask: fired,
        })
    }

    /// Rule 9: the block splits onto two cells; control on the first.
    fn split(&self, one: u16, two: u16, mask: u64) -> Result<State, Refusal> {
        for cell in [one, two] {
            if !self.present(cell, mask) {
                let (row, col) = self.row_col(cell);
                return Err(Refusal::SplitTargetMissing { row, col });
            }
        }
        Ok(self.cubes(one, two, mask))
    }

    /// Rules 12–13: the controlled cube `moving` rolls; `other` stays.
    fn roll_cube(&self, moving: u16, other: u16, dir: Dir, mask: u64) -> Result<State, Refusal> {
        let (row, col) = self.row_col(moving);
        let (dr, dc) = dir.delta();
        let landed = self.land((row + dr, col + dc), mask)?;
        let mask = if self.tile(landed) == Tile::WeakSwitch {
            self.fire(landed, mask)
        } else {
            mask
        };
        self.still_there(landed, mask)?;
        self.still_there(other, mask)?;
        Ok(self.cubes(landed, other, mask))
    }

    /// Two cubes, `controlled` with control; side by side they are one
    /// lying block (rules 9 and 13).
    fn cubes(&self, controlled: u16, other: u16, mask: u64) -> State {
        if self.adjacent(controlled, other) {
            let (a, b) = (controlled.min(other), controlled.max(other));
            let shape = if self.row_col(a).0 == self.row_col(b).0 {
                Shape::Horizontal
            } else {
                Shape::Vertical
            };
            return State { shape, a, b, mask };
        }
        State {
            shape: Shape::Split,
            a: controlled,
            b: other,
            mask,
        }
    }
}

impl Game for Level {
    type State = State;
    type Key = u128;
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> State {
        State {
            shape: Shape::Upright,
            a: self.start,
            b: self.start,
            mask: self.initial_mask,
        }
    }

    /// The visited-set key: the shape, the cubes unordered, the tile mask.
    fn key(&self, state: &State) -> u128 {
        let (a, b) = if state.shape == Shape::Split {
            (state.a.min(state.b), state.a.max(state.b))
        } else {
            (state.a, state.b)
        };
        (state.mask as u128) | (a as u128) << 64 | (b as u128) << 80 | (state.shape as u128) << 96
    }

    fn is_won(&self, state: &State) -> bool {
        state.shape == Shape::Upright && self.tile(state.a) == Tile::Goal
    }

    fn moves(&self, state: &State) -> impl Iterator<Item = Move> {
        let passes: &[bool] = match state.shape {
            Shape::Split => &[false, true],
            _ => &[false],
        };
        passes.iter().flat_map(|&pass_first| {
            Dir::ALL
                .into_iter()
                .map(move |dir| Move::Roll { dir, pass_first })
        })
    }

    fn step(&self, state: &State, mv: Move) -> Result<(State, Cost), Refusal> {
        match (mv, state.shape == Shape::Split) {
            (Move::Pass, true) => {
                let passed = State {
                    a: state.b,
                    b: state.a,
                    ..*state
                };
                Ok((passed, 0))
            }
            (Move::Pass, false) => Ok((*state, 0)),
            (Move::Roll { dir, pass_first }, true) => {
                let (moving, other) = if pass_first {
                    (state.b, state.a)
                } else {
                    (state.a, state.b)
                };
                Ok((self.roll_cube(moving, other, dir, state.mask)?, 1))
            }
            (Move::Roll { dir, .. }, false) => Ok((self.roll_block(state, dir)?, 1)),
        }
    }

    fn heuristic(&self, state: &State) -> Option<Cost> {
        Some(bound::lower_bound(self, state))
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

    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw().notation_width();
}
