//! The A* heuristic: distances to a win in relaxed games, computed once per
//! level (and once per ablated copy) by backward searches when A* first
//! asks, then read from tables.
//!
//! # The relaxed game
//!
//! * A cell is *possible* when it can ever hold a tile: a static tile, or a
//!   switchable name that starts present or that some switch can set. (A
//!   name that starts missing stays missing while no switch's folded effect
//!   has its `flip` bit: `(0 & keep) ^ 0 = 0`.)
//! * Every possible cell is always there, switches do nothing, and weak
//!   tiles never break — but the block never stands upright on a weak tile,
//!   because the real game refuses that whatever the mask (a cell's tile
//!   never changes during play).
//! * Nodes: a whole block `P` (upright on `c`, lying on `(c, c+1)` or
//!   `(c, c+width)`) whose cells are all possible, and the split states:
//!   two cubes on possible cells `a`, `b`, neither the same nor adjacent.
//! * `d(P)`, the value of a whole block, and `E(a, b)`, the value of a
//!   split, are the least solution of
//!   - `d(upright on a goal) = 0`; no roll leaves it (a win is terminal);
//!   - `d(P) ≤ 1 + d(Q)` for every roll `P → Q`, unless `P` is upright on a
//!     goal or on a teleport that has a rule;
//!   - `d(upright on a teleport t) = d(lying on (t1, t2))` when its targets
//!     are adjacent, else `E(t1, t2)` (no value if a target is never
//!     possible): that is where the block is right after the roll onto `t`,
//!     for the real block never stays upright on `t`;
//!   - `E(a, b) ≤ 1 + E(a', b)` for each possible neighbour `a'` of `a` not
//!     next to `b` (a cube roll), and `E(a, b) ≤ 1 + d(lying on (a', b))`
//!     for each one next to `b` (a roll that merges); the same for `b`.
//!
//!   Every edge costs 1 but the teleport's, which costs 0, so one Dijkstra
//!   run backwards from the goals with a bucket queue solves it. A node the
//!   search never reaches has no relaxed way to win.
//! * Split values take `cells²` entries, so a level of more than 512
//!   cells gets a weaker bound instead: `D(c)`, one value per cube, with
//!   `D(c) ≤ 1 + D(c')` for each possible neighbour `c'`, `D(c) ≤ d(P)` for
//!   each lying block `P` that covers `c`, and `max(D(t1), D(t2))` in place
//!   of `E(t1, t2)`. The cube on `a` must walk to where the cubes merge into
//!   some `P`, which then rolls home, and the same for `b`: so
//!   `max(D(a), D(b)) ≤ E(a, b)`. That `max` is monotone and never below its
//!   arguments, so the same search solves it (Knuth's generalisation: the
//!   teleport settles when the later of its two cubes does).
//!
//! # A bridge that is missing now
//!
//! For a switchable name `k` (one table per name, within a memory budget),
//! the *`k`-game* is the relaxed game without `k`'s cells, left for the
//! relaxed game by a move that fires a switch whose `flip` has `k`'s bit
//! (the only way a missing name appears). Its values `d_k` and `E_k` are
//! the least solution of the same inequalities over its own nodes, plus an
//! exit for each such move: a roll onto `Q` upright on that `S` or `W`, or
//! lying on that `W`, gives `d_k(P) ≤ 1 + d(Q)`; a cube's roll onto that
//! `W`, leaving cubes `X` (or a lying block `X`), gives
//! `E_k(a, b) ≤ 1 + E(X)` (or `1 + d(X)`). With one value per cube the
//! `k`-game has whole blocks only, and a split leaves it: its teleport's
//! value is the plain `max(D(t1), D(t2))`.
//!
//! `h(state)` is the plain value raised to the `k`-game's for each name `k`
//! missing in the state's mask: `max(d(P), d_k(P), …)` for a whole block
//! `P`, `max(E(a, b), E_k(a, b), …)` for cubes on `a` and `b` (with one
//! value per cube, `max(D(a), D(b))`).
//!
//! # Why it is consistent, hence admissible
//!
//! Every real state is a node: its cells are present, so possible; the
//! block is never upright on a weak tile or on a teleport that splits, and
//! two cubes next to each other are a lying block. Take any real roll
//! `s → s'` (cost 1); each case is an inequality above:
//!
//! * block `P` → block `Q`: the landing cells are present, so `Q` is a node
//!   and `P → Q` a relaxed roll: `d(P) ≤ 1 + d(Q)`.
//! * block `P` → upright on a teleport `t`, which splits: `s'` is the lying
//!   block on adjacent targets, or cubes on `t1` and `t2`; either way its
//!   value is `d(upright on t)`, and `d(P) ≤ 1 + d(upright on t)`.
//! * cubes `(a, b)` → `(a', b)`, or their merge into the lying block on
//!   `(a', b)`: an edge of `E`. With `D`: `D(a) ≤ 1 + D(a')`, and on a merge
//!   into `P`, `D(a) ≤ 1 + D(a') ≤ 1 + d(P)` and `D(b) ≤ d(P)`; so
//!   `max(D(a), D(b)) ≤ 1 + h(s')` either way.
//! * `S` alone (replay only) changes nothing `h` reads.
//!
//! For the term of a name `k` missing in `s`: a move lands (block or
//! cube) before switches fire, so it lands on no cell of `k`, and it is a
//! move of the `k`-game, one of the cases above. If `k` is still missing in
//! `s'`, the `k`-game's inequality for it bounds the term by 1 + the term
//! of `s'` (or, from a block onto a teleport with one value per cube, by
//! 1 + the plain value of the split, which is `h(s')`). If `k` appeared,
//! the move fired a switch that can set it, and its exit bounds the term by
//! 1 + the plain value of `s'`. A term that `s'` gains (a name that
//! disappears) only raises `h(s')`. So `h(s) ≤ 1 + h(s')` on every move,
//! and `h` is 0 on a win (upright on a goal, whose cell is present, so no
//! missing name's). By induction on the rolls still needed, `h` never
//! overestimates.
//!
//! A state with no relaxed value can never win: by the same inequalities, a
//! state has a value whenever some roll leads to a state with one. Its
//! heuristic is [`HOPELESS`], far above any value (fewer than the nodes)
//! and any real par, yet far from overflowing A*'s `g + h`: such states
//! stay at the back of the frontier, are never expanded before the search
//! decides, and the par is still exact (an unsolvable level is still proved
//! so, once the rest is exhausted). Consistency holds for them too: either
//! `h(s')` is a value and so is `h(s) ≤ 1 + h(s')`, or
//! `h(s') = HOPELESS ≥ h(s)`.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::level::{Level, Presence, Tile};
use super::rules::{Dir, Shape, State, landing};
use puzzle_qa_core::game::Cost;

