//! A cgroup per case for memory and processes: cgroup v2 where the `memory` and `pids`
//! controllers can be had in a subtree this process may write, else the v1 `memory` and
//! `pids` hierarchies (as on a machine with only those writable). A case's cgroup bounds
//! its resident memory (tmpfs and shared memory included) and its process count; the
//! kernel's OOM kill inside it is the MLE verdict; its peak is measured; and killing every
//! pid it lists ends the case whatever the answer did to its keeper.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use crate::cli::platform;

/// One controller's directory of this check (`.../beast-PID`), and how it is spoken to.
#[derive(Debug)]
struct Controller {
    base: PathBuf,
    v2: bool,
}

/// The cgroups of one check: a directory per controller under this process's own cgroup,
/// removed when the check ends; each case gets a child of it.
#[derive(Debug)]
pub struct Cgroups {
    memory: Option<Controller>,
    pids: Option<Controller>,
    next: AtomicU64,
}

/// What can be had, and why the rest cannot.
#[derive(Debug)]
pub struct Found {
    /// The check's cgroups, if any controller could be had.
    pub cgroups: Option<Cgroups>,
    /// Why the memory controller cannot be used, when it cannot.
    pub no_memory: Option<String>,
    /// Why the pids controller cannot be used, when it cannot.
    pub no_pids: Option<String>,
}

/// The cgroups of one case; every process left in them is killed and they are removed
/// when this is dropped.
#[derive(Debug)]
pub struct CaseGroup {
    memory: Option<(PathBuf, bool)>,
    pids: Option<(PathBuf, bool)>,
    /// Its files, opened ahead by the stock that made it (see [`Stock`]), so that a case
    /// opens nothing in the cgroup file system: each open there costs about 10 µs.
    opened: Opened,
}

/// A case cgroup's files, opened ahead (not `cgroup.procs`: on v1 an open one keeps the
/// list it first read).
#[derive(Debug, Default)]
struct Opened {
    /// Its memory peak and its OOM counter, read again after the case.
    peak: Option<File>,
    oom: Option<File>,
    /// The files a jail's zygote enters it through, and leaves through.
    #[cfg(jail)]
    entry: Option<(super::wire::Entry, Vec<File>, Vec<File>)>,
}

/// The whole of a file opened ahead, read again from its start (a cgroup file is made
/// anew when read from its start).
fn read_again(mut file: &File) -> io::Result<String> {
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(0))?;
    io::read_to_string(file)
}

/// The v1 `tasks` files through which one thread of the judge moves itself into a case's
/// cgroups and back out. A process started by that thread is then born in them: no process
/// is migrated, which on v1 waits for an RCU grace period (0 to 14 ms a case here), while a
/// thread moving itself (`0` written to `tasks`) skips that lock.
#[derive(Clone, Debug)]
pub struct ThreadEntry {
    enter: Vec<PathBuf>,
    leave: Vec<PathBuf>,
}

/// What a case's memory cgroup saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// The most memory the case held at once, in bytes.
    pub peak: Option<u64>,
    /// The kernel killed a process of the case for going over the limit.
    pub oom_killed: bool,
}

/// A line of `/proc/self/cgroup`: hierarchy id, controllers, path.
fn own_paths(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let _id = parts.next()?;
            Some((parts.next()?.to_string(), parts.next()?.to_string()))
        })
        .collect()
}

/// The mount points of cgroup file systems: (point, v2, super options).
fn mounts(mountinfo: &str) -> Vec<(PathBuf, bool, String)> {
    mountinfo
        .lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            let point = left.split(' ').nth(4)?;
            let mut r = right.split(' ');
            let fstype = r.next()?;
            let _source = r.next()?;
            let options = r.next().unwrap_or_default().to_string();
            match fstype {
                "cgroup2" => Some((PathBuf::from(point), true, options)),
                "cgroup" => Some((PathBuf::from(point), false, options)),
                _ => None,
            }
        })
        .collect()
}

