//! WINCONDITIONS: `all|any|no|some NAME [on NAME]`, one per line. The
//! words are kept for the compiler; the parser checks each in its place.

use super::Parser;
use super::cursor::{self, Line, is_space};
use super::rules::first_text;
use crate::ast::WinLine;

impl Parser<'_> {
    pub(super) fn winconditions_step(&mut self, line: &mut Line, sol: bool) {
        if sol {
            let words = first_text(line)
                .split(is_space)
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            self.out.win_conditions.push(WinLine {
                words,
                line: self.line_no,
            });
            self.token_index = -1;
        }
        self.token_index += 1;
        let column = line.here();
        let Some(token) = line.eat(cursor::single_word) else {
            let junk = line.eat(cursor::not_comment);
            let width = junk.map_or(1, |t| t.width());
            self.error(column, width, "incorrect format of win condition.");
            return;
        };
        let word = token.word();
        let (column, width) = (
            token.column + token.text.chars().take_while(|&c| is_space(c)).count(),
            token.width(),
        );
        let shown = word.to_uppercase();
        let text = match self.token_index {
            0 if matches!(word, "all" | "any" | "no" | "some") => return,
            0 => format!(
                "Expecting the start of a win condition (\"ALL\",\"SOME\",\"NO\") but got \"{shown}'."
            ),
            2 if word == "on" => return,
            2 => format!("Expecting the word \"ON\" but got \"{shown}\"."),
            1 | 3 if self.names.contains(word) => return,
            1 | 3 => format!("Error in win condition: \"{shown}\" is not a valid object name."),
            _ => format!("Error in win condition: I don't know what to do with {shown}."),
        };
        self.error(column, width, text);
    }
}
