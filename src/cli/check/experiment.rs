//! The experiments that settle a run's diagnosis, run with the answer: each group's shown
//! failure run again (`--repeat N`: every case) to tell a flaky answer, then each label's
//! designed cases (`judge::design`), which the label must match to stay.

use beast_engine::judge::cases::Case;
use beast_engine::judge::design::{self, Confirmation, Plan, Ran};
use beast_engine::judge::diagnose::{Cause, Diagnosis, Observed};
use beast_engine::judge::flaky::{self, Rerun};
use beast_engine::judge::report::CaseReport;
use beast_engine::judge::verdict::Verdict;

use super::case::Judge;
use super::pool;
use super::runner::{Execute, Exit};
use crate::cli::budget::{self, Steps};

/// Each group's shown failure runs this many more times.
const AGAIN: usize = 2;

/// At most this many failures of a group whose shown case was flaky run again to find
/// which of them are.
const SUSPECTS: usize = 60;

/// How the experiments of one answer's run are made.
pub struct Settings {
    /// `--repeat`: how many more times every case runs (0: each group's shown failure,
    /// twice).
    pub repeat: usize,
    /// The seed of the designed cases (the run's `--seed`).
    pub seed: u64,
    /// Threads.
    pub jobs: usize,
}

/// `d` settled by experiment: flaky cases set apart (the diagnosis made again without
/// them), then every label tried on its designed cases.
pub fn settle<E: Execute>(
    judge: &Judge<E>,
    d: Diagnosis,
    ran: &[(Case, CaseReport)],
    observed: &[Observed],
    settings: &Settings,
) -> anyhow::Result<Diagnosis> {
    let &Settings { repeat, seed, jobs } = settings;
    let flaky = flaky_cases(judge, &d, ran, repeat, jobs)?;
    let stop = || judge.runner.interrupted().is_some();
    let mut d = match flaky.is_empty() {
        true => d,
        false => budget::threaded(Steps::DIAGNOSIS, jobs, &stop, |threads, keep_going| {
            flaky::set_apart(observed, &flaky, threads, keep_going)
        }),
    };
    let design_steps = Steps::DESIGN.counter();
    let plans = design::plan(observed, &d, seed, || design_steps() && !stop());
    let found = confirm(judge, &plans, jobs)?;
    design::settle(&mut d, &plans, &found);
    Ok(d)
}

/// The cases whose outputs differ when run again: with `--repeat N` every case runs N more
/// times; otherwise each failing group's shown case runs twice more and, where one is
/// flaky, so do the group's other failures.
fn flaky_cases<E: Execute>(
    judge: &Judge<E>,
    d: &Diagnosis,
    ran: &[(Case, CaseReport)],
    repeat: usize,
    jobs: usize,
) -> anyhow::Result<Vec<Rerun>> {
    // A format group passed; a timeout costs its whole limit again.
    let failing_groups = d.groups.iter().filter(|g| {
        !matches!(g.cause, Cause::Format { .. }) && ran[g.smallest].1.verdict != Verdict::TimeLimit
    });
    if repeat > 0 {
        let all: Vec<usize> = (0..ran.len()).collect();
        return reruns(judge, ran, &all, repeat, jobs);
    }
    let shown: Vec<usize> = failing_groups.clone().map(|g| g.smallest).collect();
    let first = reruns(judge, ran, &shown, AGAIN, jobs)?;
    if first.is_empty() {
        return Ok(first);
    }
    let suspects: Vec<usize> = failing_groups
        .filter(|g| first.iter().any(|r| r.case == g.smallest))
        .flat_map(|g| g.cases.iter().copied().filter(|i| !shown.contains(i)))
        .take(SUSPECTS)
        .collect();
    let mut all = first;
    all.extend(reruns(judge, ran, &suspects, AGAIN, jobs)?);
    Ok(all)
}

/// Runs each of `cases` `times` more times; returns those whose runs differ: another
/// output or another verdict (a run the judge could not set up shows nothing of the answer
/// and is left out).
fn reruns<E: Execute>(
    judge: &Judge<E>,
    ran: &[(Case, CaseReport)],
    cases: &[usize],
    times: usize,
    jobs: usize,
) -> anyhow::Result<Vec<Rerun>> {
    let inputs: Vec<(usize, Vec<u8>)> = cases
        .iter()
        .flat_map(|&i| {
            let (case, _) = &ran[i];
            let input = match case.input.is_empty() {
                true => case.puzzle.to_string().into_bytes(),
                false => case.input.to_vec(),
            };
            std::iter::repeat_n((i, input), times)
        })
        .collect();
    let again = pool::map(&inputs, jobs, |(i, input)| {
        if judge.runner.interrupted().is_some() {
            return Ok(None);
        }
        let run = judge.attempt(input)?;
        let (verdict, _) = judge.verdict(&run, &ran[*i].1.expected);
        Ok(verdict
            .judged()
            .then(|| (verdict, String::from_utf8_lossy(&run.stdout).into_owned())))
    })
    .into_iter()
    .collect::<std::io::Result<Vec<_>>>()?;
    let mut found = Vec::new();
    for (k, &i) in cases.iter().enumerate() {
        let report = &ran[i].1;
        let runs = again[k * times..(k + 1) * times].iter().flatten();
        let (verdicts, outputs): (Vec<Verdict>, Vec<String>) =
            std::iter::once((report.verdict, report.got.clone()))
                .chain(runs.cloned())
                .unzip();
        let r = Rerun {
            case: i,
            name: report.name.clone(),
            outputs,
            verdicts,
        };
        if r.differs() {
            found.push(r);
        }
    }
    Ok(found)
}

/// Runs the answer on every designed case of `plans` and judges each experiment.
fn confirm<E: Execute>(
    judge: &Judge<E>,
    plans: &[Plan],
    jobs: usize,
) -> anyhow::Result<Vec<Vec<Confirmation>>> {
    let inputs: Vec<Vec<u8>> = plans
        .iter()
        .flat_map(|p| &p.experiments)
        .flat_map(|e| e.puzzles())
        .map(|p| p.to_string().into_bytes())
        .collect();
    let outputs = run_each(judge, &inputs, jobs)?;
    let mut at = 0;
    Ok(plans
        .iter()
        .map(|p| {
            p.experiments
                .iter()
                .map(|e| {
                    let n = e.puzzles().count();
                    let c = e.judge(&outputs[at..at + n]);
                    at += n;
                    c
                })
                .collect()
        })
        .collect())
}

/// Runs the answer once on each input ([`Judge::attempt`]) on the pool's threads: its
/// output where it exited normally; no output where it did not (or once the check is
/// interrupted); an IE where the judge could not set the case up, twice.
fn run_each<E: Execute>(
    judge: &Judge<E>,
    inputs: &[Vec<u8>],
    jobs: usize,
) -> anyhow::Result<Vec<Ran>> {
    let ran = pool::map(inputs, jobs, |input| {
        if judge.runner.interrupted().is_some() {
            return Ok(Ran::NoOutput);
        }
        let run = judge.attempt(input)?;
        Ok(match run.ended {
            Exit::Exited(0) => Ran::Output(run.stdout),
            Exit::SetupFailed => Ran::InternalError,
            _ => Ran::NoOutput,
        })
    });
    ran.into_iter()
        .collect::<std::io::Result<Vec<Ran>>>()
        .map_err(Into::into)
}
