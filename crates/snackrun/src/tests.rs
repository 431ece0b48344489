//! Tiny hand-made levels pinning `docs/games/snackrun.md`. Cells are
//! (row, column), 0-based, row 0 at the top.

use std::collections::BTreeSet;

use super::*;
use puzzle_qa_core::diagnostic::Diagnostic;

fn level(text: &str) -> Level {
    match parse(text) {
        Ok((level, _)) => level,
        Err(error) => panic!("{}", error.render("test level", text)),
    }
}

fn reach(level: &Level, bear: Bear) -> Reach {
    Graph::new(level).reach(level, bear)
}

/// What Bubu reaches in the level `text`.
fn bubu(text: &str) -> Reach {
    reach(&level(text), Bear::Bubu)
}

/// The spots where the motions out of `from` land.
fn landings(level: &Level, from: Pos) -> BTreeSet<Pos> {
    let ends = level.motions(from).into_iter().map(|motion| motion.end);
    ends.filter_map(|end| {
        if let End::Spot(spot) = end {
            Some(spot)
        } else {
            None
        }
    })
    .collect()
}

/// Open air: Bubu on a lone block (a spring when `spring`) over the pit,
/// and a lone block under the cell `up` rows up and `across` columns right
/// of him. Dudu and the goal wait behind a wall. Whether Bubu can stand in
/// that cell.
fn reaches(up: isize, across: usize, spring: bool) -> bool {
    const ROW: usize = 8;
    const COL: usize = 2;
    const WIDTH: usize = 16;
    const HEIGHT: usize = 14;
    let mut grid = vec![vec!['.'; WIDTH]; HEIGHT];
    grid[ROW][COL] = 'B';
    grid[ROW + 1][COL] = if spring { '^' } else { '#' };
    let target = (ROW.checked_add_signed(-up).unwrap(), COL + across);
    grid[target.0 + 1][target.1] = '#';
    for row in &mut grid {
        row[WIDTH - 2] = '#';
    }
    grid[HEIGHT - 3][WIDTH - 1] = 'G';
    grid[HEIGHT - 2][WIDTH - 1] = 'D';
    grid[HEIGHT - 1][WIDTH - 1] = '#';
    let text: String = grid
        .iter()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect();
    bubu(&text).spots.contains(&target)
}

/// A row of the reach table: every column up to `farthest` is reachable,
/// the next is not.
fn table_row(up: isize, farthest: usize, spring: bool) {
    for across in 1..=farthest {
        assert!(
            reaches(up, across, spring),
            "rise {up}, {across} across (spring {spring})"
        );
    }
    assert!(
        !reaches(up, farthest + 1, spring),
        "rise {up}, {} across",
        farthest + 1
    );
}

#[test]
fn the_reach_table_holds_in_open_air() {
    for (up, farthest) in [(3, 2), (2, 3), (1, 4), (0, 5)] {
        table_row(up, farthest, false);
    }
    for drop in 1..=3 {
        table_row(-drop, 5 + drop as usize, false);
    }
    for up in 4..=7 {
        assert!(
            (1..=9).all(|across| !reaches(up, across, false)),
            "rise {up}"
        );
    }
}

#[test]
fn a_fall_of_any_height_lands() {
    // Bubu walks off a ledge and falls 14 rows to the floor, touching every
    // cell on the way (the snack at the bottom of the shaft).
    let mut rows = vec!["B..#....".to_string(), "##.#....".to_string()];
    rows.extend((0..12).map(|_| "...#....".to_string()));
    rows.push("..o#..DG".to_string());
    rows.push("########".to_string());
    let level = level(&rows.join("\n"));
    let reach = reach(&level, Bear::Bubu);
    assert!(reach.spots.contains(&(14, 2)), "{:?}", reach.spots);
    assert!(reach.snacks.contains(&(14, 2)));
    assert_eq!(landings(&level, (0, 1)), BTreeSet::from([(0, 0), (14, 2)]));
}

