//! The contract between a game and everything else.
//!
//! A game plugs into puzzle-qa by implementing [`Game`] for its parsed level
//! type. The solvers, the replay function and the command line see a game only
//! through this trait (and its type-erased twin, [`crate::level::AnyLevel`]),
//! so adding a game never touches them.

use std::borrow::Borrow as _;
use std::borrow::Cow;
use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::picture::Scene;
use crate::search::store::{Slices, Store};
use crate::search::{Budget, Hang};

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
pub trait Game: Sized + Send + Sync + 'static {
    /// Everything that changes during play. Searches store one per
    /// visited state, so keep it small: a `Copy` value, packed into an
    /// integer if you can (as the built-in grid games do), or a slice such
    /// as `[u8]` whose length the level fixes. [`State`] says what each
    /// costs.
    type State: ?Sized + State;
    /// The visited-set key: equal for states that play identically (for
    /// example, two identical objects swapped). A slice state is its own
    /// key, so a game with one writes `type Key = ();`.
    type Key: Copy + Eq + Hash + Send + Sync;
    /// One move as the solver and the replay apply it.
    type Move: Copy + Eq + Debug;
    /// Why [`Game::step`] refused a move, shown when a replay fails.
    type Refusal: Display;

    /// The state the level starts in.
    fn start(&self) -> OwnedState<Self>;

    /// The canonical key of a state.
    fn key(&self, state: &Self::State) -> Self::Key;

    /// Whether the state is a win.
    fn is_won(&self, state: &Self::State) -> bool;

    /// Whether `state` stands for a move that never settles (a chain of
    /// turns without end, a game process that stops answering): what
    /// [`Game::successors`] shows in that move's place, while [`Game::step`]
    /// refuses the move and says why. Searches store no such state and
    /// expand none; they go on, and report the first they meet
    /// ([`crate::search::Hang`]), so no level is called unsolvable because
    /// of a move the rules could not finish. The default, for a game whose
    /// every move settles: never.
    fn is_hung(&self, _state: &Self::State) -> bool {
        false
    }

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
    ) -> Result<(OwnedState<Self>, Cost), Self::Refusal>;

    /// Calls `visit` with every legal `(move, next state, cost)` from `state`
    /// (and, for a move that never settles, a state [`Game::is_hung`] tells).
    ///
    /// The default tries each of [`Game::moves`] through [`Game::step`];
    /// override it for speed (never to change the rules), or to show the
    /// moves that never settle. A search copies the state it is shown, so
    /// an override may build every successor in one buffer (a slice game
    /// then allocates nothing per successor; see [`State`]).
    fn successors(
        &self,
        state: &Self::State,
        mut visit: impl FnMut(Self::Move, &Self::State, Cost),
    ) {
        for mv in self.moves(state) {
            if let Ok((next, cost)) = self.step(state, mv) {
                visit(mv, next.borrow(), cost);
            }
        }
    }

    /// How many states a breadth-first search hands
    /// [`Game::successors_of_many`] at once. 1, the default, suits rules
    /// that run in this process; a game over the process protocol asks for
    /// thousands, so that a search costs one round trip per chunk of a
    /// layer rather than one per state.
    const BATCH: usize = 1;

    /// [`Game::successors`] of each of `states`, in order: `visit` is called
    /// with the state's index in `states`, then as `successors` calls it.
    /// The default plays them one by one; override it only to play many
    /// at once, never to change the rules.
    fn successors_of_many(
        &self,
        states: &[&Self::State],
        mut visit: impl FnMut(usize, Self::Move, &Self::State, Cost),
    ) {
        for (index, state) in states.iter().enumerate() {
            self.successors(state, |mv, next, cost| visit(index, mv, next, cost));
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

    /// The level written back as a level file of its game, if the game can
    /// print one: reading it back must give a level that prints the same
    /// and plays the same (the round trip the tests hold every game to).
    fn level_text(&self) -> Option<String> {
        None
    }

    /// The optional parts this game offers, beyond the rules: mechanics to
    /// ablate ([`Mechanics`]), pictures ([`Draw`]), reachability findings
    /// ([`Reachable`]), moves that print as several tokens
    /// ([`NotationWidth`]). Each is a trait of its own; implement it, then
    /// name it here, for example
    /// `const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw();`.
    /// A minimal game leaves the default: none.
    const EXTRAS: Extras<Self> = Extras::NONE;
}

/// What a [`Game::State`] can be: a `Copy` value, or a slice (`[u8]`,
/// `[u32]`) of `Copy` elements. Both are implemented here; a game names
/// its type and implements nothing.
///
/// How a search keeps many of them, which is what a stored state costs:
///
/// * `Copy` states: one `Vec` of states, and the visited set holds their
///   [`Game::key`]s. A state costs its size; a lookup never reads the
///   stored states.
/// * Slice states: every state's elements back to back in one `Vec` of
///   elements. While the lengths are equal (a level fixes its cell count)
///   a state costs its elements and nothing else: no allocation, pointer
///   or length of its own; once they vary, 8 bytes more each. The visited
///   set holds node numbers and compares the stored elements, so a slice
///   is its own key whatever [`Game::key`] says (write `type Key = ();`),
///   and its elements are held once.
///
/// [`Stats::state_bytes`](crate::search::Stats::state_bytes) is what a
/// search's states took. [`OwnedState`] is a state handed over by value.
///
/// # Example
///
/// A row of lamps, as many as the level says, one byte each; pressing a
/// lamp toggles it and its neighbours, and every lamp must be lit.
///
/// ```
/// use puzzle_qa_core::game::{Cost, Game, NotationError};
///
/// struct Lamps { start: Vec<u8> }
///
/// /// Toggles lamp `at` and its neighbours.
/// fn press(lamps: &mut [u8], at: usize) {
///     let end = lamps.len().min(at + 2);
///     for lamp in &mut lamps[at.saturating_sub(1)..end] {
///         *lamp ^= 1;
///     }
/// }
///
/// impl Game for Lamps {
///     type State = [u8];
///     type Key = ();
///     type Move = usize;
///     type Refusal = &'static str;
///
///     fn start(&self) -> Vec<u8> { self.start.clone() }
///     fn key(&self, _: &[u8]) {}
///     fn is_won(&self, lamps: &[u8]) -> bool { lamps.iter().all(|&lit| lit == 1) }
///     fn moves(&self, lamps: &[u8]) -> impl Iterator<Item = usize> { 0..lamps.len() }
///     fn step(&self, lamps: &[u8], at: usize) -> Result<(Vec<u8>, Cost), &'static str> {
///         if at >= lamps.len() { return Err("no such lamp"); }
///         let mut next = lamps.to_vec();
///         press(&mut next, at);
///         Ok((next, 1))
///     }
///     // The same moves, each successor built in one buffer.
///     fn successors(&self, lamps: &[u8], mut visit: impl FnMut(usize, &[u8], Cost)) {
///         let mut next = lamps.to_vec();
///         for at in 0..lamps.len() {
///             press(&mut next, at);
///             visit(at, &next, 1);
///             press(&mut next, at); // pressing again undoes it
///         }
///     }
/// #   fn format_moves(&self, moves: &[usize]) -> String { format!("{moves:?}") }
/// #   fn parse_moves(&self, _: &str) -> Result<Vec<usize>, NotationError> { Ok(vec![]) }
/// }
///
/// let outcome = puzzle_qa_core::search::bfs(&Lamps { start: vec![0; 5] }, 1000);
/// assert_eq!(outcome.path(), Some(&[0, 3][..]));
/// assert_eq!(outcome.stats().bytes_per_state(), 5.0); // five lamps, five bytes
/// ```
pub trait State: ToOwned<Owned: Clone + Eq + Hash> + Eq + Hash + Debug + Send + Sync {
    /// Where a search keeps many of these.
    #[doc(hidden)]
    type Store: Store<Self>;
}

impl<T: Copy + Eq + Hash + Debug + Send + Sync> State for T {
    type Store = Vec<T>;
}

impl<T: Copy + Eq + Hash + Debug + Send + Sync> State for [T] {
    type Store = Slices<T>;
}

/// A state handed over by value ([`Game::start`], [`Game::step`]): the
/// state itself when it is `Copy`, a `Vec` for a slice state.
pub type OwnedState<G> = <<G as Game>::State as ToOwned>::Owned;

/// The mechanics of a level that ablation takes out, to see whether the
/// level needs each (the `ablation` check, `puzzle-qa ablate`). Name it in
/// [`Game::EXTRAS`] with [`Extras::mechanics`].
pub trait Mechanics: Game {
    /// One [`Ablation`] per mechanic present in this level (with `at: None`),
    /// in the game's own order.
    fn mechanics(&self) -> Vec<Ablation>;

    /// One [`Ablation`] per single piece of a mechanic (an object, a tile)
    /// that can be removed alone, with its cell in `at`. Default: none.
    fn pieces(&self) -> Vec<Ablation> {
        Vec::new()
    }

    /// A copy of the level with `ablation` applied: the mechanic removed
    /// everywhere (`at: None`) or at one cell. It transforms the parsed
    /// level, never its text, so the copy need not be a valid level file
    /// (a gate whose plates were removed simply stays shut). Only called with
    /// an ablation from [`Mechanics::mechanics`] or [`Mechanics::pieces`].
    fn ablate(&self, ablation: &Ablation) -> Self;

    /// The mechanics (by name, from [`Mechanics::mechanics`]) that take no
    /// part in play in any state of the level's reachable space, explored
    /// within `budget` (a search's bounds): each is decoration without a
    /// search of its own, and worth telling the designer (a dead rule).
    /// `None`: the game cannot tell, or the space is bigger than the
    /// budget. `Err`: the
    /// exploration met a move that never settles, the first in
    /// breadth-first order (its outcome's [`Hang`]); then the level is not
    /// classed at all. Default: `None`.
    fn idle(&self, _budget: Budget) -> Option<Idle<Self::Move>> {
        None
    }

    /// Whether `name`, a mechanic's name as an expectation file holds it,
    /// names a mechanic the level file defines by its text (a PuzzleScript
    /// rule line), in the game's present form or an earlier one it still
    /// reads. Such a name changes when the designer edits that text: a
    /// name of this kind gone from a level's `[mechanics]` is then taken
    /// for the earlier name of a new one in the same place of the game's
    /// order, and its entry follows it (renamed, class and comments kept).
    /// Default: `false`, for a game whose rulebook names its mechanics.
    fn named_by_text(&self, _name: &str) -> bool {
        false
    }
}

/// What exploring a level's reachable space found ([`Mechanics::idle`]): the
/// mechanics that take part in no state of it, or the first move met there
/// that never settles.
pub type Idle<M> = Result<Vec<String>, Hang<M>>;

/// Pictures of a level's states, for `puzzle-qa show` and the HTML report.
/// Name it in [`Game::EXTRAS`] with [`Extras::draw`].
pub trait Draw: Game {
    /// A picture of `state`.
    fn scene(&self, state: &Self::State) -> Scene;

    /// The cells `mv` passes through from `state`, in order, when a move is
    /// more than one step (a jump's arc), so a picture can draw its path.
    /// Default: none.
    fn trail(&self, _state: &Self::State, _mv: Self::Move) -> Vec<RowCol> {
        Vec::new()
    }

    /// What each cell of `state` holds, by name, for a game whose picture
    /// is a full account of its board (every object of every cell): then
    /// `puzzle-qa replay` draws the level after each move, and `--json`
    /// gives the last state's contents as `cells`. Default: `None`.
    fn contents(&self, _state: &Self::State) -> Option<Contents> {
        None
    }

    /// The characters [`Look::glyph`](crate::picture::Look::glyph) and
    /// [`Piece::glyph`](crate::picture::Piece::glyph) may use that the
    /// game's own files do not define (a PuzzleScript object with no legend
    /// character), each with what it stands for, so that the terminal grid
    /// can be read: `puzzle-qa replay` prints those its boards use as a
    /// key. Default: none.
    fn invented_glyphs(&self) -> Vec<(char, String)> {
        Vec::new()
    }
}

/// What a board holds, by name ([`Draw::contents`]): rows top to bottom,
/// each a list of cells left to right, each cell the names of the objects
/// in it, sorted by byte order (`[[["background", "wall"], …], …]`).
pub type Contents = Vec<Vec<Vec<String>>>;

/// A game whose QA question is reachability rather than par (a
/// platformer): who reaches the goal, what cannot be collected, where a
/// player gets stuck. `puzzle-qa solve` prints this instead of a par. Name
/// it in [`Game::EXTRAS`] with [`Extras::reachable`].
pub trait Reachable: Game {
    /// What this level's players can and cannot reach.
    fn reachability(&self) -> Reachability;
}

/// A game whose single move may print as several notation tokens (a free
/// token bundled with a paid one, such as passing control then rolling).
/// Replays count refused moves in tokens, so that `failed_at` points into
/// the text as written. Name it in [`Game::EXTRAS`] with
/// [`Extras::notation_width`].
pub trait NotationWidth: Game {
    /// How many single notation tokens `mv` stands for when printed.
    fn notation_width(&self, mv: &Self::Move) -> usize;
}

/// A game whose levels may have no par to search for: their outcomes
/// depend on a random generator, or they run in real time. Such a level
/// gets a status of its own and a note, never a made-up par; routes
/// recorded with a seed still replay. Name it in [`Game::EXTRAS`] with
/// [`Extras::chance`].
pub trait Chance: Game {
    /// Why this level has no par, or `None` when the solver decides.
    fn no_par(&self) -> Option<NoPar>;
    /// The same level, its generator seeded with `seed` (a route's).
    fn reseeded(&self, seed: &str) -> Self;
}

/// Why a level has no par: a status word (`random`, `realtime`) for
/// expectation files and `solve --json`, and a note for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPar {
    /// The status: `random` or `realtime`.
    pub status: &'static str,
    /// Why, in a sentence.
    pub note: String,
}

