//! Scenes as text for the terminal: one character per cell, pieces over
//! tiles, a key of the characters used, and a key of those a game made up
//! for what its level files give no character.

use super::{Playback, Scene};

/// The grid of `scene`, one line per row.
pub fn grid(scene: &Scene) -> String {
    let mut rows: Vec<Vec<char>> = scene
        .cells
        .chunks(scene.width)
        .map(|row| row.iter().map(|look| look.glyph).collect())
        .collect();
    for piece in &scene.pieces {
        for &(row, col) in &piece.cells {
            rows[row][col] = piece.glyph;
        }
    }
    rows.into_iter()
        .map(|row| format!("{}\n", row.into_iter().collect::<String>().trim_end()))
        .collect()
}

/// What each character of `scene` stands for, in order of first use.
pub fn key(scene: &Scene) -> String {
    let mut seen: Vec<(char, &str)> = Vec::new();
    let looks = scene.cells.iter().map(|look| (look.glyph, &*look.name));
    let pieces = scene.pieces.iter().map(|piece| (piece.glyph, &*piece.name));
    for entry in looks.chain(pieces) {
        if !seen.contains(&entry) {
            seen.push(entry);
        }
    }
    let shown: Vec<String> = seen
        .into_iter()
        .map(|(glyph, name)| match glyph {
            ' ' => format!("(space) {name}"),
            _ => format!("{glyph} {name}"),
        })
        .collect();
    format!("key: {}\n", shown.join(", "))
}

/// What each character the grids of `playback` use that no level file
/// defines stands for ([`Playback::invented`]), as a line; empty when
/// every character is the game's own.
pub fn invented(playback: &Playback) -> String {
    if playback.invented.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = playback
        .invented
        .iter()
        .map(|(glyph, meaning)| format!("{glyph} {meaning}"))
        .collect();
    format!("not in the legend: {}\n", shown.join(", "))
}

/// Every frame of `playback`, each under a line naming its move.
pub fn steps(playback: &Playback) -> String {
    let total = playback.moves();
    let mut out = String::new();
    for (index, frame) in playback.frames.iter().enumerate() {
        match index {
            0 => out.push_str("start\n"),
            _ => out.push_str(&format!("move {index}/{total}: {}\n", frame.text)),
        }
        out.push_str(&grid(&frame.scene));
        out.push('\n');
    }
    out
}
