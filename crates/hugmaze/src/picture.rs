//! How a Hug Maze state is drawn (`puzzle_qa_core::picture`): walls, floor, hearts,
//! holes and cats by kind; plates and gates labelled with their letter,
//! each plate linked to its gate cells by an arrow, gates drawn open or
//! shut as the state has them; the two bears and the objects.

use super::level::{Kind, Level, Tile};
use super::rules::{Bear, Standing, State};
use puzzle_qa_core::game::Draw;
use puzzle_qa_core::picture::{Link, Look, Piece, Scene};

impl Draw for Level {
    fn scene(&self, state: &State) -> Scene {
        let standing = Standing::of(self, state, None, None);
        let cells = self
            .tiles
            .iter()
            .enumerate()
            .map(|(cell, tile)| match *tile {
                Tile::Floor => Look::new("floor", "#d9d3c3", '.'),
                Tile::Wall => Look::new("wall", "#4a4f5c", '#'),
                Tile::Heart => Look::new("heart", "#f06292", 'H'),
                Tile::Hole => Look::new("mouse hole (Bubu only)", "#6d4c41", 'm'),
                Tile::Cat => Look::new("sleeping cat", "#ffb74d", 'c'),
                Tile::Plate(letter) => {
                    Look::new("pressure plate", "#9ccc65", (b'a' + letter) as char)
                        .labelled(((b'a' + letter) as char).to_string())
                }
                Tile::Gate(letter) => {
                    let name = (b'A' + letter) as char;
                    let look = if standing.gate_open(cell as u16, letter) {
                        Look::new("gate (open)", "#c5e1a5", '_')
                    } else {
                        Look::new("gate (shut)", "#33691e", name)
                    };
                    look.labelled(name.to_string())
                }
            })
            .collect();
        let mut pieces: Vec<Piece> = Bear::BOTH
            .into_iter()
            .map(|bear| Piece {
                name: if bear == Bear::Bubu {
                    "Bubu (small bear)"
                } else {
                    "Dudu (heavy bear)"
                }
                .into(),
                fill: if bear == Bear::Bubu {
                    "#ffe082"
                } else {
                    "#8d6e63"
                }
                .into(),
                glyph: bear.letter(),
                cells: vec![self.row_col(state.bears[bear as usize])],
                actor: true,
                sprite: Vec::new(),
            })
            .collect();
        for (slot, kind) in self.kinds.iter().enumerate() {
            let (name, fill) = match kind {
                Kind::Block => ("giant block (Dudu pushes)", "#78909c"),
                Kind::Jar => ("honey jar (Dudu pushes)", "#ffa000"),
                Kind::Cushion => ("cushion (slides; either bear)", "#4fc3f7"),
            };
            pieces.push(Piece {
                name: name.into(),
                fill: fill.into(),
                glyph: kind.letter(),
                cells: vec![self.row_col(state.objects[slot])],
                actor: false,
                sprite: Vec::new(),
            });
        }
        let mut links = Vec::new();
        for (plate, tile) in self.tiles.iter().enumerate() {
            let Tile::Plate(letter) = *tile else { continue };
            for (gate, other) in self.tiles.iter().enumerate() {
                if *other == Tile::Gate(letter) {
                    links.push(Link {
                        from: self.row_col(plate as u16),
                        to: self.row_col(gate as u16),
                    });
                }
            }
        }
        Scene {
            width: self.width,
            height: self.height,
            cells,
            pieces,
            links,
        }
    }
}
