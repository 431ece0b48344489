//! Finding the levels and pairing each with its expectation file. Reads
//! directory listings, and counts the levels of a file of several with the
//! game's cheap `count`: listing trials never compiles or solves anything.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::game_checks::GameChecks;
use super::keys::{ExpectationKey, FINGERPRINT, HARNESS_KEYS, Owner};
use super::settings::{Scope, Settings};

/// A level file and where its expectations live.
#[derive(Clone)]
pub struct LevelEntry {
    /// The game the level belongs to.
    pub game: &'static GameChecks,
    /// The file name without its extension: `level09`.
    pub stem: String,
    /// Which level of the file, counted from 1, when the game's files hold
    /// several (`None`: the file is the level).
    pub member: Option<usize>,
    /// The level file.
    pub level_path: PathBuf,
    /// Where its expectation file is, or would be:
    /// `expectations/<game>/<stem>.toml` under the root.
    pub expectation_path: PathBuf,
    /// The two paths as messages show them.
    pub shown_level: String,
    /// `expectation_path` as messages show it.
    pub shown_expectation: String,
    /// A game file on its own (`mygame.txt`, outside any `levels/<game>/`
    /// folder), its expectations beside it: a command that acts on it names
    /// the file ([`LevelEntry::beside`]).
    pub standalone: bool,
}

impl LevelEntry {
    /// The entry for level file `path` of `game` under `settings.root`.
    pub fn new(settings: &Settings, game: &'static GameChecks, path: PathBuf) -> Self {
        let stem = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let expectation_path = settings
            .expectations_dir()
            .join(game.name)
            .join(format!("{stem}.toml"));
        LevelEntry {
            game,
            member: None,
            shown_level: settings.shown(&path),
            shown_expectation: settings.shown(&expectation_path),
            stem,
            level_path: path,
            expectation_path,
            standalone: false,
        }
    }

    /// The entries for every level of a game file on its own, at `path`
    /// outside any `levels/<game>/` folder: as [`LevelEntry::all_in`], with
    /// the expectations beside the file ([`expectations_beside`]).
    pub fn beside(settings: &Settings, game: &'static GameChecks, path: PathBuf) -> Vec<Self> {
        let expectation_path = expectations_beside(&path);
        let shown_expectation = settings.shown(&expectation_path);
        LevelEntry::all_in(settings, game, path)
            .into_iter()
            .map(|entry| LevelEntry {
                expectation_path: expectation_path.clone(),
                shown_expectation: shown_expectation.clone(),
                standalone: true,
                ..entry
            })
            .collect()
    }

    /// The entries for every level of the file at `path`: one for a game
    /// of one level a file; for a game of several, one per level the file
    /// holds, counted cheaply (its text is read, nothing solved). A file
    /// that cannot be read, or holds none, still gets level 1, whose
    /// `parse` trial says why.
    pub fn all_in(settings: &Settings, game: &'static GameChecks, path: PathBuf) -> Vec<Self> {
        let file = LevelEntry::new(settings, game, path);
        let Some(many) = game.many else {
            return vec![file];
        };
        let count = fs::read(&file.level_path)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .map_or(0, |text| (many.count)(&text));
        (1..=count.max(1))
            .map(|number| LevelEntry {
                member: Some(number),
                ..file.clone()
            })
            .collect()
    }

    /// `<game>::<file>` or `<game>::<file>::<N>`: the prefix of the level's
    /// trial names, and a filter that selects all of them.
    pub fn id(&self) -> String {
        match self.member {
            None => format!("{}::{}", self.game.name, self.stem),
            Some(number) => format!("{}::{}::{number}", self.game.name, self.stem),
        }
    }

    /// The name of the trial running `check` on this level.
    pub fn trial(&self, check: &str) -> String {
        format!("{}::{check}", self.id())
    }

    /// The level as messages name it: its file, and its number in the file
    /// when there are several (`levels/puzzlescript/crates.txt` level 3).
    pub fn shown_subject(&self) -> String {
        match self.member {
            None => self.shown_level.clone(),
            Some(number) => format!("{} level {number}", self.shown_level),
        }
    }

    /// The key of the level's table in its expectation file (`"3"`), when
    /// the file holds several levels.
    pub fn table(&self) -> Option<String> {
        self.member.map(|number| number.to_string())
    }

