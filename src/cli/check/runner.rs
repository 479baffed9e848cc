//! Running a candidate once: start its [`AnswerCommand`] (directly, or through the
//! `beast __contain` helper of the sandbox in force, as [`Sandbox::prepare`] makes it),
//! feed it the puzzle, read its
//! output up to a cap, stop it on a timeout, on too much output, and once it is done, with
//! everything it started, and classify how it ended. The registry of running processes
//! is [`super::interrupt`]; the jails started ahead are [`super::ahead`].

use std::fs::File;
use std::io::{self, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::ahead::{Ahead, Heard, Launched, Prepared, Started};
use super::interrupt::{Running, Stop};
use crate::cli::platform;
#[cfg(jail)]
use crate::cli::sandbox::case::CaseResources;
pub use crate::cli::sandbox::case::InputMode;
use crate::cli::sandbox::case::{CaseTerms, Spawner, Workspace};
use crate::cli::sandbox::spec::GO;
#[cfg(jail)]
use crate::cli::sandbox::step::CANNOT_START;
use crate::cli::sandbox::step::SetUpFailure;
use crate::cli::sandbox::untrusted::AnswerCommand;
use crate::cli::sandbox::{Mechanism, Sandbox};

/// How a process ended, as the judge saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past the timeout (or its CPU-time limit); it was killed.
    TimedOut,
    /// It printed more than the cap; it was killed.
    OutputLimit,
    /// It failed after running out of memory under the memory limit.
    MemoryLimit,
    /// The puzzle is longer than the system allows a single argument (`--input arg`).
    ArgumentTooLong,
    /// The case could not be set up: a step of the judge's own, or one the sandbox helper
    /// told (the step and the reason are the run's [`ProcessEnd::setup_failure`]). The
    /// answer never ran.
    SetupFailed,
}

/// How one process of the answer ended, and what it printed.
#[derive(Clone, Debug)]
pub struct ProcessEnd {
    /// How it ended.
    pub ended: Exit,
    /// Its standard output (at most the cap, plus one byte for OLE).
    pub stdout: Vec<u8>,
    /// The end of its standard error.
    pub stderr: Vec<u8>,
    /// Wall-clock time from the start (spawn, or the byte that starts a jail started ahead)
    /// to exit (or kill).
    pub elapsed: Duration,
    /// The most memory the case held at once, where its cgroup measured it.
    pub peak_memory: Option<u64>,
    /// The step of the set-up that failed, and why (the judge's own, or what a helper
    /// told); the run is an IE.
    pub setup_failure: Option<SetUpFailure>,
}

/// What runs the answer on one puzzle, as the pool sees it: [`Runner`] starts real
/// processes; tests script the runs (`pool`'s tests), so the pool, its order, `--fail-fast`
/// and interrupts are tested without any.
pub trait Execute: Send + Sync {
    /// Runs the answer on `input`. An `Err` means the command could not be started.
    fn run(&self, input: &[u8]) -> io::Result<ProcessEnd>;
    /// The limits its runs are held to, for the words of a verdict.
    fn limits(&self) -> Limits;
    /// The signal that interrupted the check, if one has.
    fn interrupted(&self) -> Option<i32>;
    /// The command, for messages.
    fn display(&self) -> String;
    /// Lets go of what it keeps for runs to come (the jails started ahead): the check is
    /// over.
    fn finish(&self) {}
}

/// The limits of a run, as a verdict names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of output.
    pub max_output: usize,
    /// The time limit.
    pub timeout: Duration,
    /// The memory limit in MiB (0: none).
    pub memory_mib: u64,
}

impl Execute for Runner {
    fn run(&self, input: &[u8]) -> io::Result<ProcessEnd> {
        Runner::run(self, input)
    }

    fn limits(&self) -> Limits {
        Limits {
            max_output: self.max_output,
            timeout: self.timeout,
            memory_mib: self.sandbox.memory_mib,
        }
    }

    fn interrupted(&self) -> Option<i32> {
        self.running.interrupted()
    }

    fn display(&self) -> String {
        Runner::display(self)
    }

