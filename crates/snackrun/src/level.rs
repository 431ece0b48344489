//! Reading a Snack Run level file (the format in `docs/games/snackrun.md`).
//!
//! Decisions where the format is silent:
//! * Lines before the grid are read as in Hug Maze: `key: value` headers
//!   (the key a word), `;` comments and blank lines. Trailing spaces and
//!   tabs on a line are ignored; the grid is the first run of non-blank
//!   lines, and nothing may follow it.
//! * An unknown header key is an error, not a warning as in Hug Maze: the
//!   format lists every key, and a misspelt `snacks: each` would silently
//!   weaken the snack check. A key given twice keeps its last value, with a
//!   warning.
//! * `snacks: each` is the only value `snacks:` takes; leaving the header
//!   out is the default (every snack by at least one bear).
//! * Exactly one `G`: the rules speak of "the goal", and a stray second `G`
//!   would quietly make the level easier.
//! * A bear whose start falls out of the grid or onto spikes is an error at
//!   its start cell, as the rules demand.
//! * A grid holds at most [`MAX_CELLS`] cells, as in the other games: the
//!   standing spots are numbered in 16 bits.

use puzzle_qa_core::diagnostic::{Diagnostic, nearest, numbered_lines};

use super::physics::Pos;

const CELL_HINT: &str = "cells are # . - ^ * o G B D";
const HEADERS: [&str; 3] = ["name", "hint", "snacks"];

/// The most cells a grid may have. Every cell may be a standing spot, and a
/// [`super::Course`] numbers the spots in 16 bits, the goal after them and
/// `u16::MAX` for a bear that fell to its death.
pub const MAX_CELLS: usize = u16::MAX as usize - 1;

/// One cell of the grid. Snacks, the goal and the bears' starts are air
/// that the bears can pass through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    /// Air (`.`): bears move through it.
    Air,
    /// Solid ground (`#`): blocks a bear and holds one up.
    Ground,
    /// A one-way platform (`-`): a bear stands on it and jumps up through it
    /// from below, but cannot walk or jump into it sideways.
    OneWay,
    /// A spring (`^`): solid; a bear standing on it may also make the spring
    /// jump.
    Spring,
    /// Spikes (`*`): touching them kills the bear, so a motion that would is
    /// discarded.
    Spikes,
    /// A snack (`o`) in an air cell, collected by touching it.
    Snack,
    /// The goal (`G`), an air cell; touching it ends the bear's movement.
    Goal,
}

impl Tile {
    const ALL: [Tile; 7] = [
        Tile::Air,
        Tile::Ground,
        Tile::OneWay,
        Tile::Spring,
        Tile::Spikes,
        Tile::Snack,
        Tile::Goal,
    ];

    /// The tile's character in a level file's grid.
    pub fn char(self) -> char {
        match self {
            Tile::Air => '.',
            Tile::Ground => '#',
            Tile::OneWay => '-',
            Tile::Spring => '^',
            Tile::Spikes => '*',
            Tile::Snack => 'o',
            Tile::Goal => 'G',
        }
    }
}

/// Bubu or Dudu; each is searched alone from its own start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bear {
    /// Bubu, who starts on `B`.
    Bubu = 0,
    /// Dudu, who starts on `D`.
    Dudu = 1,
}

impl Bear {
    /// Both bears, Bubu first.
    pub const BOTH: [Bear; 2] = [Bear::Bubu, Bear::Dudu];

    /// The bear's name, in messages and in the `snacks` expectation.
    pub fn name(self) -> &'static str {
        ["Bubu", "Dudu"][self as usize]
    }

    /// The bear's letter: its start in a level file, its key in expectations
    /// and in move notation (`B` or `D`).
    pub fn letter(self) -> char {
        ['B', 'D'][self as usize]
    }
}

/// A parsed Snack Run level.
#[derive(Clone, Debug)]
pub struct Level {
    /// The level's `name:` header, if it has one.
    pub name: Option<String>,
    /// The level's `hint:` header, if it has one.
    pub hint: Option<String>,
    /// `snacks: each`: each bear must reach every snack, not just one of them.
    pub snacks_each: bool,
    /// Columns in the grid.
    pub width: usize,
    /// Rows in the grid.
    pub height: usize,
    pub(crate) tiles: Vec<Tile>,
    /// Where Bubu and Dudu are drawn, before their first fall.
    pub starts: [Pos; 2],
}

impl Level {
    /// The tile at (row, column), 0-based; the cell must be on the grid.
    pub fn tile(&self, (row, col): Pos) -> Tile {
        self.tiles[row * self.width + col]
    }

    /// Every cell holding `tile`, in reading order.
    pub fn cells(&self, tile: Tile) -> Vec<Pos> {
        (0..self.tiles.len())
            .filter(|&index| self.tiles[index] == tile)
            .map(|index| (index / self.width, index % self.width))
            .collect()
    }

