//! Colour on the terminal, decided once for every command: the palette (the engine's
//! [`Color`] to the terminal's), when colour is used (on a terminal, never under
//! `NO_COLOR`), and text painted with it.

use std::io::IsTerminal;

use beast_engine::play::{Color, Line};
use crossterm::style::{self, Stylize};

/// False when the user has asked for no colour: `NO_COLOR` set and not empty.
pub fn color_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// True if `stream` is a terminal and colour is allowed.
pub fn use_color(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && color_allowed()
}

/// The terminal colour of an engine colour, or `None` for the terminal's default.
pub fn term_color(color: Color) -> Option<style::Color> {
    Some(match color {
        Color::Default => return None,
        Color::Red => style::Color::Red,
        Color::Green => style::Color::Green,
        Color::Yellow => style::Color::Yellow,
        Color::Blue => style::Color::Blue,
        Color::Magenta => style::Color::Magenta,
        Color::Cyan => style::Color::Cyan,
        Color::White => style::Color::White,
        Color::Grey => style::Color::DarkGrey,
    })
}

/// A line as text, with the terminal's colour codes when `color` is true.
pub fn paint(line: &Line, color: bool) -> String {
    let mut s = String::new();
    for span in &line.0 {
        match term_color(span.color).filter(|_| color) {
            Some(c) => s.push_str(&span.text.as_str().with(c).to_string()),
            None => s.push_str(&span.text),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painted_text_keeps_its_words_and_plain_text_has_no_codes() {
        let line = Line::default()
            .with("aHHHH!", Color::Red)
            .with(" 8", Color::Default);
        assert_eq!(paint(&line, false), "aHHHH! 8");
        let painted = paint(&line, true);
        assert!(painted.starts_with("\x1b["), "{painted:?}");
        assert!(
            painted.contains("aHHHH!\x1b[") && painted.ends_with(" 8"),
            "{painted:?}"
        );
    }
}
