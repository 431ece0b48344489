//! Judging one candidate: solve it, ablate each of its mechanics, and rank
//! it. Fitness is par first, then search effort (states expanded: a level
//! whose par is the same but whose space is larger has more wrong turns),
//! with penalties for mechanics that are decoration and for kinds missing.

use std::borrow::Cow;
use std::sync::Arc;

use crate::ablation::{self, Class};
use crate::game::Cost;
use crate::harness::GameChecks;
use crate::search::{Algorithm, Budget, SearchOptions};

use super::{Candidate, Target};

/// What one unneeded mechanic costs, in moves of par, when the target
/// requires every mechanic to be needed. It must be below
/// [`MISSING_PENALTY`]: a mechanic that is decoration when first placed is
/// then still worth keeping (it counts towards the kinds), and a later
/// mutation can make it needed.
pub(super) const DECORATION_PENALTY: i64 = 12;
/// What one unneeded mechanic costs when the target does not require
/// needed mechanics: enough to keep levels free of clutter.
pub(super) const CLUTTER_PENALTY: i64 = 2;
/// What each mechanic kind below the target's minimum costs.
pub(super) const MISSING_PENALTY: i64 = 24;

/// A candidate's rank: higher is better. Ordered by score (par minus
/// penalties), then states expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fitness {
    /// The par minus the penalties.
    pub score: i64,
    /// States the search expanded; on equal scores more ranks higher (more
    /// wrong turns).
    pub expanded: u64,
}

/// A solvable candidate, solved and judged.
#[derive(Clone)]
pub struct Evaluated {
    /// The candidate itself, to mutate further.
    pub candidate: Arc<dyn Candidate>,
    /// Its par: the fewest moves that win.
    pub par: Cost,
    /// States its search expanded.
    pub expanded: u64,
    /// Each mechanic present and its ablation class, in the game's order;
    /// `None` when the candidate was not worth ablating (its par could not
    /// have made a difference).
    pub mechanics: Option<Vec<(Cow<'static, str>, Class)>>,
    /// Its rank among the candidates.
    pub fitness: Fitness,
}

impl Evaluated {
    /// Each mechanic and its class; empty if the level was not ablated.
    pub fn classes(&self) -> &[(Cow<'static, str>, Class)] {
        self.mechanics.as_deref().unwrap_or_default()
    }

    /// Whether the level has the kinds the target asks for, each needed if
    /// the target requires it (everything but the par).
    pub fn meets_shape(&self, target: &Target) -> bool {
        self.mechanics.as_deref().is_some_and(|mechanics| {
            mechanics.len() >= target.min_mechanics
                && (!target.require_needed || unneeded(mechanics) == 0)
        })
    }

    /// Whether the level meets the whole target.
    pub fn meets(&self, target: &Target) -> bool {
        self.meets_shape(target) && self.par >= target.min_par
    }
}

/// The mechanics that are not needed (decoration or unknown).
fn unneeded(mechanics: &[(Cow<'static, str>, Class)]) -> usize {
    mechanics
        .iter()
        .filter(|(_, class)| !class.needed())
        .count()
}

/// The score of a level with `par` whose mechanics are judged: par minus
/// the penalties. `kinds` is how many mechanics it has: `Mechanics::mechanics`
/// lists each kind present once.
fn score(par: Cost, kinds: usize, unneeded: usize, target: &Target) -> i64 {
    let per_unneeded = if target.require_needed {
        DECORATION_PENALTY
    } else {
        CLUTTER_PENALTY
    };
    let missing = target.min_mechanics.saturating_sub(kinds);
    i64::from(par) - per_unneeded * unneeded as i64 - MISSING_PENALTY * missing as i64
}

/// Solves `candidate`, whose level file (without a header) is `text`, as a
/// `game` level and judges it, or `None` if it does
/// not load, is not solvable, has a move that never settles, or its search
/// (or an ablated copy's) reaches a bound of `bounds`.
///
/// Ablation is the expensive part, so it is skipped when even a perfect
/// verdict (no penalty at all) could not reach `worth_ablating`: such a
/// candidate keeps its optimistic fitness, which is below the bar anyway.
pub(super) fn evaluate(
    game: &GameChecks,
    candidate: Box<dyn Candidate>,
    text: String,
    target: &Target,
    bounds: Budget,
    worth_ablating: Fitness,
) -> Option<Evaluated> {
    let loaded = (game.load)(&text).ok()?;
    let level = loaded.level;
    let options = SearchOptions {
        algorithm: Algorithm::Bfs,
        limit: bounds.states,
        memory: bounds.bytes,
    };
    let solution = level.solve(options);
    if solution.hang.is_some() {
        return None;
    }
    let par = solution.par?;
    let expanded = solution.stats.expanded;
    let optimistic = Fitness {
        score: score(par, usize::MAX, 0, target),
        expanded,
    };
    let mut evaluated = Evaluated {
        candidate: Arc::from(candidate),
        par,
        expanded,
        mechanics: None,
        fitness: optimistic,
    };
    if optimistic < worth_ablating {
        return Some(evaluated);
    }
    let ablated = ablation::run(&*level, Some(par), level.mechanics(), options).ok()?;
    if ablated.iter().any(|copy| copy.class == Class::Unknown) {
        return None;
    }
    let mechanics: Vec<(Cow<'static, str>, Class)> = ablated
        .iter()
        .map(|copy| (copy.ablation.mechanic.clone(), copy.class))
        .collect();
    evaluated.fitness = Fitness {
        score: score(par, mechanics.len(), unneeded(&mechanics), target),
        expanded,
    };
    evaluated.mechanics = Some(mechanics);
    Some(evaluated)
}
