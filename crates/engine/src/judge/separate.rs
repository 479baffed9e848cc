//! Readings and what separates them: the known readings of the rules (the switches, the
//! catalogue entries and their combinations), the engine's output under a reading on a
//! puzzle ([`Printed`]), what separates two readings on a puzzle, the small puzzles drawn to
//! find one, and the shrink that keeps one separating.
//!
//! The diagnosis ([`crate::judge::diagnose`]), the designed cases ([`crate::judge::design`]),
//! the audit ([`crate::judge::audit`]) and the case packs ([`crate::judge::pack`],
//! [`crate::judge::kattis`], `beast cases`) all take these blocks from here, so a new
//! catalogue entry serves them all.
//!
//! One meaning of "separates" throughout: two readings separate on a puzzle when the engine
//! decides the puzzle under both (within the caller's budget) and their answers differ. A
//! puzzle the engine cannot decide under one of them separates nothing.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use crate::beast::variant::{self, CATALOGUE, SWITCHES};
use crate::beast::{Ending, Puzzle, Rules, play_out_until};
use crate::judge::generate::{GenOptions, generate};
use crate::judge::shrink::shrink_within;

/// The largest map side a drawn small puzzle has.
pub const MAX_SIDE: usize = 8;

/// The most moves a drawn puzzle has.
pub const MAX_MOVES: usize = 10;

/// The widest map a wide draw makes: distances of 15 or more (where the
/// `int(30*sqrt(d))` reading parts from ours) need a map wider than [`MAX_SIDE`].
pub const WIDE_COLS: usize = 24;

/// The most beasts a drawn puzzle has.
pub const MAX_BEASTS: usize = 4;

/// The wall percentages a drawn puzzle's map is made with, one drawn a puzzle: ties need
/// blocked neighbours, stalemates need walls.
pub const WALLS_PCT: [u8; 4] = [0, 15, 30, 45];

// ---------------------------------------------------------------------------------------
// The readings.

/// The 16 combinations of the four rule switches, ours first: combination `bits` turns on
/// the other reading of switch `i` when bit `i` is set.
pub fn switch_combinations() -> Vec<Rules> {
    (0u32..16)
        .map(|bits| {
            SWITCHES
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .fold(Rules::OURS, |rules, (_, s)| s.other.apply(rules))
        })
        .collect()
}

/// Every known reading other than ours, as the audit checks them: the catalogue in its
/// order, then the combinations of two or more switches (those of one switch are
/// catalogue entries).
pub fn known_readings() -> Vec<Rules> {
    let mut all: Vec<Rules> = CATALOGUE.iter().map(|v| v.apply(Rules::OURS)).collect();
    for rules in switch_combinations() {
        if !all.contains(&rules) && rules != Rules::OURS {
            all.push(rules);
        }
    }
    all
}

/// Every reading the diagnosis (and `beast cases`) tries, ours excluded, fewest changes
/// from ours first: the 16 combinations of the switches, each alone and with one
/// catalogue entry beyond them that changes another rule than its switches do.
pub fn readings() -> Vec<Rules> {
    let mut all: Vec<(usize, usize, Rules)> = Vec::new();
    for (bits, rules) in switch_combinations().into_iter().enumerate() {
        let switches = bits.count_ones() as usize;
        if bits != 0 {
            all.push((switches, 0, rules));
        }
        for (k, v) in variant::beyond_switches().enumerate() {
            // An entry that changes what a switch of the combination changes (another
            // target than `--target after`) would undo it: that reading is had without it.
            let undoes = SWITCHES
                .iter()
                .enumerate()
                .any(|(i, s)| bits & (1 << i) != 0 && s.other.same_rule(v.change));
            if !undoes {
                all.push((switches + 1, k + 1, v.apply(rules)));
            }
        }
    }
    // Among equals the switches alone come first (they are the text's known ambiguities,
    // so the likelier reading where a run cannot tell them apart), then the order of the
    // switches' bits, then the catalogue's order.
    all.sort_by_key(|&(changes, entry, _)| (changes, entry > 0));
    all.into_iter().map(|(_, _, r)| r).collect()
}

// ---------------------------------------------------------------------------------------
// A reading's output.

/// What a golf answer prints (or would print under a reading), read leniently: `aHHHH!`
/// and a score, or a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Printed {
    /// True if it starts with `aHHHH!`.
    pub eaten: bool,
    /// The score.
    pub score: u64,
}

impl Printed {
    /// Reads `got` with all whitespace ignored; `None` if it is not of the answer's shape
    /// (then no hypothesis can give it).
    pub fn read(got: &[u8]) -> Option<Printed> {
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
        Some(Printed { eaten, score })
    }

    /// The engine's answer on `puzzle` under `rules`; `None` if it cannot be judged.
    pub fn of(puzzle: &Puzzle, rules: Rules) -> Option<Printed> {
        Printed::within(puzzle, rules, || true)
    }

    /// [`Printed::of`] within the caller's budget; `None` past it.
    pub fn within(
        puzzle: &Puzzle,
        rules: Rules,
        keep_going: impl FnMut() -> bool,
    ) -> Option<Printed> {
        play_out_until(puzzle, rules, keep_going)
            .ok()
            .map(|o| Printed {
                eaten: o.ending == Ending::Eaten,
                score: o.score,
            })
    }

    /// The canonical text: `aHHHH!` and the score on two lines, or the score (the same
    /// text as [`crate::beast::Outcome::answer`]).
    pub fn text(self) -> String {
        match self.eaten {
            true => format!("aHHHH!\n{}\n", self.score),
            false => format!("{}\n", self.score),
        }
    }
}

