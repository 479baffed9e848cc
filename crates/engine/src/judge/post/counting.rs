//! The golf count (`beast score`, the score line): the bytes Code Golf posts count, without
//! the `#!` line and one final newline, what was left out, in words, and the count in
//! another encoding.

use serde::{Deserialize, Serialize};

use crate::words;

/// What the golf count left out of a file: Code Golf posts count neither the `#!` line
/// (its interpreter flags go in the header instead) nor the final newline an editor adds.
/// And what it counted that an editor does not show: carriage returns (CRLF line ends)
/// and a byte order mark, which a golfer would rather know of.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// The first line, a `#!` line, with its line end.
    pub shebang: bool,
    /// The interpreter flags of that `#!` line (`-n` of `#!perl -n`), which a post names
    /// in its header.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// One final newline (`\n`, or `\r\n`).
    pub final_newline: bool,
    /// The carriage returns counted (`\r` bytes of the counted part).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carriage_returns: usize,
    /// A UTF-8 byte order mark counted at the start (3 bytes).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bom: bool,
}

/// For serde: a count of nothing is left out of the record.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl LeftOut {
    /// `not counted: the #! line with its flag -n (a post names it in its header), the
    /// final newline; 3 carriage returns counted; a BOM counted`, or `None` when every
    /// byte counted and none of them is unseen.
    pub fn words(&self) -> Option<String> {
        let shebang = match self.flags.is_empty() {
            true => "the #! line".to_string(),
            false => format!(
                "the #! line with its {} {} (a post names {} in its header)",
                if self.flags.len() == 1 {
                    "flag"
                } else {
                    "flags"
                },
                self.flags.join(" "),
                if self.flags.len() == 1 { "it" } else { "them" },
            ),
        };
        let left: Vec<String> = [
            (self.shebang, shebang),
            (self.final_newline, "the final newline".to_string()),
        ]
        .into_iter()
        .filter_map(|(left, name)| left.then_some(name))
        .collect();
        let mut parts = Vec::new();
        if !left.is_empty() {
            parts.push(format!("not counted: {}", left.join(", ")));
        }
        if self.carriage_returns > 0 {
            parts.push(format!(
                "{} counted",
                words::count(self.carriage_returns as u64, "carriage return")
            ));
        }
        if self.bom {
            parts.push("a BOM counted".to_string());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The part of `code` the golf count counts, and what it left out: the first line when it
/// starts with `#!`, then one final newline. With `all`, every byte. Either way, the
/// carriage returns and a byte order mark of the counted part are noted.
pub fn golfed(code: &[u8], all: bool) -> (&[u8], LeftOut) {
    let mut left = LeftOut::default();
    let mut rest = code;
    if !all {
        if rest.starts_with(b"#!") {
            left.shebang = true;
            left.flags = shebang(rest).map(|s| s.flags).unwrap_or_default();
            rest = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(&[][..], |end| &rest[end + 1..]);
        }
        if let Some(body) = rest.strip_suffix(b"\n") {
            left.final_newline = true;
            rest = body.strip_suffix(b"\r").unwrap_or(body);
        }
    }
    left.carriage_returns = rest.iter().filter(|&&b| b == b'\r').count();
    left.bom = rest.starts_with(BOM);
    (rest, left)
}

/// The golf count of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The counted bytes, as the file holds them.
    pub bytes: usize,
    /// The counted characters (UTF-8; a byte that is not UTF-8 counts as one).
    pub chars: usize,
    /// The counted bytes in ISO 8859-1, where it encodes every character (and the file
    /// is not Latin-1 already, with as many bytes).
    pub latin1: Option<usize>,
    /// What the count left out.
    pub left_out: LeftOut,
}

/// The golf count of `code`: see [`golfed`].
pub fn count(code: &[u8], all: bool) -> Count {
    let (part, left_out) = golfed(code, all);
    let chars = String::from_utf8_lossy(part).chars().count();
    let latin1 = match measure(part, Encoding::Latin1) {
        Ok((_, n)) if n != part.len() => Some(n),
        _ => None,
    };
    Count {
        bytes: part.len(),
        chars,
        latin1,
        left_out,
    }
}

/// The line `beast score` prints for `file`: `a.py: 91 bytes, 89 chars (89 bytes in
/// Latin-1); not counted: the #! line, the final newline`.
pub fn score_line(file: &str, count: &Count) -> String {
    let mut s = format!(
        "{file}: {}, {}",
        words::count(count.bytes as u64, "byte"),
        words::count(count.chars as u64, "char")
    );
    if let Some(n) = count.latin1 {
        s += &format!(" ({} in Latin-1)", words::count(n as u64, "byte"));
    }
    if let Some(left) = count.left_out.words() {
        s += &format!("; {left}");
    }
    s
}

/// A script's `#!` line, read: the interpreter it names and the flags it passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shebang {
    /// The interpreter: `python3` of `#!/usr/bin/env python3`, `/usr/bin/perl` of
    /// `#!/usr/bin/perl -n`.
    pub program: String,
    /// The words after it: `-n` of `#!/usr/bin/perl -n`.
    pub flags: Vec<String>,
}

