//! The report as text (a terminal), Markdown (a GitHub step summary: one
//! table, worst rows first, under 1 MiB) and JSON (a contract for scripts;
//! the field names are listed in the README and in `report --help`).

use serde::Serialize;
use serde_json::Value as Json;

use super::{Change, Concern, Failure, PAR, Report, Row, ValueChange, regression_meaning};

/// GitHub refuses a step summary of more than 1 MiB.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024;

/// The most change items a Markdown or text cell lists before "… N more".
const MAX_ITEMS: usize = 8;

/// The most characters of a value or message shown in a cell.
const MAX_CHARS: usize = 120;

/// How a cell is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Text,
    Markdown,
}

impl Style {
    /// A key, command or file name, in backticks (in Markdown, a code span
    /// that cannot end early or break the table).
    fn code(self, text: &str) -> String {
        match self {
            Style::Text => format!("`{text}`"),
            Style::Markdown => format!("`{}`", text.replace('`', "'").replace('|', "\\|")),
        }
    }

    /// Free text (a value, a message) made safe for a table cell.
    fn plain(self, text: &str) -> String {
        let text = cut(&text.replace(['\n', '\r'], " "), MAX_CHARS);
        match self {
            Style::Text => text,
            Style::Markdown => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    match c {
                        '&' => out.push_str("&amp;"),
                        '<' => out.push_str("&lt;"),
                        '>' => out.push_str("&gt;"),
                        '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' => {
                            out.push('\\');
                            out.push(c);
                        }
                        c => out.push(c),
                    }
                }
                out
            }
        }
    }

    fn strong(self, text: &str) -> String {
        match self {
            Style::Text => text.to_string(),
            Style::Markdown => format!("**{text}**"),
        }
    }
}

/// `text` cut to `max` characters, with an ellipsis.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(max - 1).collect();
        short.push('…');
        short
    }
}

