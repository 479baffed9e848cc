//! Reading what a command is given: all of a file, or of standard input (`-` or no path).

use std::io::Read;
use std::path::Path;

use anyhow::Context;

use super::platform;

/// All of `path`, or of standard input for `None` and `-`; `what` names the file in errors
/// (`cannot read moves file FILE`).
pub fn read_source(path: Option<&Path>, what: &str) -> anyhow::Result<Vec<u8>> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read(p).with_context(|| format!("cannot read {what}{}", p.display()))
        }
        _ => {
            // Read through a `File` of the same descriptor: when standard input is a
            // redirected file its length sizes the buffer at once, with no regrowing.
            let mut stdin = std::io::stdin().lock();
            let mut bytes = Vec::new();
            // `fs::read` wants a path; this is a descriptor.
            #[allow(clippy::verbose_file_reads)]
            let read = match platform::stdin_file(&stdin) {
                Ok(mut file) => file.read_to_end(&mut bytes),
                Err(_) => stdin.read_to_end(&mut bytes),
            };
            read.context("cannot read standard input")?;
            Ok(bytes)
        }
    }
}

/// The puzzle of `path` (standard input for `None` and `-`), read and parsed: an empty
/// one is named and said to be empty, and a file's parse error names the file
/// (`puzzle.txt: line 3, column 4: ...`).
pub fn read_puzzle(path: Option<&Path>) -> anyhow::Result<beast_engine::beast::Puzzle> {
    let bytes = read_source(path, "")?;
    let named = path.filter(|p| p.as_os_str() != "-");
    let from = named.map_or("standard input".to_string(), |p| p.display().to_string());
    if bytes.iter().all(u8::is_ascii_whitespace) {
        anyhow::bail!(
            "{from} is empty: a puzzle starts with its size line, COLS ROWS (see `beast --help`)"
        );
    }
    let parsed = beast_engine::beast::Puzzle::parse_owned(bytes);
    match named {
        Some(_) => parsed.with_context(|| from.clone()),
        None => Ok(parsed?),
    }
}

/// [`read_source`] as UTF-8 text.
pub fn read_source_text(path: Option<&Path>, what: &str) -> anyhow::Result<String> {
    let bytes = read_source(path, what)?;
    let from = path.map_or("standard input".to_string(), |p| p.display().to_string());
    String::from_utf8(bytes).with_context(|| format!("{from} is not UTF-8 text"))
}