/// The optional parts a game offers ([`Game::EXTRAS`]), built from
/// [`Extras::NONE`] by naming each trait it implements.
pub struct Extras<G: Game> {
    pub(crate) mechanics: Option<MechanicsFns<G>>,
    pub(crate) draw: Option<DrawFns<G>>,
    pub(crate) reachable: Option<fn(&G) -> Reachability>,
    pub(crate) notation_width: Option<fn(&G, &G::Move) -> usize>,
    pub(crate) chance: Option<ChanceFns<G>>,
}

/// [`Chance`]'s methods, taken while the game's type is known.
pub(crate) struct ChanceFns<G> {
    pub no_par: fn(&G) -> Option<NoPar>,
    pub reseeded: fn(&G, &str) -> G,
}

/// [`Mechanics`]' methods, taken while the game's type is known.
pub(crate) struct MechanicsFns<G: Game> {
    pub mechanics: fn(&G) -> Vec<Ablation>,
    pub pieces: fn(&G) -> Vec<Ablation>,
    pub ablate: fn(&G, &Ablation) -> G,
    pub idle: fn(&G, Budget) -> Option<Idle<G::Move>>,
    pub named_by_text: fn(&G, &str) -> bool,
}

/// A cell of a grid, `(row, column)`, 0-based.
pub type RowCol = (usize, usize);