/// A value as a cell shows it: strings bare at the top, arrays and tables
/// in TOML-like brackets.
fn shown(value: &Json) -> String {
    fn inner(value: &Json) -> String {
        match value {
            Json::String(text) => format!("\"{text}\""),
            other => shown(other),
        }
    }
    match value {
        Json::String(text) => text.clone(),
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(inner).collect::<Vec<_>>().join(", ")
        ),
        Json::Object(entries) => format!(
            "{{ {} }}",
            entries
                .iter()
                .map(|(key, value)| format!("{key} = {}", inner(value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// The verdict column.
fn verdict(row: &Row, style: Style) -> String {
    match row.severity {
        Concern::Failed => style.strong("FAIL"),
        Concern::Regression => style.strong("regression"),
        Concern::Stale => style.strong("stale"),
        severity => severity.name().to_string(),
    }
}

/// The par column: `7 → 6`, `7`, or `—`.
fn par(row: &Row) -> String {
    match row.par {
        [Some(before), Some(after)] if before != after => format!("{before} → {after}"),
        [_, Some(after)] if row.change != Change::Removed => after.to_string(),
        [Some(before), None] if row.change == Change::Removed => format!("{before} → —"),
        [Some(before), None] => format!("{before} → ?"),
        _ => "—".to_string(),
    }
}

/// One value change in words: `` `par` 7 → 6 ``, `` `traps` +[4, 5] ``.
fn change_item(change: &ValueChange, style: Style) -> String {
    let key = style.code(&change.key);
    match (&change.before, &change.after) {
        (None, Some(after)) => format!("{key} = {}", style.plain(&shown(after))),
        (Some(before), None) => format!("{key} removed (was {})", style.plain(&shown(before))),
        (Some(Json::Array(before)), Some(Json::Array(after)))
            if before.iter().chain(after).all(|item| !item.is_object()) =>
        {
            let gone: Vec<&Json> = before.iter().filter(|item| !after.contains(item)).collect();
            let new: Vec<&Json> = after.iter().filter(|item| !before.contains(item)).collect();
            let list = |items: &[&Json]| {
                let items: Vec<Json> = items.iter().map(|item| (*item).clone()).collect();
                style.plain(&shown(&Json::Array(items)))
            };
            let mut parts = Vec::new();
            if !new.is_empty() {
                parts.push(format!("+{}", list(&new)));
            }
            if !gone.is_empty() {
                parts.push(format!("−{}", list(&gone)));
            }
            if parts.is_empty() {
                parts.push("reordered".to_string());
            }
            format!("{key} {}", parts.join(" "))
        }
        (Some(before), Some(after)) => format!(
            "{key} {} → {}",
            style.plain(&shown(before)),
            style.plain(&shown(after))
        ),
        (None, None) => key,
    }
}

fn first_line(message: &str) -> &str {
    message
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("(no message)")
}

/// What changed in a row, worst first: failures, regressions, stale
/// checks, hand edits, the rename, then every other value change.
fn items(row: &Row, style: Style) -> Vec<String> {
    let mut items = Vec::new();
    for Failure { check, message, .. } in row.failures.iter().filter(|failure| !failure.stale) {
        items.push(format!(
            "{} fails: {}",
            style.code(check),
            style.plain(first_line(message))
        ));
    }
    for change in row.changes.iter().filter(|change| change.regression) {
        let meaning = regression_meaning(change).unwrap_or_default();
        items.push(format!(
            "{}: {} ({meaning})",
            style.strong("regression"),
            change_item(change, style),
        ));
    }
    let stale: Vec<String> = row
        .failures
        .iter()
        .filter(|failure| failure.stale)
        .map(|failure| style.code(failure.check))
        .collect();
    if let (false, Some(accept)) = (stale.is_empty(), &row.accept) {
        items.push(format!(
            "out of date: {}; to accept, run {}",
            stale.join(", "),
            style.code(accept)
        ));
    }
    if !row.hand_edited.is_empty() {
        let keys: Vec<String> = row.hand_edited.iter().map(|key| style.code(key)).collect();
        items.push(format!(
            "hand edit? {} changed in the expectations, the level did not",
            keys.join(", ")
        ));
    }
    if let Some(from) = &row.renamed_from {
        let how = if row.change == Change::Renumbered {
            "renumbered: it is the old"
        } else {
            "renamed from"
        };
        items.push(format!("{how} {}", style.code(from)));
    }
    for change in &row.changes {
        let shown_elsewhere = change.regression || change.key == PAR;
        // A new level's designer text (notes, routes) is in its diff; its
        // machine values say what the level is.
        let prose = row.change == Change::New && change.owner == "designer";
        // A removed level's values are all gone: the change column says so.
        let gone = row.change == Change::Removed;
        if !shown_elsewhere && !prose && !gone {
            items.push(change_item(change, style));
        }
    }
    for note in &row.notes {
        items.push(style.plain(note));
    }
    if items.is_empty() {
        items.push(match row.change {
            Change::Edited => "level edited; the same values".to_string(),
            _ => "—".to_string(),
        });
    }
    if items.len() > MAX_ITEMS {
        let more = items.len() - (MAX_ITEMS - 1);
        items.truncate(MAX_ITEMS - 1);
        items.push(format!("… {more} more"));
    }
    items
}

/// The level column.
fn level(row: &Row, style: Style) -> String {
    match style {
        Style::Text => row.level.clone(),
        Style::Markdown => style.code(&row.level),
    }
}

/// "1 failed, 1 regression, 2 changed, 50 unchanged", leaving out zeros.
fn tally(report: &Report) -> String {
    let parts: Vec<String> = Concern::ALL
        .iter()
        .map(|&severity| (severity, report.count(severity)))
        .filter(|(_, count)| *count > 0)
        .map(|(severity, count)| format!("{count} {}", severity.name()))
        .collect();
    let levels = report.rows.len();
    let plural = if levels == 1 { "" } else { "s" };
    if parts.is_empty() {
        format!("{levels} level{plural}")
    } else {
        format!("{levels} level{plural}: {}", parts.join(", "))
    }
}

/// The last line: what to do next.
fn next_step(report: &Report) -> String {
    if report.orphans.is_some() || report.count(Concern::Failed) > 0 {
        "The gate fails: fix the failing levels (`puzzle-qa check` shows each failure in full)."
            .to_string()
    } else if report.count(Concern::Stale) > 0 {
        "The gate fails: expectations are out of date. Run `puzzle-qa bless`, review `git diff \
         expectations/`, and commit."
            .to_string()
    } else {
        "The gate passes: every check passes and no expectation is out of date.".to_string()
    }
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}

/// The report for a terminal: a table of the levels that changed or fail,
/// a count of the rest, each failure in full, and the next step.
pub fn text(report: &Report) -> String {
    let mut out = format!(
        "levels against {} ({})\n",
        report.base,
        short(&report.commit)
    );
    let header = ["level", "change", "verdict", "par"].map(str::to_string);
    // Four short columns, then what changed: one item per line, the rest
    // of a row's items under its first (messages have semicolons of their
    // own, so joining them on one line would blur them).
    let rows: Vec<([String; 4], Vec<String>)> = report
        .rows
        .iter()
        .filter(|row| row.severity != Concern::Unchanged)
        .map(|row| {
            let cells = [
                level(row, Style::Text),
                row.change.name().to_string(),
                verdict(row, Style::Text),
                par(row),
            ];
            (cells, items(row, Style::Text))
        })
        .collect();
    if rows.is_empty() {
        out.push_str("no level changed\n");
    } else {
        let mut widths = header.clone().map(|title| title.chars().count());
        for (cells, _) in &rows {
            for (width, cell) in widths.iter_mut().zip(cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let indent: usize = widths.iter().map(|width| width + 2).sum();
        let heading = (header.clone(), vec!["what changed".to_string()]);
        for (cells, items) in std::iter::once(&heading).chain(&rows) {
            let mut line = String::new();
            for (cell, width) in cells.iter().zip(widths) {
                line.push_str(cell);
                line.push_str(&" ".repeat(width - cell.chars().count() + 2));
            }
            let mut items = items.iter();
            line.push_str(items.next().map_or("", String::as_str));
            for item in items {
                line.push('\n');
                line.push_str(&" ".repeat(indent));
                line.push_str(item);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    let unchanged = report.count(Concern::Unchanged);
    if unchanged > 0 && !rows.is_empty() {
        out.push_str(&format!("({unchanged} unchanged levels not listed)\n"));
    }
    let mut failures = String::new();
    for row in &report.rows {
        for failure in &row.failures {
            failures.push_str(&format!(
                "\n---- {}::{} ----\n{}\n",
                row.level,
                failure.check,
                failure.message.trim_end()
            ));
        }
    }
    if let Some(message) = &report.orphans {
        failures.push_str(&format!("\n---- orphans ----\n{}\n", message.trim_end()));
    }
    if !failures.is_empty() {
        out.push_str("\nfailures:\n");
        out.push_str(&failures);
    }
    out.push_str(&format!("\n{}\n{}\n", tally(report), next_step(report)));
    out
}

/// The report as GitHub-flavoured Markdown for a step summary: a heading,
/// a count line, one table (failures and regressions first, then stale,
/// hand-edited and changed levels; unchanged levels are only counted), and
/// the next step. Rows that would take the text past `max_bytes` are left
/// out with a note saying how many.
pub fn markdown(report: &Report, max_bytes: usize) -> String {
    let style = Style::Markdown;
    let mut head = format!(
        "### Level report against `{}` (`{}`)\n\n{}.\n\n",
        report.base.replace('`', "'"),
        short(&report.commit),
        tally(report)
    );
    let mut lines = Vec::new();
    if let Some(message) = &report.orphans {
        lines.push(format!(
            "| `orphans` | — | **FAIL** | — | {} |\n",
            style.plain(first_line(message))
        ));
    }
    for row in report
        .rows
        .iter()
        .filter(|row| row.severity != Concern::Unchanged)
    {
        lines.push(format!(
            "| {} | {} | {} | {} | {} |\n",
            level(row, style),
            row.change.name(),
            verdict(row, style),
            par(row),
            items(row, style).join("<br>")
        ));
    }
    let unchanged = report.count(Concern::Unchanged);
    let mut foot = String::new();
    if unchanged > 0 {
        let plural = if unchanged == 1 { "" } else { "s" };
        foot.push_str(&format!(
            "\n{unchanged} unchanged level{plural} not listed.\n"
        ));
    }
    foot.push_str(&format!("\n{}\n", next_step(report)));
    if lines.is_empty() {
        head.push_str("No level changed.\n");
        head.push_str(&foot);
        return head;
    }
    let table_head =
        "| level | change | verdict | par | what changed |\n| --- | --- | --- | --- | --- |\n";
    let note_room = 200;
    let budget = max_bytes.saturating_sub(head.len() + table_head.len() + foot.len() + note_room);
    let mut body = String::new();
    let mut shown_rows = 0;
    for line in &lines {
        if body.len() + line.len() >= budget {
            break;
        }
        body.push_str(line);
        shown_rows += 1;
    }
    let mut out = head;
    out.push_str(table_head);
    out.push_str(&body);
    if shown_rows < lines.len() {
        out.push_str(&format!(
            "\n*{} more rows not shown: a step summary holds at most 1 MiB. Run `puzzle-qa \
             report --base {}` for all of them.*\n",
            lines.len() - shown_rows,
            report.base.replace('`', "'")
        ));
    }
    out.push_str(&foot);
    out
}

/// `report --json`: one object, on one line. The field names are a
/// contract (docs/merge-gate.md).
pub fn json(report: &Report) -> String {
    #[derive(Serialize)]
    struct Top<'a> {
        base: &'a str,
        commit: &'a str,
        summary: Summary,
        levels: Vec<Level<'a>>,
        orphans: Orphans<'a>,
    }
    #[derive(Serialize)]
    struct Summary {
        levels: usize,
        failed: usize,
        regression: usize,
        stale: usize,
        hand_edit: usize,
        changed: usize,
        unchanged: usize,
        new: usize,
        removed: usize,
        renamed: usize,
        renumbered: usize,
        gate: &'static str,
    }
    #[derive(Serialize)]
    struct Level<'a> {
        level: &'a str,
        game: &'a str,
        file: &'a str,
        renamed_from: Option<&'a str>,
        change: Change,
        severity: Concern,
        par: ParJson,
        changes: &'a [ValueChange],
        hand_edited: &'a [String],
        checks: serde_json::Map<String, Json>,
        failures: &'a [Failure],
        notes: &'a [String],
    }
    #[derive(Serialize)]
    struct ParJson {
        before: Option<i64>,
        after: Option<i64>,
    }
    #[derive(Serialize)]
    struct Orphans<'a> {
        ok: bool,
        message: Option<&'a str>,
    }
    let top = Top {
        base: &report.base,
        commit: &report.commit,
        summary: Summary {
            levels: report.rows.len(),
            failed: report.count(Concern::Failed),
            regression: report.count(Concern::Regression),
            stale: report.count(Concern::Stale),
            hand_edit: report.count(Concern::HandEdit),
            changed: report.count(Concern::Changed),
            unchanged: report.count(Concern::Unchanged),
            new: report.count_change(Change::New),
            removed: report.count_change(Change::Removed),
            renamed: report.count_change(Change::Renamed),
            renumbered: report.count_change(Change::Renumbered),
            gate: if report.failed() { "fail" } else { "pass" },
        },
        levels: report
            .rows
            .iter()
            .map(|row| Level {
                level: &row.level,
                game: row.game,
                file: &row.file,
                renamed_from: row.renamed_from.as_deref(),
                change: row.change,
                severity: row.severity,
                par: ParJson {
                    before: row.par[0],
                    after: row.par[1],
                },
                changes: &row.changes,
                hand_edited: &row.hand_edited,
                checks: row
                    .checks
                    .iter()
                    .map(|(name, verdict)| (name.to_string(), Json::from(verdict.name())))
                    .collect(),
                failures: &row.failures,
                notes: &row.notes,
            })
            .collect(),
        orphans: Orphans {
            ok: report.orphans.is_none(),
            message: report.orphans.as_deref(),
        },
    };
    serde_json::to_string(&top).expect("plain data serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(level: &str, severity: Concern, change: Change) -> Row {
        Row {
            level: level.to_string(),
            game: "a",
            file: format!("levels/a/{level}.txt"),
            renamed_from: None,
            change,
            severity,
            par: [Some(7), Some(6)],
            changes: vec![ValueChange {
                key: "note|s".into(),
                owner: "designer",
                before: Some("a <b> *c*".into()),
                after: Some("d".into()),
                regression: false,
            }],
            hand_edited: Vec::new(),
            checks: Vec::new(),
            failures: Vec::new(),
            accept: None,
            notes: Vec::new(),
        }
    }

    fn report(rows: Vec<Row>) -> Report {
        Report {
            base: "main".into(),
            commit: "0123456789abcdef".into(),
            rows,
            orphans: None,
        }
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        let text = markdown(
            &report(vec![row("a::x", Concern::Changed, Change::Edited)]),
            STEP_SUMMARY_LIMIT,
        );
        let line = text.lines().find(|line| line.contains("a::x")).unwrap();
        assert!(
            line.contains("`note\\|s` a &lt;b&gt; \\*c\\* → d"),
            "{line}"
        );
        // Six unescaped pipes: five cells.
        let pipes = line
            .match_indices('|')
            .filter(|(at, _)| *at == 0 || line.as_bytes()[at - 1] != b'\\');
        assert_eq!(pipes.count(), 6, "{line}");
        assert!(line.contains("| 7 → 6 |"), "{line}");
    }

    #[test]
    fn markdown_stays_under_its_limit_and_says_what_it_left_out() {
        let rows: Vec<Row> = (0..2000)
            .map(|n| row(&format!("a::level{n:04}"), Concern::Changed, Change::Edited))
            .collect();
        let all = markdown(&report(rows.clone()), STEP_SUMMARY_LIMIT);
        assert!(all.contains("a::level1999"));
        assert!(!all.contains("more rows not shown"));
        let limit = 20_000;
        let cut = markdown(&report(rows), limit);
        assert!(cut.len() < limit, "{}", cut.len());
        assert!(cut.contains("a::level0000"));
        assert!(!cut.contains("a::level1999"));
        let note = cut
            .lines()
            .find(|line| line.contains("more rows not shown"))
            .unwrap();
        let shown = cut
            .lines()
            .filter(|line| line.starts_with("| `a::"))
            .count();
        assert!(
            note.starts_with(&format!("*{} more rows", 2000 - shown)),
            "{note}"
        );
    }

    #[test]
    fn unchanged_levels_are_counted_not_listed() {
        let text = markdown(
            &report(vec![
                row("a::x", Concern::Changed, Change::Edited),
                row("a::y", Concern::Unchanged, Change::Unchanged),
                row("a::z", Concern::Unchanged, Change::Unchanged),
            ]),
            STEP_SUMMARY_LIMIT,
        );
        assert!(!text.contains("a::y"), "{text}");
        assert!(text.contains("2 unchanged levels not listed"), "{text}");
        assert!(text.contains("3 levels: 1 changed, 2 unchanged."), "{text}");
    }

    #[test]
    fn array_changes_show_what_came_and_went() {
        let change = ValueChange {
            key: "traps".into(),
            owner: "machine",
            before: Some(serde_json::json!([[1, 2], [3, 4]])),
            after: Some(serde_json::json!([[3, 4], [5, 6]])),
            regression: false,
        };
        assert_eq!(
            change_item(&change, Style::Text),
            "`traps` +[[5, 6]] −[[1, 2]]"
        );
    }
}
