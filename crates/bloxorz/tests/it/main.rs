//! Bloxorz's integration tests, one binary: the level reader (`level`), the
//! engine against the published solutions (`published`), and the solvers
//! and the A* bound on random and official levels (`search`). The official
//! levels are the crate's pristine copies in `tests/fixtures/official/`,
//! never the designers' `levels/`.

mod level;
mod published;
mod search;

use bloxorz::Level;
use bloxorz::parse;

/// The crate's copy of official level `number` (1 to 33), as its path and text.
fn official_file(number: u32) -> (String, String) {
    let path = format!(
        "{}/tests/fixtures/official/level{number:02}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    (path, text)
}

/// Official level `number`, parsed.
fn official(number: u32) -> Level {
    let (path, text) = official_file(number);
    parse(&text)
        .unwrap_or_else(|e| panic!("{}", e.render(&path, &text)))
        .0
}
