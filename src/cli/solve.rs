//! `puzzle-qa solve`: par and one cheapest solution for each level (every
//! level of a file of several, or its `--level N`).

use std::path::PathBuf;

use serde::Serialize;

use super::Exit;
use super::bounds;
use super::load::{self, Picked, Request};
use puzzle_qa_core::game::Reachability;
use puzzle_qa_core::level::{HangReport, Solution};
use puzzle_qa_core::search::{
    Algorithm, DEFAULT_MEMORY, DEFAULT_STATE_LIMIT, SearchOptions, Status,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Level files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The game of every FILE, instead of telling it from its folder (or, for a
    /// file outside any game's folder, from its text).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// The most states one search may store before giving up [default:
    /// none: the memory budget, --memory, bounds it].
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// The solver to run.
    #[arg(long, default_value = "bfs", value_parser = algorithm_parser())]
    algorithm: Algorithm,
    /// For files of many levels (PuzzleScript): solve only level N
    /// (counting grid levels from 1); without it, every level.
    #[arg(long, value_name = "N")]
    level: Option<u64>,
    /// Print one JSON object per level instead of a table.
    #[arg(long)]
    json: bool,
}

/// `--algorithm`'s values: the solvers' names, with clap's "possible values"
/// help and its error for any other.
fn algorithm_parser() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name)).map(|name| {
        Algorithm::ALL
            .into_iter()
            .find(|algorithm| algorithm.name() == name)
            .expect("clap accepts only the listed names")
    })
}

/// One line of `solve --json`; scripts depend on these names.
#[derive(Serialize)]
struct SolveLine<'a> {
    file: &'a str,
    game: &'a str,
    /// `solved`, `unsolvable` or `limit`; for a level with no par, why
    /// (`random`, `realtime`).
    status: &'a str,
    par: Option<u32>,
    expanded: u64,
    stored: u64,
    ms: f64,
    solution: Option<&'a str>,
    /// The level's number in its file, for a file of several levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u64>,
    /// The first move the search met that never settles (then `status` is
    /// `hang` unless a win was found too); absent when every move settled.
    #[serde(skip_serializing_if = "Option::is_none")]
    hang: Option<&'a HangReport>,
    /// What the search kept, and why it stopped at a bound.
    #[serde(flatten)]
    memory: Option<bounds::KeptJson<'a>>,
}

pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let options = SearchOptions {
        algorithm: args.algorithm,
        limit: args.limit.unwrap_or(DEFAULT_STATE_LIMIT),
        memory: memory.unwrap_or(DEFAULT_MEMORY),
    };
    let request = Request {
        game: args.game.as_deref(),
        level: args.level,
        seed: None,
    };
    let mut verdict = Exit::Passed;
    let mut rows = Vec::new();
    for path in &args.files {
        let Some(file) = load::every(path, request) else {
            verdict = verdict.max(Exit::BadInput);
            continue;
        };
        if file.bad {
            verdict = verdict.max(Exit::BadInput);
        }
        let game = file.game.name;
        if options.algorithm == Algorithm::Astar
            && file
                .levels
                .iter()
                .any(|picked| !picked.level.offers_heuristic())
        {
            eprintln!(
                "note: {game} offers no heuristic; A* runs as Dijkstra on {}",
                file.shown
            );
        }
        // A level with no par says why once a file: its status says which.
        let mut noted = false;
        for picked in &file.levels {
            let level = &picked.level;
            if let Some(reach) = level.reachability() {
                if !reach.ok() {
                    verdict = verdict.max(Exit::Failed);
                }
                print_reachability(picked, &file.shown, game, &reach, args.json);
                continue;
            }
            if let Some(no_par) = level.no_par() {
                if !noted {
                    eprintln!("note: {}: {}", file.shown, no_par.note);
                    noted = true;
                }
                if args.json {
                    print_json(picked, &file.shown, game, no_par.status, None);
                } else {
                    println!("{}: {} (no par)", picked.label, no_par.status);
                }
                continue;
            }
            let solution = level.solve(options);
            if solution.status != Status::Solved || solution.hang.is_some() {
                verdict = verdict.max(Exit::Failed);
            }
            if args.json {
                let status = solution.status.to_string();
                print_json(picked, &file.shown, game, &status, Some(&solution));
            } else {
                rows.push((picked.label.clone(), solution));
            }
        }
    }
    if !args.json && !rows.is_empty() {
        print_table(&rows);
    }
    verdict
}