    /// Every top-level key the level's expectations may hold: the
    /// harness's own and its game's checks'.
    pub fn known_keys(&self) -> Vec<ExpectationKey> {
        let mut keys = HARNESS_KEYS.to_vec();
        for check in self.game.checks {
            keys.extend_from_slice(check.keys());
        }
        // Only a level of a file of several has a fingerprint to keep.
        if self.member.is_none() {
            keys.retain(|key| key.name != FINGERPRINT);
        }
        keys
    }

    /// The machine-owned keys, in the order bless lays them out.
    pub fn machine_keys(&self) -> Vec<&'static str> {
        self.known_keys()
            .iter()
            .filter(|key| key.owner == Owner::Machine)
            .map(|key| key.name)
            .collect()
    }
}

/// Where the expectations of a game file on its own live: beside it,
/// `mygame.txt` → `mygame.expectations.toml`.
pub fn expectations_beside(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}.expectations.toml"))
}

/// Every level under `settings.levels_dir()`, sorted by game then file name.
pub fn levels(settings: &Settings) -> Vec<LevelEntry> {
    listing(settings).0
}

/// An entry of a game's level folder that is not a level: what it is and
/// why it is left out.
pub(super) struct Ignored {
    /// The entry, as messages show it.
    pub shown: String,
    /// Why it is not checked, to follow "ignored, because".
    pub why: String,
    /// It looks meant as a level (named like one), so leaving it out is
    /// probably a mistake: `orphans` fails on it.
    pub meant_as_level: bool,
}

/// The manifest of a game whose rules run in its own process, in the
/// game's level folder (`levels/<game>/game.toml`): no level, and no odd
/// entry either.
pub const MANIFEST: &str = "game.toml";

/// The levels under `settings.levels_dir()`, and every other visible entry
/// of a game's level folder with the reason it is not one.
pub(super) fn listing(settings: &Settings) -> (Vec<LevelEntry>, Vec<Ignored>) {
    let mut found = Vec::new();
    let mut ignored = Vec::new();
    for (game, folder) in game_folders(settings, &settings.levels_dir()) {
        let Some(game) = game else { continue };
        for path in visible(&folder, |_| true) {
            if path.file_name().is_some_and(|name| name == MANIFEST) {
                continue;
            }
            match classify(&path, game.extension) {
                Ok(()) => found.extend(LevelEntry::all_in(settings, game, path)),
                Err((why, meant_as_level)) => ignored.push(Ignored {
                    shown: settings.shown(&path),
                    why,
                    meant_as_level,
                }),
            }
        }
    }
    (found, ignored)
}

/// Whether the entry at `path` is a level file of a game whose files end in
/// `.extension`; if not, why not, and whether it looks meant as one.
fn classify(path: &Path, extension: &str) -> Result<(), (String, bool)> {
    let ext = path.extension().map(|ext| ext.to_string_lossy());
    let named_like_a_level = ext.as_deref() == Some(extension);
    let other_case = !named_like_a_level
        && ext
            .as_deref()
            .is_some_and(|ext| ext.eq_ignore_ascii_case(extension));
    let is_link = fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    let why = match fs::metadata(path) {
        Ok(meta) if meta.is_file() && named_like_a_level => return Ok(()),
        Ok(meta) if meta.is_dir() && (named_like_a_level || other_case) => {
            "it is a folder, not a level file".to_string()
        }
        Ok(_) if other_case => format!(
            "its name ends in `.{}`, and level files end in `.{extension}` (the case matters)",
            ext.as_deref().unwrap_or_default()
        ),
        Ok(meta) if meta.is_dir() => return Err(("it is a folder".to_string(), false)),
        Ok(_) => {
            let kind = ext.map_or("no extension".to_string(), |ext| format!("`.{ext}`"));
            return Err((
                format!("it has {kind}, and level files end in `.{extension}`"),
                false,
            ));
        }
        Err(error) if is_link && LOOPING_LINK.is_some() && error.raw_os_error() == LOOPING_LINK => {
            "it is a symbolic link that loops back on itself".to_string()
        }
        Err(error) if is_link && error.kind() == std::io::ErrorKind::NotFound => {
            let target = fs::read_link(path)
                .map_or_else(|_| "?".to_string(), |target| target.display().to_string());
            format!("it is a symbolic link to `{target}`, which does not exist")
        }
        Err(error) if is_link => format!("it is a symbolic link that cannot be followed: {error}"),
        Err(error) => format!("it cannot be read: {error}"),
    };
    Err((why, named_like_a_level || other_case))
}

