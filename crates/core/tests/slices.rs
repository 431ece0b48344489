//! Games whose state is a byte slice, as a PuzzleScript level's cells or
//! a child process's opaque bytes will be, built on the public API alone:
//! the searches, replay, the state graph and ablation work on them, and a
//! stored state costs its bytes.

use puzzle_qa_core::_cli_support::ablation::{self, Class};
use puzzle_qa_core::game::{Ablation, Cost, Extras, Game, Mechanics, NotationError};
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::replay::replay;
use puzzle_qa_core::search::{self, Algorithm, Outcome, SearchOptions, StateGraph, Status};

/// A sliding puzzle: tiles on a board `width` cells wide, one blank
/// (`.`); a move slides the tile beside the blank into it. A capital
/// letter is a heavy tile: sliding it costs 2. The state is the board, a
/// byte per cell, so the level fixes its length.
#[derive(Clone)]
struct Slide {
    width: usize,
    start: Vec<u8>,
    goal: Vec<u8>,
}

/// Where the blank moves (the tile there slides the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
    Left,
    Right,
}

const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
const LETTERS: &str = "udlr";

impl Slide {
    fn new(start: &[&str], goal: &[&str]) -> Slide {
        Slide {
            width: start[0].len(),
            start: start.concat().into_bytes(),
            goal: goal.concat().into_bytes(),
        }
    }

    /// The cell the blank at `blank` moves to, if it is on the board.
    fn target(&self, blank: usize, dir: Dir) -> Option<usize> {
        let (row, col) = (blank / self.width, blank % self.width);
        match dir {
            Dir::Up => row.checked_sub(1).map(|row| row * self.width + col),
            Dir::Down => Some(blank + self.width).filter(|&cell| cell < self.goal.len()),
            Dir::Left => col.checked_sub(1).map(|col| row * self.width + col),
            Dir::Right => (col + 1 < self.width).then_some(blank + 1),
        }
    }

    fn cost(tile: u8) -> Cost {
        if tile.is_ascii_uppercase() { 2 } else { 1 }
    }
}

fn blank(board: &[u8]) -> usize {
    board
        .iter()
        .position(|&cell| cell == b'.')
        .expect("one blank")
}

impl Game for Slide {
    type State = [u8];
    type Key = ();
    type Move = Dir;
    type Refusal = &'static str;

    fn start(&self) -> Vec<u8> {
        self.start.clone()
    }

    fn key(&self, _: &[u8]) {}

    fn is_won(&self, board: &[u8]) -> bool {
        board == self.goal
    }

    fn moves(&self, _: &[u8]) -> impl Iterator<Item = Dir> {
        DIRS.into_iter()
    }

    fn step(&self, board: &[u8], dir: Dir) -> Result<(Vec<u8>, Cost), &'static str> {
        let blank = blank(board);
        let tile = self.target(blank, dir).ok_or("the blank is at the edge")?;
        let mut next = board.to_vec();
        next.swap(blank, tile);
        Ok((next, Slide::cost(board[tile])))
    }

    /// The moves `step` makes, each built in one buffer: swapped in,
    /// shown, swapped back.
    fn successors(&self, board: &[u8], mut visit: impl FnMut(Dir, &[u8], Cost)) {
        let blank = blank(board);
        let mut next = board.to_vec();
        for dir in DIRS {
            if let Some(tile) = self.target(blank, dir) {
                next.swap(blank, tile);
                visit(dir, &next, Slide::cost(board[tile]));
                next.swap(blank, tile);
            }
        }
    }

    fn unit_costs(&self) -> bool {
        !self.start.iter().any(u8::is_ascii_uppercase)
    }

    /// Each tile's distance to its goal cell, counted twice for a heavy
    /// tile: a move takes one tile one cell nearer at its cost.
    fn heuristic(&self, board: &[u8]) -> Option<Cost> {
        let (width, mut sum) = (self.width, 0);
        for (cell, &tile) in board.iter().enumerate().filter(|(_, t)| **t != b'.') {
            let home = self
                .goal
                .iter()
                .position(|&t| t == tile)
                .expect("a tile of the goal");
            let rows = (cell / width).abs_diff(home / width);
            let cols = (cell % width).abs_diff(home % width);
            sum += (rows + cols) as Cost * Slide::cost(tile);
        }
        Some(sum)
    }

    fn format_moves(&self, moves: &[Dir]) -> String {
        let letters = LETTERS.as_bytes();
        moves
            .iter()
            .map(|dir| letters[*dir as usize] as char)
            .collect()
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Dir>, NotationError> {
        text.chars()
            .enumerate()
            .map(|(at, c)| match LETTERS.find(c) {
                Some(i) => Ok(DIRS[i]),
                None => Err(NotationError::new(at + 1, format!("not a move: `{c}`"))),
            })
            .collect()
    }

    const EXTRAS: Extras<Self> = Extras::NONE.mechanics();
}

