//! One thread watches a case (Linux): its standard output, its standard error and its end,
//! with one `poll` on the two pipes and a pidfd, in place of a thread for each (three
//! threads a case, and their hand-offs, cost more than the answer's own run on a loaded
//! machine). What it sees goes to the supervisor's [`super::runner`] loop as the threads'
//! [`super::ahead::Heard`]s would have; where no pidfd can be opened (a kernel before 5.3) the threads
//! are used instead.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::Instant;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags, pidfd_open};

/// A descriptor that becomes readable once process `id` has ended, if the kernel has
/// pidfds. Opened while the process is unreaped (its starter waits for it only after), so
/// it names that process and no other that took its id later.
pub fn exit_fd(id: u32) -> Option<OwnedFd> {
    let pid = Pid::from_raw(i32::try_from(id).ok()?)?;
    pidfd_open(pid, PidfdFlags::empty()).ok()
}

/// What the watcher saw, as the threads' [`super::ahead::Heard`]s would have said it.
#[derive(Debug)]
pub enum Seen {
    /// Standard output read to its end or past the cap (`true`).
    Output(Vec<u8>, bool),
    /// The process ended (not yet reaped).
    Ended,
    /// The time given ran out first (or nothing is left to wait for).
    Timeout,
}

/// The pipes and the pidfd of one case, and what has been read of them.
pub struct Polled {
    out: Option<OwnedFd>,
    out_bytes: Vec<u8>,
    cap: usize,
    err: Option<OwnedFd>,
    err_bytes: Vec<u8>,
    err_kept: usize,
    ended: Option<OwnedFd>,
}

/// How much one read takes.
const CHUNK: usize = 8192;

impl Polled {
    /// Watches `out` (kept up to `cap` bytes, plus one to tell it had more), `err` (its
    /// last `err_kept` bytes kept, the rest drained so the process never blocks on it) and
    /// `ended`, the process's pidfd.
    pub fn new(
        out: Option<OwnedFd>,
        cap: usize,
        err: Option<OwnedFd>,
        err_kept: usize,
        ended: OwnedFd,
    ) -> Polled {
        Polled {
            out,
            out_bytes: Vec::new(),
            cap,
            err,
            err_bytes: Vec::new(),
            err_kept,
            ended: Some(ended),
        }
    }

    /// Waits until standard output ends (or passes the cap), the process ends, or
    /// `until`; standard error is read meanwhile. Each of the first two is seen once.
    pub fn next(&mut self, until: Instant) -> Seen {
        loop {
            let (out, err, ended) = match self.wait(until, true) {
                Some(ready) => ready,
                None => return Seen::Timeout,
            };
            if err {
                self.read_err();
            }
            if out && let Some(seen) = self.read_out() {
                return seen;
            }
            if ended {
                self.ended = None;
                return Seen::Ended;
            }
        }
    }

    /// The end of standard error, read to its end or until `until`.
    pub fn stderr(mut self, until: Instant) -> Vec<u8> {
        while self.err.is_some() {
            match self.wait(until, false) {
                Some((_, true, _)) => self.read_err(),
                _ => break,
            }
        }
        let kept = self.err_kept;
        if self.err_bytes.len() > kept {
            self.err_bytes.drain(..self.err_bytes.len() - kept);
        }
        self.err_bytes
    }

    /// Polls what is open (standard error only unless `all`) until `until`: which of
    /// output, error and the end are ready, or `None` on a timeout or with nothing open.
    fn wait(&self, until: Instant, all: bool) -> Option<(bool, bool, bool)> {
        let wanted = PollFlags::IN;
        loop {
            let left = until.checked_duration_since(Instant::now())?;
            let timeout = Timespec {
                tv_sec: i64::try_from(left.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let slots = [
                self.out.as_ref().filter(|_| all),
                self.err.as_ref(),
                self.ended.as_ref().filter(|_| all),
            ];
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
            let mut which = [None; 3];
            for (i, fd) in slots.iter().enumerate() {
                if let Some(fd) = fd {
                    which[i] = Some(fds.len());
                    fds.push(PollFd::new(fd, wanted));
                }
            }
            if fds.is_empty() {
                return None;
            }
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => return None,
                Ok(_) => {
                    let ready = |i: usize| which[i].is_some_and(|at| !fds[at].revents().is_empty());
                    return Some((ready(0), ready(1), ready(2)));
                }
                Err(Errno::INTR) => {}
                Err(_) => return None,
            }
        }
    }

    /// One read of standard output; what to report when it ended or passed the cap.
    fn read_out(&mut self) -> Option<Seen> {
        let fd = self.out.as_ref()?;
        let mut chunk = [0u8; CHUNK];
        match read(fd, &mut chunk) {
            Ok(0) | Err(_) => {
                self.out = None;
                Some(Seen::Output(std::mem::take(&mut self.out_bytes), false))
            }
            Ok(n) => {
                self.out_bytes.extend_from_slice(&chunk[..n]);
                if self.out_bytes.len() > self.cap {
                    self.out_bytes.truncate(self.cap + 1);
                    self.out = None;
                    return Some(Seen::Output(std::mem::take(&mut self.out_bytes), true));
                }
                None
            }
        }
    }

    /// One read of standard error, keeping its end.
    fn read_err(&mut self) {
        let Some(fd) = self.err.as_ref() else { return };
        let mut chunk = [0u8; CHUNK];
        match read(fd, &mut chunk) {
            Ok(0) | Err(_) => self.err = None,
            Ok(n) => {
                // Keep the end: that is where interpreters print the exception.
                self.err_bytes.extend_from_slice(&chunk[..n]);
                if self.err_bytes.len() > 2 * self.err_kept {
                    self.err_bytes.drain(..self.err_bytes.len() - self.err_kept);
                }
            }
        }
    }
}

/// One `read`, retried when a signal interrupts it.
fn read(fd: impl AsFd, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match rustix::io::read(&fd, &mut *buf) {
            Err(Errno::INTR) => {}
            other => return other.map_err(io::Error::from),
        }
    }
}
