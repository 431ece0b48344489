//! Playing one level of a game from a move text, as `puzzle-qa replay`
//! does: the engine runs the moves in order (one random generator for the
//! whole replay, as in play), and the level is kept after each move.

use crate::compile::{Game, LevelData};
use crate::engine::{Board, Engine, Input, Mode};

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

/// A replay's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The level after the start (level-start rules and their again turns)
    /// and after each move played, drawn with the legend's characters.
    pub frames: Vec<String>,
    /// Whether the level was won.
    pub won: bool,
    /// Moves played (those after a win are not).
    pub moves: usize,
    /// The first move not played, if any (0-based).
    pub stopped_at: Option<usize>,
    /// Why it stopped there, or why the level is not won.
    pub reason: Option<String>,
    /// The level after the last move played: rows top to bottom, cells left
    /// to right, each the sorted lowercase names of its objects.
    pub cells: Vec<Vec<Vec<String>>>,
}

/// Plays `moves` on the level at `index` (messages count), with the random
/// generator seeded with `seed`.
pub fn replay(game: &Game, index: usize, moves: &[Move], seed: &str) -> Option<Replay> {
    let mut engine = Engine::load(game, index, seed, Mode::Solver)?;
    let mut looped = drain(&mut engine);
    let mut frames = vec![ascii(game, engine.board())];
    let mut played = 0;
    let mut stopped_at = None;
    let mut reason = None;
    for (i, &mv) in moves.iter().enumerate() {
        if engine.won() {
            stopped_at = Some(i);
            reason = Some(puzzle_qa_core::replay::AFTER_THE_WIN.to_string());
            break;
        }
        if looped {
            stopped_at = Some(i);
            reason = Some(format!(
                "the game keeps setting off `again` turns (more than {AGAIN_LIMIT} after one move)"
            ));
            break;
        }
        engine.input(mv.input());
        looped = drain(&mut engine);
        played += 1;
        frames.push(ascii(game, engine.board()));
    }
    let won = engine.won();
    if !won && reason.is_none() {
        reason = Some("the level is not won after the last move".into());
    }
    Some(Replay {
        frames,
        won,
        moves: played,
        stopped_at,
        reason,
        cells: cells(game, engine.board()),
    })
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

/// The board as rows of cells of sorted object names.
pub fn cells(game: &Game, board: &Board) -> Vec<Vec<Vec<String>>> {
    (0..board.height)
        .map(|y| {
            (0..board.width)
                .map(|x| {
                    game.names_in(board.cell(board.index(x, y)))
                        .into_iter()
                        .map(str::to_string)
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The board drawn with the legend's own characters: for each cell, the
/// character whose objects are exactly the cell's (the background aside),
/// else the one of its top object, else `?`.
pub fn ascii(game: &Game, board: &Board) -> String {
    let mut out = String::new();
    for y in 0..board.height {
        for x in 0..board.width {
            out.push(glyph_of(game, board.cell(board.index(x, y))));
        }
        out.push('\n');
    }
    out
}

/// The legend's character for one cell's object bits, as [`ascii`] picks it.
pub(crate) fn glyph_of(game: &Game, cell: &[u32]) -> char {
    let without_background = |m: &[u32]| {
        let mut v = m.to_vec();
        if let Some(b) = game.background {
            v[b >> 5] &= !(1 << (b & 31));
        }
        v
    };
    let bare = without_background(cell);
    if let Some((c, _)) = game.glyphs.iter().find(|(_, m)| **m == *cell) {
        return *c;
    }
    if let Some((c, _)) = game
        .glyphs
        .iter()
        .find(|(_, m)| without_background(m) == bare)
    {
        return *c;
    }
    // The object on the highest layer is the one a player sees.
    let top = crate::bits::ones(cell).max_by_key(|&id| (game.layer_of_id[id], id));
    top.and_then(|id| {
        game.glyphs
            .iter()
            .find(|(_, m)| crate::bits::ones(m).eq(std::iter::once(id)))
            .map(|(c, _)| *c)
    })
    .unwrap_or('?')
}
