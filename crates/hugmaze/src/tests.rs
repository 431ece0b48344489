//! One tiny hand-made level per rule of `docs/games/hugmaze.md`. Cells are
//! (row, column), 0-based; most levels are one row, read left to right.

use super::level::{Kind, Level, parse};
use super::rules::{Bear, Refusal, State};
use puzzle_qa_core::game::{Ablation, Game, Mechanics};
use puzzle_qa_core::replay::replay;
use puzzle_qa_core::search::{DEFAULT_STATE_LIMIT, bfs};

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

/// The index of the refused move and the refusal, for a play that must fail.
fn refused(level: &Level, moves: &str) -> (usize, Refusal) {
    match play(level, moves) {
        Ok(state) => panic!("`{moves}` was not refused; it reached {state:?}"),
        Err(refusal) => refusal,
    }
}

/// The columns of the objects of `kind` in a one-row level.
fn columns(level: &Level, state: &State, kind: Kind) -> Vec<usize> {
    state.objects[level.range(kind)]
        .iter()
        .map(|&at| level.row_col(at).1)
        .collect()
}

fn bear_column(level: &Level, state: &State, bear: Bear) -> usize {
    level.row_col(state.bears[bear as usize]).1
}

#[test]
fn a_bear_walks_one_cell_per_move_and_off_grid_counts_as_wall() {
    let l = level("B..H..D");
    let state = play(&l, "B:R B:R").unwrap();
    assert_eq!(bear_column(&l, &state, Bear::Bubu), 2);
    assert_eq!(
        refused(&l, "B:L"),
        (0, Refusal::OffGrid { bear: Bear::Bubu })
    );
    assert_eq!(
        refused(&l, "D:R"),
        (0, Refusal::OffGrid { bear: Bear::Dudu })
    );
    assert_eq!(
        refused(&l, "B:U"),
        (0, Refusal::OffGrid { bear: Bear::Bubu })
    );
}

#[test]
fn walls_and_sleeping_cats_stop_both_bears() {
    let l = level("B#H.cD");
    let wall = Refusal::Wall {
        bear: Bear::Bubu,
        at: (0, 1),
    };
    assert_eq!(refused(&l, "B:R"), (0, wall));
    let cat = Refusal::Cat {
        bear: Bear::Dudu,
        at: (0, 4),
    };
    assert_eq!(refused(&l, "D:L"), (0, cat));
}

#[test]
fn only_bubu_fits_through_a_mouse_hole() {
    let l = level("BmH.mD");
    assert!(play(&l, "B:R B:R").is_ok());
    assert_eq!(
        refused(&l, "D:L"),
        (0, Refusal::HoleTooSmall { at: (0, 4) })
    );
}

#[test]
fn a_closed_gate_refuses_and_a_pressed_plate_opens_it() {
    // Bubu on the plate holds gate P open for Dudu.
    let l = level("B.p.H.PD");
    let closed = Refusal::GateClosed {
        bear: Bear::Dudu,
        at: (0, 6),
    };
    assert_eq!(refused(&l, "D:L"), (0, closed));
    assert!(play(&l, "B:R B:R D:L").is_ok());
    // Bubu steps off: the gate is closed again.
    assert_eq!(refused(&l, "B:R B:R B:L D:L"), (3, closed));
}

#[test]
fn a_bear_on_plate_p_may_step_straight_into_gate_p_and_holds_it_open() {
    // Judged with the bear still on the plate; once in, the gate cannot
    // close on it, so it can step on through.
    let l = level("BpP.H.D");
    let inside = play(&l, "B:R B:R").unwrap();
    assert_eq!(bear_column(&l, &inside, Bear::Bubu), 2);
    assert!(play(&l, "B:R B:R B:R B:R").is_ok());
    // Without the plate, the gate never opens.
    let l = level("B.P.H.Dp");
    assert!(matches!(
        refused(&l, "B:R B:R"),
        (1, Refusal::GateClosed { .. })
    ));
}

