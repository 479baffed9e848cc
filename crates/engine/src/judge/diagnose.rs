//! The diagnosis of a whole run: which reading of the rules, if any, explains every output an
//! answer gave, and the failures grouped by their cause.
//!
//! One case is weak evidence (an answer prints one of a handful of short texts, so some
//! reading reproduces a single output by chance); a whole run is strong evidence. So the
//! search asks of each reading whether the engine under it reproduces *every* output, passing
//! cases included, compared leniently as PE is. The readings searched are the 16
//! combinations of the four switches, each alone and with one more catalogue entry
//! ([`crate::beast::variant`]).

use crate::beast::variant::{self, SWITCHES};
use crate::beast::{Ending, Puzzle, Rules, play_out_until};
use crate::judge::verdict::Verdict;

/// What the answer did on one case, as the diagnosis sees it.
#[derive(Clone, Copy, Debug)]
pub struct Observed<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// The expected output under our readings.
    pub expected: &'a str,
    /// What the answer printed.
    pub got: &'a [u8],
    /// The verdict.
    pub verdict: Verdict,
    /// True if the case passed.
    pub passed: bool,
}

/// The answer a golf answer gives, read leniently: `aHHHH!` and a score, or a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    eaten: bool,
    score: u64,
}

impl Answer {
    /// Reads `got` with all whitespace ignored; `None` if it is not of the answer's shape
    /// (then no reading can give it).
    fn read(got: &[u8]) -> Option<Answer> {
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
    fn of(puzzle: &Puzzle, rules: Rules) -> Option<Answer> {
        Answer::within(puzzle, rules, || true)
    }

    /// [`Answer::of`] within the caller's budget; `None` past it.
    fn within(puzzle: &Puzzle, rules: Rules, keep_going: impl FnMut() -> bool) -> Option<Answer> {
        play_out_until(puzzle, rules, keep_going)
            .ok()
            .map(|o| Answer {
                eaten: o.ending == Ending::Eaten,
                score: o.score,
            })
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
    // Stable: among equals, the order of the switches' bits, then the catalogue's order.
    all.sort_by_key(|&(changes, _, _)| changes);
    all.into_iter().map(|(_, _, r)| r).collect()
}

/// How many catalogue entries a reading changes.
pub fn changes(rules: Rules) -> usize {
    variant::held_by(rules).count()
}

/// How far a diagnosis got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every case passed.
    Correct,
    /// A reading reproduces every output.
    Explained,
    /// A reading reproduces some failures, none all.
    Partial,
    /// No reading reproduces any failure.
    Unexplained,
}

impl Status {
    /// The name used in JSON: `correct`, `explained`, `partial`, `unexplained`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Explained => "explained",
            Status::Partial => "partial",
            Status::Unexplained => "unexplained",
        }
    }
}

/// A reading and how well it explains the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The reading.
    pub rules: Rules,
    /// How many wrong answers it reproduces.
    pub reproduces: usize,
    /// Of how many wrong answers.
    pub of: usize,
    /// How many passing cases it would break.
    pub breaks: usize,
}

/// The diagnosis of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    /// Where it got.
    pub status: Status,
    /// The explaining readings (several when they are equivalent on every case run) for
    /// [`Status::Explained`], the closest for [`Status::Partial`], none otherwise.
    pub readings: Vec<Explanation>,
    /// Cases that gave an output the readings were tried on (WA, and the passing ones).
    pub outputs: usize,
    /// Of those, the passing ones.
    pub passed: usize,
    /// Wrong answers (WA).
    pub wrong: usize,
    /// Failures without an output to explain (TLE, RTE, OLE, ...).
    pub crashed: usize,
    /// Wrong answers that are the engine's own answer under our readings: the expected
    /// output (a case file) is what differs.
    pub disputed: usize,
    /// True if the search stopped early (the caller's budget ran out): it then covers the
    /// readings tried so far.
    pub stopped_early: bool,
}

/// How many near-best readings are checked against the passing cases for a partial
/// diagnosis.
const CLOSEST_CHECKED: usize = 24;