    fn finish(&self) {
        self.ahead.drain();
        #[cfg(jail)]
        self.sandbox.zygotes.clear();
    }
}

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The command and its arguments, as the user wrote them.
    pub command: AnswerCommand,
    /// How the puzzle is fed.
    pub input: InputMode,
    /// The time limit.
    pub timeout: Duration,
    /// The most bytes of output allowed.
    pub max_output: usize,
    /// The candidates running now, for [`Running::kill_on_interrupt`] (`groups`: the name
    /// `check.rs` knows it by).
    pub running: Running,
    /// What contains the candidate.
    pub sandbox: Arc<Sandbox>,
    /// Where private directories and puzzle files are made.
    pub workspace: Arc<Workspace>,
    /// The jails started ahead of their cases.
    pub ahead: Ahead,
}

/// The most bytes of standard error kept.
const STDERR_KEPT: usize = 4096;

/// The longest single argument Linux passes (`MAX_ARG_STRLEN`, the final NUL included).
const MAX_ARG_BYTES: usize = 32 * 4096;

impl Runner {
    /// The command as the user wrote it, for messages.
    pub fn display(&self) -> String {
        self.command.shown()
    }

    /// Runs the candidate on `input`. An `Err` means the command could not be started.
    pub fn run(&self, input: &[u8]) -> io::Result<ProcessEnd> {
        if self.input == InputMode::Arg && input.len() >= MAX_ARG_BYTES {
            return Ok(ProcessEnd::not_started(Exit::ArgumentTooLong));
        }
        #[cfg(jail)]
        if self.sandbox.mechanism == Mechanism::Jail {
            return self.run_jailed(input);
        }
        let taken = self.ahead.take();
        let mut prepared = match taken {
            Some(p) => p,
            None => match self.prepare(input, false) {
                Ok(Some(p)) => p,
                Ok(None) => return Ok(ProcessEnd::not_started(Exit::ArgumentTooLong)),
                // The judge's own part of the set-up failed: its error, not the answer's.
                Err(e) if SetUpFailure::of(&e).is_some() => {
                    return Ok(ProcessEnd {
                        setup_failure: SetUpFailure::of(&e).cloned(),
                        ..ProcessEnd::not_started(Exit::SetupFailed)
                    });
                }
                Err(e) => return Err(e),
            },
        };
        let Some(case) = prepared.take() else {
            return Err(io::Error::other("a prepared case was used twice"));
        };
        let Launched {
            started,
            resources,
            tx,
            rx,
            awaits_go,
            ..
        } = case;
        let start = Instant::now();
        if self.prepares_ahead() && self.running.interrupted().is_none() {
            // The next case's jail is started now, and sets itself up while this case runs
            // and is judged. If it cannot be started, the next case starts its own and says
            // why.
            let runner = self.clone();
            self.ahead.start(move || {
                let prepared = runner.prepare(&[], true).ok().flatten();
                drop(runner);
                prepared
            });
        }
        let (id, mut run) = self.supervise(started, awaits_go, input, start, tx, rx);
        self.running.remove(id);
        // A keeper that ended by itself has killed every descendant; one that was killed
        // (or timed out) may have left orphans to the judge.
        let keeper_cut_short = !matches!(run.ended, Exit::Exited(_));
        if self.sandbox.mechanism == Mechanism::Basic && keeper_cut_short {
            self.running.sweep_orphans(self.sandbox.host.warden);
        }
        let end = self.sandbox.finish_case(resources);
        run.peak_memory = end.peak_memory;
        if end.oom_killed && !matches!(run.ended, Exit::Exited(0)) {
            run.ended = Exit::MemoryLimit;
        }
        if let Some(told) = end.setup_failure {
            // The helper's own channel, not the answer's exit status: the judge failed.
            run.ended = Exit::SetupFailed;
            run.setup_failure = Some(SetUpFailure::Told(told));
        }
        Ok(run)
    }

