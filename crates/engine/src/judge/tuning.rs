//! Answers tuned to the examples: when the built-in cases pass and the random ones fail far
//! more often (or the reverse), the diagnosis says so in its first line, with both rates.
//!
//! An answer that prints the examples' outputs from a table, or was debugged against them
//! alone, passes every built-in case and fails most random ones; no rule clue explains that.
//! "Far more often" is [`FAR`]: the higher failure rate at least one half, the lower at most
//! a tenth of it, with at least [`MIN_BUILTIN`] built-in and [`MIN_RANDOM`] random cases.

use crate::judge::cases::Origin;

/// The fewest built-in cases the comparison is made on.
pub const MIN_BUILTIN: usize = 5;

/// The fewest random cases the comparison is made on.
pub const MIN_RANDOM: usize = 10;

/// The higher failure rate is at least `1 / FAR.0`, and the lower at most `1 / FAR.1` of it.
pub const FAR: (usize, usize) = (2, 10);

/// How many cases of one kind failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    /// Cases that failed.
    pub failed: usize,
    /// Cases run.
    pub of: usize,
}

impl Rate {
    /// True if `self` fails far more often than `other` (see [`FAR`]).
    fn far_above(self, other: Rate) -> bool {
        let (hi, lo) = (self, other);
        // hi.failed / hi.of >= 1/2, and lo.failed / lo.of <= (hi.failed / hi.of) / 10.
        hi.failed * FAR.0 >= hi.of && lo.failed * hi.of * FAR.1 <= hi.failed * lo.of
    }
}

/// The failure rates of the built-in and the random cases of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// The built-in examples.
    pub builtin: Rate,
    /// The random cases.
    pub random: Rate,
}

impl Rates {
    /// The rates of `cases`: each case's origin and whether it passed. Cases from files
    /// count in neither.
    pub fn of<'a>(cases: impl IntoIterator<Item = (&'a Origin, bool)>) -> Rates {
        let mut rates = Rates::default();
        for (origin, passed) in cases {
            let rate = match origin {
                Origin::Builtin => &mut rates.builtin,
                Origin::Random { .. } => &mut rates.random,
                Origin::File => continue,
            };
            rate.of += 1;
            rate.failed += usize::from(!passed);
        }
        rates
    }
}

/// The diagnosis's lead when one kind of case fails far more often than the other, such as
/// "every built-in case passes, 240 of 300 random ones fail: the answer may be tuned to the
/// examples"; `None` otherwise.
pub fn lead(rates: Rates) -> Option<String> {
    let (b, r) = (rates.builtin, rates.random);
    if b.of < MIN_BUILTIN || r.of < MIN_RANDOM {
        return None;
    }
    let fail = |n: usize| if n == 1 { "fails" } else { "fail" };
    if r.far_above(b) {
        let builtin = match b.failed {
            0 => "every built-in case passes".to_string(),
            n => format!("only {n} of {} built-in cases {}", b.of, fail(n)),
        };
        Some(format!(
            "{builtin}, {} of {} random ones {}: the answer may be tuned to the examples",
            r.failed,
            r.of,
            fail(r.failed)
        ))
    } else if b.far_above(r) {
        let random = match r.failed {
            0 => "every random case passes".to_string(),
            n => format!("only {n} of {} random cases {}", r.of, fail(n)),
        };
        Some(format!(
            "{random}, {} of {} built-in ones {}: the examples test what the random cases \
             rarely reach",
            b.failed,
            b.of,
            fail(b.failed)
        ))
    } else {
        None
    }
}

/// The diagnosis's sentence with the lead, if any, in front (the sentence then starts with
/// a capital).
pub fn with_lead(rates: Rates, sentence: &str) -> String {
    match lead(rates) {
        Some(lead) => {
            let mut rest = sentence.chars();
            let first: String = rest
                .next()
                .map(|c| c.to_uppercase().collect())
                .unwrap_or_default();
            format!("{lead}. {first}{}", rest.as_str())
        }
        None => sentence.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(builtin: (usize, usize), random: (usize, usize)) -> Rates {
        Rates {
            builtin: Rate {
                failed: builtin.0,
                of: builtin.1,
            },
            random: Rate {
                failed: random.0,
                of: random.1,
            },
        }
    }

    #[test]
    fn an_answer_that_passes_only_the_examples_is_told_so_with_both_rates() {
        assert_eq!(
            lead(rates((0, 40), (240, 300))).as_deref(),
            Some(
                "every built-in case passes, 240 of 300 random ones fail: the answer may be \
                 tuned to the examples"
            )
        );
        assert_eq!(
            lead(rates((1, 40), (200, 300))).as_deref(),
            Some(
                "only 1 of 40 built-in cases fails, 200 of 300 random ones fail: the answer \
                 may be tuned to the examples"
            )
        );
    }

    #[test]
    fn the_reverse_is_told_too() {
        assert_eq!(
            lead(rates((30, 40), (0, 300))).as_deref(),
            Some(
                "every random case passes, 30 of 40 built-in ones fail: the examples test what \
                 the random cases rarely reach"
            )
        );
    }

    #[test]
    fn rates_that_are_not_far_apart_say_nothing() {
        // A rule read wrong fails some examples and many random cases.
        assert_eq!(lead(rates((4, 40), (150, 300))), None);
        // A rare mistake: few random failures.
        assert_eq!(lead(rates((0, 40), (30, 300))), None);
        // A correct answer.
        assert_eq!(lead(rates((0, 40), (0, 300))), None);
        // Everything fails.
        assert_eq!(lead(rates((40, 40), (300, 300))), None);
    }

    #[test]
    fn too_few_cases_of_either_kind_say_nothing() {
        assert_eq!(lead(rates((0, 40), (9, 9))), None);
        assert_eq!(lead(rates((0, 4), (300, 300))), None);
    }

    #[test]
    fn rates_count_builtin_and_random_cases_apart_and_files_in_neither() {
        let b = Origin::Builtin;
        let r = Origin::Random { seed: 3 };
        let f = Origin::File;
        let got = Rates::of([
            (&b, true),
            (&b, false),
            (&r, false),
            (&f, false),
            (&r, true),
        ]);
        assert_eq!(got, rates((1, 2), (1, 2)));
    }

    #[test]
    fn the_lead_goes_in_front_of_the_sentence() {
        assert_eq!(
            with_lead(rates((0, 40), (240, 300)), "no wrong answer to explain."),
            "every built-in case passes, 240 of 300 random ones fail: the answer may be tuned \
             to the examples. No wrong answer to explain."
        );
        assert_eq!(with_lead(Rates::default(), "x"), "x");
    }
}
