//! What a search may keep, and why it stopped when it stopped: a count of
//! states and a number of bytes ([`Budget`]), the bound that was reached
//! ([`Bound`]), how far the search got in depths ([`Depths`]), and sizes as
//! people write them (`4GiB`, `512MiB`).

use std::fmt;

use super::DEFAULT_STATE_LIMIT;

/// The default memory budget of one search: 2 GiB of its own buffers.
///
/// Why 2 GiB: a 7 GB CI runner (2 cores) that runs the suite with every
/// thread busy holds two searches at a time, or two test processes under
/// nextest, each under its budget: 4 GiB with room to spare for the games'
/// own memory and the system. Within one process, searches that grow past
/// a share wait for room ([`super::ledger`]), so more threads do not add up
/// past the machine either. There is no default count of states: a
/// level's searches go as deep as its states fit, 60 million of 34 bytes
/// or half a million of 4 KB, and a level's `limit` key caps them where a
/// designer wants a quicker verdict.
pub const DEFAULT_MEMORY: u64 = 2 << 30;

/// How much a search may keep: at most `states` stored states, and at most
/// `bytes` bytes in the buffers it allocates itself (its states, parent
/// links, visited table, queue, costs and heap: their capacities, so the
/// figure depends on the level and the budget alone, never on the machine
/// or the thread count). Whichever is reached first stops it.
///
/// A plain number is a state limit with the default memory budget, so
/// `bfs(&game, 1000)` reads as it always did.
///
/// ```
/// use puzzle_qa_core::search::{Budget, DEFAULT_MEMORY};
/// assert_eq!(Budget::from(1000), Budget { states: 1000, bytes: DEFAULT_MEMORY });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most states the search may store.
    pub states: usize,
    /// The most bytes its own buffers may take, all together.
    pub bytes: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            states: DEFAULT_STATE_LIMIT,
            bytes: DEFAULT_MEMORY,
        }
    }
}

impl From<usize> for Budget {
    fn from(states: usize) -> Self {
        Budget {
            states,
            ..Budget::default()
        }
    }
}

/// Which bound stopped a search before it decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// It would have stored more states than its state limit.
    States,
    /// Its buffers would have grown past its memory budget.
    Memory,
    /// The machine gave it less memory than its budget: an allocation was
    /// refused (a `ulimit -v`, an overcommit policy), or the memory the
    /// machine has for searches is smaller than the budget. Why, in words.
    Machine(String),
}

impl Bound {
    /// `states`, `memory` or `machine`: the name in `--json` output.
    pub fn name(&self) -> &'static str {
        match self {
            Bound::States => "states",
            Bound::Memory => "memory",
            Bound::Machine(_) => "machine",
        }
    }

    /// Why the machine stopped the search, for [`Bound::Machine`].
    pub fn reason(&self) -> Option<&str> {
        match self {
            Bound::Machine(reason) => Some(reason),
            Bound::States | Bound::Memory => None,
        }
    }
}

/// How far a breadth-first search had got when it stopped: its last
/// complete depth, and how much that depth grew on the one before. With
/// the growth a designer can tell whether a bound twice as big would reach
/// one more depth: at a growth of ×3, the next depth alone needs three
/// times the states of the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depths {
    /// The deepest depth whose states were all stored (moves from the start).
    pub deepest: u32,
    /// The states stored at that depth.
    pub states: u64,
    /// The states stored at the depth before it (0 when `deepest` is 0).
    pub before: u64,
    /// The states stored so far at the next depth, which the search was
    /// filling when it stopped.
    pub beyond: u64,
}

impl Depths {
    /// How many times more states the last complete depth had than the one
    /// before it (`None` at depth 0).
    pub fn growth(&self) -> Option<f64> {
        (self.before > 0).then(|| self.states as f64 / self.before as f64)
    }

    /// The states the next depth would hold if it grew as the last did.
    pub fn next_estimate(&self) -> Option<u64> {
        let growth = self.growth()?;
        Some(((self.states as f64 * growth).round() as u64).max(self.beyond))
    }
}

