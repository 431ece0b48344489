//! XSB collections: a file of Sokoban levels, split into each level's map
//! rows and title before any level is parsed (docs/adding-a-game.md, "XSB
//! collections", has the rules in words).
//!
//! Each line is blank, a map row, or a note. A map row holds a `#` and
//! does not start with `;` or a letter; every other line with text is a
//! note: a `;` comment, a `Key: value` field (`Title:`, `Author:`) or bare
//! text. A level is a run of consecutive map rows. A run of notes touching
//! a level (no blank line between) belongs to it; one between two levels
//! gives its fields to the level above and the rest to the level below.

/// One level of a collection, its rows not yet parsed.
pub struct Level<'a> {
    /// The map rows as written, each with its 1-based line in the file.
    pub rows: Vec<(usize, &'a str)>,
    /// The notes right above the first row, in file order.
    before: Vec<&'a str>,
    /// The notes right below the last row, in file order.
    after: Vec<&'a str>,
}

/// What a line of an XSB file is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blank,
    Row,
    Note,
}

/// A map row holds a `#` and starts with neither `;` nor a letter.
fn kind(line: &str) -> Kind {
    let text = line.trim();
    match text.chars().next() {
        None => Kind::Blank,
        Some(first) if first == ';' || first.is_alphabetic() || !text.contains('#') => Kind::Note,
        Some(_) => Kind::Row,
    }
}

/// A note's field: `Title: One` is `("Title", "One")`. The key is one word.
fn field(note: &str) -> Option<(&str, &str)> {
    let (key, value) = note.split_once(':')?;
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let is_key = key.starts_with(char::is_alphabetic) && key.chars().all(word);
    is_key.then(|| (key, value.trim()))
}

/// The levels of an XSB file, in file order.
pub fn split(text: &str) -> Vec<Level<'_>> {
    let mut levels: Vec<Level> = Vec::new();
    // The notes since the last row or blank line, and whether they started
    // right below a level's last row.
    let (mut notes, mut below_level): (Vec<&str>, bool) = (Vec::new(), false);
    let mut last = Kind::Blank;
    for (index, line) in text.lines().enumerate() {
        let kind = kind(line);
        match kind {
            Kind::Row if last == Kind::Row => {
                let level = levels.last_mut().expect("a row follows a row");
                level.rows.push((index + 1, line));
            }
            Kind::Row => {
                let (above, before): (Vec<&str>, Vec<&str>) = match below_level {
                    true => notes.drain(..).partition(|note| field(note).is_some()),
                    false => (Vec::new(), std::mem::take(&mut notes)),
                };
                if let Some(level) = levels.last_mut() {
                    level.after.extend(above);
                }
                let rows = vec![(index + 1, line)];
                let after = Vec::new();
                levels.push(Level {
                    rows,
                    before,
                    after,
                });
                below_level = false;
            }
            Kind::Note => {
                below_level |= last == Kind::Row;
                notes.push(line.trim());
            }
            Kind::Blank => {
                if below_level && let Some(level) = levels.last_mut() {
                    level.after.append(&mut notes);
                }
                notes.clear();
                below_level = false;
            }
        }
        last = kind;
    }
    if below_level && let Some(level) = levels.last_mut() {
        level.after.append(&mut notes);
    }
    levels
}

impl Level<'_> {
    /// The 1-based line of the first map row.
    pub fn line(&self) -> usize {
        self.rows[0].0
    }

    /// The map rows as written, one a line.
    pub fn text(&self) -> String {
        let rows: Vec<&str> = self.rows.iter().map(|(_, row)| *row).collect();
        rows.join("\n")
    }

    /// Its `Title:` field; else the comment (or bare text) nearest its map,
    /// above it first. An empty `;` is no title.
    pub fn title(&self) -> Option<String> {
        let notes = || self.before.iter().chain(&self.after);
        let titled = notes().find_map(|note| match field(note)? {
            (key, value) if key.eq_ignore_ascii_case("title") && !value.is_empty() => Some(value),
            _ => None,
        });
        let nearest = self.before.iter().rev().chain(&self.after);
        let comment = nearest
            .filter(|note| field(note).is_none())
            .map(|note| note.trim_start_matches(';').trim())
            .find(|text| !text.is_empty());
        titled.or(comment).map(str::to_string)
    }
}
