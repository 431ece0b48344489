//! puzzle-qa's core: prove that puzzle levels are solvable, that their par is
//! the true optimum, and that their solutions win under the game's own rules.
//! It names no game: games plug in through [`game::Game`].
//!
//! A game is its rules, a pure function of a state and a move
//! ([`game::Game`]), a reader of its level files, and a [`harness::GameChecks`]
//! that names them; its level suite is then one call to [`harness::main`].
//! Here is the skeleton of `examples/sokoban`, whole:
//!
//! ```
//! use puzzle_qa_core::checks::SEARCH;
//! use puzzle_qa_core::diagnostic::Diagnostic;
//! use puzzle_qa_core::game::{Cost, Game, NotationError};
//! use puzzle_qa_core::harness::GameChecks;
//! use puzzle_qa_core::level::Loaded;
//!
//! /// A level: its walls and goals, a row after another, and its start.
//! struct Sokoban {
//!     width: usize,
//!     walls: Vec<bool>,
//!     goals: Vec<bool>,
//!     start: Vec<u16>,
//! }
//!
//! /// A state is the player's cell, then the boxes' cells in order (so that
//! /// two states that play alike are equal); a slice is its own key.
//! impl Game for Sokoban {
//!     type State = [u16];
//!     type Key = ();
//!     type Move = usize; // up, down, left, right
//!     type Refusal = &'static str;
//!
//!     fn start(&self) -> Vec<u16> {
//!         self.start.clone()
//!     }
//!     fn key(&self, _: &[u16]) {}
//!     fn is_won(&self, state: &[u16]) -> bool {
//!         state[1..].iter().all(|&cell| self.goals[usize::from(cell)])
//!     }
//!     fn moves(&self, _: &[u16]) -> impl Iterator<Item = usize> {
//!         0..4
//!     }
//!     fn step(&self, state: &[u16], mv: usize) -> Result<(Vec<u16>, Cost), &'static str> {
//!         // Walls close every level, so a step from a floor cell stays inside.
//!         let offset = [-(self.width as isize), self.width as isize, -1, 1][mv];
//!         let beside = |cell: u16| (cell as isize + offset) as u16;
//!         let wall = |cell: u16| self.walls[usize::from(cell)];
//!         let to = beside(state[0]);
//!         if wall(to) {
//!             return Err("a wall is in the way");
//!         }
//!         let mut next = state.to_vec();
//!         next[0] = to;
//!         if let Some(pushed) = state[1..].iter().position(|&cell| cell == to) {
//!             let beyond = beside(to);
//!             if wall(beyond) || state[1..].contains(&beyond) {
//!                 return Err("the box cannot move");
//!             }
//!             next[1 + pushed] = beyond;
//!             next[1..].sort_unstable();
//!         }
//!         Ok((next, 1))
//!     }
//!     fn format_moves(&self, moves: &[usize]) -> String {
//!         moves.iter().map(|&mv| ['U', 'D', 'L', 'R'][mv]).collect()
//!     }
//!     fn parse_moves(&self, text: &str) -> Result<Vec<usize>, NotationError> {
//!         let letter = |(at, c): (usize, char)| {
//!             "UDLR".find(c.to_ascii_uppercase())
//!                 .ok_or_else(|| NotationError::new(at + 1, format!("unknown move `{c}`")))
//!         };
//!         text.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(letter).collect()
//!     }
//! }
//!
//! /// Reads a level: `#` wall, `@` the player, `$` a box, `.` a goal, `*` a
//! /// box on a goal, `+` the player on a goal; an error says where.
//! fn load(text: &str) -> Result<Loaded, Diagnostic> {
//!     let rows: Vec<&str> = text.lines().collect();
//!     let width = rows.iter().map(|row| row.len()).max().unwrap_or(0);
//!     let mut level = Sokoban { width, walls: Vec::new(), goals: Vec::new(), start: vec![0] };
//!     let mut players = 0;
//!     for (line, row) in rows.iter().enumerate() {
//!         for col in 0..width {
//!             let cell = level.walls.len() as u16;
//!             let c = row.as_bytes().get(col).copied().unwrap_or(b'#');
//!             level.walls.push(c == b'#');
//!             level.goals.push(matches!(c, b'.' | b'*' | b'+'));
//!             match c {
//!                 b'@' | b'+' => (level.start[0], players) = (cell, players + 1),
//!                 b'$' | b'*' => level.start.push(cell),
//!                 b'#' | b'.' | b' ' => {}
//!                 _ => {
//!                     let what = format!("unknown cell `{}`", char::from(c));
//!                     return Err(Diagnostic::error(what).at(line + 1, col + 1, 1));
//!                 }
//!             }
//!         }
//!     }
//!     if players != 1 {
//!         return Err(Diagnostic::error(format!("{players} players; a level has one")));
//!     }
//!     Ok(Loaded::new(level, Vec::new()))
//! }
//!
//! /// The game as the harness checks it: files `levels/sokoban/*.txt`, the
//! /// standard checks (parse, solvable, par, replay, routes, ablation).
//! const SOKOBAN: GameChecks = GameChecks::new("sokoban", "txt", &load, SEARCH);
//!
//! /// The level suite, `tests/levels.rs` (with `harness = false`): a trial
//! /// per level and check, and bless.
//! fn levels() -> std::process::ExitCode {
//!     puzzle_qa_core::harness::main(env!("CARGO_MANIFEST_DIR"), ".", &[SOKOBAN])
//! }
//!
//! // The search finds the par the suite holds a level to.
//! let level = (SOKOBAN.load)("######\n#@ $.#\n######").unwrap().level;
//! let solution = level.solve(Default::default());
//! assert_eq!((solution.par, solution.moves.as_deref()), (Some(2), Some("RR")));
//! assert_eq!(level.replay_text("R L").unwrap().won, false);
//! let error = (SOKOBAN.load)("#@x#").err().unwrap();
//! assert_eq!((error.line, error.column), (1, 3));
//! # let _ = levels;
//! ```
//!
//! See ARCHITECTURE.md for a map of the modules.

