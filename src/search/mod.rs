//! Game-agnostic solvers over [`Game`].
//!
//! * [`bfs`]: breadth-first search, exact when every move costs 1; it tests
//!   the goal when a state is generated.
//! * [`dijkstra`]: uniform-cost search, exact for any costs including free
//!   moves; it tests the goal when a state is taken off the frontier.
//! * [`astar`]: Dijkstra guided by the game's admissible heuristic.
//!
//! Every solver stops with [`Outcome::LimitReached`] once it would store more
//! than `limit` states, so a runaway level is a clear failure, never a hang.
//! The statistics are defined once, in ARCHITECTURE.md.

mod arena;
mod best_first;
mod bfs;

use std::time::Duration;

use serde::Serialize;

use crate::game::{Cost, Game};

pub use best_first::{astar, dijkstra};
pub use bfs::bfs;

/// The crate-wide default state limit: the most states a search may store.
pub const DEFAULT_STATE_LIMIT: usize = 2_000_000;

/// How much work a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States taken off the frontier and expanded (their successors generated).
    pub expanded: u64,
    /// Distinct states stored in the visited set, the start included.
    pub stored: u64,
    /// Wall-clock time of the search alone (not parsing or printing).
    pub elapsed: Duration,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M> {
    /// A cheapest win: its cost and one path that achieves it.
    Solved {
        par: Cost,
        path: Vec<M>,
        stats: Stats,
    },
    /// Every reachable state was explored; none wins.
    Unsolvable { stats: Stats },
    /// The search stopped at its state limit without deciding.
    LimitReached { stats: Stats },
}

impl<M> Outcome<M> {
    pub fn par(&self) -> Option<Cost> {
        match self {
            Outcome::Solved { par, .. } => Some(*par),
            _ => None,
        }
    }

    pub fn path(&self) -> Option<&[M]> {
        match self {
            Outcome::Solved { path, .. } => Some(path),
            _ => None,
        }
    }

    pub fn stats(&self) -> Stats {
        match self {
            Outcome::Solved { stats, .. }
            | Outcome::Unsolvable { stats }
            | Outcome::LimitReached { stats } => *stats,
        }
    }

    pub fn status(&self) -> Status {
        match self {
            Outcome::Solved { .. } => Status::Solved,
            Outcome::Unsolvable { .. } => Status::Unsolvable,
            Outcome::LimitReached { .. } => Status::Limit,
        }
    }
}

/// The verdict of a search, as printed and as written in `--json` output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unsolvable,
    Limit,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        })
    }
}

/// Which solver [`solve`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Uninformed and exact: breadth-first when every move costs 1,
    /// otherwise Dijkstra.
    #[default]
    Bfs,
    /// Uniform-cost search (exact for any move costs).
    Dijkstra,
    /// A* with the game's heuristic (Dijkstra when the game offers none).
    Astar,
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub algorithm: Algorithm,
    /// The most states the search may store.
    pub limit: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            algorithm: Algorithm::Bfs,
            limit: DEFAULT_STATE_LIMIT,
        }
    }
}

/// Runs the solver `options` asks for.
pub fn solve<G: Game>(game: &G, options: SearchOptions) -> Outcome<G::Move> {
    match options.algorithm {
        Algorithm::Bfs if game.unit_costs() => bfs(game, options.limit),
        Algorithm::Bfs | Algorithm::Dijkstra => dijkstra(game, options.limit),
        Algorithm::Astar => astar(game, options.limit),
    }
}
