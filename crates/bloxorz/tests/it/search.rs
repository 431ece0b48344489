//! Properties on random small Bloxorz levels with every mechanic: BFS,
//! Dijkstra and A* agree on the verdict and the par, and every path they
//! return replays through the rules to a win at exactly par, also after a
//! round trip through the move notation; and a level printed as a file and
//! read back prints the same and has the same par.
//!
//! The A* heuristic is held to its promise on the whole reachable state
//! graph (every state's exact distance to a win, found backwards from the
//! wins): it never overestimates and it is consistent on every move, on
//! random levels, on the official levels and on their ablated copies; it is
//! exact where the relaxed game is the real one; and on the official levels
//! A* finds BFS's par expanding fewer states.

use proptest::prelude::*;

use bloxorz::{Level, State};
use bloxorz::{parse, print};
use puzzle_qa_core::game::HOPELESS;
use puzzle_qa_core::game::{Cost, Game, Mechanics};
use puzzle_qa_core::replay::replay;
use puzzle_qa_core::search::{self, DEFAULT_STATE_LIMIT, Outcome, StateGraph};

use crate::official;

fn explore(level: &Level) -> StateGraph<Level> {
    StateGraph::explore(level, DEFAULT_STATE_LIMIT).expect("a small level")
}

fn h(level: &Level, state: &State) -> Cost {
    level.heuristic(state).expect("Bloxorz offers a heuristic")
}

/// The heuristic is 0 on a win, never above a state's exact distance, and
/// drops by at most a move's cost along every move.
fn admissible_and_consistent(level: &Level, graph: &StateGraph<Level>) -> Result<(), String> {
    graph.check_heuristic(level, |state| h(level, state))
}

/// The heuristic is the exact distance on every state, and [`HOPELESS`]
/// exactly where no win is reachable.
fn exact(level: &Level, graph: &StateGraph<Level>) -> Result<(), String> {
    for (id, state) in graph.states().enumerate() {
        let expected = graph.distance[id].unwrap_or(HOPELESS);
        let bound = h(level, state);
        if bound != expected {
            return Err(format!("h = {bound}, exactly {expected}, at {state:?}"));
        }
    }
    Ok(())
}

/// Tiles and their weights (out of 100): 15 `x` (missing), 43 `p` (plain),
/// 10 `w` (weak), 4 each of `S1`, `W1`, `W2`, 3 `S2` (switches), 6 `x1` and
/// 3 `x2` (bridges that start missing), 4 `p1` (a tile switches can
/// remove), 4 `t1` (a split teleport).
fn tile() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        [
            ("x", 15),
            ("p", 43),
            ("w", 10),
            ("S1", 4),
            ("W1", 4),
            ("W2", 4),
            ("S2", 3),
            ("x1", 6),
            ("x2", 3),
            ("p1", 4),
            ("t1", 4),
        ]
        .iter()
        .flat_map(|&(tile, weight)| std::iter::repeat_n(tile, weight))
        .collect::<Vec<_>>(),
    )
}

/// A switch rule: one of the four switches, a verb, a switchable name.
fn rule() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["S1", "W1", "W2", "S2"]),
        prop::sample::select(vec!["toggles", "opens", "closes"]),
        prop::sample::select(vec!["x1", "x2", "p1"]),
    )
        .prop_map(|(trigger, verb, target)| format!("{trigger} {verb} {target}"))
}

