//! The predicates shrinking keeps true of a smaller case (a reading's or a hypothesis's
//! mistake still shows, the same kind of difference), and what one case alone is consistent
//! with.

use crate::beast::{Puzzle, Rules};
use crate::judge::diagnose::hypothesis::{Hypothesis, Printed};
use crate::judge::separate::{self, readings};

/// True if the engine's answers on `puzzle` under `a` and `b` differ (leniently), both
/// being decided. The condition that keeps a shrunk case showing a reading's mistake.
pub fn readings_differ(puzzle: &Puzzle, a: Rules, b: Rules) -> bool {
    separate::differ(puzzle, a, b, &mut || true)
}

/// True if `hypothesis` predicts another answer than ours on `puzzle`: the condition that
/// keeps a shrunk case showing the hypothesis's mistake.
pub fn hypothesis_differs(puzzle: &Puzzle, hypothesis: Hypothesis) -> bool {
    separate::apart(hypothesis.answer(puzzle), Printed::of(puzzle, Rules::OURS))
}

/// True if `got` is, leniently, what `hypothesis` predicts on `puzzle`.
pub fn predicted(puzzle: &Puzzle, hypothesis: Hypothesis, got: &[u8]) -> bool {
    Printed::read(got).is_some_and(|a| hypothesis.answer(puzzle) == Some(a))
}

/// True if `got` is, leniently, what the engine answers on `puzzle` under `rules`.
pub fn reproduces(puzzle: &Puzzle, rules: Rules, got: &[u8]) -> bool {
    Printed::read(got).is_some_and(|a| Printed::of(puzzle, rules) == Some(a))
}

/// The readings under which the engine gives `got` on this one case, fewest changes
/// first, up to `limit`: what the case is *consistent with*, not a diagnosis.
pub fn consistent_with(puzzle: &Puzzle, got: &[u8], limit: usize) -> Vec<Rules> {
    let Some(answer) = Printed::read(got) else {
        return Vec::new();
    };
    readings()
        .into_iter()
        .filter(|&r| Printed::of(puzzle, r) == Some(answer))
        .take(limit)
        .collect()
}

/// The kind of a wrong answer, which shrinking keeps: whether the death line and the score
/// differ from the expected answer, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Not an answer at all.
    Garbled,
    /// An answer: (got `aHHHH!` where expected did not or vice versa, the score's order
    /// relative to the expected one).
    Printed {
        /// The death line differs.
        death: bool,
        /// Got's score compared with the expected one.
        score: std::cmp::Ordering,
    },
}

/// The kind of difference between `expected` and `got`.
pub fn difference(expected: &str, got: &[u8]) -> Difference {
    match (Printed::read(expected.as_bytes()), Printed::read(got)) {
        (Some(e), Some(g)) => Difference::Printed {
            death: e.eaten != g.eaten,
            score: g.score.cmp(&e.score),
        },
        _ => Difference::Garbled,
    }
}