#[test]
fn something_standing_in_a_gate_keeps_that_gate_cell_open() {
    // Bubu holds plate p while Dudu pushes the block into the upper gate P;
    // then Bubu leaves the plate. The block alone holds its own cell open, so
    // Dudu may still step in and push it on through; the lower gate P, with
    // nothing in it and nothing on a plate, is shut.
    let l = level("DX.P..H\nBp.P...");
    let held = "B:R D:R D:R B:R";
    let in_gate = play(&l, held).unwrap();
    assert_eq!(columns(&l, &in_gate, Kind::Block), [3]);
    let through = play(&l, &format!("{held} D:R")).unwrap();
    assert_eq!(columns(&l, &through, Kind::Block), [4]);
    assert_eq!(bear_column(&l, &through, Bear::Dudu), 3);
    let shut = Refusal::GateClosed {
        bear: Bear::Bubu,
        at: (1, 3),
    };
    assert_eq!(refused(&l, &format!("{held} B:R")), (4, shut));
}

#[test]
fn bears_share_only_the_heart() {
    let l = level("B.D.H");
    let bump = Refusal::OtherBear {
        bear: Bear::Bubu,
        at: (0, 2),
    };
    assert_eq!(refused(&l, "B:R B:R"), (1, bump));
    let hug = play(&l, "D:R D:R B:R B:R B:R B:R").unwrap();
    assert!(l.is_won(&hug));
}

#[test]
fn no_move_is_allowed_once_the_level_is_won() {
    let l = level("BHD");
    let played = replay(&l, &l.parse_moves("B:R D:L D:R").unwrap());
    assert!(played.won);
    let failure = played.failure.expect("the third move must be refused");
    assert_eq!(failure.token_index, 2);
    assert_eq!(failure.reason, puzzle_qa_core::replay::AFTER_THE_WIN);
    let won = replay(&l, &l.parse_moves("B:R D:L").unwrap());
    assert!(won.won && won.failure.is_none());
    assert_eq!(bfs(&l, DEFAULT_STATE_LIMIT).par(), Some(2));
}

#[test]
fn bears_on_two_different_hearts_have_not_met() {
    let l = level("BH.HD");
    let apart = play(&l, "B:R D:L").unwrap();
    assert!(!l.is_won(&apart));
    assert_eq!(bfs(&l, DEFAULT_STATE_LIMIT).par(), Some(4));
}

#[test]
fn only_dudu_pushes_blocks_and_jars_and_either_bear_pushes_cushions() {
    let l = level("BX..H..JD");
    assert_eq!(
        refused(&l, "B:R"),
        (
            0,
            Refusal::TooHeavy {
                kind: Kind::Block,
                at: (0, 1)
            }
        )
    );
    let jar = play(&l, "D:L").unwrap();
    assert_eq!(columns(&l, &jar, Kind::Jar), [6]);
    let l = level("BC..H..CD");
    let bubu = play(&l, "B:R").unwrap();
    let dudu = play(&l, "D:L").unwrap();
    // A cushion slides until the next cell is not free: here, the heart.
    assert_eq!(columns(&l, &bubu, Kind::Cushion), [3, 7]);
    assert_eq!(columns(&l, &dudu, Kind::Cushion), [1, 5]);
}

#[test]
fn a_block_or_jar_moves_one_cell_per_push() {
    let l = level("DX....H.B");
    let state = play(&l, "D:R D:R").unwrap();
    assert_eq!(columns(&l, &state, Kind::Block), [3]);
    assert_eq!(bear_column(&l, &state, Bear::Dudu), 2);
}

#[test]
fn a_push_needs_a_free_cell_beyond() {
    let blocked = |text: &str| {
        let l = level(text);
        match refused(&l, "D:R") {
            (0, Refusal::PushBlocked { bear, .. }) => assert_eq!(bear, Bear::Dudu),
            other => panic!("{text}: {other:?}"),
        }
    };
    blocked("DX#B.H"); // a wall
    blocked("DXcB.H"); // a cat
    blocked("DXmB.H"); // a mouse hole
    blocked("DXHB.."); // the heart
    blocked("DXPB.Hp"); // a closed gate
    blocked("DXB.H"); // a bear
    blocked("DXJB.H"); // another object
    blocked("B.H.DX"); // the edge of the grid
    // The same holds for a cushion's first cell.
    let l = level("DC#B.H");
    assert!(matches!(
        refused(&l, "D:R"),
        (0, Refusal::PushBlocked { .. })
    ));
}

