//! A game in progress and its turn (RULES.md 1, "One turn"): the player's step, push or
//! crush, the win check, and the beasts' moves on the turns they move.
//!
//! A [`Game`] is played one move at a time with [`Game::apply`], which says what happened
//! ([`Step`]) or refuses a move after the end ([`GameOver`]). Under our rules the beasts
//! move by the table of choices (`beast::choice`, played in `beast::chase`); under other
//! readings by their distance measure (`beast::measure`). The switches are in
//! [`super::rules`]; a whole puzzle, the moves running out included, is played in
//! [`super::play_out`](mod@super::play_out). The map is one byte a cell and nothing is
//! allocated per turn once the first beast turn has run.

use crate::beast::chase::{beast_turn_ours, nearest_open};
use crate::beast::choice::{ClassMemo, ClassMemos, NEIGHBOURS, NOWHERE, OUR_RANKS, around_ranks};
use crate::beast::measure::{
    Chebyshev, Euclidean, Manhattan, Measure, Rounded, Scaled30, Truncated,
};
use crate::beast::parse::{Cell, Move, Puzzle};
use crate::beast::rules::{
    Blocked, Bump, Diagonal, Distance, Follow, Kill, Order, Push, Rank, Rules, Stay, Taken, Target,
};
use crate::grid::{Dir, Grid, Pos};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still going.
    Playing,
    /// No beast is left.
    Won,
    /// A beast got the player.
    Eaten,
}

/// What the player's half of a turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `W`: nothing.
    Waited,
    /// Stepped into an open cell.
    Walked,
    /// Stepped against a solid wall; the turn is used up.
    Blocked,
    /// Pushed a train of `walls` movable walls one cell.
    Pushed {
        /// Length of the train.
        walls: usize,
    },
    /// Pushed a train of `walls` movable walls that could not move.
    Stuck {
        /// Length of the train.
        walls: usize,
    },
    /// Pushed a train of `walls` and the loose beast in front of it (at `at` before the
    /// push) one cell, under the reading that a loose beast is pushed.
    PushedBeast {
        /// Length of the train.
        walls: usize,
        /// Where the beast was.
        at: Pos,
    },
    /// Pushed a train of `walls` onto a wedged beast at `at` and crushed it.
    Crushed {
        /// Length of the train.
        walls: usize,
        /// Where the beast was.
        at: Pos,
    },
    /// Walked into a beast at `at`: death under `--bump death`, a wall under `--bump blocked`.
    Bumped {
        /// Where the beast is.
        at: Pos,
    },
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The turn's number, from 1.
    pub turn: u64,
    /// The move played (a `W` for a waiting turn after the moves ran out).
    pub played: Move,
    /// The player's half of the turn.
    pub action: Action,
    /// True on a turn where the beasts had their move (the even turns, under our readings).
    pub beasts_moved: bool,
    /// The beast that ate the player this turn, at the cell where it ate him.
    pub eaten_at: Option<Pos>,
    /// Where the game stands after the turn.
    pub status: Status,
}

/// A move played after the game ended: refused, and nothing changes. Its words
/// (`Display`) are made in [`super::render`].
#[derive(Clone, Copy, Debug, thiserror::Error, PartialEq, Eq, Hash)]
pub struct GameOver {
    /// How the game ended: won or eaten.
    pub status: Status,
}

/// A crushed beast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Crush {
    /// The turn it was crushed on.
    pub turn: u64,
    /// The cell it was crushed in.
    pub at: Pos,
}

/// True if `cells` holds a beast or the player: they are the two highest cells, so the test
/// is one maximum, which compiles to a few vector instructions for a whole block.
fn holds_beast_or_player(cells: &[Cell]) -> bool {
    const _: () = assert!(
        Cell::Player as u8 > Cell::Beast as u8
            && Cell::Beast as u8 > Cell::Movable as u8
            && Cell::Beast as u8 > Cell::Wall as u8
            && Cell::Beast as u8 > Cell::Space as u8
    );
    cells.iter().fold(0, |high, &c| high.max(c as u8)) >= Cell::Beast as u8
}