/// [`Draw`]'s methods, taken while the game's type is known.
pub(crate) struct DrawFns<G: Game> {
    pub scene: fn(&G, &G::State) -> Scene,
    pub trail: fn(&G, &G::State, G::Move) -> Vec<RowCol>,
    pub contents: fn(&G, &G::State) -> Option<Contents>,
    pub invented_glyphs: fn(&G) -> Vec<(char, String)>,
}

impl<G: Game> Extras<G> {
    /// No optional part: the rules and the notation alone.
    pub const NONE: Extras<G> = Extras {
        mechanics: None,
        draw: None,
        reachable: None,
        notation_width: None,
        chance: None,
    };

    /// Some levels have no par (randomness, real time), and routes may
    /// carry a seed.
    pub const fn chance(self) -> Self
    where
        G: Chance,
    {
        Extras {
            chance: Some(ChanceFns {
                no_par: G::no_par,
                reseeded: G::reseeded,
            }),
            ..self
        }
    }

    /// The game has mechanics to ablate.
    pub const fn mechanics(self) -> Self
    where
        G: Mechanics,
    {
        Extras {
            mechanics: Some(MechanicsFns {
                mechanics: G::mechanics,
                pieces: G::pieces,
                ablate: G::ablate,
                idle: G::idle,
                named_by_text: G::named_by_text,
            }),
            ..self
        }
    }

