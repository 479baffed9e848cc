//! The jail, in the manner of bubblewrap and isolate, in two helper processes:
//!
//! - **outer** (in the judge's namespaces): joins the case's cgroups; when the judge is not
//!   root, makes a user namespace mapping only the judge's own uid, and keeps its
//!   capabilities there ambient; then makes fresh mount, pid, network, IPC, UTS and cgroup
//!   namespaces and starts `init` in them, waits, and ends the way it ended.
//! - **init** (pid 1 of the new pid namespace): builds a minimal root on a fresh tmpfs
//!   (the system directories and the layout's paths bound read-only, each opened anew by
//!   descriptor and checked as the case's user before it is mounted, the masks, a private
//!   size-bounded `/tmp` with the answer's directory, a fresh `/proc`, a `/dev` of five
//!   devices), `pivot_root`s into it and makes every mount read-only but `/tmp`, `/dev` and
//!   `/proc`; under root takes the case's own uid; then makes one more user and mount
//!   namespace, so the kernel locks every mount (no `umount`, no remount read-write, even
//!   with capabilities), gives up every capability, sets the limits, closes inherited
//!   descriptors, installs the seccomp filter and `exec`s the answer, which is then pid 1:
//!   when it ends, the kernel kills every process it left.

use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::signal::{SigSet, Signal};
use nix::sys::statvfs::{FsFlags, statvfs};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getegid, geteuid, pivot_root};

use super::confine;
use super::layout::SYSTEM;
use super::reach::{self, Reader};
use super::spec::{Bound, INPUT_NAME, Role, Spec};
use super::step::{
    CANNOT_START, Failure, SETUP_FAILED, Step, go, judge_alive, relay, stop_signals,
};

/// The devices the answer gets in `/dev`.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// The jail's host name.
const HOSTNAME: &str = "beast";

/// The namespaces `init` is started in (the cgroup namespace it makes itself, once in its
/// cgroup, or the outer process does).
const NAMESPACES: CloneFlags = CloneFlags::CLONE_NEWNS
    .union(CloneFlags::CLONE_NEWPID)
    .union(CloneFlags::CLONE_NEWNET)
    .union(CloneFlags::CLONE_NEWIPC)
    .union(CloneFlags::CLONE_NEWUTS);

/// Moves the calling thread (of the judge, under root; it must start one process and then
/// end) into fresh namespaces and the network namespace `network`, so that the `init` it
/// starts is pid 1 of its own.
pub fn namespaces_for_init(network: &std::fs::File) -> nix::Result<()> {
    unshare(NAMESPACES.difference(CloneFlags::CLONE_NEWNET))?;
    nix::sched::setns(network, CloneFlags::CLONE_NEWNET)
}

/// The outer process: cgroups, namespaces, then `init`, whose end it passes on.
pub fn outer(spec: &Spec) -> Result<u8, Failure> {
    // Told to stop, by the judge or by its death, this process kills the jail's pid 1 (an
    // answer can clear its own parent-death signal, not this one's).
    let waited = stop_signals();
    waited.thread_block().step("block signals")?;
    prctl::set_pdeathsig(Signal::SIGTERM).step("set the parent-death signal")?;
    if !judge_alive(spec.judge_pid) {
        return Ok(SETUP_FAILED);
    }
    confine::join_cgroups(spec)?;
    if !geteuid().is_root() {
        own_user_namespace(spec)?;
    }
    unshare(NAMESPACES | CloneFlags::CLONE_NEWCGROUP).step("make the namespaces")?;
    let exe = std::env::current_exe().step("find the judge's binary")?;
    // The outer process has joined the cgroups for both.
    let init = Spec {
        cgroup: Vec::new(),
        ..spec.with_role(Role::Init)
    };
    let child = init.command(&exe).spawn().step("start the jail's init")?;
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let ended = wait_for(pid, &waited);
    if ended.is_none() {
        // Killing pid 1 of a pid namespace ends every process in it.
        let _ = nix::sys::signal::kill(pid, Signal::SIGKILL);
        let _ = waitpid(pid, None);
    }
    Ok(relay(ended))
}

/// The warden of a check (root): waits until the judge is gone, then kills every process
/// left in the check's cgroups and removes them. It is started once a check, in its own
/// process group (a Ctrl-C at the terminal is for the judge), and told by its
/// parent-death signal.
pub fn warden(spec: &Spec) -> Result<u8, Failure> {
    let waited = stop_signals();
    waited.thread_block().step("block signals")?;
    prctl::set_pdeathsig(Signal::SIGTERM).step("set the parent-death signal")?;
    while judge_alive(spec.judge_pid) {
        match waited.wait() {
            Ok(Signal::SIGCHLD) => {}
            _ => break,
        }
    }
    for base in &spec.cgroup {
        super::cgroup::empty_and_remove(base);
    }
    Ok(0)
}

