//! What a helper does to itself just before it becomes the answer: no capability left in
//! any set and securebits locked, no new privileges, the resource limits, no inherited
//! descriptor but 0, 1 and 2, default signal handling, Landlock (basic), and last the
//! seccomp filter (built in [`filter`]). Each step is a function of its own.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use nix::sys::signal::{SigSet, Signal};
use rustix::process::{Resource, Rlimit, prlimit};
use rustix::thread::{self as rt, CapabilitiesSecureBits, CapabilitySet, CapabilitySets};

use nix::unistd::{Gid, Uid, setgroups, setresgid, setresuid};

use super::filter;
use crate::cli::sandbox::spec::Limits;
use crate::cli::sandbox::step::{Failure, SETUP_FAILED, Step};

/// The number of the highest capability this kernel knows.
fn last_capability() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(40)
}

/// Every capability this kernel knows, one set each.
fn each_capability() -> impl Iterator<Item = CapabilitySet> {
    (0..=last_capability().min(63)).map(|i| CapabilitySet::from_bits_retain(1 << i))
}

/// Makes every capability this process holds ambient, so that they survive the `exec` of
/// the jail's `init` (a process that is not root in its user namespace loses them at
/// `exec` otherwise).
pub fn keep_capabilities_across_exec() -> Result<(), Failure> {
    let now = rt::capabilities(None).step("read the capabilities")?;
    rt::set_capabilities(
        None,
        CapabilitySets {
            inheritable: now.permitted,
            ..now
        },
    )
    .step("make the capabilities inheritable")?;
    for cap in each_capability().filter(|c| now.permitted.contains(*c)) {
        rt::configure_capability_in_ambient_set(cap, true).step("make the capabilities ambient")?;
    }
    Ok(())
}

/// Gives up every capability for good: the bounding set emptied, the securebits that make
/// root special set and locked, the ambient set cleared, every set empty, and no new
/// privileges (a set-uid file cannot give any back).
pub fn drop_every_capability() -> Result<(), Failure> {
    for cap in each_capability() {
        rt::remove_capability_from_bounding_set(cap).step("empty the bounding set")?;
    }
    let bits = CapabilitiesSecureBits::NO_ROOT
        | CapabilitiesSecureBits::NO_ROOT_LOCKED
        | CapabilitiesSecureBits::NO_SETUID_FIXUP
        | CapabilitiesSecureBits::NO_SETUID_FIXUP_LOCKED
        | CapabilitiesSecureBits::KEEP_CAPS_LOCKED
        | CapabilitiesSecureBits::NO_CAP_AMBIENT_RAISE
        | CapabilitiesSecureBits::NO_CAP_AMBIENT_RAISE_LOCKED;
    rt::set_capabilities_secure_bits(bits).step("lock the securebits")?;
    rt::clear_ambient_capability_set().step("clear the ambient capabilities")?;
    let none = CapabilitySet::empty();
    rt::set_capabilities(
        None,
        CapabilitySets {
            effective: none,
            permitted: none,
            inheritable: none,
        },
    )
    .step("drop every capability")?;
    no_new_privileges()
}

/// `PR_SET_NO_NEW_PRIVS`.
pub fn no_new_privileges() -> Result<(), Failure> {
    rt::set_no_new_privs(true).step("set no_new_privs")
}

/// The resource limits `limits`, each `(resource, soft, hard)`: CPU time (the soft limit
/// a second under the hard one, so SIGXCPU comes first), file size, open files, no core
/// files, and the address space and process count where no cgroup holds them.
fn each_limit(limits: &Limits) -> Vec<(Resource, u64, u64)> {
    let mut all = vec![
        (Resource::Cpu, limits.cpu, limits.cpu + 1),
        (Resource::Fsize, limits.fsize, limits.fsize),
        (Resource::Nofile, OPEN_FILES, OPEN_FILES),
        (Resource::Core, 0, 0),
    ];
    if let Some(bytes) = limits.address_space {
        all.push((Resource::As, bytes, bytes));
    }
    if let Some(n) = limits.nproc {
        all.push((Resource::Nproc, n, n));
    }
    all
}

