//! Pictures: every game's SVG is well-formed XML with what a designer needs
//! on it, one level per game is a snapshot, the HTML replay has a frame per
//! move with its path over the cells that change, `show` prints the
//! terminal picture, a level without a win says why in every picture, and
//! `replay` keys the characters a game made up. The levels are the fixture
//! project's (`tests/fixtures/project/`), and a PuzzleScript game of the
//! engine's picture fixtures (`lever.txt`).

use puzzle_qa::games;
use puzzle_qa_core::_cli_support::level::read_level;
use puzzle_qa_core::_cli_support::picture::{ascii, html, svg};
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::picture::Playback;
use puzzle_qa_core::search::SearchOptions;

use crate::support::{
    Project, fixture_project, level_path, puzzle_qa_in, repository, stderr, stdout,
};

/// One level per game, the acceptance's three, as paths in the project.
fn levels() -> [String; 3] {
    [
        level_path("bloxorz", "level09"),
        level_path("hugmaze", "17-article-example"),
        level_path("snackrun", "02-springboard"),
    ]
}

/// The fixture project's level at `path`, shown as `path`.
fn level(path: &str) -> Box<dyn AnyLevel> {
    let full = fixture_project().join(path);
    let game = GameChecks::of_folder(&full, games::BUILT_IN).unwrap();
    read_level(&full, path, game.load).unwrap().1.level
}

/// The level played along a cheapest win.
fn solved(level: &dyn AnyLevel) -> Playback {
    let moves = level.solve(SearchOptions::default()).moves.unwrap();
    level.playback(&moves).unwrap().expect("every game draws")
}

/// Parses `text` as XML and returns the texts of its `<text>` elements.
fn svg_texts(text: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(text).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(document.root_element().tag_name().name(), "svg");
    document
        .descendants()
        .filter(|node| node.has_tag_name("text"))
        .filter_map(|node| node.text().map(str::to_string))
        .collect()
}

#[test]
fn every_picture_is_svg_with_a_legend_labels_and_numbered_steps() {
    for path in &levels() {
        let level = level(path);
        let playback = solved(&*level);
        assert!(playback.won, "{path}");
        let picture = svg::picture(&playback);
        let texts = svg_texts(&picture);
        // Every step of the solution is numbered where an actor arrived, by
        // the moves counted toward par: the last mark reads the par.
        for step in 1..=playback.moves() {
            let frame = &playback.frames[step];
            if frame.scene.pieces != playback.frames[step - 1].scene.pieces {
                assert!(
                    texts.contains(&frame.cost.to_string()),
                    "{path}: step {step}"
                );
            }
        }
        let par = level.solve(SearchOptions::default()).par.unwrap();
        assert_eq!(playback.frames.last().unwrap().cost, par);
        // The legend names every kind of cell and piece.
        for frame in &playback.frames {
            for look in &frame.scene.cells {
                assert!(
                    texts.contains(&look.name.to_string()),
                    "{path}: {}",
                    look.name
                );
            }
        }
        svg_texts(&svg::thumbnail(&playback.frames[0].scene, 120));
        // Written out to be looked at (target/tmp/pictures/).
        let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pictures");
        std::fs::create_dir_all(&out).unwrap();
        let stem = path.rsplit('/').next().unwrap().trim_end_matches(".txt");
        std::fs::write(out.join(format!("{stem}.svg")), &picture).unwrap();
        let page = html::replay_page(path, "", &playback);
        std::fs::write(out.join(format!("{stem}.html")), page).unwrap();
        insta::assert_snapshot!(path.replace('/', "_"), picture);
    }
}

#[test]
fn bloxorz_labels_switches_and_shows_both_cubes_after_a_split() {
    let level = level(&level_path("bloxorz", "level09"));
    let playback = solved(&*level);
    let texts = svg_texts(&svg::picture(&playback));
    for label in ["t1", "l1", "l2"] {
        assert!(texts.contains(&label.to_string()), "{label}");
    }
    // Teleport t1 has an arrow to each landing cell.
    let start = &playback.frames[0].scene;
    assert_eq!(start.links.len(), 2);
    let split = playback
        .frames
        .iter()
        .find(|frame| frame.scene.pieces.len() == 2)
        .expect("the block splits");
    assert!(
        split
            .scene
            .pieces
            .iter()
            .all(|piece| piece.cells.len() == 1)
    );
    // A switch and its bridge: level 2's W switches drive x bridges.
    let level = level_with_switch();
    let scene = &solved(&*level).frames[0].scene;
    assert!(!scene.links.is_empty());
    assert!(
        scene
            .cells
            .iter()
            .any(|look| look.name == "bridge (missing)")
    );
}

fn level_with_switch() -> Box<dyn AnyLevel> {
    level(&level_path("bloxorz", "level02"))
}

