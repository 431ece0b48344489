//! PuzzleScript files at the command line: telling one apart, `solve` of
//! its levels, `replay` of one of them through the engine, move by move,
//! and `show` of one, drawn in the game's own art.

use std::path::Path;

use serde::Serialize;

use std::sync::Arc;

use super::{Exit, ReplayArgs, ShowArgs};
use puzzle_qa_core::diagnostic::{Diagnostic, text_of};
use puzzle_qa_core::level::{AnyLevel, Solution};
use puzzle_qa_core::search::{SearchOptions, Status};

/// The game's name, as `--game` and the level folder spell it.
pub const NAME: &str = "puzzlescript";

/// Whether `path` is a PuzzleScript file: `--game puzzlescript`, a file
/// under a `puzzlescript/` folder, or (with no `--game` and a folder that
/// names no game) a text with PuzzleScript's section headers.
pub fn recognise(path: &Path, game: Option<&str>) -> bool {
    if let Some(game) = game {
        return game == NAME;
    }
    if crate::games::named().is_some() {
        return false;
    }
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|f| f.to_str());
    if folder == Some(NAME) {
        return true;
    }
    if folder.is_some_and(|f| crate::games::find(f).is_some()) {
        return false;
    }
    std::fs::read(path)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .is_some_and(|t| puzzlescript::looks_like(&t))
}

/// The line of `replay --json` for a PuzzleScript level: the fields every
/// game's replay prints, then the level played and its cells.
#[derive(Serialize)]
struct ReplayLine<'a> {
    file: &'a str,
    won: bool,
    moves: usize,
    failed_at: Option<usize>,
    reason: Option<&'a str>,
    level: u64,
    cells: &'a [Vec<Vec<String>>],
}

/// Reads and compiles a game file, printing its warnings, or its errors
/// (then `None`: bad input).
fn compile(path: &Path) -> Option<(String, puzzlescript::compile::Game)> {
    let shown = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => match text_of(bytes, &shown) {
            Ok(text) => text,
            Err(message) => {
                eprint!("{message}");
                return None;
            }
        },
        Err(error) => {
            eprintln!("error: cannot read {shown}: {error}");
            return None;
        }
    };
    match puzzlescript::load(&text) {
        Ok((game, warnings)) => {
            for w in warnings {
                eprint!("{}", w.render(&shown, &text));
            }
            Some((shown, game))
        }
        Err(errors) => {
            for e in errors {
                eprint!("{}", e.render(&shown, &text));
            }
            None
        }
    }
}

/// One line of `solve --json` for a PuzzleScript level: every game's
/// fields, then the level. A game that uses randomness has no par: its
/// status is `random`.
#[derive(Serialize)]
struct SolveLine<'a> {
    file: &'a str,
    game: &'a str,
    status: &'a str,
    par: Option<u32>,
    expanded: u64,
    stored: u64,
    ms: f64,
    solution: Option<&'a str>,
    level: u64,
}

/// `puzzle-qa solve` of a PuzzleScript file: level `only`, or every level.
/// Table rows go to `rows` (labelled `FILE level N`).
pub fn solve(
    path: &Path,
    options: SearchOptions,
    only: Option<u64>,
    json: bool,
    rows: &mut Vec<(String, Solution)>,
) -> Exit {
    let Some((shown, game)) = compile(path) else {
        return Exit::BadInput;
    };
    let count = puzzlescript::play::grid_count(&game) as u64;
    if only.is_some_and(|n| n > count) {
        eprintln!(
            "error: {shown} has {count} levels; there is no level {}",
            only.unwrap_or(0)
        );
        return Exit::BadInput;
    }
    let game = Arc::new(game);
    let mut verdict = Exit::Passed;
    let mut noted = false;
    for n in (1..=count).filter(|n| only.is_none_or(|o| o == *n)) {
        let index = puzzlescript::play::grid_index(&game, n as usize).expect("n is a level");
        let level = puzzlescript::level::Level::new(
            Arc::clone(&game),
            index,
            puzzlescript::play::DEFAULT_SEED,
        )
        .expect("a grid level");
        // A level of a random or real-time game has no par: its status
        // says which, and the note why (once a file).
        let no_par = AnyLevel::no_par(&level);
        if let Some(no_par) = &no_par
            && !noted
        {
            eprintln!("note: {shown}: {}", no_par.note);
            noted = true;
        }
        let solution = no_par.is_none().then(|| level.solve(options));
        if solution
            .as_ref()
            .is_some_and(|s| s.status != Status::Solved)
        {
            verdict = Exit::Failed;
        }
        if json {
            let status = match &solution {
                None => no_par.as_ref().map_or("random", |no_par| no_par.status),
                Some(s) => match s.status {
                    Status::Solved => "solved",
                    Status::Unsolvable => "unsolvable",
                    Status::Limit => "limit",
                },
            };
            let line = SolveLine {
                file: &shown,
                game: NAME,
                status,
                par: solution.as_ref().and_then(|s| s.par),
                expanded: solution.as_ref().map_or(0, |s| s.stats.expanded),
                stored: solution.as_ref().map_or(0, |s| s.stats.stored),
                ms: solution.as_ref().map_or(0.0, |s| s.stats.milliseconds()),
                solution: solution.as_ref().and_then(|s| s.moves.as_deref()),
                level: n,
            };
            println!(
                "{}",
                serde_json::to_string(&line).expect("plain data serializes")
            );
        } else if let Some(s) = solution {
            rows.push((format!("{shown} level {n}"), s));
        } else {
            let status = no_par.as_ref().map_or("random", |no_par| no_par.status);
            println!("{shown} level {n}: {status} (no par)");
        }
    }
    verdict
}

