//! The jail, on the judge's side: a zygote per job slot, as Chrome's and Android's zygotes
//! start their children. Building a jail (namespaces, the minimal root, the locked mounts,
//! a user namespace mapped by `newuidmap` for a normal user) costs several times what a
//! small answer does, so it is built once a slot: the judge starts a `beast __contain
//! outer` helper, which makes the namespaces and starts the [zygote](super::helper::jail::zygote),
//! pid 1 of them, with the judge's end of a socket pair as its standard input. Each case
//! is then one request on that socket ([`super::wire`]): the zygote starts the answer in a
//! fresh mount, pid, IPC and cgroup namespace of the case's own, with a fresh `/tmp` and
//! `/dev/shm`, in the case's own cgroup, every privilege given up and the seccomp filter
//! installed, and sends back a pidfd of it, then how it ended. Nothing a case leaves
//! reaches the next: its processes die with its pid namespace, its files with its tmpfs,
//! its IPC objects with its IPC namespace, and its cgroup is the judge's to empty.
//!
//! A zygote whose case was stopped (a timeout, too much output, an interrupt) is killed
//! with it, and the slot's next case starts a new one.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use super::spec::{Outer, Spec};
use super::step::{SetUpFailure, Told, setup_failure};
use super::uids::{Lease, UidPool};
use super::wire::{self, Reply, Request, RequestFds};
use crate::cli::platform;

/// The longest the judge waits for its zygote to be ready: the minimal root built, which
/// checks every path it shows.
const READY_TIME: Duration = Duration::from_secs(10);

/// The longest the judge waits for a reply the zygote owes at once (a start, or the end of
/// an answer whose pidfd said it ended): past it, the zygote is taken for broken.
const REPLY_TIME: Duration = Duration::from_secs(30);

/// One slot's jail: the zygote, its socket, and what it holds until it ends.
pub struct Zygote {
    socket: UnixStream,
    /// The outer helper the judge started: stopping it ends the zygote and its case.
    outer: u32,
    /// The thread that started the outer helper and waits for it (the helper's
    /// parent-death signal is this thread's).
    waiter: Option<JoinHandle<()>>,
    /// What it holds until it ends.
    held: Held,
}

/// What a zygote holds until it ends: the user id its answers run as (given back to the
/// host's pool, if it came from there) and the status file where it tells a set-up step
/// that failed before it was ready.
pub struct Held {
    /// The user id.
    pub lease: Option<Lease>,
    /// The pool the user id goes back to.
    pub pool: Option<Arc<UidPool>>,
    /// The status file.
    pub status: tempfile::NamedTempFile,
}

/// A fresh status file for a zygote, in `dir` (the check's workspace).
pub fn status_file(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix("status-")
        .tempfile_in(dir)
        .map_err(SetUpFailure::step("make the status file"))
}

/// How a case asked of a zygote began.
pub enum Begun {
    /// The answer runs: a pidfd of it.
    Started(OwnedFd),
    /// A step of the case's set-up failed (the step and the reason, as the zygote told
    /// them): the judge's failure.
    SetupFailed(Told),
    /// The answer's command could not be started: why, as a shell would say it.
    CannotStart(String),
}

impl Zygote {
    /// Starts the outer helper `outer` (whose status file `held` holds) and waits until
    /// its zygote is ready.
    pub fn launch(exe: &Path, outer: &Outer, held: Held) -> io::Result<Zygote> {
        let (ours, theirs) =
            UnixStream::pair().map_err(SetUpFailure::step("make the zygote's socket"))?;
        let mut cmd = Spec::Outer(outer.clone()).command(exe);
        cmd.env_clear()
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let (tx, rx) = mpsc::channel();
        let waiter = std::thread::spawn(move || match cmd.spawn() {
            Ok(mut child) => {
                let _ = tx.send(Ok(child.id()));
                let _ = child.wait();
            }
            Err(e) => {
                let _ = tx.send(Err(e));
            }
        });
        let started = rx
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the starting thread ended")));
        // Built before anything can fail: dropping it lets go of everything it holds.
        let mut zygote = Zygote {
            socket: ours,
            outer: 0,
            waiter: Some(waiter),
            held,
        };
        zygote.outer = started.map_err(SetUpFailure::step("start the sandbox helper"))?;
        zygote.socket.set_read_timeout(Some(READY_TIME))?;
        match wire::receive_reply(&zygote.socket) {
            Ok(Some(Reply::Ready)) => {}
            other => {
                let failed = match setup_failure(zygote.held.status.path()) {
                    Some(told) => SetUpFailure::Told(told),
                    None => SetUpFailure::Step {
                        step: "start the jail",
                        reason: match other {
                            Err(e) => e.to_string(),
                            _ => "its zygote ended before it was ready".to_string(),
                        },
                    },
                };
                return Err(failed.into());
            }
        }
        zygote.socket.set_read_timeout(Some(REPLY_TIME))?;
        Ok(zygote)
    }

