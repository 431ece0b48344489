//! The parser on small games written for these tests.

use super::parse;
use crate::ast::{LevelEntry, Parsed, SoundToken};
use crate::log::{Log, Message};
use puzzle_qa_core::diagnostic::Severity;

fn read(source: &str) -> (Parsed, Log) {
    let mut log = Log::default();
    let parsed = parse(source, &mut log);
    (parsed, log)
}

fn texts(log: &Log) -> Vec<String> {
    log.official_texts().collect()
}

/// The one message whose text starts with `start`.
fn message<'l>(log: &'l Log, start: &str) -> &'l Message {
    let found: Vec<&Message> = log
        .messages()
        .iter()
        .filter(|m| m.text.starts_with(start))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one message starting {start:?} in {:?}",
        texts(log)
    );
    found[0]
}

/// A complete little game: the sections in order, and what each is for.
const GAME: &str = "\
Title Moss And Stone
author Ann Example
noaction
again_interval 0.2

========
OBJECTS
========

Background
lightgreen green
00010
01000
00000
00100
00001

Wall #
DARKGREY #333
00000
0...0
0.1.0
0...0
00000

Player P
blue

Crate
orange

Target T
transparent

=======
LEGEND
=======

. = Background
Obstacle = Wall or Crate
Solid = Obstacle or Player
Goal = Crate and Target
* = Goal
Box = Crate
Full = Goal and Player
Heavy = Box and Target

=======
SOUNDS
=======

sfx3 1234
Crate move up 555
Player cantmove 77
endlevel 999

================
COLLISIONLAYERS
================

Background
Target
Player, Obstacle

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ] (push)
late [ Crate Target ] -> [ Crate Target ] Message Done!

==============
WINCONDITIONS
==============

All Crate on Target

=======
LEVELS
=======

message Level One

#####
#P*T#
#####

#####
#.*T#
#P..#
#####
message The End
";

#[test]
fn a_clean_game_reads_without_messages() {
    let (parsed, log) = read(GAME);
    assert_eq!(texts(&log), Vec::<String>::new());
    assert!(!parsed.aborted);
    assert_eq!(parsed.unclosed_comment, None);
}

#[test]
fn the_prelude_keeps_case_only_for_title_author_and_homepage() {
    let (parsed, _) = read(GAME);
    let metadata: Vec<(&str, &str, usize)> = parsed
        .metadata
        .iter()
        .map(|(k, v, l)| (k.as_str(), v.as_str(), *l))
        .collect();
    assert_eq!(
        metadata,
        [
            ("title", "Moss And Stone", 1),
            ("author", "Ann Example", 2),
            ("noaction", "true", 3),
            ("again_interval", "0.2", 4),
        ]
    );
}

#[test]
fn objects_have_colours_sprites_and_extra_names() {
    let (parsed, _) = read(GAME);
    let names: Vec<&str> = parsed.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["background", "wall", "player", "crate", "target"]);
    let wall = &parsed.objects[1];
    assert_eq!((wall.shown.as_str(), wall.line), ("Wall", 18));
    assert_eq!(wall.colors, ["darkgrey", "#333"]);
    assert_eq!(wall.sprite, ["00000", "0...0", "0.1.0", "0...0", "00000"]);
    assert_eq!(parsed.objects[2].sprite, Vec::<String>::new());
    assert_eq!(parsed.objects[4].colors, ["transparent"]);
    // `Wall #`, `Player P`, `Target T` name the object a second time.
    let extra: Vec<(&str, &str, usize)> = parsed
        .synonyms
        .iter()
        .take(3)
        .map(|s| (s.name.as_str(), s.items[0].as_str(), s.line))
        .collect();
    assert_eq!(
        extra,
        [("#", "wall", 18), ("p", "player", 26), ("t", "target", 32)]
    );
}

