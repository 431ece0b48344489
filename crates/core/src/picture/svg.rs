//! Scenes as SVG, written by hand: a rectangle per cell, labels, arrows for
//! links, the pieces, the path of a playback (each step's footprint, a
//! numbered mark where an actor moved, a line or an arc between), and a
//! legend.
//!
//! Pixel art is drawn once and used many times: each distinct grid of
//! pixels is a `<g>` in `<defs>` (a `<rect>` per run of one colour), each
//! distinct stack of grids over a fill another, and a cell or piece that
//! shows it is one `<use>`. Ids are hashes of what they draw, so pictures
//! that share a page may define one id twice, but never two ways.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::{Look, Pixels, Playback, Scene, Sprite};
use crate::game::Cost;

/// The cells one piece covers.
type Cells = Vec<(usize, usize)>;

/// The side of one cell, in SVG units.
pub const CELL: usize = 32;
/// The legend's width, in SVG units.
const LEGEND: usize = 190;

/// The whole picture: the level as it starts, the path of every move, a
/// legend of everything that appears, and why no win is drawn, if none is.
pub fn picture(playback: &Playback) -> String {
    let first = &playback.frames[0].scene;
    let mut body = sprites(playback.frames.iter().map(|frame| &frame.scene));
    body.push_str(&board(first));
    body.push_str(&path(playback));
    body.push_str(&pieces(first));
    body.push_str(&legend(playback, first.width * CELL + 12));
    body.push_str(&unsolved(playback));
    let (width, height) = size(playback);
    document(width, height, &body)
}

/// The size of a picture of `playback` with its legend and its note.
pub fn size(playback: &Playback) -> (usize, usize) {
    let (width, height) = size_above_note(playback);
    let lines = note_lines(playback, width).len();
    let note = if lines == 0 { 0 } else { lines * 18 + 12 };
    (width, height + note)
}

/// The size of the board beside its legend, without the note under them.
fn size_above_note(playback: &Playback) -> (usize, usize) {
    let first = &playback.frames[0].scene;
    let mut legend_height = legend_entries(playback).len() * 22 + 30;
    if !in_place(playback).is_empty() {
        legend_height += 22;
    }
    (
        first.width * CELL + 12 + LEGEND,
        (first.height * CELL).max(legend_height),
    )
}

/// [`Playback::unsolved`] in lines that fit a picture `width` wide (SVG
/// text does not wrap): 13-unit letters are about 7 units wide.
fn note_lines(playback: &Playback, width: usize) -> Vec<String> {
    let Some(note) = &playback.unsolved else {
        return Vec::new();
    };
    let most = (width.saturating_sub(16) / 7).max(20);
    let mut lines: Vec<String> = Vec::new();
    for word in note.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= most => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Why no win is drawn ([`Playback::unsolved`]), under the board and the
/// legend; nothing when a win or given moves are drawn.
pub fn unsolved(playback: &Playback) -> String {
    let (width, top) = size_above_note(playback);
    let lines = note_lines(playback, width);
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::from("<g class=\"unsolved\">\n");
    for (index, line) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"8\" y=\"{}\" font-size=\"13\" fill=\"#f0c674\">{}</text>",
            top + 22 + index * 18,
            escape(line)
        );
    }
    out.push_str("</g>\n");
    out
}

/// A small picture of the level as it starts, without legend or path.
pub fn thumbnail(scene: &Scene, width: usize) -> String {
    let mut body = sprites([scene]);
    body.push_str(&board(scene));
    body.push_str(&pieces(scene));
    let (w, h) = (scene.width * CELL, scene.height * CELL);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{width}\" \
         role=\"img\">{body}</svg>"
    )
}

/// An SVG document of the given size around `body`, with the arrowhead
/// marker links use.
pub fn document(width: usize, height: usize, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#f4f1de\"/></marker></defs>\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#12161f\"/>\n{body}</svg>\n"
    )
}

/// Text made safe inside SVG or HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn centre(row: usize, col: usize) -> (usize, usize) {
    (col * CELL + CELL / 2, row * CELL + CELL / 2)
}

