//! The diagnosis of a run in one sentence: what the answer's outputs are, with the
//! evidence, what else the run cannot tell apart, and what it could not judge.

use crate::beast::{Rules, variant};
use crate::judge::diagnose::{Cause, Diagnosis, Explanation, Hypothesis, STRONG, Shape, Status};

/// The diagnosis in one sentence.
pub(super) fn sentence(d: &Diagnosis) -> String {
    let flaky = d
        .groups
        .iter()
        .find(|g| matches!(g.cause, Cause::Flaky { .. }));
    let mut text = findings(d);
    if let Some(g) = flaky {
        text = format!(
            "the answer is nondeterministic: {} {} gave another output when run again (the \
             first group). Of the other cases: {text}",
            g.cases.len(),
            cases(g.cases.len())
        );
    }
    text += &crashed(d);
    if d.disputed > 0 {
        text += &format!(
            " {} {} the engine's own answer where the case file expects another: the expected \
             output may be wrong.",
            d.disputed,
            if d.disputed == 1 {
                "output is"
            } else {
                "outputs are"
            }
        );
    }
    if d.stopped_early {
        text +=
            " The search stopped early, at its budget of steps: it covers the hypotheses tried.";
    }
    text
}

/// What the outputs are, as the diagnosis's status says: the sentence's main clause.
fn findings(d: &Diagnosis) -> String {
    let say = |e: &Explanation| e.hypothesis.words();
    // Only a rule event locates a mistake in the rules (not an output shape or a trait).
    let located = d.groups.iter().any(|g| {
        matches!(&g.cause, Cause::Own { suspect: Some(s) } if s.clue.event().is_some())
                // A rule event its designed pairs did not bear out locates nothing.
                && g.confirmation.as_ref().is_none_or(|c| c.stands())
    });
    match (d.status, d.readings.split_first()) {
        // An interrupt before any case finished: nothing was judged, nothing is claimed.
        (Status::Correct, _) if d.outputs == 0 => "no case finished: nothing is judged.".into(),
        (Status::Correct, _) => {
            let mut t = format!("correct on all {} {}", d.outputs, cases(d.outputs));
            if d.presentation > 0 {
                t += &format!(
                    ", {} of them with only whitespace differing (PE, see the group)",
                    d.presentation
                );
            }
            t + "."
        }
        (Status::Explained, Some((first, rest))) => explained(d, first, rest),
        (Status::Consistent, Some((first, rest))) => {
            let mut t = format!(
                "consistent with {} (weak evidence: {} {}, fewer than {STRONG}); run more cases (--random 200) to tell",
                say(first),
                first.evidence,
                wrong_answers(first.evidence),
            );
            if !rest.is_empty() {
                let others: Vec<String> = rest.iter().map(say).collect();
                t += &format!(", or with {}", others.join("; or "));
            }
            t + "."
        }
        (Status::Partial, Some((first, _))) => format!(
            "no one hypothesis explains every output. {} of the {} wrong answers are: {}; the rest looks like a mistake of the answer's own (see the groups).",
            first.reproduces,
            first.of,
            say(first),
        ),
        _ if d.wrong == 0 && d.crashed > 0 => "no wrong answer to explain".to_string(),
        _ if d.wrong == 0 => "no wrong answer to explain.".to_string(),
        _ if unconfirmed(d).is_some() => unconfirmed(d).unwrap_or_default(),
        _ => format!(
            "no known reading or output hypothesis reproduces the {} {} without breaking a passing case: it looks like a mistake of the answer's own ({}).",
            d.wrong,
            wrong_answers(d.wrong),
            match located {
                true => "the groups locate it in the rules",
                false => "see the groups",
            }
        ),
    }
}

