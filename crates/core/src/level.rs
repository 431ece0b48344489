//! Levels of any game behind one object-safe interface, for the command line
//! (and the harness) that must handle every registered game alike.

use std::any::Any;
use std::borrow::Borrow as _;
use std::path::Path;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::game::{Ablation, Cost, Game, NoPar, NotationError, Reachability};
use crate::picture::{Frame, Playback};
use crate::replay::{replay, replay_visiting};
use crate::search::{self, Bound, Budget, Reached, SearchOptions, Size, Stats, Status};

/// A parsed level and the warnings its file raised.
pub struct Loaded {
    /// The parsed level, whatever its game.
    pub level: Box<dyn AnyLevel>,
    /// The warnings its file raised.
    pub warnings: Vec<Diagnostic>,
}

impl Loaded {
    /// A parsed level of any game, with its file's warnings.
    pub fn new<G: Game + Send + Sync + 'static>(level: G, warnings: Vec<Diagnostic>) -> Self {
        Loaded {
            level: Box::new(level),
            warnings,
        }
    }
}

/// What any level can do, whatever its game.
pub trait AnyLevel: Send + Sync {
    /// Searches for a cheapest win.
    fn solve(&self, options: SearchOptions) -> Solution;
    /// Reads `moves` in the game's notation and plays them from the start.
    fn replay_text(&self, moves: &str) -> Result<ReplayReport, NotationError>;
    /// Whether the game offers an admissible heuristic for A*.
    fn offers_heuristic(&self) -> bool;
    /// The level as a level file ([`Game::level_text`]).
    fn level_text(&self) -> Option<String>;
    /// The mechanics present, each to be ablated everywhere ([`Mechanics::mechanics`](crate::game::Mechanics::mechanics)).
    fn mechanics(&self) -> Vec<Ablation>;
    /// The single pieces that can be ablated alone ([`Mechanics::pieces`](crate::game::Mechanics::pieces)).
    fn pieces(&self) -> Vec<Ablation>;
    /// The mechanics that take no part in play anywhere in the level's
    /// reachable space, or the first move met there that never settles
    /// ([`Mechanics::idle`](crate::game::Mechanics::idle)).
    fn idle(&self, budget: Budget) -> Option<Result<Vec<String>, HangReport>>;
    /// Whether an expectation file's mechanic `name` names one the level
    /// file defines by its text ([`Mechanics::named_by_text`](crate::game::Mechanics::named_by_text)).
    fn named_by_text(&self, name: &str) -> bool;
    /// A copy with `ablation` applied ([`Mechanics::ablate`](crate::game::Mechanics::ablate)).
    fn ablated(&self, ablation: &Ablation) -> Box<dyn AnyLevel>;
    /// `moves` (the game's notation) played from the start, one picture
    /// per state ([`Draw::scene`](crate::game::Draw::scene)); `None` if the game draws nothing.
    fn playback(&self, moves: &str) -> Result<Option<Playback>, NotationError>;
    /// What a reachability game finds on this level ([`Reachable::reachability`](crate::game::Reachable::reachability)).
    fn reachability(&self) -> Option<Reachability>;
    /// Why the level has no par, if it has none ([`Chance::no_par`](crate::game::Chance::no_par)).
    fn no_par(&self) -> Option<NoPar>;
    /// The level with its generator seeded with `seed`; `None` if the game
    /// has no generator ([`Chance::reseeded`](crate::game::Chance::reseeded)).
    fn reseeded(&self, seed: &str) -> Option<Box<dyn AnyLevel>>;
    /// The level as its own type, for a game's own checks to downcast.
    fn as_any(&self) -> &dyn Any;
    /// [`search::pathfinding_bfs`]: the same search done by the
    /// `pathfinding` crate, for the benchmark's comparison.
    #[cfg(feature = "pathfinding")]
    fn solve_with_pathfinding(&self) -> Solution;
}

/// A search's verdict in game-neutral terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Solved, unsolvable, or stopped at the state limit.
    pub status: Status,
    /// The fewest moves that win, if solved.
    pub par: Option<Cost>,
    /// How much work the search did.
    pub stats: Stats,
    /// One cheapest win in the game's notation, when solved.
    pub moves: Option<String>,
    /// The first move the search met that never settles, solved or not.
    pub hang: Option<HangReport>,
    /// Which bound stopped the search, when its status is `limit`.
    pub reached: Option<Reached>,
    /// The bounds it searched within.
    pub budget: Budget,
}

