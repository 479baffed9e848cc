//! The diagnosis of a whole run: which hypotheses explain the answer's outputs, and the
//! failures grouped by cause, one group a mistake.
//!
//! A **hypothesis** predicts the answer's output on every puzzle: a reading of the rules
//! (the 16 combinations of the four switches, each alone and with one more catalogue entry,
//! [`crate::beast::variant`]) with the output reshaped or not ([`Shape`]: one point a crush,
//! the score doubled or off by 2, the death line always missing or always there), or a
//! constant output. Outputs are compared leniently, as PE is.
//!
//! A label must be earned: a hypothesis heads a group only if it reproduces every case of
//! the group and **breaks no passing case** of the run. One case is weak evidence (an answer
//! prints one of a handful of short texts, so some hypothesis gives a single output by
//! chance): a hypothesis is *explained* only with [`STRONG`] wrong answers or more that no
//! simpler hypothesis reproduces; with fewer it is only *consistent*.
//!
//! Failures no earned hypothesis reproduces are the answer's own mistake. They are grouped
//! by the rule event ([`crate::beast::events`]) that best separates them from the passing
//! cases (the Ochiai score of spectrum-based fault localisation), which names the rule.

//!
//! The rooms: [`hypothesis`] (the hypothesis model), [`localise`] (clues and the suspect),
//! [`findings`] (what goes in and comes out), [`predicates`] (what shrinking keeps) and
//! [`wording`]; this file holds the search, in named steps. [`crate::judge::pipeline`] is the whole
//! diagnosis in order, as typed stages: this search, then a nondeterministic answer set
//! apart ([`crate::judge::flaky`]), then the labels confirmed on designed cases
//! ([`crate::judge::design`], [`crate::judge::confirmation`]), then the words.

pub mod findings;
pub mod hypothesis;
pub mod localise;
pub mod predicates;
pub mod wording;

pub use findings::{Cause, Diagnosis, Explanation, Group, Observed, STRONG, Status, size};
pub use hypothesis::{Hypothesis, Printed, SHAPES, Shape, changes, readings};
pub use localise::{Clue, InputTrait, Suspect, TRAITS};
pub use predicates::{
    Difference, consistent_with, difference, hypothesis_differs, predicted, readings_differ,
    reproduces,
};
pub use wording::{describe, format_difference};

use crate::beast::{Puzzle, Rules};
use crate::judge::robustness::TextForms;
use crate::judge::verdict::Verdict;
use localise::{Spectrum, own_groups};
/// The fewest failures a hypothesis must reproduce to head a group beside others: below
/// that a match is as likely chance as cause.
const PART: usize = 3;

/// A hypothesis with the failures it reproduces (bits over the explainable wrong answers).
#[derive(Clone, Debug)]
struct Candidate {
    hypothesis: Hypothesis,
    covers: Vec<bool>,
    count: usize,
    breaks: usize,
}

/// The cases of a run sorted for the diagnosis, as indices into the observed list.
struct Sorted {
    /// The failures the judge could set up (IE says nothing of the answer).
    failing: Vec<usize>,
    /// The wrong answers that are not the engine's own.
    wrong: Vec<usize>,
    /// The passing cases.
    passing: Vec<usize>,
}

/// The earned hypotheses: their groups, and which explainable wrong answers none covers.
struct Earned {
    /// The heads, in the order they were earned.
    heads: Vec<Explanation>,
    /// One group a head.
    groups: Vec<Group>,
    /// For each explainable wrong answer, true if no head reproduces it.
    left: Vec<bool>,
}

/// Diagnoses a run on `threads` threads. `keep_going` is asked before each reading is
/// tried; once it says `false` the search ends with what it has (the caller's budget).
pub fn diagnose(
    observed: &[Observed],
    threads: usize,
    keep_going: impl Fn() -> bool + Sync,
) -> Diagnosis {
    let sorted = sort_cases(observed);
    let mut d = counted(observed, &sorted);
    let mut groups: Vec<Group> = engine_agrees_group(observed, &sorted.failing)
        .into_iter()
        .collect();
    let explainable: Vec<(usize, Printed)> = sorted
        .wrong
        .iter()
        .filter_map(|&i| Printed::read(observed[i].got).map(|a| (i, a)))
        .collect();
    let (candidates, stopped) = if explainable.is_empty() {
        (Vec::new(), false)
    } else {
        let passing = passing_answers(observed, &sorted.passing);
        search(observed, &explainable, &passing, threads, &keep_going)
    };
    d.stopped_early = stopped;
    let earned = earn(&candidates, &explainable, sorted.wrong.len(), observed);
    groups.extend(earned.groups);
    let all_covered = explainable.len() == sorted.wrong.len() && earned.left.iter().all(|&l| !l);
    label(&mut d, earned.heads, &groups, all_covered);
    // The answer's own mistakes, located by the rule events.
    let own: Vec<usize> = (0..explainable.len())
        .filter(|&k| earned.left[k])
        .map(|k| explainable[k].0)
        .collect();
    locate_failures(&mut d, &mut groups, observed, &sorted, &own, &keep_going);
    groups.extend(format_group(observed));
    if observed.iter().all(|o| o.passed || !o.verdict.judged()) {
        d.status = Status::Correct;
        d.readings.clear();
    }
    // Biggest first; a format group (passed) after the failures.
    groups.sort_by_key(|g| {
        (
            matches!(g.cause, Cause::Format { .. }),
            std::cmp::Reverse(g.cases.len()),
        )
    });
    d.groups = groups;
    d
}