/// The `#!` line of `code`, if its first line is one that names a program. Through
/// `env`, its options (`-S`) and variable settings (`NAME=value`) are passed over.
pub fn shebang(code: &[u8]) -> Option<Shebang> {
    let line = code.strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace().peekable();
    let first = words.next()?;
    let program = match first == "env" || first.ends_with("/env") {
        true => loop {
            let word = words.next()?;
            if !(word.starts_with('-') || word.contains('=')) {
                break word;
            }
        },
        false => first,
    };
    Some(Shebang {
        program: program.to_string(),
        flags: words.map(str::to_string).collect(),
    })
}

/// How the code's bytes are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, the file as it is: every byte counts.
    Utf8,
    /// ISO 8859-1: one byte a character, for code whose every character is U+0000 to
    /// U+00FF. A file that is not UTF-8 is read as Latin-1 bytes already.
    Latin1,
}

/// Why the code cannot be posted as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PostError {
    /// Under UTF-8 the file is not UTF-8 text.
    #[error(
        "the code is not UTF-8 text (byte {offset} is not): add --encoding latin-1 to post \
         it one byte a character"
    )]
    NotUtf8 {
        /// The offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// Under Latin-1 a character has no Latin-1 byte.
    #[error(
        "{line}:{column}: {ch:?} (U+{code:04X}) has no Latin-1 byte: post it as UTF-8 \
         (leave out --encoding)",
        code = u32::from(*ch)
    )]
    NotLatin1 {
        /// The character.
        ch: char,
        /// Its line, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
    },
}

/// The code as text, and its length in bytes under `encoding`.
pub fn measure(code: &[u8], encoding: Encoding) -> Result<(String, usize), PostError> {
    match (std::str::from_utf8(code), encoding) {
        (Ok(text), Encoding::Utf8) => Ok((text.to_string(), code.len())),
        (Err(e), Encoding::Utf8) => Err(PostError::NotUtf8 {
            offset: e.valid_up_to(),
        }),
        (Ok(text), Encoding::Latin1) => {
            for (l, line) in text.split('\n').enumerate() {
                if let Some((c, ch)) = line
                    .chars()
                    .enumerate()
                    .find(|(_, ch)| u32::from(*ch) > 0xFF)
                {
                    return Err(PostError::NotLatin1 {
                        ch,
                        line: l + 1,
                        column: c + 1,
                    });
                }
            }
            Ok((text.to_string(), text.chars().count()))
        }
        (Err(_), Encoding::Latin1) => {
            Ok((code.iter().map(|&b| char::from(b)).collect(), code.len()))
        }
    }
}
