//! The contract between a game and everything else.
//!
//! A game plugs into puzzle-qa by implementing [`Game`] for its parsed level
//! type. The solvers, the replay function and the command line see a game only
//! through this trait (and its type-erased twin, [`crate::level::AnyLevel`]),
//! so adding a game never touches them.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// The cost of one move. Most games charge 1 per move; some moves are free.
pub type Cost = u32;

/// What [`Game::heuristic`] answers for a state that can never win (even in
/// the game's relaxed model): far above any real par, so A* leaves such
/// states at the back of its frontier, and small enough that adding a path
/// cost to it cannot overflow.
pub const HOPELESS: Cost = Cost::MAX / 4;

/// A parsed, immutable level of some game, together with that game's rules.
///
/// The rules are a pure function of `(state, move)`: [`Game::step`] either
/// refuses a move (with a reason) or returns the next state and the move's
/// cost. Nothing is mutated, so the solver and a replay cannot disagree.
///
/// # Example
///
/// A toy game: a counter starts at 1 and must reach 10; `+1` and `*2` each
/// cost one move, and the counter may not pass 10.
///
/// ```
/// use puzzle_qa_core::game::{Cost, Game, NotationError};
///
/// struct Counter;
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Op { Inc, Double }
///
/// impl Game for Counter {
///     type State = u32;
///     type Key = u32;
///     type Move = Op;
///     type Refusal = &'static str;
///
///     fn start(&self) -> u32 { 1 }
///     fn key(&self, state: &u32) -> u32 { *state }
///     fn is_won(&self, state: &u32) -> bool { *state == 10 }
///     fn moves(&self, _: &u32) -> impl Iterator<Item = Op> { [Op::Inc, Op::Double].into_iter() }
///     fn step(&self, state: &u32, op: Op) -> Result<(u32, Cost), &'static str> {
///         let next = match op { Op::Inc => state + 1, Op::Double => state * 2 };
///         if next > 10 { Err("past 10") } else { Ok((next, 1)) }
///     }
///     fn format_moves(&self, moves: &[Op]) -> String {
///         moves.iter().map(|m| if *m == Op::Inc { "+" } else { "*" }).collect()
///     }
///     fn parse_moves(&self, text: &str) -> Result<Vec<Op>, NotationError> {
///         text.chars().enumerate().map(|(i, c)| match c {
///             '+' => Ok(Op::Inc),
///             '*' => Ok(Op::Double),
///             _ => Err(NotationError::new(i + 1, format!("unknown move `{c}`"))),
///         }).collect()
///     }
/// }
///
/// let outcome = puzzle_qa_core::search::bfs(&Counter, puzzle_qa_core::search::DEFAULT_STATE_LIMIT);
/// assert_eq!(outcome.par(), Some(4)); // 1 → 2 → 4 → 5 → 10
/// ```
pub trait Game: Sized {
    /// Everything that changes during play; plain data, cheap to copy.
    /// Searches store one per visited state, so keep it small: pack it
    /// into an integer if you can (as the built-in grid games do).
    type State: Copy + Eq + Hash + Debug;
    /// The visited-set key: equal for states that play identically (for
    /// example, two identical objects swapped).
    type Key: Copy + Eq + Hash;
    /// One move as the solver and the replay apply it.
    type Move: Copy + Eq + Debug;
    /// Why [`Game::step`] refused a move, shown when a replay fails.
    type Refusal: Display;

    /// The state the level starts in.
    fn start(&self) -> Self::State;

    /// The canonical key of a state.
    fn key(&self, state: &Self::State) -> Self::Key;

    /// Whether the state is a win.
    fn is_won(&self, state: &Self::State) -> bool;

    /// The moves worth trying from `state`, in a fixed order. Some may be
    /// refused by [`Game::step`].
    ///
    /// A won state is terminal for every game, and the framework enforces
    /// it: solvers never expand a won state and [`crate::replay::replay`]
    /// refuses any move after a win. So neither `moves` nor `step` needs to
    /// check for a win.
    fn moves(&self, state: &Self::State) -> impl Iterator<Item = Self::Move>;

