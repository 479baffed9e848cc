//! The rules of a turn (RULES.md 1, "One turn"): the player's step, push or crush, the win
//! check, the beasts' moves on even turns, and what happens when the moves run out. The
//! switches of the readings are in [`super::rules`].
//!
//! A [`Game`] is played one move at a time with [`Game::apply`], which says what happened
//! or refuses a move after the end; [`play_out`] plays a whole puzzle. The map is one byte a
//! cell and nothing is allocated per turn once the first beast turn has run.

use thiserror::Error;

use crate::beast::choice::{
    CHOICES, ClassMemo, ClassMemos, NEIGHBOURS, NOWHERE, OUR_RANKS, all_near, around_block,
    around_ranks, closed_at, direction_class, near_class,
};
use crate::beast::parse::{Cell, Move, Puzzle};
use crate::beast::region::Region;
use crate::beast::rules::{Bump, Distance, Exhaust, Order, Rules, Stay, Taken, Target};
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
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, Hash)]
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

/// How a judged puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Every beast was crushed.
    Won,
    /// A beast got the player.
    Eaten,
    /// The moves ran out and the beasts can never reach the player.
    Stalemate,
    /// The moves ran out with beasts left (only under `--exhaust stop`).
    Alive,
}

impl Ending {
    /// The name used in JSON: `won`, `eaten`, `stalemate`, `alive`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::Eaten => "eaten",
            Ending::Stalemate => "stalemate",
            Ending::Alive => "alive",
        }
    }
}

/// The judged result of a whole puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// 2 points a crushed beast.
    pub score: u64,
    /// Turns played, waiting turns included. For a stalemate: up to the turn on which it
    /// was detected (at once when no beast shares the player's region).
    pub turns: u64,
    /// How many moves of the move string were played.
    pub moves_used: usize,
    /// Beasts still alive.
    pub beasts_left: usize,
    /// Every crush, in order.
    pub crushed: Vec<Crush>,
}

impl Outcome {
    /// The canonical answer: `aHHHH!` and the score on two lines, or the score alone.
    pub fn answer(&self) -> String {
        match self.ending {
            Ending::Eaten => format!("aHHHH!\n{}\n", self.score),
            _ => format!("{}\n", self.score),
        }
    }
}

/// Why a game could not be judged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameError {
    /// The waiting after the moves ran out neither ended nor repeated within the limit.
    #[error(
        "the beasts neither caught the player nor repeated a position within {turns} waiting \
         turns after the moves ran out on turn {from}; the limit is 6 turns a cell of the \
         player's region ({cells} cells) a beast in it ({beasts}), at least 2,000,000"
    )]
    Undecided {
        /// How many waiting turns were played.
        turns: u64,
        /// The turn on which the moves ran out and the waiting began.
        from: u64,
        /// Open cells of the player's region.
        cells: u64,
        /// Beasts in the player's region.
        beasts: u64,
    },
    /// The caller's budget ran out (see [`play_out_until`]) before the game was decided.
    #[error("the game was not decided by turn {turn}, when the judge's time budget ran out")]
    OutOfBudget {
        /// The turn reached.
        turn: u64,
    },
}

/// How many turns are played between two asks of a [`play_out_until`] budget.
const BUDGET_TURNS: u64 = 4096;

/// The fewest waiting turns played after the moves run out before giving up, whatever the
/// map: small maps keep this allowance (see [`wait_limit`]).
pub const WAIT_LIMIT: u64 = 2_000_000;

/// The waiting turns played before giving up when `beasts` beasts share the player's
/// region of `cells` open cells: `6 * cells * beasts + 3`, and at least [`WAIT_LIMIT`].
///
/// Why this is enough. While the player waits nothing moves but the beasts, and only those
/// in his region matter, so the state after each beast turn is the list of their cells,
/// and the next state is a function of it: the states run into a cycle after a tail, with
/// tail plus cycle at most the number of states `S`. The judge's Brent search sees the repeat
/// by the `3S`th pair of turns, so `6S + 3` waiting turns (one more to line up the pairs)
/// always suffice.
/// - One beast: `S <= cells`, so the limit is proved enough: a 3 MB corridor whose beast
///   walks a million cells (two million turns) to the player is judged.
/// - Several beasts: `S` is at most `cells^beasts` (proved enough whenever that is below
///   the limit, e.g. two beasts in up to 577 cells), but no polynomial bound holds in
///   general. The limit then allows every beast a walk over the whole region: generous for
///   the chases and oscillations of real puzzles, and the error names the limit if one
///   still outlives it.
pub fn wait_limit(cells: u64, beasts: u64) -> u64 {
    6u64.saturating_mul(cells)
        .saturating_mul(beasts)
        .saturating_add(3)
        .max(WAIT_LIMIT)
}

