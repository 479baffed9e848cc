//! A challenge's answer page judged end to end (`beast check --page`): saved Stack
//! Exchange API 2.3 answer pages read and joined ([`json`]), each answer's header read as
//! the leaderboard snippet reads it ([`header`]), its code taken from its first code block
//! ([`html`], [`markdown`]) or its TIO or ATO link ([`link`]), its flags from the header,
//! the prose or the link, its size counted, and the answers ranked ([`board`]). The
//! languages map ([`languages`]) says how each would run. Everything on a page is a
//! stranger's text: it is data here, and it is escaped wherever it is shown.

pub mod board;
mod error;
pub mod header;
pub mod html;
pub mod json;
pub mod languages;
pub mod link;
pub mod markdown;
pub mod msgpack;

pub use self::error::PageError;
use self::header::{Header, Unit};
use self::link::Site;

/// Where an answer's code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeSource {
    /// The post's Nth code block (from 1).
    Block(usize),
    /// A link.
    Link(Site),
}

impl CodeSource {
    /// `block N`, `tio` or `ato`.
    pub fn words(self) -> String {
        match self {
            CodeSource::Block(n) => format!("block {n}"),
            CodeSource::Link(site) => site.name().to_string(),
        }
    }
}

/// An answer's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The code the answer counts, as bytes.
    pub text: Vec<u8>,
    /// Where it came from.
    pub source: CodeSource,
    /// What runs: the code, with a link's header and footer around it (TIO and ATO run
    /// `header\ncode\nfooter`).
    pub run: Vec<u8>,
    /// A link's language id, when the code came from a link.
    pub link_language: Option<String>,
}

/// One answer of the page, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extracted {
    /// `answer_id`.
    pub answer_id: u64,
    /// The author's name, entities decoded.
    pub author: String,
    /// `creation_date`, Unix seconds.
    pub date: i64,
    /// Its header, read.
    pub header: Header,
    /// Its code, if one was found.
    pub code: Option<Code>,
    /// Its flags: the header's, the prose's ("+2 for `-0p`"), and a link's options when
    /// the code came from the link.
    pub flags: Vec<String>,
    /// The bytes the prose adds for flags ("+2 for `-0p`" adds 2).
    pub flag_bytes: usize,
    /// Why no code was found, or a link that did not decode.
    pub notes: Vec<String>,
}

/// Every answer of the pages, in page order.
#[derive(Debug)]
pub struct Extraction {
    /// The answers.
    pub answers: Vec<Extracted>,
    /// True when the last page says `has_more`: pages are missing.
    pub pages_missing: bool,
}

/// Reads pages (each its file's name and text), joins them and extracts every answer.
pub fn extract(pages: &[(String, String)]) -> Result<Extraction, PageError> {
    let read = pages
        .iter()
        .map(|(file, text)| json::read(file, text))
        .collect::<Result<Vec<_>, _>>()?;
    let (items, pages_missing) = json::join(read)?;
    Ok(Extraction {
        answers: items.iter().map(|(_, _, item)| answer(item)).collect(),
        pages_missing,
    })
}

