//! Interactive beast play, the pure half: keys go in, the game moves through the same
//! [`Game::apply`] the judge uses, and a frame of styled lines comes out.

use crate::beast::game::{Game, Status};
use crate::beast::parse::{Move, Puzzle, move_string};
use crate::beast::render::{self, Style};
use crate::beast::rules::Rules;
use crate::grid::Dir;
use crate::play::{self, Color, Flow, Key, Line, Screen, Viewport, Window};

/// Lines of a frame that are not the board: the title, the status, the outcome and two of
/// message.
const CHROME_ROWS: usize = 5;

/// A beast puzzle being played by a person, with undo and restart.
#[derive(Clone, Debug)]
pub struct BeastScreen {
    puzzle: Puzzle,
    rules: Rules,
    style: Style,
    game: Game,
    typed: Vec<Move>,
    /// Moves still to play back in a replay, in order.
    script: Vec<Move>,
    message: String,
    /// The window, once the terminal has told it; until then the frame shows the whole map.
    size: Option<Window>,
    /// The part of the map shown in the window.
    view: Viewport,
}

impl BeastScreen {
    /// A screen on the puzzle's map at turn 0; the puzzle's own moves are not played.
    pub fn new(puzzle: Puzzle, rules: Rules, style: Style) -> Self {
        let game = Game::new(&puzzle, rules);
        BeastScreen {
            message: "Arrows, hjkl or wasd move; . or space waits; u undo, r restart, q quit."
                .to_string(),
            puzzle,
            rules,
            style,
            game,
            typed: Vec::new(),
            script: Vec::new(),
            size: None,
            view: Viewport::default(),
        }
    }

    /// The part of the map the frame shows.
    pub fn view(&self) -> Viewport {
        self.view
    }

    /// Scrolls the view so that the player stays in it with a margin.
    fn follow(&mut self) {
        let Some(size) = self.size else { return };
        let map = self.game.map();
        let p = self.game.player();
        self.view.follow(
            (p.col, p.row),
            (map.cols(), map.rows()),
            (
                size.cols / render::cell_width(self.style),
                size.rows.saturating_sub(CHROME_ROWS).max(1),
            ),
        );
    }

    /// The title, with the part of the map shown when it is not all of it.
    fn title(&self) -> Line {
        let title = Line::default().with("aHHHH! The Beasts are HHHHere!", Color::White);
        let map = self.game.map();
        let v = &self.view;
        if self.size.is_none() || v.shows_all((map.cols(), map.rows())) {
            return title;
        }
        title.with(
            format!(
                "  view ({},{})-({},{}) of {}x{}",
                v.top,
                v.left,
                v.top + v.rows - 1,
                v.left + v.cols - 1,
                map.cols(),
                map.rows()
            ),
            Color::Grey,
        )
    }

