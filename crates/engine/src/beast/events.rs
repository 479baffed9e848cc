//! Rule events: which rules of RULES.md a game went through, under our readings, each with
//! the turn it first happened on (`beast events` lists them).
//!
//! The judge uses them to locate an answer's own mistake in the rules (spectrum-based
//! fault localisation, see `judge::diagnose`): an event every failing case goes through and
//! no passing case does names the rule the answer gets wrong.
//!
//! The events are *observed*, not decided: the game is played by [`Game::apply`] (through
//! [`play_out_until_with`]) and each turn is read back from the maps before and after it.
//! Nothing here chooses a move; the words of an event describe what the engine did.
//!
//! # Stability
//!
//! The names are a documented, stable vocabulary: a name, once listed, keeps its meaning.
//! New events are added at the end of the `others!` list (the ties follow it in
//! [`EVENTS`]: a position is the engine's own, the name is what lasts).
//!
//! The rules' code names an event by a constant ([`RuleEvent::PUSH_TRAIN`], one per line of
//! the `others!` list, which also gives its name and words) or by [`RuleEvent::tie`]: a
//! misspelt event does not compile. Only the edges look one up by name
//! ([`RuleEvent::named`]). Sixteen listed ties can never happen (two cells whose squared
//! distances to any cell differ by an odd number); they stay listed, as the vocabulary is
//! stable.

use crate::beast::choice::NEIGHBOURS;
use crate::beast::game::{Action, Game, Status, Step};
use crate::beast::parse::{Cell, Move, Puzzle};
use crate::beast::play_out::{Ending, GameError, play_out_until_with};
use crate::beast::rules::Rules;
use crate::grid::{Dir, Grid, Pos};

/// One kind of rule event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventKind {
    /// The stable name, such as `push-train`.
    pub name: &'static str,
    /// What happened, as a sentence's verb phrase: a case "pushes a train of 2 or more `~`".
    pub words: &'static str,
}

/// The words of the tie matrix's eight neighbours, in its order (1 up-left ... 8 down).
const SIDES: [&str; 8] = [
    "up-left",
    "left",
    "up",
    "up-right",
    "right",
    "down-left",
    "down-right",
    "down",
];

macro_rules! ties {
    ($($a:literal $b:literal),* $(,)?) => {
        [$(EventKind {
            name: concat!("tie-", $a, "-over-", $b),
            words: concat!("has a beast choose ", $a, " over ", $b,
                           ", two cells at the same distance (a tie)"),
        }),*]
    };
}

/// The tie events, one an ordered pair of the matrix `1 3 4 / 2 H 5 / 6 8 7`: the first
/// side wins (it has the lower number).
const TIES: [EventKind; 28] = ties![
    "up-left" "left", "up-left" "up", "up-left" "up-right", "up-left" "right",
    "up-left" "down-left", "up-left" "down-right", "up-left" "down",
    "left" "up", "left" "up-right", "left" "right", "left" "down-left",
    "left" "down-right", "left" "down",
    "up" "up-right", "up" "right", "up" "down-left", "up" "down-right", "up" "down",
    "up-right" "right", "up-right" "down-left", "up-right" "down-right", "up-right" "down",
    "right" "down-left", "right" "down-right", "right" "down",
    "down-left" "down-right", "down-left" "down",
    "down-right" "down",
];

/// Defines the events that are not ties from one list: a [`RuleEvent`] constant each, and
/// [`OTHERS`], their kinds in the same order (a constant and its kind cannot drift apart).
macro_rules! others {
    ($($konst:ident $name:literal $words:literal,)*) => {
        /// The positions of the events that are not ties in [`EVENTS`].
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u8)]
        enum Position {
            $($konst),*
        }

        impl RuleEvent {
            $(
                #[doc = concat!("`", $name, "`: a case that ", $words, ".")]
                pub const $konst: RuleEvent = RuleEvent(Position::$konst as u8);
            )*
        }

        /// The events that are not ties, in the order of [`EVENTS`].
        const OTHERS: [EventKind; [$($name),*].len()] = [
            $(EventKind { name: $name, words: $words }),*
        ];
    };
}

