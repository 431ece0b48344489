//! One tiny hand-made level per rule of `docs/games/bloxorz.md`.
//!
//! Every test level has a goal `e` out of the way in an extra bottom row, so
//! the grid rows above it are what the test is about. Cells are (row, col).

use super::bound::Bounds;
use super::level::{Level, parse};
use super::rules::{Move, Refusal, Shape, State};
use puzzle_qa_core::game::{Game, Mechanics};
use puzzle_qa_core::replay::replay;

fn level(text: &str) -> Level {
    match parse(text) {
        Ok((level, _)) => level,
        Err(error) => panic!("{}", error.render("test level", text)),
    }
}

fn cell(level: &Level, row: usize, col: usize) -> u16 {
    (row * level.width + col) as u16
}

/// Plays `moves` from the start; the state reached, or the first refusal
/// with the 0-based index of the refused move.
fn play(level: &Level, moves: &str) -> Result<State, (usize, Refusal)> {
    let mut state = level.start();
    for (index, mv) in level.parse_moves(moves).unwrap().into_iter().enumerate() {
        state = level
            .step(&state, mv)
            .map_err(|refusal| (index, refusal))?
            .0;
    }
    Ok(state)
}

fn has_tile(level: &Level, state: &State, row: usize, col: usize) -> bool {
    use super::level::Presence;
    match level.cells[cell(level, row, col) as usize].presence {
        Presence::Static(present) => present,
        Presence::Dynamic(bit) => state.mask >> bit & 1 == 1,
    }
}

#[test]
fn the_block_rolls_between_upright_and_lying() {
    let l = level("s p p p\np p p p\np p p p\nx x x e");
    let lying = play(&l, "R").unwrap();
    assert_eq!(
        (lying.shape, lying.a, lying.b),
        (Shape::Horizontal, cell(&l, 0, 1), cell(&l, 0, 2))
    );
    let shifted = play(&l, "R D").unwrap();
    assert_eq!(
        (shifted.shape, shifted.a),
        (Shape::Horizontal, cell(&l, 1, 1))
    );
    let upright = play(&l, "R D R").unwrap();
    assert_eq!((upright.shape, upright.a), (Shape::Upright, cell(&l, 1, 3)));
    let vertical = play(&l, "D").unwrap();
    assert_eq!(
        (vertical.shape, vertical.a, vertical.b),
        (Shape::Vertical, cell(&l, 1, 0), cell(&l, 2, 0))
    );
}

#[test]
fn a_roll_onto_a_missing_cell_or_off_the_grid_falls() {
    let l = level("s p x\np p p\nx x e");
    assert_eq!(play(&l, "R"), Err((0, Refusal::Falls { row: 0, col: 2 })));
    assert_eq!(play(&l, "U"), Err((0, Refusal::Falls { row: -2, col: 0 })));
}

#[test]
fn a_weak_tile_breaks_under_an_upright_block_only() {
    let l = level("s p p w\nx x x e");
    assert_eq!(
        play(&l, "R R"),
        Err((1, Refusal::BreaksWeakTile { row: 0, col: 3 }))
    );
    let lying = level("s w w p\nx x x e");
    assert!(play(&lying, "R R").is_ok(), "lying on weak tiles is fine");
}

#[test]
fn a_strong_switch_fires_only_for_an_upright_block() {
    let lying = level("s S1 p p x1\nx x x x e\n---\nS1 opens x1");
    let state = play(&lying, "R").unwrap();
    assert!(
        !has_tile(&lying, &state, 0, 4),
        "lying on S does not fire it"
    );

    let upright = level("s p p S1 x1\nx x x x e\n---\nS1 opens x1");
    let state = play(&upright, "R R").unwrap();
    assert!(has_tile(&upright, &state, 0, 4), "standing on S fires it");
}

