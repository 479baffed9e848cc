//! `beast events [FILE]`: the vocabulary of rule events `beast check` locates a mistake
//! by, one a line; with a puzzle, the events its game goes through under our readings and
//! the turn each first happens on.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context;
use beast_engine::beast::Puzzle;
use beast_engine::beast::events::{self, EVENTS};

/// Arguments of `beast events`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The names are stable: `beast check` names the event that best \
    separates an answer's failing cases from its passing ones by them."
)]
pub struct Args {
    /// A puzzle file (`-` for standard input): list the events of its game instead, each
    /// with the turn it first happens on.
    pub file: Option<PathBuf>,
    /// Print one JSON object a line: name and words (and turn, with a puzzle).
    #[arg(long)]
    pub json: bool,
}

/// Prints the vocabulary, or a puzzle's events.
pub fn run(args: Args) -> super::error::Ended {
    let mut out = io::stdout().lock();
    let width = EVENTS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    let Some(file) = &args.file else {
        for k in &EVENTS {
            match args.json {
                true => writeln!(
                    out,
                    "{}",
                    serde_json::json!({"name": k.name, "words": k.words})
                )?,
                false => writeln!(out, "{:<width$}  a case that {}", k.name, k.words)?,
            }
        }
        out.flush()?;
        return Ok(());
    };
    let bytes = super::source::read_source(Some(file.as_path()), "")?;
    let puzzle = Puzzle::parse_owned(bytes)?;
    let seen = events::record(&puzzle, || true).context("the game cannot be judged")?;
    for (e, turn) in seen.iter() {
        let k = e.kind();
        match args.json {
            true => writeln!(
                out,
                "{}",
                serde_json::json!({"name": k.name, "words": k.words, "turn": turn})
            )?,
            false => writeln!(out, "turn {turn:>4}  {:<width$}  {}", k.name, k.words)?,
        }
    }
    out.flush()?;
    Ok(())
}