/// Heavy tiles, taken out by making every tile light.
impl Mechanics for Slide {
    fn mechanics(&self) -> Vec<Ablation> {
        let heavy = self.start.iter().any(u8::is_ascii_uppercase);
        let ablation = Ablation::everywhere("heavy", "light tile");
        heavy.then_some(ablation).into_iter().collect()
    }

    fn ablate(&self, _: &Ablation) -> Slide {
        Slide {
            start: self.start.to_ascii_lowercase(),
            goal: self.goal.to_ascii_lowercase(),
            ..self.clone()
        }
    }
}

/// The 3 × 3 puzzle, 12 moves from solved.
fn eight() -> Slide {
    Slide::new(&["bc.", "ahf", "gde"], &["abc", "def", "gh."])
}

fn solve(game: &Slide, algorithm: Algorithm) -> Outcome<Dir> {
    search::solve(
        game,
        SearchOptions {
            algorithm,
            ..SearchOptions::default()
        },
    )
}

#[test]
fn every_solver_finds_the_same_par_and_its_path_replays() {
    let game = eight();
    for algorithm in Algorithm::ALL {
        let outcome = solve(&game, algorithm);
        assert_eq!(outcome.par(), Some(12), "{algorithm:?}");
        let played = replay(&game, outcome.path().unwrap());
        assert!(played.won && played.cost == 12, "{algorithm:?}: {played:?}");
    }
    let astar = solve(&game, Algorithm::Astar).stats();
    assert!(astar.expanded < solve(&game, Algorithm::Dijkstra).stats().expanded);
}

#[test]
fn a_stored_state_costs_its_bytes_and_the_level_says_how_many() {
    let game = eight();
    let stats = solve(&game, Algorithm::Bfs).stats();
    assert_eq!(stats.state_bytes, stats.stored * 9);
    assert_eq!(stats.bytes_per_state(), 9.0);

    let wide = Slide::new(&["abcd", "efg.", "ijkh"], &["abcd", "efgh", "ijk."]);
    let outcome = solve(&wide, Algorithm::Bfs);
    assert_eq!(wide.format_moves(outcome.path().unwrap()), "d");
    assert_eq!(outcome.stats().bytes_per_state(), 12.0);
}

#[test]
fn heavy_tiles_cost_more_and_ablation_takes_them_out() {
    let game = Slide::new(&["Bc.", "ahf", "gde"], &["aBc", "def", "gh."]);
    assert!(!game.unit_costs());
    let par = solve(&game, Algorithm::Bfs).par();
    assert_eq!(par, solve(&game, Algorithm::Astar).par());
    assert!(par > Some(12), "{par:?}");

    let level: &dyn AnyLevel = &game;
    let ablated = ablation::run(level, par, level.mechanics(), SearchOptions::default())
        .expect("no move of the level hangs");
    assert_eq!(ablated.len(), 1);
    assert_eq!(ablated[0].class, Class::Obstacle);
    assert_eq!(ablated[0].solution.par, Some(12));
    assert_eq!(ablated[0].solution.stats.bytes_per_state(), 9.0);
}

