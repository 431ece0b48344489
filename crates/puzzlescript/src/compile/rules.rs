//! RULES lines to raw rules: each line's tokens read into its directions,
//! flags, cells and commands, with the official engine's messages.

use super::symbols::Symbols;
use crate::ast::{RuleLine, SoundToken};
use crate::command::Command;
use crate::log::Log;

/// One `[direction] name` of a cell. `dir` is empty for none; an ellipsis
/// is the item `... ...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Item {
    pub(crate) dir: String,
    pub(crate) name: String,
}

pub(crate) type Cell = Vec<Item>;
pub(crate) type Row = Vec<Cell>;

/// A rule on its way to being compiled.
#[derive(Clone, Debug)]
pub(crate) struct RawRule {
    pub(crate) directions: Vec<String>,
    pub(crate) direction: String,
    pub(crate) lhs: Vec<Row>,
    pub(crate) rhs: Vec<Row>,
    pub(crate) line: usize,
    pub(crate) late: bool,
    pub(crate) rigid: bool,
    pub(crate) group: usize,
    pub(crate) commands: Vec<Command>,
    pub(crate) random: bool,
}

/// What a RULES line is.
pub(crate) enum Line {
    Rule(RawRule),
    /// `startloop` (+1) or `endloop` (-1), with its line.
    Loop(usize, i32),
}

const RELATIVE: &[&str] = &["^", "v", "<", ">", "perpendicular", "parallel"];
const ABSOLUTE: &[&str] = &["up", "down", "left", "right"];
const DIRECTIONS_ONLY: &[&str] = &[
    ">",
    "<",
    "^",
    "v",
    "up",
    "down",
    "left",
    "right",
    "moving",
    "stationary",
    "no",
    "randomdir",
    "random",
    "horizontal",
    "vertical",
    "orthogonal",
    "perpendicular",
    "parallel",
    "action",
];

/// The concrete directions an ambiguous one stands for.
pub(super) fn aggregate_directions(dir: &str) -> Option<&'static [&'static str]> {
    Some(match dir {
        "horizontal" | "horizontal_par" | "horizontal_perp" => &["left", "right"],
        "vertical" | "vertical_par" | "vertical_perp" => &["up", "down"],
        "moving" => &["up", "down", "left", "right", "action"],
        "orthogonal" => &["up", "down", "left", "right"],
        "perpendicular" => &["^", "v"],
        "parallel" => &["<", ">"],
        _ => return None,
    })
}

