//! An independent reference model of Snack Run's movement and reachability
//! (`shared/games/snackrun.md`), written from the rulebook alone, and the
//! engine checked against it: on random small levels, on the shipped levels
//! and on the trap fixture.
//!
//! The model is deliberately plain. It parses the grid itself, traces every
//! walk, fall and jump cell by cell exactly as the rulebook words them, and
//! searches each bear's graph breadth first. It shares nothing with the
//! engine except the crate's `parse`, used only to build the [`Course`]
//! compared against.
//!
//! The rules, once more, as the model reads them:
//!
//! * Row 0 is the top. Off-grid left, right and top is *blocked*, like `#`
//!   and `^`; below the bottom row is a pit. *Supports* are `#`, `^`, `-`.
//! * A *standing spot* is a non-blocked cell whose cell below is a support.
//! * Entering `*` or the pit kills the motion: it is discarded and touches
//!   nothing. Entering the goal reaches it and ends the motion: nothing is
//!   reachable through the goal.
//! * *Fall*: down until the cell below is a support.
//! * *Walk*: into the side cell unless it is blocked or `-`, then fall.
//! * *Jump*: `U` × rise, `S` × [`APEX_RUN`], then `D S D S …`. `U` under a
//!   blocked cell ends the rise (head bonk); `U` into `-` is allowed. `S`
//!   into a blocked cell or `-` ends the jump with a straight fall. `D` over
//!   a support lands. Before every step, the first included, the bear may
//!   stop and fall straight down (air control). Each way to end is an edge.
//! * Rise is [`JUMP_RISE`]; a bear standing on `^` may also use
//!   [`SPRING_RISE`]. Landing on a spring does not bounce.
//! * A start that is not a standing spot first falls (touching what it
//!   passes); falling to death there makes the level invalid.
//! * Traps: reachable spots from which the goal cannot be reached (all of
//!   them when the goal is unreachable).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use snackrun::{Bear, Course, parse};

/// (row, column), row 0 at the top, as the engine's `Pos`.
type Pos = (usize, usize);

const JUMP_RISE: usize = 3;
const SPRING_RISE: usize = 6;
const APEX_RUN: usize = 2;

// ---------------------------------------------------------------------------
// The level, read independently of the crate's parser.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Air,
    Ground,
    OneWay,
    Spring,
    Spikes,
    Snack,
    Goal,
}

#[derive(Clone, Debug)]
struct Grid {
    cells: Vec<Vec<Cell>>,
    width: usize,
    height: usize,
    /// Bubu's and Dudu's start cells.
    starts: [Pos; 2],
}

/// Reads a level: optional `key: value` header lines (and blank or `;`
/// lines) before the grid, then the grid. The bears' starts and the goal
/// are air cells.
fn read_grid(text: &str) -> Grid {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty() && !line.starts_with(';') && !line.contains(':'))
        .collect();
    let mut starts = [None, None];
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .enumerate()
        .map(|(row, line)| {
            line.chars()
                .enumerate()
                .map(|(col, ch)| match ch {
                    '.' => Cell::Air,
                    '#' => Cell::Ground,
                    '-' => Cell::OneWay,
                    '^' => Cell::Spring,
                    '*' => Cell::Spikes,
                    'o' => Cell::Snack,
                    'G' => Cell::Goal,
                    'B' | 'D' => {
                        starts[usize::from(ch == 'D')] = Some((row, col));
                        Cell::Air
                    }
                    _ => panic!("unknown cell {ch:?} at {row},{col}"),
                })
                .collect()
        })
        .collect();
    let width = cells[0].len();
    assert!(cells.iter().all(|row| row.len() == width), "ragged grid");
    Grid {
        height: cells.len(),
        width,
        cells,
        starts: starts.map(|start| start.expect("a start for each bear")),
    }
}

// ---------------------------------------------------------------------------
// Cells, in signed coordinates so that off-grid cells can be asked about.

impl Grid {
    fn on_grid(&self, row: isize, col: isize) -> bool {
        row >= 0 && col >= 0 && (row as usize) < self.height && (col as usize) < self.width
    }

