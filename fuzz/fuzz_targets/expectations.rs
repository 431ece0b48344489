#![no_main]

//! An expectation file of any text: it parses or yields a rendered error;
//! whatever parses survives reading its keys, and writing machine values
//! into it gives a file that parses again and that a second write leaves
//! unchanged (bless is idempotent).

use puzzle_qa_core::harness::{Expectations, Finding};
use puzzle_qa_core::_cli_support::harness::HARNESS_KEYS;

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
    let finding = Finding::pass()
        .expect("status", "solved")
        .expect("par", 12)
        .expect("solution", None::<&str>)
        .expect_table("mechanics", [("cushion", "essential"), ("gate", "obstacle")]);
    let (written, _) = expectations.blessed(&finding, CANONICAL);
    let again = Expectations::parse("fuzz.toml", written.clone(), true)
        .unwrap_or_else(|error| panic!("bless wrote a file that does not parse:\n{error}\n{written}"));
    let (twice, changes) = again.blessed(&finding, CANONICAL);
    assert!(changes.is_empty(), "a second bless changed {changes:?}");
    assert_eq!(twice, written);
});
