//! Running the cases: a pool of worker threads, each running one case at a time through the
//! [`Runner`], with the reports handed back in case order as they become available.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use beast_engine::beast::Puzzle;
use beast_engine::beast::variant;
use beast_engine::judge::cases::{Case, Origin};
use beast_engine::judge::diagnose;
use beast_engine::judge::generate::Recipe;
use beast_engine::judge::report::{self, CaseReport};
use beast_engine::judge::verdict::{self, Verdict};

use super::load::{CaseList, Job};
use super::runner::{Ended, Run, Runner};
use crate::cli::budget::in_time;

/// Everything a worker needs to run and judge a case.
pub struct Judge {
    /// Runs the candidate.
    pub runner: Runner,
    /// The options random cases are generated with.
    pub gen_opts: Recipe,
    /// The same as `beast gen` flags, for the reproduce command.
    pub gen_flags: String,
    /// Compare bytes exactly.
    pub strict: bool,
    /// Say per case which readings it is consistent with (`-v`).
    pub consistent: bool,
    /// The engine's budget for judging one case.
    pub engine_time: Duration,
    /// Keep a passing case's puzzle text in its report (a shard's records carry it).
    pub keep_texts: bool,
}

/// The most lines and bytes of standard error shown for an RTE: its end, where Python,
/// Perl and Ruby print the exception.
const STDERR_LINES: usize = 10;
const STDERR_BYTES: usize = 1024;

/// The last lines of standard error, at most [`STDERR_LINES`] and [`STDERR_BYTES`].
fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut bytes = 0;
    for line in lines.iter().rev().take(STDERR_LINES) {
        bytes += line.len() + 1;
        if bytes > STDERR_BYTES && !kept.is_empty() {
            break;
        }
        kept.push(line);
    }
    kept.reverse();
    kept.join("\n")
}

impl Judge {
    /// The verdict and a detail line for one run against `expected`.
    pub fn verdict(&self, run: &Run, expected: &str) -> (Verdict, Option<String>) {
        let stderr = || {
            let tail = stderr_tail(&run.stderr);
            if tail.is_empty() {
                String::new()
            } else {
                format!("; stderr ends:\n{tail}")
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
                Some(match run.peak_memory {
                    // The cgroup's OOM kill: the kernel's word, and its measure.
                    Some(peak) => format!(
                        "killed by the kernel at the {} MiB memory limit of its cgroup \
                         (peak {}){}",
                        self.runner.sandbox.memory_mib,
                        report::mib(peak),
                        stderr()
                    ),
                    None => format!(
                        "ran out of the {} MiB memory limit{}",
                        self.runner.sandbox.memory_mib,
                        stderr()
                    ),
                }),
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

    /// Runs the candidate on `puzzle` and judges it against `expected`.
    pub fn run_on(&self, puzzle: &Puzzle, expected: &str) -> std::io::Result<(Verdict, Run)> {
        let run = self.runner.run(puzzle.to_string().as_bytes())?;
        let (v, _) = self.verdict(&run, expected);
        Ok((v, run))
    }

    /// Runs one job; `None` for a random case the engine cannot decide (skipped).
    fn job(&self, job: &Job) -> anyhow::Result<Option<(Case, CaseReport)>> {
        let case = match job {
            Job::Ready(case) => (*case).clone(),
            Job::Random(spec) => {
                match spec.case_within(&self.gen_opts, in_time(self.engine_time)) {
                    Ok(case) => case,
                    Err(skipped) => {
                        eprintln!("note: skipped {}: {}", skipped.name, skipped.reason);
                        return Ok(None);
                    }
                }
            }
        };
        let mut case = case;
        let mut report = self.case(&case)?;
        if report.passed && !self.keep_texts {
            // Kept for the diagnosis, which needs only the parsed puzzle of a passing case:
            // its texts go, so a long run holds less.
            case.input = Vec::new();
            report.puzzle = String::new();
        }
        Ok(Some((case, report)))
    }

    /// Runs one case.
    fn case(&self, case: &Case) -> anyhow::Result<CaseReport> {
        let run = self.runner.run(&case.input)?;
        let (v, detail) = self.verdict(&run, &case.expected);
        let seed = match case.origin {
            Origin::Random { seed } => Some(seed),
            _ => None,
        };
        let consistent = (self.consistent && v == Verdict::WrongAnswer)
            .then(|| diagnose::consistent_with(&case.puzzle, &run.stdout, 3))
            .filter(|found| !found.is_empty())
            .map(|found| {
                let said: Vec<String> = found
                    .iter()
                    .map(|&r| format!("beast {}", variant::flags(r)))
                    .collect();
                said.join(", ")
            });
        Ok(CaseReport {
            name: case.name.clone(),
            verdict: v,
            passed: v.passed(self.strict),
            time_ms: run.elapsed.as_secs_f64() * 1000.0,
            puzzle: String::from_utf8_lossy(&case.input).into_owned(),
            expected: case.expected.clone(),
            got: String::from_utf8_lossy(&run.stdout).into_owned(),
            detail,
            consistent,
            seed,
            reproduce: seed.map(|s| format!("beast gen --seed {s}{}", self.gen_flags)),
            peak_memory: run.peak_memory,
        })
    }
}

/// What became of a job.
enum Slot {
    Pending,
    Done(Box<(Case, CaseReport)>),
    Skipped,
}

/// What one answer did over the case list.
pub struct Finished {
    /// The cases that ran, in order.
    pub ran: Vec<(Case, CaseReport)>,
    /// Why the answer could not run, if it could not: its remaining cases were not run.
    pub failure: Option<anyhow::Error>,
}

/// Runs every case of `all` with every judge (one per answer) as one pool of jobs on
/// `jobs` threads, answer by answer, so no answer waits for another to finish. Calls
/// `report(answer, case, report)` for each finished case in order (`case` is its place in
/// `all`), and `progress` with the count failed so far as each finishes. An answer that
/// cannot start stops only its own cases; with `fail_fast` its first failure does.
pub fn run_all(
    judges: &[Judge],
    all: &CaseList,
    jobs: usize,
    fail_fast: bool,
    mut progress: impl FnMut(usize),
    mut report: impl FnMut(usize, usize, &CaseReport),
) -> Vec<Finished> {
    let cases = all.len().max(1);
    let total = all.len() * judges.len();
    let queue = Queue {
        judges,
        all,
        fail_fast,
        next: AtomicUsize::new(0),
        stopped: judges.iter().map(|_| AtomicBool::new(false)).collect(),
        stopped_count: AtomicUsize::new(0),
    };
    let mut slots: Vec<Slot> = (0..total).map(|_| Slot::Pending).collect();
    let mut printed = 0;
    let mut failures: Vec<Option<anyhow::Error>> = judges.iter().map(|_| None).collect();
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..jobs.min(total.max(1)) {
            let tx = tx.clone();
            let queue = &queue;
            scope.spawn(move || queue.work(&tx));
        }
        drop(tx);
        let mut failed = 0;
        for (i, result) in rx {
            let a = i / cases;
            // A case that ends after an interrupt was cut short by it: it proves nothing.
            let cut = judges
                .first()
                .is_some_and(|j| j.runner.groups.interrupted().is_some());
            slots[i] = match result {
                _ if cut => Slot::Skipped,
                Ok(Some(done)) => {
                    failed += usize::from(!done.1.passed);
                    Slot::Done(Box::new(done))
                }
                Ok(None) => Slot::Skipped,
                Err(e) => {
                    failures[a].get_or_insert_with(|| {
                        e.context(format!("cannot start `{}`", judges[a].runner.display()))
                    });
                    Slot::Skipped
                }
            };
            progress(failed);
            while printed < slots.len() && !matches!(slots[printed], Slot::Pending) {
                let a = printed / cases;
                if let (Slot::Done(done), None) = (&slots[printed], &failures[a]) {
                    report(a, printed % cases, &done.1);
                }
                printed += 1;
            }
        }
    });
    // With --fail-fast some cases never ran; report the rest that did, in order.
    for (i, slot) in slots.iter().enumerate().skip(printed) {
        if let (Slot::Done(done), None) = (slot, &failures[i / cases]) {
            report(i / cases, i % cases, &done.1);
        }
    }
    gather(slots, failures, cases)
}

/// What one job ended with: its case and report, `None` when skipped, or the reason the
/// answer could not start.
type JobResult = anyhow::Result<Option<(Case, CaseReport)>>;

/// The jobs of a run, every answer's cases in a row, taken by the workers in turn.
struct Queue<'a> {
    judges: &'a [Judge],
    all: &'a CaseList,
    fail_fast: bool,
    /// The next job to take: answer `i / cases`, case `i % cases`.
    next: AtomicUsize,
    /// Answers whose remaining cases are skipped (cannot start, or failed under
    /// `--fail-fast`).
    stopped: Vec<AtomicBool>,
    stopped_count: AtomicUsize,
}

