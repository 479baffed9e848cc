//! What makes a stranger's text safe for the medium it lands in, one layer a medium, and
//! its whitespace visible. Every string from outside (a case's name, an answer's name or
//! output, a shard's fields, a path, a `#!` line's flags) reaches an output through one of
//! these, and only these:
//!
//! - the terminal and the CI log: [`visible`] for one value, [`terminal`] for whole lines
//!   (control characters shown as `\e`, `\n`, `\u{7}`...; no line begins with a GitHub
//!   workflow command's `::`);
//! - Markdown: [`markdown_text`] (inline text rendered as written: cells, headers, notes)
//!   and [`markdown_code`] (inline code);
//! - HTML: [`html_text`] (text and attribute values), [`html_pre`] (a `<pre>` block) and
//!   [`script_json`] (JSON inside a `<script>` element);
//! - JSON: [`json_text`]; XML: [`xml_escape`].
//!
//! Also the whitespace shown as code.golf shows it, and a puzzle as a command that can be
//! pasted.

use std::fmt::Write as _;

/// True for characters a report never prints raw: control characters other than tab and
/// newline (C0 and C1), the Unicode line and paragraph separators (U+2028, U+2029, line
/// breaks like the others), and the format characters that reorder or hide text
/// (bidirectional overrides and isolates, zero-width characters, the byte-order mark).
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c,
            '\u{00ad}' | '\u{061c}' | '\u{180e}' | '\u{200b}'..='\u{200f}'
            | '\u{2028}' | '\u{2029}'
            | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}')
}

/// Writes the escape of `c`, a hidden character or a newline, as the terminal shows it:
/// `\e` (escape), `\n`, `\r`, `\0`, or `\u{7}`, `\u{202e}` for the others.
fn push_escape(s: &mut String, c: char) {
    match c {
        '\u{1b}' => s.push_str("\\e"),
        '\n' => s.push_str("\\n"),
        '\r' => s.push_str("\\r"),
        '\0' => s.push_str("\\0"),
        c => {
            let _ = write!(s, "{}", c.escape_unicode());
        }
    }
}

/// True when `line`, once its leading whitespace is trimmed, begins with `::`: a GitHub
/// Actions runner reads such a line of a job's output as a workflow command.
fn workflow_command(line: &str) -> bool {
    line.trim_start().starts_with("::")
}

/// `line` safe on one line of a terminal and a CI log: every hidden character and newline
/// written as an escape (`\e`, `\n`, `\u{202e}`), so a stranger's text
/// can neither drive the terminal of whoever reads the report, reorder its text, nor start
/// a line of its own; and when it would begin with a workflow command's `::` (after its
/// indentation), that first colon written `\u{3a}`.
pub fn visible(line: &str) -> String {
    let mut s = String::with_capacity(line.len());
    for c in line.chars() {
        if hidden(c) || c == '\n' {
            push_escape(&mut s, c);
        } else {
            s.push(c);
        }
    }
    guard_command(s)
}

/// `line` with the first colon of a leading `::` written `\u{3a}`.
fn guard_command(line: String) -> String {
    if !workflow_command(&line) {
        return line;
    }
    let at = line.len() - line.trim_start().len();
    format!("{}\\u{{3a}}{}", &line[..at], &line[at + 1..])
}

/// Text bound for the terminal (and a CI log), made safe line by line: its newlines kept,
/// each line as [`visible`] makes it. What the judge prints goes through this once, at the
/// end, whatever the renderer did with the values in it; on text the renderers made of
/// [`visible`] values it changes nothing.
pub fn terminal(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s += &visible(line);
    }
    s
}

/// `text` as inline Markdown, rendered as written: in a table cell, a heading or a
/// paragraph, a `|` cannot end a cell, and a stranger's name or words (`<img src=...>`,
/// `<!--`, `[x](url)`, `*`, `_`, a backtick, `$` math) are never read as HTML, a link,
/// emphasis, code or a formula; its hidden characters and newlines are escaped first, as
/// [`visible`] escapes them, so it stays on its line.
pub fn markdown_text(text: &str) -> String {
    let text = visible(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '|' | '`' | '[' | ']' | '*' | '_' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` as HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as
/// character references, the hidden characters and newlines escaped as [`visible`]
/// escapes them.
pub fn html_text(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in visible(text).chars() {
        match c {
            '&' => s += "&amp;",
            '<' => s += "&lt;",
            '>' => s += "&gt;",
            '"' => s += "&quot;",
            '\'' => s += "&#39;",
            c => s.push(c),
        }
    }
    s
}

/// True when `text` cannot be shown as it is in a Markdown code span or an indented code
/// block: it holds a backtick, a `hidden` character, or a line that would begin (after its
/// indentation) with a workflow command's `::`.
pub fn needs_html_code(text: &str) -> bool {
    text.contains('`') || text.chars().any(hidden) || text.split('\n').any(workflow_command)
}

/// `text` as the content of an HTML `<pre><code>` block (which Markdown leaves as it is),
/// as Attempt This Online writes it: `&`, `<`, `>`, the backticks, and the hidden and
/// control characters (but newline and tab) as character references, and the first colon
/// of a line's leading `::` as `&#58;`, so the block renders as the text itself and no
/// line of it is a workflow command in a CI log.
pub fn html_pre(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let guard = workflow_command(line).then(|| line.len() - line.trim_start().len());
        for (at, c) in line.char_indices() {
            match c {
                ':' if guard == Some(at) => s += "&#58;",
                '&' => s += "&amp;",
                '<' => s += "&lt;",
                '>' => s += "&gt;",
                '`' => s += "&#96;",
                '\t' => s.push(c),
                c if hidden(c) || c.is_control() => {
                    let _ = write!(s, "&#x{:X};", u32::from(c));
                }
                c => s.push(c),
            }
        }
    }
    s
}

