//! The diagnosis, one rule a test: labels are earned, evidence counts, output hypotheses,
//! one mistake one group, the rule located by its event.

use super::*;
use crate::beast::events::{self, RuleEvent};
use crate::beast::play_out;
use crate::beast::variant::find;
use crate::beast::{Ending, variant};
use crate::judge::generate::{GenOptions, generate};
use crate::judge::separate;
use crate::judge::verdict::compare;

const REAPER: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";

fn case<'a>(puzzle: &'a Puzzle, expected: &'a str, got: &'a str) -> Observed<'a> {
    let verdict = compare(expected.as_bytes(), got.as_bytes(), false);
    Observed {
        name: "case",
        puzzle,
        layout: TextForms::default(),
        expected,
        got: got.as_bytes(),
        verdict,
        passed: verdict.passed(false),
    }
}

/// 200 default-size puzzles with our answers.
fn puzzles() -> Vec<(Puzzle, String)> {
    (0..200)
        .filter_map(|s| generate(s, &GenOptions::default()).ok())
        .filter_map(|p| play_out(&p, Rules::OURS).ok().map(|o| (p, o.answer())))
        .collect()
}

/// Diagnoses an answer that prints `got(puzzle, our answer)` on every puzzle.
fn diagnose_answer(cases: &[(Puzzle, String)], got: impl Fn(&Puzzle, &str) -> String) -> Diagnosis {
    let outputs: Vec<String> = cases.iter().map(|(p, e)| got(p, e)).collect();
    let observed: Vec<Observed> = cases
        .iter()
        .zip(&outputs)
        .map(|((p, e), g)| case(p, e, g))
        .collect();
    diagnose(&observed, 2, || true)
}

fn rules_of(name: &str) -> Rules {
    find(name)
        .map(|v| v.apply(Rules::OURS))
        .expect("in the catalogue")
}

#[test]
fn answers_are_read_leniently_and_only_in_their_shape() {
    assert_eq!(
        Printed::read(b"aHHHH!\n0\n"),
        Some(Printed {
            eaten: true,
            score: 0
        })
    );
    assert_eq!(
        Printed::read(b" 12 "),
        Some(Printed {
            eaten: false,
            score: 12
        })
    );
    assert_eq!(Printed::read(b"012\n"), None);
    assert_eq!(Printed::read(b"aHHHH!\n"), None);
    assert_eq!(Printed::read(b"oops"), None);
}

#[test]
fn the_search_covers_every_switch_combination_with_each_entry() {
    let all = readings();
    let beyond = variant::beyond_switches().count();
    // An entry of the same rule as a switch (another target) is not combined with it: each
    // of the 8 combinations holding that switch leaves it out.
    let same_as_a_switch = variant::beyond_switches()
        .filter(|v| {
            variant::SWITCHES
                .iter()
                .any(|s| s.other.same_rule(v.change))
        })
        .count();
    assert_eq!(all.len(), 16 * (beyond + 1) - 1 - 8 * same_as_a_switch);
    let unique: std::collections::HashSet<Rules> = all.iter().copied().collect();
    assert_eq!(unique.len(), all.len(), "each reading once");
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
fn a_case_the_judge_could_not_set_up_says_nothing_of_the_answer() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let not_run = Observed {
        verdict: Verdict::InternalError,
        passed: false,
        ..case(&p, "aHHHH!\n0\n", "")
    };
    let d = diagnose(
        &[case(&p, "aHHHH!\n0\n", "aHHHH!\n0\n"), not_run],
        1,
        || true,
    );
    assert_eq!(d.status, Status::Correct);
    assert!(
        d.groups.is_empty(),
        "no group of the answer's: {:?}",
        d.groups
    );
    assert_eq!((d.passed, d.wrong, d.crashed), (1, 0, 0));
}

#[test]
fn one_wrong_answer_is_only_weak_evidence() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let d = diagnose(&[case(&p, "aHHHH!\n0\n", "0\n")], 1, || true);
    assert_eq!(d.status, Status::Consistent);
    let named: Vec<String> = d.readings.iter().map(|e| e.hypothesis.flags()).collect();
    assert!(named.contains(&"--exhaust stop".to_string()), "{named:?}");
    let said = describe(&d.groups[0].cause);
    assert!(said.contains("weak evidence: 1 wrong answer"), "{said}");
    assert!(said.contains("--random 200"), "{said}");
}

#[test]
fn a_reading_over_many_cases_is_explained_with_its_evidence() {
    let stop = rules_of("exhaust-stop");
    let d = diagnose_answer(&puzzles(), |p, _| {
        separate::answer(p, stop, &mut || true).unwrap_or_default()
    });
    assert_eq!(d.status, Status::Explained, "{:?}", d.readings);
    assert_eq!(d.groups.len(), 1);
    assert_eq!(d.readings[0].hypothesis, Hypothesis::reading(stop));
    assert!(d.readings[0].evidence >= STRONG);
}

