//! Snack Run's integration tests, one binary: a second, independent model
//! of the movement rules held to the engine (`reference`), on the crate's
//! copies of the shipped levels (`tests/fixtures/levels/`) and the trap
//! fixture (`tests/fixtures/trap.txt`).

mod reference;
