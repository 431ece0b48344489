//! The source text to [`Parsed`], with the official engine's parse errors
//! and warnings.
//!
//! The official parser is a syntax-highlighting tokenizer that also builds
//! the game: it is fed one line at a time, and each call reads one token
//! from the current position. Much of what it reports depends on where one
//! token ends and the next begins (comments may start between any two
//! tokens, the sections' state advances per token, and the engine stops
//! reading after any token that takes the error count past five), so this
//! parser keeps that shape: [`Parser::step`] reads one token, handles what
//! every section shares (comments, `===` rows, section headers, blank
//! lines), and hands the rest to the section's own step, one file each:
//!
//! * `prelude.rs`: the metadata before OBJECTS;
//! * `objects.rs`: names, colours, sprites;
//! * `legend.rs`: synonyms, aggregates (`and`), properties (`or`);
//! * `sounds.rs`, `layers.rs`, `rules.rs`, `winconditions.rs`, `levels.rs`.
//!
//! `cursor.rs` holds the line being read and the token patterns.

mod cursor;
mod layers;
mod legend;
mod levels;
mod not_name;
mod objects;
mod prelude;
mod rules;
pub(crate) use cursor::SECTIONS;
mod sounds;
mod winconditions;

use std::collections::{HashMap, HashSet};

use crate::ast::{LegendEntry, Parsed};
use crate::command::SFX;
use crate::log::Log;
use cursor::Line;

/// The official engine stops reading once its error count exceeds this.
const MAX_ERRORS: usize = 5;

/// And throws once it holds more messages than this.
const MAX_MESSAGES: usize = 100;

/// How many steps in a row may consume nothing before the parser forces its
/// way on. (The official tokenizer would spin for ever; no such input is
/// known, but a fuzzer may find one.)
const MAX_IDLE_STEPS: usize = 8;

/// How much expanding one legend item or layer name may take, in names
/// visited and in depth, before the parser gives up as upstream's does (by
/// overflowing its stack) on definitions that refer back to themselves.
const EXPANSION_STEPS: usize = 100_000;
const EXPANSION_DEPTH: usize = 10_000;

/// Words a name should not be, with the sound effects ([`is_keyword`]).
/// (`checkpoint` is allowed, as upstream allows it.)
const KEYWORDS: &[&str] = &[
    "objects",
    "collisionlayers",
    "legend",
    "sounds",
    "rules",
    "...",
    "winconditions",
    "levels",
    "|",
    "[",
    "]",
    "up",
    "down",
    "left",
    "right",
    "late",
    "rigid",
    "^",
    "v",
    ">",
    "<",
    "no",
    "randomdir",
    "random",
    "horizontal",
    "vertical",
    "any",
    "all",
    "some",
    "moving",
    "stationary",
    "parallel",
    "perpendicular",
    "action",
    "message",
    "move",
    "create",
    "destroy",
    "cantmove",
    "cancel",
    "restart",
    "win",
    "again",
    "undo",
    "titlescreen",
    "startgame",
    "endgame",
    "startlevel",
    "endlevel",
    "showmessage",
    "closemessage",
];

/// Whether a name is a word it should not be, warned about in the objects
/// and the legend.
fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name) || SFX.contains(&name)
}

/// Reads a game's source into its sections, logging what the official
/// engine's parser would log. `log` should be fresh: the parse stops, as the
/// official one does, once its error count passes five
/// ([`Parsed::aborted`]).
pub fn parse(source: &str, log: &mut Log) -> Parsed {
    let mut parser = Parser::new(log);
    for text in source.split('\n') {
        if !parser.read_line(text) {
            parser.out.aborted = true;
            break;
        }
    }
    parser.finish()
}

/// The sections, in the order a game must give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Objects,
    Legend,
    Sounds,
    CollisionLayers,
    Rules,
    WinConditions,
    Levels,
}

impl Section {
    const ALL: [Section; 7] = [
        Section::Objects,
        Section::Legend,
        Section::Sounds,
        Section::CollisionLayers,
        Section::Rules,
        Section::WinConditions,
        Section::Levels,
    ];

    fn index(self) -> usize {
        Section::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }

    fn name(self) -> &'static str {
        cursor::SECTIONS[self.index()]
    }

    fn named(name: &str) -> Option<Section> {
        cursor::SECTIONS
            .iter()
            .position(|&s| s == name)
            .map(|i| Section::ALL[i])
    }
}

/// What a legend or layer name stands for, following synonyms.
enum Found {
    Object(String),
    /// An aggregate's name and its (flattened) items.
    Aggregate(String, Vec<String>),
    /// A property's name and its (flattened) items.
    Property(String, Vec<String>),
    Undeclared(String),
    /// A chain of synonyms that comes back on itself: upstream recurses
    /// until its stack overflows.
    Loop,
}

/// Where each legend name is first defined, by kind: the index of its first
/// entry in the parsed list.
#[derive(Debug, Default)]
struct FirstEntries {
    synonyms: HashMap<String, usize>,
    aggregates: HashMap<String, usize>,
    properties: HashMap<String, usize>,
}

/// The parse in progress.
struct Parser<'a> {
    log: &'a mut Log,
    out: Parsed,
    /// The current line, from 1.
    line_no: usize,
    /// How deeply nested in comments the text now is.
    comment_depth: usize,
    /// Where the outermost open comment began.
    comment_start: Option<(usize, usize)>,
    /// A comment that began a line has just closed: the next token counts
    /// as the start of the line.
    sol_after_comment: bool,
    /// Each section's count of tokens on the line (`-4` marks a `message`).
    token_index: i32,
    /// After a header or a `===` row only comments may follow, because of
    /// what this says.
    line_should_end: Option<String>,
    section: Option<Section>,
    visited: Vec<Section>,
    /// The official engine has thrown (too many messages, or runaway
    /// recursion): nothing more is read or logged.
    thrown: bool,
    objects: objects::State,
    legend: legend::State,
    first: FirstEntries,
    sounds: sounds::State,
    layers: layers::State,
    /// Every object and legend name, gathered when SOUNDS begins: what rules
    /// and win conditions may name.
    names: HashSet<String>,
    /// The one-character names, gathered when LEVELS begins: what a level
    /// may hold.
    glyphs: HashSet<char>,
    /// The line of each metadata key's last definition.
    metadata_lines: HashMap<String, usize>,
    levels: levels::State,
}