    /// The game draws its states.
    pub const fn draw(self) -> Self
    where
        G: Draw,
    {
        Extras {
            draw: Some(DrawFns {
                scene: G::scene,
                trail: G::trail,
                contents: G::contents,
                invented_glyphs: G::invented_glyphs,
            }),
            ..self
        }
    }

    /// The game answers reachability questions instead of par ones.
    pub const fn reachable(self) -> Self
    where
        G: Reachable,
    {
        Extras {
            reachable: Some(G::reachability),
            ..self
        }
    }

    /// Some moves print as several notation tokens.
    pub const fn notation_width(self) -> Self
    where
        G: NotationWidth,
    {
        Extras {
            notation_width: Some(G::notation_width),
            ..self
        }
    }
}

/// A reachability game's findings on one level, in the words the game
/// uses for its players and collectibles. Cells are `[row, column]`,
/// 0-based. Serialized (the `solve --json` contract) as `goal`,
/// `unreachable_<collectible>s`, `traps` and `shortfalls`, each shortfall
/// naming its collectible under the game's word.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reachability {
    /// What the game calls one player, for messages (`bear`).
    pub player: &'static str,
    /// What the game calls one collectible (`snack`): messages and the
    /// JSON field names use it.
    pub collectible: &'static str,
    /// Each player (by letter) and whether it can reach the goal.
    pub goal: std::collections::BTreeMap<String, bool>,
    /// Collectibles no player can reach (or, where the level demands each
    /// player collect everything, some player cannot), sorted.
    pub unreachable: Vec<[usize; 2]>,
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
            && self.unreachable.is_empty()
            && self.traps.is_empty()
    }

    /// What is out of reach here that was not in `before` (the same level
    /// with a mechanic still in it): `goal: D` for a player who no longer
    /// reaches the goal, `snack: 3,12` for a collectible lost.
    ///
    /// ```
    /// use puzzle_qa_core::game::Reachability;
    /// let before = Reachability {
    ///     collectible: "snack",
    ///     goal: [("B".to_string(), true), ("D".to_string(), true)].into(),
    ///     ..Reachability::default()
    /// };
    /// let after = Reachability {
    ///     goal: [("B".to_string(), true), ("D".to_string(), false)].into(),
    ///     unreachable: vec![[3, 12]],
    ///     ..before.clone()
    /// };
    /// assert_eq!(after.lost_since(&before), ["goal: D", "snack: 3,12"]);
    /// ```
    pub fn lost_since(&self, before: &Reachability) -> Vec<String> {
        let goals = self
            .goal
            .iter()
            .filter(|(who, reached)| !**reached && before.goal.get(*who) == Some(&true))
            .map(|(who, _)| format!("goal: {who}"));
        let lost = self
            .unreachable
            .iter()
            .filter(|cell| !before.unreachable.contains(cell))
            .map(|[row, col]| format!("{}: {row},{col}", self.collectible));
        goals.chain(lost).collect()
    }
}

