//! Mechanics whose names follow their text. A game may name a mechanic by
//! the text that defines it in the level file (a PuzzleScript rule line:
//! [`Mechanics::named_by_text`](crate::game::Mechanics::named_by_text)),
//! never by its line, so an edit elsewhere renames nothing; but editing
//! that text renames it. Its entry in each level's `[mechanics]` then
//! follows it, as a level's table follows its level when it moves
//! (`renumber.rs`): under bless the key is renamed on disk, through
//! bless's writer, its class and comments kept; otherwise only in memory,
//! and `orphans` says so. Either way the `ablation` check compares the
//! level's classes with the renamed entries, so an edited mechanic is
//! stale only in the levels where its class changed.
//!
//! Which old name is which new one: a level's names as its table holds
//! them, in the table's order, are aligned with its mechanics now, in the
//! game's order (a diff); within each run of the alignment that replaces
//! names by others, the names gone and the names new are paired in order,
//! both of the kind the game names by text. When a run has more of one
//! than of the other, the pairing chosen is the one whose texts are
//! closest. A name still present anywhere in the level is never paired.

use std::collections::{BTreeMap, BTreeSet};

use similar::{Algorithm, DiffOp, capture_diff_slices};
use toml_edit::{DocumentMut, Item, Key, Table, Value};

use super::bless;
use super::discover::LevelEntry;
use super::expectations::{Expectations, print};
use super::settings::Settings;
use crate::level::AnyLevel;

/// The key of a level's mechanics in its expectations.
const MECHANICS: &str = "mechanics";

/// One level as it is now, for following: where its table is, and the
/// level, which lists its mechanics and says which names follow text.
pub(crate) struct Now<'a> {
    /// Its table's key (`"3"`), or `None` for a file of one level.
    pub table: Option<String>,
    /// The level.
    pub level: &'a dyn AnyLevel,
}

/// One entry renamed to follow its mechanic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rename {
    /// The level's table (`None`: the file of one level).
    pub table: Option<String>,
    /// The name the entry had.
    pub old: String,
    /// The mechanic's name now.
    pub new: String,
    /// Where the mechanic is now, for messages.
    pub line: Option<usize>,
}

/// What followed in one expectation file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Following {
    /// Every entry renamed, level by level.
    pub renames: Vec<Rename>,
    /// Whether the file on disk was rewritten so (under bless).
    pub written: bool,
}

impl Following {
    /// What was renamed, a line per old name and new one, with the levels
    /// (of a file of several) whose tables held it: `` `a` → `b` on line
    /// 12 (levels 1–4, 7) ``.
    pub(crate) fn summary(&self) -> Vec<String> {
        // Each old and new name once, in the order first met, with the
        // levels that renamed it.
        let mut seen: Vec<(&Rename, Vec<usize>)> = Vec::new();
        for rename in &self.renames {
            let level = rename
                .table
                .as_deref()
                .and_then(|t| t.parse::<usize>().ok());
            match seen
                .iter_mut()
                .find(|(first, _)| (&first.old, &first.new) == (&rename.old, &rename.new))
            {
                Some((_, levels)) => levels.extend(level),
                None => seen.push((rename, level.into_iter().collect())),
            }
        }
        seen.into_iter()
            .map(|(rename, levels)| {
                let at = rename
                    .line
                    .map_or(String::new(), |line| format!(" on line {line}"));
                let levels = match levels.as_slice() {
                    [] => String::new(),
                    [one] => format!(" (level {one})"),
                    many => format!(" (levels {})", ranges(many)),
                };
                format!("`{}` → `{}`{at}{levels}", rename.old, rename.new)
            })
            .collect()
    }
}