#[test]
fn the_state_graph_holds_every_state_and_tests_the_bound() {
    // Two rows of three: half of the 6! boards are reachable.
    let game = Slide::new(&["ab.", "dec"], &["abc", "de."]);
    let graph = StateGraph::explore(&game, 1000).expect("a small puzzle");
    assert_eq!(graph.states().len(), 360);
    assert_eq!(graph.states().next(), Some(&b"ab.dec"[..]));
    assert_eq!(graph.distance[0], solve(&game, Algorithm::Bfs).par());
    let bound = |board: &[u8]| game.heuristic(board).unwrap();
    assert_eq!(graph.check_heuristic(&game, bound), Ok(()));
    assert!(
        graph
            .check_heuristic(&game, |board| bound(board) + 1)
            .is_err()
    );
}

#[test]
fn the_state_limit_holds_for_slices() {
    let game = Slide::new(&["abc", "def", "hg."], &["abc", "def", "gh."]);
    for algorithm in Algorithm::ALL {
        let outcome = search::solve(
            &game,
            SearchOptions {
                algorithm,
                limit: 500,
                ..SearchOptions::default()
            },
        );
        assert_eq!(outcome.status(), Status::Limit, "{algorithm:?}");
        assert_eq!(outcome.stats().stored, 500, "{algorithm:?}");
    }
}

#[test]
fn the_level_interface_reads_and_replays_moves() {
    let level: &dyn AnyLevel = &eight();
    let solution = level.solve(SearchOptions::default());
    let moves = solution.moves.expect("solved");
    let report = level.replay_text(&moves).unwrap();
    assert!(report.won && report.moves == 12, "{report:?}");
    let bumped = level.replay_text("r").unwrap();
    assert_eq!(bumped.reason.as_deref(), Some("the blank is at the edge"));
}

/// States of varying length, as a child process's opaque bytes may be: a
/// word, built by appending `a` or `b` (at most four letters) or
/// dropping the last letter, must read the goal.
struct Word(&'static [u8]);

impl Game for Word {
    type State = [u8];
    type Key = ();
    type Move = Option<u8>;
    type Refusal = &'static str;

    fn start(&self) -> Vec<u8> {
        Vec::new()
    }
    fn key(&self, _: &[u8]) {}
    fn is_won(&self, word: &[u8]) -> bool {
        word == self.0
    }
    fn moves(&self, _: &[u8]) -> impl Iterator<Item = Option<u8>> {
        [Some(b'a'), Some(b'b'), None].into_iter()
    }
    fn step(&self, word: &[u8], mv: Option<u8>) -> Result<(Vec<u8>, Cost), &'static str> {
        let mut next = word.to_vec();
        match mv {
            Some(_) if word.len() == 4 => return Err("four letters at most"),
            Some(letter) => next.push(letter),
            None => {
                next.pop().ok_or("nothing to drop")?;
            }
        }
        Ok((next, 1))
    }
    /// The letters to drop past the goal's prefix, and those to add.
    fn heuristic(&self, word: &[u8]) -> Option<Cost> {
        let kept = word.iter().zip(self.0).take_while(|(a, b)| a == b).count();
        Some((word.len() + self.0.len() - 2 * kept) as Cost)
    }
    fn format_moves(&self, moves: &[Option<u8>]) -> String {
        moves.iter().map(|mv| mv.map_or('-', char::from)).collect()
    }
    fn parse_moves(&self, text: &str) -> Result<Vec<Option<u8>>, NotationError> {
        Ok(text.bytes().map(|b| (b != b'-').then_some(b)).collect())
    }
}

#[test]
fn states_may_vary_in_length() {
    let word = Word(b"abba");
    for algorithm in Algorithm::ALL {
        let options = SearchOptions {
            algorithm,
            ..SearchOptions::default()
        };
        let path = search::solve(&word, options)
            .path()
            .map(|path| word.format_moves(path));
        assert_eq!(path.as_deref(), Some("abba"), "{algorithm:?}");
    }
    assert!(replay(&word, &word.parse_moves("ab-bba").unwrap()).won);
    let graph = StateGraph::explore(&word, 100).expect("31 words");
    assert_eq!(graph.states().len(), 1 + 2 + 4 + 8 + 16);
    assert_eq!(graph.states().nth(3), Some(&b"aa"[..]));
    let bound = |w: &[u8]| word.heuristic(w).unwrap();
    assert_eq!(graph.check_heuristic(&word, bound), Ok(()));

    // Out of reach: BFS stores every word, each its letters and, once
    // lengths vary, a 4-byte offset.
    let outcome = search::bfs(&Word(b"abbab"), 1000);
    assert_eq!(outcome.status(), Status::Unsolvable);
    let letters: u64 = graph.states().map(|w| w.len() as u64).sum();
    assert_eq!(letters, 2 + 2 * 4 + 3 * 8 + 4 * 16);
    let stats = outcome.stats();
    assert_eq!((stats.stored, stats.state_bytes), (31, letters + 31 * 4));
}

