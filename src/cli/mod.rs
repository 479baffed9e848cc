//! The command line: argument parsing and dispatch. Files, processes and the terminal live
//! here and only here.

/// `eprint!` for the whole command line, shadowing the standard macro, which panics when
/// stderr is closed or full: here the message is lost instead, and the exit code still
/// tells. The text passes the terminal's layer of escaping (`judge::report::terminal`):
/// a path, a case's name or a shard's field quoted in a note or an error shows no raw
/// control character and starts no line with a workflow command's `::`. Defined before
/// the `mod` lines, so every command module uses it.
#[allow(
    unused_macros,
    reason = "kept so that no command module reaches the panicking one"
)]
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = beast_engine::judge::report::terminal(&format!($($arg)*));
        let _ = std::io::stderr().write_all(text.as_bytes());
    }};
}

/// `eprintln!` that never panics and escapes, like [`eprint!`] above.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = beast_engine::judge::report::terminal(&format!($($arg)*));
        let _ = writeln!(std::io::stderr(), "{text}");
    }};
}

mod answer;
mod audit;
mod cases;
mod check;
pub mod error;
mod events;
mod fence;
mod files;
mod r#gen;
mod languages;
mod man;
mod paint;
mod platform;
mod play;
mod replay;
mod ring;
mod rule_flags;
mod sandbox;
mod score;
pub mod seed;
pub mod source;
mod tui;
mod values;
mod variants;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use self::paint::ColorChoice;

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
    /// When to colour the output (and this help): on a terminal unless NO_COLOR is set
    /// (auto), always (into pipes and files too, NO_COLOR or not), or never. A
    /// BEAST_COLOR that is none of these is ignored with a warning.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorChoice::Auto,
        env = "BEAST_COLOR"
    )]
    color: ColorChoice,
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
    /// Print the golf score of source files, bytes and characters as Code Golf posts count
    /// them, without running anything.
    Score(score::Args),
    /// List the known misreadings of the rules that `--variant` and `beast check` know.
    Variants(variants::Args),
    /// For challenge authors: the readings your examples leave open, and the cases that close them.
    Audit(audit::Args),
    /// List the languages `beast check --page` runs answers in, and which are installed here.
    Languages(languages::Args),
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
        Some(Err(e)) => Err(Error::Input(anyhow::anyhow!(
            "beast {}: {e}",
            sandbox::spec::SUBCOMMAND
        ))),
        None => dispatch(parse()),
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
    if args.next()? != sandbox::spec::SUBCOMMAND {
        return None;
    }
    Some(sandbox::spec::Spec::parse(args))
}

/// The command line, parsed; clap's own help and errors (exit 2) follow `--color`, and a
/// puzzle file that does not exist but is spelt like a subcommand gets clap's suggestion.
fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    paint::decide_colour_here();
    let mut command = Cli::command().color(ColorChoice::before_parsing(&args).clap());
    if let Err(warning) = ColorChoice::from_environment() {
        eprintln!("beast: {warning}");
        command = command.mut_arg("color", |a| a.env(None::<&str>));
    }
    command.build();
    let args = subcommand_first(&command, args);
    if let Some(err) = mistyped_subcommand(&mut command, &args) {
        err.exit();
    }
    let matches = command
        .try_get_matches_from_mut(&args)
        .unwrap_or_else(|e| values::from_environment(without_value_tip(e), &command, &args).exit());
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command).exit())
}

/// `err` without clap's tip to pass an unknown option "as a value" after `--`: after `--`
/// comes the answer's command, and beast takes no value there.
fn without_value_tip(mut err: clap::Error) -> clap::Error {
    let as_value = match err.get(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => {
            tips.iter().any(|t| t.to_string().contains("as a value"))
        }
        _ => false,
    };
    if err.kind() == ErrorKind::UnknownArgument && as_value {
        err.remove(ContextKind::Suggested);
    }
    err
}