#[test]
fn a_spring_reaches_higher_and_farther() {
    table_row(6, 2, true);
    table_row(0, 8, true);
    assert!((1..=9).all(|across| !reaches(7, across, true)));
}

/// Flat ground 13 wide with Bubu in the middle, under a ceiling leaving
/// `headroom` free cells above him (open air when `None`): the columns his
/// motions land in.
fn flat_landings(headroom: Option<usize>) -> BTreeSet<usize> {
    let mut text = match headroom {
        Some(free) => "#############\n".to_string() + &".............\n".repeat(free),
        None => ".............\n".repeat(4),
    };
    text += "D.....B.....G\n#############\n";
    let level = level(&text);
    let start = level.starts[Bear::Bubu as usize];
    landings(&level, start)
        .into_iter()
        .map(|(_, col)| col)
        .collect()
}

#[test]
fn a_ceiling_shortens_a_jump_in_both_directions() {
    // Rise 0 in open air: 5 tiles; one free cell of headroom: 3, not 5.
    assert_eq!(flat_landings(None), (1..=11).collect());
    assert_eq!(flat_landings(Some(1)), (3..=9).collect());
    // Two free cells: the table with a rise of 2, APEX_RUN + 2 = 4 tiles.
    assert_eq!(flat_landings(Some(2)), (2..=10).collect());
}

const PIT_3_DEEP: &str = ".......\nG.....D\n###.###\n###.###\n###B###\n#######\n";

#[test]
fn a_pit_three_deep_can_be_escaped_four_deep_cannot() {
    let escaped = bubu(PIT_3_DEEP);
    assert!(escaped.goal && escaped.traps.is_empty());
    let deeper = PIT_3_DEEP.replace("###B###", "###.###\n###B###");
    let stuck = bubu(&deeper);
    assert!(!stuck.goal);
    assert_eq!(stuck.spots, BTreeSet::from([(5, 3)]));
    assert_eq!(stuck.traps, [(5, 3)]);
}

#[test]
fn a_ledge_three_up_and_one_over_against_a_cliff_is_reachable() {
    let reach = bubu(".G#.\n..#.\n.##.\n..#.\nB.#D\n####\n");
    assert!(reach.spots.contains(&(1, 1)));
    assert!(reach.goal);
}

#[test]
fn a_snack_three_cells_straight_above_a_pillar_is_touched() {
    let reach = bubu("..o..\n.....\n.....\n..B..\n..#.D\n..#.#\nG.#..\n");
    assert_eq!(reach.snacks, BTreeSet::from([(0, 2)]));
}

#[test]
fn sideways_into_a_one_way_platform_is_blocked() {
    let wall = ".......\n.-.....\n.-.....\n.-.....\nB-...GD\n#######\n";
    let blocked = bubu(wall);
    assert!(!blocked.goal);
    assert_eq!(blocked.spots, BTreeSet::from([(4, 0)]));
    assert!(bubu(&wall.replace('-', ".")).goal);
}

const ONE_WAY_ABOVE: &str = "G....D\n..-...\n......\n..B...\n######\n";

#[test]
fn a_one_way_platform_is_passable_upward_and_standable() {
    let reach = bubu(ONE_WAY_ABOVE);
    assert!(reach.spots.contains(&(0, 2)));
    // And it holds a falling bear: Dudu lands on it.
    let onto = "..D...\n......\n..-...\n......\nG.B...\n######\n";
    let dudu = level(onto).fall_from((0, 2)).unwrap();
    assert_eq!(dudu.end, End::Spot((1, 2)));
}

#[test]
fn spikes_kill_an_arc_but_a_shorter_air_control_arc_works() {
    let text = ".......#.\n.......#.\n...*...#G\nB......#D\n#.#..#.##\n";
    let spiked = level(text);
    let from = spiked.starts[Bear::Bubu as usize];
    assert!(landings(&spiked, from).contains(&(3, 2)));
    assert!(!landings(&spiked, from).contains(&(3, 5)));
    // A killed motion is discarded: nothing touches the spikes.
    let motions = spiked.motions(from);
    assert!(motions.iter().all(|m| !m.touched.contains(&(2, 3))));
    assert!(landings(&level(&text.replace('*', ".")), from).contains(&(3, 5)));
}

