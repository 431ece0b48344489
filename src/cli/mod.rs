//! The `puzzle-qa` command line. Game-neutral: it reaches games only through
//! the registry and [`puzzle_qa_core::level::AnyLevel`].
//!
//! Exit status, for every command: 2 if any input is bad or the usage is
//! wrong, else 1 if any level fails, else 0.

mod ablate;
mod check;
mod generate;
mod load;
mod pages;
mod puzzlescript;
mod replay;
mod report;
mod review;
mod show;
mod solve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use puzzle_qa_core::game::Cost;
use puzzle_qa_core::search::{Algorithm, DEFAULT_STATE_LIMIT};

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
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check every level against its expectations (the main job): the checks
    /// its game lists (docs/checks.md says what each proves), then orphans.
    /// Exit 1 if any check fails.
    Check(CheckArgs),
    /// Rewrite the machine-owned expectations of the selected levels to what
    /// the checks found, and report each change; designer-owned keys and
    /// comments are kept. Refused when the CI environment variable is set.
    Bless(BlessArgs),
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
    Solve(SolveArgs),
    /// Play a move text through a level's rules and say whether it wins.
    Replay(ReplayArgs),
    /// Re-solve a level without each of its mechanics (and, with --objects,
    /// without each single piece) and classify it: essential, shortcut,
    /// decoration, obstacle, or unknown (state limit hit; exit 1).
    Ablate(AblateArgs),
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
    Generate(GenerateArgs),
    /// Draw a level with its cheapest win (or --moves) overlaid: ASCII in
    /// the terminal (every move with --step), an SVG picture (--svg), or a
    /// self-contained HTML page that replays it (--html). Exit 1 if the
    /// level is not solved or the moves do not win.
    Show(ShowArgs),
    /// Go through the pending changes (what bless would write, kept by
    /// `check` and `cargo test` for each stale level), worst first: what
    /// changed and why, the expectation diff, the level where the old and
    /// the new solution part. Accept, reject or skip each; --accept,
    /// --reject and --list --json do it without a terminal.
    Review(review::Args),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// What to check: a repository root, a levels/ folder, a game folder, level
    /// files, or trial-name filters such as `GAME::LEVEL` or `::par`
    /// (a check runs if its trial name contains any filter). Default: every
    /// level under ./levels.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// Print one JSON object per level (and one for `orphans`) instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the report as HTML pages into DIR: an index (failures
    /// first, a thumbnail per level) and a replay page per level.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Check mode: write nothing into the repository (no pending files;
    /// PUZZLE_QA_UPDATE=no does the same under `cargo test`). Without it, a
    /// stale level's change is kept as a pending file for `puzzle-qa
    /// review`, except in CI.
    #[arg(long)]
    check: bool,
}

#[derive(clap::Args, Debug)]
struct BlessArgs {
    /// What to bless, as for `check`. Default: every level under ./levels.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// Also delete expectation files whose level no longer exists (only
    /// when a whole repository is blessed; otherwise they are reported and
    /// kept).
    #[arg(long)]
    prune: bool,
}