/// One cell's rectangle (or its pixel art, edge to edge) and label.
pub fn cell(row: usize, col: usize, look: &Look) -> String {
    let (x, y) = (col * CELL, row * CELL);
    let mut out = if look.sprite.is_empty() {
        format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\" \
             stroke=\"#0b0e14\" stroke-width=\"1\"><title>{}</title></rect>",
            look.fill,
            escape(&look.name)
        )
    } else {
        format!(
            "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"><title>{}</title></use>",
            stack_id(Some(&look.fill), &look.sprite),
            escape(&look.name)
        )
    };
    if let Some(label) = &look.label {
        let (cx, cy) = centre(row, col);
        let _ = write!(
            out,
            "<text x=\"{cx}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#000\" \
             stroke=\"#fff\" stroke-width=\"2.5\" paint-order=\"stroke\">{}</text>",
            cy + 4,
            escape(label)
        );
    }
    out.push('\n');
    out
}

/// Every cell, then the links as arrows.
pub fn board(scene: &Scene) -> String {
    let mut out = String::from("<g class=\"board\">\n");
    for row in 0..scene.height {
        for col in 0..scene.width {
            out.push_str(&cell(row, col, scene.look(row, col)));
        }
    }
    for link in &scene.links {
        let (x1, y1) = centre(link.from.0, link.from.1);
        let (x2, y2) = centre(link.to.0, link.to.1);
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#f4f1de\" \
             stroke-width=\"1.5\" stroke-dasharray=\"4 3\" opacity=\"0.8\" \
             marker-end=\"url(#arrow)\"/>"
        );
    }
    out.push_str("</g>\n");
    out
}

