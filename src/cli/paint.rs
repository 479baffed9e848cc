//! Colour on the terminal: only on a terminal, and never when `NO_COLOR` is set.

use std::io::IsTerminal;

use beast_engine::play::{Color, Line};

/// True if `stream` is a terminal and `NO_COLOR` is unset or empty.
pub fn use_color(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The ANSI foreground code of a colour, or `None` for the default.
fn sgr(color: Color) -> Option<&'static str> {
    match color {
        Color::Default => None,
        Color::Red => Some("31"),
        Color::Green => Some("32"),
        Color::Yellow => Some("33"),
        Color::Blue => Some("34"),
        Color::Magenta => Some("35"),
        Color::Cyan => Some("36"),
        Color::White => Some("97"),
        Color::Grey => Some("90"),
    }
}

/// A line as text, with ANSI colours when `color` is true.
pub fn paint(line: &Line, color: bool) -> String {
    let mut s = String::new();
    for span in &line.0 {
        match sgr(span.color).filter(|_| color) {
            Some(code) => {
                s.push_str("\x1b[");
                s.push_str(code);
                s.push('m');
                s.push_str(&span.text);
                s.push_str("\x1b[0m");
            }
            None => s.push_str(&span.text),
        }
    }
    s
}
