//! Designed cases, one rule a test.

use super::*;
use crate::beast::play_out;
use crate::beast::{Ending, Target, variant::find};
use crate::judge::confirmation::Strength;
use crate::judge::diagnose::{Suspect, diagnose};
use crate::judge::generate::Recipe;
use crate::judge::separate;
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
                name: "case",
                puzzle: p,
                layout: crate::judge::robustness::TextForms::default(),
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
    move |p| separate::answer(p, rules, &mut || true).unwrap_or_default()
}

/// The experiments of an answer that prints `answer(puzzle)`, run on that same answer.
fn run(
    cases: &[(Puzzle, String)],
    answer: impl Fn(&Puzzle) -> String,
) -> (Diagnosis, Vec<GroupExperiments>, Vec<Vec<Confirmation>>) {
    let outputs: Vec<String> = cases.iter().map(|(p, _)| answer(p)).collect();
    let seen = observed(cases, &outputs);
    let d = diagnose(&seen, 2, || true);
    let designed = for_groups(&seen, &d, 7, || true);
    let found = designed
        .iter()
        .map(|p| {
            p.experiments
                .iter()
                .map(|e| e.judge(&printed(e, &answer)))
                .collect()
        })
        .collect();
    (d, designed, found)
}

/// What an answer that prints `answer(puzzle)` gives on every designed case of `e`.
fn printed(e: &Experiment, answer: impl Fn(&Puzzle) -> String) -> Vec<Ran> {
    e.puzzles()
        .map(|q| Ran::Output(answer(q).into_bytes()))
        .collect()
}

#[test]
fn a_reading_the_answer_follows_is_confirmed_on_designed_cases() {
    let cases = puzzles();
    let (mut d, designed, found) = run(&cases, under(after()));
    assert_eq!(designed.len(), 1, "{:?}", d.groups);
    let c = &found[0][0];
    assert!(c.confirmed(), "{c:?}");
    assert_eq!(c.words(), "confirmed on 4 of 4 designed cases");
    settle(&mut d, &designed, &found);
    assert_eq!(d.readings[0].hypothesis, Hypothesis::reading(after()));
}

fn tie(name: &str) -> Rules {
    find(name).expect("in the catalogue").apply(Rules::OURS)
}

#[test]
fn a_combined_label_is_tried_part_by_part() {
    let both = find("tie-down-over-left")
        .expect("in the catalogue")
        .apply(after());
    let parts = parts_of(Hypothesis::reading(both));
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["--target after", "--variant tie-down-over-left"]);
    assert_eq!(parts[0].1, Hypothesis::reading(tie("tie-down-over-left")));
    assert_eq!(parts[1].1, Hypothesis::reading(after()));
}

#[test]
fn a_part_the_answer_does_not_have_is_not_confirmed_and_the_label_goes() {
    let cases = puzzles();
    let both = find("tie-down-over-left")
        .expect("in the catalogue")
        .apply(after());
    let label = Hypothesis::reading(both);
    let sources: Vec<&Puzzle> = cases.iter().map(|(p, _)| p).take(40).collect();
    let e = design_hypothesis(label, &sources, &Rivals::default(), 3, &|| true);
    // The answer aims after the move, and breaks ties as we do.
    let c = e.judge(&printed(&e, under(after())));
    assert!(c.parts[0].confirmed(), "{c:?}");
    assert_eq!(c.parts[1].matched, 0, "{c:?}");
    assert!(!c.confirmed());
    // The answer gave another output than the label predicts: the label is refuted.
    assert_eq!(c.strength(), Strength::Refuted);
    assert!(
        c.words().starts_with(
            "refuted: the answer did not give what --variant tie-down-over-left predicts on"
        ),
        "{}",
        c.words()
    );
    // Every designed case of the tie part tells the label from the reading without it.
    for d in &e.parts[1].cases {
        assert_ne!(
            label.answer(&d.puzzle),
            Hypothesis::reading(after()).answer(&d.puzzle)
        );
        assert_ne!(
            label.answer(&d.puzzle),
            Hypothesis::reading(Rules::OURS).answer(&d.puzzle)
        );
    }
}

#[test]
fn a_label_that_does_not_stand_leaves_the_readings_named() {
    let cases = puzzles();
    let (mut d, designed, mut found) = run(&cases, under(after()));
    for part in &mut found[0][0].parts {
        part.matched = 1;
    }
    settle(&mut d, &designed, &found);
    assert!(d.readings.is_empty(), "{:?}", d.readings);
    assert_eq!(d.status, Status::Unexplained);
    let words = describe_group(&d.groups[0]);
    assert!(
        words.starts_with("not confirmed: the beasts aim"),
        "{words}"
    );
    assert!(words.contains("; weak evidence: "), "{words}");
}

