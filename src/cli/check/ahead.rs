//! Cases started before they run: a case's process once started ([`Launched`]: its id and
//! pipes, the [`Heard`]s its threads send the supervisor, what it holds), kept as a
//! [`Prepared`] case that is killed if it never runs; and [`Ahead`], the jails started
//! ahead of their cases, which set themselves up while the case before them runs.

use std::fs::File;
use std::io;
#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;
use std::process::{Child, ExitStatus};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::interrupt::{Running, Stop};
use crate::cli::sandbox::case::CaseResources;

/// What the threads around a case's process report to its supervisor.
pub enum Heard {
    /// Its standard output, read to its end or up to the cap (`true`: it had more).
    Output(Vec<u8>, bool),
    /// How it ended, once waited for.
    Status(io::Result<ExitStatus>),
}

/// The started process: its id and the ends of its pipes.
pub struct Started {
    /// Its process id.
    pub id: i32,
    /// Its standard input, when the puzzle goes there.
    pub stdin: Option<File>,
    /// Its standard output.
    pub stdout: Option<File>,
    /// Its standard error.
    pub stderr: Option<File>,
    /// The process itself, where the supervisor reaps it (`--sandbox none`, started by
    /// the supervisor's own thread); `None` where a thread of its own waits for it and
    /// reports its [`Heard::Status`].
    pub child: Option<Child>,
    /// A descriptor that becomes readable when it ends (a pidfd), with which one thread
    /// watches its pipes and its end; `None` where the kernel has none, and a thread reads
    /// each pipe.
    #[cfg(target_os = "linux")]
    pub exit_fd: Option<OwnedFd>,
}

/// One case's process, started, with what it holds until its run is over.
pub struct Launched {
    /// The process.
    pub started: Started,
    /// What the sandbox made for the case.
    pub resources: CaseResources,
    /// Where its threads report (the output's reader is given it at the run).
    pub tx: Sender<Heard>,
    /// What they report.
    pub rx: Receiver<Heard>,
    /// It waits for [`crate::cli::sandbox::spec::GO`] before it starts the answer (a
    /// jail started ahead).
    pub awaits_go: bool,
    /// How it is stopped.
    pub stop: Stop,
    /// The registry it is recorded in.
    pub running: Running,
}

/// A started case not yet run; if it never is (the check ends first), dropping it kills
/// it, waits for its end and lets go of what it holds.
pub struct Prepared(Option<Launched>);

impl Prepared {
    /// The case `launched`, waiting for its run.
    pub fn new(launched: Launched) -> Prepared {
        Prepared(Some(launched))
    }

    /// The case, to run it (`None` if it was taken before).
    pub fn take(&mut self) -> Option<Launched> {
        self.0.take()
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if let Some(mut l) = self.0.take() {
            l.stop.send(l.started.id, l.running.trees());
            if let Some(mut child) = l.started.child.take() {
                // Killed with its group: its end comes at once.
                let _ = child.wait();
                l.running.remove(l.started.id);
                return;
            }
            // A helper waiting for its go with the stop signals blocked (basic's keeper)
            // ends at the end of its standard input.
            drop(l.started.stdin.take());
            drop(l.tx);
            let deadline = Instant::now() + Duration::from_secs(2);
            while let Ok(report) =
                l.rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                if matches!(report, Heard::Status(_)) {
                    break;
                }
            }
            l.running.remove(l.started.id);
        }
    }
}

/// The jails started ahead, one per job slot at most, shared by the runner's workers:
/// each is being started by a thread of its own, and comes through its channel (`None`
/// if it could not be started).
#[derive(Clone, Default)]
pub struct Ahead(Arc<Mutex<Vec<Receiver<Option<Prepared>>>>>);

impl std::fmt::Debug for Ahead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |a| a.len());
        write!(f, "Ahead({n} started)")
    }
}

impl Ahead {
    /// A jail started ahead, once it is (`None` if there is none, or it failed to start).
    pub fn take(&self) -> Option<Prepared> {
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

    /// Starts the next jail with `prepare` in a thread of its own. `prepare` must let go
    /// of what it holds (the runner, and through it the sandbox) before it returns:
    /// whoever receives the jail may be the last holder, whose drop removes the check's
    /// cgroups.
    pub fn start(&self, prepare: impl FnOnce() -> Option<Prepared> + Send + 'static) {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let prepared = prepare();
            // If the check is over, the jail comes back and is dropped: killed.
            let _ = tx.send(prepared);
        });
        if let Ok(mut a) = self.0.lock() {
            a.push(rx);
        }
    }
}
