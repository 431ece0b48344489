//! Game-agnostic solvers over [`Game`].
//!
//! * [`bfs`]: breadth-first search, exact when every move costs 1; it tests
//!   the goal when a state is generated.
//! * [`dijkstra`]: uniform-cost search, exact for any costs including free
//!   moves; it tests the goal when a state is taken off the frontier.
//! * [`astar`]: Dijkstra guided by the game's admissible heuristic.
//!
//! Every solver stops with [`Outcome::LimitReached`] once it would store more
//! than its state limit, or its own buffers would take more than its memory
//! budget ([`Budget`]), or the machine refuses it memory: a runaway level
//! is a clear failure, never a hang or a crash, and the outcome says which
//! bound it reached ([`Reached`]). A move whose rules never settle is a
//! dead end it reports ([`Hang`]). The statistics are defined once, in
//! ARCHITECTURE.md.

mod arena;
mod best_first;
mod bfs;
mod budget;
mod graph;
pub mod ledger;
mod parallel;
#[cfg(feature = "pathfinding")]
mod reference;
pub(crate) mod store;

use std::time::Duration;

use serde::Serialize;

use crate::game::{Cost, Game};

pub use best_first::{astar, dijkstra};
pub use bfs::bfs;
pub use budget::{Bound, Budget, DEFAULT_MEMORY, Depths, Reached, SIZE_FORMS, Size, parse_size};
pub use graph::StateGraph;
#[cfg(feature = "pathfinding")]
pub use reference::pathfinding_bfs;

/// The crate-wide default state limit: none. A search is bounded by its
/// memory budget ([`DEFAULT_MEMORY`]), which holds ten times the states of
/// small levels' packed states as of big ones', where a count of states
/// would stop both at the same depth; a level's `limit` key (or `--limit`)
/// still caps the states when a designer wants a quicker verdict.
pub const DEFAULT_STATE_LIMIT: usize = usize::MAX;

/// How much work a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States taken off the frontier and expanded (their successors generated).
    pub expanded: u64,
    /// Distinct states stored in the visited set, the start included.
    pub stored: u64,
    /// Wall-clock time of the search alone (not parsing or printing).
    pub elapsed: Duration,
    /// The bytes the stored states took, all together: their elements
    /// (for a slice state, plus an offset each if their lengths vary);
    /// not their parent links or the visited set. See
    /// [`State`](crate::game::State).
    pub state_bytes: u64,
    /// The most bytes the search's own buffers held at once: the states,
    /// their parent links, the visited table, the queue, costs and heap,
    /// counted by capacity (what the memory budget bounds; the same on any
    /// machine).
    pub kept_bytes: u64,
}

impl Stats {
    /// `elapsed` in milliseconds, to the microsecond, as reports print it.
    pub fn milliseconds(&self) -> f64 {
        (self.elapsed.as_secs_f64() * 1e6).round() / 1e3
    }

    /// What one stored state took, on average: `state_bytes / stored`
    /// (0 when nothing was stored).
    pub fn bytes_per_state(&self) -> f64 {
        if self.stored == 0 {
            0.0
        } else {
            self.state_bytes as f64 / self.stored as f64
        }
    }

