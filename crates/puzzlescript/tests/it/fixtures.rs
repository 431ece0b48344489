//! The engine on small games of our own (tests/fixtures/puzzlescript/),
//! whose expected outcomes were recorded with the official engine: the
//! check that runs in every clone, where the official test tables
//! (conformance.rs) are absent.
//!
//! Each game `NAME.txt` has its cases in `NAME.cases.toml`; each case is
//! played as the official test runner plays one (simulation.rs), and must
//! end in the level string it records (and play the object sounds it
//! records, when it has `audio`). `broken/` holds games the compiler must
//! refuse, each with the line its error must name. The folder's README says
//! how the expectations are recorded. `FIXTURE=NAME` (or `NAME/CASE`) plays
//! only those cases.

use std::path::{Path, PathBuf};

use puzzle_qa_core::diagnostic::Severity;
use puzzlescript::compile::compile;
use puzzlescript::engine::{Engine, Input, Mode};
use serde::Deserialize;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/puzzlescript")
}

/// One input, in the simulation tables' vocabulary: 0 up, 1 left, 2 down,
/// 3 right, 4 action, or "tick", "undo", "restart".
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Step {
    Key(u8),
    Word(String),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Key(k) => write!(f, "{k}"),
            Step::Word(w) => write!(f, "{w:?}"),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// The feature the case exercises.
    covers: String,
    /// The level loaded (message levels count).
    level: usize,
    seed: String,
    inputs: Vec<Step>,
    /// `convertLevelToString` of the level in play at the end.
    expected: String,
    /// The object sounds played, when the case checks them.
    audio: Option<Vec<String>>,
    /// The level in play at the end, when a win moved on from `level`.
    final_level: Option<usize>,
    /// Set when the game went back to its title after its last level.
    #[serde(default)]
    finished: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Broken {
    game: String,
    covers: String,
    /// The line the error must name; none when the official engine names none.
    line: Option<usize>,
    /// A line one of puzzle-qa's diagnostics (its own warnings included)
    /// must point at, where the official engine names none.
    diagnostic_line: Option<usize>,
    /// The official engine's messages: each must be given here too.
    official: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BrokenCases {
    case: Vec<Broken>,
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixture games: every `NAME.txt` of the folder, by name, in order.
fn games() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("the fixtures folder reads")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".txt")?.to_string())
        })
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no fixture games in {}", dir().display());
    names
}

/// Plays one case; `Err` says how it went wrong.
fn play(source: &str, case: &Case) -> Result<(), String> {
    let (game, log) = compile(source);
    let game = game.filter(|_| !log.has_errors()).ok_or_else(|| {
        format!(
            "the game does not compile: {:?}",
            log.official_texts().collect::<Vec<_>>()
        )
    })?;
    let mut engine = Engine::load(&game, case.level, &case.seed, Mode::Runner)
        .ok_or_else(|| format!("the game has no level {}", case.level))?;
    engine.drain();
    for step in &case.inputs {
        match step {
            Step::Word(w) if w == "undo" => engine.undo(),
            Step::Word(w) if w == "restart" => engine.restart(),
            Step::Word(w) if w == "tick" => {
                engine.input(None);
            }
            Step::Key(k) => {
                let input = match k {
                    0 => Input::Up,
                    1 => Input::Left,
                    2 => Input::Down,
                    3 => Input::Right,
                    4 => Input::Action,
                    _ => return Err(format!("unknown input {k}")),
                };
                engine.input(Some(input));
            }
            other => return Err(format!("unknown input {other}")),
        }
        engine.drain();
    }
    let mut wrong = Vec::new();
    let got = engine.level_string();
    if got != case.expected {
        wrong.push(diff(&case.expected, &got));
    }
    if let Some(audio) = &case.audio
        && audio.join(";") != engine.sounds().join(";")
    {
        wrong.push(format!(
            "sounds differ:\n  - {}\n  + {}",
            audio.join(";"),
            engine.sounds().join(";")
        ));
    }
    if case.finished != engine.finished() {
        wrong.push(format!(
            "the official engine {} to its title screen, this one {}",
            if case.finished {
                "went back"
            } else {
                "did not go back"
            },
            if engine.finished() { "did" } else { "did not" }
        ));
    } else if !case.finished {
        let want = case.final_level.unwrap_or(case.level);
        if engine.level_index() != want {
            wrong.push(format!(
                "ends in level {}, the official engine in level {want}",
                engine.level_index()
            ));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n"))
    }
}

/// The level strings line by line (unchanged lines once, differing ones as
/// `-` expected and `+` got), then both drawn as grids.
fn diff(expected: &str, got: &str) -> String {
    let mut out = String::from("level string differs (- official engine, + this engine):\n");
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    for i in 0..e.len().max(g.len()) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("    {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("  - {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("  + {b}\n"));
                }
            }
        }
    }
    if let (Some(a), Some(b)) = (grid(expected), grid(got)) {
        out.push_str("as grids (rows top to bottom; each cell its objects but the background), official engine:\n");
        out.push_str(&a);
        out.push_str("this engine:\n");
        out.push_str(&b);
    }
    out
}

