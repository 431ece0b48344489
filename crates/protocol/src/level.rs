//! A level of a game over the protocol, as a puzzle-qa [`Game`]: every
//! rule is a request to one of the game's processes.
//!
//! A state is the game's own state string, after one byte that is 1 when
//! the state is won: the searches ask `is_won` of every state they make,
//! and the byte answers without a round trip. The byte is 2 in a hang
//! (`Game::is_hung`): what a search is shown for a move that got no answer
//! within the manifest's `timeout_seconds`, which the search reports as a
//! move that never settles instead of giving up on the level.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use puzzle_qa_core::abandon::abandon;
use puzzle_qa_core::diagnostic::Diagnostic;
use puzzle_qa_core::game::{Ablation, Cost, Draw, Extras, Game, Mechanics, NotationError};
use puzzle_qa_core::picture::{Look, Scene};

use rustc_hash::FxHashMap;

use crate::child::Fault;
use crate::method::{self, Method};
use crate::pool::{Pool, Process};
use crate::wire::{
    AblateParams, DrawParams, ErrorObject, FormatParams, LoadParams, Mechanic, ParseParams,
    StepParams, SuccessorsParams,
};

/// States asked for in one `successors` request.
pub const BATCH: usize = 4096;

/// The first byte of a state the game has not won.
const PLAYING: u8 = 0;
/// The first byte of a won state.
const WON: u8 = 1;
/// The first byte of a hang: what a search is shown in the place of a move
/// that got no answer.
const HUNG: u8 = 2;

/// The move a hang is shown under when a state's `successors` got no
/// answer and no move of it could be blamed alone: the state never settles.
/// It prints as nothing.
const UNNAMED: u32 = u32::MAX;

/// One game over the protocol: its processes, and the names of the moves
/// they have made.
pub(crate) struct Shared {
    pub(crate) pool: Pool,
    moves: RwLock<MoveNames>,
}

/// The moves a game's processes have named, each given an id once.
#[derive(Default)]
struct MoveNames {
    /// The name of each move, at its id.
    names: Vec<String>,
    /// The id of each name.
    ids: HashMap<String, u32>,
}

impl Shared {
    pub(crate) fn new(pool: Pool) -> Shared {
        Shared {
            pool,
            moves: RwLock::default(),
        }
    }

    /// The id of the move called `name`, through a process's own cache of
    /// `moves`.
    fn intern(&self, moves: &mut FxHashMap<String, u32>, name: &str) -> u32 {
        if let Some(&id) = moves.get(name) {
            return id;
        }
        let known = self
            .moves
            .read()
            .ok()
            .and_then(|table| table.ids.get(name).copied());
        let id = known.unwrap_or_else(|| {
            let mut table = self
                .moves
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let next = table.names.len() as u32;
            let id = *table.ids.entry(name.to_string()).or_insert(next);
            if id == next {
                table.names.push(name.to_string());
            }
            id
        });
        moves.insert(name.to_string(), id);
        id
    }

    /// Every move named before the `count`th, sorted by name: the moves a
    /// state that got no answer is tried with, one by one (sorted, so that
    /// the order does not hang on which process named them first).
    fn named(&self, count: usize) -> Vec<(String, u32)> {
        let moves = self
            .moves
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut named: Vec<(String, u32)> = moves.names[..count.min(moves.names.len())]
            .iter()
            .zip(0..)
            .map(|(name, id)| (name.clone(), id))
            .collect();
        named.sort();
        named
    }

    /// How many moves have been named so far.
    fn count(&self) -> usize {
        self.moves
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .names
            .len()
    }

    fn name(&self, id: u32) -> String {
        let moves = self
            .moves
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        moves.names[id as usize].clone()
    }

    /// Runs `work` with a process; a fault abandons the current check.
    fn with<T>(&self, work: impl FnOnce(&mut Process) -> Result<T, Fault>) -> T {
        self.pool
            .with(work)
            .unwrap_or_else(|fault| abandon(fault.0))
    }
}

