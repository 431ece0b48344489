//! How the runner behaves, as a plain value. Only the entry points build it
//! from the environment (see `env.rs`), so tests can drive bless and the CI
//! refusal whatever environment they themselves run in.

use std::path::{Path, PathBuf};

use super::discover::LevelEntry;
use super::game_checks::GameChecks;

/// Everything the runner needs to know about its surroundings.
#[derive(Clone)]
pub struct Settings {
    /// The project root: levels are under `root/levels/<game>/`, their
    /// expectations under `root/expectations/<game>/`. Paths in messages are
    /// shown relative to it.
    pub root: PathBuf,
    /// The games whose levels are checked.
    pub games: &'static [GameChecks],
    /// Rewrite stale or missing machine-owned expectations instead of failing.
    pub bless: bool,
    /// Running under continuous integration: bless is refused.
    pub ci: bool,
    /// Colour diffs with ANSI escapes.
    pub color: bool,
    /// Which command a message tells the user to run.
    pub frontend: Frontend,
    /// Check mode (`puzzle-qa check --check`, `PUZZLE_QA_UPDATE=no`):
    /// nothing is written into the repository, neither by bless nor as a
    /// pending file beside an expectation file.
    pub check_only: bool,
    /// Where a stale check leaves what bless would write (`pending.rs`).
    pub pending: PendingPlace,
    /// Flags a `puzzle-qa` command that a message suggests must repeat to
    /// mean the same games (` --game-manifest PATH`), each with its leading
    /// space; empty for most runs.
    pub repeat: String,
    /// The memory budget of a search of a level whose expectations name
    /// none (`--memory`); `None`: the default,
    /// [`DEFAULT_MEMORY`](crate::search::DEFAULT_MEMORY). A level's own
    /// `memory` key wins over it.
    pub memory: Option<u64>,
}

/// Where pending expectations go: the file bless would write, kept for
/// `puzzle-qa review` to accept or reject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PendingPlace {
    /// Beside the expectation file, as `level01.toml.pending` (git-ignored):
    /// a designer's machine.
    Beside,
    /// Under this folder, at the expectation file's path from the root
    /// (`DIR/expectations/bloxorz/level01.toml.pending`):
    /// `PUZZLE_QA_PENDING_DIR`, for CI to upload as an artifact.
    Under(PathBuf),
    /// Not kept: CI without `PUZZLE_QA_PENDING_DIR`, check mode, or plain
    /// [`Settings::new`].
    Nowhere,
}

/// Where the checks were started from, so messages name the right command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    /// `cargo test` (or `cargo nextest run`) through the libtest runner.
    CargoTest,
    /// The `puzzle-qa` command line.
    Cli,
}

impl Settings {
    /// Plain settings: no bless, not CI, no colour, messages for `cargo test`.
    pub fn new(root: impl Into<PathBuf>, games: &'static [GameChecks]) -> Self {
        Settings {
            root: root.into(),
            games,
            bless: false,
            ci: false,
            color: false,
            frontend: Frontend::CargoTest,
            check_only: false,
            pending: PendingPlace::Nowhere,
            repeat: String::new(),
            memory: None,
        }
    }

    /// The folder of level files, one sub-folder per game: `root/levels`.
    pub fn levels_dir(&self) -> PathBuf {
        self.root.join("levels")
    }

    /// The folder of expectation files, one sub-folder per game:
    /// `root/expectations`.
    pub fn expectations_dir(&self) -> PathBuf {
        self.root.join("expectations")
    }

    /// `path` as messages show it: relative to the root when inside it.
    pub fn shown(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        relative.display().to_string()
    }

