//! Expectation files (`expectations/<game>/<level>.toml`): reading them with
//! errors that point at the text, finding keys no check owns, and editing
//! machine-owned values in place so that comments, order and formatting
//! survive.

use std::fs;
use std::io::ErrorKind;
use std::ops::Range;
use std::path::Path;

use serde::de::{DeserializeOwned, IntoDeserializer as _};
use toml_edit::{DocumentMut, Item, Key, Table, Value};

use super::check::Finding;
use super::keys::ExpectationKey;
use crate::diagnostic::{Diagnostic, nearest};

/// One level's expectation file as it is on disk (empty when there is none),
/// or, for a level of a file of several, that level's table `[N]` in it.
#[derive(Clone, Debug)]
pub struct Expectations {
    shown: String,
    text: String,
    exists: bool,
    document: DocumentMut,
    /// The key of the level's table, for a level of a file of several.
    scope: Option<String>,
}

impl Expectations {
    /// Reads the file at `path`; a missing file reads as empty. The error
    /// comes back rendered (file, line, column, caret).
    pub(crate) fn load(path: &Path, shown: &str) -> Result<Self, String> {
        let (text, exists) = match fs::read(path) {
            Ok(bytes) => (crate::diagnostic::text_of(bytes, shown)?, true),
            Err(error) if error.kind() == ErrorKind::NotFound => (String::new(), false),
            Err(error) => return Err(format!("error: cannot read {shown}: {error}\n")),
        };
        Self::parse(shown, text, exists)
    }

    /// Parses `text` as the expectation file shown as `shown`.
    #[doc(hidden)]
    pub fn parse(shown: &str, text: String, exists: bool) -> Result<Self, String> {
        let document = text.parse::<DocumentMut>().map_err(|error| {
            toml_diagnostic(error.message(), error.span(), &text).render(shown, &text)
        })?;
        Ok(Expectations {
            shown: shown.to_string(),
            text,
            exists,
            document,
            scope: None,
        })
    }

    /// The same file seen as one level's table `[table]` (which may not
    /// exist yet): values are read from it and bless writes into it.
    pub(crate) fn member(&self, table: &str) -> Expectations {
        Expectations {
            scope: Some(table.to_string()),
            ..self.clone()
        }
    }

    /// The key of the level's table, for a level of a file of several.
    pub(crate) fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// Whether the level has expectations yet: the file exists, and for a
    /// level of a file of several, so does its table.
    pub fn exists(&self) -> bool {
        self.exists && self.table().is_some()
    }

    /// The level's own keys: the whole file, or its table.
    fn table(&self) -> Option<&Table> {
        match &self.scope {
            None => Some(self.document.as_table()),
            Some(scope) => self.document.get(scope)?.as_table(),
        }
    }

    /// The file's text, exactly as on disk.
    #[doc(hidden)]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file's path as messages show it.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The parsed file, comments and layout included.
    pub(crate) fn document(&self) -> &DocumentMut {
        &self.document
    }

