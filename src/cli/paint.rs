//! Colour on the terminal, decided once for every command: the palette (the engine's
//! [`Color`] to the terminal's), when colour is used (`--color`: under `auto` on a
//! terminal, never under `NO_COLOR`), and text painted with it.

use std::io::IsTerminal;

use beast_engine::play::{Color, Line};
use crossterm::style::{self, Stylize};

/// `--color`: when output is coloured, as ripgrep and cargo-nextest ask it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (and not empty).
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// True if what is written to `stream` is coloured.
    pub fn on(self, stream: &impl IsTerminal) -> bool {
        self.allowed() && (self == ColorChoice::Always || stream.is_terminal())
    }

    /// False when the user has asked for no colour: `never`, or `auto` with `NO_COLOR`
    /// set and not empty (for a screen that is a terminal already).
    pub fn allowed(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    /// The same choice for clap's own help and errors.
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorChoice::Auto => clap::ColorChoice::Auto,
            ColorChoice::Always => clap::ColorChoice::Always,
            ColorChoice::Never => clap::ColorChoice::Never,
        }
    }

    /// The choice of the command line `args` (`--color X` or `--color=X` before any `--`),
    /// else of `BEAST_COLOR`, else `auto`: read before clap parses, so that clap's own
    /// errors follow it. A value that is not a choice is left for clap to refuse.
    pub fn before_parsing(args: &[std::ffi::OsString]) -> ColorChoice {
        use clap::ValueEnum;
        let mut typed = None;
        let mut words = args.iter().skip(1).map(|a| a.to_str());
        while let Some(word) = words.next() {
            match word {
                Some("--") => break,
                Some("--color") => typed = words.next().flatten(),
                Some(w) if w.starts_with("--color=") => typed = w.strip_prefix("--color="),
                _ => {}
            }
        }
        let env = std::env::var("BEAST_COLOR").ok();
        typed
            .or(env.as_deref())
            .and_then(|v| ColorChoice::from_str(v, true).ok())
            .unwrap_or_default()
    }
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