    /// What the search kept per stored state, everything counted:
    /// `kept_bytes / stored` (0 when nothing was stored).
    pub fn kept_per_state(&self) -> f64 {
        if self.stored == 0 {
            0.0
        } else {
            self.kept_bytes as f64 / self.stored as f64
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M> {
    /// A cheapest win: its cost and one path that achieves it.
    Solved {
        /// The cost of a cheapest win.
        par: Cost,
        /// The moves of one cheapest win, from the start.
        path: Vec<M>,
        /// How much work the search did.
        stats: Stats,
        /// The first move met on the way that never settles, if any.
        hang: Option<Hang<M>>,
    },
    /// Every reachable state was explored; none wins, and every move
    /// settled.
    Unsolvable {
        /// How much work the search did.
        stats: Stats,
    },
    /// Every reachable state was explored and none wins, but some move
    /// never settles: the level is not unsolvable, it is broken.
    Hung {
        /// The first such move met.
        hang: Hang<M>,
        /// How much work the search did.
        stats: Stats,
    },
    /// The search stopped at a bound without deciding.
    LimitReached {
        /// How much work the search did.
        stats: Stats,
        /// The first move met on the way that never settles, if any.
        hang: Option<Hang<M>>,
        /// Which bound, and how far the search got.
        reached: Reached,
    },
}

/// A move whose rules never settle (a chain of turns without end, a game
/// process that stops answering), as a search meets it: a dead end for the
/// search, and a bug for the designer, since a player who makes that move
/// is stuck for good. A game shows one through [`Game::is_hung`].
///
/// A search goes on past a hang and keeps the first it meets: breadth-first
/// search meets them in breadth-first order, so its hang is reached by the
/// fewest moves, the same at every [`Game::BATCH`] and thread count.
///
/// ```
/// use puzzle_qa_core::game::{Cost, Game, NotationError};
/// use puzzle_qa_core::search::{Hang, Status, bfs};
///
/// /// Walk a corridor of 6 cells from 0 to 5; stepping onto cell 3 from
/// /// cell 2 sets off turns that never end.
/// struct Corridor;
///
/// /// What `successors` shows for a move that never settles.
/// const HUNG: u32 = u32::MAX;
///
/// impl Game for Corridor {
///     type State = u32;
///     type Key = u32;
///     type Move = char;
///     type Refusal = &'static str;
///     fn start(&self) -> u32 { 0 }
///     fn key(&self, at: &u32) -> u32 { *at }
///     fn is_won(&self, at: &u32) -> bool { *at == 5 }
///     fn is_hung(&self, at: &u32) -> bool { *at == HUNG }
///     fn moves(&self, _: &u32) -> impl Iterator<Item = char> { ['<', '>'].into_iter() }
///     fn step(&self, at: &u32, mv: char) -> Result<(u32, Cost), &'static str> {
///         match (*at, mv) {
///             (2, '>') => Err("the turns after this move never end"),
///             (0, '<') | (5, '>') => Err("a wall"),
///             (at, '<') => Ok((at - 1, 1)),
///             (at, _) => Ok((at + 1, 1)),
///         }
///     }
///     fn successors(&self, at: &u32, mut visit: impl FnMut(char, &u32, Cost)) {
///         for mv in self.moves(at) {
///             match self.step(at, mv) {
///                 Ok((next, cost)) => visit(mv, &next, cost),
///                 // The move that never settles is shown, not left out.
///                 Err(_) if (*at, mv) == (2, '>') => visit(mv, &HUNG, 1),
///                 Err(_) => {}
///             }
///         }
///     }
/// #   fn format_moves(&self, moves: &[char]) -> String { moves.iter().collect() }
/// #   fn parse_moves(&self, text: &str) -> Result<Vec<char>, NotationError> { Ok(text.chars().collect()) }
/// }
///
/// let outcome = bfs(&Corridor, 100);
/// // Not "unsolvable": the one way to the goal never settles.
/// assert_eq!(outcome.status(), Status::Hang);
/// assert_eq!(
///     outcome.hang(),
///     Some(&Hang { moves: vec!['>', '>', '>'], reason: "the turns after this move never end".into() })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hang<M> {
    /// The moves from the start, the last one the move that never settles:
    /// a replay of them is refused at the last.
    pub moves: Vec<M>,
    /// Why, in the game's words: [`Game::step`]'s refusal of the last move.
    pub reason: String,
}

impl<M> Outcome<M> {
    /// The cost of a cheapest win, if solved.
    pub fn par(&self) -> Option<Cost> {
        match self {
            Outcome::Solved { par, .. } => Some(*par),
            _ => None,
        }
    }

    /// The moves of one cheapest win, if solved.
    pub fn path(&self) -> Option<&[M]> {
        match self {
            Outcome::Solved { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The first move met that never settles, whatever else was found.
    pub fn hang(&self) -> Option<&Hang<M>> {
        match self {
            Outcome::Solved { hang, .. } | Outcome::LimitReached { hang, .. } => hang.as_ref(),
            Outcome::Hung { hang, .. } => Some(hang),
            Outcome::Unsolvable { .. } => None,
        }
    }

    /// How much work the search did, whatever it found.
    pub fn stats(&self) -> Stats {
        match self {
            Outcome::Solved { stats, .. }
            | Outcome::Unsolvable { stats }
            | Outcome::Hung { stats, .. }
            | Outcome::LimitReached { stats, .. } => *stats,
        }
    }

    /// Which bound stopped the search, if one did.
    pub fn reached(&self) -> Option<&Reached> {
        match self {
            Outcome::LimitReached { reached, .. } => Some(reached),
            _ => None,
        }
    }

    /// The verdict alone, without the path.
    pub fn status(&self) -> Status {
        match self {
            Outcome::Solved { .. } => Status::Solved,
            Outcome::Unsolvable { .. } => Status::Unsolvable,
            Outcome::Hung { .. } => Status::Hang,
            Outcome::LimitReached { .. } => Status::Limit,
        }
    }
}

/// The verdict of a search, as printed and as written in `--json` output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A win was found, and its cost is the optimum.
    Solved,
    /// No reachable state wins, and every move settles.
    Unsolvable,
    /// No reachable state was found to win, and some move never settles
    /// ([`Hang`]): the level is broken, not unsolvable.
    Hang,
    /// The search stopped at a bound (its state limit, its memory budget,
    /// the machine's memory) without deciding.
    Limit,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Hang => "hang",
            Status::Limit => "limit",
        })
    }
}

/// Which solver [`solve`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

impl Algorithm {
    /// Every solver, in the order `--help` lists them.
    pub const ALL: [Algorithm; 3] = [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::Astar];

    /// The name on the command line: `bfs`, `dijkstra`, `astar`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Astar => "astar",
        }
    }
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Which solver runs.
    pub algorithm: Algorithm,
    /// The most states the search may store.
    pub limit: usize,
    /// The most bytes the search's own buffers may take ([`Budget`]).
    pub memory: u64,
}

