//! `beast play`: play a beast map in the terminal, or watch its moves replayed.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use beast_engine::beast::Puzzle;
use beast_engine::beast::screen::BeastScreen;
use beast_engine::judge::generate::Recipe;

use super::answer::StyleArg;
use super::rule_flags::RuleArgs;

/// The map played when no file is given: the Wikipedia map of the source text.
const WIKIPEDIA: &str = include_str!("../../examples/beast/wikipedia.txt");

/// Arguments of `beast play`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Keys: arrows, hjkl or wasd move; . or space waits; u undoes; r restarts; q, Esc or Ctrl-C quits.
On exit the moves typed are printed as a move string, to judge with `beast`.")]
pub struct Args {
    /// A puzzle file (`-` for stdin is not possible: keys come from the terminal). Without
    /// one, the Wikipedia map of the source text.
    pub file: Option<PathBuf>,
    /// Play a generated map instead: the one `beast gen --seed S` prints.
    #[arg(long, value_name = "S", conflicts_with = "file")]
    pub seed: Option<u64>,
    /// Play the file's own moves back at a readable pace (they are ignored otherwise).
    #[arg(long)]
    pub replay: bool,
    /// Milliseconds between moves in --replay.
    #[arg(long, default_value_t = 400, value_name = "MS")]
    pub pace: u64,
    /// Glyphs: double-width like the 1984 original, or the puzzle's own characters.
    #[arg(long, value_enum, default_value_t = StyleArg::Unicode)]
    pub style: StyleArg,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Runs `beast play`; the screen is coloured as `color` allows.
pub fn run(args: Args, color: super::paint::ColorChoice) -> super::error::Ended {
    let puzzle = match (&args.file, args.seed) {
        (Some(path), _) => Puzzle::parse_bytes(&super::source::read_source(Some(path), "")?)?,
        // The map `beast gen --seed SEED` prints.
        (None, Some(seed)) => Recipe::default().make(seed)?.puzzle,
        (None, None) => Puzzle::parse(WIKIPEDIA)?,
    };
    let mut screen = BeastScreen::new(puzzle, args.rules.rules(), args.style.into());
    let pace = if args.replay {
        screen = screen.replaying();
        Some(Duration::from_millis(args.pace.max(1)))
    } else {
        None
    };
    super::tui::play_paced(&mut screen, pace, color.allowed())?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", screen.moves())?;
    Ok(())
}