/// Diagnoses a run on `threads` threads. `keep_going` is asked before each reading is
/// tried; once it says `false` the search ends with what it has (the caller's time budget).
pub fn diagnose(
    observed: &[Observed],
    threads: usize,
    keep_going: impl Fn() -> bool + Sync,
) -> Diagnosis {
    let wrong: Vec<&Observed> = observed
        .iter()
        .filter(|o| o.verdict == Verdict::WrongAnswer && !engine_agrees(o))
        .collect();
    let passing: Vec<&Observed> = observed.iter().filter(|o| o.passed).collect();
    let mut d = Diagnosis {
        status: Status::Unexplained,
        readings: Vec::new(),
        outputs: wrong.len() + passing.len(),
        passed: passing.len(),
        wrong: wrong.len(),
        crashed: observed
            .iter()
            .filter(|o| {
                !o.passed && !matches!(o.verdict, Verdict::WrongAnswer | Verdict::Presentation)
            })
            .count(),
        disputed: observed.iter().filter(|o| engine_agrees(o)).count(),
        stopped_early: false,
    };
    if observed.iter().all(|o| o.passed) {
        d.status = Status::Correct;
        return d;
    }
    let explainable: Vec<(&Observed, Answer)> = wrong
        .iter()
        .filter_map(|o| Answer::read(o.got).map(|a| (*o, a)))
        .collect();
    if explainable.is_empty() {
        return d;
    }
    let (scored, stopped) = score(&explainable, wrong.len(), threads, &keep_going);
    d.stopped_early = stopped;
    let breaks = |rules: Rules, limit: usize| {
        passing
            .iter()
            .filter(|o| {
                Answer::read(o.got)
                    .is_none_or(|a| Answer::within(o.puzzle, rules, &keep_going) != Some(a))
            })
            .take(limit)
            .count()
    };
    conclude(d, scored, breaks)
}

/// Every reading that reproduces at least one of the `explainable` wrong answers (of
/// `wrong` in all), in the order of [`readings`], tried on `threads` threads; and whether
/// `keep_going` stopped the search early.
fn score(
    explainable: &[(&Observed, Answer)],
    wrong: usize,
    threads: usize,
    keep_going: &(impl Fn() -> bool + Sync),
) -> (Vec<Explanation>, bool) {
    let all = readings();
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let share_of = |rules: &[Rules]| -> Vec<Explanation> {
        let mut found = Vec::new();
        for &rules in rules {
            if !keep_going() {
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                break;
            }
            let reproduces = explainable
                .iter()
                .filter(|(o, a)| Answer::within(o.puzzle, rules, keep_going) == Some(*a))
                .count();
            if reproduces > 0 {
                found.push(Explanation {
                    rules,
                    reproduces,
                    of: wrong,
                    breaks: 0,
                });
            }
        }
        found
    };
    // The readings are shared out in turn, so each thread gets a fair mix of the costly
    // ones; the results are put back in the readings' order.
    let threads = threads.clamp(1, all.len());
    let shares: Vec<Vec<Rules>> = (0..threads)
        .map(|t| all.iter().skip(t).step_by(threads).copied().collect())
        .collect();
    let mut scored: Vec<Explanation> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares
            .iter()
            .map(|share| scope.spawn(|| share_of(share)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let rank = |r: &Rules| all.iter().position(|x| x == r).unwrap_or(usize::MAX);
    scored.sort_by_key(|e| rank(&e.rules));
    (scored, stopped.into_inner())
}

/// The diagnosis from the scored readings: explained by the simplest readings that
/// reproduce every wrong answer and break no passing case (`breaks(rules, limit)` counts
/// the broken ones, up to `limit`), else partial with the closest, else unexplained.
fn conclude(
    mut d: Diagnosis,
    mut scored: Vec<Explanation>,
    breaks: impl Fn(Rules, usize) -> usize,
) -> Diagnosis {
    let mut full: Vec<Explanation> = scored
        .iter()
        .filter(|e| e.reproduces == d.wrong && breaks(e.rules, 1) == 0)
        .copied()
        .collect();
    if let Some(fewest) = full.iter().map(|e| changes(e.rules)).min() {
        full.retain(|e| changes(e.rules) == fewest);
        d.status = Status::Explained;
        d.readings = full;
        return d;
    }
    if scored.is_empty() {
        return d;
    }
    // Partial: the closest by failures reproduced less passing cases broken.
    scored.sort_by_key(|e| std::cmp::Reverse(e.reproduces));
    scored.truncate(CLOSEST_CHECKED);
    for e in &mut scored {
        e.breaks = breaks(e.rules, usize::MAX);
    }
    let closeness = |e: &Explanation| {
        let net = e.reproduces as i64 - e.breaks as i64;
        (net, std::cmp::Reverse(changes(e.rules)))
    };
    let best = scored.iter().map(closeness).max();
    d.status = Status::Partial;
    d.readings = scored
        .into_iter()
        .filter(|e| Some(closeness(e)) == best)
        .collect();
    d
}

/// True for a wrong answer that is the engine's own under our readings.
fn engine_agrees(o: &Observed) -> bool {
    o.verdict == Verdict::WrongAnswer && reproduces(o.puzzle, Rules::OURS, o.got)
}

/// What a group of failures has in common.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The answer gave the engine's own answer: the expected output is what differs.
    EngineAgrees,
    /// A reading reproduces each of them.
    Reading(Rules),
    /// The same verdict; for WA and PE the same expected output and the same output got
    /// (whitespace trimmed).
    Verdict {
        /// The verdict.
        verdict: Verdict,
        /// The expected output, for WA and PE.
        expected: Option<String>,
        /// The output got, for WA and PE.
        got: Option<String>,
    },
}

/// Failures with one cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The cause.
    pub cause: Cause,
    /// The failing cases, as indices into the observed list, in order.
    pub cases: Vec<usize>,
    /// The smallest of them (fewest cells, then fewest moves).
    pub smallest: usize,
}