    /// The cell's tile; `None` off the grid.
    fn at(&self, row: isize, col: isize) -> Option<Cell> {
        self.on_grid(row, col)
            .then(|| self.cells[row as usize][col as usize])
    }

    /// `#`, `^`, and off-grid left, right and top. The pit below the bottom
    /// row is not blocked: a bear may enter it (and dies).
    fn blocked(&self, row: isize, col: isize) -> bool {
        if row < 0 || col < 0 || col as usize >= self.width {
            return true;
        }
        matches!(self.at(row, col), Some(Cell::Ground | Cell::Spring))
    }

    /// Something to stand on: `#`, `^`, `-`. The pit is not.
    fn support(&self, row: isize, col: isize) -> bool {
        matches!(
            self.at(row, col),
            Some(Cell::Ground | Cell::Spring | Cell::OneWay)
        )
    }

    fn one_way(&self, row: isize, col: isize) -> bool {
        self.at(row, col) == Some(Cell::OneWay)
    }

    fn standing_spot(&self, row: isize, col: isize) -> bool {
        self.on_grid(row, col) && !self.blocked(row, col) && self.support(row + 1, col)
    }
}

// ---------------------------------------------------------------------------
// Motions.

/// Where a motion that survives ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Spot(Pos),
    Goal,
}

/// A motion that survives: where it ends and every cell it touched.
#[derive(Clone, Debug)]
struct Motion {
    end: End,
    touched: Vec<Pos>,
}

/// What entering a cell does to a motion.
enum Entered {
    /// The bear is in the cell now; the motion goes on.
    Moved,
    /// The cell is the goal: the motion ends there.
    Goal,
    /// Spikes or the pit: the motion is discarded.
    Died,
}

/// A bear partway through a motion: where it is and what it has touched.
#[derive(Clone, Debug)]
struct Bearing {
    row: isize,
    col: isize,
    touched: Vec<Pos>,
}

impl Bearing {
    fn at((row, col): Pos) -> Bearing {
        Bearing {
            row: row as isize,
            col: col as isize,
            touched: vec![(row, col)],
        }
    }

    fn pos(&self) -> Pos {
        (self.row as usize, self.col as usize)
    }

    /// Moves into the cell `(row, col)`, touching it.
    fn enter(&mut self, grid: &Grid, row: isize, col: isize) -> Entered {
        match grid.at(row, col) {
            None | Some(Cell::Spikes) => return Entered::Died,
            _ => {}
        }
        self.row = row;
        self.col = col;
        self.touched.push(self.pos());
        if grid.at(row, col) == Some(Cell::Goal) {
            Entered::Goal
        } else {
            Entered::Moved
        }
    }

    /// The motion ending at the goal, with everything touched so far.
    fn goal(self) -> Option<Motion> {
        Some(Motion {
            end: End::Goal,
            touched: self.touched,
        })
    }

    /// Falls straight down from here until the cell below is a support.
    /// `None` if the fall dies.
    fn fall(mut self, grid: &Grid) -> Option<Motion> {
        loop {
            if grid.support(self.row + 1, self.col) {
                return Some(Motion {
                    end: End::Spot(self.pos()),
                    touched: self.touched,
                });
            }
            match self.enter(grid, self.row + 1, self.col) {
                Entered::Moved => {}
                Entered::Goal => return self.goal(),
                Entered::Died => return None,
            }
        }
    }
}

