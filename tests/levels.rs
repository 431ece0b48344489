//! The level suite: every level in `levels/<game>/` checked against
//! `expectations/<game>/<level>.toml`. `BLESS=1 cargo test` accepts changes.
//! Games over the process protocol (`levels/<game>/game.toml`) join in.

fn main() -> std::process::ExitCode {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Err(message) = puzzle_qa::games::register(Some(root), &[]) {
        eprint!("{message}");
        return std::process::ExitCode::FAILURE;
    }
    puzzle_qa_core::harness::main(env!("CARGO_MANIFEST_DIR"), ".", puzzle_qa::games::all())
}