    /// The value under top-level `key` read as a `T` (`i64`, `String`, a
    /// map for a table), or `None` when it is absent or of another shape
    /// (the `parse` check reports shapes).
    pub fn value<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let value = self.table()?.get(key)?.clone().into_value().ok()?;
        T::deserialize(value.into_deserializer()).ok()
    }

    /// Deserializes the keys `T` describes (other keys are ignored). A type
    /// error comes back rendered with the offending value's line and column.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        let render = |error: toml::de::Error| {
            toml_diagnostic(error.message(), error.span(), &self.text)
                .render(&self.shown, &self.text)
        };
        let Some(scope) = &self.scope else {
            return toml::from_str(&self.text).map_err(render);
        };
        // Only the level's table is read (another level's slip is its own
        // business), with spans into the whole file for the error.
        let mut root = toml::de::DeTable::parse(&self.text).map_err(render)?;
        let table = root
            .get_mut()
            .remove(scope.as_str())
            .and_then(|value| {
                let span = value.span();
                match value.into_inner() {
                    toml::de::DeValue::Table(table) => Some(toml::Spanned::new(span, table)),
                    _ => None,
                }
            })
            .unwrap_or_else(|| toml::Spanned::new(0..0, toml::de::DeTable::new()));
        T::deserialize(toml::de::Deserializer::from(table)).map_err(render)
    }

    /// One error per top-level key that none of `known` names, each pointing
    /// at the key and suggesting the nearest known one.
    #[doc(hidden)]
    pub fn unknown_keys(&self, known: &[ExpectationKey]) -> Vec<Diagnostic> {
        let Ok(spanned) = toml_edit::Document::parse(self.text.as_str()) else {
            return Vec::new();
        };
        let Some(table) = scoped(spanned.as_table(), self.scope.as_deref()) else {
            return Vec::new();
        };
        let names: Vec<&str> = known.iter().map(|key| key.name).collect();
        let mut found = Vec::new();
        for (name, _) in table.iter() {
            if names.contains(&name) {
                continue;
            }
            let span = table.key(name).and_then(Key::span);
            let mut hint = format!("known keys are {}", names.join(", "));
            if let Some(near) = nearest(name, &names) {
                hint = format!("did you mean `{near}`? {hint}");
            }
            found.push(
                toml_diagnostic(&format!("unknown key `{name}`"), span, &self.text).with_hint(hint),
            );
        }
        found
    }

    /// One error per top-level key of `known` whose value has the wrong
    /// shape (`par = "seven"`), pointing at the value.
    pub(crate) fn wrong_shapes(&self, known: &[ExpectationKey]) -> Vec<Diagnostic> {
        let Ok(spanned) = toml_edit::Document::parse(self.text.as_str()) else {
            return Vec::new();
        };
        let Some(table) = scoped(spanned.as_table(), self.scope.as_deref()) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (name, item) in table.iter() {
            let Some(key) = known.iter().find(|key| key.name == name) else {
                continue;
            };
            if key.shape.admits(item) {
                continue;
            }
            let span = item.span().or_else(|| table.key(name).and_then(Key::span));
            let message = format!("`{name}` must be {}", key.shape.describe());
            found.push(
                toml_diagnostic(&message, span, &self.text)
                    .with_hint(format!("`{name}`: {}", key.about)),
            );
        }
        found
    }

    /// The file as bless would write `finding`'s machine values into it
    /// (`canonical`: the machine keys in the order a new key is placed), and
    /// what changed (`par: 12 → 10`).
    #[doc(hidden)]
    pub fn blessed(&self, finding: &Finding, canonical: &[&str]) -> (String, Vec<String>) {
        self.with_values(&finding.machine, canonical)
    }

    /// The file as it would read with `values` written into it (see [`apply`]),
    /// and what changed.
    pub(crate) fn with_values(
        &self,
        values: &[(&str, Option<Item>)],
        canonical: &[&str],
    ) -> (String, Vec<String>) {
        let mut document = self.document.clone();
        let changes = apply(&mut document, self.scope.as_deref(), values, canonical);
        if changes.is_empty() {
            (self.text.clone(), changes)
        } else {
            (print(&document, &self.text), changes)
        }
    }
}

