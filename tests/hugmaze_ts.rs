//! The TypeScript Hug Maze (`examples/hugmaze-ts/`, its rules written from
//! the rulebook, played over the process protocol) held to the built-in
//! game's expectations: every level in `levels/hugmaze/` must get the same
//! status, par and ablation classes from it as `expectations/hugmaze/`
//! records from the Rust engine. Two implementations of one rulebook.
//! Needs `node`; without it, it says so and checks nothing.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !node {
        eprintln!(
            "node is not installed: the TypeScript Hug Maze's level suite is skipped \
             (install Node.js 20 or later to run it)"
        );
        return ExitCode::SUCCESS;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = match protocol::Manifest::read(&root.join("examples/hugmaze-ts/game.toml")) {
        Ok(manifest) => manifest,
        Err(message) => {
            eprint!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let games = Box::leak(Box::new([protocol::game_checks(manifest)]));
    let settings =
        match puzzle_qa_core::_cli_support::harness::Settings::for_cargo_test(root, games) {
            Ok(settings) => settings,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
        };
    // A comparison never writes: the expectations are the Rust engine's,
    // blessed by the level suite (`tests/levels.rs`). And `orphans` is that
    // suite's: here the other games' folders are not registered.
    let settings = puzzle_qa_core::_cli_support::harness::Settings {
        bless: false,
        ..settings
    };
    let mut args = libtest_mimic::Arguments::from_args();
    args.skip
        .push(puzzle_qa_core::_cli_support::harness::ORPHANS.to_string());
    puzzle_qa_core::_cli_support::harness::run(&args, settings).exit_code()
}