/// The failures of `observed` grouped by cause: those the diagnosis's first reading
/// reproduces in one group, the rest by verdict and expected/got pair. Largest groups
/// first.
pub fn group(observed: &[Observed], diagnosis: &Diagnosis) -> Vec<Group> {
    let reading = diagnosis.readings.first().map(|e| e.rules);
    let mut groups: Vec<Group> = Vec::new();
    for (i, o) in observed.iter().enumerate() {
        if o.passed {
            continue;
        }
        let cause = match (reading, o.verdict) {
            _ if engine_agrees(o) => Cause::EngineAgrees,
            (Some(rules), Verdict::WrongAnswer)
                if Answer::read(o.got).is_some_and(|a| Answer::of(o.puzzle, rules) == Some(a)) =>
            {
                Cause::Reading(rules)
            }
            (_, v @ (Verdict::WrongAnswer | Verdict::Presentation)) => Cause::Verdict {
                verdict: v,
                expected: Some(o.expected.trim_end().to_string()),
                got: Some(String::from_utf8_lossy(o.got).trim_end().to_string()),
            },
            (_, v) => Cause::Verdict {
                verdict: v,
                expected: None,
                got: None,
            },
        };
        match groups.iter_mut().find(|g| g.cause == cause) {
            Some(g) => {
                if size(observed[i].puzzle) < size(observed[g.smallest].puzzle) {
                    g.smallest = i;
                }
                g.cases.push(i);
            }
            None => groups.push(Group {
                cause,
                cases: vec![i],
                smallest: i,
            }),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.cases.len()));
    groups
}

/// A puzzle's size for choosing the smallest case: cells, then moves.
pub fn size(p: &Puzzle) -> (usize, usize) {
    (p.map().cols() * p.map().rows(), p.moves().len())
}

