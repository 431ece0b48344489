//! Reading a Bloxorz level file (the format in `docs/games/bloxorz.md`).
//!
//! Decisions where the format is silent:
//! * A teleport rule's targets are names, and each name stands for all its
//!   cells in reading order (the rulebook's `t1 teleports l1` with `l1` on two
//!   cells is the case of one name); together they must make exactly two
//!   different cells, or the rule is an error: the game could not play it.
//! * A second `teleports` rule for one trigger is an error too.
//! * A rule whose trigger is in the grid but cannot fire (a `toggles` rule on
//!   a plain tile, a `teleports` rule on a switch) and a `t` with no rule are
//!   warnings, like a rule naming a tile that is absent.
//! * Several `e` cells are allowed; each is a goal.

use rustc_hash::FxHashMap;

use super::bound::LazyBounds;
use puzzle_qa_core::diagnostic::{Diagnostic, numbered_lines};

/// What a present cell does. `x` cells are `Plain` with presence
/// `Static(false)`, so a bridge that opens behaves like a plain tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tile {
    Plain,
    Goal,
    Weak,
    StrongSwitch,
    WeakSwitch,
    Teleport,
}

/// Whether a cell has a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Presence {
    Static(bool),
    /// One bit of the state's tile mask, shared by every cell of one name.
    Dynamic(u8),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    pub tile: Tile,
    pub presence: Presence,
    /// Index into [`Level::switches`] for a switch whose name has rules.
    pub switch: Option<u16>,
    /// The two target cells of a teleport with a `teleports` rule.
    pub teleport: Option<[u16; 2]>,
}

/// What firing one switch name does to the tile mask: all its rules, in file
/// order, folded into `mask = (mask & keep) ^ flip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SwitchEffect {
    pub keep: u64,
    pub flip: u64,
}

impl SwitchEffect {
    const NOTHING: SwitchEffect = SwitchEffect {
        keep: u64::MAX,
        flip: 0,
    };

    pub(crate) fn apply(self, mask: u64) -> u64 {
        (mask & self.keep) ^ self.flip
    }

    /// This effect followed by `verb` on `bit`.
    fn then(self, verb: Verb, bit: u8) -> SwitchEffect {
        let one = 1u64 << bit;
        match verb {
            Verb::Opens => SwitchEffect {
                keep: self.keep & !one,
                flip: self.flip | one,
            },
            Verb::Closes => SwitchEffect {
                keep: self.keep & !one,
                flip: self.flip & !one,
            },
            Verb::Toggles => SwitchEffect {
                keep: self.keep,
                flip: self.flip ^ one,
            },
            Verb::Teleports => self,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Toggles,
    Opens,
    Closes,
    Teleports,
}

impl Verb {
    fn word(self) -> &'static str {
        match self {
            Verb::Toggles => "toggles",
            Verb::Opens => "opens",
            Verb::Closes => "closes",
            Verb::Teleports => "teleports",
        }
    }
}

/// The most cells a level may have: cells are stored as `u16` indices.
pub(crate) const MAX_CELLS: usize = u16::MAX as usize + 1;
/// The most distinct dynamic tile names: one bit each in a `u64` mask.
pub(crate) const MAX_DYNAMIC_NAMES: usize = 64;

const TILE_HINT: &str = "tiles are x p l s e w S W t, optionally followed by an id such as W1";

/// A parsed Bloxorz level: immutable, shared by every search state.
#[derive(Clone, Debug)]
pub struct Level {
    /// The level's `name:` line, if it has one.
    pub name: Option<String>,
    /// The level's `hint:` line, if it has one.
    pub hint: Option<String>,
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) cells: Vec<Cell>,
    pub(crate) start: u16,
    pub(crate) switches: Vec<SwitchEffect>,
    pub(crate) initial_mask: u64,
    /// The heuristic's tables, computed from the cells when A* first asks
    /// (a clone, whose cells may change, starts without them).
    pub(crate) bounds: LazyBounds,
    /// The grid's tile names and the rules, as read (for [`Level::text`]).
    pub(crate) source: Source,
}

/// A level file's content, normalized: what [`Level::text`] prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Source {
    pub grid: Vec<Vec<String>>,
    /// (trigger, verb, targets), in file order.
    pub rules: Vec<(String, &'static str, Vec<String>)>,
}

/// One grid token or rule word, with its 1-based line and character column.
#[derive(Clone, Debug)]
struct Word<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl Word<'_> {
    fn width(&self) -> usize {
        self.text.chars().count()
    }

    fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(message).at(self.line, self.column, self.width())
    }

    fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(message).at(self.line, self.column, self.width())
    }
}

