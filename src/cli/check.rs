//! `beast check [OPTIONS] -- CMD [ARGS...]`: run a golf answer on every case, judge its
//! output against the engine, diagnose the run (which reading of the rules the answer
//! takes), group the failures and show each group's smallest case, shrunk.
//!
//! The parts: [`load`] makes the case list, [`pool`] runs it, [`shrinking`] makes the case
//! each group shows; the diagnosis and the words are the engine's (`judge::diagnose`,
//! `judge::report`). This file reads the flags and prints.

mod load;
mod pool;
mod runner;
pub mod sandbox;
mod shrinking;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use beast_engine::judge::cases::{self, Case, Shard};
use beast_engine::judge::diagnose::{self, Diagnosis, Group, Observed};
use beast_engine::judge::report::{
    self, CaseReport, DiagnosisReport, GroupReport, Source, Summary,
};
use indicatif::{ProgressBar, ProgressStyle};

use self::pool::Judge;
use self::runner::{Groups, InputMode, Runner, Workspace};
use self::sandbox::{Level, Sandbox};
use super::r#gen::GenArgs;

/// Arguments of `beast check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Verdicts: AC accepted, WA wrong answer, PE only whitespace differs, \
    TLE time limit, RTE non-zero exit or signal, OLE output limit, MLE memory limit.\n\
    Exit codes: 0 every case passed, 1 a case failed (also when stdout is closed early), \
    2 usage error or the command cannot start."
)]
pub struct Args {
    /// Also run NAME.in/NAME.out (or NAME.txt/NAME.out, with optional NAME.args) pairs from DIR.
    #[arg(long, value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    /// Also run N generated puzzles, at most 10 million (see the Generation options).
    #[arg(long, value_name = "N", value_parser = cases::random_count)]
    pub random: Option<usize>,
    /// Seed of the random cases [default: from the clock, printed]. Case I uses the Ith
    /// number of the ChaCha8 stream seeded with it as its `beast gen --seed`.
    #[arg(long, value_name = "S", requires = "random")]
    pub seed: Option<u64>,
    /// Leave out the built-in samples and rule examples.
    #[arg(long)]
    pub no_builtin: bool,
    /// Run only shard K of N: every Nth case of the list, from the Kth.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// How the candidate gets the puzzle: on stdin, as one argument, or as a file path
    /// (`{}` in the command is replaced by the argument or path; otherwise it is appended).
    #[arg(long, value_enum, default_value_t = InputMode::Stdin)]
    pub input: InputMode,
    /// Time limit per run, in seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = super::values::seconds)]
    pub timeout: Duration,
    /// Output limit per run, in bytes (suffixes K and M allowed).
    #[arg(long, value_name = "BYTES", default_value = "1M", value_parser = super::values::bytes)]
    pub max_output: usize,
    /// Compare bytes exactly; whitespace differences (PE) then fail.
    #[arg(long)]
    pub strict: bool,
    /// Which failures to shrink: the case each group shows (`group`), every failure
    /// (`all`), only the first group's (`first`), or none.
    #[arg(long, value_enum, default_value_t = ShrinkWhich::Group, value_name = "WHICH")]
    pub shrink: ShrinkWhich,
    /// The same as `--shrink none`.
    #[arg(long)]
    pub no_shrink: bool,
    /// Write, for every failure group a reading explains, its smallest case (`group-N.txt`)
    /// and the page comparing our reading with it (`group-N.html`, as `beast --html
    /// --compare` makes it) into DIR.
    #[arg(long, value_name = "DIR")]
    pub html_dir: Option<PathBuf>,
    /// Time limit of shrinking, per group, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::values::seconds)]
    pub shrink_time: Duration,
    /// Time limit of the engine's own work on one case (judging it), and of the whole
    /// diagnosis, in seconds; a case past it is skipped as too large to judge.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::values::seconds)]
    pub engine_time: Duration,
    /// Run only the cases whose name matches PATTERN (`*` and `?` globs; repeatable).
    #[arg(long, value_name = "PATTERN")]
    pub only: Vec<String>,
    /// Print the names of the cases that would run, and stop.
    #[arg(long)]
    pub list: bool,
    /// The answer's source file, for the golf score in bytes and characters [default: the
    /// script the command names, if it exists]; `none` turns the score off.
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
    /// Cases run at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Stop at the first failure.
    #[arg(long)]
    pub fail_fast: bool,
    /// How strongly the candidate is contained: auto (the strongest this machine allows),
    /// strict (namespaces or exit 2), basic (no namespaces), none (trusted, full speed).
    #[arg(long, value_enum, default_value_t = Level::Auto)]
    pub sandbox: Level,
    /// Address-space limit per run in MiB (0: none); running out of it is MLE.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory: u64,
    /// Pass this environment variable on to the candidate (repeatable); the rest is
    /// cleared but for PATH, LANG, LC_* and TERM.
    #[arg(long, value_name = "NAME")]
    pub env: Vec<OsString>,
    /// Print every case, passing ones too, and skipped example pairs.
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// The candidate command and its arguments (put them after `--`).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    pub command: Vec<OsString>,
}