/// One line of `solve --json` for a reachability game; scripts depend on
/// these names.
#[derive(Serialize)]
struct ReachLine<'a> {
    file: &'a str,
    game: &'a str,
    /// `ok`, or `problems` (exit 1).
    status: &'a str,
    #[serde(flatten)]
    reach: &'a Reachability,
}

/// What a reachability game finds on `picked`, a level of the file shown
/// as `file`: a line of JSON, or a sentence and a line per problem.
fn print_reachability(picked: &Picked, file: &str, game: &str, reach: &Reachability, json: bool) {
    let status = if reach.ok() { "ok" } else { "problems" };
    if json {
        let line = ReachLine {
            file,
            game,
            status,
            reach,
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("plain data serializes")
        );
        return;
    }
    let goal: Vec<String> = reach
        .goal
        .iter()
        .map(|(who, reached)| format!("{who} {}", if *reached { "yes" } else { "no" }))
        .collect();
    println!("{}: {status} (goal: {})", picked.label, goal.join(", "));
    for short in &reach.shortfalls {
        let [row, col] = short.collectible;
        let [from_row, from_col] = short.from;
        let what = reach.collectible;
        println!(
            "  {what} at ({row}, {col}) out of reach: the nearest spot reached is ({from_row}, \
             {from_col}); the {what} is {} and {} across from it",
            short.height(),
            short.sideways
        );
    }
    for [row, col] in &reach.traps {
        println!(
            "  trap at ({row}, {col}): a {} standing there can never reach the goal",
            reach.player
        );
    }
}

/// One line of `solve --json` for `picked`, a level of the file shown as
/// `file`: its `solution`, or none for a level with no par.
fn print_json(picked: &Picked, file: &str, game: &str, status: &str, solution: Option<&Solution>) {
    let line = SolveLine {
        file,
        game,
        status,
        par: solution.and_then(|solution| solution.par),
        expanded: solution.map_or(0, |solution| solution.stats.expanded),
        stored: solution.map_or(0, |solution| solution.stats.stored),
        ms: solution.map_or(0.0, |solution| solution.stats.milliseconds()),
        solution: solution.and_then(|solution| solution.moves.as_deref()),
        level: picked.number,
        hang: solution.and_then(|solution| solution.hang.as_ref()),
        memory: solution.map(bounds::KeptJson::of),
    };
    println!(
        "{}",
        serde_json::to_string(&line).expect("plain data serializes")
    );
}

fn print_table(rows: &[(String, Solution)]) {
    let header = [
        "level", "status", "par", "expanded", "stored", "ms", "solution",
    ];
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|(file, solution)| {
            [
                file.clone(),
                solution.status.to_string(),
                solution.par.map_or("-".into(), |par| par.to_string()),
                solution.stats.expanded.to_string(),
                solution.stats.stored.to_string(),
                format!("{:.2}", solution.stats.milliseconds()),
                solution.moves.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |row: [&str; 7]| {
        // Text columns align left, numbers right; the solution is last and
        // left unpadded.
        let mut out = format!(
            "{:<w0$}  {:<w1$}",
            row[0],
            row[1],
            w0 = widths[0],
            w1 = widths[1]
        );
        for (cell, width) in row[2..6].iter().zip(&widths[2..6]) {
            out.push_str(&format!("  {cell:>width$}"));
        }
        out.push_str("  ");
        out.push_str(row[6]);
        println!("{}", out.trim_end());
    };
    line(header);
    for row in &cells {
        line(row.each_ref().map(String::as_str));
    }
    let solved = rows
        .iter()
        .filter(|(_, solution)| solution.status == Status::Solved)
        .count();
    println!("\n{solved} of {} levels solved", rows.len());
    for (label, solution) in rows {
        if solution.status == Status::Limit {
            println!(
                "{label}: the search stopped at {}\n  = hint: {}",
                solution.stopped_at(),
                bounds::raise_flag(solution)
            );
        }
        if let Some(hang) = &solution.hang {
            println!(
                "{label}: a move never settles: {}\n  reached by the fewest moves `{}`",
                hang.reason, hang.moves
            );
        }
    }
}