#[test]
fn a_weak_switch_fires_for_an_upright_or_lying_block() {
    let lying = level("s W1 p p x1\nx x x x e\n---\nW1 opens x1");
    assert!(has_tile(&lying, &play(&lying, "R").unwrap(), 0, 4));
    let upright = level("s p p W1 x1\nx x x x e\n---\nW1 opens x1");
    assert!(has_tile(&upright, &play(&upright, "R R").unwrap(), 0, 4));
}

#[test]
fn toggles_flips_opens_sets_closes_clears() {
    let l = level(
        "s p p W1 p\np1 x1 x2 p2 p\nx x x x e\n---\nW1 toggles p1, x1\nW1 opens x2\nW1 closes p2",
    );
    let once = play(&l, "R R").unwrap();
    let tiles = |state: &State| [0, 1, 2, 3].map(|col| has_tile(&l, state, 1, col));
    assert_eq!(l.start().mask.count_ones(), 2, "p1 and p2 start present");
    assert_eq!(tiles(&once), [false, true, true, false]);
    let twice = play(&l, "R R L R").unwrap();
    assert_eq!(tiles(&twice), [true, false, true, false]);
}

#[test]
fn rules_of_one_trigger_apply_in_file_order() {
    let toggle_then_open = level("s p p W1 x1\nx x x x e\n---\nW1 toggles x1\nW1 opens x1");
    assert!(has_tile(
        &toggle_then_open,
        &play(&toggle_then_open, "R R").unwrap(),
        0,
        4
    ));
    let open_then_toggle = level("s p p W1 x1\nx x x x e\n---\nW1 opens x1\nW1 toggles x1");
    assert!(!has_tile(
        &open_then_toggle,
        &play(&open_then_toggle, "R R").unwrap(),
        0,
        4
    ));
}

#[test]
fn a_lying_block_fires_a_name_covered_twice_once() {
    let l = level("s W1 W1 p x1\nx x x x e\n---\nW1 toggles x1");
    assert!(has_tile(&l, &play(&l, "R").unwrap(), 0, 4));
}

#[test]
fn a_lying_block_fires_two_switches_in_reading_order() {
    // W1 then W2: open, then toggle → missing.
    let l = level("s W1 W2 p x1\nx x x x e\n---\nW1 opens x1\nW2 toggles x1");
    assert!(!has_tile(&l, &play(&l, "R").unwrap(), 0, 4));
    // W2 then W1: toggle, then open → present.
    let l = level("s W2 W1 p x1\nx x x x e\n---\nW1 opens x1\nW2 toggles x1");
    assert!(has_tile(&l, &play(&l, "R").unwrap(), 0, 4));
}

#[test]
fn a_switch_that_removes_a_cell_under_the_block_makes_the_move_illegal() {
    let l = level("s W1 p1 p\nx x x e\n---\nW1 closes p1");
    assert_eq!(
        play(&l, "R"),
        Err((0, Refusal::SwitchRemovesTile { row: 0, col: 2 }))
    );
    let own = level("s p p S1\nx x x e\n---\nS1 toggles S1");
    assert_eq!(
        play(&own, "R R"),
        Err((1, Refusal::SwitchRemovesTile { row: 0, col: 3 }))
    );
}

const SPLIT: &str = "\
s p p t1 p
p x x x p
p2 x x x p1
x x x x e
---
t1 teleports p1, p2";

#[test]
fn a_split_puts_control_on_the_cube_on_the_first_target() {
    let l = level(SPLIT);
    let split = play(&l, "R R").unwrap();
    assert_eq!(
        (split.shape, split.a, split.b),
        (Shape::Split, cell(&l, 2, 4), cell(&l, 2, 0))
    );
    // The controlled cube (on p1, at the right) rolls up.
    let moved = play(&l, "R R U").unwrap();
    assert_eq!((moved.a, moved.b), (cell(&l, 1, 4), cell(&l, 2, 0)));
    // After S the other cube rolls.
    let passed = play(&l, "R R S U").unwrap();
    assert_eq!((passed.a, passed.b), (cell(&l, 1, 0), cell(&l, 2, 4)));
}