pub(crate) use puzzle_qa_core::game::HOPELESS;

/// A table entry with no relaxed way to win.
const NEVER: u32 = u32::MAX;

/// The most split values (`cells²`) a level may have (1 MiB, 512 cells):
/// past it, one value per cube.
const PAIR_BUDGET: usize = 1 << 18;

/// The most entries all the missing-name tables of one level may hold
/// (8 MiB); names past it get no table, which only weakens the bound.
const MISSING_BUDGET: usize = 1 << 21;

/// No neighbour: the grid's edge.
const OFF: u32 = u32::MAX;

/// The whole-block shapes, in table order.
const BLOCKS: [Shape; 3] = [Shape::Upright, Shape::Horizontal, Shape::Vertical];

/// A level's [`Bounds`], computed on first use, so that reading a level and
/// searching it without A* (BFS, the ablations) never pay for them. A clone
/// starts without them: a copy's cells may be about to change (an ablated
/// copy is a changed clone), and its tables must follow its cells.
#[derive(Debug, Default)]
pub(crate) struct LazyBounds(OnceLock<Bounds>);

impl Clone for LazyBounds {
    fn clone(&self) -> Self {
        LazyBounds::default()
    }
}

impl From<Bounds> for LazyBounds {
    fn from(bounds: Bounds) -> Self {
        LazyBounds(OnceLock::from(bounds))
    }
}

/// The relaxed distances of a level (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bounds {
    /// `d` of a whole block at `shape × cells + first cell` (shapes in
    /// [`BLOCKS`] order), then the split values from `3 × cells` on: `E` of
    /// cubes on `a < b` at `a × cells + b` when `pairs`, else `D` of a cube
    /// at `cell`. [`NEVER`] where there is no value.
    distance: Vec<u32>,
    /// Whether split values are per pair of cells (else per cube).
    pairs: bool,
    /// `(bit, table)` for each name `k` whose `k`-game's table is not the
    /// plain one: indexed like `distance`, with whole blocks only when
    /// values are per cube.
    missing: Vec<(u8, Vec<u32>)>,
}

