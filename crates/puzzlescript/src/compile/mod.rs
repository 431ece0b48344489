//! A parsed game to an engine-ready [`Game`]: ids and masks for every
//! object, rules compiled to bitmask matchers in their groups, win
//! conditions, levels and sounds. Messages are the official engine's.

mod dict;
mod patterns;
mod rules;
mod symbols;

pub(crate) use patterns::{CellPattern, Replacement, Rule, Slot};
pub(crate) use symbols::ALL;

use crate::ast::{LevelEntry, Parsed, SoundToken};
use crate::bits;
use crate::command::Command;
use crate::log::Log;
use crate::palette;
use symbols::Symbols;

/// A rule group: rules that take turns until none changes the level.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) rules: Vec<Rule>,
    /// One match of one rule of the group is applied, chosen at random.
    pub(crate) random: bool,
    /// Its index among the rigid groups, plus one (0 when not rigid).
    pub(crate) rigid_index: u32,
    /// The objects and movements every rule of the group needs somewhere
    /// on the board: a board that lacks one matches none of them (a rule
    /// line's directions share their objects, so this rejects them at once).
    pub(crate) objects: Box<[u32]>,
    pub(crate) moves: Box<[u32]>,
}

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

/// A level as the map gives it, before play.
#[derive(Clone, Debug)]
pub enum LevelData {
    /// A `message` entry.
    Message(String),
    /// A grid level.
    Grid(Grid),
}

/// A grid level's starting cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Its line in the source.
    pub line: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Object bits, cell by cell in column-major order (cell `(x, y)` at
    /// `x * height + y`), `stride` words each.
    pub cells: Vec<u32>,
}

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

/// Prelude options that change play.
#[derive(Clone, Debug, Default)]
pub struct Prelude {
    /// `title`, as written.
    pub title: Option<String>,
    /// `author`, as written.
    pub author: Option<String>,
    /// Rules run once when a level starts.
    pub run_rules_on_level_start: bool,
    /// A turn in which no player moves is undone.
    pub require_player_movement: bool,
    /// There is no action input.
    pub noaction: bool,
    /// Undo does nothing.
    pub noundo: bool,
    /// Restart does nothing.
    pub norestart: bool,
    /// Seconds between ticks, when the game runs in real time.
    pub realtime_interval: Option<f64>,
    /// The palette's name.
    pub palette: &'static str,
    /// `background_color`, as hex.
    pub background_color: Option<String>,
}

/// An object's colours (hex, or `transparent`) and its sprite: rows of
/// colour indices, `None` where it is transparent.
pub type Art = (Vec<String>, Vec<Vec<Option<u8>>>);

/// A compiled game, ready to play.
#[derive(Clone, Debug)]
pub struct Game {
    /// Object names by id (lowercase).
    pub(crate) id_names: Vec<String>,
    pub(crate) layer_of_id: Vec<usize>,
    pub(crate) layer_count: usize,
    pub(crate) stride_obj: usize,
    pub(crate) stride_mov: usize,
    /// One word of objects and one of movements per cell: the engine's
    /// fast path.
    pub(crate) single_word: bool,
    pub(crate) layer_masks: Vec<Box<[u32]>>,
    pub(crate) player: Box<[u32]>,
    pub(crate) player_all: bool,
    pub(crate) rules: Vec<Group>,
    pub(crate) late_rules: Vec<Group>,
    pub(crate) loop_point: Vec<Option<usize>>,
    pub(crate) late_loop_point: Vec<Option<usize>>,
    /// How many rows all rules have together (see `Rule::first_row`).
    pub(crate) rule_rows: usize,
    pub(crate) rigid: bool,
    /// Rigid index (from 0) to group index.
    pub(crate) rigid_groups: Vec<usize>,
    pub(crate) win_conditions: Vec<WinCondition>,
    pub(crate) levels: Vec<LevelData>,
    pub(crate) prelude: Prelude,
    pub(crate) sounds: Sounds,
    pub(crate) uses_random: bool,
    /// Colours (hex) and sprite (5 × 5 colour indices) per object id.
    pub(crate) art: Vec<Art>,
    /// The legend's one-character names and the objects each places, in
    /// the order the legend gives them.
    pub(crate) glyphs: Vec<(char, Box<[u32]>)>,
    /// The background object's id.
    pub(crate) background: Option<usize>,
    /// Each object's name as the OBJECTS section writes it, by id.
    pub(crate) shown_names: Vec<String>,
    /// The RULES section's rule lines (loop markers aside): line number
    /// and text as written, trimmed.
    pub(crate) rule_lines: Vec<(usize, String)>,
    /// The source it was compiled from, for compiling it again without a
    /// line (ablation).
    pub(crate) source: std::sync::Arc<str>,
    /// `rigid_fill[k]`: movement words with `k` in every layer's field (a
    /// rigid group's index, as the cells it moves record it).
    pub(crate) rigid_fill: Vec<Box<[u32]>>,
    /// See [`Game::counts_ticks`].
    pub(crate) counts_ticks: bool,
}