/// How to make a level in any of the game's processes: load its text, then
/// take out each ablation in turn. Processes load it when first asked.
struct Recipe {
    id: u64,
    text: Arc<str>,
    ablations: Vec<(String, Option<[usize; 2]>)>,
}

impl Recipe {
    fn new(text: Arc<str>, ablations: Vec<(String, Option<[usize; 2]>)>) -> Recipe {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Recipe {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            text,
            ablations,
        }
    }
}

/// A level of a game over the protocol.
pub struct Level {
    shared: Arc<Shared>,
    recipe: Arc<Recipe>,
    start: Vec<u8>,
    mechanics: Vec<Ablation>,
    pieces: Vec<Ablation>,
    unit_costs: bool,
    /// The states whose `successors` got no answer, as each was isolated,
    /// so that a search that comes back to one (to name the moves to its
    /// hang) asks the game nothing more.
    hung: Mutex<FxHashMap<Vec<u8>, Hung>>,
}

/// A state whose `successors` request got no answer within the timeout:
/// its moves, each played alone with `step`, a hang in the place of each
/// that got no answer either (or of the state, if none could be blamed).
#[derive(Clone, Debug, Default)]
struct Hung {
    /// Each move, its cost, and the state after it (or a hang).
    edges: Vec<(u32, Cost, Vec<u8>)>,
    /// Why each move shown as a hang never settles.
    reasons: Vec<(u32, String)>,
}

impl Hung {
    /// Shows `mv` from `state` as a hang, for `reason`.
    fn hang(&mut self, mv: u32, state: &[u8], reason: String) {
        let mut next = vec![HUNG];
        next.extend_from_slice(&state[1..]);
        self.edges.push((mv, 1, next));
        self.reasons.push((mv, reason));
    }
}

/// A state as stored: the won byte, then the game's string.
fn encode(won: bool, state: &str, out: &mut Vec<u8>) {
    out.clear();
    out.push(if won { WON } else { PLAYING });
    out.extend_from_slice(state.as_bytes());
}

/// The game's string of a stored state.
fn decode(state: &[u8]) -> &str {
    std::str::from_utf8(&state[1..]).expect("a state is the game's own string")
}

fn ablations(list: Vec<Mechanic>) -> Vec<Ablation> {
    list.into_iter()
        .map(|m| Ablation {
            at: m.at.map(|[row, column]| (row, column)),
            ..Ablation::everywhere(m.name, m.replacement)
        })
        .collect()
}

/// The error a game replied with, where it says.
fn diagnostic(error: ErrorObject, warning: bool) -> Diagnostic {
    let diagnostic = if warning {
        Diagnostic::warning(error.message)
    } else {
        Diagnostic::error(error.message)
    };
    match error.line {
        Some(line) => diagnostic.at(line, error.column.unwrap_or(1), 1),
        None => diagnostic,
    }
}

/// The handle of `recipe` in `process`, loading it there first if need be.
fn handle(process: &mut Process, recipe: &Recipe) -> Result<String, Fault> {
    if let Some(handle) = process.handles.get(&recipe.id) {
        return Ok(handle.clone());
    }
    let child = &mut process.child;
    let answer = child.call::<method::Load>(LoadParams { text: &recipe.text })?;
    let loaded = child.read(&answer)?.map_err(|error| {
        child.fault(
            method::Load::METHOD,
            &format!("a level it loaded before now fails: {}", error.message),
        )
    })?;
    let mut level = loaded.level;
    for (mechanic, at) in &recipe.ablations {
        let ablated = child.request::<method::Ablate>(AblateParams {
            level: &level,
            mechanic,
            at: *at,
        })?;
        level = ablated.level;
    }
    process.handles.insert(recipe.id, level.clone());
    Ok(level)
}

/// The successors of some states, as one process gave them: per edge the
/// state's index, the move, its cost and where its state ends in `bytes`.
#[derive(Default)]
struct Answered {
    edges: Vec<(usize, u32, Cost, usize)>,
    bytes: Vec<u8>,
}

