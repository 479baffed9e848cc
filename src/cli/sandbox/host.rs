//! What this machine allows, found once a check on the judge's side ([`Host::probe`]): the
//! mechanism a level gets (the jail tried once, through a zygote, on `/bin/true`), the
//! cgroups cases get, the user ids handed out, and the check's warden; and how the judge
//! guards itself once it knows ([`protect_the_judge`]).

use std::path::Path;
#[cfg(jail)]
use std::path::PathBuf;
use std::sync::Arc;

use super::cgroup::Cgroups;
use super::level::{Level, Mechanism};
use super::uids::{FIRST_UID, UIDS, UidPool};
#[cfg(jail)]
use super::{spec, subordinate, zygote};
use crate::cli::platform;

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

/// Starts the check's warden (see [`helper::jail::warden`](super::helper::jail::warden)) over the cgroup bases: if the judge
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
    use super::untrusted::AnswerCommand;
    use super::wire::{Entry, Request, RequestFds};
    use super::zygote::{Begun, Held, Zygote};
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let root = workspace.join("probe-root");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let program = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .ok_or("no /bin/true to try a jail on")?;
    let judge_pid = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
    let status = zygote::status_file(workspace).map_err(|e| e.to_string())?;
    let outer = probe_spec(judge_pid, root, status.path().to_path_buf(), subordinate);
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

/// The zygote's outer process of the jail probe: small limits, the probe's `root`, the
/// status file `status`, and the last jailed uid (as root) or `subordinate`.
#[cfg(jail)]
fn probe_spec(
    judge_pid: i32,
    root: PathBuf,
    status: PathBuf,
    subordinate: Option<u32>,
) -> spec::Outer {
    spec::Outer {
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
            status: Some(status),
        },
        command: None,
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