/// `1–4, 7`: sorted numbers as runs.
fn ranges(numbers: &[usize]) -> String {
    let numbers: BTreeSet<usize> = numbers.iter().copied().collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    runs.iter()
        .map(|&(first, last)| {
            if first == last {
                first.to_string()
            } else {
                format!("{first}–{last}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The expectation file `expectations` of `entry`'s level file, with the
/// entries of mechanics whose text was edited renamed to follow them
/// (`now`: the file's levels that load): on disk when `settings` may
/// write, else in memory only.
pub(crate) fn load(
    entry: &LevelEntry,
    settings: &Settings,
    expectations: Expectations,
    now: &[Now],
) -> Result<(Expectations, Following), String> {
    let renames = plan(expectations.document().as_table(), now);
    if renames.is_empty() {
        return Ok((expectations, Following::default()));
    }
    let shown = &entry.shown_expectation;
    if settings.may_write() {
        let mut planned = Vec::new();
        bless::edit(entry, |document| {
            // Planned again on the file as it is under the lock.
            planned = plan(document.as_table(), now);
            rename(document, &planned);
            planned.iter().map(|rename| rename.new.clone()).collect()
        })?;
        // A pending file holds the old names: it goes, and the checks of
        // this run say again what is still to review.
        if let Some(pending) = super::pending::pending_path(settings, &entry.expectation_path) {
            let _ = std::fs::remove_file(pending);
        }
        let expectations = Expectations::load(&entry.expectation_path, shown)?;
        let following = Following {
            renames: planned,
            written: true,
        };
        return Ok((expectations, following));
    }
    let mut document = expectations.document().clone();
    rename(&mut document, &renames);
    let text = print(&document, expectations.text());
    let following = Following {
        renames,
        written: false,
    };
    Ok((Expectations::parse(shown, text, true)?, following))
}

/// The renames each level's `[mechanics]` in `root` (an expectation file)
/// needs to follow the level's mechanics now.
fn plan(root: &Table, now: &[Now]) -> Vec<Rename> {
    let mut renames = Vec::new();
    for level in now {
        let table = match &level.table {
            None => Some(root),
            Some(key) => root.get(key).and_then(Item::as_table),
        };
        let Some(mechanics) = table
            .and_then(|t| t.get(MECHANICS))
            .and_then(|m| m.as_table_like())
        else {
            continue;
        };
        let old: Vec<&str> = mechanics.iter().map(|(key, _)| key).collect();
        // Only a level whose table names a mechanic by its text is worth
        // listing its mechanics for.
        if !old.iter().any(|name| level.level.named_by_text(name)) {
            continue;
        }
        let current = level.level.mechanics();
        let new: Vec<&str> = current.iter().map(|m| m.mechanic.as_ref()).collect();
        for (from, to) in pairs(&old, &new, |name| level.level.named_by_text(name)) {
            renames.push(Rename {
                table: level.table.clone(),
                old: old[from].to_string(),
                new: new[to].to_string(),
                line: current[to].line,
            });
        }
    }
    renames
}

/// Which names of `old` (a table's, in its order) are the earlier names of
/// which of `new` (the mechanics now, in the game's order): pairs of
/// indices, both names of the kind `follows` accepts (see the module's
/// documentation).
pub(crate) fn pairs(
    old: &[&str],
    new: &[&str],
    follows: impl Fn(&str) -> bool,
) -> Vec<(usize, usize)> {
    let old_set: BTreeSet<&str> = old.iter().copied().collect();
    let new_set: BTreeSet<&str> = new.iter().copied().collect();
    let mut pairs = Vec::new();
    let (mut gone, mut added): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut close_run = |gone: &mut Vec<usize>, added: &mut Vec<usize>| {
        let scores: Vec<Vec<f64>> = gone
            .iter()
            .map(|&g| {
                added
                    .iter()
                    .map(|&a| strsim::normalized_levenshtein(old[g], new[a]))
                    .collect()
            })
            .collect();
        for (g, a) in matched(&scores) {
            pairs.push((gone[g], added[a]));
        }
        gone.clear();
        added.clear();
    };
    for op in capture_diff_slices(Algorithm::Myers, old, new) {
        if let DiffOp::Equal { .. } = op {
            close_run(&mut gone, &mut added);
            continue;
        }
        gone.extend(
            op.old_range()
                .filter(|&i| !new_set.contains(old[i]) && follows(old[i])),
        );
        added.extend(
            op.new_range()
                .filter(|&i| !old_set.contains(new[i]) && follows(new[i])),
        );
    }
    close_run(&mut gone, &mut added);
    pairs
}

/// The order-keeping pairing of rows with columns of `scores` (each a
/// similarity from 0 to 1) that pairs as many as it can, and among those
/// the most alike: indices `(row, column)`, in order.
fn matched(scores: &[Vec<f64>]) -> Vec<(usize, usize)> {
    let rows = scores.len();
    let columns = scores.first().map_or(0, Vec::len);
    if rows == 0 || columns == 0 {
        return Vec::new();
    }
    // best[i][j]: the best pairing of the first i rows with the first j
    // columns; a pair is worth 1 (so more pairs always win) plus its
    // similarity.
    let mut best = vec![vec![0.0f64; columns + 1]; rows + 1];
    for i in 1..=rows {
        for j in 1..=columns {
            let pair = best[i - 1][j - 1] + 1.0 + scores[i - 1][j - 1];
            best[i][j] = pair.max(best[i - 1][j]).max(best[i][j - 1]);
        }
    }
    let mut found = Vec::new();
    let (mut i, mut j) = (rows, columns);
    while i > 0 && j > 0 {
        if best[i][j] == best[i - 1][j - 1] + 1.0 + scores[i - 1][j - 1] {
            found.push((i - 1, j - 1));
            i -= 1;
            j -= 1;
        } else if best[i][j] == best[i - 1][j] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    found.reverse();
    found
}

/// Renames the entries as `renames` says. Each keeps its place in its
/// table, its class, and its comments (those above it and beside it).
fn rename(document: &mut DocumentMut, renames: &[Rename]) {
    let mut by_table: BTreeMap<Option<&str>, Vec<&Rename>> = BTreeMap::new();
    for rename in renames {
        by_table
            .entry(rename.table.as_deref())
            .or_default()
            .push(rename);
    }
    let root = document.as_table_mut();
    for (table, renames) in by_table {
        let level = match table {
            None => Some(&mut *root),
            Some(key) => root.get_mut(key).and_then(Item::as_table_mut),
        };
        let new_name = |old: &str| {
            renames
                .iter()
                .find(|rename| rename.old == old)
                .map(|rename| rename.new.clone())
        };
        match level.and_then(|level| level.get_mut(MECHANICS)) {
            Some(Item::Table(mechanics)) => {
                let names: Vec<String> = mechanics.iter().map(|(k, _)| k.to_string()).collect();
                let entries: Vec<(Key, Item)> = names
                    .iter()
                    .filter_map(|name| mechanics.remove_entry(name))
                    .collect();
                for (key, item) in entries {
                    mechanics.insert_formatted(&renamed(&key, new_name(key.get())), item);
                }
            }
            Some(Item::Value(Value::InlineTable(mechanics))) => {
                let names: Vec<String> = mechanics.iter().map(|(k, _)| k.to_string()).collect();
                let entries: Vec<(Key, Value)> = names
                    .iter()
                    .filter_map(|name| mechanics.remove_entry(name))
                    .collect();
                for (key, value) in entries {
                    mechanics.insert_formatted(&renamed(&key, new_name(key.get())), value);
                }
            }
            _ => {}
        }
    }
}

/// `key`, named `new` if given, with its comments and spacing.
fn renamed(key: &Key, new: Option<String>) -> Key {
    match new {
        Some(new) => Key::new(new).with_leaf_decor(key.leaf_decor().clone()),
        None => key.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(name: &str) -> bool {
        name.starts_with("rule")
    }

    fn named(old: &[&str], new: &[&str]) -> Vec<(String, String)> {
        pairs(old, new, rule)
            .into_iter()
            .map(|(o, n)| (old[o].to_string(), new[n].to_string()))
            .collect()
    }

    #[test]
    fn an_edited_rule_is_paired_in_its_place() {
        assert_eq!(
            named(
                &["rule a", "rule b", "rule c", "Crate"],
                &["rule a", "rule b2", "rule c", "Crate"]
            ),
            [("rule b".to_string(), "rule b2".to_string())]
        );
    }

    #[test]
    fn the_old_numbered_names_are_paired_in_order() {
        assert_eq!(
            named(
                &["rule 100: [ A ]", "rule 102: [ B ]", "Bed", "Crate"],
                &["rule: [ a ]", "rule: [ b ]", "Bed", "Crate"]
            ),
            [
                ("rule 100: [ A ]".to_string(), "rule: [ a ]".to_string()),
                ("rule 102: [ B ]".to_string(), "rule: [ b ]".to_string())
            ]
        );
    }

    #[test]
    fn an_inserted_rule_beside_an_edited_one_pairs_the_closest() {
        assert_eq!(
            named(
                &["rule [ player ] -> [ crate ]", "Crate"],
                &[
                    "rule [ wall ] -> [ ]",
                    "rule [ player ] -> [ crate crate ]",
                    "Crate"
                ]
            ),
            [(
                "rule [ player ] -> [ crate ]".to_string(),
                "rule [ player ] -> [ crate crate ]".to_string()
            )]
        );
    }

    #[test]
    fn other_kinds_and_present_names_are_never_paired() {
        // An object gone and a rule added in the same place: unrelated.
        assert!(named(&["rule a", "Pond"], &["rule a", "rule z"]).is_empty());
        // A rule moved within the table is still present: nothing to pair.
        assert!(named(&["rule a", "rule b"], &["rule b", "rule a"]).is_empty());
        // A deleted rule with nothing new: nothing to pair.
        assert!(named(&["rule a", "rule b", "Crate"], &["rule a", "Crate"]).is_empty());
    }

    #[test]
    fn renaming_keeps_place_class_and_comments() {
        let mut document: DocumentMut = "[2]\npar = 3\n\n[2.mechanics]\n# pushes\n\"rule a\" = \"essential\" # keep\n\"rule b\" = \"decoration\"\nCrate = \"essential\"\n".parse().unwrap();
        let renames = [Rename {
            table: Some("2".to_string()),
            old: "rule a".to_string(),
            new: "rule a2".to_string(),
            line: Some(9),
        }];
        rename(&mut document, &renames);
        assert_eq!(
            document.to_string(),
            "[2]\npar = 3\n\n[2.mechanics]\n# pushes\n\"rule a2\" = \"essential\" # keep\n\"rule b\" = \"decoration\"\nCrate = \"essential\"\n"
        );
    }

    #[test]
    fn the_summary_names_each_rename_once_with_its_levels() {
        let rename = |table: &str| Rename {
            table: Some(table.to_string()),
            old: "rule a".to_string(),
            new: "rule b".to_string(),
            line: Some(12),
        };
        let following = Following {
            renames: ["1", "2", "3", "5"].map(rename).to_vec(),
            written: false,
        };
        assert_eq!(
            following.summary(),
            ["`rule a` → `rule b` on line 12 (levels 1–3, 5)"]
        );
    }
}
