//! Properties on random small Hug Maze levels with every mechanic: BFS,
//! Dijkstra and A* (with the heart-distance heuristic) agree on the verdict
//! and the par, and so does BFS over packed states, state for state; every
//! path replays to a win at exactly par, also through the move notation; the
//! heuristic is admissible and consistent on the whole state graph; a level
//! printed as a file and read back is the same level.

use proptest::prelude::*;

use hugmaze::Packed;
use hugmaze::{parse, print};
use puzzle_qa_core::game::Game;
use puzzle_qa_core::replay::replay;
use puzzle_qa_core::search::{self, Outcome, StateGraph, Status};

/// Cells and their weights (out of 100).
fn cell() -> impl Strategy<Value = char> {
    prop::sample::select(
        [
            ('.', 54),
            ('#', 16),
            ('m', 4),
            ('c', 3),
            ('X', 2),
            ('J', 2),
            ('C', 4),
            ('p', 5),
            ('P', 4),
            ('q', 3),
            ('Q', 3),
        ]
        .iter()
        .flat_map(|&(cell, weight)| std::iter::repeat_n(cell, weight))
        .collect::<Vec<_>>(),
    )
}

/// A grid of 3–7 × 3–6 random cells with Bubu, Dudu and one or two hearts on
/// distinct cells; a gate whose plate letter is absent becomes floor.
fn level_text() -> impl Strategy<Value = String> {
    (3usize..=7, 3usize..=6)
        .prop_flat_map(|(width, height)| {
            let cells = width * height;
            (
                Just(width),
                prop::collection::vec(cell(), cells),
                prop::sample::subsequence((0..cells).collect::<Vec<_>>(), 4),
                any::<bool>(),
            )
        })
        .prop_map(|(width, mut grid, places, two_hearts)| {
            grid[places[0]] = 'B';
            grid[places[1]] = 'D';
            grid[places[2]] = 'H';
            if two_hearts {
                grid[places[3]] = 'H';
            }
            for gate in ['P', 'Q'] {
                if !grid.contains(&gate.to_ascii_lowercase()) {
                    grid.iter_mut()
                        .filter(|c| **c == gate)
                        .for_each(|c| *c = '.');
                }
            }
            let mut text = String::from("name: generated\n");
            for row in grid.chunks(width) {
                text.extend(row);
                text.push('\n');
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn solvers_agree_and_their_paths_replay_at_par(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let limit = 100_000;
        let bfs = search::bfs(&level, limit);
        // A few small grids full of pushable objects are too big to settle
        // quickly; they say nothing about agreement.
        prop_assume!(bfs.status() != Status::Limit);
        let dijkstra = search::dijkstra(&level, limit);
        let astar = search::astar(&level, limit);
        // Best-first search stores every state it generates before the win,
        // so near the limit it can stop where BFS did not.
        prop_assume!(dijkstra.status() != Status::Limit && astar.status() != Status::Limit);
        for other in [&dijkstra, &astar] {
            prop_assert_eq!(bfs.status(), other.status(), "level:\n{}", text);
            prop_assert_eq!(bfs.par(), other.par(), "level:\n{}", text);
        }
        prop_assert!(astar.stats().expanded <= dijkstra.stats().expanded, "level:\n{}", text);
        if Packed::<u128>::fits(&level) {
            let packed = search::bfs(&Packed::<u128>::new(level.clone()), limit);
            prop_assert_eq!(packed.par(), bfs.par(), "level:\n{}", text);
            prop_assert_eq!(packed.stats().stored, bfs.stats().stored, "level:\n{}", text);
        }
        for outcome in [&bfs, &dijkstra, &astar] {
            if let Outcome::Solved { par, path, .. } = outcome {
                let printed = level.format_moves(path);
                let reread = level.parse_moves(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&reread, path);
                let played = replay(&level, &reread);
                prop_assert!(played.won && played.cost == *par, "`{}` on:\n{}", printed, text);
            }
        }
    }

    /// The heart-distance bound on the whole reachable state graph: 0 on a
    /// win, never above the exact moves left, consistent on every move.
    #[test]
    fn the_heuristic_is_admissible_and_consistent(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let graph = StateGraph::explore(&level, 50_000);
        prop_assume!(graph.is_some());
        let graph = graph.unwrap();
        graph
            .check_heuristic(&level, |state| level.heuristic(state).unwrap())
            .map_err(|e| TestCaseError::fail(format!("{e}; level:\n{text}")))?;
    }

    #[test]
    fn a_printed_level_reads_back_the_same(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        prop_assert_eq!(print(&level), text.clone());
        let (again, _) = parse(&print(&level)).map_err(|e| TestCaseError::fail(e.render("printed", &text)))?;
        prop_assert_eq!(print(&again), text);
    }
}