    /// The same screen set to play the puzzle's own moves back, one per [`Screen::tick`].
    pub fn replaying(mut self) -> Self {
        self.script = self.puzzle.moves().iter().rev().copied().collect();
        let moves = crate::words::count(self.script.len() as u64, "move");
        self.message = format!("Replaying {moves}; q quits.");
        self
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves played so far, as a move string for `beast`.
    pub fn moves(&self) -> String {
        move_string(&self.typed)
    }

    fn play(&mut self, m: Move) {
        match self.game.apply(m) {
            Ok(step) => {
                self.typed.push(m);
                self.message = render::describe(&step, &self.game);
            }
            Err(_) => self.message = "The game is over: u undoes, r restarts, q quits.".into(),
        }
    }

    /// Replays every typed move but the last from the start: the exact previous state.
    fn undo(&mut self) {
        if self.typed.pop().is_none() {
            self.message = "Nothing to undo.".into();
            return;
        }
        self.game = Game::new(&self.puzzle, self.rules);
        for &m in &self.typed {
            // Replaying moves accepted before cannot be refused.
            let _ = self.game.apply(m);
        }
        self.message = format!("Undone: back at turn {}.", self.game.turn());
    }

    fn restart(&mut self) {
        self.game = Game::new(&self.puzzle, self.rules);
        self.typed.clear();
        self.script.clear();
        self.message = "Restarted.".into();
    }
}

/// The move a key asks for, if any.
fn key_move(key: Key) -> Option<Move> {
    let dir = match key {
        Key::Up | Key::Char('k' | 'w') => Dir::Up,
        Key::Down | Key::Char('j' | 's') => Dir::Down,
        Key::Left | Key::Char('h' | 'a') => Dir::Left,
        Key::Right | Key::Char('l' | 'd') => Dir::Right,
        Key::Char('.' | ' ') => return Some(Move::Wait),
        _ => return None,
    };
    Some(Move::Step(dir))
}

impl Screen for BeastScreen {
    fn key(&mut self, key: Key) -> Flow {
        match key {
            Key::Char('q') | Key::Esc => return Flow::Quit,
            Key::Char('u') => self.undo(),
            Key::Char('r') => self.restart(),
            k => match key_move(k) {
                Some(m) if self.script.is_empty() => self.play(m),
                Some(_) => self.message = "Replaying: wait for it, or q to quit.".into(),
                None => {}
            },
        }
        self.follow();
        Flow::Continue
    }

    fn resize(&mut self, size: Window) {
        self.size = Some(size);
        self.follow();
    }

    fn tick(&mut self) -> bool {
        match self.script.pop() {
            Some(m) => {
                self.play(m);
                if self.game.status() != Status::Playing {
                    self.script.clear();
                }
                self.follow();
                true
            }
            None => false,
        }
    }

