//! The jail, in the manner of bubblewrap and isolate, in two helper processes started once
//! a job slot (the judge's side is [`crate::cli::sandbox::zygote`]):
//!
//! - **outer** (in the judge's namespaces): when the judge is not root, makes a user
//!   namespace mapping only the judge's own uid and the slot's subordinate one, and keeps
//!   its capabilities there ambient; then makes fresh mount, pid, network, IPC, UTS and
//!   cgroup namespaces and starts the zygote in them, waits, and ends the way it ended.
//!   Given a command, it judges that one case itself (a jail by hand, and the tests').
//! - **zygote** (pid 1 of the new pid namespace): builds a minimal root on a fresh tmpfs
//!   (the system directories and the layout's paths bound read-only, each opened anew by
//!   descriptor and checked as the case's user before it is mounted, the masks, a fresh
//!   `/proc` that shows each process only what it may trace, a `/dev` of five devices),
//!   `pivot_root`s into it and makes every mount read-only but `/tmp`, `/dev` and `/proc`;
//!   under root takes the slot's own uid; then makes one more user and mount namespace, so
//!   the kernel locks every mount (no `umount`, no remount read-write, even with
//!   capabilities). Then it serves the judge's requests, one case at a time: a thread
//!   enters the case's cgroups, makes the case's own mount, pid, IPC and cgroup
//!   namespaces with a fresh size-bounded `/tmp` (the answer's directory in it, the paths
//!   shown there bound again) and `/dev/shm`, gives up every capability for good, installs
//!   the seccomp filter and starts the answer, pid 1 of its namespace, its limits set as
//!   it starts: when it ends, the kernel kills every process it left.

use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::signal::{SigSet, Signal};
use nix::sys::statvfs::{FsFlags, statvfs};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getegid, geteuid, pivot_root};

use super::confine;
use crate::cli::sandbox::reach::{self, Reader};
use crate::cli::sandbox::spec::SYSTEM;
use crate::cli::sandbox::spec::{Bound, INPUT_NAME, Jail, Outer, Spec, Warden};
use crate::cli::sandbox::step::{
    CANNOT_START, Failure, SETUP_FAILED, Step, judge_alive, relay, stop_signals,
};
use crate::cli::sandbox::untrusted::AnswerCommand;
use crate::cli::sandbox::wire::{self, Entry, Reply, Request, RequestFds};

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

/// The outer process: cgroups, namespaces, then the zygote, pid 1 of them. With no
/// command it passes its standard input (the judge's socket) on to the zygote and ends when
/// the zygote does; with a command (a jail started by hand, or by a test) it is the judge of
/// one case itself, the command run with its own standard streams, and passes on how the
/// answer ended.
pub fn outer(spec: &Outer) -> Result<u8, Failure> {
    // Told to stop, by the judge or by its death, this process kills the jail's pid 1 (an
    // answer can clear its own parent-death signal, not this one's).
    let waited = stop_signals();
    waited.thread_block().step("block signals")?;
    prctl::set_pdeathsig(Signal::SIGTERM).step("set the parent-death signal")?;
    if !judge_alive(spec.judge_pid) {
        return Ok(SETUP_FAILED);
    }
    confine::join_cgroups(&spec.cgroup)?;
    if !geteuid().is_root() {
        own_user_namespace(spec)?;
    }
    let exe = std::env::current_exe().step("find the judge's binary")?;
    // The outer process has joined the cgroups for both.
    let mut cmd = Spec::Zygote(spec.jail.clone()).command(&exe);
    // The judge of one case talks to the zygote from a thread started before the pid
    // namespace is made (no thread can be started after it).
    let one_case = match spec.command.clone() {
        None => None,
        Some(command) => {
            let (ours, theirs) =
                std::os::unix::net::UnixStream::pair().step("make the zygote's socket")?;
            cmd.stdin(Stdio::from(OwnedFd::from(theirs)));
            Some(std::thread::spawn(move || judge_one_case(&ours, command)))
        }
    };
    unshare(NAMESPACES | CloneFlags::CLONE_NEWCGROUP).step("make the namespaces")?;
    let child = cmd.spawn().step("start the jail's zygote")?;
    // The zygote's end of the socket: it alone holds it now, so it sees the end of it.
    drop(cmd);
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let ended = wait_for(pid, &waited);
    if ended.is_none() {
        // Killing pid 1 of a pid namespace ends every process in it.
        let _ = nix::sys::signal::kill(pid, Signal::SIGKILL);
        let _ = waitpid(pid, None);
    }
    match one_case {
        Some(talk) => talk.join().unwrap_or(Ok(SETUP_FAILED)),
        None => Ok(relay(ended)),
    }
}