    /// The rules: the state after `mv` and what it cost, or why it is refused.
    fn step(
        &self,
        state: &Self::State,
        mv: Self::Move,
    ) -> Result<(Self::State, Cost), Self::Refusal>;

    /// Calls `visit` with every legal `(move, next state, cost)` from `state`.
    ///
    /// The default tries each of [`Game::moves`] through [`Game::step`];
    /// override it only for speed, never to change the rules.
    fn successors(
        &self,
        state: &Self::State,
        mut visit: impl FnMut(Self::Move, Self::State, Cost),
    ) {
        for mv in self.moves(state) {
            if let Ok((next, cost)) = self.step(state, mv) {
                visit(mv, next, cost);
            }
        }
    }

    /// True when every move the solver can generate costs exactly 1, so that
    /// breadth-first search is exact. Return false if any move is free or
    /// dearer.
    fn unit_costs(&self) -> bool {
        true
    }

    /// An admissible (never overestimating), consistent lower bound on the
    /// cost still needed to win from `state`, or `None` if the game offers
    /// no heuristic (A* then behaves like Dijkstra). [`HOPELESS`] for a state
    /// that can never win. [`crate::search::StateGraph`] tests a bound.
    fn heuristic(&self, _state: &Self::State) -> Option<Cost> {
        None
    }

    /// Prints moves in the game's notation.
    fn format_moves(&self, moves: &[Self::Move]) -> String;

    /// Reads the game's notation. Each move read counts as one notation
    /// token for [`crate::replay::ReplayFailure::token_index`].
    fn parse_moves(&self, text: &str) -> Result<Vec<Self::Move>, NotationError>;

    /// How many single notation tokens one move stands for when printed
    /// (a solver move may bundle a free token with a paid one).
    fn notation_width(&self, _mv: &Self::Move) -> usize {
        1
    }

    /// The level written back as a level file of its game, if the game can
    /// print one: reading it back must give a level that prints the same
    /// and plays the same (the round trip the tests hold every game to).
    fn level_text(&self) -> Option<String> {
        None
    }

    /// One [`Ablation`] per mechanic present in this level (with `at: None`),
    /// in the game's own order. The default: the game has no mechanics to
    /// ablate.
    fn mechanics(&self) -> Vec<Ablation> {
        Vec::new()
    }

    /// One [`Ablation`] per single piece of a mechanic (an object, a tile)
    /// that can be removed alone, with its cell in `at`.
    fn pieces(&self) -> Vec<Ablation> {
        Vec::new()
    }

    /// A copy of the level with `ablation` applied: the mechanic removed
    /// everywhere (`at: None`) or at one cell. It transforms the parsed
    /// level, never its text, so the copy need not be a valid level file
    /// (a gate whose plates were removed simply stays shut). Only called with
    /// an ablation from [`Game::mechanics`] or [`Game::pieces`].
    fn ablate(&self, _ablation: &Ablation) -> Self {
        unreachable!("a game without mechanics is never ablated")
    }

    /// A picture of `state` for `puzzle-qa show` and the HTML report, or
    /// `None` if the game draws nothing.
    fn scene(&self, _state: &Self::State) -> Option<crate::picture::Scene> {
        None
    }

    /// The cells `mv` passes through from `state`, in order, when a move is
    /// more than one step (a jump's arc), so a picture can draw its path.
    fn trail(&self, _state: &Self::State, _mv: Self::Move) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// For a game whose QA question is reachability rather than par (a
    /// platformer): who reaches the goal, what cannot be collected, where a
    /// player gets stuck. `puzzle-qa solve` prints this instead of a par.
    fn reachability(&self) -> Option<Reachability> {
        None
    }
}

