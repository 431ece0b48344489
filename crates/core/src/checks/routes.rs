//! `routes`: each designer-recorded route (`[[routes]]` in the expectation
//! file) still wins; none wins below par (that would be a solver bug); one
//! above par is reported, and fails only when marked `optimal = true`.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::play;
use crate::harness::{Check, ExpectationKey, Finding, Subject, ValueShape};
use crate::search::Status;

/// The `routes` check: each designer-recorded route still wins, and none
/// wins below par.
pub struct Routes;

/// A designer-recorded solution.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The route's name, unique within the level.
    pub name: String,
    /// The moves, in the game's notation.
    pub moves: String,
    /// The designer claims this route is optimal: above par fails.
    #[serde(default)]
    pub optimal: bool,
    /// For a game with randomness: the generator's seed the route was
    /// played with.
    pub seed: Option<String>,
}

#[derive(Deserialize)]
struct RouteFields {
    #[serde(default)]
    routes: Vec<Route>,
}

impl Check for Routes {
    fn name(&self) -> &'static str {
        "routes"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::designer(
            "routes",
            "[[routes]] name, moves, optimal, seed: solutions people recorded",
        )
        .shaped(ValueShape::ArrayOfTables)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        // A level that does not load cannot be said to keep its routes, even
        // when it has none: the check fails and points at `parse`.
        let level = subject.level()?;
        let routes = subject.expectations()?.read::<RouteFields>()?.routes;
        if routes.is_empty() {
            return Ok(Finding::pass());
        }
        // A level with no par has no search to hold its routes against.
        let solution = match level.no_par() {
            Some(_) => None,
            None => Some(subject.solution()?),
        };
        let mut problems = Vec::new();
        let mut finding = Finding::pass();
        let mut names = BTreeSet::new();
        for route in &routes {
            let name = &route.name;
            if !names.insert(name.as_str()) {
                problems.push(format!(
                    "two routes are named `{name}`; names must be unique"
                ));
                continue;
            }
            let seeded = match &route.seed {
                None => None,
                Some(seed) => match level.reseeded(seed) {
                    Some(seeded) => Some(seeded),
                    None => {
                        problems.push(format!(
                            "route `{name}` has a `seed`, but this game has no random generator \
                             to seed; drop it"
                        ));
                        continue;
                    }
                },
            };
            let moves = match play(seeded.as_deref().unwrap_or(level), &route.moves) {
                Ok(moves) => moves,
                Err(why) => {
                    problems.push(format!("route `{name}` {why}"));
                    continue;
                }
            };
            let Some(solution) = solution else { continue };
            match (solution.status, solution.par) {
                (Status::Solved, Some(par)) if moves < par => problems.push(format!(
                    "route `{name}` wins in {} moves, below the solver's par {par}: the solver \
                     missed a shorter win. This is a bug in puzzle-qa or in the game's rules; \
                     please report it with this level",
                    moves
                )),
                (Status::Solved, Some(par)) if moves > par => {
                    let above = moves - par;
                    let plural = if above == 1 { "" } else { "s" };
                    let text = format!("route `{name}` is {above} move{plural} above par ({par})");
                    if route.optimal {
                        problems.push(format!(
                            "{text}, but it is marked `optimal = true`; record a par solution, or \
                             drop the mark"
                        ));
                    } else {
                        finding = finding.note(text);
                    }
                }
                (Status::Unsolvable, _) => problems.push(format!(
                    "route `{name}` wins, but the solver says the level is unsolvable: a bug in \
                     puzzle-qa or in the game's rules; please report it with this level"
                )),
                // Every move of a route settles, so the search must have
                // found its win past any hang.
                (Status::Hang, _) => problems.push(format!(
                    "route `{name}` wins, but the solver found no win among the moves that \
                     settle: a bug in puzzle-qa or in the game's rules; please report it with \
                     this level"
                )),
                _ => {}
            }
        }
        if problems.is_empty() {
            Ok(finding)
        } else {
            problems.extend(finding.notes);
            Err(problems.join("\n"))
        }
    }
}