/// The player's cell and the beasts' cells in reading order. The map is looked at in blocks
/// of 256 cells, a block holding a beast or the player in pieces of 16, and only such a
/// piece cell by cell.
fn player_and_beasts(map: &Grid<Cell>) -> (Pos, Vec<Pos>) {
    const BLOCK: usize = 256;
    const PIECE: usize = 16;
    let mut player = Pos::new(1, 1);
    let mut beasts = Vec::new();
    for (b, block) in map.cells().chunks(BLOCK).enumerate() {
        if !holds_beast_or_player(block) {
            continue;
        }
        for (p, piece) in block.chunks(PIECE).enumerate() {
            if !holds_beast_or_player(piece) {
                continue;
            }
            for (j, &c) in piece.iter().enumerate() {
                let at = b * BLOCK + p * PIECE + j;
                match c {
                    Cell::Player => player = map.pos(at),
                    Cell::Beast => beasts.push(map.pos(at)),
                    _ => {}
                }
            }
        }
    }
    (player, beasts)
}

/// What waiting turns change in a game, saved by [`Game::save_waiting`] so that
/// [`Game::take_back`] can undo them: the turn, the beasts' cells and their last steps
/// (while the player waits, nothing else moves).
#[derive(Clone, Debug)]
pub(super) struct Waiting {
    turn: u64,
    beasts: Vec<Pos>,
    last_steps: Vec<u8>,
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    map: Grid<Cell>,
    rules: Rules,
    player: Pos,
    /// Live beasts. Under `Order::Initial` in rank order; under `Order::Turn` sorted by
    /// position at the last beast turn (in reverse under `Rank::Reverse`).
    beasts: Vec<Pos>,
    turn: u64,
    crushed: Vec<Crush>,
    status: Status,
    /// The step each beast took on the last beast turn, in the order of `beasts`: its index
    /// in `neighbours`, or [`NOWHERE`] if it stayed. It ends at the beast that ate the
    /// player, if one did; it is empty after a turn on which the beasts did not move.
    last_steps: Vec<u8>,
    /// Each beast's direction class on a map too big for every class to be looked up,
    /// remembered from an earlier beast turn: working memory, which equality ignores.
    memos: ClassMemos,
    /// A beast's neighbours `(row, col)` in tie-break priority order.
    neighbours: [(isize, isize); 8],
    /// The player's starting cell (the target under [`Target::GameStart`]).
    origin: Pos,
    /// The player's cell at the start of the latest odd turn (the target under
    /// [`Target::RoundStart`]).
    round_start: Pos,
}

impl Game {
    /// A game at turn 0 on the puzzle's map. A map with no beasts is won at once.
    pub fn new(puzzle: &Puzzle, rules: Rules) -> Game {
        Game::from_map(puzzle.map().clone(), rules)
    }

    /// A game at turn 0 on `map`, which must be a valid puzzle's map (a solid `#` border,
    /// one player): [`Puzzle::into_parts`] gives one without a copy.
    pub fn from_map(map: Grid<Cell>, rules: Rules) -> Game {
        let (player, mut beasts) = player_and_beasts(&map);
        // Found in reading order, our rank order.
        if rules.rank != Rank::Reading {
            rules.rank.arrange(&mut beasts);
        }
        let status = if beasts.is_empty() {
            Status::Won
        } else {
            Status::Playing
        };
        Game {
            map,
            rules,
            player,
            beasts,
            turn: 0,
            crushed: Vec::new(),
            status,
            last_steps: Vec::new(),
            memos: ClassMemos::default(),
            neighbours: rules.ties.offsets(),
            origin: player,
            round_start: player,
        }
    }

    /// The current map.
    #[inline]
    pub fn map(&self) -> &Grid<Cell> {
        &self.map
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player's cell (where he died, if he was eaten).
    #[inline]
    pub fn player(&self) -> Pos {
        self.player
    }

    /// The live beasts' cells.
    #[inline]
    pub fn beasts(&self) -> &[Pos] {
        &self.beasts
    }

    /// Turns played so far.
    #[inline]
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// 2 points a crushed beast.
    pub fn score(&self) -> u64 {
        2 * self.crushed.len() as u64
    }

    /// Every crush so far.
    pub fn crushed(&self) -> &[Crush] {
        &self.crushed
    }

    /// Where the game stands.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// True if the beasts move on the next turn (under our readings: it is even).
    pub fn beasts_move_next(&self) -> bool {
        self.rules.schedule.beasts_move(self.turn + 1)
    }

    /// The beasts' moves on the last beast turn, `(from, to)`, in the order they moved.
    pub fn last_beast_moves(&self) -> Vec<(Pos, Pos)> {
        self.moves_logged().collect()
    }

    /// The moves of `last_steps`, `(from, to)`: each beast's cell now, and the cell
    /// its logged step came from; a beast that stayed has none.
    fn moves_logged(&self) -> impl Iterator<Item = (Pos, Pos)> + '_ {
        let logged = self.beasts.iter().zip(&self.last_steps);
        logged.filter_map(|(&to, &step)| {
            let &(dr, dc) = self.neighbours.get(usize::from(step))?;
            let from = Pos::new(
                to.row.wrapping_add_signed(-dr),
                to.col.wrapping_add_signed(-dc),
            );
            Some((from, to))
        })
    }