/// The nearest open neighbour of a beast at flat index `at` under our tie orders, as
/// (distance, rank), with `(dr, dc)` the beast's offset from its target; `None` when every
/// neighbour is closed. Branch-free: each neighbour's key is its distance times 8 plus its
/// rank, or `u64::MAX` when it is not open, so the smallest key is the nearest open cell
/// with ties going to the higher priority. The three rows of the 3x3 block around the
/// beast are three slices, in the order of [`AROUND`](crate::grid::AROUND).
#[inline(always)]
fn nearest_open<M: Measure>(
    cells: &[Cell],
    at: usize,
    stride: usize,
    (dr, dc): (i64, i64),
    ranks: [u64; 8],
) -> Option<(u64, usize)> {
    let (Some(up), Some(mid), Some(down)) = (
        three(cells, at.wrapping_sub(stride + 1)),
        three(cells, at.wrapping_sub(1)),
        three(cells, at + stride - 1),
    ) else {
        return None;
    };
    let around = around_block(up, mid, down);
    let (r, c) = (
        [M::part(dr - 1), M::part(dr), M::part(dr + 1)],
        [M::part(dc - 1), M::part(dc), M::part(dc + 1)],
    );
    let distance = [
        M::join(r[0], c[0]),
        M::join(r[0], c[1]),
        M::join(r[0], c[2]),
        M::join(r[1], c[0]),
        M::join(r[1], c[2]),
        M::join(r[2], c[0]),
        M::join(r[2], c[1]),
        M::join(r[2], c[2]),
    ];
    let keys: [u64; 8] = std::array::from_fn(|j| {
        let open = (around[j] == Cell::Space) | (around[j] == Cell::Player);
        let closed = u64::from(!open).wrapping_neg();
        (distance[j] << 3 | ranks[j]) | closed
    });
    // A tree of minimums, not a chain: short enough that the compiler keeps conditional
    // moves instead of turning them into guessed branches.
    let key = (keys[0].min(keys[1]).min(keys[2].min(keys[3])))
        .min(keys[4].min(keys[5]).min(keys[6].min(keys[7])));
    (key != u64::MAX).then_some((key >> 3, (key & 7) as usize))
}

/// The neighbour a beast at the middle of the 3x3 block `cells` takes by [`nearest_open`]
/// and the squared distances, for the tests of the table of choices.
#[cfg(test)]
pub(super) fn nearest_by_squares(
    cells: &[Cell; 9],
    (dr, dc): (i64, i64),
    ranks: [u64; 8],
) -> Option<usize> {
    nearest_open::<Euclidean>(cells, 4, 3, (dr, dc), ranks).map(|(_, k)| k)
}

/// Each beast's flat cell on rows of `stride` cells, shifted left 8 bits, and the class
/// of its direction to `target` in the low bits, in `plan`. With `FAR`, the map is too big
/// for every class to be looked up, and a beast far from its target asks its memo.
#[inline(never)]
fn plan_beasts<const FAR: bool>(
    beasts: &[Pos],
    memos: &mut [ClassMemo],
    plan: &mut [u64; PLAN],
    stride: usize,
    target: Pos,
) {
    let (tr, tc) = (target.row as i64, target.col as i64);
    for ((planned, beast), memo) in plan.iter_mut().zip(beasts).zip(memos) {
        let at = beast.row * stride + beast.col;
        let (dr, dc) = (beast.row as i64 - tr, beast.col as i64 - tc);
        let class = match FAR {
            true => memo.class(dr, dc),
            false => near_class(dr, dc).unwrap_or_else(|| direction_class(dr, dc)),
        };
        *planned = (at as u64) << 8 | class as u64;
    }
}

/// How many beasts [`beast_turn_ours`] plans at a time.
const PLAN: usize = 256;