    /// The level as a level file: headers, then the grid with the bears on
    /// their starts. Reading it back gives the same level.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for (key, value) in [("name", &self.name), ("hint", &self.hint)] {
            if let Some(value) = value {
                text.push_str(&format!("{key}: {value}\n"));
            }
        }
        if self.snacks_each {
            text.push_str("snacks: each\n");
        }
        let mut grid: Vec<char> = self.tiles.iter().map(|tile| tile.char()).collect();
        for bear in Bear::BOTH {
            let (row, col) = self.starts[bear as usize];
            grid[row * self.width + col] = bear.letter();
        }
        for row in grid.chunks(self.width) {
            text.extend(row);
            text.push('\n');
        }
        text
    }
}

fn is_header_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn chars_in(text: &str) -> usize {
    text.chars().count()
}

/// Whether `ch` may stand in the grid.
fn is_cell(ch: char) -> bool {
    matches!(ch, 'B' | 'D') || Tile::ALL.iter().any(|tile| tile.char() == ch)
}

/// Characters that show nothing on screen, often pasted in from a web page
/// or a word processor: a soft hyphen, zero-width spaces and joiners,
/// direction marks, word joiners and a byte-order mark.
fn is_invisible(ch: char) -> bool {
    ch.is_control()
        || matches!(ch, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}')
        || matches!(ch, '\u{2060}'..='\u{2064}' | '\u{feff}')
}

/// An unknown character as a message shows it: blanks and invisible
/// characters are spelt out, since a caret under them shows nothing.
fn shown(ch: char) -> String {
    match ch {
        ' ' => "` ` (a space)".to_string(),
        '\t' => "`\\t` (a tab)".to_string(),
        _ if ch.is_whitespace() => format!("`{}` (a kind of space)", ch.escape_unicode()),
        _ if is_invisible(ch) => format!("`{}` (an invisible character)", ch.escape_unicode()),
        _ => format!("`{ch}`"),
    }
}

/// The error for a character that is no cell, at `line`, `column`.
fn unknown_character(ch: char, line: usize, column: usize) -> Diagnostic {
    let hint = match ch {
        _ if ch.is_whitespace() && column == 1 => {
            format!("a row may not be indented; use `.` for air; {CELL_HINT}")
        }
        _ if ch.is_whitespace() => format!("use `.` for air; {CELL_HINT}"),
        'b' | 'd' | 'g' => "the bears and the goal are capitals: B, D, G".into(),
        _ => CELL_HINT.to_string(),
    };
    Diagnostic::error(format!("unknown character {}", shown(ch)))
        .at(line, column, 1)
        .with_hint(hint)
}