#[test]
fn the_legend_flattens_properties_and_aggregates() {
    let (parsed, _) = read(GAME);
    let entries = |list: &[crate::ast::LegendEntry]| -> Vec<(String, Vec<String>)> {
        list.iter()
            .map(|e| (e.name.clone(), e.items.clone()))
            .collect()
    };
    let own = |name: &str, items: &[&str]| {
        (
            name.to_string(),
            items.iter().map(|s| s.to_string()).collect(),
        )
    };
    assert_eq!(
        entries(&parsed.properties),
        [
            own("obstacle", &["wall", "crate"]),
            own("solid", &["wall", "crate", "player"])
        ]
    );
    // Aggregates flatten through aggregates, and through synonyms.
    assert_eq!(
        entries(&parsed.aggregates),
        [
            own("goal", &["crate", "target"]),
            own("full", &["crate", "target", "player"]),
            own("heavy", &["crate", "target"]),
        ]
    );
    assert_eq!(
        entries(&parsed.synonyms)[3..],
        [
            own(".", &["background"]),
            own("*", &["goal"]),
            own("box", &["crate"])
        ]
    );
    assert_eq!(parsed.name_lines.get("solid"), Some(&41));
    // `*` and `.` are not whole words, so upstream never registers them.
    assert_eq!(parsed.name_lines.get("*"), None);
}

#[test]
fn sound_rows_keep_their_tokens() {
    let (parsed, _) = read(GAME);
    use SoundToken::*;
    let s = |x: &str| x.to_string();
    let rows: Vec<(usize, Vec<SoundToken>)> = parsed
        .sounds
        .iter()
        .map(|r| (r.line, r.tokens.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            (52, vec![Event(s("sfx3")), Seed(s("1234"))]),
            (
                53,
                vec![
                    Name(s("crate")),
                    Verb(s("move")),
                    Direction(s("up")),
                    Seed(s("555"))
                ]
            ),
            (
                54,
                vec![Name(s("player")), Verb(s("cantmove")), Seed(s("77"))]
            ),
            (55, vec![Event(s("endlevel")), Seed(s("999"))]),
        ]
    );
}

