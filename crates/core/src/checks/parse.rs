//! `parse`: the level file loads (its warnings are shown), and its
//! expectation file is valid TOML whose keys all belong to some check. For
//! a level of a file of several, it also records the level's fingerprint,
//! which lets its table follow it when levels move.

use crate::harness::keys::FINGERPRINT;
use crate::harness::{Check, ExpectationKey, Finding, Subject, ValueShape};

/// The `parse` check: the level file loads, and its expectation file is
/// valid TOML whose keys all belong to some check.
pub struct Parse;

impl Check for Parse {
    fn name(&self) -> &'static str {
        "parse"
    }

    fn keys(&self) -> &'static [ExpectationKey] {
        const KEYS: &[ExpectationKey] = &[ExpectationKey::machine(
            FINGERPRINT,
            "a level of a file of several: a hash of its text, which tells a moved level from \
             an edited one",
        )
        .shaped(ValueShape::String)];
        KEYS
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let mut problems = Vec::new();
        if let Some(error) = subject.load_error() {
            problems.push(error);
        }
        let warnings = subject.warnings();
        match subject.expectations_in_full() {
            Ok(expectations) => {
                let known = subject.known_keys();
                let wrong = expectations.unknown_keys(&known).into_iter();
                for problem in wrong.chain(expectations.wrong_shapes(&known)) {
                    problems.push(problem.render(expectations.shown(), expectations.text()));
                }
                // A `limit` of the right shape may still not fit (negative),
                // nor a `memory` read as a size (`"4 gigs"`).
                if let Err(error) = subject.budget()
                    && problems.is_empty()
                {
                    problems.push(error);
                }
            }
            Err(error) => problems.push(error.to_string()),
        }
        if problems.is_empty() {
            let mut finding = Finding::pass();
            if let Some(fingerprint) = subject.fingerprint() {
                finding = finding.expect(FINGERPRINT, fingerprint);
            }
            finding.notes = warnings;
            Ok(finding)
        } else {
            problems.extend(warnings);
            Err(problems.join("\n"))
        }
    }
}