#[test]
fn a_reading_that_breaks_a_passing_case_heads_no_group() {
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
    let stop = rules_of("exhaust-stop");
    for g in &d.groups {
        if let Cause::Hypothesis { head, also } = &g.cause {
            assert_ne!(head.hypothesis, Hypothesis::reading(stop));
            assert!(!also.contains(&Hypothesis::reading(stop)));
        }
    }
}

#[test]
fn a_constant_output_is_called_constant() {
    let d = diagnose_answer(&puzzles(), |_, _| "0\n".to_string());
    assert_eq!(d.groups.len(), 1, "{:?}", d.groups);
    let said = describe(&d.groups[0].cause);
    assert!(said.contains("prints \"0\" whatever the puzzle"), "{said}");
}

#[test]
fn one_point_a_crush_is_an_output_hypothesis() {
    let d = diagnose_answer(&puzzles(), |p, _| {
        let o = play_out(p, Rules::OURS).expect("judged");
        let a = Printed {
            eaten: o.ending == Ending::Eaten,
            score: o.score / 2,
        };
        a.text()
    });
    assert_eq!(d.status, Status::Explained);
    assert_eq!(d.groups.len(), 1);
    let said = describe(&d.groups[0].cause);
    assert!(said.contains("1 point a crushed beast"), "{said}");
}

#[test]
fn three_points_a_crush_is_an_output_hypothesis() {
    let d = diagnose_answer(&puzzles(), |p, _| {
        let o = play_out(p, Rules::OURS).expect("judged");
        let a = Printed {
            eaten: o.ending == Ending::Eaten,
            score: o.score / 2 * 3,
        };
        a.text()
    });
    assert_eq!(d.status, Status::Explained);
    assert_eq!(d.groups.len(), 1);
    let said = describe(&d.groups[0].cause);
    assert!(
        said.contains("3 points a crushed beast instead of 2"),
        "{said}"
    );
}

#[test]
fn two_points_for_the_beast_that_eats_the_player_is_an_output_hypothesis() {
    let d = diagnose_answer(&puzzles(), |p, _| {
        let o = play_out(p, Rules::OURS).expect("judged");
        let eaten = o.ending == Ending::Eaten;
        let a = Printed {
            eaten,
            score: o.score + if eaten { 2 } else { 0 },
        };
        a.text()
    });
    assert_eq!(d.status, Status::Explained);
    assert_eq!(d.groups.len(), 1);
    let said = describe(&d.groups[0].cause);
    assert!(
        said.contains("scores 2 points for the beast that eats the player"),
        "{said}"
    );
}

#[test]
fn a_reading_plus_one_point_a_crush_is_named_as_both() {
    let stop = rules_of("exhaust-stop");
    let d = diagnose_answer(&puzzles(), |p, _| {
        let o = play_out(p, stop).expect("judged");
        let a = Printed {
            eaten: o.ending == Ending::Eaten,
            score: o.score / 2,
        };
        a.text()
    });
    let said = describe(&d.groups[0].cause);
    assert!(
        said.contains("--exhaust stop") && said.contains("1 point a crushed beast"),
        "{said}"
    );
}

#[test]
fn an_own_mistake_is_located_by_its_rule_event() {
    // An answer that gets every case with a train push wrong, in a way no hypothesis gives.
    let train = RuleEvent::named("push-train").expect("named");
    let d = diagnose_answer(&puzzles(), |p, e| {
        let events = events::record(p, || true).expect("decided");
        match events.has(train) {
            true => "aHHHH!\n99\n".to_string(),
            false => e.to_string(),
        }
    });
    assert_eq!(d.status, Status::Unexplained);
    assert_eq!(d.groups.len(), 1, "{:?}", d.groups);
    let said = describe(&d.groups[0].cause);
    assert!(
        said.contains("every failing case pushes a train of 2 or more `~`; no passing case does"),
        "{said}"
    );
}

#[test]
fn whitespace_only_differences_are_a_format_group_and_counted() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let d = diagnose(&[case(&p, "aHHHH!\n0\n", "aHHHH! 0\n")], 1, || true);
    assert_eq!(d.status, Status::Correct);
    assert_eq!(d.presentation, 1);
    assert_eq!(
        describe(&d.groups[0].cause),
        "format only (PE): it prints the answer on one line"
    );
}

#[test]
fn an_answer_no_hypothesis_gives_is_unexplained() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let d = diagnose(&[case(&p, "aHHHH!\n0\n", "banana\n")], 1, || true);
    assert_eq!(d.status, Status::Unexplained);
    assert!(d.readings.is_empty());
    assert!(describe(&d.groups[0].cause).contains("not an answer"));
}

#[test]
fn a_spent_budget_is_said() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let d = diagnose(&[case(&p, "aHHHH!\n0\n", "0\n")], 1, || false);
    assert!(d.stopped_early);
}

