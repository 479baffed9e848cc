//! Containment of a stranger's answer, in one module.
//!
//! # Theory of operation
//!
//! As `isolate.c` opens, the processes first, then who may do what, then how they talk.
//!
//! **The processes** (the jail; `basic` and `none` below):
//!
//! 1. The judge (`beast check`), as the user who ran it. It decides once an answer what the
//!    answer may see ([`layout`], from trusted inputs only: the answer's command, an
//!    [`AnswerCommand`], and its files are [`untrusted`] data), probes the machine once a
//!    check ([`Host`]), makes each case's cgroup ahead ([`cgroup::Stock`]) and runs the
//!    case through a zygote ([`zygote`], [`case`]).
//! 2. One outer helper a job slot (`beast __contain --role outer`, [`helper::jail::outer`]), started
//!    by a thread of the judge that waits for it. As a normal user it first makes a user
//!    namespace mapping the user's own ids and the slot's subordinate one (through the
//!    `map` helper, [`subordinate`], which runs the system's set-uid `newuidmap`); then the
//!    mount, pid, network, IPC, UTS and cgroup namespaces; then it starts the zygote.
//! 3. The zygote ([`helper::jail::zygote`]), pid 1 of those namespaces: it builds the minimal root,
//!    takes the slot's uid, locks the mounts in one more user namespace, and serves cases.
//! 4. For each case, a thread of the zygote ([`helper::jail`]'s `start_case`): into the case's
//!    cgroups, into the case's own mount, pid, IPC and cgroup namespaces with a fresh
//!    `/tmp` and `/dev/shm`, every capability dropped, the seccomp filter ([`helper::filter`]) on
//!    itself; it starts the answer, pid 1 of the case's pid namespace.
//! 5. Under root, one warden a check ([`helper::jail::warden`]): once the judge is gone, it empties
//!    the check's cgroups.
//!
//! Under `basic` each case starts a keeper (`--role keep`, [`helper::keep`]) that confines itself
//! (Landlock, seccomp, limits) and starts the answer; under `none` the judge starts the
//! answer itself, in its own process group.
//!
//! **Privileges.** The judge keeps its own (root, or the user). The outer helper and the
//! zygote hold capabilities only inside the namespaces they made (a normal user's are
//! ambient there, [`helper::confine::keep_capabilities_across_exec`]); the zygote is undumpable,
//! since its answers share its uid. A case's thread gives up every capability for good
//! (bounding set emptied, securebits locked, no new privileges) before the answer starts,
//! so the answer has none, in any namespace.
//!
//! **Channels.** The judge and a zygote talk over one Unix socket, the zygote's standard
//! input ([`wire`]: a request with the case's pipes and cgroup files as descriptors; the
//! answer's pidfd and then its end back), every field bounded and checked. A helper tells
//! a set-up step that failed before it is ready in a status file of the judge's, which no
//! answer can reach ([`step`]). The answer's output reaches the judge only through its own
//! pipes. Helpers are described by a [`spec::Spec`], written as arguments by the judge and
//! read back by hand before clap is reached.
//!
//! The judge's side is here: which level is in force (`--sandbox`), what the machine allows
//! ([`Host`]), the environment and limits an answer gets, the uid ([`uids`]) and cgroup
//! ([`cgroup`]) each case gets, and the line the report starts with, which names every
//! protection in force and every one missing. What the helpers run is in the [`helper`]
//! folder: the dispatch, [`helper::jail`] (outer, zygote, warden), [`helper::keep`]
//! (basic) and [`helper::confine`] (privileges, limits, seccomp, Landlock), with
//! [`helper::filter`] (the seccomp program). Both sides share [`spec`], [`wire`], [`step`],
//! [`reach`], [`procs`] and [`subordinate`].

pub mod case;
pub mod cgroup;
pub mod helper;
pub mod layout;
pub mod procs;
#[cfg(target_os = "linux")]
pub mod reach;
pub mod spec;
pub mod step;
#[cfg(jail)]
pub mod subordinate;
pub mod uids;
pub mod untrusted;
#[cfg(jail)]
pub mod wire;
#[cfg(jail)]
pub mod zygote;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use beast_engine::judge::record::SandboxRecord;

use self::cgroup::{CaseGroup, Cgroups, Stock};
use self::layout::Layout;
use self::uids::UIDS;
pub use self::uids::{FIRST_UID, Lease, UidPool};
use self::untrusted::AnswerCommand;
use crate::cli::platform;