/// A move that never settles ([`search::Hang`]) in game-neutral terms:
/// the `hang` of `solve --json` and `check --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HangReport {
    /// The fewest moves that reach it, in the game's notation; the last
    /// one never settles, so a replay of them is refused there.
    pub moves: String,
    /// Why, in the game's words (for a PuzzleScript game, the rule lines
    /// that keep firing).
    pub reason: String,
}

impl HangReport {
    fn of<G: Game>(game: &G, hang: &search::Hang<G::Move>) -> HangReport {
        HangReport {
            moves: game.format_moves(&hang.moves),
            reason: hang.reason.clone(),
        }
    }
}

impl Solution {
    /// Why the search gives no win to draw, as a picture says it: `None`
    /// when it found one.
    pub fn why_no_win(&self) -> Option<String> {
        match self.status {
            Status::Solved => None,
            Status::Unsolvable => Some(format!(
                "unsolvable: no sequence of moves wins this level ({} states explored)",
                self.stats.stored
            )),
            Status::Limit => Some(format!(
                "not decided: the search stopped at {} without finding a win or proving there is \
                 none",
                self.stopped_at()
            )),
            Status::Hang => Some(match &self.hang {
                Some(hang) => format!(
                    "hangs: `{}` reaches a move that never settles ({})",
                    hang.moves, hang.reason
                ),
                None => "hangs: a move never settles".to_string(),
            }),
        }
    }
}

impl Solution {
    /// The bound the search stopped at, and what it had kept, as a message
    /// says it after "the search stopped at": `its state limit (200000
    /// states stored, 31 MiB kept: 16 bytes a state)`, `its memory budget
    /// of 2 GiB (…)`, `the machine's memory: … (…)`.
    pub fn stopped_at(&self) -> String {
        let kept = format!(
            "{} states stored, {} kept: {:.0} bytes a state",
            self.stats.stored,
            Size(self.stats.kept_bytes),
            self.stats.kept_per_state()
        );
        match self.reached.as_ref().map(|reached| &reached.bound) {
            Some(Bound::Memory) => {
                format!("its memory budget of {} ({kept})", Size(self.budget.bytes))
            }
            Some(Bound::Machine(why)) => format!("the machine's memory: {why} ({kept})"),
            Some(Bound::States) | None => format!("its state limit ({kept})"),
        }
    }

    /// How much the last depth of a breadth-first search that stopped
    /// grew, and what the next would take ([`Reached::growth_sentence`]).
    pub fn growth(&self) -> Option<String> {
        self.reached.as_ref()?.growth_sentence(self.stats.stored)
    }

    /// The bound the search stopped at, in a few words for a message that
    /// points elsewhere for the figures: `its state limit`, `its memory
    /// budget`, `the machine's memory`.
    pub fn bound_words(&self) -> &'static str {
        match self.bound() {
            Some(Bound::Memory) => "its memory budget",
            Some(Bound::Machine(_)) => "the machine's memory",
            Some(Bound::States) | None => "its state limit",
        }
    }

    /// The bound reached, when the search stopped at one.
    pub fn bound(&self) -> Option<&Bound> {
        self.reached.as_ref().map(|reached| &reached.bound)
    }
}

/// A replay's verdict in game-neutral terms (the `replay --json` fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    /// Whether the level was won when the replay ended.
    pub won: bool,
    /// Cost of the moves applied (moves counted toward par).
    pub moves: Cost,
    /// 0-based index of the refused single move in the notation, if any.
    pub failed_at: Option<usize>,
    /// Why the replay stopped or did not win; `None` when every move was
    /// legal and the level is won.
    pub reason: Option<String>,
}

