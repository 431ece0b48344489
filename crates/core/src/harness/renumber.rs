//! Levels that moved inside a file of several: when a level is inserted or
//! deleted in the middle, every later level changes number. Each level's
//! table keeps its level's fingerprint (machine-owned), so the tables can
//! follow their levels: "levels 3–9 moved down by one", not seven unrelated
//! diffs. Under bless the tables are renamed on disk, comments and all;
//! otherwise only in memory, and the `orphans` trial says what bless would
//! do.

use std::collections::BTreeSet;

use toml_edit::{DocumentMut, Item, Key, Table};

use super::bless;
use super::discover::LevelEntry;
use super::expectations::{Expectations, print};
use super::keys::FINGERPRINT;
use super::settings::Settings;

/// What moved in one expectation file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renumbering {
    /// Tables that follow their level to a new number: (old key, new number),
    /// by old number.
    pub moves: Vec<(usize, usize)>,
    /// Tables of levels gone from the file that a moved table would have
    /// overwritten: each is kept under `removed-N` for a person (or
    /// `bless --prune`) to delete.
    pub displaced: Vec<usize>,
    /// Whether the file on disk was rewritten so (under bless).
    pub written: bool,
}

impl Renumbering {
    /// Whether nothing moved.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.displaced.is_empty()
    }

    /// What moved, in plain words, one line per run of levels that moved
    /// together: `levels 3–9 moved down by one (now 4–10)`.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let mut runs: Vec<(usize, usize, isize)> = Vec::new(); // first old, last old, shift
        for &(old, new) in &self.moves {
            let shift = new as isize - old as isize;
            match runs.last_mut() {
                Some((_, last, run)) if *last + 1 == old && *run == shift => *last = old,
                _ => runs.push((old, old, shift)),
            }
        }
        for (first, last, shift) in runs {
            let way = if shift > 0 { "down" } else { "up" };
            let by = in_words(shift.unsigned_abs());
            let now = |n: usize| n.saturating_add_signed(shift);
            lines.push(if first == last {
                format!(
                    "level {} is the old level {first}: it moved {way} by {by}",
                    now(first)
                )
            } else {
                format!(
                    "levels {first}–{last} moved {way} by {by} (now {}–{})",
                    now(first),
                    now(last)
                )
            });
        }
        for number in &self.displaced {
            lines.push(format!(
                "the old level {number} is gone: its table is kept as [{}]",
                removed_key(*number)
            ));
        }
        lines
    }
}

/// `removed-N`: where a displaced table is kept.
pub(super) fn removed_key(number: usize) -> String {
    format!("removed-{number}")
}

fn in_words(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |word| word.to_string())
}

/// The expectation file of `entry`'s level file, with its tables renumbered
/// to follow moved levels (`fingerprints`: the file's levels', in order):
/// on disk when `settings` may write, else in memory only.
pub(crate) fn load(
    entry: &LevelEntry,
    settings: &Settings,
    fingerprints: &[String],
) -> Result<(Expectations, Renumbering), String> {
    let shown = &entry.shown_expectation;
    let expectations = Expectations::load(&entry.expectation_path, shown)?;
    if entry.member.is_none() || fingerprints.is_empty() {
        return Ok((expectations, Renumbering::default()));
    }
    let plan = plan(expectations.document().as_table(), fingerprints);
    if plan.is_empty() {
        return Ok((expectations, plan));
    }
    if settings.may_write() {
        let plan = rewrite(entry, fingerprints)?;
        // A pending file's tables carry the old numbers: it goes, and the
        // checks of this run say again what is still to review.
        if let Some(pending) = super::pending::pending_path(settings, &entry.expectation_path) {
            let _ = std::fs::remove_file(pending);
        }
        let expectations = Expectations::load(&entry.expectation_path, shown)?;
        return Ok((
            expectations,
            Renumbering {
                written: true,
                ..plan
            },
        ));
    }
    let mut document = expectations.document().clone();
    rename(&mut document, &plan);
    let text = print(&document, expectations.text());
    Ok((Expectations::parse(shown, text, true)?, plan))
}

