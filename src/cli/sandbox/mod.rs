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
//! The judge's side is here: which level is in force ([`level`]: `--sandbox` and the
//! [`Mechanism`] it leads to), what the machine allows ([`host`]: the probe, once a
//! check), the environment ([`env`](mod@env)) and limits ([`limits`]) an answer gets, what it may
//! see ([`layout`]), the uid ([`uids`]) and cgroup ([`cgroup`]) each case gets, how a case
//! is started ([`case`], [`zygote`]), and the words the reports carry ([`summary`]: the
//! line the report starts with, which names every protection in force and every one
//! missing). This file holds one answer's [`Sandbox`] ([`Sandbox::new`]), which hands each
//! case its cgroup and its uid. What the helpers run is in the [`helper`]
//! folder: the dispatch, [`helper::jail`] (outer, zygote, warden), [`helper::keep`]
//! (basic) and [`helper::confine`] (privileges, limits, seccomp, Landlock), with
//! [`helper::filter`] (the seccomp program). Both sides share [`spec`], [`wire`], [`step`],
//! [`reach`], [`procs`] and [`subordinate`].

pub mod case;
pub mod cgroup;
pub mod env;
pub mod helper;
pub mod host;
pub mod layout;
pub mod level;
pub mod limits;
pub mod procs;
#[cfg(target_os = "linux")]
pub mod reach;
pub mod spec;
pub mod step;
#[cfg(jail)]
pub mod subordinate;
pub mod summary;
pub mod uids;
pub mod untrusted;
#[cfg(jail)]
pub mod wire;
#[cfg(jail)]
pub mod zygote;

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::Arc;

use self::cgroup::{CaseGroup, Cgroups, Stock};
use self::env::allowed_env;
use self::host::Unavailable;
pub use self::host::{Host, protect_the_judge};
use self::layout::Layout;
use self::layout::masks::names_the_judge;
pub use self::level::{Level, Mechanism};
use self::limits::{LAYOUT_TIME, MemoryLimit, PROCESSES};
use self::uids::Lease;
use self::untrusted::AnswerCommand;

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