#[test]
fn designed_cases_never_predict_an_output_the_answers_failures_give_most() {
    let cases = puzzles();
    let sources: Vec<&Puzzle> = cases.iter().map(|(p, _)| p).take(40).collect();
    let zero = Printed {
        eaten: true,
        score: 0,
    };
    let against = Rivals {
        common: &[zero],
        ..Rivals::default()
    };
    let e = design_hypothesis(Hypothesis::reading(after()), &sources, &against, 1, &|| {
        true
    });
    assert!(e.parts[0].cases.len() >= ENOUGH);
    for d in &e.parts[0].cases {
        assert_ne!(d.prediction, Prediction::Output(zero));
    }
}

/// An answer that is wrong exactly where `event` fires: one point more.
fn wrong_where(event: RuleEvent) -> impl Fn(&Puzzle) -> String {
    move |p| {
        let Ok(o) = play_out(p, Rules::OURS) else {
            return String::new();
        };
        let fires = events::record(p, || true).is_ok_and(|e| e.has(event));
        let score = o.score + u64::from(fires);
        match o.ending {
            Ending::Eaten => format!("aHHHH!\n{score}\n"),
            _ => format!("{score}\n"),
        }
    }
}

#[test]
fn a_rule_event_is_confirmed_on_the_same_puzzle_with_and_without_it() {
    let train = RuleEvent::named("push-train").expect("in the vocabulary");
    let cases = puzzles();
    let sources: Vec<&Puzzle> = cases
        .iter()
        .map(|(p, _)| p)
        .filter(|p| events::record(p, || true).is_ok_and(|e| e.has(train)))
        .collect();
    let e = design_event(train, &sources, &[], 5, &|| true);
    let part = &e.parts[0];
    assert!(part.cases.len() >= 2 * ENOUGH, "{part:?}");
    for pair in part.cases.chunks(2) {
        let bits = |p: &Puzzle| event_bits(p, &|| true).expect("decided");
        // The same puzzle but for one step: the event gone, at most one other changed.
        let (with, without) = (bits(&pair[0].puzzle), bits(&pair[1].puzzle));
        assert!(with & train.bit() != 0 && without & train.bit() == 0);
        assert!(((with & !train.bit()) ^ without).count_ones() <= 1);
        // The same moves and the same beasts: one wall or space changed, nothing else.
        let (a, b) = (&pair[0].puzzle, &pair[1].puzzle);
        assert_eq!(a.moves(), b.moves());
        let beasts = |p: &Puzzle| {
            let m = p.map();
            (0..m.rows())
                .flat_map(|row| (0..m.cols()).map(move |col| Pos { row, col }))
                .filter(|&at| m[at] == Cell::Beast)
                .collect::<Vec<_>>()
        };
        assert_eq!(beasts(a), beasts(b));
    }
    let c = e.judge(&printed(&e, wrong_where(train)));
    assert!(c.confirmed(), "{c:?}");
    assert!(
        c.words()
            .contains("designed pairs (the same puzzle with and without push-train")
    );
}

#[test]
fn a_pair_on_which_the_answer_prints_its_usual_output_tells_nothing() {
    let (e, _) = train_pairs();
    // Wrong everywhere, the same output whatever the event: no pair is evidence.
    let c = e.judge(&printed(&e, |_| "99\n".to_string()));
    assert_eq!(c.parts[0].designed, 0, "{c:?}");
    assert_eq!(c.strength(), Strength::Weak);
}

#[test]
fn a_designed_case_where_the_event_fires_and_the_answer_is_right_counts_against_it() {
    let (e, train) = train_pairs();
    // Wrong on the first pair's puzzle only; right on every other, the event firing there.
    let first = e.parts[0].cases[0].puzzle.clone();
    let wrong = wrong_where(train);
    let ours = under(Rules::OURS);
    let c = e.judge(&printed(&e, |p| match *p == first {
        true => wrong(p),
        false => ours(p),
    }));
    assert!(c.parts[0].against >= 2, "{c:?}");
    assert_eq!(c.strength(), Strength::Refuted);
    assert!(
        c.words().starts_with("refuted: push-train happens in "),
        "{}",
        c.words()
    );
}

