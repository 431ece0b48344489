//! A level's moves and their notation, its number among the file's grid
//! levels, and how far its `again` turns may run.

use crate::compile::{Game, LevelData};
use crate::engine::{Engine, Input};

/// The seed of the random generator when none is given (the official
/// engine takes one from the clock; a fixed one makes replays repeat).
pub const DEFAULT_SEED: &str = "puzzle-qa";

/// How many again turns one move may set off before the replay calls the
/// game a loop (the official engine would run them forever).
pub const AGAIN_LIMIT: usize = 10_000;

/// One move of a level: an input, or a tick (a turn with no input), which
/// is a move only in a real-time game whose designer counts ticks (see
/// [`Game::counts_ticks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The player presses a key.
    Input(Input),
    /// Time passes: a turn runs with no input.
    Tick,
}

impl Move {
    /// The engine's input for this move (`None` for a tick).
    pub fn input(self) -> Option<Input> {
        match self {
            Move::Input(input) => Some(input),
            Move::Tick => None,
        }
    }
}

impl From<Input> for Move {
    fn from(input: Input) -> Move {
        Move::Input(input)
    }
}

/// Which moves a game's notation has beside `U D L R`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notation {
    /// No `X`: the prelude says `noaction`.
    pub noaction: bool,
    /// `T` is a tick: the game counts ticks as moves.
    pub ticks: bool,
}

impl Notation {
    /// The notation of `game`.
    pub fn of(game: &Game) -> Notation {
        Notation {
            noaction: game.prelude().noaction,
            ticks: game.counts_ticks(),
        }
    }
}

/// The move notation: `U D L R X`, and `T` for a tick where the game counts
/// ticks; any case, spaces ignored. An error gives its column (from 1).
///
/// ```
/// use puzzlescript::engine::Input;
/// use puzzlescript::play::{parse_moves, Move, Notation};
/// let all = Notation { noaction: false, ticks: true };
/// assert_eq!(parse_moves("rR u xt", all).unwrap(), vec![
///     Move::Input(Input::Right), Move::Input(Input::Right), Move::Input(Input::Up),
///     Move::Input(Input::Action), Move::Tick,
/// ]);
/// assert_eq!(parse_moves("RX", Notation { noaction: true, ticks: false }).unwrap_err().0, 2);
/// assert_eq!(parse_moves("RT", Notation::default()).unwrap_err().0, 2);
/// ```
pub fn parse_moves(text: &str, notation: Notation) -> Result<Vec<Move>, (usize, String)> {
    let mut moves = Vec::new();
    for (i, c) in text.chars().enumerate() {
        let column = i + 1;
        moves.push(match c.to_ascii_uppercase() {
            'U' => Move::Input(Input::Up),
            'D' => Move::Input(Input::Down),
            'L' => Move::Input(Input::Left),
            'R' => Move::Input(Input::Right),
            'X' if notation.noaction => {
                return Err((
                    column,
                    "this game has no action move (its prelude says noaction)".into(),
                ));
            }
            'X' => Move::Input(Input::Action),
            'T' if notation.ticks => Move::Tick,
            'T' => {
                return Err((
                    column,
                    format!(
                        "a tick is a move only in a real-time game that says `{TICKS_DIRECTIVE}`"
                    ),
                ));
            }
            c if c.is_whitespace() => continue,
            c => return Err((column, format!("unknown move `{c}`; moves are U D L R X"))),
        });
    }
    Ok(moves)
}

/// A move as the notation writes it.
pub fn move_letter(mv: Move) -> char {
    match mv {
        Move::Input(Input::Up) => 'U',
        Move::Input(Input::Down) => 'D',
        Move::Input(Input::Left) => 'L',
        Move::Input(Input::Right) => 'R',
        Move::Input(Input::Action) => 'X',
        Move::Tick => 'T',
    }
}

/// The comment line by which a real-time game's designer counts ticks as
/// moves (see [`Game::counts_ticks`]).
pub const TICKS_DIRECTIVE: &str = "(puzzle-qa: a tick is a move)";

/// The index, among all levels (messages included), of grid level `n`
/// (counted from 1, messages skipped).
pub fn grid_index(game: &Game, n: usize) -> Option<usize> {
    game.levels()
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l, LevelData::Grid(_)))
        .nth(n.checked_sub(1)?)
        .map(|(i, _)| i)
}

/// How many grid levels the game has.
pub fn grid_count(game: &Game) -> usize {
    game.levels()
        .iter()
        .filter(|l| matches!(l, LevelData::Grid(_)))
        .count()
}

/// Runs the due again turns; true if they did not stop (more than
/// [`AGAIN_LIMIT`]).
pub(crate) fn drain(engine: &mut Engine) -> bool {
    let mut turns = 0;
    while engine.againing() {
        if turns == AGAIN_LIMIT {
            return true;
        }
        engine.again();
        turns += 1;
    }
    false
}