    /// The command that blesses `scope` of `entry`, and nothing else, ready
    /// to paste into a shell where the message is shown (a level name with
    /// a space is quoted):
    ///
    /// ```text
    /// cargo test                BLESS=1 cargo test -- --exact bloxorz::level01::par
    ///                           BLESS=1 cargo test -- bloxorz::level01::
    /// puzzle-qa                 puzzle-qa bless bloxorz::level01::par
    /// a game file on its own    puzzle-qa bless mygame.txt puzzlescript::mygame::2::par
    /// ```
    ///
    /// libtest selects the trials that contain its filter, so a level ends
    /// in `::` (`::1::` is not `::10::`) and a trial is `--exact`;
    /// puzzle-qa's filters select whole parts of a name already.
    pub fn bless_command(&self, entry: &LevelEntry, scope: Scope) -> String {
        let filter = scope.filter(entry);
        if entry.standalone {
            let file = shell_word(&entry.shown_level);
            return match scope {
                // The file is the whole selection: no filter to add.
                Scope::File => format!("puzzle-qa{} bless {file}", self.repeat),
                _ => format!(
                    "puzzle-qa{} bless {file} {}",
                    self.repeat,
                    shell_word(&filter)
                ),
            };
        }
        match (self.frontend, scope) {
            (Frontend::CargoTest, Scope::Check(_)) => {
                format!("BLESS=1 cargo test -- --exact {}", shell_word(&filter))
            }
            (Frontend::CargoTest, _) => {
                format!(
                    "BLESS=1 cargo test -- {}",
                    shell_word(&format!("{filter}::"))
                )
            }
            (Frontend::Cli, _) => format!("puzzle-qa{} bless {}", self.repeat, shell_word(&filter)),
        }
    }

    /// The command that accepts one level's change, for a page a reviewer
    /// copies it from: `puzzle-qa review --accept` when the change is
    /// `pending` beside the expectations, else bless (a pending file in
    /// CI's folder is not on the reviewer's machine).
    pub fn accept_command(&self, entry: &LevelEntry, pending: bool) -> String {
        match self.pending {
            PendingPlace::Beside if pending => {
                format!(
                    "puzzle-qa{} review{} --accept {}",
                    self.repeat,
                    file_word(entry),
                    shell_word(&entry.id())
                )
            }
            _ => format!(
                "puzzle-qa{} bless{} {}",
                self.repeat,
                file_word(entry),
                shell_word(&entry.id())
            ),
        }
    }

    /// The command that replays `moves` on level `member` of `level` (a
    /// level file as messages show it), from where the checks run.
    ///
    /// ```
    /// use puzzle_qa_core::_cli_support::harness::{Frontend, Settings};
    /// let settings = Settings { frontend: Frontend::Cli, ..Settings::new(".", &[]) };
    /// assert_eq!(
    ///     settings.replay_command("my game.txt", Some(2), "RRX"),
    ///     "puzzle-qa replay 'my game.txt' --level 2 --moves RRX"
    /// );
    /// ```
    pub fn replay_command(&self, level: &str, member: Option<usize>, moves: &str) -> String {
        let program = match self.frontend {
            Frontend::CargoTest => "cargo run --".to_string(),
            Frontend::Cli => format!("puzzle-qa{}", self.repeat),
        };
        let member = member.map_or(String::new(), |n| format!(" --level {n}"));
        format!(
            "{program} replay {}{member} --moves {}",
            shell_word(level),
            shell_word(moves)
        )
    }

    /// Whether a stale expectation may be rewritten now.
    pub fn may_write(&self) -> bool {
        self.bless && !self.ci && !self.check_only
    }