#[test]
fn layers_flatten_properties() {
    let (parsed, _) = read(GAME);
    let layers: Vec<(usize, Vec<&str>)> = parsed
        .layers
        .iter()
        .map(|l| (l.line, l.objects.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        layers,
        [
            (61, vec!["background"]),
            (62, vec!["target"]),
            (63, vec!["player", "wall", "crate"])
        ]
    );
}

#[test]
fn rules_and_win_conditions_are_kept_per_line() {
    let (parsed, _) = read(GAME);
    assert_eq!(parsed.rules.len(), 2);
    let push = &parsed.rules[0];
    assert_eq!(push.line, 69);
    assert_eq!(push.text, "[ > player | crate ] -> [ > player | > crate ] ");
    let late = &parsed.rules[1];
    assert_eq!(
        late.mixed,
        "late [ Crate Target ] -> [ Crate Target ] Message Done!"
    );
    let win = &parsed.win_conditions[0];
    assert_eq!(
        (win.words.join(" "), win.line),
        ("all crate on target".to_string(), 76)
    );
}

#[test]
fn levels_split_on_blank_lines_and_messages() {
    let (parsed, _) = read(GAME);
    let shape: Vec<String> = parsed
        .levels
        .iter()
        .map(|l| match l {
            LevelEntry::Message { text, line } => format!("{line}: message {text}"),
            LevelEntry::Grid {
                line,
                rows,
                columns,
            } => {
                format!("{line}: {} at {columns:?}", rows.join("/"))
            }
        })
        .collect();
    assert_eq!(
        shape,
        [
            "82: message Level One",
            "84: #####/#p*t#/##### at [1, 1, 1]",
            "88: #####/#.*t#/#p..#/##### at [1, 1, 1, 1]",
            "92: message The End",
        ]
    );
}

#[test]
fn a_message_read_after_a_blank_line_goes_before_the_empty_level() {
    // The blank line opens an empty level; the message takes its place in
    // order, and the grid after it is a level of its own.
    let source = "objects\nlevels\nmessage one\n\nmessage two\n..\n\n";
    let (parsed, _) = read(source);
    let kinds: Vec<&str> = parsed
        .levels
        .iter()
        .map(|l| match l {
            LevelEntry::Message { text, .. } => text.as_str(),
            LevelEntry::Grid { .. } => "grid",
        })
        .collect();
    assert_eq!(kinds, ["one", "two", "grid"]);
}

#[test]
fn comments_nest_and_span_lines() {
    let source = "objects\n(a (nested) comment\nstill ( inside ) here)\nPlayer (after) P\nred\n";
    let (parsed, log) = read(source);
    assert_eq!(texts(&log), Vec::<String>::new());
    assert_eq!(parsed.objects.len(), 1);
    assert_eq!(parsed.objects[0].colors, ["red"]);
    assert_eq!(parsed.synonyms[0].name, "p");
    assert_eq!(parsed.unclosed_comment, None);
}

#[test]
fn an_unclosed_comment_is_noted_but_not_logged() {
    let source = "objects\nplayer\nred\n\ncrate (oops ( a ) b\nblue\n";
    let (parsed, log) = read(source);
    assert_eq!(texts(&log), Vec::<String>::new());
    assert_eq!(parsed.unclosed_comment, Some((5, 7)));
    assert_eq!(parsed.objects.len(), 2);
    assert_eq!(parsed.objects[1].colors, Vec::<String>::new());
}

#[test]
fn a_stray_closing_bracket_is_warned_at_its_column() {
    let (_, log) = read("objects\nplayer  ) p\nred\n");
    let m = message(&log, "You're trying to close a comment here");
    assert_eq!(
        (m.severity, m.line, m.column, m.width),
        (Severity::Warning, Some(2), 9, 1)
    );
}

#[test]
fn an_unknown_glyph_is_pointed_at() {
    let source = "objects\nplayer\nred\nlegend\np = player\nsounds\ncollisionlayers\nrules\nwinconditions\nlevels\n  ppXp\n";
    let (_, log) = read(source);
    let m = message(&log, "Key \"X\" not found.");
    assert_eq!(
        (m.severity, m.line, m.column, m.width),
        (Severity::Error, Some(11), 5, 1)
    );
}

#[test]
fn an_unknown_rule_name_is_pointed_at() {
    let source = "objects\nplayer\nred\nlegend\nsounds\ncollisionlayers\nplayer\nrules\n[ player ] -> [ ghost ]\n";
    let (_, log) = read(source);
    let m = message(&log, "Name \"ghost\", referred to in a rule");
    assert_eq!((m.line, m.column, m.width), (Some(9), 17, 5));
}

#[test]
fn a_name_in_use_cites_its_first_line() {
    let source = "objects\nplayer\nred\n\nlegend\nplayer = player\nq = player\nq = player\n";
    let (parsed, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 6 : Name \"PLAYER\" already in use (on line line 2).",
            "line 6 : You can't define object PLAYER in terms of itself!",
            "line 8 : Name \"Q\" already in use (on line line 7).",
        ]
    );
    let m = &log.messages()[2];
    assert_eq!((m.column, m.width), (1, 1));
    // The entry is kept all the same, as upstream keeps it.
    assert_eq!(parsed.synonyms.len(), 2);
}

#[test]
fn legend_mistakes_are_reported_as_upstream_words_them() {
    let source = "objects\na\nred\n\nb\nred\n\nlegend\nc = a and b or a\nd = a b a\ne\nf = a or\n";
    let (_, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 9 : Hey! You can't go mixing ANDs and ORs in a single legend entry.",
            "line 9 : You're repeating the object A here multiple times on the RHS.  This makes no sense.  Don't do that.",
            "line 10 : Expected and 'AND' or an 'OR' here, but got B instead. In the legend, define new items using the equals symbol - declarations must look like 'A = B' or 'A = B and C' or 'A = B or C'.",
            "line 10 : You're repeating the object A here multiple times on the RHS.  This makes no sense.  Don't do that.",
            "line 10 : This legend-entry is incorrectly-formatted - it should be one of A = B, A = B or C ( or D ...), A = B and C (and D ...)",
            "line 11 : Incorrect format of legend - should be one of \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\".",
            "line 12 : Incorrect format of legend - should be one of \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\", but it looks like you have a dangling \"OR\"?",
        ]
    );
}

