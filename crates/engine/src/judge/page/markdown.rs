//! A post's Markdown source (`body_markdown`, HTML-encoded by the API's safe filter) read
//! for what the judge needs: the first heading (ATX `#`, setext `===`/`---`, or an HTML
//! `<h1>` line), the first code block (fenced, indented by four spaces or a tab, or
//! `<pre><code>` HTML) and the prose outside code blocks. The heading's inline Markdown
//! (`[text](url)`, `~~struck~~`, backticks) is made into the HTML subset [`super::html`]
//! reads, so both filters give the same header.

use html_escape::decode_html_entities;

use super::html::{self, Segment};

/// What a Markdown post gives the judge.
pub struct Read {
    /// The first heading's segments.
    pub heading: Option<Vec<Segment>>,
    /// The code blocks, in order.
    pub blocks: Vec<String>,
    /// The text outside code blocks.
    pub prose: String,
}

/// Reads the API's `body_markdown`.
pub fn read(encoded: &str) -> Read {
    let text = decode_html_entities(encoded).replace("\r\n", "\n");
    let lines: Vec<&str> = text.split('\n').collect();
    let mut heading = None;
    let mut blocks = Vec::new();
    let mut prose = String::new();
    let mut i = 0;
    let mut blank_before = true;
    while i < lines.len() {
        let line = lines[i];
        if let Some((block, used)) = fenced(&lines[i..]) {
            blocks.push(block);
            i += used;
            blank_before = true;
            continue;
        }
        if blank_before && indented(line).is_some() && !line.trim().is_empty() {
            let (block, used) = indented_block(&lines[i..]);
            blocks.push(block);
            i += used;
            continue;
        }
        if line.trim_start().starts_with("<pre") {
            let (block, used) = html_block(&lines[i..]);
            blocks.extend(block);
            i += used;
            continue;
        }
        if heading.is_none() {
            heading = heading_at(&lines, i);
        }
        prose.push_str(line);
        prose.push('\n');
        blank_before = line.trim().is_empty();
        i += 1;
    }
    Read {
        heading,
        blocks,
        prose,
    }
}

/// The line without its four-space (or tab) indent, if it has one.
fn indented(line: &str) -> Option<&str> {
    line.strip_prefix("    ")
        .or_else(|| line.strip_prefix('\t'))
}

/// A fenced block at the first line, and the lines it takes.
fn fenced(lines: &[&str]) -> Option<(String, usize)> {
    let first = lines.first()?.trim_start();
    let fence_char = first.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let fence_len = first.chars().take_while(|&c| c == fence_char).count();
    if fence_len < 3 {
        return None;
    }
    let fence: String = std::iter::repeat_n(fence_char, fence_len).collect();
    let mut body = Vec::new();
    for (n, line) in lines.iter().enumerate().skip(1) {
        if line.trim_start().starts_with(&fence) && line.trim().chars().all(|c| c == fence_char) {
            return Some((body.join("\n"), n + 1));
        }
        body.push(*line);
    }
    Some((body.join("\n"), lines.len()))
}

/// An indented block at the first line: its lines unindented, trailing blank lines
/// dropped, and the lines it takes.
fn indented_block(lines: &[&str]) -> (String, usize) {
    let mut body: Vec<&str> = Vec::new();
    let mut used = 0;
    for line in lines {
        match indented(line) {
            Some(code) => body.push(code),
            None if line.trim().is_empty() => body.push(""),
            None => break,
        }
        used += 1;
    }
    while body.last().is_some_and(|l| l.trim().is_empty()) {
        body.pop();
        used -= 1;
    }
    (body.join("\n"), used)
}

/// An HTML `<pre>` block at the first line, up to its `</pre>`: its code, and the lines
/// it takes.
fn html_block(lines: &[&str]) -> (Option<String>, usize) {
    let end = lines
        .iter()
        .position(|l| l.contains("</pre>"))
        .map_or(lines.len(), |n| n + 1);
    // An HTML block's entities are HTML's: the tokenizer decodes them, as the renderer does.
    let html = lines[..end].join("\n");
    let code = html::code_blocks(&html::tokens(&html)).into_iter().next();
    (code, end)
}

/// The heading at line `i`, if it is one: ATX (`# ...`), setext (a line under which is
/// `===` or `---`), or an HTML `<h1>` line.
fn heading_at(lines: &[&str], i: usize) -> Option<Vec<Segment>> {
    let line = lines[i].trim();
    if line.is_empty() {
        return None;
    }
    let hashes = line.chars().take_while(|&c| c == '#').count();
    let text =
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(|c: char| c.is_whitespace()) {
            line[hashes..].trim().trim_end_matches('#').trim()
        } else if lines.get(i + 1).is_some_and(|next| {
            let next = next.trim();
            !next.is_empty() && (next.chars().all(|c| c == '=') || next.chars().all(|c| c == '-'))
        }) {
            line
        } else if line.starts_with("<h") {
            let h = html::tokens(line);
            return html::first_heading(&h);
        } else {
            return None;
        };
    let html = format!("<h1>{}</h1>", inline(text));
    html::first_heading(&html::tokens(&html))
}

/// A heading's inline Markdown made HTML: `[text](url)` a link, `~~x~~` struck out,
/// backticks and emphasis marks dropped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    let mut struck = false;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("~~") {
            out.push_str(if struck { "</s>" } else { "<s>" });
            struck = !struck;
            rest = after;
            continue;
        }
        if c == '['
            && let Some((label, used)) = link(rest)
        {
            out.push_str(&format!("<a>{label}</a>"));
            rest = &rest[used..];
            continue;
        }
        if !matches!(c, '`' | '*') {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A Markdown link `[label](url)` or `[label][ref]` at the start of `s`: its label and
/// its length.
fn link(s: &str) -> Option<(&str, usize)> {
    let close = s.find(']')?;
    let label = &s[1..close];
    let after = &s[close + 1..];
    let end = match after.chars().next()? {
        '(' => after.find(')')?,
        '[' => after.find(']')?,
        _ => return None,
    };
    Some((label, close + 1 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_markdown_post_gives_its_heading_code_and_prose() {
        let r = read(
            "# [Perl 5](https://www.perl.org/) `-p`, ~~60~~ 58 bytes\r\n\r\n    $_=&lt;&gt; if 1;\r\n    print\r\n\r\n+1 for `-p`.",
        );
        let h = r.heading.expect("a heading");
        assert!(h[0].link && h[0].text == "Perl 5");
        assert!(h.iter().any(|s| s.struck && s.text == "60"));
        assert_eq!(r.blocks, ["$_=<> if 1;\nprint"]);
        assert!(r.prose.contains("+1 for `-p`"), "{}", r.prose);
    }

    #[test]
    fn fences_setext_and_html_blocks_are_code_too() {
        let r = read("Ruby, 40 bytes\n---\n\n```ruby\nputs 1\n```\n");
        assert_eq!(r.heading.expect("setext")[0].text, "Ruby, 40 bytes");
        assert_eq!(r.blocks, ["puts 1"]);
        let r = read("<h1>C, 9 bytes</h1>\n\n<pre><code>a&amp;lt;b\n</code></pre>\n");
        // The source is `a&lt;b`, which renders as `a<b`.
        assert_eq!(r.heading.expect("html")[0].text, "C, 9 bytes");
        assert_eq!(r.blocks, ["a<b"]);
    }
}
