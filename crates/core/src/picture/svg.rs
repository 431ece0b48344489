//! Scenes as SVG, written by hand: a rectangle per cell, labels, arrows for
//! links, the pieces, the path of a playback (each step's footprint, a
//! numbered mark where an actor moved, a line or an arc between), and a
//! legend.

use std::fmt::Write as _;

use super::{Look, Playback, Scene};

/// The cells one piece covers.
type Cells = Vec<(usize, usize)>;

/// The side of one cell, in SVG units.
pub const CELL: usize = 32;
/// The legend's width, in SVG units.
const LEGEND: usize = 190;

/// The whole picture: the level as it starts, the path of every move, and
/// a legend of everything that appears.
pub fn picture(playback: &Playback) -> String {
    let first = &playback.frames[0].scene;
    let mut body = board(first);
    body.push_str(&path(playback));
    body.push_str(&pieces(first));
    body.push_str(&legend(playback, first.width * CELL + 12));
    let (width, height) = size(playback);
    document(width, height, &body)
}

/// The size of a picture of `playback` with its legend.
pub fn size(playback: &Playback) -> (usize, usize) {
    let first = &playback.frames[0].scene;
    let legend_height = legend_entries(playback).len() * 22 + 30;
    (
        first.width * CELL + 12 + LEGEND,
        (first.height * CELL).max(legend_height),
    )
}

/// A small picture of the level as it starts, without legend or path.
pub fn thumbnail(scene: &Scene, width: usize) -> String {
    let mut body = board(scene);
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

/// One cell's rectangle and label.
pub fn cell(row: usize, col: usize, look: &Look) -> String {
    let (x, y) = (col * CELL, row * CELL);
    let mut out = format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\" \
         stroke=\"#0b0e14\" stroke-width=\"1\"><title>{}</title></rect>",
        look.fill,
        escape(look.name)
    );
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
            escape(piece.name)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The cells of a scene that look different from `base`, then its pieces:
/// what one frame of a replay draws over the board.
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
    out.push_str(&pieces(scene));
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

/// The actors' path over a playback: a faint footprint per step, a line
/// (or the move's arc) from where each actor was to where it went, and the
/// step's number where it arrived.
pub fn path(playback: &Playback) -> String {
    let mut lines = String::new();
    let mut marks = String::new();
    let actors = |scene: &Scene| -> Vec<Cells> {
        scene
            .pieces
            .iter()
            .filter(|piece| piece.actor)
            .map(|piece| piece.cells.clone())
            .collect()
    };
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
    format!("<g class=\"path\">\n{lines}{marks}</g>\n")
}

/// Every (name, fill) drawn in the playback, cells first, in order of
/// first appearance.
fn legend_entries(playback: &Playback) -> Vec<(&'static str, &'static str)> {
    let mut entries = Vec::new();
    for frame in &playback.frames {
        let cells = frame.scene.cells.iter().map(|look| (look.name, look.fill));
        let pieces = frame
            .scene
            .pieces
            .iter()
            .map(|piece| (piece.name, piece.fill));
        for entry in cells.chain(pieces) {
            if !entries.contains(&entry) {
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
    for (name, fill) in legend_entries(playback) {
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"16\" height=\"16\" fill=\"{fill}\" stroke=\"#888\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#e8e8e8\">{}</text>",
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
    }
    out.push_str("</g>\n");
    out
}
