//! What the helper's roles share: how a step fails (`Failure`, `Step`, the exit codes),
//! how a helper passes on the end of its child (`relay`), the signals a waiting helper
//! takes, waiting for the judge's go (`go`), and whether the judge still runs.

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
