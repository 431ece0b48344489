//! The harness's own tests: a tiny fixture project (`tests/fixtures/harness`)
//! copied to a temporary folder, broken in one way, and checked with settings
//! passed as values, so bless and the CI refusal are exercised whatever
//! environment this test process runs in. Failure messages are part of the
//! product, so they are snapshots (`tests/snapshots/`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use puzzle_qa::games::GAMES;
use puzzle_qa_core::harness::{Settings, Suite, Verdict};
use tempfile::TempDir;

const LEVEL: &str = "levels/bloxorz/hook.txt";
const EXPECTATIONS: &str = "expectations/bloxorz/hook.toml";

/// A fresh copy of the fixture project.
fn project() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/harness");
    copy_tree(&fixture, dir.path());
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

fn read(dir: &TempDir, file: &str) -> String {
    fs::read_to_string(dir.path().join(file)).unwrap()
}

fn write(dir: &TempDir, file: &str, text: &str) {
    let path: PathBuf = dir.path().join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Replaces the one occurrence of `from` in `file`.
fn edit(dir: &TempDir, file: &str, from: &str, to: &str) {
    let text = read(dir, file);
    assert_eq!(text.matches(from).count(), 1, "`{from}` in {file}");
    write(dir, file, &text.replacen(from, to, 1));
}

/// Opens a shortcut: the corner cell next to the start becomes floor.
fn open_shortcut(dir: &TempDir) {
    edit(dir, LEVEL, "p p p x x x\nx p p", "p p p p x x\nx p p");
}

fn settings(dir: &TempDir) -> Settings {
    Settings::new(dir.path(), GAMES)
}

fn blessing(dir: &TempDir) -> Settings {
    Settings {
        bless: true,
        ..settings(dir)
    }
}

fn verdicts(settings: Settings) -> BTreeMap<String, Verdict> {
    Suite::discover(settings).run().into_iter().collect()
}

/// Every failing trial with its message, as `cargo test` would list them.
fn failures(verdicts: &BTreeMap<String, Verdict>) -> String {
    verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, verdict)| {
            format!(
                "---- {name} ----\n{}\n",
                verdict.message().unwrap_or_default()
            )
        })
        .collect()
}

fn failing(verdicts: &BTreeMap<String, Verdict>) -> Vec<&str> {
    verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, _)| name.as_str())
        .collect()
}

#[test]
fn the_fixture_passes_with_one_trial_per_level_and_check() {
    let dir = project();
    let verdicts = verdicts(settings(&dir));
    assert_eq!(
        verdicts.keys().map(String::as_str).collect::<Vec<_>>(),
        [
            "bloxorz::hook::ablation",
            "bloxorz::hook::par",
            "bloxorz::hook::parse",
            "bloxorz::hook::replay",
            "bloxorz::hook::routes",
            "bloxorz::hook::solvable",
            "orphans",
        ]
    );
    assert_eq!(failures(&verdicts), "");
}

#[test]
fn a_shortcut_fails_par_with_a_diff_and_bless_accepts_it_keeping_comments() {
    let dir = project();
    open_shortcut(&dir);
    let before = verdicts(settings(&dir));
    assert_eq!(
        failing(&before),
        [
            "bloxorz::hook::par",
            "bloxorz::hook::replay",
            "bloxorz::hook::routes"
        ]
    );
    let par = before["bloxorz::hook::par"].message().unwrap();
    assert!(
        par.contains("-par = 11 #") && par.contains("+par = 6 #"),
        "{par}"
    );
    assert!(matches!(
        before["bloxorz::hook::par"],
        Verdict::Stale { .. }
    ));
    insta::assert_snapshot!("shortcut", failures(&before));

    let blessed = verdicts(blessing(&dir));
    let written = read(&dir, EXPECTATIONS);
    insta::assert_snapshot!("shortcut_blessed", written);
    assert!(written.contains("par = 6 # five rolls to the corner"));
    assert_eq!(
        blessed["bloxorz::hook::par"].blessed(),
        ["par: 11 → 6".to_string()]
    );
    // The route is the designer's claim: bless never makes it pass.
    assert_eq!(failing(&blessed), ["bloxorz::hook::routes"]);

    // Blessing twice changes nothing the second time.
    let again = verdicts(blessing(&dir));
    assert_eq!(read(&dir, EXPECTATIONS), written);
    assert!(again.values().all(|verdict| verdict.blessed().is_empty()));
    assert_eq!(
        failing(&verdicts(settings(&dir))),
        ["bloxorz::hook::routes"]
    );
}

