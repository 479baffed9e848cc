//! Flaky answers: a case run again that gives another output tells of an answer that is
//! not deterministic, and no rule explains what it printed. Those cases are set apart
//! before the diagnosis, and lead the groups.

use crate::judge::diagnose::{self, Cause, Diagnosis, Group, Observed, Printed, Status};
use crate::judge::verdict::Verdict;

/// One case run again: its outputs and verdicts, the first being the run the report
/// judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rerun {
    /// The case, as its index in the observed list.
    pub case: usize,
    /// Its name.
    pub name: String,
    /// What it printed on each run, in order (what it printed before it crashed, or up to
    /// the output cap, for a run that did not end cleanly).
    pub outputs: Vec<String>,
    /// How each run was judged, in order.
    pub verdicts: Vec<Verdict>,
}

impl Rerun {
    /// True if its runs differ: another verdict (a crash once, a clean exit once), or
    /// another output (leniently, as the verdicts compare: whitespace aside). A crash that
    /// prints the same before it each time is the same run each time, not a flaky one.
    pub fn differs(&self) -> bool {
        let same =
            |a: &str, b: &str| match (Printed::read(a.as_bytes()), Printed::read(b.as_bytes())) {
                (Some(x), Some(y)) => x == y,
                _ => a.split_whitespace().eq(b.split_whitespace()),
            };
        self.verdicts.windows(2).any(|w| w[0] != w[1])
            || self.outputs.windows(2).any(|w| !same(&w[0], &w[1]))
    }
}

/// Each failing group's shown case runs this many more times (without `--repeat`).
pub const AGAIN: usize = 2;

/// At most this many failures of a group whose shown case was flaky run again to find
/// which of them are.
pub const SUSPECTS: usize = 60;

/// What to run again first to tell a flaky answer, as indices into `observed`, each to run
/// `times` more times: with `repeat` > 0 every case `repeat` times; otherwise each failing
/// group's shown case [`AGAIN`] times (a format group passed; a timeout would cost its whole
/// limit again).
pub fn first_reruns(d: &Diagnosis, observed: &[Observed], repeat: usize) -> Reruns {
    match repeat {
        0 => Reruns {
            cases: failing_groups(d, observed).map(|g| g.smallest).collect(),
            times: AGAIN,
        },
        n => Reruns {
            cases: (0..observed.len()).collect(),
            times: n,
        },
    }
}

/// What to run again after `first` found the flaky cases `found`: without `--repeat`, the
/// other failures (at most [`SUSPECTS`]) of each group whose shown case was flaky, each
/// [`AGAIN`] times; nothing once every case ran again, or nothing was flaky.
pub fn suspects(
    d: &Diagnosis,
    observed: &[Observed],
    first: &Reruns,
    found: &[Rerun],
    repeat: usize,
) -> Reruns {
    let cases = match repeat > 0 || found.is_empty() {
        true => Vec::new(),
        false => failing_groups(d, observed)
            .filter(|g| found.iter().any(|r| r.case == g.smallest))
            .flat_map(|g| g.cases.iter().copied().filter(|i| !first.cases.contains(i)))
            .take(SUSPECTS)
            .collect(),
    };
    Reruns {
        cases,
        times: AGAIN,
    }
}

/// The groups of `d` whose shown case failed in a way worth running again.
fn failing_groups<'d>(
    d: &'d Diagnosis,
    observed: &'d [Observed],
) -> impl Iterator<Item = &'d Group> + Clone {
    d.groups.iter().filter(|g| {
        !matches!(g.cause, Cause::Format { .. })
            && observed[g.smallest].verdict != Verdict::TimeLimit
    })
}

/// Cases to run again, each the same number of times.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reruns {
    /// The cases, as indices into the observed list.
    pub cases: Vec<usize>,
    /// How many more times each runs.
    pub times: usize,
}

impl Reruns {
    /// Every run asked, in order: each case `times` times over.
    pub fn runs(&self) -> Vec<usize> {
        self.cases
            .iter()
            .flat_map(|&i| std::iter::repeat_n(i, self.times))
            .collect()
    }

    /// The cases whose runs differ, given `again`, what each of [`Reruns::runs`] gave: its
    /// verdict and output, or `None` where it was not judged (the judge could not set it
    /// up, or the check was interrupted), which shows nothing of the answer.
    pub fn differing(
        &self,
        observed: &[Observed],
        again: &[Option<(Verdict, String)>],
    ) -> Vec<Rerun> {
        let mut found = Vec::new();
        for (&i, runs) in self.cases.iter().zip(again.chunks(self.times.max(1))) {
            let first = (
                observed[i].verdict,
                String::from_utf8_lossy(observed[i].got).into_owned(),
            );
            let (verdicts, outputs): (Vec<Verdict>, Vec<String>) = std::iter::once(first)
                .chain(runs.iter().flatten().cloned())
                .unzip();
            let r = Rerun {
                case: i,
                name: observed[i].name.to_string(),
                outputs,
                verdicts,
            };
            if r.differs() {
                found.push(r);
            }
        }
        found
    }
}