#[test]
fn the_goal_ends_the_motion() {
    // Every jump from the pillar passes the goal before the snack above it.
    let reach = bubu("..o..\n..G..\n.....\n..B..\n..#.D\n....#\n");
    assert!(reach.goal);
    assert!(reach.snacks.is_empty());
    assert!(reach.traps.is_empty());
}

#[test]
fn traps_are_found_and_sorted_by_row_then_column() {
    let text = "..........\nG...B....D\n##.####.##\n##.####.##\n##.####.##\n##.####.##\n\
                ##.#######\n##########\n";
    for bear in Bear::BOTH {
        let reach = reach(&level(text), bear);
        assert!(reach.goal);
        assert_eq!(reach.traps, [(5, 7), (6, 2)]);
    }
}

#[test]
fn landing_on_a_spring_does_not_bounce() {
    let level = level("G...D\n.....\n..B..\n.....\n..^..\n#####\n");
    let start = reach(&level, Bear::Bubu).start.unwrap();
    assert_eq!(start.end, End::Spot((3, 2)));
    assert_eq!(start.touched, [(2, 2), (3, 2)]);
    assert!(level.on_spring((3, 2)));
}

const SPRING_SNACK: &str = "..o..\n.....\n.....\n.....\n.....\n..B..\nG.^.D\n#####\n";

#[test]
fn ablation_shows_what_needs_a_mechanic() {
    let springy = level(SPRING_SNACK);
    assert!(reach(&springy, Bear::Bubu).snacks.contains(&(0, 2)));
    let plain = springy.ablate(Mechanic::Spring);
    assert_eq!(plain.tile((6, 2)), Tile::Ground);
    let without = reach(&plain, Bear::Bubu);
    assert!(without.snacks.is_empty() && without.goal);
    let short = shortfall((0, 2), &without.spots).unwrap();
    assert_eq!((short.from, short.rise, short.sideways), ([5, 2], 5, 0));

    let one_way = level(ONE_WAY_ABOVE).ablate(Mechanic::from_name("one-way").unwrap());
    assert_eq!(one_way.tile((1, 2)), Tile::Air);
    assert!(!reach(&one_way, Bear::Bubu).spots.contains(&(0, 2)));
}

#[test]
fn a_shortfall_is_measured_from_the_nearest_spot() {
    let spots = [(2, 1), (9, 9), (5, 0)];
    let short = shortfall((5, 3), &spots).unwrap();
    assert_eq!((short.from, short.rise, short.sideways), ([5, 0], 0, 3));
    let drop = shortfall((5, 3), &[(2, 1)]).unwrap();
    assert_eq!((drop.rise, drop.sideways), (-3, 2));
    // Equally near: the first in reading order.
    assert_eq!(shortfall((4, 4), &[(4, 6), (4, 2)]).unwrap().from, [4, 2]);
}

fn error(text: &str) -> Diagnostic {
    match parse(text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(error) => error,
    }
}