/// The sliding puzzle, its states handed to the game `BATCH` at a time,
/// as a game over the process protocol asks.
struct Chunked<const BATCH: usize>(Slide, std::sync::atomic::AtomicUsize);

impl<const BATCH: usize> Game for Chunked<BATCH> {
    type State = [u8];
    type Key = ();
    type Move = Dir;
    type Refusal = &'static str;
    const BATCH: usize = BATCH;

    fn start(&self) -> Vec<u8> {
        self.0.start()
    }
    fn key(&self, _: &[u8]) {}
    fn is_won(&self, board: &[u8]) -> bool {
        self.0.is_won(board)
    }
    fn moves(&self, board: &[u8]) -> impl Iterator<Item = Dir> {
        self.0.moves(board)
    }
    fn step(&self, board: &[u8], dir: Dir) -> Result<(Vec<u8>, Cost), &'static str> {
        self.0.step(board, dir)
    }
    fn successors_of_many(&self, boards: &[&[u8]], mut visit: impl FnMut(usize, Dir, &[u8], Cost)) {
        assert!(boards.len() <= BATCH);
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        for (index, board) in boards.iter().enumerate() {
            self.0
                .successors(board, |dir, next, cost| visit(index, dir, next, cost));
        }
    }
    fn format_moves(&self, moves: &[Dir]) -> String {
        self.0.format_moves(moves)
    }
    fn parse_moves(&self, text: &str) -> Result<Vec<Dir>, NotationError> {
        self.0.parse_moves(text)
    }
}

#[test]
fn a_search_that_hands_out_states_in_chunks_finds_what_one_by_one_finds() {
    let far = Slide::new(&["abc", "def", "hg."], &["abc", "def", "gh."]);
    for (game, limit) in [
        (eight(), 100_000),
        (eight(), 300),
        (far, 100_000),
        (eight(), 1),
    ] {
        let one = search::bfs(&game, limit);
        let chunked = Chunked::<64>(game.clone(), Default::default());
        let many = search::bfs(&chunked, limit);
        assert_eq!(one.status(), many.status());
        assert_eq!(one.path(), many.path());
        let (a, b) = (one.stats(), many.stats());
        assert_eq!(
            (a.expanded, a.stored),
            (b.expanded, b.stored),
            "limit {limit}"
        );
        // A chunk is up to 64 queued states: a call per 64 states expanded,
        // and at worst one more per layer (no solution is 31 moves away)
        // and per round of chunks that began with fewer queued than it
        // takes (a tenth more, at most).
        let calls = chunked.1.load(std::sync::atomic::Ordering::Relaxed) as u64;
        assert!(
            calls <= b.expanded / 64 * 11 / 10 + 32,
            "{calls} calls for {} states",
            b.expanded
        );
    }
}

#[test]
fn a_mechanic_of_the_goal_is_classed_so_without_a_search() {
    let game = Slide::new(&["Bc.", "ahf", "gde"], &["aBc", "def", "gh."]);
    let par = solve(&game, Algorithm::Bfs).par();
    let level: &dyn AnyLevel = &game;
    let goal: Vec<Ablation> = level
        .mechanics()
        .into_iter()
        .map(|ablation| Ablation {
            goal: true,
            ..ablation
        })
        .collect();
    let ablated = ablation::run(level, par, goal, SearchOptions::default())
        .expect("no move of the level hangs");
    assert_eq!(ablated[0].class, Class::Goal);
    assert!(ablated[0].class.needed());
    assert_eq!(
        ablated[0].solution.par, None,
        "no par: nothing was searched"
    );
    assert_eq!(ablated[0].solution.stats.stored, 0);
    assert_eq!(Class::from_name("goal"), Some(Class::Goal));
}