impl Queue<'_> {
    /// A worker: takes jobs until none is left, every answer has stopped, or the run is
    /// interrupted, and sends each result with its job number.
    fn work(&self, tx: &mpsc::Sender<(usize, JobResult)>) {
        let cases = self.all.len().max(1);
        let interrupted = || {
            self.judges
                .first()
                .is_some_and(|j| j.runner.groups.interrupted().is_some())
        };
        while self.stopped_count.load(Ordering::Relaxed) < self.judges.len() && !interrupted() {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let a = i / cases;
            let (Some(judge), Some(job)) = (self.judges.get(a), self.all.get(i % cases)) else {
                break;
            };
            let result = if self.stopped[a].load(Ordering::Relaxed) {
                Ok(None)
            } else {
                judge.job(&job)
            };
            let failed = result
                .as_ref()
                .is_ok_and(|r| r.as_ref().is_some_and(|(_, r)| !r.passed));
            if (result.is_err() || (self.fail_fast && failed))
                && !self.stopped[a].swap(true, Ordering::Relaxed)
            {
                self.stopped_count.fetch_add(1, Ordering::Relaxed);
            }
            if tx.send((i, result)).is_err() {
                break;
            }
        }
    }
}

/// Each answer's finished cases, in order, with the reason it could not start if any.
fn gather(slots: Vec<Slot>, failures: Vec<Option<anyhow::Error>>, cases: usize) -> Vec<Finished> {
    let mut finished: Vec<Finished> = failures
        .into_iter()
        .map(|failure| Finished {
            ran: Vec::new(),
            failure,
        })
        .collect();
    for (i, slot) in slots.into_iter().enumerate() {
        if let Slot::Done(done) = slot {
            finished[i / cases].ran.push(*done);
        }
    }
    finished
}

#[cfg(test)]
mod tests {
    use super::stderr_tail;

    #[test]
    fn the_end_of_stderr_is_kept() {
        let err: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let tail = stderr_tail(err.as_bytes());
        assert!(tail.starts_with("line 21\n"), "{tail}");
        assert!(tail.ends_with("line 30"), "{tail}");
        let long = format!(
            "{}\nIndexError: list index out of range\n",
            "x".repeat(5000)
        );
        assert_eq!(
            stderr_tail(long.as_bytes()),
            "IndexError: list index out of range"
        );
    }
}