/// The pieces of one scene.
pub fn pieces(scene: &Scene) -> String {
    let mut out = String::from("<g class=\"pieces\">\n");
    for piece in &scene.pieces {
        if !piece.sprite.is_empty() {
            let id = stack_id(None, &piece.sprite);
            for &(row, col) in &piece.cells {
                let _ = writeln!(
                    out,
                    "<use href=\"#{id}\" x=\"{}\" y=\"{}\"><title>{}</title></use>",
                    col * CELL,
                    row * CELL,
                    escape(&piece.name)
                );
            }
            continue;
        }
        let Some((top, left, bottom, right)) = bounds(&piece.cells) else {
            continue;
        };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"7\" fill=\"{}\" \
             stroke=\"#000\" stroke-width=\"1.5\"><title>{}</title></rect>",
            left * CELL + 4,
            top * CELL + 4,
            (right - left + 1) * CELL - 8,
            (bottom - top + 1) * CELL - 8,
            piece.fill,
            escape(&piece.name)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The cells of a scene that look different from `base`: what one frame
/// of a replay draws over the board, under the path (its pieces go over
/// the path, as in [`picture`]).
pub fn changes(base: &Scene, scene: &Scene) -> String {
    let mut out = String::new();
    for row in 0..scene.height {
        for col in 0..scene.width {
            let look = scene.look(row, col);
            if look != base.look(row, col) {
                out.push_str(&cell(row, col, look));
            }
        }
    }
    out
}

/// The smallest (top, left, bottom, right) box around `cells`.
fn bounds(cells: &[(usize, usize)]) -> Option<(usize, usize, usize, usize)> {
    let top = cells.iter().map(|c| c.0).min()?;
    let bottom = cells.iter().map(|c| c.0).max()?;
    let left = cells.iter().map(|c| c.1).min()?;
    let right = cells.iter().map(|c| c.1).max()?;
    Some((top, left, bottom, right))
}

/// The middle of some cells, in SVG units.
fn middle(cells: &[(usize, usize)]) -> (f64, f64) {
    let n = cells.len().max(1) as f64;
    let x = cells.iter().map(|c| centre(c.0, c.1).0 as f64).sum::<f64>() / n;
    let y = cells.iter().map(|c| centre(c.0, c.1).1 as f64).sum::<f64>() / n;
    (x, y)
}

/// The cells of each actor of `scene`.
fn actors(scene: &Scene) -> Vec<Cells> {
    scene
        .pieces
        .iter()
        .filter(|piece| piece.actor)
        .map(|piece| piece.cells.clone())
        .collect()
}

/// The steps on the spot: moves counted toward par after which every
/// actor stands where it stood (a PuzzleScript action, `X`). Each is
/// marked on the top right cell of each actor's footprint; the steps
/// marked on one cell are listed together, in order, so a second press
/// on the same spot does not hide the first. Cells in order of first use.
/// A free move on the spot (one that adds nothing toward par) has no
/// number of its own to show.
fn in_place(playback: &Playback) -> Vec<((usize, usize), Vec<Cost>)> {
    let mut marks: Vec<((usize, usize), Vec<Cost>)> = Vec::new();
    for pair in playback.frames.windows(2) {
        let step = pair[1].cost;
        if step == pair[0].cost {
            continue;
        }
        let after = actors(&pair[1].scene);
        if actors(&pair[0].scene) != after {
            continue;
        }
        for cells in &after {
            let Some((top, _, _, right)) = bounds(cells) else {
                continue;
            };
            match marks.iter_mut().find(|(at, _)| *at == (top, right)) {
                Some((_, steps)) => steps.push(step),
                None => marks.push(((top, right), vec![step])),
            }
        }
    }
    marks
}

/// The mark of the steps `steps` taken on the spot, in the top right
/// corner of cell (`row`, `col`): clear of the number at its centre.
fn in_place_mark(row: usize, col: usize, steps: &[Cost]) -> String {
    let text: Vec<String> = steps.iter().map(Cost::to_string).collect();
    let text = text.join(",");
    let width = (text.len() as f64 * 4.6 + 5.0).max(11.0);
    let (x, y) = (((col + 1) * CELL) as f64 - width, (row * CELL) as f64);
    format!(
        "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"10\" rx=\"2\" fill=\"{ON_THE_SPOT}\" \
         stroke=\"#000\" stroke-width=\"0.5\"/><text x=\"{}\" y=\"{}\" font-size=\"8\" \
         text-anchor=\"middle\" fill=\"#000\">{text}</text>\n",
        number(x),
        number(width),
        number(x + width / 2.0),
        y + 8.0
    )
}

/// The colour of a step taken on the spot.
const ON_THE_SPOT: &str = "#ffd166";

/// The actors' path over a playback: a faint footprint per step, a line
/// (or the move's arc) from where each actor was to where it went, and the
/// step's number where it arrived, or, for a step on the spot, in the
/// corner of the cell where it was taken.
pub fn path(playback: &Playback) -> String {
    let mut lines = String::new();
    let mut marks = String::new();
    for pair in playback.frames.windows(2) {
        // Marks count the moves toward par, so the last one reads the par
        // even when a free move (a change of control) is a step of its own.
        let step = pair[1].cost;
        let (before, after) = (actors(&pair[0].scene), actors(&pair[1].scene));
        for cells in &after {
            if let Some((top, left, bottom, right)) = bounds(cells) {
                let _ = writeln!(
                    lines,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                     stroke=\"#ff7a5c\" stroke-width=\"1\" opacity=\"0.35\"/>",
                    left * CELL + 2,
                    top * CELL + 2,
                    (right - left + 1) * CELL - 4,
                    (bottom - top + 1) * CELL - 4,
                );
            }
        }
        // An actor moved if its cells changed; when their number changes
        // (a block splits, cubes merge), every new position is marked.
        let moved: Vec<(Option<&Cells>, &Cells)> = if before.len() == after.len() {
            before
                .iter()
                .zip(&after)
                .filter(|(old, new)| old != new)
                .map(|(old, new)| (Some(old), new))
                .collect()
        } else {
            after.iter().map(|new| (None, new)).collect()
        };
        for (old, new) in moved {
            let (x, y) = middle(new);
            if let Some(old) = old {
                let (x0, y0) = middle(old);
                let mut points = vec![(x0, y0)];
                points.extend(
                    pair[1]
                        .trail
                        .iter()
                        .map(|c| (centre(c.0, c.1).0 as f64, centre(c.0, c.1).1 as f64)),
                );
                points.push((x, y));
                let text: Vec<String> = points
                    .iter()
                    .map(|(px, py)| format!("{px:.1},{py:.1}"))
                    .collect();
                let _ = writeln!(
                    lines,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"#ff7a5c\" \
                     stroke-width=\"2\" stroke-linejoin=\"round\" opacity=\"0.8\"/>",
                    text.join(" ")
                );
            }
            let _ = writeln!(
                marks,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"7\" fill=\"#ff7a5c\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"8\" text-anchor=\"middle\" \
                 fill=\"#000\">{step}</text>",
                y + 3.0
            );
        }
    }
    for ((row, col), steps) in in_place(playback) {
        marks.push_str(&in_place_mark(row, col, &steps));
    }
    format!("<g class=\"path\">\n{lines}{marks}</g>\n")
}

/// Every (name, fill, pixel art) drawn in the playback, cells first, in
/// order of first appearance; the art as the id of its stack.
fn legend_entries(playback: &Playback) -> Vec<(&str, &str, Option<String>)> {
    let mut entries = Vec::new();
    let mut seen = HashSet::new();
    let mut last = None;
    for frame in &playback.frames {
        let cells = frame
            .scene
            .cells
            .iter()
            .map(|look| (&look.name, &look.fill, Some(&look.fill), &look.sprite));
        let pieces = frame
            .scene
            .pieces
            .iter()
            .map(|piece| (&piece.name, &piece.fill, None, &piece.sprite));
        for item in cells.chain(pieces) {
            // Neighbouring cells are often alike: skip them without hashing.
            if last == Some(item) {
                continue;
            }
            last = Some(item);
            let (name, fill, under, sprite) = item;
            let art = (!sprite.is_empty()).then(|| stack_id(under.map(|f| &**f), sprite));
            let entry = (&**name, &**fill, art);
            if seen.insert(entry.clone()) {
                entries.push(entry);
            }
        }
    }
    entries
}

/// The legend, a column at `x`.
pub fn legend(playback: &Playback, x: usize) -> String {
    let mut out = String::from("<g class=\"legend\">\n");
    let mut y = 12;
    for (name, fill, art) in legend_entries(playback) {
        let swatch = match art {
            None => format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"16\" height=\"16\" fill=\"{fill}\" stroke=\"#888\"/>"
            ),
            Some(id) => format!(
                "<use href=\"#{id}\" transform=\"translate({x},{y}) scale({})\"/>\
                 <rect x=\"{x}\" y=\"{y}\" width=\"16\" height=\"16\" fill=\"none\" stroke=\"#888\"/>",
                number(16.0 / CELL as f64)
            ),
        };
        let _ = writeln!(
            out,
            "{swatch}<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#e8e8e8\">{}</text>",
            x + 24,
            y + 13,
            escape(name)
        );
        y += 22;
    }
    if playback.moves() > 0 {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"#ff7a5c\"/><text x=\"{}\" y=\"{}\" \
             font-size=\"13\" fill=\"#e8e8e8\">step number</text>",
            x + 8,
            y + 8,
            x + 24,
            y + 13
        );
        y += 22;
    }
    if !in_place(playback).is_empty() {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" rx=\"2\" fill=\"{ON_THE_SPOT}\" \
             stroke=\"#000\" stroke-width=\"0.5\"/><text x=\"{}\" y=\"{}\" font-size=\"13\" \
             fill=\"#e8e8e8\">step on the spot</text>",
            x + 1,
            y + 3,
            x + 24,
            y + 13
        );
    }
    out.push_str("</g>\n");
    out
}

