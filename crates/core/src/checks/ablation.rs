//! `ablation`: each mechanic present in the level is taken out in turn and
//! the copy re-solved; the class each comes out as (essential, shortcut,
//! decoration, obstacle, goal) is held against the machine-owned `[mechanics]`.

use std::collections::BTreeMap;

use super::{hang_problem, raise_hint};
use crate::ablation::{self, Ablated, Class};
use crate::diagnostic::nearest;
use crate::harness::{Check, ExpectationKey, Finding, Subject, ValueShape};
use crate::search::{Algorithm, SearchOptions, Status};

/// The `ablation` check: takes each mechanic out in turn, re-solves the
/// copy, and holds the classes against `[mechanics]`.
pub struct Ablations;

impl Check for Ablations {
    fn name(&self) -> &'static str {
        "ablation"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            "mechanics",
            "a table: each mechanic's class when it is taken out (essential, shortcut, \
             decoration, obstacle, goal)",
        )
        .shaped(ValueShape::Table)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        if let Some(no_par) = subject.level()?.no_par() {
            return Ok(Finding::pass()
                .note(format!("no ablation: {}", no_par.note))
                .expect_table("mechanics", Vec::<(&str, &str)>::new()));
        }
        let solution = subject.solution()?;
        if solution.status == Status::Limit {
            return Err(format!(
                "class unknown for every mechanic: the level's own search stopped at {}, so its \
                 ablations were skipped; see `{}`",
                solution.bound_words(),
                subject.entry().trial("solvable")
            ));
        }
        if solution.hang.is_some() {
            // No copy can be held against a level that is itself broken;
            // `solvable` tells the hang, once.
            return Err(format!(
                "no classes: a move of the level itself never settles (see `{}`), so no copy \
                 without a mechanic can be held against it",
                subject.entry().trial("solvable")
            ));
        }
        let level = subject.level()?;
        let mechanics = level.mechanics();
        if mechanics.is_empty() {
            // Nothing to ablate: no `[mechanics]` table (bless removes a
            // stale one).
            return Ok(Finding::pass().expect_table("mechanics", Vec::<(&str, &str)>::new()));
        }
        let budget = subject.budget()?;
        let options = SearchOptions {
            algorithm: Algorithm::Bfs,
            limit: budget.states,
            memory: budget.bytes,
        };
        let results = match ablation::run(level, solution.par, mechanics, options) {
            Ok(results) => results,
            // Met past the search's first win, by the exploration that
            // finds dead mechanics: told here, once.
            Err(hang) => {
                let problem = hang_problem(subject, &hang);
                subject.record_hang(hang);
                return Err(format!(
                    "{problem}\n(met beyond the first win, exploring every state the level can \
                     reach)\nno classes: no copy without a mechanic can be held against a level \
                     that is itself broken"
                ));
            }
        };

        let unknown: Vec<&Ablated> = results
            .iter()
            .filter(|result| result.class == Class::Unknown)
            .collect();
        if let Some(first) = unknown.first() {
            let lines: Vec<String> = unknown
                .iter()
                .map(|result| format!("  {}: {}", result.what(), result.effect(solution.par)))
                .collect();
            return Err(format!(
                "class unknown: the search of an ablated copy stopped at {} without \
                 deciding\n{}\n{}",
                first.solution.bound_words(),
                lines.join("\n"),
                raise_hint(subject, &first.solution)
            ));
        }

        let declared = subject
            .expectations()?
            .value::<BTreeMap<String, String>>("mechanics")
            .unwrap_or_default();
        let mut finding = Finding::pass();
        let named = |keep: fn(&Ablated) -> bool| -> Vec<String> {
            results
                .iter()
                .filter(|result| keep(result))
                .map(|result| result.ablation.shown())
                .collect()
        };
        subject.record_idle(named(|result| result.idle));
        subject.record_goal(named(|result| result.class == Class::Goal));
        // One note per finding: a class that differs from the file's says
        // why (a dead mechanic's, that it is dead); a dead mechanic whose
        // class agrees is still worth a word. The goal is said once for
        // the file (`orphans`).
        for result in &results {
            let mechanic = &result.ablation.mechanic;
            let expected = declared.get(mechanic.as_ref()).map(String::as_str);
            if expected != Some(result.class.name()) {
                let was = expected.map_or("not declared yet".to_string(), |class| {
                    format!("declared {class}")
                });
                finding.notes.push(format!(
                    "{} is {} ({was}): without it, {}",
                    result.ablation.shown(),
                    result.class,
                    result.effect(solution.par)
                ));
            } else if result.idle {
                finding.notes.push(format!(
                    "{} is dead on this level: it takes part in no state the level can reach",
                    result.ablation.shown()
                ));
            } else if result.solution.hang.is_some() {
                // Essential for a reason the class alone does not tell.
                finding.notes.push(format!(
                    "{} is {}: without it, {}",
                    result.ablation.shown(),
                    result.class,
                    result.effect(solution.par)
                ));
            }
        }
        let present: Vec<&str> = results
            .iter()
            .map(|result| result.ablation.mechanic.as_ref())
            .collect();
        for mechanic in declared.keys() {
            if present.contains(&mechanic.as_str()) {
                continue;
            }
            let note = match nearest(mechanic, &present) {
                Some(near) => format!(
                    "`{mechanic}` is declared, but the level has no mechanic of that name: did \
                     you mean `{near}`?"
                ),
                None => format!("`{mechanic}` is declared, but the level has none any more"),
            };
            finding.notes.push(note);
        }
        let classes = results
            .iter()
            .map(|result| (result.ablation.mechanic.as_ref(), result.class.name()));
        Ok(finding.expect_table("mechanics", classes))
    }
}
