//! Running a candidate once: start it (directly, or through the `beast __contain` helper
//! of the sandbox in force), feed it the puzzle, read its output up to a cap, and stop it on
//! a timeout, on too much output, and once it is done, with everything it started.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::cli::platform::{self, Interrupts, Pid, Signal, Trees};
use crate::cli::sandbox::cgroup::ThreadEntry;
use crate::cli::sandbox::spec::{GO, Role, Spec};
use crate::cli::sandbox::{self, INPUT_NAME, JAILED_HOME, Lease, Mechanism, Sandbox};

/// How the puzzle reaches the candidate (`--input`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputMode {
    /// On standard input.
    #[default]
    Stdin,
    /// As one argument, substituted for `{}` or appended.
    Arg,
    /// As the path of a file named `input.txt` in the candidate's private directory,
    /// substituted for `{}` or appended.
    File,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
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
    /// The sandbox helper could not set the case up: it said so in its status file (the
    /// step and the reason are the run's [`Run::setup_failure`]). The answer never ran.
    SetupFailed,
}

/// One finished run.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended.
    pub ended: Ended,
    /// Its standard output (at most the cap, plus one byte for OLE).
    pub stdout: Vec<u8>,
    /// The end of its standard error.
    pub stderr: Vec<u8>,
    /// Wall-clock time from the start (spawn, or the byte that starts a jail started ahead)
    /// to exit (or kill).
    pub elapsed: Duration,
    /// The most memory the case held at once, where its cgroup measured it.
    pub peak_memory: Option<u64>,
    /// What the helper's status file said (`STEP: REASON`) when the set-up failed.
    pub setup_failure: Option<String>,
}

/// What runs the answer on one puzzle, as the pool sees it: [`Runner`] starts real
/// processes; tests script the runs (`pool`'s tests), so the pool, its order, `--fail-fast`
/// and interrupts are tested without any.
pub trait Execute: Send + Sync {
    /// Runs the answer on `input`. An `Err` means the command could not be started.
    fn run(&self, input: &[u8]) -> io::Result<Run>;
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
    fn run(&self, input: &[u8]) -> io::Result<Run> {
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
        self.groups.interrupted()
    }

    fn display(&self) -> String {
        Runner::display(self)
    }

    fn finish(&self) {
        self.ahead.drain();
    }
}

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The command and its arguments, as the user wrote them.
    pub command: Vec<OsString>,
    /// How the puzzle is fed.
    pub input: InputMode,
    /// The time limit.
    pub timeout: Duration,
    /// The most bytes of output allowed.
    pub max_output: usize,
    /// The candidates running now, for [`Groups::kill_on_interrupt`].
    pub groups: Groups,
    /// What contains the candidate.
    pub sandbox: Arc<Sandbox>,
    /// Where private directories and puzzle files are made.
    pub workspace: Arc<Workspace>,
    /// The jails started ahead of their cases.
    pub ahead: Ahead,
}

/// The directory of one check's private case directories, removed at the end.
#[derive(Debug)]
pub struct Workspace(tempfile::TempDir);

impl Workspace {
    /// A fresh directory under the system's temporary directory that `nobody` may cross
    /// but not list (case directories have unguessable names).
    pub fn new() -> io::Result<Workspace> {
        let dir = tempfile::Builder::new().prefix("beast-check-").tempdir()?;
        platform::crossable_only(dir.path())?;
        std::fs::create_dir(dir.path().join("root"))?;
        Ok(Workspace(dir))
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The empty directory every jail builds its root on (in its own mount namespace).
    fn root_dir(&self) -> PathBuf {
        self.0.path().join("root")
    }
}

/// How to stop a running candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Kill its process tree: its process group, or its Job Object on Windows (no
    /// sandbox).
    Group,
    /// This signal to the helper: SIGTERM asks the keeper to kill its tree; SIGKILL on the
    /// jail, pid 1 of its namespace, ends every process in it.
    Helper(Signal),
}

impl Stop {
    /// How the runs of `sandbox` are stopped: the keeper and the jail's outer process are
    /// asked (each kills what it holds, so the answer's own parent-death signal, which it
    /// can clear, does not matter); the jail's `init`, pid 1 of its namespace, is killed.
    fn of(sandbox: &Sandbox) -> Stop {
        match sandbox.mechanism {
            Mechanism::None => Stop::Group,
            Mechanism::Basic => Stop::Helper(Signal::SIGTERM),
            Mechanism::Jail if sandbox.direct_jail() => Stop::Helper(Signal::SIGKILL),
            Mechanism::Jail => Stop::Helper(Signal::SIGTERM),
        }
    }

