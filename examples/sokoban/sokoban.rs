//! Classic Sokoban as a puzzle-qa game, written against the public API
//! only: the player walks and pushes boxes until every box is on a goal.
//!
//! Level files are standard XSB: `#` wall, `@` player, `+` player on a
//! goal, `$` box, `*` box on a goal, `.` goal, space (or `-`, `_`) floor.
//! A file is a collection of one level or more, with `;` comments and
//! titles between them ([`xsb`]). Moves are LURD text: `u d l r` for
//! steps, capitals for pushes, one letter per move.

#[path = "xsb.rs"]
mod xsb;

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::game::{Cost, Game, NotationError};
use puzzle_qa_core::level::{Loaded, LoadedMany, Member};

/// The most boxes a level may hold: a state keeps them in a fixed array.
const MAX_BOXES: usize = 10;
/// An empty slot of the box array (slots are sorted, so empties come last).
const NONE: u16 = u16::MAX;

/// A parsed level: what never moves, and where play starts.
pub struct Sokoban {
    width: usize,
    height: usize,
    walls: Vec<bool>,
    goals: Vec<bool>,
    start: State,
}

/// The player's cell and the boxes' cells, sorted: two boxes swapped are
/// the same state, so the state is its own key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    player: u16,
    boxes: [u16; MAX_BOXES],
}

/// A direction and whether the move pushes a box (LURD: a capital).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    dir: u8,
    push: bool,
}

const LETTERS: [char; 4] = ['u', 'd', 'l', 'r'];

/// Reads an XSB file's first level (the whole collection: [`load_many`]).
pub fn load(text: &str) -> Result<Loaded, Diagnostic> {
    let first = xsb::split(text).into_iter().next().ok_or_else(no_level)?;
    parse(&first.rows)
}

/// How many levels an XSB collection holds: split, never parsed.
pub fn count(text: &str) -> usize {
    xsb::split(text).len()
}

/// Reads an XSB collection, each level on its own: one that does not parse
/// leaves the others loaded.
pub fn load_many(text: &str) -> Result<LoadedMany, Vec<Diagnostic>> {
    let levels: Vec<Member> = xsb::split(text)
        .into_iter()
        .map(|level| Member {
            level: parse(&level.rows),
            text: level.text(),
            line: level.line(),
            title: level.title(),
        })
        .collect();
    if levels.is_empty() {
        return Err(vec![no_level()]);
    }
    Ok(LoadedMany {
        levels,
        warnings: Vec::new(),
    })
}

fn no_level() -> Diagnostic {
    Diagnostic::error("no level in the file")
        .with_hint("a level is a block of map rows, each holding a `#` wall")
}

/// Reads one level from its map rows, each with its line in the file.
fn parse(rows: &[(usize, &str)]) -> Result<Loaded, Diagnostic> {
    let rows: Vec<(usize, &str)> = rows
        .iter()
        .map(|(line, row)| (*line, row.trim_end()))
        .collect();
    let (first, columns) = (rows[0].0, rows[0].1.chars().count());
    let width = rows
        .iter()
        .map(|(_, row)| row.chars().count())
        .max()
        .unwrap_or(0);
    let height = rows.len();
    let cells = width * height;
    let (mut walls, mut goals) = (vec![false; cells], vec![false; cells]);
    let (mut players, mut boxes) = (Vec::new(), Vec::new());
    for (row, (line, text)) in rows.iter().enumerate() {
        for (col, ch) in text.chars().enumerate() {
            let cell = (row * width + col) as u16;
            match ch {
                '#' => walls[cell as usize] = true,
                ' ' | '-' | '_' => {}
                '.' | '+' | '*' => goals[cell as usize] = true,
                '@' | '$' => {}
                other => {
                    return Err(Diagnostic::error(format!("unknown cell `{other}`"))
                        .at(*line, col + 1, 1)
                        .with_hint("cells are # @ + $ * . and space"));
                }
            }
            match ch {
                '@' | '+' => players.push((*line, col, cell)),
                '$' | '*' => boxes.push(cell),
                _ => {}
            }
        }
    }
    let goal_count = goals.iter().filter(|goal| **goal).count();
    let &[(_, _, player)] = players.as_slice() else {
        let error = Diagnostic::error(format!("{} players: a level has one `@`", players.len()));
        return Err(match players.get(1) {
            Some(&(line, col, _)) => error.at(line, col + 1, 1),
            None => error.at(first, 1, columns),
        });
    };
    if boxes.is_empty() || boxes.len() > MAX_BOXES || boxes.len() != goal_count {
        return Err(Diagnostic::error(format!(
            "{} boxes and {goal_count} goals: a level needs as many of each, 1 to {MAX_BOXES}",
            boxes.len()
        ))
        .at(first, 1, columns));
    }
    let mut start = State {
        player,
        boxes: [NONE; MAX_BOXES],
    };
    start.boxes[..boxes.len()].copy_from_slice(&boxes);
    start.boxes.sort_unstable();
    let level = Sokoban {
        width,
        height,
        walls,
        goals,
        start,
    };
    Ok(Loaded::new(level, Vec::new()))
}

