#![no_main]

//! An expectation file of any text: it parses or yields a rendered error;
//! whatever parses survives reading its keys, and writing machine values
//! into it gives a file that parses again and that a second write leaves
//! unchanged (bless is idempotent).

use puzzle_qa_core::harness::{Expectations, HARNESS_KEYS};
use toml_edit::{Item, Table, value};

const CANONICAL: &[&str] = &["status", "par", "solution", "mechanics"];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expectations) = Expectations::parse("fuzz.toml", text.to_string(), true) else {
        return;
    };
    let _ = expectations.unknown_keys(HARNESS_KEYS);
    let _ = expectations.read::<toml::Table>();
    let mut mechanics = Table::new();
    mechanics.insert("cushion", value("essential"));
    mechanics.insert("gate", value("obstacle"));
    let values = [
        ("status", Some(Item::Value("solved".into()))),
        ("par", Some(Item::Value(12.into()))),
        ("solution", None),
        ("mechanics", Some(Item::Table(mechanics))),
    ];
    let (written, _) = expectations.with_values(&values, CANONICAL);
    let again = Expectations::parse("fuzz.toml", written.clone(), true)
        .unwrap_or_else(|error| panic!("bless wrote a file that does not parse:\n{error}\n{written}"));
    let (twice, changes) = again.with_values(&values, CANONICAL);
    assert!(changes.is_empty(), "a second bless changed {changes:?}");
    assert_eq!(twice, written);
});
