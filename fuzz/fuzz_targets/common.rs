//! What every level target does with its input: load it as a level file of
//! one game, and whatever loads, render its diagnostics, print it and read
//! it back, solve it a little with every solver, replay the solution, ablate
//! it, and replay the text after the first NUL byte as moves. Nothing may
//! panic, printing must round-trip, and the solvers must agree wherever
//! they all decide.

use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

const LIMIT: usize = 3_000;

pub fn level(game: &GameChecks, data: &[u8]) {
    let (level_bytes, move_bytes) = match data.iter().position(|&byte| byte == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let Ok(text) = std::str::from_utf8(level_bytes) else {
        return;
    };
    let loaded = match (game.load)(text) {
        Ok(loaded) => loaded,
        Err(error) => {
            let _ = error.render("fuzz.txt", text);
            return;
        }
    };
    for warning in &loaded.warnings {
        let _ = warning.render("fuzz.txt", text);
    }
    let level = loaded.level;
    if let Some(printed) = level.level_text() {
        let again = (game.load)(&printed)
            .unwrap_or_else(|error| panic!("a printed level does not load:\n{}", error.render("printed", &printed)));
        assert_eq!(again.level.level_text().as_deref(), Some(printed.as_str()), "printing is not stable");
    }
    let solve = |algorithm| level.solve(SearchOptions { algorithm, limit: LIMIT });
    let bfs = solve(Algorithm::Bfs);
    for algorithm in [Algorithm::Dijkstra, Algorithm::Astar] {
        let other = solve(algorithm);
        if bfs.status != Status::Limit && other.status != Status::Limit {
            assert_eq!(bfs.par, other.par, "{algorithm:?} disagrees with BFS");
        }
    }
    if let Some(moves) = &bfs.moves {
        let replayed = level.replay_text(moves).expect("the solver's notation reads back");
        assert!(replayed.won, "the solver's solution does not win: {moves}");
        assert_eq!(Some(replayed.moves), bfs.par);
    }
    for ablation in level.mechanics().into_iter().chain(level.pieces()) {
        let copy = level.ablated(&ablation);
        let _ = copy.solve(SearchOptions { algorithm: Algorithm::Bfs, limit: LIMIT / 10 });
    }
    if let Ok(moves) = std::str::from_utf8(move_bytes) {
        let _ = level.replay_text(moves);
    }
}