/// `--sandbox`: how strongly the answer is contained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// The strongest level this machine allows: the jail where user namespaces work, else
    /// `basic`; cgroups where they can be made, else rlimits. The first line says which.
    #[default]
    Auto,
    /// The jail with a cgroup per case for memory and processes; exit 2 naming what is
    /// missing otherwise.
    Strict,
    /// No namespaces: Landlock over the same allow-list, seccomp, limits, a cleared
    /// environment, a private directory, and a kill of every descendant after each case.
    Basic,
    /// Nothing: the command runs as it is, at full speed. For your own, trusted answer.
    None,
}

/// The mechanism chosen for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanism {
    /// The jail: a `beast __contain` outer process and its zygote, pid 1 of fresh user,
    /// mount, pid, network, IPC, UTS and cgroup namespaces, in a minimal root, which starts
    /// each case in namespaces of its own (see [`zygote`]).
    #[cfg_attr(not(jail), allow(dead_code))]
    Jail,
    /// A `beast __contain keep` helper confined by Landlock that starts the answer and
    /// kills its whole tree.
    Basic,
    /// The answer runs directly, in its own process group.
    None,
}

impl Mechanism {
    /// Its name in the reports: `jail`, `basic` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Jail => "jail",
            Mechanism::Basic => "basic",
            Mechanism::None => "none",
        }
    }
}

/// How an answer's memory is limited (`--memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// A memory cgroup per case: what the case holds, measured and capped by the kernel.
    Cgroup,
    /// `RLIMIT_AS` where no memory cgroup can be made: the address space of each process.
    AddressSpace,
}

impl MemoryLimit {
    /// Its name in the reports (`memory_limit` of the JSON summary): `cgroup` or `rlimit`.
    pub fn name(self) -> &'static str {
        match self {
            MemoryLimit::Cgroup => "cgroup",
            MemoryLimit::AddressSpace => "rlimit",
        }
    }
}

/// The namespaces of the jail, as the report names them.
pub const NAMESPACES: [&str; 7] = ["user", "mount", "pid", "net", "ipc", "uts", "cgroup"];

/// The longest the judge spends deciding what one answer's jail shows (reading the paths
/// its command names, asking a version manager): past it the check stops, saying so.
pub const LAYOUT_TIME: Duration = Duration::from_secs(10);

/// The most processes a case may have at once.
pub const PROCESSES: u64 = 256;

/// Environment variables passed through besides `LC_*` and those of `--env`.
const ALLOWED_ENV: [&str; 3] = ["PATH", "LANG", "TERM"];

/// What this machine allows, found once a check.
#[derive(Debug)]
pub struct Host {
    /// The mechanism in force.
    pub mechanism: Mechanism,
    /// Why the jail cannot be had, when it cannot.
    pub no_jail: Option<String>,
    /// The cgroups cases get, if any.
    pub cgroups: Option<Cgroups>,
    /// Why there is no memory cgroup, when there is none.
    pub no_memory_cgroup: Option<String>,
    /// Why there is no pids cgroup, when there is none.
    pub no_pids_cgroup: Option<String>,
    /// The user ids handed out: when the judge is root, or (the jail only) when
    /// `/etc/subuid` gives the judge's user a range that `newuidmap` maps.
    pub uids: Option<Arc<UidPool>>,
    /// True when the judge runs as root.
    pub root: bool,
    /// Why a normal user's cases run as that user: no subordinate range, no `newuidmap`,
    /// or a jail with one that did not work.
    pub no_subordinate: Option<String>,
    /// How many of the jail's zygotes are idle now, over every answer (see
    /// [`zygote::Zygotes`]).
    #[cfg(jail)]
    pub idle_zygotes: Arc<std::sync::atomic::AtomicUsize>,
    /// The check's warden, a child of the judge that no sweep of orphans may take.
    pub warden: Option<u32>,
}

/// Why a sandbox level cannot be had.
#[derive(Debug, thiserror::Error)]
#[error("--sandbox strict: {feature} is not available here: {reason}")]
pub struct Unavailable {
    /// The missing feature, e.g. "a memory cgroup".
    pub feature: &'static str,
    /// The system's reason.
    pub reason: String,
}

