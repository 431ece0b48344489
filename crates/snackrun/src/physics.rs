//! How a bear moves (`docs/games/snackrun.md`, "Movement"): every way a
//! walk, fall or jump from a standing spot can end, each with the cells it
//! touches. Motions are traced cell by cell, so a snack passed in mid-air is
//! collected and spikes anywhere on the way end the motion, exactly as the
//! game plays it; no motion cuts a corner.
//!
//! Decisions where the rules are silent:
//! * A motion's touched cells include the cell it starts from.
//! * The air-control stop before a jump's first step falls back onto the
//!   spot it started from and touches nothing new; it is left out.
//! * A head bonk is judged before the air-control choice of that step, so
//!   the stop there is counted once.

use super::level::{Level, Tile};

/// Rows a normal jump rises before its apex run.
pub const JUMP_RISE: usize = 3;
/// Rows a spring jump rises.
pub const SPRING_RISE: usize = 6;
/// Sideways steps at the top of every jump.
pub const APEX_RUN: usize = 2;

/// A cell as (row, column), 0-based, row 0 at the top: sorting positions
/// sorts them in reading order.
pub type Pos = (usize, usize);

/// Where a motion ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    /// Standing on a support in this cell.
    Spot(Pos),
    /// Touching the goal, which ends the bear's movement.
    Goal,
}

/// One way a move can end: an edge of the reachability graph.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Motion {
    /// Where the motion ends.
    pub end: End,
    /// Every cell the bear is in along the way, in order, start and end
    /// included.
    pub touched: Vec<Pos>,
}

/// A bear in motion. Rows and columns are signed so that a step can be
/// judged before it is taken, off the grid included.
#[derive(Clone)]
struct Path<'a> {
    level: &'a Level,
    row: isize,
    col: isize,
    touched: Vec<Pos>,
}

/// Why a motion stopped early: `None` when the bear died, otherwise the
/// motion that touched the goal.
type Stop = Option<Motion>;

impl<'a> Path<'a> {
    fn new(level: &'a Level, (row, col): Pos) -> Self {
        Path {
            level,
            row: row as isize,
            col: col as isize,
            touched: vec![(row, col)],
        }
    }

    /// Steps into the next cell, which the caller has found not blocked, so
    /// the only way off the grid is through the bottom.
    fn enter(&mut self, drow: isize, dcol: isize) -> Result<(), Stop> {
        self.row += drow;
        self.col += dcol;
        match self.level.at(self.row, self.col) {
            None | Some(Tile::Spikes) => Err(None),
            Some(tile) => {
                self.touched.push((self.row as usize, self.col as usize));
                if tile == Tile::Goal {
                    let touched = std::mem::take(&mut self.touched);
                    return Err(Some(Motion {
                        end: End::Goal,
                        touched,
                    }));
                }
                Ok(())
            }
        }
    }

    /// Falls straight down until standing on a support; `None` on death.
    fn fall(mut self) -> Option<Motion> {
        while !self.level.supports(self.row + 1, self.col) {
            if let Err(stop) = self.enter(1, 0) {
                return stop;
            }
        }
        let end = End::Spot((self.row as usize, self.col as usize));
        Some(Motion {
            end,
            touched: self.touched,
        })
    }
}

impl Level {
    /// The tile at a signed position, `None` off the grid.
    fn at(&self, row: isize, col: isize) -> Option<Tile> {
        let inside =
            (0..self.height as isize).contains(&row) && (0..self.width as isize).contains(&col);
        inside.then(|| self.tile((row as usize, col as usize)))
    }

    /// Solid for a bear: ground, springs, and off the grid left, right and
    /// top. Below the bottom row is the open pit.
    fn blocked(&self, row: isize, col: isize) -> bool {
        row < 0
            || col < 0
            || col >= self.width as isize
            || matches!(self.at(row, col), Some(Tile::Ground | Tile::Spring))
    }

    fn supports(&self, row: isize, col: isize) -> bool {
        matches!(
            self.at(row, col),
            Some(Tile::Ground | Tile::Spring | Tile::OneWay)
        )
    }

    /// Whether a bear may move sideways into a cell: a one-way platform
    /// stops it like a wall.
    fn side_open(&self, row: isize, col: isize) -> bool {
        !self.blocked(row, col) && self.at(row, col) != Some(Tile::OneWay)
    }

    /// A non-blocked cell with a support below it.
    pub fn is_spot(&self, (row, col): Pos) -> bool {
        let (row, col) = (row as isize, col as isize);
        !self.blocked(row, col) && self.supports(row + 1, col)
    }

    /// Whether a bear standing at `spot` stands on a spring.
    pub fn on_spring(&self, (row, col): Pos) -> bool {
        self.at(row as isize + 1, col as isize) == Some(Tile::Spring)
    }

    /// The fall from `from` (a bear's start, or any cell); `None` if the
    /// bear dies. From a standing spot it ends at once, touching only it.
    pub fn fall_from(&self, from: Pos) -> Option<Motion> {
        Path::new(self, from).fall()
    }

    /// Every distinct motion from standing spot `from`: walks and jumps to
    /// both sides, spring jumps too when it stands on a spring. Sorted.
    pub fn motions(&self, from: Pos) -> Vec<Motion> {
        let mut out = Vec::new();
        let rises: &[usize] = if self.on_spring(from) {
            &[JUMP_RISE, SPRING_RISE]
        } else {
            &[JUMP_RISE]
        };
        for dir in [-1, 1] {
            out.extend(self.walk(from, dir));
            for &rise in rises {
                self.jump(from, dir, rise, &mut out);
            }
        }
        out.retain(|motion| motion.touched.len() > 1);
        out.sort();
        out.dedup();
        out
    }

    fn walk(&self, from: Pos, dir: isize) -> Option<Motion> {
        let mut path = Path::new(self, from);
        if !self.side_open(path.row, path.col + dir) {
            return None;
        }
        match path.enter(0, dir) {
            Ok(()) => path.fall(),
            Err(stop) => stop,
        }
    }

    /// Follows the jump template `U`×rise, `S`×APEX_RUN, then `D S D S …`,
    /// pushing every way it can end: each air-control stop, and the end of
    /// the template itself.
    fn jump(&self, from: Pos, dir: isize, rise: usize, out: &mut Vec<Motion>) {
        let mut path = Path::new(self, from);
        let (mut ups, mut run) = (rise, 0);
        loop {
            if ups > 0 && self.blocked(path.row - 1, path.col) {
                ups = 0; // Head bonk: the rest of the rise is dropped.
            }
            out.extend(path.clone().fall()); // Air control: stop and drop.
            let step = if ups > 0 {
                ups -= 1;
                path.enter(-1, 0)
            } else {
                let sideways = run < APEX_RUN || (run - APEX_RUN) % 2 == 1;
                run += 1;
                // `S` into a wall or a one-way platform ends the jump in a
                // straight drop; `D` above a support lands: both fall from here.
                let (drow, dcol) = if sideways { (0, dir) } else { (1, 0) };
                let ends = if sideways {
                    !self.side_open(path.row, path.col + dir)
                } else {
                    self.supports(path.row + 1, path.col)
                };
                if ends {
                    out.extend(path.fall());
                    return;
                }
                path.enter(drow, dcol)
            };
            if let Err(stop) = step {
                out.extend(stop);
                return;
            }
        }
    }
}
