//! Raw rules made concrete: one rule per direction, relative directions
//! made absolute, aggregates and synonyms replaced, ambiguous movements
//! and properties expanded, and the expansions that print alike kept once.
//! The order of the expanded rules is the official engine's, since it is
//! the order they fire in.

use std::collections::HashSet;

use super::dict::Dict;
use super::rules::{Cell, Item, RawRule, Row, aggregate_directions};
use super::symbols::Symbols;
use crate::command::Command;
use crate::log::Log;

/// One rule per direction, made concrete: relative directions, aggregates,
/// synonyms, ambiguous movements and properties. `invalid` is set when a
/// rule cannot be made concrete (the compile then stops, as upstream).
pub(super) fn expand(
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

/// The expanded rules, each group's rules that print alike kept once: the
/// last of them.
pub(super) fn dedupe(expanded: Vec<RawRule>) -> Vec<RawRule> {
    let mut seen_in_group = HashSet::new();
    let mut keep = vec![false; expanded.len()];
    let mut last_group = usize::MAX;
    for (i, r) in expanded.iter().enumerate().rev() {
        if r.group != last_group {
            seen_in_group.clear();
        }
        keep[i] = seen_in_group.insert(identity(r));
        last_group = r.group;
    }
    expanded
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect()
}

/// What makes two expanded rules the same: direction (when it matters),
/// both sides, commands, flags and line.
type Identity = (
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
fn identity(rule: &RawRule) -> Identity {
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