/// A table value as a cost: [`HOPELESS`] for [`NEVER`].
fn finite(value: u32) -> Cost {
    if value == NEVER {
        HOPELESS
    } else {
        Cost::from(value)
    }
}

fn block_index(shape: Shape) -> usize {
    match shape {
        Shape::Upright => 0,
        Shape::Horizontal => 1,
        Shape::Vertical => 2,
        Shape::Split => unreachable!("a split is two cubes, not a block"),
    }
}

/// The value of cubes on `one` and `two` in a table of the plain game.
fn split_value(table: &[u32], cells: usize, pairs: bool, one: usize, two: usize) -> u32 {
    let splits = &table[3 * cells..];
    if pairs {
        splits[one.min(two) * cells + one.max(two)]
    } else {
        splits[one].max(splits[two])
    }
}

/// The heuristic (see the module documentation): [`HOPELESS`] when the
/// state cannot win even relaxed. Admissible and consistent. The first
/// call computes the tables.
pub(crate) fn lower_bound(level: &Level, state: &State) -> Cost {
    let cells = level.cells.len();
    let bounds = level
        .bounds
        .0
        .get_or_init(|| Bounds::of(level, cells.pow(2) <= PAIR_BUDGET));
    let table = &bounds.distance;
    let (a, b) = (state.a as usize, state.b as usize);
    // The missing names' tables hold whole blocks, and splits too when
    // the values are per split.
    let at = match state.shape {
        Shape::Split if !bounds.pairs => return finite(split_value(table, cells, false, a, b)),
        Shape::Split => 3 * cells + a.min(b) * cells + a.max(b),
        shape => block_index(shape) * cells + a,
    };
    let value = bounds
        .missing
        .iter()
        .filter(|(bit, _)| state.mask >> bit & 1 == 0)
        .fold(table[at], |value, (_, table)| value.max(table[at]));
    finite(value)
}

impl Level {
    /// The bits of names that some switch can make present.
    fn settable(&self) -> u64 {
        self.switches
            .iter()
            .fold(0u64, |bits, effect| bits | effect.flip)
    }
}

impl Bounds {
    /// The tables, with a value per split (`pairs`) or per cube.
    pub(crate) fn of(level: &Level, pairs: bool) -> Bounds {
        let relaxed = Relaxed::new(level, pairs);
        let distance = relaxed.solve(&[]);
        let blocks = 3 * relaxed.cells;
        let mut names: Vec<u8> = level
            .cells
            .iter()
            .enumerate()
            .filter_map(|(cell, tile)| match tile.presence {
                Presence::Dynamic(bit) if relaxed.possible[cell] => Some(bit),
                _ => None,
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        let mut missing = Vec::new();
        let size = if pairs {
            blocks + relaxed.cells.pow(2)
        } else {
            blocks
        };
        for bit in names.into_iter().take(MISSING_BUDGET / size.max(1)) {
            let table = relaxed.without(bit).solve(&distance);
            if table[..] != distance[..table.len()] {
                missing.push((bit, table));
            }
        }
        Bounds {
            distance,
            pairs,
            missing,
        }
    }
}

/// A relaxed game of one level, as a graph searched backwards.
struct Relaxed<'a> {
    level: &'a Level,
    cells: usize,
    /// Whether each cell can be there in this game.
    possible: Vec<bool>,
    /// Each cell's neighbours on the grid, [`OFF`] past its edges.
    near: Vec<[u32; 4]>,
    /// A value per split (else per cube).
    pairs: bool,
    /// The name kept missing until a switch that can set it fires, if any
    /// (with a value per cube, that game has whole blocks only: a split
    /// leaves it).
    missing: Option<u8>,
}

impl<'a> Relaxed<'a> {
    fn new(level: &'a Level, pairs: bool) -> Self {
        let settable = level.initial_mask | level.settable();
        let possible = level
            .cells
            .iter()
            .map(|cell| match cell.presence {
                Presence::Static(present) => present,
                Presence::Dynamic(bit) => settable >> bit & 1 == 1,
            })
            .collect();
        let (width, height) = (level.width as u32, level.height as u32);
        let near = (0..level.cells.len() as u32)
            .map(|cell| {
                let (row, col) = (cell / width, cell % width);
                [
                    if row > 0 { cell - width } else { OFF },
                    if row + 1 < height { cell + width } else { OFF },
                    if col > 0 { cell - 1 } else { OFF },
                    if col + 1 < width { cell + 1 } else { OFF },
                ]
            })
            .collect();
        Relaxed {
            level,
            cells: level.cells.len(),
            possible,
            near,
            pairs,
            missing: None,
        }
    }