impl<'a> Parser<'a> {
    fn new(log: &'a mut Log) -> Parser<'a> {
        Parser {
            log,
            out: Parsed::default(),
            line_no: 0,
            comment_depth: 0,
            comment_start: None,
            sol_after_comment: false,
            token_index: 0,
            line_should_end: None,
            section: None,
            visited: Vec::new(),
            thrown: false,
            objects: objects::State::default(),
            legend: legend::State::default(),
            first: FirstEntries::default(),
            sounds: sounds::State::default(),
            layers: layers::State::default(),
            names: HashSet::new(),
            glyphs: HashSet::new(),
            metadata_lines: HashMap::new(),
            levels: levels::State::default(),
        }
    }

    /// Reads one line, token by token; false once the parse must stop.
    fn read_line(&mut self, text: &str) -> bool {
        let mut line = Line::new(text);
        self.line_no += 1;
        self.token_index = 0;
        self.line_should_end = None;
        self.legend.words.clear();
        self.sounds.clear();
        let mut first = true;
        let mut idle = 0;
        loop {
            let before = line.pos;
            self.step(&mut line, first);
            first = false;
            if self.thrown || self.log.error_count() > MAX_ERRORS {
                return false;
            }
            if line.eol() {
                return true;
            }
            if line.pos == before {
                idle += 1;
                if idle >= MAX_IDLE_STEPS {
                    line.bump();
                    idle = 0;
                }
            } else {
                idle = 0;
            }
        }
    }

    /// Reads one token. `first`: the first token of the line, which still
    /// sees the line as written.
    fn step(&mut self, line: &mut Line, first: bool) {
        let sol = std::mem::take(&mut self.sol_after_comment) | first;
        line.eat_space();
        // The rules look at this character even when a section name has
        // been swallowed since.
        let started = line.peek();
        if self.comment(line, sol, first) {
            return;
        }
        line.eat_space();
        if sol && line.eol() {
            self.end_of_line(line, first);
            self.blank_line();
            return;
        }
        if let Some(why) = self.line_should_end.as_ref().filter(|_| !line.eol()) {
            let text = format!("Only comments should go after {why} on a line.");
            let width = line.rest().len();
            self.error(line.here(), width, text);
            line.skip_to_end();
            return;
        }
        // A row of `=` at the start of a line is decoration (in LEVELS only
        // when the line holds nothing else: `=` may be a level's glyph).
        let equals_allowed = !(sol && self.section == Some(Section::Levels))
            || cursor::only_equals_and_spaces(line.rest());
        if sol && equals_allowed && line.eat(cursor::equals_row).is_some() {
            self.line_should_end = Some("a bunch of equals signs ('===')".to_string());
            return;
        }
        // Section names are consumed wherever they stand (outside LEVELS);
        // only at the start of a line do they begin a section.
        if self.section != Some(Section::Levels) {
            let column = line.here();
            if let Some((name, n)) = cursor::section_name(line.rest()) {
                line.take(n);
                if sol {
                    self.enter_section(name, column);
                    return;
                }
            }
        }
        if line.eol() {
            self.end_of_line(line, first);
            return;
        }
        match self.section {
            None => self.prelude_step(line, sol, first),
            Some(Section::Objects) => self.objects_step(line, sol, first),
            Some(Section::Legend) => self.legend_step(line, first),
            Some(Section::Sounds) => self.sounds_step(line),
            Some(Section::CollisionLayers) => self.layers_step(line, sol),
            Some(Section::Rules) => self.rules_step(line, sol, first, started),
            Some(Section::WinConditions) => self.winconditions_step(line, sol),
            Some(Section::Levels) => self.levels_step(line, sol, first),
        }
    }

    /// Comments: `(` opens one (they nest), `)` closes one. Returns true
    /// when the token was (part of) a comment or a stray `)`.
    fn comment(&mut self, line: &mut Line, sol: bool, first: bool) -> bool {
        match line.peek() {
            // Inside a rule's or a level's `message`, `(` is text.
            Some('(') if self.token_index != -4 => {
                self.open_comment(line);
                line.bump();
            }
            Some(')') => {
                let column = line.here();
                line.bump();
                if self.comment_depth == 0 {
                    self.warning(
                        column,
                        1,
                        "You're trying to close a comment here, but I can't find any opening bracket to match it? [This is highly suspicious; you probably want to fix it.]",
                    );
                    return true;
                }
                self.close_comment();
                if self.comment_depth == 0 {
                    self.sol_after_comment = true;
                    return true;
                }
            }
            _ => {}
        }
        if self.comment_depth == 0 {
            return false;
        }
        if sol {
            self.sol_after_comment = true;
        }
        while let Some(c) = line.peek() {
            match c {
                '(' => self.open_comment(line),
                ')' => self.close_comment(),
                _ => {
                    line.bump();
                    continue;
                }
            }
            line.bump();
            if self.comment_depth == 0 {
                break;
            }
        }
        if line.eol() {
            self.end_of_line(line, first);
        }
        true
    }

    fn open_comment(&mut self, line: &Line) {
        if self.comment_depth == 0 {
            self.comment_start = Some((self.line_no, line.here()));
        }
        self.comment_depth += 1;
    }

    fn close_comment(&mut self) {
        self.comment_depth = self.comment_depth.saturating_sub(1);
        if self.comment_depth == 0 {
            self.comment_start = None;
        }
    }

    /// A line ends: the legend and sounds read their line as a whole.
    fn end_of_line(&mut self, line: &Line, first: bool) {
        match self.section {
            Some(Section::Legend) => self.legend_line(line, first),
            Some(Section::Sounds) => self.sounds_line(),
            _ => {}
        }
    }

    /// A blank line: it ends a level, and an object's definition.
    fn blank_line(&mut self) {
        match self.section {
            Some(Section::Levels) => self.levels_blank(),
            Some(Section::Objects) => self.objects.stage = objects::Stage::Name,
            _ => {}
        }
    }

    /// A section header at the start of a line.
    fn enter_section(&mut self, name: &str, column: usize) {
        let Some(section) = Section::named(name) else {
            return;
        };
        let shown = name.to_uppercase();
        let width = name.chars().count();
        self.section = Some(section);
        if self.visited.contains(&section) {
            self.error(
                column,
                width,
                format!("cannot duplicate sections (you tried to duplicate \"{shown}\")."),
            );
        }
        self.line_should_end = Some(format!("a section name (\"{shown}\")"));
        self.visited.push(section);
        let index = section.index();
        if index == 0 {
            self.objects.stage = objects::Stage::Name;
            if self.visited.len() > 1 {
                self.error(
                    column,
                    width,
                    format!("section \"{shown}\" must be the first section"),
                );
            }
        } else {
            let before = Section::ALL[index - 1];
            if !self.visited.contains(&before) {
                let b = before.name().to_uppercase();
                self.error(
                    column,
                    width,
                    format!(
                        "section \"{shown}\" is out of order, must follow  \"{b}\" (or it could be that the section \"{b}\"is just missing totally.  You have to include all section headings, even if the section itself is empty)."
                    ),
                );
            }
        }
        match section {
            Section::Sounds => {
                let out = &self.out;
                let legend = out
                    .synonyms
                    .iter()
                    .chain(&out.aggregates)
                    .chain(&out.properties);
                let all = out
                    .objects
                    .iter()
                    .map(|o| o.name.clone())
                    .chain(legend.map(|e| e.name.clone()));
                self.names.extend(all);
            }
            Section::Levels => {
                // Properties are ambiguous in a map, so only objects,
                // synonyms and aggregates are glyphs. (A name is one glyph
                // when it is one UTF-16 unit, as upstream counts length.)
                let out = &self.out;
                let names = out
                    .objects
                    .iter()
                    .map(|o| &o.name)
                    .chain(out.synonyms.iter().chain(&out.aggregates).map(|e| &e.name));
                let glyphs = names.filter_map(|n| {
                    let mut chars = n.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.len_utf16() == 1 => Some(c),
                        _ => None,
                    }
                });
                self.glyphs.extend(glyphs);
            }
            _ => {}
        }
    }

