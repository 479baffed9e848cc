//! The hypothesis model: what an answer prints ([`Answer`], read leniently), how an output
//! may be reshaped ([`Shape`]), and a [`Hypothesis`]: a reading of the rules with a shape, or
//! a constant output; [`readings`] lists every reading the search tries.

use crate::beast::variant::{self, SWITCHES};
use crate::beast::{Ending, Puzzle, Rules, play_out_until};

/// The answer a golf answer gives, read leniently: `aHHHH!` and a score, or a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// True if it starts with `aHHHH!`.
    pub eaten: bool,
    /// The score.
    pub score: u64,
}

impl Answer {
    /// Reads `got` with all whitespace ignored; `None` if it is not of the answer's shape
    /// (then no hypothesis can give it).
    pub fn read(got: &[u8]) -> Option<Answer> {
        let text: Vec<u8> = got
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        let (eaten, digits) = match text.strip_prefix(b"aHHHH!") {
            Some(rest) => (true, rest),
            None => (false, &text[..]),
        };
        let canonical = !digits.is_empty()
            && digits.iter().all(u8::is_ascii_digit)
            && (digits[0] != b'0' || digits.len() == 1);
        if !canonical {
            return None;
        }
        let score = std::str::from_utf8(digits).ok()?.parse().ok()?;
        Some(Answer { eaten, score })
    }

    /// The engine's answer on `puzzle` under `rules`; `None` if it cannot be judged.
    pub(super) fn of(puzzle: &Puzzle, rules: Rules) -> Option<Answer> {
        Answer::within(puzzle, rules, || true)
    }

    /// [`Answer::of`] within the caller's budget; `None` past it.
    pub(super) fn within(
        puzzle: &Puzzle,
        rules: Rules,
        keep_going: impl FnMut() -> bool,
    ) -> Option<Answer> {
        play_out_until(puzzle, rules, keep_going)
            .ok()
            .map(|o| Answer {
                eaten: o.ending == Ending::Eaten,
                score: o.score,
            })
    }

    /// The canonical text: `aHHHH!` and the score on two lines, or the score.
    pub fn text(self) -> String {
        match self.eaten {
            true => format!("aHHHH!\n{}\n", self.score),
            false => format!("{}\n", self.score),
        }
    }
}

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
}

/// Every shape, [`Shape::Same`] first.
pub const SHAPES: [Shape; 8] = [
    Shape::Same,
    Shape::OnePoint,
    Shape::ThreePoints,
    Shape::Doubled,
    Shape::PlusTwo,
    Shape::MinusTwo,
    Shape::NoDeathLine,
    Shape::AlwaysDeathLine,
];

impl Shape {
    /// The output a reading's answer `a` becomes; `None` if the shape cannot give one.
    pub fn apply(self, a: Answer) -> Option<Answer> {
        let score = |score| Some(Answer { score, ..a });
        match self {
            Shape::Same => Some(a),
            Shape::OnePoint => score(a.score / 2),
            Shape::ThreePoints => score(a.score / 2 * 3),
            Shape::Doubled => score(a.score * 2),
            Shape::PlusTwo => score(a.score + 2),
            Shape::MinusTwo => a.score.checked_sub(2).and_then(score),
            Shape::NoDeathLine => Some(Answer { eaten: false, ..a }),
            Shape::AlwaysDeathLine => Some(Answer { eaten: true, ..a }),
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
    Constant(Answer),
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
    pub(super) fn predict(self, a: Option<Answer>) -> Option<Answer> {
        match self {
            Hypothesis::Reading { shape, .. } => a.and_then(|a| shape.apply(a)),
            Hypothesis::Constant(c) => Some(c),
        }
    }

    /// What it predicts on `puzzle`.
    pub fn answer(self, puzzle: &Puzzle) -> Option<Answer> {
        match self {
            Hypothesis::Reading { rules, shape } => {
                Answer::of(puzzle, rules).and_then(|a| shape.apply(a))
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

/// Every reading the diagnosis tries, ours excluded, fewest changes from ours first: the 16
/// combinations of the switches, each alone and with one catalogue entry beyond them.
pub fn readings() -> Vec<Rules> {
    let mut all: Vec<(usize, usize, Rules)> = Vec::new();
    for bits in 0u32..16 {
        let mut rules = Rules::OURS;
        for (i, s) in SWITCHES.iter().enumerate() {
            if bits & (1 << i) != 0 {
                rules = s.other.apply(rules);
            }
        }
        let switches = bits.count_ones() as usize;
        if bits != 0 {
            all.push((switches, 0, rules));
        }
        for (k, v) in variant::beyond_switches().enumerate() {
            all.push((switches + 1, k + 1, v.apply(rules)));
        }
    }
    // Among equals the switches alone come first (they are the text's known ambiguities,
    // so the likelier reading where a run cannot tell them apart), then the order of the
    // switches' bits, then the catalogue's order.
    all.sort_by_key(|&(changes, entry, _)| (changes, entry > 0));
    all.into_iter().map(|(_, _, r)| r).collect()
}

/// How many catalogue entries a reading changes.
pub fn changes(rules: Rules) -> usize {
    variant::held_by(rules).count()
}