impl Answered {
    /// Adds a successor of state `index`: its first byte, then the rest.
    fn push(&mut self, index: usize, mv: u32, cost: Cost, first: u8, rest: &[u8]) {
        self.bytes.push(first);
        self.bytes.extend_from_slice(rest);
        self.edges.push((index, mv, cost, self.bytes.len()));
    }

    /// Adds the successors of state `index` as its isolation found them.
    fn extend(&mut self, index: usize, hung: &Hung) {
        for (mv, cost, next) in &hung.edges {
            self.push(index, *mv, *cost, next[0], &next[1..]);
        }
    }

    /// Every successor, in order: the state's index, the move, its cost,
    /// the next state.
    fn edges(&self) -> impl Iterator<Item = (usize, u32, Cost, &[u8])> {
        let mut from = 0;
        self.edges.iter().map(move |&(index, mv, cost, to)| {
            let next = &self.bytes[from..to];
            from = to;
            (index, mv, cost, next)
        })
    }
}

/// States at least, per process, worth a request of their own.
const SHARE: usize = 256;

impl Level {
    /// Asks one process for the successors of `states[i]` for each `i` of
    /// `part` (in requests of at most [`BATCH`] states). A request that
    /// gets no answer in time is asked again one state at a time (each
    /// with a fresh process, as a timeout stops the old one), and a state
    /// that still gets none is isolated: its moves tried one by one, among
    /// the first `named` the game has named ([`Level::isolate`]).
    fn ask(&self, states: &[&[u8]], part: &[usize], named: usize) -> Answered {
        let mut answered = Answered::default();
        for chunk in part.chunks(BATCH) {
            let Err(fault) = self.ask_once(states, chunk, &mut answered) else {
                continue;
            };
            if let [index] = chunk {
                let hung = self.isolate(states[*index], fault, named);
                answered.extend(*index, &hung);
                continue;
            }
            for &index in chunk {
                if let Err(fault) = self.ask_once(states, &[index], &mut answered) {
                    let hung = self.isolate(states[index], fault, named);
                    answered.extend(index, &hung);
                }
            }
        }
        answered
    }

    /// One `successors` request for the states of `chunk`, its answers
    /// added to `answered`; the fault if no answer came in time (any other
    /// fault abandons the check).
    fn ask_once(
        &self,
        states: &[&[u8]],
        chunk: &[usize],
        answered: &mut Answered,
    ) -> Result<(), Fault> {
        let mut timed_out = false;
        let asked = self.shared.pool.with(|process| {
            let level = handle(process, &self.recipe)?;
            let answer = process
                .child
                .call::<method::Successors>(SuccessorsParams {
                    level: &level,
                    states: chunk.iter().map(|&i| decode(states[i])).collect(),
                })
                .inspect_err(|_| timed_out = process.child.timed_out())?;
            let got = process.child.result(&answer)?;
            if got.successors.len() != chunk.len() {
                return Err(process.child.fault(
                    method::Successors::METHOD,
                    &format!(
                        "it gave {} lists of successors for {} states",
                        got.successors.len(),
                        chunk.len()
                    ),
                ));
            }
            for (&index, edges) in chunk.iter().zip(&got.successors) {
                for edge in edges {
                    let mv = self.shared.intern(&mut process.moves, &edge.mv);
                    let first = if edge.won { WON } else { PLAYING };
                    let cost = edge.cost.unwrap_or(1);
                    answered.push(index, mv, cost, first, edge.state.as_bytes());
                }
            }
            Ok(())
        });
        match asked {
            Ok(()) => Ok(()),
            Err(fault) if timed_out => Err(fault),
            Err(fault) => abandon(fault.0),
        }
    }

