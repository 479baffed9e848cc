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
//! New events are added at the end of [`EVENTS`].

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

/// The events that are not ties, in the order of [`EVENTS`].
const OTHERS: [EventKind; 19] = [
    EventKind {
        name: "push-one",
        words: "pushes a single `~`",
    },
    EventKind {
        name: "push-train",
        words: "pushes a train of 2 or more `~`",
    },
    EventKind {
        name: "push-stuck",
        words: "pushes `~` that cannot move (a `#`, or a beast not wedged, behind it)",
    },
    EventKind {
        name: "crush-against-wall",
        words: "crushes a beast against `#`",
    },
    EventKind {
        name: "crush-against-movable",
        words: "crushes a beast against `~`",
    },
    EventKind {
        name: "beast-behind-beast",
        words: "pushes `~` onto a beast with a beast behind it (no crush: nothing moves)",
    },
    EventKind {
        name: "forced-away",
        words: "forces a beast away from the player (every open cell is farther)",
    },
    EventKind {
        name: "boxed-in",
        words: "boxes a beast in (no open cell: it stays put)",
    },
    EventKind {
        name: "diagonal-squeeze",
        words: "has a beast squeeze diagonally between two walls",
    },
    EventKind {
        name: "cell-taken",
        words: "has a beast find its best cell taken by a beast that moved before it",
    },
    EventKind {
        name: "eaten-by-beast",
        words: "ends with a beast moving onto the player",
    },
    EventKind {
        name: "walked-into-beast",
        words: "ends with the player walking into a beast",
    },
    EventKind {
        name: "blocked-move",
        words: "has the player step against `#` (the turn is used up)",
    },
    EventKind {
        name: "moves-run-out",
        words: "runs out of moves with the player and a beast alive",
    },
    EventKind {
        name: "waiting",
        words: "has the player wait after the moves ran out, and the beasts move",
    },
    EventKind {
        name: "stalemate",
        words: "ends in a stalemate (the beasts can never reach the player)",
    },
    EventKind {
        name: "win-with-moves-left",
        words: "is won with moves left over (they are ignored)",
    },
    EventKind {
        name: "order-changed",
        words: "has beasts whose rank (from the start) is no longer their reading order",
    },
    EventKind {
        name: "player-moved-on-beast-turn",
        words: "has the player leave his cell on a beast turn (the beasts aim at where he was)",
    },
];

/// Every event kind in the vocabulary, in a fixed order: [`Event`] indexes it.
pub static EVENTS: [EventKind; 47] = {
    let mut all = [OTHERS[0]; 47];
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

/// One event kind, as its index in [`EVENTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(pub u8);

impl Event {
    /// The event's kind.
    pub fn kind(self) -> &'static EventKind {
        &EVENTS[usize::from(self.0) % EVENTS.len()]
    }

    /// The event called `name`.
    pub fn named(name: &str) -> Option<Event> {
        EVENTS
            .iter()
            .position(|k| k.name == name)
            .map(|i| Event(i as u8))
    }

    /// Every event, in the order of [`EVENTS`].
    pub fn all() -> impl Iterator<Item = Event> {
        (0..EVENTS.len() as u8).map(Event)
    }

    fn of(name: &str) -> Event {
        // The names are constants of this file; a missing one is a bug caught by the tests.
        Event::named(name).unwrap_or(Event(0))
    }

    /// The tie event of the matrix numbers `won` and `lost` (1 to 8, different).
    fn tie(won: usize, lost: usize) -> Event {
        let name = format!("tie-{}-over-{}", SIDES[won - 1], SIDES[lost - 1]);
        Event::of(&name)
    }
}

/// The events one game went through, each with the turn it first happened on (and, from
/// [`record_every`], every turn it happened on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    seen: u64,
    first: Vec<(Event, u64)>,
    every: Option<Vec<(Event, u64)>>,
}

impl Events {
    /// True if the game went through `e`.
    pub fn has(&self, e: Event) -> bool {
        self.seen & (1 << e.0) != 0
    }

    /// The turn `e` first happened on (0: before the first move).
    pub fn first_turn(&self, e: Event) -> Option<u64> {
        self.first.iter().find(|(x, _)| *x == e).map(|&(_, t)| t)
    }