/// Why a search stopped without deciding (`Outcome::LimitReached`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The bound it reached.
    pub bound: Bound,
    /// How far it got, in depths: breadth-first search only.
    pub depths: Option<Depths>,
}

impl Reached {
    /// One sentence on the last depth's growth, and what finishing the next
    /// depth would take at that rate against what the search kept, as a
    /// message says it; `None` without depths (best-first search) or at
    /// depth 0.
    ///
    /// ```
    /// use puzzle_qa_core::search::{Bound, Depths, Reached};
    /// let reached = Reached {
    ///     bound: Bound::Memory,
    ///     depths: Some(Depths { deepest: 14, states: 300_000, before: 100_000, beyond: 50_000 }),
    /// };
    /// assert_eq!(
    ///     reached.growth_sentence(500_000).unwrap(),
    ///     "the last complete depth, 14, held 300000 states, 3.0 times depth 13; at that rate \
    ///      depth 15 holds about 900000, so finishing it takes about 2.7 times as much as was kept"
    /// );
    /// ```
    pub fn growth_sentence(&self, stored: u64) -> Option<String> {
        let depths = self.depths?;
        let growth = depths.growth()?;
        let next = depths.next_estimate()?;
        // Stored before the next depth, plus the whole of it.
        let needed = stored - depths.beyond + next;
        Some(format!(
            "the last complete depth, {}, held {} states, {growth:.1} times depth {}; at that rate \
             depth {} holds about {next}, so finishing it takes about {:.1} times as much as was \
             kept",
            depths.deepest,
            depths.states,
            depths.deepest - 1,
            depths.deepest + 1,
            needed as f64 / stored.max(1) as f64
        ))
    }
}

/// The units a size may be written in, with their value in bytes. A
/// letter alone is binary, as Docker's `--memory 2g` and Java's `-Xmx2G`
/// read it.
const UNITS: [(&str, u64); 13] = [
    ("b", 1),
    ("k", 1 << 10),
    ("m", 1 << 20),
    ("g", 1 << 30),
    ("t", 1 << 40),
    ("kib", 1 << 10),
    ("mib", 1 << 20),
    ("gib", 1 << 30),
    ("tib", 1 << 40),
    ("kb", 1_000),
    ("mb", 1_000_000),
    ("gb", 1_000_000_000),
    ("tb", 1_000_000_000_000),
];

/// What a size may look like, for error messages.
pub const SIZE_FORMS: &str = "a number and a unit, such as 4GiB, 512MiB, 2G or 1.5GB (units: B, \
                              KiB, MiB, GiB, TiB, or K, M, G, T alone, for powers of 1024; kB, \
                              MB, GB, TB for powers of 1000)";

/// Reads a size in bytes as people write one: a number (decimals allowed)
/// and a unit, with or without a space, in any case.
///
/// ```
/// use puzzle_qa_core::search::parse_size;
/// assert_eq!(parse_size("4GiB"), Ok(4 << 30));
/// assert_eq!(parse_size("512 MiB"), Ok(512 << 20));
/// assert_eq!(parse_size("1.5gb"), Ok(1_500_000_000));
/// assert!(parse_size("4").unwrap_err().contains("needs a unit"));
/// assert!(parse_size("4 GiBs").unwrap_err().contains("such as 4GiB"));
/// ```
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let unit = unit.trim_start().to_ascii_lowercase();
    let wrong = |why: &str| format!("`{text}` is not a size{why}: write {SIZE_FORMS}");
    if number.is_empty() {
        return Err(wrong(""));
    }
    if unit.is_empty() {
        return Err(wrong(" (it needs a unit)"));
    }
    let Some(&(_, scale)) = UNITS.iter().find(|(name, _)| *name == unit) else {
        return Err(wrong(""));
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return Err(wrong(""));
    }
    let too_big = || format!("`{text}` is too big a size");
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_big())?
    };
    // The fraction exactly, in whole bytes (rounded down): 1.5GB is
    // 1,500,000,000 and .5GiB 536,870,912.
    if fraction.len() > 18 {
        return Err(wrong(" (too many decimals)"));
    }
    let digits: u128 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| wrong(""))?
    };
    let part = digits * u128::from(scale) / 10u128.pow(fraction.len() as u32);
    let bytes = whole
        .checked_mul(scale)
        .and_then(|bytes| bytes.checked_add(part as u64))
        .ok_or_else(too_big)?;
    if bytes == 0 {
        return Err(format!(
            "`{text}` is no memory at all: a budget needs more than 0 bytes"
        ));
    }
    Ok(bytes)
}