/// The failing, wrong and passing cases of `observed`.
fn sort_cases(observed: &[Observed]) -> Sorted {
    // A case the judge could not set up (IE) says nothing of the answer: it is left out.
    let failing: Vec<usize> = (0..observed.len())
        .filter(|&i| !observed[i].passed && observed[i].verdict.judged())
        .collect();
    let wrong: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|&i| observed[i].verdict == Verdict::WrongAnswer && !engine_agrees(&observed[i]))
        .collect();
    let passing: Vec<usize> = (0..observed.len())
        .filter(|&i| observed[i].passed)
        .collect();
    Sorted {
        failing,
        wrong,
        passing,
    }
}

/// True for a verdict without an output to explain (TLE, RTE, OLE, ...).
fn crashed(v: Verdict) -> bool {
    !matches!(v, Verdict::WrongAnswer | Verdict::Presentation)
}

/// The diagnosis's counts, before any hypothesis is tried: unexplained, no group.
fn counted(observed: &[Observed], sorted: &Sorted) -> Diagnosis {
    Diagnosis {
        status: Status::Unexplained,
        readings: Vec::new(),
        groups: Vec::new(),
        outputs: sorted.wrong.len() + sorted.passing.len(),
        passed: sorted.passing.len(),
        presentation: observed
            .iter()
            .filter(|o| o.verdict == Verdict::Presentation)
            .count(),
        wrong: sorted.wrong.len(),
        crashed: sorted
            .failing
            .iter()
            .filter(|&&i| crashed(observed[i].verdict))
            .count(),
        disputed: observed.iter().filter(|o| engine_agrees(o)).count(),
        stopped_early: false,
    }
}

/// The wrong answers that are the engine's own, as one group, if there are any.
fn engine_agrees_group(observed: &[Observed], failing: &[usize]) -> Option<Group> {
    let agreed: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|&i| engine_agrees(&observed[i]))
        .collect();
    (!agreed.is_empty()).then(|| Group::of(Cause::EngineAgrees, agreed, observed))
}

/// The passing cases with the answer each printed (read leniently), smallest first.
fn passing_answers(observed: &[Observed], passing: &[usize]) -> Vec<(usize, Option<Printed>)> {
    let mut answers: Vec<(usize, Option<Printed>)> = passing
        .iter()
        .map(|&i| (i, Printed::read(observed[i].got)))
        .collect();
    answers.sort_by_key(|&(i, _)| size(observed[i].puzzle));
    answers
}

/// Earned hypotheses, greedily: the one reproducing the most failures left, simplest first
/// among equals, each heading a group of the failures it takes.
fn earn(
    candidates: &[Candidate],
    explainable: &[(usize, Printed)],
    wrong: usize,
    observed: &[Observed],
) -> Earned {
    let mut left: Vec<bool> = vec![true; explainable.len()];
    let mut heads: Vec<Explanation> = Vec::new();
    let mut groups = Vec::new();
    loop {
        let remaining = left.iter().filter(|&&l| l).count();
        let overlap = |c: &Candidate| {
            c.covers
                .iter()
                .zip(&left)
                .filter(|&(&x, &l)| x && l)
                .count()
        };
        let best = candidates
            .iter()
            .filter(|c| c.breaks == 0)
            .map(|c| (overlap(c), c))
            .filter(|&(n, _)| n > 0)
            .min_by_key(|&(n, c)| (std::cmp::Reverse(n), c.hypothesis.cost()));
        let Some((n, best)) = best else { break };
        // Beside other causes a hypothesis needs a few failures of its own; alone it may
        // explain everything on weak evidence (and says so).
        let alone = heads.is_empty() && n == remaining && remaining == wrong;
        if !alone && n < PART {
            break;
        }
        let cases: Vec<usize> = (0..explainable.len())
            .filter(|&k| left[k] && best.covers[k])
            .collect();
        let cause = head_cause(candidates, best, &cases, wrong);
        for &k in &cases {
            left[k] = false;
        }
        if let Cause::Hypothesis { head, .. } = &cause {
            heads.push(*head);
        }
        let indices = cases.iter().map(|&k| explainable[k].0).collect();
        groups.push(Group::of(cause, indices, observed));
    }
    Earned {
        heads,
        groups,
        left,
    }
}

