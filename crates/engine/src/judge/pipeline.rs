//! The diagnosis of one answer's run, start to end, as typed stages:
//!
//! 1. [`search`]: the known readings and output hypotheses tried on the run, the failures
//!    grouped ([`Searched`]);
//! 2. [`Searched::steady`]: failures run again, and the cases whose runs differ set apart as
//!    flaky ([`Steadied`], [`crate::judge::flaky`]);
//! 3. [`Steadied::design`]: for each label, cases designed so that it could fail
//!    ([`Designed`], [`crate::judge::design`]);
//! 4. [`Designed::settle`]: the answer run on them, and only the labels they bear out kept
//!    ([`Settled`]);
//! 5. [`Settled::report`]: the words, once the binary has shown each group's case.
//!
//! A stage can only be reached from the one before it. [`conclude`] runs 1 to 4. The binary
//! supplies only a [`Rerunner`], the way to run the answer again; a run that cannot be run
//! again (merged from shards, or interrupted) goes from 1 straight to [`Settled`], with
//! nothing confirmed ([`Searched::unsettled`]). Every search is bounded by counts
//! ([`crate::judge::budget`]), so the same run gives the same diagnosis on any machine.

use crate::beast::Puzzle;
use crate::judge::budget::{self, Steps};
use crate::judge::design::{self, GroupExperiments, Ran};
use crate::judge::diagnose::{self, Cause, Diagnosis, Observed};
use crate::judge::flaky::{self, Rerun};
use crate::judge::report::{DiagnosisReport, GroupReport};
use crate::judge::robustness::RobustnessReport;
use crate::judge::tuning::{self, Rates};
use crate::judge::verdict::Verdict;

/// How the answer is run again: the binary's side of the experiments.
pub trait Rerunner: Sync {
    /// Why a run could not be made at all (the judge's own failure).
    type Error;

    /// Runs the answer once more on each of `cases` (indices into the observed list; a case
    /// may come more than once), on its own input, and judges it against its expected
    /// output: for each, its verdict and output, or `None` where the run shows nothing of
    /// the answer (the judge could not set it up, or the check was interrupted).
    #[allow(clippy::type_complexity)]
    fn again(&self, cases: &[usize]) -> Result<Vec<Option<(Verdict, String)>>, Self::Error>;

    /// Runs the answer once on each designed puzzle, its text as the input.
    fn designed(&self, puzzles: &[&Puzzle]) -> Result<Vec<Ran>, Self::Error>;

    /// True once the check was interrupted: every search stops.
    fn interrupted(&self) -> bool;
}

/// How one run's diagnosis is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Threads for the searches.
    pub threads: usize,
    /// The search's budget ([`Steps::DIAGNOSIS`], or [`Steps::BRIEF_DIAGNOSIS`] for an
    /// interrupted run).
    pub search: Steps,
    /// `--repeat`: how many more times every case runs (0: each group's shown failure,
    /// [`flaky::AGAIN`] times).
    pub repeat: usize,
    /// The seed of the designed cases (the run's `--seed`).
    pub seed: u64,
}

/// Stage 1: the run searched, its failures grouped; nothing run again yet.
#[derive(Clone, Debug)]
pub struct Searched {
    diagnosis: Diagnosis,
}

/// Stage 2: the flaky cases set apart (the search made again without them).
#[derive(Clone, Debug)]
pub struct Steadied {
    diagnosis: Diagnosis,
}

/// Stage 3: each label's designed cases, not yet run.
#[derive(Clone, Debug)]
pub struct Designed {
    diagnosis: Diagnosis,
    designed: Vec<GroupExperiments>,
}

/// Stage 4: the diagnosis the experiments settled: each label confirmed, weak or dropped.
#[derive(Clone, Debug)]
pub struct Settled {
    diagnosis: Diagnosis,
}