#![warn(missing_docs, unreachable_pub)]

pub mod abandon;
mod ablation;
pub mod checks;
pub mod diagnostic;
pub mod game;
pub mod generate;
pub mod harness;
pub mod level;
pub mod picture;
pub mod replay;
pub mod search;

/// Not part of the API: what the `puzzle-qa` command line (and this
/// repository's own tests and benchmarks) use beyond what a game needs,
/// as insta's `_cargo_insta_support` is cargo-insta's. It may change in
/// any release; a game never needs it.
#[doc(hidden)]
pub mod _cli_support {
    pub use crate::abandon::caught;

    /// Solving a level's ablated copies, and their classes.
    pub mod ablation {
        pub use crate::ablation::*;
    }

    /// The generator's loop, and writing what it made.
    pub mod generate {
        pub use crate::generate::evolve::{
            Budget, DEFAULT_LIMIT, Generated, Milestone, Progress, run,
        };
        pub use crate::generate::fitness::{Evaluated, Fitness};
        pub use crate::generate::output::{Placement, write_level};
    }

    /// The harness's runner: levels found, checked, blessed, pending,
    /// pruned and reported.
    pub mod harness {
        pub use crate::harness::bless::replace_whole;
        pub use crate::harness::diff::unified;
        pub use crate::harness::discover::{
            LevelEntry, expectations_beside, levels, orphan_expectations,
        };
        pub use crate::harness::env::{
            PENDING_DIR, THREADS, UPDATE, machine_memory, share_machine_memory, use_threads,
        };
        pub use crate::harness::keys::{FINGERPRINT, HARNESS_KEYS};
        pub use crate::harness::libtest::run;
        pub use crate::harness::pending::{
            SUFFIX as PENDING_SUFFIX, accept, orphan_pending, pending_path, proposal, reject,
        };
        pub use crate::harness::prune::{Pruned, prune_files, prune_tables, prune_tables_of};
        pub use crate::harness::renumber::{Renumbering, tables_taken};
        pub use crate::harness::settings::{
            Frontend, PendingPlace, Scope, Settings, review_written, shell_word,
        };
        pub use crate::harness::subject::{LevelFile, Verdict};
        pub use crate::harness::suite::{ORPHANS, Suite, afterword};
    }

    /// Reading level files from disk.
    pub mod level {
        pub use crate::level::{fingerprint, read_level, read_levels, read_text};
    }

    /// The renderers: scenes as text, SVG and HTML.
    pub mod picture {
        /// Scenes as text for the terminal.
        pub mod ascii {
            pub use crate::picture::ascii::*;
        }
        /// Scenes as SVG pictures.
        pub mod svg {
            pub use crate::picture::svg::*;
        }
        /// Playbacks as HTML pages.
        pub mod html {
            pub use crate::picture::html::*;
        }
    }
}