    /// This game with name `bit` missing until a switch sets it.
    fn without(&self, bit: u8) -> Relaxed<'a> {
        let possible = self
            .possible
            .iter()
            .zip(&self.level.cells)
            .map(|(&possible, cell)| possible && cell.presence != Presence::Dynamic(bit))
            .collect();
        Relaxed {
            level: self.level,
            cells: self.cells,
            possible,
            near: self.near.clone(),
            pairs: self.pairs,
            missing: Some(bit),
        }
    }

    /// The possible cell at (row, col), if it is on the grid.
    fn cell(&self, (row, col): (i32, i32)) -> Option<usize> {
        let level = self.level;
        let on_grid =
            (0..level.height as i32).contains(&row) && (0..level.width as i32).contains(&col);
        if !on_grid {
            return None;
        }
        let cell = row as usize * level.width + col as usize;
        self.possible[cell].then_some(cell)
    }

    fn row_col(&self, cell: usize) -> (i32, i32) {
        let width = self.level.width;
        ((cell / width) as i32, (cell % width) as i32)
    }

    /// The possible neighbours of a cell.
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.near[cell]
            .into_iter()
            .filter(|&near| near != OFF && self.possible[near as usize])
            .map(|near| near as usize)
    }

    /// Whether two cells are orthogonal neighbours.
    fn adjacent(&self, one: usize, two: usize) -> bool {
        self.near[one].contains(&(two as u32))
    }

    /// The node of a cube on `cell` (values per cube).
    fn cube(&self, cell: usize) -> usize {
        3 * self.cells + cell
    }

    /// The node of cubes on `one` and `two` (values per split).
    fn pair(&self, one: usize, two: usize) -> usize {
        3 * self.cells + one.min(two) * self.cells + one.max(two)
    }

    /// Whether cubes on `one` and `two` are a split state of this game.
    fn splits(&self, one: usize, two: usize) -> bool {
        one != two && self.possible[one] && self.possible[two] && !self.adjacent(one, two)
    }

    /// The node of a whole block covering `first` (and `second`, lying), if
    /// the game has it: its cells possible, not upright on `w`.
    fn block(&self, shape: Shape, first: (i32, i32), second: Option<(i32, i32)>) -> Option<usize> {
        let cell = self.cell(first)?;
        match second {
            Some(second) => {
                self.cell(second)?;
            }
            None if self.level.cells[cell].tile == Tile::Weak => return None,
            None => {}
        }
        Some(block_index(shape) * self.cells + cell)
    }

    /// The cells under whole block `node` in reading order (the second is
    /// `None` upright), if `node` is a node of the game.
    fn covered(&self, node: usize) -> Option<(usize, Option<usize>)> {
        let shape = BLOCKS[node / self.cells];
        let first = node % self.cells;
        let (row, col) = self.row_col(first);
        let second = match shape {
            Shape::Horizontal => Some((row, col + 1)),
            Shape::Vertical => Some((row + 1, col)),
            _ => None,
        };
        self.block(shape, (row, col), second)?;
        let second = second.map(|(row, col)| row as usize * self.level.width + col as usize);
        Some((first, second))
    }

    /// The lying block on two adjacent cells `one` and `two`, if it is a node.
    fn lying(&self, one: usize, two: usize) -> Option<usize> {
        let (first, second) = (self.row_col(one.min(two)), self.row_col(one.max(two)));
        let shape = if first.0 == second.0 {
            Shape::Horizontal
        } else {
            Shape::Vertical
        };
        self.block(shape, first, Some(second))
    }

    /// Whether rolls leave this block: not when it is upright on a goal (a
    /// win) or on a teleport with a rule (it splits).
    fn rolls_on(&self, node: usize) -> bool {
        if node >= self.cells {
            return true;
        }
        let cell = &self.level.cells[node];
        cell.tile != Tile::Goal && cell.teleport.is_none()
    }

    /// Whether `cell` is one of `tiles` and its switch can set the missing
    /// name.
    fn sets_missing(&self, cell: usize, tiles: &[Tile]) -> bool {
        let Some(bit) = self.missing else {
            return false;
        };
        let cell = &self.level.cells[cell];
        let flip = |switch: u16| self.level.switches[switch as usize].flip;
        tiles.contains(&cell.tile)
            && cell
                .switch
                .is_some_and(|switch| flip(switch) >> bit & 1 == 1)
    }

    /// Whether a block landing as `node` fires a switch that can set the
    /// missing name: upright, its `S` or `W`; lying, its `W`s.
    fn block_sets_missing(&self, node: usize) -> bool {
        let weak = [Tile::WeakSwitch];
        match self.covered(node) {
            Some((first, None)) => {
                self.sets_missing(first, &[Tile::StrongSwitch, Tile::WeakSwitch])
            }
            Some((first, Some(second))) => {
                self.sets_missing(first, &weak) || self.sets_missing(second, &weak)
            }
            None => false,
        }
    }

    /// The node of cubes on `one` and `two`: a split, or the lying block
    /// they merge into when adjacent (values per split).
    fn cubes(&self, one: usize, two: usize) -> Option<usize> {
        if self.splits(one, two) {
            Some(self.pair(one, two))
        } else if self.possible[two] && self.adjacent(one, two) {
            self.lying(one, two)
        } else {
            None
        }
    }

    /// The blocks that roll onto whole block `node`. Rolls undo, so they are
    /// the ones it rolls onto.
    fn rollers(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        let shape = BLOCKS[node / self.cells];
        let at = self.row_col(node % self.cells);
        Dir::ALL.into_iter().filter_map(move |dir| {
            let (shape, one, two) = landing(shape, at, dir);
            self.block(shape, one, two)
                .filter(|&from| self.rolls_on(from))
        })
    }

    /// The split states from which one cube's roll leaves cubes on `one` and
    /// `two` (a split, or, adjacent, the lying block they merge into).
    fn movers(&self, one: usize, two: usize, found: &mut Vec<(usize, u32)>) {
        for (moved, stayed) in [(one, two), (two, one)] {
            for from in self.neighbours(moved) {
                if self.splits(from, stayed) {
                    found.push((self.pair(from, stayed), 1));
                }
            }
        }
    }

    /// The nodes whose value `node`'s value bounds, with the edge's cost:
    /// `node` is where one of their moves leads.
    fn predecessors(&self, node: usize, found: &mut Vec<(usize, u32)>) {
        found.clear();
        let blocks = 3 * self.cells;
        if node >= blocks {
            let split = node - blocks;
            if self.pairs {
                self.movers(split / self.cells, split % self.cells, found);
            } else {
                found.extend(self.neighbours(split).map(|cell| (self.cube(cell), 1)));
            }
            return;
        }
        found.extend(self.rollers(node).map(|from| (from, 1)));
        // A lying block is what cubes on its two cells merge into.
        if let Some((first, Some(second))) = self.covered(node) {
            if self.pairs {
                self.movers(first, second, found);
            } else if self.missing.is_none() {
                found.push((self.cube(first), 0));
                found.push((self.cube(second), 0));
            }
        }
    }

    /// Solves the game backwards: the plain game (`plain` empty) over blocks
    /// and splits, or a missing name's game over blocks, which leaves for
    /// the plain game's values in `plain`.
    fn solve(&self, plain: &[u32]) -> Vec<u32> {
        let splits = match (self.pairs, self.missing) {
            (true, _) => self.cells * self.cells,
            (false, None) => self.cells,
            (false, Some(_)) => 0,
        };
        let nodes = 3 * self.cells + splits;
        let mut queue = Buckets::default();
        for cell in 0..self.cells {
            if self.possible[cell] && self.level.cells[cell].tile == Tile::Goal {
                queue.push(0, cell);
            }
        }
        // A roll that fires a switch setting the missing name leaves for the
        // plain game: the roller's value is at most 1 + the plain value of
        // where it lands. The same for a cube's roll.
        if self.missing.is_some() {
            for (node, &value) in plain[..3 * self.cells].iter().enumerate() {
                if value != NEVER && self.block_sets_missing(node) {
                    for from in self.rollers(node) {
                        queue.push(value + 1, from);
                    }
                }
            }
        }
        if self.missing.is_some() && self.pairs {
            let weak = [Tile::WeakSwitch];
            for moved in (0..self.cells).filter(|&cell| self.sets_missing(cell, &weak)) {
                for stayed in 0..self.cells {
                    let Some(landed) = self.cubes(moved, stayed) else {
                        continue;
                    };
                    if plain[landed] == NEVER {
                        continue;
                    }
                    for from in self.neighbours(moved) {
                        if self.splits(from, stayed) {
                            queue.push(plain[landed] + 1, self.pair(from, stayed));
                        }
                    }
                }
            }
        }

        // Each splitting teleport's upright node waits for its inputs: the
        // lying block on adjacent targets, or the split (with a value per
        // cube: both cubes; in a missing name's game, the plain game's split
        // value, known already).
        let mut waiting: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        let mut inputs_left: FxHashMap<usize, usize> = FxHashMap::default();
        for (cell, tile) in self.level.cells.iter().enumerate() {
            let Some([one, two]) = tile.teleport else {
                continue;
            };
            let (one, two) = (usize::from(one), usize::from(two));
            if !(self.possible[cell] && self.possible[one] && self.possible[two]) {
                continue;
            }
            let inputs = if self.adjacent(one, two) {
                match self.lying(one, two) {
                    Some(block) => vec![block],
                    None => continue,
                }
            } else if self.pairs {
                vec![self.pair(one, two)]
            } else if self.missing.is_some() {
                let value = split_value(plain, self.cells, false, one, two);
                if value != NEVER {
                    queue.push(value, cell);
                }
                continue;
            } else {
                vec![self.cube(one), self.cube(two)]
            };
            inputs_left.insert(cell, inputs.len());
            for input in inputs {
                waiting.entry(input).or_default().push(cell);
            }
        }

        let mut distance = vec![NEVER; nodes];
        let mut found = Vec::new();
        while let Some((value, node)) = queue.pop() {
            if distance[node] != NEVER {
                continue;
            }
            distance[node] = value;
            self.predecessors(node, &mut found);
            for &(from, cost) in &found {
                if distance[from] == NEVER {
                    queue.push(value + cost, from);
                }
            }
            for &teleport in waiting.get(&node).into_iter().flatten() {
                let left = inputs_left.get_mut(&teleport).expect("teleports wait");
                *left -= 1;
                if *left == 0 {
                    // Its last input settles now, at the larger value.
                    queue.push(value, teleport);
                }
            }
        }
        distance
    }
}

