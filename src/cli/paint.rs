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

    /// The same choice for clap's own help and errors: `auto` with `NO_COLOR` set is
    /// `never` here, whatever else clap's terminal library reads (`CLICOLOR_FORCE`).
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorChoice::Auto if !self.allowed() => clap::ColorChoice::Never,
            ColorChoice::Auto => clap::ColorChoice::Auto,
            ColorChoice::Always => clap::ColorChoice::Always,
            ColorChoice::Never => clap::ColorChoice::Never,
        }
    }

    /// The choice of the command line `args` (`--color X` or `--color=X` before any `--`),
    /// else of `BEAST_COLOR`, else `auto`: read before clap parses, so that clap's own
    /// errors follow it. A typed value that is not a choice is left for clap to refuse.
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
        let env = ColorChoice::from_environment().ok().flatten();
        typed
            .and_then(|v| ColorChoice::from_str(v, true).ok())
            .or(env)
            .unwrap_or_default()
    }

    /// `BEAST_COLOR`, if set: the choice, or the warning for a value that is none. A bad
    /// value in the environment is a machine's default gone wrong, not a usage error: it
    /// is ignored with that warning (and `auto` stands), so that `beast FILE` still runs;
    /// a bad `--color` typed is refused by clap. Set but empty is a warning too: clap
    /// would refuse the empty value.
    pub fn from_environment() -> Result<Option<ColorChoice>, String> {
        use clap::ValueEnum;
        let Some(value) = std::env::var_os(COLOR_VARIABLE) else {
            return Ok(None);
        };
        let text = value.to_string_lossy();
        ColorChoice::from_str(&text, true).map(Some).map_err(|_| {
            format!(
                "warning: {COLOR_VARIABLE}={} is not auto, always or never: ignored (auto)",
                text.escape_debug()
            )
        })
    }
}

/// The variable that gives `--color` its default.
pub const COLOR_VARIABLE: &str = "BEAST_COLOR";

/// Hands the choice of colour to [`ColorChoice`] alone: crossterm, which paints, would
/// otherwise drop every colour (and leave bare reset codes) when `NO_COLOR` is set, even
/// under `--color always`. Called once, before anything is painted.
pub fn decide_colour_here() {
    crossterm::style::force_color_output(true);
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
