//! The checks a search game runs on each of its levels. They are game-neutral:
//! each asks [`Subject`](crate::harness::Subject) for the parsed level, its
//! expectations and its shared solution, and never names a game.
//!
//! | check | fails when | owns |
//! |---|---|---|
//! | `parse` | the level or its expectation file does not load, or the latter has a key no check owns | — |
//! | `solvable` | the search hits its state limit, or its verdict differs from `status` | `status` (machine) |
//! | `par` | the solver's optimum differs from `par` | `par` (machine) |
//! | `replay` | the solver's own path does not win at par when replayed; `solution` no longer wins at par | `solution` (machine) |
//! | `routes` | a designer route no longer wins, wins below par, or is `optimal` and above par | `routes` (designer) |

mod parse;
mod routes;
mod search;

pub use parse::Parse;
pub use routes::{Route, Routes};
pub use search::{Par, Replay, Solvable};

use crate::harness::Check;

/// The checks of a game whose levels are solved by search, in trial order.
pub static SEARCH: &[&dyn Check] = &[&Parse, &Solvable, &Par, &Replay, &Routes];
