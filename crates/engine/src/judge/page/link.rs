//! The code of a Try It Online or Attempt This Online link, decoded, bounded.
//!
//! - TIO (`https://tio.run/##STATE`): the state is raw deflate, in base64 with `+` written
//!   `@` and the `=` padding dropped (the decoder also takes `-` and `_`, as TIO's own
//!   does); inflated, it is fields split by 0xFF: language, header, code, footer, input,
//!   then the arguments; after a 0xFE an extra field (`options`, `cflags`...) with its
//!   values; after 0xF5 the settings. A `#lang#STATE` link puts the language first.
//! - ATO (`https://ato.pxeger.com/run?1=STATE`): the state is raw deflate, in URL-safe
//!   base64 without padding; inflated, a MessagePack array of 11: language, options,
//!   header, its encoding, code, its encoding, footer, its encoding, arguments, input,
//!   its encoding (schema 0, `?0=`: 9, without options and arguments).
//!
//! Nothing inflates past [`INFLATE_LIMIT`]: a link that would is refused.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD_INDIFFERENT, URL_SAFE_NO_PAD_INDIFFERENT};

use super::msgpack::{self, Value};

/// The most bytes a link's state may inflate to.
pub const INFLATE_LIMIT: usize = 4 << 20;

/// The longest link read, in bytes.
pub const LINK_LIMIT: usize = 1 << 20;

/// Which site a link is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// Try It Online.
    Tio,
    /// Attempt This Online.
    Ato,
}

impl Site {
    /// `tio` or `ato`, as reports name the code's source.
    pub fn name(self) -> &'static str {
        match self {
            Site::Tio => "tio",
            Site::Ato => "ato",
        }
    }
}

/// What a link holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Linked {
    /// The site's id of the language (`python3`, `perl5`).
    pub language: String,
    /// The code the answer counts.
    pub code: Vec<u8>,
    /// The header run before it (a test harness), if any.
    pub header: Vec<u8>,
    /// The footer run after it, if any.
    pub footer: Vec<u8>,
    /// The interpreter's options (TIO's `options` and `cflags`, ATO's options).
    pub options: Vec<String>,
}

/// Why a link cannot be decoded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LinkError {
    /// Not base64.
    #[error("the link's state is not base64: {0}")]
    Base64(String),
    /// Not raw deflate, or more than the limit.
    #[error("the link's state does not inflate: {0}")]
    Inflate(String),
    /// Inflates past the limit.
    #[error("the link's state inflates past {} MiB: refused", INFLATE_LIMIT >> 20)]
    TooLarge,
    /// Not the shape the site writes.
    #[error("the link's state is not {0}")]
    Shape(String),
    /// A link with no state (only a language).
    #[error("the link holds no code")]
    Empty,
    /// Longer than [`LINK_LIMIT`].
    #[error("the link is longer than {} KiB", LINK_LIMIT >> 10)]
    TooLong,
}

/// The TIO and ATO links in `text` (HTML or Markdown), in order, as written (entities
/// `&amp;` decoded).
pub fn find(text: &str) -> Vec<(Site, String)> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let tio = rest.find("tio.run/").map(|i| (i, Site::Tio));
        let ato = rest.find("ato.pxeger.com/run?").map(|i| (i, Site::Ato));
        let Some((i, site)) = [tio, ato].into_iter().flatten().min_by_key(|(i, _)| *i) else {
            break;
        };
        let url = &rest[i..];
        let end = url
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | ']'))
            .unwrap_or(url.len());
        found.push((site, url[..end].replace("&amp;", "&")));
        at += i + end.max(1);
    }
    found
}

/// Decodes a link `find` found.
pub fn decode(site: Site, url: &str) -> Result<Linked, LinkError> {
    if url.len() > LINK_LIMIT {
        return Err(LinkError::TooLong);
    }
    match site {
        Site::Tio => tio(url),
        Site::Ato => ato(url),
    }
}

/// `%XX` escapes decoded (as `unescape` does).
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Raw deflate inflated, within [`INFLATE_LIMIT`].
fn inflate(data: &[u8]) -> Result<Vec<u8>, LinkError> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(data, INFLATE_LIMIT).map_err(|e| {
        match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
            status => LinkError::Inflate(format!("{status:?}")),
        }
    })
}