#[test]
fn each_group_knows_its_smallest_case() {
    let p = Puzzle::parse(REAPER).expect("valid");
    let small = Puzzle::parse("5 4\n#####\n#O  #\n#  H#\n#####\nWW\n").expect("valid");
    let observed = [
        case(&p, "aHHHH!\n0\n", "banana\n"),
        case(&small, "aHHHH!\n0\n", "banana\n"),
    ];
    let d = diagnose(&observed, 1, || true);
    assert_eq!(d.groups.len(), 1);
    assert_eq!(d.groups[0].cases, [0, 1]);
    assert_eq!(d.groups[0].smallest, 1);
}

#[test]
fn a_huge_output_is_named_in_short() {
    let cause = Cause::Verdict {
        verdict: Verdict::WrongAnswer,
        got: Some("8\n".repeat(100_000)),
        suspect: None,
    };
    assert!(describe(&cause).len() < 100, "{}", describe(&cause));
}

#[test]
fn the_kind_of_difference_is_death_and_score_direction() {
    assert_eq!(
        difference("aHHHH!\n0\n", b"2\n"),
        Difference::Printed {
            death: true,
            score: std::cmp::Ordering::Greater
        }
    );
    assert_eq!(difference("2\n", b"x"), Difference::Garbled);
}

#[test]
fn a_crash_on_crlf_is_located_at_the_input_trait() {
    let cases = puzzles();
    let inputs: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (p, _))| match i % 3 {
            0 => p.to_string().replace('\n', "\r\n"),
            _ => p.to_string(),
        })
        .collect();
    let observed: Vec<Observed> = cases
        .iter()
        .zip(&inputs)
        .map(|((p, e), input)| {
            let crlf = input.contains('\r');
            Observed {
                name: "case",
                puzzle: p,
                layout: TextForms::of(p, input.as_bytes()),
                expected: e,
                got: if crlf { b"" } else { e.as_bytes() },
                verdict: if crlf {
                    Verdict::RuntimeError
                } else {
                    Verdict::Accepted
                },
                passed: !crlf,
            }
        })
        .collect();
    let d = diagnose(&observed, 2, || true);
    assert_eq!(d.groups.len(), 1);
    assert_eq!(
        describe(&d.groups[0].cause),
        "exited with an error or a signal: every failing case has CRLF line ends; no passing \
         case does [crlf]"
    );
}

#[test]
fn a_crash_or_a_timeout_names_no_rule_event() {
    // Times out exactly where a train is pushed: the answer may never have reached that
    // turn, so the group names the verdict alone.
    let cases = puzzles();
    let train = crate::beast::events::RuleEvent::PUSH_TRAIN;
    let fires = |p: &Puzzle| crate::beast::events::record(p, || true).is_ok_and(|e| e.has(train));
    assert!(cases.iter().any(|(p, _)| fires(p)));
    for verdict in [Verdict::TimeLimit, Verdict::RuntimeError] {
        let observed: Vec<Observed> = cases
            .iter()
            .map(|(p, e)| {
                let fails = fires(p);
                Observed {
                    name: "case",
                    puzzle: p,
                    layout: TextForms::default(),
                    expected: e,
                    got: if fails { b"" } else { e.as_bytes() },
                    verdict: if fails { verdict } else { Verdict::Accepted },
                    passed: !fails,
                }
            })
            .collect();
        let d = diagnose(&observed, 2, || true);
        assert_eq!(d.groups.len(), 1, "{:?}", d.groups);
        assert_eq!(d.groups[0].cause.suspect(), None, "{verdict:?}");
        assert!(!describe(&d.groups[0].cause).contains("push-train"));
    }
}

#[test]
fn a_groups_shown_case_goes_through_the_clue_it_names() {
    // Garbled wherever a train is pushed, and on one tiny puzzle with no train at all:
    // the train is the closest clue, and the case shown is the smallest that pushes one,
    // not the tiny one.
    let tiny = Puzzle::parse("5 4\n#####\n#O  #\n#  H#\n#####\nWW\n").expect("valid");
    let train = RuleEvent::PUSH_TRAIN;
    let fires = |p: &Puzzle| events::record(p, || true).is_ok_and(|e| e.has(train));
    assert!(!fires(&tiny));
    let mut cases = puzzles();
    let ours = play_out(&tiny, Rules::OURS).expect("plays").answer();
    cases.push((tiny.clone(), ours));
    let observed: Vec<Observed> = cases
        .iter()
        .map(|(p, e)| {
            let garbled = fires(p) || *p == tiny;
            case(p, e, if garbled { "banana\n" } else { e })
        })
        .collect();
    let d = diagnose(&observed, 2, || true);
    assert_eq!(d.groups.len(), 1, "{:?}", d.groups);
    let g = &d.groups[0];
    let suspect = g.cause.suspect().expect("a clue");
    assert_eq!(suspect.clue.event(), Some(train), "{suspect:?}");
    assert!(suspect.failing < suspect.of_failing, "{suspect:?}");
    assert!(g.cases.contains(&(cases.len() - 1)));
    assert!(
        fires(&cases[g.smallest].0),
        "the shown case pushes no train"
    );
}
