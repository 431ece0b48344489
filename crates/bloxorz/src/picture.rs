//! How a Bloxorz state is drawn (`puzzle_qa_core::picture`): tiles by kind, switches,
//! teleports and bridges labelled with their names, an arrow from each
//! switch to the first tile of each name it drives and from each teleport
//! to its two landing cells; the block, or the two cubes after a split.

use super::level::{Level, Presence, Tile};
use super::rules::{Shape, State};
use puzzle_qa_core::game::Draw;
use puzzle_qa_core::picture::{Link, Look, Piece, Scene};

impl Draw for Level {
    fn scene(&self, state: &State) -> Scene {
        let place = |index: u16| {
            (
                usize::from(index) / self.width,
                usize::from(index) % self.width,
            )
        };
        let cells = self
            .cells
            .iter()
            .enumerate()
            .map(|(index, cell)| {
                let token = &self.source.grid[index / self.width][index % self.width];
                let present = match cell.presence {
                    Presence::Static(present) => present,
                    Presence::Dynamic(bit) => state.mask & (1 << bit) != 0,
                };
                let look = match (cell.presence, present, cell.tile) {
                    (Presence::Dynamic(_), true, _) => {
                        Look::new("bridge (present)", "#b08850", '=')
                    }
                    (Presence::Dynamic(_), false, _) => {
                        Look::new("bridge (missing)", "#39405a", ':')
                    }
                    (_, false, _) => Look::new("no tile", "#1d2333", ' '),
                    (_, true, Tile::Plain) => Look::new("tile", "#c9cdd6", '.'),
                    (_, true, Tile::Goal) => Look::new("goal", "#101010", 'G'),
                    (_, true, Tile::Weak) => Look::new("weak tile", "#e8a33c", 'w'),
                    (_, true, Tile::StrongSwitch) => Look::new("strong switch", "#7d5bd6", 'X'),
                    (_, true, Tile::WeakSwitch) => Look::new("weak switch", "#b9a3f2", 'O'),
                    (_, true, Tile::Teleport) => Look::new("teleport", "#2fb3c9", 'T'),
                };
                // Names with an id (`W1`, `x2`, `l1`) are what rules refer to.
                if token.len() > 1 {
                    look.labelled(token.clone())
                } else {
                    look
                }
            })
            .collect();
        let block = |name: &'static str, glyph, cells: Vec<u16>| Piece {
            name: name.into(),
            fill: "#d8463a".into(),
            glyph,
            cells: cells.into_iter().map(place).collect(),
            actor: true,
            sprite: Vec::new(),
        };
        let pieces = match state.shape {
            Shape::Upright => vec![block("block", 'B', vec![state.a])],
            Shape::Horizontal | Shape::Vertical => {
                vec![block("block", 'B', vec![state.a, state.b])]
            }
            Shape::Split => vec![
                block("cube in control", 'A', vec![state.a]),
                Piece {
                    fill: "#f0a090".into(),
                    ..block("cube", 'b', vec![state.b])
                },
            ],
        };
        let mut links = Vec::new();
        for (index, cell) in self.cells.iter().enumerate() {
            let from = place(index as u16);
            if let Some(switch) = cell.switch {
                let effect = self.switches[usize::from(switch)];
                let driven = !effect.keep | effect.flip;
                for bit in (0..64u8).filter(|bit| driven & (1 << bit) != 0) {
                    let first = self
                        .cells
                        .iter()
                        .position(|cell| cell.presence == Presence::Dynamic(bit));
                    if let Some(to) = first {
                        links.push(Link {
                            from,
                            to: place(to as u16),
                        });
                    }
                }
            }
            if let Some(targets) = cell.teleport {
                links.extend(targets.map(|to| Link {
                    from,
                    to: place(to),
                }));
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
