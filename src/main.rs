fn main() -> std::process::ExitCode {
    puzzle_qa::cli::main()
}
