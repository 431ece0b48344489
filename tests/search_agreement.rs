//! Properties on random small Bloxorz levels with every mechanic: BFS,
//! Dijkstra and A* agree on the verdict and the par, and every path they
//! return replays through the rules to a win at exactly par, also after a
//! round trip through the move notation; and a level printed as a file and
//! read back prints the same and has the same par.

use proptest::prelude::*;

use puzzle_qa::game::Game;
use puzzle_qa::games::bloxorz::level::parse;
use puzzle_qa::replay::replay;
use puzzle_qa::search::{self, Outcome};

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
    fn a_printed_level_reads_back_the_same(text in level_text()) {
        let (level, _) = parse(&text).map_err(|e| TestCaseError::fail(e.render("generated", &text)))?;
        let printed = level.text();
        let (again, _) = parse(&printed).map_err(|e| TestCaseError::fail(e.render("printed", &printed)))?;
        prop_assert_eq!(again.text(), printed.clone());
        let limit = 200_000;
        prop_assert_eq!(search::bfs(&again, limit).par(), search::bfs(&level, limit).par(), "{}", printed);
    }
}
