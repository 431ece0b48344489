//! Reading a Hug Maze level file (the format in `docs/games/hugmaze.md`).
//!
//! Decisions where the format is silent:
//! * Before the grid, a line containing `:` is a header line `key: value`;
//!   its key must be a word (letters, digits, `-`, `_`). A key given twice
//!   keeps its last value, with a warning.
//! * The grid is the first run of consecutive non-blank lines that are not
//!   headers or `;` comments. Trailing spaces and tabs on a grid line are
//!   ignored (editors add them unseen); any other space is an unknown
//!   character.
//! * Several hearts are allowed; the bears must meet on one of them.
//! * A level may hold at most [`MAX_OBJECTS`] movable objects and fewer
//!   than 65,535 cells: the state keeps each position in a `u16`.

use puzzle_qa_core::diagnostic::{Diagnostic, numbered_lines};

use super::rules::{Bear, NOWHERE, State};

/// The most movable objects (blocks, jars and cushions together) a level
/// may hold.
pub(crate) const MAX_OBJECTS: usize = 16;
/// The most cells a level may have: cells are `u16` indices, and the last
/// two values are kept for "nowhere" and a margin.
pub(crate) const MAX_CELLS: usize = u16::MAX as usize - 1;

const CELL_HINT: &str = "cells are # . B D H m c X J C, a plate a-z other than b c d h j m x, \
                         or a gate A-Z other than B C D H J M X";

/// What does not move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    /// Floor: anyone may stand here, and objects may be pushed onto it.
    Floor,
    /// A wall: nothing enters it.
    Wall,
    /// A heart: the bears win by meeting on one. The only cell both bears may
    /// share; no object is pushed onto it.
    Heart,
    /// Mouse hole: Bubu only; nothing is pushed into it.
    Hole,
    /// Sleeping cat: a wall that ablation can wake.
    Cat,
    /// Pressure plate of letter `0..26` (`a` = 0).
    Plate(u8),
    /// Gate of letter `0..26` (`A` = 0), opened by plates of the same letter.
    Gate(u8),
}

/// A movable object's kind, in the order objects are kept in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A giant block (`X`): only Dudu pushes it, one cell at a time.
    Block,
    /// A honey jar (`J`): only Dudu pushes it, one cell at a time.
    Jar,
    /// A cushion (`C`): either bear pushes it, and it slides on while the
    /// next cell is free for it.
    Cushion,
}

impl Kind {
    /// Every kind, in the order their slots are kept in a state.
    pub const ALL: [Kind; 3] = [Kind::Block, Kind::Jar, Kind::Cushion];

    /// The kind's letter in a level file's grid.
    pub fn letter(self) -> char {
        match self {
            Kind::Block => 'X',
            Kind::Jar => 'J',
            Kind::Cushion => 'C',
        }
    }
}

/// A parsed Hug Maze level: the static grid and the starting state.
#[derive(Clone, Debug)]
pub struct Level {
    /// The level's `name:` header, if it has one.
    pub name: Option<String>,
    /// The level's `hint:` header, if it has one.
    pub hint: Option<String>,
    /// The level's `author:` header, if it has one.
    pub author: Option<String>,
    /// Header keys other than `name`, `hint`, `author`, kept as written.
    pub other_headers: Vec<(String, String)>,
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) tiles: Vec<Tile>,
    /// The kind of the object in each slot of [`State::objects`]; slots of
    /// one kind are contiguous, blocks first, then jars, then cushions.
    pub(crate) kinds: Vec<Kind>,
    pub(crate) start: State,
    /// Derived from the grid by [`Level::derive_tables`], never parsed:
    /// `steps[cell][dir as usize]` is the neighbouring cell, or
    /// [`NOWHERE`] off the grid.
    pub(crate) steps: Vec<[u16; 4]>,
    /// `heart_distance[bear][cell]`: the fewest steps from `cell` to a
    /// heart for that bear alone, on the grid relaxed as
    /// [`Level::lower_bound`] describes; [`NOWHERE`] if none is reachable.
    pub(crate) heart_distance: [Vec<u16>; 2],
}

impl Level {
    /// The (row, column) of a cell, 0-based.
    pub fn row_col(&self, cell: u16) -> (usize, usize) {
        (cell as usize / self.width, cell as usize % self.width)
    }

    /// The slots of each kind: `range(kind)` indexes [`State::objects`].
    /// (`kinds` is sorted, so two binary searches find it.)
    pub(crate) fn range(&self, kind: Kind) -> std::ops::Range<usize> {
        self.kinds.partition_point(|k| *k < kind)..self.kinds.partition_point(|k| *k <= kind)
    }

    /// Puts the objects of each kind in increasing cell order, so that a
    /// state's key does not depend on which of two identical objects is
    /// where. Only the kind of the object in `moved` can be out of order.
    pub(crate) fn canonical(&self, mut state: State, moved: usize) -> State {
        state.objects[self.range(self.kinds[moved])].sort_unstable();
        state
    }
}

/// One grid character with its place in the file.
struct Char {
    ch: char,
    line: usize,
    column: usize,
}