#[test]
fn a_designed_case_that_ends_in_ie_is_no_evidence() {
    let (e, _) = train_pairs();
    let ie: Vec<Ran> = e.puzzles().map(|_| Ran::InternalError).collect();
    let c = e.judge(&ie);
    assert_eq!((c.parts[0].designed, c.parts[0].against), (0, 0), "{c:?}");
    assert_eq!(c.strength(), Strength::Weak);
    // The same for a reading: an IE is neither a match nor a case against it.
    let r = design_after(40);
    let ie: Vec<Ran> = r.puzzles().map(|_| Ran::InternalError).collect();
    assert_eq!(r.judge(&ie).strength(), Strength::Weak);
}

#[test]
fn a_without_case_never_expects_an_output_the_answer_prints_anyway() {
    let (e, train) = train_pairs();
    let common: Vec<Printed> = e.parts[0]
        .cases
        .chunks(2)
        .filter_map(|p| match p[1].prediction {
            Prediction::Right(a) => Some(a),
            _ => None,
        })
        .take(1)
        .collect();
    let cases = puzzles();
    let sources = with_event(&cases, train);
    let again = design_event(train, &sources, &common, 5, &|| true);
    for pair in again.parts[0].cases.chunks(2) {
        assert_ne!(pair[1].prediction, Prediction::Right(common[0]));
    }
}

#[test]
fn designed_cases_of_one_puzzle_never_confirm_a_reading_alone() {
    // One source: every case is an edit of it, but the generated ones.
    let e = design_after(1);
    let of_source = e.parts[0].cases.iter().filter(|c| c.origin == 0).count();
    assert!(of_source <= PER_PUZZLE, "{:?}", e.parts[0].cases);
    // A tally of four matches from one puzzle is consistent, never confirmed.
    let one = Tally {
        name: "x".into(),
        matched: 4,
        designed: 4,
        against: 0,
        puzzles: 1,
        tried: 10,
        paired: false,
    };
    assert_eq!(one.strength(), Strength::Consistent);
    assert_eq!(
        Tally {
            puzzles: 2,
            ..one.clone()
        }
        .strength(),
        Strength::Confirmed
    );
    let c = Confirmation {
        rule_event: false,
        parts: vec![one.clone()],
        tried: Vec::new(),
        explains: None,
    };
    assert!(!c.confirmed() && c.stands());
    assert!(
        c.words().starts_with(
            "not confirmed: x as predicted on 4 of 4 designed cases, all edits of one puzzle"
        ),
        "{}",
        c.words()
    );
    // For a rule event's pairs, one puzzle is weak.
    assert_eq!(
        Tally {
            paired: true,
            ..one
        }
        .strength(),
        Strength::Weak
    );
}

/// The experiment of `--target after` on the first `sources` of [`puzzles`], no rivals.
fn design_after(sources: usize) -> Experiment {
    let cases = puzzles();
    let sources: Vec<&Puzzle> = cases.iter().map(|(p, _)| p).take(sources).collect();
    design_hypothesis(
        Hypothesis::reading(after()),
        &sources,
        &Rivals::default(),
        1,
        &|| true,
    )
}

/// The puzzles of [`puzzles`] where `event` fires.
fn with_event(cases: &[(Puzzle, String)], event: RuleEvent) -> Vec<&Puzzle> {
    cases
        .iter()
        .map(|(p, _)| p)
        .filter(|p| events::record(p, || true).is_ok_and(|e| e.has(event)))
        .collect()
}

/// The experiment of `push-train` on [`puzzles`].
fn train_pairs() -> (Experiment, RuleEvent) {
    let train = RuleEvent::named("push-train").expect("in the vocabulary");
    let cases = puzzles();
    let e = design_event(train, &with_event(&cases, train), &[], 5, &|| true);
    (e, train)
}

#[test]
fn a_suspect_that_many_passing_cases_share_is_weak_evidence() {
    let s = Suspect {
        clue: Clue::Rule(RuleEvent::named("order-changed").expect("in the vocabulary")),
        failing: 50,
        of_failing: 50,
        passing: 174,
        of_passing: 319,
    };
    assert!(s.weak());
    assert!(
        s.words()
            .starts_with("weak evidence: every failing case has beasts"),
        "{}",
        s.words()
    );
    let sharp = Suspect { passing: 3, ..s };
    assert!(!sharp.weak());
}

