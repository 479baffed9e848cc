//! `beast [FILE]`: judge one puzzle and print the canonical answer, JSON, or a trace.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use beast_judge::beast::{self, Bump, Exhaust, Order, Outcome, Puzzle, Rules, Style, Target};
use clap::ValueEnum;

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
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The rule switches, shared by every command that plays beast puzzles.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct RuleArgs {
    /// Beast order: `initial` ranks once by start position; `turn` re-ranks every beast turn.
    #[arg(long, value_enum, default_value_t = OrderArg::Initial, help_heading = "Rule readings")]
    pub order: OrderArg,
    /// Walking into a beast: `death` kills the player; `blocked` treats the beast as a wall.
    #[arg(long, value_enum, default_value_t = BumpArg::Death, help_heading = "Rule readings")]
    pub bump: BumpArg,
    /// Beasts aim at the player's cell at the `start` of the turn, or `after` his move.
    #[arg(long, value_enum, default_value_t = TargetArg::Start, help_heading = "Rule readings")]
    pub target: TargetArg,
    /// Moves run out: `wait` until eaten or stalemate; `stop` and print the score.
    #[arg(long, value_enum, default_value_t = ExhaustArg::Wait, help_heading = "Rule readings")]
    pub exhaust: ExhaustArg,
}

impl RuleArgs {
    /// The engine's rules.
    pub fn rules(self) -> Rules {
        Rules {
            order: match self.order {
                OrderArg::Initial => Order::Initial,
                OrderArg::Turn => Order::Turn,
            },
            bump: match self.bump {
                BumpArg::Death => Bump::Death,
                BumpArg::Blocked => Bump::Blocked,
            },
            target: match self.target {
                TargetArg::Start => Target::Start,
                TargetArg::After => Target::After,
            },
            exhaust: match self.exhaust {
                ExhaustArg::Wait => Exhaust::Wait,
                ExhaustArg::Stop => Exhaust::Stop,
            },
        }
    }
}

/// `--order`.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum OrderArg {
    /// Ranked once by position at game start (top to bottom, left to right).
    #[default]
    Initial,
    /// Re-ranked by current position at every beast turn.
    Turn,
}

/// `--bump`.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum BumpArg {
    /// The player dies.
    #[default]
    Death,
    /// The beast acts as a wall.
    Blocked,
}

/// `--target`.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum TargetArg {
    /// The player's cell before his move this turn.
    #[default]
    Start,
    /// The player's cell after his move.
    After,
}

/// `--exhaust`.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum ExhaustArg {
    /// Keep waiting until eaten or the beasts repeat a position (stalemate).
    #[default]
    Wait,
    /// Stop and print the score.
    Stop,
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
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.file.is_none() && io::stdin().is_terminal() {
        eprintln!(
            "beast: give a puzzle file, or pipe one in: `beast puzzle.txt`, `beast < puzzle.txt`.\n\
             Try `beast --help` for the options and subcommands."
        );
        return Ok(ExitCode::from(2));
    }
    let bytes = super::read_source(args.file.as_deref(), "")?;
    let puzzle = Puzzle::parse_bytes(&bytes)?;
    drop(bytes);
    let rules = args.rules.rules();
    let outcome = if args.trace {
        trace(&puzzle, rules, args.style.into())?
    } else {
        beast::judge(&puzzle, rules)?
    };
    let text = if args.json {
        format!("{}\n", outcome_json(&outcome))
    } else {
        outcome.answer()
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the answer to standard output")?;
    Ok(ExitCode::SUCCESS)
}

/// The `--json` object of an outcome.
pub fn outcome_json(o: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "outcome": o.ending.name(),
        "score": o.score,
        "turns": o.turns,
        "moves_used": o.moves_used,
        "beasts_left": o.beasts_left,
        "crushed": o.crushed.iter().map(|c| serde_json::json!({
            "turn": c.turn, "row": c.at.row, "col": c.at.col,
        })).collect::<Vec<_>>(),
    })
}

/// Judges with the board drawn to stderr after every turn.
fn trace(puzzle: &Puzzle, rules: Rules, style: Style) -> anyhow::Result<Outcome> {
    let color = paint::use_color(&io::stderr());
    let mut err = io::stderr().lock();
    let draw =
        |err: &mut io::StderrLock, map: &beast_judge::grid::Grid<beast::Cell>| -> io::Result<()> {
            for line in beast::render::board(map, style) {
                writeln!(err, "{}", paint::paint(&line, color))?;
            }
            writeln!(err)
        };
    writeln!(err, "turn 0: start")
        .and_then(|()| draw(&mut err, puzzle.map()))
        .context("cannot write the trace to standard error")?;
    let mut failed = None;
    let outcome = beast::judge_with(puzzle, rules, |game, step| {
        if failed.is_some() {
            return;
        }
        let r = writeln!(err, "{}", beast::render::describe(step, game))
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
