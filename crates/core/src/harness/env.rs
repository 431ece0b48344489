//! The environment, read in one place. Nothing else in the harness, nor the
//! command line, looks at environment variables or asks whether output goes
//! to a terminal: both front ends build their [`Settings`] here, and tell
//! the searches how much memory the machine has for them
//! ([`share_machine_memory`]) and on how many threads ([`use_threads`]).

use std::io::IsTerminal as _;
use std::path::PathBuf;

use super::game_checks::GameChecks;
use super::settings::{Frontend, PendingPlace, Settings};
use crate::search::Size;
use crate::search::ledger::{self, Machine};

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

/// Tells the searches of this process how much memory the machine has for
/// them all together, so that searches running at once wait for room
/// rather than add up past it ([`ledger`]). Both front ends call it at
/// start. Nothing is told where the figures cannot be read (not Linux):
/// then each search is bounded by its budget and by what the allocator
/// refuses.
pub fn share_machine_memory() {
    ledger::share_machine(machine_memory());
}

/// The variable that sets the thread count when `--threads` is not given
/// (rayon's own: `0` or unset is one thread per core).
pub const THREADS: &str = "RAYON_NUM_THREADS";

/// Sets how many threads this process's searches run on: `flag` (the
/// command line's `--threads`), else `RAYON_NUM_THREADS`, else one per
/// core. Both front ends call it at start, before any search; a level's
/// search expands its frontier on all of them, and many levels share them
/// ([`crate::search::bfs`]). Results never depend on the count. An error
/// names a variable whose value is not a number.
pub fn use_threads(flag: Option<usize>) -> Result<(), String> {
    let threads = match flag {
        Some(threads) => threads,
        None => threads_from_env()?,
    };
    // Only the first call in a process sets the pool (a test binary's
    // front end may run more than once): later ones keep it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    Ok(())
}

/// `RAYON_NUM_THREADS` as rayon reads it (a number; 0, empty or unset is
/// one thread per core), but strictly: anything else is an error rather
/// than silently one per core.
fn threads_from_env() -> Result<usize, String> {
    let Some(value) = std::env::var_os(THREADS) else {
        return Ok(0);
    };
    let value = value.to_string_lossy();
    parse_threads(&value).ok_or_else(|| {
        format!(
            "{THREADS}={value} is not understood: set it to a number of threads, such as              {THREADS}=4, or to 0 (or leave it unset) for one per core"
        )
    })
}

/// A thread count as `RAYON_NUM_THREADS` holds one (0 and empty: one per
/// core).
fn parse_threads(value: &str) -> Option<usize> {
    match value.trim() {
        "" => Some(0),
        number => number.parse().ok(),
    }
}

/// The memory this process's searches may take on this machine: the least
/// of the memory available (`MemAvailable`), the room left under the
/// cgroup's limit (a container's), and the room left under the address-
/// space limit (`ulimit -v`), less a margin for everything else the
/// process holds (the games' own memory, threads' stacks, the allocator's
/// arenas): an eighth, and at least 256 MiB.
pub fn machine_memory() -> Option<Machine> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let mut rooms: Vec<(u64, String)> = Vec::new();
    if let Some(available) = read("/proc/meminfo")
        .as_deref()
        .and_then(|text| field_kib(text, "MemAvailable:"))
    {
        rooms.push((available, "the memory available, MemAvailable".to_string()));
    }
    if let Some(cgroups) = read("/proc/self/cgroup") {
        rooms.extend(cgroup_rooms(&cgroups, read));
    }
    if let (Some(limits), Some(status)) = (read("/proc/self/limits"), read("/proc/self/status"))
        && let Some(room) = address_space_room(&limits, &status)
    {
        rooms.push((room, "the address-space limit, `ulimit -v`".to_string()));
    }
    let (room, what) = rooms.into_iter().min_by_key(|(room, _)| *room)?;
    let margin = (room / 8).max(256 << 20);
    Some(Machine {
        bytes: room.saturating_sub(margin).max(1),
        what: format!("{what}, leaves {}", Size(room)),
    })
}

