//! Concrete rules to bitmask matchers: each cell of a pattern becomes the
//! objects and movements it requires and forbids, and what it writes.

use super::rules::RawRule;
use super::sieve::Sieve;
use super::symbols::Symbols;
use crate::bits;
use crate::command::Commands;
use crate::log::Log;

/// What one cell of a left-hand side requires, and what it becomes.
///
/// A cell fits when `cell & objects_seen == present`, its movements when
/// `moves & moves_seen == moving`, and it holds an object of each `any_of`
/// mask: one test a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CellPattern {
    /// The objects it requires.
    pub(crate) present: Box<[u32]>,
    /// The object bits it looks at: `present`, and those it forbids (the
    /// two are disjoint: a rule that needs an object and its absence in
    /// one cell is dropped).
    pub(crate) objects_seen: Box<[u32]>,
    /// The movements it requires.
    pub(crate) moving: Box<[u32]>,
    /// The movement bits it looks at: `moving`, and the layers it requires
    /// to stand still (a cell's moving and stationary objects are on
    /// different layers, or the rule is dropped).
    pub(crate) moves_seen: Box<[u32]>,
    /// Whether the pattern looks at movements at all: most do not.
    pub(crate) tests_moves: bool,
    /// Masks (`stride_obj` words each, back to back) of which at least one
    /// object each must be present: its properties.
    pub(crate) any_of: Box<[u32]>,
    pub(crate) replace: Option<Replacement>,
}

/// What a matched cell becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replacement {
    /// The objects it clears, before it sets `set`.
    pub(crate) clear: Box<[u32]>,
    pub(crate) set: Box<[u32]>,
    /// Every movement bit it clears (`layer_moves` among them), before it
    /// sets `set_moves`.
    pub(crate) clear_moves: Box<[u32]>,
    pub(crate) set_moves: Box<[u32]>,
    /// Layers whose movement the rule rewrote (rigid bodies track these).
    pub(crate) layer_moves: Box<[u32]>,
    /// One object of these is created at random.
    pub(crate) random_object: Box<[u32]>,
    /// Layers that get a random direction.
    pub(crate) random_dir: Box<[u32]>,
    /// Whether it draws from the random generator (`random_object` or
    /// `random_dir` is not empty).
    pub(crate) random: bool,
    /// The first words of `clear`, `set`, `clear_moves` and `set_moves`,
    /// held here: all of the write in a game of one word of each a cell.
    pub(crate) first: [u32; 4],
}

/// A cell of a pattern row: a pattern, or an ellipsis.
// Rows are short and matched in place: boxing the pattern would cost an
// indirection for every cell matched.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Cell(CellPattern),
    Ellipsis,
}

/// One compiled rule.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    /// The direction it scans in, as a movement bit ([`bits::UP`] and so on).
    pub(crate) direction: u32,
    pub(crate) rows: Vec<Vec<Slot>>,
    pub(crate) ellipses: Vec<usize>,
    pub(crate) has_replacements: bool,
    pub(crate) line: usize,
    pub(crate) group: usize,
    pub(crate) rigid: bool,
    pub(crate) random: bool,
    pub(crate) late: bool,
    pub(crate) commands: Commands,
    /// Per row: every object its cells require (for skipping rows and columns).
    pub(crate) row_objects: Vec<Box<[u32]>>,
    pub(crate) row_moves: Vec<Box<[u32]>>,
    /// Per row: its cells' `any_of` masks (without repeats), back to back
    /// as in [`CellPattern::any_of`]. A row or column of the board that
    /// can hold a match holds an object of each.
    pub(crate) row_any_of: Vec<Box<[u32]>>,
    /// All rows' objects together.
    pub(crate) objects: Box<[u32]>,
    /// All rows' required movements together.
    pub(crate) moves: Box<[u32]>,
    /// The first words of `objects` and `moves`, held in the rule itself:
    /// all of them in a game of one word of each a cell.
    pub(crate) need: [u32; 2],
    /// Two required objects share a layer: the rule can never fire.
    pub(crate) discard: Option<(String, String)>,
    /// The number of the rule's first row among all rules' rows (the
    /// engine keeps each row's matches between scans under it).
    pub(crate) first_row: usize,
    /// For a rule of one row without ellipses nor rigid body, whose cells
    /// neither test nor set movements nor draw at random: the movement
    /// bits its writes clear (first words). Where the board holds none of
    /// them, whether a match writes anything is told by its objects alone,
    /// and the engine passes over the matches that write nothing
    /// (`engine/dormant.rs`). `None` for any other rule.
    pub(crate) plain_clears: Option<u32>,
    /// Its rows as bitmaps test them: what tells cheaply that it matches
    /// nowhere (`sieve.rs`).
    pub(crate) sieve: Option<Sieve>,
}

