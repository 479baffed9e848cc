//! The Windows side of [`super`]: a Job Object per candidate, Ctrl-C and Ctrl-Break, and
//! stand-ins for what only the Unix sandbox helpers use (Windows runs none of them).

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::windows::io::{AsHandle, AsRawHandle};
use std::os::windows::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use win32job::{ExtendedLimitInfo, Job};

/// What `--sandbox none` contains a candidate in, for the report's first line.
pub const CONTAINMENT: &str =
    "a Job Object per case (its process tree ended with the case), the timeout and the output cap";

/// `CREATE_NEW_PROCESS_GROUP`: the console's Ctrl-C reaches the judge, not the candidate,
/// which the judge then ends with its tree.
const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;

/// A process id (Windows has them too; nothing signals one here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pid(i32);

impl Pid {
    /// The id as a number.
    pub fn from_raw(pid: i32) -> Pid {
        Pid(pid)
    }

    /// The number.
    pub fn as_raw(self) -> i32 {
        self.0
    }

    /// This process.
    pub fn this() -> Pid {
        Pid(i32::try_from(std::process::id()).unwrap_or(i32::MAX))
    }
}

/// What the judge asks of a Unix sandbox helper. Windows has no signals and runs no
/// helper, so neither is ever sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::upper_case_acronyms,
    reason = "the names Unix gives them, which shared code uses"
)]
pub enum Signal {
    /// Stop and kill what you hold.
    SIGTERM,
}

/// Starts the command in a console process group of its own, so that Ctrl-C reaches the
/// judge alone.
pub fn own_group(cmd: &mut Command) {
    cmd.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// The process trees of the candidates running now: a Job Object each, made with
/// kill-on-close, so that closing it (here, or by the system when the judge ends, however
/// it ends) kills every process in it. A process joins the job of the one that starts it.
#[derive(Clone, Debug, Default)]
pub struct Trees(Arc<Mutex<HashMap<i32, Job>>>);

impl Trees {
    /// Puts a candidate just started into a fresh job. A process it starts before this
    /// (in its first instant) is not in the job.
    pub fn hold(&self, child: &Child) -> io::Result<()> {
        let mut info = ExtendedLimitInfo::new();
        info.limit_kill_on_job_close();
        let job = Job::create_with_limit_info(&info).map_err(io::Error::other)?;
        job.assign_process(child.as_raw_handle() as isize)
            .map_err(io::Error::other)?;
        let id = i32::try_from(child.id()).unwrap_or(i32::MAX);
        self.0
            .lock()
            .map_err(|_| io::Error::other("the list of jobs is poisoned"))?
            .insert(id, job);
        Ok(())
    }

    /// Kills the tree of candidate `id`: closes its job (gone already is fine).
    pub fn kill(&self, id: i32) {
        let job = self.0.lock().ok().and_then(|mut jobs| jobs.remove(&id));
        drop(job);
    }
}

/// No helper runs on Windows: nothing to signal.
pub fn signal_helper(_id: i32, _sig: Signal) {}

/// No helper runs on Windows, so no orphan comes to the judge: nothing to do.
pub fn kill_and_reap(_pid: Pid) {}

/// Only the cgroups of Linux list processes to kill: nothing to do.
pub fn kill_process(_pid: i32) {}

/// No signal ends a process on Windows.
pub fn signal_of(_status: &ExitStatus) -> Option<i32> {
    None
}

/// No CPU-time limit signals on Windows.
pub fn is_cpu_limit(_sig: i32) -> bool {
    false
}

/// The status a run gets when its own cannot be read: exit code 1.
pub fn unreadable_status() -> ExitStatus {
    ExitStatus::from_raw(1)
}

/// True when starting a process failed because its command line is too long
/// (`ERROR_FILENAME_EXCED_RANGE`, the system's 32,767 characters).
pub fn argument_too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(206) || e.kind() == io::ErrorKind::ArgumentListTooLong
}

