//! A parsed game to an engine-ready [`Game`]: ids and masks for every
//! object, rules compiled to bitmask matchers in their groups, win
//! conditions, levels and sounds. Messages are the official engine's.
//!
//! A step a file, in the order [`compile`] takes them: `symbols.rs` (the
//! names), `levels.rs`, the rules (`rules.rs` reads a line,
//! `coincidences.rs` checks it, `expand.rs` makes it concrete,
//! `patterns.rs` compiles it to a matcher, `groups.rs` groups the
//! matchers, `rule_names.rs` names each line by its text),
//! `winconditions.rs`, `prelude.rs` and `sounds.rs`.

mod coincidences;
mod dict;
mod expand;
mod groups;
mod levels;
mod patterns;
mod prelude;
mod rule_names;
mod rules;
mod sieve;
mod sounds;
mod symbols;
mod winconditions;

pub(crate) use groups::Group;
pub use levels::{Grid, LevelData};
pub(crate) use patterns::{CellPattern, Replacement, Rule, Slot};
pub use prelude::Prelude;
pub use rule_names::{NamedRule, is_rule_name};
pub(crate) use sieve::SieveCell;
pub(crate) use sounds::Sounds;
pub(crate) use winconditions::{Quantifier, WinCondition};

use crate::ast::Parsed;
use crate::bits;
use crate::command::Command;
use crate::log::Log;
use crate::palette;
use symbols::Symbols;

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
    /// The objects the win conditions name.
    pub(crate) goal_objects: Vec<u32>,
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
    /// The RULES section's rule lines (loop markers aside), named.
    pub(crate) rule_lines: Vec<NamedRule>,
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

    /// The object bits that play can change: the players' (input moves
    /// them), and, for each cell a rule writes, what it may destroy (an
    /// object the cell's pattern lets be there, cleared and not set
    /// again), what it may create (set, and not required there), any object
    /// it may create at random, and every object the pattern lets be there
    /// on a layer it gives a movement to (or that it creates there).
    ///
    /// What a pattern lets be in a cell is read layer by layer: the object
    /// it requires of that layer, if any, else the members of a property it
    /// requires whose objects are all on that layer, and never an object it
    /// forbids (a cell holds one object a layer). So a wall on the players'
    /// layer is not counted unless a rule can reach it.
    ///
    /// Every other bit of a cell should keep its value from the level's
    /// start; a solver packs only these (`pack/`), and it checks every board
    /// it packs, so a bit this misses costs room, never a state.
    pub fn changing_objects(&self) -> Vec<u32> {
        self.changes().0
    }

    /// Of [`Game::changing_objects`], those that can move: the players',
    /// those a rule's pattern lets be in a cell on a layer it gives a
    /// movement to (or that it creates with one), and those one rule may
    /// clear in a cell and write in another (a ball a rule carries along,
    /// a counter's end). The others can only appear and disappear where
    /// they are, as a door that opens or a crate that breaks.
    pub fn moving_objects(&self) -> Vec<u32> {
        self.changes().1
    }

    /// Of [`Game::changing_objects`], those a rule may create (set in a
    /// cell that need not hold them): a door that closes or opens, a gun a
    /// crate turns into; not a wall a rule may only clear.
    pub fn appearing_objects(&self) -> Vec<u32> {
        self.changes().2
    }

    /// [`Game::changing_objects`], [`Game::moving_objects`] and
    /// [`Game::appearing_objects`].
    fn changes(&self) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let words = self.stride_obj;
        let mut moving = self.player.to_vec();
        moving.resize(words, 0);
        let mut changing = moving.clone();
        let mut appearing = vec![0u32; words];
        for rule in self
            .rules
            .iter()
            .chain(&self.late_rules)
            .flat_map(|g| &g.rules)
        {
            // What this rule may destroy and create, over all its cells.
            let (mut destroyed, mut created) = (vec![0u32; words], vec![0u32; words]);
            for slot in rule.rows.iter().flatten() {
                let Slot::Cell(p) = slot else { continue };
                let Some(r) = &p.replace else { continue };
                let there = self.allowed_in(p);
                for w in 0..words {
                    destroyed[w] |= r.clear[w] & there[w] & !r.set[w];
                    created[w] |= (r.set[w] & !p.present[w]) | r.random_object[w];
                }
                for id in bits::ones(&r.random_object) {
                    let layer = &self.layer_masks[self.layer_of_id[id]];
                    for (w, d) in destroyed.iter_mut().enumerate() {
                        *d |= layer[w] & there[w];
                    }
                }
                for (l, layer) in self.layer_masks.iter().enumerate() {
                    if bits::field(&r.set_moves, l) != 0 || bits::field(&r.random_dir, l) != 0 {
                        for w in 0..words {
                            moving[w] |= layer[w] & (there[w] | r.set[w] | r.random_object[w]);
                        }
                    }
                }
            }
            for w in 0..words {
                moving[w] |= destroyed[w] & created[w];
                changing[w] |= destroyed[w] | created[w] | moving[w];
                appearing[w] |= created[w];
            }
        }
        (changing, moving, appearing)
    }

    /// The objects that can be in a cell `p` matches, layer by layer (see
    /// [`Game::changing_objects`]).
    fn allowed_in(&self, p: &CellPattern) -> Vec<u32> {
        let words = self.stride_obj;
        let mut there: Vec<u32> = (0..words)
            .map(|w| !(p.objects_seen[w] & !p.present[w]))
            .collect();
        let any_of: Vec<&[u32]> = p.any_of.chunks(words).collect();
        for layer in &self.layer_masks {
            let mut keep: Vec<u32> = layer.to_vec();
            if bits::any(&p.present, layer) {
                for (k, (l, r)) in keep.iter_mut().zip(layer.iter().zip(&p.present[..])) {
                    *k = l & r;
                }
            }
            for property in &any_of {
                if !bits::is_zero(property) && bits::within(property, layer) {
                    for (k, m) in keep.iter_mut().zip(property.iter()) {
                        *k &= m;
                    }
                }
            }
            for ((t, l), k) in there.iter_mut().zip(layer.iter()).zip(&keep) {
                *t &= !l | k;
            }
        }
        there
    }

    /// Whether any rule issues `checkpoint` (a level's restart target can
    /// then change during play).
    pub fn uses_checkpoint(&self) -> bool {
        self.rules
            .iter()
            .chain(&self.late_rules)
            .flat_map(|g| &g.rules)
            .any(|r| r.commands.contains(Command::Checkpoint))
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

    /// The RULES section's rule lines, loop markers aside, in file order:
    /// each line's number, its text as written and its name. Each is a
    /// mechanic of every level.
    pub fn rule_lines(&self) -> &[NamedRule] {
        &self.rule_lines
    }

    /// Object `id`'s name as the OBJECTS section writes it.
    pub fn shown_name(&self, id: usize) -> &str {
        self.shown_names.get(id).map_or("", String::as_str)
    }

    /// Whether a win condition names object `id` (itself, or through a
    /// property or an aggregate).
    pub fn in_goal(&self, id: usize) -> bool {
        self.goal_objects
            .get(id / 32)
            .is_some_and(|word| word >> (id % 32) & 1 == 1)
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

/// The game, a step at a time: the steps log in the order upstream's
/// compiler does, which is the order its messages are checked in.
fn build(parsed: &Parsed, source: &str, log: &mut Log) -> Option<Game> {
    check_required(parsed, log)?;
    let palette_name = Symbols::palette_name(parsed, log);
    let to_hex = |c: &str| palette::to_hex(palette_name, c);
    let symbols = Symbols::resolve(parsed, &to_hex, log);
    check_size(&symbols, log)?;
    let (player_all, player) = symbols.mask_of_name("player", log);
    let levels = levels::compile(parsed, &symbols, log);
    let mut rules = groups::compile(parsed, &symbols, log)?;
    let win_conditions = winconditions::compile(parsed, &symbols, log);
    check_layered(parsed, log);
    let prelude = prelude::compile(parsed, palette_name, log);
    let (loop_point, late_loop_point) =
        groups::loop_points(&mut rules.loops, &rules.groups, &rules.late, log);
    let sounds = sounds::compile(parsed, &symbols, log);
    prelude::check_colors(parsed, palette_name, log);
    Some(Game {
        shown_names: shown_names(parsed, &symbols),
        rule_lines: rules.lines,
        counts_ticks: counts_ticks(&prelude, source),
        source: source.into(),
        rigid_fill: groups::rigid_fill(&symbols, rules.rigid_groups.len()),
        glyphs: levels::glyphs(parsed, &symbols, source),
        background: symbols.background_id,
        id_names: symbols.id_names.clone(),
        layer_of_id: layer_of_id(&symbols),
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
        rigid: !rules.rigid_groups.is_empty(),
        rules: rules.groups,
        late_rules: rules.late,
        rule_rows: rules.rows,
        loop_point,
        late_loop_point,
        rigid_groups: rules.rigid_groups,
        win_conditions,
        goal_objects: winconditions::named_objects(parsed, &symbols),
        levels,
        prelude,
        sounds,
        uses_random: rules.uses_random,
        art: art(&symbols),
    })
}

/// Logs a missing player or background; `None`, the compile's end, when
/// there are no collision layers.
fn check_required(parsed: &Parsed, log: &mut Log) -> Option<()> {
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
    Some(())
}

/// Whether an object or a legend entry has this name.
fn defined(parsed: &Parsed, name: &str) -> bool {
    parsed.objects.iter().any(|o| o.name == name)
        || parsed
            .synonyms
            .iter()
            .chain(&parsed.aggregates)
            .chain(&parsed.properties)
            .any(|e| e.name == name)
}

/// `None`, with a message, for a game too big for the engine's masks.
fn check_size(symbols: &Symbols, log: &mut Log) -> Option<()> {
    if symbols.stride_obj > bits::MAX_WORDS || symbols.stride_mov > bits::MAX_WORDS {
        log.error(None, format!("This game has {} objects in {} collision layers; puzzle-qa plays games of at most {} objects and {} layers.", symbols.id_names.len(), symbols.layer_count, bits::MAX_WORDS * 32, bits::MAX_WORDS * 32 / bits::FIELD_BITS));
        return None;
    }
    Some(())
}

/// Logs each object that no collision layer lists.
fn check_layered(parsed: &Parsed, log: &mut Log) {
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
}

/// Each object id's layer.
fn layer_of_id(symbols: &Symbols) -> Vec<usize> {
    symbols
        .id_names
        .iter()
        .map(|n| symbols.object(n).and_then(|o| o.layer).unwrap_or(0))
        .collect()
}

/// Each object id's colours and sprite.
fn art(symbols: &Symbols) -> Vec<Art> {
    symbols
        .id_names
        .iter()
        .map(|n| {
            symbols
                .object(n)
                .map(|o| (o.colors.clone(), o.sprite.clone()))
                .unwrap_or_default()
        })
        .collect()
}

/// Each object id's name as the OBJECTS section writes it.
fn shown_names(parsed: &Parsed, symbols: &Symbols) -> Vec<String> {
    symbols
        .id_names
        .iter()
        .map(|name| {
            parsed
                .objects
                .iter()
                .find(|o| o.name == *name)
                .map_or_else(|| name.clone(), |o| o.shown.clone())
        })
        .collect()
}

/// See [`Game::counts_ticks`].
fn counts_ticks(prelude: &Prelude, source: &str) -> bool {
    prelude.realtime_interval.is_some()
        && source.lines().any(|line| {
            line.trim()
                .eq_ignore_ascii_case(crate::play::TICKS_DIRECTIVE)
        })
}