impl Char {
    fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(message).at(self.line, self.column, 1)
    }

    fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(message).at(self.line, self.column, 1)
    }

    fn place(&self) -> String {
        format!("line {}, column {}", self.line, self.column)
    }
}

fn is_plate(ch: char) -> bool {
    ch.is_ascii_lowercase() && !matches!(ch, 'b' | 'c' | 'd' | 'h' | 'j' | 'm' | 'x')
}

fn is_gate(ch: char) -> bool {
    ch.is_ascii_uppercase() && !matches!(ch, 'B' | 'C' | 'D' | 'H' | 'J' | 'M' | 'X')
}

fn is_header_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Parses a level file's text. Returns the level and its warnings, or the
/// first error.
pub fn parse(text: &str) -> Result<(Level, Vec<Diagnostic>), Diagnostic> {
    let mut warnings = Vec::new();
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut rows: Vec<Vec<Char>> = Vec::new();
    let mut grid_ended = false;

    for (number, line) in numbered_lines(text) {
        let content = line.trim_end_matches([' ', '\t']);
        if content.is_empty() {
            grid_ended |= !rows.is_empty();
            continue;
        }
        if grid_ended {
            let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            return Err(Diagnostic::error("text after the grid")
                .at(number, column, content.trim().chars().count())
                .with_hint(
                    "the grid is the last thing in a level file; headers and `;` comments go before it",
                ));
        }
        if rows.is_empty() {
            if content.trim_start().starts_with(';') {
                continue;
            }
            // A line before the grid with `key:` is a header; anything else
            // starts the grid (where a stray `:` is an unknown character).
            if let Some((key, value)) = content.split_once(':')
                && is_header_key(key.trim())
            {
                let indent = key.chars().take_while(|c| c.is_whitespace()).count();
                let key = key.trim();
                let value = value.trim().to_string();
                let width = key.chars().count();
                if headers.iter().any(|(seen, _)| seen == key) {
                    warnings.push(
                        Diagnostic::warning(format!(
                            "a second `{key}:` header; the last one counts"
                        ))
                        .at(number, indent + 1, width),
                    );
                    headers.retain(|(seen, _)| seen != key);
                } else if !matches!(key, "name" | "hint" | "author") {
                    warnings.push(
                        Diagnostic::warning(format!(
                            "unknown header `{key}`; kept, but no check reads it"
                        ))
                        .at(number, indent + 1, width)
                        .with_hint("known headers are name, hint, author"),
                    );
                }
                headers.push((key.to_string(), value));
                continue;
            }
        }
        // Refuse a giant grid before holding every cell of it in memory.
        let cells = rows.iter().map(Vec::len).sum::<usize>() + content.chars().count();
        if cells > MAX_CELLS {
            return Err(Diagnostic::error(format!(
                "the grid is too large for the engine: {cells} cells by this line, at most \
                 {MAX_CELLS}"
            ))
            .at(number, 1, 1)
            .with_hint("positions are kept in 16 bits; split the level or make it smaller"));
        }
        let row: Vec<Char> = content
            .chars()
            .enumerate()
            .map(|(index, ch)| Char {
                ch,
                line: number,
                column: index + 1,
            })
            .collect();
        if let Some(first) = rows.first()
            && row.len() != first.len()
        {
            let column = row.len().min(first.len()) + 1;
            return Err(Diagnostic::error(format!(
                "ragged row: {} cells, but the first row (line {}) has {}",
                row.len(),
                first[0].line,
                first.len()
            ))
            .at(number, column, 1)
            .with_hint("every row of the grid needs the same number of cells"));
        }
        rows.push(row);
    }

    let Some(first_row) = rows.first() else {
        return Err(Diagnostic::error("the level has no grid")
            .with_hint("a level is a grid of cells such as `#B.H.D#`, one row per line"));
    };
    let (width, height) = (first_row.len(), rows.len());
    let grid_line = first_row[0].line;
    let whole_first_row = |message: &str| Diagnostic::error(message).at(grid_line, 1, width);

    let chars: Vec<&Char> = rows.iter().flatten().collect();
    let mut tiles = Vec::with_capacity(chars.len());
    let mut bears: [Option<usize>; 2] = [None, None];
    let mut objects: Vec<(Kind, u16, usize)> = Vec::new();
    for (index, cell) in chars.iter().enumerate() {
        let tile = match cell.ch {
            '#' => Tile::Wall,
            '.' => Tile::Floor,
            'H' => Tile::Heart,
            'm' => Tile::Hole,
            'c' => Tile::Cat,
            'B' | 'D' => {
                let bear = if cell.ch == 'B' {
                    Bear::Bubu
                } else {
                    Bear::Dudu
                };
                if let Some(first) = bears[bear as usize] {
                    return Err(cell
                        .error(format!(
                            "a second `{}`: a level has exactly one {}",
                            cell.ch,
                            bear.name()
                        ))
                        .with_hint(format!(
                            "the first `{}` is at {}",
                            cell.ch,
                            chars[first].place()
                        )));
                }
                bears[bear as usize] = Some(index);
                Tile::Floor
            }
            'X' | 'J' | 'C' => {
                let kind = match cell.ch {
                    'X' => Kind::Block,
                    'J' => Kind::Jar,
                    _ => Kind::Cushion,
                };
                if objects.len() == MAX_OBJECTS {
                    return Err(cell.error(format!(
                        "too many movable objects for the engine: at most {MAX_OBJECTS} blocks, \
                         jars and cushions together"
                    )));
                }
                objects.push((kind, index as u16, index));
                Tile::Floor
            }
            ch if is_plate(ch) => Tile::Plate(ch as u8 - b'a'),
            ch if is_gate(ch) => Tile::Gate(ch as u8 - b'A'),
            ch => {
                let shown = match ch {
                    ' ' => "` ` (a space)".to_string(),
                    '\t' => "`\\t` (a tab)".to_string(),
                    _ => format!("`{ch}`"),
                };
                let hint = match ch {
                    'b' | 'd' | 'h' => "bears and the heart are capitals: B, D, H".to_string(),
                    'x' | 'j' => format!(
                        "a {} is a capital: {}",
                        if ch == 'x' { "block" } else { "honey jar" },
                        ch.to_ascii_uppercase()
                    ),
                    'M' => "a mouse hole is a small m".to_string(),
                    ' ' | '\t' => format!("use `.` for floor; {CELL_HINT}"),
                    _ => CELL_HINT.to_string(),
                };
                return Err(cell
                    .error(format!("unknown character {shown}"))
                    .with_hint(hint));
            }
        };
        tiles.push(tile);
    }
    let [Some(bubu), Some(dudu)] = bears else {
        let missing = if bears[0].is_none() {
            "Bubu `B`"
        } else {
            "Dudu `D`"
        };
        return Err(whole_first_row(&format!("the level has no {missing}")));
    };
    if !tiles.contains(&Tile::Heart) {
        return Err(whole_first_row("the level has no heart `H`"));
    }
    for (index, cell) in chars.iter().enumerate() {
        match tiles[index] {
            Tile::Gate(letter) if !tiles.contains(&Tile::Plate(letter)) => {
                return Err(cell
                    .error(format!(
                        "gate `{}` has no plate `{}`: it could never open",
                        cell.ch,
                        cell.ch.to_ascii_lowercase()
                    ))
                    .with_hint(
                        "add a plate of the same letter in lowercase, or make the gate a wall",
                    ));
            }
            Tile::Plate(letter) if !tiles.contains(&Tile::Gate(letter)) => {
                warnings.push(cell.warning(format!(
                    "plate `{}` opens nothing: there is no gate `{}`",
                    cell.ch,
                    cell.ch.to_ascii_uppercase()
                )));
            }
            _ => {}
        }
    }

    objects.sort_by_key(|(kind, cell, _)| (*kind, *cell));
    let mut start = State {
        bears: [bubu as u16, dudu as u16],
        objects: [NOWHERE; MAX_OBJECTS],
    };
    for (slot, (_, cell, _)) in objects.iter().enumerate() {
        start.objects[slot] = *cell;
    }
    let header = |key: &str| {
        headers
            .iter()
            .find(|(seen, _)| seen == key)
            .map(|(_, value)| value.clone())
    };
    let level = Level {
        name: header("name"),
        hint: header("hint"),
        author: header("author"),
        other_headers: headers
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "name" | "hint" | "author"))
            .cloned()
            .collect(),
        width,
        height,
        tiles,
        kinds: objects.iter().map(|(kind, _, _)| *kind).collect(),
        start,
        steps: Vec::new(),
        heart_distance: [Vec::new(), Vec::new()],
    };
    Ok((level.derive_tables(), warnings))
}