    /// The line a name was first declared on, if it is declared: as an
    /// object, else as an aggregate, a property or a synonym (in that order).
    fn declared_line(&self, name: &str) -> Option<usize> {
        if let Some(&i) = self.objects.index.get(name) {
            return self.out.objects.get(i).map(|o| o.line);
        }
        let (out, first) = (&self.out, &self.first);
        let line = |list: &[LegendEntry], index: &HashMap<String, usize>| {
            index.get(name).and_then(|&i| list.get(i)).map(|e| e.line)
        };
        line(&out.aggregates, &first.aggregates)
            .or_else(|| line(&out.properties, &first.properties))
            .or_else(|| line(&out.synonyms, &first.synonyms))
    }

    /// What `name` stands for: synonyms are followed to their end.
    fn lookup(&self, name: &str) -> Found {
        let (out, first) = (&self.out, &self.first);
        let mut name = name;
        for _ in 0..=out.synonyms.len() {
            if self.objects.index.contains_key(name) {
                return Found::Object(name.to_string());
            }
            if let Some(s) = first.synonyms.get(name).and_then(|&i| out.synonyms.get(i)) {
                name = s.items.first().map_or("", String::as_str);
                continue;
            }
            if let Some(a) = first
                .aggregates
                .get(name)
                .and_then(|&i| out.aggregates.get(i))
            {
                return Found::Aggregate(a.name.clone(), a.items.clone());
            }
            if let Some(p) = first
                .properties
                .get(name)
                .and_then(|&i| out.properties.get(i))
            {
                return Found::Property(p.name.clone(), p.items.clone());
            }
            return Found::Undeclared(name.to_string());
        }
        Found::Loop
    }

    /// Expands `name` depth first, as upstream's recursive substitutions
    /// do: `visit` is told what each name found stands for, may add objects
    /// to the result, and returns the names to expand under it.
    fn expand(
        &mut self,
        name: &str,
        mut visit: impl FnMut(&mut Self, Found, &mut Vec<String>) -> Vec<String>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![(name.to_string(), 0)];
        let mut steps = EXPANSION_STEPS;
        while let Some((name, depth)) = stack.pop() {
            let found = self.lookup(&name);
            if steps == 0 || depth > EXPANSION_DEPTH || matches!(found, Found::Loop) {
                self.thrown = true;
                break;
            }
            steps -= 1;
            let under = visit(self, found, &mut out);
            stack.extend(under.into_iter().rev().map(|n| (n, depth + 1)));
        }
        out
    }

