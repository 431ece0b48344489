//! Hug Maze's mechanics, as ablation takes them out of a parsed level
//! (`docs/games/hugmaze.md`, "Ablation"):
//!
//! | mechanic | ablation |
//! |---|---|
//! | `mouse-hole` | every `m` becomes a wall |
//! | `block` | every `X` becomes a wall (it can no longer move) |
//! | `jar` | every `J` becomes a wall |
//! | `cushion` | every `C` becomes a wall |
//! | `plate` | every plate becomes floor (its gates stay shut forever) |
//! | `gate` | every gate becomes floor (always open) |
//! | `cat` | every `c` becomes floor |
//!
//! One piece alone (an object, a hole, a plate, a gate cell, a cat) gets its
//! mechanic's replacement on its cell only. An object's wall stands on its
//! starting cell.

use super::level::{Kind, Level, Tile};
use super::rules::NOWHERE;
use puzzle_qa_core::game::{Ablation, Mechanics};

/// The mechanics in the rulebook's order.
pub(super) const MECHANICS: [&str; 7] = [
    "mouse-hole",
    "block",
    "jar",
    "cushion",
    "plate",
    "gate",
    "cat",
];

/// What takes a mechanic's place: barriers and plates become floor, the
/// rest wall.
fn replacement(mechanic: &str) -> Tile {
    match mechanic {
        "plate" | "gate" | "cat" => Tile::Floor,
        _ => Tile::Wall,
    }
}

fn object_mechanic(kind: Kind) -> &'static str {
    match kind {
        Kind::Block => "block",
        Kind::Jar => "jar",
        Kind::Cushion => "cushion",
    }
}

fn tile_mechanic(tile: Tile) -> Option<&'static str> {
    match tile {
        Tile::Hole => Some("mouse-hole"),
        Tile::Plate(_) => Some("plate"),
        Tile::Gate(_) => Some("gate"),
        Tile::Cat => Some("cat"),
        Tile::Floor | Tile::Wall | Tile::Heart => None,
    }
}

fn ablation(mechanic: &'static str, at: Option<(usize, usize)>) -> Ablation {
    let replacement = match replacement(mechanic) {
        Tile::Floor => "floor",
        _ => "wall",
    };
    Ablation {
        at,
        ..Ablation::everywhere(mechanic, replacement)
    }
}

impl Level {
    /// Every piece, with its cell index: objects at their starting cells and
    /// the tiles that belong to a mechanic.
    fn all_pieces(&self) -> Vec<(&'static str, u16)> {
        let objects = self
            .kinds
            .iter()
            .zip(self.start.objects)
            .map(|(kind, cell)| (object_mechanic(*kind), cell));
        let tiles = self
            .tiles
            .iter()
            .enumerate()
            .filter_map(|(cell, tile)| Some((tile_mechanic(*tile)?, cell as u16)));
        objects.chain(tiles).collect()
    }
}

impl Mechanics for Level {
    fn mechanics(&self) -> Vec<Ablation> {
        let present = self.all_pieces();
        MECHANICS
            .into_iter()
            .filter(|mechanic| present.iter().any(|(found, _)| found == mechanic))
            .map(|mechanic| ablation(mechanic, None))
            .collect()
    }

    /// Each piece alone, by mechanic, then in reading order.
    fn pieces(&self) -> Vec<Ablation> {
        let mut pieces = self.all_pieces();
        pieces
            .sort_by_key(|(mechanic, cell)| (MECHANICS.iter().position(|m| m == mechanic), *cell));
        pieces
            .into_iter()
            .map(|(mechanic, cell)| ablation(mechanic, Some(self.row_col(cell))))
            .collect()
    }

    fn ablate(&self, ablation: &Ablation) -> Level {
        let chosen: Vec<u16> = self
            .all_pieces()
            .into_iter()
            .filter(|(mechanic, cell)| {
                *mechanic == ablation.mechanic
                    && ablation.at.is_none_or(|at| at == self.row_col(*cell))
            })
            .map(|(_, cell)| cell)
            .collect();
        let mut level = self.clone();
        let tile = replacement(&ablation.mechanic);
        for &cell in &chosen {
            level.tiles[cell as usize] = tile;
        }
        // Removed objects leave the state; the others keep their order.
        let mut kinds = Vec::new();
        let mut start = level.start;
        start.objects = [NOWHERE; super::level::MAX_OBJECTS];
        for (kind, cell) in self.kinds.iter().zip(self.start.objects) {
            if object_mechanic(*kind) == ablation.mechanic && chosen.contains(&cell) {
                continue;
            }
            start.objects[kinds.len()] = cell;
            kinds.push(*kind);
        }
        level.kinds = kinds;
        level.start = start;
        level.derive_tables()
    }
}
