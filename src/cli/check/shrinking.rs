//! The case each group of failures shows: its smallest failure, shrunk within a budget of
//! smaller puzzles looked at (a count: the same case on every machine) so that it still
//! shows the group's cause.
//!
//! A group a hypothesis heads shrinks with the engine alone (the hypothesis and our
//! readings must still disagree), then the answer confirms the result; so a slow answer
//! shrinks as fast as a fast one. Other groups shrink with the answer, keeping the verdict,
//! the kind of difference and the suspect rule event (checked by the engine first, so the
//! answer runs only on candidates that still go through it). A case that ran out of time
//! is shown as it ran: each smaller one would cost the whole `--timeout`, and whether it
//! runs out again depends on the machine's load.

use beast_engine::beast::events::{self, RuleEvent};
use beast_engine::beast::{Puzzle, Rules};
use beast_engine::judge::cases::Case;
use beast_engine::judge::diagnose::{self, Cause, Group, Hypothesis};
use beast_engine::judge::report::{CaseReport, Shown, Shrink, Size};
use beast_engine::judge::separate;
use beast_engine::judge::shrink;
use beast_engine::judge::termination::Termination;
use beast_engine::judge::verdict::Verdict;

use super::case::Judge;
use super::runner::Execute;

/// Predicate asks when shrinking with the engine alone: it is cheap.
const ENGINE_TRIES: usize = 100_000;

/// What the answer did on a puzzle.
struct Seen {
    puzzle: Puzzle,
    expected: String,
    verdict: Verdict,
    got: String,
    detail: Option<Termination>,
}

/// Why a group's case is shown as it ran, with no smaller puzzle tried.
#[derive(Clone, Copy)]
enum AsRan {
    /// A flaky answer's case shows what it printed once; shrinking would chase chance.
    Flaky,
    /// Each smaller case would cost the whole `--timeout`.
    TimedOut,
    /// A puzzle too long to be one argument never reached the answer: every smaller puzzle
    /// over the limit fails the same way, and none under it says anything about the answer.
    NotGiven,
    /// The answer printed the engine's own answer and only the case file expects another:
    /// on a smaller puzzle the engine's answer is the expected output, so none can fail the
    /// same way, and each try would only run the answer for nothing.
    EngineAgrees,
}

impl AsRan {
    fn of(group: &Group, report: &CaseReport) -> Option<AsRan> {
        if matches!(group.cause, Cause::Flaky { .. }) {
            Some(AsRan::Flaky)
        } else if matches!(group.cause, Cause::EngineAgrees) {
            Some(AsRan::EngineAgrees)
        } else if report.verdict == Verdict::TimeLimit {
            Some(AsRan::TimedOut)
        } else if matches!(report.detail, Some(Termination::ArgumentTooLong)) {
            Some(AsRan::NotGiven)
        } else {
            None
        }
    }

    fn why(self) -> &'static str {
        match self {
            AsRan::Flaky => "a flaky answer's case is shown as it ran, not shrunk",
            AsRan::TimedOut => {
                "a case that ran out of time is shown as it ran, not shrunk: each smaller one \
                 would cost the whole --timeout"
            }
            AsRan::NotGiven => {
                "a case too long for one argument is shown as it was, not shrunk: the answer \
                 never saw it (use --input file or stdin)"
            }
            AsRan::EngineAgrees => {
                "the answer printed the engine's own answer: only the case file expects \
                 another, so no smaller puzzle can fail the same way"
            }
        }
    }
}

/// The case `group` shows, shrunk with `judge` when there is one (a merged run has none),
/// looking at most at `tries` smaller puzzles the answer runs on.
pub fn shown<E: Execute>(
    judge: Option<&Judge<E>>,
    group: &Group,
    ran: &[(Case, CaseReport)],
    tries: usize,
) -> anyhow::Result<Shown> {
    let (case, report) = &ran[group.smallest];
    let original = Seen {
        puzzle: case.puzzle.clone(),
        expected: report.expected.clone(),
        verdict: report.verdict,
        got: report.got.clone(),
        detail: report.detail.clone(),
    };
    let as_ran = AsRan::of(group, report);
    let (seen, stopped) = match (judge, as_ran) {
        (None, _) | (_, Some(_)) => (None, None),
        (Some(judge), None) => match &group.cause {
            Cause::Hypothesis { head, .. }
                if group.confirmation.as_ref().is_none_or(|c| c.stands()) =>
            {
                by_engine(judge, &case.puzzle, head.hypothesis, tries)?
            }
            cause => by_answer(
                judge,
                &original,
                cause.suspect().and_then(|s| s.clue.event()),
                tries,
            )?,
        },
    };
    // A shrink that found nothing smaller shows the case as it is.
    let seen = seen.filter(|s| s.puzzle != case.puzzle);
    let shrunk = seen.as_ref().map(|s| Shrink {
        from: Size::of(&case.puzzle),
        to: Size::of(&s.puzzle),
    });
    let seen = seen.unwrap_or(original);
    let unshrunk = (!small(&seen.puzzle)).then(|| match (judge, as_ran) {
        (None, _) => NOT_SHRUNK.to_string(),
        (Some(_), Some(kept)) => kept.why().to_string(),
        (Some(_), None) => match stopped {
            Some(looked) => format!(
                "shrinking stopped at its budget ({looked} smaller puzzles looked at; \
                 --shrink-tries)"
            ),
            None => "no smaller puzzle tried fails the same way (the same verdict, the same \
                     kind of difference and, for a located group, the same rule event)"
                .to_string(),
        },
    });
    let puzzle = match shrunk {
        Some(_) => seen.puzzle.to_string(),
        None => report.puzzle.clone(),
    };
    Ok(Shown {
        name: case.name.clone(),
        puzzle,
        expected: seen.expected,
        got: seen.got,
        detail: seen.detail,
        shrunk,
        stopped_early: stopped,
        reproduce: report.reproduce.clone(),
        located: group
            .cause
            .suspect()
            .and_then(|s| s.clue.event())
            .and_then(|e| first_happens(&seen.puzzle, e)),
        unshrunk,
    })
}