impl Host {
    /// Probes the machine for `level` (a jail is tried once, on `/bin/true`). `strict`
    /// fails naming what is missing.
    pub fn probe(level: Level, workspace: &Path) -> Result<Host, Unavailable> {
        #[cfg(not(jail))]
        let _ = workspace;
        #[cfg(not(jail))]
        let (mechanism, no_jail) = match level {
            Level::Strict | Level::Basic => {
                return Err(Unavailable {
                    feature: "a sandbox",
                    reason: NO_JAIL.to_string(),
                });
            }
            Level::Auto | Level::None => (Mechanism::None, Some(NO_JAIL.to_string())),
        };
        #[cfg(jail)]
        let (mechanism, no_jail) = match level {
            Level::None => (Mechanism::None, None),
            Level::Basic => (Mechanism::Basic, None),
            Level::Auto | Level::Strict => match probe_jail(workspace, None) {
                Ok(()) => (Mechanism::Jail, None),
                Err(why) if level == Level::Strict => {
                    return Err(Unavailable {
                        feature: "the jail (user and other namespaces)",
                        reason: why,
                    });
                }
                Err(why) => (Mechanism::Basic, Some(why)),
            },
        };
        let contained = mechanism != Mechanism::None;
        let found = contained.then(Cgroups::find);
        let (cgroups, no_memory, no_pids) = match found {
            Some(f) => (f.cgroups, f.no_memory, f.no_pids),
            None => (None, None, None),
        };
        if level == Level::Strict {
            for (feature, why) in [("a memory cgroup", &no_memory), ("a pids cgroup", &no_pids)] {
                if let Some(why) = why {
                    return Err(Unavailable {
                        feature,
                        reason: format!("{why} (cgroups need root or a delegated subtree)"),
                    });
                }
            }
        }
        let root = platform::is_root();
        let (uids, no_subordinate) = match (contained, root) {
            (false, _) => (None, None),
            (true, true) => (Some(Arc::new(UidPool::new(FIRST_UID, UIDS, true))), None),
            #[cfg(jail)]
            (true, false) if mechanism == Mechanism::Jail => {
                match subordinate::ids()
                    .and_then(|s| probe_jail(workspace, Some(s.first + s.count - 1)).map(|()| s))
                {
                    Ok(s) => (Some(Arc::new(UidPool::new(s.first, s.count, false))), None),
                    Err(why) => (None, Some(why)),
                }
            }
            (true, false) => (None, None),
        };
        #[cfg(jail)]
        let warden = cgroups.as_ref().and_then(|c| start_warden(&c.bases()));
        #[cfg(not(jail))]
        let warden = None;
        Ok(Host {
            #[cfg(jail)]
            idle_zygotes: Arc::default(),
            warden,
            mechanism,
            no_jail,
            cgroups,
            no_memory_cgroup: no_memory,
            no_pids_cgroup: no_pids,
            uids,
            root,
            no_subordinate,
        })
    }
}

/// Why a build has no sandbox but a process group (a Job Object on Windows).
#[cfg(all(not(jail), target_os = "linux"))]
const NO_JAIL: &str = "this build has none: it is Linux-only and needs the `jail` feature";
/// Why a build has no sandbox but a process group (a Job Object on Windows).
#[cfg(not(target_os = "linux"))]
const NO_JAIL: &str = "this build has none: it is Linux-only";

/// Starts the check's warden (see [`helper::jail::warden`]) over the cgroup bases: if the judge
/// dies, even by SIGKILL, it kills what is left in them. Not waited for: it ends after the
/// judge, and its parent is then init.
#[cfg(jail)]
fn start_warden(bases: &[PathBuf]) -> Option<u32> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().ok()?;
    let child = spec::Spec::warden(bases.to_vec())
        .command(&exe)
        .env_clear()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .ok()?;
    Some(child.id())
}

