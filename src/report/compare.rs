//! Two expectation documents compared key by key, knowing nothing of any
//! game: only which top-level keys exist and who owns them (the checks'
//! [`ExpectationKey`]s). Tables are compared entry by entry
//! (`mechanics.cushion`, `goal.D`, `snacks.3,12`), arrays of tables by
//! position (`routes[0].moves`); any other value (a number, a string, a
//! plain array such as a list of cells) is one leaf.

use serde::Serialize;
use serde_json::Value as Json;
use toml_edit::{DocumentMut, Item, Value};

use puzzle_qa_core::_cli_support::ablation::Class;
use puzzle_qa_core::harness::{ExpectationKey, Owner};

/// One leaf whose value differs between two documents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueChange {
    /// Its dotted path: `par`, `mechanics.cushion`, `routes[1].optimal`.
    pub key: String,
    /// `"machine"` or `"designer"`: who writes the top-level key.
    pub owner: &'static str,
    /// The value before (`null`: absent).
    pub before: Option<Json>,
    /// The value after (`null`: absent).
    pub after: Option<Json>,
    /// A mechanic that was needed (essential, shortcut, obstacle) is now
    /// decoration: the level no longer teaches it.
    pub regression: bool,
}

/// Every leaf under the keys `known` that differs from `before` to `after`:
/// machine-owned keys first, each group in `known`'s order, and within a
/// key in the order of `after`, then of `before` (both documents' orders
/// come from their files, so the result is deterministic).
/// Keys neither document knows about are ignored: `parse` reports them.
pub fn changes(
    before: Option<&DocumentMut>,
    after: Option<&DocumentMut>,
    known: &[ExpectationKey],
) -> Vec<ValueChange> {
    let mut ordered: Vec<&ExpectationKey> = known.iter().collect();
    // Stable: the machine keys keep bless's canonical order.
    ordered.sort_by_key(|key| key.owner != Owner::Machine);
    let mut found = Vec::new();
    for key in ordered {
        let leaves = |document: Option<&DocumentMut>| {
            let mut leaves = Vec::new();
            if let Some(item) = document.and_then(|document| document.get(key.name)) {
                flatten(item, key.name.to_string(), &mut leaves);
            }
            leaves
        };
        let (old, new) = (leaves(before), leaves(after));
        // In the order of the document after (bless's order: `[snacks]`
        // row by row), then what only the one before had.
        let mut paths: Vec<&String> = Vec::new();
        for (path, _) in new.iter().chain(&old) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        for path in paths {
            let find = |leaves: &[(String, Json)]| {
                leaves
                    .iter()
                    .find(|(other, _)| other == path)
                    .map(|(_, value)| value.clone())
            };
            let (before, after) = (find(&old), find(&new));
            if before != after {
                found.push(ValueChange {
                    key: path.clone(),
                    owner: match key.owner {
                        Owner::Machine => "machine",
                        Owner::Designer => "designer",
                    },
                    regression: regression(before.as_ref(), after.as_ref()),
                    before,
                    after,
                });
            }
        }
    }
    found
}

/// A needed class before, decoration after.
fn regression(before: Option<&Json>, after: Option<&Json>) -> bool {
    let class = |value: Option<&Json>| value.and_then(Json::as_str).and_then(Class::from_name);
    matches!(
        (class(before), class(after)),
        (Some(before), Some(Class::Decoration)) if before.needed()
    )
}

/// The leaves under `item`, each with its path.
fn flatten(item: &Item, path: String, out: &mut Vec<(String, Json)>) {
    match item {
        Item::None => {}
        Item::Table(table) => {
            for (key, item) in table.iter() {
                flatten(item, format!("{path}.{key}"), out);
            }
        }
        Item::ArrayOfTables(tables) => {
            for (index, table) in tables.iter().enumerate() {
                for (key, item) in table.iter() {
                    flatten(item, format!("{path}[{index}].{key}"), out);
                }
            }
        }
        Item::Value(Value::InlineTable(table)) => {
            for (key, value) in table.iter() {
                flatten(&Item::Value(value.clone()), format!("{path}.{key}"), out);
            }
        }
        Item::Value(Value::Array(array)) if is_array_of_tables(array) => {
            for (index, value) in array.iter().enumerate() {
                flatten(&Item::Value(value.clone()), format!("{path}[{index}]"), out);
            }
        }
        Item::Value(value) => out.push((path, json(value))),
    }
}

fn is_array_of_tables(array: &toml_edit::Array) -> bool {
    !array.is_empty() && array.iter().all(Value::is_inline_table)
}

