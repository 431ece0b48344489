//! A game some of whose moves never settle, built on the public API alone:
//! the searches report the first such move they meet (the fewest moves to
//! it, for breadth-first search, at every batch size), go on past it, and
//! call a level unsolvable only when no hang stood in the way.

use puzzle_qa_core::game::{Cost, Game, NotationError};
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::replay::replay;
use puzzle_qa_core::search::{self, Algorithm, Hang, Outcome, SearchOptions, StateGraph, Status};

/// A walker on a grid of rows, from the `S`: `G` wins, `#` is a wall, and
/// the rules never settle on a move onto a `~`. The state is the cell.
struct Walk {
    width: usize,
    cells: Vec<u8>,
}

/// What `successors` shows for a move onto a `~`.
const HUNG: u16 = u16::MAX;

const MOVES: [(char, isize, isize); 4] = [('U', -1, 0), ('D', 1, 0), ('L', 0, -1), ('R', 0, 1)];

impl Walk {
    fn new(rows: &[&str]) -> Walk {
        Walk {
            width: rows[0].len(),
            cells: rows.concat().into_bytes(),
        }
    }

    /// The cell a move from `at` goes to, if it is on the board and open.
    fn to(&self, at: u16, mv: char) -> Option<usize> {
        let (_, dr, dc) = MOVES.iter().find(|(m, _, _)| *m == mv)?;
        let (row, col) = (at as usize / self.width, at as usize % self.width);
        let row = row.checked_add_signed(*dr)?;
        let col = col.checked_add_signed(*dc)?;
        let cell = row * self.width + col;
        (col < self.width && cell < self.cells.len() && self.cells[cell] != b'#').then_some(cell)
    }
}

impl Game for Walk {
    type State = u16;
    type Key = u16;
    type Move = char;
    type Refusal = String;

    fn start(&self) -> u16 {
        self.cells.iter().position(|&c| c == b'S').expect("a start") as u16
    }
    fn key(&self, at: &u16) -> u16 {
        *at
    }
    fn is_won(&self, at: &u16) -> bool {
        self.cells.get(*at as usize) == Some(&b'G')
    }
    fn is_hung(&self, at: &u16) -> bool {
        *at == HUNG
    }
    fn moves(&self, _: &u16) -> impl Iterator<Item = char> {
        MOVES.iter().map(|(mv, _, _)| *mv)
    }
    fn step(&self, at: &u16, mv: char) -> Result<(u16, Cost), String> {
        match self.to(*at, mv) {
            None => Err("a wall".into()),
            Some(cell) if self.cells[cell] == b'~' => {
                Err(format!("the turns after `{mv}` onto cell {cell} never end"))
            }
            Some(cell) => Ok((cell as u16, 1)),
        }
    }
    fn successors(&self, at: &u16, mut visit: impl FnMut(char, &u16, Cost)) {
        for mv in self.moves(at) {
            match self.to(*at, mv) {
                Some(cell) if self.cells[cell] == b'~' => visit(mv, &HUNG, 1),
                Some(cell) => visit(mv, &(cell as u16), 1),
                None => {}
            }
        }
    }
    fn format_moves(&self, moves: &[char]) -> String {
        moves.iter().collect()
    }
    fn parse_moves(&self, text: &str) -> Result<Vec<char>, NotationError> {
        Ok(text.chars().collect())
    }
}

/// The walk, searched `N` states at a time ([`Game::BATCH`]), as a game
/// over the process protocol is.
struct Batched<const N: usize>(Walk);

impl<const N: usize> Game for Batched<N> {
    type State = u16;
    type Key = u16;
    type Move = char;
    type Refusal = String;
    const BATCH: usize = N;

    fn start(&self) -> u16 {
        self.0.start()
    }
    fn key(&self, at: &u16) -> u16 {
        *at
    }
    fn is_won(&self, at: &u16) -> bool {
        self.0.is_won(at)
    }
    fn is_hung(&self, at: &u16) -> bool {
        self.0.is_hung(at)
    }
    fn moves(&self, at: &u16) -> impl Iterator<Item = char> {
        self.0.moves(at)
    }
    fn step(&self, at: &u16, mv: char) -> Result<(u16, Cost), String> {
        self.0.step(at, mv)
    }
    fn successors(&self, at: &u16, visit: impl FnMut(char, &u16, Cost)) {
        self.0.successors(at, visit);
    }
    fn format_moves(&self, moves: &[char]) -> String {
        self.0.format_moves(moves)
    }
    fn parse_moves(&self, text: &str) -> Result<Vec<char>, NotationError> {
        self.0.parse_moves(text)
    }
}

/// Breadth-first search of `rows` within `limit`, one state at a time and
/// in batches of several sizes: the outcomes, which must all agree.
fn bfs_at_every_batch(rows: &[&str], limit: usize) -> Outcome<char> {
    let one = search::bfs(&Walk::new(rows), limit);
    let mut others = vec![
        search::bfs(&Batched::<2>(Walk::new(rows)), limit),
        search::bfs(&Batched::<3>(Walk::new(rows)), limit),
        search::bfs(&Batched::<64>(Walk::new(rows)), limit),
    ];
    for other in &mut others {
        assert_eq!(
            (other.status(), other.par(), other.path(), other.hang()),
            (one.status(), one.par(), one.path(), one.hang()),
            "{rows:?}"
        );
    }
    one
}

