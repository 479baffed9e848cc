//! Ring Collector: a player and a patrolling guard on a fixed 7x5 map (RULES.md section 3).
//!
//! [`Collector`] is plain data. [`Collector::step`] is a pure function from a state and a
//! direction to the next state and what happened, or a [`MoveError`] saying why the move was
//! turned down; [`Collector::apply`] does the same in place and keeps the last message.
//! Three staged positions ([`Scenario`]) go through the very same resolver.

mod moves;
mod scenario;
pub mod screen;

use std::collections::BTreeSet;
use std::fmt;

use crate::grid::{Dir, Grid, Pos};

pub use moves::{BadMove, parse_moves};
pub use scenario::{Scenario, Setup, UnknownScenario};

/// The map from the source text: `#` wall, `P` player start, `G` guard start, `.` dot.
pub const MAP: [&str; 5] = ["#######", "#P...G#", "#.###.#", "#.....#", "#######"];

/// The guard's loop, patrol index 0 to 11; after index 11 it goes back to index 0.
pub const PATROL: [Pos; 12] = [
    Pos::new(1, 5),
    Pos::new(2, 5),
    Pos::new(3, 5),
    Pos::new(3, 4),
    Pos::new(3, 3),
    Pos::new(3, 2),
    Pos::new(3, 1),
    Pos::new(2, 1),
    Pos::new(1, 1),
    Pos::new(1, 2),
    Pos::new(1, 3),
    Pos::new(1, 4),
];

/// Where the player starts.
pub const PLAYER_START: Pos = Pos::new(1, 1);

/// The patrol index the guard starts at: cell (1,5).
pub const GUARD_START_INDEX: usize = 0;

/// How many dots the original game has; score + remaining always equals this.
pub const TOTAL_DOTS: usize = 10;

/// The message of a fresh (or reset) game.
pub const NEW_GAME_MESSAGE: &str =
    "New game: collect the 10 dots. The guard steps once per accepted move.";

/// The playable page: one self-contained HTML file (no network, no external files) whose
/// small script follows the same rules. `beast ring --html` writes it.
pub const PAGE_HTML: &str = include_str!("page.html");

/// One cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// A wall: moves into it are rejected.
    Wall,
    /// A walkable cell.
    Floor,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Moves are accepted.
    Playing,
    /// Every dot was collected on a safe move.
    Won,
    /// The player met the guard.
    Lost,
}

impl State {
    /// `"playing"`, `"won"` or `"lost"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            State::Playing => "playing",
            State::Won => "won",
            State::Lost => "lost",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The two kinds of contact that lose the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contact {
    /// Both actors moved to the same cell.
    SameDestination(Pos),
    /// The actors exchanged cells: the player went to the guard's old cell and back.
    Swapped {
        /// The player's cell before the move (now the guard's).
        player_was: Pos,
        /// The guard's cell before the move (now the player's).
        guard_was: Pos,
    },
}

/// What an accepted move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A safe move; `collected` says whether it took a dot. Dots remain.
    Moved {
        /// True if the destination still held a dot.
        collected: bool,
    },
    /// A safe move that took the last dot.
    Won,
    /// The move ended in contact; nothing was collected.
    Lost(Contact),
}

/// Why a move was turned down. A turned-down move changes nothing but the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum MoveError {
    /// The destination is a wall.
    #[error("{} rejected: wall at {cell}.", dir.letter())]
    Wall {
        /// The direction tried.
        dir: Dir,
        /// The wall cell.
        cell: Pos,
    },
    /// The destination is off the board.
    #[error("{} rejected: off the board.", dir.letter())]
    OffBoard {
        /// The direction tried.
        dir: Dir,
    },
    /// The game has ended; only a reset or a scenario starts again.
    #[error("{} refused: the game is {state}; reset to play again.", dir.letter())]
    Ended {
        /// The direction tried.
        dir: Dir,
        /// How the game ended.
        state: State,
    },
}