/// The cause of the group `best` heads over the explainable wrong answers `cases`: its
/// evidence (those no simpler hypothesis reproduces), and the hypotheses as simple that the
/// run cannot tell from it.
fn head_cause(candidates: &[Candidate], best: &Candidate, cases: &[usize], wrong: usize) -> Cause {
    let simpler_covers = |k: usize| {
        candidates
            .iter()
            .any(|c| c.breaks == 0 && c.covers[k] && c.hypothesis.cost() < best.hypothesis.cost())
    };
    let evidence = cases.iter().filter(|&&k| !simpler_covers(k)).count();
    let head = Explanation {
        hypothesis: best.hypothesis,
        reproduces: best.count,
        of: wrong,
        breaks: 0,
        evidence,
    };
    let also: Vec<Hypothesis> = candidates
        .iter()
        .filter(|c| {
            c.breaks == 0
                && c.hypothesis != best.hypothesis
                && c.hypothesis.cost() == best.hypothesis.cost()
                && cases.iter().all(|&k| c.covers[k])
        })
        .map(|c| c.hypothesis)
        .take(4)
        .collect();
    Cause::Hypothesis { head, also }
}

/// The status the earned `heads` give, and the readings the diagnosis names: for explained
/// and consistent the first head and those the run cannot tell from it, otherwise every head.
fn label(d: &mut Diagnosis, heads: Vec<Explanation>, groups: &[Group], all_covered: bool) {
    d.status = match heads.first() {
        Some(h) if all_covered => {
            if h.evidence >= STRONG {
                Status::Explained
            } else {
                Status::Consistent
            }
        }
        Some(_) => Status::Partial,
        None => Status::Unexplained,
    };
    if !matches!(d.status, Status::Explained | Status::Consistent) {
        d.readings = heads;
        return;
    }
    let first = groups.iter().find_map(|g| match &g.cause {
        Cause::Hypothesis { head, also } => Some((head, also)),
        _ => None,
    });
    d.readings = match first {
        Some((head, also)) => std::iter::once(*head)
            .chain(also.iter().map(|&h| Explanation {
                hypothesis: h,
                ..*head
            }))
            .collect(),
        None => heads,
    };
}

/// The failures no earned hypothesis explains, grouped and located by the rule events: the
/// answer's `own` mistakes, the outputs that are no answer, and one group a crash verdict.
fn locate_failures(
    d: &mut Diagnosis,
    groups: &mut Vec<Group>,
    observed: &[Observed],
    sorted: &Sorted,
    own: &[usize],
    keep_going: &impl Fn() -> bool,
) {
    let garbled: Vec<usize> = sorted
        .wrong
        .iter()
        .copied()
        .filter(|&i| Printed::read(observed[i].got).is_none())
        .collect();
    let crashes: Vec<usize> = sorted
        .failing
        .iter()
        .copied()
        .filter(|&i| crashed(observed[i].verdict))
        .collect();
    let needs_events = !own.is_empty() || !garbled.is_empty() || !crashes.is_empty();
    let spectrum = needs_events.then(|| {
        let cases: Vec<(&Puzzle, TextForms)> =
            observed.iter().map(|o| (o.puzzle, o.layout)).collect();
        Spectrum::of(&cases, &sorted.passing, keep_going)
    });
    if !own.is_empty() {
        for (cases, suspect) in own_groups(own, spectrum.as_ref()) {
            groups.push(located_group(
                Cause::Own { suspect },
                cases,
                observed,
                spectrum.as_ref(),
            ));
        }
        if let Some(spectrum) = &spectrum {
            absorb_chance_matches(groups, d, spectrum, observed);
        }
    }
    if !garbled.is_empty() {
        groups.push(garbled_group(observed, garbled, spectrum.as_ref()));
    }
    groups.extend(crash_groups(observed, &crashes, spectrum.as_ref()));
}

