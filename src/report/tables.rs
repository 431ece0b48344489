//! A file of many levels' expectations, table by table: the table a level
//! has now, and the one it had at the base, found as bless would find it
//! (by fingerprint, or for a level edited as well as moved, by its
//! neighbours').

use toml_edit::DocumentMut;

use puzzle_qa_core::_cli_support::harness::{FINGERPRINT, tables_taken};

/// Table `[number]` of a file of many levels' expectations, as a document
/// of its own (what the key-by-key comparison reads).
pub(crate) fn member_table(document: Option<&DocumentMut>, number: usize) -> Option<DocumentMut> {
    let table = document?.get(&number.to_string())?.as_table()?;
    let mut own = DocumentMut::new();
    for (key, item) in table.iter() {
        own.insert(key, item.clone());
    }
    Some(own)
}

/// The base's table for level `number` of a file whose levels'
/// fingerprints are `current`, and that table's number: the one bless
/// would give the level ([`tables_taken`]: the table of its fingerprint,
/// or for a level edited as well as moved its neighbours'), or its own
/// number's when the file's levels are not known (it does not read).
pub(super) fn base_table(
    base: Option<&DocumentMut>,
    number: usize,
    current: &[String],
) -> (Option<usize>, Option<DocumentMut>) {
    let Some(base) = base else {
        return (None, None);
    };
    let old = if current.is_empty() {
        Some(number)
    } else {
        tables_taken(base.as_table(), current)
            .get(number - 1)
            .copied()
            .flatten()
    };
    match old.and_then(|old| member_table(Some(base), old)) {
        Some(table) => (old, Some(table)),
        None => (None, None),
    }
}

/// The fingerprint a level's table holds.
pub(super) fn table_fingerprint(table: &DocumentMut) -> Option<String> {
    table.get(FINGERPRINT)?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{PAR, compare};

    #[test]
    fn a_level_moved_and_edited_takes_the_base_table_bless_gives_it() {
        let base = "[1]\nfingerprint = \"a\"\npar = 1\n[2]\nfingerprint = \"b\"\npar = 2\n\
                    [3]\nfingerprint = \"c\"\npar = 3\n";
        let base: DocumentMut = base.parse().unwrap();
        let taken = |number, current: &[String]| {
            let (old, table) = base_table(Some(&base), number, current);
            (old, compare::integer(table.as_ref(), PAR))
        };
        // A level is inserted first, and the old level 2 is edited too: as
        // level 3 it takes table [2], as bless moves it. The others follow
        // their fingerprints; the inserted level is new.
        let current = ["new", "a", "b2", "c"].map(String::from);
        assert_eq!(taken(3, &current), (Some(2), Some(2)));
        assert_eq!(
            [1, 2, 4].map(|number| taken(number, &current)),
            [(None, None), (Some(1), Some(1)), (Some(3), Some(3))]
        );
        // In a file that does not read, a level has its own number's table.
        assert_eq!(taken(3, &[]), (Some(3), Some(3)));
    }
}