/// A level string drawn as rows of cells. The string walks the level's
/// storage, column by column (`x * height + y`), `width` entries a line,
/// `height` lines (conformance README, "convertLevelToString").
fn grid(level: &str) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut cells: Vec<&str> = Vec::new();
    for line in level.lines() {
        for entry in line.split(',').filter(|e| !e.is_empty()) {
            let index = match entry.rsplit_once(':') {
                Some((objects, index)) => {
                    names.push(objects);
                    index
                }
                None => entry,
            };
            cells.push(names.get(index.parse::<usize>().ok()?).copied()?);
        }
    }
    let height = level.lines().count();
    if height == 0 || !cells.len().is_multiple_of(height) {
        return None;
    }
    let width = cells.len() / height;
    let shown = |c: &str| {
        let objects: Vec<&str> = c.split(' ').filter(|o| *o != "background").collect();
        if objects.is_empty() {
            ".".to_string()
        } else {
            objects.join("+")
        }
    };
    let mut out = String::new();
    for y in 0..height {
        let row: Vec<String> = (0..width)
            .map(|x| format!("{:>12}", shown(cells[x * height + y])))
            .collect();
        out.push_str(&format!("  {}\n", row.join(" ")));
    }
    Some(out)
}

#[test]
fn every_fixture_game_compiles_without_a_message() {
    let mut wrong = Vec::new();
    for name in games() {
        let (game, log) = compile(&read(&dir().join(format!("{name}.txt"))));
        if game.is_none() || !log.messages().is_empty() {
            wrong.push(format!(
                "{name}.txt: {:?}",
                log.official_texts().collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "fixture games with compile messages:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn fixture_cases_end_as_the_official_engine_ended_them() {
    let only = std::env::var("FIXTURE").ok();
    let (mut failed, mut total) = (Vec::new(), 0);
    for name in games() {
        let cases_path = dir().join(format!("{name}.cases.toml"));
        assert!(cases_path.is_file(), "{name}.txt has no {name}.cases.toml");
        let cases: Cases = toml::from_str(&read(&cases_path))
            .unwrap_or_else(|e| panic!("{}: {e}", cases_path.display()));
        let source = read(&dir().join(format!("{name}.txt")));
        for case in &cases.case {
            if only
                .as_ref()
                .is_some_and(|o| *o != name && *o != format!("{name}/{}", case.name))
            {
                continue;
            }
            total += 1;
            let outcome = std::panic::catch_unwind(|| play(&source, case))
                .unwrap_or_else(|_| Err("panicked".into()));
            if let Err(why) = outcome {
                let inputs: Vec<String> = case.inputs.iter().map(Step::to_string).collect();
                failed.push(format!(
                    "{name}/{} (covers: {})\n  level {}, seed {:?}, inputs [{}]\n{why}",
                    case.name,
                    case.covers,
                    case.level,
                    case.seed,
                    inputs.join(", ")
                ));
            }
        }
    }
    assert!(total > 0, "no fixture case was played");
    eprintln!(
        "fixtures: {}/{total} cases end as the official engine ended them",
        total - failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {total} fixture cases differ:\n\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}

/// The moves of a case in the command line's notation, when it has only
/// keys (no undo, restart or tick) and stays in its level: what a level's
/// own replay can play.
fn as_moves(case: &Case) -> Option<String> {
    if case.finished || case.final_level.is_some() {
        return None;
    }
    case.inputs
        .iter()
        .map(|step| match step {
            Step::Key(k) => "ULDRX".chars().nth(usize::from(*k)),
            Step::Word(_) => None,
        })
        .collect()
}

/// `contents` (rows of cells) written as the official engine's
/// `convertLevelToString` writes a board: it walks the storage (column by
/// column) `width` entries a line, naming each new set of objects once.
fn level_string(contents: &[Vec<Vec<String>>]) -> String {
    let (height, width) = (contents.len(), contents.first().map_or(0, Vec::len));
    let mut out = String::new();
    let mut seen: Vec<String> = Vec::new();
    for i in 0..width * height {
        let names = contents[i % height][i / height].join(" ");
        let n = seen.iter().position(|s| *s == names).unwrap_or_else(|| {
            seen.push(names.clone());
            out.push_str(&names);
            out.push(':');
            seen.len() - 1
        });
        out.push_str(&format!("{n},"));
        if (i + 1) % width == 0 {
            out.push('\n');
        }
    }
    out
}

#[test]
fn a_levels_replay_plays_each_seeded_case_as_the_official_engine_did() {
    // The command line's replay is a chain of pure steps through the
    // level as a puzzle-qa game; a game with randomness keeps its
    // generator in the state, so the chain draws as one engine does.
    use puzzle_qa_core::game::Chance;
    use puzzle_qa_core::level::AnyLevel;
    let (mut played, mut random) = (0, 0);
    for name in games() {
        let cases: Cases =
            toml::from_str(&read(&dir().join(format!("{name}.cases.toml")))).unwrap();
        let Ok((game, _)) = puzzlescript::load(&read(&dir().join(format!("{name}.txt")))) else {
            continue;
        };
        let game = std::sync::Arc::new(game);
        for case in &cases.case {
            let Some(moves) = as_moves(case) else {
                continue;
            };
            let Some(level) = puzzlescript::level::Level::new(game.clone(), case.level, "unused")
            else {
                continue;
            };
            let level = Chance::reseeded(&level, &case.seed);
            // An action in a `noaction` game is not a move of the notation.
            let Ok(playback) = AnyLevel::playback(&level, &moves) else {
                continue;
            };
            let playback = playback.expect("PuzzleScript levels draw");
            if playback.moves() < moves.len() {
                continue; // the level was won before its last input
            }
            let got = level_string(&playback.contents.unwrap());
            assert_eq!(
                got, case.expected,
                "{name}/{} (seed {:?}, moves {moves})",
                case.name, case.seed
            );
            played += 1;
            random += usize::from(game.uses_random());
        }
    }
    assert!(
        played > 20 && random >= 5,
        "{played} cases played, {random} random"
    );
}

#[test]
fn a_levels_replay_draws_on_one_generator_as_one_engine_does() {
    // Each turn of the bugs' level draws (randomdir), so a generator
    // started afresh at each move would draw the same directions each time.
    use puzzle_qa_core::game::Chance;
    use puzzle_qa_core::level::AnyLevel;
    let (game, _) = puzzlescript::load(&read(&dir().join("random.txt"))).unwrap();
    let game = std::sync::Arc::new(game);
    for (index, seed, moves) in [
        (1, "walk", "URRDLLUUR"),
        (1, "7", "DDRRUULL"),
        (0, "3", "XLRX"),
    ] {
        let level = puzzlescript::level::Level::new(game.clone(), index, "unused").unwrap();
        let level = Chance::reseeded(&level, seed);
        let playback = AnyLevel::playback(&level, moves).unwrap().unwrap();
        let mut engine = Engine::load(&game, index, seed, Mode::Solver).unwrap();
        engine.drain();
        for input in moves.chars() {
            let input = match input {
                'U' => Input::Up,
                'D' => Input::Down,
                'L' => Input::Left,
                'R' => Input::Right,
                _ => Input::Action,
            };
            engine.input(Some(input));
            engine.drain();
        }
        assert_eq!(
            level_string(&playback.contents.unwrap()),
            engine.level_string(),
            "level {index}, seed {seed:?}, moves {moves}"
        );
    }
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn broken_games_are_refused_at_the_line_of_their_error() {
    let path = dir().join("broken/cases.toml");
    let cases: BrokenCases =
        toml::from_str(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!cases.case.is_empty(), "no broken games listed");
    let mut wrong = Vec::new();
    for case in &cases.case {
        let (_, log) = compile(&read(&dir().join("broken").join(&case.game)));
        let texts: Vec<String> = log.official_texts().collect();
        let what = format!("broken/{} ({})", case.game, case.covers);
        let at_line = log
            .messages()
            .iter()
            .any(|m| m.severity == Severity::Error && m.line == case.line);
        if !log.has_errors() {
            wrong.push(format!("{what}: accepted; messages {texts:?}"));
        } else if !at_line {
            let place = case
                .line
                .map_or("without a line".to_string(), |l| format!("at line {l}"));
            wrong.push(format!("{what}: no error {place}; messages {texts:?}"));
        }
        if let Some(line) = case.diagnostic_line
            && !log.diagnostics().iter().any(|d| d.line == line)
        {
            wrong.push(format!(
                "{what}: no diagnostic points at line {line}: {:?}",
                log.diagnostics()
            ));
        }
        let ours: Vec<String> = texts.iter().map(|t| squeeze(t)).collect();
        for o in &case.official {
            if !ours.contains(&squeeze(o)) {
                wrong.push(format!(
                    "{what}: the official message {o:?} is not given; messages {texts:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
