//! A whole puzzle played out (RULES.md 1): its moves one [`Game::apply`] at a time, then,
//! when they run out with the player and a beast alive, the waiting until a beast gets him
//! or the beasts of his region repeat their cells (a stalemate), within a limit
//! ([`wait_limit`]). It returns the judged [`Outcome`] and its [`Ending`], or why the game
//! could not be judged ([`GameError`]). The five `play_out*` differ in who watches each
//! turn and whether the caller's budget is asked.

use thiserror::Error;

use crate::beast::game::{Crush, Game, GameOver, Status, Step};
use crate::beast::parse::{Move, Puzzle};
use crate::beast::region::Region;
use crate::beast::rules::{Exhaust, Rules, Stalemate, Wait};
use crate::grid::Pos;

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
    #[error("the game was not decided by turn {turn}, when the judge's budget of steps ran out")]
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
    let rules = game.rules();
    let mut moves_used = 0;
    // Under `Stalemate::FromStart`: the beasts' positions before each turn of the moves,
    // with the parity of that turn (a stalemate is a repeat of one of these too).
    let mut before_moves: std::collections::HashSet<(u64, Vec<Pos>)> = Default::default();
    let from_start = rules.stalemate == Stalemate::FromStart;
    for &m in moves.as_ref() {
        if from_start && game.status() == Status::Playing {
            before_moves.insert(((game.turn() + 1) % 2, game.beasts().to_vec()));
        }
        if m == Move::Wait && rules.wait == Wait::Skipped {
            // Read as whitespace: no turn, though the move is used (the game goes on).
            if game.status() != Status::Playing {
                break;
            }
            moves_used += 1;
            continue;
        }
        let Ok(step) = game.apply(m) else { break };
        moves_used += 1;
        watcher.see(&game, &step);
        if game.turn().is_multiple_of(BUDGET_TURNS) && !keep_going() {
            return Err(GameError::OutOfBudget { turn: game.turn() });
        }
    }
    // Moves given away are no longer needed while the player waits.
    drop(moves);
    let mut ending = match game.status() {
        Status::Won => Ending::Won,
        Status::Eaten => Ending::Eaten,
        Status::Playing => Ending::Alive,
    };
    if ending == Ending::Alive
        && rules.exhaust == Exhaust::Wait
        && rules.stalemate == Stalemate::AnyTurn
    {
        ending = wait_until_any_repeat(&mut game, &mut |g: &Game, s: &Step| watcher.see(g, s))?;
    } else if ending == Ending::Alive && rules.exhaust == Exhaust::Wait && from_start {
        ending = wait_until_seen_before(&mut game, before_moves, &mut |g: &Game, s: &Step| {
            watcher.see(g, s)
        })?;
    } else if ending == Ending::Alive && rules.exhaust == Exhaust::Wait {
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
        turns: game.turn(),
        moves_used,
        beasts_left: game.beasts().len(),
        crushed: game.into_crushed(),
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
    let beasts = game.beasts().len().max(1);
    let turns = (2 * (game.map().cells().len() / 64 / beasts) as u64 + 2).min(WAIT_LIMIT);
    let saved = game.save_waiting();
    for _ in 0..turns {
        match game.apply(Move::Wait) {
            Ok(step) if step.status == Status::Playing => {}
            _ => return game.status() == Status::Eaten,
        }
    }
    game.take_back(saved);
    false
}

/// One waiting turn, shown to `observe`: true while the player is still alive.
fn wait_once(game: &mut Game, observe: &mut impl FnMut(&Game, &Step)) -> bool {
    match game.apply(Move::Wait) {
        Ok(step) => {
            observe(game, &step);
            step.status == Status::Playing
        }
        Err(GameOver { .. }) => false,
    }
}

/// Under [`Stalemate::AnyTurn`]: the player waits until he is eaten or the beasts stand
/// where they stood before any earlier waiting turn. Under our schedule the first odd wait
/// repeats the positions, so this plays at most two turns; under others it stops at
/// [`WAIT_LIMIT`] turns, undecided.
fn wait_until_any_repeat(
    game: &mut Game,
    observe: &mut impl FnMut(&Game, &Step),
) -> Result<Ending, GameError> {
    let start = game.turn();
    let mut seen = std::collections::HashSet::from([game.beasts().to_vec()]);
    loop {
        if !wait_once(game, observe) {
            return Ok(Ending::Eaten);
        }
        if !seen.insert(game.beasts().to_vec()) {
            return Ok(Ending::Stalemate);
        }
        if game.turn() - start > WAIT_LIMIT {
            return Err(GameError::Undecided {
                turns: game.turn() - start,
                from: start,
                cells: game.map().cells().len() as u64,
                beasts: game.beasts().len() as u64,
            });
        }
    }
}

