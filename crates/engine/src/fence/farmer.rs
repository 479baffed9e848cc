//! The farmer's rule (RULES.md section 2): close a pen if it can; otherwise build a safe fence
//! (one that gives no pen its third side); otherwise build the fence that gives away the
//! fewest pens. Ties within a step go to the game's ChaCha stream: candidates in fence order,
//! one `next_u32()` when there are two or more, the candidate at `draw % count`.
//!
//! "Pens given away" follows chains: building a fence gives its pens one more side; a pen
//! that reaches three sides is taken through its last fence, which gives the pen beyond it
//! one more side, and so on. Each fence is tried on one scratch board and taken back, so a
//! count costs the length of the chain it opens, not a replay of the whole field.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::field::{Board, Field, Refusal, Side, Step};
use super::notation::Fence;

impl Field {
    /// The farmer's turn: the farmer builds by its rule until the turn comes back to the
    /// player or the game ends. Each move is logged with the step that chose it. Refused when
    /// it is not the farmer's turn.
    pub fn reply(&self) -> Result<Field, Refusal> {
        let mut next = self.rule_move(Side::Farmer)?;
        while next.to_move == Some(Side::Farmer) {
            next.rule_move_in_place();
        }
        Ok(next)
    }

    /// One move by the farmer's rule for `side`, which must be the side to move; the
    /// benchmark and tests use it to let the rule play both sides. Continues the same tie-break
    /// stream as [`Field::reply`].
    pub fn rule_move(&self, side: Side) -> Result<Field, Refusal> {
        self.check_turn(side)?;
        let mut next = self.clone();
        next.rule_move_in_place();
        Ok(next)
    }

    /// The pens the other side could take, one after another, if `fence` were built now:
    /// the count used by the farmer's "fewest" step. `None` if the fence is off the field or
    /// already built. Pens completed by `fence` itself are not counted; pens that already
    /// have three sides are.
    pub fn gives_away(&self, fence: Fence) -> Option<usize> {
        let index = self.size().index(fence)?;
        if self.board.is_built(index) {
            return None;
        }
        let mut scratch = self.board.clone();
        let mut stack: Vec<usize> = (0..self.size().pens())
            .filter(|&p| self.board.sides[p] == 3)
            .collect();
        Some(given_away(&mut scratch, index, &mut Vec::new(), &mut stack))
    }

    /// Plays one move by the rule for the side to move (the game must not be over).
    fn rule_move_in_place(&mut self) {
        let Some(side) = self.to_move else { return };
        let (index, step) = choose(&self.board, &mut self.rng);
        self.apply(side, index, Some(step));
    }
}

/// Picks a fence by the rule: the step that decided, and the fence number.
fn choose(board: &Board, rng: &mut ChaCha8Rng) -> (usize, Step) {
    let size = board.size;
    // 1. Close: the missing fence of every pen with three sides.
    let mut close: Vec<usize> = (0..size.pens())
        .filter(|&p| board.sides[p] == 3)
        .filter_map(|p| board.missing(p))
        .collect();
    if !close.is_empty() {
        close.sort_unstable();
        close.dedup();
        return (pick(&close, rng), Step::Close);
    }
    // 2. Safe: no pen beside the fence has two sides yet.
    let safe: Vec<usize> = board
        .unbuilt()
        .filter(|&i| {
            size.pens_of(i)
                .into_iter()
                .flatten()
                .all(|p| board.sides[p] < 2)
        })
        .collect();
    if !safe.is_empty() {
        return (pick(&safe, rng), Step::Safe);
    }
    // 3. Fewest: the fences that open the shortest chains.
    let mut scratch = board.clone();
    let (mut undo, mut stack) = (Vec::new(), Vec::new());
    let mut best = usize::MAX;
    let mut fewest = Vec::new();
    for i in board.unbuilt() {
        let n = given_away(&mut scratch, i, &mut undo, &mut stack);
        if n < best {
            best = n;
            fewest.clear();
        }
        if n == best {
            fewest.push(i);
        }
    }
    (pick(&fewest, rng), Step::Fewest)
}

