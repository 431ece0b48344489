#![no_main]

//! Arbitrary text as a PuzzleScript game: parsing and compiling never
//! panic, and whatever compiles is played a little, level by level, with
//! inputs taken from the same bytes.

use puzzlescript::compile::compile;
use puzzlescript::engine::{Engine, Input, Mode};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (game, log) = compile(&text);
    // Every message can be shown as a diagnostic.
    let _ = log.diagnostics();
    let Some(game) = game else { return };
    if log.has_errors() {
        return;
    }
    for index in 0..game.levels().len().min(4) {
        let Some(mut engine) = Engine::load(&game, index, "fuzz", Mode::Runner) else {
            continue;
        };
        engine.drain();
        for &byte in data.iter().rev().take(12) {
            match byte % 8 {
                0 => engine.undo(),
                1 => engine.restart(),
                2 => {
                    engine.input(None);
                }
                b => {
                    let input = [Input::Up, Input::Left, Input::Down, Input::Right, Input::Action][(b - 3) as usize];
                    engine.input(Some(input));
                }
            }
            // A game may loop again forever; the fuzzer only bounds it.
            let mut turns = 0;
            while engine.againing() && turns < 64 {
                engine.again();
                turns += 1;
            }
        }
        let _ = engine.level_string();
    }
});