others! {
    PUSH_ONE "push-one"
        "pushes a single `~`",
    PUSH_TRAIN "push-train"
        "pushes a train of 2 or more `~`",
    PUSH_STUCK "push-stuck"
        "pushes `~` that cannot move (a `#`, or a beast not wedged, behind it)",
    CRUSH_AGAINST_WALL "crush-against-wall"
        "crushes a beast against `#`",
    CRUSH_AGAINST_MOVABLE "crush-against-movable"
        "crushes a beast against `~`",
    BEAST_BEHIND_BEAST "beast-behind-beast"
        "pushes `~` onto a beast with a beast behind it (no crush: nothing moves)",
    FORCED_AWAY "forced-away"
        "forces a beast away from the player (every open cell is farther)",
    BOXED_IN "boxed-in"
        "boxes a beast in (no open cell: it stays put)",
    DIAGONAL_SQUEEZE "diagonal-squeeze"
        "has a beast squeeze diagonally between two walls",
    CELL_TAKEN "cell-taken"
        "has a beast find its best cell taken by a beast that moved before it",
    EATEN_BY_BEAST "eaten-by-beast"
        "ends with a beast moving onto the player",
    WALKED_INTO_BEAST "walked-into-beast"
        "ends with the player walking into a beast",
    BLOCKED_MOVE "blocked-move"
        "has the player step against `#` (the turn is used up)",
    MOVES_RUN_OUT "moves-run-out"
        "runs out of moves with the player and a beast alive",
    WAITING "waiting"
        "has the player wait after the moves ran out, and the beasts move",
    STALEMATE "stalemate"
        "ends in a stalemate (the beasts can never reach the player)",
    WIN_WITH_MOVES_LEFT "win-with-moves-left"
        "is won with moves left over (they are ignored)",
    ORDER_CHANGED "order-changed"
        "has beasts whose rank (from the start) is no longer their reading order",
    PLAYER_MOVED_ON_BEAST_TURN "player-moved-on-beast-turn"
        "has the player leave his cell on a beast turn (the beasts aim at where he was)",
    NOT_SQUARE "not-square"
        "is played on a map that is not square",
    WIDER_THAN_TALL "wider-than-tall"
        "is played on a map wider than it is tall",
    WAIT_MOVE "wait-move"
        "has the player wait (`W` in the moves)",
    CRUSH_AGAINST_BORDER "crush-against-border"
        "crushes a beast against the map's border `#`",
    CELL_LEFT "cell-left"
        "has a beast step onto a cell another beast left this turn",
    EATEN_WITH_MOVES_LEFT "eaten-with-moves-left"
        "ends with the player eaten with moves left over (they are ignored)",
    BEAST_STEPS_UP_LEFT "beast-steps-up-left"
        "has a beast step up-left",
    BEAST_STEPS_LEFT "beast-steps-left"
        "has a beast step left",
    BEAST_STEPS_UP "beast-steps-up"
        "has a beast step up",
    BEAST_STEPS_UP_RIGHT "beast-steps-up-right"
        "has a beast step up-right",
    BEAST_STEPS_RIGHT "beast-steps-right"
        "has a beast step right",
    BEAST_STEPS_DOWN_LEFT "beast-steps-down-left"
        "has a beast step down-left",
    BEAST_STEPS_DOWN_RIGHT "beast-steps-down-right"
        "has a beast step down-right",
    BEAST_STEPS_DOWN "beast-steps-down"
        "has a beast step down",
}

/// The beast step events, in the order of the tie matrix's neighbours (1 up-left ... 8
/// down): a beast's step to neighbour `k` is `BEAST_STEPS[k]`.
const BEAST_STEPS: [RuleEvent; 8] = [
    RuleEvent::BEAST_STEPS_UP_LEFT,
    RuleEvent::BEAST_STEPS_LEFT,
    RuleEvent::BEAST_STEPS_UP,
    RuleEvent::BEAST_STEPS_UP_RIGHT,
    RuleEvent::BEAST_STEPS_RIGHT,
    RuleEvent::BEAST_STEPS_DOWN_LEFT,
    RuleEvent::BEAST_STEPS_DOWN_RIGHT,
    RuleEvent::BEAST_STEPS_DOWN,
];

impl RuleEvent {
    /// True for the traits of the map's shape: a change of one cell or move never removes
    /// them, only a map of another shape.
    pub fn is_shape(self) -> bool {
        matches!(self, RuleEvent::NOT_SQUARE | RuleEvent::WIDER_THAN_TALL)
    }
}

/// Every event kind in the vocabulary, in a fixed order: [`RuleEvent`] indexes it.
pub static EVENTS: [EventKind; OTHERS.len() + TIES.len()] = {
    // A set of events is one `u128` (`Events::bits`).
    assert!(OTHERS.len() + TIES.len() <= 128);
    let mut all = [OTHERS[0]; OTHERS.len() + TIES.len()];
    let mut i = 0;
    while i < OTHERS.len() {
        all[i] = OTHERS[i];
        i += 1;
    }
    let mut j = 0;
    while j < TIES.len() {
        all[OTHERS.len() + j] = TIES[j];
        j += 1;
    }
    all
};