/// A walk one cell sideways (`dir` is -1 or 1), then a fall.
fn walk(grid: &Grid, from: Pos, dir: isize) -> Option<Motion> {
    let mut bear = Bearing::at(from);
    let (row, col) = (bear.row, bear.col + dir);
    if grid.blocked(row, col) || grid.one_way(row, col) {
        return None;
    }
    match bear.enter(grid, row, col) {
        Entered::Moved => bear.fall(grid),
        Entered::Goal => bear.goal(),
        Entered::Died => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    U,
    S,
    D,
}

/// The jump template: `U` × rise, `S` × APEX_RUN, then `D S D S …`.
fn template(rise: usize) -> impl Iterator<Item = Step> {
    std::iter::repeat_n(Step::U, rise)
        .chain(std::iter::repeat_n(Step::S, APEX_RUN))
        .chain([Step::D, Step::S].into_iter().cycle())
}

/// Every way a jump from `from` towards `dir` with `rise` can end.
fn jump(grid: &Grid, from: Pos, dir: isize, rise: usize) -> Vec<Motion> {
    let mut ends = Vec::new();
    let mut bear = Bearing::at(from);
    let mut bonked = false;
    for step in template(rise) {
        if step == Step::U && bonked {
            continue; // the rest of the rise is dropped
        }
        // Air control: stop here and fall straight down.
        ends.extend(bear.clone().fall(grid));
        let (row, col) = (bear.row, bear.col);
        let entered = match step {
            Step::U => {
                if grid.blocked(row - 1, col) {
                    bonked = true;
                    continue;
                }
                bear.enter(grid, row - 1, col)
            }
            Step::S => {
                if grid.blocked(row, col + dir) || grid.one_way(row, col + dir) {
                    ends.extend(bear.fall(grid));
                    return ends;
                }
                bear.enter(grid, row, col + dir)
            }
            Step::D => {
                if grid.support(row + 1, col) {
                    ends.push(Motion {
                        end: End::Spot(bear.pos()),
                        touched: bear.touched,
                    });
                    return ends;
                }
                bear.enter(grid, row + 1, col)
            }
        };
        match entered {
            Entered::Moved => {}
            Entered::Goal => {
                ends.extend(bear.goal());
                return ends;
            }
            Entered::Died => return ends,
        }
    }
    unreachable!("the template never ends")
}

/// Every motion from a standing spot: walks and jumps both ways, and the
/// spring jump as well when standing on a spring.
fn motions(grid: &Grid, from: Pos) -> Vec<Motion> {
    let (row, col) = (from.0 as isize, from.1 as isize);
    let mut rises = vec![JUMP_RISE];
    if grid.at(row + 1, col) == Some(Cell::Spring) {
        rises.push(SPRING_RISE);
    }
    let mut all = Vec::new();
    for dir in [-1, 1] {
        all.extend(walk(grid, from, dir));
        for &rise in &rises {
            all.extend(jump(grid, from, dir, rise));
        }
    }
    all
}

// ---------------------------------------------------------------------------
// Each bear's search.

/// What one bear can reach, as the engine's `Reach` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ModelReach {
    goal: bool,
    spots: BTreeSet<Pos>,
    snacks: BTreeSet<Pos>,
    traps: Vec<Pos>,
}

/// Where a bear's first fall from its start cell ends; `None` if it dies
/// (the level is invalid).
fn first_fall(grid: &Grid, start: Pos) -> Option<Motion> {
    if grid.standing_spot(start.0 as isize, start.1 as isize) {
        return Some(Motion {
            end: End::Spot(start),
            touched: vec![start],
        });
    }
    Bearing::at(start).fall(grid)
}

/// One bear's reach; `None` if its start falls to its death.
fn reach(grid: &Grid, start: Pos) -> Option<ModelReach> {
    let first = first_fall(grid, start)?;
    let snack = |pos: &Pos| grid.cells[pos.0][pos.1] == Cell::Snack;
    let mut snacks: BTreeSet<Pos> = first.touched.iter().copied().filter(snack).collect();
    let mut goal = false;
    let mut spots = BTreeSet::new();
    // For each spot, the spots with an edge into it; and the spots with an
    // edge into the goal.
    let mut into: BTreeMap<Pos, Vec<Pos>> = BTreeMap::new();
    let mut next_to_goal = Vec::new();
    let mut queue = VecDeque::new();
    match first.end {
        End::Goal => goal = true,
        End::Spot(spot) => {
            spots.insert(spot);
            queue.push_back(spot);
        }
    }
    while let Some(from) = queue.pop_front() {
        for motion in motions(grid, from) {
            snacks.extend(motion.touched.iter().copied().filter(snack));
            match motion.end {
                End::Goal => {
                    goal = true;
                    next_to_goal.push(from);
                }
                End::Spot(to) => {
                    into.entry(to).or_default().push(from);
                    if spots.insert(to) {
                        queue.push_back(to);
                    }
                }
            }
        }
    }
    // The spots that can still reach the goal, searched backwards.
    let mut homeward: BTreeSet<Pos> = next_to_goal.iter().copied().collect();
    let mut queue: VecDeque<Pos> = homeward.iter().copied().collect();
    while let Some(to) = queue.pop_front() {
        for &from in into.get(&to).into_iter().flatten() {
            if homeward.insert(from) {
                queue.push_back(from);
            }
        }
    }
    let traps = spots.difference(&homeward).copied().collect();
    Some(ModelReach {
        goal,
        spots,
        snacks,
        traps,
    })
}

