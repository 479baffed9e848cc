//! The pure interactive screen for `beast fence --play`: a cursor over the fences moved with
//! the arrow keys (or `hjkl`), Enter or space to build, the farmer's replies shown one fence
//! per key press with the step that chose each, the score always on screen, the result line at
//! the end, and `q` or Esc to quit. No terminal here: keys in, lines out.
//!
//! The cursor moves over fences only. Left and right run along a row of fences of the same
//! kind; down goes from a horizontal fence to the vertical fence below its left post, and
//! from a vertical fence to the horizontal fence below its top post; up goes back.

use crate::play::{self, Color, Flow, Key, Line, Screen, Viewport, Window};

use super::art::{self, Options};
use super::field::{Field, Move, Side};
use super::notation::{Fence, Orient, Post};

/// How many of the farmer's latest moves the screen lists.
const RECENT: usize = 4;

/// A game of Fence Posts being played with keys.
#[derive(Clone, Debug)]
pub struct FenceScreen {
    field: Field,
    cursor: Fence,
    message: String,
    /// The window, once the terminal has told it; until then the frame shows the whole art.
    size: Option<Window>,
    /// The part of the art (without its labels) shown in the window.
    view: Viewport,
}

impl FenceScreen {
    /// A screen over `field`, with the cursor on the first fence (`a1-b1`).
    pub fn new(field: Field) -> FenceScreen {
        let message = match field.to_move() {
            Some(Side::You) => "Move the cursor to a fence and press Enter to build it.",
            Some(Side::Farmer) => "The farmer is to move: press Enter to see its next fence.",
            None => "The game is over.",
        };
        FenceScreen {
            field,
            cursor: Fence::across(Post::new(0, 0)),
            message: message.to_string(),
            size: None,
            view: Viewport::default(),
        }
    }

    /// The part of the art the frame shows, in art columns and rows without the labels.
    pub fn view(&self) -> Viewport {
        self.view
    }

    /// Scrolls the art so that the cursor stays in view with a margin.
    fn follow(&mut self) {
        let Some(size) = self.size else { return };
        let Post { col, row } = self.cursor.post;
        let (col, row) = (usize::from(col), usize::from(row));
        let focus = match self.cursor.orient {
            Orient::Across => (4 * col + 2, 2 * row),
            Orient::Down => (4 * col, 2 * row + 1),
        };
        self.view.follow(
            focus,
            art_body(&self.field),
            (
                size.cols.saturating_sub(ART_LABEL).max(1),
                size.rows.saturating_sub(CHROME_ROWS).max(1),
            ),
        );
    }

    /// The game as it stands.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The fence under the cursor.
    pub fn cursor(&self) -> Fence {
        self.cursor
    }

    /// The fences the player built, in order, to replay the game with `beast fence`.
    pub fn your_moves(&self) -> Vec<Fence> {
        self.field
            .log()
            .iter()
            .filter(|m| m.by == Side::You)
            .map(|m| m.fence)
            .collect()
    }

    fn move_cursor(&mut self, key: Key) {
        let (cols, rows) = (
            self.field.size().cols() as u16,
            self.field.size().rows() as u16,
        );
        let Post { col: c, row: r } = self.cursor.post;
        let next = match (self.cursor.orient, key) {
            (_, Key::Left) if c > 0 => Fence {
                post: Post::new(c - 1, r),
                ..self.cursor
            },
            (Orient::Across, Key::Right) if c + 1 < cols => Fence::across(Post::new(c + 1, r)),
            (Orient::Down, Key::Right) if c < cols => Fence::down(Post::new(c + 1, r)),
            (Orient::Across, Key::Down) if r < rows => Fence::down(Post::new(c, r)),
            (Orient::Down, Key::Down) => Fence::across(Post::new(c.min(cols - 1), r + 1)),
            (Orient::Across, Key::Up) if r > 0 => Fence::down(Post::new(c, r - 1)),
            (Orient::Down, Key::Up) => Fence::across(Post::new(c.min(cols - 1), r)),
            _ => self.cursor,
        };
        self.cursor = next;
    }

    fn act(&mut self) {
        let result = match self.field.to_move() {
            None => {
                self.message = "The game is over. Press q to quit.".to_string();
                return;
            }
            Some(Side::You) => self.field.build(Side::You, self.cursor),
            Some(Side::Farmer) => self.field.rule_move(Side::Farmer),
        };
        match result {
            Ok(next) => {
                self.field = next;
                let last = self.field.log().last().map(describe).unwrap_or_default();
                let then = match self.field.to_move() {
                    Some(Side::Farmer) => " The farmer is to move: press Enter for its next fence.",
                    Some(Side::You) => " Your move.",
                    None => "",
                };
                self.message = format!("{last}{then}");
            }
            Err(refusal) => self.message = format!("Refused: {}.", refusal.reason),
        }
    }
}