/// Runs `/bin/true` in a jail once, as `subordinate` when it is given (a normal user's
/// id from `/etc/subuid`): the jail works here, or why not. The jail is a zygote, as every
/// case's, asked for one case.
#[cfg(jail)]
fn probe_jail(workspace: &Path, subordinate: Option<u32>) -> Result<(), String> {
    use self::wire::{Entry, Request, RequestFds};
    use self::zygote::{Begun, Held, Zygote};
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let root = workspace.join("probe-root");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let program = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .ok_or("no /bin/true to try a jail on")?;
    let judge_pid = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
    let status = zygote::status_file(workspace).map_err(|e| e.to_string())?;
    let outer = spec::Outer {
        judge_pid,
        cgroup: Vec::new(),
        jail: spec::Jail {
            answer: spec::Confinement {
                limits: spec::Limits {
                    cpu: 5,
                    fsize: 1 << 20,
                    address_space: None,
                    nproc: None,
                },
                uid: match platform::is_root() {
                    true => Some(FIRST_UID + UIDS - 1),
                    false => subordinate,
                },
                ro: Vec::new(),
                mask: Vec::new(),
                workdir: PathBuf::from(spec::JAILED_HOME),
            },
            tmp_size: 1 << 20,
            root_dir: root,
            status: Some(status.path().to_path_buf()),
        },
        command: None,
    };
    let held = Held {
        lease: None,
        pool: None,
        status,
    };
    let zygote = Zygote::launch(&exe, &outer, held).map_err(|e| e.to_string())?;
    let pipe = || std::io::pipe().map_err(|e| e.to_string());
    let ((_out, out), (err_r, err)) = (pipe()?, pipe()?);
    let request = Request {
        command: AnswerCommand::from_words(vec![program.into()])
            .ok_or("no program to try a jail on")?,
        env: Vec::new(),
        input_file: None,
        stdin: false,
        entry: Entry::None,
        enter: 0,
    };
    let fds = RequestFds {
        stdin: None,
        stdout: out.into(),
        stderr: err.into(),
        enter: Vec::new(),
        leave: Vec::new(),
    };
    let begun = zygote.begin(&request, &fds).map_err(|e| e.to_string())?;
    drop(fds);
    match begun {
        Begun::Started(_) => {}
        Begun::SetupFailed(told) => return Err(told.to_string()),
        Begun::CannotStart(why) => return Err(format!("start {program}: {why}")),
    }
    let ended = zygote.ended().map_err(|e| e.to_string())?;
    if ended.success() {
        return Ok(());
    }
    let mut said = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::Read::take(err_r, 4096), &mut said);
    let said = said.trim().trim_start_matches("beast sandbox: ");
    Err(if said.is_empty() {
        format!("a test jail ended with {ended}")
    } else {
        said.to_string()
    })
}

/// What is in force for one answer: the mechanism, the limits, the environment and what
/// it may see.
#[derive(Debug)]
pub struct Sandbox {
    /// How answers are started.
    pub mechanism: Mechanism,
    /// `--memory` in MiB; 0 for none.
    pub memory_mib: u64,
    /// The environment every answer gets (HOME and TMPDIR are added per case).
    pub env: Vec<(OsString, OsString)>,
    /// This binary, for starting the helper.
    pub exe: PathBuf,
    /// This process, so helpers can notice when it is gone.
    pub judge_pid: u32,
    /// What the answer sees.
    pub layout: Layout,
    /// What the machine allows.
    pub host: Arc<Host>,
    /// The jail's zygotes that run no case now (see [`zygote`]).
    #[cfg(jail)]
    pub zygotes: zygote::Zygotes,
    /// The case cgroups made ahead and removed behind, once a case has asked for one.
    stock: std::sync::OnceLock<Stock>,
}

/// What `beast check` tells the sandbox about one answer.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// `--memory` in MiB (0: none).
    pub memory_mib: u64,
    /// `--env` names passed through.
    pub pass_env: &'a [OsString],
    /// `--cases` directories.
    pub cases: &'a [PathBuf],
    /// `--bind` paths.
    pub binds: &'a [PathBuf],
    /// The answer's command, as the user wrote it (the layout makes its relative paths
    /// absolute).
    pub command: &'a AnswerCommand,
}

