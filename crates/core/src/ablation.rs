//! Ablation: is each mechanic of a level really needed? Re-solve a copy of
//! the level with the mechanic taken out and compare pars.
//!
//! Game-neutral: a game lists its mechanics and applies an ablation to its
//! parsed level ([`crate::game::Mechanics::mechanics`], [`crate::game::Mechanics::ablate`]);
//! this module solves the copies, in parallel, and classifies them.

use rayon::prelude::*;
use serde::Serialize;

use crate::game::{Ablation, Cost};
use crate::level::{AnyLevel, HangReport, Solution};
use crate::search::{SearchOptions, Status};

/// What taking a mechanic out of a level did to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The level cannot be won without it (or, without it, some move
    /// never settles: the copy has no par to compare).
    Essential,
    /// Still winnable without it, but only in more moves.
    Shortcut,
    /// Nothing changes: the par is the same without it.
    Decoration,
    /// The level gets shorter without it (usual for barriers: gates, cats).
    Obstacle,
    /// The search of the ablated copy stopped at a bound (its state limit,
    /// its memory budget): nobody knows.
    Unknown,
    /// Part of the goal: a win condition names it, so without it winning
    /// means something else ([`Ablation::goal`]); not searched.
    Goal,
}

impl Class {
    /// The class of an ablated copy whose search ended in `ablated`, for a
    /// level whose own par is `par` (`None`: unsolvable, an infinite par).
    /// The level's own search must have decided.
    ///
    /// ```
    /// use puzzle_qa_core::_cli_support::ablation::Class;
    /// assert_eq!(Class::of(Some(10), Some(12)), Class::Shortcut);
    /// assert_eq!(Class::of(Some(10), None), Class::Essential);
    /// assert_eq!(Class::of(None, Some(7)), Class::Obstacle);
    /// assert_eq!(Class::of(None, None), Class::Decoration);
    /// ```
    pub fn of(par: Option<Cost>, ablated: Option<Cost>) -> Class {
        match (par, ablated) {
            (Some(_), None) => Class::Essential,
            (None, None) => Class::Decoration,
            (None, Some(_)) => Class::Obstacle,
            (Some(par), Some(ablated)) if ablated > par => Class::Shortcut,
            (Some(par), Some(ablated)) if ablated < par => Class::Obstacle,
            (Some(_), Some(_)) => Class::Decoration,
        }
    }

    /// The class of an ablated copy's search result. A copy whose search
    /// met a move that never settles is essential, whatever its par: the
    /// level needs the mechanic to stay playable.
    pub fn of_solution(par: Option<Cost>, ablated: &Solution) -> Class {
        if ablated.hang.is_some() {
            return Class::Essential;
        }
        match ablated.status {
            Status::Limit => Class::Unknown,
            Status::Solved | Status::Unsolvable | Status::Hang => Class::of(par, ablated.par),
        }
    }

    /// A mechanic is needed unless it is decoration: tools come out
    /// essential or shortcut, barriers obstacle, and the goal is needed by
    /// definition. Unknown is not needed either: nothing was shown.
    pub fn needed(self) -> bool {
        matches!(
            self,
            Class::Essential | Class::Shortcut | Class::Obstacle | Class::Goal
        )
    }