/// `text` as inline code in Markdown: a code span when it can be one as it is (see
/// [`needs_html_code`]; its content is never read as Markdown or HTML), otherwise an HTML
/// `<code>` element whose every ASCII punctuation character, and every hidden one, is a
/// character reference: Markdown reads what lies between inline HTML tags, so nothing in
/// it may be Markdown's (a link, emphasis) or HTML's (`</code><img ...>`).
pub fn markdown_code(text: &str) -> String {
    if !needs_html_code(text) && !text.starts_with(' ') && !text.ends_with(' ') {
        return format!("`{text}`");
    }
    let mut s = String::from("<code>");
    for c in text.chars() {
        if c.is_ascii_punctuation() || hidden(c) || c.is_control() {
            let _ = write!(s, "&#{};", u32::from(c));
        } else {
            s.push(c);
        }
    }
    s += "</code>";
    s
}

/// `value` as JSON text to put inside an HTML `<script>` element: as [`json_text`] writes
/// it, with `<`, `>` and `&` written `\u003c`, `\u003e`, `\u0026` (they occur only inside
/// its strings), so no `</script>` or `<!--` in a string can end or change the element. It
/// reads back as the same value.
pub fn script_json(value: &serde_json::Value) -> String {
    json_text(value)
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// JSON text with every `hidden` character inside its strings written as a `\uXXXX`
/// escape (serde_json escapes only C0 controls). The value is unchanged.
pub fn json_text(value: &serde_json::Value) -> String {
    json_escaped(&value.to_string())
}

/// [`json_text`] indented, one key or item a line.
pub fn json_pretty(value: &serde_json::Value) -> String {
    json_escaped(&serde_json::to_string_pretty(value).unwrap_or_default())
}

/// JSON text with its `hidden` characters (only ever inside its strings) as `\uXXXX`.
fn json_escaped(json: &str) -> String {
    let mut s = String::new();
    for c in json.chars() {
        if hidden(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(s, "\\u{u:04x}");
            }
        } else {
            s.push(c);
        }
    }
    s
}

/// `text` with its whitespace made visible, as code.golf's diff shows it: `·` for a
/// space, `␍` for a carriage return, `⏎` at the end of each line that has a newline.
pub fn whitespace_shown(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            ' ' => s.push('·'),
            '\r' => s.push('␍'),
            '\n' => s += "⏎\n",
            c => s.push(c),
        }
    }
    s
}

/// A puzzle, whole, as a shell command that judges it: `beast <<'EOF'` and the puzzle, or,
/// when it holds a carriage return or a character a terminal would not show, a `printf`
/// of its exact bytes piped into `beast`.
pub fn pasteable(puzzle: &str) -> String {
    let plain = puzzle.ends_with('\n')
        && !puzzle.lines().any(|l| l == "EOF")
        && puzzle
            .chars()
            .all(|c| c == '\n' || !(hidden(c) || c == '\r'));
    if plain {
        return format!("beast <<'EOF'\n{puzzle}EOF\n");
    }
    let mut body = String::new();
    for c in puzzle.chars() {
        match c {
            '\\' => body += "\\\\",
            '\'' => body += "'\\''",
            '%' => body += "%%",
            '\n' => body += "\\n",
            '\r' => body += "\\r",
            c if hidden(c) || !c.is_ascii() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(body, "\\{b:03o}");
                }
            }
            c => body.push(c),
        }
    }
    format!("printf '{body}' | beast\n")
}

