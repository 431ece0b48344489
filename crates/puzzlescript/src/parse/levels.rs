//! LEVELS: grids of one-character glyphs, separated by blank lines, and
//! `message` lines between them.

use super::Parser;
use super::cursor::{self, Line, trim};
use crate::ast::LevelEntry;

/// A level being collected. Upstream keeps a trailing empty grid that the
/// next row fills; a message read while it is empty goes before it.
#[derive(Debug)]
enum Block {
    Message {
        text: String,
        line: usize,
    },
    Grid {
        line: usize,
        rows: Vec<String>,
        columns: Vec<usize>,
    },
}

#[derive(Debug)]
pub(super) struct State {
    blocks: Vec<Block>,
}

impl Default for State {
    fn default() -> State {
        State {
            blocks: vec![empty()],
        }
    }
}

fn empty() -> Block {
    Block::Grid {
        line: 0,
        rows: Vec::new(),
        columns: Vec::new(),
    }
}

fn is_empty(block: &Block) -> bool {
    matches!(block, Block::Grid { rows, .. } if rows.is_empty())
}

impl State {
    /// The levels read, without the empty ones.
    pub(super) fn entries(self) -> Vec<LevelEntry> {
        self.blocks
            .into_iter()
            .filter(|b| !is_empty(b))
            .map(|b| match b {
                Block::Message { text, line } => LevelEntry::Message { text, line },
                Block::Grid {
                    line,
                    rows,
                    columns,
                } => LevelEntry::Grid {
                    line,
                    rows,
                    columns,
                },
            })
            .collect()
    }
}

impl Parser<'_> {
    pub(super) fn levels_blank(&mut self) {
        if self.levels.blocks.last().is_some_and(|b| !is_empty(b)) {
            self.levels.blocks.push(empty());
        }
    }

    pub(super) fn levels_step(&mut self, line: &mut Line, sol: bool, first: bool) {
        if sol {
            if self.level_line(line, first) {
                return;
            }
        } else if self.token_index == -4 {
            line.skip_to_end();
            return;
        }
        if self.token_index == 2 && !line.eol() {
            let column = line.here();
            let Some(glyph) = line.peek() else { return };
            line.bump();
            if !self.glyphs.contains(&glyph) {
                self.error_per_half(glyph, column, |c| {
                    let shown: String = c.map_or_else(|| char::REPLACEMENT_CHARACTER.to_string(), |c| c.to_uppercase().collect());
                    format!("Key \"{shown}\" not found. Do you need to add it to the legend, or define a new object?")
                });
            }
        }
    }

    /// The start of a line: a message, or a row of a grid. True when the
    /// token is done (a message).
    fn level_line(&mut self, line: &mut Line, first: bool) -> bool {
        let start = line.here();
        let mut message = line.eat(|s| cursor::message_verb(s, true)).is_some();
        if !message && line.eat(|s| cursor::message_verb(s, false)).is_some() {
            self.warning(
                start,
                7,
                "You probably meant to put a space after 'message' innit.  That's ok, I'll still interpret it as a message, but you probably want to put a space there.",
            );
            message = true;
        }
        if message {
            self.token_index = -4;
            let rest = if first {
                line.original_from(line.pos)
            } else {
                line.rest().iter().collect()
            };
            let block = Block::Message {
                text: trim(&rest).to_string(),
                line: self.line_no,
            };
            let blocks = &mut self.levels.blocks;
            match blocks.last() {
                Some(last) if is_empty(last) => blocks.insert(blocks.len() - 1, block),
                _ => blocks.push(block),
            }
            return true;
        }
        let column = line.here();
        let Some(row) = line.look(cursor::not_comment) else {
            self.error(
                column,
                1,
                "Detected a comment where I was expecting a level. Oh gosh; if this is to do with you using '(' as a character in the legend, please don't do that ^^",
            );
            self.comment_depth += 1;
            line.skip_to_end();
            return true;
        };
        let row = trim(&row).to_string();
        let width = row.chars().count();
        self.token_index = 2;
        let line_no = self.line_no;
        let blocks = &mut self.levels.blocks;
        let rectangular = match blocks.last_mut() {
            Some(Block::Grid {
                line,
                rows,
                columns,
            }) => {
                if rows.is_empty() {
                    *line = line_no;
                }
                let fits = rows
                    .first()
                    .is_none_or(|r| r.encode_utf16().count() == row.encode_utf16().count());
                rows.push(row);
                columns.push(column);
                fits
            }
            _ => {
                blocks.push(Block::Grid {
                    line: line_no,
                    rows: vec![row],
                    columns: vec![column],
                });
                true
            }
        };
        if !rectangular {
            self.warning(
                column,
                width,
                "Maps must be rectangular, yo (In a level, the length of each row must be the same).",
            );
        }
        false
    }
}