/// FNV-1a over 64 bits: the same on every run and machine, so a picture's
/// ids do not change between runs (snapshots) or platforms.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// A text and an end mark (0xff is never part of UTF-8).
    fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
        self.bytes(&[0xff]);
    }
}

/// The id of the `<g>` that draws `grid`: a hash of its side and of each
/// pixel's colour, so equal drawings share one id.
fn grid_id(grid: &Pixels) -> String {
    let mut hash = Fnv::new();
    hash.bytes(&(grid.side as u64).to_le_bytes());
    for row in 0..grid.side {
        for col in 0..grid.side {
            hash.text(grid.at(row, col).unwrap_or(""));
        }
    }
    format!("p{:016x}", hash.0)
}

/// The id of the `<g>` that draws `sprite` over `fill` (a cell's), or
/// over nothing (a piece's).
fn stack_id(fill: Option<&str>, sprite: &Sprite) -> String {
    let mut hash = Fnv::new();
    match fill {
        Some(fill) => hash.text(fill),
        None => hash.bytes(&[0xfe]),
    }
    for grid in sprite {
        hash.text(&grid_id(grid));
    }
    format!("s{:016x}", hash.0)
}

/// A number as SVG writes it: at most four decimals, no trailing zeros.
fn number(value: f64) -> String {
    let text = format!("{value:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The rectangles that draw `grid`, in its own units (a pixel is 1 × 1):
/// each run of one colour along a row, grown down over the rows below
/// that have the same run, so a square of one colour is one `<rect>`.
fn grid_markup(id: &str, grid: &Pixels) -> String {
    // (x, y, width, height, colour)
    let mut rects: Vec<(usize, usize, usize, usize, &str)> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for row in 0..grid.side {
        let mut still_open = Vec::new();
        let mut col = 0;
        while col < grid.side {
            let Some(colour) = grid.at(row, col) else {
                col += 1;
                continue;
            };
            let start = col;
            while col < grid.side && grid.at(row, col) == Some(colour) {
                col += 1;
            }
            let width = col - start;
            let above = open.iter().copied().find(|&k| {
                let (x, _, w, _, c) = rects[k];
                x == start && w == width && c == colour
            });
            match above {
                Some(k) => {
                    rects[k].3 += 1;
                    still_open.push(k);
                }
                None => {
                    rects.push((start, row, width, 1, colour));
                    still_open.push(rects.len() - 1);
                }
            }
        }
        open = still_open;
    }
    let mut out = format!("<g id=\"{id}\">");
    for (x, y, width, height, colour) in rects {
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"{}\"/>",
            escape(colour)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The `<defs>` of the pixel art in `scenes`: each distinct grid once, and
/// each distinct stack of grids (over a cell's fill, or over nothing for a
/// piece) once, for the cells and pieces to `<use>`. Empty when no scene
/// has pixel art, so a game without any draws as it always has.
pub fn sprites<'a>(scenes: impl IntoIterator<Item = &'a Scene>) -> String {
    let mut seen: HashSet<String> = HashSet::new();
    let mut grids = String::new();
    let mut stacks = String::new();
    let mut last: Option<(Option<&str>, &Sprite)> = None;
    for scene in scenes {
        let cells = scene
            .cells
            .iter()
            .map(|look| (Some(&*look.fill), &look.sprite));
        let pieces = scene.pieces.iter().map(|piece| (None, &piece.sprite));
        for (fill, sprite) in cells.chain(pieces) {
            // Neighbouring cells are often alike: skip them without hashing.
            if sprite.is_empty() || last == Some((fill, sprite)) {
                continue;
            }
            last = Some((fill, sprite));
            let id = stack_id(fill, sprite);
            if !seen.insert(id.clone()) {
                continue;
            }
            let _ = write!(stacks, "<g id=\"{id}\" shape-rendering=\"crispEdges\">");
            if let Some(fill) = fill {
                let _ = write!(
                    stacks,
                    "<rect width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
                    escape(fill)
                );
            }
            for grid in sprite.iter().filter(|grid| grid.side > 0) {
                let grid_id = grid_id(grid);
                if seen.insert(grid_id.clone()) {
                    grids.push_str(&grid_markup(&grid_id, grid));
                }
                let _ = write!(
                    stacks,
                    "<use href=\"#{grid_id}\" transform=\"scale({})\"/>",
                    number(CELL as f64 / grid.side as f64)
                );
            }
            stacks.push_str("</g>\n");
        }
    }
    if grids.is_empty() && stacks.is_empty() {
        return String::new();
    }
    format!("<defs>\n{grids}{stacks}</defs>\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::{Frame, Look, Piece};

    /// A one-row board with one actor standing at `col`.
    fn scene(col: usize) -> Scene {
        Scene {
            width: 3,
            height: 1,
            cells: vec![Look::new("floor", "#ccc", '.'); 3],
            pieces: vec![Piece {
                name: "hero".into(),
                fill: "#f00".into(),
                glyph: 'H',
                cells: vec![(0, col)],
                actor: true,
                sprite: Vec::new(),
            }],
            links: Vec::new(),
        }
    }

    /// Frames of (where the actor stands, moves counted so far).
    fn playback(frames: &[(usize, Cost)]) -> Playback {
        Playback {
            frames: frames
                .iter()
                .map(|&(col, cost)| Frame {
                    scene: scene(col),
                    text: String::new(),
                    trail: Vec::new(),
                    cost,
                })
                .collect(),
            refused: None,
            won: true,
            contents: None,
            invented: Vec::new(),
            unsolved: None,
        }
    }

    /// The texts of the path's marks, in the order they are drawn.
    fn marks(picture: &str) -> Vec<String> {
        let start = picture.find("<g class=\"path\">").unwrap();
        let end = start + picture[start..].find("</g>").unwrap();
        picture[start..end]
            .split("<text ")
            .skip(1)
            .map(|text| text[text.find('>').unwrap() + 1..text.find('<').unwrap()].to_string())
            .collect()
    }

    #[test]
    fn a_step_on_the_spot_is_numbered_in_the_corner_of_the_actors_cell() {
        // A walk right (1), two steps on the spot (2, 3), a free one (no
        // number of its own), a walk right (4).
        let played = playback(&[(0, 0), (1, 1), (1, 2), (1, 3), (1, 3), (2, 4)]);
        let picture = picture(&played);
        // Every counted step has its number: the walks at their arrival,
        // the two on the spot together, in one mark, so neither hides the
        // other.
        assert_eq!(marks(&picture), ["1", "4", "2,3"]);
        // The mark sits in the top right corner of the cell it was taken
        // on (column 1: its right edge at x = 64), clear of the arrival's
        // number at the centre.
        let at = picture.find(">2,3<").unwrap();
        let rect = &picture[picture[..at].rfind("<rect").unwrap()..at];
        assert!(rect.contains("x=\"45.2\" y=\"0\" width=\"18.8\""), "{rect}");
        assert!(picture.contains(">step on the spot</text>"));
        // Without one, the legend does not mention it.
        let walk = super::picture(&playback(&[(0, 0), (1, 1)]));
        assert!(!walk.contains("step on the spot"));
        assert_eq!(marks(&walk), ["1"]);
    }

    #[test]
    fn a_picture_without_a_win_says_why_under_the_board_and_legend() {
        let mut nothing = playback(&[(0, 0)]);
        let (width, height) = size(&nothing);
        assert!(!picture(&nothing).contains("class=\"unsolved\""));
        let why = "unsolvable: no sequence of moves wins this level (6 states explored)";
        nothing.unsolved = Some(why.to_string());
        let drawn = picture(&nothing);
        // Said in full, over as many lines as the picture's width needs,
        // below everything else.
        let start = drawn.find("<g class=\"unsolved\">").unwrap();
        let lines: Vec<&str> = drawn[start..]
            .split("<text ")
            .skip(1)
            .map(|text| &text[text.find('>').unwrap() + 1..text.find('<').unwrap()])
            .collect();
        assert_eq!(lines.join(" "), why);
        assert!(
            lines.iter().all(|line| line.len() * 7 <= width),
            "{lines:?}"
        );
        assert_eq!(size(&nothing), (width, height + lines.len() * 18 + 12));
    }
}
