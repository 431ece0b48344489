//! The Bloxorz level reader: what it accepts, and the errors and warnings it
//! gives, each with its line and column.

use bloxorz::parse;
use puzzle_qa_core::diagnostic::{Diagnostic, Severity};

fn error(text: &str) -> Diagnostic {
    match parse(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(error) => error,
    }
}

fn warnings(text: &str) -> Vec<Diagnostic> {
    match parse(text) {
        Ok((_, warnings)) => warnings,
        Err(error) => panic!("{}", error.render("test", text)),
    }
}

fn place(d: &Diagnostic) -> (usize, usize, usize) {
    (d.line, d.column, d.width)
}

#[test]
fn an_unknown_tile_is_an_error_at_its_column_with_a_hint() {
    let e = error("s p q1 e");
    assert_eq!(e.message, "unknown tile `q1`");
    assert_eq!(place(&e), (1, 5, 2));
    assert!(e.hint.unwrap().contains("x p l s e w S W t"));
}

#[test]
fn a_malformed_id_is_an_error() {
    let e = error("s p W- e");
    assert_eq!(e.message, "malformed tile name `W-`");
    assert_eq!(place(&e), (1, 5, 2));
}

#[test]
fn ragged_rows_are_an_error_on_the_short_or_long_row() {
    let long = error("s p p\np p p p\np p e");
    assert_eq!(
        long.message,
        "ragged row: 4 tiles, but the first row (line 1) has 3"
    );
    assert_eq!(place(&long), (2, 7, 1));
    let short = error("s p p\np p\np p e");
    assert_eq!(place(&short), (2, 3, 1));
}

#[test]
fn the_start_must_appear_exactly_once() {
    let none = error("p p p e");
    assert_eq!(none.message, "the level has no start `s`");
    assert_eq!(none.line, 1);
    let two = error("s p\np s1\np e");
    assert_eq!(two.message, "a second start `s`: a level has exactly one");
    assert_eq!(place(&two), (2, 3, 2));
    assert_eq!(
        two.hint.as_deref(),
        Some("the first start is at line 1, column 1")
    );
}

#[test]
fn a_level_needs_a_goal() {
    assert_eq!(
        error("level 3\n\ns p p").message,
        "the level has no goal `e`"
    );
}

#[test]
fn an_empty_file_has_no_grid() {
    assert_eq!(error("").message, "the level has no grid");
    assert_eq!(error("name: x\n\n---\n").message, "the level has no grid");
}

#[test]
fn rule_lines_that_do_not_parse_are_errors() {
    let verb = error("s W1 e x1\n---\nW1 flips x1");
    assert_eq!(verb.message, "unknown rule verb `flips`");
    assert_eq!(place(&verb), (3, 4, 5));
    let no_target = error("s W1 e x1\n---\nW1 toggles");
    assert_eq!(no_target.message, "`toggles` needs at least one target");
    let no_verb = error("s W1 e x1\n---\nW1");
    assert!(no_verb.message.contains("needs a verb"));
    let bad_target = error("s W1 e x1\n---\nW1 toggles x1, ?2");
    assert_eq!(place(&bad_target), (3, 16, 2));
    // Found by fuzzing: a rule line of commas alone once panicked.
    let commas = error("s W1 e x1\n---\n , ,");
    assert_eq!(commas.message, "a rule line with no rule on it");
    assert_eq!(place(&commas), (3, 2, 3));
}

#[test]
fn a_teleport_needs_two_target_cells_in_the_grid() {
    let absent = error("s t1 e\n---\nt1 teleports l1, l2");
    assert_eq!(absent.message, "teleport target `l1` is not in the grid");
    assert_eq!(place(&absent), (3, 14, 2));
    let one_cell = error("s t1 e l1\n---\nt1 teleports l1");
    assert_eq!(
        one_cell.message,
        "a teleport needs exactly two target cells; these names label 1"
    );
    assert_eq!(place(&one_cell), (3, 14, 2));
    let three = error("s t1 e l1 l1 l2\n---\nt1 teleports l1, l2");
    assert_eq!(
        three.message,
        "a teleport needs exactly two target cells; these names label 3"
    );
    assert_eq!(place(&three), (3, 14, 6));
    let same = error("s t1 e l1\n---\nt1 teleports l1, l1");
    assert_eq!(
        same.message,
        "a teleport's two targets must be different cells"
    );
    let twice = error("s t1 e l1 l1\n---\nt1 teleports l1\nt1 teleports l1");
    assert_eq!(twice.message, "a second `teleports` rule for `t1`");
    assert_eq!(twice.line, 4);
}

#[test]
fn tolerated_quirks_are_warnings() {
    let found = warnings(
        "s W1 e p1 t1 p\n---\nS9 toggles p1\nW1 toggles x9\np1 toggles p1\nW1 teleports p1",
    );
    let messages: Vec<&str> = found.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`x9` is not in the grid; this target is ignored",
            "`S9` is not in the grid; this rule never fires",
            "`p1` is not a switch (S or W); this rule never fires",
            "`W1` is not a teleport `t`; this rule never fires",
            "teleport `t1` has no `teleports` rule; it acts as a plain tile",
        ]
    );
    assert!(found.iter().all(|w| w.severity == Severity::Warning));
    assert_eq!(place(&found[0]), (4, 12, 2));
}

#[test]
fn headers_dash_lines_crlf_and_a_byte_order_mark_are_accepted() {
    let text = "\u{feff}name: Tiny\r\nhint: roll right\r\nlevel 1\r\n\r\ns p p e\r\n— – -\r\nW9 toggles x1\r\n\r\n—\r\nlevel 2\r\n";
    let (level, found) = parse(text).unwrap();
    assert_eq!(level.name.as_deref(), Some("Tiny"));
    assert_eq!(level.hint.as_deref(), Some("roll right"));
    assert_eq!(found.len(), 2, "{found:?}");
    // Columns count characters: the rule's target starts at column 12.
    assert_eq!(place(&found[0]), (7, 12, 2));
}

#[test]
fn a_grid_too_large_for_the_state_encoding_is_rejected_clearly() {
    let row = vec!["p"; 300].join(" ");
    let mut text = format!("s {}\n", vec!["p"; 299].join(" "));
    for _ in 0..298 {
        text.push_str(&row);
        text.push('\n');
    }
    text.push_str(&format!("e {}\n", vec!["p"; 299].join(" ")));
    let e = error(&text);
    assert_eq!(
        e.message,
        "the grid is too large for the engine: 65700 cells by this line, at most 65536"
    );
    assert_eq!(e.line, 219);
}

#[test]
fn every_official_level_loads_without_errors() {
    for number in 1..=33 {
        let (path, text) = crate::official_file(number);
        let (_, found) = parse(&text).unwrap_or_else(|e| panic!("{}", e.render(&path, &text)));
        let expected = usize::from(number == 21);
        assert_eq!(found.len(), expected, "{path}: {found:?}");
    }
    // The copies are the 33 official levels and nothing else.
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/official");
    assert_eq!(std::fs::read_dir(folder).unwrap().count(), 33);
}

#[test]
fn a_rendered_error_points_at_the_offending_text() {
    let text = "s p p\np Q e\n";
    // The file as the harness shows it, relative to the project root.
    let shown = ["levels", "bloxorz", "bad.txt"].join("/");
    let rendered = error(text).render(&shown, text);
    assert_eq!(
        rendered,
        "error: unknown tile `Q`\n --> levels/bloxorz/bad.txt:2:3\n  |\n2 | p Q e\n  |   ^\n  |\n  = hint: tiles are x p l s e w S W t, optionally followed by an id such as W1\n"
    );
}