/// A user namespace in which the judge's own uid and gid are mapped (to themselves), and
/// the case's subordinate id when it has one (`--uid`: mapped by the system's set-uid
/// mappers, see [`super::subordinate`]), with every capability kept ambient for `init`.
fn own_user_namespace(spec: &Spec) -> Result<(), Failure> {
    let (uid, gid) = (geteuid().as_raw(), getegid().as_raw());
    let mapper = match spec.uid {
        Some(_) => Some(super::subordinate::Mapper::start(spec)?),
        None => None,
    };
    unshare(CloneFlags::CLONE_NEWUSER).step("make a user namespace")?;
    match mapper {
        Some(m) => m.finish()?,
        None => map_own_ids(uid, gid)?,
    }
    confine::keep_capabilities_across_exec()
}

/// Maps `uid` and `gid` to themselves in the user namespace just made (the one mapping an
/// unprivileged process may write), with `setgroups` denied as the kernel requires.
fn map_own_ids(uid: u32, gid: u32) -> Result<(), Failure> {
    std::fs::write("/proc/self/setgroups", "deny").step("deny setgroups")?;
    std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1\n")).step("map the user id")?;
    std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1\n")).step("map the group id")
}

/// Waits until `pid` ends (its status) or this process is told to stop (`None`).
fn wait_for(pid: Pid, waited: &SigSet) -> Option<WaitStatus> {
    loop {
        match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => {}
            Ok(status) => return Some(status),
            Err(_) => return None,
        }
        match waited.wait() {
            Ok(Signal::SIGCHLD) | Err(_) => {}
            Ok(_) => return None,
        }
    }
}

/// pid 1 of the jail: the minimal root, the case's uid, locked mounts, no privilege, then
/// the answer. Returns only on failure, or when the judge lets go of a jail started ahead.
/// `status` is the descriptor of the helper's status file, kept open until the `exec`.
pub fn init(spec: &Spec, status: Option<i32>) -> Result<(), Failure> {
    prctl::set_pdeathsig(Signal::SIGKILL).step("set the parent-death signal")?;
    confine::join_cgroups(spec)?;
    if geteuid().is_root() {
        // Started by the judge itself: the cgroup namespace is made here, in the cgroup.
        unshare(CloneFlags::CLONE_NEWCGROUP).step("make a cgroup namespace")?;
    }
    let input = match &spec.input_file {
        Some(path) => Some(std::fs::read(path).step("read the puzzle file")?),
        None => None,
    };
    let root = spec.root_dir.as_deref().ok_or_else(|| Failure {
        step: "build the root",
        reason: "no --root-dir".to_string(),
        code: SETUP_FAILED,
    })?;
    build_root(spec, root, input.as_deref())?;
    nix::unistd::sethostname(HOSTNAME).step("name the host")?;
    enter_root(root)?;
    read_only_but_scratch()?;
    confine::take_case_user(spec)?;
    // A change of user makes a process undumpable, and its /proc/self files root's:
    // make them its own again, to write its id maps.
    prctl::set_dumpable(true).step("own /proc/self")?;
    lock_mounts()?;
    confine::drop_every_capability()?;
    confine::limits(spec)?;
    confine::close_inherited_descriptors(status)?;
    confine::reset_signal_handling()?;
    // Changing credentials clears the parent-death signal: set it once more, last.
    prctl::set_pdeathsig(Signal::SIGKILL).step("set the parent-death signal")?;
    confine::seccomp(false)?;
    if spec.await_go && !go() {
        // The judge let go of this jail without using it.
        return Ok(());
    }
    let err = Command::new(&spec.command[0])
        .args(&spec.command[1..])
        .current_dir(&spec.workdir)
        .exec();
    Err(Failure {
        step: "start the answer",
        reason: format!("{}: {err}", spec.command[0].to_string_lossy()),
        code: CANNOT_START,
    })
}