    fn frame(&self) -> Vec<Line> {
        let g = &self.game;
        let mut lines = vec![self.title()];
        match self.size {
            Some(_) => lines.extend(render::board_window(g.map(), self.style, &self.view)),
            None => lines.extend(render::board(g.map(), self.style)),
        }
        let next = if g.beasts_move_next() {
            "beasts move next turn"
        } else {
            "beasts rest next turn"
        };
        lines.push(Line::plain(format!(
            "turn {}  score {}  beasts {}  {next}",
            g.turn(),
            g.score(),
            g.beasts().len()
        )));
        lines.push(match g.status() {
            Status::Eaten => Line::default()
                .with("aHHHH!", Color::Red)
                .with(format!("  score {}", g.score()), Color::Default),
            Status::Won => Line::default().with(
                format!("No beast is left. Score {}", g.score()),
                Color::Green,
            ),
            Status::Playing => Line::plain(""),
        });
        match self.size {
            Some(size) => {
                let cols = size.cols;
                for line in &mut lines {
                    *line = line.fit(cols);
                }
                let mut message = play::wrap(&self.message, cols, 2);
                message.resize(2, String::new());
                lines.extend(message.into_iter().map(Line::plain));
            }
            None => lines.push(Line::plain(self.message.clone())),
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::{Ending, play_out};

    const WIKIPEDIA: &str = include_str!("../../cases/wikipedia.txt");

    fn screen(text: &str, style: Style) -> BeastScreen {
        BeastScreen::new(Puzzle::parse(text).expect("valid"), Rules::default(), style)
    }

    fn keys_for(moves: &str) -> Vec<Key> {
        moves
            .chars()
            .map(|c| match c {
                'U' => Key::Up,
                'D' => Key::Down,
                'L' => Key::Left,
                'R' => Key::Right,
                _ => Key::Char('.'),
            })
            .collect()
    }

    #[test]
    fn the_keys_for_rrdddrrrww_on_the_wikipedia_map_end_eaten() {
        let mut s = screen(WIKIPEDIA, Style::Unicode);
        for k in keys_for("RRDDDRRRWW") {
            assert_eq!(s.key(k), Flow::Continue);
        }
        assert_eq!(s.game().status(), Status::Eaten);
        assert_eq!(s.game().turn(), 10);
        let text: Vec<String> = s.frame().iter().map(Line::text).collect();
        assert!(
            text.iter().any(|l| l.starts_with("aHHHH!  score 0")),
            "{text:?}"
        );
    }

    #[test]
    fn hjkl_wasd_and_arrows_move_alike() {
        for keys in [
            [Key::Right, Key::Down],
            [Key::Char('l'), Key::Char('j')],
            [Key::Char('d'), Key::Char('s')],
        ] {
            let mut s = screen("5 4\n#####\n#O  #\n#  H#\n#####\n", Style::Ascii);
            for k in keys {
                s.key(k);
            }
            assert_eq!(s.moves(), "RD");
        }
    }

    #[test]
    fn undo_restores_the_exact_previous_state() {
        let mut s = screen(WIKIPEDIA, Style::Ascii);
        for k in keys_for("RRDDDRR") {
            s.key(k);
        }
        let before = s.game().clone();
        s.key(Key::Right);
        assert_ne!(s.game().turn(), before.turn());
        s.key(Key::Char('u'));
        assert_eq!(s.game(), &before);
        assert_eq!(s.moves(), "RRDDDRR");
    }

    #[test]
    fn restart_goes_back_to_turn_zero() {
        let mut s = screen(WIKIPEDIA, Style::Ascii);
        for k in keys_for("RRD") {
            s.key(k);
        }
        s.key(Key::Char('r'));
        assert_eq!(s.game().turn(), 0);
        assert_eq!(s.moves(), "");
    }

    #[test]
    fn the_printed_move_string_judges_to_the_same_outcome() {
        let mut s = screen(WIKIPEDIA, Style::Ascii);
        for k in keys_for("RRRUWWWRRRURWWWWRDRRWWRDWWWWD") {
            s.key(k);
        }
        assert_eq!(s.game().status(), Status::Won);
        let map = Puzzle::parse(WIKIPEDIA).expect("valid");
        let replayed =
            Puzzle::parse(&format!("{}{}", map.with_moves(Vec::new()), s.moves())).expect("valid");
        assert_eq!(move_string(replayed.moves()), s.moves());
        let o = play_out(&replayed, Rules::default()).expect("judged");
        assert_eq!((o.ending, o.score), (Ending::Won, s.game().score()));
        assert_eq!(o.answer(), "8\n");
    }

    #[test]
    fn q_and_esc_quit() {
        let mut s = screen(WIKIPEDIA, Style::Ascii);
        assert_eq!(s.key(Key::Char('q')), Flow::Quit);
        assert_eq!(s.key(Key::Esc), Flow::Quit);
    }

    #[test]
    fn each_glyph_renders_in_both_styles() {
        let s = screen("6 3\n######\n#O~H #\n######\n", Style::Unicode);
        let frame: Vec<String> = s.frame().iter().map(Line::text).collect();
        assert_eq!(frame[2], "██◄►▓▓├┤  ██");
        let s = screen("6 3\n######\n#O~H #\n######\n", Style::Ascii);
        let frame: Vec<String> = s.frame().iter().map(Line::text).collect();
        assert_eq!(frame[2], "#O~H #");
    }

    #[test]
    fn the_status_line_says_when_the_beasts_move_next() {
        let mut s = screen("6 4\n######\n#O   #\n#   H#\n######\n", Style::Ascii);
        let status = |s: &BeastScreen| s.frame()[5].text();
        assert_eq!(
            status(&s),
            "turn 0  score 0  beasts 1  beasts rest next turn"
        );
        s.key(Key::Char('.'));
        assert_eq!(
            status(&s),
            "turn 1  score 0  beasts 1  beasts move next turn"
        );
    }

    /// An open `cols` x `rows` field in a solid border, the player at `(row, col)`, one
    /// beast walled into the far corner.
    fn open_map(cols: usize, rows: usize, player: (usize, usize)) -> String {
        let mut text = format!("{cols} {rows}\n");
        for r in 0..rows {
            for c in 0..cols {
                text.push(match (r, c) {
                    _ if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 => '#',
                    _ if (r, c) == player => 'O',
                    _ if (r, c) == (rows - 2, cols - 2) => 'H',
                    _ if r + 3 >= rows && c + 3 >= cols => '#',
                    _ => ' ',
                });
            }
            text.push('\n');
        }
        text
    }

    fn fits(frame: &[Line], size: Window) -> bool {
        frame.len() <= size.rows && frame.iter().all(|l| l.width() <= size.cols)
    }

    const TERMINAL: Window = Window { cols: 80, rows: 24 };

    #[test]
    fn the_wikipedia_map_fits_80x24_in_both_styles_as_far_as_it_can() {
        for style in [Style::Ascii, Style::Unicode] {
            let mut s = screen(WIKIPEDIA, style);
            s.resize(TERMINAL);
            let frame = s.frame();
            assert!(fits(&frame, TERMINAL), "{style:?}: {frame:#?}");
            assert_eq!(frame.len(), 24, "{style:?}: every row is used");
            let title = frame[0].text();
            assert!(title.contains("view (0,0)-("), "{style:?}: {title}");
            let player_row = frame
                .iter()
                .any(|l| l.text().contains(glyph_of_player(style)));
            assert!(player_row, "{style:?}: the player is in view");
        }
    }

    fn glyph_of_player(style: Style) -> &'static str {
        render::glyph(crate::beast::Cell::Player, style).0
    }

    #[test]
    fn the_view_follows_the_player_across_a_map_larger_than_the_window() {
        let mut s = screen(&open_map(300, 200, (100, 1)), Style::Ascii);
        s.resize(TERMINAL);
        let start = s.view();
        for _ in 0..250 {
            s.key(Key::Right);
            let frame = s.frame();
            assert!(fits(&frame, TERMINAL));
            let p = s.game().player();
            let v = s.view();
            let clear_left = v.left == 0 || p.col >= v.left + play::MARGIN;
            let clear_right = v.left + v.cols == 300 || p.col + play::MARGIN < v.left + v.cols;
            assert!(clear_left && clear_right, "player {p} in view {v:?}");
            let row = &frame[1 + p.row - v.top];
            assert_eq!(row.text().chars().nth(p.col - v.left), Some('O'), "{row:?}");
        }
        assert_eq!(start.left, 0);
        assert_eq!(s.game().player().col, 251);
        assert_eq!(
            s.view().left,
            251 + play::MARGIN + 1 - 80,
            "scrolled just enough"
        );
        assert!(s.frame()[0].text().contains("of 300x200"));
    }

    #[test]
    fn a_resize_refits_the_view_at_once() {
        let mut s = screen(&open_map(300, 200, (100, 150)), Style::Unicode);
        s.resize(TERMINAL);
        assert_eq!(s.view().cols, 40, "80 columns hold 40 double-width cells");
        let small = Window { cols: 40, rows: 12 };
        s.resize(small);
        assert_eq!((s.view().cols, s.view().rows), (20, 7));
        assert!(fits(&s.frame(), small));
    }

    #[test]
    fn a_long_message_wraps_to_the_window_instead_of_widening_it() {
        let mut s = screen(WIKIPEDIA, Style::Ascii);
        s.resize(Window { cols: 30, rows: 24 });
        for k in keys_for("RRDDDRRRWW") {
            s.key(k);
        }
        let frame = s.frame();
        assert!(frame.iter().all(|l| l.width() <= 30), "{frame:#?}");
        let tail: Vec<String> = frame[frame.len() - 2..].iter().map(Line::text).collect();
        assert!(tail[0].starts_with("turn 10: W waits"), "{tail:?}");
    }

    #[test]
    fn a_replay_plays_the_puzzles_moves_one_tick_at_a_time() {
        let mut s = screen(WIKIPEDIA, Style::Ascii).replaying();
        let mut ticks = 0;
        while s.tick() {
            ticks += 1;
        }
        assert_eq!(ticks, 29);
        assert_eq!(s.game().score(), 8);
        assert_eq!(s.moves(), "RRRUWWWRRRURWWWWRDRRWWRDWWWWD");
    }
}