#[test]
fn bless_is_refused_in_ci_and_writes_nothing() {
    let dir = project();
    open_shortcut(&dir);
    let original = read(&dir, EXPECTATIONS);
    let ci = Settings {
        ci: true,
        ..blessing(&dir)
    };
    let verdicts = verdicts(ci);
    assert_eq!(read(&dir, EXPECTATIONS), original);
    assert!(
        verdicts
            .values()
            .all(|verdict| verdict.blessed().is_empty())
    );
    let par = verdicts["bloxorz::hook::par"].message().unwrap();
    assert!(par.contains("bless refused"), "{par}");
    insta::assert_snapshot!("refused_in_ci", par);
}

#[test]
fn a_missing_expectation_is_a_new_level_until_blessed() {
    let dir = project();
    fs::remove_file(dir.path().join(EXPECTATIONS)).unwrap();
    let before = verdicts(settings(&dir));
    assert_eq!(
        failing(&before),
        [
            "bloxorz::hook::par",
            "bloxorz::hook::replay",
            "bloxorz::hook::solvable",
            "orphans"
        ]
    );
    let par = before["bloxorz::hook::par"].message().unwrap();
    assert!(
        par.starts_with("new level: run `BLESS=1 cargo test -- bloxorz::hook`"),
        "{par}"
    );
    insta::assert_snapshot!("missing_expectation", failures(&before));

    verdicts(blessing(&dir));
    assert_eq!(
        read(&dir, EXPECTATIONS),
        "status = \"solved\"\npar = 11\nsolution = \"R D2 R2 D2 L U R D\"\n"
    );
    assert_eq!(failures(&verdicts(settings(&dir))), "");
}

#[test]
fn an_orphan_expectation_and_an_unknown_game_folder_fail_orphans() {
    let dir = project();
    write(&dir, "expectations/bloxorz/ghost.toml", "par = 3\n");
    write(&dir, "levels/chess/opening.txt", "e4\n");
    let verdicts = verdicts(settings(&dir));
    assert_eq!(failing(&verdicts), ["orphans"]);
    insta::assert_snapshot!("orphans", failures(&verdicts));
}

#[test]
fn a_broken_route_fails_routes() {
    let dir = project();
    edit(
        &dir,
        EXPECTATIONS,
        "moves = \"R D2 R2 D2 L U R D\"",
        "moves = \"R D2 R2 D2 L U R D D\"",
    );
    edit(
        &dir,
        EXPECTATIONS,
        "name = \"around\"",
        "name = \"long way\"",
    );
    let text = read(&dir, EXPECTATIONS);
    write(
        &dir,
        EXPECTATIONS,
        &format!("{text}\n[[routes]]\nname = \"off the edge\"\nmoves = \"L\"\n"),
    );
    let verdicts = verdicts(settings(&dir));
    assert_eq!(failing(&verdicts), ["bloxorz::hook::routes"]);
    insta::assert_snapshot!("broken_route", failures(&verdicts));
}

#[test]
fn a_route_above_par_is_noted_and_fails_only_when_marked_optimal() {
    let dir = project();
    let text = read(&dir, EXPECTATIONS);
    write(
        &dir,
        EXPECTATIONS,
        &format!("{text}\n[[routes]]\nname = \"detour\"\nmoves = \"R L R D2 R2 D2 L U R D\"\n"),
    );
    let relaxed = verdicts(settings(&dir));
    assert_eq!(failures(&relaxed), "");
    assert_eq!(
        relaxed["bloxorz::hook::routes"].message().as_deref(),
        Some("route `detour` is 2 moves above par (11)")
    );
    write(
        &dir,
        EXPECTATIONS,
        &format!("{}optimal = true\n", read(&dir, EXPECTATIONS)),
    );
    let strict = verdicts(settings(&dir));
    assert_eq!(failing(&strict), ["bloxorz::hook::routes"]);
}

#[test]
fn an_unknown_key_fails_parse_with_its_line_and_column() {
    let dir = project();
    edit(&dir, EXPECTATIONS, "notes = ", "nots = ");
    edit(
        &dir,
        EXPECTATIONS,
        "optimal = true",
        "optimal = true\nrolls = 11",
    );
    let verdicts = verdicts(settings(&dir));
    assert_eq!(
        failing(&verdicts),
        ["bloxorz::hook::parse", "bloxorz::hook::routes"]
    );
    let parse = verdicts["bloxorz::hook::parse"].message().unwrap();
    assert!(
        parse.contains("--> expectations/bloxorz/hook.toml:4:1"),
        "{parse}"
    );
    insta::assert_snapshot!("unknown_key", failures(&verdicts));
}

