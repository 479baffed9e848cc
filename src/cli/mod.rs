//! The command line: argument parsing and dispatch. Files, processes and the terminal live
//! here and only here.

/// `eprint!` for the whole command line, shadowing the standard macro, which panics when
/// stderr is closed or full: here the message is lost instead, and the exit code still
/// tells. Defined before the `mod` lines, so every command module uses it.
#[allow(
    unused_macros,
    reason = "kept so that no command module reaches the panicking one"
)]
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprintln!` that never panics, like [`eprint!`] above.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod answer;
mod audit;
mod budget;
mod cases;
mod check;
pub mod error;
mod events;
mod fence;
mod r#gen;
mod man;
mod paint;
mod platform;
mod play;
mod replay;
mod ring;
mod rule_flags;
mod sandbox;
pub mod seed;
pub mod source;
mod tui;
mod values;
mod variants;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser, Subcommand};

/// Judge "aHHHH! The Beasts are HHHHere!" puzzles, check golf answers, and play.
#[derive(Parser, Debug)]
#[command(
    name = "beast",
    version,
    about,
    long_about = "Judge \"aHHHH! The Beasts are HHHHere!\" puzzles: `beast FILE` or `beast < FILE` \
                  prints exactly what a correct golf answer prints.",
    args_conflicts_with_subcommands = true,
    after_help = "Exit codes: 0 judged (whatever the outcome), 1 a check failed or a move was refused, \
                  2 bad input or usage."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    answer: answer::Args,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fence Posts: build fences against the farmer.
    Fence(fence::Args),
    /// Ring Collector: collect ten dots past a patrolling guard.
    Ring(ring::Args),
    /// Play a beast map in the terminal (or watch a replay).
    Play(play::Args),
    /// Check a golf answer: run it on every case and compare with the engine.
    Check(Box<check::Args>),
    /// Print one seeded random puzzle in the input format.
    Gen(r#gen::Args),
    /// Write a test-case pack for challenge authors: files, a Markdown block or a Kattis package.
    Cases(Box<cases::Args>),
    /// List the known misreadings of the rules that `--variant` and `beast check` know.
    Variants(variants::Args),
    /// For challenge authors: the readings your examples leave open, and the cases that close them.
    Audit(audit::Args),
    /// List the rule events `beast check` locates a mistake by (or a puzzle's events).
    Events(events::Args),
    /// Print the manual page (roff), or write one a subcommand with --out.
    Man(man::Args),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

pub use error::Error;

pub use error::Ended;

/// Parses the arguments, runs the command and applies its exit status, decided by
/// [`Error::code`]: 0 ok, 1 a check failed or a move was refused, 2 bad input or usage.
pub fn run() -> ExitCode {
    let result = match contained() {
        Some(Ok(spec)) => sandbox::helper::run(spec),
        Some(Err(e)) => Err(Error::Input(anyhow::anyhow!("beast __contain: {e}"))),
        None => dispatch(Cli::parse()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if let Some(message) = err.message() {
                eprintln!("{message}");
            }
            ExitCode::from(err.code())
        }
    }
}

/// The sandbox helper's spec, when this process is one (`beast __contain ...`, hidden:
/// written by `beast check` alone), or what is wrong with it. Parsed on its own, without
/// clap, since every case starts a helper.
fn contained() -> Option<Result<sandbox::spec::Spec, String>> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "__contain" {
        return None;
    }
    Some(sandbox::spec::Spec::parse(args))
}

/// Runs the command the arguments chose.
fn dispatch(cli: Cli) -> Ended {
    match cli.command {
        Some(Command::Fence(args)) => fence::run(args),
        Some(Command::Ring(args)) => ring::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Check(args)) => check::run(*args),
        Some(Command::Gen(args)) => r#gen::run(args),
        Some(Command::Cases(args)) => cases::run(*args),
        Some(Command::Variants(args)) => variants::run(args),
        Some(Command::Audit(args)) => audit::run(args),
        Some(Command::Events(args)) => events::run(args),
        Some(Command::Man(args)) => man::run(args, Cli::command()),
        Some(Command::Completions { shell }) => completions(shell),
        None => answer::run(cli.answer),
    }
}

/// Prints the completion script for `shell`. Written from a buffer, since
/// `clap_complete::generate` panics when its writer fails (a closed or full stdout).
fn completions(shell: clap_complete::Shell) -> Ended {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "beast", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)
        .and_then(|()| out.flush())
        .context("cannot write the completion script to standard output")?;
    Ok(())
}
