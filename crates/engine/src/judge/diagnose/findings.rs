//! What the diagnosis takes and gives: each case as [`Observed`], and the [`Diagnosis`]: its
//! [`Status`], the earned [`Explanation`]s and the failures in [`Group`]s, one [`Cause`] each.

use crate::beast::Puzzle;
use crate::judge::diagnose::hypothesis::Hypothesis;
use crate::judge::diagnose::localise::Suspect;
use crate::judge::robustness::TextForms;
use crate::judge::verdict::Verdict;

/// What the answer did on one case, as the diagnosis sees it.
#[derive(Clone, Copy, Debug)]
pub struct Observed<'a> {
    /// The case's name.
    pub name: &'a str,
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// How the text the answer was given is laid out, taken from it when the case was made
    /// (a passing case's text is dropped before the diagnosis).
    pub layout: TextForms,
    /// The expected output under our readings.
    pub expected: &'a str,
    /// What the answer printed.
    pub got: &'a [u8],
    /// The verdict.
    pub verdict: Verdict,
    /// True if the case passed.
    pub passed: bool,
}

/// How far a diagnosis got; in JSON its [`name`](Status::name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every case passed.
    Correct,
    /// A hypothesis reproduces every wrong answer, breaks no passing case, and the run
    /// holds enough evidence for it.
    Explained,
    /// As explained, but on weak evidence (fewer than [`STRONG`] wrong answers).
    Consistent,
    /// Earned hypotheses reproduce some wrong answers, none all.
    Partial,
    /// No hypothesis earns a label.
    Unexplained,
}

impl Status {
    /// The name used in JSON: `correct`, `explained`, `consistent`, `partial`,
    /// `unexplained`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Explained => "explained",
            Status::Consistent => "consistent",
            Status::Partial => "partial",
            Status::Unexplained => "unexplained",
        }
    }
}

/// How many wrong answers a hypothesis must reproduce, beyond what simpler ones do, to be
/// called explained rather than consistent.
pub const STRONG: usize = 3;

/// A hypothesis and how well it explains the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The hypothesis.
    pub hypothesis: Hypothesis,
    /// How many wrong answers it reproduces.
    pub reproduces: usize,
    /// Of how many wrong answers.
    pub of: usize,
    /// How many passing cases it breaks (0 for every label the diagnosis gives).
    pub breaks: usize,
    /// How many of the wrong answers it reproduces no simpler hypothesis does.
    pub evidence: usize,
}

/// The diagnosis of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    /// Where it got.
    pub status: Status,
    /// For explained and consistent: the hypothesis and those the run cannot tell apart
    /// from it; for partial: the head of each group with one; otherwise none.
    pub readings: Vec<Explanation>,
    /// The failures grouped, biggest first.
    pub groups: Vec<Group>,
    /// Cases that gave an output the hypotheses were tried on (WA, and the passing ones).
    pub outputs: usize,
    /// Of those, the passing ones.
    pub passed: usize,
    /// Passing cases that differ only in whitespace (PE).
    pub presentation: usize,
    /// Wrong answers (WA).
    pub wrong: usize,
    /// Failures without an output to explain (TLE, RTE, OLE, ...).
    pub crashed: usize,
    /// Wrong answers that are the engine's own answer under our readings: the expected
    /// output (a case file) is what differs.
    pub disputed: usize,
    /// True if the search stopped early (the caller's budget ran out): it then covers the
    /// hypotheses tried so far.
    pub stopped_early: bool,
}

/// What a group of failures has in common.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The answer gave the engine's own answer: the expected output is what differs.
    EngineAgrees,
    /// An earned hypothesis reproduces each of them and breaks no passing case.
    Hypothesis {
        /// The hypothesis that heads the group.
        head: Explanation,
        /// Others that reproduce the same cases and break none, as simple: the run cannot
        /// tell them apart.
        also: Vec<Hypothesis>,
    },
    /// No earned hypothesis: a mistake of the answer's own, located by the rule event
    /// that best separates the group from the passing cases (when one does).
    Own {
        /// The event.
        suspect: Option<Suspect>,
    },
    /// Only whitespace differs (PE): passed unless `--strict`.
    Format {
        /// What differs, in words.
        how: String,
    },
    /// The answer gave different outputs on the same case when run again: nondeterministic.
    Flaky {
        /// The case shown, by name.
        name: String,
        /// What it gave on each run, in order.
        outputs: Vec<String>,
        /// How each run was judged, in order.
        verdicts: Vec<Verdict>,
    },
    /// The same verdict; for a WA that is not an answer, the output got.
    Verdict {
        /// The verdict.
        verdict: Verdict,
        /// The output got, for a WA that is not an answer at all.
        got: Option<String>,
        /// The rule event that best separates the group from the passing cases.
        suspect: Option<Suspect>,
    },
}

impl Cause {
    /// The suspect event, for a group of the answer's own.
    pub fn suspect(&self) -> Option<Suspect> {
        match self {
            Cause::Own { suspect } | Cause::Verdict { suspect, .. } => *suspect,
            _ => None,
        }
    }
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
    /// How its label fared on designed cases (`judge::design`), once tried.
    pub confirmation: Option<crate::judge::confirmation::Confirmation>,
}

impl Group {
    pub(super) fn of(cause: Cause, cases: Vec<usize>, observed: &[Observed]) -> Group {
        let smallest = cases
            .iter()
            .copied()
            .min_by_key(|&i| size(observed[i].puzzle))
            .unwrap_or(0);
        Group {
            cause,
            cases,
            smallest,
            confirmation: None,
        }
    }
}

/// A puzzle's size for choosing the smallest case: cells, then moves.
pub fn size(p: &Puzzle) -> (usize, usize) {
    (p.map().cols() * p.map().rows(), p.moves().len())
}