/// `1 pen` or `3 pens`.
fn pens(n: u32) -> String {
    if n == 1 {
        "1 pen".to_string()
    } else {
        format!("{n} pens")
    }
}

/// `You built a1-b1.` or `The farmer built c3-d3 (close) and claimed c3.`
fn describe(m: &Move) -> String {
    let who = match m.by {
        Side::You => "You",
        Side::Farmer => "The farmer",
    };
    let step = m.step.map(|s| format!(" ({s})")).unwrap_or_default();
    let claimed = if m.claimed.is_empty() {
        String::new()
    } else {
        let pens: Vec<String> = m.claimed.iter().map(ToString::to_string).collect();
        format!(" and claimed {}", pens.join(" and "))
    };
    format!("{who} built {}{step}{claimed}.", m.fence)
}

impl Screen for FenceScreen {
    fn key(&mut self, key: Key) -> Flow {
        match key {
            Key::Esc | Key::Char('q') | Key::Char('Q') => return Flow::Quit,
            Key::Enter | Key::Char(' ') => self.act(),
            Key::Char('h') => self.move_cursor(Key::Left),
            Key::Char('j') => self.move_cursor(Key::Down),
            Key::Char('k') => self.move_cursor(Key::Up),
            Key::Char('l') => self.move_cursor(Key::Right),
            Key::Up | Key::Down | Key::Left | Key::Right => self.move_cursor(key),
            Key::Char(_) => {}
        }
        self.follow();
        Flow::Continue
    }

    /// On the farmer's turn, plays its next fence, so its replies appear one by one at the
    /// terminal's pace; on yours, waits for a key.
    fn tick(&mut self) -> bool {
        if self.field.to_move() == Some(Side::Farmer) {
            self.act();
            true
        } else {
            false
        }
    }

    fn frame(&self) -> Vec<Line> {
        let f = &self.field;
        let (you, farmer) = (f.score(Side::You), f.score(Side::Farmer));
        let head = vec![
            Line::plain(format!("Fence Posts {} - seed {}", f.size(), f.seed())),
            Line::default()
                .with(
                    format!("You: {} sheep, {}", you.sheep, pens(you.pens)),
                    Color::Green,
                )
                .with("   ", Color::Default)
                .with(
                    format!("Farmer: {} sheep, {}", farmer.sheep, pens(farmer.pens)),
                    Color::Red,
                )
                .with(format!("   {} fences left", f.fences().len()), Color::Grey),
        ];
        let farmer_last = f
            .log()
            .last()
            .filter(|m| m.by == Side::Farmer)
            .map(|m| m.fence);
        let opts = Options {
            cursor: (f.to_move() == Some(Side::You)).then_some(self.cursor),
            highlight: farmer_last,
            dots: true,
        };
        let art = art::render(f, &opts);
        let status_color = if f.is_over() {
            Color::Yellow
        } else {
            Color::White
        };
        let status = Line::default().with(f.status_line(), status_color);
        let recent: Vec<String> = f
            .log()
            .iter()
            .rev()
            .filter(|m| m.by == Side::Farmer)
            .take(RECENT)
            .map(|m| {
                let step = m.step.map_or("", |s| s.name());
                format!("{} {step}", m.fence)
            })
            .collect();
        let recent = (!recent.is_empty()).then(|| {
            Line::default().with(
                format!("Farmer's latest fences: {}", recent.join(", ")),
                Color::Grey,
            )
        });
        let cursor = if f.to_move() == Some(Side::You) {
            format!("Cursor on {}. ", self.cursor)
        } else {
            String::new()
        };
        let help = Line::default().with(
            format!("{cursor}Arrows or hjkl move, Enter or space builds, q quits."),
            Color::Grey,
        );
        let legend = Line::default().with(art::LEGEND, Color::Grey);
        let Some(size) = self.size else {
            let mut lines = head;
            lines.push(Line::default());
            lines.extend(art);
            lines.push(Line::default());
            lines.extend([legend, status, Line::plain(self.message.clone())]);
            lines.extend(recent);
            lines.push(help);
            return lines;
        };
        // In a window: no blank lines, the art scrolled to the cursor with its labels
        // pinned, every line cut to the width and the message wrapped.
        let mut lines = head;
        let v = &self.view;
        let view = |line: &Line| {
            let mut out = line.slice(0, ART_LABEL);
            out.0.extend(line.slice(ART_LABEL + v.left, v.cols).0);
            out
        };
        if let Some(letters) = art.first() {
            lines.push(view(letters));
        }
        lines.extend(art.iter().skip(1 + v.top).take(v.rows).map(view));
        lines.extend([legend, status]);
        lines.extend(
            play::wrap(&self.message, size.cols, 2)
                .into_iter()
                .map(Line::plain),
        );
        lines.extend(recent);
        lines.push(help);
        if !v.shows_all(art_body(f)) {
            lines[0] = lines[0].clone().with(
                format!(
                    "  view cols {}-{}/{} rows {}-{}/{}",
                    v.left,
                    v.left + v.cols - 1,
                    art_body(f).0,
                    v.top,
                    v.top + v.rows - 1,
                    art_body(f).1
                ),
                Color::Grey,
            );
        }
        lines.iter().map(|l| l.fit(size.cols)).collect()
    }

