//! The interactive review: one pending change per screen, a key per
//! decision. Plain text on a cleared terminal, read a key at a time with
//! `console` (what `indicatif` already draws with), so a screen is what a
//! person sees and what `tmux capture-pane` gives a test.

use console::{Key, Term};

use super::{Again, Change};
use crate::cli::Exit;
use puzzle_qa_core::_cli_support::harness::{LevelEntry, review_written};

/// The line of keys at the foot of every screen.
const KEYS: &str =
    "a accept · r reject · s skip · A accept all · R reject all · t diff/picture · q quit";

/// What the person decided about each change so far.
#[derive(Default)]
struct Tally<'a> {
    /// The levels whose expectation files accepting wrote.
    written: Vec<&'a LevelEntry>,
    accepted: Vec<String>,
    rejected: Vec<String>,
    left: Vec<String>,
    errors: Vec<String>,
}

/// Reviews `changes` in order until each is settled or the person quits.
pub fn review(changes: &[Change], again: &Again) -> Exit {
    let term = Term::stdout();
    let mut tally = Tally::default();
    let mut picture = false;
    let mut all: Option<bool> = None;
    let mut index = 0;
    let mut said = String::new();
    while index < changes.len() {
        let change = &changes[index];
        let decision = match all {
            Some(accept) => Some(accept),
            None => {
                draw(&term, change, index, changes.len(), picture, &said);
                said.clear();
                let key = match term.read_key() {
                    Ok(key) => key,
                    Err(_) => Key::Char('q'),
                };
                match key {
                    Key::Char('a') => Some(true),
                    Key::Char('r') => Some(false),
                    Key::Char('A') => {
                        all = Some(true);
                        continue;
                    }
                    Key::Char('R') => {
                        all = Some(false);
                        continue;
                    }
                    Key::Char('s') | Key::ArrowRight | Key::Char('n') => {
                        tally.left.push(change.level());
                        index += 1;
                        continue;
                    }
                    Key::Char('t') | Key::Tab => {
                        picture = !picture;
                        continue;
                    }
                    Key::Char('q') | Key::Escape | Key::CtrlC => break,
                    _ => {
                        said = format!("that key does nothing here: {KEYS}");
                        continue;
                    }
                }
            }
        };
        if let Some(accept) = decision {
            settle(change, accept, &mut tally);
            index += 1;
        }
    }
    tally
        .left
        .extend(changes[index..].iter().map(Change::level));
    let _ = term.clear_screen();
    print!("{}", summary(&tally, again));
    if tally.errors.is_empty() {
        Exit::Passed
    } else {
        Exit::BadInput
    }
}

/// Accepts or rejects one change, noting how it went.
fn settle<'a>(change: &'a Change, accept: bool, tally: &mut Tally<'a>) {
    let level = change.level();
    if accept {
        match change.accept() {
            Ok(changed) if changed.is_empty() => tally.accepted.push(level),
            Ok(changed) => {
                tally.written.push(change.subject.entry());
                tally
                    .accepted
                    .push(format!("{level} ({})", changed.join("; ")));
            }
            Err(message) => tally.errors.push(format!("{level}: {message}")),
        }
    } else {
        match change.reject() {
            Ok(()) => tally.rejected.push(level),
            Err(message) => tally.errors.push(format!("{level}: {message}")),
        }
    }
}

/// What the review did, for the terminal after the last screen.
fn summary(tally: &Tally, again: &Again) -> String {
    let mut out = String::new();
    for (what, levels) in [("accepted", &tally.accepted), ("rejected", &tally.rejected)] {
        for level in levels {
            out.push_str(&format!("{what} {level}\n"));
        }
    }
    for error in &tally.errors {
        out.push_str(&format!("error: {error}\n"));
    }
    if !tally.left.is_empty() {
        out.push_str(&format!(
            "still pending: {} (run `{}` again)\n",
            tally.left.join(", "),
            again.command("")
        ));
    }
    out.push_str(&format!(
        "{} accepted, {} rejected, {} left pending\n",
        tally.accepted.len(),
        tally.rejected.len(),
        tally.left.len()
    ));
    if !tally.written.is_empty() {
        out.push_str(&format!(
            "{}\n",
            review_written(tally.written.iter().copied())
        ));
    }
    out
}

