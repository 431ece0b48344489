//! Tiny hand-made levels pinning `shared/games/snackrun.md`. Cells are
//! (row, column), 0-based, row 0 at the top.

use std::collections::BTreeSet;

use super::*;
use crate::diagnostic::Diagnostic;

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
    assert_eq!((short.from, short.rise, short.sideways), ((5, 2), 5, 0));

    let one_way = level(ONE_WAY_ABOVE).ablate(Mechanic::from_name("one-way").unwrap());
    assert_eq!(one_way.tile((1, 2)), Tile::Air);
    assert!(!reach(&one_way, Bear::Bubu).spots.contains(&(0, 2)));
}

#[test]
fn a_shortfall_is_measured_from_the_nearest_spot() {
    let spots = [(2, 1), (9, 9), (5, 0)];
    let short = shortfall((5, 3), &spots).unwrap();
    assert_eq!((short.from, short.rise, short.sideways), ((5, 0), 0, 3));
    let drop = shortfall((5, 3), &[(2, 1)]).unwrap();
    assert_eq!((drop.rise, drop.sideways), (-3, 2));
    // Equally near: the first in reading order.
    assert_eq!(shortfall((4, 4), &[(4, 6), (4, 2)]).unwrap().from, (4, 2));
}

fn error(text: &str) -> Diagnostic {
    match parse(text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(error) => error,
    }
}

#[test]
fn bad_levels_are_reported_with_line_and_column() {
    let cases: [(&str, usize, usize, &str); 11] = [
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
        ("G.B.D\n##.##\n", 1, 3, "Bubu falls to its death"),
        ("G.B.D\n##*##\n", 1, 3, "Bubu falls to its death"),
        ("nmae: x\nGBD\n###\n", 1, 1, "unknown header `nmae`"),
        ("snacks:  all\nGBD\n###\n", 1, 10, "invalid `snacks:` value"),
        ("GBD\n###\n\nmore\n", 4, 1, "text after the grid"),
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
