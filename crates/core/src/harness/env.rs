//! The environment, read in one place. Nothing else in the harness, nor the
//! command line, looks at environment variables or asks whether output goes
//! to a terminal: both front ends build their [`Settings`] here.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use super::game_checks::GameChecks;
use super::settings::{Frontend, PendingPlace, Settings};

impl Settings {
    /// Settings for the `cargo test` runner: `BLESS` is on for `1`, `true`
    /// or `yes`, off when unset, empty, `0`, `false` or `no`; any other
    /// value is an error that names the accepted ones. Colour as for the
    /// command line.
    pub fn for_cargo_test(
        root: impl Into<PathBuf>,
        games: &'static [GameChecks],
    ) -> Result<Self, String> {
        Ok(Settings {
            bless: bless_from_env()?,
            ..Settings::from_env(root, games, Frontend::CargoTest, true)?
        })
    }

    /// Settings for the `puzzle-qa` command line, which blesses only when
    /// told to (`puzzle-qa bless`), never because of `BLESS`. Colour needs
    /// output meant for people (`text`). An error names a variable whose
    /// value is not understood.
    pub fn for_command_line(
        root: impl Into<PathBuf>,
        games: &'static [GameChecks],
        text: bool,
    ) -> Result<Self, String> {
        Settings::from_env(root, games, Frontend::Cli, text)
    }

    /// What both front ends read: `CI` is on when set to anything but
    /// empty, `0`, `false` or `no` (CI services set it to `true` or `1`);
    /// `PUZZLE_QA_UPDATE=no` is check mode; pending files go under
    /// `PUZZLE_QA_PENDING_DIR` when it is set, else beside the expectation
    /// files unless in CI or check mode; colour needs `text` output, a
    /// terminal on stdout and no `NO_COLOR` (<https://no-color.org>).
    fn from_env(
        root: impl Into<PathBuf>,
        games: &'static [GameChecks],
        frontend: Frontend,
        text: bool,
    ) -> Result<Self, String> {
        let ci = ci_from_env();
        let check_only = check_only_from_env()?;
        let pending = match std::env::var_os(PENDING_DIR).filter(|dir| !dir.is_empty()) {
            Some(dir) => PendingPlace::Under(absolute(PathBuf::from(dir))),
            None if ci || check_only => PendingPlace::Nowhere,
            None => PendingPlace::Beside,
        };
        Ok(Settings {
            ci,
            check_only,
            pending,
            color: text && std::io::stdout().is_terminal() && colour_allowed(),
            frontend,
            ..Settings::new(root, games)
        })
    }

    /// Check mode, as `puzzle-qa check --check` asks for it: nothing is
    /// written into the repository (pending files still go under
    /// `PUZZLE_QA_PENDING_DIR` when it is set: that folder was asked for).
    pub fn checking_only(self) -> Self {
        let pending = match self.pending {
            PendingPlace::Beside => PendingPlace::Nowhere,
            other => other,
        };
        Settings {
            check_only: true,
            pending,
            ..self
        }
    }
}

/// The variable naming the folder that receives pending files instead of
/// the repository (CI uploads it as an artifact).
pub const PENDING_DIR: &str = "PUZZLE_QA_PENDING_DIR";

/// The variable that turns on check mode with `no`.
pub const UPDATE: &str = "PUZZLE_QA_UPDATE";

/// `path` made absolute from the current folder, so that it means the same
/// whichever folder a test process runs in.
fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}

/// `PUZZLE_QA_UPDATE`, strictly (as `BLESS`): `no` is check mode; unset,
/// empty or `auto` is the default (pending files beside the expectations
/// outside CI).
fn check_only_from_env() -> Result<bool, String> {
    let Some(value) = std::env::var_os(UPDATE) else {
        return Ok(false);
    };
    let value = value.to_string_lossy();
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "auto" => Ok(false),
        "no" => Ok(true),
        _ => Err(format!(
            "{UPDATE}={value} is not understood: set {UPDATE}=no to write nothing into the \
             repository (check mode), or {UPDATE}=auto (or leave it unset) to keep pending \
             changes beside the expectation files for `puzzle-qa review`"
        )),
    }
}

/// The package folder of a `cargo test` run: the one cargo names when it
/// runs the test (`CARGO_MANIFEST_DIR` at run time), else `built`, the one
/// the binary was compiled in. A test binary shared by two copies of a
/// repository (one target folder) so checks the copy it was started for.
pub(crate) fn package_folder(built: PathBuf) -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or(built, PathBuf::from)
}

/// `CI`, leniently: anything but unset, empty, `0`, `false` or `no`.
fn ci_from_env() -> bool {
    std::env::var("CI").is_ok_and(|value| {
        let value = value.trim();
        !(value.is_empty()
            || value == "0"
            || ["false", "no"]
                .iter()
                .any(|off| value.eq_ignore_ascii_case(off)))
    })
}

/// `BLESS`, strictly: a typo must not silently leave expectations unblessed
/// (or bless them).
fn bless_from_env() -> Result<bool, String> {
    let Some(value) = std::env::var_os("BLESS") else {
        return Ok(false);
    };
    let value = value.to_string_lossy();
    parse_flag(&value).ok_or_else(|| {
        format!(
            "BLESS={value} is not understood: set BLESS=1 (or true, yes) to bless, or BLESS=0 \
             (or false, no, empty), or leave it unset, not to"
        )
    })
}

/// A flag's value: `1`/`true`/`yes` on, empty/`0`/`false`/`no` off, in any
/// case and with spaces around; `None` for anything else.
fn parse_flag(value: &str) -> Option<bool> {
    let value = value.trim().to_ascii_lowercase();
    match value.as_str() {
        "1" | "true" | "yes" => Some(true),
        "" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// `NO_COLOR` set to a non-empty value turns colour off.
fn colour_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::parse_flag;

    #[test]
    fn a_flag_is_on_off_or_not_understood() {
        for on in ["1", "true", "YES", " yes "] {
            assert_eq!(parse_flag(on), Some(true), "{on:?}");
        }
        for off in ["", "0", "false", "No"] {
            assert_eq!(parse_flag(off), Some(false), "{off:?}");
        }
        for odd in ["2", "y", "on", "bless"] {
            assert_eq!(parse_flag(odd), None, "{odd:?}");
        }
    }
}
