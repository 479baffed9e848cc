//! The pure interactive Ring Collector screen behind `beast ring --play`: a key goes into
//! the same [`Collector`] the command line uses, a frame of styled lines comes out.
//!
//! Keys: arrows move; `1` `2` `3` load the three staged scenarios; `r` resets; `q` or Esc
//! quits. Any other key only changes the message.

use crate::grid::Dir;
use crate::play::{Color, Flow, Key, Line, Screen};

use super::{Collector, Scenario, State};

/// The help line shown under the status.
pub const HELP: &str = "arrows move | 1 2 3 staged scenarios | r reset | q quit";

/// An interactive Ring Collector game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RingScreen {
    game: Collector,
}

impl RingScreen {
    /// A screen on the original game.
    pub fn new() -> RingScreen {
        RingScreen::default()
    }

    /// A screen that starts from `game` (the original, a scenario, or a game in progress).
    pub fn with_game(game: Collector) -> RingScreen {
        RingScreen { game }
    }

    /// The game being played.
    pub fn game(&self) -> &Collector {
        &self.game
    }
}

impl Screen for RingScreen {
    fn key(&mut self, key: Key) -> Flow {
        let dir = match key {
            Key::Up => Some(Dir::Up),
            Key::Down => Some(Dir::Down),
            Key::Left => Some(Dir::Left),
            Key::Right => Some(Dir::Right),
            _ => None,
        };
        if let Some(dir) = dir {
            // A turned-down move is reported through the game's message.
            let _ = self.game.apply(dir);
            return Flow::Continue;
        }
        match key {
            Key::Esc | Key::Char('q') => return Flow::Quit,
            Key::Char('r') => self.game.reset(),
            Key::Char(c @ '1'..='3') => {
                let index = usize::from(c as u8 - b'1');
                self.game = Collector::scenario(Scenario::ALL[index]);
            }
            _ => {}
        }
        Flow::Continue
    }

    fn frame(&self) -> Vec<Line> {
        let g = &self.game;
        let mut lines = Vec::new();
        let title = Line::plain("Ring Collector").with("  ", Color::Default);
        lines.push(match g.staged() {
            Some(s) => title.with(format!("STAGED scenario: {s}"), Color::Yellow),
            None => title.with("original game", Color::Grey),
        });
        lines.push(Line::default());
        for row in g.board_rows() {
            let mut line = Line::default();
            for c in row.chars() {
                let color = match c {
                    '#' => Color::Blue,
                    '.' => Color::Yellow,
                    'P' => Color::Green,
                    'G' => Color::Red,
                    'X' => Color::Magenta,
                    _ => Color::Default,
                };
                line = line.with(c.to_string(), color);
            }
            lines.push(line);
        }
        lines.push(Line::default());
        lines.push(Line::plain(format!(
            "player {}  guard {}  next guard {}",
            g.player(),
            g.guard(),
            g.next_guard()
        )));
        let state_color = match g.state() {
            State::Playing => Color::Default,
            State::Won => Color::Green,
            State::Lost => Color::Red,
        };
        lines.push(
            Line::plain(format!(
                "turn {}  score {}  dots left {}  state ",
                g.turn(),
                g.score(),
                g.remaining()
            ))
            .with(g.state().as_str(), state_color),
        );
        lines.push(Line::plain(g.message()));
        lines.push(Line::default());
        lines.push(Line::default().with(HELP, Color::Grey));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(screen: &RingScreen) -> String {
        screen
            .frame()
            .iter()
            .map(Line::text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn press(screen: &mut RingScreen, keys: &[Key]) -> Flow {
        let mut flow = Flow::Continue;
        for &k in keys {
            flow = screen.key(k);
        }
        flow
    }

    #[test]
    fn arrows_move_through_the_engine() {
        let mut s = RingScreen::new();
        press(&mut s, &[Key::Right, Key::Up]);
        assert_eq!(s.game().history_string(), "R");
        let t = text(&s);
        assert!(
            t.contains("player (1,2)  guard (2,5)  next guard (3,5)"),
            "{t}"
        );
        assert!(
            t.contains("turn 1  score 1  dots left 9  state playing"),
            "{t}"
        );
        assert!(t.contains("U rejected: wall at (0,2)."), "{t}");
    }

    #[test]
    fn keys_1_2_3_load_the_staged_scenarios_labelled_staged() {
        for (key, name) in [
            ('1', "shared-destination"),
            ('2', "exchanged-edge"),
            ('3', "final-item"),
        ] {
            let mut s = RingScreen::new();
            s.key(Key::Char(key));
            assert_eq!(s.game().staged().map(Scenario::name), Some(name));
            assert!(text(&s).contains(&format!("STAGED scenario: {name}")));
        }
        assert!(!text(&RingScreen::new()).contains("STAGED"));
    }

    #[test]
    fn a_scripted_final_item_game_ends_lost_with_9_points_and_1_left() {
        let mut s = RingScreen::new();
        press(&mut s, &[Key::Char('3'), Key::Right, Key::Left]);
        let t = text(&s);
        assert!(
            t.contains("turn 1  score 9  dots left 1  state lost"),
            "{t}"
        );
        assert!(t.contains("L refused"), "{t}");
        assert!(t.contains("\n#    X#\n"), "{t}");
    }

    #[test]
    fn r_resets_to_the_original_game() {
        let mut s = RingScreen::new();
        press(&mut s, &[Key::Char('2'), Key::Left, Key::Char('r')]);
        assert_eq!(s.game(), &Collector::new());
        assert!(text(&s).contains("original game"));
    }

    #[test]
    fn q_and_esc_quit_and_other_keys_do_not() {
        let mut s = RingScreen::new();
        assert_eq!(s.key(Key::Char('x')), Flow::Continue);
        assert_eq!(s.key(Key::Enter), Flow::Continue);
        assert_eq!(s.game(), &Collector::new());
        assert_eq!(s.key(Key::Char('q')), Flow::Quit);
        assert_eq!(s.key(Key::Esc), Flow::Quit);
    }

    #[test]
    fn the_frame_draws_the_board_rows() {
        let s = RingScreen::new();
        let frame = s.frame();
        let rows: Vec<String> = frame.iter().skip(2).take(5).map(Line::text).collect();
        assert_eq!(
            rows,
            ["#######", "#P...G#", "#.###.#", "#.....#", "#######"]
        );
        assert!(frame.iter().all(|l| l.width() <= 80));
    }
}
