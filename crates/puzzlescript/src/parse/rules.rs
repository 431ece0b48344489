//! RULES: each line is kept whole for the compiler; the parser only checks
//! that each word is something a rule may hold (a direction, a name, a
//! command, a bracket) and reports names it does not know.

use super::cursor::{self, Line};
use super::{Parser, mixed_case};
use crate::ast::RuleLine;
use crate::command::Command;

/// What may stand before a rule's first bracket.
const RULE_PREFIXES: [&str; 9] = [
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
    "orthogonal",
    "late",
    "rigid",
];

/// What may stand inside a rule's brackets besides names.
const CELL_DIRECTIONS: [&str; 19] = [
    "action",
    "up",
    "down",
    "left",
    "right",
    "^",
    "v",
    "<",
    ">",
    "moving",
    "stationary",
    "parallel",
    "perpendicular",
    "horizontal",
    "orthogonal",
    "vertical",
    "no",
    "randomdir",
    "random",
];

/// The first stretch of a line without `(` (wherever it starts): what the
/// official parser keeps as a rule's or a win condition's text.
pub(super) fn first_text(line: &Line) -> String {
    let text = line.text();
    let start = text.iter().position(|&c| c != '(').unwrap_or(text.len());
    text[start..].iter().take_while(|&&c| c != '(').collect()
}

impl Parser<'_> {
    pub(super) fn rules_step(
        &mut self,
        line: &mut Line,
        sol: bool,
        first: bool,
        started: Option<char>,
    ) {
        if sol {
            self.out.rules.push(RuleLine {
                text: first_text(line),
                mixed: mixed_case(line, first),
                line: self.line_no,
            });
            self.token_index = 0;
        }
        if self.token_index == -4 {
            // A `message` command: the rest of the line is its text.
            line.skip_to_end();
            return;
        }
        if line.eat(cursor::rule_arrow).is_some() {
            return;
        }
        // `started` began the token, before any section name was swallowed:
        // a bracket is judged by it, but the character stepped over is the
        // one here.
        if let Some(c @ ('[' | '|' | ']' | '+')) = started {
            if c != '+' {
                self.token_index = 1;
            }
            line.bump();
            line.eat_space();
            return;
        }
        let n = cursor::rule_part(line.rest());
        let token = line.take(n);
        let word = token.word();
        let (column, width) = (token.column, token.width());
        let outside = self.token_index == 0;
        if outside && (word == "startloop" || word == "endloop") {
            return;
        }
        if (outside && RULE_PREFIXES.contains(&word))
            || (self.token_index == 1 && CELL_DIRECTIONS.contains(&word))
        {
            line.eat_space();
            return;
        }
        if self.names.contains(word) {
            if sol {
                self.error(column, width, "Objects cannot appear outside of square brackets in rules, only directions can.");
            } else {
                line.eat_space();
            }
            return;
        }
        if matches!(word, "..." | "rigid" | "random") {
            return;
        }
        if let Some(command) = Command::named(word) {
            if command == Command::Message {
                self.token_index = -4;
            }
            return;
        }
        let text = format!("Name \"{word}\", referred to in a rule, does not exist.");
        self.error(column, width, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_text_starts_after_leading_brackets() {
        assert_eq!(
            first_text(&Line::new("[ a ] -> [ b ] (note)")),
            "[ a ] -> [ b ] "
        );
        assert_eq!(first_text(&Line::new("(c) [ a ]")), "c) [ a ]");
    }
}
