//! `puzzle-qa solve`: par and one cheapest solution for each level.

use serde::Serialize;

use super::load::load;
use super::{Exit, SolveArgs};
use puzzle_qa_core::game::Reachability;
use puzzle_qa_core::level::Solution;
use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

/// One line of `solve --json`; scripts depend on these names.
#[derive(Serialize)]
struct SolveLine<'a> {
    file: &'a str,
    game: &'a str,
    status: Status,
    par: Option<u32>,
    expanded: u64,
    stored: u64,
    ms: f64,
    solution: Option<&'a str>,
}

pub fn run(args: SolveArgs) -> Exit {
    let options = SearchOptions {
        algorithm: args.algorithm,
        limit: args.limit,
    };
    let mut verdict = Exit::Passed;
    let mut rows = Vec::new();
    for path in &args.files {
        let file = path.display().to_string();
        if super::puzzlescript::recognise(path, args.game.as_deref()) {
            let levels =
                super::puzzlescript::solve(path, options, args.level, args.json, &mut rows);
            verdict = verdict.max(levels);
            continue;
        }
        if args.level.is_some() {
            eprintln!(
                "error: --level picks a level of a file of many levels (PuzzleScript); {file} is one level of its game"
            );
            verdict = verdict.max(Exit::BadInput);
            continue;
        }
        let Some(loaded) = load(path, args.game.as_deref(), None) else {
            verdict = verdict.max(Exit::BadInput);
            continue;
        };
        let level = &loaded.loaded.level;
        if let Some(reach) = level.reachability() {
            if !reach.ok() {
                verdict = verdict.max(Exit::Failed);
            }
            print_reachability(&file, loaded.game.name, &reach, args.json);
            continue;
        }
        if options.algorithm == Algorithm::Astar && !level.offers_heuristic() {
            eprintln!(
                "note: {} offers no heuristic; A* runs as Dijkstra on {file}",
                loaded.game.name
            );
        }
        let solution = level.solve(options);
        if solution.status != Status::Solved {
            verdict = verdict.max(Exit::Failed);
        }
        if args.json {
            print_json(&file, loaded.game.name, &solution);
        } else {
            rows.push((file, solution));
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

fn print_reachability(file: &str, game: &str, reach: &Reachability, json: bool) {
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
    println!("{file}: {status} (goal: {})", goal.join(", "));
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

pub(super) fn print_json(file: &str, game: &str, solution: &Solution) {
    let line = SolveLine {
        file,
        game,
        status: solution.status,
        par: solution.par,
        expanded: solution.stats.expanded,
        stored: solution.stats.stored,
        ms: solution.stats.milliseconds(),
        solution: solution.moves.as_deref(),
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
}
