//! The pure half of interactive play: a key goes in, the state changes, a frame of styled
//! lines comes out. The terminal half (raw mode, drawing, restoring) lives in `cli`.

/// A key press, independent of any terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Enter or Return.
    Enter,
    /// Escape.
    Esc,
    /// A printable character.
    Char(char),
}

/// What the loop does after a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading keys.
    Continue,
    /// The user asked to quit.
    Quit,
}

/// A colour for a span of text; the terminal half maps it, and drops it under `NO_COLOR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// The terminal's default colour.
    Default,
    /// Red.
    Red,
    /// Green.
    Green,
    /// Yellow.
    Yellow,
    /// Blue.
    Blue,
    /// Magenta.
    Magenta,
    /// Cyan.
    Cyan,
    /// Bright white.
    White,
    /// Dim grey.
    Grey,
}

/// A run of text in one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text; no control characters.
    pub text: String,
    /// Its foreground colour.
    pub color: Color,
}

/// One screen line made of spans.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line(pub Vec<Span>);

impl Line {
    /// A line of uncoloured text.
    pub fn plain(text: impl Into<String>) -> Line {
        Line(vec![Span {
            text: text.into(),
            color: Color::Default,
        }])
    }

    /// Appends a span and returns the line, for chaining.
    pub fn with(mut self, text: impl Into<String>, color: Color) -> Line {
        self.0.push(Span {
            text: text.into(),
            color,
        });
        self
    }

    /// The line's text without colours.
    pub fn text(&self) -> String {
        self.0.iter().map(|s| s.text.as_str()).collect()
    }

    /// The line's width in terminal columns (every glyph used here is one column wide).
    pub fn width(&self) -> usize {
        self.0.iter().map(|s| s.text.chars().count()).sum()
    }
}

/// An interactive game screen: the pure part of a play loop.
pub trait Screen {
    /// Applies one key press and says whether to go on.
    fn key(&mut self, key: Key) -> Flow;
    /// The frame to draw now, top to bottom.
    fn frame(&self) -> Vec<Line>;
    /// Advances a timed playback by one step; true if the frame changed. Screens without a
    /// playback keep the default, which does nothing.
    fn tick(&mut self) -> bool {
        false
    }
}