/// The main clause when a known reading or output hypothesis reproduces wrong answers
/// without breaking a passing case, but its designed cases did not confirm it (the group
/// says why): how many it reproduces, that this is not confirmed, and the rest. `None`
/// when no group's label is one.
fn unconfirmed(d: &Diagnosis) -> Option<String> {
    let heads: Vec<(usize, String)> = d
        .groups
        .iter()
        .filter_map(|g| match (&g.cause, &g.confirmation) {
            (Cause::Hypothesis { head, .. }, Some(c)) if !c.stands() => {
                Some((g.cases.len(), head.hypothesis.words()))
            }
            _ => None,
        })
        .collect();
    if heads.is_empty() {
        return None;
    }
    let reproduced: usize = heads.iter().map(|(n, _)| n).sum();
    let each: Vec<String> = heads
        .iter()
        .map(|(n, words)| format!("{n} of them are what {words} gives"))
        .collect();
    let rest = match d.wrong.saturating_sub(reproduced) {
        0 => String::new(),
        n => format!(
            "; no known reading or output hypothesis reproduces the other {n} without breaking a passing case"
        ),
    };
    Some(format!(
        "no hypothesis is confirmed for the {} {}: {}, but the designed cases do not bear it out, so a mistake of the answer's own may give them by chance{rest} (see the groups).",
        d.wrong,
        wrong_answers(d.wrong),
        each.join("; ")
    ))
}

/// The main clause when one hypothesis explains every output: what the outputs are, the
/// evidence, and the hypotheses the run cannot tell apart from it.
fn explained(d: &Diagnosis, first: &Explanation, rest: &[Explanation]) -> String {
    let what = match first.hypothesis {
        Hypothesis::Reading {
            rules,
            shape: Shape::Same,
        } if rules != Rules::OURS => format!(
            "what beast {} prints: {}",
            variant::flags(rules),
            variant::words(rules)
        ),
        h => format!("what one hypothesis gives: {}", h.words()),
    };
    // Few wrong answers need the whole hypothesis (each is one part's): the designed
    // cases that confirmed it are the evidence.
    let confirmed = d
        .groups
        .iter()
        .find_map(|g| match (&g.cause, &g.confirmation) {
            (Cause::Hypothesis { head, .. }, Some(c))
                if head.hypothesis == first.hypothesis && c.confirmed() =>
            {
                Some(c.words())
            }
            _ => None,
        });
    let evidence = match confirmed {
        Some(words) if first.evidence < STRONG => format!("the designed cases: {words}"),
        _ => format!(
            "{} {} that no simpler hypothesis reproduces",
            first.evidence,
            wrong_answers(first.evidence)
        ),
    };
    let mut t = format!(
        "all {} outputs ({} passed, {} failed) are {what}. Evidence: {evidence}.",
        d.outputs, d.passed, d.wrong,
    );
    if !rest.is_empty() {
        let others: Vec<String> = rest.iter().map(|e| e.hypothesis.words()).collect();
        t += &format!(
            " Equally consistent with every case run: {}.",
            others.join("; ")
        );
    }
    t
}

/// The cases that failed without an answer, as the sentence ends with them (empty when
/// there is none).
fn crashed(d: &Diagnosis) -> String {
    match d.crashed {
        0 => String::new(),
        n if d.wrong == 0 => format!(
            ": {n} {} failed without an answer (see the groups).",
            cases(n)
        ),
        n => format!(
            " {n} more {} failed without an answer (see the groups).",
            cases(n)
        ),
    }
}

/// `wrong answer` or `wrong answers`, as `n` asks.
fn wrong_answers(n: usize) -> &'static str {
    if n == 1 {
        "wrong answer"
    } else {
        "wrong answers"
    }
}