/// A TOML value as JSON (dates as their text).
pub fn json(value: &Value) -> Json {
    match value {
        Value::String(text) => Json::from(text.value().as_str()),
        Value::Integer(number) => Json::from(*number.value()),
        Value::Float(number) => Json::from(*number.value()),
        Value::Boolean(flag) => Json::from(*flag.value()),
        Value::Datetime(date) => Json::from(date.value().to_string()),
        Value::Array(array) => Json::Array(array.iter().map(json).collect()),
        Value::InlineTable(table) => Json::Object(
            table
                .iter()
                .map(|(key, value)| (key.to_string(), json(value)))
                .collect(),
        ),
    }
}

/// The integer at top-level `key` of `document`, if there is one.
pub fn integer(document: Option<&DocumentMut>, key: &str) -> Option<i64> {
    document?.get(key)?.as_integer()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[ExpectationKey] = &[
        ExpectationKey::machine("status", ""),
        ExpectationKey::machine("par", ""),
        ExpectationKey::machine("mechanics", ""),
        ExpectationKey::machine("goal", ""),
        ExpectationKey::machine("traps", ""),
        ExpectationKey::designer("notes", ""),
        ExpectationKey::designer("routes", ""),
    ];

    fn document(text: &str) -> DocumentMut {
        text.parse().unwrap()
    }

    fn summary(before: &str, after: &str) -> Vec<String> {
        changes(Some(&document(before)), Some(&document(after)), KNOWN)
            .iter()
            .map(|change| {
                let show = |value: &Option<Json>| {
                    value
                        .as_ref()
                        .map_or("-".to_string(), |value| value.to_string())
                };
                format!(
                    "{} {}: {} -> {}{}",
                    change.owner,
                    change.key,
                    show(&change.before),
                    show(&change.after),
                    if change.regression {
                        " (regression)"
                    } else {
                        ""
                    }
                )
            })
            .collect()
    }

    #[test]
    fn equal_values_however_written_are_no_change() {
        let before = "par = 0x0c # a comment\n[mechanics]\ngate = 'obstacle'\n";
        let after = "mechanics = { gate = \"obstacle\" }\npar = 12\n";
        assert!(summary(before, after).is_empty());
    }

    #[test]
    fn tables_compare_entry_by_entry_and_machine_keys_come_first() {
        let before = "notes = \"a\"\npar = 7\n[mechanics]\ncushion = \"essential\"\ngate = \"obstacle\"\nplate = \"essential\"\n";
        let after = "notes = \"b\"\npar = 6\n[mechanics]\ncushion = \"decoration\"\ngate = \"decoration\"\nblock = \"essential\"\n";
        assert_eq!(
            summary(before, after),
            [
                "machine par: 7 -> 6",
                "machine mechanics.cushion: \"essential\" -> \"decoration\" (regression)",
                "machine mechanics.gate: \"obstacle\" -> \"decoration\" (regression)",
                "machine mechanics.block: - -> \"essential\"",
                "machine mechanics.plate: \"essential\" -> -",
                "designer notes: \"a\" -> \"b\"",
            ]
        );
    }

    #[test]
    fn only_a_needed_class_turned_decoration_is_a_regression() {
        let pairs = [
            ("essential", "decoration", true),
            ("shortcut", "decoration", true),
            ("obstacle", "decoration", true),
            ("decoration", "essential", false),
            ("essential", "shortcut", false),
            ("unknown", "decoration", false),
            ("both", "decoration", false),
        ];
        for (before, after, expected) in pairs {
            let found = summary(
                &format!("[mechanics]\nx = \"{before}\"\n"),
                &format!("[mechanics]\nx = \"{after}\"\n"),
            );
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].ends_with("(regression)"), expected, "{found:?}");
        }
    }

    #[test]
    fn inline_tables_arrays_and_routes_flatten_to_leaves() {
        let before = "goal = { B = true, D = true }\ntraps = [[1, 2]]\n\n[[routes]]\nname = \"a\"\nmoves = \"R\"\n";
        let after = "goal = { B = true, D = false }\ntraps = [[1, 2], [3, 4]]\n\n[[routes]]\nname = \"a\"\nmoves = \"R D\"\n";
        assert_eq!(
            summary(before, after),
            [
                "machine goal.D: true -> false",
                "machine traps: [[1,2]] -> [[1,2],[3,4]]",
                "designer routes[0].moves: \"R\" -> \"R D\"",
            ]
        );
    }

    #[test]
    fn a_missing_document_reads_as_empty() {
        let after = document("status = \"solved\"\npar = 3\n");
        let found = changes(None, Some(&after), KNOWN);
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|change| change.before.is_none()));
        assert_eq!(integer(Some(&after), "par"), Some(3));
        assert_eq!(integer(None, "par"), None);
    }
}
