//! One source line as the tokenizer walks it, and the small pattern matchers
//! the sections share.
//!
//! The official parser is a CodeMirror mode: it sees a line through a stream
//! that matches patterns *at the current position only*, and it lowercases
//! the line before the first token. A [`Line`] keeps both spellings (and,
//! for the caret, where each lowercased character came from), and the
//! matchers below are plain functions over a slice of characters that
//! return how many characters they would consume.
//!
//! Character classes follow JavaScript's: `\s` (which holds every `\p{Z}`
//! character too); `\d` and `\b` are ASCII-only; `[\p{L}\p{N}_]` is Rust's
//! alphanumerics less the marks that Unicode counts as alphabetic without
//! being letters (`not_name.rs`).

use super::not_name::NOT_NAME;
use crate::command::SFX;

/// JavaScript's `\s` (which is also `[\p{Z}\s]`, and CodeMirror's space).
pub(super) fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `\p{Z}` alone: the space, line and paragraph separators.
fn is_separator(c: char) -> bool {
    matches!(
        c,
        ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// `[\p{L}\p{N}_]`: a character of a name.
pub(super) fn is_word(c: char) -> bool {
    c == '_' || (c.is_alphanumeric() && !is_other_alphabetic(c))
}

/// Whether `c` is alphanumeric to Rust only (see `not_name.rs`).
fn is_other_alphabetic(c: char) -> bool {
    use std::cmp::Ordering;
    NOT_NAME
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                Ordering::Less
            } else if lo > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

/// What `\b` counts as a word character: ASCII only.
fn is_ascii_word(c: char) -> bool {
    c == '_' || c.is_ascii_alphanumeric()
}

/// JavaScript's `String.prototype.trim`.
pub(super) fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// How many leading characters of `s` satisfy `f`.
fn run(s: &[char], f: impl Fn(char) -> bool) -> usize {
    s.iter().take_while(|&&c| f(c)).count()
}

/// Whether `s` starts with the characters of `word`.
fn starts_with(s: &[char], word: &str) -> bool {
    let mut it = s.iter();
    word.chars().all(|w| it.next() == Some(&w))
}

/// Whether a `\b` holds after the first `n` characters of `s`, given that
/// the `n`th is a word character.
fn ascii_boundary(s: &[char], n: usize) -> bool {
    s.get(n).is_none_or(|&c| !is_ascii_word(c))
}

/// Whether no name character follows the first `n` characters.
fn name_ends(s: &[char], n: usize) -> bool {
    s.get(n).is_none_or(|&c| !is_word(c))
}

/// The first of `words` that starts `s` and passes `ends`, as a length.
fn one_of(s: &[char], words: &[&str], ends: impl Fn(&[char], usize) -> bool) -> Option<usize> {
    words.iter().find_map(|w| {
        let n = w.chars().count();
        (starts_with(s, w) && ends(s, n)).then_some(n)
    })
}

/// Leading spaces.
pub(super) fn spaces(s: &[char]) -> usize {
    run(s, is_space)
}

/// A name and the spaces after it (`[\p{L}\p{N}_]+\s*`).
pub(super) fn name(s: &[char]) -> Option<usize> {
    let n = run(s, is_word);
    (n > 0).then(|| n + spaces(&s[n..]))
}

/// An object's extra name on its name line: anything up to a space or a
/// bracket, and the spaces after it.
pub(super) fn midline_name(s: &[char]) -> Option<usize> {
    let n = run(s, |c| !is_space(c) && c != '(' && c != ')');
    (n > 0).then(|| n + spaces(&s[n..]))
}

/// The same shape, used to swallow a bad token whole.
pub(super) fn until_space_or_comment(s: &[char]) -> Option<usize> {
    midline_name(s)
}

/// The left-hand side of a legend line: anything but `=`, a space or `(`,
/// then pairs of (separator, space). May be empty.
pub(super) fn legend_lhs(s: &[char]) -> usize {
    let mut n = run(s, |c| c != '=' && c != '(' && !is_space(c));
    while s.get(n).is_some_and(|&c| is_separator(c)) && s.get(n + 1).is_some_and(|&c| is_space(c)) {
        n += 2;
    }
    n
}

/// Everything up to the next `(` (at least one character).
pub(super) fn not_comment(s: &[char]) -> Option<usize> {
    let n = run(s, |c| c != '(');
    (n > 0).then_some(n)
}

/// Optional spaces, a name, optional spaces.
pub(super) fn single_word(s: &[char]) -> Option<usize> {
    let lead = spaces(s);
    name(&s[lead..]).map(|n| lead + n)
}

/// Optional spaces, `->`, optional spaces.
pub(super) fn rule_arrow(s: &[char]) -> Option<usize> {
    let lead = spaces(s);
    let rest = &s[lead..];
    starts_with(rest, "->").then(|| lead + 2 + spaces(&rest[2..]))
}

/// A piece of a rule: anything but brackets, `|` and spaces. May be empty.
pub(super) fn rule_part(s: &[char]) -> usize {
    run(s, |c| !matches!(c, '[' | '|' | ']') && !is_space(c))
}

/// Optional spaces, `message`, then (when `bounded`) a word boundary, then
/// optional spaces.
pub(super) fn message_verb(s: &[char], bounded: bool) -> Option<usize> {
    let lead = spaces(s);
    let rest = &s[lead..];
    let n = 7;
    (starts_with(rest, "message") && (!bounded || ascii_boundary(rest, n)))
        .then(|| lead + n + spaces(&rest[n..]))
}

/// A row of `=` signs.
pub(super) fn equals_row(s: &[char]) -> Option<usize> {
    let n = run(s, |c| c == '=');
    (n > 0).then_some(n)
}

/// Whether `s` holds nothing but spaces and `=` signs.
pub(super) fn only_equals_and_spaces(s: &[char]) -> bool {
    s.iter().all(|&c| c == '=' || is_space(c))
}

/// Spaces and commas, the separators of a collision layer line (ASCII space
/// only). May be empty.
pub(super) fn layer_separators(s: &[char]) -> usize {
    run(s, |c| c == ' ' || c == ',')
}

/// The section names, in the order the file must give them.
pub(crate) const SECTIONS: [&str; 7] = [
    "objects",
    "legend",
    "sounds",
    "collisionlayers",
    "rules",
    "winconditions",
    "levels",
];

/// A section name not followed by a name character, and the spaces after
/// it: `(the name, its length with the spaces)`.
pub(super) fn section_name(s: &[char]) -> Option<(&'static str, usize)> {
    SECTIONS.iter().find_map(|&w| {
        let n = w.chars().count();
        (starts_with(s, w) && name_ends(s, n)).then(|| (w, n + spaces(&s[n..])))
    })
}

/// The colour names the objects section knows, in the official pattern's
/// order (no name is a prefix of a later one, so order only matters for
/// faithfulness).
const COLOR_NAMES: [&str; 25] = [
    "black",
    "white",
    "gray",
    "darkgray",
    "lightgray",
    "grey",
    "darkgrey",
    "lightgrey",
    "red",
    "darkred",
    "lightred",
    "brown",
    "darkbrown",
    "lightbrown",
    "orange",
    "yellow",
    "green",
    "darkgreen",
    "lightgreen",
    "blue",
    "lightblue",
    "darkblue",
    "purple",
    "pink",
    "transparent",
];

/// A colour: a palette name or `#` with three or six hex digits (no word
/// boundary: `redish` starts with `red`), and the spaces after it.
pub(super) fn color(s: &[char]) -> Option<usize> {
    let hex = |c: &char| c.is_ascii_digit() || ('a'..='f').contains(c);
    let n = if s.first() == Some(&'#') {
        let digits = s[1..].iter().take(6).take_while(|c| hex(c)).count();
        match digits {
            6 => 7,
            3..=5 => 4,
            _ => return None,
        }
    } else {
        COLOR_NAMES
            .iter()
            .find(|w| starts_with(s, w))?
            .chars()
            .count()
    };
    Some(n + spaces(&s[n..]))
}

/// A sound event (`sfx3`, `endlevel`, …), word-bounded, and its spaces.
pub(super) fn sound_event(s: &[char]) -> Option<usize> {
    const EVENTS: [&str; 10] = [
        "undo",
        "restart",
        "titlescreen",
        "startgame",
        "cancel",
        "endgame",
        "startlevel",
        "endlevel",
        "showmessage",
        "closemessage",
    ];
    // At most one word of either list ends at a boundary where `s` starts.
    one_of(s, &EVENTS, ascii_boundary)
        .or_else(|| one_of(s, &SFX, ascii_boundary))
        .map(|n| n + spaces(&s[n..]))
}

/// A sound verb (`move`, `cantmove`, …), word-bounded, and its spaces.
pub(super) fn sound_verb(s: &[char]) -> Option<usize> {
    one_of(
        s,
        &["move", "action", "create", "destroy", "cantmove"],
        ascii_boundary,
    )
    .map(|n| n + spaces(&s[n..]))
}

/// A direction of a sound row, with the spaces around it.
pub(super) fn sound_direction(s: &[char]) -> Option<usize> {
    const DIRECTIONS: [&str; 7] = [
        "up",
        "down",
        "left",
        "right",
        "horizontal",
        "vertical",
        "orthogonal",
    ];
    let lead = spaces(s);
    let rest = &s[lead..];
    one_of(rest, &DIRECTIONS, name_ends).map(|n| lead + n + spaces(&rest[n..]))
}

/// A sound seed: ASCII digits ending at a word boundary (no spaces taken).
pub(super) fn sound_seed(s: &[char]) -> Option<usize> {
    let n = run(s, |c| c.is_ascii_digit());
    (n > 0 && ascii_boundary(s, n)).then_some(n)
}

/// One line of source, and the tokenizer's position in it.
pub(super) struct Line {
    /// The line as written.
    original: Vec<char>,
    /// The line lowercased (it may be longer: some capitals lowercase to two
    /// characters).
    lower: Vec<char>,
    /// For each lowercased character, the index of the written one it came
    /// from.
    origin: Vec<usize>,
    /// Whether the tokenizer now reads the written spelling (the prelude
    /// switches to it for `title`, `author` and `homepage`).
    reads_original: bool,
    /// The position, in characters of the spelling being read.
    pub(super) pos: usize,
}

impl Line {
    pub(super) fn new(text: &str) -> Line {
        let original: Vec<char> = text.chars().collect();
        let lower: Vec<char> = text.to_lowercase().chars().collect();
        let mut origin = Vec::with_capacity(lower.len());
        for (i, c) in original.iter().enumerate() {
            origin.extend(std::iter::repeat_n(i, c.to_lowercase().count()));
        }
        // Should the two lowercasings ever disagree in length, point past
        // the end rather than anywhere wrong.
        origin.resize(lower.len(), original.len());
        Line {
            original,
            lower,
            origin,
            reads_original: false,
            pos: 0,
        }
    }

    /// The spelling being read.
    pub(super) fn text(&self) -> &[char] {
        if self.reads_original {
            &self.original
        } else {
            &self.lower
        }
    }

    /// From here to the end of the line.
    pub(super) fn rest(&self) -> &[char] {
        self.text().get(self.pos..).unwrap_or(&[])
    }

    /// The written line from `pos` on (positions of the lowercased line,
    /// applied to the written one, as the official parser does).
    pub(super) fn original_from(&self, pos: usize) -> String {
        self.original.get(pos..).unwrap_or(&[]).iter().collect()
    }

    /// The whole line as the tokenizer now sees it.
    pub(super) fn whole(&self) -> String {
        self.text().iter().collect()
    }

    /// The whole line as written.
    pub(super) fn written(&self) -> String {
        self.original.iter().collect()
    }

    /// From now on, read the line as written.
    pub(super) fn read_original(&mut self) {
        self.reads_original = true;
    }

    pub(super) fn eol(&self) -> bool {
        self.pos >= self.text().len()
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.text().get(self.pos).copied()
    }

    /// Steps over one character.
    pub(super) fn bump(&mut self) {
        if !self.eol() {
            self.pos += 1;
        }
    }

    pub(super) fn skip_to_end(&mut self) {
        self.pos = self.text().len();
    }

    pub(super) fn eat_space(&mut self) {
        self.pos += spaces(self.rest());
    }

    /// Consumes what `matcher` matches here, returning it (untrimmed) and
    /// where it started.
    pub(super) fn eat(&mut self, matcher: impl Fn(&[char]) -> Option<usize>) -> Option<Token> {
        let n = matcher(self.rest())?;
        Some(self.take(n))
    }

    /// Consumes `n` characters as a token.
    pub(super) fn take(&mut self, n: usize) -> Token {
        let start = self.pos;
        let end = (start + n).min(self.text().len());
        self.pos = end;
        let raw: String = self.text()[start..end].iter().collect();
        Token {
            text: raw,
            column: self.column(start),
        }
    }

    /// What `matcher` would match here, without consuming it.
    pub(super) fn look(&self, matcher: impl Fn(&[char]) -> Option<usize>) -> Option<String> {
        let rest = self.rest();
        matcher(rest).map(|n| rest.iter().take(n).collect())
    }

    /// The column (from 1, in written characters) of a position.
    pub(super) fn column(&self, pos: usize) -> usize {
        let index = if self.reads_original {
            pos
        } else {
            self.origin
                .get(pos)
                .copied()
                .unwrap_or(self.original.len() + pos.saturating_sub(self.lower.len()))
        };
        index + 1
    }

    /// The column of the current position.
    pub(super) fn here(&self) -> usize {
        self.column(self.pos)
    }
}

/// A piece of a line the tokenizer consumed.
#[derive(Clone, Debug)]
pub(super) struct Token {
    /// As matched (trailing spaces included).
    pub(super) text: String,
    /// Where it starts.
    pub(super) column: usize,
}

impl Token {
    /// The text without its surrounding spaces.
    pub(super) fn word(&self) -> &str {
        trim(&self.text)
    }

    /// How many characters the caret should underline.
    pub(super) fn width(&self) -> usize {
        self.word().chars().count().max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn name_characters_are_letters_numbers_and_underscores() {
        assert!(is_word('é') && is_word('字') && is_word('_') && is_word('٣'));
        // A Devanagari vowel sign and a circled letter are not letters.
        assert!(!is_word('\u{93e}') && !is_word('ⓐ') && !is_word('-'));
        assert!(NOT_NAME.windows(2).all(|w| w[0].1 < w[1].0));
    }

    #[test]
    fn colours_take_no_word_boundary_and_three_or_six_digits() {
        assert_eq!(color(&chars("redish")), Some(3));
        assert_eq!(color(&chars("darkblue  x")), Some(10));
        assert_eq!(color(&chars("#12345")), Some(4));
        assert_eq!(color(&chars("#1234567")), Some(7));
        assert_eq!(color(&chars("#12")), None);
        assert_eq!(color(&chars("#ABC")), None);
    }

    #[test]
    fn sound_events_prefer_the_bounded_word() {
        assert_eq!(sound_event(&chars("sfx10 123")), Some(6));
        assert_eq!(sound_event(&chars("sfx1")), Some(4));
        assert_eq!(sound_event(&chars("sfx11")), None);
        assert_eq!(sound_seed(&chars("123abc")), None);
        assert_eq!(sound_seed(&chars("123 4")), Some(3));
    }

    #[test]
    fn section_names_need_a_name_boundary() {
        assert_eq!(section_name(&chars("legend  x")), Some(("legend", 8)));
        assert_eq!(section_name(&chars("legends")), None);
        assert_eq!(section_name(&chars("objects_x")), None);
    }

    #[test]
    fn the_legend_name_takes_separator_space_pairs() {
        assert_eq!(legend_lhs(&chars("a = b")), 1);
        assert_eq!(legend_lhs(&chars("a   = b")), 3);
        assert_eq!(legend_lhs(&chars("= b")), 0);
    }

    #[test]
    fn columns_count_written_characters() {
        let mut line = Line::new("İx = y");
        // `İ` lowercases to two characters; `x` is still the second written.
        line.pos = 2;
        assert_eq!(line.peek(), Some('x'));
        assert_eq!(line.here(), 2);
        assert_eq!(line.column(100), 100);
    }
}
