//! The harness's own tests: a tiny fixture project (`tests/fixtures/harness`)
//! copied to a temporary folder, broken in one way, and checked with settings
//! passed as values, so bless and the CI refusal are exercised whatever
//! environment this test process runs in. Failure messages are part of the
//! product, so they are snapshots (`tests/it/snapshots/`).

use std::collections::BTreeMap;

use puzzle_qa_core::_cli_support::harness::{Settings, Suite, Verdict};

use crate::support::{Project, expectation_path, failing, failures, level_path};

/// The fixture's level, as a path in the project.
fn level() -> String {
    level_path("bloxorz", "hook")
}

/// The fixture's expectations, as a path in the project.
fn expectations() -> String {
    expectation_path("bloxorz", "hook")
}

/// A fresh copy of the fixture project.
fn project() -> Project {
    Project::copy_of("harness")
}

/// Opens a shortcut: the corner cell next to the start becomes floor.
fn open_shortcut(project: &Project) {
    project.edit(&level(), "p p p x x x\nx p p", "p p p p x x\nx p p");
}

fn settings(project: &Project) -> Settings {
    project.settings()
}

fn blessing(project: &Project) -> Settings {
    Settings {
        bless: true,
        ..settings(project)
    }
}

fn verdicts(settings: Settings) -> BTreeMap<String, Verdict> {
    crate::support::verdicts(settings)
}

#[test]
fn the_fixture_passes_with_one_trial_per_level_and_check() {
    let project = project();
    let verdicts = verdicts(settings(&project));
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
    let project = project();
    open_shortcut(&project);
    let before = verdicts(settings(&project));
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

    let blessed = verdicts(blessing(&project));
    let written = project.read(&expectations());
    insta::assert_snapshot!("shortcut_blessed", written);
    assert!(written.contains("par = 6 # five rolls to the corner"));
    assert_eq!(
        blessed["bloxorz::hook::par"].blessed(),
        ["par: 11 → 6".to_string()]
    );
    // The route is the designer's claim: bless never makes it pass.
    assert_eq!(failing(&blessed), ["bloxorz::hook::routes"]);

    // Blessing twice changes nothing the second time.
    let again = verdicts(blessing(&project));
    assert_eq!(project.read(&expectations()), written);
    assert!(again.values().all(|verdict| verdict.blessed().is_empty()));
    assert_eq!(
        failing(&verdicts(settings(&project))),
        ["bloxorz::hook::routes"]
    );
}

#[test]
fn bless_is_refused_in_ci_and_writes_nothing() {
    let project = project();
    open_shortcut(&project);
    let original = project.read(&expectations());
    let ci = Settings {
        ci: true,
        ..blessing(&project)
    };
    let verdicts = verdicts(ci);
    assert_eq!(project.read(&expectations()), original);
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
    let project = project();
    project.remove(&expectations());
    let before = verdicts(settings(&project));
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
        par.starts_with("new level: run `BLESS=1 cargo test -- bloxorz::hook::`"),
        "{par}"
    );
    insta::assert_snapshot!("missing_expectation", failures(&before));

    verdicts(blessing(&project));
    assert_eq!(
        project.read(&expectations()),
        "status = \"solved\"\npar = 11\nsolution = \"R D2 R2 D2 L U R D\"\n"
    );
    assert_eq!(failures(&verdicts(settings(&project))), "");
}

#[test]
fn an_orphan_expectation_and_an_unknown_game_folder_fail_orphans() {
    let project = project();
    project.expectation("bloxorz", "ghost", "par = 3\n");
    project.level("chess", "opening", "e4\n");
    let verdicts = verdicts(settings(&project));
    assert_eq!(failing(&verdicts), ["orphans"]);
    insta::assert_snapshot!("orphans", failures(&verdicts));
}

#[test]
fn a_broken_route_fails_routes() {
    let project = project();
    project.edit(
        &expectations(),
        "moves = \"R D2 R2 D2 L U R D\"",
        "moves = \"R D2 R2 D2 L U R D D\"",
    );
    project.edit(&expectations(), "name = \"around\"", "name = \"long way\"");
    let text = project.read(&expectations());
    project.write(
        &expectations(),
        format!("{text}\n[[routes]]\nname = \"off the edge\"\nmoves = \"L\"\n"),
    );
    let verdicts = verdicts(settings(&project));
    assert_eq!(failing(&verdicts), ["bloxorz::hook::routes"]);
    insta::assert_snapshot!("broken_route", failures(&verdicts));
}