/// `case` or `cases`, as `n` asks.
pub(super) fn cases(n: usize) -> &'static str {
    if n == 1 { "case" } else { "cases" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnosed(status: Status, readings: Vec<Explanation>) -> Diagnosis {
        Diagnosis {
            status,
            readings,
            groups: Vec::new(),
            presentation: 0,
            outputs: 40,
            passed: 28,
            wrong: 12,
            crashed: 0,
            disputed: 0,
            stopped_early: false,
        }
    }

    #[test]
    fn a_label_its_designed_cases_refute_is_said_to_reproduce_but_not_confirmed() {
        use crate::judge::confirmation::{Confirmation, Tally};
        use crate::judge::diagnose::{Group, Status};
        let stop = crate::beast::variant::find("exhaust-stop")
            .map(|v| v.apply(crate::beast::Rules::OURS))
            .expect("in the catalogue");
        let head = Explanation {
            hypothesis: Hypothesis::reading(stop),
            reproduces: 8,
            of: 12,
            breaks: 0,
            evidence: 8,
        };
        let refuted = Confirmation {
            rule_event: false,
            parts: vec![Tally {
                name: "--exhaust stop".into(),
                matched: 0,
                designed: 4,
                against: 4,
                puzzles: 2,
                tried: 40,
                paired: false,
            }],
            tried: Vec::new(),
            explains: Some(8),
        };
        let mut d = diagnosed(Status::Unexplained, Vec::new());
        d.groups = vec![Group {
            cause: Cause::Hypothesis {
                head,
                also: Vec::new(),
            },
            cases: (0..8).collect(),
            smallest: 0,
            confirmation: Some(refuted),
        }];
        // It once said that no known reading reproduces the 12 wrong answers, while the
        // group said that one gives 8 of them.
        assert_eq!(
            sentence(&d),
            "no hypothesis is confirmed for the 12 wrong answers: 8 of them are what the game \
             stops when the moves run out (--exhaust stop) gives, but the designed cases do not \
             bear it out, so a mistake of the answer's own may give them by chance; no known \
             reading or output hypothesis reproduces the other 4 without breaking a passing case \
             (see the groups)."
        );
    }

    #[test]
    fn each_diagnosis_says_what_it_found_in_one_sentence() {
        let stop = crate::beast::variant::find("exhaust-stop")
            .map(|v| v.apply(crate::beast::Rules::OURS))
            .expect("in the catalogue");
        let e = Explanation {
            hypothesis: Hypothesis::reading(stop),
            reproduces: 12,
            of: 12,
            breaks: 0,
            evidence: 12,
        };
        assert_eq!(
            sentence(&diagnosed(Status::Explained, vec![e])),
            "all 40 outputs (28 passed, 12 failed) are what beast --exhaust stop prints: the \
             game stops when the moves run out. Evidence: 12 wrong answers that no simpler \
             hypothesis reproduces."
        );
        let weak = Explanation { evidence: 1, ..e };
        let consistent = sentence(&diagnosed(Status::Consistent, vec![weak]));
        assert!(
            consistent.starts_with(
                "consistent with the game stops when the moves run out (--exhaust stop) \
                 (weak evidence: 1 wrong answer, fewer than 3)"
            ),
            "{consistent}"
        );
        let part = Explanation { reproduces: 7, ..e };
        let partial = sentence(&diagnosed(Status::Partial, vec![part]));
        assert!(
            partial.contains("7 of the 12 wrong answers are: the game stops"),
            "{partial}"
        );
        let mut crashed = diagnosed(Status::Unexplained, Vec::new());
        (crashed.wrong, crashed.crashed, crashed.stopped_early) = (0, 3, true);
        let said = sentence(&crashed);
        assert!(
            said.starts_with("no wrong answer to explain: 3 cases failed without an answer"),
            "{said}"
        );
        assert!(said.contains("The search stopped early"), "{said}");
    }

    #[test]
    fn a_run_interrupted_before_any_case_finished_claims_nothing() {
        let mut none = diagnosed(Status::Correct, Vec::new());
        (none.outputs, none.passed, none.wrong) = (0, 0, 0);
        let said = sentence(&none);
        assert_eq!(said, "no case finished: nothing is judged.");
        assert!(!said.contains("correct"), "{said}");
    }
}
