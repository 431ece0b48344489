//! A level as a puzzle-qa `Game`: the core's searches play it through the
//! engine, and what they find wins when replayed move by move.

use std::sync::Arc;

use puzzle_qa_core::search::{Status, bfs};
use puzzlescript::compile::Game;
use puzzlescript::engine::{Engine, Input, Mode};
use puzzlescript::level::Level;
use puzzlescript::play;
use puzzlescript::play::Move;

/// Whether `moves` win level `index` played on one engine from its load,
/// as a player plays it (one random generator throughout, every `again`
/// turn run): the check a level's chain of pure steps is held to.
fn wins_on_one_engine(game: &Game, index: usize, moves: &[Move], seed: &str) -> bool {
    let mut engine = Engine::load(game, index, seed, Mode::Solver).expect("a grid level");
    let drain = |engine: &mut Engine| {
        for _ in 0..play::AGAIN_LIMIT {
            if !engine.againing() {
                return;
            }
            engine.again();
        }
        panic!("the again turns do not stop");
    };
    drain(&mut engine);
    for &mv in moves {
        assert!(!engine.won(), "a move after the win");
        engine.input(mv.input());
        drain(&mut engine);
    }
    engine.won()
}

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/puzzlescript/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn level(source: &str, n: usize) -> Level {
    let (game, _) = puzzlescript::load(source).unwrap_or_else(|e| panic!("{e:?}"));
    let game = Arc::new(game);
    let index = play::grid_index(&game, n).expect("the level exists");
    Level::new(game, index, "test").expect("a grid level")
}

/// A tiny game of our own: a player, walls, and a win condition that the
/// caller writes.
fn tiny(prelude: &str, rules: &str, wins: &str, map: &str) -> String {
    format!(
        "title tiny\n{prelude}\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nFlag\nred\n\nMark\nblue\n\n\
         LEGEND\n\n. = Background\n# = Wall\nP = Player\nF = Flag\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nFlag, Mark\nPlayer, Wall\n\n\
         RULES\n\n{rules}\n\nWINCONDITIONS\n\n{wins}\n\nLEVELS\n\n{map}\n"
    )
}

#[test]
fn the_search_finds_the_shortest_push_and_it_replays() {
    let push = fixture("push");
    let lvl = level(&push, 1);
    let outcome = bfs(&lvl, 100_000);
    assert_eq!(outcome.par(), Some(2));
    assert_eq!(
        outcome.path(),
        Some(&[Move::Input(Input::Right), Move::Input(Input::Right)][..])
    );
    let game = lvl.game();
    let index = play::grid_index(game, 1).unwrap();
    assert!(wins_on_one_engine(
        game,
        index,
        outcome.path().unwrap(),
        "test"
    ));
    // A stored state is two bits of status, a bit for the board's form,
    // then the board packed. Only the player's layer moves here, and only
    // in the 4 cells that hold no wall; player and crate share a field of
    // 2 bits a cell (none, player, crate), 8 bits: 11 bits, 2 bytes, where
    // a bit per (cell, changing object) took 12 bytes.
    assert_eq!(outcome.stats().bytes_per_state(), 2.0);
}

#[test]
fn conditions_that_hold_at_the_start_are_won_by_any_first_move() {
    let source = tiny("", "", "some player", "#####\n#P..#\n#####");
    let outcome = bfs(&level(&source, 1), 1000);
    assert_eq!(
        outcome.par(),
        Some(1),
        "a blocked move wins too: the win is checked after every turn"
    );
}

#[test]
fn a_win_in_the_again_turns_after_the_level_start_is_par_zero() {
    let source = tiny(
        "run_rules_on_level_start",
        // The start turn marks the player's cell and asks for again; the
        // again turn turns the mark into a flag, and then the level is won.
        "[ Mark ] -> [ Flag ]\n[ Player no Mark no Flag ] -> [ Player Mark ] again",
        "some player on flag",
        "#####\n#P..#\n#####",
    );
    let outcome = bfs(&level(&source, 1), 1000);
    assert_eq!(outcome.par(), Some(0));
}

#[test]
fn the_level_start_turn_alone_never_wins() {
    // The start rules put the player on the flag, with no again: the level
    // is won by the first move, not before.
    let source = tiny(
        "run_rules_on_level_start",
        "[ Player | Flag ] -> [ | Player Flag ]",
        "some player on flag",
        "####\n#PF#\n####",
    );
    let outcome = bfs(&level(&source, 1), 1000);
    assert_eq!(outcome.par(), Some(1));
}

#[test]
fn an_unwinnable_level_is_unsolvable_not_a_hang() {
    let source = tiny("", "", "some player on flag", "#####\n#P#F#\n#####");
    let outcome = bfs(&level(&source, 1), 1000);
    assert_eq!(outcome.status(), Status::Unsolvable);
}