impl serde::Serialize for Reachability {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        /// One shortfall, its collectible under the game's word.
        struct Named<'a>(&'a str, &'a Shortfall);
        impl serde::Serialize for Named<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(4))?;
                map.serialize_entry(self.0, &self.1.collectible)?;
                map.serialize_entry("from", &self.1.from)?;
                map.serialize_entry("rise", &self.1.rise)?;
                map.serialize_entry("sideways", &self.1.sideways)?;
                map.end()
            }
        }
        let shortfalls: Vec<Named> = self
            .shortfalls
            .iter()
            .map(|shortfall| Named(self.collectible, shortfall))
            .collect();
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("goal", &self.goal)?;
        map.serialize_entry(
            &format!("unreachable_{}s", self.collectible),
            &self.unreachable,
        )?;
        map.serialize_entry("traps", &self.traps)?;
        map.serialize_entry("shortfalls", &shortfalls)?;
        map.end()
    }
}

/// Why a collectible is out of reach: the nearest reachable place and the
/// jump needed from it (rows up, negative for a drop; columns across).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortfall {
    /// The unreachable collectible, `[row, column]`.
    pub collectible: [usize; 2],
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
    /// The mechanic's name, as the game's rulebook spells it (or, for a
    /// game whose mechanics its files define, from the file's text: `rule:
    /// [ > player | crate ] -> …`). It is the mechanic's key in
    /// `[mechanics]`.
    pub mechanic: Cow<'static, str>,
    /// `None`: every piece of the mechanic; `Some((row, column))`, 0-based:
    /// the one piece on that cell.
    pub at: Option<(usize, usize)>,
    /// What replaces each removed piece, in words (`wall`, `floor`).
    pub replacement: Cow<'static, str>,
    /// The line of the level file that defines the mechanic, when the file
    /// does (a PuzzleScript rule): where it is, for messages, never part of
    /// its name.
    pub line: Option<usize>,
    /// The mechanic is part of the level's goal: a win condition names it
    /// (a PuzzleScript object in WINCONDITIONS), so taking it out changes
    /// what winning means, not how the level plays. It is classed `goal`
    /// without a search.
    pub goal: bool,
}

impl Ablation {
    /// Every piece of `mechanic`, each replaced by `replacement`.
    pub fn everywhere(
        mechanic: impl Into<Cow<'static, str>>,
        replacement: impl Into<Cow<'static, str>>,
    ) -> Self {
        Ablation {
            mechanic: mechanic.into(),
            at: None,
            replacement: replacement.into(),
            line: None,
            goal: false,
        }
    }

    /// The mechanic as messages name it: in backticks, with its line when
    /// the level file defines it (`` `rule: [ crate ] -> [ ]` on line 42 ``).
    pub fn shown(&self) -> String {
        match self.line {
            Some(line) => format!("`{}` on line {line}", self.mechanic),
            None => format!("`{}`", self.mechanic),
        }
    }
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