impl Game {
    /// The levels, messages included, in file order.
    pub fn levels(&self) -> &[LevelData] {
        &self.levels
    }

    /// The prelude's options.
    pub fn prelude(&self) -> &Prelude {
        &self.prelude
    }

    /// Whether the compiled rules use randomness.
    pub fn uses_random(&self) -> bool {
        self.uses_random
    }

    /// The object bits that play can change: whatever a rule's right-hand
    /// side writes or clears (or may create at random, with its layer), and
    /// every object on a layer that can move (the players' layers, and any
    /// a rule gives a movement). Every other bit of a cell keeps its value
    /// from the level's start for ever, so a solver need not store it.
    pub fn changing_objects(&self) -> Vec<u32> {
        let mut mask = vec![0u32; self.stride_obj];
        let mut moving_layers = vec![false; self.layer_count];
        for id in bits::ones(&self.player) {
            if let Some(&l) = self.layer_of_id.get(id) {
                moving_layers[l] = true;
            }
        }
        for rule in self
            .rules
            .iter()
            .chain(&self.late_rules)
            .flat_map(|g| &g.rules)
        {
            for slot in rule.rows.iter().flatten() {
                let Slot::Cell(p) = slot else { continue };
                let Some(r) = &p.replace else { continue };
                bits::or(&mut mask, &r.clear);
                bits::or(&mut mask, &r.set);
                bits::or(&mut mask, &r.random_object);
                for id in bits::ones(&r.random_object) {
                    if let Some(&l) = self.layer_of_id.get(id) {
                        bits::or(&mut mask, &self.layer_masks[l]);
                    }
                }
                for (l, moving) in moving_layers.iter_mut().enumerate() {
                    if bits::field(&r.set_moves, l) != 0 || bits::field(&r.random_dir, l) != 0 {
                        *moving = true;
                    }
                }
            }
        }
        for (l, moving) in moving_layers.iter().enumerate() {
            if *moving {
                bits::or(&mut mask, &self.layer_masks[l]);
            }
        }
        mask
    }

    /// Whether any rule issues `checkpoint` (a level's restart target can
    /// then change during play).
    pub fn uses_checkpoint(&self) -> bool {
        self.rules
            .iter()
            .chain(&self.late_rules)
            .flat_map(|g| &g.rules)
            .any(|r| r.commands.contains(&Command::Checkpoint))
    }

    /// Words per cell of object bits.
    pub fn stride(&self) -> usize {
        self.stride_obj
    }

    /// The object names (lowercase) in a cell's bits, sorted by byte order.
    pub fn names_in(&self, cell: &[u32]) -> Vec<&str> {
        let mut names: Vec<&str> = bits::ones(cell)
            .filter_map(|b| self.id_names.get(b))
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        names
    }

