//! Every word and glyph of the beast game: the map drawn, a turn described for `--trace`
//! and interactive play, a refusal (and its `Display`), and the `--json` report of an
//! outcome.

use std::fmt;

use serde::Serialize;

use crate::beast::game::{Action, Game, GameOver, Status, Step};
use crate::beast::parse::Cell;
use crate::beast::play_out::Outcome;
use crate::grid::Grid;
use crate::play::{Color, Line, Viewport};
use crate::words::count;

/// How cells are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// The puzzle's own characters, one column a cell.
    #[default]
    Ascii,
    /// Double-width glyphs like the 1984 original: `██` `▓▓` `├┤` `◄►`.
    Unicode,
}

/// The glyph and colour of a cell in a style.
pub fn glyph(cell: Cell, style: Style) -> (&'static str, Color) {
    let color = match cell {
        Cell::Space => Color::Default,
        Cell::Wall => Color::Yellow,
        Cell::Movable => Color::Green,
        Cell::Beast => Color::Red,
        Cell::Player => Color::Cyan,
    };
    let text = match (style, cell) {
        (Style::Ascii, Cell::Space) => " ",
        (Style::Ascii, Cell::Wall) => "#",
        (Style::Ascii, Cell::Movable) => "~",
        (Style::Ascii, Cell::Beast) => "H",
        (Style::Ascii, Cell::Player) => "O",
        (Style::Unicode, Cell::Space) => "  ",
        (Style::Unicode, Cell::Wall) => "██",
        (Style::Unicode, Cell::Movable) => "▓▓",
        (Style::Unicode, Cell::Beast) => "├┤",
        (Style::Unicode, Cell::Player) => "◄►",
    };
    (text, color)
}

/// The map as lines of coloured spans, one line a row; runs of one cell kind share a span.
pub fn board(map: &Grid<Cell>, style: Style) -> Vec<Line> {
    board_window(
        map,
        style,
        &Viewport {
            left: 0,
            top: 0,
            cols: map.cols(),
            rows: map.rows(),
        },
    )
}

/// The cells of the map inside `view` only, as [`board`] draws them: the cost is the
/// window's, not the map's.
pub fn board_window(map: &Grid<Cell>, style: Style, view: &Viewport) -> Vec<Line> {
    let cols = view.left.min(map.cols())..(view.left + view.cols).min(map.cols());
    (view.top..(view.top + view.rows).min(map.rows()))
        .map(|r| {
            let mut line = Line::default();
            let mut run: Option<(Cell, String)> = None;
            for &cell in &map.row(r)[cols.clone()] {
                match &mut run {
                    Some((kind, text)) if *kind == cell => text.push_str(glyph(cell, style).0),
                    _ => {
                        if let Some((kind, text)) = run.take() {
                            line = line.with(text, glyph(kind, style).1);
                        }
                        run = Some((cell, glyph(cell, style).0.to_string()));
                    }
                }
            }
            if let Some((kind, text)) = run {
                line = line.with(text, glyph(kind, style).1);
            }
            line
        })
        .collect()
}

/// Columns a cell takes on screen in a style.
pub fn cell_width(style: Style) -> usize {
    match style {
        Style::Ascii => 1,
        Style::Unicode => 2,
    }
}

/// One sentence on what a turn did: the player's action, the beasts' moves, a death or a win.
pub fn describe(step: &Step, game: &Game) -> String {
    let mut s = format!("turn {}: {} ", step.turn, step.played.letter());
    s.push_str(&match step.action {
        Action::Waited => "waits".to_string(),
        Action::Walked => format!("walks to {}", game.player()),
        Action::Blocked => "is blocked by a wall".to_string(),
        Action::Pushed { walls } => format!(
            "pushes {} and steps to {}",
            walls_text(walls),
            game.player()
        ),
        Action::Stuck { walls } => format!("pushes {} that cannot move", walls_text(walls)),
        Action::PushedBeast { walls, at } => format!(
            "pushes {} and the beast at {at} with them, and steps to {}",
            walls_text(walls),
            game.player()
        ),
        Action::Crushed { walls, at } => format!(
            "pushes {} and crushes the beast at {at} (+2, score {})",
            walls_text(walls),
            game.score()
        ),
        Action::Bumped { at } if step.status == Status::Eaten && step.eaten_at.is_none() => {
            format!("walks into the beast at {at} and dies")
        }
        Action::Bumped { at } => format!("bumps into the beast at {at}, which acts as a wall"),
    });
    if step.beasts_moved {
        let moves = game.last_beast_moves();
        if moves.is_empty() {
            s.push_str("; no beast can move");
        } else {
            let list: Vec<String> = moves.iter().map(|(a, b)| format!("{a}->{b}")).collect();
            s.push_str("; beasts move ");
            s.push_str(&list.join(" "));
        }
    }
    if let Some(at) = step.eaten_at {
        s.push_str(&format!("; a beast eats the player at {at}"));
    }
    if step.status == Status::Won {
        s.push_str("; no beast is left: won");
    }
    s
}

fn walls_text(n: usize) -> String {
    count(n as u64, "wall")
}

/// Why a move after the end is refused.
pub fn game_over(over: &GameOver) -> String {
    let how = match over.status {
        Status::Eaten => "the player was eaten",
        Status::Won | Status::Playing => "no beast is left",
    };
    format!("the game is over: {how}")
}

/// A refusal's words are [`game_over`]'s.
impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&game_over(self))
    }
}

/// The `--json` object of an outcome: `outcome`, `score`, `turns`, `moves_used`,
/// `beasts_left`, `crushed`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// `won`, `eaten`, `stalemate` or `alive`.
    pub outcome: &'static str,
    /// 2 points a crushed beast.
    pub score: u64,
    /// Turns played, waiting turns included.
    pub turns: u64,
    /// Moves of the move string played.
    pub moves_used: usize,
    /// Beasts still alive.
    pub beasts_left: usize,
    /// Every crush, in order.
    pub crushed: Vec<CrushReport>,
}

/// One crush in the `--json` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CrushReport {
    /// The turn it happened on.
    pub turn: u64,
    /// The beast's row.
    pub row: usize,
    /// The beast's column.
    pub col: usize,
}

impl Report {
    /// The report of `outcome`.
    pub fn of(outcome: &Outcome) -> Report {
        Report {
            outcome: outcome.ending.name(),
            score: outcome.score,
            turns: outcome.turns,
            moves_used: outcome.moves_used,
            beasts_left: outcome.beasts_left,
            crushed: outcome
                .crushed
                .iter()
                .map(|c| CrushReport {
                    turn: c.turn,
                    row: c.at.row,
                    col: c.at.col,
                })
                .collect(),
        }
    }
}