/// The level as a level file: its header lines, then the grid with the
/// bears and objects where they start. Reading it back gives the same
/// level. (An ablated copy prints with its replacements, so a gate whose
/// plates were ablated prints without them and would not load.)
pub fn print(level: &Level) -> String {
    let mut text = String::new();
    let known = [
        ("name", &level.name),
        ("hint", &level.hint),
        ("author", &level.author),
    ];
    for (key, value) in known {
        if let Some(value) = value {
            text.push_str(&format!("{key}: {value}\n"));
        }
    }
    for (key, value) in &level.other_headers {
        text.push_str(&format!("{key}: {value}\n"));
    }
    let mut grid: Vec<char> = level
        .tiles
        .iter()
        .map(|tile| match *tile {
            Tile::Floor => '.',
            Tile::Wall => '#',
            Tile::Heart => 'H',
            Tile::Hole => 'm',
            Tile::Cat => 'c',
            Tile::Plate(letter) => char::from(b'a' + letter),
            Tile::Gate(letter) => char::from(b'A' + letter),
        })
        .collect();
    for (kind, cell) in level.kinds.iter().zip(level.start.objects) {
        grid[cell as usize] = kind.letter();
    }
    grid[level.start.bears[0] as usize] = 'B';
    grid[level.start.bears[1] as usize] = 'D';
    for row in grid.chunks(level.width) {
        text.extend(row);
        text.push('\n');
    }
    text
}
