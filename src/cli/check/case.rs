//! One case, start to end, on the judge's side: a [`Judge`] holds what judging one answer
//! needs. [`Judge::job`] makes the case (a random one drawn from its seed), runs it through
//! [`Judge::attempt`] (the one path every run of the answer takes: the pool's cases, the
//! shrinking's candidates and the experiments' designed cases), judges the run
//! ([`Judge::verdict`]: the verdict and how it ended) and makes the case's report. The pool
//! only schedules jobs ([`super::pool`]); the process itself is [`super::runner`]'s.

use beast_engine::beast::Puzzle;
use beast_engine::beast::variant;
use beast_engine::judge::cases::{Case, Origin};
use beast_engine::judge::diagnose;
use beast_engine::judge::generate::Recipe;
use beast_engine::judge::report::CaseReport;
use beast_engine::judge::termination::Termination;
use beast_engine::judge::verdict::{self, Verdict};

use super::load::Job;
use super::runner::{Execute, Exit, ProcessEnd, Runner};
use beast_engine::judge::budget::Steps;

/// Everything a worker needs to run and judge a case.
pub struct Judge<E: Execute = Runner> {
    /// Runs the candidate.
    pub runner: E,
    /// The options random cases are generated with.
    pub gen_opts: Recipe,
    /// The same as `beast gen` flags, for the reproduce command.
    pub gen_flags: String,
    /// Compare bytes exactly.
    pub strict: bool,
    /// Say per case which readings it is consistent with (`-v`).
    pub consistent: bool,
    /// The engine's budget for judging one case.
    pub engine_steps: Steps,
    /// Keep a passing case's puzzle text in its report (a shard's records carry it).
    pub keep_texts: bool,
}

impl<E: Execute> Drop for Judge<E> {
    /// No jail started ahead of a case outlives the check (nor its cgroup).
    fn drop(&mut self) {
        self.runner.finish();
    }
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

impl<E: Execute> Judge<E> {
    /// The verdict for one run against `expected`, and how it ended when that decided.
    pub fn verdict(&self, run: &ProcessEnd, expected: &str) -> (Verdict, Option<Termination>) {
        let limits = self.runner.limits();
        let stderr = || stderr_tail(&run.stderr);
        let (verdict, ended) = match run.ended {
            Exit::OutputLimit => (
                Verdict::OutputLimit,
                Termination::OutputLimit {
                    cap: limits.max_output,
                },
            ),
            Exit::TimedOut => (
                Verdict::TimeLimit,
                Termination::TimeLimit {
                    seconds: limits.timeout.as_secs_f64(),
                },
            ),
            // The peak is the cgroup's measure, when the kernel's OOM kill ended it.
            Exit::MemoryLimit => (
                Verdict::MemoryLimit,
                Termination::MemoryLimit {
                    limit_mib: limits.memory_mib,
                    peak: run.peak_memory,
                    stderr: stderr(),
                },
            ),
            Exit::ArgumentTooLong => (Verdict::RuntimeError, Termination::ArgumentTooLong),
            Exit::SetupFailed => (
                Verdict::InternalError,
                Termination::SetupFailed {
                    what: run
                        .setup_failure
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                },
            ),
            Exit::Exited(0) => {
                let v = verdict::compare(expected.as_bytes(), &run.stdout, self.strict);
                return (v, None);
            }
            Exit::Exited(code) => (
                Verdict::RuntimeError,
                Termination::Exited {
                    code,
                    stderr: stderr(),
                },
            ),
            Exit::Signaled(signal) => (
                Verdict::RuntimeError,
                Termination::Signaled {
                    signal,
                    name: signal_hook::low_level::signal_name(signal).map(str::to_string),
                    stderr: stderr(),
                },
            ),
        };
        (verdict, Some(ended))
    }

