//! `game.toml`: what a game over the protocol is called and how to start it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use puzzle_qa_core::diagnostic::Diagnostic;
use serde::Deserialize;

/// The file name of a manifest in a level folder.
pub const FILE_NAME: &str = puzzle_qa_core::harness::MANIFEST;

/// A request with no answer after this long is a fault, unless the
/// manifest says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A game's manifest, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// The game's name (its trials are `<name>::<level>::<check>`).
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its level files' extension, without the dot.
    pub extension: String,
    /// How long a request may go unanswered.
    pub timeout: Duration,
    /// Game processes at most at once.
    pub processes: usize,
    /// The folder the manifest is in: the process runs there, and a
    /// relative program path is found from it.
    pub folder: PathBuf,
    /// The manifest as the user named it, for messages.
    pub shown: String,
}

/// The file as written; every field but `name` and `command` optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    name: String,
    command: Vec<String>,
    extension: Option<String>,
    timeout_seconds: Option<f64>,
    processes: Option<usize>,
}

impl Manifest {
    /// Reads the manifest at `path`; the error is rendered against the
    /// file (with its line and column), ready to print.
    pub fn read(path: &Path) -> Result<Manifest, String> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("error: cannot read the game manifest {shown}: {error}"))?;
        Manifest::parse(&text, path).map_err(|error| error.render(&shown, &text))
    }

    /// Reads a manifest's text, as if it were the file at `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Manifest, Diagnostic> {
        let written: Written = toml::from_str(text).map_err(|error| {
            let diagnostic = Diagnostic::error(error.message().to_string());
            match error.span() {
                Some(span) => {
                    let (line, column) = line_and_column(text, span.start);
                    diagnostic.at(line, column, span.len().max(1))
                }
                None => diagnostic,
            }
        })?;
        let at_key = |key: &str| {
            let offset = text.find(key).unwrap_or(0);
            let (line, column) = line_and_column(text, offset);
            (line, column, key.len())
        };
        let invalid = |key: &str, message: String| {
            let (line, column, width) = at_key(key);
            Diagnostic::error(message).at(line, column, width)
        };
        if !valid_name(&written.name) {
            return Err(invalid(
                "name",
                format!(
                    "`{}` is not a game name: use lowercase letters, digits and `-`, starting with a letter",
                    written.name
                ),
            ));
        }
        if written.command.is_empty() || written.command[0].is_empty() {
            return Err(invalid(
                "command",
                "`command` names no program: write it as [\"program\", \"argument\", …]".into(),
            ));
        }
        let timeout = match written.timeout_seconds {
            None => DEFAULT_TIMEOUT,
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                Duration::from_secs_f64(seconds)
            }
            Some(_) => {
                return Err(invalid(
                    "timeout_seconds",
                    "`timeout_seconds` must be a number of seconds above 0".into(),
                ));
            }
        };
        if written.processes == Some(0) {
            return Err(invalid(
                "processes",
                "`processes` must be at least 1".into(),
            ));
        }
        let folder = path
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Ok(Manifest {
            name: written.name,
            command: written.command,
            extension: written.extension.unwrap_or_else(|| "txt".into()),
            timeout,
            processes: written
                .processes
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
            folder,
            shown: path.display().to_string(),
        })
    }
}

/// A game name: lowercase letters, digits and `-`, starting with a letter
/// (it is a folder name and the first part of every trial name).
fn valid_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The 1-based line and character column of byte `offset` of `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, Diagnostic> {
        Manifest::parse(text, Path::new("levels/tiny/game.toml"))
    }

    #[test]
    fn defaults_fill_what_the_file_leaves_out() {
        let manifest = parse("name = \"tiny\"\ncommand = [\"python3\", \"tiny.py\"]\n").unwrap();
        assert_eq!(manifest.extension, "txt");
        assert_eq!(manifest.timeout, DEFAULT_TIMEOUT);
        assert!(manifest.processes >= 1);
        assert_eq!(manifest.folder, Path::new("levels/tiny"));
    }

    #[test]
    fn mistakes_point_at_their_line_and_column() {
        let error = parse("name = \"tiny\"\ncommand = []\n").unwrap_err();
        assert_eq!((error.line, error.column), (2, 1));
        let error = parse("name = \"Tiny Game\"\ncommand = [\"x\"]\n").unwrap_err();
        assert!(
            error.message.contains("not a game name"),
            "{}",
            error.message
        );
        let error = parse("name = \"tiny\"\ncommand = [\"x\"]\ntimeout = 3\n").unwrap_err();
        assert_eq!(error.line, 3, "{}", error.message);
        let error =
            parse("name = \"tiny\"\ncommand = [\"x\"]\ntimeout_seconds = -1\n").unwrap_err();
        assert_eq!(error.line, 3);
    }
}
