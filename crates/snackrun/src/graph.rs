//! The reachability graph (`docs/games/snackrun.md`, "The questions and the checks"): standing
//! spots joined by motions, plus the goal as a node with no way out, and
//! each bear's search of it.
//!
//! Decisions where the rules are silent:
//! * The graph holds every standing spot a bear could occupy: not the goal
//!   cell (touching it ends the movement) nor spikes (touching them kills).
//! * A trap is a reachable spot with no path to the goal. When the bear
//!   cannot reach the goal at all, every spot it reaches is a trap.
//! * A bear whose start falls to its death (only an ablated level allows
//!   one) reaches nothing.
//! * The spot nearest an unreachable snack is the one at the smallest
//!   Manhattan distance, ties broken by (row, column).

use std::collections::{BTreeMap, BTreeSet};

use super::level::{Bear, Level, Tile};
use super::physics::{End, Motion, Pos};
use puzzle_qa_core::game::Shortfall;

/// Every standing spot of a level with the motions out of it.
#[derive(Clone, Debug)]
pub struct Graph {
    /// Each standing spot (not the goal, not spikes) and every motion out of
    /// it.
    pub edges: BTreeMap<Pos, Vec<Motion>>,
}

/// What one bear can do, searched from its start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The fall from the drawn start; `None` if it kills the bear.
    pub start: Option<Motion>,
    /// Whether the bear can reach the goal.
    pub goal: bool,
    /// The standing spots the bear can reach, the first landing included.
    pub spots: BTreeSet<Pos>,
    /// The snacks the bear can touch.
    pub snacks: BTreeSet<Pos>,
    /// Reachable spots from which the goal is no longer reachable, sorted by
    /// (row, column).
    pub traps: Vec<Pos>,
}

impl Graph {
    /// Traces every motion from every standing spot of `level`.
    pub fn new(level: &Level) -> Graph {
        let mut edges = BTreeMap::new();
        for row in 0..level.height {
            for col in 0..level.width {
                let spot = (row, col);
                if level.is_spot(spot) && !matches!(level.tile(spot), Tile::Goal | Tile::Spikes) {
                    edges.insert(spot, level.motions(spot));
                }
            }
        }
        Graph { edges }
    }

    fn out_of(&self, spot: Pos) -> impl Iterator<Item = &Motion> {
        self.edges.get(&spot).into_iter().flatten()
    }

    /// Searches the graph from `bear`'s start.
    pub fn reach(&self, level: &Level, bear: Bear) -> Reach {
        let mut reach = Reach {
            start: level.fall_from(level.starts[bear as usize]),
            ..Reach::default()
        };
        let Some(first) = &reach.start else {
            return reach;
        };
        let mut touched = BTreeSet::new();
        let mut pending = vec![first];
        while let Some(motion) = pending.pop() {
            touched.extend(&motion.touched);
            match motion.end {
                End::Goal => reach.goal = true,
                End::Spot(spot) => {
                    if reach.spots.insert(spot) {
                        pending.extend(self.out_of(spot));
                    }
                }
            }
        }
        reach.snacks = touched
            .into_iter()
            .filter(|&cell| level.tile(cell) == Tile::Snack)
            .collect();

        // Backwards from the goal over the reached part of the graph.
        let mut before: BTreeMap<Pos, Vec<Pos>> = BTreeMap::new();
        let mut pending = Vec::new();
        for &spot in &reach.spots {
            for motion in self.out_of(spot) {
                match motion.end {
                    End::Goal => pending.push(spot),
                    End::Spot(next) => before.entry(next).or_default().push(spot),
                }
            }
        }
        let mut saved = BTreeSet::new();
        while let Some(spot) = pending.pop() {
            if saved.insert(spot) {
                pending.extend(before.get(&spot).into_iter().flatten());
            }
        }
        reach.traps = reach.spots.difference(&saved).copied().collect();
        reach
    }
}

/// The jump that falls short of `snack` from the nearest of `spots`;
/// `None` when there are no spots.
pub fn shortfall<'a>(snack: Pos, spots: impl IntoIterator<Item = &'a Pos>) -> Option<Shortfall> {
    let distance = |(row, col): Pos| row.abs_diff(snack.0) + col.abs_diff(snack.1);
    let from = *spots
        .into_iter()
        .min_by_key(|&&spot| (distance(spot), spot))?;
    Some(Shortfall {
        collectible: [snack.0, snack.1],
        from: [from.0, from.1],
        rise: from.0 as isize - snack.0 as isize,
        sideways: from.1.abs_diff(snack.1),
    })
}