    fn send(self, id: i32, trees: &Trees) {
        match self {
            Stop::Group => trees.kill(id),
            Stop::Helper(sig) => platform::signal_helper(id, sig),
        }
    }
}

/// The candidates running now, and how to stop each; and the signal that interrupted the
/// run, if one has.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    running: Arc<Mutex<HashMap<i32, Stop>>>,
    /// Held shared while a process starts, and exclusively while orphans are swept: a
    /// sweep never takes a helper just started for an orphan, and starts (a jail started
    /// ahead takes milliseconds) never hold up the list of running ones.
    starting: Arc<RwLock<()>>,
    /// Their process trees.
    trees: Trees,
    /// The interrupting signal's number, or 0.
    interrupted: Arc<AtomicI32>,
    /// How the interrupt handler's line reaches the user.
    pub notice: Notice,
}

/// How a line from another thread (the interrupt handler's) reaches the user: through
/// the reporters once they are there ([`Notice::set`]), around the progress bar; straight
/// to stderr before.
#[derive(Clone, Default)]
pub struct Notice(Arc<OnceLock<Box<Tell>>>);

/// What a [`Notice`] is set to: a way to tell the user a line.
type Tell = dyn Fn(&str) + Send + Sync;

impl std::fmt::Debug for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = self.0.get().is_some();
        write!(f, "Notice({})", if set { "set" } else { "stderr" })
    }
}

impl Notice {
    /// Sends every later line through `tell` (the first call only counts).
    pub fn set(&self, tell: impl Fn(&str) + Send + Sync + 'static) {
        let _ = self.0.set(Box::new(tell));
    }

    /// Tells the user `text` (end it with a newline).
    fn tell(&self, text: &str) {
        match self.0.get() {
            Some(tell) => tell(text),
            None => eprint!("{text}"),
        }
    }
}

impl Groups {
    /// Starts a process with `start` and records it, with no sweep of orphans in between
    /// (a sweep must never take a helper just started for an orphan). One started after
    /// an interrupt is stopped at once: the signal may have come between the check before
    /// the start and this call.
    fn start_recorded(
        &self,
        stop: Stop,
        start: impl FnOnce() -> io::Result<Started>,
    ) -> io::Result<Started> {
        let poisoned = || io::Error::other("the list of running answers is poisoned");
        let _starting = self.starting.read().map_err(|_| poisoned())?;
        let started = start()?;
        self.running
            .lock()
            .map_err(|_| poisoned())?
            .insert(started.id, stop);
        // The interrupt is marked before the list is read: it stops this one, or this
        // sees it.
        if self.interrupted().is_some() {
            stop.send(started.id, &self.trees);
        }
        Ok(started)
    }

    /// Kills and reaps every child of the judge that is not a helper it started: what an
    /// answer left after killing its keeper (`--sandbox basic`, where the judge is a
    /// subreaper and orphans come to it).
    fn sweep_orphans(&self, warden: Option<u32>) {
        let Ok(_no_start) = self.starting.write() else {
            return;
        };
        let Ok(set) = self.running.lock() else {
            return;
        };
        let me = Pid::this();
        for pid in sandbox::procs::descendants(me) {
            let child = sandbox::procs::parent_of(pid.as_raw()) == Some(me.as_raw());
            let warden = warden.is_some_and(|w| i64::from(w) == i64::from(pid.as_raw()));
            if child && !warden && !set.contains_key(&pid.as_raw()) {
                platform::kill_and_reap(pid);
            }
        }
    }

    fn remove(&self, id: i32) {
        if let Ok(mut set) = self.running.lock() {
            set.remove(&id);
        }
    }

    /// The signal that interrupted the run, if one has.
    pub fn interrupted(&self) -> Option<i32> {
        match self.interrupted.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig),
        }
    }

    /// Blocks SIGINT, SIGTERM and SIGHUP (Ctrl-C and Ctrl-Break on Windows) in this thread
    /// and every thread started after it, and starts a thread that waits for them. The
    /// first stops every running candidate and marks the run interrupted, so the command
    /// winds down through its destructors (temporary files removed, progress bar cleared)
    /// and exits with 128 + the signal. A second one ends the process at once, as the
    /// signal's default action would. Call it before starting other threads (see
    /// [`Interrupts`]).
    pub fn kill_on_interrupt(&self) -> io::Result<()> {
        let signals = Interrupts::block()?;
        let groups = self.clone();
        thread::spawn(move || {
            while let Some(sig) = signals.wait() {
                if groups.interrupted().is_some() {
                    platform::die_of(sig);
                    return;
                }
                groups.interrupted.store(sig, Ordering::SeqCst);
                if let Ok(set) = groups.running.lock() {
                    for (&id, &stop) in set.iter() {
                        stop.send(id, &groups.trees);
                    }
                }
                let name = signal_hook::low_level::signal_name(sig).unwrap_or("a signal");
                groups.notice.tell(&format!(
                    "\nbeast check: interrupted by {name}; stopping (again to quit at once)\n"
                ));
            }
        });
        Ok(())
    }
}