impl Sokoban {
    /// The cell next to `cell` in direction `dir`, if on the grid and not a wall.
    fn next(&self, cell: u16, dir: u8) -> Option<u16> {
        let (row, col) = (cell as usize / self.width, cell as usize % self.width);
        let (row, col) = match dir {
            0 => (row.checked_sub(1)?, col),
            1 => (row + 1, col),
            2 => (row, col.checked_sub(1)?),
            _ => (row, col + 1),
        };
        let next = row * self.width + col;
        (row < self.height && col < self.width && !self.walls[next]).then_some(next as u16)
    }
}

impl Game for Sokoban {
    type State = State;
    type Key = State;
    type Move = Move;
    type Refusal = &'static str;

    fn start(&self) -> State {
        self.start
    }

    fn key(&self, state: &State) -> State {
        *state
    }

    fn is_won(&self, state: &State) -> bool {
        let placed = state.boxes.iter().take_while(|cell| **cell != NONE);
        placed.clone().all(|cell| self.goals[*cell as usize])
    }

    fn moves(&self, state: &State) -> impl Iterator<Item = Move> {
        // Each direction, as a step or a push, whichever the next cell asks.
        (0..4).map(move |dir| Move {
            dir,
            push: self
                .next(state.player, dir)
                .is_some_and(|cell| state.boxes.contains(&cell)),
        })
    }

    fn step(&self, state: &State, mv: Move) -> Result<(State, Cost), &'static str> {
        let target = self
            .next(state.player, mv.dir)
            .ok_or("a wall is in the way")?;
        let slot = state.boxes.iter().position(|cell| *cell == target);
        let mut next = *state;
        match (slot, mv.push) {
            (None, true) => return Err("a push (capital letter) with no box to push"),
            (Some(_), false) => return Err("a step (small letter) into a box: write a capital"),
            (None, false) => {}
            (Some(slot), true) => {
                let beyond = self
                    .next(target, mv.dir)
                    .filter(|cell| !state.boxes.contains(cell))
                    .ok_or("the box is blocked")?;
                next.boxes[slot] = beyond;
                next.boxes.sort_unstable();
            }
        }
        next.player = target;
        Ok((next, 1))
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        let letter = |mv: &Move| LETTERS[mv.dir as usize];
        let case = |mv: &Move| match mv.push {
            true => letter(mv).to_ascii_uppercase(),
            false => letter(mv),
        };
        moves.iter().map(case).collect()
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        // Numbered before the spaces are dropped: a column counts them too.
        let letters = text
            .chars()
            .enumerate()
            .filter(|(_, ch)| !ch.is_whitespace());
        let read = |(index, ch): (usize, char)| {
            let dir = LETTERS.iter().position(|l| *l == ch.to_ascii_lowercase());
            let dir = dir.ok_or_else(|| {
                let message = format!("`{ch}` is not a move: write u d l r, capitals to push");
                NotationError::new(index + 1, message)
            })?;
            Ok(Move {
                dir: dir as u8,
                push: ch.is_ascii_uppercase(),
            })
        };
        letters.map(read).collect()
    }
}