/// A monotone priority queue of nodes by small integer value: one stack
/// per value, popped in increasing order of value (pushes never go below
/// the value being popped).
#[derive(Default)]
struct Buckets {
    buckets: Vec<Vec<usize>>,
    /// The lowest value that may still hold nodes.
    lowest: usize,
}

impl Buckets {
    fn push(&mut self, value: u32, node: usize) {
        let value = value as usize;
        debug_assert!(value >= self.lowest, "values are popped in order");
        if self.buckets.len() <= value {
            self.buckets.resize_with(value + 1, Vec::new);
        }
        self.buckets[value].push(node);
    }

    fn pop(&mut self) -> Option<(u32, usize)> {
        while self.lowest < self.buckets.len() {
            if let Some(node) = self.buckets[self.lowest].pop() {
                return Some((self.lowest as u32, node));
            }
            self.lowest += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_roll_is_undone_by_the_opposite_roll() {
        let opposite = |dir| match dir {
            Dir::U => Dir::D,
            Dir::D => Dir::U,
            Dir::L => Dir::R,
            Dir::R => Dir::L,
        };
        for shape in BLOCKS {
            let second = match shape {
                Shape::Upright => None,
                Shape::Horizontal => Some((5, 6)),
                _ => Some((6, 5)),
            };
            for dir in Dir::ALL {
                let (landed, first, _) = landing(shape, (5, 5), dir);
                assert_eq!(
                    landing(landed, first, opposite(dir)),
                    (shape, (5, 5), second),
                    "{shape:?} {dir:?}"
                );
            }
        }
    }

    #[test]
    fn buckets_pop_in_order_of_value() {
        let mut queue = Buckets::default();
        queue.push(3, 30);
        queue.push(1, 10);
        assert_eq!(queue.pop(), Some((1, 10)));
        queue.push(1, 11);
        queue.push(2, 20);
        assert_eq!(queue.pop(), Some((1, 11)));
        assert_eq!(queue.pop(), Some((2, 20)));
        assert_eq!(queue.pop(), Some((3, 30)));
        assert_eq!(queue.pop(), None);
    }
}