/// `root` joined with an absolute path.
fn under(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// The minimal root on a fresh tmpfs at `root`.
fn build_root(spec: &Spec, root: &Path, input: Option<&[u8]>) -> Result<(), Failure> {
    let none: Option<&str> = None;
    mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none)
        .step("make mounts private")?;
    let quiet = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    tmpfs(root, quiet, "size=1m,mode=0755")?;
    for dir in SYSTEM {
        system_dir(Path::new(dir), root)?;
    }
    devices(root, spec.tmp_size)?;
    let proc_dir = under(root, Path::new("/proc"));
    std::fs::create_dir(&proc_dir).step("make /proc")?;
    mount(
        Some("proc"),
        &proc_dir,
        Some("proc"),
        quiet | MsFlags::MS_NOEXEC,
        none,
    )
    .step("mount a fresh /proc")?;
    let tmp = under(root, Path::new("/tmp"));
    std::fs::create_dir(&tmp).step("make /tmp")?;
    tmpfs(&tmp, quiet, &format!("size={},mode=1777", spec.tmp_size))?;
    let var = under(root, Path::new("/var"));
    std::fs::create_dir(&var).step("make /var")?;
    // Relative: until `pivot_root` an absolute link leads to the host's `/tmp`, and the
    // place of a bound path under `/var/tmp` would be made there, on the host, as root.
    std::os::unix::fs::symlink("../tmp", var.join("tmp")).step("make /var/tmp")?;
    home(spec, root, input)?;
    for bound in &spec.ro {
        let source = open_bound(bound, spec.uid)?;
        bind_descriptor(&source, &under(root, &bound.at))?;
    }
    for path in &spec.mask {
        mask(&under(root, path))?;
    }
    Ok(())
}

/// A tmpfs at `dir`.
fn tmpfs(dir: &Path, flags: MsFlags, options: &str) -> Result<(), Failure> {
    mount(Some("tmpfs"), dir, Some("tmpfs"), flags, Some(options)).step("mount a tmpfs")
}

/// A system directory in the new root: the same symlink where it is one (`/bin` ->
/// `usr/bin`), else bound read-only.
fn system_dir(dir: &Path, root: &Path) -> Result<(), Failure> {
    let Ok(meta) = dir.symlink_metadata() else {
        return Ok(());
    };
    let dest = under(root, dir);
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(dir).step("read a system link")?;
        return std::os::unix::fs::symlink(target, dest).step("make a system link");
    }
    bind_read_only(dir, &dest)
}

/// `/dev` with only the five harmless devices, the `fd` links, and a private `/dev/shm`.
fn devices(root: &Path, shm_size: u64) -> Result<(), Failure> {
    let dev = under(root, Path::new("/dev"));
    std::fs::create_dir(&dev).step("make /dev")?;
    tmpfs(
        &dev,
        MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        "size=64k,mode=0755",
    )?;
    let none: Option<&str> = None;
    for name in DEVICES {
        let dest = dev.join(name);
        std::fs::File::create(&dest).step("make a device's place")?;
        let source = Path::new("/dev").join(name);
        mount(Some(&source), &dest, none, MsFlags::MS_BIND, none).step("bind a device")?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(link)).step("make a /dev link")?;
    }
    let shm = dev.join("shm");
    std::fs::create_dir(&shm).step("make /dev/shm")?;
    tmpfs(
        &shm,
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        &format!("size={shm_size},mode=1777"),
    )
}

/// The answer's private directory, with the puzzle file in it, owned by the case's user.
fn home(spec: &Spec, root: &Path, input: Option<&[u8]>) -> Result<(), Failure> {
    let dir = under(root, &spec.workdir);
    std::fs::create_dir_all(&dir).step("make the private directory")?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
        .step("make the private directory")?;
    let file = dir.join(INPUT_NAME);
    if let Some(bytes) = input {
        std::fs::write(&file, bytes).step("write the puzzle file")?;
    }
    if let Some(id) = spec.uid {
        std::os::unix::fs::chown(&dir, Some(id), Some(id)).step("give the directory away")?;
        if input.is_some() {
            std::os::unix::fs::chown(&file, Some(id), Some(id)).step("give the puzzle away")?;
        }
    }
    Ok(())
}

/// The descriptor of a path the layout shows, opened now, through no symbolic link, and
/// checked as the case's user `uid` would reach it on the host (without one, as this
/// process: the judge's own user): a path changed since the judge decided it, or closed
/// to the case, is refused, not shown.
fn open_bound(bound: &Bound, uid: Option<u32>) -> Result<OwnedFd, Failure> {
    let reader = uid.map_or(Reader::Opener, Reader::Case);
    reach::open_as(&bound.from, reader, bound.named).map_err(|closed| Failure {
        step: "bind a path",
        reason: format!("{}: {closed}", bound.at.display()),
        code: SETUP_FAILED,
    })
}

/// Binds what `source` (an `O_PATH` descriptor) opened at `dest`, read-only: the mount is
/// made from the descriptor, so nothing done to the path since it was opened counts.
fn bind_descriptor(source: &OwnedFd, dest: &Path) -> Result<(), Failure> {
    let path = PathBuf::from(format!("/proc/self/fd/{}", source.as_raw_fd()));
    bind_at(&path, reach::is_dir(source), dest)
}

