//! Pictures of levels and solutions, game-neutral.
//!
//! A game describes one state of a level as a [`Scene`]: a look per cell
//! (what a legend calls it, a colour, an ASCII glyph, a label such as `W1`),
//! the pieces standing on the grid (bears, the block, objects), and links
//! drawn as arrows (a switch to the tiles it drives, a plate to its gate).
//! [`Playback`] is a level played through, one frame per state. The
//! renderers know no game: [`ascii`] for the terminal, [`svg`] for a
//! picture with the path overlaid, [`html`] for a page that replays it and
//! for the suite's report.

pub mod ascii;
pub mod html;
pub mod svg;

/// A cell as drawn: the same name always has the same look.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The legend's name for it (`plain tile`, `wall`, `heart`).
    pub name: &'static str,
    /// A CSS colour.
    pub fill: &'static str,
    /// Its character in the terminal.
    pub glyph: char,
    /// A short text drawn on it (`W1`, `a`), if any.
    pub label: Option<String>,
}

impl Look {
    /// A look without a label.
    pub fn new(name: &'static str, fill: &'static str, glyph: char) -> Look {
        Look {
            name,
            fill,
            glyph,
            label: None,
        }
    }

    /// The same look, with `label` drawn on it.
    pub fn labelled(self, label: impl Into<String>) -> Look {
        Look {
            label: Some(label.into()),
            ..self
        }
    }
}

/// Something standing on the grid in one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The legend's name for it (`block`, `Bubu (small bear)`).
    pub name: &'static str,
    /// A CSS colour.
    pub fill: &'static str,
    /// Its character in the terminal.
    pub glyph: char,
    /// The cells it covers, `(row, column)`, 0-based.
    pub cells: Vec<(usize, usize)>,
    /// Moved by the player: its path is drawn and numbered.
    pub actor: bool,
}

/// An arrow between two cells: what drives what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The cell that drives (a switch, a plate, a teleport).
    pub from: (usize, usize),
    /// The cell it drives (a tile, a gate, a landing cell).
    pub to: (usize, usize),
}

/// One state of a level, as a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// Columns in the grid.
    pub width: usize,
    /// Rows in the grid.
    pub height: usize,
    /// One look per cell, row by row.
    pub cells: Vec<Look>,
    /// What stands on the grid, drawn over the cells.
    pub pieces: Vec<Piece>,
    /// Arrows from each cell to the cells it drives.
    pub links: Vec<Link>,
}

impl Scene {
    /// The look of the cell at (`row`, `col`), 0-based.
    pub fn look(&self, row: usize, col: usize) -> &Look {
        &self.cells[row * self.width + col]
    }
}

/// One frame of a playback: the state after a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The state, as a picture.
    pub scene: Scene,
    /// The move that led here, in the game's notation (empty for the start).
    pub text: String,
    /// The cells the move passed through, when it is more than a step
    /// (a jump's arc); empty otherwise.
    pub trail: Vec<(usize, usize)>,
    /// The moves counted toward par so far (a free move, such as passing
    /// control to another piece, adds nothing).
    pub cost: crate::game::Cost,
}

/// A level played through: the start, then one frame per legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playback {
    /// The start, then the state after each legal move.
    pub frames: Vec<Frame>,
    /// Why the moves stopped before their end, if a move was refused.
    pub refused: Option<String>,
    /// Whether the last frame is a win.
    pub won: bool,
}

impl Playback {
    /// The moves played (the frames after the start).
    pub fn moves(&self) -> usize {
        self.frames.len().saturating_sub(1)
    }
}