#[test]
fn bad_levels_are_reported_with_line_and_column() {
    let cases: [(&str, usize, usize, &str); 17] = [
        ("G.B.D\n####\n", 2, 5, "ragged row"),
        (
            "name: t\n; note\nG.B.D\n##x##\n",
            4,
            3,
            "unknown character `x`",
        ),
        ("G...D\n#####\n", 1, 1, "no Bubu"),
        ("GBDD\n####\n", 1, 4, "a second `D`"),
        ("..B.D\n#####\n", 1, 1, "no goal"),
        ("GBDG\n####\n", 1, 4, "a second `G`"),
        (
            "G.B.D\n##.##\n",
            1,
            3,
            "Bubu falls to its death from the start, out of the bottom",
        ),
        (
            "G.B.D\n#...#\n##*##\n",
            1,
            3,
            "Bubu falls to its death from the start, onto the spikes at line 3, column 3",
        ),
        ("G.B.D\n####.\n", 1, 5, "Dudu falls to its death"),
        ("nmae: x\nGBD\n###\n", 1, 1, "unknown header `nmae`"),
        ("snacks:  all\nGBD\n###\n", 1, 10, "invalid `snacks:` value"),
        ("GBD\n###\n\nmore\n", 4, 1, "text after the grid"),
        ("GBD\n \n###\n", 2, 1, "a blank line inside the grid"),
        (
            "GBD\nname: x\n###\n",
            2,
            1,
            "a `name:` header inside the grid",
        ),
        ("GBD\n  #\n", 2, 1, "unknown character ` ` (a space)"),
        (
            "G\u{200b}BD\n####\n",
            1,
            2,
            "`\\u{200b}` (an invisible character)",
        ),
        (
            "snacks:\nGBD\n###\n",
            1,
            8,
            "the `snacks:` header has no value",
        ),
    ];
    for (text, line, column, message) in cases {
        let error = error(text);
        assert_eq!((error.line, error.column), (line, column), "{error:?}");
        assert!(error.message.contains(message), "{error:?}");
    }
    let hint = error("snaks: each\nGBD\n###\n").hint.unwrap();
    assert!(hint.starts_with("did you mean `snacks`?"), "{hint}");
}

#[test]
fn a_grid_too_large_to_number_its_spots_is_refused_on_the_line_that_overflows() {
    // 434 × 151 = 65,534 cells, nearly all `-`, each a standing spot above
    // another: the most the engine numbers. One cell more is refused.
    let mut text = format!("GBD{}\n", "-".repeat(431));
    text.push_str(&format!("{}\n", "-".repeat(434)).repeat(150));
    assert_eq!(level(&text).cells(Tile::OneWay).len(), level::MAX_CELLS - 3);
    text.push_str("-\n");
    let error = error(&text);
    assert_eq!((error.line, error.column), (152, 1), "{error:?}");
    assert!(
        error
            .message
            .starts_with("the grid is too large for the engine: 65535 cells"),
        "{error:?}"
    );
}

#[test]
fn a_level_prints_back_the_same() {
    let text = "\u{feff}; the hill\r\nname:  Two bears \r\nhint: jump\r\nsnacks: each\r\n\
                name: Snack hill\r\n\r\n.o-^*  \r\nG.B.D\r\n#####\r\n";
    let (parsed, warnings) = parse(text).unwrap();
    assert_eq!(warnings.len(), 1, "the second `name:`");
    let printed = parsed.text();
    assert_eq!(
        printed,
        "name: Snack hill\nhint: jump\nsnacks: each\n.o-^*\nG.B.D\n#####\n"
    );
    assert_eq!(level(&printed).text(), printed);
}

// The level set the game shipped with, copied to `tests/fixtures/levels/`
// (the designers' own `levels/snackrun/` may change freely), and the trap
// fixture, `tests/fixtures/trap.txt`.

/// A file of the crate, read whole.
fn crate_file(relative: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Parses a level file, which must read without warnings.
fn level_file(relative: &str) -> Level {
    let text = crate_file(relative);
    match parse(&text) {
        Ok((level, warnings)) => {
            let shown: Vec<String> = warnings
                .iter()
                .map(|warning| warning.render(relative, &text))
                .collect();
            assert!(warnings.is_empty(), "{}", shown.join("\n"));
            level
        }
        Err(error) => panic!("{}", error.render(relative, &text)),
    }
}

/// The shipped levels, gentle to hard: file stem, snack count, and whether
/// the level says `snacks: each`.
const SHIPPED: [(&str, usize, bool); 5] = [
    ("01-first-hops", 3, false),
    ("02-springboard", 3, false),
    ("03-up-through", 4, false),
    ("04-low-ceiling", 4, false),
    ("05-snack-run", 7, true),
];

/// Every file in `levels/snackrun/`, sorted, as (stem, level).
fn shipped_levels() -> Vec<(String, Level)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/levels");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let stem = name
                .strip_suffix(".txt")
                .unwrap_or_else(|| panic!("tests/fixtures/levels/{name}: not a .txt level"))
                .to_string();
            (stem, level_file(&format!("tests/fixtures/levels/{name}")))
        })
        .collect()
}