/// A size as people read it: in the largest binary unit that leaves a
/// number of at least 1, with at most one decimal (`2 GiB`, `1.5 GiB`,
/// `300 KiB`, `12 B`). The alternate form, `{:#}`, is exact and one word,
/// for a command line: the largest unit that divides it (`4GiB`,
/// `1536MiB`, `1000B`).
///
/// ```
/// use puzzle_qa_core::search::{Size, parse_size};
/// assert_eq!(Size(2 << 30).to_string(), "2 GiB");
/// assert_eq!(Size(1536 << 20).to_string(), "1.5 GiB");
/// assert_eq!(Size(12).to_string(), "12 B");
/// assert_eq!(parse_size(&Size(768 << 20).to_string()), Ok(768 << 20));
/// assert_eq!(format!("{:#}", Size(1536 << 20)), "1536MiB");
/// assert_eq!(format!("{:#}", Size(1_000)), "1000B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub u64);

/// The binary units, largest first.
const BINARY: [(&str, u64); 4] = [
    ("TiB", 1 << 40),
    ("GiB", 1 << 30),
    ("MiB", 1 << 20),
    ("KiB", 1 << 10),
];

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            let (name, scale) = BINARY
                .into_iter()
                .find(|&(_, scale)| self.0 >= scale && self.0.is_multiple_of(scale))
                .unwrap_or(("B", 1));
            return write!(f, "{}{name}", self.0 / scale);
        }
        let (name, scale) = BINARY
            .into_iter()
            .find(|&(_, scale)| self.0 >= scale)
            .unwrap_or(("B", 1));
        if scale == 1 {
            return write!(f, "{} B", self.0);
        }
        let tenths = (self.0 as u128 * 10 + scale as u128 / 2) / scale as u128;
        if tenths.is_multiple_of(10) {
            write!(f, "{} {name}", tenths / 10)
        } else {
            write!(f, "{}.{} {name}", tenths / 10, tenths % 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_every_unit_and_refuse_the_rest() {
        assert_eq!(parse_size("1B"), Ok(1));
        assert_eq!(parse_size("3 KiB"), Ok(3 << 10));
        assert_eq!(parse_size("2TiB"), Ok(2 << 40));
        assert_eq!(parse_size("64kB"), Ok(64_000));
        assert_eq!(parse_size(".5 GiB"), Ok(1 << 29));
        assert_eq!(parse_size(" 7 MB "), Ok(7_000_000));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        for bad in [
            "",
            "GiB",
            "4 Gi",
            "4GiB extra",
            "1.2.3GiB",
            ".GiB",
            "-4GiB",
            "4 gigs",
        ] {
            let error = parse_size(bad).unwrap_err();
            assert!(error.contains("4GiB, 512MiB"), "{bad:?}: {error}");
        }
        assert!(parse_size("0GiB").unwrap_err().contains("more than 0"));
        assert!(
            parse_size("99999999999TiB")
                .unwrap_err()
                .contains("too big")
        );
    }

    #[test]
    fn a_depth_without_one_before_has_no_growth() {
        let depths = Depths {
            deepest: 0,
            states: 1,
            before: 0,
            beyond: 3,
        };
        assert_eq!(depths.growth(), None);
        let reached = Reached {
            bound: Bound::States,
            depths: Some(depths),
        };
        assert_eq!(reached.growth_sentence(4), None);
    }
}