/// The judge of a jail started with a command: asks its zygote for that one case, with
/// this process's environment and standard streams, and passes on how the answer ended.
/// Closing the socket at the end ends the zygote.
fn judge_one_case(
    socket: &std::os::unix::net::UnixStream,
    command: AnswerCommand,
) -> Result<u8, Failure> {
    use std::os::fd::AsFd;
    if !matches!(wire::receive_reply(socket), Ok(Some(Reply::Ready))) {
        // The zygote told its own failure (its status file, or its standard error).
        return Ok(SETUP_FAILED);
    }
    let own = |fd: std::os::fd::BorrowedFd| fd.try_clone_to_owned().step("pass a stream on");
    let fds = RequestFds {
        stdin: Some(own(std::io::stdin().as_fd())?),
        stdout: own(std::io::stdout().as_fd())?,
        stderr: own(std::io::stderr().as_fd())?,
        enter: Vec::new(),
        leave: Vec::new(),
    };
    let request = Request {
        command,
        env: std::env::vars_os().collect(),
        input_file: None,
        stdin: true,
        entry: Entry::None,
        enter: 0,
    };
    wire::send_request(socket, &request, &fds).step("ask the zygote for the case")?;
    drop(fds);
    match wire::receive_reply(socket) {
        Ok(Some(Reply::Started { pid, .. })) => {
            let pid = Pid::from_raw(i32::try_from(pid).unwrap_or(i32::MAX));
            match wire::receive_reply(socket) {
                Ok(Some(Reply::Ended { status })) => {
                    Ok(relay(WaitStatus::from_raw(pid, status).ok()))
                }
                _ => Ok(SETUP_FAILED),
            }
        }
        Ok(Some(Reply::SetupFailed { step, reason })) => Err(Failure {
            step: "set the case up",
            reason: format!("{step}: {reason}"),
            code: SETUP_FAILED,
        }),
        Ok(Some(Reply::CannotStart { reason })) => Err(Failure {
            step: "start the answer",
            reason,
            code: CANNOT_START,
        }),
        _ => Ok(SETUP_FAILED),
    }
}

/// The warden of a check (root): waits until the judge is gone, then kills every process
/// left in the check's cgroups and removes them. It is started once a check, in its own
/// process group (a Ctrl-C at the terminal is for the judge), and told by its
/// parent-death signal.
pub fn warden(spec: &Warden) -> Result<u8, Failure> {
    let waited = stop_signals();
    waited.thread_block().step("block signals")?;
    prctl::set_pdeathsig(Signal::SIGTERM).step("set the parent-death signal")?;
    while judge_alive(spec.judge_pid) {
        match waited.wait() {
            Ok(Signal::SIGCHLD) => {}
            _ => break,
        }
    }
    for base in &spec.cgroups {
        crate::cli::sandbox::cgroup::empty_and_remove(base);
    }
    Ok(0)
}