impl Sandbox {
    /// The sandbox of one answer on `host`. Its layout is made within [`LAYOUT_TIME`];
    /// `interrupted` (an interrupt) stops it.
    pub fn new(
        req: &Request,
        host: &Arc<Host>,
        interrupted: &dyn Fn() -> bool,
    ) -> anyhow::Result<Sandbox> {
        let exe = std::env::current_exe().map_err(|e| Unavailable {
            feature: "the path of this binary",
            reason: e.to_string(),
        })?;
        let env = allowed_env(std::env::vars_os(), req.pass_env);
        let path = env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_os_str());
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let command = req.command.clone();
        let judge_named = names_the_judge(&exe, &command, &env, path);
        let layout = match host.mechanism {
            Mechanism::None => Layout::unconfined(command),
            _ => Layout::within(
                layout::Request {
                    command,
                    path: path.map(OsStr::to_os_string),
                    binds: req.binds.to_vec(),
                    env_values: env
                        .iter()
                        .filter(|(k, _)| req.pass_env.contains(k))
                        .map(|(_, v)| v.clone())
                        .collect(),
                    cases: req.cases.to_vec(),
                    exe: exe.clone(),
                    home,
                    judge_named,
                    case_uid: host.uids.as_ref().map(|p| p.first()),
                },
                LAYOUT_TIME,
                interrupted,
            )?,
        };
        Ok(Sandbox {
            mechanism: host.mechanism,
            memory_mib: req.memory_mib,
            env,
            exe,
            judge_pid: std::process::id(),
            layout,
            host: Arc::clone(host),
            #[cfg(jail)]
            zygotes: zygote::Zygotes::new(Arc::clone(&host.idle_zygotes)),
            stock: std::sync::OnceLock::new(),
        })
    }

    fn cgroups(&self) -> Option<&Cgroups> {
        self.host.cgroups.as_ref()
    }

    /// True when cases get a memory cgroup.
    pub fn memory_cgroup(&self) -> bool {
        self.mechanism != Mechanism::None && self.cgroups().is_some_and(Cgroups::has_memory)
    }

    /// `RLIMIT_AS` in bytes: only where no memory cgroup holds the memory.
    pub fn address_space(&self) -> Option<u64> {
        (!self.memory_cgroup())
            .then(|| self.memory_bytes())
            .flatten()
    }

    /// `RLIMIT_NPROC`: only where no pids cgroup holds the processes.
    pub fn nproc(&self) -> Option<u64> {
        let pids = self.cgroups().is_some_and(Cgroups::has_pids);
        (!pids).then_some(2 * PROCESSES)
    }

    /// The memory limit in bytes, or `None` for none.
    pub fn memory_bytes(&self) -> Option<u64> {
        (self.memory_mib > 0).then(|| self.memory_mib.saturating_mul(1 << 20))
    }

    /// A fresh cgroup for one case, where cgroups can be had (made ahead by the stock).
    pub fn case_group(&self) -> std::io::Result<Option<CaseGroup>> {
        match (self.cgroups(), self.mechanism) {
            (None, _) | (_, Mechanism::None) => Ok(None),
            (Some(_), _) => {
                let stock = self.stock.get_or_init(|| {
                    let host = Arc::clone(&self.host);
                    let memory = self.memory_bytes();
                    Stock::new(move || match &host.cgroups {
                        Some(c) => c.case(memory, PROCESSES),
                        None => Err(std::io::Error::other("no cgroups")),
                    })
                });
                stock.take().map(Some)
            }
        }
    }

    /// Removes a case's cgroup once its case is over, behind it (see [`Stock`]).
    pub fn remove_group(&self, group: CaseGroup) {
        match self.stock.get() {
            Some(stock) => stock.remove(group),
            None => drop(group),
        }
    }

    /// A user id for one case (root only).
    pub fn lease(&self) -> Option<Lease> {
        self.host.uids.as_ref().map(|p| p.take())
    }

    /// Gives a case's user id back.
    pub fn give_back(&self, lease: Option<Lease>) {
        if let (Some(pool), Some(l)) = (&self.host.uids, lease) {
            pool.give(l);
        }
    }

    /// What is in force and what is missing, as the reports carry it (the JSON summary's
    /// `sandbox` object, with the report's first line in `line`).
    pub fn summary(&self) -> SandboxRecord {
        let (mut protections, mut missing) = self.mechanism_words();
        let host = &self.host;
        let contained = self.mechanism != Mechanism::None;
        if contained {
            protections.push(match (&host.uids, host.root) {
                (Some(pool), true) => format!("own uid per case from {}", pool.first()),
                (Some(pool), false) => format!(
                    "own subordinate uid per case from {} (/etc/subuid, newuidmap)",
                    pool.first()
                ),
                (None, _) => match (&host.no_subordinate, self.mechanism) {
                    (Some(why), Mechanism::Jail) => {
                        format!("the judge's uid, never root (no subordinate uid: {why})")
                    }
                    _ => "the judge's uid, never root".to_string(),
                },
            });
            protections.push("no capabilities".to_string());
            protections.push("seccomp".to_string());
        }
        let memory_limit = self.memory_limit();
        let m = self.memory_mib;
        match memory_limit {
            Some(MemoryLimit::Cgroup) => protections.push(format!("memory cgroup {m} MiB")),
            Some(MemoryLimit::AddressSpace) => {
                let why = host.no_memory_cgroup.as_deref().unwrap_or("no cgroup");
                missing.push(format!(
                    "memory cgroup ({why}): memory is RLIMIT_AS {m} MiB, so a JVM needs --memory 0"
                ));
            }
            None => {}
        }
        let pids_cgroup = self.cgroups().is_some_and(Cgroups::has_pids);
        if contained {
            if pids_cgroup {
                protections.push(format!("pids cgroup {PROCESSES}"));
            } else {
                let why = host.no_pids_cgroup.as_deref().unwrap_or("no cgroup");
                missing.push(format!(
                    "pids cgroup ({why}): processes are RLIMIT_NPROC {}",
                    2 * PROCESSES
                ));
            }
            protections.push("env cleared".to_string());
            protections.push("inherited fds closed".to_string());
        }
        SandboxRecord {
            mechanism: self.mechanism.name().to_string(),
            namespaces: match self.mechanism {
                Mechanism::Jail => NAMESPACES.map(str::to_string).to_vec(),
                _ => Vec::new(),
            },
            memory_mib: memory_limit.map(|_| self.memory_mib),
            memory_limit: memory_limit.map(|kind| kind.name().to_string()),
            processes: contained.then_some(self.nproc().unwrap_or(PROCESSES)),
            env_cleared: contained,
            run_as_uid: host.uids.as_ref().filter(|_| contained).map(|p| p.first()),
            line: summary_line(self.mechanism, self.origin(), &protections, &missing),
            protections,
            missing,
        }
    }

    /// Whether the mechanism in force is the one asked for or a fallback from the jail.
    fn origin(&self) -> Origin {
        match self.host.no_jail {
            None => Origin::Asked,
            Some(_) => Origin::FellBack,
        }
    }

    /// What the mechanism itself holds, and what it leaves missing, in words.
    fn mechanism_words(&self) -> (Vec<String>, Vec<String>) {
        let no_jail = self.host.no_jail.as_ref();
        match self.mechanism {
            Mechanism::Jail => (
                vec![
                    format!("{} namespaces", NAMESPACES.join("+")),
                    "minimal root".to_string(),
                    "mounts locked".to_string(),
                ],
                Vec::new(),
            ),
            Mechanism::Basic => (
                vec!["Landlock file access".to_string()],
                vec![match no_jail {
                    Some(why) => format!("namespaces ({why})"),
                    None => "namespaces (--sandbox basic)".to_string(),
                }],
            ),
            Mechanism::None => (
                vec![platform::CONTAINMENT.to_string()],
                vec![match no_jail {
                    Some(why) => format!("the jail ({why})"),
                    None => "everything else (--sandbox none)".to_string(),
                }],
            ),
        }
    }

    /// How memory is limited, or `None` where it is not.
    fn memory_limit(&self) -> Option<MemoryLimit> {
        let contained = self.mechanism != Mechanism::None;
        match (contained, self.memory_bytes()) {
            (true, Some(_)) if self.memory_cgroup() => Some(MemoryLimit::Cgroup),
            (true, Some(_)) => Some(MemoryLimit::AddressSpace),
            _ => None,
        }
    }
}

