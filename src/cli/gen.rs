//! `beast gen`: print one seeded puzzle in the exact input format.

use std::io::{self, Write};

use anyhow::Context;
use beast_engine::grid::Dimensions;
use beast_engine::judge::generate::{self, GenOptions};

/// The generation options, shared by `beast gen` and `beast check --random`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct GenArgs {
    /// Map size with the border, columns first.
    #[arg(
        long,
        value_name = "COLSxROWS",
        default_value = "16x10",
        help_heading = "Generation"
    )]
    pub size: Dimensions,
    /// Number of beasts.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        help_heading = "Generation"
    )]
    pub beasts: usize,
    /// Percentage of interior cells that are movable walls (a tenth of that again are solid).
    #[arg(long, value_name = "PCT", default_value_t = 25,
          value_parser = clap::value_parser!(u8).range(0..=100), help_heading = "Generation")]
    pub walls: u8,
    /// Number of moves.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 30,
        help_heading = "Generation"
    )]
    pub moves: usize,
}

impl GenArgs {
    /// The library's options, validated.
    pub fn options(&self) -> anyhow::Result<GenOptions> {
        let opts = GenOptions {
            cols: self.size.cols,
            rows: self.size.rows,
            beasts: self.beasts,
            walls_pct: self.walls,
            moves: self.moves,
        };
        opts.validate()?;
        Ok(opts)
    }

    /// The `beast gen` flags that differ from the defaults, for reproduction hints.
    pub fn flags(&self) -> String {
        let d = GenOptions::default();
        let mut s = String::new();
        if (self.size.cols, self.size.rows) != (d.cols, d.rows) {
            s += &format!(" --size {}x{}", self.size.cols, self.size.rows);
        }
        if self.beasts != d.beasts {
            s += &format!(" --beasts {}", self.beasts);
        }
        if self.walls != d.walls_pct {
            s += &format!(" --walls {}", self.walls);
        }
        if self.moves != d.moves {
            s += &format!(" --moves {}", self.moves);
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
pub fn run(args: Args) -> super::Ended {
    let opts = args.gen_args.options()?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = super::fresh_seed();
            eprintln!("beast gen --seed {seed}{}", args.gen_args.flags());
            seed
        }
    };
    let puzzle = generate::generate(seed, &opts)?;
    let mut out = io::stdout().lock();
    write!(out, "{puzzle}")
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
        assert_eq!(w.gen_args.options().ok(), Some(GenOptions::default()));
        assert_eq!(w.gen_args.flags(), "");
        let w = Wrap::parse_from(["x", "--size", "9x7", "--moves", "4"]);
        assert_eq!(w.gen_args.flags(), " --size 9x7 --moves 4");
    }
}