/// A level text: a grid of 3–8 × 3–7 random tiles with the start, the goal
/// and (when the grid has a teleport) two split targets placed on distinct
/// cells, then 0–5 switch rules.
fn level_text() -> impl Strategy<Value = String> {
    (3usize..=8, 3usize..=7)
        .prop_flat_map(|(width, height)| {
            let cells = width * height;
            (
                Just(width),
                prop::collection::vec(tile(), cells),
                prop::sample::subsequence((0..cells).collect::<Vec<_>>(), 4),
                prop::collection::vec(rule(), 0..=5),
                any::<bool>(),
            )
        })
        .prop_map(|(width, mut tiles, places, rules, shuffle)| {
            let mut places = places;
            if shuffle {
                places.reverse();
            }
            tiles[places[0]] = "s";
            tiles[places[1]] = "e";
            let mut text = String::new();
            let has_teleport = tiles.contains(&"t1");
            if has_teleport {
                tiles[places[2]] = "l1";
                tiles[places[3]] = "l2";
            }
            for row in tiles.chunks(width) {
                text.push_str(&row.join(" "));
                text.push('\n');
            }
            text.push_str("---\n");
            if has_teleport {
                text.push_str("t1 teleports l1, l2\n");
            }
            for rule in rules {
                text.push_str(&rule);
                text.push('\n');
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn solvers_agree_and_their_paths_replay_at_par(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let limit = 200_000;
        let outcomes = [
            search::bfs(&level, limit),
            search::dijkstra(&level, limit),
            search::astar(&level, limit),
        ];
        let decided = outcomes[0].status() != search::Status::Limit;
        prop_assert!(decided, "tiny levels never reach the limit");
        for outcome in &outcomes {
            prop_assert_eq!(outcome.status(), outcomes[0].status(), "level:\n{}", text);
            prop_assert_eq!(outcome.par(), outcomes[0].par(), "level:\n{}", text);
            if let Outcome::Solved { par, path, .. } = outcome {
                let played = replay(&level, path);
                prop_assert!(played.won, "path does not win; level:\n{}", text);
                prop_assert_eq!(played.cost, *par);
                // The printed solution, read back, wins at par as well.
                let printed = level.format_moves(path);
                let reread = level.parse_moves(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let replayed = replay(&level, &reread);
                prop_assert!(replayed.won && replayed.cost == *par, "`{}` on:\n{}", printed, text);
            }
        }
    }

    #[test]
    fn the_heuristic_is_admissible_and_consistent(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let graph = explore(&level);
        admissible_and_consistent(&level, &graph).map_err(|e| TestCaseError::fail(format!("{e}; level:\n{text}")))?;
    }

    /// Without switch rules (so no bridges and no splits; weak tiles stay)
    /// the relaxed game is the real one, and the heuristic is exact.
    #[test]
    fn without_switches_or_teleports_the_heuristic_is_exact(text in level_text()) {
        let plain = text.split("---").next().expect("split yields a first part");
        let (level, _) = parse(plain).map_err(|e| TestCaseError::fail(e.render("generated", plain)))?;
        let graph = explore(&level);
        exact(&level, &graph).map_err(|e| TestCaseError::fail(format!("{e}; level:\n{plain}")))?;
    }

    #[test]
    fn a_printed_level_reads_back_the_same(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let printed = print(&level);
        let (again, _) = parse(&printed).map_err(|e| TestCaseError::fail(e.render("printed", &printed)))?;
        prop_assert_eq!(print(&again), printed.clone());
        let limit = 200_000;
        prop_assert_eq!(search::bfs(&again, limit).par(), search::bfs(&level, limit).par(), "{}", printed);
    }
}

/// On every official level: along a BFS-optimal path the heuristic is at
/// most the rolls left; on the whole state graph it never overestimates and
/// is consistent; and where the level has no mechanic but weak tiles it is
/// exact.
#[test]
fn on_the_official_levels_the_heuristic_never_overestimates() {
    for number in 1..=33 {
        let level = official(number);
        let outcome = search::bfs(&level, DEFAULT_STATE_LIMIT);
        let (Some(par), Some(path)) = (outcome.par(), outcome.path()) else {
            panic!("level {number} is not solved");
        };
        let mut state = level.start();
        for (done, mv) in path.iter().enumerate() {
            assert!(
                h(&level, &state) <= par - done as Cost,
                "level {number}: h = {} after {done} of {par} rolls",
                h(&level, &state)
            );
            state = level.step(&state, *mv).unwrap().0;
        }
        let graph = explore(&level);
        admissible_and_consistent(&level, &graph).unwrap_or_else(|e| panic!("level {number}: {e}"));
        let weak_tiles_at_most = level
            .mechanics()
            .iter()
            .all(|ablation| ablation.mechanic == "weak-tile");
        if weak_tiles_at_most {
            exact(&level, &graph).unwrap_or_else(|e| panic!("level {number}: {e}"));
        }
    }
}

/// An ablated copy changes the cells under the heuristic's tables (a weak
/// tile or a teleport becomes plain, bridges become fixed): it must get
/// tables of its own, and its heuristic stays admissible and consistent.
#[test]
fn on_ablated_official_levels_the_heuristic_stays_admissible() {
    for number in 1..=33 {
        let level = official(number);
        // The original's tables exist before the copies are made.
        h(&level, &level.start());
        for ablation in level.mechanics().into_iter().chain(level.pieces()) {
            let ablated = level.ablate(&ablation);
            let graph = explore(&ablated);
            admissible_and_consistent(&ablated, &graph)
                .unwrap_or_else(|e| panic!("level {number} without {ablation:?}: {e}"));
        }
    }
}

/// A* finds BFS's par on every official level, expanding no more states on
/// any level and at least 1.5× fewer in total. Run with `--nocapture` for
/// the table.
#[test]
fn astar_matches_bfs_and_expands_fewer_states_on_the_official_levels() {
    let (mut blind, mut informed) = (0, 0);
    println!("level  par  h(start)  bfs expanded  A* expanded");
    for number in 1..=33 {
        let level = official(number);
        let bfs = search::bfs(&level, DEFAULT_STATE_LIMIT);
        let astar = search::astar(&level, DEFAULT_STATE_LIMIT);
        let par = bfs
            .par()
            .unwrap_or_else(|| panic!("level {number} is not solved"));
        assert_eq!(astar.par(), Some(par), "level {number}");
        let (b, a) = (bfs.stats().expanded, astar.stats().expanded);
        println!(
            "{number:>5}  {par:>3}  {:>8}  {b:>12}  {a:>11}",
            h(&level, &level.start())
        );
        assert!(a <= b, "level {number}: A* expanded {a}, BFS {b}");
        blind += b;
        informed += a;
    }
    println!(
        "total            {blind:>12}  {informed:>11}  ({:.2}× fewer)",
        blind as f64 / informed as f64
    );
    assert!(
        2 * blind >= 3 * informed,
        "A* expanded {informed} in total, BFS {blind}: less than 1.5× fewer"
    );
}
