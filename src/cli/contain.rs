//! `beast __contain` (hidden): the helper `beast check` starts in place of a candidate. It
//! owns everything done to the candidate's process before and after it runs: a new session,
//! no new privileges, rlimits, default signal handling, dropping root, and then either
//!
//! - `--role jail`: as pid 1 of fresh pid and mount namespaces, a private `/proc`, `/tmp`,
//!   `/var/tmp` and `/dev/shm`, the case directories and the judge's binary hidden, and
//!   `exec` of the candidate, which then is pid 1: when it ends the kernel kills every
//!   process it left; or
//! - `--role keep`: a child subreaper that starts the candidate, waits for it, kills every
//!   descendant left, and ends the way the candidate ended.
//!
//! It is a separate process because all of this needs a fresh, single-threaded process and
//! the house forbids `unsafe` (so no `pre_exec`).

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::ffi::OsString;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nix::errno::Errno;
use nix::mount::{MsFlags, mount};
use nix::sys::prctl;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Gid, Pid, Uid, getpid, getppid, setgid, setgroups, setsid, setuid};

/// The user id candidates run as under root (`nobody`).
const NOBODY: u32 = 65534;

/// The name of the puzzle file in the candidate's directory (`--input file`).
const INPUT_NAME: &str = "input.txt";

/// What the helper is.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// pid 1 of fresh namespaces; becomes the candidate.
    Jail,
    /// A subreaper that starts the candidate and cleans up after it.
    Keep,
}

/// Arguments of `beast __contain`, written by `beast check` only.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What the helper is.
    #[arg(long, value_enum)]
    pub role: Role,
    /// The judge's process id: the helper gives up when it is gone.
    #[arg(long)]
    pub judge_pid: i32,
    /// RLIMIT_AS in bytes.
    #[arg(long)]
    pub memory: Option<u64>,
    /// RLIMIT_CPU in seconds.
    #[arg(long)]
    pub cpu: u64,
    /// RLIMIT_FSIZE in bytes.
    #[arg(long)]
    pub fsize: u64,
    /// Run the candidate as `nobody` (the judge is root).
    #[arg(long)]
    pub nobody: bool,
    /// A directory to hide (jail).
    #[arg(long)]
    pub hide_dir: Vec<PathBuf>,
    /// A file to hide (jail).
    #[arg(long)]
    pub hide_file: Vec<PathBuf>,
    /// The puzzle to copy into the private directory as `input.txt` (jail).
    #[arg(long)]
    pub input_file: Option<PathBuf>,
    /// The candidate's working directory.
    #[arg(long)]
    pub workdir: PathBuf,
    /// The candidate command.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<OsString>,
}

/// Exit code when the sandbox itself cannot be set up.
const SETUP_FAILED: u8 = 125;
/// Exit code when the candidate cannot be started.
const CANNOT_START: u8 = 127;

/// A step that failed, for the one line of stderr the judge shows.
struct Failure {
    step: &'static str,
    reason: String,
    code: u8,
}

trait Step<T> {
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

/// Runs the helper. Returns only on failure (jail) or with the candidate's exit status
/// (keep), which the judge reads back.
pub fn run(args: Args) -> super::Ended {
    let result = match args.role {
        Role::Jail => jail(&args).map(|()| SETUP_FAILED),
        Role::Keep => keep(&args),
    };
    let code = result.unwrap_or_else(|f| {
        eprintln!("beast sandbox: cannot {}: {}", f.step, f.reason);
        f.code
    });
    match code {
        0 => Ok(()),
        code => Err(super::Error::Relayed(code)),
    }
}

/// pid 1 of fresh namespaces: private mounts, limits, then `exec` of the candidate.
fn jail(args: &Args) -> Result<(), Failure> {
    prctl::set_pdeathsig(Signal::SIGKILL).step("set the parent-death signal")?;
    if !judge_alive(args.judge_pid) {
        return Ok(());
    }
    let input = match &args.input_file {
        Some(path) => Some(std::fs::read(path).step("read the puzzle file")?),
        None => None,
    };
    private_mounts(args, input.as_deref())?;
    confine(args)?;
    let Err(err) = while_nobody_is_at_the_limit(|| Err::<Infallible, _>(candidate(args).exec()));
    Err(Failure {
        step: "start the candidate",
        reason: format!("{}: {err}", args.command[0].to_string_lossy()),
        code: CANNOT_START,
    })
}

/// True while the judge runs (before `/proc` is replaced, it still shows the judge).
fn judge_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
        .unwrap_or(false)
}

