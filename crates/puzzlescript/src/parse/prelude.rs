//! The prelude: `key value` and flag lines before OBJECTS.

use super::Parser;
use super::cursor::{self, Line, trim};

/// Keys that take a value.
const WITH_VALUE: [&str; 12] = [
    "title",
    "author",
    "homepage",
    "background_color",
    "text_color",
    "key_repeat_interval",
    "realtime_interval",
    "again_interval",
    "flickscreen",
    "zoomscreen",
    "color_palette",
    "youtube",
];

/// Flags, which take none.
const FLAGS: [&str; 10] = [
    "run_rules_on_level_start",
    "norepeat_action",
    "require_player_movement",
    "debug",
    "verbose_logging",
    "throttle_movement",
    "noundo",
    "noaction",
    "norestart",
    "scanline",
];

impl Parser<'_> {
    pub(super) fn prelude_step(&mut self, line: &mut Line, sol: bool, first: bool) {
        if sol {
            self.token_index = 0;
        }
        if self.token_index != 0 {
            // A value (read with its key), or what follows a comment in it.
            line.eat(cursor::not_comment);
            self.token_index += 1;
            if self.token_index > 2 {
                let column = line.here();
                self.warning(
                    column,
                    1,
                    "Error: you can't embed comments in metadata values. Anything after the comment will be ignored.",
                );
            }
            return;
        }
        let column = line.here();
        let Some(token) = line.eat(cursor::single_word) else {
            let text = format!("Unrecognised stuff \"{}\" in the prelude.", line.whole());
            let width = line.rest().len().max(1);
            self.error(column, width, text);
            line.bump();
            return;
        };
        if !sol {
            return;
        }
        let key = token.word().to_string();
        let width = token.width();
        if WITH_VALUE.contains(&key.as_str()) {
            if first && matches!(key.as_str(), "author" | "homepage" | "title") {
                line.read_original();
            }
            if key == "youtube" {
                self.warning(
                    column,
                    width,
                    "Unfortunately, YouTube support hasn't been working properly for a long time - it was always a hack and it hasn't gotten less hacky over time, so I can no longer pretend to support it.",
                );
            }
            match line.look(cursor::not_comment) {
                Some(value) => {
                    self.out
                        .metadata
                        .push((key.clone(), trim(&value).to_string(), self.line_no));
                    if let Some(other) = self.metadata_lines.insert(key.clone(), self.line_no) {
                        let shown = key.to_uppercase();
                        self.warning(
                            column,
                            width,
                            format!(
                                "You've already defined a {shown} in the prelude on line {other}."
                            ),
                        );
                    }
                }
                None => self.error(column, width, format!("MetaData \"{key}\" needs a value.")),
            }
            self.token_index = 1;
        } else if FLAGS.contains(&key.as_str()) {
            self.out
                .metadata
                .push((key.clone(), "true".to_string(), self.line_no));
            self.token_index = -1;
            if let Some(extra) = line.look(cursor::not_comment) {
                let shown = key.to_uppercase();
                let extra = trim(&extra);
                let (at, n) = (line.here(), extra.chars().count());
                self.warning(at, n, format!("MetaData {shown} doesn't take any parameters, but you went and gave it \"{extra}\"."));
            }
        } else {
            self.error(column, width, "Unrecognised stuff in the prelude.");
        }
    }
}