#[test]
fn a_route_above_par_is_noted_and_fails_only_when_marked_optimal() {
    let project = project();
    let text = project.read(&expectations());
    project.write(
        &expectations(),
        format!("{text}\n[[routes]]\nname = \"detour\"\nmoves = \"R L R D2 R2 D2 L U R D\"\n"),
    );
    let relaxed = verdicts(settings(&project));
    assert_eq!(failures(&relaxed), "");
    assert_eq!(
        relaxed["bloxorz::hook::routes"].message().as_deref(),
        Some("route `detour` is 2 moves above par (11)")
    );
    project.write(
        &expectations(),
        format!("{}optimal = true\n", project.read(&expectations())),
    );
    let strict = verdicts(settings(&project));
    assert_eq!(failing(&strict), ["bloxorz::hook::routes"]);
}

#[test]
fn an_unknown_key_fails_parse_with_its_line_and_column() {
    let project = project();
    project.edit(&expectations(), "notes = ", "nots = ");
    project.edit(
        &expectations(),
        "optimal = true",
        "optimal = true\nrolls = 11",
    );
    let verdicts = verdicts(settings(&project));
    assert_eq!(
        failing(&verdicts),
        ["bloxorz::hook::parse", "bloxorz::hook::routes"]
    );
    let parse = verdicts["bloxorz::hook::parse"].message().unwrap();
    assert!(
        parse.contains(&format!("--> {}:4:1", expectations())),
        "{parse}"
    );
    insta::assert_snapshot!("unknown_key", failures(&verdicts));
}

#[test]
fn toml_syntax_and_type_errors_point_at_the_text() {
    let project = project();
    project.edit(&expectations(), "status = \"solved\"", "status = \"solved");
    let syntax = verdicts(settings(&project));
    let parse = syntax["bloxorz::hook::parse"].message().unwrap();
    assert!(parse.contains(&format!("{}:1:", expectations())), "{parse}");
    // The other checks point at `parse` instead of repeating the error.
    let par = syntax["bloxorz::hook::par"].message().unwrap();
    assert!(par.contains("see `bloxorz::hook::parse`"), "{par}");

    let other = self::project();
    other.edit(&expectations(), "par = 11", "limit = \"lots\"\npar = 11");
    let typed = verdicts(settings(&other));
    insta::assert_snapshot!(
        "wrong_type",
        typed["bloxorz::hook::parse"].message().unwrap()
    );
}

#[test]
fn a_level_that_does_not_parse_fails_parse_and_the_others_point_at_it() {
    let project = project();
    project.edit(&level(), "x p p p p p", "x p p q p p");
    let verdicts = verdicts(settings(&project));
    insta::assert_snapshot!("level_does_not_parse", failures(&verdicts));
}

#[test]
fn verdicts_are_the_same_whatever_the_thread_count() {
    let project = project();
    open_shortcut(&project);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| verdicts(settings(&project)))
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

    pub static GAMES: &[GameChecks] = &[GameChecks::new("hop", "txt", &load, SEARCH)];
}

#[test]
fn a_route_below_par_is_a_solver_bug_and_fails_loudly() {
    let project = Project::new();
    project.level("hop", "five", "5\n");
    let five = expectation_path("hop", "five");
    let hop = Settings::new(project.path(), hop::GAMES);
    verdicts(Settings {
        bless: true,
        ..hop.clone()
    });
    assert_eq!(
        project.read(&five),
        "status = \"solved\"\npar = 5\nsolution = \"s s s s s\"\n"
    );
    let text = project.read(&five);
    project.write(
        &five,
        format!("{text}\n[[routes]]\nname = \"jumps\"\nmoves = \"j j s\"\n"),
    );
    let verdicts = verdicts(hop);
    assert_eq!(failing(&verdicts), ["hop::five::routes"]);
    insta::assert_snapshot!("route_below_par", failures(&verdicts));
}