/// `document` as text, with the line endings and byte-order mark of
/// `original` (toml_edit writes `\n` and drops a BOM; a file kept with CRLF
/// endings or a BOM keeps them).
pub(crate) fn print(document: &DocumentMut, original: &str) -> String {
    const BOM: char = '\u{feff}';
    let mut text = document.to_string();
    if original.contains("\r\n") {
        text = text.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    if original.starts_with(BOM) && !text.starts_with(BOM) {
        text.insert(0, BOM);
    }
    text
}

/// Writes machine-owned `values` into `document` and says what changed
/// (`par: 12 → 10`). A value equal to the one present is left as written;
/// a replaced value keeps its comments and spacing; a new key goes right
/// after the nearest key before it in `canonical` order (or first), so the
/// layout does not depend on the order in which checks bless. A table value
/// (`[mechanics]`) is edited key by key in the same way, so a comment beside
/// one of its entries survives.
pub(crate) fn apply(
    document: &mut DocumentMut,
    scope: Option<&str>,
    values: &[(&str, Option<Item>)],
    canonical: &[&str],
) -> Vec<String> {
    let mut changes = Vec::new();
    let root = document.as_table_mut();
    match scope {
        None => edit_table(root, "", values, canonical, &mut changes),
        Some(scope) => {
            let fresh = !root.get(scope).is_some_and(Item::is_table);
            if fresh {
                // Nothing to keep: every value below is an addition.
                insert_member(root, scope);
            }
            let table = root
                .get_mut(scope)
                .and_then(Item::as_table_mut)
                .expect("the level's table was just made");
            let mut edits = Vec::new();
            edit_table(table, "", values, canonical, &mut edits);
            if fresh && !edits.is_empty() {
                changes.push(format!("[{scope}]: added"));
            } else {
                changes.extend(edits.into_iter().map(|edit| format!("[{scope}] {edit}")));
            }
            if table.is_empty() && fresh {
                root.remove(scope);
            }
        }
    }
    if !changes.is_empty() {
        space_tables(document);
    }
    changes
}

/// The table of `scope` in `root` (`root` itself when there is no scope).
fn scoped<'t>(root: &'t Table, scope: Option<&str>) -> Option<&'t Table> {
    match scope {
        None => Some(root),
        Some(scope) => root.get(scope)?.as_table(),
    }
}

/// Adds an empty table `[number]` to `root`, after the tables of the levels
/// before it and before those after, whatever else the file holds: the
/// file reads in level order. (A table with no position of its own is
/// printed after the one before it among its siblings.)
fn insert_member(root: &mut Table, number: &str) {
    let rank = |key: &str| key.parse::<u64>().ok();
    let new = rank(number);
    let names: Vec<String> = root.iter().map(|(name, _)| name.to_string()).collect();
    let index = names
        .iter()
        .rposition(|name| matches!((rank(name), new), (Some(old), Some(new)) if old < new))
        .map_or_else(
            || {
                names
                    .iter()
                    .position(|name| rank(name).is_some())
                    .unwrap_or(names.len())
            },
            |index| index + 1,
        );
    let mut entries: Vec<(Key, Item)> = names
        .iter()
        .filter_map(|name| root.remove_entry(name))
        .collect();
    entries.insert(index, (Key::new(number), Item::Table(Table::new())));
    for (key, item) in entries {
        root.insert_formatted(&key, item);
    }
}

/// Puts a blank line before every top-level table that follows something.
/// A table bless wrote first into a new file was read back (by the next
/// check's bless) with no space before it; a key inserted above it later
/// would otherwise sit right against its header, and the file's layout
/// would depend on which check blessed first.
fn space_tables(document: &mut DocumentMut) {
    let root = document.as_table_mut();
    let anything_before = root.iter().any(|(_, item)| item.is_value());
    // In the order they print: a table with no position of its own (just
    // made) prints after the one before it among the root's entries.
    let mut last = None;
    let mut tables: Vec<(String, Option<isize>)> = root
        .iter()
        .filter_map(|(key, item)| {
            let position = item.as_table()?.position().or(last);
            last = position;
            Some((key.to_string(), position))
        })
        .collect();
    tables.sort_by_key(|(_, position)| *position);
    let mut anything_before = anything_before;
    for (key, _) in tables {
        let Some(table) = root.get_mut(&key).and_then(Item::as_table_mut) else {
            continue;
        };
        space_table(table, &mut anything_before);
    }
}

/// Spaces `table` (a header after something gets a blank line before it),
/// then the tables inside it, which print after it.
fn space_table(table: &mut Table, anything_before: &mut bool) {
    // A table made here has no prefix of its own yet (toml_edit would
    // print a blank line before it even at the top of the file).
    let prefix = table.decor().prefix().map(|p| p.as_str());
    let bare = matches!(prefix, None | Some(Some("")));
    if bare && !table.is_implicit() {
        table
            .decor_mut()
            .set_prefix(if *anything_before { "\n" } else { "" });
    }
    *anything_before |= !table.is_implicit() || table.iter().any(|(_, item)| item.is_value());
    let inner: Vec<String> = table
        .iter()
        .filter(|(_, item)| item.is_table())
        .map(|(key, _)| key.to_string())
        .collect();
    for key in inner {
        if let Some(inner) = table.get_mut(&key).and_then(Item::as_table_mut) {
            space_table(inner, anything_before);
        }
    }
}

