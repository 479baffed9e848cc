//! `beast [FILE]`: play one puzzle out and print the canonical answer, JSON, a trace or a replay page.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use beast_engine::beast::{self, Outcome, Puzzle, Rules, Style, variant};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, ValueEnum};

use super::paint;

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

/// The rule readings, shared by every command that plays beast puzzles: the four switches
/// (`--order`, `--bump`, `--target`, `--exhaust`) and `--variant NAME`, all made from the
/// engine's catalogue ([`variant`]), so a new reading needs no change here.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleArgs(Rules);

/// The `--variant` argument's id.
const VARIANT: &str = "variant";

impl RuleArgs {
    /// The engine's rules.
    pub fn rules(self) -> Rules {
        self.0
    }
}

impl clap::Args for RuleArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for s in variant::SWITCHES {
            cmd = cmd.arg(
                Arg::new(s.flag)
                    .long(s.flag)
                    .value_name("READING")
                    .help(s.help)
                    .value_parser(PossibleValuesParser::new([s.ours_value, s.other_value]))
                    .default_value(s.ours_value)
                    .help_heading("Rule readings"),
            );
        }
        cmd.arg(
            Arg::new(VARIANT)
                .long(VARIANT)
                .value_name("NAME")
                .help(
                    "Judge under a known misreading of the rules (repeatable;                      `beast variants` lists them)",
                )
                .action(ArgAction::Append)
                .value_parser(PossibleValuesParser::new(
                    variant::CATALOGUE.iter().map(|v| v.name),
                ))
                .hide_possible_values(true)
                .help_heading("Rule readings"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for RuleArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let unknown = |what: &str| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("unknown rule reading {what:?}\n"),
            )
        };
        Ok(RuleArgs(
            apply_matches(Rules::OURS, m, false).map_err(|what| unknown(&what))?,
        ))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// `base` with the readings of `m` made; with `explicit_only`, only those typed, not the
/// switches' defaults. The error is the unknown value.
fn apply_matches(base: Rules, m: &ArgMatches, explicit_only: bool) -> Result<Rules, String> {
    let mut rules = base;
    for s in variant::SWITCHES {
        let typed = m.value_source(s.flag) == Some(clap::parser::ValueSource::CommandLine);
        if explicit_only && !typed {
            continue;
        }
        if let Some(value) = m.get_one::<String>(s.flag) {
            rules = s.change(value).ok_or_else(|| value.clone())?.apply(rules);
        }
    }
    for name in m.get_many::<String>(VARIANT).into_iter().flatten() {
        rules = variant::find(name)
            .ok_or_else(|| name.clone())?
            .apply(rules);
    }
    Ok(rules)
}

/// `base` with the reading flags of `flags` (as `beast` takes them, such as
/// `--target after --variant ties-reversed`) made on top.
pub fn rules_with_flags(base: Rules, flags: &str) -> anyhow::Result<Rules> {
    let cmd = <RuleArgs as clap::Args>::augment_args(
        clap::Command::new("--compare").no_binary_name(true),
    );
    let m = cmd
        .try_get_matches_from(flags.split_whitespace())
        .map_err(|e| {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            anyhow::anyhow!("--compare {flags:?}: {first}")
        })?;
    apply_matches(base, &m, true).map_err(|what| anyhow::anyhow!("unknown rule reading {what:?}"))
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
pub fn run(args: Args) -> super::Ended {
    if args.file.is_none() && io::stdin().is_terminal() {
        return Err(super::error::usage(
            "give a puzzle file, or pipe one in: `beast puzzle.txt`, `beast < puzzle.txt`.\n\
             Try `beast --help` for the options and subcommands.",
        ));
    }
    let bytes = super::read_source(args.file.as_deref(), "")?;
    let puzzle = Puzzle::parse_owned(bytes)?;
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
        let page = super::replay::page_for(&puzzle, rules, args.compare.as_deref(), &title)?;
        let mut out = io::stdout().lock();
        out.write_all(page.as_bytes())
            .and_then(|()| out.flush())
            .context("cannot write the page to standard output")?;
        return Ok(());
    }
    let outcome = if args.trace {
        trace(&puzzle, rules, args.style.into())?
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
fn trace(puzzle: &Puzzle, rules: Rules, style: Style) -> anyhow::Result<Outcome> {
    let color = paint::use_color(&io::stderr());
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
