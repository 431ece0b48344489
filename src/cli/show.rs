//! `puzzle-qa show`: a level drawn, with its optimal solution (or the
//! given moves) overlaid: ASCII in the terminal, SVG, or an HTML replay.

use super::load::load;
use super::{Exit, ShowArgs};
use puzzle_qa_core::harness::replace_whole;
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::picture::{Playback, ascii, html, svg};
use puzzle_qa_core::search::{Algorithm, SearchOptions};

pub fn run(args: ShowArgs) -> Exit {
    if super::puzzlescript::recognise(&args.file, args.game.as_deref()) {
        return super::puzzlescript::show(&args);
    }
    let file = args.file.display().to_string();
    if args.level.is_some() || args.seed.is_some() {
        eprintln!(
            "error: --level and --seed are for PuzzleScript files (many levels, random rules); {file} is one level of its game\n  = hint: run `puzzle-qa show {file}`"
        );
        return Exit::BadInput;
    }
    let Some(loaded) = load(&args.file, args.game.as_deref(), None) else {
        return Exit::BadInput;
    };
    draw(&*loaded.loaded.level, loaded.game.name, &file, None, &args)
}

/// Draws `level` (of the game called `game`, read from `file`) as `args`
/// ask. Without `--moves`, a cheapest win is drawn, unless `unsolved` says
/// why the level has none to look for (then its start alone).
pub fn draw(
    level: &dyn AnyLevel,
    game: &str,
    file: &str,
    unsolved: Option<&str>,
    args: &ShowArgs,
) -> Exit {
    // The moves to draw: the given ones, or a cheapest win.
    let (moves, what) = match (&args.moves, unsolved) {
        (Some(moves), _) => (moves.clone(), "the given moves".to_string()),
        (None, Some(why)) => (String::new(), format!("no solution ({why})")),
        (None, None) => {
            let solution = level.solve(SearchOptions {
                algorithm: Algorithm::Bfs,
                limit: args.limit,
            });
            match (solution.par, solution.moves) {
                (Some(par), Some(moves)) => (moves, format!("a cheapest win, par {par}")),
                _ => (String::new(), format!("no solution ({})", solution.status)),
            }
        }
    };
    let playback = match level.playback(&moves) {
        Ok(Some(playback)) => playback,
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
    println!("{what}: {moves}");
    if let Some(reason) = &playback.refused {
        println!("stopped after {} moves: {reason}", playback.moves());
    } else if !playback.won && !moves.is_empty() {
        println!("the moves end before the level is won");
    }
}
