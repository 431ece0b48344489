//! The official engine's compile cases: a game it refuses (its error count
//! is above 0) must be refused here too, with at least one error, and a
//! game it accepts must compile. How many of its messages this compiler
//! also gives is reported.

use puzzlescript::compile::compile;
use serde_json::Value;

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn refused_exactly_when_the_official_engine_refuses() {
    let Some(dir) = crate::conformance::folder("compile judge") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("compile-errors.json"))
        .expect("compile-errors.json reads");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("compile-errors.json parses");
    let verbose = std::env::var_os("VERBOSE").is_some();
    let (mut wrong, mut expected_total, mut matched_total, mut count_equal) = (Vec::new(), 0, 0, 0);
    for (i, case) in cases.iter().enumerate() {
        let source = case["source"].as_str().unwrap_or_default();
        let want_errors = case["error_count"].as_u64().unwrap_or(0) as usize;
        let expected: Vec<String> = case["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(squeeze))
            .collect();
        let outcome = std::panic::catch_unwind(|| compile(source));
        let Ok((game, log)) = outcome else {
            wrong.push(format!(
                "case {i} {:?}: the compiler panicked",
                case["name"]
            ));
            continue;
        };
        let got: Vec<String> = log.official_texts().map(|t| squeeze(&t)).collect();
        // The expected messages, in order, as a subsequence of ours.
        let mut at = 0;
        let mut matched = 0;
        for e in &expected {
            if let Some(p) = got[at..].iter().position(|g| g == e) {
                at += p + 1;
                matched += 1;
            }
        }
        expected_total += expected.len();
        matched_total += matched;
        if log.error_count() == want_errors {
            count_equal += 1;
        }
        let refused = log.has_errors() || game.is_none();
        if refused != (want_errors > 0) {
            wrong.push(format!(
                "case {i} {:?}: the official engine counts {want_errors} errors, this compiler {} ({})",
                case["name"],
                log.error_count(),
                if refused { "refused" } else { "accepted" }
            ));
        }
        if verbose && matched < expected.len() {
            eprintln!(
                "case {i}: {matched}/{} messages; expected {:#?}\n got {:#?}",
                expected.len(),
                expected,
                got
            );
        }
    }
    eprintln!(
        "compile judge: {}/{} cases refused or accepted as upstream; {count_equal} with its exact error count; \
         {matched_total}/{expected_total} of its messages given here",
        cases.len() - wrong.len(),
        cases.len()
    );
    for w in &wrong {
        eprintln!("{w}");
    }
    assert!(
        wrong.is_empty(),
        "{} compile cases disagree (listed above)",
        wrong.len()
    );
}
