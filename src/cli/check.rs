//! `beast check [OPTIONS] -- CMD [ARGS...]`: run a golf answer on every case, judge its
//! output against the engine, diagnose the run (which reading of the rules the answer
//! takes), group the failures and show each group's smallest case, shrunk.
//!
//! The parts: [`args`] are the flags, [`plan`] makes them into the validated plan the run
//! follows, [`load`] makes the case list, [`pool`] runs it, [`shrinking`] makes the case
//! each group shows; the diagnosis and the words are the engine's (`judge::diagnose`,
//! `judge::report`, `judge::record`). This file follows the plan and prints.

mod answers;
mod args;
mod load;
mod plan;
mod pool;
mod post;
mod runner;
mod shrinking;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use beast_engine::judge::cases::{Case, Shard};
use beast_engine::judge::diagnose::{self, Diagnosis, Group, Observed};
use beast_engine::judge::record::{
    self, CannotStart, CaseRecord, Record, SandboxRecord, SummaryRecord,
};
use beast_engine::judge::report::{
    self, CaseReport, DiagnosisReport, GroupReport, Source, Summary,
};
use beast_engine::judge::{leaderboard, merge};
use indicatif::{ProgressBar, ProgressStyle};

use self::answers::Answer;
pub use self::args::Args;
use self::plan::{Conclusion, Format, Output, Plan, ShrinkWhich, Work};
use self::pool::Judge;
use self::runner::{Groups, Runner, Workspace};
use super::sandbox::{self, Host, Sandbox};

/// Standard output that stops printing, quietly, once the reader has gone (`| head -1`);
/// the exit status is still the verdict's.
struct Out {
    closed: bool,
    bar: Option<ProgressBar>,
}

impl Drop for Out {
    /// Clears the progress bar however the run ends, an interrupt or an error included.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Out {
    /// Prints `text`; after a write error nothing more is printed.
    fn print(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let write = || {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        };
        let result = match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        };
        self.closed = result.is_err();
    }
}

/// One answer's judged run, ready to print.
struct Judged {
    /// The answer's name.
    name: String,
    /// Its cases' reports, its summary and its diagnosis; or why it could not start.
    outcome: Result<(Vec<CaseReport>, Summary, DiagnosisReport), String>,
    /// Its source, for the score.
    source: Option<Source>,
    /// The sandbox line and JSON object.
    sandbox_line: String,
    sandbox_json: SandboxRecord,
}

impl Judged {
    fn row(&self) -> leaderboard::Row {
        match &self.outcome {
            Ok((_, summary, d)) => leaderboard::Row::judged(&self.name, summary, d),
            Err(reason) => leaderboard::Row::cannot_start(&self.name, reason, self.source.as_ref()),
        }
    }

    fn passed(&self) -> bool {
        self.outcome.as_ref().is_ok_and(|(_, s, _)| s.failed == 0)
    }
}

/// Runs `beast check`.
pub fn run(args: Args) -> super::error::Ended {
    let started = Instant::now();
    let plan = Plan::new(args)?;
    match &plan.work {
        Work::Merge(files) => merged(&plan, files),
        Work::Run(run) => run_answers(&plan, run, started),
    }
}

