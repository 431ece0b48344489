//! Objects, layers and the legend resolved into ids and masks: everything
//! later stages look names up in.

use std::collections::HashMap;

use super::dict::Dict;
use crate::ast::Parsed;
use crate::bits;
use crate::log::Log;

/// One declared object.
#[derive(Clone, Debug)]
pub(crate) struct ObjectInfo {
    pub(crate) name: String,
    pub(crate) line: usize,
    /// Its collision layer, if it is in one (the last one it is listed in).
    pub(crate) layer: Option<usize>,
    /// Its id: its position in the layers, read in order.
    pub(crate) id: Option<usize>,
    /// Colours as `#rrggbb` (or `#rgb`), or `transparent`.
    pub(crate) colors: Vec<String>,
    /// Sprite rows of colour indices (`None` = transparent); 5 × 5 when drawn.
    pub(crate) sprite: Vec<Vec<Option<u8>>>,
}

/// The resolved names of a game.
#[derive(Debug, Default)]
pub(crate) struct Symbols {
    /// Declared objects, in declaration order.
    pub(crate) objects: Vec<ObjectInfo>,
    object_index: HashMap<String, usize>,
    /// `id_names[id]`: the object an id was given to (an object listed in two
    /// layers has two ids; only its last is used).
    pub(crate) id_names: Vec<String>,
    pub(crate) layer_count: usize,
    pub(crate) stride_obj: usize,
    pub(crate) stride_mov: usize,
    pub(crate) synonyms: Dict<String>,
    pub(crate) properties: Dict<Vec<String>>,
    pub(crate) aggregates: Dict<Vec<String>>,
    pub(crate) single_layer: HashMap<String, usize>,
    /// Level characters (objects, synonyms, aggregates): an object id per layer.
    pub(crate) glyphs: HashMap<String, Vec<Option<usize>>>,
    pub(crate) object_masks: HashMap<String, Vec<u32>>,
    pub(crate) aggregate_masks: HashMap<String, Vec<u32>>,
    pub(crate) layer_masks: Vec<Vec<u32>>,
    pub(crate) background_id: Option<usize>,
    pub(crate) background_layer: Option<usize>,
    /// Every name a rule may use: objects and legend entries.
    pub(crate) names: std::collections::HashSet<String>,
}

/// The object name of the internal "anything" mask (`all X` without `on`).
pub(crate) const ALL: &str = "\nall\n";

const PALETTES: &[&str] = &[
    "mastersystem",
    "gameboycolour",
    "amiga",
    "arnecolors",
    "famicom",
    "atari",
    "pastel",
    "ega",
    "amstrad",
    "proteus_mellow",
    "proteus_rich",
    "proteus_night",
    "c64",
    "whitingjp",
];

impl Symbols {
    pub(crate) fn object(&self, name: &str) -> Option<&ObjectInfo> {
        self.object_index.get(name).map(|&i| &self.objects[i])
    }

    pub(crate) fn is_object(&self, name: &str) -> bool {
        self.object_index.contains_key(name)
    }

    /// An object's layer, or a single-layer property's.
    pub(crate) fn layer_of(&self, name: &str) -> Option<usize> {
        match self.object(name) {
            Some(o) => o.layer,
            None => self.single_layer.get(name).copied(),
        }
    }

    pub(crate) fn zero_mask(&self) -> Vec<u32> {
        vec![0; self.stride_obj]
    }

