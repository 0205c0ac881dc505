//! The `mancala` binary: parse the command line and hand over.

fn main() -> std::process::ExitCode {
    mancala::commands::main()
}