/// The diagnosis of `observed` with the `flaky` cases set apart: the rest is diagnosed as
/// [`diagnose::diagnose`] does, and the flaky cases are the first group, shown by the
/// first of them. A run whose failures are all flaky is not called correct.
pub fn set_apart(
    observed: &[Observed],
    flaky: &[Rerun],
    threads: usize,
    keep_going: impl Fn() -> bool + Sync,
) -> Diagnosis {
    let apart = |i: usize| flaky.iter().any(|r| r.case == i);
    let kept: Vec<usize> = (0..observed.len()).filter(|&i| !apart(i)).collect();
    let rest: Vec<Observed> = kept.iter().map(|&i| observed[i]).collect();
    let mut d = diagnose::diagnose(&rest, threads, keep_going);
    for g in &mut d.groups {
        g.cases = g.cases.iter().map(|&k| kept[k]).collect();
        g.smallest = kept[g.smallest];
    }
    let Some(first) = flaky.first() else {
        return d;
    };
    let mut cases: Vec<usize> = flaky.iter().map(|r| r.case).collect();
    cases.sort_unstable();
    d.groups.insert(
        0,
        Group {
            cause: Cause::Flaky {
                name: first.name.clone(),
                outputs: first.outputs.clone(),
                verdicts: first.verdicts.clone(),
            },
            cases,
            smallest: first.case,
            confirmation: None,
        },
    );
    if d.status == Status::Correct {
        d.status = Status::Unexplained;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::Puzzle;
    use crate::judge::verdict::compare;

    const REAPER: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";

    fn rerun(outputs: &[&str]) -> Rerun {
        Rerun {
            case: 0,
            name: "random-5-44".into(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            verdicts: vec![Verdict::WrongAnswer; outputs.len()],
        }
    }

    #[test]
    fn outputs_that_differ_only_in_whitespace_are_the_same_output() {
        assert!(!rerun(&["aHHHH!\n0\n", "aHHHH! 0", "aHHHH!\n0"]).differs());
        assert!(rerun(&["2\n", "aHHHH!\n0\n", "2\n"]).differs());
        assert!(rerun(&["oops\n", "oops!\n"]).differs());
    }

    #[test]
    fn a_crash_that_prints_the_same_each_time_is_not_flaky_but_another_ending_is() {
        let crash = |verdicts: &[Verdict]| Rerun {
            verdicts: verdicts.to_vec(),
            ..rerun(&[
                "aHHHH!\naHHHH!\naHH",
                "aHHHH!\naHHHH!\naHH",
                "aHHHH!\naHHHH!\naHH",
            ])
        };
        let ole = Verdict::OutputLimit;
        assert!(!crash(&[ole, ole, ole]).differs());
        assert!(crash(&[ole, Verdict::RuntimeError, ole]).differs());
    }

    #[test]
    fn flaky_cases_lead_the_groups_and_take_no_rule_label() {
        let p = Puzzle::parse(REAPER).expect("valid");
        let expected = "aHHHH!\n0\n";
        let outputs = ["2\n", "aHHHH!\n0\n", "aHHHH!\n0\n"];
        let observed: Vec<Observed> = outputs
            .iter()
            .map(|got| {
                let verdict = compare(expected.as_bytes(), got.as_bytes(), false);
                Observed {
                    name: "reaper",
                    puzzle: &p,
                    layout: crate::judge::robustness::TextForms::default(),
                    expected,
                    got: got.as_bytes(),
                    verdict,
                    passed: verdict.passed(false),
                }
            })
            .collect();
        let flaky = [Rerun {
            case: 0,
            ..rerun(&["2\n", "aHHHH!\n0\n", "2\n"])
        }];
        let d = set_apart(&observed, &flaky, 1, || true);
        assert_eq!(d.groups.len(), 1, "{:?}", d.groups);
        assert!(matches!(d.groups[0].cause, Cause::Flaky { .. }));
        assert_eq!(d.groups[0].cases, vec![0]);
        assert!(d.readings.is_empty());
        assert_ne!(d.status, Status::Correct);
        assert_eq!(
            diagnose::describe(&d.groups[0].cause),
            "flaky: random-5-44 gave `2`, `aHHHH!`/`0`, `2` (the answer is nondeterministic: \
             no rule is blamed for these cases)"
        );
    }
}