/// One kind of rule event, as its index in [`EVENTS`]: the constants such as
/// [`RuleEvent::PUSH_TRAIN`] and [`RuleEvent::tie`] name them in the rules' code, and
/// [`RuleEvent::named`] looks one up by name at the edges (the command line, JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleEvent(pub(crate) u8);

impl RuleEvent {
    /// The event's kind.
    pub fn kind(self) -> &'static EventKind {
        &EVENTS[usize::from(self.0) % EVENTS.len()]
    }

    /// The event called `name`.
    pub fn named(name: &str) -> Option<RuleEvent> {
        EVENTS
            .iter()
            .position(|k| k.name == name)
            .map(|i| RuleEvent(i as u8))
    }

    /// Every event, in the order of [`EVENTS`].
    pub fn all() -> impl Iterator<Item = RuleEvent> {
        (0..EVENTS.len() as u8).map(RuleEvent)
    }

    /// The event as one bit of a set of events ([`Events::bits`]).
    pub const fn bit(self) -> u128 {
        1 << self.0
    }

    /// True for the step of a beast in one direction (`beast-steps-down-right`).
    pub fn is_beast_step(self) -> bool {
        BEAST_STEPS.contains(&self)
    }

    /// True for the events that tell how a beast moved: its step's direction, the tie it
    /// decided, a diagonal squeeze.
    pub fn is_beast_move(self) -> bool {
        self.is_beast_step() || self.is_tie() || self == RuleEvent::DIAGONAL_SQUEEZE
    }

    /// True for a tie event (one of the `TIES`).
    pub fn is_tie(self) -> bool {
        usize::from(self.0) >= OTHERS.len()
    }

    /// True if both tell of the same rule in other spellings: the crushes (against `#`,
    /// the border or `~`), the ties.
    pub fn same_rule(self, other: RuleEvent) -> bool {
        let crush = |e| {
            matches!(
                e,
                RuleEvent::CRUSH_AGAINST_WALL
                    | RuleEvent::CRUSH_AGAINST_MOVABLE
                    | RuleEvent::CRUSH_AGAINST_BORDER
            )
        };
        self == other || (self.is_tie() && other.is_tie()) || (crush(self) && crush(other))
    }

    /// The tie event of the matrix numbers `won` and `lost` (1 to 8, `won` the lower):
    /// `None` for any other pair. The ties' table lists the pairs in order, `won` first.
    pub const fn tie(won: usize, lost: usize) -> Option<RuleEvent> {
        if won == 0 || won >= lost || lost > SIDES.len() {
            return None;
        }
        // The pairs before `won`'s: 7 for the first number, 6 for the second, ...
        let mut before = 0;
        let mut k = 1;
        while k < won {
            before += SIDES.len() - k;
            k += 1;
        }
        Some(RuleEvent((OTHERS.len() + before + lost - won - 1) as u8))
    }
}

/// The events one game went through, each with the turn it first happened on (and, from
/// [`record_every`], every turn it happened on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    seen: u128,
    first: Vec<(RuleEvent, u64)>,
    every: Option<Vec<(RuleEvent, u64)>>,
}

impl Events {
    /// True if the game went through `e`.
    pub fn has(&self, e: RuleEvent) -> bool {
        self.seen & e.bit() != 0
    }

    /// The events the game went through, as a set of [`RuleEvent::bit`]s.
    pub fn bits(&self) -> u128 {
        self.seen
    }

    /// The turn `e` first happened on (0: before the first move).
    pub fn first_turn(&self, e: RuleEvent) -> Option<u64> {
        self.first.iter().find(|(x, _)| *x == e).map(|&(_, t)| t)
    }

    /// The events, in the order they first happened.
    pub fn iter(&self) -> impl Iterator<Item = (RuleEvent, u64)> + '_ {
        self.first.iter().copied()
    }

    /// The events of turn `turn`, in the order they happened; empty unless the events
    /// were recorded by [`record_every`].
    pub fn on_turn(&self, turn: u64) -> impl Iterator<Item = RuleEvent> + '_ {
        let every = self.every.as_deref().unwrap_or_default();
        every
            .iter()
            .filter(move |&&(_, t)| t == turn)
            .map(|&(e, _)| e)
    }

    /// The mark `--trace` and the replay page put after a turn's words: its events'
    /// names, `  [push-train, crush-against-wall]`, or nothing.
    pub fn marks(&self, turn: u64) -> String {
        let names: Vec<&str> = self.on_turn(turn).map(|e| e.kind().name).collect();
        match names.is_empty() {
            true => String::new(),
            false => format!("  [{}]", names.join(", ")),
        }
    }

    fn add(&mut self, e: RuleEvent, turn: u64) {
        if let Some(every) = &mut self.every
            && !every.contains(&(e, turn))
        {
            every.push((e, turn));
        }
        if !self.has(e) {
            self.seen |= e.bit();
            self.first.push((e, turn));
        }
    }
}

