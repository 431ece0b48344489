//! The environment, read in one place. Nothing else in the harness looks at
//! environment variables or asks whether output goes to a terminal.

use std::path::PathBuf;

use super::game_checks::GameChecks;
use super::settings::{Frontend, Settings};

impl Settings {
    /// Settings from the environment: `BLESS` and `CI` are on when set to
    /// anything but empty, `0` or `false`; colour needs a terminal and no
    /// `NO_COLOR`.
    pub fn from_env(
        root: impl Into<PathBuf>,
        games: &'static [GameChecks],
        frontend: Frontend,
        output_is_terminal: bool,
    ) -> Self {
        Settings {
            bless: is_on("BLESS"),
            ci: is_on("CI"),
            color: output_is_terminal && colour_allowed(),
            frontend,
            ..Settings::new(root, games)
        }
    }
}

/// Whether a flag variable is switched on.
pub fn is_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|value| flag_value_is_on(&value))
}

/// `BLESS`/`CI`-style truthiness: anything but empty, `0` or `false`.
pub fn flag_value_is_on(value: &str) -> bool {
    let value = value.trim();
    !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
}

/// <https://no-color.org>: `NO_COLOR` set to a non-empty value turns colour off.
pub fn colour_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}
