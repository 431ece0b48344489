//! Hug Maze's integration tests, one binary: the engine against the
//! article's example level (`article`, on the crate's copy in
//! `tests/fixtures/levels/`), and properties on random levels
//! (`properties`; proptest keeps its regressions in
//! `tests/proptest-regressions/properties.txt`).

mod article;
mod properties;