#[test]
fn every_solution_found_in_the_fixtures_wins_when_replayed_move_by_move() {
    let dir = format!("{}/tests/fixtures/puzzlescript", env!("CARGO_MANIFEST_DIR"));
    let mut solved = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        // A game that uses randomness too: its states carry the generator,
        // so a path found replays on one engine as it was searched.
        let Ok((game, _)) = puzzlescript::load(&std::fs::read_to_string(&path).unwrap()) else {
            continue;
        };
        let game = Arc::new(game);
        for n in 1..=play::grid_count(&game) {
            let index = play::grid_index(&game, n).unwrap();
            let lvl = Level::new(Arc::clone(&game), index, "test").unwrap();
            let outcome = bfs(&lvl, 50_000);
            if let Some(path_found) = outcome.path() {
                assert!(
                    wins_on_one_engine(&game, index, path_found, "test"),
                    "{}: level {n}: {} does not win when replayed",
                    path.display(),
                    lvl_moves(path_found)
                );
                solved += 1;
            }
        }
    }
    assert!(solved >= 10, "only {solved} fixture levels solved");
}

fn lvl_moves(moves: &[Move]) -> String {
    moves.iter().map(|&m| play::move_letter(m)).collect()
}

/// The example games beside the repository, when this checkout has them.
fn example_games() -> Option<Vec<std::path::PathBuf>> {
    let dir = crate::conformance::folder("example-game searches")?.join("../games");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    Some(files)
}

#[test]
fn searches_of_the_example_games_pack_every_state_back_as_it_was() {
    // Packing a state keeps only what play can change, each layer in its
    // own code, and a debug build unpacks every state it packs to check
    // that it comes back whole; a short search of every level of every
    // example game exercises it on games of other authors.
    let Some(files) = example_games() else { return };
    let mut levels = 0;
    for path in files {
        let Ok((game, _)) = puzzlescript::load(&std::fs::read_to_string(&path).unwrap()) else {
            continue;
        };
        let game = Arc::new(game);
        for n in 1..=play::grid_count(&game) {
            let index = play::grid_index(&game, n).unwrap();
            let lvl = Level::new(Arc::clone(&game), index, "test").unwrap();
            let outcome = bfs(&lvl, 500);
            if let Some(found) = outcome.path() {
                assert!(
                    wins_on_one_engine(&game, index, found, "test"),
                    "{}: level {n}",
                    path.display()
                );
            }
            levels += 1;
        }
    }
    assert!(levels > 100, "{levels} levels searched");
}

#[test]
fn levels_searched_to_the_end_hold_as_many_states_as_the_official_engine_finds() {
    // A packed state is its own key: two boards are one state exactly when
    // they are equal. The counts are the official engine's own, from its
    // breadth-first search of each level to the end, every state it can
    // reach stored once, won ones included.
    let Some(files) = example_games() else { return };
    let official = [
        ("microban.txt", 1, 629),
        ("heroes_of_sokoban.txt", 2, 669),
        ("manic_ammo.txt", 2, 12_986),
        ("sokoban_basic.txt", 2, 15_136),
        ("microban.txt", 4, 19_121),
    ];
    for (name, n, states) in official {
        let path = files
            .iter()
            .find(|p| p.file_name().is_some_and(|f| f == name))
            .unwrap_or_else(|| panic!("{name} among the example games"));
        let (game, _) = puzzlescript::load(&std::fs::read_to_string(path).unwrap()).unwrap();
        let game = Arc::new(game);
        let index = play::grid_index(&game, n).unwrap();
        let (stats, ended) = Level::new(game, index, "test").unwrap().explore(100_000);
        assert!(ended, "{name} level {n} searched to the end");
        assert_eq!(stats.stored, states, "{name} level {n}");
    }
}

/// A real-time game whose ball rolls one cell right on each tick; the
/// player, walled in, can only wait.
fn ticking(directive: &str) -> String {
    format!(
        "title ticking\nrealtime_interval 0.5\nnoaction\n{directive}\n\n\
         OBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nBall\nred\n\nGoal\nblue\n\n\
         LEGEND\n\n. = Background\n# = Wall\nP = Player\nB = Ball\nG = Goal\n\nSOUNDS\n\n\
         COLLISIONLAYERS\n\nBackground\nGoal\nPlayer, Wall, Ball\n\n\
         RULES\n\n[ stationary Player ] [ Ball ] -> [ Player ] [ right Ball ]\n\n\
         WINCONDITIONS\n\nall Ball on Goal\n\nLEVELS\n\n#####\n#P###\n#B.G#\n#####\n"
    )
}

#[test]
fn a_real_time_level_has_no_par_unless_its_designer_counts_ticks() {
    use puzzle_qa_core::game::{Chance, Game};
    let plain = level(&ticking(""), 1);
    let no_par = plain.no_par().expect("a real-time level has no par");
    assert_eq!(no_par.status, "realtime");
    assert!(
        no_par.note.contains(play::TICKS_DIRECTIVE),
        "{}",
        no_par.note
    );
    assert!(plain.parse_moves("T").is_err());

    let counted = level(&ticking(play::TICKS_DIRECTIVE), 1);
    assert!(counted.no_par().is_none());
    let outcome = bfs(&counted, 1_000);
    assert_eq!(outcome.par(), Some(2));
    assert_eq!(lvl_moves(outcome.path().unwrap()), "TT");
    assert_eq!(counted.parse_moves("t T").unwrap(), vec![Move::Tick; 2]);
    let game = counted.game();
    let index = play::grid_index(game, 1).unwrap();
    assert!(
        !wins_on_one_engine(game, index, &[Move::Tick], "test"),
        "one tick leaves the ball short of the goal"
    );
}
