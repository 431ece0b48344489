//! Helpers shared by the integration tests (each test file is its own
//! crate and uses only some of them, hence the `dead_code` allowance).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use puzzle_qa::games::GAMES;
use puzzle_qa_core::harness::{Settings, Suite, Verdict};

/// A Hug Maze level whose cushion must hold the plate while both bears pass
/// the gate: its cushion is essential.
pub const SLIDE: &str = "\
name: Slide
hint: something has to hold the plate while you both pass
########
#B.C..p#
#......#
#D.....#
####P###
#..H...#
########
";

/// Every trial's verdict for the project at `root`, blessing if `bless`.
pub fn run_suite(root: &Path, bless: bool) -> BTreeMap<String, Verdict> {
    let settings = Settings {
        bless,
        ..Settings::new(root, GAMES)
    };
    Suite::discover(settings).run().into_iter().collect()
}

/// A JSON object's field names, sorted.
pub fn field_names(object: &serde_json::Value) -> Vec<&str> {
    let mut names: Vec<&str> = object
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    names.sort();
    names
}
