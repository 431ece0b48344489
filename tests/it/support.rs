//! What the root package's integration tests share: a project builder in
//! the manner of cargo-insta's `TestProject`, the `puzzle-qa` binary run in
//! a folder, the harness run in-process, and the readers of their output.
//!
//! No test but the level suite (`tests/levels.rs`) reads the repository's
//! own `levels/` or `expectations/`: those belong to the designers, and an
//! edit there must fail only that level's trials. A test reads the fixture
//! project (`tests/fixtures/project/`, [`fixture_project`]) where it only
//! looks, and works in a [`Project`], a temporary folder of its own, where
//! it changes anything. Paths inside a project are built by [`level_path`]
//! and [`expectation_path`].

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use puzzle_qa::games::BUILT_IN as GAMES;
use puzzle_qa_core::_cli_support::harness::{Settings, Suite, Verdict};
use serde_json::Value;
use tempfile::TempDir;

/// A Hug Maze level whose cushion must hold the plate while both bears pass
/// the gate: its cushion is essential.
pub const SLIDE: &str = "\
name: Slide
hint: something has to hold the plate while you both pass
########
#B.C..p#
#......#
#D.....#
####P###
#..H...#
########
";

/// The repository's root, for its own files that are not the designers'
/// (the docs, the CI files, the manifests).
pub fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/fixtures/<path>`, the tests' own files.
pub fn fixture(path: &str) -> PathBuf {
    repository().join("tests/fixtures").join(path)
}

/// The fixture project, `tests/fixtures/project/`: levels and expectations
/// laid out as in the repository, read by the tests and never written.
pub fn fixture_project() -> PathBuf {
    fixture("project")
}

/// `levels/<game>/<stem>.txt`: a level's path in a project, as the
/// command line and the harness show it.
pub fn level_path(game: &str, stem: &str) -> String {
    level_file(game, stem, "txt")
}

/// `levels/<game>/<stem>.<extension>`: a level file of a game whose files
/// end otherwise (`xsb`).
pub fn level_file(game: &str, stem: &str, extension: &str) -> String {
    ["levels", game, &format!("{stem}.{extension}")].join("/")
}

/// `expectations/<game>/<stem>.toml`: a level's expectation file in a project.
pub fn expectation_path(game: &str, stem: &str) -> String {
    ["expectations", game, &format!("{stem}.toml")].join("/")
}

/// The absolute path of a level of the fixture project, for the commands
/// that take a level file.
pub fn fixture_level(game: &str, stem: &str) -> String {
    fixture_project()
        .join(level_path(game, stem))
        .to_str()
        .expect("a UTF-8 path")
        .to_string()
}

/// The `puzzle-qa` binary with `args`, run in `dir`, without the variables
/// that would change what it does here (`CI` refuses bless, `BLESS`
/// blesses, `PUZZLE_QA_PENDING_DIR` and `PUZZLE_QA_UPDATE` move or stop
/// pending files); a test that wants them sets them on the command.
pub fn command_in(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"));
    command
        .current_dir(dir)
        .args(args)
        .env_remove("CI")
        .env_remove("BLESS")
        .env_remove(puzzle_qa_core::_cli_support::harness::PENDING_DIR)
        .env_remove(puzzle_qa_core::_cli_support::harness::UPDATE);
    command
}

/// [`command_in`], run to its end.
pub fn puzzle_qa_in(dir: &Path, args: &[&str]) -> Output {
    command_in(dir, args).output().expect("the binary runs")
}

/// `puzzle-qa` with `args` in the fixture project, which it must only read.
pub fn in_fixture_project(args: &[&str]) -> Output {
    puzzle_qa_in(&fixture_project(), args)
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 on stdout")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 on stderr")
}

/// Each line of stdout, read as JSON.
pub fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}

/// Each JSON line of `output` without `ms`, the one field that changes
/// from run to run (and with the thread count).
pub fn without_time(output: &Output) -> Vec<Value> {
    let mut lines = json_lines(output);
    for line in &mut lines {
        line.as_object_mut().unwrap().remove("ms");
    }
    lines
}

/// What a person sees of a run of `puzzle-qa ARGS`: the command, its exit
/// status, its stdout and its stderr, timing redacted ([`redact_timing`]),
/// for a snapshot.
pub fn transcript(args: &[&str], output: &Output) -> String {
    let status = output
        .status
        .code()
        .map_or_else(|| "a signal".to_string(), |code| code.to_string());
    let quoted: Vec<String> = args
        .iter()
        .map(|arg| match arg.contains(' ') {
            true => format!("'{arg}'"),
            false => arg.to_string(),
        })
        .collect();
    redact_timing(&format!(
        "$ puzzle-qa {}\nexit status: {status}\n--- stdout\n{}--- stderr\n{}",
        quoted.join(" "),
        stdout(output),
        stderr(output)
    ))
}

/// A JSON object's field names, sorted.
pub fn field_names(object: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = object
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    names.sort();
    names
}

/// The text with what differs from run to run replaced by a mark: the
/// `"ms"` and `"seconds"` fields of JSON, and the `ms` column of a table
/// (from its header line, which starts with `level`, to the next blank
/// line), rewritten to one width so the columns around it stay put.
pub fn redact_timing(text: &str) -> String {
    let text = redact_json_number(text, "ms");
    let text = redact_json_number(&text, "seconds");
    redact_ms_column(&text)
}

fn redact_json_number(text: &str, field: &str) -> String {
    let key = format!("\"{field}\":");
    let mut kept = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&key) {
        let after = &rest[at + key.len()..];
        let number = |c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E');
        let end = after.find(|c: char| !number(c)).unwrap_or(after.len());
        kept.push_str(&rest[..at + key.len()]);
        if end == 0 {
            // Not a number (`null`): nothing that varies.
            rest = after;
        } else {
            kept.push_str(&format!("\"[{field}]\""));
            rest = &after[end..];
        }
    }
    kept.push_str(rest);
    kept
}

/// Where the `ms` column of a table's header is, in characters: from the
/// end of the column before it to the end of `ms`.
fn ms_column(header: &[char]) -> Option<(usize, usize)> {
    if !header.starts_with(&['l', 'e', 'v', 'e', 'l']) {
        return None;
    }
    let at = (1..header.len().saturating_sub(1)).find(|&at| {
        header[at..at + 2] == ['m', 's']
            && header[at - 1] == ' '
            && header.get(at + 2).is_none_or(|next| *next == ' ')
    })?;
    let mut start = at;
    while start > 0 && header[start - 1] == ' ' {
        start -= 1;
    }
    Some((start, at + 2))
}

fn redact_ms_column(text: &str) -> String {
    let mut lines = Vec::new();
    let mut column: Option<(usize, usize)> = None;
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mark = match column {
            None => {
                column = ms_column(&chars);
                column.map(|_| "ms")
            }
            Some(_) if line.is_empty() => {
                column = None;
                None
            }
            Some((start, end)) => {
                let cell: String = chars[start.min(chars.len())..end.min(chars.len())]
                    .iter()
                    .collect();
                Some(if cell.trim() == "-" { "-" } else { "[ms]" })
            }
        };
        match (mark, column) {
            (Some(mark), Some((start, end))) if chars.len() >= end => {
                let before: String = chars[..start].iter().collect();
                let after: String = chars[end..].iter().collect();
                lines.push(format!("{before}  {mark:>6}{after}"));
            }
            _ => lines.push(line.to_string()),
        }
    }
    let mut redacted = lines.join("\n");
    if text.ends_with('\n') {
        redacted.push('\n');
    }
    redacted
}

/// Every trial's verdict of one in-process run of the harness.
pub fn verdicts(settings: Settings) -> BTreeMap<String, Verdict> {
    Suite::discover(settings).run().into_iter().collect()
}

/// Every failing trial with its message, as `cargo test` would list them,
/// in the order given (a map's is by name, a run's is the trials' order).
pub fn failures<'a>(verdicts: impl IntoIterator<Item = (&'a String, &'a Verdict)>) -> String {
    verdicts
        .into_iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, verdict)| {
            format!(
                "---- {name} ----\n{}\n",
                verdict.message().unwrap_or_default()
            )
        })
        .collect()
}

/// The names of the failing trials.
pub fn failing(verdicts: &BTreeMap<String, Verdict>) -> Vec<&str> {
    verdicts
        .iter()
        .filter(|(_, verdict)| !verdict.passed())
        .map(|(name, _)| name.as_str())
        .collect()
}

/// A project of its own in a temporary folder, removed when dropped:
/// `levels/` and `expectations/`, and whatever the test puts there.
pub struct Project {
    dir: TempDir,
}

impl Project {
    /// An empty project: `levels/` and `expectations/`, nothing in them.
    pub fn new() -> Project {
        let project = Project {
            dir: tempfile::tempdir().expect("a temporary folder"),
        };
        fs::create_dir_all(project.join("levels")).unwrap();
        fs::create_dir_all(project.join("expectations")).unwrap();
        project
    }

    /// A folder with nothing in it, no `levels/` nor `expectations/`: where
    /// a designer keeps a game file on its own (`mygame.txt`).
    pub fn empty() -> Project {
        Project {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    /// A copy of the fixture project `tests/fixtures/<fixture>/`, every file
    /// of it.
    pub fn copy_of(fixture: &str) -> Project {
        let project = Project::new();
        copy_tree(&self::fixture(fixture), project.path());
        project
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `relative` inside the project.
    pub fn join(&self, relative: &str) -> PathBuf {
        self.path().join(relative)
    }

    /// Writes `text` to `relative`, making its folders.
    pub fn write(&self, relative: &str, text: impl AsRef<[u8]>) {
        let path = self.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.join(relative))
            .unwrap_or_else(|error| panic!("{relative}: {error}"))
    }

    /// Replaces the one occurrence of `from` in `relative` by `to`.
    pub fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert_eq!(text.matches(from).count(), 1, "`{from}` in {relative}");
        self.write(relative, text.replacen(from, to, 1));
    }

    pub fn remove(&self, relative: &str) {
        fs::remove_file(self.join(relative)).unwrap_or_else(|error| panic!("{relative}: {error}"));
    }

    pub fn exists(&self, relative: &str) -> bool {
        self.join(relative).exists()
    }

    /// The names in the folder `relative`, sorted.
    pub fn listing(&self, relative: &str) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.join(relative))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Writes the level `levels/<game>/<stem>.txt`; its path in the project.
    pub fn level(&self, game: &str, stem: &str, text: &str) -> String {
        let path = level_path(game, stem);
        self.write(&path, text);
        path
    }

    /// Writes `expectations/<game>/<stem>.toml`; its path in the project.
    pub fn expectation(&self, game: &str, stem: &str, text: &str) -> String {
        let path = expectation_path(game, stem);
        self.write(&path, text);
        path
    }

    /// Copies the fixture project's level `<game>/<stem>` (the level file
    /// alone); its path in the project.
    pub fn copy_level(&self, game: &str, stem: &str) -> String {
        self.copy_from_fixture_project(&level_path(game, stem))
    }

    /// Copies the fixture project's expectation file of `<game>/<stem>`;
    /// its path in the project.
    pub fn copy_expectation(&self, game: &str, stem: &str) -> String {
        self.copy_from_fixture_project(&expectation_path(game, stem))
    }

    fn copy_from_fixture_project(&self, relative: &str) -> String {
        let text = fs::read(fixture_project().join(relative))
            .unwrap_or_else(|error| panic!("the fixture project's {relative}: {error}"));
        self.write(relative, text);
        relative.to_string()
    }

    /// The `puzzle-qa` binary with `args`, to run in the project ([`command_in`]).
    pub fn command(&self, args: &[&str]) -> Command {
        command_in(self.path(), args)
    }

    /// `puzzle-qa` with `args` in the project, `CI` and `BLESS` removed.
    pub fn puzzle_qa(&self, args: &[&str]) -> Output {
        puzzle_qa_in(self.path(), args)
    }

    /// The harness's settings for the project and the registered games, as
    /// values: nothing is read from the environment.
    pub fn settings(&self) -> Settings {
        Settings::new(self.path(), GAMES)
    }

    /// Every trial's verdict, the harness run in-process; blessing if `bless`.
    pub fn run_suite(&self, bless: bool) -> BTreeMap<String, Verdict> {
        verdicts(Settings {
            bless,
            ..self.settings()
        })
    }
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn timing_is_redacted_and_nothing_else() {
    let json = "{\"file\":\"a\",\"ms\":0.019,\"solution\":null}\n{\"ms\":null,\"seconds\":12.5}\n";
    assert_eq!(
        redact_timing(json),
        "{\"file\":\"a\",\"ms\":\"[ms]\",\"solution\":null}\n{\"ms\":null,\"seconds\":\"[seconds]\"}\n"
    );
    let narrow = "\
level  par  states    ms  parse
a        7      64  0.02  ok
b        -       -     -  ok

2 levels
";
    let wide = "\
level  par  states      ms  parse
a        7      64  123.45  ok
b        -       -       -  ok

2 levels
";
    let redacted = "\
level  par  states      ms  parse
a        7      64    [ms]  ok
b        -       -       -  ok

2 levels
";
    assert_eq!(redact_timing(narrow), redacted);
    assert_eq!(redact_timing(wide), redacted);
    assert_eq!(redact_timing("no table, 5 ms\n"), "no table, 5 ms\n");
}
