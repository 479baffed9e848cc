//! The frames of a replay: a judged game as data for a page to show, turn by turn. The
//! engine plays the game through the same game loop the judge uses ([`play_out_until_with`]) and records, for every
//! turn, only the cells that changed, the beasts' moves, the crush and the death, the score,
//! and the words of `--trace`; a page holds these frames and no rule of the game.
//!
//! A game too long for a page is cut: frames are kept until their estimated size reaches
//! [`Limits::max_bytes`], and [`Replay::cut`] says at which turn the frames stop.

use crate::beast::game::{Action, Game, Step};
use crate::beast::parse::{Cell, Move, Puzzle};
use crate::beast::play_out::{Ending, GameError, play_out_until_with};
use crate::beast::render;
use crate::beast::rules::Rules;
use crate::grid::{Grid, Pos};

/// How large a replay may grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The estimated size in bytes of the stored map and frames, once written as JSON,
    /// beyond which no frame is kept.
    pub max_bytes: usize,
}

impl Default for Limits {
    /// 4 MB: a page under 5 MB with its script and styles.
    fn default() -> Self {
        Limits {
            max_bytes: 4_000_000,
        }
    }
}

/// One turn of a replay: what happened, and which cells it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The turn, as the engine reports it.
    pub step: Step,
    /// The index of the played move in the move string; `None` for a waiting turn after
    /// the moves ran out.
    pub move_index: Option<usize>,
    /// The cells that changed this turn, `(cell index in row-major order, new cell)`,
    /// sorted by index.
    pub changes: Vec<(usize, Cell)>,
    /// The beasts' moves this turn, `(from, to)`, in the order they moved; empty on a turn
    /// the beasts rest.
    pub beast_moves: Vec<(Pos, Pos)>,
    /// The cell of the beast crushed this turn.
    pub crushed: Option<Pos>,
    /// The player's cell after the turn (where he died, if he was eaten).
    pub player: Pos,
    /// The score after the turn.
    pub score: u64,
    /// Beasts alive after the turn.
    pub beasts_left: usize,
    /// The turn in words, exactly as `beast --trace` prints it.
    pub words: String,
}

/// Where a replay stops short of the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The last turn with a frame.
    pub turn: u64,
    /// The size limit that was reached.
    pub max_bytes: usize,
}

/// A whole game as frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The map at turn 0.
    pub start: Grid<Cell>,
    /// The puzzle's moves.
    pub moves: Vec<Move>,
    /// One frame a turn, from turn 1, waiting turns after the moves included.
    pub frames: Vec<Frame>,
    /// Set when the frames stop before the game's end.
    pub cut: Option<Cut>,
    /// How the game ended, when the engine played it to its end; `None` when a cut game
    /// was left unfinished.
    pub ending: Option<Ending>,
    /// The number of turns the whole game took, when it was played to its end.
    pub turns: Option<u64>,
    /// The final score, when the game was played to its end.
    pub score: Option<u64>,
}

/// The estimated JSON size of a stored change, beast move, and frame without them.
const CHANGE_BYTES: usize = 12;
const BEAST_MOVE_BYTES: usize = 16;
const FRAME_BYTES: usize = 80;

/// The largest map, in cells, whose frames are marked with their rule events (reading
/// them back copies the map every turn).
const MARKED_CELLS: usize = 40_000;

/// Plays `puzzle` under `rules` and records its frames, within `limits`. Under our
/// readings, on a map of at most 40,000 cells, each frame's words end with the
/// turn's rule events, as `--trace` marks them.
pub fn replay(puzzle: &Puzzle, rules: Rules, limits: Limits) -> Result<Replay, GameError> {
    let marked = rules == Rules::OURS && puzzle.map().cells().len() <= MARKED_CELLS;
    let events = marked
        .then(|| super::events::record_every(puzzle, || true).ok())
        .flatten();
    let start = puzzle.map().clone();
    let mut board = start.clone();
    let mut player = puzzle.player();
    let mut frames: Vec<Frame> = Vec::new();
    let mut bytes = start.cells().len() + puzzle.moves().len();
    // Read by the budget closure while the observer sets it.
    let cut: std::cell::Cell<Option<Cut>> = std::cell::Cell::new(None);
    let moves = puzzle.moves().len();
    let result = play_out_until_with(
        puzzle,
        rules,
        |game: &Game, step: &Step| {
            if cut.get().is_some() {
                return;
            }
            let index = frames.len();
            let mut frame = frame(&mut board, player, game, step, (index, moves));
            if let Some(e) = &events {
                frame.words += &e.marks(step.turn);
            }
            player = game.player();
            let cost = FRAME_BYTES
                + frame.words.len()
                + CHANGE_BYTES * frame.changes.len()
                + BEAST_MOVE_BYTES * frame.beast_moves.len();
            if bytes + cost > limits.max_bytes {
                cut.set(Some(Cut {
                    turn: step.turn.saturating_sub(1),
                    max_bytes: limits.max_bytes,
                }));
                return;
            }
            bytes += cost;
            frames.push(frame);
        },
        || cut.get().is_none(),
    );
    let cut = cut.get();
    let (ending, turns, score) = match result {
        Ok(outcome) => (
            Some(outcome.ending),
            Some(outcome.turns),
            Some(outcome.score),
        ),
        Err(GameError::OutOfBudget { .. }) if cut.is_some() => (None, None, None),
        Err(e) => return Err(e),
    };
    Ok(Replay {
        start,
        moves: puzzle.moves().to_vec(),
        frames,
        cut,
        ending,
        turns,
        score,
    })
}