    /// A state whose `successors` got no answer (`fault`): each of the
    /// first `named` moves the game has named is played from it alone with
    /// `step`. A move that gets no answer either is a hang; if none does,
    /// the state is, under [`UNNAMED`]. Kept, so that nothing is asked
    /// twice.
    fn isolate(&self, state: &[u8], fault: Fault, named: usize) -> Hung {
        let named = self.shared.named(named);
        let mut hung = Hung::default();
        for (name, mv) in &named {
            match self.play(state, name) {
                Ok(Ok((next, cost))) => hung.edges.push((*mv, cost, next)),
                Ok(Err(_refused)) => {}
                Err(fault) => hung.hang(*mv, state, fault.0),
            }
        }
        if hung.reasons.is_empty() {
            let why = if named.is_empty() {
                "no move of the game was known yet to try alone with `step`"
            } else {
                "each of its moves, tried alone with `step`, was answered"
            };
            hung.hang(UNNAMED, state, format!("{}; {why}", fault.0));
        }
        self.hung
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(state.to_vec(), hung.clone());
        hung
    }

    /// Why `mv` from `state` never settles, if its state was isolated and
    /// the move found to hang.
    fn hung_reason(&self, state: &[u8], mv: u32) -> Option<String> {
        let hung = self.hung.lock().unwrap_or_else(|p| p.into_inner());
        let reasons = &hung.get(state)?.reasons;
        reasons
            .iter()
            .find(|(hanging, _)| *hanging == mv)
            .map(|(_, reason)| reason.clone())
    }

    /// The move called `name` from `state`, through `step`: the state after
    /// it and its cost, or the game's refusal; the fault if no answer came
    /// in time (any other fault abandons the check).
    fn play(&self, state: &[u8], name: &str) -> Result<Result<(Vec<u8>, Cost), String>, Fault> {
        let mut timed_out = false;
        let played = self.shared.pool.with(|process| {
            let level = handle(process, &self.recipe)?;
            let stepped = process
                .child
                .request::<method::Step>(StepParams {
                    level: &level,
                    state: decode(state),
                    mv: name,
                })
                .inspect_err(|_| timed_out = process.child.timed_out())?;
            match (stepped.refused, stepped.state) {
                (Some(why), _) => Ok(Err(why)),
                (None, Some(next)) => {
                    let mut out = Vec::new();
                    encode(stepped.won, &next, &mut out);
                    Ok(Ok((out, stepped.cost.unwrap_or(1))))
                }
                (None, None) => Err(process.child.fault(
                    method::Step::METHOD,
                    "its result has neither `state` nor `refused`",
                )),
            }
        });
        match played {
            Ok(played) => Ok(played),
            Err(fault) if timed_out => Err(fault),
            Err(fault) => abandon(fault.0),
        }
    }

    /// Loads a level file's text in one of the game's processes: the
    /// level and its warnings, or the error the game gave (a fault of the
    /// process is an error too, at no line).
    pub(crate) fn load(
        shared: &Arc<Shared>,
        text: &str,
    ) -> Result<(Level, Vec<Diagnostic>), Diagnostic> {
        let recipe = Arc::new(Recipe::new(text.into(), Vec::new()));
        let loaded = shared.pool.with(|process| {
            let answer = process.child.call::<method::Load>(LoadParams { text })?;
            let loaded = process.child.read(&answer)?;
            if let Ok(loaded) = &loaded {
                process.handles.insert(recipe.id, loaded.level.clone());
            }
            Ok(loaded)
        });
        let loaded = match loaded {
            Ok(Ok(loaded)) => loaded,
            Ok(Err(error)) => return Err(diagnostic(error, false)),
            Err(fault) => return Err(Diagnostic::error(fault.0)),
        };
        let mut start = Vec::new();
        encode(loaded.won, &loaded.start, &mut start);
        let warnings = loaded
            .warnings
            .into_iter()
            .map(|warning| diagnostic(warning, true))
            .collect();
        Ok((
            Level {
                shared: Arc::clone(shared),
                recipe,
                start,
                mechanics: ablations(loaded.mechanics),
                pieces: ablations(loaded.pieces),
                unit_costs: loaded.unit_costs,
                hung: Mutex::default(),
            },
            warnings,
        ))
    }
}