    /// The RULES section's rule lines, loop markers aside: each line's
    /// number and its text as written. Each is a mechanic of every level.
    pub fn rule_lines(&self) -> &[(usize, String)] {
        &self.rule_lines
    }

    /// Object `id`'s name as the OBJECTS section writes it.
    pub fn shown_name(&self, id: usize) -> &str {
        self.shown_names.get(id).map_or("", String::as_str)
    }

    /// The background object's id, if the game has one.
    pub fn background(&self) -> Option<usize> {
        self.background
    }

    /// The source the game was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether a tick (a turn with no input) is a move: the game runs in
    /// real time (`realtime_interval`) and its designer says so with a
    /// line of its own, [`TICKS_DIRECTIVE`](crate::play::TICKS_DIRECTIVE),
    /// a comment PuzzleScript itself ignores. Without it a real-time level
    /// has no par, since turns would happen without the player.
    pub fn counts_ticks(&self) -> bool {
        self.counts_ticks
    }

    /// The colours and sprite of each object, by id (the order that
    /// collision layers list objects in).
    pub fn art(&self) -> &[Art] {
        &self.art
    }
}

/// Compiles a game's source. The game is `None` when the official engine
/// would not get as far as a playable game; the log has every message, and
/// the game should be refused whenever it holds an error.
pub fn compile(source: &str) -> (Option<Game>, Log) {
    let mut log = Log::default();
    let parsed = crate::parse(source, &mut log);
    if parsed.aborted || log.error_count() > 5 {
        return (None, log);
    }
    if let Some((line, column)) = parsed.unclosed_comment {
        log.note_unclosed_comment(line, column);
    }
    let game = build(&parsed, source, &mut log);
    if let Some(g) = &game
        && g.levels.is_empty()
    {
        log.error(None, "No levels found.  Add some levels!");
    }
    (game, log)
}

fn defined(parsed: &Parsed, name: &str) -> bool {
    parsed.objects.iter().any(|o| o.name == name)
        || parsed
            .synonyms
            .iter()
            .chain(&parsed.aggregates)
            .chain(&parsed.properties)
            .any(|e| e.name == name)
}