    /// Runs the candidate on `input` in the jail: asks one of the answer's zygotes (or a
    /// new one) for the case, supervises the answer as any other, and gives the zygote
    /// back for the next case if it is still sound (a stopped case takes its zygote with
    /// it). A step of the set-up that fails is an IE; a program that cannot start is the
    /// answer's failure, as a shell would tell it.
    #[cfg(jail)]
    fn run_jailed(&self, input: &[u8]) -> io::Result<ProcessEnd> {
        let set_up_failed = |e: io::Error| match SetUpFailure::of(&e) {
            Some(failed) => Ok(ProcessEnd {
                setup_failure: Some(failed.clone()),
                ..ProcessEnd::not_started(Exit::SetupFailed)
            }),
            None => Err(e),
        };
        let terms = self.case_terms();
        let case = match self.sandbox.jailed_case(&terms, input) {
            Ok(case) => case,
            Err(e) => return set_up_failed(e),
        };
        let zygotes = &self.sandbox.zygotes;
        let zygote = match zygotes.take() {
            Some(z) => z,
            None => match self.sandbox.start_zygote(&terms) {
                Ok(z) => z,
                Err(e) => return set_up_failed(e),
            },
        };
        let id = i32::try_from(zygote.outer()).unwrap_or(i32::MAX);
        // The outer helper, told to stop, kills the zygote and so every process of the case.
        let stop = Stop::Helper(platform::Signal::SIGTERM);
        let begun =
            self.running
                .start_recorded(stop, || zygote.begin(&case.request, &case.fds), |_| id);
        // The zygote's ends of the pipes: the answer alone holds them now.
        drop(case.fds);
        let pidfd = match begun_or_ended(begun) {
            CaseStart::Running(pidfd) => pidfd,
            CaseStart::NotStarted(run, sound) => {
                // The answer never started: the zygote is sound unless its channel failed.
                self.running.remove(id);
                drop(
                    self.sandbox
                        .finish_case(CaseResources::of_group(case.group)),
                );
                if sound {
                    zygotes.give(zygote);
                }
                return Ok(run);
            }
        };
        let start = Instant::now();
        if let Some(stdin) = case.stdin {
            feed_stdin(stdin, false, input);
        }
        let started = Started {
            id,
            stdin: None,
            stdout: Some(case.stdout),
            stderr: Some(case.stderr),
            child: None,
            exit_fd: None,
        };
        let sound = std::cell::Cell::new(false);
        let ended = || {
            let status = zygote.ended();
            sound.set(status.is_ok());
            status
        };
        let (_, rx) = mpsc::channel();
        let mut run = self.supervise_polled(started, pidfd, start, &rx, Some(&ended));
        self.running.remove(id);
        let end = self
            .sandbox
            .finish_case(CaseResources::of_group(case.group));
        // A case the judge stopped (a timeout, too much output, an interrupt) was stopped
        // by stopping its zygote's outer process: that zygote is ending, even if it told
        // the answer's end first.
        let stopped = matches!(run.ended, Exit::TimedOut | Exit::OutputLimit);
        if sound.get() && !stopped && self.running.interrupted().is_none() {
            zygotes.give(zygote);
        }
        run.peak_memory = end.peak_memory;
        if end.oom_killed && !matches!(run.ended, Exit::Exited(0)) {
            run.ended = Exit::MemoryLimit;
        }
        Ok(run)
    }

    /// True when each case's helper is started ahead, while the case before it runs: the
    /// jail or basic's keeper, with the puzzle on standard input (nothing of the case is
    /// needed to set up).
    fn prepares_ahead(&self) -> bool {
        self.sandbox.mechanism != Mechanism::None && self.input == InputMode::Stdin
    }

