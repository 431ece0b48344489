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
use crate::game::Ablation;

const WEAK_TILE: &str = "weak-tile";
const STRONG_SWITCH: &str = "strong-switch";
const BRIDGE: &str = "bridge";
const TELEPORT: &str = "teleport";

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

impl Level {
    pub(crate) fn mechanics(&self) -> Vec<Ablation> {
        let has_tile = |tile: Tile| self.cells.iter().any(|cell| cell.tile == tile);
        let has_bridge = self
            .cells
            .iter()
            .any(|cell| matches!(cell.presence, Presence::Dynamic(_)));
        [
            (WEAK_TILE, has_tile(Tile::Weak)),
            (STRONG_SWITCH, has_tile(Tile::StrongSwitch)),
            (BRIDGE, has_bridge),
            (TELEPORT, has_tile(Tile::Teleport)),
        ]
        .into_iter()
        .filter(|(_, present)| *present)
        .map(|(mechanic, _)| Ablation {
            mechanic,
            at: None,
            replacement: replacement(mechanic),
        })
        .collect()
    }

    /// Single `w`, `S` and `t` cells, by mechanic, then in reading order.
    pub(crate) fn pieces(&self) -> Vec<Ablation> {
        let mut pieces: Vec<(usize, usize, Ablation)> = Vec::new();
        for (index, cell) in self.cells.iter().enumerate() {
            if let Some(mechanic) = piece_of(cell.tile) {
                let order = [WEAK_TILE, STRONG_SWITCH, BRIDGE, TELEPORT]
                    .iter()
                    .position(|name| *name == mechanic)
                    .unwrap_or(0);
                pieces.push((
                    order,
                    index,
                    Ablation {
                        mechanic,
                        at: Some((index / self.width, index % self.width)),
                        replacement: replacement(mechanic),
                    },
                ));
            }
        }
        pieces.sort_by_key(|(order, index, _)| (*order, *index));
        pieces.into_iter().map(|(_, _, piece)| piece).collect()
    }

    pub(crate) fn ablate(&self, ablation: &Ablation) -> Level {
        let mut level = self.clone();
        let chosen = |index: usize| match ablation.at {
            None => true,
            Some((row, col)) => index == row * self.width + col,
        };
        for (index, cell) in level.cells.iter_mut().enumerate() {
            if !chosen(index) {
                continue;
            }
            match (ablation.mechanic, cell.tile) {
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
        if ablation.mechanic == TELEPORT {
            level.landmarks = level.goal_and_teleport_landmarks();
        }
        level
    }
}
