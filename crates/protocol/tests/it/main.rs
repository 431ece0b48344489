//! Games over the protocol, played through the core: a tiny game in
//! Python (tests/fixtures/line.py), and the same game misbehaving in each
//! way the protocol calls a fault.

mod faults;
mod hang;
mod line;

use std::path::{Path, PathBuf};

use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::Loaded;

/// Whether `python3` runs here; the tests say so and check nothing if not.
pub(crate) fn python() -> bool {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!("python3 is not installed: the protocol's Python tests check nothing");
    }
    found
}

/// The fixture game, given `arguments`, as a manifest in a folder of its
/// own (kept alive by the returned guard).
pub(crate) fn manifest(extra: &str, arguments: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/line.py");
    let mut command = vec!["python3".to_string(), script.display().to_string()];
    command.extend(arguments.iter().map(|a| a.to_string()));
    let quoted: Vec<String> = command.iter().map(|part| format!("{part:?}")).collect();
    let text = format!(
        "name = \"line\"\ncommand = [{}]\n{extra}",
        quoted.join(", ")
    );
    let path = folder.path().join("game.toml");
    std::fs::write(&path, text).unwrap();
    (folder, path)
}

/// The game a manifest declares.
pub(crate) fn game(path: &Path) -> GameChecks {
    protocol::game_checks(protocol::Manifest::read(path).unwrap())
}

/// A level of the game, loaded.
pub(crate) fn load(game: &GameChecks, text: &str) -> Loaded {
    (game.load)(text).unwrap_or_else(|error| panic!("{}", error.message))
}