/// A reachability game's findings on one level; the field names are the
/// `solve --json` contract. Cells are `[row, column]`, 0-based.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Reachability {
    /// Each player (by letter) and whether it can reach the goal.
    pub goal: std::collections::BTreeMap<String, bool>,
    /// Collectibles no player can reach (or, where the level demands each
    /// player collect everything, some player cannot), sorted.
    pub unreachable_snacks: Vec<[usize; 2]>,
    /// Reachable standing places from which a player can no longer reach
    /// the goal, sorted.
    pub traps: Vec<[usize; 2]>,
    /// For each unreachable collectible: the nearest place a player does
    /// reach and the jump that would be needed from there.
    pub shortfalls: Vec<Shortfall>,
}

impl Reachability {
    /// Nothing wrong: every player reaches the goal, nothing is out of
    /// reach, nobody can get stuck.
    pub fn ok(&self) -> bool {
        self.goal.values().all(|reached| *reached)
            && self.unreachable_snacks.is_empty()
            && self.traps.is_empty()
    }

    /// What is out of reach here that was not in `before` (the same level
    /// with a mechanic still in it): `goal: D` for a player who no longer
    /// reaches the goal, `snack: 3,12` for a collectible lost.
    ///
    /// ```
    /// use puzzle_qa_core::game::Reachability;
    /// let before = Reachability {
    ///     goal: [("B".to_string(), true), ("D".to_string(), true)].into(),
    ///     ..Reachability::default()
    /// };
    /// let after = Reachability {
    ///     goal: [("B".to_string(), true), ("D".to_string(), false)].into(),
    ///     unreachable_snacks: vec![[3, 12]],
    ///     ..Reachability::default()
    /// };
    /// assert_eq!(after.lost_since(&before), ["goal: D", "snack: 3,12"]);
    /// ```
    pub fn lost_since(&self, before: &Reachability) -> Vec<String> {
        let goals = self
            .goal
            .iter()
            .filter(|(who, reached)| !**reached && before.goal.get(*who) == Some(&true))
            .map(|(who, _)| format!("goal: {who}"));
        let snacks = self
            .unreachable_snacks
            .iter()
            .filter(|snack| !before.unreachable_snacks.contains(snack))
            .map(|[row, col]| format!("snack: {row},{col}"));
        goals.chain(snacks).collect()
    }
}

/// Why a collectible is out of reach: the nearest reachable place and the
/// jump needed from it (rows up, negative for a drop; columns across).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Shortfall {
    /// The unreachable collectible, `[row, column]`.
    pub snack: [usize; 2],
    /// The nearest reachable place to it, `[row, column]`.
    pub from: [usize; 2],
    /// Rows from `from` up to the collectible; negative when it is below.
    pub rise: isize,
    /// Columns between `from` and the collectible.
    pub sideways: usize,
}

impl Shortfall {
    /// The collectible's height from `from`, in words: `4 up`, `2 down`,
    /// `level`.
    pub fn height(&self) -> String {
        match self.rise {
            0 => "level".to_string(),
            rise if rise > 0 => format!("{rise} up"),
            rise => format!("{} down", -rise),
        }
    }
}

/// A mechanic taken out of a level to see whether the level needs it: the
/// mechanic's name as the game's rulebook spells it (`cushion`,
/// `weak-tile`), where (everywhere, or one cell), and what takes its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ablation {
    /// The mechanic's name, as the game's rulebook spells it.
    pub mechanic: &'static str,
    /// `None`: every piece of the mechanic; `Some((row, column))`, 0-based:
    /// the one piece on that cell.
    pub at: Option<(usize, usize)>,
    /// What replaces each removed piece, in words (`wall`, `floor`).
    pub replacement: &'static str,
}

/// A move text that does not read: where (1-based character column) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The 1-based character column where reading failed.
    pub column: usize,
    /// Why the text does not read there.
    pub message: String,
}

impl NotationError {
    /// The error at `column`, with `message` saying why.
    pub fn new(column: usize, message: impl Into<String>) -> Self {
        NotationError {
            column,
            message: message.into(),
        }
    }
}

impl Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for NotationError {}