#[test]
fn the_diagnosis_locates_a_mistake_in_the_rules_only_by_a_rule_event() {
    let cases: Vec<(Puzzle, String)> = puzzles().into_iter().take(60).collect();
    // Every failure is an output that is not an answer: no rule event names a group.
    let garbled = |p: &Puzzle| match under(after())(p) == under(Rules::OURS)(p) {
        true => under(Rules::OURS)(p),
        false => "oops\n".to_string(),
    };
    let outputs: Vec<String> = cases.iter().map(|(p, _)| garbled(p)).collect();
    let d = diagnose(&observed(&cases, &outputs), 2, || true);
    let report = crate::judge::report::DiagnosisReport::new(&d, Vec::new());
    assert!(
        report.sentence.ends_with("(see the groups)."),
        "{}",
        report.sentence
    );
    assert!(!report.sentence.contains("locate it in the rules"));
}

#[test]
fn a_trait_of_the_shape_is_paired_with_the_same_game_on_a_square_map() {
    let shape = RuleEvent::NOT_SQUARE;
    let cases = puzzles();
    let sources = with_event(&cases, shape);
    assert!(!sources.is_empty());
    let e = design_event(shape, &sources, &[], 5, &|| true);
    let part = &e.parts[0];
    assert!(part.cases.len() >= 2 * ENOUGH, "{part:?}");
    for pair in part.cases.chunks(2) {
        let (a, b) = (&pair[0].puzzle, &pair[1].puzzle);
        // The same game: the moves, every cell of the first, our answer; only `#` added.
        assert_eq!(a.moves(), b.moves());
        assert_eq!(b.map().cols(), b.map().rows(), "{b}");
        for (at, cell) in a.map().iter() {
            assert_eq!(b.map().get(at), Some(cell));
        }
        let answer = |p: &Puzzle| play_out(p, Rules::OURS).expect("plays").answer();
        assert_eq!(answer(a), answer(b));
    }
    let c = e.judge(&printed(&e, wrong_where(shape)));
    assert!(c.confirmed(), "{c:?}");
}

#[test]
fn a_reading_that_explains_fewer_than_three_wrong_answers_is_never_confirmed() {
    // Designed cases from two puzzles all as predicted, but the run had two wrong
    // answers for the reading: the group line says what the diagnosis line says.
    let part = Tally {
        name: "--variant x".into(),
        matched: 4,
        designed: 4,
        against: 0,
        puzzles: 2,
        tried: 10,
        paired: false,
    };
    let c = |explains| Confirmation {
        rule_event: false,
        parts: vec![part.clone()],
        tried: Vec::new(),
        explains,
    };
    assert!(c(Some(3)).confirmed());
    assert!(c(None).confirmed());
    let few = c(Some(2));
    assert!(!few.confirmed() && few.stands());
    assert!(
        few.words().starts_with(
            "not confirmed: 2 wrong answers to explain, fewer than 3; --variant x as predicted on 4 of 4"
        ),
        "{}",
        few.words()
    );
}

#[test]
fn a_pair_where_the_event_did_no_harm_keeps_a_rule_event_from_confirmation() {
    // Five pairs wrong with the event and right without, one where the event fired and
    // the answer was right: mixed, never confirmed; as many against as for: refuted.
    let part = Tally {
        name: "diagonal-squeeze".into(),
        matched: 5,
        designed: 5,
        against: 1,
        puzzles: 4,
        tried: 30,
        paired: true,
    };
    let c = |part: Tally| Confirmation {
        rule_event: true,
        parts: vec![part],
        tried: Vec::new(),
        explains: None,
    };
    let mixed = c(part.clone());
    assert_eq!(mixed.strength(), Strength::Weak);
    assert_eq!(
        mixed.words(),
        "weak evidence: the answer was wrong with diagonal-squeeze and right without on 5 of 5 \
         designed pairs, but diagonal-squeeze happens in 1 designed case the answer got right"
    );
    let even = c(Tally {
        matched: 1,
        designed: 1,
        ..part.clone()
    });
    assert_eq!(even.strength(), Strength::Refuted);
    // A reading predicts an exact output: one case against it refutes it.
    let reading = Confirmation {
        rule_event: false,
        ..c(Tally {
            paired: false,
            ..part
        })
    };
    assert_eq!(reading.strength(), Strength::Refuted);
}