/// A group whose shown case goes through the clue its cause names: the smallest of its
/// cases that do (a closest clue fits only some of them), else the smallest of all.
fn located_group(
    cause: Cause,
    cases: Vec<usize>,
    observed: &[Observed],
    spectrum: Option<&Spectrum>,
) -> Group {
    let mut group = Group::of(cause, cases, observed);
    if let (Some(spectrum), Some(suspect)) = (spectrum, group.cause.suspect())
        && let Some(i) = group
            .cases
            .iter()
            .copied()
            .filter(|&i| spectrum.has(i, suspect.clue))
            .min_by_key(|&i| size(observed[i].puzzle))
    {
        group.smallest = i;
    }
    group
}

/// The wrong answers that are not an answer at all, with the output when they all gave the
/// same.
fn garbled_group(observed: &[Observed], garbled: Vec<usize>, spectrum: Option<&Spectrum>) -> Group {
    let suspect = spectrum.and_then(|s| s.best(&garbled));
    let got = String::from_utf8_lossy(observed[garbled[0]].got)
        .trim_end()
        .to_string();
    let same = garbled
        .iter()
        .all(|&i| String::from_utf8_lossy(observed[i].got).trim_end() == got);
    located_group(
        Cause::Verdict {
            verdict: Verdict::WrongAnswer,
            got: same.then_some(got),
            suspect,
        },
        garbled,
        observed,
        spectrum,
    )
}

/// The failures without an output to explain, one group a verdict, in the verdicts' order.
fn crash_groups(
    observed: &[Observed],
    crashes: &[usize],
    spectrum: Option<&Spectrum>,
) -> Vec<Group> {
    let mut verdicts: Vec<Verdict> = crashes.iter().map(|&i| observed[i].verdict).collect();
    verdicts.dedup();
    verdicts.sort_by_key(|v| v.code());
    verdicts.dedup();
    verdicts
        .into_iter()
        .map(|v| {
            let cases: Vec<usize> = crashes
                .iter()
                .copied()
                .filter(|&i| observed[i].verdict == v)
                .collect();
            // A crash or a timeout names no rule event: the answer may never have reached
            // the turn the event happens on (a slow answer times out before turn 1). A
            // trait of the input (CRLF line ends) it did read.
            let suspect = spectrum
                .and_then(|s| s.best(&cases))
                .filter(|s| matches!(s.clue, Clue::Input(_)));
            located_group(
                Cause::Verdict {
                    verdict: v,
                    got: None,
                    suspect,
                },
                cases,
                observed,
                spectrum,
            )
        })
        .collect()
}

/// The cases that differ only in whitespace (PE), as one group, if there are any.
fn format_group(observed: &[Observed]) -> Option<Group> {
    let pe: Vec<usize> = (0..observed.len())
        .filter(|&i| observed[i].verdict == Verdict::Presentation)
        .collect();
    let first = *pe.first()?;
    let how = format_difference(observed[first].expected, observed[first].got);
    Some(Group::of(Cause::Format { how }, pe, observed))
}