/// Runs every answer of `run` on its cases and prints the report.
fn run_answers(plan: &Plan, run: &plan::Run, started: Instant) -> super::error::Ended {
    let (output, answers, many) = (&plan.output, &run.answers, run.many);
    let all = load::jobs(&run.sources)?;
    if run.list {
        print_list(&all);
        return Ok(());
    }
    if all.is_empty() {
        return Err(super::error::usage(
            "no case to run: every case source is empty, skipped or left out by --only (see \
             the notes above); a check that runs nothing cannot pass",
        ));
    }
    if let (Some(seed), true) = (run.seed(), run.seed_drawn) {
        eprintln!("random cases from --seed {seed}");
    }
    let groups = Groups::default();
    groups
        .kill_on_interrupt()
        .context("cannot set up the interrupt handler")?;
    let setup = Setup::new(run, &groups)?;
    if output.post.is_some() && setup.sources[0].is_none() {
        return Err(super::error::usage(post::NO_SOURCE));
    }
    let bar = (io::stderr().is_terminal()).then(|| progress_bar(all.len() * answers.len()));
    let mut out = Out {
        closed: false,
        bar: bar.clone(),
    };
    if output.shard_records() {
        out.print(&shard_header(output, run, &setup, &all)?);
    }
    let lines: Vec<&str> = setup.sandboxes.iter().map(|s| s.0.as_str()).collect();
    if output.post.is_some() {
        eprint!("{}", sandbox_lines(&names_of(answers), &lines));
    } else if output.format == Format::Text {
        out.print(&sandbox_lines(&names_of(answers), &lines));
    }
    let finished = run_cases(&setup.judges, run, &all, output, plan.jobs, &mut out)?;
    let interrupted = groups.interrupted();
    if let Some(bar) = &bar {
        bar.set_message("diagnosing");
    }
    let mut judged = conclude_each(plan, run, setup, finished, &groups)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let wall = started.elapsed().as_secs_f64() * 1000.0;
    for j in &mut judged {
        if let Ok((_, summary, _)) = &mut j.outcome {
            summary.wall_ms = Some(wall);
            summary.interrupted = interrupted;
        }
    }
    let ended = finish(output, many, &judged, run.seed(), &mut out);
    match interrupted {
        Some(sig) => {
            let ran: usize = judged
                .iter()
                .filter_map(|j| j.outcome.as_ref().ok())
                .map(|(r, _, _)| r.len())
                .sum();
            let note = format!(
                "interrupted (signal {sig}): the report covers the {ran} cases that finished \
                 before it, of {} (no shrinking, a short diagnosis)\n",
                all.len() * answers.len()
            );
            match output.format {
                Format::Text => out.print(&note),
                _ => eprint!("{note}"),
            }
            Err(super::Error::Interrupted(sig))
        }
        None => ended,
    }
}

/// What runs each answer and what is known of it before a case runs, one entry an answer.
struct Setup {
    judges: Vec<Judge>,
    sources: Vec<Option<Source>>,
    /// The sandbox's report line and its JSON summary.
    sandboxes: Vec<(String, SandboxRecord)>,
}

