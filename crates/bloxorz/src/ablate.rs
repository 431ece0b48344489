//! Bloxorz's mechanics, as ablation takes them out of a parsed level.
//!
//! | mechanic | ablation |
//! |---|---|
//! | `weak-tile` | every `w` becomes a plain tile |
//! | `strong-switch` | every `S` behaves as a weak switch `W` |
//! | `bridge` | every switchable tile is fixed present; switches do nothing |
//! | `teleport` | every `t` becomes a plain tile: the block never splits |
//!
//! A mechanic is present when its tile letter is in the grid (`bridge`:
//! when some rule targets a tile in the grid). Pieces that can be taken out
//! alone are single `w`, `S` and `t` cells; a bridge is one switchable name
//! shared by its cells and its switches, so it has no single-cell piece.
//!
//! Decision: the issue's wording for `teleport` ("a cube then fires it like
//! any `W`") cannot arise once nothing splits the block; a former `t` cell is
//! simply plain, for the block as for anything else.

use super::level::{Level, Presence, Tile};
use puzzle_qa_core::game::{Ablation, Mechanics};

pub(super) const WEAK_TILE: &str = "weak-tile";
pub(super) const STRONG_SWITCH: &str = "strong-switch";
pub(super) const BRIDGE: &str = "bridge";
pub(super) const TELEPORT: &str = "teleport";

/// The mechanics in the order they are reported.
pub(super) const MECHANICS: [&str; 4] = [WEAK_TILE, STRONG_SWITCH, BRIDGE, TELEPORT];

/// The replacement of each mechanic, in words.
fn replacement(mechanic: &str) -> &'static str {
    match mechanic {
        WEAK_TILE | TELEPORT => "plain tile",
        STRONG_SWITCH => "weak switch",
        _ => "fixed bridges and inert switches",
    }
}

/// The mechanic a cell's tile belongs to, if it can be taken out alone.
fn piece_of(tile: Tile) -> Option<&'static str> {
    match tile {
        Tile::Weak => Some(WEAK_TILE),
        Tile::StrongSwitch => Some(STRONG_SWITCH),
        Tile::Teleport => Some(TELEPORT),
        _ => None,
    }
}

impl Mechanics for Level {
    fn mechanics(&self) -> Vec<Ablation> {
        let present = |mechanic: &str| {
            self.cells.iter().any(|cell| match mechanic {
                BRIDGE => matches!(cell.presence, Presence::Dynamic(_)),
                _ => piece_of(cell.tile) == Some(mechanic),
            })
        };
        MECHANICS
            .into_iter()
            .filter(|mechanic| present(mechanic))
            .map(|mechanic| Ablation::everywhere(mechanic, replacement(mechanic)))
            .collect()
    }

    /// Single `w`, `S` and `t` cells, by mechanic, then in reading order.
    fn pieces(&self) -> Vec<Ablation> {
        let mut pieces: Vec<(usize, Ablation)> = self
            .cells
            .iter()
            .enumerate()
            .filter_map(|(index, cell)| {
                let mechanic = piece_of(cell.tile)?;
                let ablation = Ablation {
                    at: Some((index / self.width, index % self.width)),
                    ..Ablation::everywhere(mechanic, replacement(mechanic))
                };
                Some((index, ablation))
            })
            .collect();
        let order = |mechanic: &str| MECHANICS.iter().position(|name| *name == mechanic);
        pieces.sort_by_key(|(index, piece)| (order(&piece.mechanic), *index));
        pieces.into_iter().map(|(_, piece)| piece).collect()
    }

    fn ablate(&self, ablation: &Ablation) -> Level {
        let mut level = self.clone();
        let chosen = |index: usize| match ablation.at {
            None => true,
            Some((row, col)) => index == row * self.width + col,
        };
        for (index, cell) in level.cells.iter_mut().enumerate() {
            if !chosen(index) {
                continue;
            }
            match (ablation.mechanic.as_ref(), cell.tile) {
                (WEAK_TILE, Tile::Weak) => cell.tile = Tile::Plain,
                (STRONG_SWITCH, Tile::StrongSwitch) => cell.tile = Tile::WeakSwitch,
                (TELEPORT, Tile::Teleport) => {
                    cell.tile = Tile::Plain;
                    cell.teleport = None;
                }
                (BRIDGE, _) => {
                    if let Presence::Dynamic(_) = cell.presence {
                        cell.presence = Presence::Static(true);
                    }
                    cell.switch = None;
                }
                _ => {}
            }
        }
        // The copy's heuristic tables start empty (`LazyBounds`), and follow
        // its own cells when A* first asks.
        level
    }
}
