//! LEGEND: `a = b` (a synonym), `a = b and c …` (an aggregate), `a = b or
//! c …` (a property). Tokens are collected over the line; the entry is
//! judged when the line ends, and its names are flattened then: an
//! aggregate to objects (through aggregates), a property to objects
//! (through properties).

use super::cursor::{self, Line, Token};
use super::{Found, Parser, is_keyword, mixed_case};
use crate::ast::LegendEntry;

#[derive(Debug, Default)]
pub(super) struct State {
    /// The line's tokens so far: name, `=`, then names and connectives.
    pub(super) words: Vec<Word>,
}

/// One token of a legend line.
#[derive(Clone, Debug)]
pub(super) struct Word {
    text: String,
    column: usize,
    width: usize,
}

impl Word {
    fn of(token: &Token) -> Word {
        Word {
            text: token.word().to_string(),
            column: token.column,
            width: token.width(),
        }
    }
}

const FORMAT: &str = r#"Incorrect format of legend - should be one of "A = B", "A = B or C [ or D ...]", "A = B and C [ and D ...]""#;

impl Parser<'_> {
    pub(super) fn legend_step(&mut self, line: &mut Line, first: bool) {
        let index = self.token_index;
        let column = line.here();
        let word = match index {
            0 => {
                let n = cursor::legend_lhs(line.rest());
                self.token_index += 1;
                Some(Word::of(&line.take(n)))
            }
            1 => {
                let word = match line.eat(|s| (s.first() == Some(&'=')).then_some(1)) {
                    Some(token) => Word::of(&token),
                    None => {
                        self.error(
                            column,
                            1,
                            r#"In the legend, define new items using the equals symbol - declarations must look like "A = B", "A = B or C [ or D ...]", "A = B and C [ and D ...]"."#,
                        );
                        let junk = line.eat(cursor::not_comment);
                        let width = junk.map_or(1, |t| t.width());
                        Word {
                            text: "ERROR".to_string(),
                            column,
                            width,
                        }
                    }
                };
                line.eat_space();
                self.token_index += 1;
                Some(word)
            }
            _ if index >= 3 && index % 2 == 1 => {
                let word = self.legend_connective(line, index);
                self.token_index += 1;
                word
            }
            _ => match line.eat(cursor::name) {
                Some(token) => {
                    self.token_index += 1;
                    Some(Word::of(&token))
                }
                None => {
                    self.something_bad(line);
                    None
                }
            },
        };
        if let Some(word) = word {
            self.legend.words.push(word);
        }
        if line.eol() {
            self.legend_line(line, first);
        }
    }

    /// `and` or `or`, at the odd places from the fourth token on.
    fn legend_connective(&mut self, line: &mut Line, index: i32) -> Option<Word> {
        let Some(token) = line.eat(cursor::name) else {
            self.something_bad(line);
            return None;
        };
        let word = Word::of(&token);
        if word.text == "and" || word.text == "or" {
            let first = self.legend.words.get(3).map(|w| w.text.as_str());
            if index >= 5 && first != Some(word.text.as_str()) {
                self.error(
                    word.column,
                    word.width,
                    "Hey! You can't go mixing ANDs and ORs in a single legend entry.",
                );
            }
        } else {
            let shown = word.text.to_uppercase();
            self.error(
                word.column,
                word.width,
                format!(
                    "Expected and 'AND' or an 'OR' here, but got {shown} instead. In the legend, define new items using the equals symbol - declarations must look like 'A = B' or 'A = B and C' or 'A = B or C'."
                ),
            );
        }
        Some(word)
    }

    fn something_bad(&mut self, line: &mut Line) {
        let column = line.here();
        let junk = line.eat(cursor::not_comment);
        let width = junk.map_or(1, |t| t.width());
        self.error(column, width, "Something bad's happening in the LEGEND");
    }

    /// The line has ended: judge and record its entry.
    pub(super) fn legend_line(&mut self, line: &Line, first: bool) {
        let mut words = std::mem::take(&mut self.legend.words);
        if words.is_empty() {
            return;
        }
        if words.len() == 1 {
            let w = &words[0];
            self.error(w.column, w.width, format!("{FORMAT}."));
            return;
        }
        if words.len().is_multiple_of(2) {
            let w = &words[words.len() - 1];
            let dangling = w.text.to_uppercase();
            self.error(
                w.column,
                w.width,
                format!("{FORMAT}, but it looks like you have a dangling \"{dangling}\"?"),
            );
            return;
        }
        let head = words[0].clone();
        let name = head.text.clone();
        let shown = name.to_uppercase();
        let mut ok = true;
        if let Some(at) = self.declared_line(&name) {
            self.error(
                head.column,
                head.width,
                format!("Name \"{shown}\" already in use (on line line {at})."),
            );
            ok = false;
        }
        if is_keyword(&name) {
            self.warning(
                head.column,
                head.width,
                format!("You named an object \"{shown}\", but this is a keyword. Don't do that!"),
            );
        }
        // Each item in turn (the list shrinks as self-references are cut
        // out, each with the connective beside it).
        let mut i = 2;
        while i < words.len() {
            let item = words[i].clone();
            if item.text == name {
                self.error(
                    item.column,
                    item.width,
                    format!("You can't define object {shown} in terms of itself!"),
                );
                ok = false;
                while let Some(at) = (2..words.len()).find(|&j| words[j].text == name) {
                    let from = if at >= 4 { at - 1 } else { at };
                    words.drain(from..(from + 2).min(words.len()));
                }
            }
            for j in (2..i).step_by(2) {
                if words.get(j).is_some_and(|w| w.text == item.text) {
                    let repeated = item.text.to_uppercase();
                    self.warning(
                        item.column,
                        item.width,
                        format!("You're repeating the object {repeated} here multiple times on the RHS.  This makes no sense.  Don't do that."),
                    );
                }
            }
            i += 2;
        }
        for item in words.iter().skip(2).step_by(2) {
            if item.text != name && self.declared_line(&item.text).is_none() {
                let missing = item.text.to_uppercase();
                self.error(
                    item.column,
                    item.width,
                    format!("You're talking about {missing} but it's not defined anywhere."),
                );
            }
        }
        let items: Vec<&Word> = words.iter().skip(2).step_by(2).collect();
        let connective = words.get(3).map(|w| w.text.as_str());
        let mixed = mixed_case(line, first);
        if words.len() == 3 {
            let entry = LegendEntry {
                name: name.clone(),
                items: vec![words[2].text.clone()],
                line: self.line_no,
            };
            self.register_name(&name, &mixed);
            self.push_synonym(entry);
        } else if connective == Some("and") {
            let mut flat = Vec::new();
            for item in &items {
                flat.extend(self.aggregate_members(item));
            }
            if self.thrown {
                return;
            }
            self.register_name(&name, &mixed);
            self.push_aggregate(LegendEntry {
                name,
                items: flat,
                line: self.line_no,
            });
        } else if connective == Some("or") {
            let malformed = words
                .iter()
                .skip(5)
                .step_by(2)
                .any(|w| w.text.to_lowercase() != "or");
            if malformed {
                return;
            }
            let mut flat = Vec::new();
            for item in &items {
                flat.extend(self.property_members(&name, item));
            }
            if self.thrown {
                return;
            }
            if !flat.is_empty() {
                self.register_name(&name, &mixed);
                self.push_property(LegendEntry {
                    name,
                    items: flat,
                    line: self.line_no,
                });
            }
        } else if ok {
            let (column, width) = words
                .get(3)
                .map_or((head.column, head.width), |w| (w.column, w.width));
            self.error(
                column,
                width,
                "This legend-entry is incorrectly-formatted - it should be one of A = B, A = B or C ( or D ...), A = B and C (and D ...)",
            );
        }
    }

    /// The objects an aggregate's item stands for (through aggregates).
    fn aggregate_members(&mut self, item: &Word) -> Vec<String> {
        self.expand(&item.text, |parser, found, out| match found {
            Found::Object(n) | Found::Undeclared(n) => {
                out.push(n);
                Vec::new()
            }
            Found::Aggregate(_, items) => items,
            Found::Property(n, _) => {
                out.push(n);
                parser.error(
                    item.column,
                    item.width,
                    "Cannot define an aggregate (using 'and') in terms of properties (something that uses 'or').",
                );
                Vec::new()
            }
            Found::Loop => Vec::new(),
        })
    }

    /// The objects a property's item stands for (through properties).
    fn property_members(&mut self, defining: &str, item: &Word) -> Vec<String> {
        self.expand(&item.text, |parser, found, out| match found {
            Found::Object(n) | Found::Undeclared(n) => {
                out.push(n);
                Vec::new()
            }
            Found::Aggregate(a, _) => {
                let (d, a) = (defining.to_uppercase(), a.to_uppercase());
                parser.error(
                    item.column,
                    item.width,
                    format!(
                        "Cannot define a property (something defined in terms of 'or') in terms of an aggregate (something that uses 'and').  In this case, you can't define \"{d}\" in terms of \"{a}\"."
                    ),
                );
                Vec::new()
            }
            // A property's own name among its items is skipped.
            Found::Property(own, items) => items.into_iter().filter(|m| *m != own).collect(),
            Found::Loop => Vec::new(),
        })
    }
}