#[test]
fn a_lying_block_on_a_teleport_does_not_split() {
    let l = level("s p t1 p\np1 x x p2\nx x x e\n---\nt1 teleports p1, p2");
    assert_eq!(
        play(&l, "R").map(|state| state.shape),
        Ok(Shape::Horizontal)
    );
}

#[test]
fn one_target_name_on_two_cells_splits_in_reading_order() {
    let l = level("s p p t1 p\nl1 x x x l1\nx x x x e\n---\nt1 teleports l1");
    let split = play(&l, "R R").unwrap();
    assert_eq!((split.a, split.b), (cell(&l, 1, 0), cell(&l, 1, 4)));
}

#[test]
fn adjacent_split_targets_form_a_lying_block_at_once() {
    let l = level("s p p t1 p\nx x x l1 l1\nx x x x e\n---\nt1 teleports l1");
    let state = play(&l, "R R").unwrap();
    assert_eq!(
        (state.shape, state.a, state.b),
        (Shape::Horizontal, cell(&l, 1, 3), cell(&l, 1, 4))
    );
}

#[test]
fn a_split_onto_a_missing_target_is_illegal() {
    let l = level("s p p t1 x1\nl1 x x x p\nx x x x e\n---\nt1 teleports l1, x1\nW9 opens x1");
    assert_eq!(
        play(&l, "R R"),
        Err((1, Refusal::SplitTargetMissing { row: 0, col: 4 }))
    );
}

#[test]
fn cubes_merge_when_one_ends_next_to_the_other() {
    let l = level("s p p t1 p\np p p p p\np2 x x p p1\nx x x x e\n---\nt1 teleports p1, p2");
    // The cube on p1 rolls up and left to (1,2); the cube on p2 rolls up to
    // (1,0); the first rolls left once more and touches it.
    let merged = play(&l, "R R U L L S U S L").unwrap();
    assert_eq!(
        (merged.shape, merged.a, merged.b),
        (Shape::Horizontal, cell(&l, 1, 0), cell(&l, 1, 1))
    );
    // A merged block rolls as a whole again.
    let rolled = play(&l, "R R U L L S U S L R").unwrap();
    assert_eq!((rolled.shape, rolled.a), (Shape::Upright, cell(&l, 1, 2)));
}

#[test]
fn cubes_ignore_strong_switches_weak_tiles_teleports_and_the_goal() {
    let l = level(
        "s p p t1 p\nx1 x x x p\np3 x x x p1\nS1 x x x p\nw x x x p\nt2 x x x p\ne x x x e\n---\nt1 teleports p1, p3\nS1 opens x1\nt2 teleports p1, p3",
    );
    // The cube on p3 (2,0) rolls down over S1, w and t2 onto e: nothing
    // fires, nothing breaks, nothing splits, nothing wins.
    let state = play(&l, "R R S D D D D").unwrap();
    assert_eq!((state.shape, state.a), (Shape::Split, cell(&l, 6, 0)));
    assert!(!has_tile(&l, &state, 1, 0));
    assert!(!l.is_won(&state));
}

#[test]
fn a_cube_fires_a_weak_switch_every_time_it_lands_on_it() {
    let l = level(
        "s p p t1 p\nx x x x p\np3 x x x p1\nW1 x x x p\np x x x x1\nx x x x e\n---\nt1 teleports p1, p3\nW1 toggles x1",
    );
    let once = play(&l, "R R S D").unwrap();
    assert!(has_tile(&l, &once, 4, 4));
    let twice = play(&l, "R R S D D U").unwrap();
    assert!(!has_tile(&l, &twice, 4, 4), "landing again toggles again");
    // The cube that stays on the switch fires nothing.
    let other = play(&l, "R R S D S U").unwrap();
    assert!(has_tile(&l, &other, 4, 4));
}

