//! Bad input, every kind we could think of, and what the user is told.
//!
//! `tests/fixtures/bad/<game>/*.txt` are level files that must each give an
//! error or a warning (never a panic, never silence), rendered exactly as a
//! user sees it; the messages are snapshots, one per fixture
//! (`insta::glob!`, in `tests/it/snapshots/`), because they are part of the
//! product. Every fixture is also fed to every other game's parser, which
//! must not panic either. `tests/fixtures/bad/expectations/*.toml` are
//! broken expectation files, checked through the harness beside a good
//! level. Inputs too big to commit are made here.

use std::fs;
use std::path::Path;

use puzzle_qa::games::BUILT_IN as GAMES;
use puzzle_qa_core::_cli_support::harness::Suite;
use puzzle_qa_core::_cli_support::level::read_level;
use puzzle_qa_core::harness::GameChecks;

use crate::support::{self, Project, expectation_path};

fn game(name: &str) -> &'static GameChecks {
    puzzle_qa::games::find(name).unwrap()
}

/// What a user sees for a level file: the rendered error, or the rendered
/// warnings ("" if it loads cleanly).
fn messages(path: &Path, shown: &str, game: &GameChecks) -> Result<String, String> {
    let (text, loaded) = read_level(path, shown, game.load)?;
    Ok(loaded
        .warnings
        .iter()
        .map(|warning| warning.render(shown, &text))
        .collect())
}

/// One snapshot per file of `tests/fixtures/bad/<game_name>/`; how many.
fn snapshot_every_fixture(game_name: &str) -> usize {
    let mut files = 0;
    insta::glob!(format!("../fixtures/bad/{game_name}"), "*.txt", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let shown = format!("tests/fixtures/bad/{game_name}/{name}");
        let seen = match messages(path, &shown, game(game_name)) {
            Err(error) => error,
            Ok(warnings) => {
                assert!(!warnings.is_empty(), "{shown} loads without a word");
                warnings
            }
        };
        insta::assert_snapshot!(format!("bad_{game_name}"), seen);
        for other in GAMES {
            // Whatever it says, it must say it without panicking.
            let _ = messages(path, &shown, other);
        }
        files += 1;
    });
    files
}

#[test]
fn every_bad_bloxorz_file_is_refused_or_warned_about_where_it_goes_wrong() {
    assert!(snapshot_every_fixture("bloxorz") >= 15);
}

#[test]
fn every_bad_hugmaze_file_is_refused_or_warned_about_where_it_goes_wrong() {
    assert!(snapshot_every_fixture("hugmaze") >= 15);
}

#[test]
fn every_bad_snackrun_file_is_refused_or_warned_about_where_it_goes_wrong() {
    assert!(snapshot_every_fixture("snackrun") >= 15);
}

/// A level of `game` with `text` in a scratch file; its rendered result.
fn load_text(game_name: &str, text: &str) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.txt");
    fs::write(&path, text).unwrap();
    messages(&path, "level.txt", game(game_name))
}

#[test]
fn crlf_line_endings_and_a_byte_order_mark_are_accepted() {
    let bloxorz = "\u{feff}name: x\r\np s p e\r\n---\r\n";
    assert_eq!(load_text("bloxorz", bloxorz), Ok(String::new()));
    let hugmaze = "\u{feff}name: x\r\n#####\r\n#BHD#\r\n#####\r\n";
    assert_eq!(load_text("hugmaze", hugmaze), Ok(String::new()));
}

#[test]
fn a_ten_megabyte_file_is_refused_quickly_as_too_large() {
    let line = "p ".repeat(5 * 1024 * 1024);
    let error = load_text("bloxorz", &format!("s e\n{line}\n")).unwrap_err();
    assert!(
        error.contains("the grid is too large for the engine"),
        "{error}"
    );
    let line = ".".repeat(10 * 1024 * 1024);
    let error = load_text("hugmaze", &format!("BHD\n{line}\n")).unwrap_err();
    assert!(
        error.contains("the grid is too large for the engine"),
        "{error}"
    );
}

#[test]
fn a_thousand_by_thousand_grid_is_refused_as_too_large_for_the_state() {
    let mut bloxorz = String::from("s e");
    bloxorz.push_str(&" p".repeat(998));
    bloxorz.push('\n');
    bloxorz.push_str(&(("p ".repeat(999) + "p\n").repeat(999)));
    let error = load_text("bloxorz", &bloxorz).unwrap_err();
    insta::assert_snapshot!("bad_bloxorz__thousand_by_thousand", error);
    let mut hugmaze = String::from("BHD");
    hugmaze.push_str(&".".repeat(997));
    hugmaze.push('\n');
    hugmaze.push_str(&((".".repeat(1000) + "\n").repeat(999)));
    let error = load_text("hugmaze", &hugmaze).unwrap_err();
    insta::assert_snapshot!("bad_hugmaze__thousand_by_thousand", error);
}

#[test]
fn the_largest_grids_the_state_holds_are_parsed_and_solved_under_the_limit() {
    use puzzle_qa_core::search::{SearchOptions, Status};
    // Bloxorz, 250 × 250 = 62,500 cells: the start in one corner, the goal
    // in the other, plain tiles in between.
    let side = 250;
    let mut rows = vec![vec!["p"; side]; side];
    rows[0][0] = "s";
    rows[side - 1][side - 1] = "e";
    let text: String = rows.iter().map(|row| row.join(" ") + "\n").collect();
    let loaded = (game("bloxorz").load)(&text).unwrap();
    let solution = loaded.level.solve(SearchOptions::default());
    assert_eq!(solution.status, Status::Solved);
    // Hug Maze, 250 × 250 with walls but for one corridor each way: both
    // bears walk it to the heart.
    let mut grid = vec![vec!['#'; side]; side];
    for (col, cell) in grid[0].iter_mut().enumerate() {
        *cell = if col == side / 2 { 'H' } else { '.' };
    }
    grid[0][0] = 'B';
    grid[0][side - 1] = 'D';
    let text: String = grid
        .iter()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect();
    let loaded = (game("hugmaze").load)(&text).unwrap();
    let solution = loaded.level.solve(SearchOptions::default());
    assert_eq!(solution.par, Some(side as u32 - 1));
}

#[test]
fn too_many_switchable_names_for_the_mask_is_an_error() {
    let names: Vec<String> = (0..65).map(|i| format!("x{i}")).collect();
    let text = format!(
        "s W1 e {}\n---\nW1 toggles {}\n",
        names.join(" "),
        names.join(", ")
    );
    let error = load_text("bloxorz", &text).unwrap_err();
    assert!(error.contains("too many switchable tile names"), "{error}");
}

#[test]
fn every_broken_expectation_file_fails_its_level_with_line_and_column() {
    let mut files = 0;
    insta::glob!("../fixtures/bad/expectations", "*.toml", |path| {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let project = Project::new();
        project.level("bloxorz", "short", "s p p e\n");
        project.write(
            &expectation_path("bloxorz", "short"),
            fs::read(path).unwrap(),
        );
        // In the trials' order, as a run reports them.
        let run = Suite::discover(project.settings()).run();
        let failures = support::failures(run.iter().map(|(trial, verdict)| (trial, verdict)));
        assert!(!failures.is_empty(), "{stem} passed");
        insta::assert_snapshot!("bad_expectations", failures);
        files += 1;
    });
    assert!(files >= 8);
}