#[test]
fn section_order_and_trailing_text_are_checked() {
    let source = "legend\nobjects extra\nobjects\n";
    let (_, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 1 : section \"LEGEND\" is out of order, must follow  \"OBJECTS\" (or it could be that the section \"OBJECTS\"is just missing totally.  You have to include all section headings, even if the section itself is empty).",
            "line 2 : section \"OBJECTS\" must be the first section",
            "line 2 : Only comments should go after a section name (\"OBJECTS\") on a line.",
            "line 3 : cannot duplicate sections (you tried to duplicate \"OBJECTS\").",
            "line 3 : section \"OBJECTS\" must be the first section",
        ]
    );
}

#[test]
fn reading_stops_after_the_sixth_error() {
    let source = "objects\nplayer\nred\nlegend\nsounds\ncollisionlayers\nplayer\nrules\n\
                  [ a ] -> [ b ]\n[ c ] -> [ d ]\n[ e ] -> [ f ] [ g ]\nwinconditions\nbogus\n";
    let (parsed, log) = read(source);
    assert!(parsed.aborted);
    assert_eq!(log.error_count(), 6);
    // The sixth error was the `f`: its line's `g` was never read.
    assert_eq!(
        texts(&log).last().map(String::as_str),
        Some("line 11 : Name \"f\", referred to in a rule, does not exist.")
    );
    assert!(parsed.win_conditions.is_empty());
}

#[test]
fn sprites_wider_than_five_are_warned_about() {
    let (parsed, log) = read("objects\nplayer\nred blue\n000000\n01200\n");
    assert_eq!(
        texts(&log),
        [
            "line 4 : Sprites must be 5 wide and 5 high.",
            "line 5 : Trying to access color number 2 from the color palette of sprite PLAYER, but there are only 2 defined in it.",
        ]
    );
    let m = &log.messages()[0];
    assert_eq!(m.column, 6);
    // Upstream's object holds the very row list being read, the sixth
    // pixel included.
    assert_eq!(parsed.objects[0].sprite, ["000000", "01200"]);
}

#[test]
fn prelude_mistakes() {
    let source = "title\nnoundo please\nhomepage a.example\nhomepage b.example\n%%\nwhatever\n";
    let (_, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 1 : MetaData \"title\" needs a value.",
            "line 2 : MetaData NOUNDO doesn't take any parameters, but you went and gave it \"please\".",
            "line 4 : You've already defined a HOMEPAGE in the prelude on line 3.",
            "line 5 : Unrecognised stuff \"%%\" in the prelude.",
            "line 6 : Unrecognised stuff in the prelude.",
        ]
    );
}

#[test]
fn sound_mistakes() {
    let source = "objects\nplayer\nred\nlegend\nsounds\nsfx1 12 13\nplayer move sideways 5\nghost move 5\nplayer 5\n";
    let (parsed, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 6 : I wasn't expecting anything after the sound declaration 12 on this line, so I don't know what to do with \"13\" here.",
            "line 7 : Ah I was expecting direction or a sound seed here after MOVE, but I don't know what to make of \"SIDEWAYS\".",
            "line 8 : unexpected sound token \"ghost\".",
            "line 9 : Was expecting a soundverb here (MOVE, DESTROY, CANTMOVE, or the like), but found something else.",
        ]
    );
    assert!(parsed.sounds.is_empty());
}

#[test]
fn layer_mistakes() {
    let source = "objects\nbackground\nred\n\nplayer\nblue\n\nlegend\nboth = player and background\nsounds\ncollisionlayers\n\
                  player, background\nboth\nplayer player ;\nghost\n";
    let (_, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 12 : Background must be in a layer by itself.",
            "line 13 : \"both\" is an aggregate (defined using \"and\"), and cannot be added to a single layer because its constituent objects must be able to coexist.",
            "line 14 : Object \"PLAYER\" included in multiple collision layers ( layers #1, #3 ). You should fix this!",
            "line 14 : Object \"PLAYER\" included explicitly multiple times in the same layer. Don't do that innit.",
            "line 14 : error detected - unexpected character ;",
            "line 15 : Cannot add \"GHOST\" to a collision layer; it has not been declared.",
        ]
    );
}