/// The largest private `/tmp` (and `/dev/shm`) of a jail; the memory limit, when smaller.
const TMP_SIZE: u64 = 256 << 20;

/// The most bytes of standard error kept.
const STDERR_KEPT: usize = 4096;

/// The longest single argument Linux passes (`MAX_ARG_STRLEN`, the final NUL included).
const MAX_ARG_BYTES: usize = 32 * 4096;

/// What the helper threads report.
enum Event {
    Output(Vec<u8>, bool),
    Exit(io::Result<ExitStatus>),
}

/// The started process: its id and the ends of its pipes.
struct Started {
    id: i32,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
}

/// One case's process, started, with what it holds until its run is over.
struct Launched {
    started: Started,
    files: CaseFiles,
    tx: Sender<Event>,
    rx: mpsc::Receiver<Event>,
    /// It waits for [`GO`] before it starts the answer (a jail started ahead).
    awaits_go: bool,
    stop: Stop,
    groups: Groups,
}

/// A started case not yet run; if it never is (the check ends first), dropping it kills
/// it, waits for its end and lets go of what it holds.
struct Prepared(Option<Launched>);

impl Drop for Prepared {
    fn drop(&mut self) {
        if let Some(mut l) = self.0.take() {
            l.stop.send(l.started.id, &l.groups.trees);
            // A helper waiting for its go with the stop signals blocked (basic's keeper)
            // ends at the end of its standard input.
            drop(l.started.stdin.take());
            drop(l.tx);
            let deadline = Instant::now() + Duration::from_secs(2);
            while let Ok(event) =
                l.rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                if matches!(event, Event::Exit(_)) {
                    break;
                }
            }
            l.groups.remove(l.started.id);
        }
    }
}

/// The jails started ahead, one per job slot at most, shared by the runner's workers:
/// each is being started by a thread of its own, and comes through its channel (`None`
/// if it could not be started).
#[derive(Clone, Default)]
pub struct Ahead(Arc<Mutex<Vec<mpsc::Receiver<Option<Prepared>>>>>);

impl std::fmt::Debug for Ahead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |a| a.len());
        write!(f, "Ahead({n} started)")
    }
}

impl Ahead {
    /// A jail started ahead, once it is (`None` if there is none, or it failed to start).
    fn take(&self) -> Option<Prepared> {
        let coming = self.0.lock().ok()?.pop()?;
        coming.recv().ok().flatten()
    }

    /// Kills every jail started ahead, once it is started, and waits for its end: the
    /// check is over.
    pub fn drain(&self) {
        while let Some(coming) = self.0.lock().ok().and_then(|mut a| a.pop()) {
            drop(coming.recv());
        }
    }

    /// Starts `runner`'s next jail in a thread of its own.
    fn start(&self, runner: &Runner) {
        let (tx, rx) = mpsc::channel();
        let runner = runner.clone();
        thread::spawn(move || {
            let prepared = runner.prepare(&[], true).ok().flatten();
            // Let go of the sandbox first: whoever receives this may be the last holder,
            // whose drop removes the check's cgroups.
            drop(runner);
            // If the check is over, the jail comes back and is dropped: killed.
            let _ = tx.send(prepared);
        });
        if let Ok(mut a) = self.0.lock() {
            a.push(rx);
        }
    }
}

/// Files, cgroups and the user id that live until the run is over.
#[derive(Default)]
struct CaseFiles {
    _dir: Option<tempfile::TempDir>,
    _file: Option<tempfile::NamedTempFile>,
    group: Option<sandbox::cgroup::CaseGroup>,
    entry: Option<sandbox::cgroup::ThreadEntry>,
    lease: Option<Lease>,
    network: Option<std::fs::File>,
    /// The helper's status file, in the workspace: empty unless the set-up failed.
    status: Option<tempfile::NamedTempFile>,
}

