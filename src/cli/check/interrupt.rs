//! The candidates running now and the interrupts of a check: [`Running`] records every
//! process the case runner starts and how to stop it ([`Stop`]), stops them all on the
//! first SIGINT, SIGTERM or SIGHUP, and sweeps the orphans an answer leaves under
//! `--sandbox basic`; [`Notice`] carries the interrupt handler's line to the user.

use std::collections::HashMap;
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::thread;

use crate::cli::platform::{self, Interrupts, Pid, Signal, Trees};
use crate::cli::sandbox::{self, Mechanism, Sandbox};

/// How to stop a running candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Kill its process tree: its process group, or its Job Object on Windows (no
    /// sandbox).
    Group,
    /// This signal to the helper: SIGTERM asks the keeper to kill its tree; SIGKILL on the
    /// jail, pid 1 of its namespace, ends every process in it.
    Helper(Signal),
}

impl Stop {
    /// How the runs of `sandbox` are stopped: the keeper and the jail's outer process are
    /// asked (each kills what it holds: the keeper the answer's tree, the outer process
    /// the zygote, pid 1 of the jail, and with it every process of its case), so the
    /// answer's own parent-death signal, which it can clear, does not matter.
    pub fn of(sandbox: &Sandbox) -> Stop {
        match sandbox.mechanism {
            Mechanism::None => Stop::Group,
            Mechanism::Basic => Stop::Helper(Signal::SIGTERM),
            Mechanism::Jail => Stop::Helper(Signal::SIGTERM),
        }
    }

    /// Stops the process `id`, whose tree `trees` holds.
    pub fn send(self, id: i32, trees: &Trees) {
        match self {
            Stop::Group => trees.kill(id),
            Stop::Helper(sig) => platform::signal_helper(id, sig),
        }
    }
}

/// The candidates running now, and how to stop each; and the signal that interrupted the
/// run, if one has.
#[derive(Clone, Debug, Default)]
pub struct Running {
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

impl Running {
    /// The process trees of the candidates (their Job Objects on Windows).
    pub fn trees(&self) -> &Trees {
        &self.trees
    }

    /// Starts a process with `start` and records it by its id (`id_of`), with no sweep of
    /// orphans in between (a sweep must never take a helper just started for an orphan).
    /// One started after an interrupt is stopped at once: the signal may have come between
    /// the check before the start and this call.
    pub fn start_recorded<T>(
        &self,
        stop: Stop,
        start: impl FnOnce() -> io::Result<T>,
        id_of: impl Fn(&T) -> i32,
    ) -> io::Result<T> {
        let poisoned = || io::Error::other("the list of running answers is poisoned");
        let _starting = self.starting.read().map_err(|_| poisoned())?;
        let started = start()?;
        let id = id_of(&started);
        self.running
            .lock()
            .map_err(|_| poisoned())?
            .insert(id, stop);
        // The interrupt is marked before the list is read: it stops this one, or this
        // sees it.
        if self.interrupted().is_some() {
            stop.send(id, &self.trees);
        }
        Ok(started)
    }

    /// Kills and reaps every child of the judge that is not a helper it started: what an
    /// answer left after killing its keeper (`--sandbox basic`, where the judge is a
    /// subreaper and orphans come to it).
    pub fn sweep_orphans(&self, warden: Option<u32>) {
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

    /// Forgets the process `id`: its run is over.
    pub fn remove(&self, id: i32) {
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

    /// Ends the run once a signal has interrupted it during diagnosis or shrinking (an
    /// interrupt while the cases run still prints the report of those that finished).
    pub fn end_if_interrupted(&self) -> crate::cli::error::Ended {
        match self.interrupted() {
            Some(sig) => Err(crate::cli::error::Error::Interrupted(sig)),
            None => Ok(()),
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
        let running = self.clone();
        thread::spawn(move || {
            while let Some(sig) = signals.wait() {
                if running.interrupted().is_some() {
                    platform::die_of(sig);
                    return;
                }
                running.interrupted.store(sig, Ordering::SeqCst);
                if let Ok(set) = running.running.lock() {
                    for (&id, &stop) in set.iter() {
                        stop.send(id, &running.trees);
                    }
                }
                let name = signal_hook::low_level::signal_name(sig).unwrap_or("a signal");
                running.notice.tell(&format!(
                    "\nbeast check: interrupted by {name}; stopping (again to quit at once)\n"
                ));
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
