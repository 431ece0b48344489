//! Pictures of levels and solutions, game-neutral.
//!
//! A game describes one state of a level as a [`Scene`]: a look per cell
//! (what a legend calls it, a colour, an ASCII glyph, a label such as `W1`,
//! and, if the game has pixel art, its [`Pixels`] grids one over another),
//! the pieces standing on the grid (bears, the block, objects), and links
//! drawn as arrows (a switch to the tiles it drives, a plate to its gate).
//! [`Playback`] is a level played through, one frame per state. The
//! renderers know no game: `ascii.rs` for the terminal, `svg.rs` for a
//! picture with the path overlaid, `html.rs` for a page that replays it and
//! for the suite's report.

pub(crate) mod ascii;
pub(crate) mod html;
pub(crate) mod svg;

use std::borrow::Cow;
use std::sync::Arc;

/// A name or a colour: a literal most games write (`"wall"`), or a text a
/// game makes when it loads (a PuzzleScript object's name and colours).
pub type Text = Cow<'static, str>;

/// A cell as drawn: the same name always has the same look.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The legend's name for it (`plain tile`, `wall`, `heart`).
    pub name: Text,
    /// A CSS colour: the whole cell, or what shows through its sprite.
    pub fill: Text,
    /// Its character in the terminal.
    pub glyph: char,
    /// A short text drawn on it (`W1`, `a`), if any.
    pub label: Option<String>,
    /// Pixel art drawn over the fill, the first grid at the bottom; empty
    /// for a cell that is its fill alone.
    pub sprite: Sprite,
}

impl Look {
    /// A look without a label or a sprite. `name` and `fill` are usually
    /// literals; a game may make them when it loads (a `String`).
    pub fn new(name: impl Into<Text>, fill: impl Into<Text>, glyph: char) -> Look {
        Look {
            name: name.into(),
            fill: fill.into(),
            glyph,
            label: None,
            sprite: Vec::new(),
        }
    }

    /// The same look, with `label` drawn on it.
    pub fn labelled(self, label: impl Into<String>) -> Look {
        Look {
            label: Some(label.into()),
            ..self
        }
    }

    /// The same look, with `sprite` drawn over its fill.
    pub fn with_sprite(self, sprite: Sprite) -> Look {
        Look { sprite, ..self }
    }
}

/// Pixel art: square grids drawn one over another across a whole cell,
/// the first at the bottom. Shared grids (`Arc`) keep a scene of many
/// cells small, and let a renderer draw each distinct picture once.
pub type Sprite = Vec<Arc<Pixels>>;

/// A square grid of pixels, `side` × `side`, stretched over a cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pixels {
    /// Pixels along each edge.
    pub side: usize,
    /// The CSS colours its pixels use.
    pub colours: Vec<Text>,
    /// Row by row, `side × side` of them: an index into `colours`, or
    /// `None` where the pixel is transparent (as is an index past the
    /// colours, or a missing pixel).
    pub pixels: Vec<Option<u8>>,
}

impl Pixels {
    /// The colour of the pixel at (`row`, `col`), if it is not transparent.
    pub fn at(&self, row: usize, col: usize) -> Option<&str> {
        if row >= self.side || col >= self.side {
            return None;
        }
        let index = (*self.pixels.get(row * self.side + col)?)?;
        self.colours.get(usize::from(index)).map(|colour| &**colour)
    }
}

/// Something standing on the grid in one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The legend's name for it (`block`, `Bubu (small bear)`).
    pub name: Text,
    /// A CSS colour: its box, when it has no sprite.
    pub fill: Text,
    /// Its character in the terminal.
    pub glyph: char,
    /// The cells it covers, `(row, column)`, 0-based.
    pub cells: Vec<(usize, usize)>,
    /// Moved by the player: its path is drawn and numbered.
    pub actor: bool,
    /// Pixel art drawn over each cell it covers, instead of a box of its
    /// fill; empty for the box. Transparent pixels show the cell below.
    pub sprite: Sprite,
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
    /// What the last frame's cells hold, by name, for a game that tells
    /// ([`Draw::contents`](crate::game::Draw::contents)).
    pub contents: Option<crate::game::Contents>,
    /// The characters the frames' terminal grids use that no level file
    /// defines, each with what it stands for
    /// ([`Draw::invented_glyphs`](crate::game::Draw::invented_glyphs)), so
    /// that a key printed with the grid can say.
    pub invented: Vec<(char, String)>,
    /// Why no win is drawn, when the level has none to draw: what the
    /// search found (`unsolvable: …`, `not decided: …`), said with the
    /// picture. `None` when a win, or moves given by hand, are drawn; the
    /// caller sets it, since a playback knows its moves, not the search.
    pub unsolved: Option<String>,
}

impl Playback {
    /// The moves played (the frames after the start).
    pub fn moves(&self) -> usize {
        self.frames.len().saturating_sub(1)
    }
}