    /// What waiting turns from here change, for [`Game::take_back`].
    pub(super) fn save_waiting(&self) -> Waiting {
        Waiting {
            turn: self.turn,
            beasts: self.beasts.clone(),
            last_steps: self.last_steps.clone(),
        }
    }

    /// Takes back the waiting turns played since `saved` was made, the game still on: only
    /// the beasts moved.
    pub(super) fn take_back(&mut self, saved: Waiting) {
        for &b in &self.beasts {
            self.map[b] = Cell::Space;
        }
        for &b in &saved.beasts {
            self.map[b] = Cell::Beast;
        }
        self.beasts = saved.beasts;
        self.turn = saved.turn;
        self.last_steps = saved.last_steps;
    }

    /// Every crush, the game given up: the end of a game played out.
    pub(super) fn into_crushed(self) -> Vec<Crush> {
        self.crushed
    }

    /// Plays one turn, or refuses it when the game is already over.
    pub fn apply(&mut self, played: Move) -> Result<Step, GameOver> {
        self.apply_by(played, Game::beasts_act)
    }

    /// [`Game::apply`], the beasts' half played by `beasts_act` (at the target; it returns
    /// where the player was eaten), so that the tests can play a turn's beasts another way.
    fn apply_by(
        &mut self,
        played: Move,
        beasts_act: impl FnOnce(&mut Game, Pos) -> Option<Pos>,
    ) -> Result<Step, GameOver> {
        if self.status != Status::Playing {
            return Err(GameOver {
                status: self.status,
            });
        }
        self.turn += 1;
        let start = self.player;
        if self.turn % 2 == 1 {
            self.round_start = start;
        }
        let action = self.player_acts(played);
        if self.rules.blocked == Blocked::NoTurn
            && matches!(action, Action::Blocked | Action::Stuck { .. })
        {
            // Under this misreading a move that moved nothing is no turn: the count stays.
            self.turn -= 1;
            self.last_steps.clear();
            return Ok(Step {
                turn: self.turn,
                played,
                action,
                beasts_moved: false,
                eaten_at: None,
                status: self.status,
            });
        }
        let mut step = Step {
            turn: self.turn,
            played,
            action,
            beasts_moved: false,
            eaten_at: None,
            status: self.status,
        };
        if self.status == Status::Playing && self.beasts.is_empty() {
            self.status = Status::Won;
        }
        if self.status == Status::Playing && self.rules.schedule.beasts_move(self.turn) {
            let target = match self.rules.target {
                Target::Start => start,
                Target::After => self.player,
                Target::RoundStart => self.round_start,
                Target::GameStart => self.origin,
            };
            step.eaten_at = beasts_act(self, target);
            step.beasts_moved = true;
            if step.eaten_at.is_none() && self.rules.kill == Kill::Adjacent {
                step.eaten_at = self.beast_next_door();
            }
        } else {
            self.last_steps.clear();
        }
        step.status = self.status;
        Ok(step)
    }

    /// The player's half of a turn.
    fn player_acts(&mut self, played: Move) -> Action {
        let Move::Step(dir) = played else {
            return Action::Waited;
        };
        let Some(next) = self.neighbour(self.player, dir) else {
            return Action::Blocked;
        };
        match self.map[next] {
            Cell::Space => {
                self.walk_to(next);
                Action::Walked
            }
            Cell::Wall | Cell::Player => Action::Blocked,
            Cell::Beast => {
                if self.rules.bump == Bump::Death {
                    self.status = Status::Eaten;
                }
                Action::Bumped { at: next }
            }
            Cell::Movable => self.push(next, dir),
        }
    }