/// The beasts' moves of one beast turn under all our rules, on `cells` (rows of `stride`
/// cells), with `player` the player's flat cell: each beast of `beasts` in turn takes the
/// step its choice ([`CHOICES`]) names in `steps`, and the choice is written to its slot
/// in `log`. `log` and `memos` are as long as `beasts`. Returns the index of the beast that
/// ate the player, if one did (those after it have not moved).
///
/// A chunk of beasts is planned first ([`plan_beasts`]): each one's flat cell and the class
/// of its direction to `target`, which no beast's move in the turn changes. The moves then
/// only read the cells around each beast, and the work of one does not wait on the plan of
/// the next.
#[inline(never)]
fn beast_turn_ours(
    cells: &mut [Cell],
    beasts: &mut [Pos],
    log: &mut [u8],
    memos: &mut [ClassMemo],
    stride: usize,
    (target, player): (Pos, usize),
    steps: &[(isize, isize, isize); 16],
) -> Option<usize> {
    debug_assert!(log.len() == beasts.len() && memos.len() == beasts.len());
    // A beast's 3x3 block is on the map only if the map is 3 cells wide and 3 high; and
    // then no block is longer than the map, which lets the compiler check the three rows
    // of a block once for the whole turn.
    if stride < 3 || stride > cells.len().saturating_sub(3) / 2 {
        log.fill(NOWHERE);
        return None;
    }
    let far = !all_near(stride, cells.len() / stride);
    let mut plan = [0u64; PLAN];
    let chunks = beasts.chunks_mut(PLAN).zip(log.chunks_mut(PLAN));
    for (c, ((beasts, log), memos)) in chunks.zip(memos.chunks_mut(PLAN)).enumerate() {
        match far {
            true => plan_beasts::<true>(beasts, memos, &mut plan, stride, target),
            false => plan_beasts::<false>(beasts, memos, &mut plan, stride, target),
        }
        for (j, ((beast, slot), &planned)) in beasts.iter_mut().zip(log).zip(&plan).enumerate() {
            let at = (planned >> 8) as usize;
            let choice = match closed_at(cells, at, stride) {
                Some(closed) => CHOICES[planned as usize & 63][closed],
                None => NOWHERE,
            };
            *slot = choice;
            let (sr, sc, flat) = steps[usize::from(choice & 15)];
            beast.row = beast.row.wrapping_add_signed(sr);
            beast.col = beast.col.wrapping_add_signed(sc);
            let to = at.wrapping_add_signed(flat);
            cells[at] = Cell::Space;
            cells[to] = Cell::Beast;
            if to == player {
                return Some(c * PLAN + j);
            }
        }
    }
    None
}

/// The three cells from flat index `start`, if on the map.
fn three(cells: &[Cell], start: usize) -> Option<&[Cell; 3]> {
    cells.get(start..start.checked_add(3)?)?.try_into().ok()
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

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    map: Grid<Cell>,
    rules: Rules,
    player: Pos,
    /// Live beasts. Under `Order::Initial` in rank order; under `Order::Turn` sorted by
    /// position at the last beast turn.
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
}

impl Game {
    /// A game at turn 0 on the puzzle's map. A map with no beasts is won at once.
    pub fn new(puzzle: &Puzzle, rules: Rules) -> Game {
        Game::from_map(puzzle.map().clone(), rules)
    }

