//! The keys of an expectation file: who writes each (bless or people),
//! the shape of its value, and what it means. Each check declares the keys
//! it owns; the harness owns `limit`, `memory` and `notes`.

use toml_edit::Item;

/// Who writes an expectation key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Written by bless from the machine's own result; a mismatch is stale.
    Machine,
    /// Written by people; bless never touches it.
    Designer,
}

/// A top-level key of an expectation file.
#[derive(Clone, Copy, Debug)]
pub struct ExpectationKey {
    /// The key as written in the file (`par`, `mechanics`).
    pub name: &'static str,
    /// Who writes it: bless or people.
    pub owner: Owner,
    /// What its value must look like; the `parse` check holds every file to it.
    pub shape: ValueShape,
    /// One line for the schema in help texts and error hints.
    pub about: &'static str,
}

/// The TOML shape of an expectation key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueShape {
    /// Anything: the owning check reads it and reports its own errors.
    Any,
    /// An integer (`par = 23`).
    Integer,
    /// A string (`status = "solved"`).
    String,
    /// A table (`[mechanics]`) or an inline table.
    Table,
    /// An array of tables (`[[routes]]`) or an array of inline tables.
    ArrayOfTables,
}

impl ValueShape {
    /// Whether `item` has this shape.
    pub(crate) fn admits(self, item: &Item) -> bool {
        match self {
            ValueShape::Any => true,
            ValueShape::Integer => item.as_integer().is_some(),
            ValueShape::String => item.as_str().is_some(),
            ValueShape::Table => item.is_table_like(),
            ValueShape::ArrayOfTables => {
                item.is_array_of_tables()
                    || item
                        .as_array()
                        .is_some_and(|array| array.iter().all(|value| value.is_inline_table()))
            }
        }
    }

    /// "an integer", for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ValueShape::Any => "anything",
            ValueShape::Integer => "an integer",
            ValueShape::String => "a string",
            ValueShape::Table => "a table",
            ValueShape::ArrayOfTables => "an array of tables",
        }
    }
}

impl ExpectationKey {
    /// A key bless writes from the check's result; its value may have any
    /// shape until `shaped` says otherwise.
    pub const fn machine(name: &'static str, about: &'static str) -> Self {
        ExpectationKey {
            name,
            owner: Owner::Machine,
            shape: ValueShape::Any,
            about,
        }
    }

    /// A key people write and bless never touches; its value may have any
    /// shape until `shaped` says otherwise.
    pub const fn designer(name: &'static str, about: &'static str) -> Self {
        ExpectationKey {
            name,
            owner: Owner::Designer,
            shape: ValueShape::Any,
            about,
        }
    }

    /// The same key, whose value must have `shape`.
    pub const fn shaped(self, shape: ValueShape) -> Self {
        ExpectationKey { shape, ..self }
    }
}

/// The expectation key that holds a level's fingerprint, in each table of
/// a file of several levels: how a table follows its level when it moves
/// (`renumber.rs`). The `parse` check writes it.
pub const FINGERPRINT: &str = "fingerprint";

/// Keys the harness itself reads for every level, whatever its checks.
pub const HARNESS_KEYS: &[ExpectationKey] = &[
    ExpectationKey::designer(
        "limit",
        "the most states a search of this level may store (default: no limit; `memory` bounds it)",
    )
    .shaped(ValueShape::Integer),
    ExpectationKey::designer(
        "memory",
        "the most memory a search of this level may keep, as \"4GiB\" or \"512MiB\" (default \
         2 GiB; it wins over --memory)",
    )
    .shaped(ValueShape::String),
    ExpectationKey::designer("notes", "free text for people; never read by a check")
        .shaped(ValueShape::String),
];