#[test]
fn toml_syntax_and_type_errors_point_at_the_text() {
    let dir = project();
    edit(
        &dir,
        EXPECTATIONS,
        "status = \"solved\"",
        "status = \"solved",
    );
    let syntax = verdicts(settings(&dir));
    let parse = syntax["bloxorz::hook::parse"].message().unwrap();
    assert!(
        parse.contains("expectations/bloxorz/hook.toml:1:"),
        "{parse}"
    );
    // The other checks point at `parse` instead of repeating the error.
    let par = syntax["bloxorz::hook::par"].message().unwrap();
    assert!(par.contains("see `bloxorz::hook::parse`"), "{par}");

    let dir = project();
    edit(&dir, EXPECTATIONS, "par = 11", "limit = \"lots\"\npar = 11");
    let typed = verdicts(settings(&dir));
    insta::assert_snapshot!(
        "wrong_type",
        typed["bloxorz::hook::parse"].message().unwrap()
    );
}

#[test]
fn a_level_that_does_not_parse_fails_parse_and_the_others_point_at_it() {
    let dir = project();
    edit(&dir, LEVEL, "x p p p p p", "x p p q p p");
    let verdicts = verdicts(settings(&dir));
    insta::assert_snapshot!("level_does_not_parse", failures(&verdicts));
}

#[test]
fn verdicts_are_the_same_whatever_the_thread_count() {
    let dir = project();
    open_shortcut(&dir);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| verdicts(settings(&dir)))
    };
    assert_eq!(run(1), run(4));
}

/// A one-dimensional game whose `moves` deliberately forgets the two-cell
/// jump that `step` accepts: its solver misses wins a replay finds, which is
/// exactly the solver bug the `routes` check must catch.
mod hop {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use puzzle_qa_core::checks::SEARCH;
    use puzzle_qa_core::diagnostic::Diagnostic;
    use puzzle_qa_core::game::{Cost, Game, NotationError};
    use puzzle_qa_core::harness::GameChecks;
    use puzzle_qa_core::level::Loaded;

    pub struct Hop {
        length: u32,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Move {
        Step,
        Jump,
    }

    impl Game for Hop {
        type State = u32;
        type Key = u32;
        type Move = Move;
        type Refusal = &'static str;

        fn start(&self) -> u32 {
            0
        }

        fn key(&self, state: &u32) -> u32 {
            *state
        }

        fn is_won(&self, state: &u32) -> bool {
            *state == self.length
        }

        fn moves(&self, _: &u32) -> impl Iterator<Item = Move> {
            [Move::Step].into_iter()
        }

        fn step(&self, state: &u32, mv: Move) -> Result<(u32, Cost), &'static str> {
            let next = state + if mv == Move::Step { 1 } else { 2 };
            if next > self.length {
                Err("off the end")
            } else {
                Ok((next, 1))
            }
        }

        fn format_moves(&self, moves: &[Move]) -> String {
            let letter = |mv: &Move| if *mv == Move::Step { "s" } else { "j" };
            moves.iter().map(letter).collect::<Vec<_>>().join(" ")
        }

        fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
            text.split_whitespace()
                .map(|token| match token {
                    "s" => Ok(Move::Step),
                    "j" => Ok(Move::Jump),
                    _ => Err(NotationError::new(1, format!("unknown move `{token}`"))),
                })
                .collect()
        }
    }

    pub static LOADS: AtomicUsize = AtomicUsize::new(0);

    fn load(text: &str) -> Result<Loaded, Diagnostic> {
        LOADS.fetch_add(1, Ordering::SeqCst);
        let length = text
            .trim()
            .parse()
            .map_err(|_| Diagnostic::error("expected a length").at(1, 1, 1))?;
        Ok(Loaded::new(Hop { length }, Vec::new()))
    }

    pub static GAMES: &[GameChecks] = &[GameChecks {
        name: "hop",
        extension: "txt",
        load,
        checks: SEARCH,
    }];
}