#[test]
fn a_firing_that_removes_the_other_cubes_cell_is_illegal() {
    let l = level(
        "s p p t1 p\nx x x x p\np3 x x x p1\nW1 x x x x\nx x x x e\n---\nt1 teleports p1, p3\nW1 closes p1",
    );
    assert_eq!(
        play(&l, "R R S D"),
        Err((3, Refusal::SwitchRemovesTile { row: 2, col: 4 }))
    );
}

#[test]
fn passing_control_with_a_whole_block_does_nothing() {
    let l = level(SPLIT);
    assert_eq!(play(&l, "S"), Ok(l.start()));
    assert_eq!(play(&l, "R S R"), play(&l, "R R"));
    let passed_roll = Move::Roll {
        dir: super::Dir::R,
        pass_first: true,
    };
    assert_eq!(
        l.step(&l.start(), passed_roll),
        l.step(&l.start(), Move::roll(super::Dir::R))
    );
    let played = replay(&l, &l.parse_moves("S R S").unwrap());
    assert_eq!((played.cost, played.failure), (1, None));
}

#[test]
fn the_key_forgets_control_and_cube_order() {
    let l = level(SPLIT);
    let split = play(&l, "R R").unwrap();
    let passed = play(&l, "R R S").unwrap();
    assert_ne!(split, passed);
    assert_eq!(l.key(&split), l.key(&passed));
}

#[test]
fn the_level_is_won_upright_on_the_goal_and_then_nothing_moves() {
    let l = level("s p p e\nx x x x");
    let won = play(&l, "R R").unwrap();
    assert!(l.is_won(&won));
    let spare = replay(&l, &l.parse_moves("R R L").unwrap());
    assert!(spare.won);
    let failure = spare.failure.unwrap();
    assert_eq!(
        (failure.move_index, failure.reason.as_str()),
        (2, puzzle_qa_core::replay::AFTER_THE_WIN)
    );
    let lying = level("s e p p\nx x x e");
    assert!(
        !lying.is_won(&play(&lying, "R").unwrap()),
        "lying over e is harmless"
    );
}

#[test]
fn a_replay_counts_rolls_but_not_passes() {
    let l =
        level("s p p t1 p p\nx x x x x x\np2 p x x p p1\nx x x x x e\n---\nt1 teleports p1, p2");
    let moves = l.parse_moves("R R S R S L").unwrap();
    let played = replay(&l, &moves);
    assert_eq!(played.cost, 4);
    assert_eq!(played.failure, None);
}

#[test]
fn level_21_rule_for_an_absent_switch_is_a_warning() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/official/level21.txt"
    ))
    .unwrap();
    let (_, warnings) = parse(&text).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "`S2` is not in the grid; this rule never fires"
    );
    assert_eq!((warnings[0].line, warnings[0].column), (14, 1));
}

/// The heuristic at a state, from the game's interface.
fn bound(level: &Level, state: &State) -> puzzle_qa_core::game::Cost {
    level.heuristic(state).expect("Bloxorz offers a heuristic")
}

#[test]
fn the_heuristic_is_the_exact_par_on_a_level_without_mechanics() {
    let l = level("s p p p p p\np p x x p p\np p p p p e");
    let par = puzzle_qa_core::search::bfs(&l, 1000).par().unwrap();
    assert_eq!(bound(&l, &l.start()), par);
}

#[test]
fn the_block_is_never_upright_on_a_weak_tile_even_relaxed() {
    // Straight along the top row the block would stand on `w` at (0, 3):
    // the real block must detour through the second row, and so does the
    // relaxed one.
    let l = level("s p p w p p e\np p p p p p p");
    let par = puzzle_qa_core::search::bfs(&l, 1000).par().unwrap();
    assert!(par > 4, "the straight route is refused");
    assert_eq!(bound(&l, &l.start()), par);
}

const LONG_WALK: &str = "s p p t1 x x\nx x x x x x\nl1 p p p l2 e\n---\nt1 teleports l1, l2";