/// The most descriptors an answer may hold open.
const OPEN_FILES: u64 = 256;

/// What a step of the limits is called, by resource.
fn limit_step(resource: Resource) -> &'static str {
    match resource {
        Resource::Cpu => "limit CPU time",
        Resource::Fsize => "limit file size",
        Resource::Nofile => "limit open files",
        Resource::Core => "turn off core files",
        Resource::As => "limit memory",
        Resource::Nproc => "limit processes",
        _ => "set a limit",
    }
}

/// Sets `pid`'s limits (this process's where `None`) to `limits`.
fn set_limits(limits: &Limits, pid: Option<rustix::process::Pid>) -> Result<(), Failure> {
    for (resource, soft, hard) in each_limit(limits) {
        let limit = Rlimit {
            current: Some(soft),
            maximum: Some(hard),
        };
        prlimit(pid, resource, limit).step(limit_step(resource))?;
    }
    Ok(())
}

/// The resource limits `limits` on this process: CPU time, file size, open files, no
/// core files, and the address space and process count where no cgroup holds them.
pub fn limits(limits: &Limits) -> Result<(), Failure> {
    set_limits(limits, None)
}

/// The resource limits `limits` on a zygote's answer `pid`, set the moment it is
/// started: the zygote itself keeps working (it writes puzzle files, starts threads and
/// runs many cases), so the limits cannot be its own.
pub fn case_limits(limits: &Limits, pid: u32) -> Result<(), Failure> {
    let pid = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .ok_or_else(|| Failure {
            step: "set a limit",
            reason: format!("no such pid {pid}"),
            code: SETUP_FAILED,
        })?;
    set_limits(limits, Some(pid))
}

/// A zygote's own limits: no core file, and the answer's bound on open files (which it
/// stays far below).
pub fn zygote_limits() -> Result<(), Failure> {
    for (resource, n) in [(Resource::Core, 0), (Resource::Nofile, OPEN_FILES)] {
        let limit = Rlimit {
            current: Some(n),
            maximum: Some(n),
        };
        prlimit(None, resource, limit).step(limit_step(resource))?;
    }
    Ok(())
}

/// Closes every descriptor but 0, 1, 2 and `kept` (the helper's own status file, which
/// closes on `exec`): whatever the judge's caller left open (a secret file on fd 7, say)
/// does not reach the answer.
pub fn close_inherited_descriptors(kept: Option<i32>) -> Result<(), Failure> {
    let fds: Vec<i32> = std::fs::read_dir("/proc/self/fd")
        .step("list open descriptors")?
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .filter(|&fd| fd > 2 && Some(fd) != kept)
        .collect();
    for fd in fds {
        // The directory listing's own descriptor is already closed: EBADF is fine.
        match nix::unistd::close(fd) {
            Ok(()) | Err(nix::errno::Errno::EBADF) => {}
            Err(e) => return Err(e).step("close an inherited descriptor"),
        }
    }
    Ok(())
}

/// Signals a parent may have left ignored; `exec` keeps ignored signals ignored.
const RESETTABLE: [Signal; 20] = [
    Signal::SIGHUP,
    Signal::SIGINT,
    Signal::SIGQUIT,
    Signal::SIGTERM,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
    Signal::SIGPIPE,
    Signal::SIGALRM,
    Signal::SIGCHLD,
    Signal::SIGCONT,
    Signal::SIGTSTP,
    Signal::SIGTTIN,
    Signal::SIGTTOU,
    Signal::SIGURG,
    Signal::SIGXCPU,
    Signal::SIGXFSZ,
    Signal::SIGVTALRM,
    Signal::SIGPROF,
    Signal::SIGWINCH,
    Signal::SIGIO,
];

