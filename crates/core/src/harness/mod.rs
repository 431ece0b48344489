//! The level QA harness: every level of every game, checked against its
//! reviewed expectations, with bless and snapshot-style diffs.
//!
//! * [`GameChecks`]: a game as the harness sees it; [`Check`]: one question
//!   asked of each level, answered with a [`Finding`];
//!   [`ExpectationKey`]: the keys a check owns.
//! * [`Subject`]: one level under test, its shared solve, its [`Verdict`]s;
//!   [`Suite`]: a set of levels; [`main`]: the `cargo test` front end.
//! * [`Expectations`]: reading an expectation file; bless writes it through
//!   [`replace_whole`], and a diff shows what it would change.
//! * Pending expectations (`pending.rs`): what bless would write, kept for
//!   `puzzle-qa review` ([`pending_path`], [`accept`], [`reject`]).
//! * `bless --prune` (`prune.rs`): deleting the expectations of no level
//!   ([`prune_files`], [`prune_tables`]).
//! * [`Settings`]: how the runner behaves, read from the environment in one
//!   place (`env.rs`).

mod bless;
mod check;
mod diff;
mod discover;
mod env;
mod expectations;
mod game_checks;
mod keys;
mod libtest;
mod pending;
mod prune;
mod renumber;
mod settings;
mod subject;
mod suite;

pub use bless::replace_whole;
pub use check::{Check, Finding};
pub use diff::unified;
pub use discover::{LevelEntry, MANIFEST, levels, orphan_expectations};
pub use env::{PENDING_DIR, UPDATE};
pub use expectations::Expectations;
pub use game_checks::GameChecks;
pub use keys::{ExpectationKey, FINGERPRINT, HARNESS_KEYS, Owner, ValueShape};
pub use libtest::{main, run};
pub use pending::{
    SUFFIX as PENDING_SUFFIX, accept, orphan_pending, pending_path, proposal, reject,
};
pub use prune::{Pruned, prune_files, prune_tables};
pub use renumber::{Renumbering, tables_taken};
pub use settings::{Frontend, PendingPlace, Settings, shell_word};
pub use subject::{LevelFile, Subject, Verdict};
pub use suite::{ORPHANS, Suite, afterword};