impl<G: Game + Send + Sync + 'static> AnyLevel for G {
    fn solve(&self, options: SearchOptions) -> Solution {
        let outcome = search::solve(self, options);
        Solution {
            status: outcome.status(),
            par: outcome.par(),
            stats: outcome.stats(),
            moves: outcome.path().map(|path| self.format_moves(path)),
            hang: outcome.hang().map(|hang| HangReport::of(self, hang)),
            reached: outcome.reached().cloned(),
            budget: options.budget(),
        }
    }

    fn replay_text(&self, text: &str) -> Result<ReplayReport, NotationError> {
        let moves = self.parse_moves(text)?;
        let played = replay(self, &moves);
        let reason = match &played.failure {
            Some(failure) => Some(failure.reason.clone()),
            None if !played.won => Some("the moves end before the level is won".to_string()),
            None => None,
        };
        Ok(ReplayReport {
            won: played.won,
            moves: played.cost,
            failed_at: played.failure.map(|failure| failure.token_index),
            reason,
        })
    }

    fn offers_heuristic(&self) -> bool {
        self.heuristic(self.start().borrow()).is_some()
    }

    fn level_text(&self) -> Option<String> {
        Game::level_text(self)
    }

    fn mechanics(&self) -> Vec<Ablation> {
        G::EXTRAS
            .mechanics
            .map_or_else(Vec::new, |fns| (fns.mechanics)(self))
    }

    fn pieces(&self) -> Vec<Ablation> {
        G::EXTRAS
            .mechanics
            .map_or_else(Vec::new, |fns| (fns.pieces)(self))
    }

    fn idle(&self, budget: Budget) -> Option<Result<Vec<String>, HangReport>> {
        let idle = (G::EXTRAS.mechanics?.idle)(self, budget)?;
        Some(idle.map_err(|hang| HangReport::of(self, &hang)))
    }

    fn named_by_text(&self, name: &str) -> bool {
        G::EXTRAS
            .mechanics
            .is_some_and(|fns| (fns.named_by_text)(self, name))
    }

    fn ablated(&self, ablation: &Ablation) -> Box<dyn AnyLevel> {
        let fns = G::EXTRAS
            .mechanics
            .expect("only a game with mechanics lists ablations");
        Box::new((fns.ablate)(self, ablation))
    }

    fn playback(&self, text: &str) -> Result<Option<Playback>, NotationError> {
        let moves = self.parse_moves(text)?;
        let Some(draw) = G::EXTRAS.draw else {
            return Ok(None);
        };
        let start = self.start();
        let mut frames = vec![Frame {
            scene: (draw.scene)(self, start.borrow()),
            text: String::new(),
            trail: Vec::new(),
            cost: 0,
        }];
        let mut last = start;
        let played = replay_visiting(self, &moves, |before, mv, after, cost| {
            let so_far = frames.last().map_or(0, |frame| frame.cost);
            frames.push(Frame {
                scene: (draw.scene)(self, after),
                text: self.format_moves(&[mv]),
                trail: (draw.trail)(self, before, mv),
                cost: so_far + cost,
            });
            last = after.to_owned();
        });
        // Only the invented characters the grids show need a key (a
        // cell's under a piece is hidden).
        let invented = (draw.invented_glyphs)(self);
        let invented = if invented.is_empty() {
            invented
        } else {
            let grids: Vec<String> = frames
                .iter()
                .map(|frame| crate::picture::ascii::grid(&frame.scene))
                .collect();
            invented
                .into_iter()
                .filter(|(glyph, _)| grids.iter().any(|grid| grid.contains(*glyph)))
                .collect()
        };
        Ok(Some(Playback {
            contents: (draw.contents)(self, last.borrow()),
            frames,
            refused: played.failure.map(|failure| failure.reason),
            won: played.won,
            invented,
            unsolved: None,
        }))
    }

    fn reachability(&self) -> Option<Reachability> {
        G::EXTRAS.reachable.map(|reachability| reachability(self))
    }

    fn no_par(&self) -> Option<NoPar> {
        G::EXTRAS.chance.and_then(|fns| (fns.no_par)(self))
    }

    fn reseeded(&self, seed: &str) -> Option<Box<dyn AnyLevel>> {
        let fns = G::EXTRAS.chance?;
        Some(Box::new((fns.reseeded)(self, seed)))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    #[cfg(feature = "pathfinding")]
    fn solve_with_pathfinding(&self) -> Solution {
        let outcome = search::pathfinding_bfs(self);
        Solution {
            status: outcome.status(),
            par: outcome.par(),
            stats: outcome.stats(),
            moves: None,
            hang: None,
            reached: None,
            budget: Budget {
                states: usize::MAX,
                bytes: u64::MAX,
            },
        }
    }
}

/// A game's reader of level files: the text of one file in, a playable
/// level and its warnings out, or the first error. A built-in game names a
/// function (`load: &load`); a game over the process protocol, a closure
/// that holds its processes.
pub type Load = &'static (dyn Fn(&str) -> Result<Loaded, Diagnostic> + Send + Sync);

/// A file that holds several levels (a PuzzleScript game, a Sokoban XSB
/// collection), read once: each level's own result, and the file's warnings.
pub struct LoadedMany {
    /// The levels, in file order: level *N* is `levels[N - 1]`.
    pub levels: Vec<Member>,
    /// Warnings about the file as a whole (not one level's).
    pub warnings: Vec<Diagnostic>,
}

