//! `puzzle-qa check --html DIR`: the suite's report as pages. An index of
//! every level checked (failures first) with a thumbnail, par, states, time
//! and a verdict per check, and one page per level replaying its solution;
//! where a check failed and the expected solution differs from the one found
//! now, the two replay side by side.

use std::path::Path;
use std::sync::Arc;

use puzzle_qa_core::_cli_support::harness::Verdict;
use puzzle_qa_core::_cli_support::harness::replace_whole;
use puzzle_qa_core::_cli_support::picture::html::{self, IndexRow};
use puzzle_qa_core::_cli_support::picture::svg::{self, escape};
use puzzle_qa_core::harness::Subject;
use puzzle_qa_core::level::Solution;

/// Writes the index and a page per level of `subjects` into `dir`; returns
/// the index's path.
pub fn write(dir: &Path, subjects: &[Arc<Subject>]) -> Result<std::path::PathBuf, String> {
    let write = |path: &Path, text: &str| {
        replace_whole(path, text)
            .map_err(|(what, error)| format!("cannot {what} {}: {error}", path.display()))
    };
    let mut rows = Vec::new();
    for subject in subjects {
        let entry = subject.entry();
        // A level of a file of many gets a page of its own: `crates-3.html`.
        let link = match entry.member {
            None => format!("{}/{}.html", entry.game.name, entry.stem),
            Some(number) => format!("{}/{}-{number}.html", entry.game.name, entry.stem),
        };
        let (page, thumbnail) = level_page(subject);
        write(&dir.join(&link), &page)?;
        let solution = subject.solution_if_solved();
        rows.push(IndexRow {
            name: entry.id(),
            link,
            thumbnail,
            par: solution.and_then(|solution| solution.par),
            states: solution.map_or(0, |solution| solution.stats.stored),
            ms: solution.map_or(0.0, |solution| solution.stats.milliseconds()),
            checks: subject
                .verdicts()
                .map(|(check, verdict)| (check.to_string(), verdict.label()))
                .collect(),
        });
    }
    let index = dir.join("index.html");
    write(&index, &html::index(&mut rows))?;
    Ok(index)
}

/// A level's page and its thumbnail (if the level loads and its game draws).
fn level_page(subject: &Subject) -> (String, Option<String>) {
    let entry = subject.entry();
    let title = entry.id();
    let failures: String = subject
        .verdicts()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(check, verdict)| {
            let what = match verdict {
                Verdict::Stale { .. } => "is stale",
                _ => "failed",
            };
            format!(
                "<h3 class=\"fail\">{} {what}</h3><pre>{}</pre>\n",
                escape(check),
                escape(&verdict.message().unwrap_or_default())
            )
        })
        .collect();
    let back = "<p><a href=\"../index.html\">all levels</a></p>\n";
    // A stale level offers the command that accepts its change.
    let failures = if subject.is_stale() {
        let pending = subject.pending_file().is_some();
        let command = subject.settings().accept_command(entry, pending);
        format!(
            "{}{failures}",
            html::copyable("to accept this level's change", &command)
        )
    } else {
        failures
    };
    let level = match subject.level() {
        Ok(level) => level,
        Err(message) => {
            let intro = format!("{back}{failures}<pre>{}</pre>", escape(&message));
            return (html::text_page(&title, &intro), None);
        }
    };
    let found = subject
        .solution_if_solved()
        .and_then(|solution| solution.moves.clone());
    let expected = subject
        .expectations()
        .ok()
        .and_then(|expectations| expectations.value::<String>("solution"));
    let intro = format!(
        "{back}<p>{} · par {}</p>\n{failures}",
        escape(&entry.shown_level),
        subject
            .solution_if_solved()
            .and_then(|solution| solution.par)
            .map_or("-".to_string(), |par| par.to_string())
    );
    let play = |moves: &str| level.playback(moves).ok().flatten();
    let Some(mut new) = play(found.as_deref().unwrap_or("")) else {
        return (html::text_page(&title, &intro), None);
    };
    // Without a win to replay, the picture says why.
    new.unsolved = match level.no_par() {
        Some(no_par) => Some(format!("no par ({}): {}", no_par.status, no_par.note)),
        None => subject.solution_if_solved().and_then(Solution::why_no_win),
    };
    let thumbnail = Some(svg::thumbnail(&new.frames[0].scene, 120));
    let failed = subject.verdicts().any(|(_, verdict)| !verdict.passed());
    let page = match (expected.as_deref().and_then(play), failed) {
        (Some(old), true) if expected != found => html::compare_page(
            &title,
            &intro,
            ("before: the expectation file's solution", &old),
            ("after: the solution found now", &new),
        ),
        _ => html::replay_page(&title, &intro, &new),
    };
    (page, thumbnail)
}
