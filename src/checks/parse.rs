//! `parse`: the level file loads (its warnings are shown), and its
//! expectation file is valid TOML whose keys all belong to some check.

use crate::harness::{Check, Finding, Subject};

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
                for unknown in expectations.unknown_keys(&subject.known_keys()) {
                    problems.push(unknown.render(expectations.shown(), expectations.text()));
                }
                if let Err(error) = subject.limit() {
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