#[test]
fn a_beast_kept_from_a_step_walks_another_path_and_the_players_game_stays_the_same() {
    // The beast squeezes down-right between two walls, then steps up-right onto the
    // player. Opening the wall on its right makes it step right, then right again: the
    // down-right step is gone with the squeeze and the step after it, which followed from
    // it; every event of the player's and the ending are the same.
    let source = Puzzle::parse("5 4\n#####\n#H#O#\n##  #\n#####\n\n").expect("valid");
    let step = RuleEvent::BEAST_STEPS_DOWN_RIGHT;
    let bits = event_bits(&source, &|| true).expect("decided");
    let (may_gain, may_lose) = allowance(&source, step.bit(), &|| true);
    let moves_after =
        RuleEvent::DIAGONAL_SQUEEZE.bit() | RuleEvent::BEAST_STEPS_UP_RIGHT.bit() | step.bit();
    assert_eq!(may_lose, moves_after);
    assert!(may_gain & RuleEvent::BEAST_STEPS_RIGHT.bit() != 0);
    assert!(may_gain & RuleEvent::EATEN_BY_BEAST.bit() == 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let without = without_event(&source, step.bit(), bits, &mut rng, &|| true, &mut 0)
        .expect("a one-cell change");
    assert_eq!(without.to_string(), "5 4\n#####\n#H O#\n##  #\n#####\n\n");
    // The other events keep their old allowance: a train cut to one `~` may push one
    // instead, and lose nothing.
    let train = allowance(&source, RuleEvent::PUSH_TRAIN.bit(), &|| true);
    assert_eq!(train, (RuleEvent::PUSH_ONE.bit(), 0));
}

#[test]
fn a_head_its_designed_cases_confirm_is_explained_however_few_wrong_answers_need_all_of_it() {
    // A combination whose every wrong answer one part alone reproduces has no evidence
    // left by the count of wrong answers no simpler hypothesis reproduces; its designed
    // cases confirmed it, and the diagnosis line says so, as the group line does.
    let cases = puzzles();
    let (mut d, designed, found) = run(&cases, under(after()));
    d.status = Status::Consistent;
    d.readings[0].evidence = 0;
    for g in &mut d.groups {
        if let Cause::Hypothesis { head, .. } = &mut g.cause {
            head.evidence = 0;
        }
    }
    settle(&mut d, &designed, &found);
    assert_eq!(d.status, Status::Explained);
    let said = crate::judge::report::DiagnosisReport::new(&d, Vec::new()).sentence;
    assert!(
        said.ends_with("Evidence: the designed cases: confirmed on 4 of 4 designed cases."),
        "{said}"
    );
    // Not confirmed: the spectrum's weak evidence stands.
    let (mut d, designed, mut found) = run(&cases, under(after()));
    d.status = Status::Consistent;
    found[0][0].parts[0].puzzles = 1;
    settle(&mut d, &designed, &found);
    assert_eq!(d.status, Status::Consistent);
}

#[test]
fn a_wait_is_paired_with_the_same_game_where_the_player_steps_against_a_wall() {
    // The player waits twice under the border's wall, then steps right. Made steps up
    // against that wall, the waits play the same game, with `blocked-move` instead of
    // `wait-move`.
    let source = Puzzle::parse("6 4\n######\n#O  H#\n#  ~ #\n######\nWWR\n").expect("valid");
    let bits = event_bits(&source, &|| true).expect("decided");
    assert!(bits & RuleEvent::WAIT_MOVE.bit() != 0);
    let blocked = blocked_version(&source, bits, &|| true, &mut 0).expect("a wall beside");
    assert_eq!(
        blocked.moves(),
        Puzzle::parse("6 4\n######\n#O  H#\n#  ~ #\n######\nUUR\n")
            .expect("valid")
            .moves()
    );
    assert_eq!(ours(&blocked), ours(&source));
    // In open ground there is no wall to step against: no pair.
    let open =
        Puzzle::parse("7 5\n#######\n#     #\n#  O  #\n#    H#\n#######\nW\n").expect("valid");
    let bits = event_bits(&open, &|| true).expect("decided");
    assert_eq!(blocked_version(&open, bits, &|| true, &mut 0), None);
}

#[test]
fn a_confirmed_pair_says_what_its_change_was() {
    let c = |name: &str| Confirmation {
        rule_event: true,
        parts: vec![Tally {
            name: name.into(),
            matched: 4,
            designed: 4,
            against: 0,
            puzzles: 3,
            tried: 30,
            paired: true,
        }],
        tried: Vec::new(),
        explains: None,
    };
    assert_eq!(
        c("push-train").words(),
        "confirmed on 4 of 4 designed pairs (the same puzzle with and without push-train: \
         wrong with it, right without)"
    );
    assert!(
        c("wait-move")
            .words()
            .contains("each W made a step against a wall beside the player"),
        "{}",
        c("wait-move").words()
    );
    assert!(
        c("not-square")
            .words()
            .contains("on the map and on it made square"),
        "{}",
        c("not-square").words()
    );
}
