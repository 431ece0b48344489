//! What the terminal shows after each check: what changed, a row per level
//! checked in `check`'s columns and words (`ok`, `stale`, `FAIL`, `new`),
//! and a line that counts them and the whole board.

use std::sync::Arc;
use std::time::Duration;

use puzzle_qa_core::_cli_support::harness::Verdict;
use puzzle_qa_core::harness::Subject;

use super::board::{Board, status};

/// The rows of the levels `checked`, in their order, as `check` prints its
/// table.
pub fn rows(checked: &[Arc<Subject>]) -> String {
    let mut columns: Vec<&'static str> = Vec::new();
    for subject in checked {
        for check in subject.entry().game.checks {
            if !columns.contains(&check.name()) {
                columns.push(check.name());
            }
        }
    }
    let mut header = vec!["level", "par", "states", "ms"];
    header.extend(&columns);
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for subject in checked {
        let solution = subject.solution_if_solved();
        let number = |value: Option<String>| value.unwrap_or_else(|| "-".to_string());
        let new = subject
            .expectations()
            .is_ok_and(|expectations| !expectations.exists());
        let verdicts: Vec<(&str, &Verdict)> = subject.verdicts().collect();
        let mut row = vec![
            subject.entry().id(),
            number(solution.and_then(|s| s.par).map(|par| par.to_string())),
            number(solution.map(|s| s.stats.stored.to_string())),
            number(solution.map(|s| format!("{:.2}", s.stats.milliseconds()))),
        ];
        for column in &columns {
            row.push(match verdicts.iter().find(|(name, _)| name == column) {
                None => "-".to_string(),
                Some((_, Verdict::Stale { .. })) if new => "new".to_string(),
                Some((_, verdict)) => verdict.label().to_string(),
            });
        }
        rows.push(row);
    }
    let mut widths = vec![0; header.len()];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let mut line = String::new();
        for (index, (cell, width)) in row.iter().zip(&widths).enumerate() {
            match index {
                0 => line.push_str(&format!("{cell:<width$}")),
                1..=3 => line.push_str(&format!("  {cell:>width$}")),
                _ => line.push_str(&format!("  {cell:<width$}")),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `checked 2 levels in 0.31 s: 1 passed, 1 stale; all 14: 13 passed, 1 stale`.
pub fn summary(checked: &[Arc<Subject>], left: usize, took: Duration, board: &Board) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let these: Vec<&'static str> = checked
        .iter()
        .map(|subject| super::board::status_of(subject))
        .collect();
    let all: Vec<&'static str> = board.cards().iter().map(status).collect();
    let mut line = format!(
        "checked {} level{} in {:.2} s: {}",
        checked.len(),
        plural(checked.len()),
        took.as_secs_f64(),
        tally(&these)
    );
    if left > 0 {
        line.push_str(&format!(
            " ({left} left for the next check: files changed meanwhile)"
        ));
    }
    line.push_str(&format!("; all {}: {}", all.len(), tally(&all)));
    line
}

/// `13 passed, 1 stale`, in a fixed order of statuses.
fn tally(statuses: &[&str]) -> String {
    let counts: Vec<String> = ["passed", "stale", "failed", "limit", "running"]
        .iter()
        .filter_map(|status| {
            let n = statuses.iter().filter(|s| *s == status).count();
            (n > 0).then(|| format!("{n} {status}"))
        })
        .collect();
    if counts.is_empty() {
        "none".to_string()
    } else {
        counts.join(", ")
    }
}