/// Parses a level file's text. Returns the level and its warnings, or the
/// first error.
pub fn parse(text: &str) -> Result<(Level, Vec<Diagnostic>), Diagnostic> {
    let mut warnings = Vec::new();
    let (mut name, mut hint, mut snacks_each) = (None, None, false);
    let mut seen: Vec<String> = Vec::new();
    // The line number of each grid row, the grid's width and its cells.
    let mut lines: Vec<usize> = Vec::new();
    let mut width = 0;
    let mut tiles: Vec<Tile> = Vec::new();
    // Where the first `B`, `D` and `G` are, as (row, column) in the grid:
    // each may appear only once.
    let mut unique: [Option<Pos>; 3] = [None; 3];
    const UNIQUE: [(char, &str); 3] = [('B', "Bubu"), ('D', "Dudu"), ('G', "goal")];
    // The first blank line after the grid, which ends it.
    let mut blank_after_grid = None;

    for (number, line) in numbered_lines(text) {
        let content = line.trim_end_matches([' ', '\t']);
        if content.is_empty() {
            if !lines.is_empty() && blank_after_grid.is_none() {
                blank_after_grid = Some(number);
            }
            continue;
        }
        let indent = chars_in(content) - chars_in(content.trim_start());
        if let Some(blank) = blank_after_grid {
            if content.chars().all(is_cell) {
                return Err(Diagnostic::error("a blank line inside the grid")
                    .at(blank, 1, 1)
                    .with_hint(format!(
                        "the grid is one block of rows, and it goes on at line {number}; \
                         remove the blank line"
                    )));
            }
            return Err(Diagnostic::error("text after the grid")
                .at(number, indent + 1, chars_in(content.trim()))
                .with_hint(format!(
                    "the grid ended at the blank line {blank}; it is the last thing in a level \
                     file, so headers and `;` comments go before it"
                )));
        }
        // No grid character is `:`, so a line with a `key:` is a header.
        let header = content
            .split_once(':')
            .filter(|(raw_key, _)| is_header_key(raw_key.trim()));
        if lines.is_empty() {
            if content.trim_start().starts_with(';') {
                continue;
            }
            if let Some((raw_key, raw_value)) = header {
                let key = raw_key.trim();
                let value = raw_value.trim().to_string();
                let key_at = |d: Diagnostic| d.at(number, indent + 1, chars_in(key));
                if !HEADERS.contains(&key) {
                    let mut help = format!("known headers are {}", HEADERS.join(", "));
                    if let Some(near) = nearest(key, &HEADERS) {
                        help = format!("did you mean `{near}`? {help}");
                    }
                    return Err(key_at(Diagnostic::error(format!("unknown header `{key}`")))
                        .with_hint(help));
                }
                if seen.iter().any(|s| s == key) {
                    warnings.push(key_at(Diagnostic::warning(format!(
                        "a second `{key}:` header; the last one counts"
                    ))));
                }
                seen.push(key.to_string());
                match key {
                    "name" => name = Some(value),
                    "hint" => hint = Some(value),
                    _ if value == "each" => snacks_each = true,
                    _ => {
                        let column = chars_in(raw_key) + 2 + chars_in(raw_value)
                            - chars_in(raw_value.trim_start());
                        let message = if value.is_empty() {
                            "the `snacks:` header has no value".to_string()
                        } else {
                            format!("invalid `snacks:` value `{value}`")
                        };
                        return Err(Diagnostic::error(message)
                            .at(number, column, chars_in(&value).max(1))
                            .with_hint(
                                "the only value is `each` (each bear must reach every snack); \
                                 leave the header out for every snack by at least one bear",
                            ));
                    }
                }
                continue;
            }
        } else if let Some((raw_key, _)) = header
            && HEADERS.contains(&raw_key.trim())
        {
            let key = raw_key.trim();
            return Err(
                Diagnostic::error(format!("a `{key}:` header inside the grid"))
                    .at(number, indent + 1, chars_in(key))
                    .with_hint(format!(
                        "headers go before the grid, which starts at line {}",
                        lines[0]
                    )),
            );
        }
        // Refuse a giant grid before holding every cell of it in memory.
        let cells = tiles.len() + chars_in(content);
        if cells > MAX_CELLS {
            return Err(Diagnostic::error(format!(
                "the grid is too large for the engine: {cells} cells by this line, at most \
                 {MAX_CELLS}"
            ))
            .at(number, 1, 1)
            .with_hint(
                "standing spots are numbered in 16 bits; split the level or make it smaller",
            ));
        }
        let row = lines.len();
        let mut count = 0;
        for (col, ch) in content.chars().enumerate() {
            count += 1;
            if let Some(which) = UNIQUE.iter().position(|(letter, _)| *letter == ch) {
                if let Some((r, c)) = unique[which] {
                    let what = UNIQUE[which].1;
                    return Err(Diagnostic::error(format!(
                        "a second `{ch}`: a level has exactly one {what}"
                    ))
                    .at(number, col + 1, 1)
                    .with_hint(format!(
                        "the first is at line {}, column {}",
                        lines.get(r).unwrap_or(&number),
                        c + 1
                    )));
                }
                unique[which] = Some((row, col));
            }
            let tile = match ch {
                'B' | 'D' => Tile::Air,
                _ => Tile::ALL
                    .into_iter()
                    .find(|tile| tile.char() == ch)
                    .ok_or_else(|| unknown_character(ch, number, col + 1))?,
            };
            tiles.push(tile);
        }
        if row == 0 {
            width = count;
        } else if count != width {
            return Err(Diagnostic::error(format!(
                "ragged row: {count} cells, but the first row (line {}) has {width}",
                lines[0]
            ))
            .at(number, count.min(width) + 1, 1)
            .with_hint("every row of the grid needs the same number of cells"));
        }
        lines.push(number);
    }

    let Some(&grid_line) = lines.first() else {
        return Err(Diagnostic::error("the level has no grid")
            .with_hint("a level is a grid of cells such as `B.G.D`, one row per line"));
    };
    for which in [2, 0, 1] {
        if unique[which].is_none() {
            let (letter, what) = UNIQUE[which];
            return Err(
                Diagnostic::error(format!("the level has no {what} `{letter}`"))
                    .at(grid_line, 1, width),
            );
        }
    }
    let level = Level {
        name,
        hint,
        snacks_each,
        width,
        height: lines.len(),
        tiles,
        starts: [unique[0].unwrap(), unique[1].unwrap()],
    };
    for bear in Bear::BOTH {
        let (row, col) = level.starts[bear as usize];
        if level.fall_from((row, col)).is_none() {
            // The fall met no support and no goal, so it ends on the first
            // spikes below, or else in the pit.
            let spikes = (row + 1..level.height).find(|&r| level.tile((r, col)) == Tile::Spikes);
            let (how, hint) = match spikes {
                Some(r) => (
                    format!("onto the spikes at line {}, column {}", lines[r], col + 1),
                    "put ground, a one-way platform or a spring below the start, above the spikes",
                ),
                None => (
                    "out of the bottom of the grid".to_string(),
                    "below the bottom row is a pit; put ground, a one-way platform or a spring \
                     below the start",
                ),
            };
            return Err(Diagnostic::error(format!(
                "{} falls to its death from the start, {how}",
                bear.name()
            ))
            .at(lines[row], col + 1, 1)
            .with_hint(hint));
        }
    }
    Ok((level, warnings))
}
