//! `puzzle-qa ablate`: which mechanics (and, with `--objects`, which single
//! pieces) a level needs, by re-solving it without each.

use std::borrow::Cow;
use std::path::PathBuf;

use serde::Serialize;

use super::Exit;
use super::bounds;
use super::load::{self, Request};
use puzzle_qa_core::_cli_support::ablation::{self, Ablated, Class};
use puzzle_qa_core::game::Reachability;
use puzzle_qa_core::level::{AnyLevel, HangReport};
use puzzle_qa_core::search::{
    Algorithm, DEFAULT_MEMORY, DEFAULT_STATE_LIMIT, SearchOptions, Status,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Also remove each single object, hole, plate, gate or cat alone (each
    /// gets its mechanic's replacement on its own cell).
    #[arg(long)]
    objects: bool,
    /// The game of FILE, instead of telling it from its folder (or, for a
    /// file outside any game's folder, from its text).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// For a file of many levels (PuzzleScript): the level to ablate,
    /// counting grid levels from 1 (default 1).
    #[arg(long, value_name = "N")]
    level: Option<u64>,
    /// The most states one search may store before giving up [default:
    /// none: the memory budget, --memory, bounds it].
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Print one JSON object: {file, game, par, mechanics: {NAME: {class, par,
    /// line, dead}}, objects: [{mechanic, at: [row, col], replacement, class,
    /// par}]} (objects is empty without --objects).
    #[arg(long)]
    json: bool,
}

/// `ablate --json`; scripts depend on these names.
#[derive(Serialize)]
struct AblateJson<'a> {
    file: &'a str,
    game: &'a str,
    par: Option<u32>,
    /// The level's number in its file, for a file of many levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u64>,
    /// Keyed by mechanic name, in the game's order.
    mechanics: Mechanics<'a>,
    /// Empty unless `--objects`.
    objects: Vec<ObjectLine<'a>>,
    /// A move of the level itself that never settles: then nothing is
    /// classed.
    #[serde(skip_serializing_if = "Option::is_none")]
    hang: Option<&'a HangReport>,
}

/// Mechanics in the game's order (a map that keeps insertion order when
/// serialized, without pulling in an ordered-map crate).
struct Mechanics<'a>(Vec<(&'a str, MechanicLine)>);

impl Serialize for Mechanics<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, line) in &self.0 {
            map.serialize_entry(name, line)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct MechanicLine {
    class: Class,
    par: Option<u32>,
    /// The line of the level file that defines the mechanic (a
    /// PuzzleScript rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    /// The mechanic takes part in no state the level can reach (a dead
    /// rule): decoration, found without a search.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    dead: bool,
    /// For a reachability game: what the removal puts out of reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<Vec<String>>,
    /// Without it, a move never settles (the class is then essential).
    #[serde(skip_serializing_if = "Option::is_none")]
    hang: Option<HangReport>,
}

#[derive(Serialize)]
struct ObjectLine<'a> {
    mechanic: &'a str,
    at: [usize; 2],
    replacement: &'a str,
    class: Class,
    par: Option<u32>,
}

pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let request = Request {
        game: args.game.as_deref(),
        level: args.level,
        seed: None,
    };
    let Some(loaded) = load::one(&args.file, request) else {
        return Exit::BadInput;
    };
    let (game, file) = (loaded.game.name, loaded.shown.clone());
    let picked = loaded.into_level();
    let level = picked.level.as_ref();
    if let Some(before) = level.reachability() {
        return reachability(&file, game, level, &before, args.json);
    }
    let options = SearchOptions {
        algorithm: Algorithm::Bfs,
        limit: args.limit.unwrap_or(DEFAULT_STATE_LIMIT),
        memory: memory.unwrap_or(DEFAULT_MEMORY),
    };
    let mechanics = level.mechanics();
    let pieces = if args.objects {
        level.pieces()
    } else {
        Vec::new()
    };
    let solution = level.solve(options);
    // A level that itself has a move that never settles gets no classes.
    let mut hang = solution.hang.clone();
    let (mechanics, pieces): (Vec<Ablated>, Vec<Ablated>) = if hang.is_some() {
        (Vec::new(), Vec::new())
    } else if solution.status == Status::Limit {
        eprintln!(
            "error: the search of {file} stopped at {}; its ablations were skipped, so every \
             class is unknown\n  = hint: {}",
            solution.stopped_at(),
            bounds::raise_flag(&solution)
        );
        let unknown = |ablation| Ablated {
            ablation,
            class: Class::Unknown,
            solution: solution.clone(),
            idle: false,
        };
        (
            mechanics.into_iter().map(unknown).collect(),
            pieces.into_iter().map(unknown).collect(),
        )
    } else {
        let count = mechanics.len();
        match ablation::run(
            level,
            solution.par,
            mechanics.into_iter().chain(pieces).collect(),
            options,
        ) {
            Ok(mut all) => {
                let pieces = all.split_off(count);
                (all, pieces)
            }
            Err(found) => {
                hang = Some(found);
                (Vec::new(), Vec::new())
            }
        }
    };
    if let Some(hang) = &hang {
        eprintln!(
            "error: a move of {file} never settles, so nothing is classed: {}\n  reached by the \
             fewest moves `{}`",
            hang.reason, hang.moves
        );
    }
    let unknown = mechanics
        .iter()
        .chain(&pieces)
        .any(|result| result.class == Class::Unknown);

    if args.json {
        let report = AblateJson {
            file: &file,
            game,
            par: solution.par,
            level: picked.number,
            mechanics: Mechanics(
                mechanics
                    .iter()
                    .map(|result| {
                        let line = MechanicLine {
                            class: result.class,
                            // A copy that hangs has no par to be classed by.
                            par: result
                                .solution
                                .par
                                .filter(|_| result.solution.hang.is_none()),
                            line: result.ablation.line,
                            dead: result.idle,
                            lost: None,
                            hang: result.solution.hang.clone(),
                        };
                        (result.ablation.mechanic.as_ref(), line)
                    })
                    .collect(),
            ),
            objects: pieces
                .iter()
                .map(|result| {
                    let (row, col) = result.ablation.at.expect("a piece has a cell");
                    ObjectLine {
                        mechanic: &result.ablation.mechanic,
                        at: [row, col],
                        replacement: &result.ablation.replacement,
                        class: result.class,
                        par: result.solution.par,
                    }
                })
                .collect(),
            hang: hang.as_ref(),
        };
        println!(
            "{}",
            serde_json::to_string(&report).expect("plain data serializes")
        );
    } else {
        print_text(&file, game, &solution, &mechanics, &pieces, args.objects);
    }
    if unknown || hang.is_some() {
        Exit::Failed
    } else {
        Exit::Passed
    }
}

/// A reachability game has no par to compare: a mechanic is essential when
/// taking it out puts a goal or a snack out of reach, and decoration when
/// nothing is lost.
fn reachability(
    file: &str,
    game: &str,
    level: &dyn AnyLevel,
    before: &Reachability,
    json: bool,
) -> Exit {
    let lines: Vec<(Cow<'static, str>, Cow<'static, str>, Vec<String>)> = level
        .mechanics()
        .into_iter()
        .map(|ablation| {
            let after = level
                .ablated(&ablation)
                .reachability()
                .expect("the same game");
            (
                ablation.mechanic,
                ablation.replacement,
                after.lost_since(before),
            )
        })
        .collect();
    let class = |lost: &[String]| {
        if lost.is_empty() {
            Class::Decoration
        } else {
            Class::Essential
        }
    };
    if json {
        let report = AblateJson {
            file,
            game,
            par: None,
            level: None,
            mechanics: Mechanics(
                lines
                    .iter()
                    .map(|(mechanic, _, lost)| {
                        let line = MechanicLine {
                            class: class(lost),
                            par: None,
                            line: None,
                            dead: false,
                            lost: Some(lost.clone()),
                            hang: None,
                        };
                        (mechanic.as_ref(), line)
                    })
                    .collect(),
            ),
            objects: Vec::new(),
            hang: None,
        };
        println!(
            "{}",
            serde_json::to_string(&report).expect("plain data serializes")
        );
        return Exit::Passed;
    }
    println!("{file} ({game}): reachability");
    if lines.is_empty() {
        println!("no mechanics to ablate");
    }
    for (mechanic, replacement, lost) in &lines {
        let what = if lost.is_empty() {
            "nothing is lost".to_string()
        } else {
            format!("lost: {}", lost.join(", "))
        };
        println!(
            "{mechanic} (each becomes {replacement}): {}; {what}",
            class(lost).name()
        );
    }
    Exit::Passed
}