#[test]
fn hugmaze_pairs_plates_and_gates_and_opens_gates_as_the_state_does() {
    let level = level(&level_path("hugmaze", "17-article-example"));
    let playback = solved(&*level);
    let start = &playback.frames[0].scene;
    // Each plate (p, q) links to its gate (P, Q).
    for link in &start.links {
        let plate = start.look(link.from.0, link.from.1).label.clone().unwrap();
        let gate = start.look(link.to.0, link.to.1).label.clone().unwrap();
        assert_eq!(plate.to_uppercase(), gate);
    }
    assert_eq!(start.links.len(), 2);
    let shut = |frame: &puzzle_qa_core::picture::Frame| {
        frame
            .scene
            .cells
            .iter()
            .filter(|look| look.name == "gate (shut)")
            .count()
    };
    assert_eq!(shut(&playback.frames[0]), 2);
    assert!(
        playback.frames.iter().any(|frame| shut(frame) < 2),
        "a gate opens on the way"
    );
}

#[test]
fn snackrun_draws_each_jump_as_an_arc() {
    let level = level(&level_path("snackrun", "02-springboard"));
    let playback = solved(&*level);
    assert!(
        playback.frames.iter().any(|frame| frame.trail.len() >= 2),
        "a jump passes through cells between its start and end"
    );
    let texts = svg_texts(&svg::picture(&playback));
    assert!(texts.contains(&"spring".to_string()));
}

#[test]
fn an_html_replay_has_a_frame_and_a_move_per_step_and_no_outside_links() {
    for path in &levels() {
        let playback = solved(&*level(path));
        let page = html::replay_page(path, "", &playback);
        assert_eq!(
            page.matches("<g class=\"frame\"").count(),
            playback.frames.len()
        );
        assert_eq!(
            page.matches("<span class=\"move\">").count(),
            playback.moves()
        );
        assert!(
            !page.contains("src=\"http") && !page.contains("href=\"http"),
            "{path}"
        );
        assert!(page.contains(&format!("0 / {}", playback.moves())));
    }
}

#[test]
fn given_moves_are_drawn_and_a_refused_one_stops_the_replay() {
    let level = level(&level_path("bloxorz", "level01"));
    let playback = level.playback("R2 D R3 D").unwrap().unwrap();
    assert!(playback.won);
    assert_eq!(playback.moves(), 7);
    let refused = level.playback("U U U").unwrap().unwrap();
    assert!(!refused.won);
    assert!(refused.refused.is_some());
    assert_eq!(ascii::grid(&playback.frames[0].scene).lines().count(), 6);
}

#[test]
fn show_prints_the_level_and_each_step_in_the_terminal() {
    let output =
        crate::support::in_fixture_project(&["show", "--step", &level_path("bloxorz", "level01")]);
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!(crate::support::stdout(&output));
}

#[test]
fn the_html_report_puts_failures_first_and_shows_an_old_and_a_new_solution_side_by_side_with_the_accept_command()
 {
    let root = Project::new();
    // The par is wrong and the solution is the published one, not the one
    // the solver finds: the par check fails.
    root.copy_level("bloxorz", "level01");
    root.expectation(
        "bloxorz",
        "level01",
        "status = \"solved\"\npar = 8\nsolution = \"R2 D R3 D\"\n",
    );
    root.copy_level("bloxorz", "level02");
    root.copy_expectation("bloxorz", "level02");
    let out = root.join("report");
    let output = root
        .command(&["check", root.path().to_str().unwrap(), "--html"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "level01's par check fails");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let first = index.find("bloxorz::level01").unwrap();
    assert!(
        first < index.find("bloxorz::level02").unwrap(),
        "failures first"
    );
    // A stale par is shown as the terminal shows it: stale, not FAIL.
    assert!(
        index.contains("par <span class=\"stale\">stale</span>"),
        "{index}"
    );
    assert!(!index.contains("FAIL"), "{index}");
    let page = std::fs::read_to_string(out.join("bloxorz/level01.html")).unwrap();
    assert!(
        page.contains("id=\"old\"") && page.contains("id=\"new\""),
        "{page}"
    );
    assert!(page.contains("par is stale"), "{page}");
    // The command that accepts it (its change is pending beside the
    // expectations), with a button that copies it.
    assert!(
        page.contains(
            "<code>puzzle-qa review --accept bloxorz::level01</code> <button type=\"button\" \
             onclick=\"copyCommand(this)\">copy</button>"
        ),
        "{page}"
    );
    assert!(root.exists(&format!(
        "{}.pending",
        crate::support::expectation_path("bloxorz", "level01")
    )));
    let passing = std::fs::read_to_string(out.join("bloxorz/level02.html")).unwrap();
    assert!(!passing.contains("id=\"old\"") && passing.contains("id=\"replay\""));
}

#[test]
fn a_replays_changed_cells_are_drawn_under_the_path_and_its_pieces_over_it() {
    for path in &levels() {
        let playback = solved(&*level(path));
        let page = html::replay_page(path, "", &playback);
        let svg = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap() + 6];
        let document = roxmltree::Document::parse(svg).unwrap();
        // The groups in drawing order, by class: later is on top.
        let order: Vec<&str> = document
            .root_element()
            .children()
            .filter_map(|node| node.attribute("class"))
            .collect();
        let path_at = order.iter().position(|&class| class == "path").unwrap();
        let at = |wanted: &str| -> Vec<usize> {
            order
                .iter()
                .enumerate()
                .filter(|(_, class)| **class == wanted)
                .map(|(index, _)| index)
                .collect()
        };
        // Whatever cells a frame redraws lie under every step's mark; its
        // pieces stand over them, as in the SVG of `show`.
        let (cells, pieces) = (at("frame"), at("frame-pieces"));
        assert_eq!(cells.len(), playback.frames.len(), "{path}");
        assert_eq!(pieces.len(), playback.frames.len(), "{path}");
        assert!(
            cells.iter().all(|&index| index < path_at),
            "{path}: {order:?}"
        );
        assert!(
            pieces.iter().all(|&index| index > path_at),
            "{path}: {order:?}"
        );
    }
}