/// One level of a file of several.
pub struct Member {
    /// The level and its own warnings, or why this one does not load (the
    /// file's other levels may still).
    pub level: Result<Loaded, Diagnostic>,
    /// The level's own text (its grid, as written), which its fingerprint
    /// ([`fingerprint`]) is taken from: what tells a moved level from an
    /// edited one.
    pub text: String,
    /// The 1-based line of the file where the level starts.
    pub line: usize,
    /// Its title, when the file gives one (an XSB `Title:` or `;` line).
    pub title: Option<String>,
}

/// How a game reads a file of several levels.
///
/// ```
/// use puzzle_qa_core::diagnostic::Diagnostic;
/// use puzzle_qa_core::level::{LoadedMany, Many};
///
/// // A file whose levels are its paragraphs (none of which loads yet).
/// fn count(text: &str) -> usize {
///     text.split("\n\n").filter(|part| !part.trim().is_empty()).count()
/// }
/// fn load(text: &str) -> Result<LoadedMany, Vec<Diagnostic>> {
///     Err(vec![Diagnostic::error(format!("{} levels, and no rules yet", count(text)))])
/// }
/// const MANY: Many = Many::new(count, load);
/// assert_eq!((MANY.count)("a\n\nb\n"), 2);
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Many {
    /// How many levels the file holds, counted cheaply (listing trials
    /// calls it, and must never solve): it must agree with `load`'s count.
    pub count: fn(text: &str) -> usize,
    /// Reads the whole file: every level, or the errors that stop the file
    /// from being read at all (at least one; all of them, as a compiler
    /// lists them, when the game can tell).
    pub load: fn(text: &str) -> Result<LoadedMany, Vec<Diagnostic>>,
}

impl Many {
    /// A file of several levels, counted by `count` and read by `load`.
    pub const fn new(
        count: fn(text: &str) -> usize,
        load: fn(text: &str) -> Result<LoadedMany, Vec<Diagnostic>>,
    ) -> Many {
        Many { count, load }
    }
}

/// A level's fingerprint: 16 hex digits of a 64-bit FNV-1a hash of its text,
/// with trailing spaces and blank lines at either end ignored, so it is the
/// same on every machine and in every version (expectation files keep it).
///
/// ```
/// use puzzle_qa_core::level::fingerprint;
/// assert_eq!(fingerprint("#..#\n#P.#  \n"), fingerprint("\n#..#\r\n#P.#"));
/// assert_ne!(fingerprint("#..#"), fingerprint("#.#."));
/// assert_eq!(fingerprint("").len(), 16);
/// ```
#[doc(hidden)]
pub fn fingerprint(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let first = lines.iter().position(|line| !line.is_empty());
    let last = lines.iter().rposition(|line| !line.is_empty());
    let kept = match (first, last) {
        (Some(first), Some(last)) => &lines[first..=last],
        _ => &[][..],
    };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (index, line) in kept.iter().enumerate() {
        if index > 0 {
            hash = (hash ^ u64::from(b'\n')).wrapping_mul(0x0100_0000_01b3);
        }
        for byte in line.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// Reads the level file at `path` (shown to the user as `shown`) and parses
/// it with `load`. The error comes back rendered against the file, ready to
/// print; the warnings are left for the caller to render.
#[doc(hidden)]
pub fn read_level(path: &Path, shown: &str, load: Load) -> Result<(String, Loaded), String> {
    let text = read_text(path, shown)?;
    let loaded = load(&text).map_err(|error| error.render(shown, &text))?;
    Ok((text, loaded))
}

/// [`read_level`] for a file of several levels: its text and every level
/// `many` reads from it, or the rendered errors that stop the whole file.
#[doc(hidden)]
pub fn read_levels(path: &Path, shown: &str, many: Many) -> Result<(String, LoadedMany), String> {
    let text = read_text(path, shown)?;
    let file = (many.load)(&text).map_err(|errors| {
        errors
            .iter()
            .map(|error| error.render(shown, &text))
            .collect::<String>()
    })?;
    Ok((text, file))
}

/// The file at `path` as text, or why not, rendered: it cannot be read (a
/// folder, say), or it is not UTF-8 (the line and column of the first bad
/// byte).
#[doc(hidden)]
pub fn read_text(path: &Path, shown: &str) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|error| format!("error: cannot read {shown}: {error}\n"))?;
    crate::diagnostic::text_of(bytes, shown)
}