/// Level `n` of a game (default 1) and its index among all levels,
/// messages included; `None` once the error is printed (bad input).
fn level_of(
    shown: &str,
    game: &puzzlescript::compile::Game,
    n: Option<u64>,
) -> Option<(u64, usize)> {
    let level = n.unwrap_or(1);
    let index = puzzlescript::play::grid_index(game, level as usize);
    if index.is_none() {
        eprintln!(
            "error: {shown} has {} levels; there is no level {level}\n  = hint: levels count from 1, message entries aside",
            puzzlescript::play::grid_count(game)
        );
    }
    Some((level, index?))
}

/// `puzzle-qa replay` of a PuzzleScript level.
pub fn replay(args: &ReplayArgs) -> Exit {
    let Some((shown, game)) = compile(&args.file) else {
        return Exit::BadInput;
    };
    let Some((level, index)) = level_of(&shown, &game, args.level) else {
        return Exit::BadInput;
    };
    let moves =
        match puzzlescript::play::parse_moves(&args.moves, puzzlescript::play::Notation::of(&game))
        {
            Ok(moves) => moves,
            Err((column, message)) => {
                let d =
                    Diagnostic::error(format!("the moves do not read: {message}")).at(1, column, 1);
                eprint!("{}", d.render("--moves", &args.moves));
                return Exit::BadInput;
            }
        };
    let seed = args
        .seed
        .as_deref()
        .unwrap_or(puzzlescript::play::DEFAULT_SEED);
    let Some(played) = puzzlescript::play::replay(&game, index, &moves, seed) else {
        eprintln!("error: {shown}: level {level} cannot be loaded");
        return Exit::BadInput;
    };
    if args.json {
        let line = ReplayLine {
            file: &shown,
            won: played.won,
            moves: played.moves,
            failed_at: played.stopped_at,
            reason: played.reason.as_deref(),
            level,
            cells: &played.cells,
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("plain data serializes")
        );
    } else {
        println!("{shown} level {level}: start");
        print!("{}", played.frames[0]);
        for (i, frame) in played.frames.iter().enumerate().skip(1) {
            println!(
                "after move {i} ({})",
                puzzlescript::play::move_letter(moves[i - 1])
            );
            print!("{frame}");
        }
        match (played.won, played.stopped_at) {
            (true, Some(i)) => println!(
                "{shown} level {level}: wins in {} moves; move {} and after are spare",
                played.moves,
                i + 1
            ),
            (true, None) => println!("{shown} level {level}: wins in {} moves", played.moves),
            (false, Some(i)) => println!(
                "{shown} level {level}: stops at move {} after {} moves: {}",
                i + 1,
                played.moves,
                played.reason.as_deref().unwrap_or("")
            ),
            (false, None) => println!(
                "{shown} level {level}: does not win ({} moves)",
                played.moves
            ),
        }
    }
    if played.won {
        Exit::Passed
    } else {
        Exit::Failed
    }
}

/// `puzzle-qa show` of a PuzzleScript level (`--level N`, 1 by default),
/// drawn as every game's is; a game that uses randomness is played with
/// `--seed` and has no cheapest win to look for, so without `--moves` its
/// start alone is drawn.
pub fn show(args: &ShowArgs) -> Exit {
    let Some((shown, game)) = compile(&args.file) else {
        return Exit::BadInput;
    };
    let Some((level, index)) = level_of(&shown, &game, args.level) else {
        return Exit::BadInput;
    };
    let seed = args
        .seed
        .as_deref()
        .unwrap_or(puzzlescript::play::DEFAULT_SEED);
    let random = game.uses_random();
    let Some(drawn) = puzzlescript::level::Level::new(Arc::new(game), index, seed) else {
        eprintln!("error: {shown}: level {level} cannot be loaded");
        return Exit::BadInput;
    };
    let unsolved = random.then_some("the game uses randomness: give --moves");
    super::show::draw(
        &drawn,
        NAME,
        &format!("{shown} level {level}"),
        unsolved,
        args,
    )
}