/// `args` with a subcommand named after leading `--color` options moved before them
/// (`beast --color never gen` as `beast gen --color never`; before `help`, they are
/// dropped): clap counts an option before the subcommand as the default command's, which
/// conflicts with a subcommand.
fn subcommand_first(command: &clap::Command, mut args: Vec<OsString>) -> Vec<OsString> {
    let mut i = 1;
    while let Some(word) = args.get(i).and_then(|w| w.to_str()) {
        match word {
            "--color" => i += 2,
            w if w.starts_with("--color=") => i += 1,
            _ => break,
        }
    }
    let named = args.get(i).and_then(|w| w.to_str());
    match named {
        // `help` takes subcommand names only: its colour is clap's, chosen already.
        Some("help") if i > 1 => {
            args.drain(1..i);
        }
        Some(w) if i > 1 && command.find_subcommand(w).is_some() => {
            let name = args.remove(i);
            args.insert(1, name);
        }
        _ => {}
    }
    args
}

/// The error for a first word that is no subcommand and no file but is close to a
/// subcommand's name (`beast chek -- ...`, `beast genn`): clap's "unrecognized subcommand"
/// with its tip, by clap's own measure (Jaro similarity above 0.7). `None` when the word
/// is a subcommand, an existing file, or like no subcommand.
fn mistyped_subcommand(command: &mut clap::Command, args: &[OsString]) -> Option<clap::Error> {
    command.build();
    let word = first_word(command, args)?;
    let names: Vec<String> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect();
    if names.iter().any(|n| *n == word) || word == "-" || Path::new(word).exists() {
        return None;
    }
    let (_, best) = names
        .iter()
        .map(|n| (strsim::jaro(word, n), n))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let mut err = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(command);
    err.insert(
        ContextKind::InvalidSubcommand,
        ContextValue::String(word.to_string()),
    );
    err.insert(
        ContextKind::SuggestedSubcommand,
        ContextValue::String(best.clone()),
    );
    err.insert(
        ContextKind::Usage,
        ContextValue::StyledStr(command.render_usage()),
    );
    Some(err)
}

/// The first word of `args` (after the program) that is neither an option of `command`
/// nor an option's value, before any `--`.
fn first_word<'a>(command: &clap::Command, args: &'a [OsString]) -> Option<&'a str> {
    let takes_value =
        |found: Option<&clap::Arg>| found.is_some_and(|a| a.get_action().takes_values());
    let mut words = args.iter().skip(1);
    loop {
        let word = words.next()?.to_str()?;
        if word == "--" {
            return None;
        }
        if let Some(long) = word.strip_prefix("--") {
            let found = command.get_arguments().find(|a| a.get_long() == Some(long));
            if !long.contains('=') && takes_value(found) {
                words.next();
            }
        } else if let Some(short) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            let mut letters = short.chars();
            let found = letters
                .next()
                .and_then(|c| command.get_arguments().find(|a| a.get_short() == Some(c)));
            if letters.next().is_none() && takes_value(found) {
                words.next();
            }
        } else {
            return Some(word);
        }
    }
}

/// Runs the command the arguments chose.
fn dispatch(cli: Cli) -> Ended {
    let color = cli.color;
    match cli.command {
        Some(Command::Fence(args)) => fence::run(args, color),
        Some(Command::Ring(args)) => ring::run(args, color),
        Some(Command::Play(args)) => play::run(args, color),
        Some(Command::Check(args)) => check::run(*args, color),
        Some(Command::Gen(args)) => r#gen::run(args),
        Some(Command::Cases(args)) => cases::run(*args),
        Some(Command::Score(args)) => score::run(args),
        Some(Command::Variants(args)) => variants::run(args),
        Some(Command::Audit(args)) => audit::run(args),
        Some(Command::Events(args)) => events::run(args),
        Some(Command::Languages(args)) => languages::run(args),
        Some(Command::Man(args)) => man::run(args, Cli::command()),
        Some(Command::Completions { shell }) => completions(shell),
        None => answer::run(cli.answer, color),
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
