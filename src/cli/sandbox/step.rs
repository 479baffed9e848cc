//! How a step of the set-up fails, on both sides: in a helper (`Failure`, `Step`, the exit
//! codes), and in the judge (`SetUpFailure`; what a helper told, `Told`, its status file read back
//! once by `setup_failure`); what the helper's roles share besides: how a helper passes on the end
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

/// What a helper told of a step of its set-up that failed, read once where it arrives:
/// its status file's `STEP: REASON` ([`Told::read`]), or the step and the reason apart on
/// the zygote's socket. No later code reads its words to decide: they are only said, as
/// they came (its [`Display`](std::fmt::Display) gives the text back byte for byte).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told {
    /// The step that failed ("bind a path") and the system's reason.
    Step {
        /// The step.
        step: String,
        /// Why.
        reason: String,
    },
    /// Words that name no step (no `STEP: ` before a reason), kept as they came.
    Unreadable(String),
}

impl Told {
    /// The words of a status file (`STEP: REASON`): the step before the first `": "`, the
    /// reason after it; words without one are [`Told::Unreadable`].
    pub fn read(text: &str) -> Told {
        match text.split_once(": ") {
            Some((step, reason)) if !step.is_empty() => Told::Step {
                step: step.to_string(),
                reason: reason.to_string(),
            },
            _ => Told::Unreadable(text.to_string()),
        }
    }
}

impl std::fmt::Display for Told {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Told::Step { step, reason } => write!(f, "{step}: {reason}"),
            Told::Unreadable(words) => f.write_str(words),
        }
    }
}

/// A step of a case's set-up that failed: the case's IE, said `STEP: REASON`. Either a step
/// the judge itself does (its cgroup, directories, the helper's start), carried inside an
/// `io::Error` to the case runner, or one a helper told; the runner keeps either as the
/// run's `setup_failure`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetUpFailure {
    /// A step of the judge's that failed, with the system's reason.
    Step {
        /// The step.
        step: &'static str,
        /// Why (the system's error, in words).
        reason: String,
    },
    /// A step a helper told (from its status file or its socket).
    #[cfg_attr(not(jail), allow(dead_code))]
    Told(Told),
}

impl SetUpFailure {
    /// Wraps an error of `step`.
    pub fn step(step: &'static str) -> impl FnOnce(io::Error) -> io::Error {
        move |source| {
            io::Error::from(SetUpFailure::Step {
                step,
                reason: source.to_string(),
            })
        }
    }

    /// The failed step inside `e`, if it is one.
    pub fn of(e: &io::Error) -> Option<&SetUpFailure> {
        e.get_ref()
            .and_then(|inner| inner.downcast_ref::<SetUpFailure>())
    }
}

impl From<SetUpFailure> for io::Error {
    fn from(failed: SetUpFailure) -> io::Error {
        io::Error::other(failed)
    }
}

impl std::fmt::Display for SetUpFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetUpFailure::Step { step, reason } => write!(f, "{step}: {reason}"),
            SetUpFailure::Told(told) => told.fmt(f),
        }
    }
}

impl std::error::Error for SetUpFailure {}

/// The most bytes of a status file read.
const STATUS_KEPT: u64 = 1024;

/// What the helper wrote in its status file at `path` (`STEP: REASON`), if anything: a
/// bounded prefix, read as text once, here.
pub fn setup_failure(path: &Path) -> Option<Told> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(STATUS_KEPT).read_to_end(&mut bytes))
        .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    (!text.is_empty()).then(|| Told::read(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_of_the_judges_own_set_up_is_told_apart_from_other_errors() {
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        let failed = SetUpFailure::step("make the case's cgroup")(denied);
        assert_eq!(
            SetUpFailure::of(&failed)
                .map(ToString::to_string)
                .as_deref(),
            Some("make the case's cgroup: permission denied")
        );
        let answers = io::Error::new(io::ErrorKind::NotFound, "no program ./golf");
        assert!(SetUpFailure::of(&answers).is_none());
    }

    #[test]
    fn a_status_file_says_a_step_only_when_the_helper_wrote_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("status");
        std::fs::write(&path, "").expect("write");
        assert_eq!(setup_failure(&path), None);
        std::fs::write(&path, "bind a path: /srv/a: ENOENT\n").expect("write");
        let told = setup_failure(&path).expect("a step");
        assert_eq!(
            told,
            Told::Step {
                step: "bind a path".to_string(),
                reason: "/srv/a: ENOENT".to_string(),
            }
        );
        assert_eq!(told.to_string(), "bind a path: /srv/a: ENOENT");
        std::fs::write(&path, "x".repeat(10_000)).expect("write");
        assert_eq!(
            setup_failure(&path),
            Some(Told::Unreadable("x".repeat(1024))),
            "a bounded prefix, naming no step"
        );
        assert_eq!(setup_failure(&dir.path().join("none")), None);
    }

    #[test]
    fn what_a_helper_told_is_said_as_it_came() {
        for text in [
            "bind a path: ENOENT",
            "make the namespaces: EPERM: Operation not permitted",
            "no step here",
            ": no step either",
            "a step:",
            "ünïcode: ✓",
        ] {
            assert_eq!(Told::read(text).to_string(), text);
        }
        assert_eq!(
            Told::read(": x"),
            Told::Unreadable(": x".to_string()),
            "an empty step is no step"
        );
        let told = SetUpFailure::Told(Told::read("bind a path: ENOENT"));
        assert_eq!(
            SetUpFailure::of(&told.into())
                .map(ToString::to_string)
                .as_deref(),
            Some("bind a path: ENOENT")
        );
    }
}
