//! The parser against the official compile-error tables: every expected
//! message that the parser is responsible for (told apart by its wording)
//! must appear, in order, among the messages the parser logs.

use std::path::PathBuf;

use puzzlescript::log::Log;
use serde_json::Value;

/// The parser's messages, as patterns: `*` stands for any text. Compared
/// with all whitespace removed, as the tables are.
const PARSER_MESSAGES: &[&str] = &[
    // Comments, headers, `===` rows.
    "You're trying to close a comment here, but I can't find any opening bracket to match it?*",
    "Only comments should go after * on a line.",
    "cannot duplicate sections (you tried to duplicate \"*\").",
    "section \"*\" must be the first section",
    "section \"*\" is out of order, must follow *",
    // The prelude.
    "Unfortunately, YouTube support hasn't been working properly*",
    "You've already defined a * in the prelude on line *.",
    "MetaData \"*\" needs a value.",
    "MetaData * doesn't take any parameters, but you went and gave it \"*\".",
    "Unrecognised stuff in the prelude.",
    "Unrecognised stuff \"*\" in the prelude.",
    "Error: you can't embed comments in metadata values.*",
    // Objects.
    "Unknown junk in object section*",
    "Object \"*\" defined multiple times.",
    "Name \"*\" already in use.",
    "You named an object \"*\", but this is a keyword. Don't do that!",
    "Was looking for color for object *, got \"*\" instead.",
    "Unknown junk in spritematrix for object *.",
    "Sprites must be 5 wide and 5 high.",
    "Trying to access color number * from the color palette of sprite *, but there are only * defined in it.",
    // The legend.
    "Incorrect format of legend - should be one of *",
    "Name \"*\" already in use (on line *).",
    "You can't define object * in terms of itself!",
    "You're repeating the object * here multiple times on the RHS.*",
    "You're talking about * but it's not defined anywhere.",
    "Cannot define an aggregate (using 'and') in terms of properties (something that uses 'or').",
    "Cannot define a property (something defined in terms of 'or') in terms of an aggregate*",
    "This legend-entry is incorrectly-formatted*",
    "In the legend, define new items using the equals symbol*",
    "Something bad's happening in the LEGEND",
    "Hey! You can't go mixing ANDs and ORs in a single legend entry.",
    "Expected and 'AND' or an 'OR' here, but got * instead.*",
    // Sounds.
    "Was expecting a sound event (like SFX3, or ENDLEVEL) or an object name, but didn't find either.",
    "unexpected sound token \"*\".",
    "Was expecting a sound seed here*",
    "Was expecting a soundverb here*",
    "I wasn't expecting anything after the sound declaration * on this line*",
    "Ah I was expecting direction or a sound seed here after *",
    "Ah I was expecting a sound seed here after *",
    // Collision layers.
    "error detected - unexpected character *",
    "\"*\" is an aggregate (defined using \"and\"), and cannot be added to a single layer*",
    "Cannot add \"*\" to a collision layer; it has not been declared.",
    "Background must be in a layer by itself.",
    "no layers found.",
    "Object \"*\" included in multiple collision layers ( layers *). You should fix this!",
    "Object \"*\" included explicitly multiple times in the same layer. Don't do that innit.",
    // Rules.
    "Objects cannot appear outside of square brackets in rules, only directions can.",
    "Name \"*\", referred to in a rule, does not exist.",
    // Win conditions.
    "incorrect format of win condition.",
    "Expecting the start of a win condition (\"ALL\",\"SOME\",\"NO\") but got \"*'.",
    "Expecting the word \"ON\" but got \"*\".",
    "Error in win condition: \"*\" is not a valid object name.",
    "Error in win condition: I don't know what to do with *.",
    // Levels.
    "You probably meant to put a space after 'message' innit.*",
    "Detected a comment where I was expecting a level.*",
    "Maps must be rectangular, yo (In a level, the length of each row must be the same).",
    "Key \"*\" not found. Do you need to add it to the legend, or define a new object?",
];

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `text` matches `pattern`, where `*` matches any run.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Classic two-pointer wildcard match with backtracking to the last `*`.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && p[i] != '*' && p[i] == t[j] {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// The message's text without its `line N : ` prefix.
fn body(message: &str) -> &str {
    match message.split_once(" : ") {
        Some((head, rest)) if head.starts_with("line ") => rest,
        _ => message,
    }
}

fn is_parsers(message: &str) -> bool {
    let text = squeeze(body(message));
    PARSER_MESSAGES.iter().any(|p| glob(&squeeze(p), &text))
}

fn conformance_dir() -> PathBuf {
    match std::env::var_os("PUZZLESCRIPT_CONFORMANCE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/puzzlescript/conformance"),
    }
}

#[test]
fn the_glob_matches_runs() {
    assert!(glob("a*c", "abbc"));
    assert!(glob("*", ""));
    assert!(!glob("a*c", "abcd"));
    assert!(is_parsers(
        "line 3 : Key \"X\" not found. Do you need to add it to the legend, or define a new object?"
    ));
    assert!(!is_parsers(
        "line 3 : Error, symbol \"x\", used in map, not found."
    ));
}

#[test]
fn the_parser_logs_its_expected_compile_messages() {
    let path = conformance_dir().join("compile-errors.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!(
            "The conformance data is absent ({}): nothing was checked.",
            path.display()
        );
        return;
    };
    let cases: Vec<Value> =
        serde_json::from_str(&text).expect("compile-errors.json is a JSON array");
    let (mut total, mut owned, mut found, mut stopped) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let source = case["source"].as_str().unwrap_or_default();
        let expected: Vec<&str> = case["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        total += expected.len();
        let mut log = Log::default();
        let parsed = puzzlescript::parse(source, &mut log);
        // Stopping early is the official engine's own stop: nothing is
        // compiled after it, so the whole count is the parser's.
        let want_count = case["error_count"].as_u64().unwrap_or(0) as usize;
        if parsed.aborted && log.error_count() != want_count {
            failures.push(format!(
                "case {index}: the parse stopped with {} errors, the tables count {want_count}",
                log.error_count()
            ));
        }
        stopped += usize::from(parsed.aborted);
        let produced: Vec<String> = log.official_texts().map(|m| squeeze(&m)).collect();
        let mut at = 0;
        for message in expected.iter().filter(|m| is_parsers(m)) {
            owned += 1;
            let want = squeeze(message);
            match produced[at..].iter().position(|p| *p == want) {
                Some(k) => {
                    found += 1;
                    at += k + 1;
                }
                None => failures.push(format!(
                    "case {index} ({}): missing `{message}`\n    logged: {:?}",
                    case["name"].as_str().unwrap_or("?"),
                    log.official_texts().collect::<Vec<_>>()
                )),
            }
        }
    }
    println!(
        "{} compile cases: the parser produces {found} of the {owned} expected messages it owns ({total} expected in all); {stopped} cases stop early, with the tables' error count.",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} parser mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