    /// The terms the sandbox contains each of the candidate's cases on.
    fn case_terms(&self) -> CaseTerms<'_> {
        CaseTerms {
            input: self.input,
            timeout: self.timeout,
            max_output: self.max_output,
            workspace: &self.workspace,
        }
    }

    /// Starts the process of one case, the helper waiting for [`GO`] if `ahead`; `None`
    /// when the puzzle is too long for an argument.
    fn prepare(&self, input: &[u8], ahead: bool) -> io::Result<Option<Prepared>> {
        let (cmd, resources) = self.sandbox.prepare(&self.case_terms(), input, ahead)?;
        let (tx, rx) = mpsc::channel();
        let stop = Stop::of(&self.sandbox);
        let spawner = resources.spawner()?;
        let start = || self.start(cmd, spawner, tx.clone());
        let started = match self.running.start_recorded(stop, start, |s| s.id) {
            Err(e) if platform::argument_too_long(&e) => {
                self.sandbox.abandon(resources);
                return Ok(None);
            }
            // Without a sandbox the answer's own program failed to start; with one, the
            // judge's helper did.
            Err(e) if self.sandbox.mechanism != Mechanism::None => {
                self.sandbox.abandon(resources);
                return Err(SetUpFailure::step("start the sandbox helper")(e));
            }
            other => other?,
        };
        Ok(Some(Prepared::new(Launched {
            started,
            resources,
            tx,
            rx,
            awaits_go: ahead,
            stop,
            running: self.running.clone(),
        })))
    }

    /// Starts `cmd` in a thread that then waits for it and reports its exit on `tx`; the
    /// thread ends once the process has, which is what the helper's parent-death signal
    /// needs. The thread starts it as `spawner` says (for the jail under root, in the
    /// case's namespaces, so the helper it starts is pid 1 of its own). Under `--sandbox
    /// none` there is no helper and nothing to enter: the calling thread starts the answer
    /// itself ([`Runner::start_here`]).
    fn start(&self, mut cmd: Command, spawner: Spawner, tx: Sender<Heard>) -> io::Result<Started> {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        if self.sandbox.mechanism == Mechanism::None && spawner.enters_nothing() {
            return self.start_here(cmd, tx);
        }
        let (ptx, prx) = mpsc::channel();
        let trees = self.running.trees().clone();
        thread::spawn(move || {
            let mut child = match spawner.spawn(&mut cmd) {
                Ok(child) => child,
                Err(e) => {
                    let _ = ptx.send(Err(e));
                    return;
                }
            };
            if let Err(e) = trees.hold(&child) {
                let _ = child.kill();
                let _ = child.wait();
                let _ = ptx.send(Err(e));
                return;
            }
            // The pidfd is opened before this thread reaps the process: it names it.
            let _ = ptx.send(Ok(Started {
                #[cfg(target_os = "linux")]
                exit_fd: super::polled::exit_fd(child.id()),
                child: None,
                ..taken(&mut child)
            }));
            let _ = tx.send(Heard::Status(child.wait()));
        });
        prx.recv()
            .map_err(|_| io::Error::other("the starting thread ended"))?
    }

    /// Starts `cmd` from the calling thread, which keeps the child and reaps it when its
    /// pidfd says it ended; where there is no pidfd, a thread waits for it and reports its
    /// exit on `tx`, as [`Runner::start`]'s do.
    fn start_here(&self, mut cmd: Command, tx: Sender<Heard>) -> io::Result<Started> {
        let mut child = cmd.spawn()?;
        if let Err(e) = self.running.trees().hold(&child) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        let started = taken(&mut child);
        #[cfg(target_os = "linux")]
        if let Some(exit_fd) = super::polled::exit_fd(child.id()) {
            return Ok(Started {
                exit_fd: Some(exit_fd),
                child: Some(child),
                ..started
            });
        }
        thread::spawn(move || {
            let _ = tx.send(Heard::Status(child.wait()));
        });
        Ok(started)
    }

    /// Feeds, reads and times one started run; returns its id and the run.
    fn supervise(
        &self,
        mut started: Started,
        awaits_go: bool,
        input: &[u8],
        start: Instant,
        tx: Sender<Heard>,
        rx: Receiver<Heard>,
    ) -> (i32, ProcessEnd) {
        let id = started.id;
        let stop = Stop::of(&self.sandbox);
        let trees = self.running.trees();
        if let Some(stdin) = started.stdin.take() {
            feed_stdin(stdin, awaits_go, input);
        }
        #[cfg(target_os = "linux")]
        if let Some(exit_fd) = started.exit_fd.take() {
            return (
                id,
                self.supervise_polled(started, exit_fd, start, &rx, None),
            );
        }
        let stderr = started.stderr.map(spawn_stderr_reader);
        if let Some(out) = started.stdout {
            let cap = self.max_output;
            thread::spawn(move || {
                let (bytes, over) = read_capped(out, cap);
                let _ = tx.send(Heard::Output(bytes, over));
            });
        } else {
            drop(tx);
        }
        let mut watch = Watch::default();
        let deadline = start + self.timeout;
        while watch.output.is_none() || watch.status.is_none() {
            let wait = if matches!(watch.phase, Phase::Stopped(..)) {
                // Stopped: give the threads a moment to report, then give up on them.
                Duration::from_millis(200)
            } else {
                deadline.saturating_duration_since(Instant::now())
            };
            if !watch.on(rx.recv_timeout(wait), start, || stop.send(id, trees), stop) {
                break;
            }
        }
        if watch.status.is_none() || stop == Stop::Group {
            stop.send(id, trees);
        }
        // Everything it started is gone now, so standard error reaches its end at once; the
        // reader may still wait for a core on a loaded machine (at 100 ms the tail of an
        // RTE's stderr was lost now and then under `make test`), and only a process that
        // escaped the judge (no sandbox) keeps it open the whole grace.
        let stderr = stderr
            .and_then(|rx| rx.recv_timeout(STDERR_GRACE).ok())
            .unwrap_or_default();
        (id, self.finished(watch, stderr, start))
    }

    /// [`Runner::supervise`] with one `poll` on the pipes and the pidfd in this thread, in
    /// place of a thread for each pipe: the same steps, on the same reports.
    #[cfg(target_os = "linux")]
    fn supervise_polled(
        &self,
        started: Started,
        exit_fd: std::os::fd::OwnedFd,
        start: Instant,
        rx: &Receiver<Heard>,
        ended: Option<&dyn Fn() -> io::Result<ExitStatus>>,
    ) -> ProcessEnd {
        use super::polled::{Polled, Seen};
        let id = started.id;
        let stop = Stop::of(&self.sandbox);
        let trees = self.running.trees();
        let mut child = started.child;
        let has_out = started.stdout.is_some();
        let mut polled = Polled::new(
            started.stdout.map(std::os::fd::OwnedFd::from),
            self.max_output,
            started.stderr.map(std::os::fd::OwnedFd::from),
            STDERR_KEPT,
            exit_fd,
        );
        let mut watch = Watch::default();
        if !has_out {
            watch.output = Some(Vec::new());
        }
        let deadline = start + self.timeout;
        while watch.output.is_none() || watch.status.is_none() {
            let until = if matches!(watch.phase, Phase::Stopped(..)) {
                // Stopped: give it a moment to end and its output to close, then give up.
                Instant::now() + Duration::from_millis(200)
            } else {
                deadline
            };
            let report = match polled.next(until) {
                Seen::Output(bytes, over) => Ok(Heard::Output(bytes, over)),
                Seen::Ended => {
                    let status = match (child.as_mut(), ended) {
                        (Some(c), _) => c.wait(),
                        // The zygote that started it reaps it and says how it ended.
                        (None, Some(ended)) => ended(),
                        // Its own thread reaps it and reports at once.
                        (None, None) => match rx.recv_timeout(STDERR_GRACE) {
                            Ok(Heard::Status(s)) => s,
                            _ => Err(io::Error::other("no exit status")),
                        },
                    };
                    Ok(Heard::Status(status))
                }
                Seen::Timeout => Err(RecvTimeoutError::Timeout),
            };
            if !watch.on(report, start, || stop.send(id, trees), stop) {
                break;
            }
        }
        if watch.status.is_none() || stop == Stop::Group {
            stop.send(id, trees);
        }
        if watch.status.is_none()
            && let Some(mut c) = child.take()
        {
            // Not ended yet after its kill (a process the kernel holds): reap it later.
            thread::spawn(move || {
                let _ = c.wait();
            });
        }
        let stderr = polled.stderr(Instant::now() + STDERR_GRACE);
        self.finished(watch, stderr, start)
    }

    /// The run that `watch` saw end, with the start of its standard error.
    fn finished(&self, watch: Watch, stderr: Vec<u8>, start: Instant) -> ProcessEnd {
        let ended = self.classify(&watch, &stderr);
        ProcessEnd {
            ended,
            stdout: watch.output.unwrap_or_default(),
            stderr,
            elapsed: watch.phase.elapsed().unwrap_or_else(|| start.elapsed()),
            peak_memory: None,
            setup_failure: None,
        }
    }

    /// How the run ended, from what was seen and the start of its standard error.
    fn classify(&self, watch: &Watch, stderr: &[u8]) -> Exit {
        if let Phase::Stopped(ended, _) = watch.phase {
            return ended;
        }
        let ended = match watch.status {
            Some(s) => match (s.code(), platform::signal_of(&s)) {
                (Some(code), _) => Exit::Exited(code),
                (None, Some(sig)) if platform::is_cpu_limit(sig) => Exit::TimedOut,
                (None, Some(sig)) => Exit::Signaled(sig),
                (None, None) => Exit::Signaled(0),
            },
            None => Exit::TimedOut,
        };
        let contained = self.sandbox.mechanism != Mechanism::None;
        let rlimit = self.sandbox.address_space().is_some();
        if contained && rlimit && out_of_memory(ended, stderr) {
            Exit::MemoryLimit
        } else {
            ended
        }
    }
}