/// How many turns past the last move are read back in full (the beasts' choices); the
/// ending is recorded whatever the length.
const WAITING_READ: u64 = 400;

/// The events of `puzzle` played under our readings, within the caller's budget (see
/// [`play_out_until_with`]).
pub fn record(puzzle: &Puzzle, keep_going: impl FnMut() -> bool) -> Result<Events, GameError> {
    record_into(puzzle, Events::default(), keep_going)
}

/// [`record`], keeping every turn each event happened on ([`Events::on_turn`]), for
/// `--trace`.
pub fn record_every(
    puzzle: &Puzzle,
    keep_going: impl FnMut() -> bool,
) -> Result<Events, GameError> {
    let events = Events {
        every: Some(Vec::new()),
        ..Events::default()
    };
    record_into(puzzle, events, keep_going)
}

fn record_into(
    puzzle: &Puzzle,
    events: Events,
    keep_going: impl FnMut() -> bool,
) -> Result<Events, GameError> {
    let moves = puzzle.moves().len() as u64;
    let game = Game::new(puzzle, Rules::OURS);
    let mut reader = Reader {
        events,
        before: puzzle.map().clone(),
        beasts: game.beasts().to_vec(),
        player: game.player(),
        moves,
        scratch: puzzle.map().clone(),
    };
    let outcome = play_out_until_with(
        puzzle,
        Rules::OURS,
        |game, step| reader.turn(game, step),
        keep_going,
    )?;
    let mut events = reader.events;
    let map = puzzle.map();
    if map.cols() != map.rows() {
        events.add(RuleEvent::NOT_SQUARE, 0);
    }
    if map.cols() > map.rows() {
        events.add(RuleEvent::WIDER_THAN_TALL, 0);
    }
    if moves == 0 && outcome.ending != Ending::Won {
        events.add(RuleEvent::MOVES_RUN_OUT, 0);
    }
    match outcome.ending {
        Ending::Stalemate => events.add(RuleEvent::STALEMATE, outcome.turns),
        Ending::Won if (outcome.moves_used as u64) < moves => {
            events.add(RuleEvent::WIN_WITH_MOVES_LEFT, outcome.turns)
        }
        Ending::Eaten if (outcome.moves_used as u64) < moves => {
            events.add(RuleEvent::EATEN_WITH_MOVES_LEFT, outcome.turns)
        }
        _ => {}
    }
    Ok(events)
}

/// Reads each turn back from the maps before and after it.
struct Reader {
    events: Events,
    /// The map before the turn.
    before: Grid<Cell>,
    /// The live beasts before the turn, in rank order.
    beasts: Vec<Pos>,
    /// The player's cell before the turn.
    player: Pos,
    moves: u64,
    /// Working map of the beasts' half.
    scratch: Grid<Cell>,
}

/// True for a cell a beast may move to.
fn open(c: Cell) -> bool {
    matches!(c, Cell::Space | Cell::Player)
}

/// True for `#` and `~`.
fn wall(c: Cell) -> bool {
    matches!(c, Cell::Wall | Cell::Movable)
}

impl Reader {
    fn turn(&mut self, game: &Game, step: &Step) {
        let t = step.turn;
        if t > self.moves + WAITING_READ {
            return;
        }
        self.player_half(step);
        if t > self.moves {
            self.events.add(RuleEvent::WAITING, t);
        }
        if step.beasts_moved {
            self.beasts_half(game, step);
        }
        if t == self.moves && game.status() == Status::Playing {
            self.events.add(RuleEvent::MOVES_RUN_OUT, t);
        }
        self.before.clone_from(game.map());
        self.beasts.clear();
        self.beasts.extend_from_slice(game.beasts());
        self.player = game.player();
    }

    fn at(&self, p: Option<Pos>) -> Option<Cell> {
        p.and_then(|p| self.before.get(p).copied())
    }

