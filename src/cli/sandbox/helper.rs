//! `beast __contain` (hidden): the helper `beast check` starts in place of an answer. It
//! is a separate process because everything it does needs a fresh, single-threaded
//! process and the house forbids `unsafe` (so no `pre_exec`). Its roles are in
//! [`super::jail`] (outer and init) and [`super::keep`] (basic); this file dispatches, and
//! [`super::step`] owns how a failed step is told.

#[cfg(jail)]
use super::spec::Role;
use super::spec::Spec;
use super::step::{Failure, SETUP_FAILED};

/// Runs the helper. Returns only on failure (init) or with the answer's exit status,
/// which the judge reads back.
pub fn run(spec: Spec) -> crate::cli::error::Ended {
    let code = contain(&spec).unwrap_or_else(|f| {
        eprintln!("beast sandbox: cannot {}: {}", f.step, f.reason);
        f.code
    });
    match code {
        0 => Ok(()),
        code => Err(crate::cli::error::Error::Relayed(code)),
    }
}

/// Plays the helper's role: the answer's exit status, or the step that failed.
#[cfg(jail)]
fn contain(spec: &Spec) -> Result<u8, Failure> {
    match spec.role {
        Role::Outer => super::jail::outer(spec),
        Role::Init => super::jail::init(spec).map(|()| SETUP_FAILED),
        Role::Keep => super::keep::keep(spec),
        Role::Warden => super::jail::warden(spec),
    }
}

/// Without the jail there is no role to play.
#[cfg(not(jail))]
fn contain(spec: &Spec) -> Result<u8, Failure> {
    Err(Failure {
        step: "contain the answer",
        reason: format!("{:?}: this build has no jail", spec.role),
        code: SETUP_FAILED,
    })
}
