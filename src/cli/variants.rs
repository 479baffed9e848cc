//! `beast variants`: the catalogue of known readings, one a line.

use std::io::{self, Write};

use beast_engine::beast::variant::CATALOGUE;

/// Arguments of `beast variants`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object a reading: name, flags, words.
    #[arg(long)]
    pub json: bool,
}

/// Prints the catalogue.
pub fn run(args: Args) -> super::error::Ended {
    let mut out = io::stdout().lock();
    if args.json {
        for v in CATALOGUE {
            let line = serde_json::json!({"name": v.name, "flags": v.flags(), "words": v.words});
            writeln!(out, "{line}")?;
        }
    } else {
        let width = CATALOGUE.iter().map(|v| v.flags().len()).max().unwrap_or(0);
        for v in CATALOGUE {
            writeln!(out, "{:<width$}  {}", v.flags(), v.words)?;
        }
    }
    out.flush()?;
    Ok(())
}
