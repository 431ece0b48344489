//! RULES lines to concrete rules: tokens, then one rule per direction,
//! relative directions made absolute, aggregates and synonyms replaced,
//! ambiguous movements and properties expanded. The order of the expanded
//! rules is the official engine's, since it is the order they fire in.

use std::collections::{HashMap, HashSet};

use super::dict::Dict;
use super::symbols::Symbols;
use crate::ast::{RuleLine, SoundToken};
use crate::bits;
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
pub(crate) fn aggregate_directions(dir: &str) -> Option<&'static [&'static str]> {
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

fn tokenize(line: &str) -> Vec<String> {
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

/// Warns of, and drops, `no X` that can never matter; errors on `X no X`
/// on a right-hand side.
pub(crate) fn check_coincidences(symbols: &Symbols, rules: &mut [RawRule], log: &mut Log) {
    for rule in rules.iter_mut() {
        for cell in rule.rhs.iter().flatten() {
            let mut present = Vec::new();
            let mut present_mask = symbols.zero_mask();
            for item in cell.iter().filter(|i| !i.dir.starts_with("no")) {
                if let Some(id) = symbols.object(&item.name).and_then(|o| o.id) {
                    present.push(item.name.clone());
                    bits::set(&mut present_mask, id);
                }
            }
            for item in cell.iter().filter(|i| i.dir.starts_with("no")) {
                let Some(mask) = symbols.object_masks.get(&item.name) else {
                    continue;
                };
                if bits::any(mask, &present_mask) {
                    log.error(rule.line, format!("You have specified that there should be NO {} but there is also a requirement that {} be here.  This is a mistake right?", item.name.to_uppercase(), present.join(", ").to_uppercase()));
                }
            }
        }
        // `no X` on the right where the left already says `no X` is dropped.
        for (j, row) in rule.rhs.iter_mut().enumerate() {
            for (k, cell) in row.iter_mut().enumerate() {
                let Some(lhs_cell) = rule.lhs.get(j).and_then(|r| r.get(k)) else {
                    continue;
                };
                let mut l = 0;
                while l < cell.len() {
                    if cell[l].dir.starts_with("no")
                        && lhs_cell
                            .iter()
                            .any(|m| m.dir.starts_with("no") && m.name == cell[l].name)
                    {
                        cell.remove(l);
                    }
                    l += 1;
                }
            }
        }
        // `no X` where the cell's other requirements already fill X's layers.
        for cell in rule.lhs.iter_mut().flatten() {
            let mut required_layers = HashSet::new();
            let mut required_objects = symbols.zero_mask();
            let mut occupier: HashMap<usize, String> = HashMap::new();
            for item in cell.iter().filter(|i| i.dir != "no") {
                let name = &item.name;
                if let Some(&layer) = symbols.single_layer.get(name) {
                    required_layers.insert(layer);
                    for member in symbols.properties.get(name).into_iter().flatten() {
                        if let Some(id) = symbols.object(member).and_then(|o| o.id) {
                            bits::set(&mut required_objects, id);
                        }
                    }
                    occupier.insert(layer, name.clone());
                } else if let Some(o) = symbols.object(name) {
                    if let Some(layer) = o.layer {
                        required_layers.insert(layer);
                        occupier.insert(layer, name.clone());
                    }
                    if let Some(id) = o.id {
                        bits::set(&mut required_objects, id);
                    }
                } else if let Some(members) = symbols.aggregates.get(name) {
                    for member in members {
                        let Some(o) = symbols.object(member) else {
                            continue;
                        };
                        if let Some(layer) = o.layer {
                            required_layers.insert(layer);
                            occupier.insert(layer, name.clone());
                        }
                        if let Some(id) = o.id {
                            bits::set(&mut required_objects, id);
                        }
                    }
                }
            }
            let mut l = 0;
            while l < cell.len() {
                if cell[l].dir.starts_with("no")
                    && let Some(mask) = symbols.object_masks.get(&cell[l].name)
                {
                    let covered = (0..symbols.layer_masks.len())
                        .filter(|&m| bits::any(&symbols.layer_masks[m], mask))
                        .all(|m| required_layers.contains(&m));
                    if covered && !bits::any(mask, &required_objects) {
                        let layers: Vec<usize> = (0..symbols.layer_masks.len())
                            .filter(|m| occupier.contains_key(m))
                            .collect();
                        let names: Vec<&str> =
                            layers.iter().map(|m| occupier[m].as_str()).collect();
                        let numbers: Vec<String> =
                            layers.iter().map(|m| (m + 1).to_string()).collect();
                        log.warning(rule.line, format!("You have specified that there should be NO {} but there is also a requirement that {} be there, which collectively occupies the same layers (Layers {}), so you can leave this out.", cell[l].name.to_uppercase(), names.join(", ").to_uppercase(), numbers.join(", ")));
                        cell.remove(l);
                        continue;
                    }
                }
                l += 1;
            }
        }
    }
}

/// One rule per direction, made concrete: relative directions, aggregates,
/// synonyms, ambiguous movements and properties. `invalid` is set when a
/// rule cannot be made concrete (the compile then stops, as upstream).
pub(crate) fn expand(
    symbols: &Symbols,
    rules: Vec<RawRule>,
    invalid: &mut bool,
    log: &mut Log,
) -> Vec<RawRule> {
    let mut per_direction = Vec::new();
    for rule in &rules {
        for dir in &rule.directions {
            let mut r = rule.clone();
            r.direction = dir.clone();
            per_direction.push(r);
        }
    }
    for rule in per_direction.iter_mut() {
        absolutify(rule);
        rewrite_up_left(rule);
        atomize_aggregates(symbols, rule, log);
        if *invalid {
            return Vec::new();
        }
        for cell in rule.lhs.iter_mut().chain(rule.rhs.iter_mut()).flatten() {
            for item in cell.iter_mut() {
                if let Some(target) = symbols.synonyms.get(&item.name) {
                    item.name = target.clone();
                }
            }
        }
    }
    let mut moving = Vec::new();
    for rule in per_direction {
        moving.extend(concretize_movements(rule, invalid, log));
    }
    let mut concrete = Vec::new();
    for rule in moving {
        concrete.extend(concretize_properties(symbols, rule, log));
    }
    for rule in concrete.iter_mut() {
        make_spawned_stationary(symbols, rule);
    }
    concrete
}

fn absolutify(rule: &mut RawRule) {
    let table: [&str; 6] = match rule.direction.as_str() {
        "right" => [
            "up",
            "down",
            "left",
            "right",
            "horizontal_par",
            "vertical_perp",
        ],
        "up" => [
            "left",
            "right",
            "down",
            "up",
            "vertical_par",
            "horizontal_perp",
        ],
        "down" => [
            "right",
            "left",
            "up",
            "down",
            "vertical_par",
            "horizontal_perp",
        ],
        "left" => [
            "down",
            "up",
            "right",
            "left",
            "horizontal_par",
            "vertical_perp",
        ],
        _ => return,
    };
    const ORDER: [&str; 6] = ["^", "v", "<", ">", "parallel", "perpendicular"];
    for item in rule
        .lhs
        .iter_mut()
        .chain(rule.rhs.iter_mut())
        .flatten()
        .flatten()
    {
        if let Some(i) = ORDER.iter().position(|d| *d == item.dir) {
            item.dir = table[i].to_string();
        }
    }
}

fn rewrite_up_left(rule: &mut RawRule) {
    let ellipsis = rule
        .lhs
        .iter()
        .flatten()
        .any(|cell| cell.first().is_some_and(|i| i.name == "..."));
    if ellipsis {
        return;
    }
    rule.direction = match rule.direction.as_str() {
        "up" => "down".into(),
        "left" => "right".into(),
        _ => return,
    };
    for (i, row) in rule.lhs.iter_mut().enumerate() {
        row.reverse();
        if let Some(r) = rule.rhs.get_mut(i) {
            r.reverse();
        }
    }
}

fn atomize_aggregates(symbols: &Symbols, rule: &mut RawRule, log: &mut Log) {
    for cell in rule.lhs.iter_mut().chain(rule.rhs.iter_mut()).flatten() {
        let mut i = 0;
        while i < cell.len() {
            if let Some(members) = symbols.aggregates.get(&cell[i].name) {
                if cell[i].dir == "no" {
                    log.error(rule.line, format!("You cannot use 'no' to exclude the aggregate object {} (defined using 'AND'), only regular objects, or properties (objects defined using 'OR').  If you want to do this, you'll have to write it out yourself the long way.", cell[i].name.to_uppercase()));
                }
                let dir = cell[i].dir.clone();
                if let Some(first) = members.first() {
                    cell[i].name = first.clone();
                }
                for m in members.iter().skip(1) {
                    cell.push(Item {
                        dir: dir.clone(),
                        name: m.clone(),
                    });
                }
            }
            i += 1;
        }
    }
}

/// `(object, ambiguous direction)` of each ambiguous movement in a cell.
fn movings(cell: &Cell) -> Vec<(String, String)> {
    cell.iter()
        .filter(|i| aggregate_directions(&i.dir).is_some())
        .map(|i| (i.name.clone(), i.dir.clone()))
        .collect()
}

fn set_movement(cell: &mut Cell, ambiguous: &str, name: &str, concrete: &str) {
    for item in cell.iter_mut() {
        if item.dir == ambiguous && item.name == name {
            item.dir = concrete.into();
        }
    }
}

#[derive(Clone, Default)]
struct MovingNotes {
    /// Per `object + ambiguous direction`: (concrete, count, ambiguous, object, row, cell).
    by_object: Dict<(String, usize, String, String, usize, usize)>,
    /// Per ambiguous direction: (concrete, count).
    by_direction: Dict<(String, usize)>,
}

fn concretize_movements(rule: RawRule, invalid: &mut bool, log: &mut Log) -> Vec<RawRule> {
    let line = rule.line;
    let mut result: Vec<(RawRule, Option<MovingNotes>)> = vec![(rule, None)];
    let mut modified = true;
    while modified {
        modified = false;
        let mut i = 0;
        while i < result.len() {
            let mut remove = false;
            let (cur, notes) = result[i].clone();
            for j in 0..cur.lhs.len() {
                for k in 0..cur.lhs[j].len() {
                    let found = movings(&cur.lhs[j][k]);
                    let Some((name, ambiguous)) = found.first() else {
                        continue;
                    };
                    remove = true;
                    modified = true;
                    for concrete in aggregate_directions(ambiguous).unwrap_or(&[]) {
                        let mut next = cur.clone();
                        let mut n = notes.clone().unwrap_or_default();
                        set_movement(&mut next.lhs[j][k], ambiguous, name, concrete);
                        if !next.rhs.is_empty()
                            && let Some(c) = next.rhs.get_mut(j).and_then(|r| r.get_mut(k))
                        {
                            set_movement(c, ambiguous, name, concrete);
                        }
                        let key = format!("{name}{ambiguous}");
                        match n.by_object.get_mut(&key) {
                            None => n.by_object.insert(
                                &key,
                                (
                                    concrete.to_string(),
                                    1,
                                    ambiguous.clone(),
                                    name.clone(),
                                    j,
                                    k,
                                ),
                            ),
                            Some(e) => {
                                if j != e.4 || k != e.5 {
                                    e.1 += 1;
                                }
                            }
                        }
                        match n.by_direction.get_mut(ambiguous) {
                            None => n.by_direction.insert(ambiguous, (concrete.to_string(), 1)),
                            Some(e) => e.1 += 1,
                        }
                        result.push((next, Some(n)));
                    }
                }
            }
            if remove {
                result.remove(i);
            } else {
                i += 1;
            }
        }
    }
    let mut rules = Vec::new();
    for (mut rule, notes) in result {
        if let Some(notes) = notes {
            for (_, (concrete, count, ambiguous, name, _, _)) in notes.by_object.iter() {
                if *count == 1 {
                    for cell in rule.rhs.iter_mut().flatten() {
                        set_movement(cell, ambiguous, name, concrete);
                    }
                }
            }
            // A direction word used once on the left also settles it,
            // whatever object it is attached to, on the right.
            let mut settled: Dict<Option<String>> = Dict::default();
            for (ambiguous, (concrete, count)) in notes.by_direction.iter() {
                if settled.contains(ambiguous) || *count != 1 {
                    settled.insert(ambiguous, None);
                } else {
                    settled.insert(ambiguous, Some(concrete.clone()));
                }
            }
            for (ambiguous, concrete) in settled.iter() {
                let Some(concrete) = concrete else { continue };
                for item in rule.rhs.iter_mut().flatten().flatten() {
                    if item.dir == ambiguous {
                        item.dir = concrete.clone();
                    }
                }
            }
        }
        rules.push(rule);
    }
    if let Some(left) = rules
        .iter()
        .flat_map(|r| r.rhs.iter().flatten())
        .find_map(|c| movings(c).into_iter().next())
    {
        log.error(line, format!("This rule has an ambiguous movement on the right-hand side, \"{}\", that can't be inferred from the left-hand side.  (either for every ambiguous movement associated to an entity on the right there has to be a corresponding one on the left attached to the same entity, OR, if there's a single occurrence of a particular ambiguous movement on the left, all properties of the same movement attached to the same object on the right are assumed to be the same (or something like that)).", left.1));
        *invalid = true;
    }
    rules
}

fn properties_in(symbols: &Symbols, cell: &Cell) -> Vec<String> {
    cell.iter()
        .filter(|i| i.dir != "random" && symbols.properties.contains(&i.name))
        .map(|i| i.name.clone())
        .collect()
}

fn set_property(cell: &mut Cell, property: &str, concrete: &str) {
    for item in cell.iter_mut() {
        if item.name == property && item.dir != "random" {
            item.name = concrete.into();
        }
    }
}

fn expand_no_properties(symbols: &Symbols, cell: &Cell) -> Cell {
    let mut out = Vec::new();
    for item in cell {
        match symbols.properties.get(&item.name) {
            Some(members) if item.dir == "no" => out.extend(members.iter().map(|m| Item {
                dir: "no".into(),
                name: m.clone(),
            })),
            _ => out.push(item.clone()),
        }
    }
    out
}

/// Per property expanded in a rule: the object chosen, and how often the
/// property occurs on the left.
type PropertyNotes = Dict<(String, usize)>;

fn concretize_properties(symbols: &Symbols, mut rule: RawRule, log: &mut Log) -> Vec<RawRule> {
    for j in 0..rule.lhs.len() {
        for k in 0..rule.lhs[j].len() {
            rule.lhs[j][k] = expand_no_properties(symbols, &rule.lhs[j][k]);
            if !rule.rhs.is_empty()
                && let Some(c) = rule.rhs.get_mut(j).and_then(|r| r.get_mut(k))
            {
                *c = expand_no_properties(symbols, c);
            }
        }
    }
    // Properties named on the right but not in the same cell on the left
    // must be expanded, so that the right can say which object it means.
    let mut ambiguous: HashSet<String> = HashSet::new();
    for (j, row) in rule.rhs.iter().enumerate() {
        for (k, cell) in row.iter().enumerate() {
            let left = rule
                .lhs
                .get(j)
                .and_then(|r| r.get(k))
                .map(|c| properties_in(symbols, c))
                .unwrap_or_default();
            for p in properties_in(symbols, cell) {
                if !left.contains(&p) {
                    ambiguous.insert(p);
                }
            }
        }
    }
    let line = rule.line;
    let mut result: Vec<(RawRule, Option<PropertyNotes>)> = vec![(rule, None)];
    let mut modified = true;
    while modified {
        modified = false;
        let mut i = 0;
        while i < result.len() {
            let (cur, notes) = result[i].clone();
            let mut remove = false;
            'cells: for j in 0..cur.lhs.len() {
                for k in 0..cur.lhs[j].len() {
                    for property in properties_in(symbols, &cur.lhs[j][k]) {
                        if symbols.single_layer.contains_key(&property)
                            && !ambiguous.contains(&property)
                        {
                            continue;
                        }
                        remove = true;
                        modified = true;
                        for concrete in symbols
                            .properties
                            .get(&property)
                            .cloned()
                            .unwrap_or_default()
                        {
                            let mut next = cur.clone();
                            let mut n = notes.clone().unwrap_or_default();
                            set_property(&mut next.lhs[j][k], &property, &concrete);
                            if !next.rhs.is_empty()
                                && let Some(c) = next.rhs.get_mut(j).and_then(|r| r.get_mut(k))
                            {
                                set_property(c, &property, &concrete);
                            }
                            match n.get_mut(&property) {
                                None => n.insert(&property, (concrete.clone(), 1)),
                                Some(e) => e.1 += 1,
                            }
                            result.push((next, Some(n)));
                        }
                        break 'cells;
                    }
                }
            }
            if remove {
                result.remove(i);
            } else {
                i += 1;
            }
        }
    }
    let mut rules = Vec::new();
    let mut remains = None;
    for (mut rule, notes) in result {
        if let Some(notes) = notes {
            for (property, (concrete, count)) in notes.iter() {
                if *count == 1 {
                    for cell in rule.rhs.iter_mut().flatten() {
                        set_property(cell, property, concrete);
                    }
                }
            }
        }
        for cell in rule.rhs.iter().flatten() {
            for p in properties_in(symbols, cell) {
                if ambiguous.contains(&p) {
                    remains = Some(p);
                }
            }
        }
        rules.push(rule);
    }
    if let Some(p) = remains {
        log.error(line, format!("This rule has a property on the right-hand side, \"{}\", that can't be inferred from the left-hand side.  (either for every property on the right there has to be a corresponding one on the left in the same cell, OR, if there's a single occurrence of a particular property name on the left, all properties of the same name on the right are assumed to be the same).", p.to_uppercase()));
        return Vec::new();
    }
    rules
}

/// An object a rule creates in a cell where its layer held nothing it
/// matched is created standing still (it must not inherit a movement).
fn make_spawned_stationary(symbols: &Symbols, rule: &mut RawRule) {
    if rule.late {
        return;
    }
    for (j, row) in rule.rhs.iter_mut().enumerate() {
        for (k, cell) in row.iter_mut().enumerate() {
            let mut left_objects: Vec<String> = Vec::new();
            for item in rule.lhs.get(j).and_then(|r| r.get(k)).into_iter().flatten() {
                if symbols.is_object(&item.name) {
                    left_objects.push(item.name.clone());
                } else if let Some(members) = symbols.properties.get(&item.name) {
                    left_objects.extend(members.iter().cloned());
                }
            }
            let layers: Vec<Option<usize>> = left_objects
                .iter()
                .filter_map(|n| symbols.object(n))
                .map(|o| o.layer)
                .collect();
            for item in cell.iter_mut() {
                if !item.dir.is_empty()
                    || symbols.properties.contains(&item.name)
                    || left_objects.contains(&item.name)
                {
                    continue;
                }
                let Some(o) = symbols.object(&item.name) else {
                    continue;
                };
                if !layers.contains(&o.layer) {
                    item.dir = "stationary".into();
                }
            }
        }
    }
}

/// What makes two expanded rules the same: direction (when it matters),
/// both sides, commands, flags and line.
pub(crate) type Identity = (
    Option<String>,
    Vec<Row>,
    Vec<Row>,
    Vec<Command>,
    bool,
    bool,
    bool,
    usize,
);

/// The key under which two expanded rules of one line count as the same
/// (the official engine compares their printed form).
pub(crate) fn identity(rule: &RawRule) -> Identity {
    let directed = rule.lhs.iter().any(|r| r.len() > 1);
    (
        directed.then(|| rule.direction.clone()),
        rule.lhs.clone(),
        rule.rhs.clone(),
        rule.commands.clone(),
        rule.rigid,
        rule.random,
        rule.late,
        rule.line,
    )
}
