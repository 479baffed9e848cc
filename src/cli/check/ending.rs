//! The end of a check: each answer's run concluded ([`conclude`]: the robustness set split
//! off; the engine's diagnosis pipeline, with [`Experiments`] to run the answer again; each
//! group's case shown, shrunk; the settled diagnosis's words) and the run's end told to the
//! reporters with its exit status ([`finish`]).

use beast_engine::judge::budget::Steps;
use beast_engine::judge::cases::Case;
use beast_engine::judge::diagnose::{Group, Observed};
use beast_engine::judge::pipeline;
use beast_engine::judge::report::{CaseReport, GroupReport, Shown, Source, Summary};
use beast_engine::judge::{leaderboard, robustness, tuning};

use super::case::Judge;
use super::event::{Concluded, Event, Finish, Judged};
use super::experiment::Experiments;
use super::plan::{self, Conclusion, ShrinkWhich};
use super::report::{self, Reporters};
use super::{answers, page, pool, shrinking};
use crate::cli::error::{Ended, Error};

/// What concluding one answer's run takes besides its cases and its source.
pub(super) struct Concluding<'a> {
    /// Runs the answer again, for the experiments and shrinking; `None` for a merged run
    /// or an interrupted check.
    pub(super) judge: Option<&'a Judge>,
    /// The flags that shape the conclusion (`--shrink`, `--repeat`, `--html-dir`...).
    pub(super) conclusion: &'a Conclusion,
    /// Threads for the diagnosis and the shrinking.
    pub(super) jobs: usize,
    /// Where this answer's compare pages go (`--html-dir`).
    pub(super) html_dir: Option<report::html::PagesDir>,
    /// The diagnosis's budget.
    pub(super) budget: Steps,
    /// The seed of the experiments' cases (the run's, or 0).
    pub(super) seed: u64,
}

/// Diagnoses an answer's run, groups its failures and shows each group's case, shrunk
/// with the judge when there is one and `--shrink` asks.
pub(super) fn conclude(
    how: &Concluding,
    ran: Vec<(Case, CaseReport)>,
    source: Option<Source>,
) -> Result<Concluded, Error> {
    let (judge, jobs) = (how.judge, how.jobs);
    // The robustness set is judged apart: in no group, count or exit code (issue 30).
    let (ran, robust): (Vec<_>, Vec<_>) = ran.into_iter().partition(|(c, _)| !c.robustness);
    let settings = pipeline::Settings {
        threads: jobs,
        search: how.budget,
        repeat: how.conclusion.repeat,
        seed: how.seed,
    };
    let experiments = judge.map(|judge| Experiments {
        judge,
        ran: &ran,
        jobs,
    });
    let settled = pipeline::conclude(&observed(&ran), experiments.as_ref(), &settings)?;
    let groups = &settled.diagnosis().groups;
    let mut shown = show_groups(judge, groups, &ran, how.conclusion, jobs)?;
    if let Some(groups) = judge.map(|j| &j.runner.running) {
        groups.end_if_interrupted()?;
    }
    if let Some(dir) = &how.html_dir {
        report::html::write_compare_pages(dir, &mut shown)?;
    }
    let judged = ran.iter().filter(|(_, r)| r.verdict.judged());
    let rates = tuning::Rates::of(judged.map(|(c, r)| (&c.origin, r.passed)));
    let diagnosis = settled.report(shown, rates, robustness_section(&robust, &ran));
    let reports: Vec<CaseReport> = ran.into_iter().map(|(_, r)| r).collect();
    let mut summary = Summary::of(&reports);
    summary.flaky = settled.flaky_cases();
    summary.source = source;
    Ok(Concluded {
        reports,
        summary,
        diagnosis,
    })
}

/// The robustness section of the cases `robust`; a twin's failure is put down to its form
/// where its case in `ran` passed.
pub(super) fn robustness_section(
    robust: &[(Case, CaseReport)],
    ran: &[(Case, CaseReport)],
) -> Option<robustness::RobustnessReport> {
    let with_layout: Vec<robustness::Ran> = robust
        .iter()
        .map(|(c, r)| robustness::Ran {
            name: &r.name,
            layout: c.layout,
            passed: r.passed,
        })
        .collect();
    let by_name: std::collections::HashMap<&str, bool> = ran
        .iter()
        .map(|(c, r)| (c.name.as_str(), r.passed))
        .collect();
    robustness::report(&with_layout, &|name: &str| by_name.get(name).copied())
}

/// `--html-dir` for one answer: the directory itself, or its `NAME` subdirectory when
/// several answers run (the name made a file name, so it stays inside).
pub(super) fn html_dir(
    conclusion: &Conclusion,
    many: bool,
    name: &str,
) -> Option<report::html::PagesDir> {
    Some(report::html::PagesDir {
        root: conclusion.html_dir.clone()?,
        answer: many.then(|| answers::file_name(name)),
    })
}

