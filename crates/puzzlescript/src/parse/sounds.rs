//! SOUNDS: `event seed` (`sfx3 1234`, `endlevel 567`), or `name verb
//! [directions…] seed` (`crate move up 1234`, `player cantmove 99`). After
//! the first mistake on a line the rest of it is read without complaint and
//! the row is dropped.

use super::Parser;
use super::cursor::{self, Line, Token};
use crate::ast::{SoundRow, SoundToken};

#[derive(Debug, Default)]
pub(super) struct State {
    tokens: Vec<SoundToken>,
    /// A mistake was found on this line.
    failed: bool,
}

impl State {
    pub(super) fn clear(&mut self) {
        self.tokens.clear();
        self.failed = false;
    }
}

/// The text of a sound token.
fn text(token: &SoundToken) -> &str {
    match token {
        SoundToken::Event(s)
        | SoundToken::Name(s)
        | SoundToken::Verb(s)
        | SoundToken::Direction(s)
        | SoundToken::Seed(s) => s,
    }
}

/// Swallows a token that makes no sense: up to a space or a bracket, else up
/// to a `(`.
fn junk(line: &mut Line) -> Option<Token> {
    line.eat(cursor::until_space_or_comment)
        .or_else(|| line.eat(cursor::not_comment))
}

impl Parser<'_> {
    pub(super) fn sounds_step(&mut self, line: &mut Line) {
        if self.sounds.failed {
            Self::skip_sound_token(line);
        } else {
            self.sound_token(line);
        }
        if line.eol() {
            self.sounds_line();
        }
    }

    /// After a mistake: consume one token of whatever kind, saying nothing.
    /// (Upstream tries a seed and then, at the same place, a name: both may
    /// be consumed by one step.)
    fn skip_sound_token(line: &mut Line) {
        let known = line
            .eat(cursor::sound_event)
            .or_else(|| line.eat(cursor::sound_verb))
            .or_else(|| line.eat(cursor::sound_direction));
        if known.is_none() {
            line.eat(cursor::sound_seed);
            if line.eat(cursor::name).is_none() {
                junk(line);
            }
        }
    }

    fn fail_sound(&mut self, token: Option<&Token>, column: usize, error: bool, text: String) {
        let width = token.map_or(1, Token::width);
        if error {
            self.error(column, width, text);
        } else {
            self.warning(column, width, text);
        }
        self.sounds.failed = true;
    }

    fn sound_token(&mut self, line: &mut Line) {
        let column = line.here();
        let tokens = &self.sounds.tokens;
        let Some(head) = tokens.first() else {
            // The first token: an event or a declared name.
            if let Some(t) = line.eat(cursor::sound_event) {
                self.sounds
                    .tokens
                    .push(SoundToken::Event(t.word().to_string()));
            } else if let Some(t) = line.eat(cursor::name) {
                let name = t.word().to_string();
                if self.declared_line(&name).is_some() {
                    self.sounds.tokens.push(SoundToken::Name(name));
                } else {
                    self.fail_sound(
                        Some(&t),
                        column,
                        true,
                        format!("unexpected sound token \"{name}\"."),
                    );
                }
            } else {
                let t = junk(line);
                self.fail_sound(
                    t.as_ref(),
                    column,
                    false,
                    "Was expecting a sound event (like SFX3, or ENDLEVEL) or an object name, but didn't find either.".to_string(),
                );
            }
            return;
        };
        let is_event = matches!(head, SoundToken::Event(_));
        let last = tokens
            .last()
            .map(|t| text(t).to_uppercase())
            .unwrap_or_default();
        let last_is_seed = matches!(tokens.last(), Some(SoundToken::Seed(_)));
        let directional =
            matches!(tokens.get(1), Some(SoundToken::Verb(v)) if v == "move" || v == "cantmove");
        if tokens.len() == 1 {
            if is_event {
                match line.eat(cursor::sound_seed) {
                    Some(t) => self
                        .sounds
                        .tokens
                        .push(SoundToken::Seed(t.word().to_string())),
                    None => {
                        let t = junk(line);
                        self.fail_sound(
                            t.as_ref(),
                            column,
                            true,
                            "Was expecting a sound seed here (a number like 123123, like you generate by pressing the buttons above the console panel), but found something else.".to_string(),
                        );
                    }
                }
            } else {
                match line.eat(cursor::sound_verb) {
                    Some(t) => self
                        .sounds
                        .tokens
                        .push(SoundToken::Verb(t.word().to_string())),
                    None => {
                        let t = junk(line);
                        self.fail_sound(
                            t.as_ref(),
                            column,
                            true,
                            "Was expecting a soundverb here (MOVE, DESTROY, CANTMOVE, or the like), but found something else.".to_string(),
                        );
                    }
                }
            }
            return;
        }
        if is_event || last_is_seed {
            let t = junk(line);
            let got = t
                .as_ref()
                .map(|t| t.word().to_uppercase())
                .unwrap_or_default();
            self.fail_sound(
                t.as_ref(),
                column,
                true,
                format!("I wasn't expecting anything after the sound declaration {last} on this line, so I don't know what to do with \"{got}\" here."),
            );
            return;
        }
        if directional && let Some(t) = line.eat(cursor::sound_direction) {
            self.sounds
                .tokens
                .push(SoundToken::Direction(t.word().to_string()));
            return;
        }
        if let Some(t) = line.eat(cursor::sound_seed) {
            self.sounds
                .tokens
                .push(SoundToken::Seed(t.word().to_string()));
            return;
        }
        let t = junk(line);
        let got = t
            .as_ref()
            .map(|t| t.word().to_uppercase())
            .unwrap_or_default();
        let text = if directional {
            format!(
                "Ah I was expecting direction or a sound seed here after {last}, but I don't know what to make of \"{got}\"."
            )
        } else {
            format!(
                "Ah I was expecting a sound seed here after {last}, but I don't know what to make of \"{got}\"."
            )
        };
        self.fail_sound(t.as_ref(), column, true, text);
    }

    /// The line has ended: keep its row if it read cleanly.
    pub(super) fn sounds_line(&mut self) {
        if self.sounds.tokens.is_empty() || self.sounds.failed {
            return;
        }
        let tokens = std::mem::take(&mut self.sounds.tokens);
        self.out.sounds.push(SoundRow {
            tokens,
            line: self.line_no,
        });
    }
}
