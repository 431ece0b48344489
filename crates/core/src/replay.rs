//! Running a move list through a game's own rules.

use std::borrow::Borrow as _;

use crate::game::{Cost, Game};

/// What happened when a move list was played from the level's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The replay ended in a won state: every move was legal and the last
    /// one won, or the level was won and a move after the win was refused
    /// (see `failure`).
    pub won: bool,
    /// The summed cost of the moves that were applied (par is counted in
    /// these units).
    pub cost: Cost,
    /// How many moves were applied before the replay stopped.
    pub applied: usize,
    /// The first move the rules refused, if any.
    pub failure: Option<ReplayFailure>,
}

/// Where and why a replay stopped being legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayFailure {
    /// 0-based index of the refused move in the move list.
    pub move_index: usize,
    /// 0-based index of the refused move among the notation's single tokens
    /// (see [`NotationWidth`](crate::game::NotationWidth)).
    pub token_index: usize,
    /// The game's reason, in words.
    pub reason: String,
}

/// The reason given for any move after a win.
pub const AFTER_THE_WIN: &str = "the level is already won; no move after the win";

/// Plays `moves` from the start through [`Game::step`].
///
/// The replay stops at the first move the rules refuse. A win is terminal,
/// so every move after it is refused here, for every game: a list with
/// moves to spare reports `won` together with a failure at the first spare
/// move.
///
/// ```
/// # use puzzle_qa_core::game::{Cost, Game, NotationError};
/// # struct Corridor;
/// # impl Game for Corridor {
/// #     type State = i32; type Key = i32; type Move = i32; type Refusal = &'static str;
/// #     fn start(&self) -> i32 { 0 }
/// #     fn key(&self, s: &i32) -> i32 { *s }
/// #     fn is_won(&self, s: &i32) -> bool { *s == 2 }
/// #     fn moves(&self, _: &i32) -> impl Iterator<Item = i32> { [-1, 1].into_iter() }
/// #     fn step(&self, s: &i32, d: i32) -> Result<(i32, Cost), &'static str> {
/// #         if (0..3).contains(&(s + d)) { Ok((s + d, 1)) } else { Err("wall") }
/// #     }
/// #     fn format_moves(&self, m: &[i32]) -> String { format!("{m:?}") }
/// #     fn parse_moves(&self, _: &str) -> Result<Vec<i32>, NotationError> { Ok(vec![]) }
/// # }
/// use puzzle_qa_core::replay::replay;
///
/// let ok = replay(&Corridor, &[1, 1]);
/// assert!(ok.won);
/// assert_eq!(ok.cost, 2);
///
/// let bumped = replay(&Corridor, &[-1, 1]);
/// assert!(!bumped.won);
/// assert_eq!(bumped.failure.unwrap().reason, "wall");
/// ```
pub fn replay<G: Game>(game: &G, moves: &[G::Move]) -> Played {
    replay_visiting(game, moves, |_, _, _, _| {})
}

/// [`replay`], calling `visit(before, move, after, cost)` for each move
/// applied: the one loop that plays moves, for pictures as for checks.
pub(crate) fn replay_visiting<G: Game>(
    game: &G,
    moves: &[G::Move],
    mut visit: impl FnMut(&G::State, G::Move, &G::State, Cost),
) -> Played {
    let width = |mv: &G::Move| G::EXTRAS.notation_width.map_or(1, |width| width(game, mv));
    let mut state = game.start();
    let mut cost = 0;
    let mut token_index = 0;
    for (move_index, &mv) in moves.iter().enumerate() {
        let width = width(&mv);
        let refusal = if game.is_won(state.borrow()) {
            AFTER_THE_WIN.to_string()
        } else {
            match game.step(state.borrow(), mv) {
                Ok((next, step_cost)) => {
                    visit(state.borrow(), mv, next.borrow(), step_cost);
                    state = next;
                    cost += step_cost;
                    token_index += width;
                    continue;
                }
                Err(refusal) => refusal.to_string(),
            }
        };
        return Played {
            won: game.is_won(state.borrow()),
            cost,
            applied: move_index,
            failure: Some(ReplayFailure {
                move_index,
                token_index: token_index + width.saturating_sub(1),
                reason: refusal,
            }),
        };
    }
    Played {
        won: game.is_won(state.borrow()),
        cost,
        applied: moves.len(),
        failure: None,
    }
}
