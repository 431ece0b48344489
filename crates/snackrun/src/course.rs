//! Snack Run as a [`Game`], so that it plugs into the same registry, CLI
//! and harness as the search games.
//!
//! A [`Course`] is a level with its reachability graph and each bear's
//! search of it, computed once when the level loads. As a game, a state is
//! where each bear stands (a standing spot, or home at the goal), and a move
//! takes one bear along one edge of the graph: a walk, a fall or a jump,
//! named by where it ends (`B:5,3`, `D:G` for the goal). The bears do not
//! interact, so the par is just the fewest such motions for both to get
//! home; the QA questions are the reachability ones ([`Course::reachability`]
//! and the checks in `checks.rs`).

use std::collections::BTreeMap;
use std::fmt;

use super::ablate::Mechanic;
use super::graph::{Graph, Reach, shortfall};
use super::level::{Bear, Level, Tile};
use super::physics::{End, Pos};
use puzzle_qa_core::diagnostic::place;
use puzzle_qa_core::game::{
    Ablation, Cost, Extras, Game, Mechanics, NotationError, Reachability, Reachable, Shortfall,
};

/// A level ready to check: the graph and both bears' reach.
#[derive(Clone, Debug)]
pub struct Course {
    /// The parsed level.
    pub level: Level,
    /// The standing spots and the motions out of each.
    pub graph: Graph,
    /// Bubu's and Dudu's reach, in [`Bear`] order.
    pub reach: [Reach; 2],
    /// Standing spots by number, in reading order.
    spots: Vec<Pos>,
}

/// The spot number of the goal; [`NOWHERE`] is a bear whose first fall
/// killed it (only an ablated level allows that).
fn goal_number(spots: &[Pos]) -> u16 {
    spots.len() as u16
}

/// The spot number of a bear whose first fall killed it (only an ablated
/// level allows that): it can no longer move.
pub(crate) const NOWHERE: u16 = u16::MAX;

/// One motion of one bear, named by where it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The bear that moves.
    pub bear: Bear,
    /// Where the motion ends: a standing spot or the goal.
    pub to: End,
}

/// Why a motion is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No walk, fall or jump takes the bear from where it stands to there.
    NoMotion {
        /// The bear asked to move.
        bear: Bear,
        /// Where it stands; `None` when it is home at the goal or dead.
        from: Option<Pos>,
        /// Where the motion was asked to end.
        to: End,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Refusal::NoMotion { bear, from, to } = *self;
        let to = match to {
            End::Spot((row, col)) => place(row, col),
            End::Goal => "the goal".to_string(),
        };
        match from {
            Some(from) => write!(
                f,
                "no walk, fall or jump takes {} from {} to {to}",
                bear.name(),
                place(from.0, from.1)
            ),
            None => write!(f, "{} can no longer move", bear.name()),
        }
    }
}

impl Course {
    /// Builds the level's graph and searches it from each bear's start.
    pub fn new(level: Level) -> Course {
        let graph = Graph::new(&level);
        let reach = Bear::BOTH.map(|bear| graph.reach(&level, bear));
        let spots = graph.edges.keys().copied().collect();
        Course {
            level,
            graph,
            reach,
            spots,
        }
    }

    fn number(&self, end: End) -> u16 {
        match end {
            End::Goal => goal_number(&self.spots),
            End::Spot(spot) => self
                .spots
                .binary_search(&spot)
                .map_or(NOWHERE, |index| index as u16),
        }
    }

    /// Where spot number `number` is (`None` for the goal or nowhere).
    pub(crate) fn spot(&self, number: u16) -> Option<Pos> {
        self.spots.get(number as usize).copied()
    }

    /// Whether spot number `number` is home at the goal.
    pub(crate) fn is_home(&self, number: u16) -> bool {
        number == goal_number(&self.spots)
    }

    /// Who reaches each snack: for every snack cell, the bears that touch it.
    pub fn snack_reach(&self) -> Vec<(Pos, Vec<Bear>)> {
        self.level
            .cells(Tile::Snack)
            .into_iter()
            .map(|snack| {
                let bears = Bear::BOTH
                    .into_iter()
                    .filter(|bear| self.reach[*bear as usize].snacks.contains(&snack))
                    .collect();
                (snack, bears)
            })
            .collect()
    }

    /// The snacks the level's rule leaves out of reach: reached by no bear,
    /// or, under `snacks: each`, missed by some bear.
    pub fn unreachable_snacks(&self) -> Vec<Pos> {
        let needed = if self.level.snacks_each { 2 } else { 1 };
        self.snack_reach()
            .into_iter()
            .filter(|(_, bears)| bears.len() < needed)
            .map(|(snack, _)| snack)
            .collect()
    }

    /// Every trapped spot of either bear, sorted by (row, column).
    pub fn traps(&self) -> Vec<Pos> {
        let mut traps: Vec<Pos> = self.reach.iter().flat_map(|r| r.traps.clone()).collect();
        traps.sort_unstable();
        traps.dedup();
        traps
    }