/// True if the engine's answers on `puzzle` under `a` and `b` differ (leniently), both
/// being decided. The condition that keeps a shrunk case showing a reading's mistake.
pub fn readings_differ(puzzle: &Puzzle, a: Rules, b: Rules) -> bool {
    match (Answer::of(puzzle, a), Answer::of(puzzle, b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// True if `got` is, leniently, what the engine answers on `puzzle` under `rules`.
pub fn reproduces(puzzle: &Puzzle, rules: Rules, got: &[u8]) -> bool {
    Answer::read(got).is_some_and(|a| Answer::of(puzzle, rules) == Some(a))
}

/// The readings under which the engine gives `got` on this one case, fewest changes
/// first, up to `limit`: what the case is *consistent with*, not a diagnosis.
pub fn consistent_with(puzzle: &Puzzle, got: &[u8], limit: usize) -> Vec<Rules> {
    let Some(answer) = Answer::read(got) else {
        return Vec::new();
    };
    readings()
        .into_iter()
        .filter(|&r| Answer::of(puzzle, r) == Some(answer))
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
    Answer {
        /// The death line differs.
        death: bool,
        /// Got's score compared with the expected one.
        score: std::cmp::Ordering,
    },
}

/// The kind of difference between `expected` and `got`.
pub fn difference(expected: &str, got: &[u8]) -> Difference {
    match (Answer::read(expected.as_bytes()), Answer::read(got)) {
        (Some(e), Some(g)) => Difference::Answer {
            death: e.eaten != g.eaten,
            score: g.score.cmp(&e.score),
        },
        _ => Difference::Garbled,
    }
}

/// At most 40 characters of `text`, with `...` when cut.
fn short(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Plain words for a group's cause, such as `expected "2", got "0"`, or the reading's words
/// and flags.
pub fn describe(cause: &Cause) -> String {
    match cause {
        Cause::EngineAgrees => "the engine's answer under our readings: the expected output \
                                file may be wrong"
            .to_string(),
        Cause::Reading(rules) => format!("{} ({})", variant::words(*rules), variant::flags(*rules)),
        Cause::Verdict {
            expected: Some(e),
            got: Some(g),
            ..
        } => format!("expected {:?}, got {:?}", short(e), short(g)),
        Cause::Verdict { verdict, .. } => match verdict {
            Verdict::TimeLimit => "ran past the time limit",
            Verdict::RuntimeError => "exited with an error or a signal",
            Verdict::OutputLimit => "printed more than the output limit",
            Verdict::MemoryLimit => "used more than the memory limit",
            _ => "a wrong answer",
        }
        .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::variant::find;

    const REAPER: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";

    fn case<'a>(puzzle: &'a Puzzle, expected: &'a str, got: &'a str) -> Observed<'a> {
        let verdict = crate::judge::verdict::compare(expected.as_bytes(), got.as_bytes(), false);
        Observed {
            puzzle,
            expected,
            got: got.as_bytes(),
            verdict,
            passed: verdict.passed(false),
        }
    }

    #[test]
    fn answers_are_read_leniently_and_only_in_their_shape() {
        assert_eq!(
            Answer::read(b"aHHHH!\n0\n"),
            Some(Answer {
                eaten: true,
                score: 0
            })
        );
        assert_eq!(
            Answer::read(b" 12 "),
            Some(Answer {
                eaten: false,
                score: 12
            })
        );
        assert_eq!(Answer::read(b"012\n"), None);
        assert_eq!(Answer::read(b"aHHHH!\n"), None);
        assert_eq!(Answer::read(b"oops"), None);
    }

    #[test]
    fn the_search_covers_every_switch_combination_with_each_entry() {
        let all = readings();
        let beyond = variant::beyond_switches().count();
        assert_eq!(all.len(), 16 * (beyond + 1) - 1);
        assert!(!all.contains(&Rules::OURS));
        assert!(all.windows(2).all(|w| changes(w[0]) <= changes(w[1])));
    }

    #[test]
    fn a_correct_run_is_correct() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let d = diagnose(&[case(&p, "aHHHH!\n0\n", "aHHHH!\n0\n")], 1, || true);
        assert_eq!(d.status, Status::Correct);
    }

    #[test]
    fn stopping_when_the_moves_run_out_is_named() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let d = diagnose(&[case(&p, "aHHHH!\n0\n", "0\n")], 1, || true);
        assert_eq!(d.status, Status::Explained);
        let flags: Vec<String> = d.readings.iter().map(|e| variant::flags(e.rules)).collect();
        assert!(flags.contains(&"--exhaust stop".to_string()), "{flags:?}");
        assert!(d.readings.iter().all(|e| changes(e.rules) == 1));
    }

    #[test]
    fn a_passing_case_rules_a_reading_out() {
        // The reaper fails as if the game stopped; a case where stopping would change the
        // answer but the answer got it right rules that reading out.
        let reaper = Puzzle::parse(REAPER).expect("valid");
        let other = Puzzle::parse("5 5\n#####\n#O  #\n#   #\n#  H#\n#####\nW\n").expect("valid");
        let d = diagnose(
            &[
                case(&reaper, "aHHHH!\n0\n", "0\n"),
                case(&other, "aHHHH!\n0\n", "aHHHH!\n0\n"),
            ],
            2,
            || true,
        );
        assert_ne!(d.status, Status::Explained);
        assert!(
            d.readings.iter().all(
                |e| !find("exhaust-stop").is_some_and(|v| v.holds_in(e.rules)) || e.breaks > 0
            )
        );
    }

    #[test]
    fn an_answer_no_reading_gives_is_unexplained() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let d = diagnose(&[case(&p, "aHHHH!\n0\n", "42\n")], 1, || true);
        assert_eq!(d.status, Status::Unexplained);
        assert!(d.readings.is_empty());
        let d = diagnose(&[case(&p, "aHHHH!\n0\n", "banana\n")], 1, || true);
        assert_eq!(d.status, Status::Unexplained);
    }

    #[test]
    fn a_spent_budget_is_said() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let d = diagnose(&[case(&p, "aHHHH!\n0\n", "0\n")], 1, || false);
        assert!(d.stopped_early);
    }

    #[test]
    fn failures_group_by_reading_then_by_verdict_and_output() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let small = Puzzle::parse("5 4\n#####\n#O  #\n#  H#\n#####\nWW\n").expect("valid");
        let observed = [
            case(&p, "aHHHH!\n0\n", "0\n"),
            case(&small, "aHHHH!\n0\n", "0\n"),
            case(&p, "aHHHH!\n0\n", "7\n"),
            case(&p, "aHHHH!\n0\n", "7\n"),
            case(&p, "aHHHH!\n0\n", "aHHHH!\n0\n"),
        ];
        let stop = find("exhaust-stop")
            .map(|v| v.apply(Rules::OURS))
            .expect("entry");
        let d = Diagnosis {
            status: Status::Partial,
            readings: vec![Explanation {
                rules: stop,
                reproduces: 2,
                of: 4,
                breaks: 0,
            }],
            outputs: 5,
            passed: 1,
            wrong: 4,
            crashed: 0,
            disputed: 0,
            stopped_early: false,
        };
        let groups = group(&observed, &d);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].cause, Cause::Reading(stop));
        assert_eq!(groups[0].cases, [0, 1]);
        assert_eq!(groups[0].smallest, 1);
        assert_eq!(groups[1].cases, [2, 3]);
        assert_eq!(
            describe(&groups[1].cause),
            "expected \"aHHHH!\\n0\", got \"7\""
        );
    }

    #[test]
    fn a_huge_output_is_named_in_short() {
        let huge = "8\n".repeat(100_000);
        let cause = Cause::Verdict {
            verdict: Verdict::WrongAnswer,
            expected: Some("2".to_string()),
            got: Some(huge),
        };
        assert!(describe(&cause).len() < 100, "{}", describe(&cause));
    }

    #[test]
    fn the_kind_of_difference_is_death_and_score_direction() {
        assert_eq!(
            difference("aHHHH!\n0\n", b"2\n"),
            Difference::Answer {
                death: true,
                score: std::cmp::Ordering::Greater
            }
        );
        assert_eq!(difference("2\n", b"x"), Difference::Garbled);
    }
}