/// Splits a line into words at whitespace and at any extra separator chars.
fn words<'a>(line: &'a str, number: usize, separators: &[char]) -> Vec<Word<'a>> {
    let mut found = Vec::new();
    let mut begin: Option<(usize, usize)> = None; // (byte offset, column)
    let mut column = 0;
    for (offset, ch) in line.char_indices() {
        column += 1;
        let separator = ch.is_whitespace() || separators.contains(&ch);
        match (separator, begin) {
            (false, None) => begin = Some((offset, column)),
            (true, Some((start, start_column))) => {
                found.push(Word {
                    text: &line[start..offset],
                    line: number,
                    column: start_column,
                });
                begin = None;
            }
            _ => {}
        }
    }
    if let Some((start, start_column)) = begin {
        found.push(Word {
            text: &line[start..],
            line: number,
            column: start_column,
        });
    }
    found
}

/// A line made only of dashes (`-`, `–`, `—`) and spaces, with one dash at least.
fn is_dash_line(line: &str) -> bool {
    line.chars().any(|c| matches!(c, '-' | '–' | '—'))
        && line
            .chars()
            .all(|c| matches!(c, '-' | '–' | '—') || c.is_whitespace())
}

/// A `level N` header line.
fn is_level_header(line: &str) -> bool {
    let mut parts = line.split_whitespace();
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(word), Some(number), None)
            if word.eq_ignore_ascii_case("level") && number.chars().all(|c| c.is_ascii_digit())
    )
}

/// The letter of a tile name, if the name is well formed: a tile letter then
/// an optional alphanumeric id.
fn tile_letter(word: &Word) -> Result<char, Diagnostic> {
    let mut chars = word.text.chars();
    let letter = chars.next().unwrap_or(' ');
    if !matches!(letter, 'x' | 'p' | 'l' | 's' | 'e' | 'w' | 'S' | 'W' | 't') {
        return Err(word
            .error(format!("unknown tile `{}`", word.text))
            .with_hint(TILE_HINT));
    }
    if !chars.all(|c| c.is_alphanumeric()) {
        return Err(word
            .error(format!("malformed tile name `{}`", word.text))
            .with_hint("an id after the tile letter is letters and digits only, as in W1 or Wa"));
    }
    Ok(letter)
}

struct Rule<'a> {
    trigger: Word<'a>,
    verb: Verb,
    targets: Vec<Word<'a>>,
}

fn parse_rule<'a>(line: &'a str, number: usize) -> Result<Rule<'a>, Diagnostic> {
    let mut parts = words(line, number, &[',']).into_iter();
    let Some(trigger) = parts.next() else {
        // Not blank (blank lines are skipped), yet no word: only commas.
        let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
        return Err(Diagnostic::error("a rule line with no rule on it")
            .at(number, column, line.trim().chars().count())
            .with_hint("rules read `NAME toggles|opens|closes|teleports TARGET[, TARGET...]`"));
    };
    tile_letter(&trigger)?;
    let Some(verb_word) = parts.next() else {
        return Err(trigger
            .error("a rule needs a verb and targets after its trigger")
            .with_hint("rules read `NAME toggles|opens|closes|teleports TARGET[, TARGET...]`"));
    };
    let verb = match verb_word.text {
        "toggles" => Verb::Toggles,
        "opens" => Verb::Opens,
        "closes" => Verb::Closes,
        "teleports" => Verb::Teleports,
        other => {
            return Err(verb_word
                .error(format!("unknown rule verb `{other}`"))
                .with_hint("verbs are toggles, opens, closes, teleports"));
        }
    };
    let targets: Vec<Word> = parts.collect();
    if targets.is_empty() {
        return Err(verb_word.error(format!("`{}` needs at least one target", verb_word.text)));
    }
    for target in &targets {
        tile_letter(target)?;
    }
    Ok(Rule {
        trigger,
        verb,
        targets,
    })
}

