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

    /// The columns `start..start + width` of the line, colours kept; shorter if the line
    /// ends first.
    pub fn slice(&self, start: usize, width: usize) -> Line {
        let mut out = Line::default();
        let (mut skip, mut left) = (start, width);
        for span in &self.0 {
            if left == 0 {
                break;
            }
            let n = span.text.chars().count();
            if skip >= n {
                skip -= n;
                continue;
            }
            let text: String = span.text.chars().skip(skip).take(left).collect();
            left -= text.chars().count();
            skip = 0;
            out.0.push(Span {
                text,
                color: span.color,
            });
        }
        out
    }

    /// The line cut to `width` columns, ending in `…` where something was cut off.
    pub fn fit(&self, width: usize) -> Line {
        if self.width() <= width {
            return self.clone();
        }
        let mut out = self.slice(0, width.saturating_sub(1));
        if width > 0 {
            out.0.push(Span {
                text: "…".to_string(),
                color: Color::Grey,
            });
        }
        out
    }
}

/// `text` word-wrapped to lines of at most `width` columns, at most `max_lines` of them; the
/// last line ends in `…` if words were left over.
pub fn wrap(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let cur = current.chars().count();
        let w = word.chars().count();
        if cur > 0 && cur + 1 + w > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    let cut = lines.len() > max_lines;
    lines.truncate(max_lines.max(1));
    for line in &mut lines {
        if line.chars().count() > width {
            *line = Line::plain(line.as_str()).fit(width).text();
        }
    }
    if cut && let Some(last) = lines.last_mut() {
        let kept: String = last.chars().take(width.saturating_sub(1)).collect();
        *last = format!("{kept}…");
    }
    lines
}

/// The window's size in terminal columns and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

/// How close, in cells, the focus may come to the edge of a [`Viewport`] before it scrolls.
pub const MARGIN: usize = 4;

/// The part of a picture larger than the window that is shown, as roguelikes do: it
/// scrolls only when the focus (the player, the cursor) comes within [`MARGIN`] of an edge,
/// and by just enough to keep that margin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewport {
    /// The first column shown, in picture units (cells).
    pub left: usize,
    /// The first row shown.
    pub top: usize,
    /// How many columns are shown.
    pub cols: usize,
    /// How many rows are shown.
    pub rows: usize,
}

impl Viewport {
    /// Sets the window to `cols` x `rows` units over a picture of `total_cols` x
    /// `total_rows`, and scrolls as little as keeps `(focus_col, focus_row)` inside with a
    /// margin. A picture smaller than the window is shown whole from its corner.
    pub fn follow(
        &mut self,
        (focus_col, focus_row): (usize, usize),
        (total_cols, total_rows): (usize, usize),
        (cols, rows): (usize, usize),
    ) {
        self.cols = cols.min(total_cols);
        self.rows = rows.min(total_rows);
        self.left = follow_axis(self.left, focus_col, total_cols, self.cols);
        self.top = follow_axis(self.top, focus_row, total_rows, self.rows);
    }

    /// True if the whole picture is shown.
    pub fn shows_all(&self, (total_cols, total_rows): (usize, usize)) -> bool {
        self.cols >= total_cols && self.rows >= total_rows
    }
}

/// One axis of [`Viewport::follow`]: the new first unit shown.
fn follow_axis(start: usize, focus: usize, total: usize, shown: usize) -> usize {
    if shown >= total {
        return 0;
    }
    if shown == 0 {
        return start.min(total);
    }
    let margin = MARGIN.min((shown - 1) / 2);
    let mut start = start;
    if focus < start + margin {
        start = focus.saturating_sub(margin);
    }
    if focus + margin >= start + shown {
        start = focus + margin + 1 - shown;
    }
    start.min(total - shown)
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
    /// Tells the screen the window's size, before every frame; a screen larger than the
    /// window shows the part around its focus. Screens that always fit keep the default,
    /// which ignores it.
    fn resize(&mut self, _window: Window) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_keeps_the_colours_of_the_columns_it_keeps() {
        let line = Line::default()
            .with("ab", Color::Red)
            .with("cde", Color::Green);
        let cut = line.slice(1, 3);
        assert_eq!(cut.text(), "bcd");
        assert_eq!(cut.0[0].color, Color::Red);
        assert_eq!(cut.0[1].color, Color::Green);
        assert_eq!(line.slice(4, 10).text(), "e");
        assert_eq!(line.slice(9, 10).text(), "");
    }

    #[test]
    fn a_long_line_is_cut_with_an_ellipsis() {
        assert_eq!(Line::plain("abcdef").fit(4).text(), "abc…");
        assert_eq!(Line::plain("abc").fit(4).text(), "abc");
    }

    #[test]
    fn a_long_message_wraps_and_then_shortens() {
        assert_eq!(wrap("one two three", 7, 2), ["one two", "three"]);
        assert_eq!(wrap("one two three four", 7, 2), ["one two", "three…"]);
        assert_eq!(wrap("abcdefghij", 4, 2), ["abc…"]);
    }

    #[test]
    fn the_viewport_scrolls_only_near_an_edge_and_keeps_the_margin() {
        let mut v = Viewport::default();
        v.follow((5, 5), (100, 50), (20, 10));
        assert_eq!(
            (v.left, v.top),
            (0, 0),
            "row 5 is 4 clear of the bottom of 10"
        );
        v.follow((5, 6), (100, 50), (20, 10));
        assert_eq!((v.left, v.top), (0, 1), "row 6 would be within the margin");
        v.follow((14, 5), (100, 50), (20, 10));
        assert_eq!(v.left, 0, "column 14 is 5 from the right edge: no scroll");
        v.follow((16, 5), (100, 50), (20, 10));
        assert_eq!(v.left, 1, "column 16 needs a margin of 4 to the right");
        v.follow((99, 49), (100, 50), (20, 10));
        assert_eq!((v.left, v.top), (80, 40), "never past the end");
        v.follow((0, 0), (100, 50), (20, 10));
        assert_eq!((v.left, v.top), (0, 0));
    }

    #[test]
    fn a_picture_smaller_than_the_window_is_shown_whole() {
        let mut v = Viewport {
            left: 3,
            top: 3,
            ..Viewport::default()
        };
        v.follow((2, 2), (10, 5), (80, 20));
        assert_eq!(
            v,
            Viewport {
                left: 0,
                top: 0,
                cols: 10,
                rows: 5
            }
        );
        assert!(v.shows_all((10, 5)));
    }
}
