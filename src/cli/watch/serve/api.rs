//! What the page's JSON API answers, and the level's replay and picture:
//! always a level named among the known levels ([`Board::find`]), never a
//! path taken from a request. Accept and reject go through `review`'s own
//! code, which writes through bless's (lock, temporary file, rename).

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};
use toml_edit::DocumentMut;

use puzzle_qa_core::_cli_support::harness::{LevelEntry, Settings, Suite};
use puzzle_qa_core::_cli_support::picture::html;
use puzzle_qa_core::_cli_support::picture::svg::{self, escape};
use puzzle_qa_core::harness::Subject;
use puzzle_qa_core::level::Solution;

use super::super::super::review::{Change, pending_changes};
use super::super::super::targets::Filters;
use super::super::board::Board;

/// An answer: the HTTP status, the content type and the body.
pub type Answer = (u16, &'static str, String);

const JSON: &str = "application/json";

/// `{"error": why}` with `status`.
pub fn error(status: u16, why: &str) -> Answer {
    (status, JSON, json!({ "error": why }).to_string())
}

fn unknown(name: &str) -> Answer {
    error(404, &format!("no level is named `{name}`"))
}

/// `GET /api/levels`.
pub fn levels(board: &Board) -> Answer {
    (200, JSON, board.views())
}

/// `GET /api/level?level=NAME`: the card, and what the level's view shows.
pub fn level(board: &Board, name: &str) -> Answer {
    let (Some((entry, settings, subject)), Some(card)) = (board.find(name), board.view(name))
    else {
        return unknown(name);
    };
    let mut detail: Value = serde_json::from_str(&card).expect("a card is JSON");
    let change = pending(&entry, &settings);
    let more = match &subject {
        Some(subject) => details(subject, change.as_ref()),
        None => json!({}),
    };
    let object = detail.as_object_mut().expect("a card is an object");
    for (key, value) in more.as_object().into_iter().flatten() {
        object.insert(key.clone(), value.clone());
    }
    object.insert("notices".into(), json!(board.notices()));
    (200, JSON, detail.to_string())
}

/// The level's pending change, as `review` reads it, if it has one.
fn pending(entry: &LevelEntry, settings: &Settings) -> Option<Change> {
    let suite = Suite::of(settings.clone(), vec![entry.clone()]);
    let name = entry.id();
    let filters = Filters::new(std::slice::from_ref(&name), [name.as_str()]);
    pending_changes(&suite, &filters).0.into_iter().next()
}

/// One check's verdict in the view.
#[derive(Serialize)]
struct CheckView {
    check: &'static str,
    verdict: &'static str,
    message: Option<String>,
}

/// One mechanic: its class now and the one the expectation file declares.
#[derive(Serialize)]
struct MechanicView {
    name: String,
    class: Option<String>,
    declared: Option<String>,
}

/// What a checked level's view shows beyond its card.
fn details(subject: &Subject, change: Option<&Change>) -> Value {
    let verdicts: Vec<CheckView> = subject
        .verdicts()
        .map(|(check, verdict)| CheckView {
            check,
            verdict: verdict.name(),
            message: verdict.message(),
        })
        .collect();
    let found = subject
        .solution_if_solved()
        .and_then(|solution| solution.moves.clone());
    let declared = declared_solution(subject);
    let member = subject.entry().member;
    let now = subject
        .blessed_text()
        .and_then(|text| mechanics(&text, member));
    let before = subject
        .expectations()
        .ok()
        .and_then(|expectations| mechanics(expectations.text(), member));
    let mut names: Vec<String> = Vec::new();
    for (name, _) in now.iter().chain(&before).flatten() {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    let class_in = |table: &Option<Vec<(String, String)>>, name: &str| {
        table
            .as_ref()?
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, class)| class.clone())
    };
    let mechanics: Vec<MechanicView> = names
        .into_iter()
        .map(|name| MechanicView {
            class: class_in(&now, &name),
            declared: class_in(&before, &name),
            name,
        })
        .collect();
    let (before_moves, after_moves) = match change {
        Some(change) => {
            let [before, after] = change.solutions().clone();
            (before, after)
        }
        None => (declared.clone(), found.clone()),
    };
    json!({
        "verdicts": verdicts,
        "solution": found,
        "declared_solution": declared,
        "parting": parting(subject, before_moves.as_deref(), after_moves.as_deref()),
        "mechanics": mechanics,
        "change": change.map(|change| json!({
            "why": change.why(),
            "changes": change.changes(),
            "diff": change.diff(false),
            "before": change.solutions()[0],
            "after": change.solutions()[1],
        })),
    })
}

/// The solution the expectation file holds for the level.
fn declared_solution(subject: &Subject) -> Option<String> {
    subject
        .expectations()
        .ok()
        .and_then(|expectations| expectations.value::<String>("solution"))
}

/// The `[mechanics]` of the level in an expectation file's `text` (its
/// table `[N.mechanics]` for level N of a file of several), as (name,
/// class) pairs in the file's order.
fn mechanics(text: &str, member: Option<usize>) -> Option<Vec<(String, String)>> {
    let document = text.parse::<DocumentMut>().ok()?;
    let table = match member {
        None => document.get("mechanics")?,
        Some(number) => document.get(&number.to_string())?.get("mechanics")?,
    };
    let table = table.as_table_like()?;
    Some(
        table
            .iter()
            .filter_map(|(name, class)| Some((name.to_string(), class.as_str()?.to_string())))
            .collect(),
    )
}