    /// The one way a case's input is run: the answer once, and once more from a fresh
    /// set-up when the judge could not set it up (an IE: a passing hiccup of the machine is
    /// not reported), unless the check was interrupted. The pool's cases, the shrinking and
    /// the experiments all run through it, so an IE means the same everywhere.
    pub fn attempt(&self, input: &[u8]) -> std::io::Result<ProcessEnd> {
        let run = self.runner.run(input)?;
        match run.ended == Exit::SetupFailed && self.runner.interrupted().is_none() {
            true => self.runner.run(input),
            false => Ok(run),
        }
    }

    /// Runs the answer on `puzzle` ([`Judge::attempt`]) and judges it against `expected`.
    pub fn judged(&self, puzzle: &Puzzle, expected: &str) -> std::io::Result<Judged> {
        let run = self.attempt(puzzle.to_string().as_bytes())?;
        let (verdict, detail) = self.verdict(&run, expected);
        Ok(Judged {
            verdict,
            detail,
            run,
        })
    }

    /// Runs one job: its case and report, or the note saying why a random case the
    /// engine cannot decide was skipped.
    pub fn job(&self, job: &Job) -> anyhow::Result<JobEnd> {
        let case = match job {
            Job::Ready(case) => (*case).clone(),
            Job::Random(spec) => {
                match spec.case_within(&self.gen_opts, self.engine_steps.counter()) {
                    Ok(case) => case,
                    Err(skipped) => {
                        let note = format!("note: skipped {}: {}", skipped.name, skipped.reason);
                        return Ok(JobEnd::Undecided(note));
                    }
                }
            }
            Job::Twin(spec) => {
                match spec.twin_within(&self.gen_opts, self.engine_steps.counter()) {
                    // The seed draws the challenge's own form: the case has no twin.
                    None => return Ok(JobEnd::NotRun),
                    Some(Ok(case)) => case,
                    Some(Err(skipped)) => {
                        let note = format!("note: skipped {}: {}", skipped.name, skipped.reason);
                        return Ok(JobEnd::Undecided(note));
                    }
                }
            }
        };
        let mut case = case;
        let mut report = self.case(&case)?;
        if report.passed && !self.keep_texts {
            // Kept for the diagnosis, which needs only the parsed puzzle of a passing case
            // and the layout of its text (`case.layout`, taken when the case was made): its
            // texts go, so a long run holds less.
            case.input = Vec::new();
            report.puzzle = String::new();
        }
        Ok(JobEnd::Ran(Box::new((case, report))))
    }

    /// Runs one case ([`Judge::attempt`]) and makes its report.
    fn case(&self, case: &Case) -> anyhow::Result<CaseReport> {
        let run = self.attempt(&case.input)?;
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
            reproduce: seed.map(|s| {
                let twin = if case.robustness { " --robustness" } else { "" };
                format!("beast gen --seed {s}{twin}{}", self.gen_flags)
            }),
            peak_memory: run.peak_memory,
            robustness: case.robustness,
        })
    }
}

/// What a job that was taken ended with.
pub enum JobEnd {
    /// The case ran: it and its report.
    Ran(Box<(Case, CaseReport)>),
    /// A random case the engine could not decide in time, skipped: the note saying so.
    Undecided(String),
    /// Not run: its answer had stopped.
    NotRun,
}

/// One run of the answer, judged.
pub struct Judged {
    /// Its verdict against the expected output.
    pub verdict: Verdict,
    /// How it ended, where that decided the verdict.
    pub detail: Option<Termination>,
    /// The run itself.
    pub run: ProcessEnd,
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::super::runner::Limits;
    use super::*;
    use crate::cli::sandbox::step::{SetUpFailure, Told};

    /// Scripted runs: `answer` gives each run from its input; no process is started.
    /// The run numbered `interrupt_at` (from 0) marks the check interrupted as it starts.
    pub struct Scripted<F> {
        answer: F,
        /// How many runs were started.
        pub runs: AtomicUsize,
        interrupt_at: Option<usize>,
        interrupted: AtomicI32,
    }

