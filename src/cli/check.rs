//! `beast check [OPTIONS] -- CMD [ARGS...]`: run a golf answer on every case, judge its
//! output against the engine, explain wrong answers by other rule readings, and shrink
//! failing random cases.

mod runner;
pub mod sandbox;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use beast_judge::beast::{Puzzle, Rules, judge};
use beast_judge::judge::cases::{self, Case, Loaded, Origin, RandomSpec, Shard};
use beast_judge::judge::generate::GenOptions;
use beast_judge::judge::report::{self, CaseReport, ShrunkCase, Summary};
use beast_judge::judge::verdict::{self, Verdict};
use beast_judge::judge::{explain, shrink};
use indicatif::{ProgressBar, ProgressStyle};

use self::runner::{Ended, Groups, InputMode, Run, Runner, Workspace};
use self::sandbox::{Level, Sandbox};
use super::r#gen::GenArgs;

/// How long shrinking one failing case may take.
const SHRINK_TIME: Duration = Duration::from_secs(10);

/// Arguments of `beast check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Verdicts: AC accepted, WA wrong answer, PE only whitespace differs, \
    TLE time limit, RTE non-zero exit or signal, OLE output limit, MLE memory limit.\n\
    Exit codes: 0 every case passed, 1 a case failed, 2 usage error or the command cannot start."
)]
pub struct Args {
    /// Also run NAME.in/NAME.out (or NAME.txt/NAME.out, with optional NAME.args) pairs from DIR.
    #[arg(long, value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    /// Also run N generated puzzles (see the Generation options), judged by the engine.
    #[arg(long, value_name = "N")]
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
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_seconds)]
    pub timeout: Duration,
    /// Output limit per run, in bytes (suffixes K and M allowed).
    #[arg(long, value_name = "BYTES", default_value = "1M", value_parser = parse_bytes)]
    pub max_output: usize,
    /// Compare bytes exactly; whitespace differences (PE) then fail.
    #[arg(long)]
    pub strict: bool,
    /// Do not shrink failing random cases.
    #[arg(long)]
    pub no_shrink: bool,
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
    /// Print passing cases too, and skipped example pairs.
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

/// `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Failures in detail, then the summary line.
    Text,
    /// One JSON object per case and a summary object; the summary line goes to stderr.
    Json,
}

/// Seconds as a positive, finite decimal number.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected seconds such as 5 or 0.5, got {s:?}"))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
        return Err(format!(
            "the timeout must be above 0 and at most a day, got {s}"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A byte count such as `1048576`, `64K` or `1M` (binary units).
fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (num, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let factor: usize = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return Err(format!("expected a size such as 1M or 65536, got {s:?}")),
    };
    num.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .ok_or_else(|| format!("expected a size such as 1M or 65536, got {s:?}"))
}

/// Reads `NAME.in` or `NAME.txt` files that have a `NAME.out` next to them.
fn load_dir(dir: &Path) -> anyhow::Result<Loaded> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut pairs: Vec<(String, PathBuf)> = Vec::new();
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read {}", dir.display()))?
            .path();
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if matches!(ext, "in" | "txt") && dir.join(format!("{stem}.out")).is_file() {
            pairs.push((stem, path));
        }
    }
    pairs.sort();
    pairs.dedup_by(|a, b| a.0 == b.0);
    let mut loaded = Loaded::default();
    for (stem, input_path) in pairs {
        let read =
            |p: &Path| std::fs::read(p).with_context(|| format!("cannot read {}", p.display()));
        let input = read(&input_path)?;
        let output = read(&dir.join(format!("{stem}.out")))?;
        let args_path = dir.join(format!("{stem}.args"));
        let args = if args_path.is_file() {
            Some(read(&args_path)?)
        } else {
            None
        };
        loaded.add(&stem, &input, &output, args.as_deref(), Origin::File)?;
    }
    Ok(loaded)
}

/// Everything a worker needs.
struct Judge {
    runner: Runner,
    gen_opts: GenOptions,
    gen_flags: String,
    strict: bool,
    shrink: bool,
}

impl Judge {
    /// The verdict and a detail line for one run against `expected`.
    fn verdict(&self, run: &Run, expected: &str) -> (Verdict, Option<String>) {
        let stderr = || {
            let text = String::from_utf8_lossy(&run.stderr);
            let lines: Vec<&str> = text.lines().take(3).collect();
            if lines.is_empty() {
                String::new()
            } else {
                format!("; stderr: {}", lines.join(" | "))
            }
        };
        match run.ended {
            Ended::OutputLimit => (
                Verdict::OutputLimit,
                Some(format!(
                    "printed more than {} bytes",
                    self.runner.max_output
                )),
            ),
            Ended::TimedOut => (
                Verdict::TimeLimit,
                Some(format!(
                    "killed after {} s",
                    self.runner.timeout.as_secs_f64()
                )),
            ),
            Ended::MemoryLimit => (
                Verdict::MemoryLimit,
                Some(format!(
                    "ran out of the {} MiB memory limit{}",
                    self.runner.sandbox.memory_mib,
                    stderr()
                )),
            ),
            Ended::ArgumentTooLong => (
                Verdict::RuntimeError,
                Some(
                    "the puzzle is longer than the system allows one argument (128 KiB); \
                     use --input file or stdin"
                        .to_string(),
                ),
            ),
            Ended::Exited(0) => (
                verdict::compare(expected.as_bytes(), &run.stdout, self.strict),
                None,
            ),
            Ended::Exited(code) => (
                Verdict::RuntimeError,
                Some(format!("exit code {code}{}", stderr())),
            ),
            Ended::Signaled(sig) => {
                let name = nix::sys::signal::Signal::try_from(sig)
                    .map(|s| format!(" ({})", s.as_str()))
                    .unwrap_or_default();
                (
                    Verdict::RuntimeError,
                    Some(format!("killed by signal {sig}{name}{}", stderr())),
                )
            }
        }
    }

