//! The level suite: every level in `levels/<game>/` checked against
//! `expectations/<game>/<level>.toml`. `BLESS=1 cargo test` accepts changes.

fn main() -> std::process::ExitCode {
    puzzle_qa_core::harness::main(env!("CARGO_MANIFEST_DIR"), ".", puzzle_qa::games::GAMES)
}