/// A rule line's tokens, as the compiler splits them: a bracket, a bar
/// and an arrow each a token of its own, a leading `+` too.
pub(super) fn tokenize(line: &str) -> Vec<String> {
    let spaced = line
        .replace('[', " [ ")
        .replace(']', " ] ")
        .replace('|', " | ")
        .replace("->", " -> ");
    let mut text = spaced.trim().to_string();
    if let Some(rest) = text.strip_prefix('+') {
        text = format!("+ {rest}");
    }
    text.split(char::is_whitespace)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads one RULES line. `previous` are the rules read so far.
pub(crate) fn read_line(
    line: &RuleLine,
    symbols: &Symbols,
    sounds: &[crate::ast::SoundRow],
    previous: &[RawRule],
    invalid: &mut bool,
    log: &mut Log,
) -> Option<Line> {
    let n = line.line;
    if line.mixed.contains('(') && !line.text.contains("->") {
        log.error(n, "You can't have comments inside rules, sorry. In PuzzleScript, '(' starts a comment, so everything after the first '(' on this line was ignored before your rule was parsed.");
        return None;
    }
    let tokens = tokenize(&line.text);
    if tokens.is_empty() {
        log.error(n, "Spooky error!  Empty line passed to rule function.");
    }
    if tokens.len() == 1 {
        match tokens[0].as_str() {
            "startloop" => return Some(Line::Loop(n, 1)),
            "endloop" => return Some(Line::Loop(n, -1)),
            _ => {}
        }
    }
    if !tokens.iter().any(|t| t == "->") {
        log.error(n, "A rule has to have an arrow in it.  There's no arrow here! Consider reading up about rules - you're clearly doing something weird");
    }

    let mut in_pattern = false;
    let mut directions: Vec<String> = Vec::new();
    let mut cell: Vec<String> = Vec::new();
    let mut row: Vec<Cell> = Vec::new();
    let mut in_row = false;
    let mut rhs = false;
    let (mut lhs_rows, mut rhs_rows): (Vec<Row>, Vec<Row>) = (Vec::new(), Vec::new());
    let (mut late, mut rigid, mut random, mut has_plus) = (false, false, false, false);
    let mut group = n;
    let mut commands: Vec<Command> = Vec::new();
    let mut balance = 0i32;

    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i].as_str();
        if !in_pattern {
            if token == "+" {
                has_plus = true;
                if group == n {
                    if previous.is_empty() {
                        log.error(n, "The \"+\" symbol, for joining a rule with the group of the previous rule, needs a previous rule to be applied to.");
                        has_plus = false;
                    }
                    if i != 0 {
                        log.error(n, "The \"+\" symbol, for joining a rule with the group of the previous rule, must be the first symbol on the line ");
                    }
                    if has_plus {
                        group = previous.last().map_or(n, |r| r.group);
                    }
                } else {
                    log.error(n, "Two \"+\"s (the \"append to previous rule group\" symbol) applied to the same rule.");
                }
            } else if RELATIVE.contains(&token) {
                log.error(n, "You cannot use relative directions (\"^v<>\") to indicate in which direction(s) a rule applies.  Use absolute directions indicators (Up, Down, Left, Right, Horizontal, or Vertical, for instance), or, if you want the rule to apply in all four directions, do not specify directions");
            } else if let Some(dirs) = aggregate_directions(token) {
                directions.extend(dirs.iter().map(|d| d.to_string()));
            } else if token == "late" {
                late = true;
            } else if token == "rigid" {
                rigid = true;
            } else if token == "random" {
                random = true;
                if has_plus {
                    log.error(n, "A rule-group can only be marked random by the opening rule in the group (aka, a '+' and 'random' can't appear as rule modifiers on the same line).  Why? Well, you see \"random\" isn't a property of individual rules, but of whole rule groups.  It indicates that a single possible application of some rule from the whole group should be applied at random.");
                }
            } else if ABSOLUTE.contains(&token) {
                directions.push(token.to_string());
            } else if token == "[" {
                if directions.is_empty() {
                    directions.extend(["up", "down", "left", "right"].map(String::from));
                }
                in_pattern = true;
                continue; // read the bracket again, as part of the pattern
            } else {
                log.error(n, format!("The start of a rule must consist of some number of directions (possibly 0), before the first bracket, specifying in what directions to look (with no direction specified, it applies in all four directions).  It seems you've just entered \"{}\".", token.to_uppercase()));
            }
            i += 1;
            continue;
        }
        match token {
            "[" => {
                balance += 1;
                if balance > 1 {
                    log.warning(n, "Multiple opening brackets without closing brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.");
                }
                if !cell.is_empty() {
                    log.error(n, "Error, malformed cell rule - encountered a \"[\"\" before previous bracket was closed");
                }
                in_row = true;
                cell.clear();
            }
            t if DIRECTIONS_ONLY.contains(&t) => {
                if cell.len() % 2 == 1 {
                    log.error(n, "Error, an item can only have one direction/action at a time, but you're looking for several at once!");
                } else if !in_row {
                    log.warning(
                        n,
                        "Invalid syntax. Directions should be placed at the start of a rule.",
                    );
                } else if late && t != "no" && t != "random" && t != "randomdir" {
                    log.error(n, "Movements cannot appear in late rules.");
                } else {
                    cell.push(t.to_string());
                }
            }
            "|" => {
                if !in_row {
                    log.warning(n, "Janky syntax.  \"|\" should only be used inside cell rows (the square brackety bits).");
                } else if cell.len() % 2 == 1 {
                    log.error(
                        n,
                        "In a rule, if you specify a movement, it has to act on an object.",
                    );
                } else {
                    row.push(pairs(&cell));
                    cell.clear();
                }
            }
            "]" => {
                balance -= 1;
                if balance < 0 {
                    log.warning(n, "Multiple closing brackets without corresponding opening brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.");
                    return None;
                }
                if cell.len() % 2 == 1 {
                    if cell[0] == "..." {
                        log.error(n, "Cannot end a rule with ellipses.");
                    } else {
                        log.error(
                            n,
                            "In a rule, if you specify a movement, it has to act on an object.",
                        );
                    }
                } else {
                    row.push(pairs(&cell));
                    cell.clear();
                }
                if rhs {
                    rhs_rows.push(std::mem::take(&mut row));
                } else {
                    lhs_rows.push(std::mem::take(&mut row));
                }
                in_row = false;
            }
            "->" => {
                if group != n
                    && let Some(parent) = previous.last()
                    && parent.late != late
                {
                    log.warning(n, "Oh gosh you can mix late and non-late rules in a rule-group if you really want to, but gosh why would you want to do that?  What do you expect to accomplish?");
                }
                if in_row {
                    log.warning(n, "Encountered an unexpected \"->\" inside square brackets.  It's used to separate states, it has no place inside them >:| .");
                } else if rhs {
                    log.error(n, "Error, you can only use \"->\" once in a rule; it's used to separate before and after states.");
                    return None;
                } else {
                    rhs = true;
                }
            }
            t if symbols.names.contains(t) => {
                if !in_row {
                    log.warning(n, format!("Invalid token {}. Object names should only be used within cells (square brackets).", t.to_uppercase()));
                } else {
                    let mut j = 0;
                    while j + 1 < cell.len() {
                        if cell[j + 1] == t {
                            let new_dir = if cell.len() % 2 == 1 {
                                cell[cell.len() - 1].as_str()
                            } else {
                                ""
                            };
                            if cell[j] == "no" && new_dir == "no" {
                                log.warning(n, format!("I notice that you have NO {} more than once in a single cell. That's redundant innit.", t.to_uppercase()));
                            } else {
                                log.error(n, format!("You cannot specify the same object more than once in a single cell (in this case {} occurs multiple times).", t.to_uppercase()));
                                if symbols.properties.contains(t) {
                                    log.warning(None, "( However, noticing that you're committing this crime with properties, and not being able to help but acknowledge that you may be trying to do something esoteric and clever with the property inference system,  I might be brought to suggest that you consider this: you can have multiple equivalent properties with different names. )");
                                }
                            }
                        }
                        j += 2;
                    }
                    if cell.len().is_multiple_of(2) {
                        cell.push(String::new());
                    }
                    cell.push(t.to_string());
                }
            }
            "..." => {
                if !in_row {
                    log.warning(n, "Invalid syntax, ellipses should only be used within cells (square brackets).");
                } else {
                    cell.push("...".into());
                    cell.push("...".into());
                }
            }
            t => match Command::named(t) {
                None => {
                    log.error(n, format!("Error, malformed cell rule - was looking for cell contents, but found \"{t}\".  What am I supposed to do with this, eh, please tell me that."));
                }
                Some(command) => {
                    if !rhs {
                        log.error(n, "Commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections.");
                    } else if in_row || tokens[i..].iter().any(|t| t == "]") {
                        log.warning(n, "Commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections.");
                    }
                    commands.push(command);
                    if command == Command::Message {
                        // The rest of the line is the message's text.
                        break;
                    }
                    if let Command::Sfx(_) = command
                        && !sounds.iter().any(
                            |s| matches!(s.tokens.first(), Some(SoundToken::Event(e)) if e == t),
                        )
                    {
                        log.warning(n, format!("Sound effect \"{t}\" not defined."));
                    }
                }
            },
        }
        i += 1;
    }

    if late && rigid {
        log.error(n, "Late rules cannot be marked as rigid (rigid rules are all about dealing with the consequences of unresolvable movements, and late rules can't even have movements).");
    }
    if lhs_rows.len() != rhs_rows.len() {
        if commands.is_empty() || !rhs_rows.is_empty() {
            log.warning(n, "Error, when specifying a rule, the number of matches (square bracketed bits) on the left hand side of the arrow must equal the number on the right");
            return None;
        }
    } else {
        for (l, r) in lhs_rows.iter().zip(&rhs_rows) {
            if l.len() != r.len() {
                log.error(n, "In a rule, each pattern to match on the left must have a corresponding pattern on the right of equal length (number of cells).");
                *invalid = true;
            }
            if l.is_empty() {
                log.error(None, "You have an totally empty pattern on the left-hand side.  This will match *everything*.  You certainly don't want this.");
            }
        }
    }
    if lhs_rows.is_empty() {
        log.error(n, "This rule refers to nothing.  What the heck? :O");
    }
    let mut rule = RawRule {
        directions,
        direction: String::new(),
        lhs: lhs_rows,
        rhs: rhs_rows,
        line: n,
        late,
        rigid,
        group,
        commands,
        random,
    };
    if !is_directional(&rule) && rule.directions.len() > 1 {
        rule.directions.truncate(1);
    }
    Some(Line::Rule(rule))
}

fn pairs(flat: &[String]) -> Cell {
    flat.chunks(2)
        .map(|p| Item {
            dir: p[0].clone(),
            name: p.get(1).cloned().unwrap_or_default(),
        })
        .collect()
}

fn has_relative(row: &Row) -> bool {
    row.iter()
        .flatten()
        .any(|item| RELATIVE.contains(&item.dir.as_str()))
}

/// A rule whose meaning depends on its direction: a row of several cells,
/// or a relative direction.
fn is_directional(rule: &RawRule) -> bool {
    rule.lhs.iter().any(|r| r.len() > 1 || has_relative(r)) || rule.rhs.iter().any(has_relative)
}
