//! The messages a compile produces, kept the way the official engine keeps
//! them, so that the conformance tables can be checked against them, and
//! convertible to puzzle-qa's own [`Diagnostic`]s.

use puzzle_qa_core::diagnostic::{Diagnostic, Severity};

/// One error or warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Error or warning.
    pub severity: Severity,
    /// The text, as the official engine words it (tags removed).
    pub text: String,
    /// The line it concerns, from 1; `None` for messages about the whole game.
    pub line: Option<usize>,
    /// The column, from 1, when known (0 when not).
    pub column: usize,
    /// How many characters the caret underlines (at least 1).
    pub width: usize,
}

/// Every message of one compile, in the order emitted.
#[derive(Clone, Debug, Default)]
pub struct Log {
    messages: Vec<Message>,
    errors: usize,
    /// puzzle-qa's own warnings, which the official engine does not give
    /// (kept apart so the official count and texts stay as they are).
    own: Vec<Message>,
}

impl Log {
    /// Records an error at `line`.
    pub fn error(&mut self, line: impl Into<Option<usize>>, text: impl Into<String>) {
        self.push(Severity::Error, line.into(), 0, 1, text.into());
    }

    /// Records a warning at `line`.
    pub fn warning(&mut self, line: impl Into<Option<usize>>, text: impl Into<String>) {
        self.push(Severity::Warning, line.into(), 0, 1, text.into());
    }

    /// Records an error at `line`, `column`, underlining `width` characters.
    pub fn error_at(&mut self, line: usize, column: usize, width: usize, text: impl Into<String>) {
        self.push(Severity::Error, Some(line), column, width, text.into());
    }

    /// Records a warning at `line`, `column`, underlining `width` characters.
    pub fn warning_at(
        &mut self,
        line: usize,
        column: usize,
        width: usize,
        text: impl Into<String>,
    ) {
        self.push(Severity::Warning, Some(line), column, width, text.into());
    }

    fn push(
        &mut self,
        severity: Severity,
        line: Option<usize>,
        column: usize,
        width: usize,
        text: String,
    ) {
        // The official engine drops a message identical (same line, same
        // text, same kind) to one already logged.
        if self
            .messages
            .iter()
            .any(|m| m.line == line && m.text == text && m.severity == severity)
        {
            return;
        }
        // Its error count also counts warnings that carry no line: the
        // conformance tables depend on that quirk, so it is kept here, and
        // only here.
        if severity == Severity::Error || line.is_none() {
            self.errors += 1;
        }
        self.messages.push(Message {
            severity,
            text,
            line,
            column,
            width: width.max(1),
        });
    }

    /// Notes a comment opened at `line`, `column` and never closed: the
    /// official engine silently ignores the rest of the file.
    pub fn note_unclosed_comment(&mut self, line: usize, column: usize) {
        self.own.push(Message {
            severity: Severity::Warning,
            text: "this comment is never closed: everything after its `(` is ignored".into(),
            line: Some(line),
            column,
            width: 1,
        });
    }

    /// The official engine's error count: errors, plus warnings without a line.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// True once any error has been logged.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Every message, in order.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The messages as the official engine prints them: `line N : text`, or
    /// just the text.
    pub fn official_texts(&self) -> impl Iterator<Item = String> + '_ {
        self.messages.iter().map(|m| match m.line {
            Some(line) => format!("line {line} : {}", m.text),
            None => m.text.clone(),
        })
    }

    /// The messages as puzzle-qa diagnostics (line 0 when a message has none).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics_in("")
    }

    /// The messages as puzzle-qa diagnostics against `source`: a message
    /// that knows its line but not its column underlines the whole line.
    pub fn diagnostics_in(&self, source: &str) -> Vec<Diagnostic> {
        let lines: Vec<&str> = source.lines().collect();
        self.messages
            .iter()
            .chain(&self.own)
            .map(|m| {
                let d = match m.severity {
                    Severity::Error => Diagnostic::error(m.text.clone()),
                    Severity::Warning => Diagnostic::warning(m.text.clone()),
                };
                match m.line {
                    Some(line) if m.column == 0 => {
                        let text = line
                            .checked_sub(1)
                            .and_then(|l| lines.get(l))
                            .copied()
                            .unwrap_or("");
                        let lead = text.chars().take_while(|c| c.is_whitespace()).count();
                        let width = text.trim().chars().count();
                        d.at(line, lead + 1, width.max(1))
                    }
                    Some(line) => d.at(line, m.column, m.width),
                    None => d,
                }
            })
            .collect()
    }
}
