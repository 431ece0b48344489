//! What the parser hands the compiler: a game's sections, read but not yet
//! resolved. Names are lowercased (PuzzleScript is case-insensitive); line
//! numbers count from 1; columns count characters from 1.

/// A whole game file, section by section.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Prelude options in file order: `(key, value, line)`. Flags without a
    /// value (`noaction`) get the value `"true"`. The values of `title`,
    /// `author` and `homepage` keep their case; the others are lowercased.
    pub metadata: Vec<(String, String, usize)>,
    /// OBJECTS, in declaration order.
    pub objects: Vec<ObjectDef>,
    /// LEGEND `a = b` entries (and the objects section's extra names, as
    /// `name = object`), in file order.
    pub synonyms: Vec<LegendEntry>,
    /// LEGEND `a = b and c` entries. `items` are already flattened to
    /// object names (or unresolved names) the way the parser flattens them.
    pub aggregates: Vec<LegendEntry>,
    /// LEGEND `a = b or c` entries, `items` flattened likewise.
    pub properties: Vec<LegendEntry>,
    /// SOUNDS rows that parsed without error.
    pub sounds: Vec<SoundRow>,
    /// COLLISIONLAYERS: one entry per line, object names after properties
    /// are flattened, in order.
    pub layers: Vec<Layer>,
    /// RULES, one per line, comments removed.
    pub rules: Vec<RuleLine>,
    /// WINCONDITIONS, one per line: its words, lowercased.
    pub win_conditions: Vec<WinLine>,
    /// LEVELS in file order: message entries and grid levels.
    pub levels: Vec<LevelEntry>,
    /// For each name the parser registered (objects, their extra names,
    /// legend entries), the line where it was last registered: the official
    /// `original_line_numbers`, which the compiler uses for messages about
    /// `background`. A name spelled so that the official whole-word search
    /// cannot find it in its line (one starting or ending with a symbol) is
    /// not registered, as there.
    pub name_lines: std::collections::HashMap<String, usize>,
    /// The parse stopped early, as the official engine's does: more than
    /// five errors (it then compiles nothing further and logs nothing more,
    /// not even "No levels found"), or more than 100 messages (the official
    /// engine throws). The sections hold what was read up to there.
    pub aborted: bool,
    /// Where a comment that is still open at the end of the file was opened
    /// (`(line, column)` of its outermost `(`). The official engine says
    /// nothing about it (the rest of the file is silently a comment), so no
    /// message is logged; puzzle-qa can point at it.
    pub unclosed_comment: Option<(usize, usize)>,
}

/// One object of the OBJECTS section.
#[derive(Clone, Debug, Default)]
pub struct ObjectDef {
    /// The lowercased name.
    pub name: String,
    /// The name as written, for messages.
    pub shown: String,
    /// The line of the name.
    pub line: usize,
    /// Colours as written, lowercased: palette names or `#rgb` / `#rrggbb`.
    pub colors: Vec<String>,
    /// Sprite rows: each a string of `.` and digits (colour indices). Empty
    /// when the object has no sprite (it is drawn in its first colour).
    pub sprite: Vec<String>,
}

/// One legend entry: `name = items…`.
#[derive(Clone, Debug, Default)]
pub struct LegendEntry {
    /// The lowercased name defined.
    pub name: String,
    /// The lowercased names it stands for.
    pub items: Vec<String>,
    /// Its line.
    pub line: usize,
}

/// One token of a SOUNDS row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoundToken {
    /// An event such as `sfx3` or `endlevel`.
    Event(String),
    /// An object, legend name or property.
    Name(String),
    /// `move`, `action`, `create`, `destroy`, `cantmove`.
    Verb(String),
    /// `up`, `down`, `left`, `right`, `horizontal`, `vertical`, `orthogonal`.
    Direction(String),
    /// A sound seed, as written (digits).
    Seed(String),
}

/// One SOUNDS line.
#[derive(Clone, Debug, Default)]
pub struct SoundRow {
    /// Its tokens in order.
    pub tokens: Vec<SoundToken>,
    /// Its line.
    pub line: usize,
}

/// One COLLISIONLAYERS line.
#[derive(Clone, Debug, Default)]
pub struct Layer {
    /// Object names, flattened, in order (repeats possible).
    pub objects: Vec<String>,
    /// Its line.
    pub line: usize,
}

/// One RULES line.
#[derive(Clone, Debug, Default)]
pub struct RuleLine {
    /// The line lowercased, up to its first `(`, untrimmed.
    pub text: String,
    /// The line as written (for a `message` command's text, and messages).
    pub mixed: String,
    /// Its line number.
    pub line: usize,
}

/// One WINCONDITIONS line.
#[derive(Clone, Debug, Default)]
pub struct WinLine {
    /// The words, lowercased (`all`, `crate`, `on`, `target`).
    pub words: Vec<String>,
    /// Its line.
    pub line: usize,
}

/// One entry of the LEVELS section.
#[derive(Clone, Debug)]
pub enum LevelEntry {
    /// `message text`: shown between levels; not a grid.
    Message {
        /// The text, trimmed, case kept.
        text: String,
        /// Its line.
        line: usize,
    },
    /// A grid level.
    Grid {
        /// The line of its first row.
        line: usize,
        /// Its rows, lowercased and trimmed, as written (not padded).
        rows: Vec<String>,
        /// The column (from 1) of each row's first character.
        columns: Vec<usize>,
    },
}