/// A `Name:   1234 kB` line's value, in bytes.
fn field_kib(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find_map(|line| line.strip_prefix(name))?;
    let kib: u64 = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// The room left under each memory limit of the process's cgroups: for
/// cgroup v2 (`0::/path`), `memory.max` less `memory.current` of its folder
/// and each one above it; for v1 (`N:memory:/path`),
/// `memory.limit_in_bytes` less `memory.usage_in_bytes`, in its folder or at
/// the mount's root (inside a container, the path is the host's).
fn cgroup_rooms(cgroups: &str, read: impl Fn(&str) -> Option<String>) -> Vec<(u64, String)> {
    let number = |path: String| -> Option<u64> { read(&path)?.trim().parse().ok() };
    // Limits this big mean none.
    let real = |limit: u64| limit < 1 << 60;
    let mut rooms = Vec::new();
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            let mut folder = format!("/sys/fs/cgroup{}", path.trim_end_matches('/'));
            loop {
                if let (Some(max), Some(current)) = (
                    number(format!("{folder}/memory.max")),
                    number(format!("{folder}/memory.current")),
                ) && real(max)
                {
                    rooms.push((
                        max.saturating_sub(current),
                        "the cgroup's memory limit, memory.max".to_string(),
                    ));
                }
                match folder.rfind('/') {
                    Some(cut) if folder.len() > "/sys/fs/cgroup".len() => folder.truncate(cut),
                    _ => break,
                }
            }
        } else if controllers
            .split(',')
            .any(|controller| controller == "memory")
        {
            let base = "/sys/fs/cgroup/memory";
            for folder in [
                format!("{base}{}", path.trim_end_matches('/')),
                base.to_string(),
            ] {
                if let (Some(limit), Some(usage)) = (
                    number(format!("{folder}/memory.limit_in_bytes")),
                    number(format!("{folder}/memory.usage_in_bytes")),
                ) && real(limit)
                {
                    rooms.push((
                        limit.saturating_sub(usage),
                        "the cgroup's memory limit, memory.limit_in_bytes".to_string(),
                    ));
                }
            }
        }
    }
    rooms
}

/// The room left under the soft address-space limit (`Max address space`
/// in `/proc/self/limits`), less what the process maps now (`VmSize`).
fn address_space_room(limits: &str, status: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let mapped = field_kib(status, "VmSize:").unwrap_or(0);
    Some(soft.saturating_sub(mapped))
}

/// `NO_COLOR` set to a non-empty value turns colour off.
fn colour_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::{address_space_room, cgroup_rooms, field_kib, parse_flag, parse_threads};

    #[test]
    fn the_machine_room_is_read_from_each_kind_of_limit() {
        assert_eq!(
            field_kib(
                "MemTotal: 8 kB\nMemAvailable:    2048 kB\n",
                "MemAvailable:"
            ),
            Some(2 << 20)
        );
        let limits = "Limit  Soft Limit  Hard Limit  Units\nMax address space         2048000000           unlimited            bytes\n";
        let status = "Name: x\nVmSize:\t   48000 kB\n";
        assert_eq!(
            address_space_room(limits, status),
            Some(2_048_000_000 - 48_000 * 1024)
        );
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_room(unlimited, status), None);
        let files = |path: &str| {
            match path {
                "/sys/fs/cgroup/job/memory.max" => Some("1000\n"),
                "/sys/fs/cgroup/job/memory.current" => Some("400\n"),
                "/sys/fs/cgroup/memory.max" => Some("max\n"),
                "/sys/fs/cgroup/memory/memory.limit_in_bytes" => Some("9223372036854771712"),
                "/sys/fs/cgroup/memory/memory.usage_in_bytes" => Some("5"),
                _ => None,
            }
            .map(str::to_string)
        };
        let rooms: Vec<u64> = cgroup_rooms("0::/job\n4:memory:/x\n", files)
            .into_iter()
            .map(|(room, _)| room)
            .collect();
        assert_eq!(rooms, [600]);
    }

    #[test]
    fn a_thread_count_is_a_number_or_not_understood() {
        assert_eq!(parse_threads("4"), Some(4));
        assert_eq!(parse_threads(" 0 "), Some(0));
        assert_eq!(parse_threads(""), Some(0));
        for odd in ["four", "-1", "2.5"] {
            assert_eq!(parse_threads(odd), None, "{odd:?}");
        }
    }

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