/// Binds `source` at `dest` (made as an empty directory or file), read-only.
fn bind_read_only(source: &Path, dest: &Path) -> Result<(), Failure> {
    bind_at(source, source.is_dir(), dest)
}

/// Binds `source` (a directory when `is_dir`) at `dest`, made as an empty directory or
/// file, read-only.
fn bind_at(source: &Path, is_dir: bool, dest: &Path) -> Result<(), Failure> {
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).step("make a bound path's parent")?;
    }
    if is_dir {
        std::fs::create_dir_all(dest).step("make a bound directory's place")?;
    } else if !dest.exists() {
        std::fs::File::create(dest).step("make a bound file's place")?;
    }
    let none: Option<&str> = None;
    mount(
        Some(source),
        dest,
        none,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        none,
    )
    .step("bind a path")?;
    remount_read_only(dest)
}

/// Makes the mount at `point` read-only, keeping the flags the kernel may have locked.
fn remount_read_only(point: &Path) -> Result<(), Failure> {
    let kept = statvfs(point)
        .map(|s| s.flags())
        .unwrap_or(FsFlags::empty());
    let mut flags = MsFlags::MS_REMOUNT
        | MsFlags::MS_BIND
        | MsFlags::MS_RDONLY
        | MsFlags::MS_NOSUID
        | MsFlags::MS_NODEV;
    for (has, flag) in [
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if kept.contains(has) {
            flags |= flag;
        }
    }
    let none: Option<&str> = None;
    mount(none, point, none, flags, none).step("make a path read-only")
}

/// Hides what is at `path`: an empty, closed directory over a directory, an empty file
/// over a file.
fn mask(path: &Path) -> Result<(), Failure> {
    let none: Option<&str> = None;
    if path.is_dir() {
        let flags =
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC | MsFlags::MS_RDONLY;
        tmpfs(path, flags, "size=4k,mode=000")
    } else if path.exists() {
        mount(Some("/dev/null"), path, none, MsFlags::MS_BIND, none).step("mask a file")?;
        remount_read_only(path)
    } else {
        Ok(())
    }
}

/// `pivot_root` into `root`, and the old root let go of.
fn enter_root(root: &Path) -> Result<(), Failure> {
    let old = root.join(".old");
    std::fs::create_dir(&old).step("make the old root's place")?;
    pivot_root(root, &old).step("pivot into the new root")?;
    std::env::set_current_dir("/").step("enter the new root")?;
    umount2("/.old", MntFlags::MNT_DETACH).step("let go of the old root")?;
    std::fs::remove_dir("/.old").step("remove the old root's place")
}

/// Every mount read-only but the scratch ones (`/tmp`, `/dev`, `/dev/shm`, `/proc`):
/// submounts of the bound directories too.
fn read_only_but_scratch() -> Result<(), Failure> {
    let table = std::fs::read_to_string("/proc/self/mountinfo").step("read the mount table")?;
    let scratch =
        |p: &Path| p.starts_with("/proc") || p.starts_with("/dev") || p.starts_with("/tmp");
    for point in table.lines().filter_map(mount_point) {
        if scratch(&point) {
            continue;
        }
        match remount_read_only(&point) {
            // A mount covered by a later one cannot be reached any more.
            Err(f) if f.reason.contains("ENOENT") => {}
            other => other?,
        }
    }
    Ok(())
}

/// The mount point of a `/proc/self/mountinfo` line (field 5, with `\040`-style escapes).
fn mount_point(line: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let raw = line.split(' ').nth(4)?;
    let mut bytes = Vec::with_capacity(raw.len());
    let mut rest = raw.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        let octal = tail
            .get(..3)
            .filter(|d| b == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match octal.and_then(|d| u8::from_str_radix(std::str::from_utf8(d).ok()?, 8).ok()) {
            Some(c) => {
                bytes.push(c);
                rest = &tail[3..];
            }
            None => {
                bytes.push(b);
                rest = tail;
            }
        }
    }
    Some(PathBuf::from(OsString::from_vec(bytes)))
}

/// One more user namespace and mount namespace: the mount table is copied into a less
/// privileged namespace, so the kernel locks every mount in it together (no `umount` that
/// would show what is below, no remount that clears read-only), whatever capabilities
/// the process might ever get back inside.
fn lock_mounts() -> Result<(), Failure> {
    let (uid, gid) = (geteuid().as_raw(), getegid().as_raw());
    unshare(CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNS).step("lock the mounts")?;
    map_own_ids(uid, gid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_points_are_read_with_their_escapes() {
        let line = "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 - ext3 /dev/root rw";
        assert_eq!(mount_point(line), Some(PathBuf::from("/mnt two")));
    }
}
