//! The `beast` binary: everything lives in the library's engine and in `cli`.

#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
