//! `beast score FILE...`: the golf count of answers' sources, as Code Golf posts count it,
//! without running anything. The count and its words are the engine's (`judge::post`);
//! this file reads the files.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context;
use beast_engine::judge::post;

/// Arguments of `beast score`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Counted as Code Golf posts count: without a first line that starts with #! (name its \
interpreter flags in the post's header instead, as `beast check --post` does) and one final \
newline; the line says what was left out (the `#!` line's flags by name), and the unseen bytes \
it counted: carriage returns (CRLF line ends) and a byte order mark. Characters are UTF-8 characters; the Latin-1 bytes \
are shown where ISO 8859-1 encodes every character and saves bytes.

Example:
  beast score answer.py answer.pl")]
pub struct Args {
    /// The source files; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Count every byte, the `#!` line and the final newline too.
    #[arg(long)]
    pub count_all: bool,
}

/// Runs `beast score`: one line a file, or an error naming the first file that does not
/// read (before anything is printed).
pub fn run(args: Args) -> super::error::Ended {
    let mut lines = String::new();
    for file in &args.files {
        let bytes = super::source::read_source(Some(file), "")?;
        let name = match file.as_os_str() == "-" {
            true => "standard input".to_string(),
            false => beast_engine::judge::report::visible(&file.display().to_string()),
        };
        let count = post::count(&bytes, args.count_all);
        lines += &format!("{}\n", post::score_line(&name, &count));
    }
    let mut out = io::stdout().lock();
    out.write_all(lines.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the score to standard output")?;
    Ok(())
}
