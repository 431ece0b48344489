//! OBJECTS: a name line (the object's name, then any extra names, which
//! become synonyms), a colour line, then up to five sprite rows; a blank
//! line ends an object early.

use std::collections::HashMap;

use super::cursor::{self, Line};
use super::{Parser, is_keyword, mixed_case};
use crate::ast::{LegendEntry, ObjectDef};

/// What the next line of an object is expected to be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Stage {
    /// A new object's name.
    #[default]
    Name,
    /// The name line has been read; more names may follow on it.
    Named,
    /// Colours.
    Colors,
    /// Sprite rows.
    Sprite,
}

#[derive(Debug, Default)]
pub(super) struct State {
    /// Object name to its index in the parsed objects.
    pub(super) index: HashMap<String, usize>,
    /// The object being defined (the last name read at a line's start).
    current: Option<usize>,
    pub(super) stage: Stage,
    /// The sprite rows being read. Upstream hands the object this very
    /// list once its first pixel is accepted, so later pixels land in the
    /// object too until a new name starts a fresh list: `bound` says the
    /// object has been handed the list.
    sprite: Vec<String>,
    bound: bool,
}

impl State {
    fn fresh_sprite(&mut self) {
        self.sprite = Vec::new();
        self.bound = false;
    }
}

impl Parser<'_> {
    pub(super) fn objects_step(&mut self, line: &mut Line, sol: bool, first: bool) {
        let stage = &mut self.objects.stage;
        if sol {
            *stage = match *stage {
                Stage::Colors => Stage::Sprite,
                Stage::Named => Stage::Colors,
                other => other,
            };
        }
        match *stage {
            Stage::Name | Stage::Named => {
                self.objects.fresh_sprite();
                self.object_name(line, sol, first);
            }
            Stage::Colors => self.object_color(line),
            Stage::Sprite => self.sprite_pixel(line, sol, first),
        }
    }

    fn current_name(&self) -> String {
        self.objects
            .current
            .and_then(|i| self.out.objects.get(i))
            .map(|o| o.name.clone())
            .unwrap_or_default()
    }

    /// A name: at the start of a line a new object, later on the line an
    /// extra name for the current one.
    fn object_name(&mut self, line: &mut Line, sol: bool, first: bool) {
        let token = if sol {
            line.eat(cursor::name)
        } else {
            line.eat(cursor::midline_name)
        };
        let Some(token) = token else {
            let column = line.here();
            let junk = line.eat(cursor::not_comment);
            if line.pos > 0 {
                let width = junk.map_or(1, |t| t.width());
                self.warning(
                    column,
                    width,
                    "Unknown junk in object section (possibly: sprites have to be 5 pixels wide and 5 pixels high exactly. Or maybe: the main names for objects have to be words containing only the letters a-z0.9 - if you want to call them something like \",\", do it in the legend section).",
                );
            }
            return;
        };
        let name = token.word().to_string();
        let (column, width) = (token.column, token.width());
        let shown = name.to_uppercase();
        if self.objects.index.contains_key(&name) {
            self.error(
                column,
                width,
                format!("Object \"{shown}\" defined multiple times."),
            );
            return;
        }
        if self.first.synonyms.contains_key(&name) {
            self.error(column, width, format!("Name \"{shown}\" already in use."));
        }
        if is_keyword(&name) {
            self.warning(
                column,
                width,
                format!("You named an object \"{shown}\", but this is a keyword. Don't do that!"),
            );
        }
        let mixed = mixed_case(line, first);
        let spelled = self.register_name(&name, &mixed);
        if sol {
            self.objects
                .index
                .insert(name.clone(), self.out.objects.len());
            self.objects.current = Some(self.out.objects.len());
            self.out.objects.push(ObjectDef {
                shown: spelled.unwrap_or_else(|| name.clone()),
                name,
                line: self.line_no,
                colors: Vec::new(),
                sprite: Vec::new(),
            });
        } else {
            let of = self.current_name();
            self.push_synonym(LegendEntry {
                name,
                items: vec![of],
                line: self.line_no,
            });
        }
        self.objects.stage = Stage::Named;
    }

    /// One colour of the colour line.
    fn object_color(&mut self, line: &mut Line) {
        self.token_index = 0;
        let column = line.here();
        match line.eat(cursor::color) {
            Some(token) => {
                let current = self.objects.current;
                match current.and_then(|i| self.out.objects.get_mut(i)) {
                    Some(object) => object.colors.push(token.word().to_string()),
                    // Colours for no object: upstream's parser throws here.
                    None => self.thrown = true,
                }
            }
            None => {
                let got = line
                    .eat(cursor::name)
                    .or_else(|| line.eat(cursor::not_comment));
                let width = got.as_ref().map_or(1, |t| t.width());
                let got = got.map_or_else(|| "null".to_string(), |t| t.text);
                let of = self.current_name().to_uppercase();
                self.error(
                    column,
                    width,
                    format!("Was looking for color for object {of}, got \"{got}\" instead."),
                );
            }
        }
    }

    /// One pixel of a sprite row (`.` or a colour index).
    fn sprite_pixel(&mut self, line: &mut Line, sol: bool, first: bool) {
        let column = line.here();
        let Some(pixel) = line.peek().filter(|&c| c == '.' || c.is_ascii_digit()) else {
            if self.objects.sprite.is_empty() {
                // No sprite at all: this line names the next object.
                return self.object_name(line, sol, first);
            }
            let junk = line.eat(cursor::not_comment);
            let of = self.current_name().to_uppercase();
            let width = junk.map_or(1, |t| t.width());
            self.error(
                column,
                width,
                format!("Unknown junk in spritematrix for object {of}."),
            );
            return;
        };
        line.bump();
        if sol {
            self.objects.sprite.push(String::new());
        }
        let row_len = match self.objects.sprite.last_mut() {
            Some(row) => {
                row.push(pixel);
                row.chars().count()
            }
            // A row that does not start a line has no row to go in; upstream
            // then writes past its list and always finds the row too wide.
            None => usize::MAX,
        };
        if row_len > 5 {
            self.sync_sprite();
            self.warning(column, 1, "Sprites must be 5 wide and 5 high.");
            line.eat(cursor::not_comment);
            return;
        }
        if self.objects.current.is_none() {
            // A sprite for no object: upstream's parser throws here.
            self.thrown = true;
            return;
        }
        self.objects.bound = true;
        self.sync_sprite();
        if self.objects.sprite.len() == 5 && row_len == 5 {
            self.objects.stage = Stage::Name;
        }
        if let Some(index) = pixel.to_digit(10) {
            let Some(object) = self.objects.current.and_then(|i| self.out.objects.get(i)) else {
                return;
            };
            let count = object.colors.len();
            if index as usize >= count {
                let of = object.name.to_uppercase();
                self.error(
                    column,
                    1,
                    format!("Trying to access color number {index} from the color palette of sprite {of}, but there are only {count} defined in it."),
                );
            }
        }
    }

    /// Gives the object its (shared) sprite list, once it has been handed it.
    fn sync_sprite(&mut self) {
        if !self.objects.bound {
            return;
        }
        if let Some(object) = self
            .objects
            .current
            .and_then(|i| self.out.objects.get_mut(i))
        {
            object.sprite.clone_from(&self.objects.sprite);
        }
    }
}