    fn player_half(&mut self, step: &Step) {
        let t = step.turn;
        let dir = match step.played {
            Move::Step(d) => d,
            Move::Wait => {
                if t <= self.moves {
                    self.events.add(RuleEvent::WAIT_MOVE, t);
                }
                return;
            }
        };
        let add = |events: &mut Events, e: RuleEvent| events.add(e, t);
        match step.action {
            Action::Blocked => add(&mut self.events, RuleEvent::BLOCKED_MOVE),
            Action::Pushed { walls }
            | Action::Crushed { walls, .. }
            | Action::PushedBeast { walls, .. } => {
                add(
                    &mut self.events,
                    if walls >= 2 {
                        RuleEvent::PUSH_TRAIN
                    } else {
                        RuleEvent::PUSH_ONE
                    },
                );
                if let Action::Crushed { at, .. } = step.action {
                    let behind = at.step(dir);
                    match self.at(behind) {
                        Some(Cell::Wall) => add(&mut self.events, RuleEvent::CRUSH_AGAINST_WALL),
                        _ => add(&mut self.events, RuleEvent::CRUSH_AGAINST_MOVABLE),
                    }
                    if behind.is_some_and(|b| self.before.on_border(b)) {
                        add(&mut self.events, RuleEvent::CRUSH_AGAINST_BORDER);
                    }
                }
            }
            Action::Stuck { walls } => {
                add(&mut self.events, RuleEvent::PUSH_STUCK);
                let x = self.train_end(dir, walls);
                if self.at(x) == Some(Cell::Beast)
                    && self.at(x.and_then(|x| x.step(dir))) == Some(Cell::Beast)
                {
                    add(&mut self.events, RuleEvent::BEAST_BEHIND_BEAST);
                }
            }
            Action::Bumped { .. } if step.status == Status::Eaten => {
                add(&mut self.events, RuleEvent::WALKED_INTO_BEAST)
            }
            Action::Bumped { .. } | Action::Walked | Action::Waited => {}
        }
    }

    /// The cell past a train of `walls` `~` next to the player in `dir`.
    fn train_end(&self, dir: Dir, walls: usize) -> Option<Pos> {
        let mut x = self.player.step(dir);
        for _ in 0..walls {
            x = x.and_then(|p| p.step(dir));
        }
        x
    }

    fn beasts_half(&mut self, game: &Game, step: &Step) {
        let t = step.turn;
        let crushed = match step.action {
            Action::Crushed { at, .. } => Some(at),
            _ => None,
        };
        let before: Vec<Pos> = self
            .beasts
            .iter()
            .copied()
            .filter(|&b| Some(b) != crushed)
            .collect();
        let after = game.beasts();
        if before.len() != after.len() {
            return;
        }
        if before.windows(2).any(|w| w[0] > w[1]) {
            self.events.add(RuleEvent::ORDER_CHANGED, t);
        }
        // The map after the player's half: the beasts' moves undone, last first.
        let m = &mut self.scratch;
        m.clone_from(game.map());
        let mover_count = match step.eaten_at {
            Some(e) => after
                .iter()
                .position(|&a| a == e)
                .map_or(after.len(), |i| i + 1),
            None => after.len(),
        };
        for i in (0..mover_count).rev() {
            if before[i] != after[i] {
                m[after[i]] = if Some(after[i]) == step.eaten_at {
                    Cell::Player
                } else {
                    Cell::Space
                };
                m[before[i]] = Cell::Beast;
            }
        }
        if game.player() != self.player {
            self.events.add(RuleEvent::PLAYER_MOVED_ON_BEAST_TURN, t);
        }
        if step.eaten_at.is_some() {
            self.events.add(RuleEvent::EATEN_BY_BEAST, t);
        }
        let start = m.clone();
        let target = self.player;
        for i in 0..mover_count {
            read_beast_move(
                &mut self.events,
                m,
                &start,
                target,
                (before[i], after[i]),
                t,
            );
        }
    }
}