    impl<F: Fn(&[u8]) -> std::io::Result<ProcessEnd> + Send + Sync> Execute for Scripted<F> {
        fn run(&self, input: &[u8]) -> std::io::Result<ProcessEnd> {
            let n = self.runs.fetch_add(1, Ordering::SeqCst);
            if self.interrupt_at == Some(n) {
                self.interrupted.store(2, Ordering::SeqCst);
            }
            (self.answer)(input)
        }

        fn limits(&self) -> Limits {
            Limits {
                max_output: 1 << 20,
                timeout: Duration::from_secs(5),
                memory_mib: 1024,
            }
        }

        fn interrupted(&self) -> Option<i32> {
            match self.interrupted.load(Ordering::SeqCst) {
                0 => None,
                sig => Some(sig),
            }
        }

        fn display(&self) -> String {
            "scripted".to_string()
        }
    }

    /// A judge of the scripted `answer`, interrupted as run `interrupt_at` starts.
    pub fn judge<F>(answer: F, interrupt_at: Option<usize>) -> Judge<Scripted<F>>
    where
        F: Fn(&[u8]) -> std::io::Result<ProcessEnd> + Send + Sync,
    {
        Judge {
            runner: Scripted {
                answer,
                runs: AtomicUsize::new(0),
                interrupt_at,
                interrupted: AtomicI32::new(0),
            },
            gen_opts: Recipe::default(),
            gen_flags: String::new(),
            strict: false,
            consistent: false,
            engine_steps: Steps::CASE,
            keep_texts: false,
        }
    }

    /// A run that printed `out` and exited 0.
    pub fn printed(out: &str) -> ProcessEnd {
        ProcessEnd {
            ended: Exit::Exited(0),
            stdout: out.as_bytes().to_vec(),
            stderr: Vec::new(),
            elapsed: Duration::from_millis(1),
            peak_memory: None,
            setup_failure: None,
        }
    }

    /// A run the judge could not set up.
    fn not_set_up() -> ProcessEnd {
        ProcessEnd {
            ended: Exit::SetupFailed,
            setup_failure: Some(SetUpFailure::Told(Told::read(
                "bind a path: ENOENT: No such file or directory",
            ))),
            ..printed("")
        }
    }

    /// A beast beside the player, who waits: he dies on turn 1.
    const MAP: &str = "5 3\n#####\n#O H#\n#####\nW\n";

    #[test]
    fn every_run_of_the_answer_tries_an_ie_once_more_unless_interrupted() {
        let puzzle = Puzzle::parse(MAP).expect("a puzzle");
        let tries = AtomicUsize::new(0);
        let hiccup = judge(
            |_: &[u8]| match tries.fetch_add(1, Ordering::SeqCst) {
                0 => Ok(not_set_up()),
                _ => Ok(printed("aHHHH!\n0\n")),
            },
            None,
        );
        // The shrinking's path: a passing hiccup is not an IE there either.
        let judged = hiccup.judged(&puzzle, "aHHHH!\n0\n").expect("scripted");
        assert_eq!(judged.verdict, Verdict::Accepted);
        assert_eq!(hiccup.runner.runs.load(Ordering::SeqCst), 2);
        // Interrupted as the first run starts: no second try, the IE stays.
        let cut = judge(|_: &[u8]| Ok(not_set_up()), Some(0));
        let run = cut.attempt(MAP.as_bytes()).expect("scripted");
        assert_eq!(run.ended, Exit::SetupFailed);
        assert_eq!(cut.runner.runs.load(Ordering::SeqCst), 1);
        // Never set up: tried twice, then an IE.
        let never = judge(|_: &[u8]| Ok(not_set_up()), None);
        let judged = never.judged(&puzzle, "aHHHH!\n0\n").expect("scripted");
        assert_eq!(judged.verdict, Verdict::InternalError);
        assert_eq!(never.runner.runs.load(Ordering::SeqCst), 2);
    }

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
