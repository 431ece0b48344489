//! How a RULES line is named as a mechanic (in `[mechanics]` tables and
//! `ablate` output): by its text as the compiler reads it, never by its
//! line, so that an edit elsewhere in the file (a comment, a blank line,
//! a section moved) renames nothing.
//!
//! A name is `rule: ` and the line's tokens as the compiler splits them,
//! one space apart: lowercased (PuzzleScript is case-insensitive), its
//! comment gone, a space either side of each bracket, bar and arrow. Lines
//! that read alike are told apart by their order among themselves: the
//! second is suffixed ` (2)`, the third ` (3)`, and so on. A rule's text
//! as the compiler keeps it never holds `(`, so no suffix can be mistaken
//! for a rule's own text.

use super::rules::tokenize;
use crate::ast::RuleLine;

/// What every rule's name starts with.
const PREFIX: &str = "rule: ";

/// A rule line as a mechanic: where it is, how it reads, and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRule {
    /// Its line number: where it is, shown to the designer.
    pub line: usize,
    /// The line as written, trimmed.
    pub written: String,
    /// Its name (see the module's documentation).
    pub name: String,
}

/// Names `lines` (the RULES section's rule lines, in file order).
pub(super) fn name(lines: &[&RuleLine]) -> Vec<NamedRule> {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    lines
        .iter()
        .map(|line| {
            let text = format!("{PREFIX}{}", tokenize(&line.text).join(" "));
            let count = seen.entry(text.clone()).or_default();
            *count += 1;
            let name = match *count {
                1 => text,
                n => format!("{text} ({n})"),
            };
            NamedRule {
                line: line.line,
                written: line.mixed.trim().to_string(),
                name,
            }
        })
        .collect()
}

/// Whether `key`, a mechanic's name in an expectation file, names a rule:
/// in today's form (`rule: [ … ] -> [ … ]`) or the earlier one, which held
/// the line's number (`rule 42: [ … ] -> [ … ]`). An object's name is one
/// word, so it never does.
pub fn is_rule_name(key: &str) -> bool {
    if key.starts_with(PREFIX) {
        return true;
    }
    let Some(rest) = key.strip_prefix("rule ") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lines: &[&str]) -> Vec<String> {
        let mut log = crate::log::Log::default();
        let source = format!(
            "title t\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\nCrate\norange\n\n\
             LEGEND\n\n. = Background\nP = Player\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\n\
             Player, Crate\n\nRULES\n\n{}\n\nWINCONDITIONS\n\nLEVELS\n\nP.\n",
            lines.join("\n")
        );
        let parsed = crate::parse(&source, &mut log);
        let rules: Vec<&RuleLine> = parsed.rules.iter().collect();
        name(&rules).into_iter().map(|rule| rule.name).collect()
    }

    #[test]
    fn case_spacing_and_comments_do_not_change_a_name() {
        let plain = names(&["[ > Player | Crate ] -> [ > Player | > Crate ]"]);
        assert_eq!(
            plain,
            ["rule: [ > player | crate ] -> [ > player | > crate ]"]
        );
        for variant in [
            "[> PLAYER|crate]->[> player|> CRATE]",
            "  [ >   Player |Crate ]   ->   [ > Player | > Crate ]   (pushes)",
        ] {
            assert_eq!(names(&[variant]), plain, "{variant}");
        }
    }

    #[test]
    fn a_changed_rule_gets_another_name() {
        assert_ne!(
            names(&["[ > Player | Crate ] -> [ > Player | > Crate ]"]),
            names(&["[ > Player | Crate ] -> [ Player | Crate ]"])
        );
    }

    #[test]
    fn lines_that_read_alike_are_numbered_by_their_order() {
        assert_eq!(
            names(&[
                "[ Crate ] -> [ ]",
                "late [ Player ] -> [ Player ]",
                "[crate]->[]",
                "+ [ Crate ] -> [ ]",
                "[ CRATE ] -> [ ]",
            ]),
            [
                "rule: [ crate ] -> [ ]",
                "rule: late [ player ] -> [ player ]",
                "rule: [ crate ] -> [ ] (2)",
                "rule: + [ crate ] -> [ ]",
                "rule: [ crate ] -> [ ] (3)",
            ]
        );
    }

    #[test]
    fn rule_names_are_told_from_object_names() {
        assert!(is_rule_name("rule: [ crate ] -> [ ]"));
        assert!(is_rule_name("rule 42: [ Crate ] -> [ ]"));
        assert!(!is_rule_name("Crate"));
        assert!(!is_rule_name("rule"));
        assert!(!is_rule_name("Ruler"));
        assert!(!is_rule_name("rule 4x: [ crate ] -> [ ]"));
    }
}
