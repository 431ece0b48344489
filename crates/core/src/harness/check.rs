//! What a check is: a question asked of one level, with the expectation
//! keys it owns. Games list their checks in their [`GameChecks`]; the runner
//! knows nothing else about them.
//!
//! [`GameChecks`]: super::GameChecks

use serde::Serialize;
use toml_edit::ser::ValueSerializer;
use toml_edit::{Item, Table};

use super::keys::ExpectationKey;

use super::subject::Subject;

/// One question asked of every level of a game. Each (level, check) pair is
/// one trial, named `<game>::<level>::<check>`.
///
/// A check answers with a [`Finding`], or with `Err(message)` for a failure
/// that bless cannot fix (a broken route, a solver that disagrees with a
/// replay). The runner compares the finding's machine-owned values with the
/// expectation file: equal passes, different is stale (a diff, or a write
/// under bless).
///
/// ```
/// use puzzle_qa_core::diagnostic::Diagnostic;
/// use puzzle_qa_core::game::{Cost, Game, NotationError};
/// use puzzle_qa_core::harness::{Check, Finding, Subject};
/// // The runner that `harness::main` drives, called here directly.
/// use puzzle_qa_core::_cli_support::harness::{Settings, Suite};
/// use puzzle_qa_core::harness::GameChecks;
/// use puzzle_qa_core::level::Loaded;
///
/// /// Levels may not take more than 10 moves.
/// struct Short;
///
/// impl Check for Short {
///     fn name(&self) -> &'static str {
///         "short"
///     }
///
///     fn run(&self, subject: &Subject) -> Result<Finding, String> {
///         match subject.solution()?.par {
///             Some(par) if par > 10 => Err(format!("par {par} is above 10")),
///             _ => Ok(Finding::pass()),
///         }
///     }
/// }
///
/// // A toy game whose level file is a length: walk it, one step a move.
/// struct Walk(u32);
/// # impl Game for Walk {
/// #     type State = u32;
/// #     type Key = u32;
/// #     type Move = ();
/// #     type Refusal = &'static str;
/// #     fn start(&self) -> u32 { 0 }
/// #     fn key(&self, at: &u32) -> u32 { *at }
/// #     fn is_won(&self, at: &u32) -> bool { *at == self.0 }
/// #     fn moves(&self, _: &u32) -> impl Iterator<Item = ()> { std::iter::once(()) }
/// #     fn step(&self, at: &u32, _: ()) -> Result<(u32, Cost), &'static str> { Ok((at + 1, 1)) }
/// #     fn format_moves(&self, moves: &[()]) -> String { "s".repeat(moves.len()) }
/// #     fn parse_moves(&self, text: &str) -> Result<Vec<()>, NotationError> {
/// #         Ok(text.chars().map(|_| ()).collect())
/// #     }
/// # }
///
/// fn load(text: &str) -> Result<Loaded, Diagnostic> {
///     let length = text.trim().parse().map_err(|_| Diagnostic::error("expected a length"))?;
///     Ok(Loaded::new(Walk(length), Vec::new()))
/// }
///
/// // The game, with only this check.
/// static GAMES: &[GameChecks] = &[GameChecks::new("walk", "txt", &load, &[&Short])];
///
/// let root = tempfile::tempdir()?;
/// std::fs::create_dir_all(root.path().join("levels/walk"))?;
/// std::fs::write(root.path().join("levels/walk/a.txt"), "3\n")?;
/// std::fs::write(root.path().join("levels/walk/b.txt"), "12\n")?;
///
/// let verdicts = Suite::discover(Settings::new(root.path(), GAMES)).run();
/// let outcomes: Vec<(&str, bool)> =
///     verdicts.iter().map(|(trial, verdict)| (trial.as_str(), verdict.passed())).collect();
/// // `orphans` fails: neither level has an expectation file yet.
/// assert_eq!(outcomes, [("walk::a::short", true), ("walk::b::short", false), ("orphans", false)]);
/// assert_eq!(verdicts[1].1.message().as_deref(), Some("par 12 is above 10"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait Check: Sync {
    /// The last part of the trial name, e.g. `par`.
    fn name(&self) -> &'static str;
    /// The expectation keys this check owns. The runner rejects any key in an
    /// expectation file that no check of its game (and not the harness) owns.
    fn keys(&self) -> &'static [ExpectationKey] {
        &[]
    }
    /// Looks at the level.
    fn run(&self, subject: &Subject) -> Result<Finding, String>;
}

/// A value a check reported that TOML cannot hold: a bug in the check.
fn unwritable(key: &str, error: toml_edit::ser::Error) -> String {
    format!("the value for `{key}` cannot be written as TOML ({error}): a bug in the check")
}

/// What a check found, when nothing is wrong that bless could not fix.
#[derive(Clone, Debug, Default)]
pub struct Finding {
    /// Each machine-owned key this check owns, with the value (or table)
    /// bless would write (`None`: the key should be absent).
    pub(crate) machine: Vec<(&'static str, Option<Item>)>,
    /// Remarks worth showing even when the check passes.
    pub notes: Vec<String>,
    /// Failures that bless cannot fix (an unreachable snack the designer has
    /// not allowed): the check fails with these even when the machine
    /// values match, and bless still writes the values.
    pub problems: Vec<String>,
}

impl Finding {
    /// A finding with nothing to compare and nothing to say.
    pub fn pass() -> Self {
        Finding::default()
    }

    /// Adds the value bless would write for machine-owned `key`: any plain
    /// data (`7`, `"solved"`, `[[3, 4]]`, a map as an inline table). `None`
    /// says the key should be absent.
    ///
    /// ```
    /// use puzzle_qa_core::harness::Finding;
    /// let finding = Finding::pass()
    ///     .expect("par", Some(7))
    ///     .expect("traps", vec![(3, 4)])
    ///     .expect("solution", None::<&str>);
    /// # let _ = finding;
    /// ```
    pub fn expect(mut self, key: &'static str, value: impl Serialize) -> Self {
        match value.serialize(ValueSerializer::new()) {
            Ok(value) => self.machine.push((key, Some(Item::Value(value)))),
            Err(toml_edit::ser::Error::UnsupportedNone) => self.machine.push((key, None)),
            Err(error) => self.problems.push(unwritable(key, error)),
        }
        self
    }

    /// Adds the table bless would write for machine-owned `key`
    /// (`[mechanics]`), entry by entry in the given order; it is compared
    /// and edited entry by entry, so a comment beside an entry survives.
    /// No entries: the table should be absent.
    pub fn expect_table<K: AsRef<str>, V: Serialize>(
        mut self,
        key: &'static str,
        entries: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        let mut table = Table::new();
        for (entry, value) in entries {
            match value.serialize(ValueSerializer::new()) {
                Ok(value) => {
                    table.insert(entry.as_ref(), Item::Value(value));
                }
                Err(error) => {
                    self.problems.push(unwritable(key, error));
                    return self;
                }
            }
        }
        let table = (!table.is_empty()).then_some(Item::Table(table));
        self.machine.push((key, table));
        self
    }

    /// Adds a remark.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a failure that bless cannot fix.
    pub fn problem(mut self, problem: impl Into<String>) -> Self {
        self.problems.push(problem.into());
        self
    }
}
