#![no_main]

//! A Snack Run level file of any bytes goes through everything every level
//! target does (`common.rs`), then through the reachability computation on
//! its own: the graph and each bear's reach, for the level and for each of
//! its ablations, must hold together.

mod common;

use std::collections::BTreeSet;

use puzzle_qa_core::game::Reachable;
use snackrun::{self, Bear, Course, End, Pos, Tile};
use puzzle_qa_core::search::{self, Algorithm, SearchOptions, Status};

const LIMIT: usize = 3_000;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::level(&snackrun::GAME, data);
    let level_bytes = data.split(|&byte| byte == 0).next().unwrap_or_default();
    let Ok(text) = std::str::from_utf8(level_bytes) else {
        return;
    };
    let Ok((level, _)) = snackrun::parse(text) else {
        return;
    };
    check(&Course::new(level.clone()));
    for mechanic in Course::new(level.clone()).mechanics_present() {
        check(&Course::new(level.ablate(mechanic)));
    }
});

/// What a course's graph and reach must satisfy whatever the level.
fn check(course: &Course) {
    let level = &course.level;
    let on_grid = |(row, col): Pos| row < level.height && col < level.width;
    for (spot, motions) in &course.graph.edges {
        assert!(level.is_spot(*spot), "{spot:?} is no standing spot");
        for motion in motions {
            assert_eq!(
                motion.touched.first(),
                Some(spot),
                "a motion starts where it stands"
            );
            for &cell in &motion.touched {
                assert!(on_grid(cell), "{cell:?} is off the grid");
                assert_ne!(level.tile(cell), Tile::Spikes, "a motion through spikes");
            }
            match motion.end {
                End::Spot(end) => {
                    assert!(
                        course.graph.edges.contains_key(&end),
                        "{end:?} is not in the graph"
                    );
                    assert_eq!(
                        motion.touched.last(),
                        Some(&end),
                        "a motion ends where it lands"
                    );
                }
                End::Goal => assert_eq!(level.tile(*motion.touched.last().unwrap()), Tile::Goal),
            }
        }
    }
    for bear in Bear::BOTH {
        let reach = &course.reach[bear as usize];
        assert_eq!(reach.start, level.fall_from(level.starts[bear as usize]));
        let spots: BTreeSet<Pos> = course.graph.edges.keys().copied().collect();
        assert!(
            reach.spots.is_subset(&spots),
            "{} reaches spots outside the graph",
            bear.name()
        );
        assert!(reach.traps.is_sorted(), "traps are sorted");
        assert!(reach.traps.iter().all(|trap| reach.spots.contains(trap)));
        if !reach.goal {
            let every: Vec<Pos> = reach.spots.iter().copied().collect();
            assert_eq!(reach.traps, every, "without the goal every spot is a trap");
        }
        assert!(
            reach
                .snacks
                .iter()
                .all(|&snack| level.tile(snack) == Tile::Snack)
        );
    }
    let _ = course.reachability();
    for snack in course.unreachable_snacks() {
        if let Some(short) = course.shortfall(snack) {
            assert_eq!(short.collectible, [snack.0, snack.1]);
        }
    }
    // The level is won exactly when both bears can reach the goal.
    let outcome = search::solve(
        course,
        SearchOptions {
            algorithm: Algorithm::Bfs,
            limit: LIMIT,
        },
    );
    if outcome.status() != Status::Limit {
        let both = course.reach.iter().all(|reach| reach.goal);
        assert_eq!(
            outcome.status() == Status::Solved,
            both,
            "solve and reach disagree"
        );
    }
}
