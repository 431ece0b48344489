//! The game registry: the one place that names every game. Each game is a
//! crate of its own, written against `puzzle-qa-core` alone; here its
//! checks (what the harness needs) and its level generator, if it has one,
//! meet. Games over the process protocol join at start-up, from the
//! manifests of the repository (`levels/*/game.toml`) and those named with
//! `--game-manifest`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use puzzle_qa_core::_cli_support::harness::shell_word;
use puzzle_qa_core::generate::Generator;
use puzzle_qa_core::harness::GameChecks;

/// The games built into puzzle-qa.
pub static BUILT_IN: &[GameChecks] = &[
    bloxorz::GAME,
    hugmaze::GAME,
    snackrun::GAME,
    puzzlescript::GAME,
];

/// Every game this run knows: [`BUILT_IN`] until [`register`] adds the
/// manifests' games.
static GAMES: OnceLock<&'static [GameChecks]> = OnceLock::new();

/// The games of this run, by name.
pub fn all() -> &'static [GameChecks] {
    GAMES.get().copied().unwrap_or(BUILT_IN)
}

/// The games named with `--game-manifest`, once registered.
static NAMED: OnceLock<Vec<&'static str>> = OnceLock::new();

/// The game of the only `--game-manifest`, if exactly one was given: the
/// game of any level file a command is given without `--game`.
pub fn named() -> Option<&'static GameChecks> {
    match NAMED.get().map(Vec::as_slice) {
        Some([name]) => find(name),
        _ => None,
    }
}

/// ` --game-manifest PATH` for each manifest named on the command line, for
/// the commands a message suggests (empty when none was).
pub fn flags() -> &'static str {
    FLAGS.get().map_or("", String::as_str)
}

static FLAGS: OnceLock<String> = OnceLock::new();

/// Adds to the built-in games those of the manifests in `root`'s
/// `levels/*/game.toml` and those of `named` (which take the place of a
/// game of the same name). Once per run, before any game is looked up;
/// the error is ready to print.
pub fn register(root: Option<&Path>, named: &[PathBuf]) -> Result<(), String> {
    let mut games: Vec<GameChecks> = BUILT_IN.to_vec();
    let mut add = |game: GameChecks| match games.iter_mut().find(|known| known.name == game.name) {
        Some(known) => *known = game,
        None => games.push(game),
    };
    for path in root.map(manifests_in).unwrap_or_default() {
        let manifest = protocol::Manifest::read(&path)?;
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|f| f.to_str());
        if folder != Some(manifest.name.as_str()) {
            return Err(format!(
                "error: {} names the game `{}`, but its folder is `{}`\n  = hint: a game's \
                 levels live in levels/<its name>/; rename the folder or the game\n",
                path.display(),
                manifest.name,
                folder.unwrap_or("?")
            ));
        }
        add(protocol::game_checks(manifest));
    }
    let mut names = Vec::new();
    for path in named {
        let manifest = protocol::Manifest::read(path)?;
        names.push(&*Box::leak(manifest.name.clone().into_boxed_str()));
        add(protocol::game_checks(manifest));
    }
    let _ = NAMED.set(names);
    let flags = named
        .iter()
        .map(|path| {
            format!(
                " --game-manifest {}",
                shell_word(&path.display().to_string())
            )
        })
        .collect();
    let _ = FLAGS.set(flags);
    let _ = GAMES.set(Box::leak(games.into_boxed_slice()));
    Ok(())
}

/// The manifests of a repository's game folders, in name order.
fn manifests_in(root: &Path) -> Vec<PathBuf> {
    let Ok(folders) = std::fs::read_dir(root.join("levels")) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = folders
        .filter_map(Result::ok)
        .map(|entry| entry.path().join(protocol::manifest::FILE_NAME))
        .filter(|path| path.is_file())
        .collect();
    found.sort();
    found
}

/// The games that can make levels (`puzzle-qa generate`), each with its
/// level generator.
static GENERATORS: &[(&str, &dyn Generator)] = &[
    (bloxorz::GAME.name, bloxorz::GENERATOR),
    (hugmaze::GAME.name, hugmaze::GENERATOR),
];

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static GameChecks> {
    all().iter().find(|game| game.name == name)
}

/// The level generator of the game called `name`, if it has one.
pub fn generator(name: &str) -> Option<&'static dyn Generator> {
    GENERATORS
        .iter()
        .find(|(game, _)| *game == name)
        .map(|(_, generator)| *generator)
}

/// The names of the games that have a level generator.
pub fn with_generators() -> impl Iterator<Item = &'static str> {
    GENERATORS.iter().map(|(game, _)| *game)
}

/// The registered games' names, for messages: `bloxorz, hugmaze`.
pub fn names() -> String {
    all()
        .iter()
        .map(|game| game.name)
        .collect::<Vec<_>>()
        .join(", ")
}