/// Stages 1 to 4 for `observed`: with a `rerunner`, the run is searched, steadied, designed
/// and settled; without one, searched only.
pub fn conclude<R: Rerunner>(
    observed: &[Observed],
    rerunner: Option<&R>,
    settings: &Settings,
) -> Result<Settled, R::Error> {
    let stop = || rerunner.is_some_and(|r| r.interrupted());
    let searched = search(observed, settings, &stop);
    let Some(rerunner) = rerunner else {
        return Ok(searched.unsettled());
    };
    searched
        .steady(observed, rerunner, settings)?
        .design(observed, settings.seed, rerunner)
        .settle(rerunner)
}

/// Stage 1: the diagnosis of `observed` on `settings.threads` threads within
/// `settings.search` steps, or until `stop` (the same on any number of threads:
/// [`budget::threaded`]).
pub fn search(
    observed: &[Observed],
    settings: &Settings,
    stop: &(dyn Fn() -> bool + Sync),
) -> Searched {
    let diagnosis = budget::threaded(settings.search, settings.threads, stop, |t, keep_going| {
        diagnose::diagnose(observed, t, keep_going)
    });
    Searched { diagnosis }
}

impl Searched {
    /// What the search found.
    pub fn diagnosis(&self) -> &Diagnosis {
        &self.diagnosis
    }

    /// Stage 2: each failing group's shown case run again (with `--repeat`, every case);
    /// where one differs, the group's other failures too; the cases whose runs differ set
    /// apart as flaky, and the rest searched again without them.
    pub fn steady<R: Rerunner>(
        self,
        observed: &[Observed],
        rerunner: &R,
        settings: &Settings,
    ) -> Result<Steadied, R::Error> {
        let d = self.diagnosis;
        let first = flaky::first_reruns(&d, observed, settings.repeat);
        let mut found = first.differing(observed, &rerunner.again(&first.runs())?);
        let more = flaky::suspects(&d, observed, &first, &found, settings.repeat);
        if !more.cases.is_empty() {
            found.extend(more.differing(observed, &rerunner.again(&more.runs())?));
        }
        let diagnosis = match found.is_empty() {
            true => d,
            false => set_apart(observed, &found, settings, rerunner),
        };
        Ok(Steadied { diagnosis })
    }

    /// A run that cannot be run again (merged from shards, or interrupted): settled as it
    /// was found, with no label confirmed.
    pub fn unsettled(self) -> Settled {
        Settled {
            diagnosis: self.diagnosis,
        }
    }
}

/// The diagnosis made again with the `flaky` cases set apart, within the same budget.
fn set_apart<R: Rerunner>(
    observed: &[Observed],
    flaky: &[Rerun],
    settings: &Settings,
    rerunner: &R,
) -> Diagnosis {
    let stop = || rerunner.interrupted();
    budget::threaded(settings.search, settings.threads, &stop, |t, keep_going| {
        flaky::set_apart(observed, flaky, t, keep_going)
    })
}

impl Steadied {
    /// Stage 3: the experiments of every labelled group, seeded by `seed`, within
    /// [`Steps::DESIGN`] puzzles looked at (or until the check is interrupted).
    pub fn design<R: Rerunner>(self, observed: &[Observed], seed: u64, rerunner: &R) -> Designed {
        let steps = Steps::DESIGN.counter();
        let designed = design::for_groups(observed, &self.diagnosis, seed, || {
            steps() && !rerunner.interrupted()
        });
        Designed {
            diagnosis: self.diagnosis,
            designed,
        }
    }
}

impl Designed {
    /// The experiments designed, one [`GroupExperiments`] a labelled group.
    pub fn experiments(&self) -> &[GroupExperiments] {
        &self.designed
    }

    /// Stage 4: the answer run once on every designed case, each experiment judged, and
    /// the diagnosis settled by what they found ([`design::settle`]).
    pub fn settle<R: Rerunner>(self, rerunner: &R) -> Result<Settled, R::Error> {
        let experiments = || self.designed.iter().flat_map(|p| &p.experiments);
        let puzzles: Vec<&Puzzle> = experiments().flat_map(|e| e.puzzles()).collect();
        let ran = rerunner.designed(&puzzles)?;
        let mut at = 0;
        let found: Vec<Vec<_>> = self
            .designed
            .iter()
            .map(|p| {
                p.experiments
                    .iter()
                    .map(|e| {
                        let n = e.puzzles().count();
                        let judged = e.judge(&ran[at..at + n]);
                        at += n;
                        judged
                    })
                    .collect()
            })
            .collect();
        let mut diagnosis = self.diagnosis;
        design::settle(&mut diagnosis, &self.designed, &found);
        Ok(Settled { diagnosis })
    }
}

