//! What makes a candidate's text safe to print, and its whitespace visible: the escaping
//! of the characters a report never prints raw (for the terminal, JSON and XML), the
//! whitespace shown as code.golf shows it, and a puzzle as a command that can be pasted.

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

/// `line` with every `hidden` character (and newlines) written as an escape such as
/// `\u{1b}` or `\u{202e}`, so a candidate's output cannot drive the terminal, or reorder
/// the text, of whoever reads the report.
pub fn visible(line: &str) -> String {
    line.chars()
        .map(|c| {
            if hidden(c) || c == '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// JSON text with every `hidden` character inside its strings written as a `\uXXXX`
/// escape (serde_json escapes only C0 controls). The value is unchanged.
pub fn json_text(value: &serde_json::Value) -> String {
    let mut s = String::new();
    for c in value.to_string().chars() {
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
        assert_eq!(visible("-8\x1b[31m\x01\tok"), "-8\\u{1b}[31m\\u{1}\tok");
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
}