/// The frame of one turn, the `index`th frame of a puzzle of `moves` moves; `board` is the
/// map before it and is brought up to date. (The frame's index is the move's: under the
/// reading that a blocked move is no turn, turns and moves part.)
fn frame(
    board: &mut Grid<Cell>,
    before: Pos,
    game: &Game,
    step: &Step,
    (index, moves): (usize, usize),
) -> Frame {
    // The cells a turn can change: the player's old and new cell, the pushed train and the
    // cell past it, each beast's cells and the cell where the player was eaten.
    let mut candidates = vec![before, game.player()];
    let train = match step.action {
        Action::Pushed { walls } | Action::Stuck { walls } | Action::Crushed { walls, .. } => {
            walls + 1
        }
        // The beast pushed along lands one cell past the train's end.
        Action::PushedBeast { walls, .. } => walls + 2,
        _ => 1,
    };
    if let Move::Step(dir) = step.played {
        let mut at = before;
        for _ in 0..train {
            match at.step(dir) {
                Some(next) if board.contains(next) => {
                    candidates.push(next);
                    at = next;
                }
                _ => break,
            }
        }
    }
    let beast_moves = if step.beasts_moved {
        game.last_beast_moves().to_vec()
    } else {
        Vec::new()
    };
    candidates.extend(beast_moves.iter().flat_map(|&(a, b)| [a, b]));
    candidates.extend(step.eaten_at);
    let map = game.map();
    let mut changes: Vec<(usize, Cell)> = Vec::new();
    for pos in candidates {
        let i = map.index(pos);
        if board.cells()[i] != map.cells()[i] {
            board.cells_mut()[i] = map.cells()[i];
            changes.push((i, map.cells()[i]));
        }
    }
    changes.sort_unstable_by_key(|&(i, _)| i);
    let crushed = match step.action {
        Action::Crushed { at, .. } => Some(at),
        _ => None,
    };
    Frame {
        step: *step,
        move_index: (index < moves).then_some(index),
        changes,
        beast_moves,
        crushed,
        player: game.player(),
        score: game.score(),
        beasts_left: game.beasts().len(),
        words: render::describe(step, game),
    }
}

/// The first turn where two replays of one puzzle differ: in the board after the turn, in
/// what happened (the beasts' moves, a crush, the player's cell, the score, the status), or
/// because one game ended before the other. Not in the words, which end with rule events
/// under our readings only. A difference only in how the games ended counts at the turn
/// after the last. `None` if they are the same throughout.
pub fn first_difference(a: &Replay, b: &Replay) -> Option<u64> {
    for (fa, fb) in a.frames.iter().zip(&b.frames) {
        if fa.changes != fb.changes
            || fa.beast_moves != fb.beast_moves
            || fa.crushed != fb.crushed
            || fa.player != fb.player
            || fa.score != fb.score
            || fa.step.status != fb.step.status
        {
            return Some(fa.step.turn);
        }
    }
    let shorter = a.frames.len().min(b.frames.len()) as u64;
    if a.frames.len() != b.frames.len() || a.ending != b.ending {
        return Some(shorter + 1);
    }
    None
}

