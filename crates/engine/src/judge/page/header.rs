//! An answer's header read as the community's leaderboard snippet reads it: the language
//! is the text before the first comma (a link's text when it is a link), the size is the
//! last number after that comma that is not struck out (`<s>`, `<strike>`, `<del>`), and
//! the word after it tells bytes from characters. A header the snippet cannot read (no
//! heading, no comma, no number) is said so, with what was guessed.

use super::html::Segment;

/// What the size of a header counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// "bytes" is written.
    Bytes,
    /// "chars" or "characters" is written.
    Chars,
    /// Neither: read as bytes.
    Unsaid,
}

/// An answer's header, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The whole heading's text, as shown.
    pub text: String,
    /// The language's name, flags left out (`Perl 5` of `Perl 5 -p`).
    pub language: String,
    /// Flags written with the language (`-p`).
    pub flags: Vec<String>,
    /// The size claimed.
    pub claimed: Option<usize>,
    /// What the size counts.
    pub unit: Unit,
    /// Why the snippet cannot read this header (and so what was guessed), if it cannot.
    pub unreadable: Option<String>,
}

/// Reads a heading's segments; `None` (no heading) gives an unreadable header with
/// nothing guessed.
pub fn read(heading: Option<&[Segment]>) -> Header {
    let Some(segments) = heading else {
        return Header {
            text: String::new(),
            language: String::new(),
            flags: Vec::new(),
            claimed: None,
            unit: Unit::Unsaid,
            unreadable: Some("no heading: the snippet reads the first <h1>..<h6>".into()),
        };
    };
    let text: String = segments.iter().map(|s| s.text.as_str()).collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Offsets into the joined text, each char's segment struck or not.
    let joined: String = segments.iter().map(|s| s.text.as_str()).collect();
    let struck: Vec<bool> = segments
        .iter()
        .flat_map(|s| s.text.chars().map(move |_| s.struck))
        .collect();
    let chars: Vec<char> = joined.chars().collect();
    let comma = chars.iter().position(|&c| c == ',');
    let from = comma.map_or(0, |c| c + 1);
    let number = last_number(&chars, &struck, from);
    let (language_text, unreadable) = match (comma, number) {
        (Some(c), Some(_)) => (language_before(segments, c), None),
        (Some(c), None) => (
            language_before(segments, c),
            Some("no size after the first comma".to_string()),
        ),
        (None, Some((start, _))) => (
            chars[..start].iter().collect::<String>(),
            Some("no comma after the language".to_string()),
        ),
        (None, None) => (joined.clone(), Some("no comma and no size".to_string())),
    };
    let (language, flags) = split_flags(&language_text);
    let unit = number.map_or(Unit::Unsaid, |(_, end)| unit_after(&chars[end..]));
    let claimed = number.and_then(|(s, e)| chars[s..e].iter().collect::<String>().parse().ok());
    let unreadable = unreadable.map(|why| {
        format!(
            "{why}; guessed language {:?}{}",
            language,
            claimed.map_or(String::new(), |n| format!(" and size {n}"))
        )
    });
    Header {
        text,
        language,
        flags,
        claimed,
        unit,
        unreadable,
    }
}

/// The text before char `comma`, or the first link's text when the language part holds
/// a link (the snippet takes a link's text).
fn language_before(segments: &[Segment], comma: usize) -> String {
    let mut seen = 0;
    let mut before = String::new();
    for s in segments {
        let n = s.text.chars().count();
        let take: String = s.text.chars().take(comma.saturating_sub(seen)).collect();
        if s.link && !take.trim().is_empty() {
            let after: String = segments
                .iter()
                .skip_while(|x| !std::ptr::eq(*x, s))
                .skip(1)
                .map(|x| x.text.as_str())
                .collect::<String>()
                .chars()
                .take(comma.saturating_sub(seen + n))
                .collect();
            // The link's text, then any flags written after it.
            return format!("{take} {after}");
        }
        before.push_str(&take);
        seen += n;
        if seen >= comma {
            break;
        }
    }
    before
}

/// The last run of digits in `chars[from..]` not struck out: its start and end.
fn last_number(chars: &[char], struck: &[bool], from: usize) -> Option<(usize, usize)> {
    let mut found = None;
    let mut i = from;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if !struck[start] {
                found = Some((start, i));
            }
        } else {
            i += 1;
        }
    }
    found
}

/// The unit the words after the size name.
fn unit_after(rest: &[char]) -> Unit {
    let word: String = rest
        .iter()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    if word.starts_with("byte") {
        Unit::Bytes
    } else if word.starts_with("char") {
        Unit::Chars
    } else {
        Unit::Unsaid
    }
}

/// The language's name and the flags written with it: words that start with `-` (a `+`
/// before them dropped), backticks removed.
fn split_flags(text: &str) -> (String, Vec<String>) {
    let cleaned = text.replace('`', " ");
    let mut name = Vec::new();
    let mut flags = Vec::new();
    for word in cleaned.split_whitespace() {
        if word.len() > 1 && word.starts_with('-') {
            flags.push(word.to_string());
        } else if word != "+" {
            name.push(word);
        }
    }
    let name = name
        .join(" ")
        .trim_end_matches([':', '-', '–', '—'])
        .trim()
        .to_string();
    (name, flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::page::html::{first_heading, tokens};

    fn header(html: &str) -> Header {
        read(first_heading(&tokens(html)).as_deref())
    }

    #[test]
    fn the_language_is_before_the_first_comma_and_the_size_is_the_last_number() {
        let h = header("<h1>Python 3, 212 bytes</h1>");
        assert_eq!(
            (h.language.as_str(), h.claimed, h.unit),
            ("Python 3", Some(212), Unit::Bytes)
        );
        assert!(h.unreadable.is_none());
        let h =
            header("<h2><a href=\"https://nodejs.org\">JavaScript (Node.js)</a>, 300 chars</h2>");
        assert_eq!(
            (h.language.as_str(), h.claimed, h.unit),
            ("JavaScript (Node.js)", Some(300), Unit::Chars)
        );
    }

    #[test]
    fn a_struck_out_size_is_not_the_size() {
        let h = header("<h1>Ruby, <s>250</s> <s>231</s> 229 bytes</h1>");
        assert_eq!(h.claimed, Some(229));
        let h = header("<h1>Ruby, 229 bytes <del>250</del></h1>");
        assert_eq!(h.claimed, Some(229));
    }

    #[test]
    fn flags_are_read_from_the_language() {
        let h = header("<h1>Perl 5 <code>-0p</code>, 140 bytes</h1>");
        assert_eq!(
            (h.language.as_str(), h.flags.as_slice()),
            ("Perl 5", ["-0p".to_string()].as_slice())
        );
    }

    #[test]
    fn a_header_the_snippet_cannot_read_says_so_with_the_guess() {
        let h = header("<h1>Lua 150 bytes</h1>");
        assert_eq!((h.language.as_str(), h.claimed), ("Lua", Some(150)));
        let why = h.unreadable.expect("unreadable");
        assert!(
            why.contains("no comma") && why.contains("\"Lua\"") && why.contains("150"),
            "{why}"
        );
        assert!(read(None).unreadable.is_some());
    }
}