/// Reads the move of one beast `from` `to` on turn `t`, chasing `target`: boxed in, forced
/// away, a tie it decided, a diagonal squeeze, its best cell taken. `m` is the map as the
/// beast saw it (the later beasts' moves undone), and is moved on past it; `start` is the
/// map at the start of the beasts' half.
fn read_beast_move(
    events: &mut Events,
    m: &mut Grid<Cell>,
    start: &Grid<Cell>,
    target: Pos,
    (from, to): (Pos, Pos),
    t: u64,
) {
    let distance = |p: Pos| {
        let (dr, dc) = (
            p.row as i64 - target.row as i64,
            p.col as i64 - target.col as i64,
        );
        dr * dr + dc * dc
    };
    let around: Vec<(usize, Pos)> = NEIGHBOURS
        .iter()
        .enumerate()
        .filter_map(|(k, &(dr, dc))| from.offset(dr, dc).map(|p| (k, p)))
        .collect();
    let open_now: Vec<(usize, Pos)> = around
        .iter()
        .copied()
        .filter(|&(_, p)| m.get(p).is_some_and(|&c| open(c)))
        .collect();
    let Some(best) = open_now.iter().map(|&(_, p)| distance(p)).min() else {
        events.add(RuleEvent::BOXED_IN, t);
        return;
    };
    if best > distance(from) {
        events.add(RuleEvent::FORCED_AWAY, t);
    }
    let tied: Vec<usize> = open_now
        .iter()
        .filter(|&&(_, p)| distance(p) == best)
        .map(|&(k, _)| k)
        .collect();
    let chosen = around.iter().find(|&&(_, p)| p == to).map(|&(k, _)| k);
    if let Some(won) = chosen {
        events.add(BEAST_STEPS[won], t);
        for &lost in tied.iter().filter(|&&k| k != won) {
            let (a, b) = (won.min(lost) + 1, won.max(lost) + 1);
            // The winner has the lower number under our tie order.
            if a == won + 1
                && let Some(tie) = RuleEvent::tie(a, b)
            {
                events.add(tie, t);
            }
        }
        let (dr, dc) = NEIGHBOURS[won];
        if dr != 0 && dc != 0 {
            let side_a = from.offset(dr, 0).and_then(|p| m.get(p).copied());
            let side_b = from.offset(0, dc).and_then(|p| m.get(p).copied());
            if side_a.is_some_and(wall) && side_b.is_some_and(wall) {
                events.add(RuleEvent::DIAGONAL_SQUEEZE, t);
            }
        }
    }
    // Its best cell at the start of the beasts' half, taken by an earlier beast.
    let best_at_start = around
        .iter()
        .filter(|&&(_, p)| start.get(p).is_some_and(|&c| open(c)))
        .min_by_key(|&&(k, p)| (distance(p), k))
        .map(|&(_, p)| p);
    if let Some(b) = best_at_start
        && b != to
        && m.get(b) == Some(&Cell::Beast)
    {
        events.add(RuleEvent::CELL_TAKEN, t);
    }
    if to != from && start.get(to) == Some(&Cell::Beast) {
        events.add(RuleEvent::CELL_LEFT, t);
    }
    m[from] = Cell::Space;
    m[to] = Cell::Beast;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Vec<&'static str> {
        let p = Puzzle::parse(text).expect("valid");
        let e = record(&p, || true).expect("decided");
        e.iter().map(|(x, _)| x.kind().name).collect()
    }

    #[test]
    fn every_name_is_listed_once_and_found() {
        for (i, k) in EVENTS.iter().enumerate() {
            assert_eq!(
                RuleEvent::named(k.name),
                Some(RuleEvent(i as u8)),
                "{}",
                k.name
            );
        }
        let mut ties = Vec::new();
        for a in 1..=8 {
            for b in a + 1..=8 {
                let tie = RuleEvent::tie(a, b).expect("a pair of the matrix");
                let name = format!("tie-{}-over-{}", SIDES[a - 1], SIDES[b - 1]);
                assert_eq!(tie.kind().name, name);
                ties.push(tie);
            }
            assert_eq!(RuleEvent::tie(a, a), None);
        }
        ties.dedup();
        assert_eq!(ties.len(), TIES.len());
        assert_eq!(RuleEvent::tie(0, 1), None);
        assert_eq!(RuleEvent::tie(2, 1), None);
        assert_eq!(RuleEvent::tie(1, 9), None);
    }

    #[test]
    fn the_crushes_are_one_rule_and_the_ties_another() {
        let tie = |a, b| RuleEvent::tie(a, b).expect("a pair");
        assert!(RuleEvent::CRUSH_AGAINST_WALL.same_rule(RuleEvent::CRUSH_AGAINST_MOVABLE));
        assert!(tie(1, 3).same_rule(tie(6, 8)));
        assert!(!tie(1, 3).same_rule(RuleEvent::CRUSH_AGAINST_WALL));
        assert!(!RuleEvent::PUSH_ONE.same_rule(RuleEvent::PUSH_TRAIN));
        assert!(RuleEvent::PUSH_ONE.same_rule(RuleEvent::PUSH_ONE));
    }

    #[test]
    fn a_train_of_two_pushed_into_space_is_a_train_push() {
        let e = events("8 4\n########\n#O~~   #\n#     H#\n########\nR\n");
        assert!(e.contains(&"push-train"), "{e:?}");
        assert!(!e.contains(&"push-one"), "{e:?}");
    }

    #[test]
    fn crushes_name_what_the_beast_is_crushed_against() {
        let e = events("5 3\n#####\n#O~H#\n#####\nR\n");
        assert!(e.contains(&"crush-against-wall"), "{e:?}");
        let e = events("7 4\n#######\n#O~H~ #\n#    H#\n#######\nR\n");
        assert!(e.contains(&"crush-against-movable"), "{e:?}");
    }

    #[test]
    fn a_crush_against_the_border_is_told_from_one_against_an_inner_wall() {
        let e = events("5 3\n#####\n#O~H#\n#####\nR\n");
        assert!(e.contains(&"crush-against-border"), "{e:?}");
        let e = events("8 4\n########\n#O~H# H#\n#      #\n########\nR\n");
        assert!(e.contains(&"crush-against-wall"), "{e:?}");
        assert!(!e.contains(&"crush-against-border"), "{e:?}");
    }

    #[test]
    fn the_maps_shape_is_a_trait_of_the_game() {
        let e = events("5 3\n#####\n#O H#\n#####\nW\n");
        assert!(
            e.contains(&"not-square") && e.contains(&"wider-than-tall"),
            "{e:?}"
        );
        let e = events("3 5\n###\n#O#\n# #\n#H#\n###\nW\n");
        assert!(e.contains(&"not-square"), "{e:?}");
        assert!(!e.contains(&"wider-than-tall"), "{e:?}");
        let e = events("4 4\n####\n#OH#\n#  #\n####\nW\n");
        assert!(!e.contains(&"not-square"), "{e:?}");
    }

    #[test]
    fn a_w_in_the_moves_is_a_wait_and_the_waits_after_them_are_not() {
        let e = events("7 3\n#######\n#O   H#\n#######\nW\n");
        assert!(e.contains(&"wait-move"), "{e:?}");
        let e = events("7 3\n#######\n#O   H#\n#######\nR\n");
        assert!(e.contains(&"waiting"), "{e:?}");
        assert!(!e.contains(&"wait-move"), "{e:?}");
    }

    #[test]
    fn a_beast_may_step_onto_a_cell_a_beast_before_it_left_this_turn() {
        // On turn 2 the beast at (1,4) steps left first; the one at (1,5) takes its cell.
        let e = events("7 3\n#######\n#O  HH#\n#######\nWW\n");
        assert!(e.contains(&"cell-left"), "{e:?}");
        let e = events("7 3\n#######\n#O  H #\n#######\nWW\n");
        assert!(!e.contains(&"cell-left"), "{e:?}");
    }

    #[test]
    fn the_moves_after_the_player_is_eaten_are_ignored() {
        let e = events("5 3\n#####\n#OH #\n#####\nRW\n");
        assert!(e.contains(&"eaten-with-moves-left"), "{e:?}");
        let e = events("5 3\n#####\n#OH #\n#####\nR\n");
        assert!(!e.contains(&"eaten-with-moves-left"), "{e:?}");
    }

    #[test]
    fn a_beast_behind_a_beast_stops_the_push() {
        let e = events("7 3\n#######\n#O~HH #\n#######\nR\n");
        assert!(e.contains(&"beast-behind-beast"), "{e:?}");
        assert!(e.contains(&"push-stuck"), "{e:?}");
    }

    #[test]
    fn a_diagonal_squeeze_between_two_walls_is_seen() {
        // The beast at (1,3) reaches the player at (2,2) only diagonally, between the
        // walls at (1,2) and (2,3).
        let e = events("5 4\n#####\n# #H#\n# O##\n#####\nWW\n");
        assert!(e.contains(&"diagonal-squeeze"), "{e:?}");
        assert!(
            e.contains(&"eaten-by-beast") || e.contains(&"waiting"),
            "{e:?}"
        );
    }

    #[test]
    fn a_beasts_step_is_named_by_its_direction() {
        // One beast two cells from the player, on each of the eight lines through him: on
        // turn 2 it steps once, straight at him.
        for (dr, dc, name) in [
            (-1, -1, "beast-steps-up-left"),
            (0, -1, "beast-steps-left"),
            (-1, 0, "beast-steps-up"),
            (-1, 1, "beast-steps-up-right"),
            (0, 1, "beast-steps-right"),
            (1, -1, "beast-steps-down-left"),
            (1, 1, "beast-steps-down-right"),
            (1, 0, "beast-steps-down"),
        ] {
            let mut rows = [
                *b"#######",
                *b"#     #",
                *b"#     #",
                *b"#  O  #",
                *b"#     #",
                *b"#     #",
                *b"#######",
            ];
            rows[(3 - 2 * dr) as usize][(3 - 2 * dc) as usize] = b'H';
            let map: Vec<String> = rows
                .iter()
                .map(|r| String::from_utf8_lossy(r).into_owned())
                .collect();
            let e = events(&format!("7 7\n{}\nWW\n", map.join("\n")));
            let steps: Vec<&&str> = e.iter().filter(|n| n.starts_with("beast-steps-")).collect();
            assert_eq!(steps, [&name], "{map:#?}");
        }
    }

    #[test]
    fn the_reaper_waits_after_the_moves_run_out() {
        let e = events("5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n");
        assert!(e.contains(&"moves-run-out"), "{e:?}");
        assert!(e.contains(&"waiting"), "{e:?}");
    }

    #[test]
    fn every_turn_of_an_event_is_kept_when_asked() {
        let p =
            Puzzle::parse("9 4\n#########\n#O~ ~   #\n#      H#\n#########\nRRR\n").expect("valid");
        let e = record_every(&p, || true).expect("decided");
        let one = RuleEvent::named("push-one").expect("named");
        let train = RuleEvent::named("push-train").expect("named");
        assert_eq!(e.on_turn(1).collect::<Vec<_>>(), [one]);
        assert_eq!(e.on_turn(2).next(), Some(train));
        assert_eq!(e.first_turn(one), Some(1));
    }

    #[test]
    fn a_tie_is_named_by_the_pair_it_decided() {
        // The beast at (1,2) has the player at (3,2) straight below; down-left and
        // down-right are both at distance 5 once down is walled off.
        let p = Puzzle::parse("5 5\n#####\n# H #\n# # #\n# O #\n#####\nW\nW\n").expect("valid");
        let e = record(&p, || true).expect("decided");
        let tie = RuleEvent::named("tie-down-left-over-down-right").expect("named");
        assert_eq!(e.first_turn(tie), Some(2), "{e:?}");
    }
}

