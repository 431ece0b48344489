//! Hug Maze levels for the generator (`puzzle_qa_core::generate`): random grids, and
//! the small changes the generator makes to them.
//!
//! A draft is the level's grid of characters, exactly as the file holds it.
//! Changes: a wall added or removed (alone or a short line), a bear or the
//! heart moved, a piece of a mechanic (an object, a mouse hole, a cat, a
//! plate with its gate) added, moved or removed, a gate widened by a cell.
//! After every change, a gate whose plates are all gone becomes floor, and
//! so does a plate with no gate left, so every draft is a valid level file
//! with no warning.

use super::ablate::MECHANICS;
use puzzle_qa_core::generate::{Candidate, Generator, Rng, Target, change_once, header_lines};

/// Hug Maze's generator, for the registry.
/// The level generator (`puzzle-qa generate`).
pub static GENERATOR: &dyn Generator = &Maker;

/// The most movable objects a draft gets: each one multiplies the state
/// space, and a few are enough for a hard push puzzle.
const MAX_OBJECTS: usize = 5;
/// The most holes, and the most cats.
const MAX_TILES_OF_A_KIND: usize = 4;
/// Plate letters (lowercase) the generator uses; gates are their capitals.
const PLATE_LETTERS: [u8; 4] = [b'a', b'e', b'f', b'g'];

pub(super) struct Maker;

impl Generator for Maker {
    fn mechanics(&self) -> &'static [&'static str] {
        &MECHANICS
    }

    fn default_size(&self) -> (usize, usize) {
        (12, 12)
    }

    fn max_size(&self) -> (usize, usize) {
        (64, 64)
    }

    fn random(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate> {
        let walls = 0.1 + rng.f64() * 0.25;
        let mut cells: Vec<u8> = (0..target.width * target.height)
            .map(|_| if rng.f64() < walls { b'#' } else { b'.' })
            .collect();
        for special in [b'B', b'D', b'H'] {
            loop {
                let index = rng.usize(..cells.len());
                if !matches!(cells[index], b'B' | b'D' | b'H') {
                    cells[index] = special;
                    break;
                }
            }
        }
        let mut draft = Draft {
            width: target.width,
            cells,
        };
        for _ in 0..rng.usize(0..3) {
            draft.add_piece(target, rng);
        }
        draft.tidy();
        Box::new(draft)
    }
}

#[derive(Clone, Debug)]
struct Draft {
    width: usize,
    cells: Vec<u8>,
}

fn is_object(cell: u8) -> bool {
    matches!(cell, b'X' | b'J' | b'C')
}

fn is_plate(cell: u8) -> bool {
    PLATE_LETTERS.contains(&cell)
}

fn is_gate(cell: u8) -> bool {
    PLATE_LETTERS.contains(&cell.to_ascii_lowercase()) && cell.is_ascii_uppercase()
}

/// A piece of some mechanic: what moving and removing act on.
fn is_piece(cell: u8) -> bool {
    is_object(cell) || is_plate(cell) || is_gate(cell) || matches!(cell, b'm' | b'c')
}