#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// Level files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The game of every FILE, instead of inferring it from the folder name.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// The most states one search may store before giving up.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STATE_LIMIT)]
    limit: usize,
    /// The solver to run.
    #[arg(long, default_value = "bfs", value_parser = algorithm_parser())]
    algorithm: Algorithm,
    /// For files of many levels (PuzzleScript): solve only level N
    /// (counting grid levels from 1); without it, every level.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    level: Option<u64>,
    /// Print one JSON object per level instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The moves, in the game's notation (docs/games/ gives each game's).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    moves: String,
    /// The game of FILE, instead of inferring it from the folder name (or,
    /// for PuzzleScript, from the file's section headers).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// For a file of many levels (PuzzleScript): the level to play, counting
    /// grid levels from 1 (message entries are not levels).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    level: Option<u64>,
    /// For a game that uses randomness: the seed of its random generator.
    #[arg(long, value_name = "TEXT")]
    seed: Option<String>,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct AblateArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Also remove each single object, hole, plate, gate or cat alone (each
    /// gets its mechanic's replacement on its own cell).
    #[arg(long)]
    objects: bool,
    /// The game of FILE, instead of inferring it from the folder name.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// For a file of many levels (PuzzleScript): the level to ablate,
    /// counting grid levels from 1 (default 1).
    #[arg(long, value_name = "N")]
    level: Option<u64>,
    /// The most states one search may store before giving up.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STATE_LIMIT)]
    limit: usize,
    /// Print one JSON object: {file, game, par, mechanics: {NAME: {class, par}},
    /// objects: [{mechanic, at: [row, col], replacement, class, par}]}
    /// (objects is empty without --objects).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// The game to make a level for (one that has a level generator).
    #[arg(value_name = "GAME")]
    game: String,
    /// The par the level must reach.
    #[arg(long, value_name = "N")]
    min_par: Cost,
    /// The grid's width, at most (default: the game's usual size).
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// The grid's height, at most.
    #[arg(long, value_name = "H")]
    height: Option<usize>,
    /// The mechanic kinds the generator may place, comma-separated, by the
    /// names `ablate` reports (default: all the game has).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    mechanics: Vec<String>,
    /// At least this many distinct mechanic kinds in the level.
    #[arg(long, value_name = "K", default_value_t = 0)]
    min_mechanics: usize,
    /// Every mechanic in the level must be needed: not decoration.
    #[arg(long)]
    require_needed: bool,
    /// The random seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Stop after N generations (reproducible).
    #[arg(long, value_name = "N")]
    generations: Option<u64>,
    /// Stop after SECS seconds (default 600 when --generations is not given;
    /// not reproducible).
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// The level file to write [default: levels/GAME/gen-SEED.txt]; its
    /// expectations go to expectations/GAME/ beside that levels/ folder, or
    /// next to the file outside a repository.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the level and expectation files if they exist.
    #[arg(long)]
    force: bool,
    /// The most states one search may store; a candidate that needs more is
    /// dropped (the default keeps the run fast; the suite's own limit is
    /// higher, so a written level always passes it).
    #[arg(long, value_name = "N", default_value_t = puzzle_qa_core::generate::DEFAULT_LIMIT)]
    limit: usize,
    /// Print one JSON object: {file, expectations, game, seed, par,
    /// mechanics: {NAME: class}, target_met, checks_passed, generations,
    /// candidates, seconds, history: [{generation, seconds, par}]}.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
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
    /// The game of FILE, instead of inferring it from the folder name (or,
    /// for PuzzleScript, from the file's section headers).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// For a file of many levels (PuzzleScript): the level to draw, counting
    /// grid levels from 1 (message entries are not levels).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    level: Option<u64>,
    /// For a game that uses randomness: the seed of its random generator.
    #[arg(long, value_name = "TEXT")]
    seed: Option<String>,
    /// The most states the search for a cheapest win may store.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STATE_LIMIT)]
    limit: usize,
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
    if let Err(message) = crate::games::register(repository().as_deref(), &cli.game_manifest) {
        eprint!("{message}");
        return Exit::BadInput.into();
    }
    // A game over the process protocol that fails mid-command (it crashed,
    // hung or answered nonsense) ends the command with its message.
    let run = move || match cli.command {
        Command::Check(args) => check::run(
            &args.targets,
            args.json,
            args.html.as_deref(),
            if args.check {
                check::Mode::CheckOnly
            } else {
                check::Mode::Check
            },
        ),
        Command::Bless(args) => {
            let mode = if args.prune {
                check::Mode::BlessAndPrune
            } else {
                check::Mode::Bless
            };
            check::run(&args.targets, false, None, mode)
        }
        Command::Report(args) => report::run(args),
        Command::Review(args) => review::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Ablate(args) => ablate::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Show(args) => show::run(args),
    };
    match puzzle_qa_core::abandon::caught(run) {
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