    /// Under `Kill::Adjacent`: the first beast (in rank order) on one of the player's 8
    /// neighbours, which kills him.
    fn beast_next_door(&mut self) -> Option<Pos> {
        let p = self.player;
        let next_door = self
            .beasts
            .iter()
            .copied()
            .find(|b| b.row.abs_diff(p.row) <= 1 && b.col.abs_diff(p.col) <= 1 && *b != p)?;
        self.status = Status::Eaten;
        Some(next_door)
    }

    /// Pushes the train of movable walls that starts at `first`.
    fn push(&mut self, first: Pos, dir: Dir) -> Action {
        let mut walls = 1;
        let mut x = first;
        let end = loop {
            match self.neighbour(x, dir) {
                Some(n) if self.map[n] == Cell::Movable => {
                    walls += 1;
                    x = n;
                }
                other => break other,
            }
        };
        let Some(end) = end else {
            return Action::Stuck { walls };
        };
        if !self.rules.train.moves(walls) {
            return Action::Stuck { walls };
        }
        match self.map[end] {
            Cell::Space => {
                self.map[end] = Cell::Movable;
                self.follow_train(first);
                Action::Pushed { walls }
            }
            Cell::Beast => {
                let behind = self.neighbour(end, dir).map(|b| (b, self.map[b]));
                let wedged = match behind {
                    Some((b, Cell::Wall)) => {
                        self.rules.push != Push::NotAgainstBorder || !self.map.on_border(b)
                    }
                    Some((_, Cell::Movable)) => self.rules.push != Push::OnlyAgainstWall,
                    Some((_, Cell::Beast)) => self.rules.push == Push::CrushAgainstBeast,
                    _ => false,
                } || self.rules.push == Push::Always;
                if !wedged {
                    return match behind {
                        Some((to, Cell::Space)) if self.rules.push == Push::LooseBeast => {
                            if let Some(b) = self.beasts.iter_mut().find(|b| **b == end) {
                                *b = to;
                            }
                            self.map[to] = Cell::Beast;
                            self.map[end] = Cell::Movable;
                            self.follow_train(first);
                            Action::PushedBeast { walls, at: end }
                        }
                        _ => Action::Stuck { walls },
                    };
                }
                if let Some(i) = self.beasts.iter().position(|&b| b == end) {
                    self.beasts.remove(i);
                }
                self.crushed.push(Crush {
                    turn: self.turn,
                    at: end,
                });
                self.map[end] = Cell::Movable;
                match self.rules.follow {
                    Follow::StaysOnCrush => self.map[first] = Cell::Space,
                    _ => self.follow_train(first),
                }
                Action::Crushed { walls, at: end }
            }
            _ => Action::Stuck { walls },
        }
    }

    /// The player after his push moved the train whose first wall was at `first`: he steps
    /// into its old cell, or under [`Follow::Stays`] stays, and the cell is left a space.
    /// (Under [`Follow::StaysOnCrush`] a crush leaves him where he was: see `push`.)
    fn follow_train(&mut self, first: Pos) {
        match self.rules.follow {
            Follow::Steps | Follow::StaysOnCrush => self.walk_to(first),
            Follow::Stays => self.map[first] = Cell::Space,
        }
    }

    fn walk_to(&mut self, to: Pos) {
        self.map[self.player] = Cell::Space;
        self.map[to] = Cell::Player;
        self.player = to;
    }

    fn neighbour(&self, pos: Pos, dir: Dir) -> Option<Pos> {
        pos.step(dir).filter(|&p| self.map.contains(p))
    }