pub(crate) fn dir_mask(dir: &str) -> u32 {
    match dir {
        "up" => bits::UP,
        "down" => bits::DOWN,
        "left" => bits::LEFT,
        "right" => bits::RIGHT,
        "moving" => bits::MOVING,
        "no" => bits::NO,
        "randomdir" => bits::RANDOMDIR,
        "random" => bits::RANDOM,
        "action" => bits::ACTION,
        _ => 0,
    }
}

/// A name of a concrete rule cell: its object (none for a property), its
/// mask and its layer; `None`, with the official message, when it has no
/// layer.
fn lookup<'s>(
    symbols: &'s Symbols,
    name: &str,
    line: usize,
    log: &mut Log,
) -> Option<(Option<&'s super::symbols::ObjectInfo>, Vec<u32>, usize)> {
    let mask = symbols
        .object_masks
        .get(name)
        .cloned()
        .unwrap_or_else(|| symbols.zero_mask());
    let Some(layer) = symbols.layer_of(name) else {
        log.error(
            line,
            format!("Oops! {} not assigned to a layer.", name.to_uppercase()),
        );
        return None;
    };
    Some((symbols.object(name), mask, layer))
}

/// Compiles concrete rules; rules that can never match are dropped, with
/// the official engine's messages.
pub(crate) fn compile(symbols: &Symbols, rules: Vec<RawRule>, log: &mut Log) -> Vec<Rule> {
    let z = || symbols.zero_mask();
    let zm = || vec![0u32; symbols.stride_mov];
    let layers = symbols.layer_count;
    let mut out = Vec::new();
    'rules: for raw in rules {
        let mut discard = None;
        let mut at_edge = false;
        let mut rows = Vec::new();
        for (r, row) in raw.lhs.iter().enumerate() {
            let mut slots = Vec::new();
            for (c, cell) in row.iter().enumerate() {
                let mut used_l: Vec<Option<String>> = vec![None; layers];
                let (mut present, mut missing) = (z(), z());
                let mut any_of = Vec::new();
                let (mut moving, mut still, mut layers_l) = (zm(), zm(), zm());
                let mut ellipsis = false;
                for item in cell {
                    if item.dir == "..." {
                        if cell.len() != 1 {
                            log.error(
                                raw.line,
                                "You can't have anything in with an ellipsis. Sorry.",
                            );
                            continue 'rules;
                        }
                        if c == 0 || c == row.len() - 1 {
                            log.error(raw.line, "There's no point in putting an ellipsis at the very start or the end of a rule");
                            at_edge = true;
                        }
                        if !raw.rhs.is_empty() {
                            let rc = raw.rhs.get(r).and_then(|x| x.get(c));
                            if !rc.is_some_and(|rc| rc.len() == 1 && rc[0].dir == "...") {
                                log.error(raw.line, "An ellipsis on the left must be matched by one in the corresponding place on the right.");
                            }
                        }
                        ellipsis = true;
                        break;
                    }
                    if item.dir == "random" {
                        log.error(raw.line, "RANDOM cannot be matched on the left-hand side, it can only appear on the right");
                        continue;
                    }
                    let Some((object, mask, layer)) = lookup(symbols, &item.name, raw.line, log)
                    else {
                        continue;
                    };
                    if item.dir == "no" {
                        bits::or(&mut missing, &mask);
                    } else {
                        if let Some(existing) = &used_l[layer] {
                            discard = Some((item.name.to_uppercase(), existing.to_uppercase()));
                        }
                        used_l[layer] = Some(item.name.clone());
                        if object.is_some() {
                            bits::or(&mut present, &mask);
                            bits::or_field(&mut layers_l, bits::FIELD, layer);
                        } else {
                            any_of.extend_from_slice(&mask);
                        }
                        if item.dir == "stationary" {
                            bits::or_field(&mut still, bits::FIELD, layer);
                        } else {
                            bits::or_field(&mut moving, dir_mask(&item.dir), layer);
                        }
                    }
                }
                if ellipsis {
                    slots.push(Slot::Ellipsis);
                    continue;
                }
                if !bits::is_zero(&present) && bits::any(&present, &missing) {
                    let overlap: Vec<String> = bits::ones(&present)
                        .filter(|&b| bits::has(&missing, b))
                        .filter_map(|b| symbols.id_names.get(b))
                        .map(|n| format!("{n} NO {n}"))
                        .collect();
                    log.warning(raw.line, format!("This rule has something amounting to \"{}\" on the left-hand-side,which can never match, so the rule is getting removed during compilation.", overlap.join(", ").to_uppercase()));
                    continue 'rules;
                }
                let objects_seen: Box<[u32]> =
                    present.iter().zip(&missing).map(|(p, m)| p | m).collect();
                let moves_seen: Box<[u32]> =
                    moving.iter().zip(&still).map(|(m, s)| m | s).collect();
                let mut pattern = CellPattern {
                    present: present.clone().into_boxed_slice(),
                    objects_seen,
                    moving: moving.clone().into_boxed_slice(),
                    tests_moves: !bits::is_zero(&moves_seen),
                    moves_seen,
                    any_of: any_of.into_boxed_slice(),
                    replace: None,
                };
                if let Some(cell_r) = raw.rhs.get(r).and_then(|x| x.get(c)) {
                    if cell_r.first().is_some_and(|i| i.dir == "...")
                        && cell.first().is_none_or(|i| i.dir != "...")
                    {
                        log.error(raw.line, "An ellipsis on the right must be matched by one in the corresponding place on the left.");
                    }
                    if cell_r.iter().any(|i| i.dir == "...") && cell_r.len() != 1 {
                        log.error(
                            raw.line,
                            "You can't have anything in with an ellipsis. Sorry.",
                        );
                    }
                    let mut used_r: Vec<Option<String>> = vec![None; layers];
                    let mut used_rand: Vec<Option<String>> = vec![None; layers];
                    let (mut clear, mut set, mut random_object) = (z(), z(), z());
                    let (
                        mut clear_moves,
                        mut set_moves,
                        mut layers_r,
                        mut layer_moves,
                        mut random_dir,
                    ) = (zm(), zm(), zm(), zm(), zm());
                    for item in cell_r {
                        if item.dir == "..." {
                            break;
                        }
                        if item.dir == "random" {
                            if let Some(mask) = symbols.object_masks.get(&item.name) {
                                bits::or(&mut random_object, mask);
                                let values = symbols
                                    .properties
                                    .get(&item.name)
                                    .cloned()
                                    .unwrap_or_else(|| vec![item.name.clone()]);
                                if values.len() == 1 {
                                    log.warning(raw.line, format!("In this rule you're asking me to spawn a random {} for you, but that's already a concrete single object. You wanna be using random with properties (things defined in terms of OR in the legend) so there's some things to select between.", item.name.to_uppercase()));
                                }
                                for sub in &values {
                                    let Some(layer) = symbols.object(sub).and_then(|o| o.layer)
                                    else {
                                        continue;
                                    };
                                    if let Some(existing) = &used_r[layer] {
                                        let (o1, o2) =
                                            (sub.to_uppercase(), existing.to_uppercase());
                                        if o1 != o2 {
                                            log.warning(raw.line, format!("This rule may try to spawn a {o1} with random, but also requires a {o2} be here, which is on the same layer - they shouldn't be able to coexist!"));
                                        }
                                    }
                                    used_rand[layer] = Some(sub.clone());
                                }
                            } else {
                                log.error(raw.line, format!("You want to spawn a random \"{}\", but I don't know how to do that", item.name.to_uppercase()));
                            }
                            continue;
                        }
                        let Some((object, mask, layer)) =
                            lookup(symbols, &item.name, raw.line, log)
                        else {
                            continue;
                        };
                        if item.dir == "no" {
                            bits::or(&mut clear, &mask);
                            continue;
                        }
                        let existing = used_r[layer].clone().or_else(|| used_rand[layer].clone());
                        if let Some(existing) = existing
                            && discard.is_none()
                        {
                            log.error(raw.line, format!("Rule matches object types that can't overlap: \"{}\" and \"{}\".", item.name.to_uppercase(), existing.to_uppercase()));
                        }
                        used_r[layer] = Some(item.name.clone());
                        if !item.dir.is_empty() {
                            bits::or_field(&mut layer_moves, bits::FIELD, layer);
                        }
                        if let Some(id) = object.and_then(|o| o.id) {
                            bits::set(&mut set, id);
                            bits::or(&mut clear, &symbols.layer_masks[layer]);
                            bits::or_field(&mut layers_r, bits::FIELD, layer);
                        }
                        match item.dir.as_str() {
                            "stationary" => bits::or_field(&mut clear_moves, bits::FIELD, layer),
                            "randomdir" => bits::or_field(&mut random_dir, bits::RANDOMDIR, layer),
                            d => bits::or_field(&mut set_moves, dir_mask(d), layer),
                        }
                    }
                    if !bits::within(&present, &set) {
                        bits::or(&mut clear, &present);
                    }
                    if !bits::within(&moving, &set_moves) {
                        bits::or(&mut clear_moves, &moving);
                    }
                    for layer in 0..layers {
                        if used_l[layer].is_some() && used_r[layer].is_none() {
                            bits::or(&mut clear, &symbols.layer_masks[layer]);
                            bits::or_field(&mut layer_moves, bits::FIELD, layer);
                        }
                    }
                    bits::clear(&mut layers_l, &layers_r);
                    bits::or(&mut layer_moves, &layers_l);
                    let changes = [&clear, &set, &random_object]
                        .iter()
                        .any(|m| !bits::is_zero(m))
                        || [&clear_moves, &set_moves, &layer_moves, &random_dir]
                            .iter()
                            .any(|m| !bits::is_zero(m));
                    if changes {
                        bits::or(&mut clear_moves, &layer_moves);
                        let first = [&clear, &set, &clear_moves, &set_moves]
                            .map(|w| w.first().copied().unwrap_or(0));
                        pattern.replace = Some(Replacement {
                            first,
                            clear: clear.into_boxed_slice(),
                            set: set.into_boxed_slice(),
                            clear_moves: clear_moves.into_boxed_slice(),
                            set_moves: set_moves.into_boxed_slice(),
                            layer_moves: layer_moves.into_boxed_slice(),
                            random: !bits::is_zero(&random_object) || !bits::is_zero(&random_dir),
                            random_object: random_object.into_boxed_slice(),
                            random_dir: random_dir.into_boxed_slice(),
                        });
                    }
                }
                slots.push(Slot::Cell(pattern));
            }
            rows.push(slots);
        }
        if at_edge {
            continue;
        }
        let direction = dir_mask(&raw.direction);
        if direction == 0 {
            continue;
        }
        let mut ellipses = Vec::new();
        for row in &rows {
            let mut count = 0;
            for (k, slot) in row.iter().enumerate() {
                if *slot == Slot::Ellipsis {
                    count += 1;
                    if count > 2 {
                        log.error(
                            raw.line,
                            "You can't use more than two ellipses in a single cell match pattern.",
                        );
                    } else if k > 0 && row[k - 1] == Slot::Ellipsis {
                        log.warning(raw.line, "Why would you go and have two ellipses in a row like that? It's exactly the same as just having a single ellipsis, right?");
                    }
                }
            }
            ellipses.push(count);
        }
        let mut row_objects = Vec::new();
        let mut row_moves = Vec::new();
        let mut row_any_of = Vec::new();
        let mut all = z();
        let mut all_moves = zm();
        for row in &rows {
            let (mut o, mut m) = (z(), zm());
            let mut any: Vec<u32> = Vec::new();
            for slot in row {
                if let Slot::Cell(p) = slot {
                    bits::or(&mut o, &p.present);
                    bits::or(&mut m, &p.moving);
                    for mask in p.any_of.chunks_exact(symbols.stride_obj) {
                        if !any.chunks_exact(symbols.stride_obj).any(|a| a == mask) {
                            any.extend_from_slice(mask);
                        }
                    }
                }
            }
            row_any_of.push(any.into_boxed_slice());
            bits::or(&mut all, &o);
            bits::or(&mut all_moves, &m);
            row_objects.push(o.into_boxed_slice());
            row_moves.push(m.into_boxed_slice());
        }
        out.push(Rule {
            direction,
            has_replacements: !raw.rhs.is_empty(),
            line: raw.line,
            group: raw.group,
            rigid: raw.rigid,
            random: raw.random,
            late: raw.late,
            commands: raw.commands.into_iter().collect(),
            row_objects,
            row_moves,
            row_any_of,
            need: [
                all.first().copied().unwrap_or(0),
                all_moves.first().copied().unwrap_or(0),
            ],
            objects: all.into_boxed_slice(),
            moves: all_moves.into_boxed_slice(),
            discard,
            first_row: 0,
            plain_clears: plain_clears(&rows, &ellipses, raw.rigid, !raw.rhs.is_empty()),
            sieve: Sieve::of(&rows, direction),
            rows,
            ellipses,
        });
    }
    out
}