/// How long standard error's reader is waited for once the run is over.
const STDERR_GRACE: Duration = Duration::from_secs(1);

/// Where a supervised run is, as the judge knows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Running.
    #[default]
    Running,
    /// It ended by itself, this long after the start.
    Exited(Duration),
    /// The judge stopped it (timeout, output cap), this long after the start; its end
    /// may still be reported.
    Stopped(Exit, Duration),
}

impl Phase {
    /// How long it ran, if it is over.
    fn elapsed(self) -> Option<Duration> {
        match self {
            Phase::Running => None,
            Phase::Exited(d) | Phase::Stopped(_, d) => Some(d),
        }
    }
}

/// What the supervising loop has seen so far: the phase, the output once read to its
/// end, the exit status once reported.
#[derive(Default)]
struct Watch {
    phase: Phase,
    output: Option<Vec<u8>>,
    status: Option<ExitStatus>,
}

impl Watch {
    /// Takes one report (or a timeout); false when nothing more will come.
    fn on(
        &mut self,
        report: Result<Heard, RecvTimeoutError>,
        start: Instant,
        kill: impl Fn(),
        stop: Stop,
    ) -> bool {
        let stopped = matches!(self.phase, Phase::Stopped(..));
        match report {
            Ok(Heard::Output(bytes, over)) => {
                if over && !stopped {
                    kill();
                    self.phase = Phase::Stopped(Exit::OutputLimit, start.elapsed());
                }
                self.output = Some(bytes);
            }
            Ok(Heard::Status(s)) => {
                if self.phase == Phase::Running {
                    self.phase = Phase::Exited(start.elapsed());
                }
                // A status we cannot read counts as a kill by an unknown signal.
                self.status = Some(s.unwrap_or_else(|_| platform::unreadable_status()));
                if stop == Stop::Group {
                    // Anything it left behind holds our pipes open: end it now. (The
                    // sandbox helpers end only after everything they started.)
                    kill();
                }
            }
            Err(RecvTimeoutError::Timeout) if !stopped => {
                kill();
                self.phase = Phase::Stopped(Exit::TimedOut, start.elapsed());
            }
            Err(_) => return false,
        }
        true
    }
}