    /// The beasts' half of an even turn. Returns the cell where the player was eaten.
    fn beasts_act(&mut self, target: Pos) -> Option<Pos> {
        // The branch-free path packs a distance and a rank into a `u64`: squared distances
        // stay below 2^61 on any map narrower and shorter than 2^30 cells.
        let small = self.map.cols() < 1 << 30 && self.map.rows() < 1 << 30;
        let our_ties = self.neighbours == NEIGHBOURS;
        let ranks = match our_ties {
            true => Some(OUR_RANKS),
            false => around_ranks(&self.neighbours),
        };
        let squeeze = self.rules.diagonal == Diagonal::Open;
        let plain = small
            && ranks.is_some()
            && squeeze
            && self.rules.stay == Stay::Never
            && self.rules.taken == Taken::NextBest;
        let ranks = ranks.unwrap_or_default();
        // Our tie order, stay, taken and kill readings: the table of choices serves any map.
        let ours = our_ties
            && squeeze
            && self.rules.stay == Stay::Never
            && self.rules.taken == Taken::NextBest
            && self.rules.kill != Kill::AtTarget;
        match (self.rules.distance, plain, ours) {
            (Distance::Euclidean, _, true) => self.beasts_act_ours(target),
            (Distance::Euclidean, true, false) => {
                self.beasts_act_by::<Euclidean, true>(target, ranks)
            }
            (Distance::Euclidean, false, _) => {
                self.beasts_act_by::<Euclidean, false>(target, ranks)
            }
            (Distance::Manhattan, ..) => self.beasts_act_by::<Manhattan, false>(target, ranks),
            (Distance::Chebyshev, ..) => self.beasts_act_by::<Chebyshev, false>(target, ranks),
            (Distance::Truncated, ..) => self.beasts_act_by::<Truncated, false>(target, ranks),
            (Distance::Scaled30, ..) => self.beasts_act_by::<Scaled30, false>(target, ranks),
            (Distance::Rounded, ..) => self.beasts_act_by::<Rounded, false>(target, ranks),
        }
    }

    /// [`Game::beasts_act`] under all our rules, by [`beast_turn_ours`]. Free of guessed
    /// branches: a beast with nowhere to go takes the step [`NOWHERE`], which leaves it
    /// where it is (it is written back to its own cell).
    fn beasts_act_ours(&mut self, target: Pos) -> Option<Pos> {
        if self.rules.order == Order::Turn {
            self.rules.rank.arrange(&mut self.beasts);
        }
        let stride = self.map.cols();
        // For each step, and for `NOWHERE` and past it: the step in rows, in columns, and
        // flat.
        let steps: [(isize, isize, isize); 16] =
            std::array::from_fn(|k| match self.neighbours.get(k) {
                Some(&(dr, dc)) => (dr, dc, dr * stride as isize + dc),
                None => (0, 0, 0),
            });
        // Every slot is written before it counts: no need to clear the last turn's.
        self.last_steps.resize(self.beasts.len(), NOWHERE);
        self.memos.0.resize(self.beasts.len(), ClassMemo::default());
        let player = self.map.index(self.player);
        let eater = beast_turn_ours(
            self.map.cells_mut(),
            &mut self.beasts,
            &mut self.last_steps,
            &mut self.memos.0,
            stride,
            (target, player),
            &steps,
        );
        eater.map(|i| {
            self.last_steps.truncate(i + 1);
            self.status = Status::Eaten;
            self.beasts[i]
        })
    }

    /// [`Game::beasts_act`] under the distance measure `M`, one copy per measure so that
    /// ours pays nothing for the others; `PLAIN` (our [`Stay`] and [`Taken`], tie orders
    /// that rank each neighbour once) leaves out their checks and uses `ranks`, the tie rank
    /// of each cell of [`AROUND`](crate::grid::AROUND).
    ///
    /// The border is solid wall (the parser guarantees it), so a beast is never on it and
    /// its eight neighbours are always on the map: their flat indices are `index + offset`.
    fn beasts_act_by<M: Measure, const PLAIN: bool>(
        &mut self,
        target: Pos,
        ranks: [u64; 8],
    ) -> Option<Pos> {
        if self.rules.order == Order::Turn {
            self.rules.rank.arrange(&mut self.beasts);
        }
        self.last_steps.clear();
        let cols = self.map.cols() as isize;
        let neighbours = self.neighbours;
        let deltas = neighbours.map(|(dr, dc)| (dr as i64, dc as i64));
        let offsets = neighbours.map(|(dr, dc)| dr * cols + dc);
        let stride = self.map.cols();
        let (tr, tc) = (target.row as i64, target.col as i64);
        let stays_when_taken = !PLAIN && self.rules.taken == Taken::Stays;
        for i in 0..self.beasts.len() {
            let from = self.beasts[i];
            let at = self.map.index(from);
            let (dr, dc) = (from.row as i64 - tr, from.col as i64 - tc);
            let cells = self.map.cells();
            let nearest = if PLAIN {
                nearest_open::<M>(cells, at, stride, (dr, dc), ranks)
            } else {
                self.nearest_allowed::<M>(at, (dr, dc), &deltas, &offsets, stays_when_taken)
            };
            let step = nearest
                .map(|(best, choice)| (best, choice, at.wrapping_add_signed(offsets[choice])));
            let step = step.filter(|&(best, _, to_index)| {
                // Under `Taken::Stays`, a beast in its best cell took it this turn.
                let taken = !PLAIN && cells[to_index] == Cell::Beast;
                let farther =
                    !PLAIN && self.rules.stay == Stay::WhenFarther && best > M::of(dr, dc);
                !taken && !farther
            });
            let Some((_, choice, to_index)) = step else {
                self.last_steps.push(NOWHERE);
                continue;
            };
            let (nr, nc) = neighbours[choice];
            self.beasts[i] = Pos::new(
                from.row.wrapping_add_signed(nr),
                from.col.wrapping_add_signed(nc),
            );
            self.last_steps.push(choice as u8);
            let kills_at_target = self.rules.kill == Kill::AtTarget && self.beasts[i] == target;
            let cells = self.map.cells_mut();
            cells[at] = Cell::Space;
            let eats = cells[to_index] == Cell::Player || kills_at_target;
            cells[to_index] = Cell::Beast;
            if eats {
                self.status = Status::Eaten;
                return Some(self.beasts[i]);
            }
        }
        None
    }