impl Candidate for Draft {
    fn mutate(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate> {
        let mut draft = self.clone();
        change_once(|| draft.change(target, rng));
        draft.tidy();
        Box::new(draft)
    }

    fn level_text(&self, header: &[(&str, &str)]) -> String {
        let mut text = header_lines(header);
        for row in self.cells.chunks(self.width) {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
        text
    }
}

impl Draft {
    fn pick(&self, rng: &mut Rng, wanted: impl Fn(u8) -> bool) -> Option<usize> {
        let found: Vec<usize> = (0..self.cells.len())
            .filter(|&index| wanted(self.cells[index]))
            .collect();
        (!found.is_empty()).then(|| found[rng.usize(..found.len())])
    }

    fn count(&self, wanted: impl Fn(u8) -> bool) -> usize {
        self.cells.iter().filter(|cell| wanted(**cell)).count()
    }

    /// A random orthogonal neighbour of `index`, `steps` cells away.
    fn neighbour(&self, index: usize, steps: usize, rng: &mut Rng) -> Option<usize> {
        self.step(index, rng.u8(0..4), steps)
    }

    /// The cell `steps` cells from `index` in `direction` (up, down, left,
    /// right), if on the grid.
    fn step(&self, index: usize, direction: u8, steps: usize) -> Option<usize> {
        let (row, col) = (index / self.width, index % self.width);
        let height = self.cells.len() / self.width;
        match direction {
            0 if row >= steps => Some(index - steps * self.width),
            1 if row + steps < height => Some(index + steps * self.width),
            2 if col >= steps => Some(index - steps),
            3 if col + steps < self.width => Some(index + steps),
            _ => None,
        }
    }

    /// One random change; false if the chosen change does not apply.
    fn change(&mut self, target: &Target, rng: &mut Rng) -> bool {
        match rng.u8(0..100) {
            0..35 => self.flip_wall(rng),
            35..43 => self.wall_line(rng),
            43..47 => self.relocate(rng, |cell| cell == b'B'),
            47..51 => self.relocate(rng, |cell| cell == b'D'),
            51..55 => self.relocate(rng, |cell| cell == b'H'),
            55..63 => self.add_piece(target, rng),
            63..85 => self.relocate(rng, is_piece),
            85..92 => self.remove_piece(rng),
            92..96 => self.widen_gate(rng),
            _ => self.swap_object_kind(target, rng),
        }
    }

    fn flip_wall(&mut self, rng: &mut Rng) -> bool {
        let Some(index) = self.pick(rng, |cell| matches!(cell, b'#' | b'.')) else {
            return false;
        };
        self.cells[index] = if self.cells[index] == b'#' {
            b'.'
        } else {
            b'#'
        };
        true
    }

    /// Two to four cells in a line become wall, or floor (only walls and
    /// floor change).
    fn wall_line(&mut self, rng: &mut Rng) -> bool {
        let start = rng.usize(..self.cells.len());
        let fill = if rng.bool() { b'#' } else { b'.' };
        let direction = rng.u8(0..4);
        let mut at = start;
        for _ in 0..rng.usize(2..=4) {
            if matches!(self.cells[at], b'#' | b'.') {
                self.cells[at] = fill;
            }
            match self.step(at, direction, 1) {
                Some(next) => at = next,
                None => break,
            }
        }
        true
    }

    /// Moves a cell `wanted` accepts onto floor: one or two cells away, or
    /// anywhere. The floor takes its place.
    fn relocate(&mut self, rng: &mut Rng, wanted: impl Fn(u8) -> bool) -> bool {
        let Some(from) = self.pick(rng, wanted) else {
            return false;
        };
        let to = match rng.u8(0..3) {
            0 => self.neighbour(from, 1, rng),
            1 => self.neighbour(from, 2, rng),
            _ => self.pick(rng, |cell| cell == b'.'),
        };
        match to {
            Some(to) if self.cells[to] == b'.' => {
                self.cells.swap(from, to);
                true
            }
            _ => false,
        }
    }

    /// A piece of an allowed mechanic on a floor cell: an object, a hole, a
    /// cat, or a plate with its one-cell gate.
    fn add_piece(&mut self, target: &Target, rng: &mut Rng) -> bool {
        let allowed = |mechanic: &str| target.mechanics.contains(&mechanic);
        let choices: Vec<&str> = ["block", "jar", "cushion", "mouse-hole", "cat", "plate"]
            .into_iter()
            .filter(|mechanic| allowed(mechanic) && (*mechanic != "plate" || allowed("gate")))
            .collect();
        if choices.is_empty() {
            return false;
        }
        let piece = match choices[rng.usize(..choices.len())] {
            "block" => b'X',
            "jar" => b'J',
            "cushion" => b'C',
            "mouse-hole" => b'm',
            "cat" => b'c',
            _ => return self.add_plate_and_gate(rng),
        };
        let full = if is_object(piece) {
            self.count(is_object) >= MAX_OBJECTS
        } else {
            self.count(|cell| cell == piece) >= MAX_TILES_OF_A_KIND
        };
        let Some(at) = self.pick(rng, |cell| cell == b'.').filter(|_| !full) else {
            return false;
        };
        self.cells[at] = piece;
        true
    }

    fn add_plate_and_gate(&mut self, rng: &mut Rng) -> bool {
        let Some(&letter) = PLATE_LETTERS
            .iter()
            .find(|&&letter| !self.cells.contains(&letter))
        else {
            return false;
        };
        let floor = |cell| cell == b'.';
        let (Some(plate), Some(gate)) = (self.pick(rng, floor), self.pick(rng, floor)) else {
            return false;
        };
        if plate == gate {
            return false;
        }
        self.cells[plate] = letter;
        self.cells[gate] = letter.to_ascii_uppercase();
        true
    }

    fn remove_piece(&mut self, rng: &mut Rng) -> bool {
        let Some(index) = self.pick(rng, is_piece) else {
            return false;
        };
        self.cells[index] = b'.';
        true
    }

    /// A gate gets one more cell next to one of its own.
    fn widen_gate(&mut self, rng: &mut Rng) -> bool {
        let Some(from) = self.pick(rng, is_gate) else {
            return false;
        };
        match self.neighbour(from, 1, rng) {
            Some(to) if matches!(self.cells[to], b'.' | b'#') => {
                self.cells[to] = self.cells[from];
                true
            }
            _ => false,
        }
    }

    /// An object becomes another allowed kind (a jar that Bubu could push
    /// if it were a cushion…).
    fn swap_object_kind(&mut self, target: &Target, rng: &mut Rng) -> bool {
        let kinds: Vec<u8> = [("block", b'X'), ("jar", b'J'), ("cushion", b'C')]
            .into_iter()
            .filter(|(mechanic, _)| target.mechanics.contains(mechanic))
            .map(|(_, kind)| kind)
            .collect();
        let Some(index) = self.pick(rng, is_object).filter(|_| !kinds.is_empty()) else {
            return false;
        };
        self.cells[index] = kinds[rng.usize(..kinds.len())];
        true
    }

    /// Gates whose plates are gone, and plates whose gates are gone,
    /// become floor.
    fn tidy(&mut self) {
        for index in 0..self.cells.len() {
            let cell = self.cells[index];
            let partner = if is_gate(cell) {
                cell.to_ascii_lowercase()
            } else if is_plate(cell) {
                cell.to_ascii_uppercase()
            } else {
                continue;
            };
            if !self.cells.contains(&partner) {
                self.cells[index] = b'.';
            }
        }
    }
}