impl ProcessEnd {
    fn not_started(ended: Exit) -> ProcessEnd {
        ProcessEnd {
            ended,
            stdout: Vec::new(),
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
            peak_memory: None,
            setup_failure: None,
        }
    }
}

/// The started process's id and pipes, taken from `child`.
fn taken(child: &mut std::process::Child) -> Started {
    Started {
        id: i32::try_from(child.id()).unwrap_or(i32::MAX),
        stdin: child.stdin.take().map(platform::pipe_end),
        stdout: child.stdout.take().map(platform::pipe_end),
        stderr: child.stderr.take().map(platform::pipe_end),
        child: None,
        #[cfg(target_os = "linux")]
        exit_fd: None,
    }
}

/// True when a failed run's standard error says an allocation failed. Under `RLIMIT_AS`
/// an allocation past the limit fails at once, so the program reports it (Python
/// `MemoryError`, Rust `memory allocation of N bytes failed`, C++ `std::bad_alloc`, Perl
/// `Out of memory!`, ...) and ends with an error: that is an MLE, not an RTE.
pub fn out_of_memory(ended: Exit, stderr: &[u8]) -> bool {
    const SIGNS: [&str; 8] = [
        "memoryerror",
        "memory allocation of",
        "bad_alloc",
        "cannot allocate memory",
        "out of memory",
        "outofmemoryerror",
        "failed to allocate",
        "allocation failed",
    ];
    let failed = matches!(ended, Exit::Exited(c) if c != 0) || matches!(ended, Exit::Signaled(_));
    let text = String::from_utf8_lossy(stderr).to_lowercase();
    failed && SIGNS.iter().any(|s| text.contains(s))
}

/// Writes the puzzle to the candidate's stdin, after [`GO`] for a jail started ahead. A
/// write of at most 4 KiB to a fresh pipe never blocks; larger inputs get a thread. Either
/// way EPIPE (the candidate closed its stdin) is ignored.
fn feed_stdin(mut stdin: File, go: bool, input: &[u8]) {
    if go {
        let _ = stdin.write_all(&[GO]);
    }
    if input.len() <= 4095 {
        let _ = stdin.write_all(input);
    } else {
        let data = input.to_vec();
        thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
}

/// Reads up to `cap` bytes; the flag says the reader had more than that.
fn read_capped(mut r: impl Read, cap: usize) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => return (buf, false),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > cap {
                    buf.truncate(cap + 1);
                    return (buf, true);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return (buf, false),
        }
    }
}

