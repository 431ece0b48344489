//! Bloxorz levels for the generator (`puzzle_qa_core::generate`): random grids, and
//! the small changes the generator makes to them.
//!
//! A draft is a grid of cells plus its switches and bridges; it prints as an
//! ordinary level file. Changes: a tile added or removed (alone or a small
//! patch), the start or the goal moved, a weak tile added or removed, a
//! switch added (with a new bridge, or aimed at an existing one), removed,
//! moved or rewired, a bridge cell added, moved or removed, a teleport with
//! its two landing cells added, moved or removed.
//!
//! After every change the draft is tidied: a switch whose bridge has no cell
//! left, a bridge no switch drives, a teleport missing a landing cell, are
//! taken back to plain cells; ids are then renumbered in reading order, so
//! two drafts that print the same are the same level.

use super::ablate::{BRIDGE, MECHANICS, STRONG_SWITCH, TELEPORT, WEAK_TILE};
use puzzle_qa_core::generate::{Candidate, Generator, Rng, Target, change_once, header_lines};

/// Bloxorz's generator, for the registry.
/// The level generator (`puzzle-qa generate`).
pub static GENERATOR: &dyn Generator = &Maker;

/// The most switches, bridges and teleports a draft gets: enough for a
/// hard level, few enough that the state space stays searchable.
const MAX_SWITCHES: usize = 6;
const MAX_BRIDGES: usize = 4;
const MAX_TELEPORTS: usize = 2;

pub(super) struct Maker;

