//! `puzzle-qa show`: a level drawn, with its optimal solution (or the
//! given moves) overlaid: ASCII in the terminal, SVG, or an HTML replay.

use std::path::PathBuf;

use super::Exit;
use super::load::{self, LevelArgs};
use puzzle_qa_core::_cli_support::harness::replace_whole;
use puzzle_qa_core::_cli_support::picture::{ascii, html, svg};
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::picture::Playback;
use puzzle_qa_core::search::{
    Algorithm, Bound, DEFAULT_MEMORY, DEFAULT_STATE_LIMIT, SearchOptions, Status,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write an SVG picture here: the level, a legend, and the path of every
    /// move numbered.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    /// Write a self-contained HTML replay here (play/pause, arrow keys).
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Draw these moves (the game's notation) instead of a cheapest win.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    moves: Option<String>,
    /// In the terminal, print the level after every move.
    #[arg(long)]
    step: bool,
    #[command(flatten)]
    level: LevelArgs,
    /// The most states the search for a cheapest win may store [default:
    /// none: the memory budget, --memory, bounds it].
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let Some(file) = load::one(&args.file, args.level.request()) else {
        return Exit::BadInput;
    };
    let game = file.game.name;
    let picked = file.into_level();
    // A level with no par (its game uses randomness, say) has no cheapest
    // win to look for: its start alone is drawn, unless --moves is given.
    let no_par = picked.level.no_par();
    let unsolved = no_par
        .as_ref()
        .map(|no_par| format!("the level has no par ({}): give --moves", no_par.status));
    draw(
        &*picked.level,
        game,
        &picked.label,
        unsolved.as_deref(),
        &args,
        memory.unwrap_or(DEFAULT_MEMORY),
    )
}

/// Draws `level` (of the game called `game`, read from `file`) as `args`
/// ask. Without `--moves`, a cheapest win is drawn, unless `unsolved` says
/// why the level has none to look for (then its start alone).
fn draw(
    level: &dyn AnyLevel,
    game: &str,
    file: &str,
    unsolved: Option<&str>,
    args: &Args,
    memory: u64,
) -> Exit {
    // The moves to draw: the given ones, or a cheapest win; without one,
    // why not, which the picture says.
    let (moves, what, no_win) = match (&args.moves, unsolved) {
        (Some(moves), _) => (moves.clone(), "the given moves".to_string(), None),
        (None, Some(why)) => (
            String::new(),
            format!("no solution ({why})"),
            Some(why.to_string()),
        ),
        (None, None) => {
            let solution = level.solve(SearchOptions {
                algorithm: Algorithm::Bfs,
                limit: args.limit.unwrap_or(DEFAULT_STATE_LIMIT),
                memory,
            });
            let no_win = solution.why_no_win();
            let raise = match solution.bound() {
                Some(Bound::Memory) => "raise --memory",
                Some(Bound::Machine(_)) => "free memory on this machine",
                Some(Bound::States) | None => "raise --limit",
            };
            match (solution.par, solution.moves) {
                (Some(par), Some(moves)) => (moves, format!("a cheapest win, par {par}"), None),
                // The command line can search further; a picture cannot.
                _ if solution.status == Status::Limit => (
                    String::new(),
                    format!("no solution ({})", solution.status),
                    no_win.map(|why| format!("{why} ({raise})")),
                ),
                _ => (
                    String::new(),
                    format!("no solution ({})", solution.status),
                    no_win,
                ),
            }
        }
    };
    let playback = match level.playback(&moves) {
        Ok(Some(playback)) => Playback {
            unsolved: no_win,
            ..playback
        },
        Ok(None) => {
            eprintln!("error: {game} levels cannot be drawn");
            return Exit::BadInput;
        }
        Err(error) => {
            eprintln!(
                "error: the moves do not read at column {}: {}",
                error.column, error.message
            );
            return Exit::BadInput;
        }
    };
    let intro = format!(
        "<p>{} · {} · {}</p>\n<p class=\"moves-text\"><code>{}</code></p>\n",
        svg::escape(file),
        svg::escape(game),
        svg::escape(&what),
        svg::escape(&moves)
    );
    let mut wrote = false;
    for (out, text) in [
        (
            &args.svg,
            args.svg.as_ref().map(|_| svg::picture(&playback)),
        ),
        (
            &args.html,
            args.html
                .as_ref()
                .map(|_| html::replay_page(file, &intro, &playback)),
        ),
    ] {
        if let (Some(out), Some(text)) = (out, text) {
            if let Err((what, error)) = replace_whole(out, &text) {
                eprintln!("error: cannot {what} {}: {error}", out.display());
                return Exit::BadInput;
            }
            println!("wrote {}", out.display());
            wrote = true;
        }
    }
    if !wrote {
        print_ascii(&playback, &what, &moves, args.step);
    }
    if playback.refused.is_some() || !playback.won {
        Exit::Failed
    } else {
        Exit::Passed
    }
}

fn print_ascii(playback: &Playback, what: &str, moves: &str, step: bool) {
    let start = &playback.frames[0].scene;
    if step {
        print!("{}", ascii::steps(playback));
    } else {
        print!("{}", ascii::grid(start));
    }
    print!("{}", ascii::key(start));
    match &playback.unsolved {
        Some(why) => println!("{why}"),
        None => println!("{what}: {moves}"),
    }
    if let Some(reason) = &playback.refused {
        println!("stopped after {} moves: {reason}", playback.moves());
    } else if !playback.won && !moves.is_empty() {
        println!("the moves end before the level is won");
    }
}