fn print_text(
    file: &str,
    game: &str,
    solution: &puzzle_qa_core::level::Solution,
    mechanics: &[Ablated],
    pieces: &[Ablated],
    objects: bool,
) {
    let par = solution
        .par
        .map_or_else(|| solution.status.to_string(), |par| format!("par {par}"));
    println!("{file} ({game}): {par}, {} states", solution.stats.stored);
    if mechanics.is_empty() {
        println!("no mechanics to ablate");
        return;
    }
    let mut rows = vec![[
        "mechanic".to_string(),
        "replacement".to_string(),
        "class".to_string(),
        "par".to_string(),
        "states".to_string(),
    ]];
    for result in mechanics {
        let name = match result.ablation.line {
            Some(line) => format!("{} (line {line})", result.ablation.mechanic),
            None => result.ablation.mechanic.to_string(),
        };
        rows.push(row(result, name));
    }
    println!();
    print_rows(&rows);
    if objects {
        let mut rows = vec![[
            "piece".to_string(),
            "replacement".to_string(),
            "class".to_string(),
            "par".to_string(),
            "states".to_string(),
        ]];
        for result in pieces {
            let (row_, col) = result.ablation.at.expect("a piece has a cell");
            rows.push(row(
                result,
                format!("{} at ({row_}, {col})", result.ablation.mechanic),
            ));
        }
        println!("\neach piece removed alone:");
        print_rows(&rows);
    }
    let decoration = mechanics
        .iter()
        .chain(pieces)
        .filter(|result| result.class == Class::Decoration)
        .count();
    if decoration > 0 {
        println!(
            "\n{decoration} decoration: the par does not change without {}",
            if decoration == 1 { "it" } else { "them" }
        );
    }
    // The level's own search decided, but some copy's did not: say which
    // bound stopped it, and how to raise it.
    let unknown: Vec<&Ablated> = mechanics
        .iter()
        .chain(pieces)
        .filter(|result| result.class == Class::Unknown)
        .collect();
    if let Some(first) = unknown.first()
        && solution.status != Status::Limit
    {
        println!(
            "\n{} unknown: the search without {} stopped at {}\n  = hint: {}",
            unknown.len(),
            if unknown.len() == 1 {
                "it"
            } else {
                "the first"
            },
            first.solution.stopped_at(),
            bounds::raise_flag(&first.solution)
        );
    }
    let goal = mechanics
        .iter()
        .chain(pieces)
        .filter(|result| result.class == Class::Goal)
        .count();
    if goal > 0 {
        let (them, they) = if goal == 1 {
            ("it", "it is")
        } else {
            ("them", "they are")
        };
        println!(
            "{goal} goal: a win condition names {them}, so {they} not taken out (without {them}, \
             winning would mean something else)"
        );
    }
    for result in mechanics.iter().chain(pieces) {
        if result.solution.hang.is_some() {
            println!(
                "\n{} is essential: without it, {}",
                result.what(),
                result.effect(solution.par)
            );
        }
    }
    let dead = mechanics.iter().filter(|result| result.idle).count();
    if dead > 0 {
        println!(
            "{dead} dead: {} in no state the level can reach, so {} no search",
            if dead == 1 {
                "it takes part"
            } else {
                "they take part"
            },
            if dead == 1 {
                "it needed"
            } else {
                "they needed"
            }
        );
    }
}

fn row(result: &Ablated, name: String) -> [String; 5] {
    let hangs = result.solution.hang.is_some();
    let par = match result.class {
        Class::Unknown => "?".to_string(),
        _ if hangs => "-".to_string(),
        _ => result
            .solution
            .par
            .map_or("-".to_string(), |par| par.to_string()),
    };
    [
        name,
        result.ablation.replacement.to_string(),
        if result.idle {
            // Found without a search: it fires in no reachable state.
            format!("{} (dead)", result.class.name())
        } else if hangs {
            format!("{} (hangs)", result.class.name())
        } else {
            result.class.name().to_string()
        },
        par,
        if result.idle || result.class == Class::Goal {
            "-".to_string()
        } else {
            result.solution.stats.stored.to_string()
        },
    ]
}

fn print_rows(rows: &[[String; 5]]) {
    let widths: Vec<usize> = (0..5)
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, width))| {
                if column >= 3 {
                    format!("{cell:>width$}")
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
}