#[test]
fn win_condition_mistakes() {
    let source = "objects\nplayer\nred\nlegend\nsounds\ncollisionlayers\nplayer\nrules\nwinconditions\n\
                  most player\nall player in player\nno ghost\nsome player on player extra\n";
    let (_, log) = read(source);
    assert_eq!(
        texts(&log),
        [
            "line 10 : Expecting the start of a win condition (\"ALL\",\"SOME\",\"NO\") but got \"MOST'.",
            "line 11 : Expecting the word \"ON\" but got \"IN\".",
            "line 12 : Error in win condition: \"GHOST\" is not a valid object name.",
            "line 13 : Error in win condition: I don't know what to do with EXTRA.",
        ]
    );
}

#[test]
fn strange_text_never_panics() {
    // A fixed pseudo-random walk over pieces that stress the tokenizer:
    // multi-byte and case-changing characters, brackets, keywords, headers.
    const PIECES: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "|",
        "->",
        "=",
        "==",
        " ",
        "\t",
        "\n",
        "\n\n",
        "objects",
        "legend",
        "sounds",
        "collisionlayers",
        "rules",
        "winconditions",
        "levels",
        "message",
        "and",
        "or",
        "player",
        "p",
        "background",
        "İ",
        "ß",
        "Σ",
        "é",
        "😀",
        "\u{feff}",
        "\u{a0}",
        "#12f",
        "red",
        "00.1",
        "sfx3",
        "move",
        "up",
        "123",
        "all",
        "on",
        "no",
        ",",
        "...",
        "title",
        "noaction",
        "\r",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..300 {
        let mut source = String::new();
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            source.push_str(PIECES[(seed % PIECES.len() as u64) as usize]);
        }
        let _ = read(&source);
    }
}

#[test]
fn definitions_that_loop_stop_the_parse_as_upstream_stops() {
    // `a` and `b` name each other; expanding `a` never ends upstream (its
    // stack overflows and the compile throws).
    let source = "objects\nplayer\nred\n\nlegend\na = b\nb = a\nc = a and player\nd = player\n";
    let (parsed, log) = read(source);
    assert!(parsed.aborted);
    assert_eq!(
        texts(&log),
        ["line 6 : You're talking about B but it's not defined anywhere."]
    );
    assert!(parsed.aggregates.is_empty());
}

#[test]
fn a_large_game_reads_cleanly() {
    // Lookups are indexed: thousands of definitions stay cheap.
    let n = 5000;
    let mut source = String::from("objects\n");
    for i in 0..n {
        source.push_str(&format!("o{i}\nred\n\n"));
    }
    source.push_str("legend\n");
    for i in 0..n {
        source.push_str(&format!("l{i} = o{i} or o{}\n", (i + 1) % n));
    }
    source.push_str("sounds\ncollisionlayers\n");
    for i in 0..n {
        source.push_str(&format!("o{i}\n"));
    }
    let (parsed, log) = read(&source);
    assert_eq!(texts(&log), Vec::<String>::new());
    assert_eq!(parsed.properties.len(), n);
    assert_eq!(parsed.layers.len(), n);
}

#[test]
fn more_than_a_hundred_messages_stop_the_parse() {
    // Warnings do not count as errors, but upstream throws past 100
    // messages of any kind.
    let mut source = String::from("objects\nplayer\nred\n\nlegend\nsounds\ncollisionlayers\n");
    for _ in 0..150 {
        source.push_str("player\n");
    }
    let (parsed, log) = read(&source);
    assert!(parsed.aborted);
    assert_eq!(log.messages().len(), 101);
    assert_eq!(log.error_count(), 0);
}
