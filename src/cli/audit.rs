//! `beast audit`: which known readings a challenge's examples leave open, and the few cases
//! that close them. The audit and its words are `beast_engine::judge::audit`'s; this file
//! reads the examples (the challenge's samples, `--cases DIR`) and prints. The search is
//! bounded by counts (`--budget` puzzles), so an audit is the same on every machine.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use beast_engine::judge::audit::{self, Search};
use beast_engine::judge::cases::{self, Case};
use beast_engine::judge::pack;

use super::check::load::load_dir;
use beast_engine::judge::budget::Steps;

/// The engine's budget for judging one example under our readings.
const ENGINE_STEPS: Steps = Steps::CASE;

/// What `beast audit` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For reading.
    Text,
    /// A block to paste into a sandbox post.
    Markdown,
    /// One JSON document.
    Json,
}

/// Arguments of `beast audit`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  beast audit                                  # the challenge's five samples
  beast audit --no-builtin --cases mine        # your own examples (NAME.in or NAME.txt, NAME.out)
  beast audit --format markdown                # a block for a sandbox post")]
pub struct Args {
    /// Also audit the cases of DIR: `NAME.in` or `NAME.txt` with `NAME.out` (repeatable).
    #[arg(long, value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    /// Leave out the challenge's five samples.
    #[arg(long)]
    pub no_builtin: bool,
    /// What to print.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Seed of the search for separating puzzles.
    #[arg(long, value_name = "S", default_value_t = Search::default().seed)]
    pub seed: u64,
    /// The most random puzzles the search draws.
    #[arg(long, value_name = "N", default_value_t = Search::default().puzzles)]
    pub budget: usize,
    /// Gone: the search is bounded by `--budget` (refused, with that hint).
    #[arg(long, hide = true, value_name = "SECS")]
    pub time_limit: Option<String>,
}

/// Runs `beast audit`.
pub fn run(args: Args) -> super::error::Ended {
    if args.time_limit.is_some() {
        return Err(super::error::usage(
            "--time-limit is gone: the search is bounded by --budget N (the puzzles drawn), \
             so that an audit is the same on every machine; use `timeout` to cap a whole run",
        ));
    }
    let examples = examples(&args)?;
    if examples.is_empty() {
        return Err(super::error::usage(
            "no example to audit: --no-builtin leaves out the samples, so give --cases DIR \
             with at least one case",
        ));
    }
    let search = Search {
        seed: args.seed,
        puzzles: args.budget,
    };
    let started = Instant::now();
    // Each example's games under every reading, as one case is judged; the puzzles drawn
    // are small (the search's own bound is `--budget`).
    let steps = Steps(ENGINE_STEPS.0.saturating_mul(examples.len() as u64 + 1));
    let result = audit::audit(&examples, search, &mut steps.counter());
    eprintln!(
        "audited {} examples against {} readings in {:.2} s",
        examples.len(),
        result.decided.len() + result.undecided.len(),
        started.elapsed().as_secs_f64()
    );
    let text = match args.format {
        Format::Text => audit::words::text(&result),
        Format::Markdown => audit::words::markdown(&result),
        Format::Json => audit::words::json(&result),
    };
    // Through the terminal's layer, as every line the judge prints.
    let text = beast_engine::judge::report::terminal(&text);
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the audit to standard output")?;
    Ok(())
}

/// The examples: the challenge's samples (unless `--no-builtin`), then each `--cases` DIR's
/// cases in name order. Cases the engine refuses are skipped, said on stderr.
fn examples(args: &Args) -> anyhow::Result<Vec<Case>> {
    let mut all: Vec<Case> = Vec::new();
    if !args.no_builtin {
        all.extend(
            cases::builtin()
                .cases
                .into_iter()
                .filter(|c| pack::is_sample(&c.name)),
        );
    }
    for dir in &args.cases {
        let loaded = load_dir(dir, ENGINE_STEPS)?;
        for s in loaded.skipped {
            eprintln!("note: {} skipped: {}", s.name, s.reason);
        }
        // The audit compares the readings with our answer, not with the `.out`.
        for s in loaded.disputed {
            eprintln!("note: {}", s.reason);
        }
        all.extend(loaded.cases);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_examples_are_the_five_samples() {
        let args = Args {
            cases: Vec::new(),
            no_builtin: false,
            format: Format::Text,
            seed: 1,
            budget: 0,
            time_limit: None,
        };
        let names: Vec<String> = examples(&args)
            .expect("built in")
            .into_iter()
            .map(|c| c.name)
            .collect();
        let mut samples: Vec<String> = pack::SAMPLES.iter().map(|s| s.to_string()).collect();
        samples.sort();
        assert_eq!(names, samples);
    }
}