/// The snacks no bear touches (under `snacks: each`, the snacks some bear
/// misses), each with the jump its nearest reachable spot falls short by.
fn missing_snacks(level: &Level, reaches: &[Reach]) -> Vec<String> {
    let mut missing = Vec::new();
    for snack in level.cells(Tile::Snack) {
        let touched_by = reaches.iter().filter(|r| r.snacks.contains(&snack)).count();
        let enough = if level.snacks_each { reaches.len() } else { 1 };
        if touched_by < enough {
            let spots: BTreeSet<Pos> = reaches.iter().flat_map(|r| r.spots.clone()).collect();
            missing.push(format!("{snack:?} ({:?})", shortfall(snack, &spots)));
        }
    }
    missing
}

/// What taking `mechanic` out of `level` loses, bear by bear: the goal
/// and the snacks it could reach before but not after.
fn ablation_losses(level: &Level, mechanic: Mechanic) -> Vec<String> {
    let plain = level.ablate(mechanic);
    let mut losses = Vec::new();
    for bear in Bear::BOTH {
        let (before, after) = (reach(level, bear), reach(&plain, bear));
        if before.goal && !after.goal {
            losses.push(format!("{} the goal", bear.name()));
        }
        for snack in before.snacks.difference(&after.snacks) {
            losses.push(format!("{} snack {snack:?}", bear.name()));
        }
    }
    losses
}

#[test]
fn every_shipped_level_is_clean() {
    let levels = shipped_levels();
    let stems: Vec<&str> = levels.iter().map(|(stem, _)| stem.as_str()).collect();
    let expected: Vec<&str> = SHIPPED.iter().map(|(stem, ..)| *stem).collect();
    assert_eq!(stems, expected, "the files in tests/fixtures/levels/");
    for ((stem, level), (_, snacks, each)) in levels.iter().zip(SHIPPED) {
        let text = crate_file(&format!("tests/fixtures/levels/{stem}.txt"));
        // The file is already in printed form, so it round-trips exactly.
        assert_eq!(level.text(), text, "{stem}: printed back");
        assert_eq!(parse(&level.text()).unwrap().0.text(), text, "{stem}");
        assert!(level.name.is_some() && level.hint.is_some(), "{stem}");
        assert!(
            (12..=24).contains(&level.width) && (8..=14).contains(&level.height),
            "{stem}: {}x{}",
            level.width,
            level.height
        );
        assert_eq!(level.cells(Tile::Snack).len(), snacks, "{stem}: snacks");
        assert_eq!(level.snacks_each, each, "{stem}: snacks: each");

        let reaches: Vec<Reach> = Bear::BOTH.iter().map(|&b| reach(level, b)).collect();
        for (bear, reach) in Bear::BOTH.iter().zip(&reaches) {
            assert!(reach.goal, "{stem}: {} cannot reach the goal", bear.name());
            assert_eq!(reach.traps, [], "{stem}: {} can be trapped", bear.name());
        }
        assert_eq!(missing_snacks(level, &reaches), [] as [String; 0], "{stem}");
    }
}