#[test]
fn a_split_is_bounded_by_both_cubes_walks() {
    // The split leaves cubes on (2, 0) and (2, 4). The best merge is on
    // (2, 3)–(2, 4): the left cube walks 3 rolls, then the block rolls once
    // onto the goal. The split's relaxed value is that exactly.
    let l = level(LONG_WALK);
    let split = play(&l, "R R").unwrap();
    assert_eq!(split.shape, Shape::Split);
    assert_eq!(bound(&l, &split), 4);
    assert_eq!(bound(&l, &l.start()), 6);
    assert_eq!(puzzle_qa_core::search::bfs(&l, 1000).par(), Some(6));
}

#[test]
fn without_room_for_pairs_a_split_is_bounded_by_the_larger_cube_bound() {
    // One value per cube (a level of more than 1,024 cells): a cube's bound
    // assumes the other cube comes to it for free. Lying on (2, 3)–(2, 4)
    // the block is 1 roll from the goal, so the right cube's bound is 1;
    // lying on (2, 0)–(2, 1) it is 3 rolls away, so the left cube's is 3.
    // The bound is the larger, 3 (the smaller would be 1).
    let mut l = level(LONG_WALK);
    l.bounds = Bounds::of(&l, false).into();
    let split = play(&l, "R R").unwrap();
    assert_eq!(bound(&l, &split), 3);
    assert_eq!(bound(&l, &l.start()), 5);
}

#[test]
fn one_value_per_cube_is_admissible_consistent_and_no_stronger_on_the_official_levels() {
    for number in 1..=33 {
        let path = format!(
            "{}/tests/fixtures/official/level{number:02}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let pairs = level(&std::fs::read_to_string(path).unwrap());
        let mut cubes = pairs.clone();
        cubes.bounds = Bounds::of(&cubes, false).into();
        let graph = puzzle_qa_core::search::StateGraph::explore(&cubes, 1_000_000).unwrap();
        for state in graph.states() {
            assert!(
                bound(&cubes, state) <= bound(&pairs, state),
                "level {number}: {state:?}"
            );
        }
        graph
            .check_heuristic(&cubes, |state| bound(&cubes, state))
            .unwrap_or_else(|e| panic!("level {number}: {e}"));
    }
}

#[test]
fn a_bridge_counts_when_a_switch_can_open_it_and_not_otherwise() {
    // The only way to the goal crosses the bridge x1 at (0, 3); lying on
    // W1 first opens it.
    let opened = level("s W1 p x1 p p e\n---\nW1 opens x1");
    assert_eq!(puzzle_qa_core::search::bfs(&opened, 1000).par(), Some(4));
    assert_eq!(bound(&opened, &opened.start()), 4);
    // When W1 can only close it, the bridge is never there and the level
    // can never be won, which the heuristic knows from the start.
    let never = level("s W1 p x1 p p e\n---\nW1 closes x1");
    assert_eq!(
        bound(&never, &never.start()),
        puzzle_qa_core::game::HOPELESS
    );
    assert_eq!(
        puzzle_qa_core::search::astar(&never, 1000).status(),
        puzzle_qa_core::search::Status::Unsolvable
    );
}

#[test]
fn an_ablated_copy_gets_its_own_heuristic() {
    // Without weak tiles the straight route is open: the copy's bound is
    // that of the same level with `p` in place of `w`, even when the
    // original's tables were computed before the copy was made.
    let weak = level("s p p w p p e\np p p p p p p");
    assert!(bound(&weak, &weak.start()) > 4);
    let ablation = weak
        .mechanics()
        .into_iter()
        .find(|ablation| ablation.mechanic == "weak-tile")
        .unwrap();
    let ablated = weak.ablate(&ablation);
    let plain = level("s p p p p p e\np p p p p p p");
    assert_eq!(bound(&ablated, &ablated.start()), 4);
    assert_eq!(bound(&plain, &plain.start()), 4);
}