/// Whether the mechanism in force is the one `--sandbox` asked for, or the one the judge
/// fell back to because the jail could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The mechanism asked for.
    Asked,
    /// A fallback: the jail could not be had.
    FellBack,
}

/// The report's first line (`line` of [`Sandbox::summary`]), e.g. `sandbox: jail:
/// user+mount+... namespaces, ...`: the mechanism, what is in force, and what is missing.
/// `--sandbox none` asked for says only that the command runs unconfined.
fn summary_line(
    mechanism: Mechanism,
    origin: Origin,
    protections: &[String],
    missing: &[String],
) -> String {
    let name = match mechanism {
        Mechanism::None => "none (the command runs unconfined)",
        m => m.name(),
    };
    let mut line = format!("sandbox: {name}");
    if mechanism == Mechanism::None && origin == Origin::Asked {
        return line;
    }
    if !protections.is_empty() {
        line.push_str(": ");
        line.push_str(&protections.join(", "));
    }
    if !missing.is_empty() {
        line.push_str("; missing: ");
        line.push_str(&missing.join("; "));
    }
    line
}

/// The CPU-time limit: twice the timeout, rounded up to whole seconds.
pub fn cpu_seconds(timeout: Duration) -> u64 {
    (timeout.as_secs_f64() * 2.0).ceil().max(1.0) as u64
}

