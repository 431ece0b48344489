//! The level generator: what it writes parses, solves at the par it reports,
//! replays, and needs the mechanics it claims; a seed and a generation count
//! give the same level whatever the thread count; `puzzle-qa generate`
//! writes a level the suite passes at once.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use puzzle_qa::games;
use puzzle_qa_core::_cli_support::ablation;
use puzzle_qa_core::_cli_support::generate::{self as evolve, Budget, Generated};
use puzzle_qa_core::generate::{self, Target};
use puzzle_qa_core::search::SearchOptions;

use crate::support::{self, Project, expectation_path, level_path};

/// A short run: `generations` generations of `game` from `seed`.
fn generated(game: &str, target: &Target, seed: u64, generations: u64) -> Generated {
    let info = games::find(game).unwrap();
    let stop = AtomicBool::new(false);
    let budget = Budget {
        generations: Some(generations),
        deadline: None,
        stop: &stop,
        limit: evolve::DEFAULT_LIMIT,
        memory: puzzle_qa_core::search::DEFAULT_MEMORY,
    };
    evolve::run(
        info,
        games::generator(info.name).unwrap(),
        target,
        seed,
        &budget,
        &mut |_| {},
    )
    .expect("a solvable level turns up")
}

fn bloxorz_target() -> Target {
    Target {
        min_par: 1_000,
        width: 10,
        height: 6,
        mechanics: vec!["bridge", "teleport", "weak-tile"],
        min_mechanics: 2,
        require_needed: true,
    }
}

fn hugmaze_target() -> Target {
    Target {
        min_par: 1_000,
        width: 8,
        height: 8,
        mechanics: vec![
            "jar",
            "block",
            "plate",
            "gate",
            "cat",
            "mouse-hole",
            "cushion",
        ],
        min_mechanics: 2,
        require_needed: true,
    }
}

/// The level parses, solves at the reported par, replays its solution to a
/// win, and ablation gives the reported classes.
fn assert_sound(game: &str, run: &Generated) {
    let info = games::find(game).unwrap();
    let best = &run.best;
    let text = best
        .candidate
        .level_text(&[("name", "probe"), ("hint", "none")]);
    let loaded = (info.load)(&text).unwrap_or_else(|error| panic!("{error:?}\n{text}"));
    assert!(loaded.warnings.is_empty(), "{text}");
    let level = &loaded.level;
    let solution = level.solve(SearchOptions::default());
    assert_eq!(solution.par, Some(best.par), "{text}");
    let replay = level
        .replay_text(solution.moves.as_deref().unwrap())
        .unwrap();
    assert!(replay.won, "{text}");
    assert_eq!(replay.moves, best.par);
    let classes: Vec<(std::borrow::Cow<'static, str>, ablation::Class)> = ablation::run(
        &**level,
        solution.par,
        level.mechanics(),
        SearchOptions::default(),
    )
    .expect("no move of a generated level hangs")
    .into_iter()
    .map(|copy| (copy.ablation.mechanic, copy.class))
    .collect();
    assert_eq!(Some(classes), best.mechanics, "{text}");
}

/// Long chains of random changes, from random starts, always give a level
/// file that loads without a warning and prints back the same, for every
/// game with a generator.
#[test]
fn every_draft_is_a_valid_level() {
    for game in games::BUILT_IN {
        let Some(generator) = games::generator(game.name) else {
            continue;
        };
        let target = Target {
            min_par: 0,
            width: 9,
            height: 7,
            mechanics: generator.mechanics().to_vec(),
            min_mechanics: 0,
            require_needed: false,
        };
        let mut rng = generate::Rng::with_seed(7);
        for _ in 0..40 {
            let mut draft = generator.random(&target, &mut rng);
            for _ in 0..100 {
                let text = draft.level_text(&[("name", "draft")]);
                let loaded = (game.load)(&text).unwrap_or_else(|error| panic!("{error:?}\n{text}"));
                assert!(loaded.warnings.is_empty(), "{:?}\n{text}", loaded.warnings);
                let printed = loaded.level.level_text().unwrap();
                let again = (game.load)(&printed).unwrap();
                assert_eq!(again.level.level_text().unwrap(), printed);
                draft = draft.mutate(&target, &mut rng);
            }
        }
    }
}

#[test]
fn a_generated_bloxorz_level_is_sound_and_grows_harder() {
    let run = generated("bloxorz", &bloxorz_target(), 3, 12);
    assert_sound("bloxorz", &run);
    // The history records only improvements.
    let pars: Vec<u32> = run.history.iter().map(|m| m.par).collect();
    assert!(pars.windows(2).all(|pair| pair[0] < pair[1]), "{pars:?}");
    assert_eq!(pars.last(), Some(&run.best.par));
    assert!(run.best.meets_shape(&bloxorz_target()));
}

#[test]
fn a_generated_hugmaze_level_is_sound() {
    let run = generated("hugmaze", &hugmaze_target(), 5, 6);
    assert_sound("hugmaze", &run);
}

#[test]
fn a_seed_and_a_generation_count_give_one_level_whatever_the_threads() {
    let in_pool = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let run = generated("bloxorz", &bloxorz_target(), seed, 8);
            run.best.candidate.level_text(&[])
        })
    };
    let one = in_pool(1, 11);
    assert_eq!(one, in_pool(2, 11));
    assert_eq!(one, in_pool(3, 11));
    assert_ne!(one, in_pool(2, 12), "another seed, another level");
}