impl Settled {
    /// The settled diagnosis: its groups are the ones the binary shows.
    pub fn diagnosis(&self) -> &Diagnosis {
        &self.diagnosis
    }

    /// How many cases the flaky group holds (0 when there is none).
    pub fn flaky_cases(&self) -> usize {
        self.diagnosis
            .groups
            .iter()
            .filter(|g| matches!(g.cause, Cause::Flaky { .. }))
            .map(|g| g.cases.len())
            .sum()
    }

    /// Stage 5, the words: the report of the diagnosis with each group's shown case
    /// (`groups`), its sentence led by what the pass rates of built-in and random cases say
    /// ([`tuning::lead`]), and the robustness section.
    pub fn report(
        &self,
        groups: Vec<GroupReport>,
        rates: Rates,
        robustness: Option<RobustnessReport>,
    ) -> DiagnosisReport {
        let mut report = DiagnosisReport::new(&self.diagnosis, groups);
        report.sentence = tuning::with_lead(rates, &report.sentence);
        report.robustness = robustness;
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::{Rules, Target};
    use crate::judge::diagnose::Status;
    use crate::judge::generate::Recipe;
    use crate::judge::robustness::TextForms;
    use crate::judge::separate;
    use crate::judge::verdict::compare;
    use std::sync::Mutex;

    /// An answer that aims where the player will be (`--target after`), run again in the
    /// test: what it printed on each case, and whether it prints something else on a case's
    /// second run (`flaky`: those cases' indices). Every run asked is counted.
    struct Scripted {
        cases: Vec<(Puzzle, String)>,
        first: Vec<String>,
        flaky: Vec<usize>,
        interrupted: bool,
        asked: Mutex<Vec<usize>>,
        designed: Mutex<usize>,
    }

    fn after(p: &Puzzle) -> String {
        let rules = Rules {
            target: Target::After,
            ..Rules::OURS
        };
        separate::answer(p, rules, &mut || true).unwrap_or_default()
    }

    impl Rerunner for Scripted {
        type Error = std::convert::Infallible;

        fn again(&self, cases: &[usize]) -> Result<Vec<Option<(Verdict, String)>>, Self::Error> {
            let mut asked = self.asked.lock().expect("not poisoned");
            Ok(cases
                .iter()
                .map(|&i| {
                    asked.push(i);
                    let (p, expected) = &self.cases[i];
                    let got = match self.flaky.contains(&i) && asked.len().is_multiple_of(2) {
                        true => "7\n".to_string(),
                        false => after(p),
                    };
                    Some((compare(expected.as_bytes(), got.as_bytes(), false), got))
                })
                .collect())
        }

        fn designed(&self, puzzles: &[&Puzzle]) -> Result<Vec<Ran>, Self::Error> {
            *self.designed.lock().expect("not poisoned") += puzzles.len();
            Ok(puzzles
                .iter()
                .map(|p| Ran::Output(after(p).into_bytes()))
                .collect())
        }

        fn interrupted(&self) -> bool {
            self.interrupted
        }
    }

    fn scripted(flaky: Vec<usize>, interrupted: bool) -> Scripted {
        let recipe = Recipe::default();
        let cases = (0..120)
            .filter_map(|s| recipe.make(s).ok())
            .filter_map(|g| {
                let ours = play_out_answer(&g.puzzle)?;
                Some((g.puzzle, ours))
            })
            .collect::<Vec<_>>();
        let first = cases.iter().map(|(p, _)| after(p)).collect();
        Scripted {
            cases,
            first,
            flaky,
            interrupted,
            asked: Mutex::new(Vec::new()),
            designed: Mutex::new(0),
        }
    }

    fn play_out_answer(p: &Puzzle) -> Option<String> {
        Some(crate::beast::play_out(p, Rules::OURS).ok()?.answer())
    }

    /// What the answer printed on the first run of every case.
    fn observed(s: &Scripted) -> Vec<Observed<'_>> {
        s.cases
            .iter()
            .zip(&s.first)
            .map(|((p, e), got)| {
                let verdict = compare(e.as_bytes(), got.as_bytes(), false);
                Observed {
                    name: "case",
                    puzzle: p,
                    layout: TextForms::default(),
                    expected: e,
                    got: got.as_bytes(),
                    verdict,
                    passed: verdict.passed(false),
                }
            })
            .collect()
    }