#[test]
fn a_push_is_judged_with_the_pushing_bear_lifted() {
    // Dudu on plate p pushes the block toward gate P: lifted, he no longer
    // presses the plate, so the gate is shut and the push is refused.
    let l = level(".DpXP.B.H");
    let on_plate = play(&l, "D:R").unwrap();
    assert_eq!(bear_column(&l, &on_plate, Bear::Dudu), 2);
    assert!(matches!(
        refused(&l, "D:R D:R"),
        (1, Refusal::PushBlocked { .. })
    ));
    // A cushion pushed from the plate stops short of the gate for the same
    // reason.
    let l = level("DpC..P.B.H");
    let state = play(&l, "D:R D:R").unwrap();
    assert_eq!(columns(&l, &state, Kind::Cushion), [4]);
}

#[test]
fn a_cushion_pushed_back_the_way_the_bear_came_slides_over_its_old_cells() {
    // Bubu leaves her start, goes round the cushion and pushes it left, back
    // onto the cell she came from: nothing of hers is in the way.
    let l = level("....#\nBC..#\n####H\nD...H");
    let state = play(&l, "B:U B:R B:R B:R B:D B:L B:L").unwrap();
    assert_eq!(state.objects[l.range(Kind::Cushion)], [cell(&l, 1, 0)]);
    assert_eq!(state.bears[0], cell(&l, 1, 1));
}

#[test]
fn an_object_on_plate_p_may_be_pushed_into_gate_p() {
    // The first cell is judged with the object still on the plate.
    let l = level("DXpP..B.H");
    let onto_plate = play(&l, "D:R").unwrap();
    assert_eq!(columns(&l, &onto_plate, Kind::Block), [2]);
    let into_gate = play(&l, "D:R D:R").unwrap();
    assert_eq!(columns(&l, &into_gate, Kind::Block), [3]);
}

#[test]
fn a_cushion_slides_across_a_plate_without_pressing_it() {
    // Past its first cell the cushion is off the grid: crossing plate q does
    // not open gate Q, so it stops in front of the gate.
    let l = level("BC.q.Q.H.D");
    let state = play(&l, "B:R").unwrap();
    assert_eq!(columns(&l, &state, Kind::Cushion), [4]);
    // A cushion that comes to rest on the plate does press it.
    let l = level("BC.q#.Q.H.D");
    let resting = play(&l, "B:R").unwrap();
    assert_eq!(columns(&l, &resting, Kind::Cushion), [3]);
    let through = play(&l, "B:R D:L D:L D:L D:L").unwrap();
    assert_eq!(bear_column(&l, &through, Bear::Dudu), 6);
}

#[test]
fn a_sliding_cushion_stops_before_anything_that_is_not_free() {
    let stop = |text: &str, expected: usize| {
        let l = level(text);
        let state = play(&l, "B:R").unwrap();
        assert_eq!(columns(&l, &state, Kind::Cushion), [expected], "{text}");
    };
    stop("BC...#H.D", 4); // a wall
    stop("BC..cH.D.", 3); // a cat
    stop("BC.m.H.D.", 2); // a mouse hole
    stop("BC...H.D.", 4); // the heart
    stop("BC..D.H..", 3); // a bear
    stop("BC..J.H.D", 3); // an object
    stop("D.H..BC..", 8); // the edge of the grid
}

#[test]
fn identical_objects_are_interchangeable_in_the_state_key() {
    let l = level("..J.\n.J..\n.D..\nB.H.");
    let start = l.start();
    assert_eq!(start.objects[..2], [cell(&l, 0, 2), cell(&l, 1, 1)]);
    let mut swapped = start;
    swapped.objects.swap(0, 1);
    assert_eq!(l.key(&l.canonical(swapped, 0)), l.key(&start));
    // Pushing the lower jar above the other keeps the slots in cell order.
    let pushed = play(&l, "D:U").unwrap();
    assert_eq!(pushed.objects[..2], [cell(&l, 0, 1), cell(&l, 0, 2)]);
}

#[test]
fn kinds_keep_their_own_slots() {
    let l = level("CJX.B\nXJC.D\n..H..");
    assert_eq!(l.range(Kind::Block), 0..2);
    assert_eq!(l.range(Kind::Jar), 2..4);
    assert_eq!(l.range(Kind::Cushion), 4..6);
    let start = l.start();
    assert_eq!(start.objects[..2], [cell(&l, 0, 2), cell(&l, 1, 0)]);
}

mod parsing {
    use super::super::level::parse;
    use puzzle_qa_core::diagnostic::Severity;

