//! A Sokoban level suite on puzzle-qa's harness, the way a downstream crate
//! would write its `tests/levels.rs`: name the games, point at the folder
//! holding `levels/` and `expectations/`, call the runner.
//!
//! `cargo test --example sokoban` runs it (and plain `cargo test` does too);
//! `BLESS=1 cargo test --example sokoban` accepts new pars.

mod sokoban;

use puzzle_qa_core::checks::SEARCH;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Many;

/// Sokoban: `.xsb` files, each a collection of levels.
const SOKOBAN: GameChecks = GameChecks::new("sokoban", "xsb", &sokoban::load, SEARCH)
    .with_many(Many::new(sokoban::count, sokoban::load_many));

static GAMES: &[GameChecks] = &[SOKOBAN];

fn main() -> std::process::ExitCode {
    puzzle_qa_core::harness::main(env!("CARGO_MANIFEST_DIR"), "examples/sokoban", GAMES)
}