impl Runner {
    /// The command as the user wrote it, for messages.
    pub fn display(&self) -> String {
        self.command
            .iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs the candidate on `input`. An `Err` means the command could not be started.
    pub fn run(&self, input: &[u8]) -> io::Result<Run> {
        if self.input == InputMode::Arg && input.len() >= MAX_ARG_BYTES {
            return Ok(Run::not_started(Ended::ArgumentTooLong));
        }
        let taken = self.ahead.take();
        let mut prepared = match taken {
            Some(p) => p,
            None => match self.prepare(input, false) {
                Ok(Some(p)) => p,
                Ok(None) => return Ok(Run::not_started(Ended::ArgumentTooLong)),
                // The judge's own part of the set-up failed: its error, not the answer's.
                Err(e) if SetUp::of(&e).is_some() => {
                    return Ok(Run {
                        setup_failure: SetUp::of(&e).map(ToString::to_string),
                        ..Run::not_started(Ended::SetupFailed)
                    });
                }
                Err(e) => return Err(e),
            },
        };
        let Some(jail) = prepared.0.take() else {
            return Err(io::Error::other("a prepared case was used twice"));
        };
        let Launched {
            started,
            mut files,
            tx,
            rx,
            awaits_go,
            ..
        } = jail;
        let start = Instant::now();
        if self.prepares_ahead() && self.groups.interrupted().is_none() {
            // The next case's jail is started now, and sets itself up while this case runs
            // and is judged. If it cannot be started, the next case starts its own and says
            // why.
            self.ahead.start(self);
        }
        let (id, mut run) = self.supervise(started, awaits_go, input, start, tx, rx);
        self.groups.remove(id);
        // A keeper that ended by itself has killed every descendant; one that was killed
        // (or timed out) may have left orphans to the judge.
        let keeper_cut_short = !matches!(run.ended, Ended::Exited(_));
        if self.sandbox.mechanism == Mechanism::Basic && keeper_cut_short {
            self.groups.sweep_orphans(self.sandbox.host.warden);
        }
        if let Some(group) = files.group.take() {
            // Whatever the answer did to its keeper, nothing of the case outlives it.
            group.kill_all();
            let usage = group.usage();
            run.peak_memory = usage.peak;
            let failed = !matches!(run.ended, Ended::Exited(0));
            if usage.oom_killed && failed {
                run.ended = Ended::MemoryLimit;
            }
        }
        if let Some(what) = files.status.as_ref().and_then(|f| setup_failure(f.path())) {
            // The helper's own channel, not the answer's exit status: the judge failed.
            run.ended = Ended::SetupFailed;
            run.setup_failure = Some(what);
        }
        self.sandbox.give_back(files.lease.take());
        if let Some(ns) = files.network.take() {
            self.sandbox.host.give_network(ns);
        }
        Ok(run)
    }

    /// True when each case's helper is started ahead, while the case before it runs: the
    /// jail or basic's keeper, with the puzzle on standard input (nothing of the case is
    /// needed to set up).
    fn prepares_ahead(&self) -> bool {
        self.sandbox.mechanism != Mechanism::None && self.input == InputMode::Stdin
    }

    /// Starts the process of one case, the helper waiting for [`GO`] if `ahead`; `None`
    /// when the puzzle is too long for an argument.
    fn prepare(&self, input: &[u8], ahead: bool) -> io::Result<Option<Prepared>> {
        let (cmd, mut files) = self.command_for(input, ahead)?;
        let (tx, rx) = mpsc::channel();
        let stop = Stop::of(&self.sandbox);
        let network = files
            .network
            .as_ref()
            .map(std::fs::File::try_clone)
            .transpose()?;
        let entry = files.entry.clone();
        let started = match self
            .groups
            .start_recorded(stop, || self.start(cmd, network, entry, tx.clone()))
        {
            Err(e) if platform::argument_too_long(&e) => {
                self.sandbox.give_back(files.lease.take());
                return Ok(None);
            }
            // Without a sandbox the answer's own program failed to start; with one, the
            // judge's helper did.
            Err(e) if self.sandbox.mechanism != Mechanism::None => {
                self.sandbox.give_back(files.lease.take());
                return Err(SetUp::step("start the sandbox helper")(e));
            }
            other => other?,
        };
        Ok(Some(Prepared(Some(Launched {
            started,
            files,
            tx,
            rx,
            awaits_go: ahead,
            stop,
            groups: self.groups.clone(),
        }))))
    }

    /// The process to start and the files it needs: the candidate itself, or the sandbox
    /// helper with the candidate's command after `--`.
    fn command_for(&self, input: &[u8], ahead: bool) -> io::Result<(Command, CaseFiles)> {
        let (program, rest) = self
            .command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command given"))?;
        let mut files = CaseFiles::default();
        let mechanism = self.sandbox.mechanism;
        if mechanism == Mechanism::None {
            let mut cmd = Command::new(program);
            platform::own_group(&mut cmd);
            let args = self.feed(
                rest,
                input,
                |f: &mut CaseFiles| {
                    let file = plain_input_file(input)?;
                    let path = file.path().as_os_str().to_os_string();
                    f._file = Some(file);
                    Ok(path)
                },
                &mut files,
            )?;
            cmd.args(args).stdin(self.stdin());
            return Ok((cmd, files));
        }
        // The layout's command: relative paths made absolute, a shim resolved.
        let (program, rest) = self
            .sandbox
            .layout
            .command
            .split_first()
            .unwrap_or((program, rest));
        let path = self
            .sandbox
            .env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_os_str());
        if sandbox::layout::resolve_program(program, path).is_none_or(|p| !p.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no program {}", program.to_string_lossy()),
            ));
        }
        files.lease = self.sandbox.lease();
        let (workdir, home) = self
            .private_dir(input, &mut files)
            .map_err(SetUp::step("make the private directory"))?;
        let input_path = workdir.join(INPUT_NAME).into_os_string();
        let args = self.feed(rest, input, |_| Ok(input_path.clone()), &mut files)?;
        files.group = self
            .sandbox
            .case_group()
            .map_err(SetUp::step("make the case's cgroup"))?;
        files.entry = files.group.as_ref().and_then(|g| g.thread_entry());
        if self.sandbox.direct_jail() {
            files.network = Some(
                self.sandbox
                    .host
                    .take_network()
                    .map_err(SetUp::step("make a network namespace"))?,
            );
        }
        // Where the helper tells a failed set-up: a file of the judge's, which no answer
        // can reach (the workspace lists nothing to others; the jail does not show it).
        files.status = Some(
            tempfile::Builder::new()
                .prefix("status-")
                .tempfile_in(self.workspace.path())
                .map_err(SetUp::step("make the status file"))?,
        );
        let mut command = vec![program.clone()];
        command.extend(args);
        let spec = Spec {
            await_go: ahead,
            ..self.spec(workdir, command, &files)
        };
        let mut cmd = spec.command(&self.sandbox.exe);
        cmd.env_clear()
            .envs(self.sandbox.env.iter().map(|(k, v)| (k, v)))
            .env("HOME", &home)
            .env("TMPDIR", &home)
            .stdin(self.stdin());
        Ok((cmd, files))
    }

    /// The candidate's arguments with the puzzle placed (`--input arg|file`).
    fn feed(
        &self,
        rest: &[OsString],
        input: &[u8],
        file_path: impl FnOnce(&mut CaseFiles) -> io::Result<OsString>,
        files: &mut CaseFiles,
    ) -> io::Result<Vec<OsString>> {
        Ok(match self.input {
            InputMode::Stdin => rest.to_vec(),
            InputMode::Arg => substitute(rest, &platform::os_string(input.to_vec())),
            InputMode::File => substitute(rest, &file_path(files)?),
        })
    }

    fn stdin(&self) -> Stdio {
        match self.input {
            InputMode::Stdin => Stdio::piped(),
            _ => Stdio::null(),
        }
    }

    /// The candidate's working directory as it sees it, and its HOME. Under namespaces it
    /// is made by the jail on a fresh tmpfs (the puzzle file is handed over here); in basic
    /// mode it is made here, owned by the user the candidate runs as.
    fn private_dir(&self, input: &[u8], files: &mut CaseFiles) -> io::Result<(PathBuf, PathBuf)> {
        let base = self.workspace.path();
        if self.sandbox.mechanism == Mechanism::Jail {
            if self.input == InputMode::File {
                let mut f = tempfile::Builder::new()
                    .prefix("puzzle-")
                    .tempfile_in(base)?;
                f.write_all(input)?;
                files._file = Some(f);
            }
            return Ok((PathBuf::from(JAILED_HOME), PathBuf::from(JAILED_HOME)));
        }
        let dir = tempfile::Builder::new().prefix("case-").tempdir_in(base)?;
        if self.input == InputMode::File {
            std::fs::write(dir.path().join(INPUT_NAME), input)?;
        }
        if let Some(id) = files.lease.as_ref().map(|l| l.uid) {
            platform::chown(dir.path(), id)?;
            if self.input == InputMode::File {
                platform::chown(&dir.path().join(INPUT_NAME), id)?;
            }
        }
        let path = dir.path().to_path_buf();
        files._dir = Some(dir);
        Ok((path.clone(), path))
    }

    /// The helper's description of this case.
    fn spec(&self, workdir: PathBuf, command: Vec<OsString>, files: &CaseFiles) -> Spec {
        let sb = &self.sandbox;
        let jail = sb.mechanism == Mechanism::Jail;
        Spec {
            role: match (jail, sb.direct_jail()) {
                (true, true) => Role::Init,
                (true, false) => Role::Outer,
                (false, _) => Role::Keep,
            },
            judge_pid: i32::try_from(sb.judge_pid).unwrap_or(i32::MAX),
            address_space: sb.address_space(),
            nproc: sb.nproc(),
            cpu: sandbox::cpu_seconds(self.timeout),
            fsize: self.max_output as u64 + 1,
            uid: files.lease.as_ref().map(|l| l.uid),
            // Born in the case's cgroups (`ThreadEntry`), or joining them itself.
            cgroup: match (&files.group, &files.entry) {
                (Some(g), None) => g.dirs(),
                _ => Vec::new(),
            },
            ro: sb.layout.ro.clone(),
            mask: sb.layout.masks.clone(),
            tmp_size: sb.memory_bytes().unwrap_or(TMP_SIZE).min(TMP_SIZE),
            root_dir: jail.then(|| self.workspace.root_dir()),
            input_file: files
                ._file
                .as_ref()
                .filter(|_| jail)
                .map(|f| f.path().to_path_buf()),
            await_go: false,
            status: files.status.as_ref().map(|f| f.path().to_path_buf()),
            workdir,
            command,
        }
    }

    /// Starts `cmd` in a thread that then waits for it and reports its exit on `tx`; the
    /// thread ends once the process has, which is what the helper's parent-death signal
    /// needs. For the jail under root, that thread first makes the namespaces and enters
    /// the case's network namespace, so the helper it starts is pid 1 of its own (no outer
    /// process needed).
    fn start(
        &self,
        mut cmd: Command,
        network: Option<std::fs::File>,
        entry: Option<ThreadEntry>,
        tx: Sender<Event>,
    ) -> io::Result<Started> {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let (ptx, prx) = mpsc::channel();
        let trees = self.groups.trees.clone();
        thread::spawn(move || {
            if let Some(ns) = network
                && let Err(e) = sandbox::enter_case_namespaces(&ns)
            {
                let _ = ptx.send(Err(e));
                return;
            }
            let leave = || entry.as_ref().map(ThreadEntry::leave);
            let spawned = match entry.as_ref().map(ThreadEntry::enter) {
                Some(Err(e)) => Err(e),
                _ => cmd.spawn(),
            };
            // Born in the case's cgroups, the child keeps them: this thread has no more
            // business there.
            leave();
            let mut child = match spawned {
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
            let _ = ptx.send(Ok(Started {
                id: i32::try_from(child.id()).unwrap_or(i32::MAX),
                stdin: child.stdin.take(),
                stdout: child.stdout.take(),
                stderr: child.stderr.take(),
            }));
            let _ = tx.send(Event::Exit(child.wait()));
        });
        prx.recv()
            .map_err(|_| io::Error::other("the starting thread ended"))?
    }

    /// Feeds, reads and times one started run; returns its id and the run.
    fn supervise(
        &self,
        started: Started,
        awaits_go: bool,
        input: &[u8],
        start: Instant,
        tx: Sender<Event>,
        rx: mpsc::Receiver<Event>,
    ) -> (i32, Run) {
        let id = started.id;
        let stop = Stop::of(&self.sandbox);
        let trees = &self.groups.trees;
        if let Some(stdin) = started.stdin {
            feed_stdin(stdin, awaits_go, input);
        }
        let stderr = started.stderr.map(spawn_stderr_reader);
        if let Some(out) = started.stdout {
            let cap = self.max_output;
            thread::spawn(move || {
                let (bytes, over) = read_capped(out, cap);
                let _ = tx.send(Event::Output(bytes, over));
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
        let ended = self.classify(&watch, &stderr);
        let run = Run {
            ended,
            stdout: watch.output.unwrap_or_default(),
            stderr,
            elapsed: watch.phase.elapsed().unwrap_or_else(|| start.elapsed()),
            peak_memory: None,
            setup_failure: None,
        };
        (id, run)
    }

    /// How the run ended, from what was seen and the start of its standard error.
    fn classify(&self, watch: &Watch, stderr: &[u8]) -> Ended {
        if let Phase::Stopped(ended, _) = watch.phase {
            return ended;
        }
        let ended = match watch.status {
            Some(s) => match (s.code(), platform::signal_of(&s)) {
                (Some(code), _) => Ended::Exited(code),
                (None, Some(sig)) if platform::is_cpu_limit(sig) => Ended::TimedOut,
                (None, Some(sig)) => Ended::Signaled(sig),
                (None, None) => Ended::Signaled(0),
            },
            None => Ended::TimedOut,
        };
        let contained = self.sandbox.mechanism != Mechanism::None;
        let rlimit = self.sandbox.address_space().is_some();
        if contained && rlimit && out_of_memory(ended, stderr) {
            Ended::MemoryLimit
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
    Stopped(Ended, Duration),
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
    /// Takes one event (or a timeout); false when nothing more will come.
    fn on(
        &mut self,
        event: Result<Event, RecvTimeoutError>,
        start: Instant,
        kill: impl Fn(),
        stop: Stop,
    ) -> bool {
        let stopped = matches!(self.phase, Phase::Stopped(..));
        match event {
            Ok(Event::Output(bytes, over)) => {
                if over && !stopped {
                    kill();
                    self.phase = Phase::Stopped(Ended::OutputLimit, start.elapsed());
                }
                self.output = Some(bytes);
            }
            Ok(Event::Exit(s)) => {
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
                self.phase = Phase::Stopped(Ended::TimedOut, start.elapsed());
            }
            Err(_) => return false,
        }
        true
    }
}

impl Run {
    fn not_started(ended: Ended) -> Run {
        Run {
            ended,
            stdout: Vec::new(),
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
            peak_memory: None,
            setup_failure: None,
        }
    }
}

/// A step of the set-up that the judge itself does (its cgroup, directories, the helper's
/// start) and that failed: carried inside an `io::Error` to [`Runner::run`], which makes
/// it an IE like a failure the helper tells.
#[derive(Debug)]
struct SetUp {
    step: &'static str,
    source: io::Error,
}

impl SetUp {
    /// Wraps an error of `step`.
    fn step(step: &'static str) -> impl FnOnce(io::Error) -> io::Error {
        move |source| io::Error::other(SetUp { step, source })
    }

    /// The failed step inside `e`, if it is one.
    fn of(e: &io::Error) -> Option<&SetUp> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<SetUp>())
    }
}

impl std::fmt::Display for SetUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.step, self.source)
    }
}