#[test]
fn a_met_target_stops_the_run() {
    let target = Target {
        min_par: 12,
        ..bloxorz_target()
    };
    let run = generated("bloxorz", &target, 1, 500);
    assert!(run.met);
    assert!(run.best.meets(&target));
    assert!(run.generations < 500, "stopped at the target");
}

/// `puzzle-qa ARGS` in a scratch project of its own, so a level written by
/// default (`levels/<game>/gen-<seed>.txt`) could land nowhere else; the
/// paths the tests pass are absolute.
fn puzzle_qa(args: &[&str]) -> Output {
    Project::new().puzzle_qa(args)
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_command_writes_a_level_and_expectations_the_suite_passes() {
    let root = Project::new();
    let out = root.join(&level_path("bloxorz", "gen-7"));
    let output = puzzle_qa(&[
        "generate",
        "bloxorz",
        "--min-par",
        "15",
        "--width",
        "9",
        "--height",
        "6",
        "--mechanics",
        "bridge,teleport",
        "--min-mechanics",
        "1",
        "--require-needed",
        "--seed",
        "7",
        "--generations",
        "40",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        support::field_names(&json),
        [
            "candidates",
            "checks_passed",
            "expectations",
            "file",
            "game",
            "generations",
            "history",
            "mechanics",
            "par",
            "seconds",
            "seed",
            "target_met"
        ]
    );
    assert_eq!(json["target_met"], true);
    assert_eq!(json["checks_passed"], true);
    let par = json["par"].as_u64().unwrap();
    assert!(par >= 15);

    let level = text(&out);
    assert!(level.starts_with("name: gen-7\nhint: uses "), "{level}");
    // Written like any file a designer makes: readable by everyone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{mode:o}");
    }
    let expectations = root.read(&expectation_path("bloxorz", "gen-7"));
    assert!(
        expectations.contains(&format!("par = {par}\n")),
        "{expectations}"
    );
    assert!(
        expectations.contains("--seed 7 --generations "),
        "{expectations}"
    );
    for (mechanic, class) in json["mechanics"].as_object().unwrap() {
        assert_ne!(class, "decoration", "{mechanic} is needed");
        assert!(expectations.contains(&format!("{mechanic} = {class}")));
    }

    // The suite passes the new level as it is: no bless needed.
    let check = puzzle_qa(&["check", root.path().to_str().unwrap()]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );

    // The notes' command makes the same level again.
    let notes_command = expectations
        .split('`')
        .nth(1)
        .expect("the notes quote the command");
    let again = root.join("again").join(level_path("bloxorz", "gen-7"));
    let mut args: Vec<&str> = notes_command.split(' ').skip(1).collect();
    args.extend(["--out", again.to_str().unwrap()]);
    let remade = puzzle_qa(&args);
    assert_eq!(remade.status.code(), Some(0));
    assert_eq!(text(&again), level);

    // Nothing is replaced without --force.
    let refused = puzzle_qa(&[
        "generate",
        "bloxorz",
        "--min-par",
        "5",
        "--generations",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("already exists"));
    assert_eq!(text(&out), level);
}

#[test]
fn a_target_out_of_reach_still_writes_the_best_level_and_exits_1() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("best.txt");
    let output = puzzle_qa(&[
        "generate",
        "hugmaze",
        "--min-par",
        "10000",
        "--width",
        "6",
        "--height",
        "5",
        "--generations",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("target NOT met"), "{stdout}");
    // Outside a repository, the expectations go beside the level.
    assert!(out.exists());
    assert!(root.path().join("best.toml").exists());
}

#[test]
fn bad_requests_are_refused_with_a_hint() {
    let cases: [(&[&str], &str); 5] = [
        (&["snackrun"], "snackrun has no level generator"),
        (&["chess"], "unknown game `chess`"),
        (
            &["bloxorz", "--mechanics", "cat"],
            "bloxorz has no mechanic `cat`",
        ),
        (
            &["bloxorz", "--mechanics", "bridge", "--min-mechanics", "2"],
            "--min-mechanics 2 asks for more kinds",
        ),
        (&["hugmaze", "--width", "1"], "1×12 is not a size"),
    ];
    for (args, message) in cases {
        let mut all = vec!["generate", "--min-par", "5"];
        all.extend(args);
        let output = puzzle_qa(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(message), "{all:?}: {stderr}");
    }
}

#[test]
fn ctrl_c_writes_the_best_level_so_far() {
    let root = Project::new();
    let out = root.join(&level_path("bloxorz", "interrupted"));
    let child = root
        .command(&[])
        .args([
            "generate",
            "bloxorz",
            "--min-par",
            "100000",
            "--time",
            "120",
        ])
        .args([
            "--width",
            "8",
            "--height",
            "6",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = std::time::Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        started.elapsed().as_secs() < 30,
        "it stops soon after Ctrl-C"
    );
    // The target is out of reach: exit 1, with the best level written.
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("checks: parse ok"), "{stdout}");
    assert!(out.exists());
    assert!(root.exists(&expectation_path("bloxorz", "interrupted")));
}