#[test]
fn a_route_below_par_is_a_solver_bug_and_fails_loudly() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir, "levels/hop/five.txt", "5\n");
    let hop = Settings::new(dir.path(), hop::GAMES);
    verdicts(Settings {
        bless: true,
        ..hop.clone()
    });
    assert_eq!(
        read(&dir, "expectations/hop/five.toml"),
        "status = \"solved\"\npar = 5\nsolution = \"s s s s s\"\n"
    );
    let text = read(&dir, "expectations/hop/five.toml");
    write(
        &dir,
        "expectations/hop/five.toml",
        &format!("{text}\n[[routes]]\nname = \"jumps\"\nmoves = \"j j s\"\n"),
    );
    let verdicts = verdicts(hop);
    assert_eq!(failing(&verdicts), ["hop::five::routes"]);
    insta::assert_snapshot!("route_below_par", failures(&verdicts));
}

#[test]
fn listing_trials_parses_nothing_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir, "levels/hop/a.txt", "not a number\n");
    write(&dir, "levels/hop/b.txt", "3\n");
    let settings = Settings::new(dir.path(), hop::GAMES);
    let list = libtest_mimic::Arguments::from_iter(["levels", "--list"]);
    let loads = hop::LOADS.load(std::sync::atomic::Ordering::SeqCst);
    let conclusion = puzzle_qa_core::harness::run(&list, settings.clone());
    assert_eq!(conclusion.num_passed + conclusion.num_failed, 0);
    assert_eq!(hop::LOADS.load(std::sync::atomic::Ordering::SeqCst), loads);
    assert!(!dir.path().join("expectations").exists());
    assert_eq!(
        Suite::discover(settings.clone()).trial_names(),
        Suite::discover(settings).trial_names()
    );
}

#[test]
fn filters_select_trials_as_libtest_does() {
    let dir = project();
    let run = |args: &[&str]| {
        let args = libtest_mimic::Arguments::from_iter(
            std::iter::once("levels").chain(args.iter().copied()),
        );
        puzzle_qa_core::harness::run(&args, settings(&dir))
    };
    let one = run(&["bloxorz::hook::par", "--exact"]);
    assert_eq!((one.num_passed, one.num_filtered_out), (1, 6));
    let level = run(&["bloxorz::hook"]);
    assert_eq!((level.num_passed, level.num_filtered_out), (6, 1));
    let skipped = run(&["--skip", "routes"]);
    assert_eq!((skipped.num_passed, skipped.num_filtered_out), (6, 1));
}

#[test]
fn a_stored_solution_that_still_wins_at_par_is_kept_as_written() {
    let dir = project();
    edit(
        &dir,
        EXPECTATIONS,
        "solution = \"R D2 R2 D2 L U R D\"",
        "solution = \"R D D R R D D L U R D\"",
    );
    let text = read(&dir, EXPECTATIONS);
    assert_eq!(failures(&verdicts(settings(&dir))), "");
    verdicts(blessing(&dir));
    assert_eq!(read(&dir, EXPECTATIONS), text);
}

#[test]
fn a_level_over_its_state_limit_fails_solvable_and_bless_cannot_hide_it() {
    let dir = project();
    edit(&dir, EXPECTATIONS, "notes = ", "limit = 5\nnotes = ");
    let text = read(&dir, EXPECTATIONS);
    let verdicts = verdicts(blessing(&dir));
    assert_eq!(read(&dir, EXPECTATIONS), text);
    assert_eq!(
        failing(&verdicts),
        [
            "bloxorz::hook::ablation",
            "bloxorz::hook::par",
            "bloxorz::hook::replay",
            "bloxorz::hook::solvable"
        ]
    );
    insta::assert_snapshot!("state_limit", failures(&verdicts));
}

#[test]
fn the_blessed_document_is_what_bless_then_writes_and_nothing_is_written_before() {
    let dir = project();
    open_shortcut(&dir);
    let before = read(&dir, EXPECTATIONS);
    let suite = Suite::discover(settings(&dir));
    let run = suite.run();
    assert!(
        run.iter()
            .any(|(_, verdict)| matches!(verdict, Verdict::Stale { .. }))
    );
    let proposed = suite.subjects()[0].blessed_text().unwrap();
    assert_ne!(proposed, before, "the shortcut changes par and solution");
    assert_eq!(read(&dir, EXPECTATIONS), before, "nothing written yet");
    verdicts(blessing(&dir));
    assert_eq!(read(&dir, EXPECTATIONS), proposed);
}