    /// The name in expectation files and `--json` output.
    pub fn name(self) -> &'static str {
        match self {
            Class::Essential => "essential",
            Class::Shortcut => "shortcut",
            Class::Decoration => "decoration",
            Class::Obstacle => "obstacle",
            Class::Unknown => "unknown",
            Class::Goal => "goal",
        }
    }

    /// The class an expectation file names, if `name` is one.
    ///
    /// ```
    /// use puzzle_qa_core::_cli_support::ablation::Class;
    /// assert_eq!(Class::from_name("decoration"), Some(Class::Decoration));
    /// assert_eq!(Class::from_name("both"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Class> {
        [
            Class::Essential,
            Class::Shortcut,
            Class::Decoration,
            Class::Obstacle,
            Class::Unknown,
            Class::Goal,
        ]
        .into_iter()
        .find(|class| class.name() == name)
    }

    /// What the class means, in a few words, for reports.
    pub fn meaning(self) -> &'static str {
        match self {
            Class::Essential => "the level cannot be won without it",
            Class::Shortcut => "the level takes more moves without it",
            Class::Decoration => "the par is the same without it",
            Class::Obstacle => "the level gets shorter without it",
            Class::Unknown => "the search without it stopped at its state limit or memory budget",
            Class::Goal => "a win condition names it: without it, winning means something else",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One ablated copy, solved and classified.
#[derive(Clone, Debug)]
pub struct Ablated {
    /// What was taken out.
    pub ablation: Ablation,
    /// What taking it out did, against the level's own par.
    pub class: Class,
    /// The search of the ablated copy (for an idle mechanic, none was
    /// needed: the level's own result, with no statistics; for one of the
    /// goal, none was made: the level's own status, with no par).
    pub solution: Solution,
    /// The mechanic takes no part in play anywhere in the level's
    /// reachable space ([`AnyLevel::idle`]): decoration, with no search.
    pub idle: bool,
}

/// Applies each of `ablations` to `level`, solves the copies in parallel
/// with `options`, and classifies each against `par`, the level's own par
/// (`None` if it is unsolvable). The results keep the order of `ablations`.
/// A mechanic the level says is idle ([`AnyLevel::idle`], asked once for
/// the whole level) is decoration without a search; one that is part of
/// the goal ([`Ablation::goal`]) is `goal`, without a search either.
/// `Err`: that exploration met a move of the level itself that never
/// settles, so no copy is classed against it.
pub fn run(
    level: &dyn AnyLevel,
    par: Option<Cost>,
    ablations: Vec<Ablation>,
    options: SearchOptions,
) -> Result<Vec<Ablated>, HangReport> {
    let everywhere = ablations.iter().any(|ablation| ablation.at.is_none());
    let idle = match everywhere.then(|| level.idle(options.budget())).flatten() {
        Some(idle) => idle?,
        None => Vec::new(),
    };
    let results = ablations
        .into_par_iter()
        .map(|ablation| {
            if ablation.goal {
                return Ablated {
                    class: Class::Goal,
                    ablation,
                    solution: Solution {
                        status: if par.is_some() {
                            Status::Solved
                        } else {
                            Status::Unsolvable
                        },
                        par: None,
                        stats: Default::default(),
                        moves: None,
                        hang: None,
                        reached: None,
                        budget: options.budget(),
                    },
                    idle: false,
                };
            }
            if ablation.at.is_none() && idle.iter().any(|name| *name == ablation.mechanic) {
                let status = if par.is_some() {
                    Status::Solved
                } else {
                    Status::Unsolvable
                };
                let solution = Solution {
                    status,
                    par,
                    stats: Default::default(),
                    moves: None,
                    hang: None,
                    reached: None,
                    budget: options.budget(),
                };
                return Ablated {
                    class: Class::Decoration,
                    ablation,
                    solution,
                    idle: true,
                };
            }
            let solution = level.ablated(&ablation).solve(options);
            Ablated {
                class: Class::of_solution(par, &solution),
                ablation,
                solution,
                idle: false,
            }
        })
        .collect();
    Ok(results)
}

impl Ablated {
    /// What was taken out: "`cushion` (replaced by wall)", or
    /// "the `jar` at (3, 6) (replaced by wall)".
    pub fn what(&self) -> String {
        let ablation = &self.ablation;
        match ablation.at {
            None => format!(
                "{} (replaced by {})",
                ablation.shown(),
                ablation.replacement
            ),
            Some((row, col)) => format!(
                "the `{}` at ({row}, {col}) (replaced by {})",
                ablation.mechanic, ablation.replacement
            ),
        }
    }

    /// What taking it out did, against the level's own `par`: "the par is
    /// still 23", "par 14 → 18", "the level cannot be won".
    pub fn effect(&self, par: Option<Cost>) -> String {
        if self.idle {
            return "nothing changes: it is dead on this level (it takes part in no state the \
                    level can reach)"
                .to_string();
        }
        if let Some(hang) = &self.solution.hang {
            return format!(
                "a move never settles, reached by `{}`: {}",
                hang.moves, hang.reason
            );
        }
        match (self.class, par, self.solution.par) {
            (Class::Goal, _, _) => "winning would mean something else: a win condition names \
                                    it, so it is not taken out"
                .to_string(),
            (Class::Unknown, _, _) => {
                format!("the search stopped at {}", self.solution.stopped_at())
            }
            (Class::Essential, _, _) => "the level cannot be won".to_string(),
            (Class::Decoration, None, _) => "the level is still unsolvable".to_string(),
            (Class::Obstacle, None, Some(ablated)) => {
                format!("the level becomes solvable, par {ablated}")
            }
            (_, Some(par), Some(ablated)) if ablated == par => format!("the par is still {par}"),
            (_, Some(par), Some(ablated)) => format!("par {par} → {ablated}"),
            _ => self.class.meaning().to_string(),
        }
    }
}