/// An empty signal mask, and a handler on every signal a parent may have ignored: `exec`
/// resets handled signals to their defaults (ignored ones it would keep ignored), so the
/// answer starts with default handling. Setting a disposition to the default directly
/// needs `unsafe` in nix; installing a handler through `signal-hook` does not.
pub fn reset_signal_handling() -> Result<(), Failure> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in RESETTABLE {
        signal_hook::flag::register(sig as i32, Arc::clone(&flag)).step("reset signal handling")?;
    }
    SigSet::empty()
        .thread_set_mask()
        .step("clear the signal mask")
}

/// The seccomp filter ([`filter::program`]), built: `sysv_ipc` also refuses System V IPC,
/// for a run with no IPC namespace.
pub fn seccomp_program(sysv_ipc: bool) -> Result<seccompiler::BpfProgram, Failure> {
    filter::program(sysv_ipc).map_err(|reason| Failure {
        step: "build the seccomp filter",
        reason,
        code: SETUP_FAILED,
    })
}

/// Installs the seccomp filter (after `no_new_privs`) on the calling thread: see
/// [`seccomp_program`].
pub fn seccomp(sysv_ipc: bool) -> Result<(), Failure> {
    let program = seccomp_program(sysv_ipc)?;
    seccompiler::apply_filter(&program).step("install the seccomp filter")
}

/// Restricts this process and what it starts with Landlock: `read` paths readable and
/// runnable, `write` paths writable too, nothing else of the file system; no signal to
/// and no abstract socket of any process outside. Returns whether the kernel enforces it
/// fully.
pub fn landlock(read: &[PathBuf], write: &[PathBuf]) -> Result<bool, Failure> {
    use landlock::{
        ABI, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
        path_beneath_rules,
    };
    let abi = ABI::V6;
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(read, AccessFs::from_read(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules(write, AccessFs::from_all(abi))))
        .and_then(|r| r.restrict_self())
        .step("restrict file access (Landlock)")?;
    Ok(status.ruleset == RulesetStatus::FullyEnforced)
}

/// Joins the case's cgroup directories `dirs` (none where the process was born in them).
pub fn join_cgroups(dirs: &[PathBuf]) -> Result<(), Failure> {
    let me = std::process::id().to_string();
    for dir in dirs {
        std::fs::write(dir.join("cgroup.procs"), &me).step("join the case's cgroup")?;
    }
    Ok(())
}

/// Takes the case's own user and group id `uid`, with no supplementary group, or keeps
/// the judge's (`None`).
pub fn take_case_user(uid: Option<u32>) -> Result<(), Failure> {
    let Some(id) = uid else {
        return Ok(());
    };
    setgroups(&[]).step("drop supplementary groups")?;
    setresgid(Gid::from_raw(id), Gid::from_raw(id), Gid::from_raw(id))
        .step("take the case's group id")?;
    setresuid(Uid::from_raw(id), Uid::from_raw(id), Uid::from_raw(id))
        .step("take the case's user id")
}

/// The paths `read` allows with every mask cut out, for Landlock, which can only allow:
/// a directory holding a mask is replaced by its entries (down to the mask), the mask left
/// out.
pub fn without_masks(read: &[PathBuf], masks: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = read.to_vec();
    while let Some(p) = todo.pop() {
        if masks.iter().any(|m| p.starts_with(m)) {
            continue;
        }
        let holds_mask = masks.iter().any(|m| m.starts_with(&p));
        match std::fs::read_dir(&p) {
            Ok(entries) if holds_mask && p.is_dir() => {
                todo.extend(entries.flatten().map(|e| e.path()));
            }
            _ => out.push(p),
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landlock_allows_everything_around_a_mask_but_the_mask() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).expect("mkdir");
        std::fs::write(root.join("a/b/secret"), "x").expect("write");
        std::fs::write(root.join("a/b/open"), "x").expect("write");
        std::fs::write(root.join("a/c"), "x").expect("write");
        let allowed = without_masks(&[root.to_path_buf()], &[root.join("a/b/secret")]);
        assert_eq!(allowed, vec![root.join("a/b/open"), root.join("a/c")]);
    }
}