    /// A game at turn 0 on `map`, which must be a valid puzzle's map (a solid `#` border,
    /// one player): [`Puzzle::into_parts`] gives one without a copy.
    pub fn from_map(map: Grid<Cell>, rules: Rules) -> Game {
        let (player, beasts) = player_and_beasts(&map);
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
        }
    }

    /// The current map.
    pub fn map(&self) -> &Grid<Cell> {
        &self.map
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player's cell (where he died, if he was eaten).
    pub fn player(&self) -> Pos {
        self.player
    }

    /// The live beasts' cells.
    pub fn beasts(&self) -> &[Pos] {
        &self.beasts
    }

    /// Turns played so far.
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
        let action = self.player_acts(played);
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
            };
            step.eaten_at = beasts_act(self, target);
            step.beasts_moved = true;
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
        match self.map[end] {
            Cell::Space => {
                self.map[end] = Cell::Movable;
                self.walk_to(first);
                Action::Pushed { walls }
            }
            Cell::Beast => {
                let wedged = self
                    .neighbour(end, dir)
                    .is_some_and(|b| matches!(self.map[b], Cell::Wall | Cell::Movable));
                if !wedged {
                    return Action::Stuck { walls };
                }
                if let Some(i) = self.beasts.iter().position(|&b| b == end) {
                    self.beasts.remove(i);
                }
                self.crushed.push(Crush {
                    turn: self.turn,
                    at: end,
                });
                self.map[end] = Cell::Movable;
                self.walk_to(first);
                Action::Crushed { walls, at: end }
            }
            _ => Action::Stuck { walls },
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
        let plain = small
            && ranks.is_some()
            && self.rules.stay == Stay::Never
            && self.rules.taken == Taken::NextBest;
        let ranks = ranks.unwrap_or_default();
        // Our tie order, stay and taken readings: the table of choices serves any map.
        let ours =
            our_ties && self.rules.stay == Stay::Never && self.rules.taken == Taken::NextBest;
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
        }
    }

    /// [`Game::beasts_act`] under all our rules, by [`beast_turn_ours`]. Free of guessed
    /// branches: a beast with nowhere to go takes the step [`NOWHERE`], which leaves it
    /// where it is (it is written back to its own cell).
    fn beasts_act_ours(&mut self, target: Pos) -> Option<Pos> {
        if self.rules.order == Order::Turn {
            self.beasts.sort_unstable();
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
            self.beasts.sort_unstable();
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
            let cells = self.map.cells_mut();
            cells[at] = Cell::Space;
            let eats = cells[to_index] == Cell::Player;
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
        let mut best = u64::MAX;
        let mut choice = usize::MAX;
        for (k, &(nr, nc)) in deltas.iter().enumerate() {
            let n = at.wrapping_add_signed(offsets[k]);
            match cells.get(n) {
                Some(Cell::Space | Cell::Player) => {}
                Some(Cell::Beast) if stays_when_taken && self.taken_this_turn(n) => {}
                _ => continue,
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

/// A distance measure, as a number that orders cells the way the measure does. Each one is
/// a join of one part for the rows and one for the columns, so that a beast works out three
/// parts a direction and joins them for its eight neighbours.
trait Measure {
    /// The part of one axis's offset.
    fn part(d: i64) -> u64;
    /// The distance from the parts of the row and the column offsets.
    fn join(row: u64, col: u64) -> u64;
    /// The distance of the offset `(dy, dx)`.
    fn of(dy: i64, dx: i64) -> u64 {
        Self::join(Self::part(dy), Self::part(dx))
    }
}

/// Squared Euclidean distance (the square keeps it exact and orders the same).
struct Euclidean;
/// Rows plus columns.
struct Manhattan;
/// The larger of rows and columns.
struct Chebyshev;
/// Euclidean truncated to a whole number.
struct Truncated;

impl Measure for Euclidean {
    fn part(d: i64) -> u64 {
        (d * d) as u64
    }
    fn join(row: u64, col: u64) -> u64 {
        row + col
    }
}

impl Measure for Manhattan {
    fn part(d: i64) -> u64 {
        d.unsigned_abs()
    }
    fn join(row: u64, col: u64) -> u64 {
        row + col
    }
}

impl Measure for Chebyshev {
    fn part(d: i64) -> u64 {
        d.unsigned_abs()
    }
    fn join(row: u64, col: u64) -> u64 {
        row.max(col)
    }
}

impl Measure for Truncated {
    fn part(d: i64) -> u64 {
        Euclidean::part(d)
    }
    fn join(row: u64, col: u64) -> u64 {
        Euclidean::join(row, col).isqrt()
    }
}

/// Plays a whole puzzle under `rules`.
pub fn play_out(puzzle: &Puzzle, rules: Rules) -> Result<Outcome, GameError> {
    play(Game::new(puzzle, rules), puzzle.moves(), Unseen, || true)
}

/// [`play_out`], taking the puzzle: the game plays on the parsed map itself instead of a copy.
pub fn play_out_owned(puzzle: Puzzle, rules: Rules) -> Result<Outcome, GameError> {
    let (map, moves) = puzzle.into_parts();
    play(Game::from_map(map, rules), moves, Unseen, || true)
}

/// [`play_out`] within the caller's budget: `keep_going` is asked every few thousand turns, and
/// once it says `false` the game ends with [`GameError::OutOfBudget`]. The engine has no
/// clock; the caller's closure may read one.
pub fn play_out_until(
    puzzle: &Puzzle,
    rules: Rules,
    keep_going: impl FnMut() -> bool,
) -> Result<Outcome, GameError> {
    play(Game::new(puzzle, rules), puzzle.moves(), Unseen, keep_going)
}

/// Plays a whole puzzle under `rules`, showing `observe` the game after every turn,
/// waiting turns included.
pub fn play_out_with(
    puzzle: &Puzzle,
    rules: Rules,
    observe: impl FnMut(&Game, &Step),
) -> Result<Outcome, GameError> {
    play(
        Game::new(puzzle, rules),
        puzzle.moves(),
        Seen(observe),
        || true,
    )
}

/// [`play_out_with`] within the caller's budget, as [`play_out_until`]: `observe` sees every turn,
/// and once `keep_going` says `false` the game ends with [`GameError::OutOfBudget`].
pub fn play_out_until_with(
    puzzle: &Puzzle,
    rules: Rules,
    observe: impl FnMut(&Game, &Step),
    keep_going: impl FnMut() -> bool,
) -> Result<Outcome, GameError> {
    play(
        Game::new(puzzle, rules),
        puzzle.moves(),
        Seen(observe),
        keep_going,
    )
}

/// Who watches a game being played out.
trait Watcher {
    /// Shows the game after a turn.
    fn see(&mut self, game: &Game, step: &Step);
    /// True if nobody watches, so that turns may be played ahead and taken back.
    const UNSEEN: bool;
}

/// Nobody watches.
struct Unseen;

/// A closure watches every turn.
struct Seen<F>(F);

impl Watcher for Unseen {
    fn see(&mut self, _: &Game, _: &Step) {}
    const UNSEEN: bool = true;
}

impl<F: FnMut(&Game, &Step)> Watcher for Seen<F> {
    fn see(&mut self, game: &Game, step: &Step) {
        (self.0)(game, step)
    }
    const UNSEEN: bool = false;
}

/// Plays `moves` and what follows them from a new `game`, showing `watcher` every turn and
/// asking `keep_going` every [`BUDGET_TURNS`] turns. Moves given, not lent, are let go
/// of once played.
fn play<W: Watcher>(
    mut game: Game,
    moves: impl AsRef<[Move]>,
    mut watcher: W,
    mut keep_going: impl FnMut() -> bool,
) -> Result<Outcome, GameError> {
    let rules = game.rules;
    let mut moves_used = 0;
    for &m in moves.as_ref() {
        let Ok(step) = game.apply(m) else { break };
        moves_used += 1;
        watcher.see(&game, &step);
        if game.turn.is_multiple_of(BUDGET_TURNS) && !keep_going() {
            return Err(GameError::OutOfBudget { turn: game.turn });
        }
    }
    // Moves given away are no longer needed while the player waits.
    drop(moves);
    let mut ending = match game.status {
        Status::Won => Ending::Won,
        Status::Eaten => Ending::Eaten,
        Status::Playing => Ending::Alive,
    };
    if ending == Ending::Alive && rules.exhaust == Exhaust::Wait {
        let eaten_soon = W::UNSEEN && eaten_while_waiting_briefly(&mut game);
        ending = if eaten_soon {
            Ending::Eaten
        } else {
            wait_out(
                &mut game,
                &mut |g: &Game, s: &Step| watcher.see(g, s),
                &mut keep_going,
            )?
        };
    }
    Ok(Outcome {
        ending,
        score: game.score(),
        turns: game.turn,
        moves_used,
        beasts_left: game.beasts.len(),
        crushed: game.crushed,
    })
}

/// Waits a few turns, about as many as finding the player's region costs (a beast move
/// for 64 cells of the map), and returns true if the player was eaten in them; else takes
/// them back and returns false. On an open map, where beasts soon reach the player, this
/// spares the region.
///
/// The ending is the one [`wait_out`] finds: it plays the same turns, it cannot see a
/// stalemate before the player is eaten (the beasts of his region repeating their cells
/// would repeat forever), and these turns stay within its limit. The caller's budget is
/// not asked in them: they cost about what the region would.
fn eaten_while_waiting_briefly(game: &mut Game) -> bool {
    let beasts = game.beasts.len().max(1);
    let turns = (2 * (game.map.cells().len() / 64 / beasts) as u64 + 2).min(WAIT_LIMIT);
    let (start, saved) = (game.turn, game.beasts.clone());
    let last_steps = game.last_steps.clone();
    for _ in 0..turns {
        match game.apply(Move::Wait) {
            Ok(step) if step.status == Status::Playing => {}
            _ => return game.status == Status::Eaten,
        }
    }
    // Take the turns back: only the beasts moved.
    for &b in &game.beasts {
        game.map[b] = Cell::Space;
    }
    for &b in &saved {
        game.map[b] = Cell::Beast;
    }
    game.beasts = saved;
    game.turn = start;
    game.last_steps = last_steps;
    false
}

/// The player waits until he is eaten or the beasts' positions repeat on a turn of the same
/// parity (a stalemate).
///
/// While the player waits no wall moves, so a beast outside his 8-connected region of open
/// cells can never reach him, nor meet a beast that can: only the beasts inside it decide
/// the ending. With none inside, it is a stalemate at once. Otherwise Brent's cycle finding
/// over pairs of turns watches their positions, keeping one saved list.
fn wait_out(
    game: &mut Game,
    observe: &mut impl FnMut(&Game, &Step),
    keep_going: &mut impl FnMut() -> bool,
) -> Result<Ending, GameError> {
    let start = game.turn;
    let region = Region::of(&game.map, game.player);
    if !game.beasts.iter().any(|&b| region.holds(game.map.index(b))) {
        return Ok(Ending::Stalemate);
    }
    let mut wait = |game: &mut Game| -> bool {
        match game.apply(Move::Wait) {
            Ok(step) => {
                observe(game, &step);
                step.status == Status::Playing
            }
            Err(GameOver { .. }) => false,
        }
    };
    // Line up so that each cycle step is an (odd, even) pair of turns.
    if game.turn % 2 == 1 && !wait(game) {
        return Ok(Ending::Eaten);
    }
    let inside = |game: &Game, b: &&Pos| region.holds(game.map.index(**b));
    let mut saved: Vec<Pos> = game
        .beasts
        .iter()
        .filter(|b| inside(game, b))
        .copied()
        .collect();
    let (cells, beasts) = (region.len(), saved.len() as u64);
    let limit = wait_limit(cells, beasts);
    let mut power: u64 = 1;
    let mut length: u64 = 0;
    loop {
        if !wait(game) || !wait(game) {
            return Ok(Ending::Eaten);
        }
        length += 1;
        if saved
            .iter()
            .eq(game.beasts.iter().filter(|b| inside(game, b)))
        {
            return Ok(Ending::Stalemate);
        }
        if length == power {
            saved.clear();
            saved.extend(game.beasts.iter().filter(|b| inside(game, b)));
            power *= 2;
            length = 0;
        }
        if game.turn % BUDGET_TURNS < 2 && !keep_going() {
            return Err(GameError::OutOfBudget { turn: game.turn });
        }
        if game.turn - start > limit {
            return Err(GameError::Undecided {
                turns: game.turn - start,
                from: start,
                cells,
                beasts,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::rules::Schedule;
    use rand_chacha::ChaCha8Rng;
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

    /// A 200x3 corridor: the player at the west end (column 1), beasts in the columns
    /// `beasts`, and a wall in column `wall`, if any.
    fn corridor(beasts: &[usize], wall: Option<usize>) -> Puzzle {
        let cols = 200;
        let mut row = vec![' '; cols];
        (row[0], row[cols - 1], row[1]) = ('#', '#', 'O');
        for &b in beasts {
            row[b] = 'H';
        }
        if let Some(w) = wall {
            row[w] = '#';
        }
        let border = "#".repeat(cols);
        let text = format!(
            "{cols} 3\n{border}\n{}\n{border}\nW\n",
            String::from_iter(row)
        );
        Puzzle::parse(&text).expect("valid")
    }

    #[test]
    fn waiting_ahead_unwatched_ends_as_waiting_watched_does() {
        // Beasts 2, 5 and 39 cells from the player; then walled off, near and far.
        for (beast, wall) in [
            (4, None),
            (7, None),
            (41, None),
            (7, Some(4)),
            (151, Some(76)),
        ] {
            let puzzle = corridor(&[beast], wall);
            let unwatched = play_out(&puzzle, Rules::OURS).expect("judged");
            let watched = play_out_with(&puzzle, Rules::OURS, |_, _| {}).expect("judged");
            assert_eq!(unwatched, watched, "beast {beast}, wall {wall:?}");
            let ending = match wall {
                Some(_) => Ending::Stalemate,
                None => Ending::Eaten,
            };
            assert_eq!(unwatched.ending, ending, "beast {beast}, wall {wall:?}");
        }
    }

    #[test]
    fn turns_waited_ahead_and_not_needed_are_taken_back_whole() {
        // Two beasts far down the corridor: 20 turns ahead do not bring them to the player.
        let mut game = Game::new(&corridor(&[150, 151], None), Rules::OURS);
        assert!(game.apply(Move::Wait).is_ok());
        let before = game.clone();
        assert!(!eaten_while_waiting_briefly(&mut game));
        assert_eq!(game, before);
    }
}
