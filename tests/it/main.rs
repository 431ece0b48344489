//! The root package's integration tests, one binary (one link, not one per
//! file): a module per subject. The level suite is its own `harness = false`
//! target, `tests/levels.rs`, and the one test that reads the designers'
//! `levels/` and `expectations/`; these tests read only their own fixtures
//! (`tests/fixtures/`) or make their own projects (`support::Project`).
//! Snapshots live in `tests/it/snapshots/`.

mod support;

mod ablation;
mod bad_input;
mod bless;
mod browser;
mod cli;
mod designer_repo;
mod devtools;
mod generate;
mod guide;
mod hang;
mod harness;
mod many_levels;
mod memory;
mod pictures;
mod protocol;
mod puzzlescript;
mod report;
mod review;
mod rule_names;
mod runaway;
mod snackrun;
mod sokoban;
mod standalone;
mod threads;
mod watch;
mod watch_page;
mod workflow;
mod workspace;
