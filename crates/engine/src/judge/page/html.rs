//! A tokenizer for the small, well-formed HTML subset the Stack Exchange API renders
//! posts in (`<h1>`, `<p>`, `<pre><code>`, `<a href>`, `<s>`...), not a browser-grade
//! parser: tags, their attributes and text, entities decoded (`html-escape`), comments
//! skipped. What it finds in a post: the first heading, the first code block, and the
//! prose outside code blocks.

use html_escape::decode_html_entities;

/// One piece of the HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// Text, its entities decoded.
    Text(String),
    /// An opening (or self-closing) tag: its lower-case name and attributes.
    Open(String, Vec<(String, String)>),
    /// A closing tag's lower-case name.
    Close(String),
}

/// The tokens of `html`. Never fails: a `<` that starts no tag is text.
pub fn tokens(html: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        match tag(rest) {
            Some((token, used)) => {
                flush(&mut text, &mut out);
                out.push(token);
                rest = &rest[used..];
            }
            None => {
                text.push('<');
                rest = &rest[1..];
            }
        }
    }
    text.push_str(rest);
    flush(&mut text, &mut out);
    out
}

fn flush(text: &mut String, out: &mut Vec<Token>) {
    if !text.is_empty() {
        out.push(Token::Text(
            decode_html_entities(text.as_str()).into_owned(),
        ));
        text.clear();
    }
}

/// The tag at the start of `s` (which starts with `<`) and its length in bytes.
fn tag(s: &str) -> Option<(Token, usize)> {
    let end = s.find('>')?;
    let inner = &s[1..end];
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let name_len = inner
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let name = name.to_ascii_lowercase();
    if closing {
        return Some((Token::Close(name), end + 1));
    }
    let attrs = attributes(inner[name_len..].trim_end_matches('/'));
    Some((Token::Open(name, attrs), end + 1))
}

/// The attributes of a tag: `name="v"`, `name='v'`, `name=v` or `name`.
fn attributes(mut s: &str) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    loop {
        s = s.trim_start();
        let name_len = s
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(s.len());
        if name_len == 0 {
            return attrs;
        }
        let name = s[..name_len].to_ascii_lowercase();
        s = s[name_len..].trim_start();
        let value = match s.strip_prefix('=') {
            None => String::new(),
            Some(after) => {
                let after = after.trim_start();
                let (value, rest) = match after.chars().next() {
                    Some(q @ ('"' | '\'')) => {
                        let body = &after[1..];
                        let close = body.find(q).unwrap_or(body.len());
                        (&body[..close], body.get(close + 1..).unwrap_or(""))
                    }
                    _ => {
                        let close = after.find(char::is_whitespace).unwrap_or(after.len());
                        (&after[..close], &after[close..])
                    }
                };
                s = rest;
                decode_html_entities(value).into_owned()
            }
        };
        attrs.push((name, value));
    }
}

/// A run of a heading's text: struck out (`<s>`, `<strike>`, `<del>`) or not, in a link
/// or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The text.
    pub text: String,
    /// Inside `<s>`, `<strike>` or `<del>`.
    pub struck: bool,
    /// Inside `<a>`.
    pub link: bool,
}

/// True for the tags that strike text out.
fn strikes(name: &str) -> bool {
    matches!(name, "s" | "strike" | "del")
}

/// The segments of the first heading (`<h1>` to `<h6>`), if there is one.
pub fn first_heading(tokens: &[Token]) -> Option<Vec<Segment>> {
    let is_heading =
        |n: &str| n.len() == 2 && n.starts_with('h') && n.as_bytes()[1].is_ascii_digit();
    let start = tokens
        .iter()
        .position(|t| matches!(t, Token::Open(n, _) if is_heading(n)))?;
    let Token::Open(heading, _) = &tokens[start] else {
        return None;
    };
    let (mut struck, mut link) = (0usize, 0usize);
    let mut segments = Vec::new();
    for token in &tokens[start + 1..] {
        match token {
            Token::Close(n) if n == heading => break,
            Token::Open(n, _) if strikes(n) => struck += 1,
            Token::Close(n) if strikes(n) => struck = struck.saturating_sub(1),
            Token::Open(n, _) if n == "a" => link += 1,
            Token::Close(n) if n == "a" => link = link.saturating_sub(1),
            Token::Open(n, _) if n == "br" => segments.push(Segment {
                text: " ".into(),
                struck: struck > 0,
                link: link > 0,
            }),
            Token::Text(t) => segments.push(Segment {
                text: t.clone(),
                struck: struck > 0,
                link: link > 0,
            }),
            _ => {}
        }
    }
    Some(segments)
}

/// The code blocks (`<pre>` then `<code>`, with any attributes), in order: their text with
/// the final newline the renderer adds dropped.
pub fn code_blocks(tokens: &[Token]) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let opens_pre = matches!(&tokens[i], Token::Open(n, _) if n == "pre");
        let then_code = matches!(tokens.get(i + 1), Some(Token::Open(n, _)) if n == "code");
        if !(opens_pre && then_code) {
            i += 1;
            continue;
        }
        let mut code = String::new();
        i += 2;
        while i < tokens.len() {
            match &tokens[i] {
                Token::Close(n) if n == "code" || n == "pre" => break,
                Token::Text(t) => code.push_str(t),
                Token::Open(n, _) if n == "br" => code.push('\n'),
                _ => {}
            }
            i += 1;
        }
        if code.ends_with('\n') {
            code.pop();
        }
        blocks.push(code);
    }
    blocks
}

/// The text outside code blocks (inline `<code>` kept), for the flags prose names
/// ("+2 for `-0p`").
pub fn prose(tokens: &[Token]) -> String {
    let mut text = String::new();
    let mut in_pre = 0usize;
    for token in tokens {
        match token {
            Token::Open(n, _) if n == "pre" => in_pre += 1,
            Token::Close(n) if n == "pre" => in_pre = in_pre.saturating_sub(1),
            Token::Text(t) if in_pre == 0 => text.push_str(t),
            Token::Open(n, _) if matches!(n.as_str(), "p" | "br" | "li") => text.push('\n'),
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_attributes_and_entities_are_read() {
        let t = tokens(
            "<pre class=\"lang-py\"><code>a &lt; b &amp;&amp; c\n</code></pre><!-- x --><p>1 < 2</p>",
        );
        assert_eq!(
            t[0],
            Token::Open("pre".into(), vec![("class".into(), "lang-py".into())])
        );
        assert_eq!(code_blocks(&t), ["a < b && c"]);
        assert!(prose(&t).contains("1 < 2"));
    }

    #[test]
    fn a_heading_knows_what_is_struck_and_what_is_a_link() {
        let t = tokens("<h1><a href=\"x\">Python 3</a>, <s>120</s> 98 bytes</h1><h2>later</h2>");
        let h = first_heading(&t).expect("a heading");
        assert!(h[0].link && h[0].text == "Python 3");
        assert!(h.iter().any(|s| s.struck && s.text == "120"));
        assert!(!h.iter().any(|s| s.text.contains("later")));
    }
}
