//! `beast check [OPTIONS] -- CMD [ARGS...]`: run a golf answer on every case, judge its
//! output against the engine, diagnose the run (which reading of the rules the answer
//! takes), group the failures and show each group's smallest case, shrunk.
//!
//! The parts: [`args`] are the flags, [`plan`] makes them into the validated plan the run
//! follows, [`load`] makes the case list, [`pool`] runs it, [`shrinking`] makes the case
//! each group shows; the diagnosis and the words are the engine's (`judge::diagnose`,
//! `judge::report`, `judge::record`). This file follows the plan and tells what happens
//! as [`event`]s to the [`report`]ers, one a format; a `--merge` tells the shards' records
//! as the same events.

mod ahead;
mod answers;
mod args;
mod case;
mod event;
mod experiment;
mod interrupt;
pub(crate) mod load;
pub(crate) mod page;
mod plan;
#[cfg(target_os = "linux")]
mod polled;
mod pool;
mod post;
mod report;
mod runner;
mod shrinking;
mod startable;

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use beast_engine::judge::budget::{self, Steps};
use beast_engine::judge::cases::Case;
use beast_engine::judge::diagnose::{Group, Observed};
use beast_engine::judge::pipeline;
use beast_engine::judge::record::{self, SandboxRecord};
use beast_engine::judge::report::{CaseReport, GroupReport, Shown, Source, Summary, visible};
use beast_engine::judge::{leaderboard, merge, robustness, tuning};

use self::answers::Answer;
pub use self::args::Args;
use self::case::Judge;
use self::event::{Concluded, Event, Finish, Judged, Start};
use self::experiment::Experiments;
use self::interrupt::Running;
use self::plan::{Conclusion, Output, Plan, ShrinkWhich, Work};
use self::pool::Tick;
use self::report::{Out, Reporters};
use self::runner::Runner;
use super::files;
use super::paint::ColorChoice;
use super::sandbox::case::Workspace;
use super::sandbox::untrusted::AnswerCommand;
use super::sandbox::{self, Host, Sandbox};

/// Runs `beast check`; the progress bar is coloured as `color` allows.
pub fn run(args: Args, color: ColorChoice) -> super::error::Ended {
    let started = Instant::now();
    if !args.page.is_empty() {
        let Some(plan) = page::plan(args)? else {
            return Ok(());
        };
        return match &plan.work {
            Work::Run(run) => run_answers(&plan, run, started, color),
            Work::Merge(files) => merged(&plan, files),
        };
    }
    let plan = Plan::new(args)?;
    match &plan.work {
        Work::Merge(files) => merged(&plan, files),
        Work::Run(run) => run_answers(&plan, run, started, color),
    }
}

/// Why a run has no case, naming what left every case out: the `--only` patterns that
/// matched none, or the shard, or empty case sources.
fn nothing_to_run(sources: &load::Sources) -> String {
    let ending = "a check that runs nothing cannot pass";
    if !sources.only.is_empty() {
        let patterns: Vec<String> = sources
            .only
            .iter()
            .map(|p| format!("--only '{}'", visible(p)))
            .collect();
        return format!(
            "no case to run: {} matched no case's name (`beast check --list` without --only \
             names them all); {ending}",
            patterns.join(" ")
        );
    }
    if let Some(shard) = sources.shard {
        return format!("no case to run: shard {shard} has none of the cases; {ending}");
    }
    format!(
        "no case to run: every case source is empty or skipped (the notes above say why, with \
         -v for the built-in ones); {ending}"
    )
}