/// Both bears' reach; `None` if either start falls to its death.
fn model(text: &str) -> Option<[ModelReach; 2]> {
    let grid = read_grid(text);
    let [bubu, dudu] = grid.starts.map(|start| reach(&grid, start));
    Some([bubu?, dudu?])
}

// ---------------------------------------------------------------------------
// The model against the rulebook's own table and pinned cases, so that it
// is known right before it judges the engine.

/// A level from its grid rows, without headers.
fn rows(grid: &[&str]) -> String {
    let mut text = grid.join("\n");
    text.push('\n');
    text
}

/// Bubu's reach on a level the model must accept.
fn bubu(text: &str) -> ModelReach {
    model(text).expect("a valid level")[0].clone()
}

/// Open air, the bear standing on a one-cell block at column 10 of row 12;
/// a one-cell block at `dx`, `h` tiles up (negative for a drop), whose top
/// is a standing spot. Whether that spot is reachable. The spring jump is
/// used when `spring`.
fn lands(dx: isize, h: isize, spring: bool) -> bool {
    let (width, height) = (40usize, 30usize);
    let (row, col) = (12isize, 10isize);
    let mut grid = vec![vec!['.'; width]; height];
    grid[row as usize + 1][col as usize] = if spring { '^' } else { '#' };
    grid[row as usize][col as usize] = 'B';
    grid[0][0] = 'D';
    grid[1][0] = '#';
    grid[0][width - 1] = 'G';
    grid[1][width - 1] = '#';
    let target = ((row - h) as usize, (col + dx) as usize);
    grid[target.0 + 1][target.1] = '#';
    let text: Vec<String> = grid.into_iter().map(String::from_iter).collect();
    let text: Vec<&str> = text.iter().map(String::as_str).collect();
    bubu(&rows(&text)).spots.contains(&target)
}

#[test]
fn the_model_follows_the_reach_table() {
    for (rise, spring) in [(JUMP_RISE, false), (SPRING_RISE, true)] {
        let rise = rise as isize;
        for h in -6..=rise + 2 {
            // A landing h tiles up (no more than the rise) is at most
            // APEX_RUN + rise - h away, and every nearer column is too.
            let farthest = APEX_RUN as isize + rise - h;
            for dx in 1..=farthest.max(0) + 2 {
                assert_eq!(
                    lands(dx, h, spring),
                    h <= rise && dx <= farthest,
                    "rise {rise}, landing {h} up, {dx} over"
                );
            }
        }
    }
}