/// Under [`Stalemate::FromStart`]: the player waits until he is eaten or the beasts stand,
/// before a turn, where they stood before an earlier turn of the same parity, the turns of
/// the moves (`seen`) included. Stops at [`WAIT_LIMIT`] turns, undecided.
fn wait_until_seen_before(
    game: &mut Game,
    mut seen: std::collections::HashSet<(u64, Vec<Pos>)>,
    observe: &mut impl FnMut(&Game, &Step),
) -> Result<Ending, GameError> {
    let start = game.turn();
    loop {
        if !seen.insert(((game.turn() + 1) % 2, game.beasts().to_vec())) {
            return Ok(Ending::Stalemate);
        }
        if !wait_once(game, observe) {
            return Ok(Ending::Eaten);
        }
        if game.turn() - start > WAIT_LIMIT {
            return Err(GameError::Undecided {
                turns: game.turn() - start,
                from: start,
                cells: game.map().cells().len() as u64,
                beasts: game.beasts().len() as u64,
            });
        }
    }
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
    let start = game.turn();
    let region = Region::of(game.map(), game.player());
    if !game
        .beasts()
        .iter()
        .any(|&b| region.holds(game.map().index(b)))
    {
        return Ok(Ending::Stalemate);
    }
    let mut wait = |game: &mut Game| wait_once(game, observe);
    // Line up so that each cycle step is an (odd, even) pair of turns.
    if game.turn() % 2 == 1 && !wait(game) {
        return Ok(Ending::Eaten);
    }
    let inside = |game: &Game, b: &&Pos| region.holds(game.map().index(**b));
    let mut saved: Vec<Pos> = game
        .beasts()
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
            .eq(game.beasts().iter().filter(|b| inside(game, b)))
        {
            return Ok(Ending::Stalemate);
        }
        if length == power {
            saved.clear();
            saved.extend(game.beasts().iter().filter(|b| inside(game, b)));
            power *= 2;
            length = 0;
        }
        if game.turn() % BUDGET_TURNS < 2 && !keep_going() {
            return Err(GameError::OutOfBudget { turn: game.turn() });
        }
        if game.turn() - start > limit {
            return Err(GameError::Undecided {
                turns: game.turn() - start,
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

    #[test]
    fn under_stalemate_any_turn_the_first_odd_wait_ends_the_game() {
        // W on this map: the beast needs four steps to reach the player. Ours waits until it
        // eats him; a stalemate on any repeat stops at turn 3, where the beasts stood still.
        let p = Puzzle::parse("7 4\n#######\n#O    #\n#    H#\n#######\nW\n").expect("valid");
        let ours = play_out(&p, Rules::OURS).expect("decided");
        assert_eq!(ours.answer(), "aHHHH!\n0\n");
        let any = Rules {
            stalemate: Stalemate::AnyTurn,
            ..Rules::OURS
        };
        let theirs = play_out(&p, any).expect("decided");
        assert_eq!((theirs.ending, theirs.turns), (Ending::Stalemate, 3));
        assert_eq!(theirs.answer(), "0\n");
        // A beast next door still eats him on the first even wait.
        let p = Puzzle::parse("5 3\n#####\n#OH #\n#####\nW\n").expect("valid");
        let theirs = play_out(&p, any).expect("decided");
        assert_eq!((theirs.ending, theirs.turns), (Ending::Eaten, 2));
    }

    #[test]
    fn a_skipped_wait_is_no_turn_and_the_beasts_move_a_turn_earlier() {
        // Ours: W is turn 1, R turn 2 (the beast steps left, under the wall), D turn 3
        // crushes it. With the W skipped, R is turn 1 and D turn 2: the wall is pushed down
        // before the beast has come under it, and the beast steps onto the player.
        let p = Puzzle::parse("5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n").expect("valid");
        let ours = play_out(&p, Rules::OURS).expect("decided");
        assert_eq!((ours.ending, ours.score), (Ending::Won, 2));
        let skipped = Rules {
            wait: Wait::Skipped,
            ..Rules::OURS
        };
        let theirs = play_out(&p, skipped).expect("decided");
        assert_eq!((theirs.ending, theirs.score), (Ending::Eaten, 0));
        assert_eq!(theirs.moves_used, 3);
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