/// The directory of this process's own cgroup for `controller`: (dir, v2).
fn own_dir(controller: &str, cgroup: &str, mountinfo: &str) -> Option<(PathBuf, bool)> {
    let paths = own_paths(cgroup);
    let all = mounts(mountinfo);
    let v1 = all
        .iter()
        .find(|(_, v2, opts)| !v2 && opts.split(',').any(|o| o == controller));
    if let Some((point, _, _)) = v1 {
        let path = paths
            .iter()
            .find(|(c, _)| c.split(',').any(|c| c == controller))?;
        return Some((join(point, &path.1), false));
    }
    let (point, _, _) = all.iter().find(|(_, v2, _)| *v2)?;
    let path = paths.iter().find(|(c, _)| c.is_empty())?;
    let dir = join(point, &path.1);
    let available = std::fs::read_to_string(dir.join("cgroup.controllers")).ok()?;
    available
        .split_whitespace()
        .any(|c| c == controller)
        .then_some((dir, true))
}

fn join(point: &Path, path: &str) -> PathBuf {
    point.join(path.trim_start_matches('/'))
}

/// Makes `dir/beast-PID` for one controller; the reason when it cannot.
fn make_base(controller: &str, own: Option<(PathBuf, bool)>) -> Result<Controller, String> {
    let (dir, v2) = own.ok_or_else(|| format!("no {controller} controller is mounted"))?;
    let base = dir.join(format!("beast-{}", std::process::id()));
    std::fs::create_dir(&base).map_err(|e| {
        format!(
            "cannot make a {controller} cgroup in {}: {e}",
            dir.display()
        )
    })?;
    if v2 {
        let enabled = format!("+{controller}");
        let ok = std::fs::write(base.join("cgroup.subtree_control"), &enabled);
        if let Err(e) = ok {
            let _ = std::fs::remove_dir(&base);
            return Err(format!(
                "cannot delegate {controller} below {}: {e}",
                base.display()
            ));
        }
    }
    Ok(Controller { base, v2 })
}

impl Cgroups {
    /// The cgroups this process may make, from `/proc/self/cgroup` and the mount table.
    pub fn find() -> Found {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let (cgroup, mountinfo) = (read("/proc/self/cgroup"), read("/proc/self/mountinfo"));
        let memory = make_base("memory", own_dir("memory", &cgroup, &mountinfo));
        let pids = make_base("pids", own_dir("pids", &cgroup, &mountinfo));
        let (no_memory, no_pids) = (memory.as_ref().err(), pids.as_ref().err());
        let (no_memory, no_pids) = (no_memory.cloned(), no_pids.cloned());
        let (memory, pids) = (memory.ok(), pids.ok());
        let cgroups = (memory.is_some() || pids.is_some()).then_some(Cgroups {
            memory,
            pids,
            next: AtomicU64::new(0),
        });
        Found {
            cgroups,
            no_memory,
            no_pids,
        }
    }

    /// True when cases get a memory cgroup.
    pub fn has_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// True when cases get a pids cgroup.
    pub fn has_pids(&self) -> bool {
        self.pids.is_some()
    }

    /// A fresh cgroup for one case: at most `memory` bytes (none when `None`) and at most
    /// `processes` processes.
    pub fn case(&self, memory: Option<u64>, processes: u64) -> io::Result<CaseGroup> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let name = format!("case-{n}");
        let mut group = CaseGroup {
            memory: None,
            pids: None,
            opened: Opened::default(),
        };
        if let Some(c) = &self.memory {
            let dir = c.base.join(&name);
            std::fs::create_dir(&dir)?;
            group.memory = Some((dir.clone(), c.v2));
            if let Some(bytes) = memory {
                if c.v2 {
                    std::fs::write(dir.join("memory.max"), bytes.to_string())?;
                    let _ = std::fs::write(dir.join("memory.swap.max"), "0");
                } else {
                    std::fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
                    let _ =
                        std::fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
                }
            }
        }
        if let Some(c) = &self.pids {
            let dir = c.base.join(&name);
            if group.memory.as_ref().is_none_or(|(m, _)| *m != dir) {
                match std::fs::create_dir(&dir) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                    _ => {}
                }
            }
            // On v1 the judge's starting thread is in the case's cgroup while it starts it (see
            // `ThreadEntry`): it is not one of the case's processes.
            let threaded = [&self.memory, &self.pids]
                .into_iter()
                .flatten()
                .all(|c| !c.v2);
            let max = processes + u64::from(threaded);
            std::fs::write(dir.join("pids.max"), max.to_string())?;
            group.pids = Some((dir, c.v2));
        }
        Ok(group)
    }
}