/// Tries every hypothesis on the run: returns each that breaks no passing case and
/// reproduces at least one of the `explainable` wrong answers (with `breaks` 0; constants
/// also when they break one, with `breaks` counted), and whether `keep_going` stopped the
/// search early.
fn search(
    observed: &[Observed],
    explainable: &[(usize, Printed)],
    passing: &[(usize, Option<Printed>)],
    threads: usize,
    keep_going: &(impl Fn() -> bool + Sync),
) -> (Vec<Candidate>, bool) {
    let mut all = vec![Rules::OURS];
    all.extend(readings());
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let share_of = |rules: &[Rules]| -> Vec<Candidate> {
        let mut found = Vec::new();
        for &rules in rules {
            if !keep_going() {
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                break;
            }
            found.extend(try_reading(
                rules,
                observed,
                explainable,
                passing,
                keep_going,
            ));
        }
        found
    };
    // The readings are shared out in turn, so each thread gets a fair mix of the costly
    // ones; the results are put back in the readings' order.
    let threads = threads.clamp(1, all.len());
    let shares: Vec<Vec<Rules>> = (0..threads)
        .map(|t| all.iter().skip(t).step_by(threads).copied().collect())
        .collect();
    let mut found: Vec<Candidate> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares
            .iter()
            .map(|share| scope.spawn(|| share_of(share)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let rank = |h: &Hypothesis| match h {
        Hypothesis::Reading { rules, shape } => (
            all.iter().position(|x| x == rules).unwrap_or(usize::MAX),
            SHAPES.iter().position(|s| s == shape).unwrap_or(0),
        ),
        Hypothesis::Constant(_) => (usize::MAX, 0),
    };
    found.sort_by_key(|c| rank(&c.hypothesis));
    found.extend(constants(explainable, passing));
    (found, stopped.into_inner())
}

/// The hypotheses of one reading, every shape of it, that break no passing case and
/// reproduce at least one explainable wrong answer.
fn try_reading(
    rules: Rules,
    observed: &[Observed],
    explainable: &[(usize, Printed)],
    passing: &[(usize, Option<Printed>)],
    keep_going: &impl Fn() -> bool,
) -> Vec<Candidate> {
    // A label breaks no passing case: the passing cases first, smallest first, so
    // that most readings are ruled out, every shape, after a few cheap games.
    let mut shapes: Vec<Shape> = SHAPES
        .into_iter()
        .filter(|&s| rules != Rules::OURS || s != Shape::Same)
        .collect();
    for &(i, got) in passing {
        if shapes.is_empty() {
            break;
        }
        let a = Printed::within(observed[i].puzzle, rules, keep_going);
        shapes.retain(|&shape| {
            got.is_some() && Hypothesis::Reading { rules, shape }.predict(a) == got
        });
    }
    if shapes.is_empty() {
        return Vec::new();
    }
    let answers: Vec<Option<Printed>> = explainable
        .iter()
        .map(|&(i, _)| Printed::within(observed[i].puzzle, rules, keep_going))
        .collect();
    let mut alive: Vec<Candidate> = Vec::new();
    for shape in shapes {
        let hypothesis = Hypothesis::Reading { rules, shape };
        let covers: Vec<bool> = explainable
            .iter()
            .zip(&answers)
            .map(|(&(_, got), &a)| hypothesis.predict(a) == Some(got))
            .collect();
        let count = covers.iter().filter(|&&c| c).count();
        if count > 0 {
            alive.push(Candidate {
                hypothesis,
                covers,
                count,
                breaks: 0,
            });
        }
    }
    alive
}

/// The constant outputs among the explainable wrong answers, each with the passing cases
/// it breaks counted.
fn constants(
    explainable: &[(usize, Printed)],
    passing: &[(usize, Option<Printed>)],
) -> Vec<Candidate> {
    let mut constants: Vec<Printed> = explainable.iter().map(|&(_, a)| a).collect();
    constants.sort_by_key(|a| (a.eaten, a.score));
    constants.dedup();
    constants
        .into_iter()
        .map(|c| {
            let covers: Vec<bool> = explainable.iter().map(|&(_, a)| a == c).collect();
            let count = covers.iter().filter(|&&x| x).count();
            let breaks = passing.iter().filter(|&&(_, got)| got != Some(c)).count();
            Candidate {
                hypothesis: Hypothesis::Constant(c),
                covers,
                count,
                breaks,
            }
        })
        .collect()
}

/// One mistake, one group: a hypothesis that heads a smaller group than the answer's own
/// mistake, every case of which goes through the clue that every case of that mistake has,
/// is the same mistake reproduced by chance, not a cause of its own; its cases join the
/// mistake's group, and the diagnosis no longer names it.
fn absorb_chance_matches(
    groups: &mut Vec<Group>,
    d: &mut Diagnosis,
    spectrum: &Spectrum,
    observed: &[Observed],
) {
    let own = groups.iter().position(
        |g| matches!(&g.cause, Cause::Own { suspect: Some(s) } if s.failing == s.of_failing),
    );
    let Some(own) = own else { return };
    let Cause::Own {
        suspect: Some(suspect),
    } = groups[own].cause
    else {
        return;
    };
    let size = groups[own].cases.len();
    let chance = |g: &Group| {
        matches!(g.cause, Cause::Hypothesis { .. })
            && g.cases.len() < size
            && g.cases.iter().all(|&i| spectrum.has(i, suspect.clue))
    };
    let mut cases = groups[own].cases.clone();
    let mut gone = Vec::new();
    for g in groups.iter().filter(|g| chance(g)) {
        cases.extend(&g.cases);
        if let Cause::Hypothesis { head, .. } = &g.cause {
            gone.push(head.hypothesis);
        }
    }
    if gone.is_empty() {
        return;
    }
    cases.sort_unstable();
    let suspect = spectrum.best(&cases);
    groups[own] = located_group(Cause::Own { suspect }, cases, observed, Some(spectrum));
    groups.retain(|g| !chance(g) || matches!(g.cause, Cause::Own { .. }));
    d.readings.retain(|e| !gone.contains(&e.hypothesis));
    if d.readings.is_empty() {
        d.status = Status::Unexplained;
    }
}

/// True for a wrong answer that is the engine's own under our readings.
fn engine_agrees(o: &Observed) -> bool {
    o.verdict == Verdict::WrongAnswer && reproduces(o.puzzle, Rules::OURS, o.got)
}

#[cfg(test)]
mod tests;
