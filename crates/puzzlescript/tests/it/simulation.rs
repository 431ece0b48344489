//! The judge: every simulation case of the official engine's own tests,
//! played as its runner plays them, must end in the level it expects (and
//! play the sounds it expects, where it records them).

use puzzlescript::compile::compile;
use puzzlescript::engine::{Engine, Input, Mode};
use serde_json::Value;

/// Plays one case; `Err` says how it went wrong.
fn play(case: &Value) -> Result<(), String> {
    let source = case["source"].as_str().ok_or("no source")?;
    let (game, log) = compile(source);
    let game = game.ok_or_else(|| {
        format!(
            "did not compile: {:?}",
            log.official_texts().collect::<Vec<_>>()
        )
    })?;
    // Upstream writes a few levels as strings ("1"); the engine reads both.
    let level = match &case["level"] {
        Value::String(s) => s
            .parse()
            .map_err(|_| format!("level {s:?} is not a number"))?,
        v => v.as_u64().unwrap_or(0) as usize,
    };
    let seed = match &case["seed"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => "no seed given".to_string(),
    };
    let mut engine = Engine::load(&game, level, &seed, Mode::Runner).ok_or("no such level")?;
    engine.drain();
    let trace = std::env::var_os("TRACE").is_some();
    if trace {
        eprintln!("start\n{}", engine.level_string());
    }
    for input in case["inputs"].as_array().ok_or("no inputs")? {
        match input {
            Value::String(s) if s == "undo" => engine.undo(),
            Value::String(s) if s == "restart" => engine.restart(),
            Value::String(s) if s == "tick" => {
                engine.input(None);
            }
            Value::Number(n) => {
                let input = match n.as_u64() {
                    Some(0) => Input::Up,
                    Some(1) => Input::Left,
                    Some(2) => Input::Down,
                    Some(3) => Input::Right,
                    Some(4) => Input::Action,
                    _ => return Err(format!("unknown input {n}")),
                };
                engine.input(Some(input));
            }
            other => return Err(format!("unknown input {other}")),
        }
        engine.drain();
        if trace {
            eprintln!("after {input}\n{}", engine.level_string());
        }
    }
    let got = engine.level_string();
    let expected = case["expected"].as_str().unwrap_or_default();
    if got != expected {
        return Err(diff(expected, &got));
    }
    if let Some(audio) = case["audio"].as_array() {
        let want: Vec<String> = audio
            .iter()
            .map(|a| match a {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        if want.join(";") != engine.sounds().join(";") {
            return Err(format!(
                "sounds: expected {}\n        got {}",
                want.join(";"),
                engine.sounds().join(";")
            ));
        }
    }
    Ok(())
}

fn diff(expected: &str, got: &str) -> String {
    let mut out = String::from("level string differs (- expected, + got):\n");
    for (e, g) in expected.lines().zip(got.lines()) {
        if e != g {
            out.push_str(&format!("  - {e}\n  + {g}\n"));
        }
    }
    if expected.lines().count() != got.lines().count() {
        out.push_str(&format!(
            "  ({} lines expected, {} got)\n",
            expected.lines().count(),
            got.lines().count()
        ));
    }
    out
}

#[test]
fn simulation_cases_end_as_the_official_engine_ends_them() {
    let Some(dir) = crate::conformance::folder("simulation judge") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("simulation.json")).expect("simulation.json reads");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("simulation.json parses");
    let only: Option<usize> = std::env::var("CASE").ok().and_then(|c| c.parse().ok());
    let mut failed = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let outcome =
            std::panic::catch_unwind(|| play(case)).unwrap_or_else(|_| Err("panicked".into()));
        if let Err(why) = outcome {
            failed.push(format!(
                "case {i} {:?}: {why}",
                case["name"].as_str().unwrap_or("")
            ));
        }
    }
    let total = if only.is_some() { 1 } else { cases.len() };
    eprintln!(
        "simulation judge: {}/{} cases pass",
        total - failed.len(),
        total
    );
    for f in &failed {
        eprintln!("{f}");
    }
    assert!(
        failed.is_empty(),
        "{} of {} simulation cases fail (listed above)",
        failed.len(),
        total
    );
}
