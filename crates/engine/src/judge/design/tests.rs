//! Designed cases, one rule a test.

use super::*;
use crate::beast::play_out;
use crate::beast::{Target, variant::find};
use crate::judge::diagnose::{Explanation, diagnose};
use crate::judge::generate::Recipe;
use crate::judge::verdict::compare;

/// 200 puzzles of the default generator with our answers.
fn puzzles() -> Vec<(Puzzle, String)> {
    let recipe = Recipe::default();
    (0..200)
        .filter_map(|s| recipe.make(s).ok())
        .filter_map(|g| {
            let answer = play_out(&g.puzzle, Rules::OURS).ok()?.answer();
            Some((g.puzzle, answer))
        })
        .collect()
}

fn observed<'a>(cases: &'a [(Puzzle, String)], outputs: &'a [String]) -> Vec<Observed<'a>> {
    cases
        .iter()
        .zip(outputs)
        .map(|((p, e), g)| {
            let verdict = compare(e.as_bytes(), g.as_bytes(), false);
            Observed {
                puzzle: p,
                input: b"",
                expected: e,
                got: g.as_bytes(),
                verdict,
                passed: verdict.passed(false),
            }
        })
        .collect()
}

fn after() -> Rules {
    Rules {
        target: Target::After,
        ..Rules::OURS
    }
}

fn under(rules: Rules) -> impl Fn(&Puzzle) -> String {
    move |p| play_out(p, rules).map(|o| o.answer()).unwrap_or_default()
}

/// The experiments of an answer that prints `answer(puzzle)`, run on that same answer.
fn run(
    cases: &[(Puzzle, String)],
    answer: impl Fn(&Puzzle) -> String,
) -> (Diagnosis, Vec<Plan>, Vec<Vec<Confirmation>>) {
    let outputs: Vec<String> = cases.iter().map(|(p, _)| answer(p)).collect();
    let seen = observed(cases, &outputs);
    let d = diagnose(&seen, 2, || true);
    let plans = plan(&seen, &d, 7, || true);
    let found = plans
        .iter()
        .map(|p| {
            p.experiments
                .iter()
                .map(|e| {
                    let got: Vec<Option<Vec<u8>>> =
                        e.puzzles().map(|q| Some(answer(q).into_bytes())).collect();
                    e.judge(&got)
                })
                .collect()
        })
        .collect();
    (d, plans, found)
}

#[test]
fn a_reading_the_answer_follows_is_confirmed_on_designed_cases() {
    let cases = puzzles();
    let (mut d, plans, found) = run(&cases, under(after()));
    assert_eq!(plans.len(), 1, "{:?}", d.groups);
    let c = &found[0][0];
    assert!(c.confirmed(), "{c:?}");
    assert_eq!(c.words(), "confirmed on 4 of 4 designed cases");
    settle(&mut d, &plans, &found);
    assert_eq!(d.readings[0].hypothesis, Hypothesis::reading(after()));
}

#[test]
fn debug_small() {
    let cases: Vec<_> = puzzles().into_iter().take(60).collect();
    let (d, plans, found) = run(&cases, under(after()));
    eprintln!("wrong {} groups {}", d.wrong, d.groups.len());
    let outputs: Vec<String> = cases.iter().map(|(p, _)| under(after())(p)).collect();
    eprintln!("common {:?}", common_outputs(&observed(&cases, &outputs)));
    for (p, f) in plans.iter().zip(&found) {
        for (e, c) in p.experiments.iter().zip(f) {
            eprintln!("{:?} {:?}", e.label, c);
        }
    }
}