/// A user namespace in which the judge's own uid and gid are mapped (to themselves), and
/// the case's subordinate id when it has one (`--uid`: mapped by the system's set-uid
/// mappers, see [`crate::cli::sandbox::subordinate`]), with every capability kept ambient for the zygote.
fn own_user_namespace(spec: &Outer) -> Result<(), Failure> {
    let (uid, gid) = (geteuid().as_raw(), getegid().as_raw());
    let mapper = match spec.mapping(nix::unistd::getpid().as_raw()) {
        Some(mapping) => Some(crate::cli::sandbox::subordinate::Mapper::start(mapping)?),
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

/// pid 1 of a jail that serves a slot's cases, one after another (see [`crate::cli::sandbox::zygote`]):
/// the minimal root built once, the case's user taken and the mounts locked as for one
/// case, then, for each request on standard input (the judge's socket), a thread that
/// makes the case's own mount, pid, IPC and cgroup namespaces with a fresh `/tmp` and
/// `/dev/shm`, gives up every privilege, installs the seccomp filter and starts the answer,
/// which is pid 1 of its namespace: when it ends, the kernel kills every process it left.
/// Returns when the judge closes the socket, or on failure before the first case.
pub fn zygote(spec: &Jail, status: Option<i32>) -> Result<(), Failure> {
    use std::os::fd::AsFd;
    prctl::set_pdeathsig(Signal::SIGKILL).step("set the parent-death signal")?;
    let root = spec.root_dir.as_path();
    build_root(spec, root)?;
    nix::unistd::sethostname(HOSTNAME).step("name the host")?;
    enter_root(root)?;
    read_only_but_scratch()?;
    confine::take_case_user(spec.answer.uid)?;
    prctl::set_dumpable(true).step("own /proc/self")?;
    lock_mounts()?;
    // Each answer runs as this process's user: it must not trace it or read its memory.
    prctl::set_dumpable(false).step("make the zygote undumpable")?;
    prctl::set_pdeathsig(Signal::SIGKILL).step("set the parent-death signal")?;
    confine::zygote_limits()?;
    confine::close_inherited_descriptors(status)?;
    confine::reset_signal_handling()?;
    let filter = confine::seccomp_program(false)?;
    let socket = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map(std::os::unix::net::UnixStream::from)
        .step("take the judge's socket")?;
    wire::send_reply(&socket, &Reply::Ready).step("tell the judge it is ready")?;
    while let Ok(Some((request, fds))) = wire::receive_request(&socket) {
        if serve(spec, &filter, &socket, &request, fds).is_err() {
            break;
        }
    }
    Ok(())
}

/// Why a case of the zygote did not start.
enum NotStarted {
    /// A step of the set-up failed: the judge's failure.
    SetUpFailure(Failure),
    /// The answer's command could not be started.
    Command(String),
}

impl NotStarted {
    /// What the judge is told.
    fn reply(self) -> Reply {
        match self {
            NotStarted::SetUpFailure(f) => Reply::SetupFailed {
                step: f.step.to_string(),
                reason: f.reason,
            },
            NotStarted::Command(reason) => Reply::CannotStart { reason },
        }
    }
}

/// The answer's three standard streams, from the judge.
struct Streams {
    stdin: Option<OwnedFd>,
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// One case of the zygote: the answer started, its pidfd and then its end told to the
/// judge. An error is the socket's: the judge is gone.
fn serve(
    spec: &Jail,
    filter: &seccompiler::BpfProgram,
    socket: &std::os::unix::net::UnixStream,
    request: &Request,
    fds: RequestFds,
) -> std::io::Result<()> {
    let RequestFds {
        stdin,
        stdout,
        stderr,
        enter,
        leave,
    } = fds;
    let streams = Streams {
        stdin,
        stdout,
        stderr,
    };
    let on_a_thread = |enter: &[OwnedFd], leave: &[OwnedFd], streams: Streams| {
        std::thread::scope(|scope| {
            scope
                .spawn(|| start_case(spec, filter, request, streams, enter, leave))
                .join()
                .unwrap_or_else(|_| Err(NotStarted::Command("the starting thread failed".into())))
        })
    };
    let started = match request.entry {
        // v2: the whole zygote enters the case's cgroup, and leaves it once it started.
        Entry::Process => {
            let entered = enter.iter().try_for_each(write_zero);
            let started = match entered.step("enter the case's cgroup") {
                Ok(()) => on_a_thread(&[], &[], streams),
                Err(f) => Err(NotStarted::SetUpFailure(f)),
            };
            for file in &leave {
                let _ = write_zero(file);
            }
            started
        }
        Entry::Thread | Entry::None => on_a_thread(&enter, &leave, streams),
    };
    let mut child = match started {
        Ok(child) => child,
        Err(not) => return wire::send_reply(socket, &not.reply()),
    };
    let limits = &spec.answer.limits;
    let reply = match confine::case_limits(limits, child.id()).and_then(|()| pidfd_of(&child)) {
        Ok(pidfd) => Reply::Started {
            pid: child.id(),
            pidfd,
        },
        Err(f) => {
            let _ = child.kill();
            let _ = child.wait();
            return wire::send_reply(socket, &NotStarted::SetUpFailure(f).reply());
        }
    };
    wire::send_reply(socket, &reply)?;
    let status = child
        .wait()
        .map(std::os::unix::process::ExitStatusExt::into_raw)
        .unwrap_or(i32::from(SETUP_FAILED) << 8);
    wire::send_reply(socket, &Reply::Ended { status })
}

/// A pidfd of `child`, for the judge to watch it end.
fn pidfd_of(child: &std::process::Child) -> Result<OwnedFd, Failure> {
    let pid = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .ok_or_else(|| Failure {
            step: "open the answer's pidfd",
            reason: format!("no such pid {}", child.id()),
            code: SETUP_FAILED,
        })?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty())
        .step("open the answer's pidfd")
}

/// Writes `0` to a cgroup file the judge opened: the writer (a thread on v1, the whole
/// process on v2) moves into that cgroup.
fn write_zero(file: &OwnedFd) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::File::from(file.try_clone()?).write_all(b"0")
}

/// On a thread of its own (which ends once the answer is started): the case's cgroups on
/// v1 (`enter`, then `leave` once started), its namespaces, a fresh `/tmp` (with the
/// answer's directory and puzzle file) and `/dev/shm`, every privilege given up, the
/// filter, then the answer.
fn start_case(
    spec: &Jail,
    filter: &seccompiler::BpfProgram,
    request: &Request,
    streams: Streams,
    enter: &[OwnedFd],
    leave: &[OwnedFd],
) -> Result<std::process::Child, NotStarted> {
    let set_up = |r: Result<(), Failure>| r.map_err(NotStarted::SetUpFailure);
    set_up(
        enter
            .iter()
            .try_for_each(write_zero)
            .step("enter the case's cgroup"),
    )?;
    let started = (|| {
        set_up(unshare(CASE_NAMESPACES).step("make the case's namespaces"))?;
        set_up(scratch(spec, request.input_file.as_deref()))?;
        set_up(confine::drop_every_capability())?;
        set_up(seccompiler::apply_filter(filter).step("install the seccomp filter"))?;
        let program = request.command.program();
        let stdin = match streams.stdin {
            Some(fd) => Stdio::from(fd),
            None => Stdio::null(),
        };
        Command::new(program)
            .args(request.command.args())
            .current_dir(&spec.answer.workdir)
            .env_clear()
            .envs(request.env.iter().map(|(k, v)| (k, v)))
            .stdin(stdin)
            .stdout(Stdio::from(streams.stdout))
            .stderr(Stdio::from(streams.stderr))
            .spawn()
            .map_err(|e| NotStarted::Command(format!("{}: {e}", program.to_string_lossy())))
    })();
    for file in leave {
        let _ = write_zero(file);
    }
    started
}

/// The namespaces each case of a zygote gets of its own (the network and UTS ones are the
/// zygote's: no interface, and a host name no answer can change).
const CASE_NAMESPACES: CloneFlags = CloneFlags::CLONE_NEWNS
    .union(CloneFlags::CLONE_NEWPID)
    .union(CloneFlags::CLONE_NEWIPC)
    .union(CloneFlags::CLONE_NEWCGROUP);

/// A fresh `/tmp` with the answer's private directory (and its puzzle file) and a fresh
/// `/dev/shm`, in the case's own mount namespace: nothing of the case before is left.
fn scratch(spec: &Jail, input: Option<&[u8]>) -> Result<(), Failure> {
    let quiet = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    let size = format!("size={},mode=1777", spec.tmp_size);
    tmpfs(Path::new("/tmp"), quiet, &size)?;
    tmpfs(Path::new("/dev/shm"), quiet, &size)?;
    let workdir = &spec.answer.workdir;
    std::fs::create_dir_all(workdir).step("make the private directory")?;
    std::fs::set_permissions(workdir, std::fs::Permissions::from_mode(0o700))
        .step("make the private directory")?;
    if let Some(bytes) = input {
        std::fs::write(workdir.join(INPUT_NAME), bytes).step("write the puzzle file")?;
    }
    // The paths shown under the scratch places, bound again (read-only, with their masks).
    for (n, bound) in stashed(spec) {
        let source = stash_place(n);
        bind_at(&source, source.is_dir(), &bound.at)?;
    }
    Ok(())
}

/// `root` joined with an absolute path.
fn under(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// The minimal root on a fresh tmpfs at `root`.
fn build_root(spec: &Jail, root: &Path) -> Result<(), Failure> {
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
    // The answers of a zygote live in pid namespaces below its own, which this `/proc`
    // shows: each sees only the processes it may trace, its own (not the zygote). A kernel
    // older than 5.8 knows no `ptraceable`; the zygote is undumpable there too.
    let proc_flags = quiet | MsFlags::MS_NOEXEC;
    mount(
        Some("proc"),
        &proc_dir,
        Some("proc"),
        proc_flags,
        Some("hidepid=ptraceable"),
    )
    .or_else(|_| mount(Some("proc"), &proc_dir, Some("proc"), proc_flags, none))
    .step("mount a fresh /proc")?;
    let tmp = under(root, Path::new("/tmp"));
    std::fs::create_dir(&tmp).step("make /tmp")?;
    tmpfs(&tmp, quiet, &format!("size={},mode=1777", spec.tmp_size))?;
    let var = under(root, Path::new("/var"));
    std::fs::create_dir(&var).step("make /var")?;
    // Relative: until `pivot_root` an absolute link leads to the host's `/tmp`, and the
    // place of a bound path under `/var/tmp` would be made there, on the host, as root.
    std::os::unix::fs::symlink("../tmp", var.join("tmp")).step("make /var/tmp")?;
    let stashed = stashed(spec);
    if !stashed.is_empty() {
        let stash = under(root, Path::new(STASH));
        std::fs::create_dir(&stash).step("make the stash")?;
        if let Some(id) = spec.answer.uid {
            std::os::unix::fs::chown(&stash, Some(id), Some(id)).step("make the stash")?;
        }
        std::fs::set_permissions(&stash, std::fs::Permissions::from_mode(0o000))
            .step("make the stash")?;
    }
    for (i, bound) in spec.answer.ro.iter().enumerate() {
        let source = open_bound(bound, spec.answer.uid)?;
        let at = match stashed.iter().find(|(n, _)| *n == i) {
            Some((n, _)) => stash_place(*n),
            None => bound.at.clone(),
        };
        bind_descriptor(&source, &under(root, &at))?;
    }
    for path in &spec.answer.mask {
        let at = stashed
            .iter()
            .find_map(|(n, b)| {
                let rest = path.strip_prefix(&b.at).ok()?;
                Some(stash_place(*n).join(rest))
            })
            .unwrap_or_else(|| path.clone());
        mask(&under(root, &at))?;
    }
    Ok(())
}

/// Where a zygote keeps the paths it shows under `/tmp` (and the other scratch places a
/// case gets afresh), to bind them again over each case's fresh `/tmp`: a directory no
/// answer may enter (mode 0 on the read-only root, so not even its owner, whose user id
/// the answers share, can open it up), which the zygote crosses by its capability.
const STASH: &str = "/.stash";

/// The place of stashed path `n`.
fn stash_place(n: usize) -> PathBuf {
    Path::new(STASH).join(n.to_string())
}

/// True for a path on a scratch file system that each case of a zygote gets afresh.
fn on_scratch(path: &Path) -> bool {
    ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .any(|s| path.starts_with(s))
}

/// The bound paths a zygote stashes (the index in `answer.ro` and the path): those on
/// scratch.
fn stashed(spec: &Jail) -> Vec<(usize, &Bound)> {
    spec.answer
        .ro
        .iter()
        .enumerate()
        .filter(|(_, b)| on_scratch(&b.at))
        .collect()
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

/// The descriptor of a path the layout shows, opened now, through no symbolic link, and
/// checked as the case's user `uid` would reach it on the host (without one, as this
/// process: the judge's own user): a path changed since the judge decided it, or closed
/// to the case, is refused, not shown.
fn open_bound(bound: &Bound, uid: Option<u32>) -> Result<OwnedFd, Failure> {
    let reader = uid.map_or(Reader::Opener, Reader::Case);
    reach::open_bound(bound, reader).map_err(|closed| Failure {
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