#[test]
fn the_model_follows_the_pinned_cases() {
    // A one-wide pit 3 deep can be escaped, 4 deep cannot.
    let pit = |depth: usize| {
        let mut grid = vec!["D.....G"];
        grid.extend((1..depth).map(|_| "###.###"));
        grid.extend(["###B###", "#######"]);
        bubu(&rows(&grid))
    };
    assert!(pit(3).goal);
    assert!(!pit(4).goal);

    // A ledge 3 up and 1 over against a cliff is reachable.
    let ledge = bubu(&rows(&["..#DG", ".####", ".####", "B####", "#####"]));
    assert!(ledge.spots.contains(&(0, 1)));

    // A snack 3 cells straight above a pillar is touched.
    let pillar = bubu(&rows(&["..o...", "......", "......", "D.B..G", "#.#..#"]));
    assert!(pillar.snacks.contains(&(0, 2)));

    // With one free cell of headroom a rise-0 landing reaches 3 tiles, not
    // 5; with full headroom it reaches 5.
    let three = bubu(&rows(&["######", "......", "B..D.G", "#**###"]));
    assert!(three.spots.contains(&(2, 3)));
    let five = ["########", "........", "B....D.G", "#****###"];
    assert!(!bubu(&rows(&five)).spots.contains(&(2, 5)));
    let open = [["........"; 3].as_slice(), &five[1..]].concat();
    assert!(bubu(&rows(&open)).spots.contains(&(4, 5)));

    // Sideways into `-` is blocked; upward through it is not.
    let sideways = [".-...."; 4].into_iter().chain(["B-.D.G", "######"]);
    assert!(!bubu(&rows(&sideways.collect::<Vec<_>>())).goal);
    let upward = bubu(&rows(&["D.....", "-----G", "....##", "B..###", "######"]));
    assert!(upward.spots.contains(&(0, 0)));
}

// ---------------------------------------------------------------------------
// The comparison.

/// The engine's reach for both bears, in the model's shape; `Err` with the
/// parser's message if it rejects the level.
fn engine(text: &str) -> Result<[ModelReach; 2], String> {
    let (level, _warnings) = parse(text).map_err(|error| format!("{error:?}"))?;
    let course = Course::new(level);
    Ok(Bear::BOTH.map(|bear| {
        let reach = &course.reach[bear as usize];
        ModelReach {
            goal: reach.goal,
            spots: reach.spots.clone(),
            snacks: reach.snacks.clone(),
            traps: reach.traps.clone(),
        }
    }))
}

