//! `puzzle-qa bless`: `check`, then the machine-owned expectations of the
//! selected levels rewritten to what the checks found.

use super::Exit;
use super::check::{Asked, Mode, check};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to bless, as for `check`. Default: every level under ./levels,
    /// or, where there is no repository, the game files on their own here.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// The game of the files given that stand outside any game's folder,
    /// instead of telling it from their text.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Also delete the expectations no level has: the tables of a file of
    /// many levels past its last level (or kept as `removed-N`), of the
    /// files blessed; and, when a whole repository is blessed, expectation
    /// files whose level file is gone. Not with a filter.
    #[arg(long)]
    prune: bool,
}

/// `puzzle-qa bless`.
pub fn run(args: Args, memory: Option<u64>) -> Exit {
    let mode = if args.prune {
        Mode::BlessAndPrune
    } else {
        Mode::Bless
    };
    let asked = Asked {
        targets: &args.targets,
        game: args.game.as_deref(),
        memory,
    };
    check(asked, false, None, mode)
}