/// Makes every mount private, hides the case directories and the judge's binary, and puts
/// fresh tmpfs on `/tmp`, `/var/tmp` and `/dev/shm` and a fresh `/proc` of this namespace.
fn private_mounts(args: &Args, input: Option<&[u8]>) -> Result<(), Failure> {
    let none: Option<&str> = None;
    mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none)
        .step("make mounts private")?;
    let quiet = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    for dir in &args.hide_dir {
        mount(
            Some("tmpfs"),
            dir,
            Some("tmpfs"),
            quiet | MsFlags::MS_RDONLY | MsFlags::MS_NOEXEC,
            Some("size=4k,mode=0"),
        )
        .step("hide a case directory")?;
    }
    for file in &args.hide_file {
        mount(Some("/dev/null"), file, none, MsFlags::MS_BIND, none)
            .step("hide the judge's binary")?;
    }
    let env_values: Vec<OsString> = std::env::vars_os().map(|(_, v)| v).collect();
    let carried = carry_over(args.command.iter().chain(&env_values));
    for dir in PRIVATE_TMP {
        if Path::new(dir).is_dir() {
            mount(
                Some("tmpfs"),
                dir,
                Some("tmpfs"),
                quiet,
                Some("size=64m,mode=1777"),
            )
            .step("mount a private tmpfs")?;
        }
    }
    for (path, file) in &carried {
        put_back(path, file)?;
    }
    make_home(args, input)?;
    read_only_elsewhere()?;
    mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        quiet | MsFlags::MS_NOEXEC,
        none,
    )
    .step("mount a fresh /proc")
}

/// Remounts every mount of this namespace read-only but the private tmpfs, `/proc` and
/// `/dev`: the answer reads the system, its own files and the interpreters, and writes
/// only its private directories (even as root, when it runs as root).
fn read_only_elsewhere() -> Result<(), Failure> {
    let table = std::fs::read_to_string("/proc/self/mountinfo").step("read the mount table")?;
    for point in table.lines().filter_map(mount_point) {
        let writable = PRIVATE_TMP.contains(&point.to_str().unwrap_or_default())
            || point.starts_with("/proc")
            || point.starts_with("/dev");
        if writable {
            continue;
        }
        let flags = MsFlags::MS_REMOUNT | MsFlags::MS_BIND | MsFlags::MS_RDONLY;
        let none: Option<&str> = None;
        let kept = flags | kept_flags(&table, &point);
        match mount(none, &point, none, kept, none) {
            // A mount under a private tmpfs is covered: nothing to see there any more.
            Err(Errno::ENOENT) => {}
            other => other.step("make the system read-only")?,
        }
    }
    Ok(())
}