#[test]
fn listing_trials_parses_nothing_and_runs_nothing() {
    let project = Project::new();
    project.level("hop", "a", "not a number\n");
    project.level("hop", "b", "3\n");
    let settings = Settings::new(project.path(), hop::GAMES);
    let list = libtest_mimic::Arguments::from_iter(["levels", "--list"]);
    let loads = hop::LOADS.load(std::sync::atomic::Ordering::SeqCst);
    let conclusion = puzzle_qa_core::_cli_support::harness::run(&list, settings.clone());
    assert_eq!(conclusion.num_passed + conclusion.num_failed, 0);
    assert_eq!(hop::LOADS.load(std::sync::atomic::Ordering::SeqCst), loads);
    // No expectation file, nor a game folder for one, was made.
    assert!(project.listing("expectations").is_empty());
    assert_eq!(
        Suite::discover(settings.clone()).trial_names(),
        Suite::discover(settings).trial_names()
    );
}

/// The `cargo test` arguments of the command a message suggests after
/// `lead` (`to accept: `, `new level: run `).
fn suggested_args(message: &str, lead: &str) -> Vec<String> {
    let command = message
        .split(lead)
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no `{lead}` in {message}"));
    let (_, args) = command
        .split_once("BLESS=1 cargo test -- ")
        .unwrap_or_else(|| panic!("not a bless under cargo test: {command}"));
    args.split(' ').map(str::to_string).collect()
}

#[test]
fn the_bless_a_failure_suggests_runs_exactly_the_trials_it_names() {
    let project = project();
    // A second level whose name starts as the first's does.
    project.write(&level_path("bloxorz", "hook2"), project.read(&level()));
    project.write(
        &expectation_path("bloxorz", "hook2"),
        project.read(&expectations()),
    );
    open_shortcut(&project);
    let run = |args: &[String]| {
        let args = libtest_mimic::Arguments::from_iter(
            std::iter::once("levels").chain(args.iter().map(String::as_str)),
        );
        puzzle_qa_core::_cli_support::harness::run(&args, blessing(&project))
    };
    // `par`, and not `parse` beside it.
    let before = verdicts(settings(&project));
    let args = suggested_args(
        &before["bloxorz::hook::par"].message().unwrap(),
        "to accept: `",
    );
    assert_eq!(args, ["--exact", "bloxorz::hook::par"]);
    let ran = run(&args);
    assert_eq!((ran.num_passed, ran.num_failed), (1, 0));
    let after = verdicts(settings(&project));
    assert_eq!(
        failing(&after),
        ["bloxorz::hook::replay", "bloxorz::hook::routes"]
    );
    // A new level: its trials, and not those of `hook2`.
    project.remove(&expectations());
    let before = verdicts(settings(&project));
    let args = suggested_args(
        &before["bloxorz::hook::par"].message().unwrap(),
        "new level: run `",
    );
    assert_eq!(args, ["bloxorz::hook::"]);
    let ran = run(&args);
    assert_eq!(ran.num_filtered_out, 7, "hook2's six trials and orphans");
    assert!(project.exists(&expectations()));
}

#[test]
fn filters_select_trials_as_libtest_does() {
    let project = project();
    let run = |args: &[&str]| {
        let args = libtest_mimic::Arguments::from_iter(
            std::iter::once("levels").chain(args.iter().copied()),
        );
        puzzle_qa_core::_cli_support::harness::run(&args, settings(&project))
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
    let project = project();
    project.edit(
        &expectations(),
        "solution = \"R D2 R2 D2 L U R D\"",
        "solution = \"R D D R R D D L U R D\"",
    );
    let text = project.read(&expectations());
    assert_eq!(failures(&verdicts(settings(&project))), "");
    verdicts(blessing(&project));
    assert_eq!(project.read(&expectations()), text);
}

#[test]
fn a_level_over_its_state_limit_fails_solvable_and_bless_cannot_hide_it() {
    let project = project();
    project.edit(&expectations(), "notes = ", "limit = 5\nnotes = ");
    let text = project.read(&expectations());
    let verdicts = verdicts(blessing(&project));
    assert_eq!(project.read(&expectations()), text);
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
fn the_blessed_text_is_what_bless_then_writes_and_nothing_is_written_before() {
    let project = project();
    open_shortcut(&project);
    let before = project.read(&expectations());
    let suite = Suite::discover(settings(&project));
    let run = suite.run();
    assert!(
        run.iter()
            .any(|(_, verdict)| matches!(verdict, Verdict::Stale { .. }))
    );
    let proposed = suite.subjects()[0].blessed_text().unwrap();
    assert_ne!(proposed, before, "the shortcut changes par and solution");
    assert_eq!(project.read(&expectations()), before, "nothing written yet");
    verdicts(blessing(&project));
    assert_eq!(project.read(&expectations()), proposed);
}