/// Renumbers the tables of `entry`'s expectation file on disk, planned on
/// the file as it is under the level's lock (another writer may have
/// changed it since it was read), through bless's writer.
fn rewrite(entry: &LevelEntry, fingerprints: &[String]) -> Result<Renumbering, String> {
    if !entry.expectation_path.exists() {
        return Ok(Renumbering::default());
    }
    let mut planned = Renumbering::default();
    bless::edit(entry, |document| {
        planned = plan(document.as_table(), fingerprints);
        rename(document, &planned);
        // Anything to write: a word per change, as bless counts them.
        planned.summary()
    })?;
    Ok(planned)
}

/// Which tables follow which levels: [`tables_taken`], as moves and the
/// tables they displace.
pub(super) fn plan(root: &Table, fingerprints: &[String]) -> Renumbering {
    let taken = tables_taken(root, fingerprints);
    let claimed: BTreeSet<usize> = taken.iter().flatten().copied().collect();
    let moves: Vec<(usize, usize)> = {
        let mut moves: Vec<(usize, usize)> = taken
            .iter()
            .enumerate()
            .filter_map(|(index, n)| n.filter(|&n| n != index + 1).map(|n| (n, index + 1)))
            .collect();
        moves.sort_unstable();
        moves
    };
    let displaced = numbered_tables(root)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !claimed.contains(n) && moves.iter().any(|(_, new)| new == n))
        .collect();
    Renumbering {
        moves,
        displaced,
        written: false,
    }
}

/// For each level of a file of several (`fingerprints`: theirs, in file
/// order), the number of the table of `root` (an expectation file) it
/// takes: the table bless gives it, and its checks compare with; `None`
/// for a level that takes none (a new one). Level `m` is at `m - 1`.
///
/// A table whose fingerprint is its level's (or that has none yet) stays;
/// a level whose table is elsewhere takes the one table with its
/// fingerprint; a level matched by neither (edited as well as moved) takes
/// the table its neighbours' shift points at, if that one is free.
/// Everything else stays where it is.
pub fn tables_taken(root: &Table, fingerprints: &[String]) -> Vec<Option<usize>> {
    let tables = numbered_tables(root);
    let fingerprint_of = |number: usize| tables.iter().find(|(n, _)| *n == number).map(|t| t.1);
    let count = fingerprints.len();
    // table[m - 1]: the old number of the table level m takes.
    let mut table: Vec<Option<usize>> = vec![None; count];
    let mut claimed = BTreeSet::new();
    for m in 1..=count {
        if let Some(found) = fingerprint_of(m)
            && found.is_none_or(|found| found == fingerprints[m - 1])
        {
            table[m - 1] = Some(m);
            claimed.insert(m);
        }
    }
    for m in 1..=count {
        if table[m - 1].is_some() {
            continue;
        }
        let mut same = tables.iter().filter(|(n, found)| {
            !claimed.contains(n) && *found == Some(fingerprints[m - 1].as_str())
        });
        if let (Some(&(n, _)), None) = (same.next(), same.next()) {
            table[m - 1] = Some(n);
            claimed.insert(n);
        }
    }
    for m in 1..=count {
        if table[m - 1].is_some() {
            continue;
        }
        let shift_at =
            |level: usize| table[level - 1].map(|n| m as isize + n as isize - level as isize);
        let before = (1..m).rev().find_map(shift_at);
        let after = (m + 1..=count).find_map(shift_at);
        for candidate in [before, after, Some(m as isize)].into_iter().flatten() {
            let Ok(n) = usize::try_from(candidate) else {
                continue;
            };
            if fingerprint_of(n).is_some() && !claimed.contains(&n) {
                table[m - 1] = Some(n);
                claimed.insert(n);
                break;
            }
        }
    }
    table
}

/// The level tables of `root`, `[1]` and up: each one's number and the
/// fingerprint it holds, in file order.
fn numbered_tables(root: &Table) -> Vec<(usize, Option<&str>)> {
    root.iter()
        .filter_map(|(key, item)| {
            let number = key.parse::<usize>().ok().filter(|&n| n >= 1)?;
            let table = item.as_table()?;
            Some((number, table.get(FINGERPRINT).and_then(Item::as_str)))
        })
        .collect()
}

