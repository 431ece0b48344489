//! The bounds of a search on the command line: `--memory SIZE` as people
//! write it, and what a message says to raise when a search stops at one.

use puzzle_qa_core::level::Solution;
use puzzle_qa_core::search::{Bound, Size, parse_size};

/// `--memory`'s reader: `4GiB`, `512MiB`, `1.5GB`, or an error that lists
/// the forms it takes.
pub fn memory_size(text: &str) -> Result<u64, String> {
    parse_size(text)
}

/// What to do about a search that stopped at a bound, for a command whose
/// bounds are its flags: which flag raises it and what it is now, then, for
/// a breadth-first search, how much its last depth grew.
pub fn raise_flag(solution: &Solution) -> String {
    let raise = match solution.bound() {
        Some(Bound::Memory) => format!("raise --memory (now {})", Size(solution.budget.bytes)),
        Some(Bound::Machine(_)) => format!(
            "this machine gave the search less memory than --memory ({}): free some, or run it \
             where there is more",
            Size(solution.budget.bytes)
        ),
        Some(Bound::States) | None => format!("raise --limit (now {})", solution.budget.states),
    };
    match solution.growth() {
        Some(growth) => format!("{raise}\n  = note: {growth}"),
        None => raise,
    }
}