/// A TIO link's state.
fn tio(url: &str) -> Result<Linked, LinkError> {
    let after = url.split_once("tio.run/").map_or("", |(_, a)| a);
    let after = after
        .strip_prefix("nexus/")
        .map_or(after.to_string(), |a| format!("#{a}"));
    let hash = percent_decoded(after.split_once('#').map_or("", |(_, h)| h));
    let (language, state) = hash.split_once('#').unwrap_or((hash.as_str(), ""));
    if state.is_empty() {
        return Err(LinkError::Empty);
    }
    let b64 = state.replace(['@', '-'], "+").replace('_', "/");
    let deflated = STANDARD_NO_PAD_INDIFFERENT
        .decode(b64.trim_end_matches('='))
        .map_err(|e| LinkError::Base64(e.to_string()))?;
    let mut whole = Vec::new();
    if !language.is_empty() {
        whole.extend_from_slice(language.as_bytes());
        whole.push(0xff);
    }
    whole.extend(inflate(&deflated)?);
    tio_fields(&whole)
}

/// The fields of an inflated TIO state.
fn tio_fields(state: &[u8]) -> Result<Linked, LinkError> {
    let field_end = state
        .iter()
        .position(|&b| (0xf4..=0xfe).contains(&b))
        .unwrap_or(state.len());
    let fields: Vec<&[u8]> = state[..field_end].split(|&b| b == 0xff).collect();
    if fields.len() < 4 {
        return Err(LinkError::Shape(
            "TIO's (language, header, code, footer, input...)".into(),
        ));
    }
    let mut options = Vec::new();
    for extra in state.split(|&b| b == 0xfe).skip(1) {
        let end = extra
            .iter()
            .position(|&b| (0xf4..=0xfe).contains(&b))
            .unwrap_or(extra.len());
        let mut parts = extra[..end].split(|&b| b == 0xff);
        let name = parts.next().unwrap_or_default();
        if matches!(name, b"options" | b"cflags") {
            options.extend(parts.map(|p| String::from_utf8_lossy(p).into_owned()));
        }
    }
    Ok(Linked {
        language: String::from_utf8_lossy(fields[0]).to_lowercase(),
        header: fields[1].to_vec(),
        code: fields[2].to_vec(),
        footer: fields[3].to_vec(),
        options,
    })
}

/// An ATO link's state.
fn ato(url: &str) -> Result<Linked, LinkError> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or_default();
    let mut best: Option<(u32, &str)> = None;
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if let Ok(schema @ 0..=1) = key.parse::<u32>()
            && best.is_none_or(|(b, _)| schema > b)
        {
            best = Some((schema, value));
        }
    }
    let Some((schema, value)) = best else {
        return Err(LinkError::Empty);
    };
    let value = percent_decoded(value);
    let deflated = URL_SAFE_NO_PAD_INDIFFERENT
        .decode(value.trim_end_matches('='))
        .map_err(|e| LinkError::Base64(e.to_string()))?;
    let packed = inflate(&deflated)?;
    let value =
        msgpack::decode(&packed).map_err(|e| LinkError::Shape(format!("MessagePack: {e}")))?;
    ato_fields(schema, value)
}