/// What the diagnosis sees of the run.
pub(super) fn observed(ran: &[(Case, CaseReport)]) -> Vec<Observed<'_>> {
    ran.iter()
        .map(|(case, r)| Observed {
            name: &case.name,
            puzzle: &case.puzzle,
            layout: case.layout,
            expected: &r.expected,
            got: r.got.as_bytes(),
            verdict: r.verdict,
            passed: r.passed,
        })
        .collect()
}

/// The report of every group, each with the case it shows, shrunk as `--shrink` says; the
/// groups shrink in parallel on `jobs` threads of the pool's workers.
pub(super) fn show_groups(
    judge: Option<&Judge>,
    groups: &[Group],
    ran: &[(Case, CaseReport)],
    conclusion: &Conclusion,
    jobs: usize,
) -> anyhow::Result<Vec<GroupReport>> {
    let which = conclusion.shrink;
    // Under `--shrink all` every failure is a group of its own to shrink; the group then
    // shows the smallest result.
    let units: Vec<(usize, Group)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            let one = |i: usize| Group {
                cases: vec![i],
                smallest: i,
                ..group.clone()
            };
            match which {
                ShrinkWhich::All => group.cases.iter().map(|&i| (g, one(i))).collect(),
                _ => vec![(g, group.clone())],
            }
        })
        .collect();
    let results = pool::map(&units, jobs, |(g, unit)| {
        show_unit(judge, *g, unit, ran, conclusion)
    });
    let mut best: Vec<Option<Shown>> = vec![None; groups.len()];
    for ((g, _), shown) in units.iter().zip(results) {
        let shown = shown?;
        let size = |s: &Shown| s.shrunk.map_or(usize::MAX, |x| x.to.order());
        if best[*g].as_ref().is_none_or(|b| size(&shown) < size(b)) {
            best[*g] = Some(shown);
        }
    }
    Ok(groups
        .iter()
        .zip(best)
        .filter_map(|(group, shown)| Some(GroupReport::of(group, shown?, ran)))
        .collect())
}

/// The case `unit`, a unit to shrink of the group numbered `g`, shows: shrunk when
/// `--shrink` asks for that group, and otherwise saying why it was not.
pub(super) fn show_unit(
    judge: Option<&Judge>,
    g: usize,
    unit: &Group,
    ran: &[(Case, CaseReport)],
    conclusion: &Conclusion,
) -> anyhow::Result<Shown> {
    let which = conclusion.shrink;
    let shrink = match which {
        ShrinkWhich::None => false,
        ShrinkWhich::First => g == 0,
        ShrinkWhich::Group | ShrinkWhich::All => true,
    };
    let mut shown = shrinking::shown(judge.filter(|_| shrink), unit, ran, conclusion.shrink_tries)?;
    let why = match which {
        ShrinkWhich::None => "not shrunk: --shrink none",
        _ => "not shrunk: --shrink first shrinks only the first group",
    };
    if judge.is_some() && !shrink && shown.unshrunk.is_some() {
        shown.unshrunk = Some(why.to_string());
    }
    Ok(shown)
}

/// Tells the reporters of each answer's end and the run's (the leaderboard ranked), and
/// gives the exit status; `seed` is the random cases' (for `--post`); `page` the
/// `--page` answers, ranked with the judged ones' outcomes; `interrupted` says when a
/// signal has come.
pub(super) fn finish(
    reporters: &mut Reporters,
    judged: &[Judged],
    seed: Option<u64>,
    page: Option<&plan::PageAnswers>,
    interrupted: &(dyn Fn() -> bool + Sync),
) -> Ended {
    let mut rows: Vec<leaderboard::Row> = judged.iter().map(Judged::row).collect();
    leaderboard::rank(&mut rows);
    let page_entries = page.map(|p| page::ranked(p, judged));
    for j in judged {
        reporters.emit(match &j.outcome {
            Ok(_) => Event::AnswerFinished(j),
            Err(reason) => Event::CannotStart {
                name: &j.name,
                reason,
            },
        })?;
    }
    reporters.emit(Event::RunFinished(&Finish {
        judged,
        rows: &rows,
        seed,
        page: page_entries.as_deref(),
        interrupted,
    }))?;
    let cannot_run = page.is_some_and(|p| p.entries.iter().any(|(_, runs)| !runs));
    let not_judged: usize = judged.iter().map(Judged::not_judged).sum();
    if not_judged > 0 {
        Err(Error::NotJudged(not_judged))
    } else if judged.iter().all(Judged::passed) && !cannot_run {
        Ok(())
    } else {
        Err(Error::Failed)
    }
}
