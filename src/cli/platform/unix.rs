//! The Unix side of [`super`]: process groups, signals, file modes and owners, `flock`.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus};

use nix::fcntl::{Flock, FlockArg};
pub use nix::sys::signal::Signal;
use nix::sys::signal::{SigSet, kill, killpg};
pub use nix::unistd::Pid;

/// What `--sandbox none` contains a candidate in, for the report's first line.
pub const CONTAINMENT: &str = "a process group, the timeout and the output cap";

/// Starts the command in a process group of its own, so that [`Trees::kill`] ends it
/// with everything it started (that stays in the group).
pub fn own_group(cmd: &mut Command) {
    cmd.process_group(0);
}

/// The process trees of the candidates running now. On Unix a tree is its process
/// group, whose id is the candidate's: nothing to record.
#[derive(Clone, Debug, Default)]
pub struct Trees;

impl Trees {
    /// Takes hold of a started candidate's tree (its group exists already).
    pub fn hold(&self, _child: &Child) -> io::Result<()> {
        Ok(())
    }

    /// Kills the tree of candidate `id`: SIGKILL to its process group (gone already is
    /// fine).
    pub fn kill(&self, id: i32) {
        let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
    }
}

/// Sends `sig` to a sandbox helper, first waking it (a keeper the answer stopped with
/// `kill -STOP -1` must wake to hear it). Gone already is fine.
pub fn signal_helper(id: i32, sig: Signal) {
    let _ = kill(Pid::from_raw(id), Signal::SIGCONT);
    let _ = kill(Pid::from_raw(id), sig);
}

/// Kills one process and reaps it if it is a child of this one.
pub fn kill_and_reap(pid: Pid) {
    let _ = kill(pid, Signal::SIGKILL);
    let _ = nix::sys::wait::waitpid(pid, None);
}

/// Kills one process (SIGKILL; gone already is fine).
pub fn kill_process(pid: i32) {
    let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
}

/// The signal that ended a process, if one did.
pub fn signal_of(status: &ExitStatus) -> Option<i32> {
    status.signal()
}

/// True when `sig` is the one the CPU-time limit sends (SIGXCPU): a timeout.
pub fn is_cpu_limit(sig: i32) -> bool {
    sig == Signal::SIGXCPU as i32
}

/// The status a run gets when its own cannot be read: killed by SIGKILL.
pub fn unreadable_status() -> ExitStatus {
    ExitStatus::from_raw(Signal::SIGKILL as i32)
}

/// True when starting a process failed because an argument is too long (E2BIG).
pub fn argument_too_long(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::ArgumentListTooLong
}

/// Bytes as an OS string, as they are (Unix arguments are bytes).
pub fn os_string(bytes: Vec<u8>) -> OsString {
    OsString::from_vec(bytes)
}

/// Lets others cross the directory but not list it (mode 0711).
pub fn crossable_only(dir: &Path) -> io::Result<()> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o711))
}

/// Gives a file to a user and group of the same id.
pub fn chown(path: &Path, id: u32) -> io::Result<()> {
    std::os::unix::fs::chown(path, Some(id), Some(id))
}

/// True when the file may be run by someone (an execute bit is set).
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    meta.permissions().mode() & 0o111 != 0
}

/// True when `path` is a file a command can name as its program.
pub fn is_program(path: &Path) -> bool {
    path.is_file()
}

/// Opens `path` for reading without blocking: a FIFO with no writer or a terminal does not
/// hold the open (read it only once its metadata says it is a regular file).
pub fn open_without_blocking(path: &Path) -> io::Result<File> {
    use nix::fcntl::OFlag;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits())
        .open(path)
}

/// How the read gate opens a file beneath a directory: for reading, without blocking (a
/// FIFO with no writer does not hold the open) and never as the controlling terminal.
pub fn gate_read_options() -> cap_std::fs::OpenOptions {
    use cap_std::fs::OpenOptionsExt;
    use nix::fcntl::OFlag;
    let mut options = cap_std::fs::OpenOptions::new();
    options
        .read(true)
        .custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits());
    options
}

/// True for a file the kernel makes up as it is read (`/proc`, `/sys`): its size says 0
/// whatever it holds (`/proc/self/environ`), so it is no file of anyone's to judge.
pub fn kernel_file(file: &File) -> bool {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::statfs::{PROC_SUPER_MAGIC, SYSFS_MAGIC, fstatfs};
        fstatfs(file).is_ok_and(|s| [PROC_SUPER_MAGIC, SYSFS_MAGIC].contains(&s.filesystem_type()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        false
    }
}

/// True when an open failed on a loop of links, or on a `/proc` magic link the read gate
/// never follows (`ELOOP`).
pub fn link_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32)
}

/// True when a user who owns nothing on the way could run `path` (a case's own uid under
/// root): every directory to it may be crossed by others, and others may run the file.
pub fn others_may_run(path: &Path) -> bool {
    let Ok(real) = path.canonicalize() else {
        return false;
    };
    let crossable = real
        .ancestors()
        .skip(1)
        .all(|d| d.metadata().is_ok_and(|m| m.mode() & 0o001 != 0));
    crossable
        && real
            .metadata()
            .is_ok_and(|m| m.is_file() && m.mode() & 0o001 != 0)
}

/// True when this process's user may run `path`.
pub fn may_run(path: &Path) -> bool {
    nix::unistd::access(path, nix::unistd::AccessFlags::X_OK).is_ok()
        && path.metadata().is_ok_and(|m| m.is_file())
}

/// True when both metadata describe one file (device and inode).
pub fn same_file_meta(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// True when this process runs as root.
pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// An exclusive lock on a file, held while the value lives.
#[derive(Debug)]
pub struct FileLock(#[allow(dead_code, reason = "held, never read")] Flock<File>);

impl FileLock {
    /// Locks `file` (`flock`, exclusive, non-blocking): `None` when another holds it.
    pub fn try_new(file: File) -> Option<FileLock> {
        Flock::lock(file, FlockArg::LockExclusiveNonblock)
            .ok()
            .map(FileLock)
    }
}

/// A file of the same descriptor as standard input, which reads a redirected file's
/// length at once.
pub fn stdin_file(stdin: &io::StdinLock) -> io::Result<File> {
    stdin.as_fd().try_clone_to_owned().map(File::from)
}

/// The signals that interrupt a check (SIGINT, SIGTERM, SIGHUP), blocked in the thread
/// that made this and every thread it starts after, and waited for one at a time.
/// Candidates start with an empty signal mask (the standard library and the sandbox
/// helper reset it).
#[derive(Debug)]
pub struct Interrupts(SigSet);

impl Interrupts {
    /// Blocks the signals in this thread; call it before starting other threads.
    pub fn block() -> io::Result<Interrupts> {
        let mut set = SigSet::empty();
        for s in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
            set.add(s);
        }
        set.thread_block()?;
        Ok(Interrupts(set))
    }

    /// Waits for the next one: its number, or `None` when waiting fails.
    pub fn wait(&self) -> Option<i32> {
        self.0.wait().ok().map(|s| s as i32)
    }
}

/// Ends this process as the signal's default action would.
pub fn die_of(sig: i32) {
    let _ = signal_hook::low_level::emulate_default_handler(sig);
}

/// One end of a child's pipe (its standard input, output or error) as a plain file, the
/// same type however the pipe was made (by `Command`, or by the judge for a jail's zygote).
pub fn pipe_end(end: impl Into<std::os::fd::OwnedFd>) -> std::fs::File {
    std::fs::File::from(end.into())
}