/// Bytes as an OS string: Windows arguments are UTF-16, so bytes that are not UTF-8 are
/// replaced (a puzzle is ASCII).
pub fn os_string(bytes: Vec<u8>) -> OsString {
    match String::from_utf8(bytes) {
        Ok(s) => s.into(),
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned().into(),
    }
}

/// Nothing to do: the directory is in the user's own temporary directory, which others
/// cannot open.
pub fn crossable_only(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Files have no Unix owner on Windows (only the Unix sandbox hands out user ids).
pub fn chown(_path: &Path, _id: u32) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "Windows files have no Unix owner",
    ))
}

/// True for every file: Windows has no execute bit.
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    meta.is_file()
}

/// True when `path` is a file a command can name as its program: as it is, or with
/// `.exe` added when it has no extension (as the system adds it when it starts one).
pub fn is_program(path: &Path) -> bool {
    path.is_file() || (path.extension().is_none() && path.with_extension("exe").is_file())
}

/// Metadata alone cannot tell one file on Windows (its file index is unstable in the
/// standard library): false, and callers compare contents or paths instead.
pub fn same_file_meta(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    false
}

/// Opens `path` for reading (Windows has no FIFO that blocks an open).
pub fn open_without_blocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// How the read gate opens a file beneath a directory: for reading (Windows has no FIFO
/// that blocks an open).
pub fn gate_read_options() -> cap_std::fs::OpenOptions {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    options
}

/// Windows has no file system the kernel makes up as it is read: false.
pub fn kernel_file(_file: &File) -> bool {
    false
}

/// True when an open failed on a loop of links.
pub fn link_loop(e: &io::Error) -> bool {
    // ERROR_CANT_RESOLVE_FILENAME
    e.raw_os_error() == Some(1921)
}

/// True when another user could run `path` (no jail runs answers as another user here).
pub fn others_may_run(path: &Path) -> bool {
    path.is_file()
}

/// True when this process's user may run `path`.
pub fn may_run(path: &Path) -> bool {
    path.is_file()
}

/// Windows has no root (and the judge hands out no user ids there).
pub fn is_root() -> bool {
    false
}

/// A lock on a file; Windows never takes one (only the Unix sandbox's user ids are
/// locked).
#[derive(Debug)]
pub struct FileLock;

impl FileLock {
    /// `None`: no lock is taken on Windows.
    pub fn try_new(_file: File) -> Option<FileLock> {
        None
    }
}

/// A file of the same handle as standard input, which reads a redirected file's length
/// at once.
pub fn stdin_file(stdin: &io::StdinLock) -> io::Result<File> {
    stdin.as_handle().try_clone_to_owned().map(File::from)
}

/// Ctrl-C and Ctrl-Break, noted by a handler and waited for one at a time.
#[derive(Debug)]
pub struct Interrupts(Arc<AtomicUsize>);

impl Interrupts {
    /// Installs the handlers.
    pub fn block() -> io::Result<Interrupts> {
        let got = Arc::new(AtomicUsize::new(0));
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGBREAK] {
            let number = usize::try_from(sig).unwrap_or(0);
            signal_hook::flag::register_usize(sig, Arc::clone(&got), number)?;
        }
        Ok(Interrupts(got))
    }

    /// Waits for the next one (checked every 20 ms): its number.
    pub fn wait(&self) -> Option<i32> {
        loop {
            match self.0.swap(0, Ordering::SeqCst) {
                0 => std::thread::sleep(Duration::from_millis(20)),
                sig => return Some(i32::try_from(sig).unwrap_or(0)),
            }
        }
    }
}

/// Ends this process at once, with exit code 128 + the signal (as on Unix).
pub fn die_of(sig: i32) {
    std::process::exit(128 + sig);
}

/// One end of a child's pipe (its standard input, output or error) as a plain file, the
/// same type however the pipe was made.
pub fn pipe_end(end: impl Into<std::os::windows::io::OwnedHandle>) -> std::fs::File {
    std::fs::File::from(end.into())
}