/// Runs every answer of `run` on its cases and reports.
fn run_answers(
    plan: &Plan,
    run: &plan::RunPlan,
    started: Instant,
    color: ColorChoice,
) -> super::error::Ended {
    let (output, answers, many) = (&plan.output, &run.answers, run.many);
    let all = load::jobs(&run.sources)?;
    if run.list {
        print_list(&all, &run.judging.recipe);
        return Ok(());
    }
    if all.is_empty() {
        return Err(super::error::usage(nothing_to_run(&run.sources)));
    }
    let mut reporters = Reporters::new(output, many, io::stderr().is_terminal(), color);
    opening_notes(&mut reporters, plan, run)?;
    let groups = Running::default();
    groups.notice.set(reporters.notice());
    groups
        .kill_on_interrupt()
        .context("cannot set up the interrupt handler")?;
    // An interrupt while the jails are prepared ends the check there, as one between cases.
    let prepared = Prepared::new(run, &groups).map_err(|e| match groups.interrupted() {
        Some(signal) => super::Error::Interrupted(signal),
        None => e.into(),
    })?;
    stop_if_interrupted(&groups)?;
    for judge in &prepared.judges {
        for note in &judge.runner.sandbox.layout.notes {
            reporters.emit(Event::Note(note))?;
        }
    }
    if output.post.is_some() && prepared.sources[0].is_none() {
        return Err(super::error::usage(post::NO_SOURCE));
    }
    let header = output
        .shard_records()
        .then(|| shard_header(output, run, &prepared, &all));
    let start = Start {
        answers: names_of(answers),
        sandbox_lines: prepared.sandboxes.iter().map(|s| s.line.as_str()).collect(),
        shard: header.as_ref(),
        jobs: all.len() * answers.len(),
    };
    reporters.emit(Event::RunStarted(&start))?;
    let finished = run_cases(&prepared.judges, run, &all, plan.jobs, &mut reporters)?;
    let interrupted = groups.interrupted();
    reporters.emit(Event::Diagnosing)?;
    let mut judged = conclude_each(plan, run, prepared, finished, &groups)?;
    let wall = started.elapsed().as_secs_f64() * 1000.0;
    for j in &mut judged {
        if let Ok(c) = &mut j.outcome {
            c.summary.wall_ms = Some(wall);
            c.summary.interrupted = interrupted;
        }
    }
    let ended = finish(
        &mut reporters,
        &judged,
        run.seed(),
        run.page.as_ref(),
        &|| groups.interrupted().is_some(),
    );
    // An interrupt while the report was written (the `--post` version query) ends it too.
    match interrupted.or_else(|| groups.interrupted()) {
        Some(signal) => {
            let ran: usize = judged
                .iter()
                .filter_map(|j| j.outcome.as_ref().ok())
                .map(|c| c.reports.len())
                .sum();
            let of = all.len() * answers.len();
            reporters.emit(Event::Interrupted { signal, ran, of })?;
            Err(super::Error::Interrupted(signal))
        }
        None => ended,
    }
}

/// The notes before the first case: the search bounds under `-v`, the seed drawn.
fn opening_notes(
    reporters: &mut Reporters,
    plan: &Plan,
    run: &plan::RunPlan,
) -> anyhow::Result<()> {
    if run.sources.verbose {
        let note = budget::check_note(run.judging.engine_steps, plan.conclusion.shrink_tries);
        reporters.emit(Event::Note(&note))?;
    }
    if let (Some(seed), true) = (run.seed(), run.seed_drawn) {
        reporters.emit(Event::Note(&format!("random cases from --seed {seed}")))?;
    }
    Ok(())
}

/// What runs each answer and what is known of it before a case runs, one entry an answer.
struct Prepared {
    judges: Vec<Judge>,
    sources: Vec<Option<Source>>,
    /// What contains each answer (its report line in `line`).
    sandboxes: Vec<SandboxRecord>,
}

impl Prepared {
    fn new(run: &plan::RunPlan, groups: &Running) -> anyhow::Result<Prepared> {
        let workspace =
            Arc::new(Workspace::new().context("cannot make a directory for the candidates")?);
        let host = Arc::new(Host::probe(run.containment.level, workspace.path())?);
        sandbox::protect_the_judge(&host);
        let judges = run
            .answers
            .iter()
            .map(|a| judge_for(run, a, groups, &workspace, &host))
            .collect::<anyhow::Result<Vec<Judge>>>()?;
        let sources = run
            .answers
            .iter()
            .map(|a| source(a, run.count_all))
            .collect::<anyhow::Result<Vec<Option<Source>>>>()?;
        let sandboxes = judges.iter().map(|j| j.runner.sandbox.summary()).collect();
        Ok(Prepared {
            judges,
            sources,
            sandboxes,
        })
    }
}