impl Game for Level {
    type State = [u8];
    type Key = ();
    type Move = u32;
    type Refusal = String;
    const BATCH: usize = BATCH;
    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw();

    fn start(&self) -> Vec<u8> {
        self.start.clone()
    }

    fn key(&self, _: &[u8]) {}

    fn is_won(&self, state: &[u8]) -> bool {
        state.first() == Some(&WON)
    }

    fn is_hung(&self, state: &[u8]) -> bool {
        state.first() == Some(&HUNG)
    }

    fn moves(&self, state: &[u8]) -> impl Iterator<Item = u32> {
        let mut moves = Vec::new();
        self.successors(state, |mv, _, _| moves.push(mv));
        moves.into_iter()
    }

    /// A move that gets no answer in time is refused, with the fault as
    /// the reason: a replay stops there, as at any move that never
    /// settles.
    fn step(&self, state: &[u8], mv: u32) -> Result<(Vec<u8>, Cost), String> {
        if let Some(reason) = self.hung_reason(state, mv) {
            return Err(reason);
        }
        if mv == UNNAMED {
            return Err("the game never named this move".to_string());
        }
        let name = self.shared.name(mv);
        self.play(state, &name).unwrap_or_else(|fault| Err(fault.0))
    }

    fn successors(&self, state: &[u8], mut visit: impl FnMut(u32, &[u8], Cost)) {
        self.successors_of_many(&[state], |_, mv, next, cost| visit(mv, next, cost));
    }

    fn successors_of_many(&self, states: &[&[u8]], mut visit: impl FnMut(usize, u32, &[u8], Cost)) {
        // A state isolated before is answered as it was then; the game is
        // asked about the others that have not won (a won state leads
        // nowhere).
        let known: Vec<(usize, Hung)> = {
            let hung = self.hung.lock().unwrap_or_else(|p| p.into_inner());
            if hung.is_empty() {
                Vec::new()
            } else {
                (0..states.len())
                    .filter_map(|i| Some((i, hung.get(states[i])?.clone())))
                    .collect()
            }
        };
        let asked: Vec<usize> = (0..states.len())
            .filter(|&i| !self.is_won(states[i]) && !known.iter().any(|(k, _)| *k == i))
            .collect();
        // The moves named so far: those a state that gets no answer is
        // tried with alone, whatever the processes name meanwhile.
        let named = self.shared.count();
        // The states are shared out among the game's processes, which play
        // them at the same time; their answers are then visited in order,
        // so the search sees what one process would have given.
        let processes = self.shared.pool.manifest.processes;
        let parts = asked.len().div_ceil(SHARE).clamp(1, processes);
        let share = asked.len().div_ceil(parts).max(1);
        let answers: Vec<Answered> = std::thread::scope(|scope| {
            let mut shares = asked.chunks(share);
            let first = shares.next();
            let others: Vec<_> = shares
                .map(|part| scope.spawn(move || self.ask(states, part, named)))
                .collect();
            let mut answers: Vec<Answered> = first
                .into_iter()
                .map(|part| self.ask(states, part, named))
                .collect();
            for other in others {
                // A fault in another thread abandons this call too.
                answers.push(
                    other
                        .join()
                        .unwrap_or_else(|payload| std::panic::resume_unwind(payload)),
                );
            }
            answers
        });
        let mut edges = answers.iter().flat_map(Answered::edges).peekable();
        for (at, hung) in &known {
            while let Some((index, mv, cost, next)) = edges.next_if(|edge| edge.0 < *at) {
                visit(index, mv, next, cost);
            }
            for (mv, cost, next) in &hung.edges {
                visit(*at, *mv, next, *cost);
            }
        }
        for (index, mv, cost, next) in edges {
            visit(index, mv, next, cost);
        }
    }

    fn unit_costs(&self) -> bool {
        self.unit_costs
    }

