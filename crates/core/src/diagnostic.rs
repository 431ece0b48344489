//! Errors and warnings about input files, rendered the way a compiler does
//! (by annotate-snippets): the message, `file:line:column`, the offending
//! line and a caret under it, and a hint where one helps.

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input is wrong and cannot be used as it is.
    Error,
    /// The input is used, but something in it looks like a mistake.
    Warning,
}

/// One finding about a source file. Lines and columns count from 1, columns
/// in characters (not bytes); line 0 means the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in words.
    pub message: String,
    /// The line pointed at; 0 for the file as a whole.
    pub line: usize,
    /// The first character pointed at, on `line`.
    pub column: usize,
    /// How many characters the caret underlines (at least one is drawn).
    pub width: usize,
    /// A suggestion shown below the snippet (`= hint: …`), if any.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error about the file as a whole; `at` points it at a place.
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

    /// A warning about the file as a whole; `at` points it at a place.
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

    /// Adds a hint, shown below the snippet.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Renders the diagnostic against the file it is about.
    ///
    /// ```
    /// use puzzle_qa_core::diagnostic::Diagnostic;
    ///
    /// let text = "p s p\np q e\n";
    /// let d = Diagnostic::error("unknown tile `q`").at(2, 3, 1).with_hint("tiles are x p l s e w S W t");
    /// assert_eq!(
    ///     d.render("level.txt", text),
    ///     "error: unknown tile `q`\n --> level.txt:2:3\n  |\n2 | p q e\n  |   ^\n  |\n  = hint: tiles are x p l s e w S W t\n"
    /// );
    /// ```
    pub fn render(&self, path: &str, source: &str) -> String {
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let title = level.primary_title(self.message.as_str());
        let group = if self.line == 0 {
            title.element(Origin::path(path))
        } else {
            // Only the line pointed at is shown, so a huge file costs nothing.
            let line = source_line(source, self.line);
            let start = byte_of_column(line, self.column);
            let end = byte_of_column(&line[start..], self.width.max(1) + 1) + start;
            title.element(
                Snippet::source(line)
                    .line_start(self.line)
                    .path(path)
                    .annotation(AnnotationKind::Primary.span(start..end)),
            )
        };
        let group = match &self.hint {
            Some(hint) => group.element(Level::HELP.with_name("hint").message(hint.as_str())),
            None => group,
        };
        let mut out = Renderer::plain().render(&[group]);
        out.push('\n');
        out
    }
}

/// Line `number` (from 1) of `source`, without its `\r` or a byte-order mark.
fn source_line(source: &str, number: usize) -> &str {
    let line = source.split('\n').nth(number - 1).unwrap_or("");
    line.trim_end_matches('\r').trim_start_matches('\u{feff}')
}

/// The byte offset of 1-based character `column` in `line`, or its end.
fn byte_of_column(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line.len(), |(offset, _)| offset)
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

/// The known name closest to a misspelt one, if any is close enough to
/// suggest ("did you mean …?").
///
/// ```
/// use puzzle_qa_core::diagnostic::nearest;
/// assert_eq!(nearest("cushon", &["cushion", "gate"]), Some("cushion"));
/// assert_eq!(nearest("lever", &["cushion", "gate"]), None);
/// ```
pub fn nearest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), *candidate))
        .filter(|(distance, candidate)| *distance <= 2.max(candidate.len() / 3))
        .min()
        .map(|(_, candidate)| candidate)
}

/// A file's bytes as text, or, when they are not UTF-8, the error rendered
/// against the file (shown as `shown`) with the line and column of the
/// first bad byte.
pub(crate) fn text_of(bytes: Vec<u8>, shown: &str) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        let bytes = error.into_bytes();
        let before = String::from_utf8_lossy(&bytes[..at]);
        let line = before.matches('\n').count() + 1;
        let column = before
            .rsplit('\n')
            .next()
            .map_or(0, |row| row.chars().count())
            + 1;
        Diagnostic::error(format!(
            "not a text file: invalid UTF-8 at byte {at} (line {line}, column {column})"
        ))
        .at(line, column, 1)
        .with_hint("level and expectation files are UTF-8 text")
        .render(shown, &String::from_utf8_lossy(&bytes))
    })
}

/// A grid cell as messages name it, 0-based: `(row 3, column 4)`.
///
/// ```
/// assert_eq!(puzzle_qa_core::diagnostic::place(0, -2), "(row 0, column -2)");
/// ```
pub fn place(row: impl std::fmt::Display, col: impl std::fmt::Display) -> String {
    format!("(row {row}, column {col})")
}