/// The first line of a shard's JSON: what `--merge` needs to check the shards belong
/// together.
fn shard_header(
    output: &Output,
    run: &plan::RunPlan,
    prepared: &Prepared,
    all: &load::CaseList,
) -> record::Header {
    record::Header {
        shard: output.shard.map(|s| s.to_string()).unwrap_or_default(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: run.seed(),
        cases: all.whole_len(),
        fingerprint: all.fingerprint.clone(),
        answers: run
            .answers
            .iter()
            .zip(&prepared.sources)
            .map(|(a, s)| record::AnswerHeader {
                name: a.name.clone(),
                source: s.clone(),
            })
            .collect(),
        sandbox: prepared.sandboxes[0].line.clone(),
        sandbox_summary: prepared.sandboxes[0].clone(),
        leaderboard: run.many,
        generator: run
            .sources
            .random
            .map(|_| run.judging.recipe.version.words().to_string()),
    }
}

/// Diagnoses and shrinks each answer's run in turn. With one answer, a command that could
/// not start is an error of the whole check; with `--answers` it is that answer's row.
fn conclude_each(
    plan: &Plan,
    run: &plan::RunPlan,
    prepared: Prepared,
    finished: Vec<pool::Finished>,
    groups: &Running,
) -> Result<Vec<Judged>, super::Error> {
    let (conclusion, many) = (&plan.conclusion, run.many);
    // After an interrupt: the cases that finished, diagnosed briefly and not shrunk.
    let cut = groups.interrupted().is_some();
    let mut judged = Vec::new();
    for (((answer, judge), finished), (source, sandbox)) in run
        .answers
        .iter()
        .zip(&prepared.judges)
        .zip(finished)
        .zip(prepared.sources.into_iter().zip(prepared.sandboxes))
    {
        let outcome = match finished.failure {
            Some(e) if !many => return Err(e.into()),
            Some(e) => Err(e.root_cause().to_string()),
            None => {
                let concluding = Concluding {
                    judge: (!cut).then_some(judge),
                    conclusion,
                    jobs: plan.jobs,
                    html_dir: html_dir(conclusion, many, &answer.name),
                    budget: match cut {
                        true => Steps::BRIEF_DIAGNOSIS,
                        false => Steps::DIAGNOSIS,
                    },
                    seed: run.seed().unwrap_or(0),
                };
                Ok(conclude(&concluding, finished.ran, source.clone())?)
            }
        };
        judged.push(Judged {
            name: answer.name.clone(),
            outcome,
            source,
            sandbox,
        });
        if !cut {
            stop_if_interrupted(groups)?;
        }
    }
    Ok(judged)
}

/// `--merge`: the shards' records told as the events of one run of them all, to the same
/// reporters, so the report is the one that run prints.
fn merged(plan: &Plan, files: &[PathBuf]) -> super::error::Ended {
    let (output, conclusion) = (&plan.output, &plan.conclusion);
    let files = files
        .iter()
        .map(|path| read_shard(path))
        .collect::<anyhow::Result<Vec<merge::ShardFile>>>()?;
    let m = merge::merge(&files)?;
    let many = m.header.leaderboard;
    let mut reporters = Reporters::new(output, many, false, ColorChoice::Never);
    let names: Vec<String> = m.answers.iter().map(|a| a.name.clone()).collect();
    let start = Start {
        answers: names.iter().map(String::as_str).collect(),
        sandbox_lines: vec![m.header.sandbox.as_str(); names.len().max(1)],
        shard: None,
        jobs: m.answers.iter().map(|a| a.ran.len()).sum(),
    };
    reporters.emit(Event::RunStarted(&start))?;
    // Without the answer, no case can be designed: no label is confirmed, and none says so.
    reporters.emit(Event::Note(MERGED_UNTESTED))?;
    let mut judged = Vec::new();
    for answer in m.answers {
        for (ordinal, (_, report)) in answer.ran.iter().enumerate() {
            reporters.emit(Event::CaseFinished {
                answer: many.then_some(answer.name.as_str()),
                ordinal,
                report,
            })?;
        }
        let outcome = match answer.cannot_start {
            Some(reason) => Err(reason),
            None => {
                let concluding = Concluding {
                    judge: None,
                    conclusion,
                    jobs: plan.jobs,
                    html_dir: html_dir(conclusion, many, &answer.name),
                    budget: Steps::DIAGNOSIS,
                    seed: m.header.seed.unwrap_or(0),
                };
                Ok(conclude(&concluding, answer.ran, answer.source.clone())?)
            }
        };
        judged.push(Judged {
            name: answer.name,
            outcome,
            source: answer.source,
            sandbox: m.header.sandbox_summary.clone(),
        });
    }
    finish(&mut reporters, &judged, m.header.seed, None, &|| false)
}

/// The note of a merged run: its labels rest on the shards' cases alone.
const MERGED_UNTESTED: &str = "note: a merged run designs no cases (it cannot run the answer): \
     no label below is confirmed, a rule event it names is only the closest clue, and no \
     case ran again to find the answer flaky; check the answer unsharded to test them";

/// A shard output, each line read as a record.
fn read_shard(path: &Path) -> anyhow::Result<merge::ShardFile> {
    let text = files::read::read_named_text(path, files::Limit::SHARD)
        .with_context(|| format!("cannot read the shard output {}", path.display()))?;
    Ok(merge::ShardFile::parse(&path.display().to_string(), &text)?)
}

/// The names of the answers.
fn names_of(answers: &[Answer]) -> Vec<&str> {
    answers.iter().map(|a| a.name.as_str()).collect()
}

/// What concluding one answer's run takes besides its cases and its source.
struct Concluding<'a> {
    /// Runs the answer again, for the experiments and shrinking; `None` for a merged run
    /// or an interrupted check.
    judge: Option<&'a Judge>,
    /// The flags that shape the conclusion (`--shrink`, `--repeat`, `--html-dir`...).
    conclusion: &'a Conclusion,
    /// Threads for the diagnosis and the shrinking.
    jobs: usize,
    /// Where this answer's compare pages go (`--html-dir`).
    html_dir: Option<report::html::PagesDir>,
    /// The diagnosis's budget.
    budget: Steps,
    /// The seed of the experiments' cases (the run's, or 0).
    seed: u64,
}

