//! How a step of the set-up fails, on both sides: in a helper (`Failure`, `Step`, the exit
//! codes), and in the judge (`SetUp`, and a helper's status file read back,
//! `setup_failure`); what the helper's roles share besides: how a helper passes on the end
//! of its child (`relay`), the signals a waiting helper takes, waiting for the judge's go
//! (`go`), and whether the judge still runs.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

#[cfg(jail)]
use nix::sys::signal::Signal;
#[cfg(jail)]
use nix::sys::wait::WaitStatus;

/// Exit code when the sandbox itself cannot be set up.
pub const SETUP_FAILED: u8 = 125;
/// Exit code when the answer cannot be started.
#[cfg_attr(not(jail), allow(dead_code))]
pub const CANNOT_START: u8 = 127;

/// A step that failed, for the one line of stderr the judge shows.
#[derive(Debug)]
pub struct Failure {
    /// What was being done ("make the namespaces").
    pub step: &'static str,
    /// The system's reason.
    pub reason: String,
    /// The helper's exit code.
    pub code: u8,
}

/// Names the step of a fallible call.
#[cfg_attr(not(jail), allow(dead_code))]
pub trait Step<T> {
    /// The error, as the failure of `step`.
    fn step(self, step: &'static str) -> Result<T, Failure>;
}

impl<T, E: std::fmt::Display> Step<T> for Result<T, E> {
    fn step(self, step: &'static str) -> Result<T, Failure> {
        self.map_err(|e| Failure {
            step,
            reason: e.to_string(),
            code: SETUP_FAILED,
        })
    }
}

/// The exit code that passes on how a child ended; for a signal, this process first dies
/// of the same signal if it can (so the judge sees the signal itself).
#[cfg(jail)]
pub fn relay(ended: Option<WaitStatus>) -> u8 {
    match ended {
        Some(WaitStatus::Exited(_, code)) => u8::try_from(code).unwrap_or(1),
        Some(WaitStatus::Signaled(_, sig, _)) => {
            if sig == Signal::SIGKILL {
                let _ = nix::sys::signal::kill(nix::unistd::getpid(), Signal::SIGKILL);
            }
            let _ = signal_hook::low_level::emulate_default_handler(sig as i32);
            128u8.saturating_add(sig as u8)
        }
        _ => SETUP_FAILED,
    }
}

/// The signals a waiting helper takes: its child's end, and being told to stop.
#[cfg(jail)]
pub fn stop_signals() -> nix::sys::signal::SigSet {
    let mut set = nix::sys::signal::SigSet::empty();
    for s in [
        Signal::SIGCHLD,
        Signal::SIGTERM,
        Signal::SIGINT,
        Signal::SIGHUP,
    ] {
        set.add(s);
    }
    set
}

/// Waits for the judge's [`GO`](super::spec::GO) on standard input, read unbuffered so
/// that the puzzle after it is left to the answer. False when anything else comes (the
/// end: the judge has let go of the helper started ahead of its case).
#[cfg(jail)]
pub fn go() -> bool {
    let mut byte = [0u8; 1];
    loop {
        match nix::unistd::read(std::io::stdin(), &mut byte) {
            Ok(1) => return byte[0] == super::spec::GO,
            Err(nix::errno::Errno::EINTR) => {}
            _ => return false,
        }
    }
}

/// True while the judge runs.
#[cfg_attr(not(jail), allow(dead_code))]
pub fn judge_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
        .unwrap_or(false)
}

/// A step of the set-up that the judge itself does (its cgroup, directories, the helper's
/// start) and that failed: carried inside an `io::Error` to the case runner, which makes
/// it an IE like a failure the helper tells.
#[derive(Debug)]
pub enum SetUp {
    /// A step of the judge's that failed, with the system's error.
    Step {
        /// The step.
        step: &'static str,
        /// Why.
        source: io::Error,
    },
    /// A step a helper told (`STEP: REASON`, from its status file or its socket).
    #[cfg_attr(not(jail), allow(dead_code))]
    Told(String),
}

impl SetUp {
    /// Wraps an error of `step`.
    pub fn step(step: &'static str) -> impl FnOnce(io::Error) -> io::Error {
        move |source| io::Error::other(SetUp::Step { step, source })
    }

    /// A failed step a helper told, as an error.
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn told(what: String) -> io::Error {
        io::Error::other(SetUp::Told(what))
    }

    /// The failed step inside `e`, if it is one.
    pub fn of(e: &io::Error) -> Option<&SetUp> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<SetUp>())
    }
}

impl std::fmt::Display for SetUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetUp::Step { step, source } => write!(f, "{step}: {source}"),
            SetUp::Told(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for SetUp {}

/// The most bytes of a status file read.
const STATUS_KEPT: u64 = 1024;

/// What the helper wrote in its status file at `path` (`STEP: REASON`), if anything: a
/// bounded prefix, as text.
pub fn setup_failure(path: &Path) -> Option<String> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(STATUS_KEPT).read_to_end(&mut bytes))
        .ok()?;
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    (!text.is_empty()).then_some(text)
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
}