/// The whole state of one Ring Collector game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collector {
    map: Grid<Tile>,
    player: Pos,
    patrol_index: usize,
    dots: BTreeSet<Pos>,
    score: u32,
    turn: u32,
    state: State,
    history: Vec<Dir>,
    message: String,
    staged: Option<Scenario>,
}

impl Default for Collector {
    fn default() -> Self {
        Collector::new()
    }
}

impl Collector {
    /// The original game: player at (1,1), guard at (1,5), ten dots, turn 0.
    pub fn new() -> Collector {
        let map = parse_map();
        let dots = map
            .iter()
            .filter(|&(pos, &tile)| {
                tile == Tile::Floor && pos != PLAYER_START && pos != PATROL[GUARD_START_INDEX]
            })
            .map(|(pos, _)| pos)
            .collect();
        Collector {
            map,
            player: PLAYER_START,
            patrol_index: GUARD_START_INDEX,
            dots,
            score: 0,
            turn: 0,
            state: State::Playing,
            history: Vec::new(),
            message: NEW_GAME_MESSAGE.to_string(),
            staged: None,
        }
    }

    /// The staged position `scenario`, at turn 0 with an empty history (RULES.md table).
    pub fn scenario(scenario: Scenario) -> Collector {
        let mut game = Collector::new();
        let setup = scenario.setup();
        game.player = setup.player;
        game.patrol_index = setup.patrol_index;
        if let Some(only) = setup.only_dots {
            game.dots.retain(|d| only.contains(d));
        }
        game.score = setup.score;
        game.message = format!(
            "Staged scenario {}: player {}, guard {}. Try {}.",
            scenario.name(),
            setup.player,
            PATROL[setup.patrol_index],
            setup.then.letter()
        );
        game.staged = Some(scenario);
        game
    }

    /// Restores the original game, whatever was played or staged before.
    pub fn reset(&mut self) {
        *self = Collector::new();
    }

    /// The game after moving `dir`, and what happened; or why the move is turned down.
    /// `self` is left as it is.
    pub fn step(&self, dir: Dir) -> Result<(Collector, Outcome), MoveError> {
        if self.state != State::Playing {
            return Err(MoveError::Ended {
                dir,
                state: self.state,
            });
        }
        let player_to = self
            .player
            .step(dir)
            .filter(|&p| self.map.contains(p))
            .ok_or(MoveError::OffBoard { dir })?;
        if self.map[player_to] == Tile::Wall {
            return Err(MoveError::Wall {
                dir,
                cell: player_to,
            });
        }
        // Both destinations come from the old state.
        let player_was = self.player;
        let guard_was = self.guard();
        let next_index = (self.patrol_index + 1) % PATROL.len();
        let guard_to = PATROL[next_index];

        let mut next = self.clone();
        next.player = player_to;
        next.patrol_index = next_index;
        next.turn += 1;
        next.history.push(dir);

        let contact = if player_to == guard_to {
            Some(Contact::SameDestination(player_to))
        } else if player_to == guard_was && guard_to == player_was {
            Some(Contact::Swapped {
                player_was,
                guard_was,
            })
        } else {
            None
        };
        let d = dir.letter();
        let outcome = if let Some(contact) = contact {
            next.state = State::Lost;
            next.message = match contact {
                Contact::SameDestination(cell) => {
                    format!("{d}: player and guard both reach {cell}: lost.")
                }
                Contact::Swapped {
                    player_was,
                    guard_was,
                } => format!("{d}: player and guard swap {player_was} and {guard_was}: lost."),
            };
            Outcome::Lost(contact)
        } else {
            let collected = next.dots.remove(&player_to);
            let took = if collected {
                next.score += 1;
                "dot collected"
            } else {
                "no dot"
            };
            if next.dots.is_empty() {
                next.state = State::Won;
                next.message =
                    format!("{d}: player to {player_to}, guard to {guard_to}; {took}: won.");
                Outcome::Won
            } else {
                next.message = format!("{d}: player to {player_to}, guard to {guard_to}; {took}.");
                Outcome::Moved { collected }
            }
        };
        Ok((next, outcome))
    }

