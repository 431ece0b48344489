//! Pictures of a level (`puzzle_qa_core::picture`) in the game's own art:
//! each object's sprite with its colours (the palette already applied by
//! the compiler; an object without a sprite is a square of its first
//! colour), stacked as the collision layers order them, background first.
//!
//! A cell's look is named by its objects, top first (`crate on target`;
//! the background object is left out unless nothing else is there), and
//! its glyph is the legend's character, in the case the level maps write
//! them ([`glyph_of`]); an object the legend gives no character of its own
//! gets one made from its name ([`invented`]), which `replay` explains in
//! a key.
//!
//! A player stands on the grid as a piece, an actor, so that a picture of a
//! solution draws its path: the player's object and whatever the layers
//! above it hold in that cell are the piece's sprite, the layers below are
//! the cell's, so the two together are the cell's whole stack, in order.
//! The piece's glyph is the whole cell's character, so the terminal grid
//! draws each cell as one character of the legend.

use std::sync::Arc;

use puzzle_qa_core::game::{Contents, Draw};
use puzzle_qa_core::picture::{Look, Piece, Pixels, Scene, Sprite};

use crate::bits;
use crate::compile::Game;
use crate::level::Level;

/// What shows where no sprite has a pixel: the official engine's default
/// background colour, unless the prelude sets `background_color`.
const BACKGROUND: &str = "#000000";

/// Each object's sprite as a grid of pixels, by id: `None` for an object
/// that draws nothing (every pixel transparent). A pixel whose colour is
/// `transparent`, or that names a colour the object does not list, is
/// transparent.
pub(crate) fn grids(game: &Game) -> Vec<Option<Arc<Pixels>>> {
    game.art()
        .iter()
        .map(|(colours, sprite)| {
            let side = sprite.len();
            let visible = |index: u8| {
                colours
                    .get(usize::from(index))
                    .is_some_and(|colour| colour != "transparent")
            };
            let pixels: Vec<Option<u8>> = sprite
                .iter()
                .flat_map(|row| (0..side).map(|col| row.get(col).copied().flatten()))
                .map(|pixel| pixel.filter(|&index| visible(index)))
                .collect();
            pixels.iter().any(Option::is_some).then(|| {
                Arc::new(Pixels {
                    side,
                    colours: colours.iter().map(|c| c.clone().into()).collect(),
                    pixels,
                })
            })
        })
        .collect()
}

/// The objects `ids` (bottom first) as a name, top first: `crate on target`.
fn name_of(game: &Game, ids: &[usize]) -> String {
    let names: Vec<&str> = ids
        .iter()
        .rev()
        .filter_map(|&id| game.id_names.get(id))
        .map(String::as_str)
        .collect();
    names.join(" on ")
}

/// A character for each object that the legend gives none of its own, by
/// id (`None` for one it gives), so that the terminal grid can draw it
/// readably: the first letter or digit of its name as the OBJECTS section
/// writes it that no legend character and no object before it has taken,
/// in either case (a map's characters are read without case), else a
/// digit or a sign that is free. Made from the game alone, in id order, so
/// every level and every run of one game draws an object alike.
fn invented(game: &Game) -> Vec<Option<char>> {
    let mut taken: Vec<char> = game
        .glyphs
        .iter()
        .map(|(c, _)| c.to_ascii_lowercase())
        .collect();
    let listed = |id: usize| {
        game.glyphs
            .iter()
            .any(|(_, m)| bits::ones(m).eq(std::iter::once(id)))
    };
    (0..game.id_names.len())
        .map(|id| {
            if listed(id) {
                return None;
            }
            let pick = game
                .shown_name(id)
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .chain("0123456789%&$+=~^:;!<>{}|/-_".chars())
                .find(|c| !taken.contains(&c.to_ascii_lowercase()))?;
            taken.push(pick.to_ascii_lowercase());
            Some(pick)
        })
        .collect()
}