#[test]
fn the_spring_and_the_one_way_platform_each_matter_somewhere() {
    let levels = shipped_levels();
    let needing = |mechanic: Mechanic| -> Vec<&str> {
        let losing = levels
            .iter()
            .filter(|(_, level)| !ablation_losses(level, mechanic).is_empty());
        losing.map(|(stem, _)| stem.as_str()).collect()
    };
    assert_eq!(
        needing(Mechanic::Spring),
        ["02-springboard", "05-snack-run"]
    );
    assert_eq!(needing(Mechanic::OneWay), ["03-up-through", "05-snack-run"]);

    let level_named = |stem: &str| &levels.iter().find(|(s, _)| s == stem).unwrap().1;
    // The snack over the spring is only ever touched by the spring jump,
    // and the goal ledge is six up: both bears lose both.
    let springboard = level_named("02-springboard");
    let mut expected = Vec::new();
    for bear in ["Bubu", "Dudu"] {
        expected.extend([
            format!("{bear} the goal"),
            format!("{bear} snack (3, 12)"),
            format!("{bear} snack (3, 15)"),
        ]);
    }
    assert_eq!(ablation_losses(springboard, Mechanic::Spring), expected);
    // Without the platforms no bear climbs above the floor.
    let up_through = level_named("03-up-through");
    for bear in Bear::BOTH {
        let plain = up_through.ablate(Mechanic::OneWay);
        let without = reach(&plain, bear);
        assert!(!without.goal);
        assert!(
            without.spots.iter().all(|&(row, _)| row == 10),
            "{without:?}"
        );
    }
    // In the last level the right-hand bear needs the floor spring to leave
    // the floor, and the snack in the top row needs the ledge spring.
    let snack_run = level_named("05-snack-run");
    let losses = ablation_losses(snack_run, Mechanic::Spring);
    assert!(losses.contains(&"Dudu the goal".to_string()), "{losses:?}");
    assert!(
        losses.contains(&"Bubu snack (0, 14)".to_string()),
        "{losses:?}"
    );
    assert!(!losses.contains(&"Bubu the goal".to_string()), "{losses:?}");
    let losses = ablation_losses(snack_run, Mechanic::OneWay);
    assert!(losses.contains(&"Bubu the goal".to_string()), "{losses:?}");
    assert!(!losses.contains(&"Dudu the goal".to_string()), "{losses:?}");
}

#[test]
fn the_low_ceiling_blocks_the_short_way_up() {
    let level = level_file("tests/fixtures/levels/04-low-ceiling.txt");
    // Under the overhang's right end, the ledge is three up and one over,
    // but the rock two cells above the bear cuts the rise short.
    let (under, ledge, rock) = ((8, 10), (5, 11), (5, 10));
    assert_eq!(level.tile(rock), Tile::Ground);
    assert!(!landings(&level, under).contains(&ledge));
    let mut open = level.clone();
    open.tiles[rock.0 * open.width + rock.1] = Tile::Air;
    assert!(landings(&open, under).contains(&ledge));
    // The bears get there the long way, over the top of the overhang.
    for bear in Bear::BOTH {
        assert!(reach(&level, bear).spots.contains(&ledge));
    }
}

#[test]
fn the_trap_fixture_traps_a_bear_and_hides_a_snack() {
    let level = level_file("tests/fixtures/trap.txt");
    assert!(level.name.is_some() && level.hint.is_some());
    assert_eq!(level.text(), crate_file("tests/fixtures/trap.txt"));
    let reaches: Vec<Reach> = Bear::BOTH.iter().map(|&b| reach(&level, b)).collect();
    for reach in &reaches {
        // The goal is reachable, but the well bottom, four deep, is a trap:
        // a bear that walks into it can never jump out.
        assert!(reach.goal);
        assert_eq!(reach.traps, [(8, 5)]);
        // The snack at the bottom is the lure; the one in the sky is four
        // up from the ground, out of every jump.
        assert_eq!(reach.snacks, BTreeSet::from([(8, 5)]));
    }
    assert_eq!(level.cells(Tile::Snack), [(0, 7), (8, 5)]);
    let spots: BTreeSet<Pos> = reaches.iter().flat_map(|r| r.spots.clone()).collect();
    let short = shortfall((0, 7), &spots).unwrap();
    assert_eq!((short.from, short.rise, short.sideways), ([4, 7], 4, 0));
}
