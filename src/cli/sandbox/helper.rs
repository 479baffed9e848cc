//! `beast __contain` (hidden): what the judge's helper processes run, in this folder. A
//! helper is a separate process because everything it does needs a fresh, single-threaded
//! process and the house forbids `unsafe` (so no `pre_exec`). Its roles are in [`jail`]
//! (the outer process, the zygote that starts each case, the warden), [`keep`] (basic)
//! and `subordinate`'s `map`, with [`confine`] (privileges, limits, Landlock) and
//! [`filter`] (the seccomp program); this file dispatches and tells a failed step: a
//! failure of the set-up goes to the judge's status file (`--status`), the judge's own
//! channel, as bubblewrap's `--info-fd` or isolate's `XX`; an answer that cannot be started
//! is the answer's failure, told on standard error as a shell would. [`super::step`] owns
//! what a failed step is.

#[cfg(jail)]
pub mod confine;
#[cfg(jail)]
pub mod filter;
#[cfg(jail)]
pub mod jail;
#[cfg(jail)]
pub mod keep;

use std::fs::File;
use std::io::Write;
#[cfg(jail)]
use std::os::fd::AsRawFd;

use super::spec::Spec;
use super::step::{Failure, SETUP_FAILED};

/// Runs the helper. Returns only on failure (init) or with the answer's exit status,
/// which the judge reads back.
pub fn run(spec: Spec) -> crate::cli::error::Ended {
    // Opened before any step, while the judge's file is in reach (a jail's root hides
    // it); the descriptor closes on `exec`, so the answer never holds it.
    let status = match spec.status() {
        Some(path) => match File::options().append(true).open(path) {
            Ok(file) => Some(file),
            Err(e) => {
                eprintln!("beast sandbox: cannot open the status file: {e}");
                return Err(crate::cli::error::Error::Relayed(SETUP_FAILED));
            }
        },
        None => None,
    };
    let code = contain(&spec, status.as_ref()).unwrap_or_else(|f| {
        tell(&f, status.as_ref());
        f.code
    });
    match code {
        0 => Ok(()),
        code => Err(crate::cli::error::Error::Relayed(code)),
    }
}

/// Tells the failed step `f`: a step of the set-up in the status file when there is one
/// (the judge makes it an IE), anything else on standard error (the answer's RTE).
fn tell(f: &Failure, status: Option<&File>) {
    let line = format!("{}: {}", f.step, f.reason);
    let told = match status {
        Some(mut file) if f.code == SETUP_FAILED => file.write_all(line.as_bytes()).is_ok(),
        _ => false,
    };
    if !told {
        eprintln!("beast sandbox: cannot {line}");
    }
}

/// Plays the helper's role: the answer's exit status, or the step that failed.
#[cfg(jail)]
fn contain(spec: &Spec, status: Option<&File>) -> Result<u8, Failure> {
    let kept = status.map(AsRawFd::as_raw_fd);
    match spec {
        Spec::Outer(outer) => jail::outer(outer),
        Spec::Keep(keeper) => keep::keep(keeper, kept),
        Spec::Warden(warden) => jail::warden(warden),
        Spec::Map(mapping) => super::subordinate::map(mapping),
        Spec::Zygote(jail) => jail::zygote(jail, kept).map(|()| 0),
    }
}

/// Without the jail there is no role to play.
#[cfg(not(jail))]
fn contain(spec: &Spec, _status: Option<&File>) -> Result<u8, Failure> {
    Err(Failure {
        step: "contain the answer",
        reason: format!("{:?}: this build has no jail", spec.role()),
        code: SETUP_FAILED,
    })
}
