//! Snack Run's checks, run by the same harness as every game's: they read
//! the level through [`Course`] and report machine values (bless writes
//! them, a change is a diff) and problems (failures bless cannot fix).
//!
//! | check | fails when | owns |
//! |---|---|---|
//! | `goal` | a bear cannot reach the goal | `goal` (machine) |
//! | `snacks` | a snack is out of reach (of every bear, or of one under `snacks: each`) and not in `allow_unreachable` | `snacks` (machine), `allow_unreachable` (designer) |
//! | `traps` | a reachable spot loses the goal and is not in `allow_traps` | `traps` (machine), `allow_traps` (designer) |
//! | `ablation` | never by itself: it records what each mechanic's removal loses | `lost_without` (machine) |
//!
//! Unreachable snacks and traps are bugs, so only a designer's allowance
//! excuses one: bless writes what the check found, never an allowance.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::course::Course;
use super::level::Bear;
use super::physics::{JUMP_RISE, SPRING_RISE};
use puzzle_qa_core::checks::Parse;
use puzzle_qa_core::game::{Mechanics, Reachable};
use puzzle_qa_core::harness::{Check, ExpectationKey, Finding, Subject, ValueShape};

/// Snack Run's checks, in trial order.
pub(crate) static CHECKS: &[&dyn Check] = &[&Parse, &Goal, &Snacks, &Traps, &Ablation];

fn course(subject: &Subject) -> Result<&Course, String> {
    subject
        .level()?
        .as_any()
        .downcast_ref::<Course>()
        .ok_or_else(|| "a Snack Run check ran on a level of another game".to_string())
}

/// The designer's allowances.
#[derive(Default, Deserialize)]
struct Allowed {
    #[serde(default)]
    allow_unreachable: Vec<(usize, usize)>,
    #[serde(default)]
    allow_traps: Vec<(usize, usize)>,
}

fn allowed(subject: &Subject) -> Result<Allowed, String> {
    subject.expectations()?.read::<Allowed>()
}

/// The `goal` check: each bear can reach the goal from its start.
pub(crate) struct Goal;

impl Check for Goal {
    fn name(&self) -> &'static str {
        "goal"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            "goal",
            "{ B = true, D = true }: whether each bear reaches the goal",
        )
        .shaped(ValueShape::Table)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let course = course(subject)?;
        let mut goal = BTreeMap::new();
        let mut finding = Finding::pass();
        for bear in Bear::BOTH {
            let reach = &course.reach[bear as usize];
            goal.insert(bear.letter().to_string(), reach.goal);
            if !reach.goal {
                let start = course.level.starts[bear as usize];
                finding = finding.problem(format!(
                    "{} cannot reach the goal from its start at {start:?} ({} standing spots \
                     reached)",
                    bear.name(),
                    reach.spots.len()
                ));
            }
        }
        Ok(finding.expect("goal", goal))
    }
}

/// The `snacks` check: who reaches each snack; a snack out of reach fails
/// unless `allow_unreachable` lists it.
pub(crate) struct Snacks;

impl Check for Snacks {
    fn name(&self) -> &'static str {
        "snacks"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[
            ExpectationKey::machine(
                "snacks",
                "[snacks] \"row,col\" = \"both\" | \"Bubu\" | \"Dudu\" | \"none\": who reaches each snack",
            )
            .shaped(ValueShape::Table),
            ExpectationKey::designer(
                "allow_unreachable",
                "[[row, col], …]: snacks the designer knows are out of reach",
            ),
        ];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let course = course(subject)?;
        let allowed = allowed(subject)?.allow_unreachable;
        let who: Vec<(String, &str)> = course
            .snack_reach()
            .into_iter()
            .map(|(snack, bears)| {
                let who = match bears[..] {
                    [] => "none",
                    [bear] => bear.name(),
                    _ => "both",
                };
                (format!("{},{}", snack.0, snack.1), who)
            })
            .collect();
        let mut finding = Finding::pass();
        let unreachable = course.unreachable_snacks();
        for &snack in unreachable.iter().filter(|snack| !allowed.contains(snack)) {
            let rule = if course.level.snacks_each {
                " for both bears (the level says `snacks: each`)"
            } else {
                ""
            };
            let mut problem = format!("the snack at {snack:?} is out of reach{rule}");
            if let Some(short) = course.shortfall(snack) {
                let [row, col] = short.from;
                problem.push_str(&format!(
                    ": the nearest spot reached is ({row}, {col}), and the snack is {} and {} \
                     across from it (a jump rises {JUMP_RISE}, {SPRING_RISE} from a spring)",
                    short.height(),
                    short.sideways
                ));
            }
            problem.push_str("; fix the level, or list the snack in `allow_unreachable`");
            finding = finding.problem(problem);
        }
        for snack in allowed.iter().filter(|snack| !unreachable.contains(snack)) {
            finding = finding.problem(format!(
                "`allow_unreachable` lists {snack:?}, which is not an unreachable snack: \
                 remove it from the list"
            ));
        }
        Ok(finding.expect_table("snacks", who))
    }
}

/// The `traps` check: reachable spots from which a bear can no longer reach
/// the goal; each fails unless `allow_traps` lists it.
pub(crate) struct Traps;

impl Check for Traps {
    fn name(&self) -> &'static str {
        "traps"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[
            ExpectationKey::machine(
                "traps",
                "[[row, col], …]: reachable spots from which a bear can no longer reach the goal",
            ),
            ExpectationKey::designer(
                "allow_traps",
                "[[row, col], …]: traps the designer means to keep",
            ),
        ];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let course = course(subject)?;
        let allowed = allowed(subject)?.allow_traps;
        let traps = course.traps();
        let mut finding = Finding::pass();
        for &trap in traps.iter().filter(|trap| !allowed.contains(trap)) {
            let bears: Vec<&str> = Bear::BOTH
                .into_iter()
                .filter(|bear| course.reach[*bear as usize].traps.contains(&trap))
                .map(Bear::name)
                .collect();
            finding = finding.problem(format!(
                "a trap at {trap:?}: {} can stand there and never reach the goal again; fix \
                 the level, or list the spot in `allow_traps`",
                bears.join(" and ")
            ));
        }
        for trap in allowed.iter().filter(|trap| !traps.contains(trap)) {
            finding = finding.problem(format!(
                "`allow_traps` lists {trap:?}, which is not a trap: remove it from the list"
            ));
        }
        let traps = (!traps.is_empty()).then_some(traps);
        Ok(finding.expect("traps", traps))
    }
}

/// The `ablation` check: what taking out each mechanic makes unreachable;
/// it never fails by itself.
pub(crate) struct Ablation;

impl Check for Ablation {
    fn name(&self) -> &'static str {
        "ablation"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            "lost_without",
            "[lost_without] mechanic = [\"goal: D\", \"snack: 3,12\", …]: what each \
             mechanic's removal makes unreachable, by the level's snack rule",
        )
        .shaped(ValueShape::Table)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let course = course(subject)?;
        let before = course.reachability();
        let lost = course.mechanics().into_iter().map(|ablation| {
            let after = course.ablate(&ablation).reachability();
            (ablation.mechanic, after.lost_since(&before))
        });
        Ok(Finding::pass().expect_table("lost_without", lost))
    }
}