/// Keeps the last bytes of standard error and drains the rest, so the candidate never
/// blocks on a full pipe.
fn spawn_stderr_reader(mut err: File) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            match err.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    // Keep the end: that is where interpreters print the exception.
                    kept.extend_from_slice(&chunk[..n]);
                    if kept.len() > 2 * STDERR_KEPT {
                        kept.drain(..kept.len() - STDERR_KEPT);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        if kept.len() > STDERR_KEPT {
            kept.drain(..kept.len() - STDERR_KEPT);
        }
        let _ = tx.send(kept);
    });
    rx
}

/// What a zygote's answer to a case's request means for the case.
#[cfg(jail)]
enum CaseStart {
    /// The answer runs: a pidfd of it.
    Running(std::os::fd::OwnedFd),
    /// The answer never started: the run's end, and whether the zygote is still sound (it
    /// is unless its channel failed).
    NotStarted(ProcessEnd, bool),
}

/// The [`CaseStart`] of a zygote's answer `begun`.
#[cfg(jail)]
fn begun_or_ended(begun: io::Result<crate::cli::sandbox::zygote::Begun>) -> CaseStart {
    use crate::cli::sandbox::zygote::Begun;
    match begun {
        Ok(Begun::Started(pidfd)) => CaseStart::Running(pidfd),
        Ok(Begun::SetupFailed(told)) => CaseStart::NotStarted(
            ProcessEnd {
                setup_failure: Some(SetUpFailure::Told(told)),
                ..ProcessEnd::not_started(Exit::SetupFailed)
            },
            true,
        ),
        Ok(Begun::CannotStart(reason)) => CaseStart::NotStarted(
            ProcessEnd {
                stderr: format!("beast sandbox: cannot start the answer: {reason}\n").into_bytes(),
                ..ProcessEnd::not_started(Exit::Exited(i32::from(CANNOT_START)))
            },
            true,
        ),
        Err(e) => CaseStart::NotStarted(
            ProcessEnd {
                setup_failure: Some(SetUpFailure::Step {
                    step: "ask the jail's zygote for the case",
                    reason: e.to_string(),
                }),
                ..ProcessEnd::not_started(Exit::SetupFailed)
            },
            false,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::platform::Signal;

    /// Feeds `reports` to a fresh watch as if they came in that order; the phase and the
    /// number of kills sent.
    fn watched(reports: Vec<Result<Heard, RecvTimeoutError>>) -> (Phase, usize) {
        let kills = std::cell::Cell::new(0);
        let mut watch = Watch::default();
        let start = Instant::now();
        for report in reports {
            watch.on(
                report,
                start,
                || kills.set(kills.get() + 1),
                Stop::Helper(Signal::SIGTERM),
            );
        }
        (watch.phase, kills.get())
    }

    fn exit() -> Result<Heard, RecvTimeoutError> {
        Ok(Heard::Status(Ok(platform::unreadable_status())))
    }

    #[test]
    fn a_run_that_ends_by_itself_is_timed_at_its_exit() {
        let (phase, kills) = watched(vec![exit(), Ok(Heard::Output(b"0\n".to_vec(), false))]);
        assert!(matches!(phase, Phase::Exited(_)), "{phase:?}");
        assert_eq!(kills, 0);
    }

    #[test]
    fn output_over_the_cap_stops_the_run_and_its_exit_keeps_that() {
        let (phase, kills) = watched(vec![Ok(Heard::Output(vec![b'x'; 9], true)), exit()]);
        assert!(
            matches!(phase, Phase::Stopped(Exit::OutputLimit, _)),
            "{phase:?}"
        );
        assert_eq!(kills, 1);
    }

    #[test]
    fn the_deadline_stops_a_run_once_even_after_its_exit_if_its_output_is_held_open() {
        let timeout = || Err(RecvTimeoutError::Timeout);
        let (phase, kills) = watched(vec![exit(), timeout(), timeout()]);
        assert!(
            matches!(phase, Phase::Stopped(Exit::TimedOut, _)),
            "{phase:?}"
        );
        assert_eq!(kills, 1, "killed once, then only waited for");
    }

    #[test]
    fn output_over_the_cap_is_flagged() {
        let (b, over) = read_capped(&[7u8; 100][..], 10);
        assert!(over);
        assert_eq!(b.len(), 11);
        let (b, over) = read_capped(&[7u8; 10][..], 10);
        assert!(!over);
        assert_eq!(b.len(), 10);
    }
}