    /// [`Collector::step`] in place. On a turned-down move only the message changes: it
    /// becomes the error's text.
    pub fn apply(&mut self, dir: Dir) -> Result<Outcome, MoveError> {
        match self.step(dir) {
            Ok((next, outcome)) => {
                *self = next;
                Ok(outcome)
            }
            Err(err) => {
                self.message = err.to_string();
                Err(err)
            }
        }
    }

    /// The map's cells.
    pub fn map(&self) -> &Grid<Tile> {
        &self.map
    }

    /// The player's cell.
    pub fn player(&self) -> Pos {
        self.player
    }

    /// The guard's cell.
    pub fn guard(&self) -> Pos {
        PATROL[self.patrol_index]
    }

    /// The guard's patrol index, 0 to 11.
    pub fn patrol_index(&self) -> usize {
        self.patrol_index
    }

    /// The cell the guard moves to on the next accepted move.
    pub fn next_guard(&self) -> Pos {
        PATROL[(self.patrol_index + 1) % PATROL.len()]
    }

    /// The dots still on the board, in row-major order.
    pub fn dots(&self) -> &BTreeSet<Pos> {
        &self.dots
    }

    /// How many dots are left.
    pub fn remaining(&self) -> usize {
        self.dots.len()
    }

    /// Points scored: one per dot collected.
    pub fn score(&self) -> u32 {
        self.score
    }

    /// Accepted moves so far (turn 0 before the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Playing, won or lost.
    pub fn state(&self) -> State {
        self.state
    }

    /// The accepted moves, in order.
    pub fn history(&self) -> &[Dir] {
        &self.history
    }

    /// The accepted moves as a string of letters, such as `"RRD"`.
    pub fn history_string(&self) -> String {
        self.history.iter().map(|d| d.letter()).collect()
    }

    /// The last message: what the last action did, or why it was turned down.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The staged scenario this game started from, if any.
    pub fn staged(&self) -> Option<Scenario> {
        self.staged
    }

    /// The board as text rows: `#` wall, `.` dot, `P` player, `G` guard, `X` both on one
    /// cell (a same-destination loss), space for an empty floor.
    pub fn board_rows(&self) -> Vec<String> {
        (0..self.map.rows())
            .map(|row| {
                (0..self.map.cols())
                    .map(|col| self.glyph(Pos::new(row, col)))
                    .collect()
            })
            .collect()
    }

    /// The board character for `pos` (see [`Collector::board_rows`]).
    pub fn glyph(&self, pos: Pos) -> char {
        match (pos == self.player, pos == self.guard()) {
            (true, true) => 'X',
            (true, false) => 'P',
            (false, true) => 'G',
            _ if self.map.get(pos) != Some(&Tile::Floor) => '#',
            _ if self.dots.contains(&pos) => '.',
            _ => ' ',
        }
    }

    /// Every status field on one line: player, guard, next guard, turn, score, dots left,
    /// state and the last message.
    pub fn status_line(&self) -> String {
        format!(
            "player {} | guard {} | next guard {} | turn {} | score {} | left {} | {} | {}",
            self.player,
            self.guard(),
            self.next_guard(),
            self.turn,
            self.score,
            self.remaining(),
            self.state,
            self.message
        )
    }
}

/// The map as tiles; `P`, `G` and `.` are floor.
fn parse_map() -> Grid<Tile> {
    let cols = MAP[0].len();
    let cells = MAP
        .iter()
        .flat_map(|row| row.chars())
        .map(|c| if c == '#' { Tile::Wall } else { Tile::Floor })
        .collect();
    Grid::from_cells(cols, MAP.len(), cells).expect("MAP rows all have the same length")
}

#[cfg(test)]
mod tests;