fn build(parsed: &Parsed, source: &str, log: &mut Log) -> Option<Game> {
    if !defined(parsed, "player") {
        log.error(None, "Error, didn't find any object called player, either in the objects section, or the legends section. There must be a player!");
    }
    if !defined(parsed, "background") {
        log.error(None, "Error, didn't find any object called background, either in the objects section, or the legends section. There must be a background!");
    }
    if parsed.layers.is_empty() {
        log.error(
            None,
            "No collision layers defined.  All objects need to be in collision layers.",
        );
        return None;
    }
    let palette_name = Symbols::palette_name(parsed, log);
    let to_hex = |c: &str| palette::to_hex(palette_name, c);
    let symbols = Symbols::resolve(parsed, &to_hex, log);
    if symbols.stride_obj > bits::MAX_WORDS || symbols.stride_mov > bits::MAX_WORDS {
        log.error(None, format!("This game has {} objects in {} collision layers; puzzle-qa plays games of at most {} objects and {} layers.", symbols.id_names.len(), symbols.layer_count, bits::MAX_WORDS * 32, bits::MAX_WORDS * 32 / bits::FIELD_BITS));
        return None;
    }
    let (player_all, player) = symbols.mask_of_name("player", log);
    let levels = levels(parsed, &symbols, log);

    // Rules.
    let mut invalid = false;
    let mut raw = Vec::new();
    let mut loops: Vec<(usize, i32)> = Vec::new();
    let mut rule_lines = Vec::new();
    for line in &parsed.rules {
        match rules::read_line(line, &symbols, &parsed.sounds, &raw, &mut invalid, log) {
            Some(rules::Line::Rule(r)) => {
                rule_lines.push((line.line, line.mixed.trim().to_string()));
                raw.push(r);
            }
            Some(rules::Line::Loop(n, b)) => loops.push((n, b)),
            None => {}
        }
    }
    rules::check_coincidences(&symbols, &mut raw, log);
    let expanded = rules::expand(&symbols, raw, &mut invalid, log);
    if invalid {
        return None;
    }
    let mut seen_in_group = std::collections::HashSet::new();
    let mut keep = vec![false; expanded.len()];
    let mut last_group = usize::MAX;
    for (i, r) in expanded.iter().enumerate().rev() {
        if r.group != last_group {
            seen_in_group.clear();
        }
        keep[i] = seen_in_group.insert(rules::identity(r));
        last_group = r.group;
    }
    let deduped: Vec<_> = expanded
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect();
    let uses_random = deduped.iter().any(|r| {
        r.random
            || r.rhs
                .iter()
                .flatten()
                .flatten()
                .any(|i| i.dir == "random" || i.dir == "randomdir")
    });
    let compiled = patterns::compile(&symbols, deduped, log);
    let mut groups = grouped(compiled.iter().filter(|r| !r.late).cloned().collect(), log);
    let mut late_groups = grouped(compiled.into_iter().filter(|r| r.late).collect(), log);

    // Rigid groups get an index, stored in 5-bit fields, so at most 30.
    let mut rigid_groups = Vec::new();
    for (i, g) in groups.iter_mut().enumerate() {
        if g.rules.iter().any(|r| r.rigid) {
            rigid_groups.push(i);
            g.rigid_index = rigid_groups.len() as u32;
        }
    }
    if rigid_groups.len() > 30 {
        log.error(
            groups[rigid_groups[30]].rules[0].line,
            "There can't be more than 30 rigid groups (rule groups containing rigid members).",
        );
    }
    for g in late_groups.iter_mut() {
        g.rigid_index = 0;
    }
    let mut rows = 0;
    for rule in groups
        .iter_mut()
        .chain(&mut late_groups)
        .flat_map(|g| &mut g.rules)
    {
        rule.first_row = rows;
        rows += rule.rows.len();
    }

    let win_conditions = win_conditions(parsed, &symbols, log);
    let layered: std::collections::HashSet<&str> = parsed
        .layers
        .iter()
        .flat_map(|l| l.objects.iter().map(String::as_str))
        .collect();
    for o in &parsed.objects {
        if !layered.contains(o.name.as_str()) {
            log.error(
                o.line,
                format!(
                    "Object \"{}\" has been defined, but not assigned to a layer.",
                    o.name.to_uppercase()
                ),
            );
        }
    }
    let prelude = prelude(parsed, palette_name, log);
    let (loop_point, late_loop_point) = loop_points(&mut loops, &groups, &late_groups, log);
    let sounds = sounds(parsed, &symbols, log);
    check_colors(parsed, palette_name, log);

    let layer_of_id = symbols
        .id_names
        .iter()
        .map(|n| symbols.object(n).and_then(|o| o.layer).unwrap_or(0))
        .collect();
    let art = symbols
        .id_names
        .iter()
        .map(|n| {
            symbols
                .object(n)
                .map(|o| (o.colors.clone(), o.sprite.clone()))
                .unwrap_or_default()
        })
        .collect();
    // The designer's own case for each level character (the parser
    // lowercases every line): the first spelling met in the maps.
    let lines: Vec<&str> = source.lines().collect();
    let mut case: Vec<(char, char)> = Vec::new();
    for entry in &parsed.levels {
        if let LevelEntry::Grid { line, rows, .. } = entry {
            for y in 0..rows.len() {
                let Some(original) = lines.get(line + y - 1) else {
                    continue;
                };
                for c in original.chars() {
                    let lower = c.to_lowercase().next().unwrap_or(c);
                    if !case.iter().any(|(l, _)| *l == lower) {
                        case.push((lower, c));
                    }
                }
            }
        }
    }
    let mut glyphs = Vec::new();
    let single = |name: &str| {
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    };
    let legend_order = parsed
        .objects
        .iter()
        .map(|o| (o.name.as_str(), o.line))
        .chain(
            parsed
                .synonyms
                .iter()
                .chain(&parsed.aggregates)
                .map(|e| (e.name.as_str(), e.line)),
        );
    for (name, _) in legend_order {
        let (Some(c), Some(ids)) = (single(name), symbols.glyphs.get(name)) else {
            continue;
        };
        if glyphs.iter().any(|(g, _)| *g == c) {
            continue;
        }
        let mut mask = symbols.zero_mask();
        for id in ids.iter().flatten() {
            bits::set(&mut mask, *id);
        }
        let shown = case.iter().find(|(l, _)| *l == c).map_or(c, |(_, o)| *o);
        glyphs.push((shown, mask.into_boxed_slice()));
    }
    let rigid_fill = (0..=rigid_groups.len() as u32)
        .map(|k| {
            let mut m = vec![0u32; symbols.stride_mov];
            for layer in 0..symbols.layer_count {
                bits::or_field(&mut m, k, layer);
            }
            m.into_boxed_slice()
        })
        .collect();
    let shown_names = symbols
        .id_names
        .iter()
        .map(|name| {
            parsed
                .objects
                .iter()
                .find(|o| o.name == *name)
                .map_or_else(|| name.clone(), |o| o.shown.clone())
        })
        .collect();
    Some(Game {
        shown_names,
        rule_lines,
        counts_ticks: prelude.realtime_interval.is_some()
            && source.lines().any(|line| {
                line.trim()
                    .eq_ignore_ascii_case(crate::play::TICKS_DIRECTIVE)
            }),
        source: source.into(),
        rigid_fill,
        glyphs,
        background: symbols.background_id,
        id_names: symbols.id_names.clone(),
        layer_of_id,
        layer_count: symbols.layer_count,
        stride_obj: symbols.stride_obj,
        stride_mov: symbols.stride_mov,
        single_word: symbols.stride_obj == 1 && symbols.stride_mov == 1,
        layer_masks: symbols
            .layer_masks
            .iter()
            .map(|m| m.clone().into_boxed_slice())
            .collect(),
        player: player.into_boxed_slice(),
        player_all,
        rigid: !rigid_groups.is_empty(),
        rules: groups,
        late_rules: late_groups,
        rule_rows: rows,
        loop_point,
        late_loop_point,
        rigid_groups,
        win_conditions,
        levels,
        prelude,
        sounds,
        uses_random,
        art,
    })
}