    const SETTINGS: Settings = Settings {
        threads: 2,
        search: Steps::DIAGNOSIS,
        repeat: 0,
        seed: 7,
    };

    #[test]
    fn a_label_is_settled_by_the_cases_designed_for_it_and_run_once_each() {
        let s = scripted(Vec::new(), false);
        let seen = observed(&s);
        let settled = conclude(&seen, Some(&s), &SETTINGS).expect("infallible");
        let head = &settled.diagnosis().groups[0];
        let confirmation = head.confirmation.as_ref().expect("a confirmation");
        assert!(confirmation.confirmed(), "{confirmation:?}");
        assert!(*s.designed.lock().expect("not poisoned") >= 3);
        // Each failing group's shown case ran twice more, and nothing else.
        let asked = s.asked.lock().expect("not poisoned").clone();
        let shown: Vec<usize> = settled
            .diagnosis()
            .groups
            .iter()
            .map(|g| g.smallest)
            .collect();
        assert_eq!(asked.len(), shown.len() * flaky::AGAIN, "{asked:?}");
        assert!(asked.iter().all(|i| shown.contains(i)));
        assert_eq!(settled.flaky_cases(), 0);
    }

    #[test]
    fn a_run_that_cannot_be_run_again_confirms_nothing() {
        let s = scripted(Vec::new(), false);
        let seen = observed(&s);
        let settled = conclude::<Scripted>(&seen, None, &SETTINGS).expect("infallible");
        let groups = &settled.diagnosis().groups;
        assert!(!groups.is_empty());
        assert!(
            groups.iter().all(|g| g.confirmation.is_none()),
            "{groups:?}"
        );
        assert!(s.asked.lock().expect("not poisoned").is_empty());
    }

    #[test]
    fn a_shown_case_that_prints_another_output_when_run_again_leads_as_flaky() {
        let probe = scripted(Vec::new(), false);
        let seen = observed(&probe);
        let searched = search(&seen, &SETTINGS, &|| false);
        let shown = searched.diagnosis().groups[0].smallest;
        let s = scripted(vec![shown], false);
        let settled = conclude(&seen, Some(&s), &SETTINGS).expect("infallible");
        let first = &settled.diagnosis().groups[0];
        assert!(matches!(first.cause, Cause::Flaky { .. }), "{first:?}");
        assert!(first.cases.contains(&shown));
        assert!(settled.flaky_cases() >= 1);
        assert_ne!(settled.diagnosis().status, Status::Correct);
        // The group's other failures ran again too, to find which of them are flaky.
        let asked = s.asked.lock().expect("not poisoned").clone();
        assert!(asked.iter().any(|&i| i != shown), "{asked:?}");
    }

    #[test]
    fn an_interrupted_check_designs_no_case() {
        let s = scripted(Vec::new(), true);
        let seen = observed(&s);
        let settled = conclude(&seen, Some(&s), &SETTINGS).expect("infallible");
        assert_eq!(*s.designed.lock().expect("not poisoned"), 0);
        assert!(
            settled
                .diagnosis()
                .groups
                .iter()
                .all(|g| g.confirmation.as_ref().is_none_or(|c| !c.confirmed()))
        );
    }
}
