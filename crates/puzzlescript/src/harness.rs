//! A PuzzleScript file as the harness checks it: one file holds the whole
//! game and many levels, each level a subject of its own
//! (`puzzlescript::<file>::<N>::<check>`, N counting grid levels from 1,
//! message entries aside), checked with the core's search checks.

use std::sync::Arc;

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::{Loaded, LoadedMany, Many, Member};

use crate::compile::LevelData;
use crate::level::Level;
use crate::play::DEFAULT_SEED;

/// PuzzleScript, for the harness: files under `levels/puzzlescript/`
/// ending in `.txt`, each a whole game.
pub const GAME: GameChecks = GameChecks::new(
    "puzzlescript",
    "txt",
    &load_first,
    puzzle_qa_core::checks::SEARCH,
)
.with_many(Many::new(count_levels, load_levels))
.recognised_by(crate::looks_like);

/// How many grid levels the file holds: it is parsed, not compiled.
fn count_levels(text: &str) -> usize {
    let mut log = crate::log::Log::default();
    crate::parse(text, &mut log)
        .levels
        .iter()
        .filter(|entry| matches!(entry, crate::ast::LevelEntry::Grid { .. }))
        .count()
}

/// The file compiled once; each grid level played from its own start. A
/// file that does not compile gives every error, as the official editor
/// lists them.
fn load_levels(text: &str) -> Result<LoadedMany, Vec<Diagnostic>> {
    let (game, warnings) = crate::load(text)?;
    let game = Arc::new(game);
    let lines: Vec<&str> = text.lines().collect();
    let levels = game
        .levels()
        .iter()
        .enumerate()
        .filter_map(|(index, entry)| match entry {
            LevelData::Grid(grid) => Some((index, grid)),
            LevelData::Message(_) => None,
        })
        .map(|(index, grid)| {
            let rows = lines
                .get(grid.line - 1..(grid.line - 1 + grid.height).min(lines.len()))
                .unwrap_or_default();
            let level = Level::new(Arc::clone(&game), index, DEFAULT_SEED)
                .map(|level| Loaded::new(level, Vec::new()))
                .ok_or_else(|| Diagnostic::error("the level cannot be loaded").at(grid.line, 1, 1));
            Member {
                level,
                text: rows.join("\n"),
                line: grid.line,
                title: None,
            }
        })
        .collect();
    Ok(LoadedMany { levels, warnings })
}

/// The file read as one level: its first.
fn load_first(text: &str) -> Result<Loaded, Diagnostic> {
    let mut file = load_levels(text).map_err(first_error)?;
    let warnings = std::mem::take(&mut file.warnings);
    match file.levels.into_iter().next() {
        Some(member) => member.level.map(|loaded| Loaded {
            warnings: warnings.into_iter().chain(loaded.warnings).collect(),
            ..loaded
        }),
        None => Err(Diagnostic::error("the game has no levels")),
    }
}

/// The compile's first error, saying how many more there are.
fn first_error(errors: Vec<Diagnostic>) -> Diagnostic {
    let more = errors.len().saturating_sub(1);
    let first = errors
        .into_iter()
        .next()
        .unwrap_or_else(|| Diagnostic::error("the game does not compile"));
    match more {
        0 => first,
        1 => first.with_hint("1 more error follows; `puzzle-qa solve FILE` lists them all"),
        n => first.with_hint(format!(
            "{n} more errors follow; `puzzle-qa solve FILE` lists them all"
        )),
    }
}