fn edit_table(
    table: &mut Table,
    path: &str,
    values: &[(&str, Option<Item>)],
    canonical: &[&str],
    changes: &mut Vec<String>,
) {
    for (key, value) in values {
        let name = format!("{path}{key}");
        let present = table.get_mut(key).filter(|item| !item.is_none());
        match (present, value) {
            (Some(Item::Value(old)), Some(Item::Value(new))) => {
                if !same(old, new) {
                    changes.push(format!("{name}: {} → {}", shown(old), shown(new)));
                    let decor = old.decor().clone();
                    *old = new.clone();
                    *old.decor_mut() = decor;
                }
            }
            (Some(Item::Table(old)), Some(Item::Table(new))) => {
                let gone: Vec<String> = old
                    .iter()
                    .filter(|(key, _)| !new.contains_key(key))
                    .map(|(key, _)| key.to_string())
                    .collect();
                let entries: Vec<(&str, Option<Item>)> = new
                    .iter()
                    .map(|(key, item)| (key, Some(item.clone())))
                    .chain(gone.iter().map(|key| (key.as_str(), None)))
                    .collect();
                let order: Vec<&str> = new.iter().map(|(key, _)| key).collect();
                edit_table(old, &format!("{name}."), &entries, &order, changes);
            }
            (Some(item), Some(new)) => {
                changes.push(format!("{name}: replaced by {}", shown_item(new)));
                *item = new.clone();
            }
            (Some(_), None) => {
                changes.push(format!("{name}: removed"));
                table.remove(key);
            }
            (None, Some(new)) => {
                changes.push(format!("{name}: added {}", shown_item(new)));
                insert_in_order(table, key, new.clone(), canonical);
            }
            (None, None) => {}
        }
    }
}

fn insert_in_order(table: &mut Table, key: &str, item: Item, canonical: &[&str]) {
    let before = &canonical[..canonical
        .iter()
        .position(|name| *name == key)
        .unwrap_or(canonical.len())];
    let names: Vec<String> = table.iter().map(|(name, _)| name.to_string()).collect();
    let index = names
        .iter()
        .rposition(|name| before.contains(&name.as_str()))
        .map_or(0, |index| index + 1);
    let mut entries: Vec<(Key, Item)> = names
        .iter()
        .filter_map(|name| table.remove_entry(name))
        .collect();
    entries.insert(index, (Key::new(key), item));
    for (key, item) in entries {
        table.insert_formatted(&key, item);
    }
}

/// Whether two values are the same data, however they are written.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => a.value() == b.value(),
        (Value::Integer(a), Value::Integer(b)) => a.value() == b.value(),
        (Value::Boolean(a), Value::Boolean(b)) => a.value() == b.value(),
        (Value::Float(a), Value::Float(b)) => a.value() == b.value(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same(a, b))
        }
        _ => shown(a) == shown(b),
    }
}

/// An item as a change summary shows it: a table by its entries.
fn shown_item(item: &Item) -> String {
    match item {
        Item::Value(value) => shown(value),
        Item::Table(table) => {
            let entries: Vec<String> = table
                .iter()
                .map(|(key, item)| format!("{key} = {}", shown_item(item)))
                .collect();
            format!("[{}]", entries.join(", "))
        }
        other => other.to_string().trim().to_string(),
    }
}