impl Setup {
    fn new(run: &plan::Run, groups: &Groups) -> anyhow::Result<Setup> {
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
            .map(source)
            .collect::<anyhow::Result<Vec<Option<Source>>>>()?;
        let sandboxes = judges
            .iter()
            .map(|j| sandbox_of(&j.runner.sandbox))
            .collect();
        Ok(Setup {
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
    run: &plan::Run,
    setup: &Setup,
    all: &load::CaseList,
) -> anyhow::Result<String> {
    let header = record::Header {
        shard: output.shard.map(|s| s.to_string()).unwrap_or_default(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: run.seed(),
        cases: all.whole_len(),
        fingerprint: all.fingerprint.clone(),
        answers: run
            .answers
            .iter()
            .zip(&setup.sources)
            .map(|(a, s)| record::AnswerHeader {
                name: a.name.clone(),
                source: s.clone(),
            })
            .collect(),
        sandbox: setup.sandboxes[0].0.clone(),
        sandbox_summary: setup.sandboxes[0].1.clone(),
        leaderboard: run.many,
        generator: run
            .sources
            .random
            .map(|_| run.judging.recipe.version.words().to_string()),
    };
    Ok(Record::Header(header).to_line()?)
}

/// Diagnoses and shrinks each answer's run in turn. With one answer, a command that could
/// not start is an error of the whole check; with `--answers` it is that answer's row.
fn conclude_each(
    plan: &Plan,
    run: &plan::Run,
    setup: Setup,
    finished: Vec<pool::Finished>,
    groups: &Groups,
) -> Result<Vec<Judged>, super::Error> {
    let (conclusion, many) = (&plan.conclusion, run.many);
    // After an interrupt: the cases that finished, diagnosed briefly and not shrunk.
    let cut = groups.interrupted().is_some();
    let mut judged = Vec::new();
    for (((answer, judge), finished), (source, sandbox)) in run
        .answers
        .iter()
        .zip(&setup.judges)
        .zip(finished)
        .zip(setup.sources.into_iter().zip(setup.sandboxes))
    {
        let outcome = match finished.failure {
            Some(e) if !many => return Err(e.into()),
            Some(e) => Err(e.root_cause().to_string()),
            None => Ok(conclude(
                (!cut).then_some(judge),
                finished.ran,
                source.clone(),
                conclusion,
                plan.jobs,
                html_dir(conclusion, many, &answer.name).as_deref(),
                match cut {
                    true => conclusion.engine_time.min(Duration::from_secs(2)),
                    false => conclusion.engine_time,
                },
            )?),
        };
        judged.push(Judged {
            name: answer.name.clone(),
            outcome,
            source,
            sandbox_line: sandbox.0,
            sandbox_json: sandbox.1,
        });
        if !cut {
            stop_if_interrupted(groups)?;
        }
    }
    Ok(judged)
}

/// `--merge`: the report of the shards' cases, as one run of them all prints it.
fn merged(plan: &Plan, files: &[PathBuf]) -> super::error::Ended {
    let (output, conclusion) = (&plan.output, &plan.conclusion);
    let files = files
        .iter()
        .map(|path| read_shard(path))
        .collect::<anyhow::Result<Vec<merge::ShardFile>>>()?;
    let m = merge::merge(&files)?;
    let mut out = Out {
        closed: false,
        bar: None,
    };
    let many = m.header.leaderboard;
    if output.format == Format::Text {
        out.print(&format!("{}\n", m.header.sandbox));
    }
    let mut judged = Vec::new();
    for answer in m.answers {
        for (_, r) in &answer.ran {
            print_case(output, many.then_some(answer.name.as_str()), r, &mut out)?;
        }
        let outcome = match answer.cannot_start {
            Some(reason) => Err(reason),
            None => Ok(conclude(
                None,
                answer.ran,
                answer.source.clone(),
                conclusion,
                plan.jobs,
                html_dir(conclusion, many, &answer.name).as_deref(),
                conclusion.engine_time,
            )?),
        };
        judged.push(Judged {
            name: answer.name,
            outcome,
            source: answer.source,
            sandbox_line: m.header.sandbox.clone(),
            sandbox_json: m.header.sandbox_summary.clone(),
        });
    }
    finish(output, many, &judged, m.header.seed, &mut out)
}

/// A shard output, each line read as a record.
fn read_shard(path: &Path) -> anyhow::Result<merge::ShardFile> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the shard output {}", path.display()))?;
    Ok(merge::ShardFile::parse(&path.display().to_string(), &text)?)
}

/// The names of the answers.
fn names_of(answers: &[Answer]) -> Vec<&str> {
    answers.iter().map(|a| a.name.as_str()).collect()
}

/// The report's first lines: the sandbox line once when every answer has the same, else
/// one line per answer, named.
fn sandbox_lines(names: &[&str], lines: &[&str]) -> String {
    let first = lines.first().copied().unwrap_or_default();
    if lines.iter().all(|l| *l == first) {
        return format!("{first}\n");
    }
    names
        .iter()
        .zip(lines)
        .map(|(name, line)| {
            let rest = line.strip_prefix("sandbox: ").unwrap_or(line);
            format!("sandbox ({}): {rest}\n", report::visible(name))
        })
        .collect()
}

/// The sandbox line and the JSON summary's sandbox object.
fn sandbox_of(sandbox: &Sandbox) -> (String, SandboxRecord) {
    // Every field named, so a field the sandbox adds is a compile error here, not a key
    // the JSON silently lacks.
    let sandbox::SandboxSummary {
        mechanism,
        namespaces,
        memory_mib,
        memory_limit,
        processes,
        env_cleared,
        run_as_uid,
        protections,
        missing,
    } = sandbox.summary();
    let line = sandbox.line();
    let record = SandboxRecord {
        mechanism: match mechanism {
            sandbox::Mechanism::Jail => "jail",
            sandbox::Mechanism::Basic => "basic",
            sandbox::Mechanism::None => "none",
        }
        .to_string(),
        namespaces: namespaces.iter().map(|n| n.to_string()).collect(),
        memory_mib,
        memory_limit: memory_limit.map(str::to_string),
        processes,
        env_cleared,
        run_as_uid,
        protections,
        missing,
        line: line.clone(),
    };
    (line, record)
}

/// Diagnoses an answer's run, groups its failures and shows each group's case, shrunk
/// with `judge` when there is one and `--shrink` asks.
#[allow(clippy::too_many_arguments)]
fn conclude(
    judge: Option<&Judge>,
    ran: Vec<(Case, CaseReport)>,
    source: Option<Source>,
    conclusion: &Conclusion,
    jobs: usize,
    html_dir: Option<&Path>,
    budget: Duration,
) -> Result<(Vec<CaseReport>, Summary, DiagnosisReport), super::Error> {
    let diagnosis = diagnose_run(&ran, judge, jobs, budget);
    let groups = diagnose::group(&observed(&ran), &diagnosis);
    let mut shown = show_groups(judge, &groups, &ran, conclusion, jobs)?;
    if let Some(groups) = judge.map(|j| &j.runner.groups) {
        stop_if_interrupted(groups)?;
    }
    if let Some(dir) = html_dir {
        write_compare_pages(dir, &mut shown)?;
    }
    let diagnosis = DiagnosisReport::new(&diagnosis, shown);
    let reports: Vec<CaseReport> = ran.into_iter().map(|(_, r)| r).collect();
    let mut summary = Summary::of(&reports);
    summary.source = source;
    Ok((reports, summary, diagnosis))
}

/// `--html-dir` for one answer: the directory itself, or its `NAME` subdirectory when
/// several answers run.
fn html_dir(conclusion: &Conclusion, many: bool, name: &str) -> Option<PathBuf> {
    let dir = conclusion.html_dir.as_ref()?;
    Some(if many { dir.join(name) } else { dir.clone() })
}

/// Ends the run once a signal has interrupted it during diagnosis or shrinking (an
/// interrupt while the cases run still prints the report of those that finished).
fn stop_if_interrupted(groups: &Groups) -> super::error::Ended {
    match groups.interrupted() {
        Some(sig) => Err(super::Error::Interrupted(sig)),
        None => Ok(()),
    }
}

/// `--list`: the names of the cases that would run.
fn print_list(all: &load::CaseList) {
    let mut out = Out {
        closed: false,
        bar: None,
    };
    for i in 0..all.len() {
        if let Some(job) = all.get(i) {
            out.print(&format!("{}\n", report::visible(job.name())));
        }
    }
}

/// What runs and judges one answer's cases, from the flags.
fn judge_for(
    run: &plan::Run,
    answer: &Answer,
    groups: &Groups,
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
    )?;
    Ok(Judge {
        runner: Runner {
            groups: groups.clone(),
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
        engine_time: judging.engine_time,
        keep_texts: judging.keep_passing_texts,
    })
}

/// Prints one case's report as it finishes, when the format asks: its JSON record
/// (with `answer` for one of several answers), or its text under `-v`.
fn print_case(
    output: &Output,
    answer: Option<&str>,
    r: &CaseReport,
    out: &mut Out,
) -> serde_json::Result<()> {
    match output.format {
        Format::Json => {
            out.print(&Record::Case(CaseRecord::of(r).of_answer(answer)).to_line()?);
        }
        Format::Text if output.verbose => match answer {
            Some(name) => out.print(&format!("{}: {}", report::visible(name), report::text(r))),
            None => out.print(&report::text(r)),
        },
        Format::Text | Format::Markdown => {}
    }
    Ok(())
}

/// Runs every case with every answer in one pool, printing each case's report as it
/// finishes when the format asks; a shard's JSON records also carry the case's index in
/// the whole list, its puzzle and its `beast gen` command, for `--merge`.
fn run_cases(
    judges: &[Judge],
    run: &plan::Run,
    all: &load::CaseList,
    output: &Output,
    jobs: usize,
    out: &mut Out,
) -> serde_json::Result<Vec<pool::Finished>> {
    let bar = out.bar.clone();
    let names = names_of(&run.answers);
    let shard_json = output.shard_records();
    // The first record that did not serialize; the run goes on, and fails at its end.
    let mut unwritten: Option<serde_json::Error> = None;
    let finished = pool::run_all(
        judges,
        all,
        jobs,
        run.fail_fast,
        |failed| {
            if let Some(bar) = &bar {
                bar.inc(1);
                if failed > 0 {
                    bar.set_message(format!("{failed} failed"));
                }
            }
        },
        |a, i, r| {
            let name = run.many.then(|| names[a]);
            let printed = if shard_json {
                let record = CaseRecord::in_shard(r, all.ordinal(i)).of_answer(name);
                Record::Case(record).to_line().map(|line| out.print(&line))
            } else {
                print_case(output, name, r, out)
            };
            if let Err(e) = printed {
                unwritten.get_or_insert(e);
            }
        },
    );
    match unwritten {
        Some(e) => Err(e),
        None => Ok(finished),
    }
}

/// Prints the end of the report (one answer's, or the leaderboard and each answer's),
/// writes the JUnit file and the `--report-dir` files, and gives the exit status; `seed` is
/// the random cases' (for `--post`).
fn finish(
    output: &Output,
    many: bool,
    judged: &[Judged],
    seed: Option<u64>,
    out: &mut Out,
) -> super::error::Ended {
    let mut rows: Vec<leaderboard::Row> = judged.iter().map(Judged::row).collect();
    leaderboard::rank(&mut rows);
    if let Some(dir) = &output.report_dir {
        write_reports(dir, judged)?;
    }
    match (output.format, many) {
        (Format::Markdown, _) => {
            // What contained the answers, as in text, then the table.
            let names: Vec<&str> = judged.iter().map(|j| j.name.as_str()).collect();
            let lines: Vec<&str> = judged.iter().map(|j| j.sandbox_line.as_str()).collect();
            out.print(&format!("{}\n", sandbox_lines(&names, &lines)));
            out.print(&leaderboard::markdown(&rows));
        }
        (Format::Json, _) => json_ending(judged, &rows, many, out)?,
        (Format::Text, false) => {
            if let Some(j) = judged.first() {
                text_ending_of_one(output, j, seed, out)?;
            }
        }
        (Format::Text, true) => {
            out.print(&leaderboard::text(&rows));
            match &output.report_dir {
                Some(dir) => out.print(&format!(
                    "\neach answer's report: {}\n",
                    dir.join("NAME.txt").display()
                )),
                None => {
                    let ranked = rows
                        .iter()
                        .filter_map(|row| judged.iter().find(|j| j.name == row.name));
                    for j in ranked {
                        out.print(&format!(
                            "\n== {} ==\n{}",
                            report::visible(&j.name),
                            detail(j)
                        ));
                    }
                }
            }
        }
    }
    if let Some(path) = &output.junit {
        write_junit(path, output.shard, many, judged)?;
    }
    if judged.iter().all(Judged::passed) {
        Ok(())
    } else {
        Err(super::Error::Failed)
    }
}

/// The JSON lines after the cases: each answer's summary (or why it could not start) and,
/// for several answers, the leaderboard; with one answer, its diagnosis on stderr.
fn json_ending(
    judged: &[Judged],
    rows: &[leaderboard::Row],
    many: bool,
    out: &mut Out,
) -> anyhow::Result<()> {
    for j in judged {
        if let Err(reason) = &j.outcome {
            out.print(&Record::CannotStart(CannotStart::new(&j.name, reason)).to_line()?);
        }
        if let Ok((_, summary, d)) = &j.outcome {
            let record = SummaryRecord::of(summary, d, j.sandbox_json.clone())
                .of_answer(many.then_some(j.name.as_str()));
            out.print(&Record::Summary(record).to_line()?);
            if !many {
                eprintln!("diagnosis: {}", d.sentence);
                eprintln!("{}", summary.line());
            }
        }
    }
    if many {
        out.print(&Record::Leaderboard(record::Leaderboard::of(rows)).to_line()?);
        eprint!("{}", leaderboard::text(rows));
    }
    Ok(())
}

/// The end of one answer's text report: the `--post` of a passing answer, or the
/// diagnosis, time, score and summary lines (and why there is no post).
fn text_ending_of_one(
    output: &Output,
    j: &Judged,
    seed: Option<u64>,
    out: &mut Out,
) -> anyhow::Result<()> {
    let Ok((reports, summary, d)) = &j.outcome else {
        return Ok(());
    };
    if let Some(p) = output.post.as_ref().filter(|_| summary.failed == 0) {
        let text = post::text(
            &p.command,
            j.source.as_ref(),
            reports,
            seed,
            p.language.as_deref(),
            p.encoding,
        )?;
        out.print(&text);
        eprintln!("{}", summary.line());
    } else {
        out.print(&text_ending(summary, d));
        if output.post.is_some() {
            let why = post::refusal(summary.failed, summary.passed + summary.failed);
            eprintln!("{why}");
        }
    }
    Ok(())
}

/// One answer's report under the leaderboard: its groups, diagnosis, time, score and
/// summary line, or why it could not start.
fn detail(j: &Judged) -> String {
    match &j.outcome {
        Ok((_, summary, d)) => text_ending(summary, d),
        Err(reason) => format!("cannot start: {}\n", report::visible(reason)),
    }
}

/// `--report-dir`: each answer's text report in DIR/NAME.txt and its JSON report (case
/// objects and summary) in DIR/NAME.json.
fn write_reports(dir: &Path, judged: &[Judged]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot make the report directory {}", dir.display()))?;
    for j in judged {
        let text = format!("{}\n{}", j.sandbox_line, detail(j));
        let mut json = String::new();
        if let Ok((reports, summary, d)) = &j.outcome {
            for r in reports {
                json += &Record::Case(CaseRecord::of(r)).to_line()?;
            }
            let record = SummaryRecord::of(summary, d, j.sandbox_json.clone());
            json += &Record::Summary(record).to_line()?;
        }
        for (ext, contents) in [("txt", text), ("json", json)] {
            let path = dir.join(format!("{}.{ext}", j.name));
            std::fs::write(&path, contents)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(())
}

/// `--junit`: one suite, or one per answer.
fn write_junit(
    path: &Path,
    shard: Option<Shard>,
    many: bool,
    judged: &[Judged],
) -> anyhow::Result<()> {
    let suite = match shard {
        Some(shard) => format!("beast check (shard {shard})"),
        None => "beast check".to_string(),
    };
    let names: Vec<String> = judged
        .iter()
        .map(|j| {
            if many {
                format!("{suite}: {}", j.name)
            } else {
                suite.clone()
            }
        })
        .collect();
    let suites: Vec<report::Suite> = judged
        .iter()
        .zip(&names)
        .filter_map(|(j, name)| {
            j.outcome
                .as_ref()
                .ok()
                .map(|(reports, _, d)| report::Suite {
                    name,
                    reports,
                    diagnosis: d,
                    sandbox: &j.sandbox_line,
                })
        })
        .collect();
    let junit = report::junit_suites(&suite, &suites);
    std::fs::write(path, junit)
        .with_context(|| format!("cannot write the JUnit report to {}", path.display()))
}

/// The progress bar on a terminal.
fn progress_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} {msg} [{elapsed}]")
    {
        bar.set_style(style);
    }
    bar
}

/// The end of the text report: the groups, the diagnosis, the time and score lines, and
/// the summary line.
fn text_ending(summary: &Summary, d: &DiagnosisReport) -> String {
    let mut s = String::new();
    for g in &d.groups {
        s += &report::group_text(g);
        s.push('\n');
    }
    s += &format!("diagnosis: {}\n", report::visible(&d.sentence));
    s += &format!("{}\n", summary.time_line());
    if let Some(line) = summary.memory_line() {
        s += &format!("{line}\n");
    }
    if let Some(line) = summary.score_line() {
        s += &format!("{line}\n");
    }
    s += &format!("{}\n", summary.line());
    s
}

/// What the diagnosis sees of the run.
fn observed(ran: &[(Case, CaseReport)]) -> Vec<Observed<'_>> {
    ran.iter()
        .map(|(case, r)| Observed {
            puzzle: &case.puzzle,
            input: &case.input,
            expected: &r.expected,
            got: r.got.as_bytes(),
            verdict: r.verdict,
            passed: r.passed,
        })
        .collect()
}

/// The run's diagnosis on `jobs` threads, searched within `budget` or until interrupted.
fn diagnose_run(
    ran: &[(Case, CaseReport)],
    judge: Option<&Judge>,
    jobs: usize,
    budget: Duration,
) -> Diagnosis {
    let deadline = Instant::now() + budget;
    let groups = judge.map(|j| &j.runner.groups);
    diagnose::diagnose(&observed(ran), jobs, || {
        Instant::now() < deadline && groups.is_none_or(|g| g.interrupted().is_none())
    })
}

/// The report of every group, each with the case it shows, shrunk as `--shrink` says; the
/// groups shrink in parallel on `jobs` threads.
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
                cause: group.cause.clone(),
                cases: vec![i],
                smallest: i,
            };
            match which {
                ShrinkWhich::All => group.cases.iter().map(|&i| (g, one(i))).collect(),
                _ => vec![(g, group.clone())],
            }
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..jobs.min(units.len()).max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((g, unit)) = units.get(k) else { break };
                    let shrink = match which {
                        ShrinkWhich::None => false,
                        ShrinkWhich::First => *g == 0,
                        ShrinkWhich::Group | ShrinkWhich::All => true,
                    };
                    let judge = judge.filter(|_| shrink);
                    let shown = shrinking::shown(judge, unit, ran, conclusion.shrink_time);
                    if let Ok(mut r) = results.lock() {
                        r.push((*g, shown));
                    }
                }
            });
        }
    });
    let mut best: Vec<Option<report::Shown>> = vec![None; groups.len()];
    let results = results.into_inner().unwrap_or_default();
    for (g, shown) in results {
        let shown = shown?;
        let size = |s: &report::Shown| {
            s.shrunk
                .map_or(usize::MAX, |x| x.to.0 * x.to.1 * 1000 + x.to.2)
        };
        if best[g].as_ref().is_none_or(|b| size(&shown) < size(b)) {
            best[g] = Some(shown);
        }
    }
    Ok(groups
        .iter()
        .zip(best)
        .filter_map(|(group, shown)| Some(group_report(group, shown?, ran)))
        .collect())
}

