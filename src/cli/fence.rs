//! `beast fence`: play Fence Posts against the farmer from the command line. Your fences are
//! played in order, the farmer replies whenever the turn passes to it, and the field is
//! printed as text art (or JSON, or the list of unbuilt fences). `--play` opens the
//! interactive screen.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use beast_engine::fence::{FenceScreen, Field, Refusal, Side, Size, art, notation, render};

/// How long each of the farmer's fences stays on screen before the next in `--play`.
const FARMER_PACE: Duration = Duration::from_millis(700);

/// Arguments of `beast fence`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Fences are two neighbouring posts, like a1-b1 or a1-a2: column letters from a, rows from 1 at \
the top. Moves may be separated by spaces, commas or new lines; `#` starts a comment.

Exit codes: 0 ok, 1 a move was refused (the reason and the last good field are printed), \
2 bad usage.

Examples:
  beast fence --seed 7 a1-b1 b2-c2
  beast fence --seed 7 --size 3x2 --json a1-b1
  echo 'a1-b1, c3-c4' | beast fence --seed 7 -
  beast fence --seed 7 --list a1-b1")]
pub struct Args {
    /// The seed for the sheep and the farmer's tie-breaks; without it one is picked and
    /// printed, so the game can be replayed.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The field in pens, columns x rows, from 1x1 to 25x25.
    #[arg(long, value_name = "WxH", default_value = "4x4")]
    size: Size,
    /// Your fences in order, like a1-b1; `-` reads them from stdin.
    #[arg(value_name = "MOVES")]
    moves: Vec<String>,
    /// Read your fences from FILE (`-` for stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    moves_file: Option<PathBuf>,
    /// Print the state as JSON instead of text art.
    #[arg(long)]
    json: bool,
    /// Print the unbuilt fences, one per line, for scripts.
    #[arg(long, conflicts_with_all = ["json", "play"])]
    list: bool,
    /// Play on in the terminal from the position the moves reach.
    #[arg(long, conflicts_with = "json")]
    play: bool,
}

/// Runs `beast fence`; the screen is coloured as `color` allows.
pub fn run(args: Args, color: super::paint::ColorChoice) -> super::error::Ended {
    let seed = args.seed.unwrap_or_else(super::seed::fresh_seed);
    let moves = read_moves(&args)?;
    let (field, refused) = play_moves(Field::start(seed, args.size), &moves);

    // A refused move stops the run before any play: it is reported below with exit code 1.
    if args.play && refused.is_none() {
        let mut screen = FenceScreen::new(field);
        super::tui::play_paced(&mut screen, Some(FARMER_PACE), color.allowed())?;
        let f = screen.field();
        let yours: Vec<String> = screen
            .your_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut out = io::stdout().lock();
        writeln!(out, "{}", render::status_line(f))?;
        writeln!(
            out,
            "Replay: beast fence --seed {seed} --size {} {}",
            f.size(),
            yours.join(" ")
        )?;
        return Ok(());
    }

    let mut out = io::stdout().lock();
    if args.list {
        if args.seed.is_none() {
            eprintln!("seed {seed}");
        }
        for fence in field.fences() {
            writeln!(out, "{fence}")?;
        }
    } else if args.json {
        let report = render::Report::of(&field);
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        if args.seed.is_none() {
            writeln!(out, "Picked seed {seed}; replay with --seed {seed}.")?;
        }
        write_text(&mut out, &field)?;
    }
    out.flush()?;

    match refused {
        None => Ok(()),
        Some((n, refusal)) => {
            eprintln!("refused move {n} ({}): {refusal}", moves[n - 1].trim());
            Err(super::Error::Failed)
        }
    }
}

/// The move texts from the file, or the arguments with `-` standing for stdin.
fn read_moves(args: &Args) -> anyhow::Result<Vec<String>> {
    let mut moves = Vec::new();
    if let Some(path) = &args.moves_file {
        let text = super::source::read_source_text(Some(path), "moves file ")?;
        moves.extend(notation::split_moves(&text));
    }
    for arg in &args.moves {
        if arg == "-" {
            moves.extend(notation::split_moves(&super::source::read_source_text(
                None, "",
            )?));
        } else {
            moves.extend(notation::split_moves(arg));
        }
    }
    Ok(moves)
}

/// Plays your moves in order, the farmer replying whenever the turn passes to it. Stops at
/// the first refused move, returning the last good field and the move's number (from 1).
fn play_moves(mut field: Field, moves: &[String]) -> (Field, Option<(usize, Refusal)>) {
    for (i, text) in moves.iter().enumerate() {
        let mut played = field.apply_text(Side::You, text).map(drop);
        if played.is_ok() && field.to_move() == Some(Side::Farmer) {
            played = field.reply().map(drop);
        }
        if let Err(refusal) = played {
            return (field, Some((i + 1, refusal)));
        }
    }
    (field, None)
}

/// The header, the farmer's last reply, the art, the legend and the status or result line.
fn write_text(out: &mut impl Write, field: &Field) -> io::Result<()> {
    writeln!(out, "Fence Posts {}, seed {}", field.size(), field.seed())?;
    if let Some(replies) = render::farmer_replies(field) {
        writeln!(out, "{replies}")?;
    }
    for line in art::text(field) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", art::LEGEND)?;
    writeln!(out, "{}", render::status_line(field))
}