impl SearchOptions {
    /// The search's bounds.
    pub fn budget(&self) -> Budget {
        Budget {
            states: self.limit,
            bytes: self.memory,
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            algorithm: Algorithm::Bfs,
            limit: DEFAULT_STATE_LIMIT,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// Runs the solver `options` asks for.
pub fn solve<G: Game>(game: &G, options: SearchOptions) -> Outcome<G::Move> {
    let budget = options.budget();
    match options.algorithm {
        Algorithm::Bfs if game.unit_costs() => bfs(game, budget),
        Algorithm::Bfs | Algorithm::Dijkstra => dijkstra(game, budget),
        Algorithm::Astar => astar(game, budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NotationError;

    /// A walker on an open `size`×`size` board who must reach `goal`; a
    /// goal off the board makes the level unsolvable.
    struct Board {
        size: i32,
        goal: (i32, i32),
    }

    impl Game for Board {
        type State = (i32, i32);
        type Key = (i32, i32);
        type Move = (i32, i32);
        type Refusal = &'static str;

        fn start(&self) -> (i32, i32) {
            (0, 0)
        }
        fn key(&self, state: &(i32, i32)) -> (i32, i32) {
            *state
        }
        fn is_won(&self, state: &(i32, i32)) -> bool {
            *state == self.goal
        }
        fn moves(&self, _: &(i32, i32)) -> impl Iterator<Item = (i32, i32)> {
            [(-1, 0), (1, 0), (0, -1), (0, 1)].into_iter()
        }
        fn step(&self, s: &(i32, i32), d: (i32, i32)) -> Result<((i32, i32), Cost), &'static str> {
            let next = (s.0 + d.0, s.1 + d.1);
            let on_board = (0..self.size).contains(&next.0) && (0..self.size).contains(&next.1);
            if on_board { Ok((next, 1)) } else { Err("edge") }
        }
        fn heuristic(&self, s: &(i32, i32)) -> Option<Cost> {
            Some(((self.goal.0 - s.0).abs() + (self.goal.1 - s.1).abs()) as Cost)
        }
        fn format_moves(&self, moves: &[(i32, i32)]) -> String {
            format!("{moves:?}")
        }
        fn parse_moves(&self, _: &str) -> Result<Vec<(i32, i32)>, NotationError> {
            Ok(Vec::new())
        }
    }

    const SOLVERS: [Algorithm; 3] = [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::Astar];

    fn run(board: &Board, algorithm: Algorithm, limit: usize) -> Outcome<(i32, i32)> {
        solve(
            board,
            SearchOptions {
                algorithm,
                limit,
                ..SearchOptions::default()
            },
        )
    }

    #[test]
    fn every_solver_finds_the_same_par() {
        let board = Board {
            size: 12,
            goal: (7, 9),
        };
        for algorithm in SOLVERS {
            let outcome = run(&board, algorithm, DEFAULT_STATE_LIMIT);
            assert_eq!(outcome.par(), Some(16), "{algorithm:?}");
            assert_eq!(outcome.path().unwrap().len(), 16, "{algorithm:?}");
        }
    }

    #[test]
    fn every_solver_explores_everything_before_calling_a_level_unsolvable() {
        let board = Board {
            size: 10,
            goal: (-1, -1),
        };
        for algorithm in SOLVERS {
            let outcome = run(&board, algorithm, DEFAULT_STATE_LIMIT);
            assert_eq!(outcome.status(), Status::Unsolvable, "{algorithm:?}");
            let stats = outcome.stats();
            assert_eq!((stats.expanded, stats.stored), (100, 100), "{algorithm:?}");
        }
    }

    #[test]
    fn every_solver_stops_at_its_state_limit() {
        let board = Board {
            size: 100,
            goal: (-1, -1),
        };
        for algorithm in SOLVERS {
            let outcome = run(&board, algorithm, 500);
            assert_eq!(outcome.status(), Status::Limit, "{algorithm:?}");
            assert_eq!(outcome.stats().stored, 500, "{algorithm:?}");
        }
    }

    #[test]
    fn a_level_won_at_the_start_has_par_zero() {
        let board = Board {
            size: 3,
            goal: (0, 0),
        };
        for algorithm in SOLVERS {
            let outcome = run(&board, algorithm, DEFAULT_STATE_LIMIT);
            assert_eq!(outcome.par(), Some(0), "{algorithm:?}");
            assert_eq!(outcome.path(), Some(&[][..]), "{algorithm:?}");
        }
    }

    #[test]
    fn astar_expands_less_than_dijkstra_with_a_good_heuristic() {
        let board = Board {
            size: 40,
            goal: (30, 30),
        };
        let blind = run(&board, Algorithm::Dijkstra, DEFAULT_STATE_LIMIT).stats();
        let informed = run(&board, Algorithm::Astar, DEFAULT_STATE_LIMIT).stats();
        assert!(
            informed.expanded * 5 < blind.expanded,
            "{informed:?} vs {blind:?}"
        );
    }
}