/// The report of one group, showing `shown`.
fn group_report(group: &Group, shown: report::Shown, ran: &[(Case, CaseReport)]) -> GroupReport {
    GroupReport {
        verdict: ran[group.smallest].1.verdict,
        compare: match &group.cause {
            diagnose::Cause::Hypothesis { head, .. } => {
                head.hypothesis.rules().map(|rules| report::ComparePage {
                    flags: beast_engine::beast::variant::flags(rules),
                    written: None,
                })
            }
            _ => None,
        },
        also: match &group.cause {
            diagnose::Cause::Hypothesis { also, .. } => also.iter().map(|h| h.words()).collect(),
            _ => Vec::new(),
        },
        evidence: match &group.cause {
            diagnose::Cause::Hypothesis { head, .. } => Some(head.evidence),
            _ => None,
        },
        event: group.cause.suspect().map(|s| s.event.name().to_string()),
        cause: diagnose::describe(&group.cause),
        cases: group.cases.iter().map(|&i| ran[i].1.name.clone()).collect(),
        shown,
    }
}

/// `--html-dir`: each explained group's smallest case and its compare page, written into
/// `dir` as `group-N.txt` and `group-N.html`.
fn write_compare_pages(dir: &std::path::Path, groups: &mut [GroupReport]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (n, g) in groups.iter_mut().enumerate() {
        let Some(compare) = &mut g.compare else {
            continue;
        };
        let puzzle_file = dir.join(format!("group-{}.txt", n + 1));
        let page_file = dir.join(format!("group-{}.html", n + 1));
        let puzzle = beast_engine::beast::Puzzle::parse(&g.shown.puzzle)
            .with_context(|| format!("the smallest case of group {} does not parse", n + 1))?;
        let name = format!("group-{}.txt", n + 1);
        let page = super::replay::page_for(
            &puzzle,
            beast_engine::beast::Rules::OURS,
            Some(&compare.flags),
            &name,
        )?;
        std::fs::write(&puzzle_file, &g.shown.puzzle)
            .with_context(|| format!("cannot write {}", puzzle_file.display()))?;
        std::fs::write(&page_file, page)
            .with_context(|| format!("cannot write {}", page_file.display()))?;
        compare.written = Some((
            puzzle_file.display().to_string(),
            page_file.display().to_string(),
        ));
    }
    Ok(())
}

