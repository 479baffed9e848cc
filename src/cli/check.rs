//! `beast check [OPTIONS] -- CMD [ARGS...]`: run a golf answer on every case, judge its
//! output against the engine, diagnose the run (which reading of the rules the answer
//! takes), group the failures and show each group's smallest case, shrunk.
//!
//! The parts: [`args`] are the flags, [`plan`] makes them into the validated plan the run
//! follows, [`load`] makes the case list, [`pool`] runs it, [`shrinking`] makes the case
//! each group shows, [`ending`] ends each answer's run and the check; the diagnosis and
//! the words are the engine's (`judge::pipeline`, `judge::report`, `judge::record`). This
//! file is the story: it follows the plan and tells what happens as [`event`]s to the
//! [`report`]ers, one a format; a `--merge` ([`merged`]) tells the shards' records as the
//! same events.

mod ahead;
mod answers;
mod args;
mod case;
mod ending;
mod event;
mod experiment;
mod interrupt;
pub(crate) mod load;
mod merged;
pub(crate) mod page;
mod plan;
#[cfg(target_os = "linux")]
mod polled;
mod pool;
mod post;
mod report;
mod runner;
mod score;
mod shrinking;
mod startable;

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use beast_engine::judge::budget::{self, Steps};
use beast_engine::judge::record::{self, SandboxRecord};
use beast_engine::judge::report::{Source, visible};

use self::answers::Answer;
pub use self::args::Args;
use self::case::Judge;
use self::ending::{Concluding, conclude, finish, html_dir};
use self::event::{Event, Judged, Start};
use self::interrupt::Running;
use self::plan::{Output, Plan, Work};
use self::pool::Tick;
use self::report::{Out, Reporters};
use self::runner::Runner;
use super::paint::ColorChoice;
use super::sandbox::case::Workspace;
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
            Work::Merge(files) => merged::run(&plan, files),
        };
    }
    let plan = Plan::new(args)?;
    match &plan.work {
        Work::Merge(files) => merged::run(&plan, files),
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
    groups.end_if_interrupted()?;
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
            .map(|a| score::source(a, run.count_all))
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
            groups.end_if_interrupted()?;
        }
    }
    Ok(judged)
}

/// The names of the answers.
fn names_of(answers: &[Answer]) -> Vec<&str> {
    answers.iter().map(|a| a.name.as_str()).collect()
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