    /// The nearest neighbour a beast at flat index `at` may move to under any reading, as
    /// (distance, index into the neighbour order), checking every neighbour in turn; `None`
    /// when it has nowhere to go.
    fn nearest_allowed<M: Measure>(
        &self,
        at: usize,
        (dr, dc): (i64, i64),
        deltas: &[(i64, i64); 8],
        offsets: &[isize; 8],
        stays_when_taken: bool,
    ) -> Option<(u64, usize)> {
        let cells = self.map.cells();
        let stride = self.map.cols() as isize;
        let wall = |n: usize| matches!(cells.get(n), Some(Cell::Wall | Cell::Movable));
        let mut best = u64::MAX;
        let mut choice = usize::MAX;
        for (k, &(nr, nc)) in deltas.iter().enumerate() {
            let n = at.wrapping_add_signed(offsets[k]);
            match cells.get(n) {
                Some(Cell::Space | Cell::Player) => {}
                Some(Cell::Beast) if stays_when_taken && self.taken_this_turn(n) => {}
                _ => continue,
            }
            let diagonal = nr != 0 && nc != 0;
            let closed = match self.rules.diagonal {
                Diagonal::Open => false,
                Diagonal::NoSqueeze => {
                    diagonal
                        && wall(at.wrapping_add_signed(nr as isize * stride))
                        && wall(at.wrapping_add_signed(nc as isize))
                }
                Diagonal::Never => diagonal,
            };
            if closed {
                continue;
            }
            let d = M::of(dr + nr, dc + nc);
            if d < best {
                best = d;
                choice = k;
            }
        }
        (choice != usize::MAX).then_some((best, choice))
    }

    /// True if a beast moved into the cell at flat index `n` earlier in this beast turn.
    fn taken_this_turn(&self, n: usize) -> bool {
        self.moves_logged().any(|(_, to)| self.map.index(to) == n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::rules::{Exhaust, Schedule};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn under_four_neighbours_a_beast_never_steps_diagonally() {
        // The beast at (3,3) aims at the player at (1,1): ours steps up-left to (2,2);
        // under four-neighbours up and left tie at 5, and left (matrix 2) beats up (3).
        let p = Puzzle::parse("5 5\n#####\n#O  #\n#   #\n#  H#\n#####\nWW\n").expect("valid");
        let four = Rules {
            diagonal: Diagonal::Never,
            ..Rules::OURS
        };
        let after_two = |rules| {
            let mut g = Game::new(&p, rules);
            g.apply(Move::Wait).expect("playing");
            g.apply(Move::Wait).expect("playing");
            g.beasts().to_vec()
        };
        assert_eq!(after_two(Rules::OURS), vec![Pos::new(2, 2)]);
        assert_eq!(after_two(four), vec![Pos::new(3, 2)]);
        // The player is reachable only diagonally: ours eats him, four-neighbours never.
        let p = Puzzle::parse("5 4\n#####\n#O# #\n##H #\n#####\nW\n").expect("valid");
        let ours = crate::beast::play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "aHHHH!\n0\n");
        let theirs = crate::beast::play_out(&p, four).expect("decided");
        assert_eq!(theirs.answer(), "0\n");
    }

    #[test]
    fn under_push_stays_the_player_stays_behind_the_train() {
        // RR on `#O~ H#`: ours pushes the wall on and crushes the beast on the second R;
        // a player who stays behind only walks up to the wall on the second R, and the boxed
        // beast is a stalemate.
        let p = Puzzle::parse("6 3\n######\n#O~ H#\n######\nRR\n").expect("valid");
        let ours = crate::beast::play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "2\n");
        let stays = Rules {
            follow: Follow::Stays,
            ..Rules::OURS
        };
        let mut g = Game::new(&p, stays);
        let step = g.apply(Move::Step(Dir::Right)).expect("playing");
        assert_eq!(step.action, Action::Pushed { walls: 1 });
        assert_eq!(g.player(), Pos::new(1, 1));
        assert_eq!(g.map()[Pos::new(1, 2)], Cell::Space);
        let theirs = crate::beast::play_out(&p, stays).expect("decided");
        assert_eq!(theirs.answer(), "0\n");
    }

