//! Bloxorz: a 1×1×2 block rolls over tiles to drop upright into the goal.
//!
//! * [`level`]: the level file format and its checks.
//! * [`rules`]: the pure step function and the state encoding.
//! * [`notation`]: move text.
//! * `ablate`: the mechanics ablation takes out (`weak-tile`,
//!   `strong-switch`, `bridge`, `teleport`).
//! * `bound`: the A* heuristic, distances to a win in relaxed games,
//!   computed once per level (and per ablated copy) when A* first asks.

mod ablate;
mod bound;
pub mod level;
mod mutate;
pub use mutate::GENERATOR;
pub mod notation;
mod picture;
pub mod rules;

pub use bound::HOPELESS;
pub use level::Level;
pub use rules::{Dir, Move, Refusal, Shape, State};

use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::game::{Ablation, Cost, Game, NotationError};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

/// Bloxorz, as the harness checks it.
pub const GAME: GameChecks = GameChecks {
    name: "bloxorz",
    extension: "txt",
    load,
    checks: puzzle_qa_core::checks::SEARCH,
};

fn load(text: &str) -> Result<Loaded, Diagnostic> {
    let (level, warnings) = level::parse(text)?;
    Ok(Loaded::new(level, warnings))
}

impl Game for Level {
    type State = State;
    type Key = u128;
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> State {
        State {
            shape: Shape::Upright,
            a: self.start,
            b: self.start,
            mask: self.initial_mask,
        }
    }

    fn key(&self, state: &State) -> u128 {
        self.key_of(state)
    }

    fn is_won(&self, state: &State) -> bool {
        self.won(state)
    }

    fn moves(&self, state: &State) -> impl Iterator<Item = Move> {
        let passes: &[bool] = match state.shape {
            Shape::Split => &[false, true],
            _ => &[false],
        };
        passes.iter().flat_map(|&pass_first| {
            Dir::ALL
                .into_iter()
                .map(move |dir| Move::Roll { dir, pass_first })
        })
    }

    fn step(&self, state: &State, mv: Move) -> Result<(State, Cost), Refusal> {
        self.apply(state, mv)
    }

    fn heuristic(&self, state: &State) -> Option<Cost> {
        Some(self.lower_bound(state))
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        notation::format(moves)
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        notation::parse(text)
    }

    fn scene(&self, state: &State) -> Option<puzzle_qa_core::picture::Scene> {
        Some(Level::scene(self, state))
    }

    fn level_text(&self) -> Option<String> {
        Some(self.text())
    }

    fn mechanics(&self) -> Vec<Ablation> {
        Level::mechanics(self)
    }

    fn pieces(&self) -> Vec<Ablation> {
        Level::pieces(self)
    }

    fn ablate(&self, ablation: &Ablation) -> Level {
        Level::ablate(self, ablation)
    }

    fn notation_width(&self, mv: &Move) -> usize {
        match mv {
            Move::Roll {
                pass_first: true, ..
            } => 2,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests;
