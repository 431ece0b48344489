//! The engine against what the sources report about the article's example
//! level (the crate's copy, `tests/fixtures/levels/17-article-example.txt`,
//! the grid copied verbatim): the article says its hardest level, "the one
//! with two honey jars and two plates", explores "about half a million"
//! states; the rulebook says its par is 27 and its largest ablated copy
//! stores "about 856,000".

use hugmaze::parse;
use puzzle_qa_core::_cli_support::ablation;
use puzzle_qa_core::game::{Game, Mechanics};
use puzzle_qa_core::search::{Algorithm, DEFAULT_STATE_LIMIT, SearchOptions, bfs};

fn article() -> hugmaze::Level {
    let text = include_str!("../fixtures/levels/17-article-example.txt");
    parse(text).expect("the article's level parses").0
}

/// Within `percent` of `expected`.
fn near(found: u64, expected: u64, percent: u64) -> bool {
    found.abs_diff(expected) * 100 <= expected * percent
}

#[test]
fn the_article_level_has_par_27_after_about_half_a_million_states() {
    let level = article();
    let outcome = bfs(&level, DEFAULT_STATE_LIMIT);
    assert_eq!(outcome.par(), Some(27));
    let stored = outcome.stats().stored;
    assert!(near(stored, 500_000, 10), "{stored} states stored");
    let moves = outcome.path().unwrap();
    let replayed = puzzle_qa_core::replay::replay(&level, moves);
    assert!(replayed.won && replayed.cost == 27);
    assert_eq!(level.format_moves(moves).split(' ').count(), 27);
}

#[test]
fn its_largest_ablated_copy_stores_about_856_000_states() {
    let level = article();
    let options = SearchOptions {
        algorithm: Algorithm::Bfs,
        limit: DEFAULT_STATE_LIMIT,
        memory: puzzle_qa_core::search::DEFAULT_MEMORY,
    };
    let results = ablation::run(&level, Some(27), level.mechanics(), options)
        .expect("no move of the level hangs");
    let largest = results
        .iter()
        .map(|result| result.solution.stats.stored)
        .max()
        .unwrap();
    assert!(near(largest, 856_000, 1), "{largest} states stored");
}
