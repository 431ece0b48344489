//! Errors and warnings about input files, rendered the way a compiler does:
//! the message, `file:line:column`, the offending line and a caret under it.

use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One finding about a source file. Lines and columns count from 1, columns
/// in characters (not bytes); line 0 means the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub line: usize,
    pub column: usize,
    /// How many characters the caret underlines (at least one is drawn).
    pub width: usize,
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            line: 0,
            column: 0,
            width: 0,
            hint: None,
        }
    }

    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }

    /// Points the diagnostic at `width` characters from `line:column`.
    pub fn at(mut self, line: usize, column: usize, width: usize) -> Self {
        self.line = line;
        self.column = column;
        self.width = width;
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Renders the diagnostic against the file it is about.
    ///
    /// ```
    /// use puzzle_qa::diagnostic::Diagnostic;
    ///
    /// let text = "p s p\np q e\n";
    /// let d = Diagnostic::error("unknown tile `q`").at(2, 3, 1).with_hint("tiles are x p l s e w S W t");
    /// assert_eq!(
    ///     d.render("level.txt", text),
    ///     "error: unknown tile `q`\n --> level.txt:2:3\n  |\n2 | p q e\n  |   ^\n  = hint: tiles are x p l s e w S W t\n"
    /// );
    /// ```
    pub fn render(&self, path: &str, source: &str) -> String {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!("{label}: {}\n", self.message);
        if self.line == 0 {
            let _ = writeln!(out, " --> {path}");
        } else {
            let gutter = self.line.to_string().len();
            let pad = " ".repeat(gutter);
            let _ = writeln!(out, "{pad}--> {path}:{}:{}", self.line, self.column);
            let line = source_line(source, self.line);
            // Tabs are shown as spaces, so that the caret lines up however
            // wide the terminal draws a tab.
            let shown: String = line
                .chars()
                .map(|c| {
                    if c == '\t' {
                        " ".repeat(TAB_WIDTH)
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let width_of = |chars: &mut dyn Iterator<Item = char>| -> usize {
                chars.map(|c| if c == '\t' { TAB_WIDTH } else { 1 }).sum()
            };
            let caret_at = width_of(&mut line.chars().take(self.column.saturating_sub(1)));
            let carets = width_of(
                &mut line
                    .chars()
                    .skip(self.column.saturating_sub(1))
                    .take(self.width.max(1)),
            );
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{} | {}", self.line, shown);
            let _ = writeln!(
                out,
                "{pad} | {}{}",
                " ".repeat(caret_at),
                "^".repeat(carets.max(1))
            );
        }
        if let Some(hint) = &self.hint {
            let pad = " ".repeat(if self.line == 0 {
                0
            } else {
                self.line.to_string().len()
            });
            let _ = writeln!(out, "{pad} = hint: {hint}");
        }
        out
    }
}

/// How many spaces a tab is shown as.
const TAB_WIDTH: usize = 4;

/// Line `number` (from 1) of `source` with any `\r` and BOM removed, cut to a
/// sane length so a huge one-line file does not flood the terminal.
fn source_line(source: &str, number: usize) -> String {
    const MAX_CHARS: usize = 200;
    let line = source.split('\n').nth(number - 1).unwrap_or("");
    let line = line.trim_end_matches('\r').trim_start_matches('\u{feff}');
    let mut shown: String = line.chars().take(MAX_CHARS).collect();
    if line.chars().count() > MAX_CHARS {
        shown.push('…');
    }
    shown
}

/// Splits text into lines for a parser: strips a UTF-8 byte-order mark and
/// the `\r` of CRLF endings, and numbers lines from 1.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
}