    /// Runs one job; `None` for a random case the engine cannot decide (skipped).
    fn job(&self, job: &Job) -> anyhow::Result<Option<CaseReport>> {
        match job {
            Job::Ready(case) => self.case(case).map(Some),
            Job::Random(spec) => match spec.case(&self.gen_opts) {
                Ok(case) => self.case(&case).map(Some),
                Err(skipped) => {
                    eprintln!("note: skipped {}: {}", skipped.name, skipped.reason);
                    Ok(None)
                }
            },
        }
    }

    /// Runs one case, explains a WA and shrinks a failing random case.
    fn case(&self, case: &Case) -> anyhow::Result<CaseReport> {
        let run = self.runner.run(&case.input)?;
        let (v, detail) = self.verdict(&run, &case.expected);
        let passed = v.passed(self.strict);
        let reading_match = if v == Verdict::WrongAnswer {
            explain::explain(&case.puzzle, &run.stdout)
        } else {
            None
        };
        let seed = match case.origin {
            Origin::Random { seed } => Some(seed),
            _ => None,
        };
        let shrunk = match seed {
            Some(seed) if !passed && self.shrink => Some(self.shrink(case, seed, v)?),
            _ => None,
        };
        Ok(CaseReport {
            name: case.name.clone(),
            verdict: v,
            passed,
            time_ms: run.elapsed.as_secs_f64() * 1000.0,
            expected: case.expected.clone(),
            got: String::from_utf8_lossy(&run.stdout).into_owned(),
            detail,
            reading_match,
            seed,
            reproduce: seed.map(|s| format!("beast gen --seed {s}{}", self.gen_flags)),
            shrunk,
        })
    }

    /// Shrinks a case that failed with `v` to a small puzzle that still does.
    fn shrink(&self, case: &Case, seed: u64, v: Verdict) -> anyhow::Result<ShrunkCase> {
        let deadline = Instant::now() + SHRINK_TIME;
        let mut error = None;
        let still_fails = |p: &Puzzle| -> bool {
            if error.is_some() || Instant::now() > deadline {
                return false;
            }
            let Ok(outcome) = judge(p, Rules::default()) else {
                return false;
            };
            match self.runner.run(p.to_string().as_bytes()) {
                Ok(run) => self.verdict(&run, &outcome.answer()).0 == v,
                Err(e) => {
                    error = Some(e);
                    false
                }
            }
        };
        let s = shrink::shrink(&case.puzzle, shrink::DEFAULT_BUDGET, still_fails);
        if let Some(e) = error {
            return Err(e.into());
        }
        let dims = |p: &Puzzle| (p.map().cols(), p.map().rows(), p.moves().len());
        Ok(ShrunkCase {
            seed,
            from: dims(&case.puzzle),
            to: dims(&s.puzzle),
            puzzle: s.puzzle.to_string(),
        })
    }
}

/// A case to run: loaded already, or generated by the worker that runs it.
enum Job {
    Ready(Case),
    Random(RandomSpec),
}

/// What became of a job.
enum Slot {
    Pending,
    Done(Box<CaseReport>),
    Skipped,
}

/// Prints reports in case order as they become available.
struct Printer {
    format: Format,
    verbose: bool,
    bar: Option<ProgressBar>,
}

impl Printer {
    fn print(&self, r: &CaseReport) -> io::Result<()> {
        let text = match self.format {
            Format::Json => format!("{}\n", report::json(r)),
            Format::Text if !r.passed || self.verbose || r.verdict != Verdict::Accepted => {
                report::text(r)
            }
            Format::Text => return Ok(()),
        };
        let write = || {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }
}

/// Runs `beast check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
    let runner = Runner {
        groups,
        command: args.command.clone(),
        input: args.input,
        timeout: args.timeout,
        max_output: args.max_output,
        sandbox: std::sync::Arc::new(sandbox),
        workspace: std::sync::Arc::new(
            Workspace::new().context("cannot make a directory for the candidates")?,
        ),
    };
    if args.format == Format::Text {
        println!("{}", runner.sandbox.line());
    }
    let gen_opts = args.gen_args.options()?;