impl std::error::Error for SetUp {}

/// The most bytes of a status file read.
const STATUS_KEPT: u64 = 1024;

/// What the helper wrote in its status file at `path` (`STEP: REASON`), if anything: a
/// bounded prefix, as text.
fn setup_failure(path: &Path) -> Option<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(STATUS_KEPT).read_to_end(&mut bytes))
        .ok()?;
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// True when a failed run's standard error says an allocation failed. Under `RLIMIT_AS`
/// an allocation past the limit fails at once, so the program reports it (Python
/// `MemoryError`, Rust `memory allocation of N bytes failed`, C++ `std::bad_alloc`, Perl
/// `Out of memory!`, ...) and ends with an error: that is an MLE, not an RTE.
pub fn out_of_memory(ended: Ended, stderr: &[u8]) -> bool {
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
    let failed = matches!(ended, Ended::Exited(c) if c != 0) || matches!(ended, Ended::Signaled(_));
    let text = String::from_utf8_lossy(stderr).to_lowercase();
    failed && SIGNS.iter().any(|s| text.contains(s))
}

/// The puzzle in a temporary file, for `--input file` without a sandbox.
fn plain_input_file(input: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut f = tempfile::Builder::new()
        .prefix("beast-check-")
        .suffix(".txt")
        .tempfile()?;
    f.write_all(input)?;
    f.flush()?;
    Ok(f)
}