/// Every listed event fires on some drawn puzzle: the reader can see each of them.
#[cfg(test)]
mod every_event_fires {
    use super::*;
    use crate::judge::generate::{GenOptions, generate};

    /// The shapes of puzzle drawn: the default, then small crowded maps (ties, boxes,
    /// squeezes), then few moves (waiting, moves run out, a stalemate).
    fn shapes() -> Vec<GenOptions> {
        vec![
            GenOptions::default(),
            GenOptions {
                cols: 7,
                rows: 7,
                beasts: 4,
                walls_pct: 40,
                moves: 8,
            },
            GenOptions {
                cols: 9,
                rows: 6,
                beasts: 2,
                walls_pct: 60,
                moves: 2,
            },
        ]
    }

    /// True for a tie that can never happen: two cells of the neighbourhood whose rows and
    /// columns differ by an odd sum (`up-left` and `left`) are never at the same distance
    /// from a cell, since their squared distances differ by an odd number.
    fn never_ties(e: RuleEvent) -> bool {
        (1..=8)
            .flat_map(|a| (a + 1..=8).map(move |b| (a, b)))
            .any(|(a, b)| {
                let ((ra, ca), (rb, cb)) = (NEIGHBOURS[a - 1], NEIGHBOURS[b - 1]);
                RuleEvent::tie(a, b) == Some(e) && (ra - rb + ca - cb) % 2 != 0
            })
    }

