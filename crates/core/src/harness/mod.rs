//! The level QA harness: every level of every game, checked against its
//! reviewed expectations, with bless and snapshot-style diffs.
//!
//! * [`check`]: the [`Check`] trait games list their checks with, and the
//!   keys each check owns.
//! * [`subject`]: one level under test, its shared solve, its verdicts.
//! * [`suite`]: a set of levels; [`libtest`]: the `cargo test` front end.
//! * [`expectations`]: reading and editing expectation files;
//!   [`bless`]: writing them safely; [`diff`]: showing what would change.
//! * [`discover`]: finding levels and orphans; [`settings`] and `env`: how
//!   the runner behaves, read from the environment in one place.

pub mod bless;
pub mod check;
pub mod diff;
pub mod discover;
mod env;
pub mod expectations;
mod game_checks;
pub mod libtest;
pub mod settings;
pub mod subject;
pub mod suite;

pub use check::{Check, ExpectationKey, Finding, HARNESS_KEYS, Owner, Shape};
pub use discover::LevelEntry;
pub use expectations::Expectations;
pub use game_checks::GameChecks;
pub use libtest::{main, run};
pub use settings::{Frontend, Settings};
pub use subject::{Source, Subject, Verdict};
pub use suite::{ORPHANS, Suite, Work, afterword, trial_name};