/// The variables of `vars` an answer may see: `PATH`, `LANG`, `LC_*`, `TERM` and the
/// names in `pass`.
pub fn allowed_env(
    vars: impl Iterator<Item = (OsString, OsString)>,
    pass: &[OsString],
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vars
        .filter(|(name, _)| {
            let n = name.as_encoded_bytes();
            ALLOWED_ENV.iter().any(|a| a.as_bytes() == n)
                || n.starts_with(b"LC_")
                || pass.iter().any(|p| p == name)
        })
        .collect();
    env.sort();
    env
}

/// True when the answer's program, or a passed variable, is this binary: the user trusts
/// it then, so it is not masked.
fn names_the_judge(
    exe: &Path,
    command: &AnswerCommand,
    env: &[(OsString, OsString)],
    path: Option<&OsStr>,
) -> bool {
    let program = command.program_file(path);
    program.is_some_and(|p| same_file(exe, &p))
        || env.iter().any(|(_, v)| same_file(exe, Path::new(v)))
}

/// True when both paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.metadata(), b.metadata()) {
        (Ok(a), Ok(b)) => platform::same_file_meta(&a, &b),
        _ => false,
    }
}

/// Makes this process undumpable, so that no answer running under its uid can open its
/// `/proc/PID/mem` or trace it; under `basic`, also a subreaper, so that what an answer
/// leaves after killing its keeper comes to the judge, which kills it.
pub fn protect_the_judge(host: &Host) {
    #[cfg(jail)]
    {
        let _ = nix::sys::prctl::set_dumpable(false);
        if host.mechanism == Mechanism::Basic {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        }
    }
    #[cfg(not(jail))]
    let _ = host;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(a, b)| (OsString::from(a), OsString::from(b)))
            .collect()
    }

    #[test]
    fn only_the_allow_list_and_passed_names_reach_the_answer() {
        let vars = os(&[
            ("PATH", "/bin"),
            ("GITHUB_TOKEN", "secret"),
            ("LC_ALL", "C"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("BEAST", "/x"),
            ("LANGUAGE", "no"),
        ]);
        let got = allowed_env(vars.into_iter(), &[OsString::from("BEAST")]);
        assert_eq!(
            got,
            os(&[("BEAST", "/x"), ("LC_ALL", "C"), ("PATH", "/bin")])
        );
    }

    #[test]
    fn the_report_line_names_what_is_in_force_and_what_is_missing() {
        let words = |v: &[&str]| v.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            summary_line(
                Mechanism::Jail,
                Origin::Asked,
                &words(&["minimal root", "seccomp"]),
                &words(&["memory cgroup (no)"])
            ),
            "sandbox: jail: minimal root, seccomp; missing: memory cgroup (no)"
        );
        let group = words(&["a process group"]);
        assert_eq!(
            summary_line(
                Mechanism::None,
                Origin::Asked,
                &group,
                &words(&["everything else (--sandbox none)"])
            ),
            "sandbox: none (the command runs unconfined)"
        );
        assert_eq!(
            summary_line(
                Mechanism::None,
                Origin::FellBack,
                &group,
                &words(&["the jail (no jail in this build)"])
            ),
            "sandbox: none (the command runs unconfined): a process group; missing: the jail \
             (no jail in this build)"
        );
    }

    #[test]
    fn the_memory_limits_kind_keeps_its_name_in_the_json_summary() {
        assert_eq!(MemoryLimit::Cgroup.name(), "cgroup");
        assert_eq!(MemoryLimit::AddressSpace.name(), "rlimit");
    }

    #[test]
    fn cpu_time_is_twice_the_timeout_rounded_up() {
        assert_eq!(cpu_seconds(Duration::from_millis(300)), 1);
        assert_eq!(cpu_seconds(Duration::from_secs(5)), 10);
        assert_eq!(cpu_seconds(Duration::from_millis(2600)), 6);
    }
}