/// The fields of an ATO state's array.
fn ato_fields(schema: u32, value: Value) -> Result<Linked, LinkError> {
    let want = if schema == 1 { 11 } else { 9 };
    let Value::Array(items) = value else {
        return Err(LinkError::Shape(format!("an array of {want}")));
    };
    if items.len() != want {
        return Err(LinkError::Shape(format!(
            "an array of {want} (it has {})",
            items.len()
        )));
    }
    // Schema 1: language, options, header, enc, code, enc, footer, enc, arguments, input, enc.
    let (options, header) = match schema {
        1 => (Some(&items[1]), 2),
        _ => (None, 1),
    };
    let text = |i: usize| -> Result<Vec<u8>, LinkError> {
        let raw = items[i].bytes().unwrap_or_default();
        match items[i + 1].bytes().as_deref() {
            Some(b"base64") => base64::engine::general_purpose::STANDARD
                .decode(raw)
                .map_err(|e| LinkError::Base64(e.to_string())),
            _ => Ok(raw),
        }
    };
    let options = match options {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::bytes)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect(),
        Some(v) => v
            .bytes()
            .map(|b| {
                String::from_utf8_lossy(&b)
                    .split_whitespace()
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        None => Vec::new(),
    };
    Ok(Linked {
        language: String::from_utf8_lossy(&items[0].bytes().unwrap_or_default()).into_owned(),
        header: text(header)?,
        code: text(header + 2)?,
        footer: text(header + 4)?,
        options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TIO's encoder, as its frontend writes a permalink.
    fn tio_link(language: &str, code: &str, options: &[&str]) -> String {
        let mut state = format!("{language}\u{ff}\u{ff}{code}\u{ff}\u{ff}").into_bytes();
        // The separators are bytes 0xFF, not the UTF-8 of U+00FF.
        state = String::from_utf8(state)
            .unwrap_or_default()
            .chars()
            .flat_map(|c| match c {
                '\u{ff}' => vec![0xff],
                c => c.to_string().into_bytes(),
            })
            .collect();
        if !options.is_empty() {
            state.push(0xfe);
            state.extend_from_slice(b"options");
            for o in options {
                state.push(0xff);
                state.extend_from_slice(o.as_bytes());
            }
        }
        let deflated = miniz_oxide::deflate::compress_to_vec(&state, 9);
        let b64 = base64::engine::general_purpose::STANDARD.encode(deflated);
        format!(
            "https://tio.run/##{}",
            b64.replace('+', "@").trim_end_matches('=')
        )
    }

    /// ATO's encoder (schema 1).
    fn ato_link(language: &str, code: &str, options: &str) -> String {
        let fields = [
            language, options, "", "utf-8", code, "utf-8", "", "utf-8", "", "", "utf-8",
        ];
        let packed = msgpack::tests::encode_str_array(&fields);
        let deflated = miniz_oxide::deflate::compress_to_vec(&packed, 9);
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated);
        format!("https://ato.pxeger.com/run?1={b64}")
    }

    #[test]
    fn a_tio_link_round_trips() {
        let code = "print(sum(map(int,input().split())))\n# é ✓ <&>";
        let url = tio_link("python3", code, &["-O"]);
        let got = decode(Site::Tio, &url).expect("decodes");
        assert_eq!(got.language, "python3");
        assert_eq!(got.code, code.as_bytes());
        assert_eq!(got.options, ["-O"]);
    }

    #[test]
    fn an_ato_link_round_trips() {
        let code = "$_=reverse;print # ü";
        let url = ato_link("perl5", code, "-n -l");
        let got = decode(Site::Ato, &url).expect("decodes");
        assert_eq!(
            (got.language.as_str(), got.code.as_slice()),
            ("perl5", code.as_bytes())
        );
        assert_eq!(got.options, ["-n", "-l"]);
    }

    #[test]
    fn real_links_decode_to_their_known_content() {
        // A brainfuck tutorial's link to its cat program `,[.,]`, as tio.run wrote it.
        let url = "https://tio.run/##SypKzMxLK03O/v9fJ1pPJ/b//8TilDQQVkgshtMK6YlFCkYmpgA";
        let got = decode(Site::Tio, url).expect("decodes");
        assert_eq!(
            (got.language.as_str(), got.code.as_slice()),
            ("brainfuck", b",[.,]".as_slice())
        );
        // Nekomata's documentation's link to its "Hello, World!", as ATO wrote it.
        let url = "https://ato.pxeger.com/run?1=m70iLzU7PzexJHHBgqWlJWm6FuuVPFJzcvJ1FMLzi3JSFJWWFCclF0PlYGoA";
        let got = decode(Site::Ato, url).expect("decodes");
        assert_eq!(
            (got.language.as_str(), got.code.as_slice()),
            ("nekomata", b"\"Hello, World!\"".as_slice())
        );
    }

    #[test]
    fn a_link_that_inflates_past_the_limit_is_refused() {
        let zeros = vec![b'a'; INFLATE_LIMIT + 1];
        let deflated = miniz_oxide::deflate::compress_to_vec(&zeros, 9);
        let b64 = base64::engine::general_purpose::STANDARD.encode(deflated);
        let url = format!("https://tio.run/##{}", b64.replace('+', "@"));
        assert_eq!(decode(Site::Tio, &url), Err(LinkError::TooLarge));
        assert!(decode(Site::Tio, "https://tio.run/##!!!").is_err());
        assert_eq!(
            decode(Site::Tio, "https://tio.run/#python3"),
            Err(LinkError::Empty)
        );
    }

    #[test]
    fn links_are_found_in_html_and_markdown() {
        let html = "<a href=\"https://tio.run/##abc\">Try it</a> [ATO](https://ato.pxeger.com/run?1=xyz&amp;a=1)";
        let found = find(html);
        assert_eq!(found[0], (Site::Tio, "tio.run/##abc".to_string()));
        assert_eq!(
            found[1],
            (Site::Ato, "ato.pxeger.com/run?1=xyz&a=1".to_string())
        );
    }
}