/// Where two solutions part: how many moves they share, and each one's
/// next move (null where it ends); null unless both are given, play, and
/// differ.
fn parting(subject: &Subject, before: Option<&str>, after: Option<&str>) -> Value {
    let (Some(before), Some(after), Ok(level)) = (before, after, subject.level()) else {
        return Value::Null;
    };
    if before == after {
        return Value::Null;
    }
    let play = |moves: &str| level.playback(moves).ok().flatten();
    let (Some(old), Some(new)) = (play(before), play(after)) else {
        return Value::Null;
    };
    let text = |play: &puzzle_qa_core::picture::Playback, index: usize| {
        play.frames.get(index).map(|frame| frame.text.clone())
    };
    let longest = old.frames.len().max(new.frames.len());
    let Some(at) = (1..longest).find(|&index| text(&old, index) != text(&new, index)) else {
        return Value::Null;
    };
    json!({ "agree": at - 1, "before": text(&old, at), "after": text(&new, at) })
}

/// `GET /api/replay?level=NAME`: a page that replays the level (the
/// solution found now; beside it, when they differ, the expectation
/// file's), with the replay's own controls (play, step, a slider).
pub fn replay(board: &Board, name: &str) -> Answer {
    let Some((entry, _, subject)) = board.find(name) else {
        return unknown(name);
    };
    let Some(subject) = subject else {
        let page = html::text_page(&entry.id(), "<p>not checked yet</p>");
        return (200, "text/html; charset=utf-8", page);
    };
    (200, "text/html; charset=utf-8", replay_page(&subject))
}

fn replay_page(subject: &Subject) -> String {
    let entry = subject.entry();
    let title = entry.id();
    let level = match subject.level() {
        Ok(level) => level,
        Err(message) => {
            return html::text_page(&title, &format!("<pre>{}</pre>", escape(&message)));
        }
    };
    let found = subject
        .solution_if_solved()
        .and_then(|solution| solution.moves.clone());
    let expected = declared_solution(subject);
    let play = |moves: &str| level.playback(moves).ok().flatten();
    let intro = format!(
        "<p>{} · par {}</p>\n",
        escape(&entry.shown_level),
        subject
            .solution_if_solved()
            .and_then(|solution| solution.par)
            .map_or("-".to_string(), |par| par.to_string())
    );
    let Some(mut new) = play(found.as_deref().unwrap_or("")) else {
        return html::text_page(
            &title,
            &format!("{intro}<p>this game draws no pictures</p>"),
        );
    };
    new.unsolved = match level.no_par() {
        Some(no_par) => Some(format!("no par ({}): {}", no_par.status, no_par.note)),
        None => subject.solution_if_solved().and_then(Solution::why_no_win),
    };
    match expected
        .as_deref()
        .filter(|old| found.as_deref() != Some(*old))
    {
        Some(old) => match play(old) {
            Some(old) => html::compare_page(
                &title,
                &intro,
                ("before: the expectation file's solution", &old),
                ("after: the solution found now", &new),
            ),
            None => html::replay_page(&title, &intro, &new),
        },
        None => html::replay_page(&title, &intro, &new),
    }
}

/// `GET /api/picture?level=NAME`: the level's start, as a small SVG.
pub fn picture(board: &Board, name: &str) -> Answer {
    let Some((_, _, subject)) = board.find(name) else {
        return unknown(name);
    };
    let drawn = subject.as_deref().and_then(|subject| {
        let level = subject.level().ok()?;
        let playback = level.playback("").ok()??;
        Some(svg::thumbnail(&playback.frames[0].scene, 120))
    });
    match drawn {
        Some(svg) => (200, "image/svg+xml", svg),
        None => error(404, &format!("`{name}` has no picture (yet)")),
    }
}

/// `POST /api/accept` and `/api/reject` with `{"level": NAME}`: what
/// `review --accept NAME --json` and `--reject` do and print.
pub fn settle(board: &Arc<Board>, body: &str, accept: bool) -> Answer {
    let asked: Value = match serde_json::from_str(body) {
        Ok(asked) => asked,
        Err(_) => return error(400, "the body must be JSON: {\"level\": NAME}"),
    };
    let Some(name) = asked.get("level").and_then(Value::as_str) else {
        return error(400, "the body must be JSON: {\"level\": NAME}");
    };
    let Some((entry, settings, _)) = board.find(name) else {
        return unknown(name);
    };
    if settings.check_only {
        return error(
            409,
            "PUZZLE_QA_UPDATE=no asks that nothing be written; nothing was written",
        );
    }
    let Some(change) = pending(&entry, &settings) else {
        return error(
            409,
            &format!("nothing is pending for `{name}`: no change to accept or reject"),
        );
    };
    let result = if accept {
        change.accept()
    } else {
        change.reject().map(|()| Vec::new())
    };
    // The pending file changed, which no file event reports.
    board.tell_level(name);
    match result {
        Ok(changes) => (
            200,
            JSON,
            json!({
                "level": change.level(),
                "action": if accept { "accepted" } else { "rejected" },
                "expectation": entry.shown_expectation,
                "changes": changes,
            })
            .to_string(),
        ),
        Err(message) => error(500, &message),
    }
}