/// Parses a level file's text. Returns the level and its warnings, or the
/// first error.
pub fn parse(text: &str) -> Result<(Level, Vec<Diagnostic>), Diagnostic> {
    let mut warnings = Vec::new();
    let mut name = None;
    let mut hint = None;
    let mut rows: Vec<Vec<Word>> = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    let mut in_rules = false;

    for (number, line) in numbered_lines(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || is_level_header(trimmed) {
            continue;
        }
        if in_rules {
            if !is_dash_line(trimmed) {
                rules.push(parse_rule(line, number)?);
            }
            continue;
        }
        if is_dash_line(trimmed) {
            in_rules = true;
            continue;
        }
        if rows.is_empty() {
            if let Some(value) = trimmed.strip_prefix("name:") {
                name = Some(value.trim().to_string());
                continue;
            }
            if let Some(value) = trimmed.strip_prefix("hint:") {
                hint = Some(value.trim().to_string());
                continue;
            }
        }
        // Refuse a giant grid before holding every word of it in memory.
        let cells = rows.iter().map(Vec::len).sum::<usize>() + line.split_whitespace().count();
        if cells > MAX_CELLS {
            return Err(Diagnostic::error(format!(
                "the grid is too large for the engine: {cells} cells by this line, at most \
                 {MAX_CELLS}"
            ))
            .at(number, 1, 1)
            .with_hint("cells are numbered in 16 bits; split the level or make it smaller"));
        }
        let row = words(line, number, &[]);
        if let Some(first) = rows.first()
            && row.len() != first.len()
        {
            let at = row
                .get(first.len())
                .or(row.last())
                .expect("row is not blank");
            return Err(at
                .error(format!(
                    "ragged row: {} tiles, but the first row (line {}) has {}",
                    row.len(),
                    first[0].line,
                    first.len()
                ))
                .with_hint("every row of the grid needs the same number of tiles"));
        }
        rows.push(row);
    }

    let Some(first_row) = rows.first() else {
        return Err(Diagnostic::error("the level has no grid")
            .with_hint("a level is a grid of tiles such as `p s p e`, one row per line"));
    };
    let grid_line = first_row[0].line;
    let width = first_row.len();
    let height = rows.len();

    // The grid: tile letters, the start, the goals and every name's cells.
    let words: Vec<&Word> = rows.iter().flatten().collect();
    let mut letters = Vec::with_capacity(words.len());
    let mut start: Option<usize> = None;
    let mut names: FxHashMap<&str, Vec<u16>> = FxHashMap::default();
    for (index, word) in words.iter().enumerate() {
        let letter = tile_letter(word)?;
        if letter == 's' {
            if let Some(first) = start {
                let first = words[first];
                return Err(word
                    .error("a second start `s`: a level has exactly one")
                    .with_hint(format!(
                        "the first start is at line {}, column {}",
                        first.line, first.column
                    )));
            }
            start = Some(index);
        }
        letters.push(letter);
        names.entry(word.text).or_default().push(index as u16);
    }
    // A missing start or goal has no place of its own: point at the grid.
    let last = first_row.last().expect("rows are not empty");
    let whole_first_row = |message: &str| {
        Diagnostic::error(message).at(
            grid_line,
            first_row[0].column,
            last.column + last.width() - first_row[0].column,
        )
    };
    let Some(start) = start else {
        return Err(whole_first_row("the level has no start `s`"));
    };
    if !letters.contains(&'e') {
        return Err(whole_first_row("the level has no goal `e`"));
    }

    // Dynamic tiles: every name in the grid that a switch rule targets.
    let mut dynamic: FxHashMap<&str, u8> = FxHashMap::default();
    let mut initial_mask = 0u64;
    for rule in rules.iter().filter(|rule| rule.verb != Verb::Teleports) {
        for target in &rule.targets {
            let Some(cells) = names.get(target.text) else {
                warnings.push(target.warning(format!(
                    "`{}` is not in the grid; this target is ignored",
                    target.text
                )));
                continue;
            };
            if dynamic.contains_key(target.text) {
                continue;
            }
            if dynamic.len() == MAX_DYNAMIC_NAMES {
                return Err(target.error(format!(
                    "too many switchable tile names for the engine: at most {MAX_DYNAMIC_NAMES}"
                )));
            }
            let bit = dynamic.len() as u8;
            dynamic.insert(target.text, bit);
            if letters[cells[0] as usize] != 'x' {
                initial_mask |= 1 << bit;
            }
        }
    }

    // Switches: each trigger name's rules folded into one effect.
    let mut switch_of: FxHashMap<&str, u16> = FxHashMap::default();
    let mut switches: Vec<SwitchEffect> = Vec::new();
    let mut teleports: FxHashMap<&str, [u16; 2]> = FxHashMap::default();
    for rule in &rules {
        let trigger = rule.trigger.text;
        let Some(cells) = names.get(trigger) else {
            warnings.push(rule.trigger.warning(format!(
                "`{trigger}` is not in the grid; this rule never fires"
            )));
            continue;
        };
        let letter = letters[cells[0] as usize];
        if rule.verb == Verb::Teleports {
            if letter != 't' {
                warnings.push(rule.trigger.warning(format!(
                    "`{trigger}` is not a teleport `t`; this rule never fires"
                )));
                continue;
            }
            if teleports.contains_key(trigger) {
                return Err(rule
                    .trigger
                    .error(format!("a second `teleports` rule for `{trigger}`")));
            }
            let targets = teleport_targets(rule, &names)?;
            teleports.insert(trigger, targets);
            continue;
        }
        if !matches!(letter, 'S' | 'W') {
            warnings.push(rule.trigger.warning(format!(
                "`{trigger}` is not a switch (S or W); this rule never fires"
            )));
            continue;
        }
        let index = *switch_of.entry(trigger).or_insert_with(|| {
            switches.push(SwitchEffect::NOTHING);
            (switches.len() - 1) as u16
        });
        for target in &rule.targets {
            if let Some(&bit) = dynamic.get(target.text) {
                let effect = &mut switches[index as usize];
                *effect = effect.then(rule.verb, bit);
            }
        }
    }

    let mut cells = Vec::with_capacity(words.len());
    for (index, word) in words.iter().enumerate() {
        let letter = letters[index];
        let tile = match letter {
            'e' => Tile::Goal,
            'w' => Tile::Weak,
            'S' => Tile::StrongSwitch,
            'W' => Tile::WeakSwitch,
            't' => Tile::Teleport,
            _ => Tile::Plain,
        };
        let presence = match dynamic.get(word.text) {
            Some(&bit) => Presence::Dynamic(bit),
            None => Presence::Static(letter != 'x'),
        };
        let teleport = teleports.get(word.text).copied();
        if letter == 't' && teleport.is_none() {
            warnings.push(word.warning(format!(
                "teleport `{}` has no `teleports` rule; it acts as a plain tile",
                word.text
            )));
        }
        cells.push(Cell {
            tile,
            presence,
            switch: switch_of.get(word.text).copied(),
            teleport,
        });
    }

    let source = Source {
        grid: rows
            .iter()
            .map(|row| row.iter().map(|word| word.text.to_string()).collect())
            .collect(),
        rules: rules
            .iter()
            .map(|rule| {
                let targets = rule.targets.iter().map(|t| t.text.to_string()).collect();
                (rule.trigger.text.to_string(), rule.verb.word(), targets)
            })
            .collect(),
    };
    let level = Level {
        name,
        hint,
        width,
        height,
        cells,
        start: start as u16,
        switches,
        initial_mask,
        bounds: LazyBounds::default(),
        source,
    };
    Ok((level, warnings))
}

