//! Ring Collector: a player and a patrolling guard on a fixed 7x5 map (RULES.md section 3).
//!
//! [`Collector`] is plain data with the shape of every game ([`Playable`]):
//! [`Collector::apply`] plays a direction and returns what happened as a [`Turn`], or a
//! [`Refusal`] and no change. Three staged positions ([`Scenario`]) go through the very same
//! resolver. The words are made in [`render`].

mod moves;
pub mod render;
mod scenario;
pub mod screen;

use std::collections::BTreeSet;
use std::fmt;

use crate::grid::{Dir, Grid, Pos};
use crate::play::Playable;

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
pub enum Turn {
    /// A safe move; dots remain.
    Moved {
        /// The direction played.
        dir: Dir,
        /// The player's new cell.
        player: Pos,
        /// The guard's new cell.
        guard: Pos,
        /// True if the player's new cell still held a dot.
        collected: bool,
    },
    /// A safe move that took the last dot.
    Won {
        /// The direction played.
        dir: Dir,
        /// The player's new cell.
        player: Pos,
        /// The guard's new cell.
        guard: Pos,
    },
    /// The move ended in contact; nothing was collected.
    Lost {
        /// The direction played.
        dir: Dir,
        /// How the player and the guard met.
        contact: Contact,
    },
}

/// Why a move was turned down. A turned-down move changes nothing. Its words (`Display`) are
/// made in [`render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Refusal {
    /// The destination is a wall.
    Wall {
        /// The direction tried.
        dir: Dir,
        /// The wall cell.
        cell: Pos,
    },
    /// The destination is off the board.
    OffBoard {
        /// The direction tried.
        dir: Dir,
    },
    /// The game has ended; only a reset or a scenario starts again.
    Ended {
        /// The direction tried.
        dir: Dir,
        /// How the game ended.
        state: State,
    },
}

/// What the message line reports: the last thing that happened to a game. The game does not
/// keep it, since a refused move must change nothing; the screen and the command line do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    /// The original game started, or was reset.
    NewGame,
    /// A staged scenario was loaded.
    Staged(Scenario),
    /// A move was accepted.
    Played(Turn),
    /// A move was turned down.
    Refused(Refusal),
}

impl Message {
    /// The message of a game just started: new, or staged.
    pub fn start(game: &Collector) -> Message {
        game.staged().map_or(Message::NewGame, Message::Staged)
    }

    /// The message after a move's result.
    pub fn after(result: Result<Turn, Refusal>) -> Message {
        result.map_or_else(Message::Refused, Message::Played)
    }
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
        game.staged = Some(scenario);
        game
    }

    /// Restores the original game, whatever was played or staged before.
    pub fn reset(&mut self) {
        *self = Collector::new();
    }

    /// Plays `dir`: the player and the guard move at once, from the old state, then a
    /// contact loses, else the dot under the player is taken and the last one wins. A
    /// turned-down move changes nothing.
    pub fn apply(&mut self, dir: Dir) -> Result<Turn, Refusal> {
        let player = self.destination(dir)?;
        let (player_was, guard_was) = (self.player, self.guard());
        self.patrol_index = (self.patrol_index + 1) % PATROL.len();
        self.player = player;
        self.turn += 1;
        self.history.push(dir);
        let guard = self.guard();
        let contact = if player == guard {
            Some(Contact::SameDestination(player))
        } else if player == guard_was && guard == player_was {
            Some(Contact::Swapped {
                player_was,
                guard_was,
            })
        } else {
            None
        };
        if let Some(contact) = contact {
            self.state = State::Lost;
            return Ok(Turn::Lost { dir, contact });
        }
        let collected = self.dots.remove(&player);
        self.score += u32::from(collected);
        if self.dots.is_empty() {
            self.state = State::Won;
            return Ok(Turn::Won { dir, player, guard });
        }
        Ok(Turn::Moved {
            dir,
            player,
            guard,
            collected,
        })
    }

    /// The player's cell after `dir`, or why the move is turned down.
    fn destination(&self, dir: Dir) -> Result<Pos, Refusal> {
        if self.state != State::Playing {
            return Err(Refusal::Ended {
                dir,
                state: self.state,
            });
        }
        let to = self
            .player
            .step(dir)
            .filter(|&p| self.map.contains(p))
            .ok_or(Refusal::OffBoard { dir })?;
        match self.map[to] {
            Tile::Wall => Err(Refusal::Wall { dir, cell: to }),
            Tile::Floor => Ok(to),
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

    /// The staged scenario this game started from, if any.
    pub fn staged(&self) -> Option<Scenario> {
        self.staged
    }
}

impl Playable for Collector {
    type Move = Dir;
    type Event = Turn;
    type Refusal = Refusal;

    fn apply(&mut self, dir: Dir) -> Result<Turn, Refusal> {
        Collector::apply(self, dir)
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
