//! The terminal half of interactive play: raw mode, the alternate screen, a hidden cursor,
//! drawing the frames of a [`Screen`] line by line (only the lines that changed), and
//! restoring the terminal on every way out: quit, error, panic and Ctrl-C. The screen is
//! told the window's size before every frame, so a resize re-fits the view at once.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::Duration;

use anyhow::bail;
use beast_engine::play::{Flow, Key, Line, Screen, Window};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Print, ResetColor, SetForegroundColor};
use crossterm::terminal::{self, ClearType};
use crossterm::{cursor, execute, queue};

/// Runs `screen` in the terminal until it asks to quit.
pub fn play(screen: &mut dyn Screen, color: bool) -> anyhow::Result<()> {
    play_paced(screen, None, color)
}

/// Runs `screen`, calling [`Screen::tick`] every `pace` while no key comes; keys work
/// throughout. The screen is coloured when `color`.
pub fn play_paced(
    screen: &mut dyn Screen,
    pace: Option<Duration>,
    color: bool,
) -> anyhow::Result<()> {
    if !io::stdin().is_terminal() || !io::stdout().is_terminal() {
        bail!("interactive play needs a terminal: standard input and output must both be a tty");
    }
    let _restore = Terminal::enter()?;
    let mut out = BufWriter::new(io::stdout());
    let mut shown: Vec<Line> = Vec::new();
    let mut full = true;
    loop {
        let (cols, rows) = terminal::size()?;
        screen.resize(Window {
            cols: cols.into(),
            rows: rows.into(),
        });
        draw(&mut out, &screen.frame(), &mut shown, full, color)?;
        full = false;
        let event = match pace {
            Some(d) if !event::poll(d)? => {
                screen.tick();
                continue;
            }
            _ => event::read()?,
        };
        match event {
            Event::Key(k) if k.kind != KeyEventKind::Release => {
                if is_interrupt(&k) {
                    break;
                }
                if let Some(key) = key_of(&k)
                    && screen.key(key) == Flow::Quit
                {
                    break;
                }
            }
            Event::Resize(..) => full = true,
            _ => {}
        }
    }
    Ok(())
}

/// Puts the terminal in play mode; dropping it, or a panic, puts it back.
struct Terminal;

impl Terminal {
    fn enter() -> io::Result<Terminal> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        terminal::enable_raw_mode()?;
        let guard = Terminal;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves the alternate screen, shows the cursor and leaves raw mode. Safe to repeat.
fn restore() {
    let _ = execute!(
        io::stdout(),
        ResetColor,
        cursor::Show,
        terminal::LeaveAlternateScreen
    );
    let _ = terminal::disable_raw_mode();
}

/// Ctrl-C arrives as a key in raw mode; it quits like `q`.
fn is_interrupt(k: &KeyEvent) -> bool {
    k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c' | 'd'))
}

fn key_of(k: &KeyEvent) -> Option<Key> {
    Some(match k.code {
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Char(c) => Key::Char(c),
        _ => return None,
    })
}

/// Draws `frame`, rewriting only the lines that differ from `shown` (all of them if `full`).
/// A terminal smaller than the frame gets a notice instead of a broken picture.
fn draw(
    out: &mut impl Write,
    frame: &[Line],
    shown: &mut Vec<Line>,
    full: bool,
    color: bool,
) -> io::Result<()> {
    let (cols, rows) = terminal::size()?;
    let need_w = frame.iter().map(Line::width).max().unwrap_or(0);
    let need_h = frame.len();
    let notice;
    let frame = if need_w > cols as usize || need_h > rows as usize {
        notice = vec![
            Line::plain("Terminal too small:"),
            Line::plain(format!("need {need_w}x{need_h}, have {cols}x{rows}.")),
            Line::plain("Enlarge it, or q quits."),
        ];
        &notice[..]
    } else {
        frame
    };
    if full {
        shown.clear();
        queue!(out, terminal::Clear(ClearType::All))?;
    }
    for (i, line) in frame.iter().enumerate() {
        if shown.get(i) == Some(line) {
            continue;
        }
        queue!(out, cursor::MoveTo(0, i as u16))?;
        for span in &line.0 {
            match super::paint::term_color(span.color).filter(|_| color) {
                Some(c) => queue!(out, SetForegroundColor(c), Print(&span.text), ResetColor)?,
                None => queue!(out, Print(&span.text))?,
            }
        }
        queue!(out, terminal::Clear(ClearType::UntilNewLine))?;
    }
    for i in frame.len()..shown.len() {
        queue!(
            out,
            cursor::MoveTo(0, i as u16),
            terminal::Clear(ClearType::CurrentLine)
        )?;
    }
    *shown = frame.to_vec();
    out.flush()
}