/// Diagnoses an answer's run, groups its failures and shows each group's case, shrunk
/// with the judge when there is one and `--shrink` asks.
fn conclude(
    how: &Concluding,
    ran: Vec<(Case, CaseReport)>,
    source: Option<Source>,
) -> Result<Concluded, super::Error> {
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
        stop_if_interrupted(groups)?;
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
fn robustness_section(
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
fn html_dir(conclusion: &Conclusion, many: bool, name: &str) -> Option<report::html::PagesDir> {
    Some(report::html::PagesDir {
        root: conclusion.html_dir.clone()?,
        answer: many.then(|| answers::file_name(name)),
    })
}

/// Ends the run once a signal has interrupted it during diagnosis or shrinking (an
/// interrupt while the cases run still prints the report of those that finished).
fn stop_if_interrupted(groups: &Running) -> super::error::Ended {
    match groups.interrupted() {
        Some(sig) => Err(super::Error::Interrupted(sig)),
        None => Ok(()),
    }
}

/// `--list`: the names of the cases that would run.
fn print_list(all: &load::CaseList, recipe: &beast_engine::judge::generate::Recipe) {
    let mut out = Out::plain();
    for i in 0..all.len() {
        if let Some(job) = all.get(i).filter(|job| job.runs(recipe)) {
            out.print(&format!("{}\n", visible(&job.name())));
        }
    }
}

/// What runs and judges one answer's cases, from the flags.
fn judge_for(
    run: &plan::RunPlan,
    answer: &Answer,
    groups: &Running,
    workspace: &Arc<Workspace>,
    host: &Arc<Host>,
) -> anyhow::Result<Judge> {
    let (judging, containment) = (&run.judging, &run.containment);
    let sandbox = Sandbox::new(
        &sandbox::Request {
            memory_mib: containment.memory_mib,
            pass_env: &containment.pass_env,
            cases: &run.sources.dirs,
            binds: &containment.binds,
            command: &answer.command,
        },
        host,
        &|| groups.interrupted().is_some(),
    )?;
    Ok(Judge {
        runner: Runner {
            running: groups.clone(),
            command: answer.command.clone(),
            input: answer.input,
            timeout: judging.timeout,
            max_output: judging.max_output,
            sandbox: Arc::new(sandbox),
            workspace: workspace.clone(),
            ahead: Default::default(),
        },
        gen_opts: judging.recipe,
        gen_flags: judging.gen_flags.clone(),
        strict: judging.strict,
        consistent: judging.consistent,
        engine_steps: judging.engine_steps,
        keep_texts: judging.keep_passing_texts,
    })
}

/// Runs every case with every answer in one pool, telling the reporters of each case as it
/// finishes (and of each job's end, and the pool's notes). A record that cannot be written
/// does not stop the run: it fails at its end.
fn run_cases(
    judges: &[Judge],
    run: &plan::RunPlan,
    all: &load::CaseList,
    jobs: usize,
    reporters: &mut Reporters,
) -> anyhow::Result<Vec<pool::Finished>> {
    let names = names_of(&run.answers);
    let mut unwritten: Option<anyhow::Error> = None;
    let finished = pool::run_all(judges, all, jobs, run.fail_fast, |tick| {
        let event = match tick {
            Tick::Case(a, i, report) => Event::CaseFinished {
                answer: run.many.then(|| names[a]),
                ordinal: all.ordinal(i),
                report,
            },
            Tick::JobDone(failed) => Event::JobDone { failed },
            Tick::Note(text) => Event::Note(text),
        };
        if let Err(e) = reporters.emit(event) {
            unwritten.get_or_insert(e);
        }
    });
    match unwritten {
        Some(e) => Err(e),
        None => Ok(finished),
    }
}

/// Tells the reporters of each answer's end and the run's (the leaderboard ranked), and
/// gives the exit status; `seed` is the random cases' (for `--post`); `page` the
/// `--page` answers, ranked with the judged ones' outcomes; `interrupted` says when a
/// signal has come.
fn finish(
    reporters: &mut Reporters,
    judged: &[Judged],
    seed: Option<u64>,
    page: Option<&plan::PageAnswers>,
    interrupted: &(dyn Fn() -> bool + Sync),
) -> super::error::Ended {
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
        Err(super::Error::NotJudged(not_judged))
    } else if judged.iter().all(Judged::passed) && !cannot_run {
        Ok(())
    } else {
        Err(super::Error::Failed)
    }
}

/// What the diagnosis sees of the run.
fn observed(ran: &[(Case, CaseReport)]) -> Vec<Observed<'_>> {
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
fn show_groups(
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
fn show_unit(
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

/// The golf score's source: `--source FILE` (or the answer's `source`), or the script the
/// command names; counted as golfers count unless `count_all`.
fn source(answer: &Answer, count_all: bool) -> anyhow::Result<Option<Source>> {
    let (path, named) = match &answer.source {
        Some(p) if p.as_os_str() == "none" => return Ok(None),
        Some(p) => (p.clone(), true),
        None => match script(&answer.command) {
            Some(p) => (p, false),
            None => return Ok(None),
        },
    };
    // Through the read gate: a script that is a link out of its directory (to a key, say)
    // is never read, so never counted nor posted; named with --source, that is an error.
    let bytes = match files::read::read_named(&path, files::Limit::SOURCE) {
        Ok(bytes) => bytes,
        Err(_) if !named => return Ok(None),
        Err(e) => return Err(e.context(format!("cannot read the source {}", path.display()))),
    };
    Ok(Some(Source::measure(
        path.display().to_string(),
        &bytes,
        count_all,
    )))
}

/// The script a command runs: the first word that names an existing file that is not a
/// compiled program (`python3 a.py`, `./a.pl`).
fn script(command: &AnswerCommand) -> Option<PathBuf> {
    command.words().iter().map(PathBuf::from).find(|p| {
        let named = p.components().count() > 1 || p.extension().is_some();
        named && p.is_file() && !is_binary(p)
    })
}

/// True if the file starts like a compiled program: ELF, a Windows executable (`MZ`) or
/// Mach-O (either byte order, or a universal binary).
fn is_binary(path: &Path) -> bool {
    let mach_o = [0xfeed_face_u32, 0xfeed_facf, 0xcafe_babe];
    sandbox::untrusted::read_head(path, 4)
        .ok()
        .and_then(|h| <[u8; 4]>::try_from(h).ok())
        .is_some_and(|head| {
            &head == b"\x7fELF"
                || head.starts_with(b"MZ")
                || mach_o
                    .iter()
                    .any(|m| head == m.to_be_bytes() || head == m.to_le_bytes())
        })
}