/// The mount point of a `/proc/self/mountinfo` line (field 5, with `\040`-style escapes).
fn mount_point(line: &str) -> Option<PathBuf> {
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
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// The per-mount flags of `point` that a read-only remount must keep (`nosuid`, `nodev`,
/// `noexec` and the access-time ones), from the last line that mounts it.
fn kept_flags(table: &str, point: &Path) -> MsFlags {
    let options = table
        .lines()
        .rfind(|l| mount_point(l).as_deref() == Some(point))
        .and_then(|l| l.split(' ').nth(5))
        .unwrap_or_default();
    options
        .split(',')
        .map(|o| match o {
            "nosuid" => MsFlags::MS_NOSUID,
            "nodev" => MsFlags::MS_NODEV,
            "noexec" => MsFlags::MS_NOEXEC,
            "noatime" => MsFlags::MS_NOATIME,
            "nodiratime" => MsFlags::MS_NODIRATIME,
            "relatime" => MsFlags::MS_RELATIME,
            _ => MsFlags::empty(),
        })
        .fold(MsFlags::empty(), |a, b| a | b)
}

/// The directories that get a fresh, private tmpfs.
const PRIVATE_TMP: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// The files the command names (the program, a script) or an environment variable passed
/// on names (`--env BEAST`), that live where a private tmpfs will cover them, opened so
/// they can be put back.
fn carry_over<'a>(named: impl Iterator<Item = &'a OsString>) -> Vec<(PathBuf, std::fs::File)> {
    named
        .map(Path::new)
        .filter(|p| p.is_absolute() && PRIVATE_TMP.iter().any(|d| p.starts_with(d)))
        .filter(|p| p.is_file())
        .filter_map(|p| Some((p.to_path_buf(), std::fs::File::open(p).ok()?)))
        .fold(
            Vec::new(),
            |mut kept: Vec<(PathBuf, std::fs::File)>, (path, file)| {
                // A file named twice (the command and `--env`) is carried once.
                if kept.iter().all(|(p, _)| *p != path) {
                    kept.push((path, file));
                }
                kept
            },
        )
}

/// Binds a carried-over file back at its path, on the fresh tmpfs (nothing else of its
/// directory comes along).
fn put_back(path: &Path, file: &std::fs::File) -> Result<(), Failure> {
    use std::os::fd::AsRawFd;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).step("recreate the command's directory")?;
    }
    // A new, empty file to bind over; never one that is there already (it could be the
    // host's file, bound by an earlier carry).
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => return Err(e).step("recreate the command's file"),
    }
    let source = format!("/proc/self/fd/{}", file.as_raw_fd());
    let none: Option<&str> = None;
    mount(Some(source.as_str()), path, none, MsFlags::MS_BIND, none).step("bind the command's file")
}

/// The candidate's directory with the puzzle file in it, owned by the candidate's user.
fn make_home(args: &Args, input: Option<&[u8]>) -> Result<(), Failure> {
    let home = &args.workdir;
    std::fs::create_dir_all(home).step("make the private directory")?;
    std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700))
        .step("make the private directory")?;
    if let Some(bytes) = input {
        std::fs::write(home.join(INPUT_NAME), bytes).step("write the puzzle file")?;
    }
    if args.nobody {
        let owner = (Some(NOBODY), Some(NOBODY));
        std::os::unix::fs::chown(home, owner.0, owner.1).step("give the directory away")?;
        if input.is_some() {
            std::os::unix::fs::chown(home.join(INPUT_NAME), owner.0, owner.1)
                .step("give the puzzle file away")?;
        }
    }
    Ok(())
}

/// What both roles do to themselves before the candidate starts: a new session, rlimits,
/// no new privileges, `nobody` under root, and default signal handling.
fn confine(args: &Args) -> Result<(), Failure> {
    // A helper started as a process group leader cannot call setsid; it has none then.
    let _ = setsid();
    limits(args)?;
    prctl::set_no_new_privs().step("set no_new_privs")?;
    if args.nobody {
        setgroups(&[]).step("drop supplementary groups")?;
        setgid(Gid::from_raw(NOBODY)).step("switch to group nobody")?;
        setuid(Uid::from_raw(NOBODY)).step("switch to user nobody")?;
    }
    // Changing the user clears the parent-death signal: set it again.
    let death = match args.role {
        Role::Jail => Signal::SIGKILL,
        Role::Keep => Signal::SIGTERM,
    };
    prctl::set_pdeathsig(death).step("set the parent-death signal")?;
    reset_signal_handling()
}