    /// The events, in the order they first happened.
    pub fn iter(&self) -> impl Iterator<Item = (Event, u64)> + '_ {
        self.first.iter().copied()
    }

    /// The events of turn `turn`, in the order they happened; empty unless the events
    /// were recorded by [`record_every`].
    pub fn on_turn(&self, turn: u64) -> impl Iterator<Item = Event> + '_ {
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

    fn add(&mut self, e: Event, turn: u64) {
        if let Some(every) = &mut self.every
            && !every.contains(&(e, turn))
        {
            every.push((e, turn));
        }
        if !self.has(e) {
            self.seen |= 1 << e.0;
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
    if moves == 0 && outcome.ending != Ending::Won {
        events.add(Event::of("moves-run-out"), 0);
    }
    match outcome.ending {
        Ending::Stalemate => events.add(Event::of("stalemate"), outcome.turns),
        Ending::Won if (outcome.moves_used as u64) < moves => {
            events.add(Event::of("win-with-moves-left"), outcome.turns)
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
            self.events.add(Event::of("waiting"), t);
        }
        if step.beasts_moved {
            self.beasts_half(game, step);
        }
        if t == self.moves && game.status() == Status::Playing {
            self.events.add(Event::of("moves-run-out"), t);
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
            Move::Wait => return,
        };
        let add = |events: &mut Events, name: &str| events.add(Event::of(name), t);
        match step.action {
            Action::Blocked => add(&mut self.events, "blocked-move"),
            Action::Pushed { walls } | Action::Crushed { walls, .. } => {
                add(
                    &mut self.events,
                    if walls >= 2 { "push-train" } else { "push-one" },
                );
                if let Action::Crushed { at, .. } = step.action {
                    match self.at(at.step(dir)) {
                        Some(Cell::Wall) => add(&mut self.events, "crush-against-wall"),
                        _ => add(&mut self.events, "crush-against-movable"),
                    }
                }
            }
            Action::Stuck { walls } => {
                add(&mut self.events, "push-stuck");
                let x = self.train_end(dir, walls);
                if self.at(x) == Some(Cell::Beast)
                    && self.at(x.and_then(|x| x.step(dir))) == Some(Cell::Beast)
                {
                    add(&mut self.events, "beast-behind-beast");
                }
            }
            Action::Bumped { .. } if step.status == Status::Eaten => {
                add(&mut self.events, "walked-into-beast")
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
            self.events.add(Event::of("order-changed"), t);
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
            self.events.add(Event::of("player-moved-on-beast-turn"), t);
        }
        if step.eaten_at.is_some() {
            self.events.add(Event::of("eaten-by-beast"), t);
        }
        let start = m.clone();
        let target = self.player;
        for i in 0..mover_count {
            let (from, to) = (before[i], after[i]);
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
                self.events.add(Event::of("boxed-in"), t);
                continue;
            };
            if best > distance(from) {
                self.events.add(Event::of("forced-away"), t);
            }
            let tied: Vec<usize> = open_now
                .iter()
                .filter(|&&(_, p)| distance(p) == best)
                .map(|&(k, _)| k)
                .collect();
            let chosen = around.iter().find(|&&(_, p)| p == to).map(|&(k, _)| k);
            if let Some(won) = chosen {
                for &lost in tied.iter().filter(|&&k| k != won) {
                    let (a, b) = (won.min(lost) + 1, won.max(lost) + 1);
                    // The winner has the lower number under our tie order.
                    if a == won + 1 {
                        self.events.add(Event::tie(a, b), t);
                    }
                }
                let (dr, dc) = NEIGHBOURS[won];
                if dr != 0 && dc != 0 {
                    let side_a = from.offset(dr, 0).and_then(|p| m.get(p).copied());
                    let side_b = from.offset(0, dc).and_then(|p| m.get(p).copied());
                    if side_a.is_some_and(wall) && side_b.is_some_and(wall) {
                        self.events.add(Event::of("diagonal-squeeze"), t);
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
                self.events.add(Event::of("cell-taken"), t);
            }
            m[from] = Cell::Space;
            m[to] = Cell::Beast;
        }
    }
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
            assert_eq!(Event::named(k.name), Some(Event(i as u8)), "{}", k.name);
        }
        for a in 1..=8 {
            for b in a + 1..=8 {
                assert_ne!(Event::tie(a, b), Event(0));
            }
        }
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
        let one = Event::named("push-one").expect("named");
        let train = Event::named("push-train").expect("named");
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
        let tie = Event::named("tie-down-left-over-down-right").expect("named");
        assert_eq!(e.first_turn(tie), Some(2), "{e:?}");
    }
}
