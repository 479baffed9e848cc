//! Benchmarks of the pure parts of `beast check`: generation, comparison, the diagnosis of a
//! run (with the design of the cases that confirm its labels: `judge::design`; the answer's
//! runs on them are counted apart) and shrinking with an in-process candidate (the engine under another reading). The
//! process overhead of the judge is measured end to end instead (see the README), and so is
//! the cost of each sandbox level: `check_20_cases_per_sandbox_level` runs `beast check` on
//! 20 random cases with `beast` itself as the candidate; the difference between two levels,
//! divided by 20, is the per-case overhead of the stronger one.

use beast_engine::beast::{Puzzle, Rules, Target, play_out};
use beast_engine::judge::design;
use beast_engine::judge::diagnose::{self, Observed};
use beast_engine::judge::generate::{GenOptions, generate};
use beast_engine::judge::{shrink, verdict};

fn main() {
    divan::main();
}

/// A candidate that aims at the player after his move: fails on some puzzles.
fn after(p: &beast_engine::beast::Puzzle) -> String {
    let rules = Rules {
        target: Target::After,
        ..Rules::default()
    };
    play_out(p, rules).map(|o| o.answer()).unwrap_or_default()
}

fn fails(p: &beast_engine::beast::Puzzle) -> bool {
    play_out(p, Rules::default()).is_ok_and(|o| o.answer() != after(p))
}

/// The first default-size puzzle, from seed 0 on, that the `after` candidate fails.
fn failing() -> beast_engine::beast::Puzzle {
    (0..)
        .filter_map(|s| generate(s, &GenOptions::default()).ok())
        .find(fails)
        .expect("some puzzle tells the readings apart")
}

#[divan::bench]
fn generate_default_size(b: divan::Bencher) {
    let mut seed = 0;
    b.bench_local(|| {
        seed += 1;
        generate(seed, &GenOptions::default())
    });
}

#[divan::bench]
fn compare_outputs() -> verdict::Verdict {
    verdict::compare(
        divan::black_box(b"aHHHH!\n12\n"),
        divan::black_box(b"aHHHH! \n12"),
        false,
    )
}

/// 1,000 default-size random puzzles with our answers.
fn thousand() -> Vec<(Puzzle, String)> {
    (0..1000)
        .filter_map(|s| generate(s, &GenOptions::default()).ok())
        .filter_map(|p| play_out(&p, Rules::default()).ok().map(|o| (p, o.answer())))
        .collect()
}

/// Diagnoses 1,000 cases where the answer printed `got(puzzle)`, on two threads (the
/// machine's cores).
fn diagnose_thousand(b: divan::Bencher, got: impl Fn(&Puzzle) -> String) {
    let cases = thousand();
    let outputs: Vec<String> = cases.iter().map(|(p, _)| got(p)).collect();
    b.bench_local(|| {
        let observed: Vec<Observed> = cases
            .iter()
            .zip(&outputs)
            .map(|((p, expected), got)| {
                let v = verdict::compare(expected.as_bytes(), got.as_bytes(), false);
                Observed {
                    name: "case",
                    puzzle: p,
                    layout: Default::default(),
                    expected,
                    got: got.as_bytes(),
                    verdict: v,
                    passed: v.passed(false),
                }
            })
            .collect();
        diagnosed_and_designed(&observed)
    });
}

/// The diagnosis of `observed` and the designed cases of its labels: the judge's own work
/// before the answer runs on them.
fn diagnosed_and_designed(
    observed: &[Observed],
) -> (diagnose::Diagnosis, Vec<design::GroupExperiments>) {
    let d = diagnose::diagnose(observed, 2, || true);
    let designed = design::for_groups(observed, &d, 1, || true);
    (d, designed)
}

/// One catalogue mistake (aiming after the move): explained.
#[divan::bench(sample_count = 5)]
fn diagnose_1000_cases_one_mistake(b: divan::Bencher) {
    diagnose_thousand(b, after);
}

/// An answer that fails every case with a plausible output no reading gives (the score
/// plus 2): every reading is tried on every case.
#[divan::bench(sample_count = 5)]
fn diagnose_1000_cases_all_failing(b: divan::Bencher) {
    diagnose_thousand(b, |p| {
        let o = play_out(p, Rules::default()).expect("judged");
        format!("{}\n", o.score + 2)
    });
}

/// 1,000 random puzzles of the default generator (2: varied sizes) with our answers.
fn thousand_varied() -> Vec<(Puzzle, String)> {
    let recipe = beast_engine::judge::generate::Recipe::default();
    (0..1000)
        .filter_map(|s| recipe.make(s).ok())
        .filter_map(|g| {
            let answer = play_out(&g.puzzle, Rules::default()).ok()?.answer();
            Some((g.puzzle, answer))
        })
        .collect()
}

/// A mistake outside the catalogue (issue 23's target: under 1 s): an answer that gets
/// every puzzle with a train push wrong, with the death line the other way round and 2
/// points more, and the rest right. No hypothesis gives it: every reading is tried (on the
/// passing cases until it breaks one, then on the failures), and the rule events of every
/// case are recorded to locate it.
#[divan::bench(sample_count = 5)]
fn diagnose_1000_cases_own_mistake_with_events(b: divan::Bencher) {
    use beast_engine::beast::events::{self, RuleEvent};
    let cases = thousand_varied();
    let train = RuleEvent::named("push-train").expect("in the vocabulary");
    let outputs: Vec<String> = cases
        .iter()
        .map(|(p, expected)| match events::record(p, || true) {
            Ok(e) if e.has(train) => match play_out(p, Rules::default()) {
                Ok(o) if o.ending == beast_engine::beast::Ending::Eaten => {
                    format!("{}\n", o.score + 2)
                }
                Ok(o) => format!("aHHHH!\n{}\n", o.score + 2),
                Err(_) => expected.clone(),
            },
            _ => expected.clone(),
        })
        .collect();
    b.bench_local(|| {
        let observed: Vec<Observed> = cases
            .iter()
            .zip(&outputs)
            .map(|((p, expected), got)| {
                let v = verdict::compare(expected.as_bytes(), got.as_bytes(), false);
                Observed {
                    name: "case",
                    puzzle: p,
                    layout: Default::default(),
                    expected,
                    got: got.as_bytes(),
                    verdict: v,
                    passed: v.passed(false),
                }
            })
            .collect();
        diagnosed_and_designed(&observed)
    });
}

#[divan::bench(sample_count = 20)]
fn shrink_a_failing_default_size_puzzle(b: divan::Bencher) {
    let p = failing();
    b.bench_local(|| shrink::shrink(&p, shrink::DEFAULT_BUDGET, fails));
}

/// The levels of `--sandbox` compared by [`check_20_cases_per_sandbox_level`].
const LEVELS: [&str; 3] = ["none", "basic", "auto"];

#[divan::bench(args = LEVELS, sample_count = 10)]
fn check_20_cases_per_sandbox_level(b: divan::Bencher, level: &str) {
    let beast = env!("CARGO_BIN_EXE_beast");
    b.bench_local(|| {
        std::process::Command::new(beast)
            .args([
                "check",
                "--sandbox",
                level,
                "--no-builtin",
                "--random",
                "20",
            ])
            .args(["--seed", "1", "--jobs", "1", "--no-shrink", "--", beast])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map(|s| s.success())
    });
}