/// The level as a level file, normalized: header lines, the grid with one
/// space between tiles, a `---` line and the rules, one per line. Reading it
/// back gives a level that prints the same and plays the same. (An ablated
/// copy prints as its original: ablation changes the parsed level, not its
/// text.)
pub fn print(level: &Level) -> String {
    let mut text = String::new();
    for (key, value) in [("name", &level.name), ("hint", &level.hint)] {
        if let Some(value) = value {
            text.push_str(&format!("{key}: {value}\n"));
        }
    }
    for row in &level.source.grid {
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    if !level.source.rules.is_empty() {
        text.push_str("---\n");
    }
    for (trigger, verb, targets) in &level.source.rules {
        text.push_str(&format!("{trigger} {verb} {}\n", targets.join(", ")));
    }
    text
}

/// The two cells a `teleports` rule splits the block onto: its target names
/// expanded, in order, each to its cells in reading order.
fn teleport_targets(
    rule: &Rule,
    names: &FxHashMap<&str, Vec<u16>>,
) -> Result<[u16; 2], Diagnostic> {
    let mut cells = Vec::new();
    for target in &rule.targets {
        let Some(named) = names.get(target.text) else {
            return Err(target
                .error(format!(
                    "teleport target `{}` is not in the grid",
                    target.text
                ))
                .with_hint("a teleport splits the block onto two cells named in the grid"));
        };
        cells.extend_from_slice(named);
    }
    let first = &rule.targets[0];
    let last = rule.targets.last().expect("rules have targets");
    let span = last.column + last.width() - first.column;
    let where_ = |message: String| {
        Diagnostic::error(message)
            .at(first.line, first.column, span)
            .with_hint("name two cells: `t1 teleports l1, l2`, or one name on two cells: `t1 teleports l1`")
    };
    match cells.as_slice() {
        [one, two] if one != two => Ok([*one, *two]),
        [_, _] => Err(where_(
            "a teleport's two targets must be different cells".to_string(),
        )),
        _ => Err(where_(format!(
            "a teleport needs exactly two target cells; these names label {}",
            cells.len()
        ))),
    }
}
