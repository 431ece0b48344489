//! Unified diffs the way snapshot tools show them: hunks with a few lines of
//! context, old and new line numbers, `-` for the expectation as it is and
//! `+` for what bless would write.

use std::fmt::Write as _;

use similar::{Algorithm, ChangeTag, TextDiff};

const CONTEXT_LINES: usize = 3;

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// The diff from `old` to `new`, both the file shown as `path`.
pub fn unified(path: &str, old: &str, new: &str, color: bool) -> String {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(old, new);
    let paint = |code: &'static str| if color { code } else { "" };
    let reset = paint(RESET);
    let mut out = String::new();
    let _ = writeln!(out, "{}--- {path} (expected: as it is){reset}", paint(RED));
    let _ = writeln!(
        out,
        "{}+++ {path} (actual: as bless would write it){reset}",
        paint(GREEN)
    );
    for group in diff.grouped_ops(CONTEXT_LINES) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let _ = writeln!(
            out,
            "{}@@ -{} +{} @@{reset}",
            paint(DIM),
            hunk_range(old_range),
            hunk_range(new_range)
        );
        for op in &group {
            for change in diff.iter_changes(op) {
                let number = |index: Option<usize>| {
                    index.map_or_else(|| " ".repeat(4), |index| format!("{:>4}", index + 1))
                };
                let (sign, colour) = match change.tag() {
                    ChangeTag::Delete => ('-', paint(RED)),
                    ChangeTag::Insert => ('+', paint(GREEN)),
                    ChangeTag::Equal => (' ', ""),
                };
                let text = change.value().trim_end_matches(['\n', '\r']);
                let end = if colour.is_empty() { "" } else { reset };
                let _ = writeln!(
                    out,
                    "{} {} |{colour}{sign}{text}{end}",
                    number(change.old_index()),
                    number(change.new_index())
                );
            }
        }
    }
    out
}

/// `start,count` with 1-based `start`, as unified diffs write line ranges.
fn hunk_range(range: std::ops::Range<usize>) -> String {
    let count = range.end - range.start;
    let start = if count == 0 {
        range.start
    } else {
        range.start + 1
    };
    format!("{start},{count}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_shows_both_numbers() {
        let diff = unified(
            "x.toml",
            "status = \"solved\"\npar = 12\n",
            "status = \"solved\"\npar = 10\n",
            false,
        );
        assert_eq!(
            diff,
            "\
--- x.toml (expected: as it is)
+++ x.toml (actual: as bless would write it)
@@ -1,2 +1,2 @@
   1    1 | status = \"solved\"
   2      |-par = 12
        2 |+par = 10
"
        );
    }

    #[test]
    fn a_new_file_is_all_insertions() {
        let diff = unified("a.toml", "", "status = \"solved\"\n", false);
        assert!(diff.contains("@@ -0,0 +1,1 @@"), "{diff}");
        assert!(diff.contains("       1 |+status = \"solved\""), "{diff}");
    }

    #[test]
    fn colour_only_when_asked() {
        assert!(!unified("a", "x\n", "y\n", false).contains('\x1b'));
        assert!(unified("a", "x\n", "y\n", true).contains(RED));
    }

    #[test]
    fn far_apart_changes_make_two_hunks() {
        let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let new: String = (1..=20)
            .map(|n| match n {
                2 => "two\n".to_string(),
                19 => "nineteen\n".to_string(),
                n => format!("{n}\n"),
            })
            .collect();
        let diff = unified("a", &old, &new, false);
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
    }
}