/// `--shrink`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShrinkWhich {
    /// The case each group shows.
    Group,
    /// Every failure; each group shows its smallest.
    All,
    /// Only the first group's case.
    First,
    /// Nothing.
    None,
}

/// `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The groups of failures, the diagnosis, then the summary line.
    Text,
    /// One JSON object per case and a summary object; the summary line goes to stderr.
    Json,
}

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

/// Runs `beast check`.
pub fn run(args: Args) -> super::Ended {
    if args.shard.is_some() && args.random.is_some() && args.seed.is_none() {
        return Err(super::error::usage("shards must share a seed: add --seed"));
    }
    let seed = args
        .random
        .map(|_| args.seed.unwrap_or_else(super::fresh_seed));
    let all = load::jobs(&args, seed)?;
    if args.list {
        print_list(&all);
        return Ok(());
    }
    if all.is_empty() {
        return Err(super::error::usage(
            "no case to run: every case source is empty, skipped or left out by --only (see \
             the notes above); a check that runs nothing cannot pass",
        ));
    }
    if let (Some(seed), None) = (seed, args.seed) {
        eprintln!("random cases from --seed {seed}");
    }
    let judge = judge_for(&args)?;
    let jobs = args.jobs.map_or_else(
        || thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let bar = (io::stderr().is_terminal()).then(|| progress_bar(all.len()));
    let mut out = Out {
        closed: false,
        bar: bar.clone(),
    };
    if args.format == Format::Text {
        out.print(&format!("{}\n", judge.runner.sandbox.line()));
    }
    let ran = run_cases(&judge, &all, &args, jobs, &mut out)?;
    stop_if_interrupted(&judge)?;
    if let Some(bar) = &bar {
        bar.set_message("diagnosing");
    }
    let diagnosis = diagnose_run(&ran, &judge, jobs, args.engine_time);
    let groups = diagnose::group(&observed(&ran), &diagnosis);
    let mut shown = show_groups(&judge, &groups, &ran, &args, jobs)?;
    stop_if_interrupted(&judge)?;
    if let Some(dir) = &args.html_dir {
        write_compare_pages(dir, &mut shown)?;
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let diagnosis = DiagnosisReport::new(&diagnosis, shown);
    let reports: Vec<CaseReport> = ran.into_iter().map(|(_, r)| r).collect();
    let mut summary = Summary::of(&reports);
    summary.source = source(&args)?;
    finish(&args, &judge, &reports, &summary, &diagnosis, &mut out)?;
    if summary.failed == 0 {
        Ok(())
    } else {
        Err(super::Error::Failed)
    }
}

/// Ends the run once a signal has interrupted it; the report so far is not printed, since
/// a cut-short run proves nothing.
fn stop_if_interrupted(judge: &Judge) -> super::Ended {
    match judge.runner.groups.interrupted() {
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

/// What runs and judges the cases, from the flags.
fn judge_for(args: &Args) -> anyhow::Result<Judge> {
    let groups = Groups::default();
    groups
        .kill_on_interrupt()
        .context("cannot set up the interrupt handler")?;
    let sandbox = Sandbox::new(&sandbox::Request {
        level: args.sandbox,
        memory_mib: args.memory,
        pass_env: &args.env,
        cases: &args.cases,
        command: &args.command,
    })?;
    Ok(Judge {
        runner: Runner {
            groups,
            command: args.command.clone(),
            input: args.input,
            timeout: args.timeout,
            max_output: args.max_output,
            sandbox: std::sync::Arc::new(sandbox),
            workspace: std::sync::Arc::new(
                Workspace::new().context("cannot make a directory for the candidates")?,
            ),
        },
        gen_opts: args.gen_args.options()?,
        gen_flags: args.gen_args.flags(),
        strict: args.strict,
        consistent: args.verbose,
        engine_time: args.engine_time,
    })
}

/// Runs every case, printing each one's report as it finishes when the format asks.
fn run_cases(
    judge: &Judge,
    all: &load::CaseList,
    args: &Args,
    jobs: usize,
    out: &mut Out,
) -> anyhow::Result<Vec<(Case, CaseReport)>> {
    let bar = out.bar.clone();
    pool::run_all(
        judge,
        all,
        jobs,
        args.fail_fast,
        |failed| {
            if let Some(bar) = &bar {
                bar.inc(1);
                if failed > 0 {
                    bar.set_message(format!("{failed} failed"));
                }
            }
        },
        |r| match args.format {
            Format::Json => out.print(&format!("{}\n", report::json_text(&report::json(r)))),
            Format::Text if args.verbose => out.print(&report::text(r)),
            Format::Text => {}
        },
    )
}

/// Prints the end of the report and writes the JUnit file.
fn finish(
    args: &Args,
    judge: &Judge,
    reports: &[CaseReport],
    summary: &Summary,
    diagnosis: &DiagnosisReport,
    out: &mut Out,
) -> anyhow::Result<()> {
    let sandbox = &judge.runner.sandbox;
    match args.format {
        Format::Json => {
            let mut object = report::json_summary(summary, diagnosis);
            object["sandbox"] = serde_json::to_value(sandbox.summary())?;
            object["sandbox"]["line"] = sandbox.line().into();
            out.print(&format!("{}\n", report::json_text(&object)));
            eprintln!("diagnosis: {}", diagnosis.sentence);
            eprintln!("{}", summary.line());
        }
        Format::Text => out.print(&text_ending(summary, diagnosis)),
    }
    if let Some(path) = &args.junit {
        let suite = match args.shard {
            Some(shard) => format!("beast check (shard {shard})"),
            None => "beast check".to_string(),
        };
        let junit = report::junit(&suite, reports, diagnosis, &sandbox.line());
        std::fs::write(path, junit)
            .with_context(|| format!("cannot write the JUnit report to {}", path.display()))?;
    }
    Ok(())
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
    judge: &Judge,
    jobs: usize,
    budget: Duration,
) -> Diagnosis {
    let deadline = Instant::now() + budget;
    let groups = &judge.runner.groups;
    diagnose::diagnose(&observed(ran), jobs, || {
        Instant::now() < deadline && groups.interrupted().is_none()
    })
}

/// The report of every group, each with the case it shows, shrunk as `--shrink` says; the
/// groups shrink in parallel on `jobs` threads.
fn show_groups(
    judge: &Judge,
    groups: &[Group],
    ran: &[(Case, CaseReport)],
    args: &Args,
    jobs: usize,
) -> anyhow::Result<Vec<GroupReport>> {
    let which = if args.no_shrink {
        ShrinkWhich::None
    } else {
        args.shrink
    };
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
                    let shown = shrinking::shown(judge, unit, ran, shrink, args.shrink_time);
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
        .filter_map(|(group, shown)| {
            let shown = shown?;
            Some(GroupReport {
                verdict: ran[group.smallest].1.verdict,
                compare: match group.cause {
                    diagnose::Cause::Reading(rules) => Some(report::ComparePage {
                        flags: beast_engine::beast::variant::flags(rules),
                        written: None,
                    }),
                    _ => None,
                },
                cause: diagnose::describe(&group.cause),
                cases: group.cases.iter().map(|&i| ran[i].1.name.clone()).collect(),
                shown,
            })
        })
        .collect())
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

/// The golf score's source: `--source FILE`, or the script the command names.
fn source(args: &Args) -> anyhow::Result<Option<Source>> {
    let path = match &args.source {
        Some(p) if p.as_os_str() == "none" => return Ok(None),
        Some(p) => p.clone(),
        None => match script(&args.command) {
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

/// True if the file starts like a compiled program (ELF).
fn is_binary(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"\x7fELF")
}
