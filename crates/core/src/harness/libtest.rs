//! The `cargo test` front end: one libtest trial per (level, check) plus
//! `orphans`, on libtest-mimic, so filters, `--list`, `--exact`, `--skip`
//! and `cargo nextest run` behave as for any test.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use libtest_mimic::{Arguments, ColorSetting, Conclusion, Failed, Trial};

use super::game_checks::GameChecks;
use super::settings::Settings;
use super::subject::{Subject, Verdict};
use super::suite::{ORPHANS, Suite, afterword, trial_name};

/// The whole `main` of a `harness = false` test target: reads the command
/// line and the environment, runs the levels under `folder` of the package,
/// and exits: 0 when every trial passes, 101 when one fails (libtest's
/// codes), 2 when `BLESS` has a value it does not understand.
///
/// `package` is the package's folder as the binary was built
/// (`env!("CARGO_MANIFEST_DIR")`); the folder cargo names when it runs the
/// test (the same variable at run time) wins, so a test binary shared by
/// two copies of a repository (one target folder) checks the copy it runs
/// for. `folder` holds `levels/` and `expectations/`, relative to the
/// package (`"."`: the package itself).
///
/// ```no_run
/// // tests/levels.rs
/// # use puzzle_qa_core::harness::GameChecks;
/// static GAMES: &[GameChecks] = &[/* each game's `GameChecks` */];
///
/// fn main() -> std::process::ExitCode {
///     puzzle_qa_core::harness::main(env!("CARGO_MANIFEST_DIR"), ".", GAMES)
/// }
/// ```
pub fn main(
    package: impl Into<PathBuf>,
    folder: impl AsRef<Path>,
    games: &'static [GameChecks],
) -> ExitCode {
    let args = Arguments::from_args();
    super::env::share_machine_memory();
    if let Err(message) = super::env::use_threads(None) {
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let root = super::env::package_folder(package.into()).join(folder);
    let mut settings = match Settings::for_cargo_test(root, games) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    match args.color {
        Some(ColorSetting::Always) => settings.color = true,
        Some(ColorSetting::Never) => settings.color = false,
        Some(ColorSetting::Auto) | None => {}
    }
    run(&args, settings).exit_code()
}

/// Runs the trials `args` selects. Listing reads folder listings only; a
/// run first computes every selected verdict in parallel (rayon), and the
/// trials then report them.
///
/// Why not let each trial compute its own verdict on libtest's threads? A
/// check may itself run in parallel (ablation does); if a libtest thread held
/// a verdict's lock while waiting for rayon, and every rayon worker waited
/// for such a lock, nothing would move. Computing only on rayon's workers
/// rules that out.
pub fn run(args: &Arguments, settings: Settings) -> Conclusion {
    let suite = Arc::new(Suite::discover(settings));
    let mut trials: Vec<Trial> = suite
        .work(|_| true)
        .into_iter()
        .map(|item| {
            let name = trial_name(&item);
            let (subject, index) = item;
            Trial::test(name, move || outcome(subject.verdict(index)))
        })
        .collect();
    let shared = Arc::clone(&suite);
    trials.push(Trial::test(ORPHANS, move || outcome(&shared.orphans())));
    // `--test-threads=1` asks for one thing at a time (often to debug):
    // then each trial computes its own verdict when it runs.
    if !args.list && args.test_threads != Some(1) {
        let work = suite.work(|name| {
            let probe = Trial::test(name, || Ok(()));
            !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
        });
        let clock = std::time::Instant::now();
        Suite::compute(&work);
        // libtest's own "finished in" times only the reporting that follows.
        let levels: std::collections::BTreeSet<*const Subject> = work
            .iter()
            .map(|(subject, _)| Arc::as_ptr(subject))
            .collect();
        // On stderr, like the afterword: libtest's `--format json` owns
        // stdout.
        eprintln!(
            "checked {} trials of {} levels in {:.2}s",
            work.len(),
            levels.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    let conclusion = libtest_mimic::run(args, trials);
    if !args.list {
        let orphans_ran = {
            let probe = Trial::test(ORPHANS, || Ok(()));
            !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
        };
        let orphans = orphans_ran.then(|| suite.orphans());
        eprint!("{}", afterword(suite.subjects(), orphans.as_ref()));
    }
    conclusion
}

fn outcome(verdict: &Verdict) -> Result<(), Failed> {
    match verdict {
        Verdict::Passed { .. } => Ok(()),
        Verdict::Stale { message } | Verdict::Failed { message, .. } => Err(message.into()),
    }
}