    #[test]
    fn under_crush_only_against_wall_a_beast_before_a_movable_wall_is_a_wall() {
        // R on `#O~H~#`: ours crushes the beast against the second `~`; when only `#`
        // crushes, the beast stops the train, and the boxed beast is a stalemate.
        let p = Puzzle::parse("6 3\n######\n#O~H~#\n######\nR\n").expect("valid");
        let ours = crate::beast::play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "2\n");
        let only = Rules {
            push: Push::OnlyAgainstWall,
            ..Rules::OURS
        };
        let mut g = Game::new(&p, only);
        let step = g.apply(Move::Step(Dir::Right)).expect("playing");
        assert_eq!(step.action, Action::Stuck { walls: 1 });
        let theirs = crate::beast::play_out(&p, only).expect("decided");
        assert_eq!(theirs.answer(), "0\n");
        // Against `#` it still crushes.
        let p = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nR\n").expect("valid");
        let theirs = crate::beast::play_out(&p, only).expect("decided");
        assert_eq!(theirs.answer(), "2\n");
    }

    #[test]
    fn under_not_against_border_a_beast_before_the_outer_ring_is_a_wall() {
        // R on `#O~H#`: ours crushes the beast against the border; when the border does
        // not crush, the beast stops the train, and the boxed beast is a stalemate.
        let p = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nR\n").expect("valid");
        let ours = crate::beast::play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "2\n");
        let inner = Rules {
            push: Push::NotAgainstBorder,
            ..Rules::OURS
        };
        let mut g = Game::new(&p, inner);
        let step = g.apply(Move::Step(Dir::Right)).expect("playing");
        assert_eq!(step.action, Action::Stuck { walls: 1 });
        assert_eq!(
            crate::beast::play_out(&p, inner).expect("decided").answer(),
            "0\n"
        );
        // Against an inner `#` it still crushes, and against `~` too.
        for map in [
            "6 3\n######\n#O~H##\n######\nR\n",
            "6 3\n######\n#O~H~#\n######\nR\n",
        ] {
            let p = Puzzle::parse(map).expect("valid");
            let theirs = crate::beast::play_out(&p, inner).expect("decided");
            assert_eq!(theirs.answer(), "2\n", "{map}");
        }
    }

    #[test]
    fn under_no_squeeze_a_diagonal_between_two_walls_is_closed() {
        // The beast at (1,3) reaches the player at (2,2) only diagonally, between the
        // walls at (1,2) and (2,3): ours eats him on turn 2; under no-squeeze the beast is
        // boxed in and the game is a stalemate.
        let p = Puzzle::parse("5 4\n#####\n# #H#\n# O##\n#####\nWW\n").expect("valid");
        let ours = crate::beast::play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "aHHHH!\n0\n");
        let closed = Rules {
            diagonal: Diagonal::NoSqueeze,
            ..Rules::OURS
        };
        let theirs = crate::beast::play_out(&p, closed).expect("decided");
        assert_eq!(theirs.answer(), "0\n");
        // A diagonal with one wall beside it stays open.
        let one = Puzzle::parse("5 4\n#####\n#  H#\n# O##\n#####\nWW\n").expect("valid");
        let a = crate::beast::play_out(&one, closed).expect("decided");
        assert_eq!(
            a.answer(),
            crate::beast::play_out(&one, Rules::OURS)
                .expect("decided")
                .answer()
        );
    }
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn beasts_move_by_the_table_as_they_do_by_the_distances() {
        // Generated maps from 5x6 to 300x203, some crowded, each given 60 beast turns at a
        // target that wanders, so that beasts are near it and far, hemmed in and free.
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        for seed in 0..300 {
            let side = [5, 9, 16, 40, 300][seed as usize % 5];
            let opts = crate::judge::generate::GenOptions {
                cols: side,
                rows: side * 2 / 3 + 3,
                beasts: 1 + rng.next_u32() as usize % (side * 2),
                walls_pct: (rng.next_u32() % 60) as u8,
                moves: 0,
            };
            let Ok(puzzle) = crate::judge::generate::generate(seed, &opts) else {
                continue;
            };
            let mut by_table = Game::new(&puzzle, Rules::OURS);
            let mut by_distance = by_table.clone();
            for turn in 0..60 {
                let target = Pos::new(
                    rng.next_u32() as usize % opts.rows,
                    rng.next_u32() as usize % opts.cols,
                );
                let target = if turn % 3 == 0 {
                    by_table.player
                } else {
                    target
                };
                let ranks = around_ranks(&by_distance.neighbours).expect("a permutation");
                let eaten = by_table.beasts_act_ours(target);
                assert_eq!(
                    eaten,
                    by_distance.beasts_act_by::<Euclidean, true>(target, ranks)
                );
                assert_eq!(by_table, by_distance, "seed {seed}, turn {turn}");
                if eaten.is_some() {
                    break;
                }
            }
        }
    }

    #[test]
    fn whole_games_play_out_by_the_table_as_by_the_distances() {
        use crate::judge::generate::{GenOptions, generate};
        // Generated puzzles from 20 to 250 columns with 300 moves, under our readings and
        // the switches that keep the table (order, target, schedule, bump, exhaust): the
        // player pushes and crushes, so beasts leave the list in mid-game and their memos
        // fall out of step with them.
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut crushed = 0;
        for seed in 0..80 {
            let side = [20, 70, 130, 250][seed as usize % 4];
            let opts = GenOptions {
                cols: side,
                rows: side / 2 + 3,
                beasts: 1 + rng.next_u32() as usize % side,
                walls_pct: (rng.next_u32() % 50) as u8,
                moves: 300,
            };
            let Ok(puzzle) = generate(seed, &opts) else {
                continue;
            };
            let bits = rng.next_u32();
            let rules = Rules {
                order: [Order::Initial, Order::Turn][bits as usize & 1],
                target: [Target::Start, Target::After][bits as usize >> 1 & 1],
                schedule: [Schedule::Even, Schedule::Odd, Schedule::Every][bits as usize % 3],
                bump: [Bump::Death, Bump::Blocked][bits as usize >> 2 & 1],
                exhaust: [Exhaust::Wait, Exhaust::Stop][bits as usize >> 3 & 1],
                ..Rules::OURS
            };
            let mut by_table = Game::new(&puzzle, rules);
            let mut by_distance = by_table.clone();
            let by_squares =
                |g: &mut Game, target| g.beasts_act_by::<Euclidean, true>(target, OUR_RANKS);
            for (turn, &played) in puzzle.moves().iter().enumerate() {
                let step = by_table.apply(played);
                assert_eq!(step, by_distance.apply_by(played, by_squares));
                assert_eq!(by_table, by_distance, "seed {seed}, turn {turn}, {rules:?}");
                if step.is_err() {
                    break;
                }
            }
            crushed += by_table.crushed().len();
        }
        assert!(
            crushed >= 10,
            "only {crushed} crushes: the games should lose beasts"
        );
    }

    #[test]
    fn a_beast_with_nowhere_to_go_stays_and_is_not_logged() {
        let puzzle = Puzzle::parse(
            "9 5
#########
#O  #H# #
#   ###H#
#       #
#########
W
",
        )
        .expect("valid");
        let mut game = Game::new(&puzzle, Rules::OURS);
        assert!(game.apply(Move::Wait).is_ok());
        assert!(game.apply(Move::Wait).is_ok());
        // The beast at row 1, column 5 is walled in on all eight sides and stays; the one
        // at row 2, column 7 steps down-left, the nearest to the player of its open cells.
        assert_eq!(game.beasts()[0], Pos::new(1, 5));
        assert_eq!(game.map()[Pos::new(1, 5)], Cell::Beast);
        assert_eq!(game.last_beast_moves(), [(Pos::new(2, 7), Pos::new(3, 6))]);
    }
}
