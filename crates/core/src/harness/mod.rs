//! The level QA harness: every level of every game, checked against its
//! reviewed expectations, with bless and snapshot-style diffs.
//!
//! What a game gives it:
//!
//! * [`GameChecks`]: a game as the harness sees it, and [`main`], the
//!   `cargo test` front end that checks a folder of such games' levels.
//! * [`Check`]: one question asked of each level, answered with a
//!   [`Finding`]; [`ExpectationKey`]: the keys a check owns. A check asks
//!   its level's [`Subject`] for the parsed level, its [`Expectations`] and
//!   its solution.
//!
//! The rest is the runner's own (the command line reaches it through
//! `_cli_support`): `suite.rs` and `subject.rs` (the levels under test and
//! each check's verdict), `discover.rs` (the levels of a repository),
//! `expectations.rs`, `bless.rs` (every write: lock, re-read, temp file and
//! rename), `pending.rs` (what bless would write, kept for `puzzle-qa
//! review`), `renumber.rs` (tables that follow moved levels), `follow.rs`
//! (entries that follow a mechanic whose defining text was edited), `prune.rs`
//! (`bless --prune`), `diff.rs`, `settings.rs` and `env.rs` (the
//! environment, read in one place), `libtest.rs`.

pub(crate) mod bless;
mod check;
pub(crate) mod diff;
pub(crate) mod discover;
pub(crate) mod env;
mod expectations;
mod follow;
mod game_checks;
pub(crate) mod keys;
pub(crate) mod libtest;
pub(crate) mod pending;
pub(crate) mod prune;
pub(crate) mod renumber;
pub(crate) mod settings;
pub(crate) mod subject;
pub(crate) mod suite;

pub use check::{Check, Finding};
pub use discover::MANIFEST;
pub use expectations::Expectations;
pub use game_checks::GameChecks;
pub use keys::{ExpectationKey, Owner, ValueShape};
pub use libtest::main;
pub use subject::{MemoryFrom, Subject};