/// Rules into groups by group number (the line of the group's first rule),
/// in line order, dropping rules that can never fire.
fn grouped(rules: Vec<Rule>, log: &mut Log) -> Vec<Group> {
    let mut by_number: std::collections::BTreeMap<usize, Vec<Rule>> = Default::default();
    for r in rules {
        by_number.entry(r.group).or_default().push(r);
    }
    let mut out = Vec::new();
    for (_, mut rules) in by_number {
        patterns::drop_discarded(&mut rules, log);
        if !rules.is_empty() {
            let common = |of: fn(&Rule) -> &[u32]| -> Box<[u32]> {
                let mut all = of(&rules[0]).to_vec();
                for rule in &rules[1..] {
                    for (word, theirs) in all.iter_mut().zip(of(rule)) {
                        *word &= theirs;
                    }
                }
                all.into_boxed_slice()
            };
            let objects = common(|rule| &rule.objects);
            let moves = common(|rule| &rule.moves);
            out.push(Group {
                random: rules[0].random,
                rules,
                rigid_index: 0,
                objects,
                moves,
            });
        }
    }
    out
}

fn levels(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Vec<LevelData> {
    let mut out = Vec::new();
    let background_layer = symbols
        .background_layer
        .and_then(|l| symbols.layer_masks.get(l));
    for entry in &parsed.levels {
        match entry {
            LevelEntry::Message { text, line } => {
                if wrapped_lines(text, 34) > 12 {
                    log.warning(*line, "Message too long to fit on screen.");
                }
                out.push(LevelData::Message(text.clone()));
            }
            LevelEntry::Grid {
                line,
                rows,
                columns,
            } => {
                let rows: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
                let width = rows.first().map_or(0, Vec::len);
                let height = rows.len();
                let stride = symbols.stride_obj;
                let mut cells = vec![0u32; width * height * stride];
                'fill: for x in 0..width {
                    for (y, row) in rows.iter().enumerate() {
                        let Some(&ch) = row.get(x).or(row.last()) else {
                            continue;
                        };
                        let key = ch.to_string();
                        let Some(glyph) = symbols.glyphs.get(&key) else {
                            let column = columns.get(y).copied().unwrap_or(1)
                                + x.min(row.len().saturating_sub(1));
                            let text = if symbols.properties.contains(&key) {
                                format!(
                                    "Error, symbol \"{ch}\" is defined using OR, and therefore ambiguous - it cannot be used in a map. Did you mean to define it in terms of AND?"
                                )
                            } else {
                                format!("Error, symbol \"{ch}\", used in map, not found.")
                            };
                            log.error_at(line + y, column, 1, text);
                            break 'fill;
                        };
                        let cell = &mut cells[(x * height + y) * stride..][..stride];
                        for id in glyph.iter().flatten() {
                            bits::set(cell, *id);
                        }
                    }
                }
                // Cells with nothing on the background's layer get the
                // level's first background object, else the game's.
                let mut fill = symbols.zero_mask();
                match background_layer {
                    Some(mask) => {
                        let found = cells.chunks(stride).find(|c| bits::any(c, mask));
                        match found {
                            Some(c) => {
                                fill = c.to_vec();
                                for (f, m) in fill.iter_mut().zip(mask) {
                                    *f &= m;
                                }
                            }
                            None => {
                                if let Some(id) = symbols.background_id {
                                    bits::set(&mut fill, id);
                                }
                            }
                        }
                    }
                    None => {
                        log.error(None, "you have to have a background layer");
                        if let Some(id) = symbols.background_id {
                            bits::set(&mut fill, id);
                        }
                    }
                }
                for c in cells.chunks_mut(stride) {
                    if background_layer.is_none_or(|m| !bits::any(c, m)) {
                        bits::or(c, &fill);
                    }
                }
                out.push(LevelData::Grid(Grid {
                    line: *line,
                    width,
                    height,
                    cells,
                }));
            }
        }
    }
    out
}