    fn format_moves(&self, moves: &[u32]) -> String {
        // A hang under no move's name is the state the moves before it
        // reach: it prints as nothing.
        let names: Vec<String> = moves
            .iter()
            .filter(|&&mv| mv != UNNAMED)
            .map(|&mv| self.shared.name(mv))
            .collect();
        self.shared.with(|process| {
            let level = handle(process, &self.recipe)?;
            let formatted = process.child.request::<method::Format>(FormatParams {
                level: &level,
                moves: names.iter().map(String::as_str).collect(),
            })?;
            Ok(formatted.text)
        })
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<u32>, NotationError> {
        self.shared.with(|process| {
            let level = handle(process, &self.recipe)?;
            let answer = process.child.call::<method::Parse>(ParseParams {
                level: &level,
                text,
            })?;
            Ok(match process.child.read(&answer)? {
                Ok(parsed) => Ok(parsed
                    .moves
                    .iter()
                    .map(|name| self.shared.intern(&mut process.moves, name))
                    .collect()),
                Err(error) => Err(NotationError::new(error.column.unwrap_or(1), error.message)),
            })
        })
    }
}

impl Mechanics for Level {
    fn mechanics(&self) -> Vec<Ablation> {
        self.mechanics.clone()
    }

    fn pieces(&self) -> Vec<Ablation> {
        self.pieces.clone()
    }

    fn ablate(&self, ablation: &Ablation) -> Level {
        let at = ablation.at.map(|(row, column)| [row, column]);
        let mut steps = self.recipe.ablations.clone();
        steps.push((ablation.mechanic.to_string(), at));
        let recipe = Arc::new(Recipe::new(Arc::clone(&self.recipe.text), steps));
        let start = self.shared.with(|process| {
            let level = handle(process, &self.recipe)?;
            let ablated = process.child.request::<method::Ablate>(AblateParams {
                level: &level,
                mechanic: &ablation.mechanic,
                at,
            })?;
            process.handles.insert(recipe.id, ablated.level);
            let mut start = Vec::new();
            encode(ablated.won, &ablated.start, &mut start);
            Ok(start)
        });
        Level {
            shared: Arc::clone(&self.shared),
            recipe,
            start,
            mechanics: Vec::new(),
            pieces: Vec::new(),
            unit_costs: self.unit_costs,
            hung: Mutex::default(),
        }
    }
}

/// Fills for a picture's characters that its game's legend leaves out.
const FILLS: [&str; 8] = [
    "#8d99ae", "#ef8354", "#4f5d75", "#bfc0c0", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51",
];

impl Draw for Level {
    /// The game's text picture, a character a cell; a game that draws none
    /// gets one cell saying so.
    fn scene(&self, state: &[u8]) -> Scene {
        let drawn = self.shared.with(|process| {
            if !process.child.draws {
                return Ok(None);
            }
            let level = handle(process, &self.recipe)?;
            let drawn = process.child.request::<method::Draw>(DrawParams {
                level: &level,
                state: decode(state),
            })?;
            Ok(Some(drawn))
        });
        let Some(drawn) = drawn else {
            return Scene {
                width: 1,
                height: 1,
                cells: vec![Look::new("the game draws no pictures", "#bfc0c0", '?')],
                pieces: Vec::new(),
                links: Vec::new(),
            };
        };
        let width = drawn
            .rows
            .iter()
            .map(|row| row.chars().count())
            .max()
            .unwrap_or(0);
        let mut cells = Vec::with_capacity(width * drawn.rows.len());
        for row in &drawn.rows {
            let mut chars = row.chars();
            for _ in 0..width {
                let glyph = chars.next().unwrap_or(' ');
                let legend = drawn.legend.get(glyph.encode_utf8(&mut [0; 4]) as &str);
                let fill = legend
                    .and_then(|entry| entry.fill.clone())
                    .unwrap_or_else(|| FILLS[glyph as usize % FILLS.len()].to_string());
                let name = legend.map_or_else(|| format!("`{glyph}`"), |entry| entry.name.clone());
                cells.push(Look::new(name, fill, glyph));
            }
        }
        Scene {
            width,
            height: drawn.rows.len(),
            cells,
            pieces: Vec::new(),
            links: Vec::new(),
        }
    }
}