/// The board after the first `turns` frames, rebuilt from the start and the changes.
pub fn board_after(replay: &Replay, turns: usize) -> Grid<Cell> {
    let mut board = replay.start.clone();
    for f in replay.frames.iter().take(turns) {
        for &(i, cell) in &f.changes {
            board.cells_mut()[i] = cell;
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::game::Status;
    use crate::beast::play_out::play_out_with;
    use crate::beast::variant::CATALOGUE;
    use crate::judge::generate::{GenOptions, generate};

    const WIKIPEDIA: &str = include_str!("../../cases/wikipedia.txt");

    /// Plays the game turn by turn beside the replay and compares the whole map each turn.
    fn assert_frames_rebuild_every_board(puzzle: &Puzzle, rules: Rules) {
        let r = replay(puzzle, rules, Limits::default()).expect("judged");
        let mut boards = vec![];
        play_out_with(puzzle, rules, |g, _| boards.push(g.map().clone())).expect("judged");
        assert_eq!(r.frames.len(), boards.len());
        for (t, want) in boards.iter().enumerate() {
            assert_eq!(
                &board_after(&r, t + 1),
                want,
                "turn {} under {rules:?}",
                t + 1
            );
        }
    }

    #[test]
    fn the_changes_of_every_turn_rebuild_the_engines_board() {
        let mut puzzles = vec![Puzzle::parse(WIKIPEDIA).expect("valid")];
        for seed in 1..=40 {
            puzzles.push(generate(seed, &GenOptions::default()).expect("valid"));
        }
        for p in &puzzles {
            assert_frames_rebuild_every_board(p, Rules::default());
            for v in CATALOGUE {
                assert_frames_rebuild_every_board(p, v.apply(Rules::default()));
            }
        }
    }

    #[test]
    fn the_wikipedia_replay_has_29_frames_ends_won_with_8_and_its_words_are_the_trace() {
        let p = Puzzle::parse(WIKIPEDIA).expect("valid");
        let r = replay(&p, Rules::default(), Limits::default()).expect("judged");
        assert_eq!(r.frames.len(), 29);
        assert_eq!(
            (r.ending, r.score, r.cut),
            (Some(Ending::Won), Some(8), None)
        );
        let last = r.frames.last().expect("frames");
        assert_eq!((last.score, last.beasts_left), (8, 0));
        // The trace's words, marked with the turn's rule events as `--trace` marks them.
        assert!(
            last.words
                .ends_with("no beast is left: won  [push-one, crush-against-movable]"),
            "{}",
            last.words
        );
        assert_eq!(r.frames.iter().filter(|f| f.crushed.is_some()).count(), 4);
        assert_eq!(r.frames[3].move_index, Some(3));
    }

    #[test]
    fn waiting_turns_after_the_moves_have_no_move_index() {
        let p = Puzzle::parse("5 3\n#####\n#O H#\n#####\n").expect("valid");
        let r = replay(&p, Rules::default(), Limits::default()).expect("judged");
        assert_eq!(r.ending, Some(Ending::Eaten));
        assert!(!r.frames.is_empty());
        assert!(r.frames.iter().all(|f| f.move_index.is_none()));
        let last = r.frames.last().expect("frames");
        assert_eq!(last.step.status, Status::Eaten);
    }

    #[test]
    fn a_game_too_long_for_the_limit_is_cut_at_a_stated_turn() {
        let opts = GenOptions {
            cols: 60,
            rows: 40,
            beasts: 30,
            moves: 2000,
            ..GenOptions::default()
        };
        let p = generate(3, &opts).expect("valid");
        let whole = replay(&p, Rules::default(), Limits::default()).expect("judged");
        let limits = Limits { max_bytes: 8_000 };
        let r = replay(&p, Rules::default(), limits).expect("judged");
        let cut = r.cut.expect("cut");
        assert_eq!(cut.turn, r.frames.len() as u64);
        assert!(r.frames.len() < whole.frames.len());
        assert_eq!(r.frames[..], whole.frames[..r.frames.len()]);
    }

    #[test]
    fn the_first_difference_is_the_first_turn_whose_board_or_events_differ() {
        let p = Puzzle::parse(WIKIPEDIA).expect("valid");
        let ours = replay(&p, Rules::default(), Limits::default()).expect("judged");
        assert_eq!(first_difference(&ours, &ours), None);
        let after = crate::beast::variant::find("target-after").expect("a reading");
        let other = replay(&p, after.apply(Rules::default()), Limits::default()).expect("judged");
        let turn = first_difference(&ours, &other).expect("they differ");
        let t = turn as usize;
        let what = |f: &Frame| (f.changes.clone(), f.beast_moves.clone(), f.player, f.score);
        for (a, b) in ours.frames[..t - 1].iter().zip(&other.frames) {
            assert_eq!(what(a), what(b));
        }
        assert_ne!(what(&ours.frames[t - 1]), what(&other.frames[t - 1]));
    }

    #[test]
    fn the_rule_events_in_our_words_are_no_difference() {
        // Turn 1 pushes a wall, marked `[push-one]` in our words only: the games part later.
        let p = Puzzle::parse(WIKIPEDIA).expect("valid");
        let ours = replay(&p, Rules::default(), Limits::default()).expect("judged");
        assert!(
            ours.frames[0].words.contains("[push"),
            "{}",
            ours.frames[0].words
        );
        let after = crate::beast::variant::find("target-after").expect("a reading");
        let other = replay(&p, after.apply(Rules::default()), Limits::default()).expect("judged");
        assert_ne!(ours.frames[0].words, other.frames[0].words);
        assert!(first_difference(&ours, &other).is_some_and(|t| t > 1));
    }
}
