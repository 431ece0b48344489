//! The bounds of a search on the command line: `--memory SIZE` as people
//! write it, and what a message says to raise when a search stops at one.

use serde::Serialize;

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
            "this machine gave the search less memory than its budget (--memory, now {}): free \
             some, or run it where there is more; a smaller --memory gives a verdict that does \
             not depend on the machine",
            Size(solution.budget.bytes)
        ),
        Some(Bound::States) | None => format!("raise --limit (now {})", solution.budget.states),
    };
    match solution.growth() {
        Some(growth) => format!("{raise}\n  = note: {growth}"),
        None => raise,
    }
}

/// The fields of `solve --json` and `check --json` that say what a search
/// kept, and, when its status is `limit`, which bound it reached.
#[derive(Serialize)]
pub struct KeptJson<'a> {
    /// The most bytes the search's own buffers held at once.
    kept_bytes: u64,
    /// `kept_bytes` over the states stored.
    bytes_per_state: f64,
    /// `states`, `memory` or `machine`: the bound reached (status `limit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    /// Why the machine stopped the search (`limit` is `machine`).
    #[serde(skip_serializing_if = "Option::is_none")]
    limit_reason: Option<&'a str>,
    /// How much the last complete depth of a breadth-first search that
    /// stopped grew on the one before: `{depth, states, growth}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_depth: Option<LastDepth>,
}

/// The last complete depth of a breadth-first search that stopped.
#[derive(Serialize)]
pub struct LastDepth {
    depth: u32,
    states: u64,
    /// Its states over the depth before's.
    growth: f64,
}

impl<'a> KeptJson<'a> {
    /// What `solution` says about memory and bounds.
    pub fn of(solution: &'a Solution) -> Self {
        let reached = solution.reached.as_ref();
        KeptJson {
            kept_bytes: solution.stats.kept_bytes,
            bytes_per_state: (solution.stats.kept_per_state() * 10.0).round() / 10.0,
            limit: reached.map(|reached| reached.bound.name()),
            limit_reason: reached.and_then(|reached| reached.bound.reason()),
            last_depth: reached
                .and_then(|reached| reached.depths)
                .and_then(|depths| {
                    Some(LastDepth {
                        depth: depths.deepest,
                        states: depths.states,
                        growth: (depths.growth()? * 100.0).round() / 100.0,
                    })
                }),
        }
    }
}