    fn push_synonym(&mut self, entry: LegendEntry) {
        self.first
            .synonyms
            .entry(entry.name.clone())
            .or_insert(self.out.synonyms.len());
        self.out.synonyms.push(entry);
    }

    fn push_aggregate(&mut self, entry: LegendEntry) {
        self.first
            .aggregates
            .entry(entry.name.clone())
            .or_insert(self.out.aggregates.len());
        self.out.aggregates.push(entry);
    }

    fn push_property(&mut self, entry: LegendEntry) {
        self.first
            .properties
            .entry(entry.name.clone())
            .or_insert(self.out.properties.len());
        self.out.properties.push(entry);
    }

    /// Records that `name` was defined on this line, if the official
    /// whole-word search finds it in `mixed`; returns its spelling there.
    fn register_name(&mut self, name: &str, mixed: &str) -> Option<String> {
        let found = whole_word(mixed, name)?;
        self.out.name_lines.insert(name.to_string(), self.line_no);
        Some(found)
    }

    fn error(&mut self, column: usize, width: usize, text: impl Into<String>) {
        if !self.thrown {
            self.log.error_at(self.line_no, column, width, text);
            self.check_messages();
        }
    }

    /// An error about one character that upstream reads as UTF-16 units: a
    /// character beyond the Basic Multilingual Plane is two of them, each
    /// its own token and its own error (the second shown here as a
    /// replacement character), and reading may stop between the two.
    /// `text` gets the character, or `None` for the second half.
    fn error_per_half(&mut self, c: char, column: usize, text: impl Fn(Option<char>) -> String) {
        self.error(column, 1, text(Some(c)));
        if c.len_utf16() == 2 && self.log.error_count() <= MAX_ERRORS {
            self.error(column, 1, text(None));
        }
    }

    fn warning(&mut self, column: usize, width: usize, text: impl Into<String>) {
        if !self.thrown {
            self.log.warning_at(self.line_no, column, width, text);
            self.check_messages();
        }
    }

    fn check_messages(&mut self) {
        if self.log.messages().len() > MAX_MESSAGES {
            self.thrown = true;
        }
    }

    fn finish(mut self) -> Parsed {
        self.out.levels = self.levels.entries();
        if self.comment_depth > 0 {
            self.out.unclosed_comment = self.comment_start;
        }
        self.out
    }
}

/// The line as the current token sees it when it asks for the "mixed case"
/// text: the first token of a line sees it as written, later ones see it
/// lowercased (the official parser lowercases after its first token).
fn mixed_case(line: &Line, first: bool) -> String {
    if first { line.written() } else { line.whole() }
}

/// Finds `name` in `text` as the official case-insensitive `\bname\b`
/// search does, returning the spelling found.
fn whole_word(text: &str, name: &str) -> Option<String> {
    let text: Vec<char> = text.chars().collect();
    let name: Vec<char> = name.chars().collect();
    if name.len() > text.len() {
        return None;
    }
    let word = |i: Option<usize>| {
        i.and_then(|i| text.get(i))
            .is_some_and(|&c| c == '_' || c.is_ascii_alphanumeric())
    };
    let boundary = |i: usize| word(i.checked_sub(1)) != word(Some(i));
    let same = |a: char, b: char| canonical(a) == canonical(b);
    (0..=text.len() - name.len())
        .find(|&i| {
            boundary(i)
                && boundary(i + name.len())
                && text[i..i + name.len()]
                    .iter()
                    .zip(&name)
                    .all(|(&a, &b)| same(a, b))
        })
        .map(|i| text[i..i + name.len()].iter().collect())
}

/// A character as JavaScript's case-insensitive (non-Unicode) matching
/// compares it: its uppercase, when that is one character and does not turn
/// a non-ASCII character into an ASCII one.
fn canonical(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) if c.is_ascii() || !u.is_ascii() => u,
        _ => c,
    }
}

#[cfg(test)]
mod tests;