    fn error(text: &str) -> (String, usize, usize) {
        match parse(text) {
            Ok(_) => panic!("{text:?} parsed"),
            Err(error) => (error.message, error.line, error.column),
        }
    }

    #[test]
    fn headers_comments_and_blank_lines_come_before_the_grid() {
        let text = "; a comment\nname: First Hug\n\nhint: walk\nauthor: me\nB.HD\n\n";
        let (level, warnings) = parse(text).unwrap();
        assert_eq!(level.name.as_deref(), Some("First Hug"));
        assert_eq!(level.hint.as_deref(), Some("walk"));
        assert_eq!(level.author.as_deref(), Some("me"));
        assert!(warnings.is_empty());
    }

    #[test]
    fn an_unknown_header_is_kept_with_a_warning() {
        let (level, warnings) = parse("stars: 3\nB.HD\n").unwrap();
        assert_eq!(
            level.other_headers,
            [("stars".to_string(), "3".to_string())]
        );
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].severity, Severity::Warning);
        assert_eq!((warnings[0].line, warnings[0].column), (1, 1));
    }

    #[test]
    fn crlf_endings_a_byte_order_mark_and_trailing_spaces_are_accepted() {
        let (level, _) = parse("\u{feff}name: x\r\nB.H.D  \r\n.....\r\n").unwrap();
        assert_eq!((level.width, level.height), (5, 2));
    }

    #[test]
    fn ragged_rows_point_past_the_shorter_row() {
        let (message, line, column) = error("B.H.D\n...\n");
        assert!(message.starts_with("ragged row: 3 cells"), "{message}");
        assert_eq!((line, column), (2, 4));
    }

    #[test]
    fn unknown_characters_are_rejected_where_they_are() {
        for (text, column) in [
            ("B.HxD", 4),
            ("BbH.D", 2),
            ("B.HMD", 4),
            ("B.H D", 4),
            ("B.Hj.D", 4),
            ("B.H.D\n..:..", 3),
        ] {
            let (message, line, found) = error(text);
            assert!(
                message.starts_with("unknown character"),
                "{text}: {message}"
            );
            assert_eq!((line, found), (text.lines().count(), column), "{text}");
        }
    }

    #[test]
    fn each_bear_exactly_once_and_a_heart() {
        assert_eq!(error("..H.D").0, "the level has no Bubu `B`");
        assert_eq!(error("B.H..").0, "the level has no Dudu `D`");
        assert_eq!(error("B...D").0, "the level has no heart `H`");
        let (message, line, column) = error("B.H.D\n..B..");
        assert!(message.starts_with("a second `B`"), "{message}");
        assert_eq!((line, column), (2, 3));
        assert!(error("BDH.D").0.starts_with("a second `D`"));
    }

    #[test]
    fn a_gate_needs_a_plate_and_a_plate_without_a_gate_is_a_warning() {
        let (message, line, column) = error("B.H.D\n.Q...");
        assert!(
            message.starts_with("gate `Q` has no plate `q`"),
            "{message}"
        );
        assert_eq!((line, column), (2, 2));
        let (_, warnings) = parse("B.H.Dq").unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.starts_with("plate `q` opens nothing"));
        assert_eq!(warnings[0].column, 6);
    }

    #[test]
    fn text_after_the_grid_is_an_error() {
        let (message, line, _) = error("B.H.D\n\n.....\n");
        assert_eq!((message.as_str(), line), ("text after the grid", 3));
        assert_eq!(error("").0, "the level has no grid");
        assert_eq!(
            error("name: x\n; only a comment\n").0,
            "the level has no grid"
        );
    }

    #[test]
    fn too_many_objects_for_the_state() {
        let text = format!("B.H.D{}\n{}", ".".repeat(12), "X".repeat(17));
        let (message, line, column) = error(&text);
        assert!(message.starts_with("too many movable objects"), "{message}");
        assert_eq!((line, column), (2, 17));
    }
}

mod ablation {
    use super::*;

    fn mechanics(level: &Level) -> Vec<String> {
        level
            .mechanics()
            .iter()
            .map(|a| a.mechanic.to_string())
            .collect()
    }