/// How many lines a message wraps to at `width` characters.
fn wrapped_lines(text: &str, width: usize) -> usize {
    let mut lines = 0;
    let mut current = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if current == 0 {
            current = n;
            lines += 1;
        } else if current + 1 + n > width {
            lines += 1;
            current = n;
        } else {
            current += 1 + n;
        }
    }
    lines.max(1)
}

fn win_conditions(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Vec<WinCondition> {
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

fn prelude(parsed: &Parsed, palette_name: &'static str, log: &mut Log) -> Prelude {
    let mut p = Prelude {
        palette: palette_name,
        ..Prelude::default()
    };
    let mut dims: Vec<(&str, &str, usize)> = Vec::new();
    for (key, value, line) in &parsed.metadata {
        match key.as_str() {
            "title" => p.title = Some(value.clone()),
            "author" => p.author = Some(value.clone()),
            "run_rules_on_level_start" => p.run_rules_on_level_start = true,
            "require_player_movement" => p.require_player_movement = true,
            "noaction" => p.noaction = true,
            "noundo" => p.noundo = true,
            "norestart" => p.norestart = true,
            "realtime_interval" => p.realtime_interval = value.trim().parse().ok(),
            "background_color" => p.background_color = palette::to_hex(palette_name, value),
            "flickscreen" | "zoomscreen" => dims.push((key, value, *line)),
            _ => {}
        }
    }
    // Only the last of each dimension option counts, as in a table.
    let mut last: Vec<(&str, &str, usize)> = Vec::new();
    for d in dims {
        last.retain(|x| x.0 != d.0);
        last.push(d);
    }
    last.sort_by_key(|d| if d.0 == "flickscreen" { 0 } else { 1 });
    for (_, value, line) in last {
        check_dimensions(value, line, log);
    }
    p
}

/// The title screen's colours: the last of each option counts.
fn check_colors(parsed: &Parsed, palette_name: &str, log: &mut Log) {
    // The last of each colour option counts; a bad one is an error.
    for (key, fallback) in [("text_color", "white"), ("background_color", "black")] {
        if let Some((_, value, line)) = parsed.metadata.iter().rev().find(|(k, _, _)| k == key)
            && palette::to_hex(palette_name, value).is_none()
        {
            log.error(*line, format!("{key} in incorrect format - found {value}, but I expect a color name (like 'pink') or hex-formatted color (like '#1412FA').  Defaulting to {fallback}."));
        }
    }
}

fn check_dimensions(value: &str, line: usize, log: &mut Log) {
    let parts: Vec<&str> = value.split('x').collect();
    if parts.len() != 2 {
        log.warning(line, "Dimensions must be of the form AxB.");
        return;
    }
    let mut ok = true;
    for s in &parts {
        match s.trim().parse::<f64>() {
            Ok(v) if v.fract() == 0.0 && v.is_finite() => {
                if v <= 0.0 {
                    log.warning(line, format!("The dimension given to me (you gave \"{s}\") is baad - it should be greater than 0."));
                }
            }
            _ => {
                log.warning(
                    line,
                    format!("Wasn't able to make sense of \"{s}\" as a (whole number) dimension."),
                );
                ok = false;
            }
        }
    }
    if !ok {
        log.warning(line, format!("Couldn't understand the dimensions given to me (you gave \"{value}\") - should be of the form AxB."));
    } else if parts
        .iter()
        .any(|s| s.trim().parse::<f64>().is_ok_and(|v| v <= 0.0))
    {
        log.warning(
            line,
            format!(
                "The dimensions given to me (you gave \"{value}\") are baad - they should be > 0."
            ),
        );
    }
}

fn loop_points(
    loops: &mut Vec<(usize, i32)>,
    groups: &[Group],
    late: &[Group],
    log: &mut Log,
) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    for (i, (line, kind)) in loops.iter().enumerate() {
        if i % 2 == 0 && *kind == -1 {
            log.error(*line, "Found an ENDLOOP, but I'm not in a loop?");
        } else if i % 2 == 1 && *kind == 1 {
            log.error(*line, "Found a STARTLOOP, but I'm already inside a loop? (Puzzlescript can't nest loops, FWIW).");
        }
    }
    if loops.len() % 2 == 1 {
        let line = loops[loops.len() - 1].0;
        log.error(
            line,
            "Yo I found a STARTLOOP without a corresponding ENDLOOP.",
        );
        loops.push((line, -1));
    }
    let points = |groups: &[Group], log: &mut Log| {
        let mut point = vec![None; groups.len()];
        for pair in loops.chunks(2) {
            let (start, end) = (pair[0].0, pair[1].0);
            let mut first_in_loop = None;
            for (gi, g) in groups.iter().enumerate() {
                let first = g.rules[0].line;
                let last = g.rules[g.rules.len() - 1].line;
                if (first <= start && start <= last) || (first <= end && end <= last) {
                    log.error(start, "Found a loop point in the middle of a rule. You probably don't want to do this, right?");
                }
                if end < first {
                    break;
                }
                if start <= first && first <= end {
                    let init = *first_in_loop.get_or_insert(gi);
                    if gi > 0 && point[gi - 1] == Some(init) {
                        point[gi - 1] = None;
                    }
                    point[gi] = Some(init);
                }
            }
        }
        point
    };
    let a = points(groups, log);
    let b = points(late, log);
    (a, b)
}

fn sounds(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Sounds {
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
