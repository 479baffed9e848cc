//! The hypothesis model: what an answer prints ([`Printed`], read leniently), how an output
//! may be reshaped ([`Shape`]), and a [`Hypothesis`]: a reading of the rules with a shape, or
//! a constant output. The answer and the readings the search tries ([`readings`]) are
//! [`crate::judge::separate`]'s.

use crate::beast::variant;
use crate::beast::{Puzzle, Rules};
pub use crate::judge::separate::{Printed, readings};

/// How an answer's output may be reshaped from a reading's answer: the output-level
/// hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// As the reading prints it.
    Same,
    /// One point a crushed beast instead of two.
    OnePoint,
    /// Three points a crushed beast instead of two.
    ThreePoints,
    /// The score doubled.
    Doubled,
    /// The score plus 2.
    PlusTwo,
    /// The score minus 2.
    MinusTwo,
    /// The `aHHHH!` line never printed.
    NoDeathLine,
    /// The `aHHHH!` line always printed.
    AlwaysDeathLine,
    /// The beast that eats the player scores 2 points, as a crushed one does.
    DeathScores,
    /// The score under the `aHHHH!` line is always 0.
    DeathZero,
}

/// Every shape, [`Shape::Same`] first.
pub const SHAPES: [Shape; 10] = [
    Shape::Same,
    Shape::OnePoint,
    Shape::ThreePoints,
    Shape::Doubled,
    Shape::PlusTwo,
    Shape::MinusTwo,
    Shape::NoDeathLine,
    Shape::AlwaysDeathLine,
    Shape::DeathScores,
    Shape::DeathZero,
];

impl Shape {
    /// The output a reading's answer `a` becomes; `None` if the shape cannot give one.
    pub fn apply(self, a: Printed) -> Option<Printed> {
        let score = |score| Some(Printed { score, ..a });
        match self {
            Shape::Same => Some(a),
            Shape::OnePoint => score(a.score / 2),
            Shape::ThreePoints => score(a.score / 2 * 3),
            Shape::Doubled => score(a.score * 2),
            Shape::PlusTwo => score(a.score + 2),
            Shape::MinusTwo => a.score.checked_sub(2).and_then(score),
            Shape::NoDeathLine => Some(Printed { eaten: false, ..a }),
            Shape::AlwaysDeathLine => Some(Printed { eaten: true, ..a }),
            Shape::DeathScores => score(a.score + if a.eaten { 2 } else { 0 }),
            Shape::DeathZero => score(if a.eaten { 0 } else { a.score }),
        }
    }

    /// What the answer does, in words.
    pub fn words(self) -> &'static str {
        match self {
            Shape::Same => "prints the answer as it is",
            Shape::OnePoint => "scores 1 point a crushed beast instead of 2",
            Shape::ThreePoints => "scores 3 points a crushed beast instead of 2",
            Shape::Doubled => "doubles the score",
            Shape::PlusTwo => "adds 2 to the score",
            Shape::MinusTwo => "takes 2 off the score",
            Shape::NoDeathLine => "never prints the aHHHH! line",
            Shape::AlwaysDeathLine => "always prints the aHHHH! line, even when the player lives",
            Shape::DeathScores => "scores 2 points for the beast that eats the player",
            Shape::DeathZero => "prints a score of 0 under the aHHHH! line",
        }
    }
}

/// A hypothesis of what the answer prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hypothesis {
    /// A reading of the rules, its output reshaped by `shape`.
    Reading {
        /// The reading.
        rules: Rules,
        /// The shape of the output.
        shape: Shape,
    },
    /// The same output whatever the puzzle.
    Constant(Printed),
}

impl Hypothesis {
    /// The hypothesis of one reading printed as it is.
    pub fn reading(rules: Rules) -> Hypothesis {
        Hypothesis::Reading {
            rules,
            shape: Shape::Same,
        }
    }

    /// What it predicts from the reading's answer `a` (ignored by a constant).
    pub(super) fn predict(self, a: Option<Printed>) -> Option<Printed> {
        match self {
            Hypothesis::Reading { shape, .. } => a.and_then(|a| shape.apply(a)),
            Hypothesis::Constant(c) => Some(c),
        }
    }

    /// What it predicts on `puzzle`.
    pub fn answer(self, puzzle: &Puzzle) -> Option<Printed> {
        match self {
            Hypothesis::Reading { rules, shape } => {
                Printed::of(puzzle, rules).and_then(|a| shape.apply(a))
            }
            Hypothesis::Constant(c) => Some(c),
        }
    }

    /// The reading, if it is one other than ours: the flags of its compare page.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Hypothesis::Reading { rules, .. } if rules != Rules::OURS => Some(rules),
            _ => None,
        }
    }

    /// How far it is from our readings: catalogue entries changed, plus one for a shape or
    /// a constant.
    pub fn cost(self) -> usize {
        match self {
            Hypothesis::Reading { rules, shape } => {
                changes(rules) + usize::from(shape != Shape::Same)
            }
            Hypothesis::Constant(_) => 1,
        }
    }

    /// The `beast` flags of its reading (empty for ours or a constant).
    pub fn flags(self) -> String {
        self.rules().map(variant::flags).unwrap_or_default()
    }

    /// What it says the answer does, in words, without the reading's flags when it is a
    /// reading alone (they are given beside it).
    pub fn plain_words(self) -> String {
        match self {
            Hypothesis::Reading {
                rules,
                shape: Shape::Same,
            } => variant::words(rules),
            h => h.words(),
        }
    }

    /// What it says the answer does, in words, with the reading's flags.
    pub fn words(self) -> String {
        match self {
            Hypothesis::Constant(c) => format!(
                "prints {:?} whatever the puzzle (a constant output)",
                c.text().trim_end()
            ),
            Hypothesis::Reading { rules, shape } => {
                let reading = format!("{} ({})", variant::words(rules), variant::flags(rules));
                match (rules == Rules::OURS, shape) {
                    (true, shape) => format!("it {} (our readings otherwise)", shape.words()),
                    (false, Shape::Same) => reading,
                    (false, shape) => format!("{reading}, and it {}", shape.words()),
                }
            }
        }
    }
}

/// How many catalogue entries a reading changes.
pub fn changes(rules: Rules) -> usize {
    variant::held_by(rules).count()
}