    #[test]
    fn every_listed_event_fires_on_a_drawn_puzzle_but_the_ties_that_cannot_happen() {
        let can_fire: Vec<RuleEvent> = RuleEvent::all().filter(|&e| !never_ties(e)).collect();
        assert_eq!(EVENTS.len() - can_fire.len(), 16);
        let mut seen = vec![false; EVENTS.len()];
        'draw: for opts in shapes() {
            for seed in 0..3000 {
                let Ok(p) = generate(seed, &opts) else {
                    continue;
                };
                let Ok(e) = record(&p, || true) else { continue };
                for (x, _) in e.iter() {
                    seen[usize::from(x.0)] = true;
                }
                if can_fire.iter().all(|e| seen[usize::from(e.0)]) {
                    break 'draw;
                }
            }
        }
        let missing: Vec<&str> = can_fire
            .iter()
            .filter(|e| !seen[usize::from(e.0)])
            .map(|e| e.kind().name)
            .collect();
        assert!(missing.is_empty(), "never fired: {missing:?}");
        let impossible: Vec<&str> = RuleEvent::all()
            .filter(|e| seen[usize::from(e.0)] && never_ties(*e))
            .map(|e| e.kind().name)
            .collect();
        assert!(
            impossible.is_empty(),
            "fired though it cannot: {impossible:?}"
        );
    }
}