    /// Why bless was asked for and refused, if it was: CI, or check mode.
    pub fn bless_refused(&self) -> Option<&'static str> {
        if !self.bless {
            None
        } else if self.ci {
            Some("BLESS is set, but so is CI, and expectations are never rewritten in CI")
        } else if self.check_only {
            Some("BLESS is set, but so is PUZZLE_QA_UPDATE=no, which writes nothing")
        } else {
            None
        }
    }

    /// How a message names the review of the pending changes of `entries`:
    /// the command (naming the game files on their own among them), and
    /// for `cargo test` how to run it without installing it.
    pub fn review_hint<'a>(&self, entries: impl IntoIterator<Item = &'a LevelEntry>) -> String {
        let mut files: Vec<String> = Vec::new();
        for entry in entries {
            let file = file_word(entry);
            if !file.is_empty() && !files.contains(&file) {
                files.push(file);
            }
        }
        let review = format!("review{}", files.concat());
        match &self.pending {
            PendingPlace::Under(_) => format!(
                "`puzzle-qa{} {review} --from DIR`, DIR being where this folder is downloaded to",
                self.repeat
            ),
            _ => self.command_hint(&review),
        }
    }

    /// How a message names the command that deletes the expectations no
    /// level has: over the whole repository, or, for `entry` a game file on
    /// its own, beside it.
    pub fn prune_hint(&self, entry: Option<&LevelEntry>) -> String {
        let file = entry.map_or(String::new(), file_word);
        self.command_hint(&format!("bless --prune{file}"))
    }

    /// `puzzle-qa ARGS` in backquotes, as a message names it; for `cargo
    /// test`, with how to run it in this repository without installing it.
    fn command_hint(&self, args: &str) -> String {
        let command = format!("`puzzle-qa{} {args}`", self.repeat);
        match self.frontend {
            Frontend::CargoTest => format!("{command} (`cargo run -- {args}` in this repository)"),
            Frontend::Cli => command,
        }
    }
}

/// What a suggested command acts on, for [`Settings::bless_command`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// Every level of the entry's file.
    File,
    /// The entry's level.
    Level,
    /// One check of the entry's level, by its name.
    Check(&'a str),
}

impl Scope<'_> {
    /// The trial-name filter that selects this scope of `entry`.
    fn filter(self, entry: &LevelEntry) -> String {
        match self {
            Scope::File => format!("{}::{}", entry.game.name, entry.stem),
            Scope::Level => entry.id(),
            Scope::Check(check) => entry.trial(check),
        }
    }
}

/// ` FILE` for a game file on its own, which a command must name (no
/// `levels/` folder says where it is); else nothing.
fn file_word(entry: &LevelEntry) -> String {
    if entry.standalone {
        format!(" {}", shell_word(&entry.shown_level))
    } else {
        String::new()
    }
}

/// What to do with expectation files just written, as advice after a
/// colon: look at the change with git where there is one (all of
/// `expectations/` in a repository, the files themselves beside a game
/// file), then commit; else look at the files named.
pub fn review_written<'a>(entries: impl IntoIterator<Item = &'a LevelEntry>) -> String {
    let mut files: Vec<&str> = Vec::new();
    let mut standalone = false;
    let mut in_git = true;
    for entry in entries {
        if !files.contains(&entry.shown_expectation.as_str()) {
            files.push(&entry.shown_expectation);
        }
        standalone |= entry.standalone;
        in_git &= entry
            .expectation_path
            .ancestors()
            .any(|folder| folder.join(".git").exists());
    }
    let named = files
        .iter()
        .map(|file| shell_word(file))
        .collect::<Vec<_>>()
        .join(" ");
    match (in_git && !files.is_empty(), standalone) {
        (true, false) => "review with `git diff expectations/`, then commit".to_string(),
        (true, true) => format!("review with `git diff {named}`, then commit"),
        (false, _) => format!("review {}", files.join(", ")),
    }
}

/// `word` as one shell word: as it is when it holds only characters no
/// shell treats specially, else in single quotes.
///
/// ```text
/// bloxorz::level01      →  bloxorz::level01
/// hugmaze::my level     →  'hugmaze::my level'
/// ```
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.:/,+=@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_word_with_a_space_or_a_quote_is_quoted() {
        assert_eq!(shell_word("bloxorz::level01"), "bloxorz::level01");
        assert_eq!(shell_word("hugmaze::my level"), "'hugmaze::my level'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }
}
