//! `beast ring`: play Ring Collector moves from arguments, a file or stdin, print the board
//! and status (or JSON, or a trace), write the HTML page, or play in the terminal.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use beast_engine::grid::Dir;
use beast_engine::ring::screen::RingScreen;
use beast_engine::ring::{Collector, Message, PAGE_HTML, Scenario, parse_moves, render};

/// Arguments of `beast ring`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Exit status: 0 when the moves were played, rejected (wall) and refused (game over) ones \
included: a turned-down move is reported on stderr and the run goes on. 2 on bad input or usage.

Examples:
  beast ring RRRRDDLLLLU                   win the original game
  beast ring --scenario final-item R       a staged collision on the last dot
  beast ring --json R R D                  final state as JSON
  echo RRD | beast ring --trace -          moves from stdin, status after each
  beast ring --html > ring.html            the playable page")]
pub struct Args {
    /// Start from a staged scenario instead of the original game.
    #[arg(long, value_name = "NAME")]
    scenario: Option<ScenarioArg>,

    /// Moves, letters U D L R: `RRDL` or `R R D L`; a lone `-` reads them from stdin.
    #[arg(value_name = "MOVES")]
    moves: Vec<String>,

    /// Read the moves from FILE (`-` for stdin); whitespace and newlines are ignored.
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    moves_file: Option<PathBuf>,

    /// Print the final state as one JSON object instead of the board.
    #[arg(long, conflicts_with = "trace")]
    json: bool,

    /// Print the status line after every move.
    #[arg(long)]
    trace: bool,

    /// Write the self-contained playable HTML page to stdout and do nothing else.
    #[arg(long, conflicts_with_all = ["scenario", "moves", "moves_file", "json", "trace", "play"])]
    html: bool,

    /// Play in the terminal (after applying any MOVES): arrows move, 1 2 3 staged scenarios,
    /// r reset, q quit.
    #[arg(long, conflicts_with_all = ["json", "trace"])]
    play: bool,
}

/// A `--scenario` value. The names come from the engine's [`Scenario`], so a new scenario
/// needs no change here.
#[derive(Clone, Copy, Debug)]
struct ScenarioArg(Scenario);

impl clap::ValueEnum for ScenarioArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [ScenarioArg; Scenario::ALL.len()] = {
            let mut all = [ScenarioArg(Scenario::ALL[0]); Scenario::ALL.len()];
            let mut i = 1;
            while i < all.len() {
                all[i] = ScenarioArg(Scenario::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()))
    }
}

/// Runs `beast ring`; the screen is coloured as `color` allows.
pub fn run(args: Args, color: super::paint::ColorChoice) -> super::error::Ended {
    let mut out = io::stdout().lock();
    if args.html {
        out.write_all(PAGE_HTML.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let moves = read_moves(&args)?;
    let mut game = match &args.scenario {
        Some(ScenarioArg(scenario)) => Collector::scenario(*scenario),
        None => Collector::new(),
    };
    let mut last = Message::start(&game);
    for (n, &dir) in moves.iter().enumerate() {
        let result = game.apply(dir);
        if let Err(refusal) = result {
            eprintln!("move {} ({}): {refusal}", n + 1, dir.letter());
        }
        last = Message::after(result);
        if args.trace {
            let status = render::status_line(&game, &last);
            writeln!(out, "{:>3} {}: {status}", n + 1, dir.letter())?;
        }
    }
    if args.play {
        drop(out);
        let mut screen = RingScreen::with_game(game, last);
        super::tui::play(&mut screen, color.allowed())?;
        return Ok(());
    }
    if args.json {
        serde_json::to_writer(&mut out, &render::Report::of(&game, &last))?;
        writeln!(out)?;
    } else {
        if let Some(s) = game.staged() {
            writeln!(out, "STAGED scenario: {s}")?;
        }
        for row in render::board_rows(&game) {
            writeln!(out, "{row}")?;
        }
        writeln!(out, "{}", render::status_line(&game, &last))?;
    }
    out.flush()?;
    // Rejected and refused moves are part of a walkthrough, not a failure of the run.
    Ok(())
}

/// The moves from the arguments, `--moves-file` or stdin, with errors that say where.
fn read_moves(args: &Args) -> anyhow::Result<Vec<Dir>> {
    if let Some(path) = &args.moves_file {
        return if path.as_os_str() == "-" {
            from_stdin()
        } else {
            let text = super::source::read_source_text(Some(path), "moves file ")?;
            parse_moves(&text).with_context(|| format!("moves file {}", path.display()))
        };
    }
    if args.moves.iter().any(|m| m == "-") {
        if args.moves.len() > 1 {
            bail!("`-` (moves from stdin) must be the only MOVES argument");
        }
        return from_stdin();
    }
    let mut moves = Vec::new();
    for (i, arg) in args.moves.iter().enumerate() {
        let parsed = parse_moves(arg).map_err(|e| {
            let at = if e.line > 1 {
                format!("line {}, column {}", e.line, e.col)
            } else {
                format!("column {}", e.col)
            };
            anyhow::anyhow!(
                "MOVES argument {} ({arg:?}), {at}: {:?} is not a move ({})",
                i + 1,
                e.found,
                e.why()
            )
        })?;
        moves.extend(parsed);
    }
    Ok(moves)
}

fn from_stdin() -> anyhow::Result<Vec<Dir>> {
    parse_moves(&super::source::read_source_text(None, "")?).context("moves from stdin")
}
