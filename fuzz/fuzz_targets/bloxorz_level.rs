#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::level(&puzzle_qa::games::bloxorz::GAME, data);
});
