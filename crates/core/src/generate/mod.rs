//! The level generator: the solver run in reverse.
//!
//! Random levels within a size bound are solved; the solvable ones are
//! mutated, and the fittest (`fitness.rs`) survive, generation after
//! generation, until a level meets the [`Target`] or the budget runs out.
//!
//! Game-neutral: a game offers a [`Generator`] (random levels, and small
//! changes to a level, in its crate's `mutate.rs`), registered beside its
//! [`GameChecks`](crate::harness::GameChecks). Everything else, from solving
//! to judging mechanics by ablation, goes through the game's level file text
//! and [`GameChecks::load`](crate::harness::GameChecks::load), so what the
//! loop keeps is exactly what the level file will say.
//!
//! * `evolve.rs`: the loop (population, selection, the budget, determinism).
//! * `fitness.rs`: solving and ablating a candidate; what makes one better.
//! * `output.rs`: writing the level file and its expectations.

pub(crate) mod evolve;
pub(crate) mod fitness;
pub(crate) mod output;

use crate::game::Cost;

/// The generator's random numbers: seeded, so a run can be repeated.
pub type Rng = fastrand::Rng;

/// What a generated level must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The par the level must reach.
    pub min_par: Cost,
    /// The grid's size bound, in cells.
    pub width: usize,
    /// The grid's height, in cells; `width` is the other half of the size
    /// bound.
    pub height: usize,
    /// The mechanic kinds the generator may place, by the names
    /// [`crate::game::Mechanics::mechanics`] reports.
    pub mechanics: Vec<&'static str>,
    /// At least this many distinct mechanic kinds in the level.
    pub min_mechanics: usize,
    /// Every mechanic in the level must be needed (not decoration, not
    /// unknown) by the ablation check.
    pub require_needed: bool,
}

/// A game's level maker. Implementations live in the game's folder.
pub trait Generator: Sync {
    /// Every mechanic kind this generator can place, by the names the game's
    /// ablation reports (`Mechanics::mechanics`).
    fn mechanics(&self) -> &'static [&'static str];

    /// The size used when the user names none (the game's usual size).
    fn default_size(&self) -> (usize, usize);

    /// The largest size the game's level format and state encoding accept
    /// from this generator.
    fn max_size(&self) -> (usize, usize);

    /// A random level of `target`'s size with only the mechanics it allows.
    /// It need not be solvable: the loop keeps only the ones that are.
    fn random(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate>;
}

/// A level under construction: it can be written out and changed a little.
pub trait Candidate: Send + Sync {
    /// A copy with one small random change (moving a wall, a start, a
    /// switch…), within `target`'s size and mechanics.
    fn mutate(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate>;

    /// The level file, in the game's own format, starting with the given
    /// `key: value` header lines (none while the loop is evaluating it).
    fn level_text(&self, header: &[(&str, &str)]) -> String;
}

/// Applies one random change to a draft: `change` is tried until it
/// reports that it applied (some changes do not fit a given level, such as
/// moving a switch in a level without one), at most 32 times.
pub fn change_once(mut change: impl FnMut() -> bool) {
    for _ in 0..32 {
        if change() {
            return;
        }
    }
}

/// `key: value` header lines, as the built-in games' level files start.
pub fn header_lines(header: &[(&str, &str)]) -> String {
    header
        .iter()
        .map(|(key, value)| format!("{key}: {value}\n"))
        .collect()
}