/// Why a case was not shrunk when no answer could run again; the caller says better
/// where it knows (`--shrink`).
pub const NOT_SHRUNK: &str = "not shrunk (a merged run, or an interrupted check)";

/// True if `p` is at most 8x8 with at most 10 moves: what a shown case should be.
fn small(p: &Puzzle) -> bool {
    p.map().cols() <= 8 && p.map().rows() <= 8 && p.moves().len() <= 10
}

/// Where `puzzle` first goes through `event`, in words: `turn 5 (move R)`.
fn first_happens(puzzle: &Puzzle, event: RuleEvent) -> Option<String> {
    let turn = events::record(puzzle, || true).ok()?.first_turn(event)?;
    let moves = puzzle.moves();
    Some(match turn {
        0 => "the start, before any move".to_string(),
        t if t as usize <= moves.len() => {
            format!("turn {t} (move {})", moves[t as usize - 1].letter())
        }
        t => format!(
            "turn {t} (waiting, after the {} moves ran out)",
            moves.len()
        ),
    })
}

/// Runs the answer on `puzzle`; `None` if the engine cannot judge it.
fn see<E: Execute>(judge: &Judge<E>, puzzle: &Puzzle) -> anyhow::Result<Option<Seen>> {
    let Some(expected) = separate::answer(puzzle, Rules::OURS, &mut || true) else {
        return Ok(None);
    };
    let judged = judge.judged(puzzle, &expected)?;
    Ok(Some(Seen {
        puzzle: puzzle.clone(),
        expected,
        verdict: judged.verdict,
        got: String::from_utf8_lossy(&judged.run.stdout).into_owned(),
        detail: judged.detail,
    }))
}

/// Shrinks with the engine alone, then confirms with the answer; if the answer does not
/// confirm, shrinks again with the answer in the loop (at most `tries` puzzles). Returns
/// the smallest confirmed case (`None`: only the original) and, if the budget ran out,
/// how many puzzles it allowed.
fn by_engine<E: Execute>(
    judge: &Judge<E>,
    puzzle: &Puzzle,
    hypothesis: Hypothesis,
    tries: usize,
) -> anyhow::Result<(Option<Seen>, Option<usize>)> {
    let keep_going = || judge.runner.interrupted().is_none();
    let differs = |p: &Puzzle| diagnose::hypothesis_differs(p, hypothesis);
    let small = shrink::shrink_within(puzzle, ENGINE_TRIES, keep_going, differs);
    let confirms = |seen: &Seen| {
        seen.verdict == Verdict::WrongAnswer
            && diagnose::predicted(&seen.puzzle, hypothesis, seen.got.as_bytes())
    };
    if let Some(seen) = see(judge, &small.puzzle)?.filter(confirms) {
        return Ok((Some(seen), small.stopped.then_some(ENGINE_TRIES)));
    }
    // The answer disagrees on the engine's smallest case: shrink with it in the loop.
    with_answer(judge, puzzle, tries, differs, confirms)
}

/// Shrinks with the answer in the loop, keeping the verdict, for a wrong answer the kind
/// of difference, and the suspect rule event if there is one.
fn by_answer<E: Execute>(
    judge: &Judge<E>,
    original: &Seen,
    suspect: Option<RuleEvent>,
    tries: usize,
) -> anyhow::Result<(Option<Seen>, Option<usize>)> {
    let kind = diagnose::difference(&original.expected, original.got.as_bytes());
    let same = |seen: &Seen| {
        seen.verdict == original.verdict
            && (seen.verdict != Verdict::WrongAnswer
                || diagnose::difference(&seen.expected, seen.got.as_bytes()) == kind)
    };
    let goes_through =
        |p: &Puzzle| suspect.is_none_or(|e| events::record(p, || true).is_ok_and(|x| x.has(e)));
    with_answer(judge, &original.puzzle, tries, goes_through, same)
}

/// Shrinks `puzzle` running the answer on each candidate that passes `worth` (a cheap
/// engine check), keeping those on which what it does passes `keeps`, at most `tries` of
/// them. Returns the smallest kept case (`None`: only the original) and, if the budget ran
/// out, `tries`.
fn with_answer<E: Execute>(
    judge: &Judge<E>,
    puzzle: &Puzzle,
    tries: usize,
    worth: impl Fn(&Puzzle) -> bool,
    keeps: impl Fn(&Seen) -> bool,
) -> anyhow::Result<(Option<Seen>, Option<usize>)> {
    let mut error = None;
    let mut best: Option<Seen> = None;
    let keep_going = || judge.runner.interrupted().is_none();
    let s = shrink::shrink_within(puzzle, tries, keep_going, |p| {
        if error.is_some() || !worth(p) {
            return false;
        }
        match see(judge, p) {
            Ok(Some(seen)) if keeps(&seen) => {
                best = Some(seen);
                true
            }
            Ok(_) => false,
            Err(e) => {
                error = Some(e);
                false
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok((
        best.filter(|b| b.puzzle == s.puzzle),
        s.stopped.then_some(tries),
    ))
}