/// Checks the engine against the model on one level, in a message fit for a
/// proptest failure.
fn agree(text: &str) -> Result<(), String> {
    match (model(text), engine(text)) {
        (None, Err(_)) => Ok(()),
        (None, Ok(_)) => Err(format!(
            "a start falls to its death, yet the engine accepts\n{text}"
        )),
        (Some(_), Err(error)) => Err(format!("the engine rejects a valid level: {error}\n{text}")),
        (Some(ours), Ok(theirs)) => {
            for bear in Bear::BOTH {
                let (ours, theirs) = (&ours[bear as usize], &theirs[bear as usize]);
                if ours != theirs {
                    return Err(format!(
                        "{} disagrees on\n{text}\nmodel:  {ours:?}\nengine: {theirs:?}",
                        bear.name()
                    ));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn shipped_levels_and_the_trap_fixture_agree() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = fs::read_dir(fixtures.join("levels"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 5, "the five shipped levels");
    files.push(fixtures.join("trap.txt"));
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        assert!(model(&text).is_some(), "{} is valid", file.display());
        if let Err(message) = agree(&text) {
            panic!("{}: {message}", file.display());
        }
    }
}

/// Corners where a second reading of the rulebook could go astray, each
/// checked for what the model says and then against the engine.
#[test]
fn corner_cases_agree() {
    // Bubu's first fall passes through the goal: home, with no spot at all.
    let through_goal = rows(&["B.D", "o..", "G..", "###"]);
    let first = bubu(&through_goal);
    assert!(first.goal && first.spots.is_empty() && first.traps.is_empty());
    assert_eq!(first.snacks, BTreeSet::from([(1, 0)]));

    // A `-` over a `-` is a standing spot inside a one-way cell: Bubu rises
    // into it from below and stops there, but cannot walk sideways out of it
    // into the next `-`.
    let stacked = rows(&["......", "--....", "--....", "B...DG", "######"]);
    let inside = bubu(&stacked);
    assert!(inside.spots.contains(&(1, 0)) && inside.spots.contains(&(0, 0)));

    // Air control before a rising step: through a `-`, then stand on it.
    let through = rows(&["..o..", ".....", "-....", "B.D.G", "#####"]);
    assert!(bubu(&through).spots.contains(&(1, 0)));

    // A spring jump bonks its head 4 up, then runs 2 over the wall into the
    // goal; the normal jump stops at the wall.
    let bonk = rows(&[
        "#####", "..G..", "..#..", "..#..", "..#..", "B.#D.", "^####",
    ]);
    assert!(bubu(&bonk).goal);

    // Landing on a spring does not bounce: the spot above it is a spot.
    let spring = rows(&["D.....", "B....G", "#.^.##", "#*#*##"]);
    assert!(bubu(&spring).spots.contains(&(1, 2)));

    // A jump that touches a snack and then can only die touches nothing.
    let lure = rows(&[".o...G", "......", "D.....", "B.....", "#*****"]);
    assert!(bubu(&lure).snacks.is_empty());

    for text in [through_goal, stacked, through, bonk, spring, lure] {
        if let Err(message) = agree(&text) {
            panic!("{message}");
        }
    }
}

/// A random cell above the bottom row: `air` parts in 100 air, the rest
/// mostly ground and a few of each other tile.
fn cell(air: u32) -> impl Strategy<Value = char> {
    let rest = 100 - air;
    prop_oneof![
        air => Just('.'),
        rest * 4 / 10 => Just('#'),
        rest * 16 / 100 => Just('-'),
        rest / 10 => Just('^'),
        rest / 10 => Just('*'),
        rest * 14 / 100 => Just('o'),
    ]
}

/// A random bottom-row cell: mostly ground, so that most starts land.
fn floor() -> impl Strategy<Value = char> {
    prop_oneof![
        20 => Just('#'),
        4 => Just('.'),
        2 => Just('-'),
        2 => Just('^'),
        2 => Just('*'),
        1 => Just('o'),
    ]
}

/// A random level, 6–14 wide and 5–10 tall, dense or sparse, with `B`,
/// `D` and `G` on three distinct cells above the bottom row (which become
/// air).
fn level() -> impl Strategy<Value = String> {
    (
        6usize..=14,
        5usize..=10,
        prop_oneof![Just(35), Just(50), Just(75)],
    )
        .prop_flat_map(|(width, height, air)| {
            let upper = width * (height - 1);
            (
                Just(width),
                proptest::collection::vec(cell(air), upper),
                proptest::collection::vec(floor(), width),
                proptest::sample::subsequence((0..upper).collect::<Vec<_>>(), 3).prop_shuffle(),
            )
        })
        .prop_map(|(width, mut cells, floor, marks)| {
            cells.extend(floor);
            for (mark, index) in ['B', 'D', 'G'].into_iter().zip(marks) {
                cells[index] = mark;
            }
            let mut text = String::from("name: random\n");
            for row in cells.chunks(width) {
                text.extend(row);
                text.push('\n');
            }
            text
        })
}

/// Random levels per run: 4000, or `SNACKRUN_REFERENCE_CASES` for a
/// longer hunt.
fn cases() -> u32 {
    std::env::var("SNACKRUN_REFERENCE_CASES").map_or(4000, |cases| cases.parse().unwrap())
}

static CASES: AtomicUsize = AtomicUsize::new(0);
static VALID: AtomicUsize = AtomicUsize::new(0);
static HOME: AtomicUsize = AtomicUsize::new(0);
static TRAPPED: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Only this file is ours to write: no regressions file beside it.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_levels_agree(text in level()) {
        if let Err(message) = agree(&text) {
            return Err(TestCaseError::fail(message));
        }
        // How much the random levels exercise, under `--nocapture`.
        if let Some(reach) = model(&text) {
            VALID.fetch_add(1, Ordering::Relaxed);
            let count = |counter: &AtomicUsize, yes: bool| {
                counter.fetch_add(usize::from(yes), Ordering::Relaxed)
            };
            count(&HOME, reach.iter().all(|reach| reach.goal));
            count(&TRAPPED, reach.iter().any(|reach| !reach.traps.is_empty()));
        }
        if CASES.fetch_add(1, Ordering::Relaxed) + 1 == cases() as usize {
            let load = |counter: &AtomicUsize| counter.load(Ordering::Relaxed);
            eprintln!(
                "random levels: {} checked, {} valid, {} with both bears home, {} with traps",
                cases(),
                load(&VALID),
                load(&HOME),
                load(&TRAPPED),
            );
        }
    }
}