/// Clears the terminal and draws the screen of one change.
fn draw(term: &Term, change: &Change, index: usize, total: usize, picture: bool, said: &str) {
    let text = screen(change, index, total, picture, console::colors_enabled());
    let (rows, columns) = term.size();
    let _ = term.clear_screen();
    let _ = term.write_str(&fit(&text, rows as usize, columns as usize, said));
}

/// The text of one change's screen, without the key line.
pub(super) fn screen(
    change: &Change,
    index: usize,
    total: usize,
    picture: bool,
    color: bool,
) -> String {
    let entry = change.subject.entry();
    let mut out = format!(
        "review {} of {total} · {} · {}\n",
        index + 1,
        change.level(),
        entry.shown_subject()
    );
    let checks = if change.checks.is_empty() {
        "none (a value no check owns)".to_string()
    } else {
        change.checks.join(", ")
    };
    out.push_str(&format!("changed: {checks}\n"));
    for why in change.why() {
        out.push_str(&format!("  {why}\n"));
    }
    out.push('\n');
    if picture {
        out.push_str(&change.picture());
    } else {
        out.push_str(&change.diff(color));
    }
    out
}

/// `text` cut to a terminal of `rows` by `columns`, with the note and the
/// keys at the foot, so the title and the keys stay in sight whatever the
/// level's size (a line longer than the terminal is wide takes more than
/// one row).
fn fit(text: &str, rows: usize, columns: usize, said: &str) -> String {
    let height = |line: &str| {
        console::measure_text_width(line)
            .div_ceil(columns.max(1))
            .max(1)
    };
    let foot = 1 + height(KEYS) + if said.is_empty() { 0 } else { height(said) };
    let room = rows.saturating_sub(foot).max(4);
    let lines: Vec<&str> = text.lines().collect();
    let mut used = 0;
    let mut shown = 0;
    for line in &lines {
        if used + height(line) > room {
            break;
        }
        used += height(line);
        shown += 1;
    }
    let mut out = String::new();
    if shown < lines.len() {
        // Room for the note that says so.
        while shown > 0 && used + 1 > room {
            shown -= 1;
            used -= height(lines[shown]);
        }
        for line in &lines[..shown] {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!(
            "… {} more lines (a bigger terminal shows them)\n",
            lines.len() - shown
        ));
    } else {
        out.push_str(text);
    }
    out.push('\n');
    if !said.is_empty() {
        out.push_str(said);
        out.push('\n');
    }
    out.push_str(KEYS);
    out
}

#[cfg(test)]
mod tests {
    use super::{KEYS, fit};

    #[test]
    fn a_screen_too_tall_or_too_wide_keeps_its_title_and_keys_in_sight() {
        let text: String = (0..30).map(|n| format!("line {n}\n")).collect();
        let shown = fit(&text, 10, 100, "");
        assert_eq!(shown.lines().count(), 10, "{shown}");
        assert!(shown.starts_with("line 0\n"));
        assert!(shown.contains("… 23 more lines"), "{shown}");
        assert!(shown.ends_with(KEYS));
        // A long line wraps: it takes the rows it needs.
        let wide = format!("title\n{}\nlast\n", "x".repeat(200));
        let shown = fit(&wide, 8, 100, "");
        assert!(shown.starts_with("title\n"));
        let rows: usize = shown
            .lines()
            .map(|line| line.len().div_ceil(100).max(1))
            .sum();
        assert!(rows <= 8, "{rows} rows:\n{shown}");
    }
}
