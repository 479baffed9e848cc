//! The field as text art: posts `+`, built fences `---` and `|`, each pen's sheep count with
//! `Y` or `F` after it once someone owns it, and post labels (column letters across the top,
//! row numbers down the side) so fences can be typed.
//!
//! ```text
//!     a   b   c
//!  1  +---+---+
//!     | 3Y  7 |
//!  2  +---+   +
//!       5   2F|
//!  3  +   +---+
//! ```

use crate::play::{Color, Line, Span};

use super::field::{Field, Side};
use super::notation::{Fence, Post};

/// How to draw: plain for the command line, or with marks for the interactive screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The fence under the cursor, drawn `===` or `#` in yellow.
    pub cursor: Option<Fence>,
    /// A fence to pick out in cyan, such as the farmer's latest.
    pub highlight: Option<Fence>,
    /// Draw unbuilt fences as faint dots, so the places to build are visible.
    pub dots: bool,
}

/// The legend printed under the art.
pub const LEGEND: &str = "Numbers are sheep; Y marks your pens, F the farmer's.";

/// The field as lines of coloured spans, top to bottom.
pub fn render(field: &Field, opts: &Options) -> Vec<Line> {
    let size = field.size();
    let (cols, rows) = (size.cols(), size.rows());
    let mut lines = Vec::with_capacity(2 * rows + 2);

    let mut head = String::from("    ");
    for c in 0..=cols {
        head.push(char::from(b'a' + c as u8));
        if c < cols {
            head.push_str("   ");
        }
    }
    lines.push(Line::plain(head));

    for r in 0..=rows {
        // A line of posts and horizontal fences.
        let mut b = Builder::new(format!("{:>2}  ", r + 1));
        for c in 0..=cols {
            b.push("+", Color::Default);
            if c < cols {
                let fence = Fence::across(post(c, r));
                b.fence(field, opts, fence, "---", " . ", "===");
            }
        }
        lines.push(b.line());
        if r == rows {
            break;
        }
        // A line of vertical fences and pens.
        let mut b = Builder::new("    ".to_string());
        for c in 0..=cols {
            let fence = Fence::down(post(c, r));
            b.fence(field, opts, fence, "|", ".", "#");
            if c < cols {
                let pen = r * cols + c;
                let (mark, color) = match field.owner(pen) {
                    Some(Side::You) => (Side::You.mark(), Color::Green),
                    Some(Side::Farmer) => (Side::Farmer.mark(), Color::Red),
                    None => (' ', Color::Default),
                };
                b.push(&format!("{:>2}{mark}", field.sheep(pen)), color);
            }
        }
        lines.push(b.line());
    }
    lines
}

/// The field as plain text lines, as the command line prints it.
pub fn text(field: &Field) -> Vec<String> {
    render(field, &Options::default())
        .iter()
        .map(|l| l.text().trim_end().to_string())
        .collect()
}

fn post(col: usize, row: usize) -> Post {
    // Fits: a field has at most 26 post columns and rows.
    Post::new(col as u16, row as u16)
}

/// Collects spans, merging neighbours of the same colour.
struct Builder {
    spans: Vec<Span>,
}

impl Builder {
    fn new(label: String) -> Builder {
        Builder {
            spans: vec![Span {
                text: label,
                color: Color::Grey,
            }],
        }
    }

    fn push(&mut self, text: &str, color: Color) {
        match self.spans.last_mut() {
            Some(last) if last.color == color => last.text.push_str(text),
            _ => self.spans.push(Span {
                text: text.to_string(),
                color,
            }),
        }
    }

    /// Draws `fence`: `built` if built, else blank (or `dot`); `cursor` under the cursor.
    fn fence(
        &mut self,
        field: &Field,
        opts: &Options,
        fence: Fence,
        built: &str,
        dot: &str,
        cursor: &str,
    ) {
        let is_built = field.is_built(fence);
        if opts.cursor == Some(fence) {
            self.push(if is_built { built } else { cursor }, Color::Yellow);
        } else if is_built && opts.highlight == Some(fence) {
            self.push(built, Color::Cyan);
        } else if is_built {
            self.push(built, Color::White);
        } else if opts.dots {
            self.push(dot, Color::Grey);
        } else {
            self.push(&" ".repeat(built.len()), Color::Default);
        }
    }

    fn line(self) -> Line {
        Line(self.spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fence::field::Size;

    #[test]
    fn an_empty_field_shows_posts_labels_and_sheep() {
        let f = Field::start(1, Size::new(2, 1).expect("size"));
        let (a, b) = (f.sheep(0), f.sheep(1));
        assert_eq!(
            text(&f),
            vec![
                "    a   b   c".to_string(),
                " 1  +   +   +".to_string(),
                format!("      {a}   {b}"),
                " 2  +   +   +".to_string(),
            ]
        );
    }

    #[test]
    fn built_fences_are_dashes_and_bars_and_owned_pens_are_marked() {
        let f = Field::start(1, Size::new(2, 1).expect("size"));
        let mut g = f.clone();
        for m in ["a1-b1", "b1-c1", "a2-b2", "a1-a2", "b1-b2"] {
            let side = g.to_move().expect("not over");
            g = g.build_text(side, m).expect("legal");
        }
        // you a1-b1, farmer b1-c1, you a2-b2, farmer a1-a2, you b1-b2 closes a1.
        let (a, b) = (f.sheep(0), f.sheep(1));
        assert_eq!(
            text(&g),
            vec![
                "    a   b   c".to_string(),
                " 1  +---+---+".to_string(),
                format!("    | {a}Y| {b}"),
                " 2  +---+   +".to_string(),
            ]
        );
    }

    #[test]
    fn the_cursor_and_dots_show_on_the_screen() {
        let f = Field::start(1, Size::new(1, 1).expect("size"));
        let opts = Options {
            cursor: Some(Fence::across(Post::new(0, 1))),
            highlight: None,
            dots: true,
        };
        let lines: Vec<String> = render(&f, &opts).iter().map(Line::text).collect();
        assert_eq!(lines[1], " 1  + . +");
        assert!(lines[2].starts_with("    .") && lines[2].ends_with('.'));
        assert_eq!(lines[3], " 2  +===+");
    }
}