    /// The outer helper's pid: what the registry of running cases stops (SIGTERM).
    pub fn outer(&self) -> u32 {
        self.outer
    }

    /// Asks for one case and waits until its answer has started (or could not).
    pub fn begin(&self, request: &Request, fds: &RequestFds) -> io::Result<Begun> {
        wire::send_request(&self.socket, request, fds)?;
        match wire::receive_reply(&self.socket)? {
            Some(Reply::Started { pidfd, .. }) => Ok(Begun::Started(pidfd)),
            Some(Reply::SetupFailed { step, reason }) => {
                Ok(Begun::SetupFailed(Told::Step { step, reason }))
            }
            Some(Reply::CannotStart { reason }) => Ok(Begun::CannotStart(reason)),
            Some(other) => Err(io::Error::other(format!(
                "the jail's zygote said {other:?} where a start was due"
            ))),
            None => Err(io::Error::other("the jail's zygote ended")),
        }
    }

    /// True when its channel has nothing to read: it waits for a request, as an idle
    /// zygote should (a zygote that ended has closed it).
    fn is_idle(&self) -> bool {
        use rustix::event::{PollFd, PollFlags, poll};
        let mut fds = [PollFd::new(&self.socket, PollFlags::IN)];
        let zero = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        matches!(poll(&mut fds, Some(&zero)), Ok(0))
    }

    /// How the answer of the case begun ended, once its pidfd said it did.
    pub fn ended(&self) -> io::Result<ExitStatus> {
        match wire::receive_reply(&self.socket)? {
            Some(Reply::Ended { status }) => Ok(ExitStatus::from_raw(status)),
            Some(other) => Err(io::Error::other(format!(
                "the jail's zygote said {other:?} where an end was due"
            ))),
            None => Err(io::Error::other("the jail's zygote ended")),
        }
    }
}

impl Drop for Zygote {
    /// Ends the zygote and every process of its jail, and gives back its user id.
    fn drop(&mut self) {
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        // 0 until the helper started (a signal to 0 would be the judge's own group's).
        if let Ok(pid @ 1..) = i32::try_from(self.outer) {
            platform::signal_helper(pid, platform::Signal::SIGTERM);
        }
        if let Some(waiter) = self.waiter.take() {
            let _ = waiter.join();
        }
        if let (Some(pool), Some(lease)) = (&self.held.pool, self.held.lease.take()) {
            pool.give(lease);
        }
    }
}

/// The zygotes of one answer that run no case now: each case takes one (or starts one),
/// and gives it back if it is still sound once its case is over. A check of many answers
/// keeps at most [`IDLE_LIMIT`] idle zygotes in all (each holds two processes and a jail):
/// past it, a zygote given back is ended, and its answer's next case starts another.
#[derive(Clone, Default)]
pub struct Zygotes {
    idle: Arc<Mutex<Vec<Zygote>>>,
    /// The idle zygotes of every answer of the check.
    all_idle: Arc<AtomicUsize>,
}

/// The most idle zygotes a check keeps, over all its answers.
pub const IDLE_LIMIT: usize = 16;

impl std::fmt::Debug for Zygotes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idle = self.idle.lock().map(|z| z.len()).unwrap_or(0);
        write!(f, "Zygotes({idle} idle)")
    }
}

impl Zygotes {
    /// The zygotes of one answer, counted with every other answer's that share `all_idle`.
    pub fn new(all_idle: Arc<AtomicUsize>) -> Zygotes {
        Zygotes {
            idle: Arc::default(),
            all_idle,
        }
    }

    /// An idle zygote that is still sound, if there is one (one whose channel has
    /// something to read, its end or a stray reply, is let go of).
    pub fn take(&self) -> Option<Zygote> {
        loop {
            let zygote = self.idle.lock().ok()?.pop()?;
            self.all_idle.fetch_sub(1, Ordering::Relaxed);
            if zygote.is_idle() {
                return Some(zygote);
            }
        }
    }

    /// Gives a sound zygote back for the next case (or ends it, past [`IDLE_LIMIT`]).
    pub fn give(&self, zygote: Zygote) {
        let kept = self
            .all_idle
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < IDLE_LIMIT).then_some(n + 1)
            })
            .is_ok();
        match (kept, self.idle.lock()) {
            (true, Ok(mut idle)) => idle.push(zygote),
            (true, Err(_)) => {
                self.all_idle.fetch_sub(1, Ordering::Relaxed);
            }
            (false, _) => {}
        }
    }

    /// Ends every idle zygote: the check is over for this answer.
    pub fn clear(&self) {
        let idle: Vec<Zygote> = self
            .idle
            .lock()
            .map(|mut z| z.drain(..).collect())
            .unwrap_or_default();
        self.all_idle.fetch_sub(idle.len(), Ordering::Relaxed);
        drop(idle);
    }
}