/// `ELOOP`, "too many levels of symbolic links", where its number is known
/// (elsewhere a loop reads as a link that cannot be read).
#[cfg(target_os = "linux")]
const LOOPING_LINK: Option<i32> = Some(40);
#[cfg(target_os = "macos")]
const LOOPING_LINK: Option<i32> = Some(62);
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
const LOOPING_LINK: Option<i32> = None;

/// What the `orphans` trial reports: expectation files without a level,
/// levels without an expectation file, folders no game claims, and entries
/// of a level folder that look meant as levels but cannot be.
pub(super) fn orphans(
    settings: &Settings,
    levels: &[LevelEntry],
    ignored: &[Ignored],
) -> Vec<String> {
    let mut problems: Vec<String> = ignored
        .iter()
        .filter(|entry| entry.meant_as_level)
        .map(|entry| format!("{}: ignored, because {}", entry.shown, entry.why))
        .collect();
    let levels_dir = settings.levels_dir();
    if !levels_dir.is_dir() {
        problems.push(format!(
            "no levels folder: {} does not exist",
            settings.shown(&levels_dir)
        ));
    }
    let unclaimed = |kind: &str, folder: &Path| {
        format!(
            "{}/: no game called `{}` is registered (games: {}); rename or remove the {kind} folder",
            settings.shown(folder),
            folder.file_name().unwrap_or_default().to_string_lossy(),
            settings
                .games
                .iter()
                .map(|game| game.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    for (game, folder) in game_folders(settings, &levels_dir) {
        if game.is_none() {
            problems.push(unclaimed("levels", &folder));
        }
    }
    for (game, folder) in game_folders(settings, &settings.expectations_dir()) {
        if game.is_none() {
            problems.push(unclaimed("expectations", &folder));
        }
    }
    for (game, path) in orphan_expectations(settings, levels) {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        let level = levels_dir
            .join(game.name)
            .join(format!("{stem}.{}", game.extension));
        problems.push(format!(
            "{} has no level ({} does not exist): delete it with {}, or restore or rename \
             the level",
            settings.shown(&path),
            settings.shown(&level),
            settings.prune_hint(None)
        ));
    }
    // The levels of one file share its expectation file: said once.
    let mut said = BTreeSet::new();
    for level in levels {
        if !level.expectation_path.is_file() && said.insert(&level.expectation_path) {
            problems.push(format!(
                "{} has no expectations ({} does not exist): run `{}`",
                level.shown_level,
                level.shown_expectation,
                settings.bless_command(level, Scope::File)
            ));
        }
    }
    problems
}

/// Expectation files of registered games whose level does not exist
/// (`levels` is every level under the settings' root), sorted.
pub fn orphan_expectations(
    settings: &Settings,
    levels: &[LevelEntry],
) -> Vec<(&'static GameChecks, PathBuf)> {
    let with_level: BTreeSet<&Path> = levels
        .iter()
        .map(|level| level.expectation_path.as_path())
        .collect();
    let mut orphans = Vec::new();
    for (game, folder) in game_folders(settings, &settings.expectations_dir()) {
        let Some(game) = game else { continue };
        for path in files(&folder) {
            let is_toml = path.extension().is_some_and(|ext| ext == "toml");
            if is_toml && !with_level.contains(path.as_path()) {
                orphans.push((game, path));
            }
        }
    }
    orphans
}

/// The visible sub-folders of `dir`, sorted, each with the game of its name.
fn game_folders(settings: &Settings, dir: &Path) -> Vec<(Option<&'static GameChecks>, PathBuf)> {
    visible(dir, Path::is_dir)
        .into_iter()
        .map(|folder| {
            let name = folder.file_name().unwrap_or_default();
            let game = settings.games.iter().find(|game| name == game.name);
            (game, folder)
        })
        .collect()
}

/// The visible files of `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    visible(dir, Path::is_file)
}

/// The entries of `dir` that are not hidden and pass `keep`, sorted, so
/// trial order never depends on the file system's.
fn visible(dir: &Path, keep: fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| keep(path) && !is_hidden(path))
        .collect();
    paths.sort();
    paths
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().starts_with('.'))
}