/// The picture fixture game whose solutions press `X`, whose open door has
/// no legend character, and whose level 2 cannot be won, copied to a
/// folder of its own (`check` writes beside it).
fn lever() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        repository().join("crates/puzzlescript/tests/fixtures/pictures/lever.txt"),
        dir.path().join("lever.txt"),
    )
    .unwrap();
    dir
}

#[test]
fn a_level_without_a_win_says_why_in_shows_text_svg_and_html_and_in_the_report() {
    let dir = lever();
    let (svg, html) = (dir.path().join("l2.svg"), dir.path().join("l2.html"));
    let unsolvable = "unsolvable: no sequence of moves wins this level (6 states explored)";
    let out = puzzle_qa_in(dir.path(), &["show", "lever.txt", "--level", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with(&format!(
            "key: # wall, . background, G goal, P player\n{unsolvable}\n"
        )),
        "{}",
        stdout(&out)
    );
    let out = puzzle_qa_in(
        dir.path(),
        &[
            "show",
            "lever.txt",
            "--level",
            "2",
            "--svg",
            "l2.svg",
            "--html",
            "l2.html",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = |text: &str| svg_texts(text).join(" ").contains(unsolvable);
    assert!(said(&std::fs::read_to_string(&svg).unwrap()));
    let page = std::fs::read_to_string(&html).unwrap();
    let picture = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap() + 6];
    assert!(said(picture), "{picture}");
    // Under the replay, the page says it too, not that the moves end
    // before a win.
    assert!(
        page.contains(&format!("<p class=\"stale\">{unsolvable}</p>")),
        "{page}"
    );
    assert!(!page.contains("the moves end before"), "{page}");
    // A search stopped at its limit decided nothing, and says so.
    let out = puzzle_qa_in(
        dir.path(),
        &["show", "lever.txt", "--level", "1", "--limit", "3"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // What it kept, in between, depends on the game's state encoding.
    let last = stdout(&out).lines().last().unwrap_or_default().to_string();
    assert!(
        last.starts_with("not decided: the search stopped at its state limit (3 states stored, ")
            && last.ends_with(
                "a state) without finding a win or proving there is none (raise --limit)"
            ),
        "{}",
        stdout(&out)
    );
    // The report's page of the level says it as `show` does.
    let out = puzzle_qa_in(dir.path(), &["check", "lever.txt", "--html", "report"]);
    assert!(
        out.status.code().is_some_and(|code| code <= 1),
        "{}",
        stderr(&out)
    );
    let page =
        std::fs::read_to_string(dir.path().join("report/puzzlescript/lever-2.html")).unwrap();
    assert!(
        page.contains(&format!("<p class=\"stale\">{unsolvable}</p>")),
        "{page}"
    );
    let solved =
        std::fs::read_to_string(dir.path().join("report/puzzlescript/lever-1.html")).unwrap();
    assert!(!solved.contains("class=\"unsolved\""), "{solved}");
}

#[test]
fn replay_draws_an_object_without_a_legend_character_by_a_letter_of_its_name_and_keys_it() {
    let dir = lever();
    let args = ["replay", "lever.txt", "--level", "1", "--moves", "RRXD"];
    let out = puzzle_qa_in(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!stdout(&out).contains('?'), "{}", stdout(&out));
    insta::assert_snapshot!(crate::support::transcript(&args, &out));
}
