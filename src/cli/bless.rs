//! `puzzle-qa bless`: `check`, then the machine-owned expectations of the
//! selected levels rewritten to what the checks found.

use super::Exit;
use super::check::{Mode, check};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to bless, as for `check`. Default: every level under ./levels.
    #[arg(value_name = "PATH|FILTER")]
    targets: Vec<String>,
    /// Also delete expectation files whose level no longer exists (only
    /// when a whole repository is blessed; otherwise they are reported and
    /// kept).
    #[arg(long)]
    prune: bool,
}

/// `puzzle-qa bless`.
pub fn run(args: Args) -> Exit {
    let mode = if args.prune {
        Mode::BlessAndPrune
    } else {
        Mode::Bless
    };
    check(&args.targets, false, None, mode)
}