/// The golf score's source: `--source FILE` (or the answer's `source`), or the script the
/// command names.
fn source(answer: &Answer) -> anyhow::Result<Option<Source>> {
    let path = match &answer.source {
        Some(p) if p.as_os_str() == "none" => return Ok(None),
        Some(p) => p.clone(),
        None => match script(&answer.command) {
            Some(p) => p,
            None => return Ok(None),
        },
    };
    let bytes = std::fs::read(&path)
        .with_context(|| format!("cannot read the source {}", path.display()))?;
    Ok(Some(Source::measure(path.display().to_string(), &bytes)))
}

/// The script a command runs: the first word that names an existing file that is not a
/// compiled program (`python3 a.py`, `./a.pl`).
fn script(command: &[OsString]) -> Option<PathBuf> {
    command.iter().map(PathBuf::from).find(|p| {
        let named = p.components().count() > 1 || p.extension().is_some();
        named && p.is_file() && !is_binary(p)
    })
}

/// True if the file starts like a compiled program: ELF, a Windows executable (`MZ`) or
/// Mach-O (either byte order, or a universal binary).
fn is_binary(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    let mach_o = [0xfeed_face_u32, 0xfeed_facf, 0xcafe_babe];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| {
            &head == b"\x7fELF"
                || head.starts_with(b"MZ")
                || mach_o
                    .iter()
                    .any(|m| head == m.to_be_bytes() || head == m.to_le_bytes())
        })
}
