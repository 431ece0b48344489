//! `solvable`, `par` and `replay`: what the shared search found, held
//! against the machine-owned `status`, `par` and `solution`.

use super::{hang_problem, play, raise_hint};
use crate::harness::{Check, ExpectationKey, Finding, Subject, ValueShape};
use crate::level::Solution;
use crate::search::Status;

/// The `solvable` check: whether the search proved the level solved or
/// unsolvable, against `status`.
pub struct Solvable;

impl Check for Solvable {
    fn name(&self) -> &'static str {
        "solvable"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            "status",
            "\"solved\" or \"unsolvable\": what the search proved (\"hang\" when it found no win \
             and a move never settles; \"random\" or \"realtime\" for a level that has no par)",
        )
        .shaped(ValueShape::String)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        if let Some(no_par) = subject.level()?.no_par() {
            return Ok(Finding::pass()
                .expect("status", no_par.status)
                .note(no_par.note));
        }
        let solution = subject.solution()?;
        // A move that never settles fails the check whatever else the
        // search found: bless cannot make the game settle.
        let hang = solution
            .hang
            .as_ref()
            .map(|hang| hang_problem(subject, hang));
        match solution.status {
            Status::Limit => Err(format!(
                "the search stopped at {} without finding a win or proving there is none\n{}{}",
                solution.stopped_at(),
                raise_hint(subject, solution),
                hang.map_or(String::new(), |hang| format!("\n\n{hang}"))
            )),
            Status::Solved => Ok(hang
                .into_iter()
                .fold(Finding::pass().expect("status", "solved"), Finding::problem)),
            Status::Hang => Ok(Finding::pass().expect("status", "hang").problem(format!(
                "{}\nno win was found among the moves that settle ({} states explored); the level \
                 is not called unsolvable while a move stands in the way that never settles",
                hang.unwrap_or_default(),
                solution.stats.stored
            ))),
            Status::Unsolvable => Ok(Finding::pass().expect("status", "unsolvable").note(format!(
                "no sequence of moves wins this level ({} states explored)",
                solution.stats.stored
            ))),
        }
    }
}

/// The `par` check: the solver's optimum, against `par`.
pub struct Par;

impl Check for Par {
    fn name(&self) -> &'static str {
        "par"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] =
            &[
                ExpectationKey::machine("par", "the fewest moves that win, as the solver proved")
                    .shaped(ValueShape::Integer),
            ];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        if subject.level()?.no_par().is_some() {
            return Ok(Finding::pass().expect("par", None::<u32>));
        }
        let solution = decided(subject, self.name())?;
        let finding = Finding::pass().expect("par", solution.par);
        let declared = subject.expectations()?.value::<i64>("par");
        Ok(match (declared, solution.par) {
            (Some(declared), Some(par)) if declared != i64::from(par) => {
                let par = i64::from(par);
                let change = if par < declared {
                    format!("{} fewer: a shortcut", declared - par)
                } else {
                    format!("{} more: the level got harder", par - declared)
                };
                finding.note(format!(
                    "the solver's par is {par}; the expectations say {declared} ({change})"
                ))
            }
            _ => finding,
        })
    }
}

/// The `replay` check: the solver's own path wins at par through the rules,
/// and the stored `solution` still does.
pub struct Replay;

impl Check for Replay {
    fn name(&self) -> &'static str {
        "replay"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            "solution",
            "one optimal solution, kept while it still wins at par",
        )
        .shaped(ValueShape::String)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let level = subject.level()?;
        if level.no_par().is_some() {
            return Ok(Finding::pass().expect("solution", None::<&str>));
        }
        let solution = decided(subject, self.name())?;
        let (Some(par), Some(moves)) = (solution.par, solution.moves.as_deref()) else {
            return Ok(Finding::pass().expect("solution", None::<&str>));
        };
        // The solver is checked too: its path, printed and read back, must
        // win through the rules at exactly the cost it claims.
        let replayed = level.replay_text(moves).map_err(|error| {
            format!(
                "the solver's own solution does not read back (column {}: {}): a bug in the \
                     game's notation\n  solution: {moves}",
                error.column, error.message
            )
        })?;
        if !replayed.won || replayed.moves != par {
            return Err(format!(
                "the solver's own solution does not win at its par {par} when replayed \
                 (won: {}, moves: {}, {}): a bug in the solver or the rules\n  solution: {moves}",
                replayed.won,
                replayed.moves,
                replayed.reason.as_deref().unwrap_or("no refusal")
            ));
        }
        // A stored solution stays while it still wins at par, so a solver
        // that breaks ties differently never churns the files.
        let stored = subject.expectations()?.value::<String>("solution");
        let mut finding = Finding::pass();
        let kept = stored.filter(|stored| match play(level, stored) {
            Ok(cost) if cost == par => true,
            Ok(cost) => {
                finding.notes.push(format!(
                    "the stored solution wins in {cost} moves, not at par {par}"
                ));
                false
            }
            Err(why) => {
                finding.notes.push(format!("the stored solution {why}"));
                false
            }
        });
        Ok(finding.expect("solution", kept.as_deref().unwrap_or(moves)))
    }
}

/// The shared solution, unless the search could not decide: then there is
/// nothing for `check` to compare, and `solvable` says why.
fn decided<'a>(subject: &'a Subject, check: &str) -> Result<&'a Solution, String> {
    let solution = subject.solution()?;
    if solution.status == Status::Limit {
        return Err(format!(
            "cannot check {check}: the search stopped at {}; see `{}`",
            solution.bound_words(),
            subject.entry().trial("solvable")
        ));
    }
    Ok(solution)
}
