//! `puzzle-qa watch`: check every level once, then again whenever a level
//! file, an expectation file or a game file changes, only the levels the
//! change can affect (`watch/affects.rs`), with a compact table in the
//! terminal; with `--serve`, a local page of every level's card, updated
//! live, where a designer accepts or rejects each change
//! (`watch/serve.rs`; docs/watch.md).

use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use super::Exit;
use super::targets::{Group, Selection};
use crate::games;
use puzzle_qa_core::_cli_support::harness::Settings;

mod affects;
mod board;
mod events;
mod project;
mod runner;
mod serve;
mod table;

use board::Board;
use project::{Kind, Part};
use runner::{Loop, Message};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Stop it with Ctrl-C. It refuses to run when the CI environment variable is set.

With --serve it prints the page's address with its token, on a line of its own: \
http://127.0.0.1:PORT/?token=TOKEN. The page and its JSON API are described in docs/watch.md.")]
pub struct Args {
    /// What to watch: a repository root, a levels/ folder, a game folder,
    /// level files, or game files on their own (`mygame.txt`). Default: the
    /// repository here, or, where there is none, the game files on their
    /// own in this folder.
    #[arg(value_name = "PATH")]
    targets: Vec<String>,
    /// The game of the files given that stand outside any game's folder,
    /// instead of telling it from their text.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Also serve a page of every level, updated as checks finish, with
    /// Accept and Reject buttons, at ADDR (default 127.0.0.1:0, a free
    /// port on this machine only). An address other than loopback is
    /// warned about: anyone who can reach it and has the token can accept.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    serve: Option<String>,
    /// How long files must be quiet after a change before the check
    /// starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    debounce: u64,
}

/// `puzzle-qa watch`.
pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let environment = match Settings::for_command_line(".", games::all(), false) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    if environment.ci {
        eprintln!(
            "error: watch refused: the CI environment variable is set, and watch is for a \
             designer's machine (it keeps running, serves a page, and writes pending files)\n  \
             = hint: `puzzle-qa{} check` checks every level once",
            games::flags()
        );
        return Exit::BadInput;
    }
    let game = match args.game.as_deref() {
        None => None,
        Some(name) => match games::find(name) {
            Some(game) => Some(game),
            None => {
                eprintln!(
                    "error: unknown game `{name}`\n  = hint: games are {}",
                    games::names()
                );
                return Exit::BadInput;
            }
        },
    };
    let selection = match Selection::of(&args.targets, game) {
        Ok(selection) => selection,
        Err(message) => {
            eprint!("{message}");
            return Exit::BadInput;
        }
    };
    if let Some(filter) = selection.filters.first() {
        eprintln!(
            "error: no such file or folder: {filter}\n  = hint: watch takes paths (a \
             repository, a folder, level files, a game file on its own), not trial filters"
        );
        return Exit::BadInput;
    }
    let environment = Settings {
        repeat: super::check::repeat(memory),
        memory,
        ..environment
    };
    let settings = |root: PathBuf| {
        Arc::new(Settings {
            root,
            ..environment.clone()
        })
    };
    let mut parts: Vec<Part> = selection
        .groups
        .into_iter()
        .map(|(root, group)| Part {
            settings: settings(root),
            kind: match group {
                Group::Whole => Kind::Whole,
                Group::Levels(levels) => Kind::Files(levels),
            },
        })
        .collect();
    if !selection.standalone.is_empty() {
        parts.push(Part {
            settings: settings(selection.here.clone()),
            kind: Kind::Standalone(selection.standalone),
        });
    }
    let board = Arc::new(Board::default());
    let (send, receive) = mpsc::channel();
    let mut folders: Vec<_> = parts.iter().flat_map(Part::folders).collect();
    folders.sort();
    folders.dedup();
    let run = Loop::new(Arc::clone(&board), parts, send.clone());
    if let Some(address) = &args.serve {
        match serve::start(address, Arc::clone(&board)) {
            Ok((url, warning)) => {
                if let Some(warning) = warning {
                    eprintln!("{warning}");
                }
                // On a line of its own, first, for a person or a script to
                // open (as Jupyter prints its address).
                println!("{url}");
            }
            Err(message) => {
                eprintln!("error: {message}");
                return Exit::BadInput;
            }
        }
    }
    let _watching = match events::watch(
        &folders,
        Duration::from_millis(args.debounce),
        send.clone(),
        Message::Changed,
    ) {
        Ok(watching) => watching,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::BadInput;
        }
    };
    run.run(receive);
    Exit::Passed
}
