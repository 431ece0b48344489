//! LEVELS: messages, and maps read into cells of object bits with the
//! background filled in; and the legend's one-character names, as the
//! designer wrote them, for drawing a level back.

use super::symbols::Symbols;
use crate::ast::{LevelEntry, Parsed};
use crate::bits;
use crate::log::Log;

/// A level as the map gives it, before play.
#[derive(Clone, Debug)]
pub enum LevelData {
    /// A `message` entry.
    Message(String),
    /// A grid level.
    Grid(Grid),
}

/// A grid level's starting cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Its line in the source.
    pub line: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Object bits, cell by cell in column-major order (cell `(x, y)` at
    /// `x * height + y`), `stride` words each.
    pub cells: Vec<u32>,
}

/// The levels, messages included, in file order.
pub(super) fn compile(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Vec<LevelData> {
    let mut out = Vec::new();
    let background_layer = symbols
        .background_layer
        .and_then(|l| symbols.layer_masks.get(l));
    for entry in &parsed.levels {
        match entry {
            LevelEntry::Message { text, line } => {
                if wrapped_lines(text, 34) > 12 {
                    log.warning(*line, "Message too long to fit on screen.");
                }
                out.push(LevelData::Message(text.clone()));
            }
            LevelEntry::Grid {
                line,
                rows,
                columns,
            } => {
                let rows: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
                let width = rows.first().map_or(0, Vec::len);
                let height = rows.len();
                let stride = symbols.stride_obj;
                let mut cells = vec![0u32; width * height * stride];
                'fill: for x in 0..width {
                    for (y, row) in rows.iter().enumerate() {
                        let Some(&ch) = row.get(x).or(row.last()) else {
                            continue;
                        };
                        let key = ch.to_string();
                        let Some(glyph) = symbols.glyphs.get(&key) else {
                            let column = columns.get(y).copied().unwrap_or(1)
                                + x.min(row.len().saturating_sub(1));
                            let text = if symbols.properties.contains(&key) {
                                format!(
                                    "Error, symbol \"{ch}\" is defined using OR, and therefore ambiguous - it cannot be used in a map. Did you mean to define it in terms of AND?"
                                )
                            } else {
                                format!("Error, symbol \"{ch}\", used in map, not found.")
                            };
                            log.error_at(line + y, column, 1, text);
                            break 'fill;
                        };
                        let cell = bits::span_mut(&mut cells, x * height + y, stride);
                        for id in glyph.iter().flatten() {
                            bits::set(cell, *id);
                        }
                    }
                }
                // Cells with nothing on the background's layer get the
                // level's first background object, else the game's.
                let mut fill = symbols.zero_mask();
                match background_layer {
                    Some(mask) => {
                        let found = cells.chunks(stride).find(|c| bits::any(c, mask));
                        match found {
                            Some(c) => {
                                fill = c.to_vec();
                                for (f, m) in fill.iter_mut().zip(mask) {
                                    *f &= m;
                                }
                            }
                            None => {
                                if let Some(id) = symbols.background_id {
                                    bits::set(&mut fill, id);
                                }
                            }
                        }
                    }
                    None => {
                        log.error(None, "you have to have a background layer");
                        if let Some(id) = symbols.background_id {
                            bits::set(&mut fill, id);
                        }
                    }
                }
                for c in cells.chunks_mut(stride) {
                    if background_layer.is_none_or(|m| !bits::any(c, m)) {
                        bits::or(c, &fill);
                    }
                }
                out.push(LevelData::Grid(Grid {
                    line: *line,
                    width,
                    height,
                    cells,
                }));
            }
        }
    }
    out
}

/// How many lines a message wraps to at `width` characters.
fn wrapped_lines(text: &str, width: usize) -> usize {
    let mut lines = 0;
    let mut current = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if current == 0 {
            current = n;
            lines += 1;
        } else if current + 1 + n > width {
            lines += 1;
            current = n;
        } else {
            current += 1 + n;
        }
    }
    lines.max(1)
}

/// The legend's one-character names and the objects each places, in the
/// order the legend gives them, each in the designer's own case.
pub(super) fn glyphs(parsed: &Parsed, symbols: &Symbols, source: &str) -> Vec<(char, Box<[u32]>)> {
    let case = designer_case(parsed, source);
    let single = |name: &str| {
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    };
    let legend_order = parsed.objects.iter().map(|o| o.name.as_str()).chain(
        parsed
            .synonyms
            .iter()
            .chain(&parsed.aggregates)
            .map(|e| e.name.as_str()),
    );
    let mut glyphs = Vec::new();
    for name in legend_order {
        let (Some(c), Some(ids)) = (single(name), symbols.glyphs.get(name)) else {
            continue;
        };
        if glyphs.iter().any(|(g, _)| *g == c) {
            continue;
        }
        let mut mask = symbols.zero_mask();
        for id in ids.iter().flatten() {
            bits::set(&mut mask, *id);
        }
        let shown = case.iter().find(|(l, _)| *l == c).map_or(c, |(_, o)| *o);
        glyphs.push((shown, mask.into_boxed_slice()));
    }
    glyphs
}

/// Each level character's case as the designer wrote it (the parser
/// lowercases every line): the first spelling met in the maps, by its
/// lowercase.
fn designer_case(parsed: &Parsed, source: &str) -> Vec<(char, char)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut case: Vec<(char, char)> = Vec::new();
    for entry in &parsed.levels {
        if let LevelEntry::Grid { line, rows, .. } = entry {
            for y in 0..rows.len() {
                let Some(original) = lines.get(line + y - 1) else {
                    continue;
                };
                for c in original.chars() {
                    let lower = c.to_lowercase().next().unwrap_or(c);
                    if !case.iter().any(|(l, _)| *l == lower) {
                        case.push((lower, c));
                    }
                }
            }
        }
    }
    case
}
