//! `--sandbox basic`: no namespaces. The keeper joins the case's cgroups, takes the
//! case's own uid under root, becomes a child subreaper, and confines itself (Landlock
//! over the same allow-list as the jail's root, no signal out of it; seccomp; limits; no
//! inherited descriptor) before it starts the answer (its [`AnswerCommand`], the words
//! after `--`, started only here), waits for it, and kills every descendant left.
//!
//! [`AnswerCommand`]: crate::cli::sandbox::untrusted::AnswerCommand

use std::io;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::prctl;
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid, getppid, setsid};

use super::confine;
use crate::cli::sandbox::procs::descendants;
use crate::cli::sandbox::reach::{self, Reader};
use crate::cli::sandbox::spec::Keeper;
use crate::cli::sandbox::spec::SYSTEM;
use crate::cli::sandbox::step::{
    CANNOT_START, Failure, SETUP_FAILED, Step, go, relay, stop_signals,
};

/// The files every answer may write besides its directory: the harmless devices.
const DEVICES: [&str; 3] = ["/dev/null", "/dev/zero", "/dev/full"];

/// A subreaper that starts the answer, waits for it and kills every descendant.
/// `status` is the descriptor of the helper's status file, kept open until the answer
/// starts.
pub fn keep(keeper: &Keeper, status: Option<i32>) -> Result<u8, Failure> {
    let answer = &keeper.answer;
    confine::join_cgroups(&keeper.cgroup)?;
    prctl::set_child_subreaper(true).step("become a subreaper")?;
    // A helper started as a process group leader cannot call setsid; it has none then.
    let _ = setsid();
    for bound in &answer.ro {
        // Checked again as the case's user, through no symbolic link: a path changed
        // since the judge decided it is refused (Landlock below opens it once more).
        let reader = answer.uid.map_or(Reader::Judge, Reader::Case);
        reach::open_bound(bound, reader).map_err(|closed| Failure {
            step: "bind a path",
            reason: format!("{}: {closed}", bound.at.display()),
            code: SETUP_FAILED,
        })?;
    }
    confine::take_case_user(answer.uid)?;
    // The answer runs as the keeper's user: it must not trace the keeper or write its memory.
    prctl::set_dumpable(false).step("make the keeper undumpable")?;
    confine::no_new_privileges()?;
    confine::limits(&answer.limits)?;
    let read: Vec<PathBuf> = SYSTEM
        .iter()
        .map(PathBuf::from)
        .chain(answer.ro.iter().map(|b| b.at.clone()))
        .chain(["/proc", "/dev/urandom", "/dev/random"].map(PathBuf::from))
        .filter(|p| p.exists())
        .collect();
    let read = confine::without_masks(&read, &answer.mask);
    let write: Vec<PathBuf> = std::iter::once(answer.workdir.clone())
        .chain(DEVICES.map(PathBuf::from))
        .filter(|p| p.exists())
        .collect();
    confine::landlock(&read, &write)?;
    confine::close_inherited_descriptors(status)?;
    // Changing the user clears the parent-death signal: set it now.
    prctl::set_pdeathsig(Signal::SIGTERM).step("set the parent-death signal")?;
    confine::reset_signal_handling()?;
    if getppid().as_raw() != keeper.judge_pid {
        return Ok(SETUP_FAILED);
    }
    let waited = stop_signals();
    waited.thread_block().step("block signals")?;
    confine::seccomp(true)?;
    if keeper.await_go && !go() {
        // The judge let go of this keeper without using it.
        return Ok(SETUP_FAILED);
    }
    let child = while_at_the_process_limit(|| the_answer(keeper).spawn()).map_err(|e| Failure {
        step: "start the answer",
        reason: format!("{}: {e}", keeper.command.program().to_string_lossy()),
        code: CANNOT_START,
    })?;
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let ended = wait_for(pid, &waited);
    kill_descendants();
    Ok(relay(ended))
}

/// How long starting the answer is tried again while its user is at the process limit.
const LIMIT_WAIT: Duration = Duration::from_secs(5);

/// Tries `start` again, for up to [`LIMIT_WAIT`], while it fails with `EAGAIN` (the
/// processes of the case's last run may take a moment to go). The judge's timeout still
/// bounds the whole run.
fn while_at_the_process_limit<T>(mut start: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let since = std::time::Instant::now();
    loop {
        match start() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && since.elapsed() < LIMIT_WAIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            done => return done,
        }
    }
}

/// The answer's command, in its directory (the environment was set by the judge).
fn the_answer(keeper: &Keeper) -> Command {
    let program = keeper.command.program();
    let mut cmd = Command::new(program);
    cmd.args(keeper.command.args())
        .current_dir(&keeper.answer.workdir);
    cmd
}

/// Waits until the answer ends (its status) or the keeper is told to stop (`None`).
fn wait_for(pid: Pid, waited: &SigSet) -> Option<WaitStatus> {
    loop {
        if let Some(status) = reap(pid) {
            return Some(status);
        }
        match waited.wait() {
            Ok(Signal::SIGCHLD) | Err(_) => {}
            Ok(_) => return None,
        }
    }
}

/// Reaps every finished child; returns the status of `pid` if it was among them.
fn reap(pid: Pid) -> Option<WaitStatus> {
    let mut found = None;
    loop {
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) | Err(_) => return found,
            Ok(status) if status.pid() == Some(pid) => found = Some(status),
            Ok(_) => {}
        }
    }
}

/// Kills every descendant until none is left: orphans come to this subreaper, so no
/// child left means no descendant left.
fn kill_descendants() {
    for _ in 0..1000 {
        reap(Pid::from_raw(0));
        if matches!(
            waitpid(None, Some(WaitPidFlag::WNOHANG)),
            Err(Errno::ECHILD)
        ) {
            return;
        }
        for pid in descendants(getpid()) {
            let _ = kill(pid, Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
