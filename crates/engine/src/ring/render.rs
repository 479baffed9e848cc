//! Every word and glyph of Ring Collector on a terminal or in JSON: the board rows, the
//! status line, the message after each action (and a refusal's `Display`) and the `--json`
//! report. The engine in `ring/mod.rs` only returns data ([`Turn`], [`Refusal`]). The HTML
//! page keeps its own words, held to these by the e2e test.

use std::fmt;

use serde::Serialize;

use crate::grid::Pos;

use super::{Collector, Contact, Message, PATROL, Refusal, Scenario, Tile, Turn};

/// The message of a fresh (or reset) game.
pub const NEW_GAME: &str = "New game: collect the 10 dots. The guard steps once per accepted move.";

/// The message line for `message`.
pub fn message(message: &Message) -> String {
    match message {
        Message::NewGame => NEW_GAME.to_string(),
        Message::Staged(scenario) => staged(*scenario),
        Message::Played(turn) => played(turn),
        Message::Refused(refusal) => refused(refusal),
    }
}

fn staged(scenario: Scenario) -> String {
    let setup = scenario.setup();
    format!(
        "Staged scenario {}: player {}, guard {}. Try {}.",
        scenario.name(),
        setup.player,
        PATROL[setup.patrol_index],
        setup.then.letter()
    )
}

fn played(turn: &Turn) -> String {
    let took = |collected: bool| if collected { "dot collected" } else { "no dot" };
    match *turn {
        Turn::Moved {
            dir,
            player,
            guard,
            collected,
        } => format!(
            "{}: player to {player}, guard to {guard}; {}.",
            dir.letter(),
            took(collected)
        ),
        Turn::Won { dir, player, guard } => format!(
            "{}: player to {player}, guard to {guard}; {}: won.",
            dir.letter(),
            took(true)
        ),
        Turn::Lost {
            dir,
            contact: Contact::SameDestination(cell),
        } => format!(
            "{}: player and guard both reach {cell}: lost.",
            dir.letter()
        ),
        Turn::Lost {
            dir,
            contact:
                Contact::Swapped {
                    player_was,
                    guard_was,
                },
        } => format!(
            "{}: player and guard swap {player_was} and {guard_was}: lost.",
            dir.letter()
        ),
    }
}

/// Why a move was turned down: `U rejected: wall at (0,1).`
pub fn refused(refusal: &Refusal) -> String {
    match *refusal {
        Refusal::Wall { dir, cell } => format!("{} rejected: wall at {cell}.", dir.letter()),
        Refusal::OffBoard { dir } => format!("{} rejected: off the board.", dir.letter()),
        Refusal::Ended { dir, state } => format!(
            "{} refused: the game is {}; reset to play again.",
            dir.letter(),
            state.as_str()
        ),
    }
}

/// A refusal's words are [`refused`]'s.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&refused(self))
    }
}

/// The board as text rows: `#` wall, `.` dot, `P` player, `G` guard, `X` both on one cell
/// (a same-destination loss), space for an empty floor.
pub fn board_rows(game: &Collector) -> Vec<String> {
    let map = game.map();
    (0..map.rows())
        .map(|row| {
            (0..map.cols())
                .map(|col| glyph(game, Pos::new(row, col)))
                .collect()
        })
        .collect()
}

/// The board character for `pos` (see [`board_rows`]).
pub fn glyph(game: &Collector, pos: Pos) -> char {
    match (pos == game.player(), pos == game.guard()) {
        (true, true) => 'X',
        (true, false) => 'P',
        (false, true) => 'G',
        _ if game.map().get(pos) != Some(&Tile::Floor) => '#',
        _ if game.dots().contains(&pos) => '.',
        _ => ' ',
    }
}

/// Every status field on one line: player, guard, next guard, turn, score, dots left, state
/// and the message.
pub fn status_line(game: &Collector, last: &Message) -> String {
    format!(
        "player {} | guard {} | next guard {} | turn {} | score {} | left {} | {} | {}",
        game.player(),
        game.guard(),
        game.next_guard(),
        game.turn(),
        game.score(),
        game.remaining(),
        game.state().as_str(),
        message(last)
    )
}

/// The `--json` object of a game and its last message; cells are `[row, col]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The player's cell.
    pub player: [usize; 2],
    /// The guard's cell.
    pub guard: [usize; 2],
    /// The guard's cell after the next accepted move.
    pub next_guard: [usize; 2],
    /// The guard's whole loop, in order, as the page marks it.
    pub patrol: Vec<[usize; 2]>,
    /// Accepted moves so far.
    pub turn: u32,
    /// Dots collected.
    pub score: u32,
    /// Dots left.
    pub remaining: usize,
    /// The dots left, in row-major order.
    pub dots: Vec<[usize; 2]>,
    /// `playing`, `won` or `lost`.
    pub state: &'static str,
    /// The message line.
    pub message: String,
    /// The accepted moves as letters, such as `RRD`.
    pub history: String,
}

fn pair(p: Pos) -> [usize; 2] {
    [p.row, p.col]
}

impl Report {
    /// The report of `game` after `last`.
    pub fn of(game: &Collector, last: &Message) -> Report {
        Report {
            player: pair(game.player()),
            guard: pair(game.guard()),
            next_guard: pair(game.next_guard()),
            patrol: PATROL.iter().copied().map(pair).collect(),
            turn: game.turn(),
            score: game.score(),
            remaining: game.remaining(),
            dots: game.dots().iter().copied().map(pair).collect(),
            state: game.state().as_str(),
            message: message(last),
            history: game.history_string(),
        }
    }
}
