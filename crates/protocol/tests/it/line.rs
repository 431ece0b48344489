//! The Python game behaves as the core expects of any game.

use puzzle_qa_core::_cli_support::ablation::{self, Class};
use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

use crate::{game, load, manifest, python};

const OPTIONS: SearchOptions = SearchOptions {
    algorithm: Algorithm::Bfs,
    limit: 1000,
    memory: puzzle_qa_core::search::DEFAULT_MEMORY,
};

#[test]
fn a_python_game_is_solved_replayed_and_ablated_through_the_protocol() {
    if !python() {
        return;
    }
    let (_folder, path) = manifest("", &[]);
    let game = game(&path);
    assert_eq!(game.name, "line");
    let level = load(&game, "; ice carries the player to the goal\nP~~~G\n").level;
    let solution = level.solve(OPTIONS);
    assert_eq!((solution.status, solution.par), (Status::Solved, Some(1)));
    assert_eq!(solution.moves.as_deref(), Some("R"));
    let played = level.replay_text("R").unwrap();
    assert!(played.won, "{played:?}");
    let refused = level.replay_text("L").unwrap();
    assert!(!refused.won);
    assert!(
        format!("{refused:?}").contains("a wall is in the way"),
        "{refused:?}"
    );
    let error = level.replay_text("RQ").unwrap_err();
    assert_eq!(error.column, 2);

    let mechanics = level.mechanics();
    assert_eq!(mechanics.len(), 1);
    assert_eq!(
        (&*mechanics[0].mechanic, &*mechanics[0].replacement),
        ("ice", "floor")
    );
    let results = ablation::run(level.as_ref(), solution.par, mechanics, OPTIONS)
        .expect("no move of the level hangs");
    assert_eq!(
        results[0].class,
        Class::Shortcut,
        "without ice the walk is longer"
    );
    assert_eq!(results[0].solution.par, Some(4));
}

#[test]
fn a_level_the_game_refuses_fails_to_load_at_its_line_and_column() {
    if !python() {
        return;
    }
    let (_folder, path) = manifest("", &[]);
    let game = game(&path);
    let error = (game.load)("; a comment\nP.x.G\n")
        .err()
        .expect("x is no cell");
    assert_eq!((error.line, error.column), (2, 3), "{}", error.message);
    assert!(error.message.contains("unknown cell"), "{}", error.message);
}

#[test]
fn searches_in_parallel_share_the_games_processes() {
    if !python() {
        return;
    }
    let (_folder, path) = manifest("processes = 2\n", &[]);
    let game = game(&path);
    let levels: Vec<_> = ["P.G", "P..G", "P...G", "P....G", "G.P", "P#G"]
        .iter()
        .map(|text| load(&game, text).level)
        .collect();
    let pars: Vec<Option<u32>> = std::thread::scope(|scope| {
        let running: Vec<_> = levels
            .iter()
            .map(|level| scope.spawn(move || level.solve(OPTIONS).par))
            .collect();
        running.into_iter().map(|run| run.join().unwrap()).collect()
    });
    assert_eq!(pars, [Some(2), Some(3), Some(4), Some(5), Some(2), None]);
}