/// The legend's character for one cell's object bits: the character whose
/// objects are exactly the cell's (the background aside), else the one of
/// its top object, else the one [`invented`] for its top object (`?` only
/// when every free character is taken, or the cell is empty).
fn glyph_of(game: &Game, invented: &[Option<char>], cell: &[u32]) -> char {
    let without_background = |m: &[u32]| {
        let mut v = m.to_vec();
        if let Some(b) = game.background {
            v[b >> 5] &= !(1 << (b & 31));
        }
        v
    };
    let bare = without_background(cell);
    if let Some((c, _)) = game.glyphs.iter().find(|(_, m)| **m == *cell) {
        return *c;
    }
    if let Some((c, _)) = game
        .glyphs
        .iter()
        .find(|(_, m)| without_background(m) == bare)
    {
        return *c;
    }
    // The object on the highest layer is the one a player sees.
    let top = bits::ones(cell).max_by_key(|&id| (game.layer_of_id[id], id));
    top.and_then(|id| {
        game.glyphs
            .iter()
            .find(|(_, m)| bits::ones(m).eq(std::iter::once(id)))
            .map(|(c, _)| *c)
            .or_else(|| invented.get(id).copied().flatten())
    })
    .unwrap_or('?')
}

impl Draw for Level {
    fn scene(&self, state: &[u8]) -> Scene {
        let game = self.game();
        let (width, height) = self.size();
        let board = self.board_of(state);
        let grids = grids(game);
        let invented = invented(game);
        let fill = game
            .prelude()
            .background_color
            .clone()
            .unwrap_or_else(|| BACKGROUND.to_string());
        let sprite = |ids: &[usize]| -> Sprite {
            ids.iter()
                .filter_map(|&id| grids.get(id).cloned().flatten())
                .collect()
        };
        let layer = |id: usize| game.layer_of_id.get(id).copied().unwrap_or(0);
        let so = game.stride();
        let mut cells = Vec::with_capacity(width * height);
        let mut pieces = Vec::new();
        for row in 0..height {
            for col in 0..width {
                let words = bits::span(&board, col * height + row, so);
                let mut ids: Vec<usize> = bits::ones(words).collect();
                ids.sort_by_key(|&id| (layer(id), id));
                // The lowest layer a player is on here, if one is: from it
                // up, the cell's objects stand as a piece.
                let split = ids
                    .iter()
                    .filter(|&&id| bits::has(&game.player, id))
                    .map(|&id| layer(id))
                    .min();
                let cut = split.map_or(ids.len(), |split| {
                    ids.iter().take_while(|&&id| layer(id) < split).count()
                });
                let (under, over) = ids.split_at(cut);
                let mut below = words.to_vec();
                for &id in over {
                    below[id >> 5] &= !(1 << (id & 31));
                }
                let shown: Vec<usize> = under
                    .iter()
                    .copied()
                    .filter(|&id| Some(id) != game.background)
                    .collect();
                let name = match (shown.is_empty(), under.is_empty()) {
                    (false, _) => name_of(game, &shown),
                    (true, false) => name_of(game, under),
                    (true, true) => "empty".to_string(),
                };
                cells.push(
                    Look::new(name, fill.clone(), glyph_of(game, &invented, &below))
                        .with_sprite(sprite(under)),
                );
                if !over.is_empty() {
                    let player = over[0];
                    let colour = game
                        .art()
                        .get(player)
                        .and_then(|(colours, _)| colours.iter().find(|c| *c != "transparent"))
                        .cloned()
                        .unwrap_or_else(|| fill.clone());
                    pieces.push(Piece {
                        name: name_of(game, over).into(),
                        fill: colour.into(),
                        glyph: glyph_of(game, &invented, words),
                        cells: vec![(row, col)],
                        actor: true,
                        sprite: sprite(over),
                    });
                }
            }
        }
        Scene {
            width,
            height,
            cells,
            pieces,
            links: Vec::new(),
        }
    }

    /// The characters made for objects the legend gives none of their
    /// own (the first free letter of each one's name), each with the
    /// object's name as the OBJECTS section writes it.
    fn invented_glyphs(&self) -> Vec<(char, String)> {
        let game = self.game();
        invented(game)
            .into_iter()
            .enumerate()
            .filter_map(|(id, glyph)| Some((glyph?, game.shown_name(id).to_string())))
            .collect()
    }

    /// Every cell's objects by their lowercase names, sorted: a
    /// PuzzleScript picture is the whole board, so `replay` draws it after
    /// each move.
    fn contents(&self, state: &[u8]) -> Option<Contents> {
        let game = self.game();
        let (width, height) = self.size();
        let board = self.board_of(state);
        let so = game.stride();
        let cell = |row: usize, col: usize| -> Vec<String> {
            let words = &board[(col * height + row) * so..][..so];
            game.names_in(words)
                .into_iter()
                .map(str::to_string)
                .collect()
        };
        Some(
            (0..height)
                .map(|row| (0..width).map(|col| cell(row, col)).collect())
                .collect(),
        )
    }
}