impl Generator for Maker {
    fn mechanics(&self) -> &'static [&'static str] {
        &MECHANICS
    }

    fn default_size(&self) -> (usize, usize) {
        // The official levels' size.
        (15, 10)
    }

    fn max_size(&self) -> (usize, usize) {
        (64, 64)
    }

    fn random(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate> {
        let (width, height) = (target.width, target.height);
        let density = 0.5 + rng.f64() * 0.4;
        let mut cells: Vec<Cell> = (0..width * height)
            .map(|_| {
                if rng.f64() < density {
                    Cell::Plain
                } else {
                    Cell::Empty
                }
            })
            .collect();
        let start = rng.usize(..cells.len());
        cells[start] = Cell::Start;
        let goal = loop {
            let index = rng.usize(..cells.len());
            if cells[index] != Cell::Start {
                break index;
            }
        };
        cells[goal] = Cell::Goal;
        let mut draft = Draft {
            width,
            cells,
            switches: Vec::new(),
            bridges: Vec::new(),
        };
        for _ in 0..rng.usize(0..3) {
            draft.add_mechanic(target, rng);
        }
        draft.tidy();
        Box::new(draft)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Plain,
    Start,
    Goal,
    Weak,
    /// A switch: an index into `switches`.
    Switch(usize),
    /// A bridge cell: an index into `bridges`.
    Bridge(usize),
    /// A teleport, numbered; its landing cells carry its number.
    Teleport(usize),
    /// Landing cell 0 or 1 of a teleport.
    Landing(usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Switch {
    strong: bool,
    verb: &'static str,
    bridge: usize,
}

const VERBS: [&str; 3] = ["toggles", "opens", "closes"];

#[derive(Clone, Debug)]
struct Draft {
    width: usize,
    cells: Vec<Cell>,
    switches: Vec<Switch>,
    /// Whether each bridge starts present.
    bridges: Vec<bool>,
}

impl Candidate for Draft {
    fn mutate(&self, target: &Target, rng: &mut Rng) -> Box<dyn Candidate> {
        let mut draft = self.clone();
        change_once(|| draft.change(target, rng));
        draft.tidy();
        Box::new(draft)
    }

    fn level_text(&self, header: &[(&str, &str)]) -> String {
        let mut text = header_lines(header);
        for row in self.cells.chunks(self.width) {
            let tokens: Vec<String> = row.iter().map(|cell| self.token(*cell)).collect();
            text.push_str(&tokens.join(" "));
            text.push('\n');
        }
        let mut rules = Vec::new();
        for (id, switch) in self.switches.iter().enumerate() {
            let bridge = self.token(Cell::Bridge(switch.bridge));
            let trigger = self.token(Cell::Switch(id));
            rules.push(format!("{trigger} {} {bridge}", switch.verb));
        }
        for id in 0..self.teleports() {
            let landing = |which| self.token(Cell::Landing(id, which));
            rules.push(format!(
                "t{} teleports {}, {}",
                id + 1,
                landing(0),
                landing(1)
            ));
        }
        if !rules.is_empty() {
            text.push_str("---\n");
            for rule in rules {
                text.push_str(&rule);
                text.push('\n');
            }
        }
        text
    }
}

impl Draft {
    fn token(&self, cell: Cell) -> String {
        match cell {
            Cell::Empty => "x".into(),
            Cell::Plain => "p".into(),
            Cell::Start => "s".into(),
            Cell::Goal => "e".into(),
            Cell::Weak => "w".into(),
            Cell::Switch(id) => {
                let letter = if self.switches[id].strong { 'S' } else { 'W' };
                format!("{letter}{}", id + 1)
            }
            // One name per bridge, shared by its cells: `x` if it starts
            // missing, `p` if present.
            Cell::Bridge(id) => {
                let letter = if self.bridges[id] { 'p' } else { 'x' };
                format!("{letter}{}", id + 1)
            }
            Cell::Teleport(id) => format!("t{}", id + 1),
            Cell::Landing(id, which) => format!("l{}", 2 * id + which + 1),
        }
    }

    fn teleports(&self) -> usize {
        self.cells
            .iter()
            .filter(|cell| matches!(cell, Cell::Teleport(_)))
            .count()
    }

    /// The indices of the cells `wanted` accepts.
    fn cells_where(&self, wanted: impl Fn(Cell) -> bool) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&index| wanted(self.cells[index]))
            .collect()
    }

    /// A random cell `wanted` accepts.
    fn pick(&self, rng: &mut Rng, wanted: impl Fn(Cell) -> bool) -> Option<usize> {
        let found = self.cells_where(wanted);
        (!found.is_empty()).then(|| found[rng.usize(..found.len())])
    }

    /// A random orthogonal neighbour of `index` on the grid.
    fn neighbour(&self, index: usize, rng: &mut Rng) -> Option<usize> {
        let (row, col) = (index / self.width, index % self.width);
        let height = self.cells.len() / self.width;
        match rng.u8(0..4) {
            0 if row > 0 => Some(index - self.width),
            1 if row + 1 < height => Some(index + self.width),
            2 if col > 0 => Some(index - 1),
            3 if col + 1 < self.width => Some(index + 1),
            _ => None,
        }
    }

    /// One random change; false if the chosen change does not apply.
    fn change(&mut self, target: &Target, rng: &mut Rng) -> bool {
        let allowed = |mechanic: &str| target.mechanics.contains(&mechanic);
        match rng.u8(0..100) {
            0..40 => self.flip_tile(rng),
            40..48 => self.flip_patch(rng),
            48..53 => self.relocate(rng, |cell| cell == Cell::Start, true),
            53..58 => self.relocate(rng, |cell| cell == Cell::Goal, true),
            58..64 if allowed(WEAK_TILE) => self.flip_weak(rng),
            64..70 => self.add_mechanic(target, rng),
            70..76 => self.relocate(rng, |cell| matches!(cell, Cell::Switch(_)), true),
            76..80 => self.rewire(target, rng),
            80..86 => self.relocate(rng, |cell| matches!(cell, Cell::Bridge(_)), false),
            86..89 => self.grow_bridge(rng),
            89..91 => self.clear(rng, |cell| matches!(cell, Cell::Bridge(_)), Cell::Empty),
            91..97 => self.relocate(
                rng,
                |cell| matches!(cell, Cell::Teleport(_) | Cell::Landing(..)),
                true,
            ),
            97..99 => self.clear(rng, |cell| matches!(cell, Cell::Switch(_)), Cell::Plain),
            _ => self.clear(rng, |cell| matches!(cell, Cell::Teleport(_)), Cell::Plain),
        }
    }

    /// A tile becomes a hole, or a hole a tile.
    fn flip_tile(&mut self, rng: &mut Rng) -> bool {
        let Some(index) = self.pick(rng, |cell| matches!(cell, Cell::Empty | Cell::Plain)) else {
            return false;
        };
        self.cells[index] = match self.cells[index] {
            Cell::Empty => Cell::Plain,
            _ => Cell::Empty,
        };
        true
    }

    /// A small rectangle of tiles or holes (only plain cells and holes in it
    /// change).
    fn flip_patch(&mut self, rng: &mut Rng) -> bool {
        let height = self.cells.len() / self.width;
        let (rows, cols) = (rng.usize(1..=2), rng.usize(1..=3));
        if rows > height || cols > self.width {
            return false;
        }
        let (top, left) = (rng.usize(..=height - rows), rng.usize(..=self.width - cols));
        let fill = if rng.bool() { Cell::Plain } else { Cell::Empty };
        for row in top..top + rows {
            for col in left..left + cols {
                let cell = &mut self.cells[row * self.width + col];
                if matches!(cell, Cell::Empty | Cell::Plain) {
                    *cell = fill;
                }
            }
        }
        true
    }

    /// Moves a cell `wanted` accepts: to a neighbour or anywhere, onto a
    /// plain tile if `onto_tile`, else onto a hole (bridges span gaps). The
    /// cell it leaves gets what was there.
    fn relocate(&mut self, rng: &mut Rng, wanted: impl Fn(Cell) -> bool, onto_tile: bool) -> bool {
        let Some(from) = self.pick(rng, wanted) else {
            return false;
        };
        let free = if onto_tile { Cell::Plain } else { Cell::Empty };
        let to = if rng.bool() {
            self.neighbour(from, rng)
        } else {
            self.pick(rng, |cell| cell == free)
        };
        match to {
            Some(to) if self.cells[to] == free => {
                self.cells.swap(from, to);
                true
            }
            _ => false,
        }
    }

    /// A cell `wanted` accepts becomes `fill` (tidying removes what depended
    /// on it: a bridge's switches, a teleport's landing cells).
    fn clear(&mut self, rng: &mut Rng, wanted: impl Fn(Cell) -> bool, fill: Cell) -> bool {
        let Some(index) = self.pick(rng, wanted) else {
            return false;
        };
        self.cells[index] = fill;
        true
    }

    fn flip_weak(&mut self, rng: &mut Rng) -> bool {
        let Some(index) = self.pick(rng, |cell| matches!(cell, Cell::Plain | Cell::Weak)) else {
            return false;
        };
        self.cells[index] = match self.cells[index] {
            Cell::Weak => Cell::Plain,
            _ => Cell::Weak,
        };
        true
    }

    /// Adds a switch-and-bridge, a teleport or a weak tile, as the target
    /// allows.
    fn add_mechanic(&mut self, target: &Target, rng: &mut Rng) -> bool {
        let allowed = |mechanic: &str| target.mechanics.contains(&mechanic);
        match rng.u8(0..3) {
            0 if allowed(BRIDGE) => self.add_switch(target, rng),
            1 if allowed(TELEPORT) => self.add_teleport(rng),
            2 if allowed(WEAK_TILE) => self.flip_weak(rng),
            _ => false,
        }
    }

    /// A switch on a plain tile, driving an existing bridge or a new one of
    /// one or two cells.
    fn add_switch(&mut self, target: &Target, rng: &mut Rng) -> bool {
        if self.switches.len() >= MAX_SWITCHES {
            return false;
        }
        let Some(at) = self.pick(rng, |cell| cell == Cell::Plain) else {
            return false;
        };
        let bridge =
            if !self.bridges.is_empty() && (self.bridges.len() >= MAX_BRIDGES || rng.bool()) {
                rng.usize(..self.bridges.len())
            } else {
                let Some(first) = self.pick(rng, |cell| matches!(cell, Cell::Empty | Cell::Plain))
                else {
                    return false;
                };
                let id = self.bridges.len();
                self.bridges.push(rng.u8(0..10) < 3);
                self.cells[first] = Cell::Bridge(id);
                if rng.bool()
                    && let Some(second) = self.neighbour(first, rng)
                    && matches!(self.cells[second], Cell::Empty | Cell::Plain)
                {
                    self.cells[second] = Cell::Bridge(id);
                }
                id
            };
        if self.cells[at] != Cell::Plain {
            // The new bridge took the switch's tile.
            return false;
        }
        let id = self.switches.len();
        self.switches.push(Switch {
            strong: target.mechanics.contains(&STRONG_SWITCH) && rng.bool(),
            verb: VERBS[rng.usize(..VERBS.len())],
            bridge,
        });
        self.cells[at] = Cell::Switch(id);
        true
    }

    /// A switch gets another verb, another bridge, or the other strength.
    fn rewire(&mut self, target: &Target, rng: &mut Rng) -> bool {
        if self.switches.is_empty() {
            return false;
        }
        let bridges = self.bridges.len();
        let chosen = rng.usize(..self.switches.len());
        let switch = &mut self.switches[chosen];
        match rng.u8(0..3) {
            0 => switch.verb = VERBS[rng.usize(..VERBS.len())],
            1 => switch.bridge = rng.usize(..bridges),
            _ if target.mechanics.contains(&STRONG_SWITCH) => switch.strong = !switch.strong,
            _ => {
                let bridge = rng.usize(..bridges);
                self.bridges[bridge] = !self.bridges[bridge];
            }
        }
        true
    }

    /// A bridge gets one more cell, next to one of its own.
    fn grow_bridge(&mut self, rng: &mut Rng) -> bool {
        let Some(from) = self.pick(rng, |cell| matches!(cell, Cell::Bridge(_))) else {
            return false;
        };
        match self.neighbour(from, rng) {
            Some(to) if matches!(self.cells[to], Cell::Empty | Cell::Plain) => {
                self.cells[to] = self.cells[from];
                true
            }
            _ => false,
        }
    }

    /// A teleport on a plain tile and its two landing cells, anywhere on
    /// plain tiles (now and then side by side, which lands a lying block).
    fn add_teleport(&mut self, rng: &mut Rng) -> bool {
        let id = self.teleports();
        if id >= MAX_TELEPORTS {
            return false;
        }
        let plain = |cell| cell == Cell::Plain;
        let (Some(at), Some(first)) = (self.pick(rng, plain), self.pick(rng, plain)) else {
            return false;
        };
        if at == first {
            return false;
        }
        self.cells[at] = Cell::Teleport(id);
        self.cells[first] = Cell::Landing(id, 0);
        let second = if rng.u8(0..4) == 0 {
            self.neighbour(first, rng)
        } else {
            self.pick(rng, plain)
        };
        match second {
            Some(second) if self.cells[second] == Cell::Plain => {
                self.cells[second] = Cell::Landing(id, 1);
            }
            // Tidying takes the half-made teleport back out.
            _ => return false,
        }
        true
    }

    /// Takes out what no longer works and renumbers what is left in reading
    /// order (see the module docs).
    fn tidy(&mut self) {
        // Teleports missing a part, and landing cells without a teleport.
        let count =
            |cells: &[Cell], wanted: Cell| cells.iter().filter(|cell| **cell == wanted).count();
        let teleport_ids: Vec<usize> = self
            .cells
            .iter()
            .filter_map(|cell| match cell {
                Cell::Teleport(id) | Cell::Landing(id, _) => Some(*id),
                _ => None,
            })
            .collect();
        for id in teleport_ids {
            let whole = count(&self.cells, Cell::Teleport(id)) == 1
                && count(&self.cells, Cell::Landing(id, 0)) == 1
                && count(&self.cells, Cell::Landing(id, 1)) == 1;
            if !whole {
                for cell in &mut self.cells {
                    if matches!(cell, Cell::Teleport(t) | Cell::Landing(t, _) if *t == id) {
                        *cell = Cell::Plain;
                    }
                }
            }
        }
        // Switches whose bridge is gone, then bridges no switch drives
        // (they become what they start as), until nothing changes.
        loop {
            let has_cells = |bridge: usize| self.cells.contains(&Cell::Bridge(bridge));
            let dead_switch = self.cells.iter().position(
                |cell| matches!(cell, Cell::Switch(id) if !has_cells(self.switches[*id].bridge)),
            );
            if let Some(index) = dead_switch {
                self.cells[index] = Cell::Plain;
                continue;
            }
            let driven = |bridge: usize| {
                self.cells.iter().any(
                    |cell| matches!(cell, Cell::Switch(id) if self.switches[*id].bridge == bridge),
                )
            };
            let idle = self
                .cells
                .iter()
                .position(|cell| matches!(cell, Cell::Bridge(id) if !driven(*id)));
            match idle {
                Some(index) => {
                    let Cell::Bridge(id) = self.cells[index] else {
                        unreachable!()
                    };
                    self.cells[index] = if self.bridges[id] {
                        Cell::Plain
                    } else {
                        Cell::Empty
                    };
                }
                None => break,
            }
        }
        self.renumber();
    }

    /// Ids in reading order: switches by their cell, bridges and teleports
    /// by their first cell.
    fn renumber(&mut self) {
        let mut switches = Vec::new();
        let mut bridges: Vec<(usize, bool)> = Vec::new();
        let mut teleports: Vec<usize> = Vec::new();
        for cell in &self.cells {
            match *cell {
                Cell::Switch(id) => switches.push(id),
                Cell::Bridge(id) if !bridges.iter().any(|(old, _)| *old == id) => {
                    bridges.push((id, self.bridges[id]));
                }
                Cell::Teleport(id) => teleports.push(id),
                _ => {}
            }
        }
        let bridge_of = |old: usize| bridges.iter().position(|(id, _)| *id == old).unwrap();
        let teleport_of = |old: usize| teleports.iter().position(|id| *id == old).unwrap();
        let new_switches: Vec<Switch> = switches
            .iter()
            .map(|&old| Switch {
                bridge: bridge_of(self.switches[old].bridge),
                ..self.switches[old]
            })
            .collect();
        for cell in &mut self.cells {
            *cell = match *cell {
                Cell::Switch(old) => {
                    Cell::Switch(switches.iter().position(|id| *id == old).unwrap())
                }
                Cell::Bridge(old) => Cell::Bridge(bridge_of(old)),
                Cell::Teleport(old) => Cell::Teleport(teleport_of(old)),
                Cell::Landing(old, which) => Cell::Landing(teleport_of(old), which),
                other => other,
            };
        }
        self.switches = new_switches;
        self.bridges = bridges.into_iter().map(|(_, present)| present).collect();
    }
}