    /// The palette the prelude asks for (its name, after aliases).
    pub(crate) fn palette_name(parsed: &Parsed, log: &mut Log) -> &'static str {
        let mut chosen = "arnecolors";
        for (key, value, _) in &parsed.metadata {
            if key == "color_palette" {
                let name = match value.parse::<usize>() {
                    Ok(n) if (1..=PALETTES.len()).contains(&n) => PALETTES[n - 1],
                    _ => value.as_str(),
                };
                match PALETTES.iter().find(|p| **p == name) {
                    Some(p) => chosen = p,
                    None => log.error(
                        0,
                        format!("Palette \"{name}\" not found, defaulting to arnecolors."),
                    ),
                }
            }
        }
        chosen
    }

    /// Resolves the parsed sections. `palette` maps a colour name to hex.
    pub(crate) fn resolve(
        parsed: &Parsed,
        palette: &dyn Fn(&str) -> Option<String>,
        log: &mut Log,
    ) -> Symbols {
        let mut s = Symbols::default();
        for def in &parsed.objects {
            s.object_index.insert(def.name.clone(), s.objects.len());
            s.objects.push(ObjectInfo {
                name: def.name.clone(),
                line: def.line,
                layer: None,
                id: None,
                colors: def.colors.clone(),
                sprite: Vec::new(),
            });
        }
        s.names
            .extend(parsed.objects.iter().map(|o| o.name.clone()));
        for e in parsed
            .synonyms
            .iter()
            .chain(&parsed.aggregates)
            .chain(&parsed.properties)
        {
            s.names.insert(e.name.clone());
        }

        // Ids follow the layers: that order is the one bits, and random
        // choices among objects, are listed in.
        for (layer, l) in parsed.layers.iter().enumerate() {
            for name in &l.objects {
                if let Some(&i) = s.object_index.get(name) {
                    s.objects[i].layer = Some(layer);
                    s.objects[i].id = Some(s.id_names.len());
                    s.id_names.push(name.clone());
                }
            }
        }
        s.layer_count = parsed.layers.len();
        s.stride_obj = s.id_names.len().div_ceil(32).max(1);
        s.stride_mov = s.layer_count.div_ceil(5).max(1);

        for (o, def) in s.objects.iter_mut().zip(&parsed.objects) {
            if o.colors.len() > 10 {
                log.error(
                    o.line + 1,
                    "a sprite cannot have more than 10 colors.  Why you would want more than 10 is beyond me.",
                );
            }
            for c in o.colors.iter_mut() {
                match palette(c) {
                    Some(hex) => *c = hex,
                    None => {
                        log.error(
                            o.line + 1,
                            format!(
                                "Invalid color specified for object \"{}\", namely \"{c}\".",
                                o.name
                            ),
                        );
                        *c = "#ff00ff".into();
                    }
                }
            }
            if o.colors.is_empty() {
                log.error(
                    o.line,
                    format!("color not specified for object \"{}\".", o.name),
                );
                o.colors = vec!["#ff00ff".into()];
            }
            if def.sprite.is_empty() {
                o.sprite = vec![vec![Some(0); 5]; 5];
            } else {
                if def.sprite.len() != 5 || def.sprite.iter().any(|r| r.chars().count() != 5) {
                    log.warning(o.line, "Sprite graphics must be 5 wide and 5 high exactly.");
                }
                // The official engine reads as many columns as there are rows.
                let n = def.sprite.len();
                o.sprite = def
                    .sprite
                    .iter()
                    .map(|row| {
                        let chars: Vec<char> = row.chars().collect();
                        (0..n)
                            .map(|j| match chars.get(j) {
                                Some('.') => None,
                                Some(c) => c.to_digit(10).map(|d| d as u8),
                                None => None,
                            })
                            .collect()
                    })
                    .collect();
            }
        }

        s.resolve_glyphs(parsed, log);
        s.resolve_legend(parsed, log);
        s.resolve_background(parsed, log);
        s.build_masks(parsed, log);
        s
    }

    fn resolve_glyphs(&mut self, parsed: &Parsed, log: &mut Log) {
        let blank = vec![None; self.layer_count];
        for o in &self.objects {
            let mut mask = blank.clone();
            if let (Some(layer), Some(id)) = (o.layer, o.id) {
                mask[layer] = Some(id);
            }
            self.glyphs.insert(o.name.clone(), mask);
        }
        let mut added = true;
        while added {
            added = false;
            for e in &parsed.synonyms {
                let target = e.items.first().cloned().unwrap_or_default();
                if !self.glyphs.contains_key(&e.name)
                    && let Some(m) = self.glyphs.get(&target).cloned()
                {
                    self.glyphs.insert(e.name.clone(), m);
                    added = true;
                }
            }
            for e in &parsed.aggregates {
                if self.glyphs.contains_key(&e.name)
                    || !e.items.iter().all(|v| self.glyphs.contains_key(v))
                {
                    continue;
                }
                let mut mask = blank.clone();
                for n in &e.items {
                    let Some(o) = self.object(n) else {
                        log.error(e.line, format!("Object not found with name {n}"));
                        continue;
                    };
                    match (o.layer, o.id) {
                        (Some(layer), Some(id)) if mask[layer].is_none() => mask[layer] = Some(id),
                        (Some(layer), _) => {
                            let other = mask[layer]
                                .map(|id| self.id_names[id].to_uppercase())
                                .unwrap_or_default();
                            log.error(
                                e.line,
                                format!(
                                    "Trying to create an aggregate object (something defined in the LEGEND section using AND) with both \"{}\" and \"{other}\", which are on the same layer and therefore can't coexist.",
                                    n.to_uppercase()
                                ),
                            );
                        }
                        (None, _) => log.error(
                            e.line,
                            format!(
                                "Object \"{}\" has been defined, but not assigned to a layer.",
                                n.to_uppercase()
                            ),
                        ),
                    }
                }
                self.glyphs.insert(e.name.clone(), mask);
                added = true;
            }
        }
    }

    fn resolve_legend(&mut self, parsed: &Parsed, log: &mut Log) {
        for e in &parsed.aggregates {
            self.aggregates.insert(&e.name, e.items.clone());
        }
        for e in &parsed.properties {
            self.properties.insert(&e.name, e.items.clone());
        }
        for e in &parsed.synonyms {
            let value = e.items.first().cloned().unwrap_or_default();
            if let Some(v) = self.aggregates.get(&value).cloned() {
                self.aggregates.insert(&e.name, v);
            } else if let Some(v) = self.properties.get(&value).cloned() {
                self.properties.insert(&e.name, v);
            } else if e.name != value {
                self.synonyms.insert(&e.name, value);
            }
        }
        // Synonym chains and nested definitions are flattened until nothing
        // changes; the cap only guards against a cycle the parser let by.
        let mut modified = true;
        let mut rounds = 0;
        while modified && rounds < 1000 {
            modified = false;
            rounds += 1;
            for n in self.synonyms.keys() {
                let Some(value) = self.synonyms.get(&n).cloned() else {
                    continue;
                };
                if let Some(v) = self.properties.get(&value).cloned() {
                    self.synonyms.remove(&n);
                    self.properties.insert(&n, v);
                    modified = true;
                } else if let Some(v) = self.aggregates.get(&value).cloned() {
                    self.aggregates.remove(&n);
                    self.aggregates.insert(&n, v);
                    modified = true;
                } else if let Some(v) = self.synonyms.get(&value).cloned() {
                    self.synonyms.insert(&n, v);
                }
            }
            modified |= expand_entries(
                &mut self.properties,
                &self.synonyms,
                &self.aggregates,
                "property",
                "aggregate",
                log,
            );
            modified |= expand_entries(
                &mut self.aggregates,
                &self.synonyms,
                &self.properties,
                "aggregate",
                "property",
                log,
            );
        }

        for (key, values) in self.properties.iter() {
            let mut layer = None;
            let mut same = !values.is_empty();
            for (i, v) in values.iter().enumerate() {
                let Some(o) = self.object(v) else {
                    same = false;
                    break;
                };
                if i > 0 && o.layer != layer {
                    same = false;
                    break;
                }
                layer = o.layer;
            }
            if same && let Some(l) = layer {
                self.single_layer.insert(key.to_string(), l);
            }
        }
        if self.id_names.is_empty() && self.layer_count > 0 {
            log.error(None, "You need to have some objects defined");
        }
    }

    fn resolve_background(&mut self, parsed: &Parsed, log: &mut Log) {
        let first = self
            .id_names
            .first()
            .and_then(|n| self.object(n))
            .map(|o| (o.id, o.layer));
        let (id, layer) = if let Some(o) = self.object("background") {
            (o.id, o.layer)
        } else if let Some(n) = self.synonyms.get("background") {
            self.object(n).map_or((None, None), |o| (o.id, o.layer))
        } else if let Some(members) = self.properties.get("background") {
            let mut found = (None, None);
            if let Some(o) = members.first().and_then(|n| self.object(n)) {
                found = (o.id, o.layer);
                for n in &members[1..] {
                    if let Some(other) = self.object(n)
                        && other.layer != found.1
                    {
                        let line = parsed.name_lines.get("background").copied();
                        log.error(line, "Background objects must be on the same layer");
                    }
                }
            }
            found
        } else if self.aggregates.contains("background") {
            let line = parsed.name_lines.get("background").copied();
            log.error(
                line,
                "background cannot be an aggregate (declared with 'and'), it has to be a simple type, or property (declared in terms of others using 'or').",
            );
            first.unwrap_or((None, None))
        } else {
            log.error(
                None,
                "Seriously, you have to define something to be the background.",
            );
            first.unwrap_or((None, None))
        };
        self.background_id = id;
        self.background_layer = layer;
    }

    /// The mask of a name as `getMaskFromName` sees it: whether it is an
    /// aggregate, and its objects' bits.
    pub(crate) fn mask_of_name(&self, name: &str, log: &mut Log) -> (bool, Vec<u32>) {
        let mut mask = self.zero_mask();
        let set = |n: &str, mask: &mut Vec<u32>| {
            if let Some(id) = self.object(n).and_then(|o| o.id) {
                bits::set(mask, id);
            }
        };
        let mut aggregate = false;
        if self.is_object(name) {
            set(name, &mut mask);
        }
        if let Some(members) = self.aggregates.get(name) {
            aggregate = true;
            for n in members {
                set(n, &mut mask);
            }
        }
        if let Some(members) = self.properties.get(name) {
            for n in members {
                set(n, &mut mask);
            }
        }
        if let Some(n) = self.synonyms.get(name) {
            set(n, &mut mask);
        }
        if bits::is_zero(&mask) {
            log.error(
                None,
                format!("Error, didn't find any object called {name}, either in the objects section, or the legends section."),
            );
        }
        (aggregate, mask)
    }

    fn build_masks(&mut self, parsed: &Parsed, _log: &mut Log) {
        for layer in 0..self.layer_count {
            let mut m = self.zero_mask();
            for n in &self.id_names {
                if let Some(o) = self.object(n)
                    && o.layer == Some(layer)
                    && let Some(id) = o.id
                {
                    bits::set(&mut m, id);
                }
            }
            self.layer_masks.push(m);
        }
        for o in &self.objects {
            let mut m = self.zero_mask();
            if let Some(id) = o.id {
                bits::set(&mut m, id);
            }
            self.object_masks.insert(o.name.clone(), m);
        }
        // Synonyms and properties may build on each other, so they are
        // taken in the order of their lines.
        let mut entries: Vec<(usize, bool, &crate::ast::LegendEntry)> = parsed
            .synonyms
            .iter()
            .map(|e| (e.line, true, e))
            .chain(parsed.properties.iter().map(|e| (e.line, false, e)))
            .collect();
        entries.sort_by_key(|(line, _, _)| *line);
        for (_, synonym, e) in entries {
            if synonym {
                if let Some(m) = e
                    .items
                    .first()
                    .and_then(|t| self.object_masks.get(t))
                    .cloned()
                {
                    self.object_masks.insert(e.name.clone(), m);
                }
            } else {
                let mut m = self.zero_mask();
                for n in &e.items {
                    if let Some(x) = self.object_masks.get(n) {
                        bits::or(&mut m, x);
                    }
                }
                self.object_masks.insert(e.name.clone(), m);
            }
        }
        self.object_masks
            .insert(ALL.to_string(), vec![u32::MAX; self.stride_obj]);
        for (name, members) in self.aggregates.iter() {
            let mut m = self.zero_mask();
            for n in members {
                if let Some(x) = self.object_masks.get(n) {
                    bits::or(&mut m, x);
                }
            }
            self.aggregate_masks.insert(name.to_string(), m);
        }
    }
}

