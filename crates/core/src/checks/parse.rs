//! `parse`: the level file loads (its warnings are shown), and its
//! expectation file is valid TOML whose keys all belong to some check.

use crate::harness::{Check, Finding, Subject};

/// The `parse` check: the level file loads, and its expectation file is
/// valid TOML whose keys all belong to some check.
pub struct Parse;

impl Check for Parse {
    fn name(&self) -> &'static str {
        "parse"
    }

    fn run(&self, subject: &Subject) -> Result<Finding, String> {
        let mut problems = Vec::new();
        if let Err(error) = subject.source() {
            problems.push(error.to_string());
        }
        let warnings = subject.warnings();
        match subject.expectations_in_full() {
            Ok(expectations) => {
                let known = subject.known_keys();
                let wrong = expectations.unknown_keys(&known).into_iter();
                for problem in wrong.chain(expectations.wrong_shapes(&known)) {
                    problems.push(problem.render(expectations.shown(), expectations.text()));
                }
                // A `limit` of the right shape may still not fit (negative).
                if let Err(error) = subject.limit()
                    && problems.is_empty()
                {
                    problems.push(error);
                }
            }
            Err(error) => problems.push(error.to_string()),
        }
        if problems.is_empty() {
            let mut finding = Finding::pass();
            finding.notes = warnings;
            Ok(finding)
        } else {
            problems.extend(warnings);
            Err(problems.join("\n"))
        }
    }
}