/// A value as a change summary shows it: without its comments, and cut
/// short when long.
fn shown(value: &Value) -> String {
    const MAX_CHARS: usize = 40;
    let mut bare = value.clone();
    bare.decor_mut().clear();
    let text = bare.to_string();
    if text.chars().count() > MAX_CHARS {
        let mut cut: String = text.chars().take(MAX_CHARS - 1).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

/// A TOML error as a diagnostic pointing at its span.
fn toml_diagnostic(message: &str, span: Option<Range<usize>>, text: &str) -> Diagnostic {
    let message = message.trim().lines().next().unwrap_or("invalid TOML");
    let diagnostic = Diagnostic::error(message.to_string());
    match span {
        Some(span) => {
            let (line, column) = line_column(text, span.start);
            let line_end = text[span.start.min(text.len())..]
                .find('\n')
                .map_or(text.len(), |offset| span.start + offset);
            let end = span.end.clamp(span.start, line_end);
            let width = text
                .get(span.start..end)
                .map_or(1, |spanned| spanned.chars().count().max(1));
            diagnostic.at(line, column, width)
        }
        None => diagnostic,
    }
}

/// 1-based line and character column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(text: &str, values: &[(&str, Option<Value>)]) -> String {
        let values: Vec<(&str, Option<Item>)> = values
            .iter()
            .map(|(key, value)| (*key, value.clone().map(Item::Value)))
            .collect();
        let expectations = Expectations::parse("x.toml", text.to_string(), true).unwrap();
        expectations
            .with_values(&values, &["status", "par", "solution", "mechanics"])
            .0
    }

    fn mechanics(entries: &[(&str, &str)]) -> Option<Item> {
        let mut table = Table::new();
        for (key, class) in entries {
            table.insert(key, toml_edit::value(*class));
        }
        Some(Item::Table(table))
    }

    #[test]
    fn a_table_is_edited_entry_by_entry() {
        let text =
            "par = 3\n\n[mechanics]\ncushion = \"essential\" # the point\ngate = \"obstacle\"\n";
        let expectations = Expectations::parse("x.toml", text.to_string(), true).unwrap();
        let values = [(
            "mechanics",
            mechanics(&[("cushion", "decoration"), ("plate", "essential")]),
        )];
        let (edited, changes) = expectations.with_values(&values, &["par", "mechanics"]);
        assert_eq!(
            edited,
            "par = 3\n\n[mechanics]\ncushion = \"decoration\" # the point\nplate = \"essential\"\n"
        );
        assert_eq!(
            changes,
            [
                "mechanics.cushion: \"essential\" → \"decoration\"",
                "mechanics.plate: added \"essential\"",
                "mechanics.gate: removed"
            ]
        );
    }

    #[test]
    fn a_new_table_goes_after_the_values_and_before_designer_tables() {
        let text = "status = \"solved\"\npar = 3\n\n[[routes]]\nname = \"a\"\nmoves = \"R\"\n";
        let expectations = Expectations::parse("x.toml", text.to_string(), true).unwrap();
        let values = [("mechanics", mechanics(&[("cushion", "essential")]))];
        let (edited, _) = expectations.with_values(&values, &["status", "par", "mechanics"]);
        assert_eq!(
            edited,
            "status = \"solved\"\npar = 3\n\n[mechanics]\ncushion = \"essential\"\n\n[[routes]]\nname = \"a\"\nmoves = \"R\"\n"
        );
    }

    #[test]
    fn a_replaced_value_keeps_its_comments() {
        let text = "# about par\npar = 12 # was 11 in the original\nlimit = 5\n";
        assert_eq!(
            edit(text, &[("par", Some(10.into()))]),
            "# about par\npar = 10 # was 11 in the original\nlimit = 5\n"
        );
    }

    #[test]
    fn an_equal_value_is_left_as_written() {
        let text = "par = 0x0c\nsolution = 'R D'\n";
        let values = [("par", Some(12.into())), ("solution", Some("R D".into()))];
        assert_eq!(edit(text, &values), text);
    }

    #[test]
    fn new_keys_go_in_canonical_order_whatever_order_they_come_in() {
        let text = "limit = 5\n\n[[routes]]\nname = \"a\"\nmoves = \"R\"\n";
        let forward = edit(
            text,
            &[("status", Some("solved".into())), ("par", Some(3.into()))],
        );
        let backward = edit(
            text,
            &[("par", Some(3.into())), ("status", Some("solved".into()))],
        );
        assert_eq!(forward, backward);
        assert_eq!(
            forward,
            "status = \"solved\"\npar = 3\nlimit = 5\n\n[[routes]]\nname = \"a\"\nmoves = \"R\"\n"
        );
    }

    #[test]
    fn a_value_blessed_after_a_table_leaves_the_same_file_as_before_it() {
        let canonical = ["par", "mechanics"];
        let table = [("mechanics", mechanics(&[("cushion", "essential")]))];
        let par = [("par", Some(Item::Value(3.into())))];
        // Each check's bless reads the file the previous one wrote.
        let bless = |text: &str, values: &[(&str, Option<Item>)]| {
            let expectations = Expectations::parse("x.toml", text.to_string(), true).unwrap();
            expectations.with_values(values, &canonical).0
        };
        let table_first = bless(&bless("", &table), &par);
        let par_first = bless(&bless("", &par), &table);
        assert_eq!(table_first, par_first);
        assert_eq!(
            table_first,
            "par = 3\n\n[mechanics]\ncushion = \"essential\"\n"
        );
    }

    #[test]
    fn crlf_line_endings_survive_an_edit() {
        let text = "status = \"solved\"\r\npar = 12 # note\r\n";
        assert_eq!(
            edit(
                text,
                &[("par", Some(10.into())), ("solution", Some("R".into()))]
            ),
            "status = \"solved\"\r\npar = 10 # note\r\nsolution = \"R\"\r\n"
        );
    }

    #[test]
    fn a_byte_order_mark_survives_an_edit() {
        let text = "\u{feff}par = 12\n";
        assert_eq!(
            edit(text, &[("par", Some(10.into()))]),
            "\u{feff}par = 10\n"
        );
    }

    #[test]
    fn a_key_bless_wants_gone_is_removed() {
        assert_eq!(
            edit("par = 3\nnotes = \"n\"\n", &[("par", None)]),
            "notes = \"n\"\n"
        );
    }

    #[test]
    fn unknown_keys_point_at_the_key_and_suggest_the_nearest() {
        let expectations =
            Expectations::parse("x.toml", "par = 3\nparr = 4\n".into(), true).unwrap();
        let known = [ExpectationKey::machine("par", "")];
        let found = expectations.unknown_keys(&known);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].line, found[0].column, found[0].width), (2, 1, 4));
        assert!(
            found[0]
                .hint
                .as_deref()
                .unwrap()
                .starts_with("did you mean `par`?")
        );
    }

    #[test]
    fn syntax_and_type_errors_carry_line_and_column() {
        let error =
            Expectations::parse("x.toml", "par = 3\nsolution = \"R\n".into(), true).unwrap_err();
        assert!(error.contains("x.toml:2:"), "{error}");
        #[derive(Debug, serde::Deserialize)]
        struct Par {
            #[allow(dead_code)]
            par: u32,
        }
        let expectations = Expectations::parse("x.toml", "\npar = \"ten\"\n".into(), true).unwrap();
        let error = expectations.read::<Par>().unwrap_err();
        assert!(error.contains("x.toml:2:7"), "{error}");
    }
}

#[cfg(test)]
mod member_tests {
    use super::*;

    fn bless(text: &str, scope: &str, values: &[(&str, Option<Item>)]) -> String {
        let expectations = Expectations::parse("x.toml", text.to_string(), true).unwrap();
        expectations
            .member(scope)
            .with_values(values, &["par", "mechanics"])
            .0
    }

    #[test]
    fn level_tables_go_in_level_order_whatever_order_they_are_blessed_in() {
        let par = |n: i64| [("par", Some(Item::Value(n.into())))];
        let text = bless("", "2", &par(5));
        let text = bless(&text, "3", &par(7));
        let text = bless(&text, "1", &par(3));
        assert_eq!(text, "[1]\npar = 3\n\n[2]\npar = 5\n\n[3]\npar = 7\n");
        // A table added after others that have tables of their own.
        let mechanics = {
            let mut table = Table::new();
            table.insert("crate", toml_edit::value("essential"));
            [("mechanics", Some(Item::Table(table)))]
        };
        let text = bless("", "1", &mechanics);
        let text = bless(&text, "2", &par(5));
        assert_eq!(
            text,
            "[1]\n\n[1.mechanics]\ncrate = \"essential\"\n\n[2]\npar = 5\n"
        );
    }
}