/// Renames the tables as `plan` says. Each table keeps its place in the
/// file, its comments and its own tables (`[4.mechanics]` follows `[4]`).
pub(crate) fn rename(document: &mut DocumentMut, plan: &Renumbering) {
    let root = document.as_table_mut();
    let mut taken: Vec<(String, Item)> = Vec::new();
    for (old, new) in &plan.moves {
        if let Some((_, item)) = root.remove_entry(&old.to_string()) {
            taken.push((new.to_string(), item));
        }
    }
    for old in &plan.displaced {
        if let Some((_, item)) = root.remove_entry(&old.to_string()) {
            taken.push((removed_key(*old), item));
        }
    }
    for (key, item) in taken {
        root.insert_formatted(&Key::new(key), item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(text: &str) -> DocumentMut {
        text.parse().unwrap()
    }

    fn fps(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn an_inserted_level_moves_the_later_tables_down() {
        let doc = tables(
            "[1]\nfingerprint = \"a\"\n[2]\nfingerprint = \"b\"\n[3]\nfingerprint = \"c\"\n",
        );
        let plan = plan(doc.as_table(), &fps(&["a", "new", "b", "c"]));
        assert_eq!(plan.moves, [(2, 3), (3, 4)]);
        assert!(plan.displaced.is_empty());
        assert_eq!(plan.summary(), ["levels 2–3 moved down by one (now 3–4)"]);
    }

    #[test]
    fn a_deleted_level_keeps_its_table_aside() {
        let doc = tables(
            "[1]\nfingerprint = \"a\"\n[2]\nfingerprint = \"b\"\n[3]\nfingerprint = \"c\"\n",
        );
        let plan = plan(doc.as_table(), &fps(&["a", "c"]));
        assert_eq!(plan.moves, [(3, 2)]);
        assert_eq!(plan.displaced, [2]);
        assert_eq!(
            plan.summary(),
            [
                "level 2 is the old level 3: it moved up by one",
                "the old level 2 is gone: its table is kept as [removed-2]"
            ]
        );
    }

    #[test]
    fn an_edited_level_that_also_moved_follows_its_neighbours() {
        let doc = tables(
            "[1]\nfingerprint = \"a\"\n[2]\nfingerprint = \"b\"\n[3]\nfingerprint = \"c\"\n",
        );
        // A level is inserted first, and the old level 2 is edited.
        let plan = plan(doc.as_table(), &fps(&["new", "a", "b2", "c"]));
        assert_eq!(plan.moves, [(1, 2), (2, 3), (3, 4)]);
    }

    #[test]
    fn each_level_takes_the_table_it_follows_by_number() {
        let doc = tables(
            "[1]\nfingerprint = \"a\"\n[2]\nfingerprint = \"b\"\n[3]\nfingerprint = \"c\"\n",
        );
        // Inserted first: new; moved: its fingerprint's; moved and edited:
        // its neighbours' shift.
        assert_eq!(
            tables_taken(doc.as_table(), &fps(&["new", "a", "b2", "c"])),
            [None, Some(1), Some(2), Some(3)]
        );
        // Deleted: its table is nobody's.
        assert_eq!(
            tables_taken(doc.as_table(), &fps(&["a", "c"])),
            [Some(1), Some(3)]
        );
    }

    #[test]
    fn edits_in_place_and_tables_without_fingerprints_stay() {
        let doc = tables("[1]\nfingerprint = \"a\"\n[2]\npar = 3\n");
        assert!(plan(doc.as_table(), &fps(&["a2", "b"])).is_empty());
    }

    #[test]
    fn renaming_keeps_comments_and_inner_tables() {
        let mut doc = tables(
            "# level one\n[1]\nfingerprint = \"a\"\n\n# the crate level\n[2]\nfingerprint = \"b\" # keep\n\n[2.mechanics]\ncrate = \"essential\"\n",
        );
        let plan = plan(doc.as_table(), &fps(&["new", "a", "b"]));
        rename(&mut doc, &plan);
        assert_eq!(
            doc.to_string(),
            "# level one\n[2]\nfingerprint = \"a\"\n\n# the crate level\n[3]\nfingerprint = \"b\" # keep\n\n[3.mechanics]\ncrate = \"essential\"\n"
        );
    }
}