/// One round of flattening a property or aggregate table: synonyms are
/// replaced by what they name, and entries of the same kind spliced in.
/// Returns whether anything changed.
fn expand_entries(
    dict: &mut Dict<Vec<String>>,
    synonyms: &Dict<String>,
    conflicting: &Dict<Vec<String>>,
    kind: &str,
    conflicting_kind: &str,
    log: &mut Log,
) -> bool {
    let mut modified = false;
    for n in dict.keys() {
        let mut i = 0;
        while let Some(value) = dict.get(&n).and_then(|v| v.get(i)).cloned() {
            if let Some(target) = synonyms.get(&value) {
                dict.get_mut(&n).expect("present")[i] = target.clone();
                modified = true;
            } else if let Some(spliced) = dict.get(&value).cloned() {
                let values = dict.get_mut(&n).expect("present");
                values.remove(i);
                // A self-reference splices the list already shortened.
                let spliced = if value == n { values.clone() } else { spliced };
                for v in spliced {
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                modified = true;
            }
            if conflicting.contains(&value) {
                log.error(
                    None,
                    format!(
                        "Trying to define {kind} \"{}\" in terms of {conflicting_kind} \"{}\".",
                        n.to_uppercase(),
                        value.to_uppercase()
                    ),
                );
            }
            // As upstream, the entry after a splice is looked at next round.
            i += 1;
        }
    }
    modified
}
