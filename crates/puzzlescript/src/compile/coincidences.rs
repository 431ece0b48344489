//! Coincidences in raw rules: `no X` that can never matter is dropped
//! (with a warning), `X no X` on a right-hand side is an error.

use std::collections::{HashMap, HashSet};

use super::rules::RawRule;
use super::symbols::Symbols;
use crate::bits;
use crate::log::Log;

/// Warns of, and drops, `no X` that can never matter; errors on `X no X`
/// on a right-hand side.
pub(super) fn check_coincidences(symbols: &Symbols, rules: &mut [RawRule], log: &mut Log) {
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