    #[test]
    fn only_mechanics_present_are_listed_in_the_rulebook_order() {
        let l = level("B.cCm.H\nD.Jp.P.");
        assert_eq!(
            mechanics(&l),
            ["mouse-hole", "jar", "cushion", "plate", "gate", "cat"]
        );
        assert!(mechanics(&level("B.H.D")).is_empty());
    }

    #[test]
    fn each_mechanic_gets_its_replacement_everywhere() {
        let l = level("BmXJC.H\nDcp.P..");
        let ablated = |mechanic: &'static str| l.ablate(&Ablation::everywhere(mechanic, ""));
        use super::super::level::Tile;
        assert_eq!(ablated("mouse-hole").tiles[1], Tile::Wall);
        let no_blocks = ablated("block");
        assert_eq!(no_blocks.tiles[2], Tile::Wall);
        assert_eq!(no_blocks.kinds, [Kind::Jar, Kind::Cushion]);
        assert_eq!(no_blocks.start.objects[..2], [3, 4]);
        assert_eq!(ablated("cushion").tiles[4], Tile::Wall);
        assert_eq!(ablated("plate").tiles[9], Tile::Floor);
        assert_eq!(ablated("gate").tiles[11], Tile::Floor);
        assert_eq!(ablated("cat").tiles[8], Tile::Floor);
    }

    #[test]
    fn one_piece_alone_is_replaced_on_its_own_cell() {
        let l = level("BJ.J.H\nD.....");
        let pieces = l.pieces();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[1].at, Some((0, 3)));
        assert_eq!(pieces[1].replacement, "wall");
        let without = l.ablate(&pieces[1]);
        assert_eq!(without.kinds, [Kind::Jar]);
        assert_eq!(without.start.objects[0], 1);
        assert_eq!(without.tiles[3], super::super::level::Tile::Wall);
        assert_eq!(without.tiles[1], super::super::level::Tile::Floor);
    }

    #[test]
    fn a_gate_whose_plates_are_ablated_stays_shut() {
        let l = level("B.pP.H.D");
        assert_eq!(bfs(&l, DEFAULT_STATE_LIMIT).par(), Some(7));
        let ablated = l.ablate(&Ablation::everywhere("plate", "floor"));
        assert_eq!(bfs(&ablated, DEFAULT_STATE_LIMIT).par(), None);
    }
}

/// Every level of the crate's fixture set (a copy of the levels the game
/// shipped with), parsed.
fn shipped_levels() -> Vec<(String, Level)> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/levels");
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.display().to_string(), level(&text))
        })
        .collect()
}

#[test]
fn packed_states_search_exactly_like_readable_states() {
    use super::packed::Packed;
    for (name, level) in shipped_levels() {
        let readable = bfs(&level, DEFAULT_STATE_LIMIT);
        let packed = Packed::<u128>::new(level.clone());
        let packed = bfs(&packed, DEFAULT_STATE_LIMIT);
        assert_eq!(packed.par(), readable.par(), "{name}");
        assert_eq!(packed.path(), readable.path(), "{name}");
        let (p, r) = (packed.stats(), readable.stats());
        assert_eq!((p.expanded, p.stored), (r.expanded, r.stored), "{name}");
    }
}

#[test]
fn a_level_packs_into_the_narrowest_word_that_holds_it() {
    use super::packed::Packed;
    // 12 cells: 4 bits a cell; two bears and 6 objects make 32 bits.
    let six = level("B.JJJ.\nD.JJJH");
    assert!(Packed::<u32>::fits(&six));
    let seven = level("B.JJJJ\nD.JJJH");
    assert!(!Packed::<u32>::fits(&seven));
    assert!(Packed::<u64>::fits(&seven));
}

#[test]
fn the_heuristic_never_overestimates_on_the_shipped_levels() {
    use puzzle_qa_core::search::astar;
    for (name, level) in shipped_levels() {
        let exact = bfs(&level, DEFAULT_STATE_LIMIT);
        let informed = astar(&level, DEFAULT_STATE_LIMIT);
        assert_eq!(informed.par(), exact.par(), "{name}");
        // Along an optimal path, the bound never exceeds the moves left.
        let path = exact.path().unwrap();
        let mut state = level.start();
        for (done, mv) in path.iter().enumerate() {
            let left = (path.len() - done) as u32;
            assert!(
                level.heuristic(&state).unwrap() <= left,
                "{name} at move {done}"
            );
            state = level.step(&state, *mv).unwrap().0;
        }
    }
}