/// The resource limits: memory, CPU time, file size, open files, processes, no core files.
fn limits(args: &Args) -> Result<(), Failure> {
    let set = |r: Resource, v: u64| setrlimit(r, v, v);
    if let Some(bytes) = args.memory {
        set(Resource::RLIMIT_AS, bytes).step("limit memory")?;
    }
    setrlimit(Resource::RLIMIT_CPU, args.cpu, args.cpu + 1).step("limit CPU time")?;
    set(Resource::RLIMIT_FSIZE, args.fsize).step("limit file size")?;
    set(Resource::RLIMIT_NOFILE, 256).step("limit open files")?;
    set(Resource::RLIMIT_CORE, 0).step("turn off core files")?;
    if args.nobody {
        set(Resource::RLIMIT_NPROC, 512).step("limit processes")?;
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
/// candidate starts with default handling. Setting a disposition to the default directly
/// needs `unsafe` in nix; installing a handler through `signal-hook` does not.
fn reset_signal_handling() -> Result<(), Failure> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in RESETTABLE {
        signal_hook::flag::register(sig as i32, Arc::clone(&flag)).step("reset signal handling")?;
    }
    SigSet::empty()
        .thread_set_mask()
        .step("clear the signal mask")
}

/// The candidate's command, in its directory (the environment was set by the judge).
/// How long starting the candidate is tried again while its user is at the process limit.
const LIMIT_WAIT: Duration = Duration::from_secs(5);

/// Tries `start` again, for up to [`LIMIT_WAIT`], while it fails with `EAGAIN`: under
/// root every candidate runs as `nobody`, and `exec` refuses while `nobody` has as many
/// processes as its limit (another candidate, of this judge or of another, may hold them
/// for a moment). The judge's timeout still bounds the whole run.
fn while_nobody_is_at_the_limit<T>(mut start: impl FnMut() -> io::Result<T>) -> io::Result<T> {
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

fn candidate(args: &Args) -> Command {
    let mut cmd = Command::new(&args.command[0]);
    cmd.args(&args.command[1..]).current_dir(&args.workdir);
    cmd
}

/// The signals the keeper waits for: its child's end, and being told to stop.
fn keeper_signals() -> SigSet {
    let mut set = SigSet::empty();
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

/// A subreaper that starts the candidate, waits for it and kills every descendant.
fn keep(args: &Args) -> Result<u8, Failure> {
    prctl::set_child_subreaper(true).step("become a subreaper")?;
    confine(args)?;
    if getppid().as_raw() != args.judge_pid {
        return Ok(SETUP_FAILED);
    }
    let waited = keeper_signals();
    waited.thread_block().step("block signals")?;
    let child = while_nobody_is_at_the_limit(|| candidate(args).spawn()).map_err(|e| Failure {
        step: "start the candidate",
        reason: format!("{}: {e}", args.command[0].to_string_lossy()),
        code: CANNOT_START,
    })?;
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let ended = wait_for(pid, &waited);
    kill_descendants();
    Ok(match ended {
        Some(WaitStatus::Exited(_, code)) => u8::try_from(code).unwrap_or(1),
        Some(WaitStatus::Signaled(_, sig, _)) => {
            let _ = signal_hook::low_level::emulate_default_handler(sig as i32);
            128u8.saturating_add(sig as u8)
        }
        _ => SETUP_FAILED,
    })
}

/// Waits until the candidate ends (its status) or the keeper is told to stop (`None`).
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

/// Every process below `root`, from the parent links in `/proc`.
fn descendants(root: Pid) -> Vec<Pid> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some(ppid) = parent_of(pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut todo = vec![root.as_raw()];
    while let Some(p) = todo.pop() {
        for &c in children.get(&p).into_iter().flatten() {
            if seen.insert(c) {
                found.push(Pid::from_raw(c));
                todo.push(c);
            }
        }
    }
    found
}

/// The parent of `pid`, from `/proc/PID/stat`.
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split(' ').nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_of_this_process_is_read_from_proc() {
        let me = std::process::id() as i32;
        assert_eq!(parent_of(me), Some(getppid().as_raw()));
    }

    #[test]
    fn a_spawned_child_is_a_descendant() {
        let mut child = Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let pid = child.id() as i32;
        let found = descendants(getpid());
        let _ = child.kill();
        let _ = child.wait();
        assert!(found.contains(&Pid::from_raw(pid)), "{found:?}");
    }
}