/// [`Rule::plain_clears`] for a rule of these rows.
fn plain_clears(rows: &[Vec<Slot>], ellipses: &[usize], rigid: bool, writes: bool) -> Option<u32> {
    let ([row], [0]) = (rows, ellipses) else {
        return None;
    };
    if rigid || !writes {
        return None;
    }
    let mut clears = 0;
    for slot in row {
        let Slot::Cell(p) = slot else { return None };
        if p.tests_moves {
            return None;
        }
        if let Some(rep) = &p.replace {
            if rep.random || rep.first[3] != 0 {
                return None;
            }
            clears |= rep.first[2];
        }
    }
    Some(clears)
}

/// Drops the rules that can never fire (two objects of one layer in one
/// cell), saying so when a whole rule line is gone.
pub(crate) fn drop_discarded(group: &mut Vec<Rule>, log: &mut Log) {
    let mut discards: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < group.len() {
        let Some(d) = group[i].discard.clone() else {
            i += 1;
            continue;
        };
        let line = group[i].line;
        let before = i > 0 && group[i - 1].line == line;
        let after = i + 1 < group.len() && group[i + 1].line == line;
        group.remove(i);
        if !discards.contains(&d) {
            discards.push(d);
        }
        if !(before || after) || group.is_empty() {
            let (a, b) = &discards[0];
            let mut ditto = String::new();
            if discards.len() > 1 {
                ditto.push_str(" (ditto for ");
                for (j, (p1, p2)) in discards.iter().enumerate().skip(1) {
                    if j > 1 {
                        ditto.push_str(", ");
                        if j == discards.len() - 1 {
                            ditto.push_str("and ");
                        }
                    }
                    ditto.push_str(&format!("{p1}/{p2}"));
                    if j == 3 && discards.len() > 4 {
                        ditto.push_str(" etc.");
                        break;
                    }
                }
                ditto.push(')');
            }
            log.error(line, format!("{a} and {b} can never overlap{ditto}. This rule requires that to happen, so it impossible it will ever trigger."));
        }
    }
}
