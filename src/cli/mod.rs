//! The `puzzle-qa` command line. Game-neutral: it reaches games only through
//! the registry and [`puzzle_qa_core::level::AnyLevel`], and reads every
//! level file the same way (`load.rs`). Each command is a file of its own,
//! its arguments beside its code; this one parses them and dispatches.
//!
//! Exit status, for every command: 2 if any input is bad or the usage is
//! wrong, else 1 if any level fails, else 0.

mod ablate;
mod bless;
mod bounds;
mod check;
mod generate;
mod load;
mod pages;
mod replay;
mod report;
mod review;
mod show;
mod solve;
mod targets;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "puzzle-qa",
    version,
    about = "QA for puzzle-game levels: solve them, prove their par, replay solutions, \
             ablate their mechanics",
    after_help = "The game of a level is its parent folder's name (levels/GAME/NAME.txt is a GAME \
                  level), unless --game names it.\n\
                  Exit status: 0 all good, 1 a level failed, 2 bad input or usage."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// A game whose rules run in its own process (docs/protocol.md): its
    /// manifest. Level files given without --game are that game's. The
    /// repository's own `levels/*/game.toml` are read without it.
    #[arg(long, value_name = "PATH", global = true)]
    game_manifest: Vec<PathBuf>,
    /// For the commands that search: the most memory one search may keep
    /// (its states, visited table and queue), such as 4GiB or 512MiB
    /// [default: 2GiB]. A level's own `memory` key wins over it
    /// (docs/reliability.md).
    #[arg(long, value_name = "SIZE", global = true, value_parser = bounds::memory_size)]
    memory: Option<u64>,
    /// For the commands that search: how many threads they run on. One
    /// level's search expands its frontier on all of them; many levels
    /// share them [default: RAYON_NUM_THREADS, else one per core]. Results
    /// are the same for any count (docs/cli.md).
    #[arg(long, value_name = "N", global = true, value_parser = threads)]
    threads: Option<usize>,
}

/// `--threads`'s reader: a whole number, at least 1.
fn threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) | Err(_) => Err(format!(
            "`{text}` is not a thread count: write a whole number, at least 1, such as 4"
        )),
        Ok(threads) => Ok(threads),
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check every level against its expectations (the main job): the checks
    /// its game lists (docs/checks.md says what each proves), then orphans.
    /// Exit 1 if any check fails.
    Check(check::Args),
    /// Rewrite the machine-owned expectations of the selected levels to what
    /// the checks found, and report each change; designer-owned keys and
    /// comments are kept. Refused when the CI environment variable is set.
    Bless(bless::Args),
    /// Compare the levels and expectations with a commit (`--base main`):
    /// new, removed and renamed levels, par and value changes, mechanics
    /// turned decoration, stale expectations and failing checks, worst
    /// first; as text, --markdown (a CI step summary) or --json. Exit 1 if a
    /// check fails or expectations are stale.
    Report(report::Args),
    /// Find a cheapest win for each level and print its par and solution;
    /// for a reachability game (a platformer), who reaches the goal, what is
    /// out of reach (with the jump that falls short) and the traps. Exit 1
    /// if a level is not solved or has reachability problems.
    Solve(solve::Args),
    /// Play a move text through a level's rules and say whether it wins.
    Replay(replay::Args),
    /// Re-solve a level without each of its mechanics (and, with --objects,
    /// without each single piece) and classify it: essential, shortcut,
    /// decoration, obstacle, or unknown (state limit hit; exit 1).
    Ablate(ablate::Args),
    /// Make a new level by evolution: random levels are solved, the
    /// solvable ones mutated and the fittest kept (par first, then search
    /// effort, less for decoration), until one meets the target or time runs
    /// out. Writes the level and its expectation file, then checks them.
    /// Exit 1 if the target was not met (the best level is written anyway).
    #[command(
        after_help = "Same --seed and --generations, same level, whatever the thread \
                            count. A run bounded by --time (or stopped by Ctrl-C, which writes \
                            the best level so far) is not reproducible as such; the notes in the \
                            expectation file give the --generations that remake it."
    )]
    Generate(generate::Args),
    /// Draw a level with its cheapest win (or --moves) overlaid: ASCII in
    /// the terminal (every move with --step), an SVG picture (--svg), or a
    /// self-contained HTML page that replays it (--html). Exit 1 if the
    /// level is not solved or the moves do not win.
    Show(show::Args),
    /// Go through the pending changes (what bless would write, kept by
    /// `check` and `cargo test` for each stale level), worst first: what
    /// changed and why, the expectation diff, the level where the old and
    /// the new solution part. Accept, reject or skip each; --accept,
    /// --reject and --list --json do it without a terminal.
    Review(review::Args),
    /// Check every level, then again whenever a level file, an expectation
    /// file or a game file changes: only the levels the change can affect,
    /// with a live table. --serve also serves a page of every level, updated
    /// as checks finish, where each change is accepted or rejected
    /// (docs/watch.md).
    Watch(watch::Args),
}

/// How a command went, in exit-status order: the worst one wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Exit {
    Passed = 0,
    Failed = 1,
    BadInput = 2,
}

impl From<Exit> for ExitCode {
    fn from(verdict: Exit) -> ExitCode {
        ExitCode::from(verdict as u8)
    }
}

/// Runs the command line and returns the exit status.
pub fn main() -> ExitCode {
    quit_quietly_on_a_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            // clap exits 2 for usage errors, 0 for --help and --version.
            return ExitCode::from(error.exit_code() as u8);
        }
    };
    puzzle_qa_core::_cli_support::harness::share_machine_memory();
    if let Err(message) = puzzle_qa_core::_cli_support::harness::use_threads(cli.threads) {
        eprintln!("error: {message}");
        return Exit::BadInput.into();
    }
    if let Err(message) = crate::games::register(repository().as_deref(), &cli.game_manifest) {
        eprint!("{message}");
        return Exit::BadInput.into();
    }
    // A game over the process protocol that fails mid-command (it crashed,
    // hung or answered nonsense) ends the command with its message.
    let memory = cli.memory;
    let run = move || match cli.command {
        Command::Check(args) => check::run(args, memory),
        Command::Bless(args) => bless::run(args, memory),
        Command::Report(args) => report::run(args, memory),
        Command::Review(args) => review::run(args),
        Command::Solve(args) => solve::run(args, memory),
        Command::Replay(args) => replay::run(args),
        Command::Ablate(args) => ablate::run(args, memory),
        Command::Generate(args) => generate::run(args, memory),
        Command::Show(args) => show::run(args, memory),
        Command::Watch(args) => watch::run(args, memory),
    };
    match puzzle_qa_core::_cli_support::caught(run) {
        Ok(verdict) => verdict.into(),
        Err(message) => {
            eprintln!("error: {message}");
            Exit::Failed.into()
        }
    }
}

/// The repository the command runs in: the nearest folder, from the
/// current one up, that holds a `levels/` folder.
fn repository() -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    here.ancestors()
        .find(|folder| folder.join("levels").is_dir())
        .map(PathBuf::from)
}

/// `puzzle-qa check | head -3`: when the reader goes away, end at once and
/// quietly, as Unix tools do, instead of panicking in `println!`. Rust
/// ignores SIGPIPE, so that a write fails with an error; the default action
/// ends the process, which is what a pipeline expects.
fn quit_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread starts;
    // setting a signal's action to its default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