/// The engine's answer text on `puzzle` under `rules`, `None` if it cannot be judged within
/// the caller's budget.
pub fn answer(
    puzzle: &Puzzle,
    rules: Rules,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<String> {
    Printed::within(puzzle, rules, keep_going).map(Printed::text)
}

// ---------------------------------------------------------------------------------------
// What separates two readings.

/// True if both answers (typed or text) are decided and differ: the one meaning of
/// "separates".
pub fn apart<T: PartialEq>(a: Option<T>, b: Option<T>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// True if the engine's answers on `puzzle` under `a` and `b` differ, both being decided
/// within the caller's budget (`a` is judged first, then `b`, whatever `a` gave).
pub fn differ(puzzle: &Puzzle, a: Rules, b: Rules, keep_going: &mut dyn FnMut() -> bool) -> bool {
    let x = Printed::within(puzzle, a, &mut *keep_going);
    let y = Printed::within(puzzle, b, &mut *keep_going);
    apart(x, y)
}

/// True if the engine decides `puzzle` under `rules` within the caller's budget and its
/// answer is not `ours` (our answer on it, already decided).
pub fn differs_from(
    puzzle: &Puzzle,
    ours: Printed,
    rules: Rules,
    keep_going: &mut dyn FnMut() -> bool,
) -> bool {
    Printed::within(puzzle, rules, keep_going).is_some_and(|theirs| theirs != ours)
}

/// The positions in `readings` of the readings whose answer on `puzzle` differs from ours.
/// A reading the engine cannot decide within the budget separates nothing.
pub fn separated(
    puzzle: &Puzzle,
    readings: &[Rules],
    keep_going: &mut dyn FnMut() -> bool,
) -> Vec<usize> {
    let Some(ours) = Printed::within(puzzle, Rules::OURS, &mut *keep_going) else {
        return Vec::new();
    };
    readings
        .iter()
        .enumerate()
        .filter(|(_, r)| differs_from(puzzle, ours, **r, keep_going))
        .map(|(i, _)| i)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Drawing and shrinking a separating puzzle.

/// The next small puzzle drawn from the stream: its options drawn first (a width in
/// `cols`, a height of 3 to [`MAX_SIDE`], 1 to [`MAX_BEASTS`] beasts that fit, a wall
/// percentage of [`WALLS_PCT`], 1 to [`MAX_MOVES`] moves), then generator 1's seed.
/// `None` if the generator refuses the options.
pub fn draw(rng: &mut ChaCha8Rng, cols: std::ops::RangeInclusive<usize>) -> Option<Puzzle> {
    let mut below = |n: usize| (rng.next_u64() % n as u64) as usize;
    let cols = cols.start() + below(cols.end() + 1 - cols.start());
    let rows = 3 + below(MAX_SIDE - 2);
    let free = (cols - 2) * (rows - 2);
    let beasts = 1 + below(MAX_BEASTS);
    let walls_pct = WALLS_PCT[below(WALLS_PCT.len())];
    let moves = 1 + below(MAX_MOVES);
    let seed = rng.next_u64();
    let opts = GenOptions {
        cols,
        rows,
        beasts: beasts.min(free.saturating_sub(1)),
        walls_pct,
        moves,
    };
    generate(seed, &opts).ok()
}

/// `found`, which separates every reading of `all` from ours, shrunk (asking at most
/// `asks` times, while `keep_going` says yes) to a smaller puzzle that still does and still
/// has a move (the challenge's inputs all have one). Each candidate is judged in full.
pub fn shrink_separating(
    found: &Puzzle,
    all: &[Rules],
    asks: usize,
    keep_going: &mut dyn FnMut() -> bool,
) -> Puzzle {
    let mut deadline = true;
    shrink_within(
        found,
        asks,
        || {
            deadline = deadline && keep_going();
            deadline
        },
        |p| !p.moves().is_empty() && all.iter().all(|&r| differ(p, Rules::OURS, r, &mut || true)),
    )
    .puzzle
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::play_out;
    use crate::judge::cases::builtin;

    #[test]
    fn known_readings_are_the_catalogue_and_the_switch_combinations() {
        let all = known_readings();
        assert_eq!(all.len(), CATALOGUE.len() + 11);
        assert!(!all.contains(&Rules::OURS));
        for v in CATALOGUE {
            assert!(all.contains(&v.apply(Rules::OURS)), "{}", v.name);
        }
        for r in switch_combinations().into_iter().skip(1) {
            assert!(all.contains(&r), "{}", variant::flags(r));
        }
    }

    #[test]
    fn an_answers_text_is_the_outcomes() {
        for c in builtin().cases {
            for rules in switch_combinations() {
                let text = play_out(&c.puzzle, rules).ok().map(|o| o.answer());
                assert_eq!(answer(&c.puzzle, rules, &mut || true), text, "{}", c.name);
            }
        }
    }

    #[test]
    fn separated_is_readings_differ_from_ours() {
        let all = readings();
        for c in builtin().cases.iter().take(20) {
            let sep = separated(&c.puzzle, &all, &mut || true);
            for (i, &r) in all.iter().enumerate() {
                let differs = differ(&c.puzzle, Rules::OURS, r, &mut || true);
                assert_eq!(sep.contains(&i), differs, "{}", c.name);
            }
        }
    }

    #[test]
    fn an_undecided_answer_separates_nothing() {
        let a = Some(Printed {
            eaten: true,
            score: 0,
        });
        assert!(
            !apart(a, None) && !apart(None, a) && !apart::<Printed>(None, None) && !apart(a, a)
        );
    }
}