/// Two whirlpools, seven and three moves away; the goal nine.
const TWO_HANGS: &[&str] = &[
    "......~", //
    "S..#...", //
    "..~#..G", //
    "...#...",
];

#[test]
fn the_hang_reported_is_the_nearest_in_breadth_first_order_at_every_batch() {
    let outcome = bfs_at_every_batch(TWO_HANGS, 1000);
    assert_eq!(outcome.status(), Status::Solved);
    let hang = outcome.hang().expect("a whirlpool lies before the win");
    // D then R lands on the nearer whirlpool; R then D lands there too, but
    // D comes first in move order.
    assert_eq!(
        hang,
        &Hang {
            moves: vec!['D', 'R', 'R'],
            reason: "the turns after `R` onto cell 16 never end".into()
        }
    );
    // The moves replay up to the last, which the rules refuse.
    let played = replay(&Walk::new(TWO_HANGS), &hang.moves);
    assert_eq!(played.failure.map(|f| f.move_index), Some(2));
    // The search goes on past the hang to the par.
    assert_eq!(outcome.par(), Some(9));
}

#[test]
fn every_solver_reports_a_hang_and_the_par_beyond_it() {
    for algorithm in [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::Astar] {
        let options = SearchOptions {
            algorithm,
            limit: 1000,
            ..SearchOptions::default()
        };
        let outcome = search::solve(&Walk::new(TWO_HANGS), options);
        assert_eq!(outcome.par(), Some(9), "{algorithm:?}");
        let hang = outcome.hang().expect("a hang on the way");
        assert!(hang.reason.contains("never end"), "{algorithm:?}");
        let played = replay(&Walk::new(TWO_HANGS), &hang.moves);
        assert_eq!(
            played.failure.map(|f| f.move_index),
            Some(hang.moves.len() - 1),
            "{algorithm:?}"
        );
    }
}

#[test]
fn a_level_whose_only_way_to_the_goal_never_settles_is_a_hang_not_unsolvable() {
    let rows = ["S.~G"];
    let outcome = bfs_at_every_batch(&rows, 1000);
    assert_eq!(outcome.status(), Status::Hang);
    assert_eq!(
        outcome.hang().map(|hang| &hang.moves[..]),
        Some(&['R', 'R'][..])
    );
    assert!(matches!(outcome, Outcome::Hung { .. }));
    for algorithm in [Algorithm::Dijkstra, Algorithm::Astar] {
        let options = SearchOptions {
            algorithm,
            limit: 1000,
            ..SearchOptions::default()
        };
        assert_eq!(
            search::solve(&Walk::new(&rows), options).status(),
            Status::Hang
        );
    }
    // Without the whirlpool the same level is unsolvable, and says so.
    let walled = bfs_at_every_batch(&["S.#G"], 1000);
    assert_eq!((walled.status(), walled.hang()), (Status::Unsolvable, None));
}

#[test]
fn a_hang_met_before_the_state_limit_is_reported_with_it() {
    let rows = ["S~......", "........", "........", "........", "........"];
    let outcome = bfs_at_every_batch(&rows, 10);
    assert_eq!(outcome.status(), Status::Limit);
    assert_eq!(outcome.hang().map(|hang| &hang.moves[..]), Some(&['R'][..]));
}

#[test]
fn a_hang_is_never_stored_nor_a_state_of_the_graph() {
    let rows = ["S.~", "..G"];
    let outcome = search::bfs(&Walk::new(&rows), 1000);
    // The start, its two neighbours and the cell below the whirlpool's
    // left: every open cell but the goal (found, never stored).
    assert_eq!(outcome.stats().stored, 4);
    let graph = StateGraph::explore(&Walk::new(&rows), 100).expect("small");
    assert!(graph.states().all(|&at| at != HUNG));
    assert_eq!(graph.states().count(), 5);
}

#[test]
fn a_levels_solution_carries_its_hang_in_the_games_notation() {
    let level: &dyn AnyLevel = &Walk::new(TWO_HANGS);
    let solution = level.solve(SearchOptions::default());
    assert_eq!(solution.status, Status::Solved);
    let hang = solution.hang.expect("a hang");
    assert_eq!(hang.moves, "DRR");
    let replayed = level.replay_text(&hang.moves).unwrap();
    assert_eq!(replayed.failed_at, Some(2));
    assert_eq!(replayed.reason.as_deref(), Some(&hang.reason[..]));
}

#[test]
fn a_hang_met_after_the_state_limit_would_have_stopped_the_search_is_not_reported() {
    // Breadth-first, the second layer's first state fills the arena with a
    // new neighbour before the next one, beside the whirlpool, is
    // expanded. A batch expands them together, and must report what one
    // at a time would: no hang.
    let rows = ["..S..", "....~"];
    let stopped = bfs_at_every_batch(&rows, 8);
    assert_eq!((stopped.status(), stopped.hang()), (Status::Limit, None));
    // With room for every state, the whirlpool is met.
    let explored = bfs_at_every_batch(&rows, 9);
    assert_eq!(explored.status(), Status::Hang);
    assert_eq!(
        explored.hang().map(|hang| &hang.moves[..]),
        Some(&['D', 'R', 'R'][..])
    );
}