    fn resize(&mut self, size: Window) {
        self.size = Some(size);
        self.follow();
    }
}

/// Columns of row labels at the left of the art, kept in view when it scrolls.
const ART_LABEL: usize = 4;

/// Lines of a windowed frame that are not the art's body: title, score, column letters,
/// legend, status, two of message, the farmer's latest fences and the help.
const CHROME_ROWS: usize = 9;

/// Columns and rows of the art without its labels.
fn art_body(f: &Field) -> (usize, usize) {
    (4 * f.size().cols() + 1, 2 * f.size().rows() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fence::field::{Size, Step};
    use crate::fence::notation::parse_fence;

    fn fence(text: &str) -> Fence {
        parse_fence(text).expect("test fence")
    }

    fn screen(seed: u64, cols: usize, rows: usize) -> FenceScreen {
        FenceScreen::new(Field::start(seed, Size::new(cols, rows).expect("size")))
    }

    fn press(s: &mut FenceScreen, keys: &[Key]) {
        for &k in keys {
            assert_eq!(s.key(k), Flow::Continue, "{k:?}");
        }
    }

    fn text(s: &FenceScreen) -> Vec<String> {
        s.frame().iter().map(Line::text).collect()
    }

    #[test]
    fn arrows_move_the_cursor_over_fences_only() {
        let mut s = screen(1, 2, 2);
        assert_eq!(s.cursor(), fence("a1-b1"));
        let steps = [
            (Key::Right, "b1-c1"),
            (Key::Right, "b1-c1"), // the edge stops it
            (Key::Down, "b1-b2"),
            (Key::Right, "c1-c2"),
            (Key::Down, "b2-c2"), // from the right edge, the last column
            (Key::Down, "b2-b3"),
            (Key::Down, "b3-c3"),
            (Key::Down, "b3-c3"), // the bottom stops it
            (Key::Up, "b2-b3"),
            (Key::Up, "b2-c2"),
            (Key::Left, "a2-b2"),
            (Key::Up, "a1-a2"),
            (Key::Up, "a1-b1"),
            (Key::Up, "a1-b1"),
            (Key::Left, "a1-b1"),
        ];
        for (key, want) in steps {
            s.key(key);
            assert_eq!(s.cursor(), fence(want), "after {key:?}");
        }
    }

    #[test]
    fn enter_builds_the_fence_under_the_cursor() {
        let mut s = screen(1, 2, 2);
        press(&mut s, &[Key::Down, Key::Enter]);
        assert!(s.field().is_built(fence("a1-a2")));
        assert_eq!(s.field().to_move(), Some(Side::Farmer));
        assert!(text(&s).iter().any(|l| l.starts_with("You built a1-a2.")));
    }

    #[test]
    fn a_refused_build_says_why_and_changes_nothing() {
        let mut s = screen(1, 2, 2);
        press(&mut s, &[Key::Enter, Key::Enter]); // you build a1-b1, the farmer replies
        let before = s.field().clone();
        press(&mut s, &[Key::Enter]); // a1-b1 again
        assert_eq!(s.field(), &before);
        assert!(
            text(&s)
                .iter()
                .any(|l| l == "Refused: a1-b1 is already built.")
        );
    }

    #[test]
    fn the_farmers_replies_appear_one_by_one_with_their_step() {
        // 2x1: pen a1 has its top and bottom; you give it a third side with a1-a2.
        let mut f = Field::start(5, Size::new(2, 1).expect("size"));
        f = f.build_text(Side::You, "a1-b1").expect("legal");
        f = f.build_text(Side::Farmer, "a2-b2").expect("legal");
        let mut s = FenceScreen::new(f);
        press(&mut s, &[Key::Down, Key::Enter]);
        assert_eq!(s.field().log().len(), 3, "nothing from the farmer yet");
        press(&mut s, &[Key::Enter]);
        let last = s.field().log().last().expect("a move").clone();
        assert_eq!((last.fence, last.step), (fence("b1-b2"), Some(Step::Close)));
        assert!(
            text(&s)
                .iter()
                .any(|l| l.starts_with("The farmer built b1-b2 (close) and claimed a1."))
        );
        assert_eq!(
            s.field().to_move(),
            Some(Side::Farmer),
            "the farmer moves again"
        );
        press(&mut s, &[Key::Enter]);
        let last = s.field().log().last().expect("a move").clone();
        assert_eq!(last.step, Some(Step::Safe));
        assert!(text(&s).iter().any(|l| l.contains("(safe). Your move.")));
    }

    #[test]
    fn ticks_play_the_farmers_replies_one_at_a_time_and_never_your_move() {
        let mut s = screen(7, 4, 4);
        assert!(!s.tick(), "nothing happens on your turn");
        assert_eq!(s.field().log().len(), 0);
        press(&mut s, &[Key::Enter]);
        assert_eq!(s.field().to_move(), Some(Side::Farmer));
        assert!(s.tick());
        assert_eq!(s.field().log().len(), 2, "one farmer fence per tick");
        while s.tick() {}
        assert_eq!(s.field().to_move(), Some(Side::You));
    }

    #[test]
    fn the_score_is_always_on_screen() {
        let mut s = screen(3, 1, 1);
        assert_eq!(
            text(&s)[1],
            "You: 0 sheep, 0 pens   Farmer: 0 sheep, 0 pens   4 fences left"
        );
        press(&mut s, &[Key::Enter, Key::Enter]);
        assert!(text(&s)[1].ends_with("2 fences left"));
    }

    #[test]
    fn a_scripted_game_ends_with_the_result_line() {
        // 1x1: visit every fence in turn; three presses of Enter at each let the farmer reply.
        let mut s = screen(8, 1, 1);
        let enter3 = [Key::Enter; 3];
        for step in [None, Some(Key::Down), Some(Key::Right), Some(Key::Down)] {
            if let Some(k) = step {
                press(&mut s, &[k]);
            }
            press(&mut s, &enter3);
        }
        assert!(s.field().is_over());
        let sheep = s.field().sheep(0);
        let winner = s.field().owner(0).expect("the pen is claimed");
        let want = match winner {
            Side::You => {
                format!("You win: {sheep} sheep in 1 pen to the farmer's 0 sheep in 0 pens.")
            }
            Side::Farmer => {
                format!("The farmer wins: {sheep} sheep in 1 pen to your 0 sheep in 0 pens.")
            }
        };
        assert!(text(&s).contains(&want), "{:#?}", text(&s));
        let farmer_moves = s
            .field()
            .log()
            .iter()
            .filter(|m| m.by == Side::Farmer)
            .count();
        assert_eq!(s.your_moves().len() + farmer_moves, 4);
    }

    const TERMINAL: Window = Window { cols: 80, rows: 24 };

    /// True if the frame fits the window and shows the cursor (drawn in yellow).
    fn fits_with_cursor(s: &FenceScreen, size: Window) -> bool {
        let frame = s.frame();
        let fits = frame.len() <= size.rows && frame.iter().all(|l| l.width() <= size.cols);
        let cursor = frame
            .iter()
            .any(|l| l.0.iter().any(|span| span.color == Color::Yellow));
        fits && cursor
    }

    #[test]
    fn a_25x25_field_fits_80x24_and_the_view_follows_the_cursor() {
        let mut s = screen(4, 25, 25);
        s.resize(TERMINAL);
        assert!(fits_with_cursor(&s, TERMINAL), "{:#?}", text(&s));
        assert!(
            text(&s)[0].contains("view cols 0-75/101 rows 0-14/51"),
            "{}",
            text(&s)[0]
        );
        for key in [Key::Right; 24].into_iter().chain([Key::Down; 50]) {
            s.key(key);
            assert!(
                fits_with_cursor(&s, TERMINAL),
                "after {key:?}: {:#?}",
                text(&s)
            );
        }
        assert_eq!(s.cursor(), fence("y26-z26"), "the far corner");
        assert_eq!((s.view().left, s.view().top), (101 - 76, 51 - 15));
        let letters = &text(&s)[2];
        assert!(
            letters.starts_with("    ") && letters.trim_end().ends_with('z'),
            "{letters}"
        );
    }

    #[test]
    fn q_and_esc_quit() {
        let mut s = screen(1, 1, 1);
        assert_eq!(s.key(Key::Char('q')), Flow::Quit);
        assert_eq!(s.key(Key::Esc), Flow::Quit);
        assert_eq!(s.key(Key::Char('x')), Flow::Continue);
    }
}