/// Escapes text for XML 1.0 content and attributes. Characters XML cannot hold at all
/// (most control characters) become U+FFFD; the other `hidden` ones are written as
/// visible escapes such as `\u{202e}`.
pub fn xml_escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s += "&amp;",
            '<' => s += "&lt;",
            '>' => s += "&gt;",
            '"' => s += "&quot;",
            '\'' => s += "&apos;",
            '\t' | '\n' | '\r' => s.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => s.push('\u{fffd}'),
            c if hidden(c) => s += &c.escape_unicode().to_string(),
            c => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_a_report_are_escaped() {
        assert_eq!(visible("-8\x1b[31m\x01\tok"), "-8\\e[31m\\u{1}\tok");
        assert_eq!(visible("a\nb\r\0"), "a\\nb\\r\\0");
    }

    #[test]
    fn bidi_format_and_c1_characters_are_escaped_everywhere() {
        let evil = "ok\u{202e}kO\u{85}\u{9b}31m\u{200b}";
        assert_eq!(visible(evil), "ok\\u{202e}kO\\u{85}\\u{9b}31m\\u{200b}");
        let json = json_text(&serde_json::json!({ "got": evil }));
        assert!(json.is_ascii(), "{json}");
        assert!(
            json.contains("\\u202e") && json.contains("\\u0085"),
            "{json}"
        );
        let back: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(back["got"], evil);
        let xml = xml_escape(evil);
        assert!(
            !xml.contains('\u{202e}') && !xml.contains('\u{85}'),
            "{xml}"
        );
    }

    #[test]
    fn unicode_line_and_paragraph_separators_are_escaped_like_other_line_breaks() {
        let broken = "2\u{2028}aHHHH!\u{2029}0";
        assert_eq!(visible(broken), "2\\u{2028}aHHHH!\\u{2029}0");
        let json = json_text(&serde_json::json!({ "got": broken }));
        assert!(
            json.contains("\\u2028") && json.contains("\\u2029"),
            "{json}"
        );
        let xml = xml_escape(broken);
        assert!(
            !xml.contains('\u{2028}') && !xml.contains('\u{2029}'),
            "{xml}"
        );
    }

    #[test]
    fn whitespace_is_shown_visibly() {
        assert_eq!(whitespace_shown("aHHHH! 0\r\n"), "aHHHH!·0␍⏎\n");
    }

    #[test]
    fn a_puzzle_with_carriage_returns_is_shown_as_its_exact_bytes() {
        assert_eq!(
            pasteable("3 3\r\n###\r\n#O#\r\n###\r\nW'\n"),
            "printf '3 3\\r\\n###\\r\\n#O#\\r\\n###\\r\\nW'\\''\\n' | beast\n"
        );
    }

    #[test]
    fn xml_escaping_removes_what_xml_cannot_hold() {
        assert_eq!(
            xml_escape("a<b & \"c\"\u{0}"),
            "a&lt;b &amp; &quot;c&quot;\u{fffd}"
        );
    }

    #[test]
    fn no_line_of_a_strangers_text_begins_with_a_workflow_command() {
        assert_eq!(
            visible("::error file=x::boom"),
            "\\u{3a}:error file=x::boom"
        );
        assert_eq!(visible("  ::warning::x"), "  \\u{3a}:warning::x");
        assert_eq!(visible("a::b"), "a::b");
        let text = terminal("case\n::error::x\n\t ::stop-commands::t\nok\x1b[2J\n");
        assert_eq!(
            text,
            "case\n\\u{3a}:error::x\n\t \\u{3a}:stop-commands::t\nok\\e[2J\n"
        );
        assert!(
            text.lines().all(|l| !l.trim_start().starts_with("::")),
            "{text}"
        );
        assert_eq!(terminal(&text), text, "escaped text is left as it is");
    }

    #[test]
    fn markdown_text_is_rendered_as_written_on_its_line() {
        let forged = "x\n| 1 | fake | 9/9 |\n<!-- <img src=x onerror=y> [a](http://e/) *b* $x$";
        let md = markdown_text(forged);
        assert!(!md.contains('\n') && !md.contains('<'), "{md}");
        assert!(md.contains("\\| 1 \\| fake"), "{md}");
        assert!(md.contains("&lt;!-- &lt;img"), "{md}");
        assert!(md.contains("\\[a\\](http://e/) \\*b\\* \\$x\\$"), "{md}");
        assert_eq!(markdown_text("a\x1b[31m"), "a\\\\e\\[31m");
    }

    #[test]
    fn html_text_and_script_json_hold_a_hostile_name_as_data() {
        let name = "__DATA__</script><script>alert(1)</script><!--'\"&\u{202e}";
        let text = html_text(name);
        assert!(!text.contains('<') && !text.contains('"') && !text.contains('\''));
        assert!(text.starts_with("__DATA__&lt;/script&gt;"), "{text}");
        let value = serde_json::json!({ "title": name });
        let json = script_json(&value);
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(back, value);
    }

    #[test]
    fn inline_code_is_a_code_span_or_code_with_every_punctuation_a_reference() {
        assert_eq!(markdown_code("-n -l"), "`-n -l`");
        let evil = markdown_code("`</code><img src=x onerror=alert(1)>[x](https://e/)");
        assert!(
            evil.starts_with("<code>&#96;&#60;&#47;code&#62;&#60;img"),
            "{evil}"
        );
        assert!(
            evil.ends_with("</code>") && evil.matches('<').count() == 2,
            "{evil}"
        );
        assert!(!evil.contains('[') && !evil.contains('`'), "{evil}");
    }

    #[test]
    fn a_pre_block_shows_the_text_and_starts_no_workflow_command() {
        let pre = html_pre("a<`\n  ::error::x\n\x1b[1m\u{202e}");
        assert_eq!(pre, "a&lt;&#96;\n  &#58;:error::x\n&#x1B;[1m&#x202E;");
        assert!(needs_html_code("ok\n::x") && needs_html_code("\u{202e}"));
        assert!(!needs_html_code("print(1)\n  x::y"));
    }
}