/// Writes the puzzle to the candidate's stdin, after [`GO`] for a jail started ahead. A
/// write of at most 4 KiB to a fresh pipe never blocks; larger inputs get a thread. Either
/// way EPIPE (the candidate closed its stdin) is ignored.
fn feed_stdin(mut stdin: ChildStdin, go: bool, input: &[u8]) {
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

/// The arguments with every `{}` replaced by `value`, or with `value` appended if none
/// holds `{}`.
fn substitute(args: &[OsString], value: &OsStr) -> Vec<OsString> {
    let mut found = false;
    let mut out: Vec<OsString> = args
        .iter()
        .map(|a| {
            let bytes = a.as_encoded_bytes();
            if !bytes.windows(2).any(|w| w == b"{}") {
                return a.clone();
            }
            found = true;
            let mut v = Vec::with_capacity(bytes.len() + value.len());
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"{}") {
                    v.extend_from_slice(value.as_encoded_bytes());
                    i += 2;
                } else {
                    v.push(bytes[i]);
                    i += 1;
                }
            }
            platform::os_string(v)
        })
        .collect();
    if !found {
        out.push(value.to_os_string());
    }
    out
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
fn spawn_stderr_reader(mut err: ChildStderr) -> mpsc::Receiver<Vec<u8>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_of_the_judges_own_set_up_is_told_apart_from_other_errors() {
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        let failed = SetUp::step("make the case's cgroup")(denied);
        assert_eq!(
            SetUp::of(&failed).map(ToString::to_string).as_deref(),
            Some("make the case's cgroup: permission denied")
        );
        let answers = io::Error::new(io::ErrorKind::NotFound, "no program ./golf");
        assert!(SetUp::of(&answers).is_none());
    }

    #[test]
    fn a_status_file_says_a_step_only_when_the_helper_wrote_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("status");
        std::fs::write(&path, "").expect("write");
        assert_eq!(setup_failure(&path), None);
        std::fs::write(&path, "bind a path: ENOENT\n").expect("write");
        assert_eq!(setup_failure(&path).as_deref(), Some("bind a path: ENOENT"));
        std::fs::write(&path, "x".repeat(10_000)).expect("write");
        assert_eq!(
            setup_failure(&path).map(|s| s.len()),
            Some(1024),
            "a bounded prefix"
        );
        assert_eq!(setup_failure(&dir.path().join("none")), None);
    }

    /// Feeds `events` to a fresh watch as if they came in that order; the phase and the
    /// number of kills sent.
    fn watched(events: Vec<Result<Event, RecvTimeoutError>>) -> (Phase, usize) {
        let kills = std::cell::Cell::new(0);
        let mut watch = Watch::default();
        let start = Instant::now();
        for event in events {
            watch.on(
                event,
                start,
                || kills.set(kills.get() + 1),
                Stop::Helper(Signal::SIGKILL),
            );
        }
        (watch.phase, kills.get())
    }

    fn exit() -> Result<Event, RecvTimeoutError> {
        Ok(Event::Exit(Ok(platform::unreadable_status())))
    }

    #[test]
    fn a_run_that_ends_by_itself_is_timed_at_its_exit() {
        let (phase, kills) = watched(vec![exit(), Ok(Event::Output(b"0\n".to_vec(), false))]);
        assert!(matches!(phase, Phase::Exited(_)), "{phase:?}");
        assert_eq!(kills, 0);
    }

    #[test]
    fn output_over_the_cap_stops_the_run_and_its_exit_keeps_that() {
        let (phase, kills) = watched(vec![Ok(Event::Output(vec![b'x'; 9], true)), exit()]);
        assert!(
            matches!(phase, Phase::Stopped(Ended::OutputLimit, _)),
            "{phase:?}"
        );
        assert_eq!(kills, 1);
    }

    #[test]
    fn the_deadline_stops_a_run_once_even_after_its_exit_if_its_output_is_held_open() {
        let timeout = || Err(RecvTimeoutError::Timeout);
        let (phase, kills) = watched(vec![exit(), timeout(), timeout()]);
        assert!(
            matches!(phase, Phase::Stopped(Ended::TimedOut, _)),
            "{phase:?}"
        );
        assert_eq!(kills, 1, "killed once, then only waited for");
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn a_notice_goes_where_it_was_set_once_it_is() {
        let notice = Notice::default();
        let seen = Arc::new(Mutex::new(String::new()));
        let into = |seen: &Arc<Mutex<String>>| {
            let seen = Arc::clone(seen);
            move |text: &str| seen.lock().unwrap().push_str(text)
        };
        notice.set(into(&seen));
        // Only the first counts: the reporters set it once a check.
        let other = Arc::new(Mutex::new(String::new()));
        notice.set(into(&other));
        notice.clone().tell("interrupted\n");
        assert_eq!(*seen.lock().unwrap(), "interrupted\n");
        assert_eq!(*other.lock().unwrap(), "");
    }

    #[test]
    fn braces_are_substituted_or_the_value_appended() {
        let v = OsStr::new("/tmp/p.txt");
        assert_eq!(
            substitute(&os(&["-f", "{}", "x{}y"]), v),
            os(&["-f", "/tmp/p.txt", "x/tmp/p.txty"])
        );
        assert_eq!(substitute(&os(&["-f"]), v), os(&["-f", "/tmp/p.txt"]));
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
