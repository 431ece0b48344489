//! SOUNDS: the object sounds the engine plays (created, destroyed, moved,
//! unable to move) as masks, and the events by name.

use super::symbols::Symbols;
use crate::ast::{Parsed, SoundToken};
use crate::bits;
use crate::log::Log;

/// A sound the engine plays for objects.
#[derive(Clone, Debug)]
pub(crate) struct ObjectSound {
    pub(crate) objects: Box<[u32]>,
    /// For movement sounds: the direction bits, at the object's layer.
    pub(crate) directions: Box<[u32]>,
    pub(crate) seed: String,
}

/// Sounds that the conformance cases record.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sounds {
    pub(crate) create: Vec<ObjectSound>,
    pub(crate) destroy: Vec<ObjectSound>,
    /// Per layer.
    pub(crate) movement: Vec<Vec<ObjectSound>>,
    pub(crate) cant_move: Vec<ObjectSound>,
    /// `sfx0`… and the other events, with their seeds.
    pub(crate) events: Vec<(String, String)>,
}

/// The SOUNDS section's rows, read.
pub(super) fn compile(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Sounds {
    let mut s = Sounds {
        movement: vec![Vec::new(); symbols.layer_count],
        ..Sounds::default()
    };
    for row in &parsed.sounds {
        let t = &row.tokens;
        let line = row.line;
        if t.is_empty() {
            continue;
        }
        if t.len() == 1 {
            log.warning(line, "incorrect sound declaration.");
            continue;
        }
        let Some(SoundToken::Seed(seed)) = t.last() else {
            log.error(line, "Expecting sfx data, instead found something else.");
            continue;
        };
        match &t[0] {
            SoundToken::Event(event) => {
                if t.len() > 3 {
                    log.error(line, "too much stuff to define a sound event.");
                } else if t.len() > 2 {
                    log.warning(line, "too much stuff to define a sound event.");
                }
                if s.events.iter().any(|(e, _)| e == event) {
                    log.warning(line, format!("{} already declared.", event.to_uppercase()));
                }
                s.events.retain(|(e, _)| e != event);
                s.events.push((event.clone(), seed.clone()));
            }
            SoundToken::Name(target) => {
                let Some(SoundToken::Verb(verb)) = t.get(1) else {
                    continue;
                };
                let mut verb = verb.as_str();
                let mut dirs: Vec<&str> = t[2..t.len() - 1]
                    .iter()
                    .filter_map(|x| match x {
                        SoundToken::Direction(d) => Some(d.as_str()),
                        _ => None,
                    })
                    .collect();
                if verb == "action" {
                    verb = "move";
                    dirs = vec!["action"];
                }
                if dirs.is_empty() {
                    dirs = vec!["orthogonal"];
                }
                if symbols.aggregates.contains(target) {
                    log.error(line, format!("cannot assign sound events to aggregate objects (declared with \"and\"), only to regular objects, or properties, things defined in terms of \"or\" (\"{target}\")."));
                    continue;
                }
                let Some(mask) = symbols.object_masks.get(target) else {
                    log.error(line, format!("Object \"{target}\" not found."));
                    continue;
                };
                let direction_bits: u32 = dirs
                    .iter()
                    .map(|d| match *d {
                        "up" => bits::UP,
                        "down" => bits::DOWN,
                        "left" => bits::LEFT,
                        "right" => bits::RIGHT,
                        "horizontal" => bits::HORIZONTAL,
                        "vertical" => bits::VERTICAL,
                        "orthogonal" => bits::MOVING,
                        "action" => bits::ACTION,
                        _ => 0,
                    })
                    .fold(0, |a, b| a | b);
                if verb == "move" || verb == "cantmove" {
                    let mut targets = vec![target.clone()];
                    let mut k = 0;
                    let mut guard = 0;
                    while k < targets.len() && guard < 10_000 {
                        guard += 1;
                        if let Some(x) = symbols.synonyms.get(&targets[k]) {
                            targets[k] = x.clone();
                        } else if let Some(members) = symbols.properties.get(&targets[k]) {
                            targets.remove(k);
                            targets.extend(members.iter().cloned());
                        } else {
                            k += 1;
                        }
                    }
                    for name in targets {
                        let Some(o) = symbols.object(&name) else {
                            continue;
                        };
                        let (Some(layer), Some(id)) = (o.layer, o.id) else {
                            continue;
                        };
                        let mut objects = symbols.zero_mask();
                        bits::set(&mut objects, id);
                        let mut directions = vec![0u32; symbols.stride_mov];
                        bits::or_field(&mut directions, direction_bits, layer);
                        let sound = ObjectSound {
                            objects: objects.into_boxed_slice(),
                            directions: directions.into_boxed_slice(),
                            seed: seed.clone(),
                        };
                        if verb == "move" {
                            s.movement[layer].push(sound);
                        } else {
                            s.cant_move.push(sound);
                        }
                    }
                }
                let whole = || ObjectSound {
                    objects: mask.clone().into_boxed_slice(),
                    directions: Box::new([]),
                    seed: seed.clone(),
                };
                match verb {
                    "create" => s.create.push(whole()),
                    "destroy" => s.destroy.push(whole()),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    s
}