/// One item read.
fn answer(item: &json::Item) -> Extracted {
    let (heading, blocks, prose, raw) = match (&item.body_markdown, &item.body) {
        (Some(md), _) => {
            let r = markdown::read(md);
            let raw = html_escape::decode_html_entities(md).into_owned();
            (r.heading, r.blocks, r.prose, raw)
        }
        (None, body) => {
            let body = body.clone().unwrap_or_default();
            let t = html::tokens(&body);
            (
                html::first_heading(&t),
                html::code_blocks(&t),
                html::prose(&t),
                body,
            )
        }
    };
    let header = header::read(heading.as_deref());
    let mut notes = Vec::new();
    let mut flags = header.flags.clone();
    let (prose_flags, flag_bytes) = prose_flags(&prose);
    for f in prose_flags {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    let code = match blocks.into_iter().next() {
        Some(block) => Some(Code {
            text: block.clone().into_bytes(),
            source: CodeSource::Block(1),
            run: block.into_bytes(),
            link_language: None,
        }),
        None => linked_code(&raw, &mut flags, &mut notes),
    };
    if code.is_none() && notes.is_empty() {
        notes.push("no code block and no TIO or ATO link".to_string());
    }
    let author = item
        .owner
        .as_ref()
        .and_then(|o| o.display_name.as_deref())
        .map(|n| html_escape::decode_html_entities(n).into_owned())
        .unwrap_or_else(|| "(no name)".to_string());
    Extracted {
        answer_id: item.answer_id,
        author,
        date: item.creation_date,
        header,
        code,
        flags,
        flag_bytes,
        notes,
    }
}

/// The code of the first TIO or ATO link that decodes; a link that does not is noted.
fn linked_code(raw: &str, flags: &mut Vec<String>, notes: &mut Vec<String>) -> Option<Code> {
    for (site, url) in link::find(raw) {
        match link::decode(site, &url) {
            Ok(l) if !l.code.is_empty() => {
                for o in &l.options {
                    if o.starts_with('-') && !flags.contains(o) {
                        flags.push(o.clone());
                    }
                }
                let mut run = Vec::new();
                for part in [&l.header, &l.code, &l.footer] {
                    if part.is_empty() {
                        continue;
                    }
                    if !run.is_empty() {
                        run.push(b'\n');
                    }
                    run.extend_from_slice(part);
                }
                return Some(Code {
                    text: l.code,
                    source: CodeSource::Link(site),
                    run,
                    link_language: Some(l.language),
                });
            }
            Ok(_) => notes.push(format!("the {} link holds no code", site.name())),
            Err(e) => notes.push(format!("the {} link: {e}", site.name())),
        }
    }
    None
}

/// The flags prose counts ("+2 for `-0p`", "+1 byte for the -p flag"), and the bytes it
/// adds for them.
fn prose_flags(prose: &str) -> (Vec<String>, usize) {
    let mut flags = Vec::new();
    let mut bytes = 0;
    let words: Vec<&str> = prose
        .split(|c: char| c.is_whitespace() || c == '`' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let Some(n) = w.strip_prefix('+').and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let next = words.iter().skip(i + 1).take(5);
        let mut saw_for = false;
        for word in next {
            let word = word.trim_end_matches(['.', ',', ';', ':']);
            match word {
                "for" => saw_for = true,
                "byte" | "bytes" | "the" | "flag" | "flags" => {}
                f if saw_for && f.len() > 1 && f.starts_with('-') => {
                    if !flags.iter().any(|x| x == f) {
                        flags.push(f.to_string());
                    }
                    bytes += n;
                    break;
                }
                _ => break,
            }
        }
    }
    (flags, bytes)
}

/// How a size was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Counting {
    /// UTF-8 bytes.
    Utf8Bytes,
    /// Characters: the header says chars, or the language has a single-byte code page.
    Chars,
}

/// The size of `code` as the header's unit and the language count it, plus the flags'
/// bytes the prose adds.
pub fn count(code: &[u8], unit: Unit, single_byte: bool, flag_bytes: usize) -> (usize, Counting) {
    let by = match (unit, single_byte) {
        (Unit::Chars, _) | (_, true) => Counting::Chars,
        _ => Counting::Utf8Bytes,
    };
    let n = match by {
        Counting::Chars => String::from_utf8_lossy(code).chars().count(),
        Counting::Utf8Bytes => code.len(),
    };
    (n + flag_bytes, by)
}

/// "claimed 840, counted 856" where the two differ.
pub fn audit(claimed: Option<usize>, counted: usize) -> Option<String> {
    claimed
        .filter(|&c| c != counted)
        .map(|c| format!("claimed {c}, counted {counted}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_names_counted_flags() {
        let (flags, bytes) = prose_flags("Run with perl -0p; +2 for `-0p`.");
        assert_eq!((flags, bytes), (vec!["-0p".to_string()], 2));
        let (flags, bytes) = prose_flags("+1 byte for the -n flag");
        assert_eq!((flags, bytes), (vec!["-n".to_string()], 1));
        assert_eq!(prose_flags("scores +1 for style").1, 0);
    }

    #[test]
    fn the_size_is_counted_as_the_header_and_language_count_it() {
        let code = "é→x".as_bytes();
        assert_eq!(count(code, Unit::Bytes, false, 0), (6, Counting::Utf8Bytes));
        assert_eq!(count(code, Unit::Chars, false, 0), (3, Counting::Chars));
        assert_eq!(count(code, Unit::Unsaid, true, 2), (5, Counting::Chars));
        assert_eq!(
            audit(Some(840), 856).as_deref(),
            Some("claimed 840, counted 856")
        );
        assert_eq!(audit(Some(6), 6), None);
    }
}
