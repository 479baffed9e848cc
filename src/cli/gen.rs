//! `beast gen`: print one seeded puzzle in the exact input format.

use std::io::{self, Write};

use anyhow::Context;
use beast_engine::grid::Dimensions;
use beast_engine::judge::generate::{Recipe, Version};

/// The generation options, shared by `beast gen` and `beast check --random`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct GenArgs {
    /// The generator version. 2 (the default) draws the size (3x3 to 64x32), the beasts,
    /// the walls and the moves from the seed unless fixed below, and writes some puzzles
    /// with CRLF line ends or the moves split over lines; 1 makes every puzzle
    /// 16x10 with 3 beasts, 25% walls and 30 moves (unless fixed), LF, the moves on one
    /// line. The same seed gives different puzzles under each.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        value_parser = clap::value_parser!(u8).range(1..=2),
        help_heading = "Generation"
    )]
    pub generator: u8,
    /// Map size with the border, columns first [default: drawn; 16x10 under generator 1].
    #[arg(long, value_name = "COLSxROWS", help_heading = "Generation")]
    pub size: Option<Dimensions>,
    /// Number of beasts [default: drawn; 3 under generator 1].
    #[arg(long, value_name = "N", help_heading = "Generation")]
    pub beasts: Option<usize>,
    /// Percentage of interior cells that are movable walls (a tenth of that again are
    /// solid) [default: drawn; 25 under generator 1].
    #[arg(long, value_name = "PCT",
          value_parser = clap::value_parser!(u8).range(0..=100), help_heading = "Generation")]
    pub walls: Option<u8>,
    /// Number of moves [default: drawn; 30 under generator 1].
    #[arg(long, value_name = "N", help_heading = "Generation")]
    pub moves: Option<usize>,
}

impl GenArgs {
    /// The library's recipe, validated.
    pub fn options(&self) -> anyhow::Result<Recipe> {
        let recipe = Recipe {
            version: match self.generator {
                1 => Version::V1,
                _ => Version::V2,
            },
            size: self.size.map(|d| (d.cols, d.rows)),
            beasts: self.beasts,
            walls_pct: self.walls,
            moves: self.moves,
        };
        recipe.validate()?;
        Ok(recipe)
    }

    /// The `beast gen` flags that differ from the defaults, for reproduction hints.
    pub fn flags(&self) -> String {
        let mut s = String::new();
        if self.generator != 2 {
            s += &format!(" --generator {}", self.generator);
        }
        if let Some(size) = self.size {
            s += &format!(" --size {}x{}", size.cols, size.rows);
        }
        if let Some(b) = self.beasts {
            s += &format!(" --beasts {b}");
        }
        if let Some(w) = self.walls {
            s += &format!(" --walls {w}");
        }
        if let Some(m) = self.moves {
            s += &format!(" --moves {m}");
        }
        s
    }
}

/// Arguments of `beast gen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The seed of the ChaCha8 stream; the same seed always gives the same puzzle. Without
    /// it one is picked from the clock and printed on stderr.
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub gen_args: GenArgs,
}

/// Runs `beast gen`.
pub fn run(args: Args) -> super::error::Ended {
    let opts = args.gen_args.options()?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = super::seed::fresh_seed();
            eprintln!("beast gen --seed {seed}{}", args.gen_args.flags());
            seed
        }
    };
    let made = opts.make(seed)?;
    let mut out = io::stdout().lock();
    write!(out, "{}", made.text)
        .and_then(|()| out.flush())
        .context("cannot write the puzzle to standard output")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        gen_args: GenArgs,
    }

    #[test]
    fn flag_defaults_are_the_library_defaults() {
        let w = Wrap::parse_from(["x"]);
        assert_eq!(w.gen_args.options().ok(), Some(Recipe::default()));
        assert_eq!(w.gen_args.flags(), "");
        let w = Wrap::parse_from(["x", "--size", "9x7", "--moves", "4"]);
        assert_eq!(w.gen_args.flags(), " --size 9x7 --moves 4");
        let w = Wrap::parse_from(["x", "--generator", "1"]);
        assert_eq!(w.gen_args.flags(), " --generator 1");
    }
}
