//! Where the official engine's test tables are, if this checkout has them.

use std::path::PathBuf;

/// The conformance folder: `PUZZLESCRIPT_CONFORMANCE`, else the workplace's
/// shared folder beside the repository. `None` (with a plain notice) when
/// absent, as in a user's clone: then nothing is checked against it.
pub fn folder(what: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("PUZZLESCRIPT_CONFORMANCE") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/puzzlescript/conformance"),
    };
    if dir.join("simulation.json").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "{what}: the PuzzleScript conformance tables are absent ({}); nothing was checked against them. \
             Set PUZZLESCRIPT_CONFORMANCE to their folder to run this check.",
            dir.display()
        );
        None
    }
}