    let mut jobs_list: Vec<Job> = Vec::new();
    if !args.no_builtin {
        let b = cases::builtin();
        jobs_list.extend(b.cases.into_iter().map(Job::Ready));
        if args.verbose {
            for s in &b.skipped {
                eprintln!("note: skipped built-in {}: {}", s.name, s.reason);
            }
        }
    }
    for dir in &args.cases {
        let l = load_dir(dir)?;
        if l.cases.is_empty() && l.skipped.is_empty() {
            eprintln!(
                "note: no NAME.in/NAME.out or NAME.txt/NAME.out pairs in {}",
                dir.display()
            );
        }
        for s in &l.skipped {
            eprintln!("note: skipped {}: {}", s.name, s.reason);
        }
        for d in &l.disputed {
            eprintln!("note: {}", d.reason);
        }
        jobs_list.extend(l.cases.into_iter().map(Job::Ready));
    }
    if let Some(n) = args.random {
        let seed = args.seed.unwrap_or_else(clock_seed);
        if args.seed.is_none() {
            eprintln!("random cases from --seed {seed}");
        }
        jobs_list.extend(cases::random_specs(seed, n).into_iter().map(Job::Random));
    }
    if jobs_list.is_empty() {
        anyhow::bail!(
            "no case to run: every case source is empty or skipped (see the notes above); \
             a check that runs nothing cannot pass"
        );
    }
    let all = match args.shard {
        Some(shard) => shard.select(jobs_list),
        None => jobs_list,
    };

    let jobs = args.jobs.map_or_else(
        || thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let bar = (io::stderr().is_terminal() && !all.is_empty()).then(|| {
        let bar = ProgressBar::new(all.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} {msg} [{elapsed}]")
        {
            bar.set_style(style);
        }
        bar
    });
    let printer = Printer {
        format: args.format,
        verbose: args.verbose,
        bar: bar.clone(),
    };
    let worker = Judge {
        runner,
        gen_opts,
        gen_flags: args.gen_args.flags(),
        strict: args.strict,
        shrink: !args.no_shrink,
    };
    let reports = run_all(&worker, &all, jobs, args.fail_fast, &printer)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }

    let summary = Summary::of(&reports);
    match args.format {
        Format::Json => {
            let mut out = io::stdout().lock();
            writeln!(out, "{}", report::json_summary(summary))?;
            out.flush()?;
            eprintln!("{}", summary.line());
        }
        Format::Text => {
            let mut out = io::stdout().lock();
            writeln!(out, "{}", summary.line())?;
            out.flush()?;
        }
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, report::junit("beast check", &reports))
            .with_context(|| format!("cannot write the JUnit report to {}", path.display()))?;
    }
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A seed from the clock, for `--random` without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// Runs every job on `jobs` threads and prints the reports in case order. Returns the
/// reports of the cases that ran, in order.
fn run_all(
    worker: &Judge,
    all: &[Job],
    jobs: usize,
    fail_fast: bool,
    printer: &Printer,
) -> anyhow::Result<Vec<CaseReport>> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut slots: Vec<Slot> = all.iter().map(|_| Slot::Pending).collect();
    let mut printed = 0;
    let mut failure: Option<anyhow::Error> = None;
    thread::scope(|scope| -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel();
        for _ in 0..jobs.min(all.len().max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = all.get(i) else { break };
                    let result = worker.job(job);
                    let fatal = result.is_err();
                    let failed = result
                        .as_ref()
                        .is_ok_and(|r| r.as_ref().is_some_and(|r| !r.passed));
                    if fatal || (fail_fast && failed) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut failed = 0;
        for (i, result) in rx {
            match result {
                Ok(Some(r)) => {
                    if !r.passed {
                        failed += 1;
                    }
                    slots[i] = Slot::Done(Box::new(r));
                }
                Ok(None) => slots[i] = Slot::Skipped,
                Err(e) => {
                    if failure.is_none() {
                        failure =
                            Some(e.context(format!("cannot start `{}`", worker.runner.display())));
                    }
                    continue;
                }
            }
            if let Some(bar) = &printer.bar {
                bar.inc(1);
                if failed > 0 {
                    bar.set_message(format!("{failed} failed"));
                }
            }
            while printed < slots.len() {
                match &slots[printed] {
                    Slot::Pending => break,
                    Slot::Done(r) if failure.is_none() => printer.print(r)?,
                    _ => {}
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    // With --fail-fast some cases never ran; print the rest that did, in order.
    for slot in &slots[printed..] {
        if let Slot::Done(r) = slot {
            printer.print(r)?;
        }
    }
    Ok(slots
        .into_iter()
        .filter_map(|s| match s {
            Slot::Done(r) => Some(*r),
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_take_fractions_and_refuse_nonsense() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("5"), Ok(Duration::from_secs(5)));
        for bad in ["0", "-1", "nan", "inf", "x"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn output_limits_take_binary_suffixes() {
        assert_eq!(parse_bytes("1M"), Ok(1 << 20));
        assert_eq!(parse_bytes("64k"), Ok(64 << 10));
        assert_eq!(parse_bytes("100"), Ok(100));
        assert!(parse_bytes("1T").is_err());
        assert!(parse_bytes("99999999999999999999G").is_err());
    }
}