    /// For an unreachable snack: the nearest spot a bear that misses it does
    /// reach, and the jump that falls short from there.
    pub fn shortfall(&self, snack: Pos) -> Option<Shortfall> {
        let missing = self
            .reach
            .iter()
            .filter(|reach| !reach.snacks.contains(&snack));
        shortfall(snack, missing.flat_map(|reach| &reach.spots))
    }

    /// The mechanics present in the level.
    pub fn mechanics_present(&self) -> Vec<Mechanic> {
        Mechanic::ALL
            .into_iter()
            .filter(|mechanic| !self.level.cells(mechanic.tile()).is_empty())
            .collect()
    }
}

impl Game for Course {
    type State = [u16; 2];
    type Key = [u16; 2];
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> [u16; 2] {
        Bear::BOTH.map(|bear| match &self.reach[bear as usize].start {
            Some(motion) => self.number(motion.end),
            None => NOWHERE,
        })
    }

    fn key(&self, state: &[u16; 2]) -> [u16; 2] {
        *state
    }

    fn is_won(&self, state: &[u16; 2]) -> bool {
        state.iter().all(|&at| at == goal_number(&self.spots))
    }

    fn moves(&self, state: &[u16; 2]) -> impl Iterator<Item = Move> {
        let mut moves = Vec::new();
        for bear in Bear::BOTH {
            if let Some(spot) = self.spot(state[bear as usize]) {
                let mut ends: Vec<End> = self.graph.edges[&spot].iter().map(|m| m.end).collect();
                ends.dedup();
                moves.extend(ends.into_iter().map(|to| Move { bear, to }));
            }
        }
        moves.into_iter()
    }

    fn step(&self, state: &[u16; 2], mv: Move) -> Result<([u16; 2], Cost), Refusal> {
        let from = self.spot(state[mv.bear as usize]);
        let possible = from.is_some_and(|spot| {
            self.graph.edges[&spot]
                .iter()
                .any(|motion| motion.end == mv.to)
        });
        if !possible {
            return Err(Refusal::NoMotion {
                bear: mv.bear,
                from,
                to: mv.to,
            });
        }
        let mut next = *state;
        next[mv.bear as usize] = self.number(mv.to);
        Ok((next, 1))
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        let token = |mv: &Move| match mv.to {
            End::Goal => format!("{}:G", mv.bear.letter()),
            End::Spot((row, col)) => format!("{}:{row},{col}", mv.bear.letter()),
        };
        moves.iter().map(token).collect::<Vec<_>>().join(" ")
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        let mut moves = Vec::new();
        let mut column = 1;
        for token in text.split(' ') {
            if !token.is_empty() {
                moves.push(parse_move(token).ok_or_else(|| {
                    NotationError::new(
                        column,
                        format!("`{token}` is not a motion: write the bear and where it lands, like `B:5,3` or `D:G`"),
                    )
                })?);
            }
            column += token.chars().count() + 1;
        }
        Ok(moves)
    }

    fn level_text(&self) -> Option<String> {
        Some(self.level.text())
    }

    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw().reachable();
}

impl Mechanics for Course {
    fn mechanics(&self) -> Vec<Ablation> {
        self.mechanics_present()
            .into_iter()
            .map(|mechanic| Ablation::everywhere(mechanic.name(), mechanic.replacement_name()))
            .collect()
    }

    fn ablate(&self, ablation: &Ablation) -> Course {
        let mechanic =
            Mechanic::from_name(&ablation.mechanic).expect("one of this game's mechanics");
        Course::new(self.level.ablate(mechanic))
    }
}

impl Reachable for Course {
    fn reachability(&self) -> Reachability {
        let cell = |(row, col): Pos| [row, col];
        let unreachable = self.unreachable_snacks();
        Reachability {
            player: "bear",
            collectible: "snack",
            goal: Bear::BOTH
                .into_iter()
                .map(|bear| (bear.letter().to_string(), self.reach[bear as usize].goal))
                .collect::<BTreeMap<_, _>>(),
            shortfalls: unreachable
                .iter()
                .filter_map(|&snack| self.shortfall(snack))
                .collect(),
            unreachable: unreachable.into_iter().map(cell).collect(),
            traps: self.traps().into_iter().map(cell).collect(),
        }
    }
}

/// `B:5,3` or `D:G`.
fn parse_move(token: &str) -> Option<Move> {
    let (bear, to) = token.split_once(':')?;
    let bear = match bear {
        "B" => Bear::Bubu,
        "D" => Bear::Dudu,
        _ => return None,
    };
    let to = match to {
        "G" => End::Goal,
        spot => {
            let (row, col) = spot.split_once(',')?;
            End::Spot((row.parse().ok()?, col.parse().ok()?))
        }
    };
    Some(Move { bear, to })
}