impl Cgroups {
    /// The check's own directories, one per controller.
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn bases(&self) -> Vec<PathBuf> {
        [&self.memory, &self.pids]
            .into_iter()
            .flatten()
            .map(|c| c.base.clone())
            .collect()
    }
}

/// Kills every process in the cgroups below `base` and removes them and `base` (what the
/// warden does once the judge is gone).
#[cfg_attr(not(jail), allow(dead_code))]
pub fn empty_and_remove(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let v2 = dir.join("cgroup.kill").exists();
        drop(CaseGroup {
            memory: None,
            pids: Some((dir, v2)),
            opened: Opened::default(),
        });
    }
    let _ = std::fs::remove_dir(base);
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        for c in [&self.memory, &self.pids].into_iter().flatten() {
            let _ = std::fs::remove_dir(&c.base);
        }
    }
}

impl CaseGroup {
    /// The directories a process of the case joins (each once).
    pub fn dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for (d, _) in [&self.memory, &self.pids].into_iter().flatten() {
            if !dirs.contains(d) {
                dirs.push(d.clone());
            }
        }
        dirs
    }

    /// How a judge thread enters the case's cgroups itself, where every controller is v1
    /// (v2 keeps processes whole, so the started process joins instead).
    pub fn thread_entry(&self) -> Option<ThreadEntry> {
        let mut entry = ThreadEntry {
            enter: Vec::new(),
            leave: Vec::new(),
        };
        for (dir, v2) in [&self.memory, &self.pids].into_iter().flatten() {
            // The judge's own cgroup is the parent of the check's base.
            let own = dir.parent().and_then(Path::parent)?;
            if *v2 {
                return None;
            }
            let tasks = dir.join("tasks");
            if !entry.enter.contains(&tasks) {
                entry.enter.push(tasks);
                entry.leave.push(own.join("tasks"));
            }
        }
        (!entry.enter.is_empty()).then_some(entry)
    }

    /// Opens the files a case uses ahead of it (on the stock's thread): its memory's peak
    /// and OOM counter, and the files a zygote enters and leaves it through.
    pub fn open_ahead(&mut self) -> io::Result<()> {
        let open = |p: &Path| File::open(p);
        let mut opened = Opened::default();
        if let Some((dir, v2)) = &self.memory {
            let (peak, oom) = match v2 {
                true => ("memory.peak", "memory.events"),
                false => ("memory.max_usage_in_bytes", "memory.oom_control"),
            };
            opened.peak = open(&dir.join(peak)).ok();
            opened.oom = open(&dir.join(oom)).ok();
        }
        #[cfg(jail)]
        {
            let (entry, enter, leave) = self.entry_files();
            let write = |paths: Vec<PathBuf>| -> io::Result<Vec<File>> {
                paths
                    .iter()
                    .map(|p| File::options().write(true).open(p))
                    .collect()
            };
            opened.entry = Some((entry, write(enter)?, write(leave)?));
        }
        self.opened = opened;
        Ok(())
    }

    /// The files through which a jail's zygote enters the case's cgroups and leaves them
    /// (as [`CaseGroup::entry_files`] names them), opened ahead where they were.
    #[cfg(jail)]
    pub fn entry(&self) -> io::Result<(super::wire::Entry, Vec<File>, Vec<File>)> {
        match &self.opened.entry {
            Some((entry, enter, leave)) => {
                let dup = |files: &[File]| -> io::Result<Vec<File>> {
                    files.iter().map(File::try_clone).collect()
                };
                Ok((*entry, dup(enter)?, dup(leave)?))
            }
            None => {
                let (entry, enter, leave) = self.entry_files();
                let write = |paths: Vec<PathBuf>| -> io::Result<Vec<File>> {
                    paths
                        .iter()
                        .map(|p| File::options().write(true).open(p))
                        .collect()
                };
                Ok((entry, write(enter)?, write(leave)?))
            }
        }
    }

    /// The files through which a jail's zygote moves into the case's cgroups before it
    /// starts the answer, and out again once it has: where every controller is v1, a thread
    /// enters the `tasks` files (see [`ThreadEntry`]); else the whole zygote enters each
    /// `cgroup.procs` and leaves through the judge's own (where it was born).
    #[cfg(jail)]
    fn entry_files(&self) -> (super::wire::Entry, Vec<PathBuf>, Vec<PathBuf>) {
        if let Some(t) = self.thread_entry() {
            return (super::wire::Entry::Thread, t.enter, t.leave);
        }
        let mut enter = Vec::new();
        let mut leave = Vec::new();
        for dir in self.dirs() {
            // The judge's own cgroup is the parent of the check's base.
            if let Some(own) = dir.parent().and_then(Path::parent) {
                enter.push(dir.join("cgroup.procs"));
                let procs = own.join("cgroup.procs");
                if !leave.contains(&procs) {
                    leave.push(procs);
                }
            }
        }
        (super::wire::Entry::Process, enter, leave)
    }

    /// The processes in the case's cgroups now, but this one (whose thread may be in them).
    pub fn processes(&self) -> Vec<i32> {
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let mut pids = Vec::new();
        // Opened afresh each time: on v1 an open `cgroup.procs` keeps the list it first
        // read, however often it is read again.
        for dir in self.dirs() {
            let text = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
            pids.extend(text.lines().filter_map(|l| l.trim().parse::<i32>().ok()));
        }
        pids.retain(|&p| p != me);
        pids.sort_unstable();
        pids.dedup();
        pids
    }

    /// Kills every process of the case until none is left (`cgroup.kill` on v2).
    pub fn kill_all(&self) {
        for (dir, v2) in [&self.memory, &self.pids].into_iter().flatten() {
            if *v2 {
                let _ = std::fs::write(dir.join("cgroup.kill"), "1");
            }
        }
        for _ in 0..2000 {
            let left = self.processes();
            if left.is_empty() {
                return;
            }
            for pid in left {
                platform::kill_process(pid);
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// The peak and whether the OOM killer struck.
    pub fn usage(&self) -> Usage {
        let Some((dir, v2)) = &self.memory else {
            return Usage::default();
        };
        let opened = |name: &str| match name {
            "memory.peak" | "memory.max_usage_in_bytes" => self.opened.peak.as_ref(),
            _ => self.opened.oom.as_ref(),
        };
        let read = |name: &str| match opened(name) {
            Some(f) => read_again(f).unwrap_or_default(),
            None => std::fs::read_to_string(dir.join(name)).unwrap_or_default(),
        };
        let number = |name: &str| read(name).trim().parse::<u64>().ok();
        let oom_kills = |text: String| {
            text.lines()
                .find_map(|l| l.strip_prefix("oom_kill "))
                .and_then(|n| n.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        if *v2 {
            Usage {
                peak: number("memory.peak"),
                oom_killed: oom_kills(read("memory.events")) > 0,
            }
        } else {
            Usage {
                peak: number("memory.max_usage_in_bytes"),
                oom_killed: oom_kills(read("memory.oom_control")) > 0,
            }
        }
    }
}

impl ThreadEntry {
    /// Moves the calling thread into the case's cgroups.
    pub fn enter(&self) -> io::Result<()> {
        for tasks in &self.enter {
            std::fs::write(tasks, "0")?;
        }
        Ok(())
    }

    /// Moves the calling thread back into the judge's own cgroups (so the case's can be
    /// removed).
    pub fn leave(&self) {
        for tasks in &self.leave {
            let _ = std::fs::write(tasks, "0");
        }
    }
}

impl Drop for CaseGroup {
    fn drop(&mut self) {
        self.kill_all();
        for dir in self.dirs() {
            // The last processes may take a moment to leave.
            for _ in 0..200 {
                match std::fs::remove_dir(&dir) {
                    Err(e) if e.kind() == io::ErrorKind::ResourceBusy => {
                        std::thread::sleep(Duration::from_micros(500));
                    }
                    _ => break,
                }
            }
        }
    }
}

/// Case cgroups made ahead of their cases and removed behind them, on a thread of their
/// own: making a memory cgroup and removing one cost more than the rest of a small case,
/// and need not be in its way. Each case still gets a fresh cgroup, never used before.
pub struct Stock {
    ready: Arc<Mutex<Vec<CaseGroup>>>,
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<std::thread::JoinHandle<()>>,
    make: Arc<Maker>,
}

/// How a stock makes a case's cgroup.
type Maker = dyn Fn() -> io::Result<CaseGroup> + Send + Sync;

/// What the stock's thread is asked to do.
enum Job {
    /// Make one more cgroup ready.
    Make,
    /// Kill what is left in a case's cgroup and remove it.
    Remove(CaseGroup),
}

impl std::fmt::Debug for Stock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ready = self.ready.lock().map(|r| r.len()).unwrap_or(0);
        write!(f, "Stock({ready} ready)")
    }
}

impl Stock {
    /// A stock of the cgroups `make` makes.
    pub fn new(make: impl Fn() -> io::Result<CaseGroup> + Send + Sync + 'static) -> Stock {
        let make: Arc<Maker> = Arc::new(make);
        let ready: Arc<Mutex<Vec<CaseGroup>>> = Arc::default();
        let (tx, rx) = mpsc::channel::<Job>();
        let worker = {
            let (ready, make) = (Arc::clone(&ready), Arc::clone(&make));
            std::thread::spawn(move || {
                while let Ok(job) = rx.recv() {
                    match job {
                        Job::Make => {
                            let made = make().and_then(|mut g| g.open_ahead().map(|()| g));
                            if let (Ok(group), Ok(mut r)) = (made, ready.lock()) {
                                r.push(group);
                            }
                        }
                        Job::Remove(group) => drop(group),
                    }
                }
            })
        };
        Stock {
            ready,
            jobs: Some(tx),
            worker: Some(worker),
            make,
        }
    }

    /// A fresh cgroup for one case: one made ahead, or made now; another is made for the
    /// next case.
    pub fn take(&self) -> io::Result<CaseGroup> {
        let ready = self.ready.lock().ok().and_then(|mut r| r.pop());
        if let Some(tx) = &self.jobs {
            let _ = tx.send(Job::Make);
        }
        match ready {
            Some(group) => Ok(group),
            None => (self.make)(),
        }
    }

    /// Removes a case's cgroup once its case is over (every process left in it killed).
    pub fn remove(&self, group: CaseGroup) {
        match &self.jobs {
            Some(tx) => {
                if let Err(mpsc::SendError(Job::Remove(group))) = tx.send(Job::Remove(group)) {
                    drop(group);
                }
            }
            None => drop(group),
        }
    }
}

impl Drop for Stock {
    /// Removes the cgroups made ahead and waits until every removal asked for is done.
    fn drop(&mut self) {
        let ready: Vec<CaseGroup> = self
            .ready
            .lock()
            .map(|mut r| r.drain(..).collect())
            .unwrap_or_default();
        drop(ready);
        drop(self.jobs.take());
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
        let left: Vec<CaseGroup> = self
            .ready
            .lock()
            .map(|mut r| r.drain(..).collect())
            .unwrap_or_default();
        drop(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
31 25 0:27 / /sys/fs/cgroup/pids rw,relatime shared:10 - cgroup cgroup rw,pids
32 25 0:28 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw
";

    #[test]
    fn a_v1_controller_is_found_under_this_process_own_path() {
        let cgroup = "8:pids:/\n4:memory:/process_api/abc\n0::/\n";
        assert_eq!(
            own_dir("memory", cgroup, MOUNTINFO),
            Some((
                PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"),
                false
            ))
        );
        assert_eq!(
            own_dir("pids", cgroup, MOUNTINFO),
            Some((PathBuf::from("/sys/fs/cgroup/pids"), false))
        );
    }

    #[test]
    fn oom_kills_are_read_from_the_v1_oom_control() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("memory.oom_control"),
            "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("memory.max_usage_in_bytes"), "4096\n").expect("write");
        let mut group = CaseGroup {
            memory: Some((dir.path().to_path_buf(), false)),
            pids: None,
            opened: Opened::default(),
        };
        let usage = group.usage();
        assert_eq!(
            usage,
            Usage {
                peak: Some(4096),
                oom_killed: true
            }
        );
        // Opened ahead, the files are read again after the case, as they are then.
        group.opened.peak = File::open(dir.path().join("memory.max_usage_in_bytes")).ok();
        group.opened.oom = File::open(dir.path().join("memory.oom_control")).ok();
        std::fs::write(dir.path().join("memory.max_usage_in_bytes"), "8192\n").expect("write");
        assert_eq!(group.usage().peak, Some(8192));
    }
}
