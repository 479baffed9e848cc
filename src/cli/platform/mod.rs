//! What Unix and Windows do differently, in one place: how a candidate's process tree is
//! held and ended (a process group, or a Job Object), the signals that interrupt a check,
//! how an exit status tells a signal, and the few file and byte calls that only Unix has.
//! Every other module of the binary asks this one: besides the Linux jail's `cfg(jail)`,
//! only tests that need Unix name a system.
//!
//! The sandbox helpers (`basic`, the jail) are Linux's; on Windows
//! [`Host`](super::sandbox::Host) never chooses them, so the calls only they make
//! ([`chown`], [`signal_helper`], [`kill_and_reap`], [`FileLock`]) fail or do nothing there.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use self::unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use self::windows::*;
