//! WINCONDITIONS: `no`, `some` or `all` of an object, maybe on another.

use super::symbols::{ALL, Symbols};
use crate::ast::Parsed;
use crate::log::Log;

/// `no`, `some` or `all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quantifier {
    No,
    Some,
    All,
}

/// A win condition: `quantifier A [on B]`.
#[derive(Clone, Debug)]
pub(crate) struct WinCondition {
    pub(crate) quantifier: Quantifier,
    pub(crate) a: Box<[u32]>,
    pub(crate) a_all: bool,
    pub(crate) b: Box<[u32]>,
    pub(crate) b_all: bool,
}

/// The win conditions: those whose names are objects or legend entries.
pub(super) fn compile(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Vec<WinCondition> {
    let mut out = Vec::new();
    for w in &parsed.win_conditions {
        let Some(first) = w.words.first() else { break };
        let quantifier = match first.as_str() {
            "no" => Quantifier::No,
            "all" => Quantifier::All,
            _ => Quantifier::Some,
        };
        if w.words.len() <= 1 {
            log.error(w.line, "Win conditions is badly formatted - needs to look something like \"No Fruit\", \"All Target On Crate\", \"Some Fruit\", \"Some Gold on Chest\", \"No Gold on Chest\", or the like.");
            continue;
        }
        let n1 = &w.words[1];
        let n2 = if w.words.len() == 4 {
            w.words[3].as_str()
        } else {
            ALL
        };
        let look = |name: &str, log: &mut Log| {
            if let Some(m) = symbols.object_masks.get(name) {
                Some((false, m.clone()))
            } else if let Some(m) = symbols.aggregate_masks.get(name) {
                Some((true, m.clone()))
            } else {
                log.error(w.line, format!("Unwelcome term \"{name}\" found in win condition. I don't know what I'm supposed to do with this. "));
                None
            }
        };
        let a = look(n1, log);
        let b = look(n2, log);
        let (Some((a_all, a)), Some((b_all, b))) = (a, b) else {
            continue;
        };
        out.push(WinCondition {
            quantifier,
            a: a.into_boxed_slice(),
            a_all,
            b: b.into_boxed_slice(),
            b_all,
        });
    }
    out
}

/// The objects the win conditions name (through a property or an
/// aggregate too): taking one out of a level changes what winning means.
pub(super) fn named_objects(parsed: &Parsed, symbols: &Symbols) -> Vec<u32> {
    let mut named = vec![0u32; symbols.stride_obj];
    for w in &parsed.win_conditions {
        let on = if w.words.len() == 4 {
            w.words.get(3)
        } else {
            None
        };
        for name in w.words.get(1).into_iter().chain(on) {
            let mask = symbols
                .object_masks
                .get(name)
                .or_else(|| symbols.aggregate_masks.get(name));
            if let Some(mask) = mask {
                crate::bits::or(&mut named, mask);
            }
        }
    }
    named
}
