//! The framework names no game: outside `src/games/` (where each game lives
//! and `src/games/mod.rs` registers the built-in ones), no source file
//! mentions one, so adding a game never touches the harness, the search,
//! the command line or the pictures.

use std::path::{Path, PathBuf};

const GAME_NAMES: [&str; 7] = [
    "bloxorz",
    "hugmaze",
    "hug maze",
    "snackrun",
    "snack run",
    "sokoban",
    "hug_maze",
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn no_source_outside_the_games_names_a_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let games = src.join("games");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offenders = Vec::new();
    for file in files.iter().filter(|file| !file.starts_with(&games)) {
        let text = std::fs::read_to_string(file).unwrap().to_lowercase();
        for (number, line) in text.lines().enumerate() {
            for name in GAME_NAMES {
                if line.contains(name) {
                    offenders.push(format!("{}:{}: {name}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(files.len() > 40, "the walk found the sources");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}
