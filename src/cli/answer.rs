//! `beast [FILE]`: play one puzzle out and print the canonical answer, JSON, a trace or a replay page.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use beast_engine::beast::{self, Outcome, Puzzle, Rules, Style};
use clap::ValueEnum;

use super::paint;
use super::rule_flags::RuleArgs;

/// Arguments of the default command.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The puzzle file; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Print one JSON object (outcome, score, turns, moves_used, beasts_left, crushed).
    #[arg(long)]
    pub json: bool,
    /// Print the board after every turn to stderr, with what happened.
    #[arg(long)]
    pub trace: bool,
    /// Glyphs for --trace.
    #[arg(long, value_enum, default_value_t = StyleArg::Ascii)]
    pub style: StyleArg,
    /// Write a self-contained HTML replay page of the game to stdout instead of the answer.
    #[arg(long, conflicts_with_all = ["json", "trace"])]
    pub html: bool,
    /// With --html: show the game under these reading flags beside ours, with the first
    /// turn where they differ, e.g. --compare "--target after" or "--variant ties-reversed".
    #[arg(
        long,
        value_name = "FLAGS",
        requires = "html",
        allow_hyphen_values = true
    )]
    pub compare: Option<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `--style`.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum StyleArg {
    /// The puzzle's own characters.
    #[default]
    Ascii,
    /// Double-width glyphs like the 1984 original.
    Unicode,
}

impl From<StyleArg> for Style {
    fn from(s: StyleArg) -> Style {
        match s {
            StyleArg::Ascii => Style::Ascii,
            StyleArg::Unicode => Style::Unicode,
        }
    }
}

/// Runs the default command.
pub fn run(args: Args, color: paint::ColorChoice) -> super::error::Ended {
    if args.file.is_none() && io::stdin().is_terminal() {
        return Err(super::error::usage(
            "give a puzzle file, or pipe one in: `beast puzzle.txt`, `beast < puzzle.txt`.\n\
             Try `beast --help` for the options and subcommands.",
        ));
    }
    let puzzle = super::source::read_puzzle(args.file.as_deref())?;
    let rules = args.rules.rules();
    if args.html {
        let title = args
            .file
            .as_deref()
            .filter(|p| p.as_os_str() != "-")
            .and_then(|p| p.file_name())
            .map_or("standard input".to_string(), |n| {
                n.to_string_lossy().into_owned()
            });
        // `--compare FLAGS`, read once: the page is labelled with the flags as given.
        let compare = match args.compare.as_deref() {
            Some(flags) => Some((flags, super::rule_flags::rules_with_flags(rules, flags)?)),
            None => None,
        };
        let page = super::replay::page_for(&puzzle, rules, compare, &title)?;
        let mut out = io::stdout().lock();
        out.write_all(page.as_bytes())
            .and_then(|()| out.flush())
            .context("cannot write the page to standard output")?;
        return Ok(());
    }
    let outcome = if args.trace {
        trace(&puzzle, rules, args.style.into(), color.on(&io::stderr()))?
    } else {
        beast::play_out_owned(puzzle, rules)?
    };
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string(&beast::render::Report::of(&outcome))?
        )
    } else {
        outcome.answer()
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the answer to standard output")?;
    Ok(())
}

/// Judges with the board drawn to stderr after every turn.
fn trace(puzzle: &Puzzle, rules: Rules, style: Style, color: bool) -> anyhow::Result<Outcome> {
    let mut err = io::stderr().lock();
    let draw =
        |err: &mut io::StderrLock, map: &beast_engine::grid::Grid<beast::Cell>| -> io::Result<()> {
            for line in beast::render::board(map, style) {
                writeln!(err, "{}", paint::paint(&line, color))?;
            }
            writeln!(err)
        };
    writeln!(err, "turn 0: start")
        .and_then(|()| draw(&mut err, puzzle.map()))
        .context("cannot write the trace to standard error")?;
    // The rule events `beast check` names, read under our readings (`beast events`).
    let events = (rules == Rules::OURS)
        .then(|| beast::events::record_every(puzzle, || true).ok())
        .flatten();
    let mut failed = None;
    let outcome = beast::play_out_with(puzzle, rules, |game, step| {
        if failed.is_some() {
            return;
        }
        let marked = events
            .as_ref()
            .map(|e| e.marks(step.turn))
            .unwrap_or_default();
        let r = writeln!(err, "{}{marked}", beast::render::describe(step, game))
            .and_then(|_| draw(&mut err, game.map()));
        if let Err(e) = r {
            failed = Some(e);
        }
    })?;
    failed
        .map_or(Ok(()), Err)
        .and_then(|()| writeln!(err, "result: {}", outcome.ending.name()))
        .context("cannot write the trace to standard error")?;
    Ok(outcome)
}