/// The candidate at `draw % count`, drawing only when there is a choice.
fn pick(candidates: &[usize], rng: &mut ChaCha8Rng) -> usize {
    match candidates {
        [only] => *only,
        _ => candidates[rng.next_u32() as usize % candidates.len()],
    }
}

/// Builds fence `first` on `board`, lets the other side close every pen it then can, one
/// after another, counts those pens, and takes every fence back again. `stack` may hold pens
/// with three sides to close as well; it is empty on return.
fn given_away(
    board: &mut Board,
    first: usize,
    undo: &mut Vec<usize>,
    stack: &mut Vec<usize>,
) -> usize {
    let size = board.size;
    undo.clear();
    board.set(first);
    undo.push(first);
    stack.extend(
        size.pens_of(first)
            .into_iter()
            .flatten()
            .filter(|&p| board.sides[p] == 3),
    );
    let mut taken = 0;
    while let Some(pen) = stack.pop() {
        // A pen may have been completed meanwhile from its other side.
        if board.sides[pen] != 3 {
            continue;
        }
        let Some(last) = board.missing(pen) else {
            continue;
        };
        board.set(last);
        undo.push(last);
        for p in size.pens_of(last).into_iter().flatten() {
            match board.sides[p] {
                4 => taken += 1,
                3 => stack.push(p),
                _ => {}
            }
        }
    }
    for &i in undo.iter() {
        board.unset(i);
    }
    taken
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::fence::field::{Pen, RefusalKind, Size};
    use crate::fence::notation::{Post, parse_fence};

    fn fence(text: &str) -> Fence {
        parse_fence(text).expect("test fence")
    }

    fn fences(texts: &[&str]) -> Vec<Fence> {
        texts.iter().map(|t| fence(t)).collect()
    }

    /// Builds `moves` by hand, each by whoever is to move (no farmer rule, no draws).
    fn position(seed: u64, cols: usize, rows: usize, moves: &[&str]) -> Field {
        let size = Size::new(cols, rows).expect("test size");
        moves.iter().fold(Field::start(seed, size), |f, m| {
            let side = f.to_move().expect("game not over");
            f.build_text(side, m).expect("legal test move")
        })
    }

    /// The tie-break draws of a game, computed from the rule text alone: skip one draw per pen
    /// for the sheep, then take the next `n`.
    fn draws_after_sheep(seed: u64, pens: usize, n: usize) -> Vec<u32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..pens {
            rng.next_u32();
        }
        (0..n).map(|_| rng.next_u32()).collect()
    }

    /// The farmer's moves of the last reply.
    fn replies(before: &Field, after: &Field) -> Vec<(Fence, Vec<Pen>, Option<Step>)> {
        after.log()[before.log().len()..]
            .iter()
            .map(|m| {
                assert_eq!(m.by, Side::Farmer);
                (m.fence, m.claimed.clone(), m.step)
            })
            .collect()
    }

    /// 2x1, pen a1 has three sides (top, bottom, left); the farmer to move.
    fn one_pen_to_close(seed: u64) -> Field {
        position(seed, 2, 1, &["a1-b1", "a2-b2", "a1-a2"])
    }

    #[test]
    fn close_comes_first_even_when_safe_fences_exist() {
        let before = one_pen_to_close(11);
        let after = before.reply().expect("farmer's turn");
        let moves = replies(&before, &after);
        assert_eq!(
            moves[0],
            (
                fence("b1-b2"),
                vec![Pen(Post::new(0, 0))],
                Some(Step::Close)
            )
        );
        assert_eq!(
            moves.len(),
            2,
            "one close, then one more fence that passes the turn"
        );
        assert_eq!(after.to_move(), Some(Side::You));
    }

    #[test]
    fn after_a_close_the_farmer_moves_again_and_a_tie_among_safe_fences_uses_the_stream() {
        // Close had one candidate (no draw); then pen b1 has one side and all three of its
        // other fences are safe: b1-c1, b2-c2, c1-c2 in fence order.
        for seed in 0..6 {
            let before = one_pen_to_close(seed);
            let after = before.reply().expect("farmer's turn");
            let safe = fences(&["b1-c1", "b2-c2", "c1-c2"]);
            let draw = draws_after_sheep(seed, 2, 1)[0];
            let want = safe[draw as usize % 3];
            assert_eq!(
                replies(&before, &after)[1],
                (want, vec![], Some(Step::Safe)),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn safe_comes_before_giving_a_pen_its_third_side() {
        // 3x1: a1 and c1 have two sides (top and bottom), b1 has its top. Only b2-c2 gives
        // no pen a third side.
        let before = position(2, 3, 1, &["a1-b1", "a2-b2", "c1-d1", "c2-d2", "b1-c1"]);
        assert_eq!(before.to_move(), Some(Side::Farmer));
        let after = before.reply().expect("farmer's turn");
        assert_eq!(
            replies(&before, &after),
            vec![(fence("b2-c2"), vec![], Some(Step::Safe))]
        );
        assert_eq!(after.to_move(), Some(Side::You), "the turn passes back");
    }

    /// 4x2 with no safe fence and no pen to close: pens a1, a2 form a chain of two open at
    /// both ends (a1-b1, a2-b2, a3-b3 unbuilt); b1, c1, c2, b2 form a ring of four (b2-c2,
    /// c1-c2, c2-d2, c2-c3 unbuilt); d1 and d2 are already closed. The farmer to move.
    fn chain_of_two_and_ring_of_four(seed: u64) -> Field {
        let f = position(
            seed,
            4,
            2,
            &[
                "a1-a2", "b1-b2", "a2-a3", "b2-b3", "b1-c1", "c1-d1", "d1-d2", "c3-d3", "d2-d3",
                "b3-c3", "d1-e1", "d2-e2", "d3-e3", "e1-e2", "e2-e3",
            ],
        );
        assert_eq!(f.to_move(), Some(Side::Farmer));
        assert!((0..8).all(|p| f.sides(p) >= 2), "no safe fence is left");
        f
    }

    #[test]
    fn fewest_counts_the_whole_chain_a_fence_opens() {
        let f = chain_of_two_and_ring_of_four(1);
        for text in ["a1-b1", "a2-b2", "a3-b3"] {
            assert_eq!(
                f.gives_away(fence(text)),
                Some(2),
                "{text} opens the chain of two"
            );
        }
        for text in ["b2-c2", "c1-c2", "c2-d2", "c2-c3"] {
            assert_eq!(
                f.gives_away(fence(text)),
                Some(4),
                "{text} opens the ring of four"
            );
        }
        assert_eq!(f.gives_away(fence("a1-a2")), None, "already built");
    }

    #[test]
    fn fewest_counts_a_long_chain_from_either_end_or_the_middle() {
        // 5x1 with every top and bottom built: one chain of five pens.
        let tops: Vec<String> = (0..5u8)
            .flat_map(|c| {
                let (a, b) = ((b'a' + c) as char, (b'b' + c) as char);
                [format!("{a}1-{b}1"), format!("{a}2-{b}2")]
            })
            .collect();
        let refs: Vec<&str> = tops.iter().map(String::as_str).collect();
        let f = position(3, 5, 1, &refs);
        for text in ["a1-a2", "c1-c2", "f1-f2"] {
            assert_eq!(f.gives_away(fence(text)), Some(5), "{text}");
        }
    }

    #[test]
    fn fewest_builds_a_fence_that_gives_away_fewest_with_a_seeded_tie_break() {
        let shorter = fences(&["a1-b1", "a2-b2", "a3-b3"]);
        let mut chosen = Vec::new();
        for seed in 0..8 {
            let before = chain_of_two_and_ring_of_four(seed);
            let after = before.reply().expect("farmer's turn");
            let want = shorter[draws_after_sheep(seed, 8, 1)[0] as usize % 3];
            assert_eq!(
                replies(&before, &after),
                vec![(want, vec![], Some(Step::Fewest))]
            );
            chosen.push(want);
        }
        chosen.dedup();
        assert!(chosen.len() > 1, "the seeds should not all choose alike");
    }

    #[test]
    fn two_seeds_break_a_tie_between_two_closes_differently() {
        // 3x1: a1 misses only b1-b2 and c1 misses only c1-c2; both close a pen.
        let moves = [
            "a1-b1", "a2-b2", "a1-a2", "c1-d1", "c2-d2", "d1-d2", "b1-c1",
        ];
        let first_seed_with = |parity: u32| {
            (0..100)
                .find(|&s| draws_after_sheep(s, 3, 1)[0] % 2 == parity)
                .expect("a seed")
        };
        let (even, odd) = (first_seed_with(0), first_seed_with(1));
        let first_reply = |seed| {
            let before = position(seed, 3, 1, &moves);
            let after = before.reply().expect("farmer's turn");
            replies(&before, &after)[0].clone()
        };
        assert_eq!(
            first_reply(even).0,
            fence("b1-b2"),
            "seed {even} draws even"
        );
        assert_eq!(first_reply(odd).0, fence("c1-c2"), "seed {odd} draws odd");
        assert_eq!(first_reply(even).2, Some(Step::Close));
    }

    #[test]
    fn the_farmer_replies_until_the_turn_comes_back_or_the_game_ends() {
        // 1x1 with three sides built by hand alternately: you, farmer, you. The farmer closes
        // the only pen with the last fence and the game ends.
        let before = position(1, 1, 1, &["a1-b1", "a2-b2", "a1-a2"]);
        let after = before.reply().expect("farmer's turn");
        assert_eq!(
            replies(&before, &after),
            vec![(
                fence("b1-b2"),
                vec![Pen(Post::new(0, 0))],
                Some(Step::Close)
            )]
        );
        assert!(after.is_over());
    }

    #[test]
    fn the_farmer_does_not_reply_out_of_turn_or_after_the_end() {
        let start = Field::start(1, Size::DEFAULT);
        assert_eq!(
            start.reply().map_err(|r| r.kind),
            Err(RefusalKind::OutOfTurn)
        );
        let over = position(1, 1, 1, &["a1-b1", "a2-b2", "a1-a2"])
            .reply()
            .expect("turn");
        assert_eq!(over.reply().map_err(|r| r.kind), Err(RefusalKind::GameOver));
    }

    /// A whole game where you always build the first unbuilt fence and the farmer replies.
    fn first_fence_game(seed: u64, size: Size) -> Field {
        let mut f = Field::start(seed, size);
        while let Some(side) = f.to_move() {
            f = match side {
                Side::You => f.build(side, f.fences()[0]).expect("legal"),
                Side::Farmer => f.reply().expect("farmer's turn"),
            };
        }
        f
    }

    #[test]
    fn the_same_seed_gives_the_same_replies() {
        let size = Size::DEFAULT;
        assert_eq!(
            first_fence_game(42, size).log(),
            first_fence_game(42, size).log()
        );
        let farmer_moves = |seed| -> Vec<Fence> {
            first_fence_game(seed, size)
                .log()
                .iter()
                .filter(|m| m.by == Side::Farmer)
                .map(|m| m.fence)
                .collect()
        };
        assert!(
            (43..53).any(|s| farmer_moves(s) != farmer_moves(42)),
            "seeds matter"
        );
    }

    #[test]
    fn a_whole_game_ends_with_every_fence_built() {
        let f = first_fence_game(7, Size::DEFAULT);
        assert!(f.is_over());
        assert!(f.fences().is_empty());
        assert_eq!(f.log().len(), 40);
        assert!(f.result_line().is_some());
        let (you, farmer) = (f.score(Side::You), f.score(Side::Farmer));
        assert_eq!(you.pens + farmer.pens, 16);
        assert_eq!(you.sheep + farmer.sheep, f.total_sheep());
    }
}
