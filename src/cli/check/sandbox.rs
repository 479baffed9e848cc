//! The judge's side of containment: which sandbox level is in force (`--sandbox`), the
//! limits and environment a candidate gets, the shared network namespace, and the line the
//! report starts with. The candidate's side (the `beast __contain` helper) is in
//! `cli::contain`.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use nix::sched::{CloneFlags, setns, unshare};
use nix::unistd::geteuid;
use serde::Serialize;

/// `--sandbox`: how strongly the candidate is contained.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// The strongest level this machine allows: `strict` where namespaces work, else `basic`.
    #[default]
    Auto,
    /// pid, net and mount namespaces on top of `basic`; exit 2 if they cannot be made.
    Strict,
    /// No namespaces: a new session, rlimits, a cleared environment, a private directory,
    /// and a kill of every descendant after each case.
    Basic,
    /// Nothing: the command runs as it is, at full speed. For your own, trusted answer.
    None,
}

/// The mechanism chosen for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mechanism {
    /// A `beast __contain jail` helper as pid 1 of fresh pid and mount namespaces, in a
    /// network namespace with no interface up; it becomes the candidate by `exec`.
    Namespaces,
    /// A `beast __contain keep` helper that starts the candidate and kills its whole tree.
    Basic,
    /// The candidate runs directly, in its own process group.
    None,
}

/// The user id candidates run as when the judge runs as root (`nobody`).
pub const NOBODY: u32 = 65534;

/// The candidate's private directory inside the namespaces (a fresh tmpfs on `/tmp`).
pub const JAILED_HOME: &str = "/tmp/answer";

/// The neutral name of the puzzle file of `--input file`.
pub const INPUT_NAME: &str = "input.txt";

/// Environment variables passed through besides `LC_*` and those of `--env`.
const ALLOWED_ENV: [&str; 3] = ["PATH", "LANG", "TERM"];

/// What is in force for a whole check: the mechanism, the limits and the environment.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// How candidates are started.
    pub mechanism: Mechanism,
    /// `RLIMIT_AS` in MiB; 0 for none.
    pub memory_mib: u64,
    /// The environment every candidate gets (HOME and TMPDIR are added per case).
    pub env: Vec<(OsString, OsString)>,
    /// This binary, for starting the helper.
    pub exe: PathBuf,
    /// This process, so helpers can notice when it is gone.
    pub judge_pid: u32,
    /// Directories the candidate must not see (`--cases`).
    pub hidden_dirs: Vec<PathBuf>,
    /// Files the candidate must not see or run (the judge's binary).
    pub hidden_files: Vec<PathBuf>,
    /// True when the judge runs as root: candidates then run as `nobody`, unless a file
    /// they are given is closed to other users.
    pub drop_to_nobody: bool,
    /// Under root, the file given to the candidate that `nobody` could not reach, which
    /// keeps it running as root.
    pub closed_file: Option<PathBuf>,
    /// The network namespace shared by every case (namespaces only).
    pub netns: Option<Arc<File>>,
}

/// The serializable summary of a [`Sandbox`], for JSON and JUnit reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SandboxSummary {
    /// `namespaces`, `basic` or `none`.
    pub mechanism: Mechanism,
    /// The namespaces in force (`pid`, `net`, `mount`), empty without them.
    pub namespaces: Vec<&'static str>,
    /// The address-space limit in MiB, or null.
    pub memory_mib: Option<u64>,
    /// True when the environment is cleared to an allow-list.
    pub env_cleared: bool,
    /// The user id candidates run as, when it is changed (`nobody` under root).
    pub run_as_uid: Option<u32>,
    /// Why candidates run as root: a file given to them that other users cannot reach.
    pub root_because: Option<String>,
}

/// Why a sandbox level cannot be had.
#[derive(Debug, thiserror::Error)]
#[error("--sandbox strict: {feature} is not available here: {reason}")]
pub struct Unavailable {
    /// The missing feature, e.g. "a mount namespace".
    pub feature: &'static str,
    /// The system's reason.
    pub reason: String,
}

/// What `beast check` tells the sandbox.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// `--sandbox`.
    pub level: Level,
    /// `--memory` in MiB (0: none).
    pub memory_mib: u64,
    /// `--env` names passed through.
    pub pass_env: &'a [OsString],
    /// `--cases` directories.
    pub cases: &'a [PathBuf],
    /// The candidate command, to see whether it names the judge itself.
    pub command: &'a [OsString],
}

impl Sandbox {
    /// Chooses the mechanism for `req.level`: `strict` fails with the missing feature
    /// named, `auto` falls back to `basic`.
    pub fn new(req: &Request) -> Result<Sandbox, Unavailable> {
        let exe = std::env::current_exe().map_err(|e| Unavailable {
            feature: "the path of this binary",
            reason: e.to_string(),
        })?;
        let (mechanism, netns) = match req.level {
            Level::None => (Mechanism::None, None),
            Level::Basic => (Mechanism::Basic, None),
            Level::Strict => (Mechanism::Namespaces, Some(probe_namespaces()?)),
            Level::Auto => match probe_namespaces() {
                Ok(ns) => (Mechanism::Namespaces, Some(ns)),
                Err(_) => (Mechanism::Basic, None),
            },
        };
        let env = allowed_env(std::env::vars_os(), req.pass_env);
        let closed = closed_to_others(req.command, &env);
        let hidden_files = if names_the_judge(&exe, req.command, &env) {
            Vec::new()
        } else {
            vec![exe.clone()]
        };
        Ok(Sandbox {
            mechanism,
            memory_mib: req.memory_mib,
            env,
            exe,
            judge_pid: std::process::id(),
            hidden_dirs: req
                .cases
                .iter()
                .filter_map(|d| d.canonicalize().ok())
                .collect(),
            hidden_files,
            drop_to_nobody: geteuid().is_root() && closed.is_none(),
            closed_file: closed.filter(|_| geteuid().is_root()),
            netns: netns.map(Arc::new),
        })
    }

    /// The summary for reports.
    pub fn summary(&self) -> SandboxSummary {
        let contained = self.mechanism != Mechanism::None;
        SandboxSummary {
            mechanism: self.mechanism,
            namespaces: match self.mechanism {
                Mechanism::Namespaces => vec!["pid", "net", "mount"],
                _ => Vec::new(),
            },
            memory_mib: (contained && self.memory_mib > 0).then_some(self.memory_mib),
            env_cleared: contained,
            run_as_uid: (contained && self.drop_to_nobody).then_some(NOBODY),
            root_because: self
                .closed_file
                .as_ref()
                .filter(|_| contained)
                .map(|f| format!("{} is closed to other users", f.display())),
        }
    }

    /// The first line of the report, e.g.
    /// `sandbox: pid+net+mount namespaces, memory 1024 MiB, env cleared`.
    pub fn line(&self) -> String {
        summary_line(&self.summary())
    }

    /// The bytes of `RLIMIT_AS`, or `None` for no limit.
    pub fn memory_bytes(&self) -> Option<u64> {
        (self.memory_mib > 0).then(|| self.memory_mib.saturating_mul(1 << 20))
    }
}

/// The report line of a summary (see [`Sandbox::line`]).
pub fn summary_line(s: &SandboxSummary) -> String {
    let mut parts = vec![match s.mechanism {
        Mechanism::Namespaces => format!("{} namespaces", s.namespaces.join("+")),
        Mechanism::Basic => "basic (no namespaces)".to_string(),
        Mechanism::None => "none (the command runs unconfined)".to_string(),
    }];
    if let Some(m) = s.memory_mib {
        parts.push(format!("memory {m} MiB"));
    }
    if s.env_cleared {
        parts.push("env cleared".to_string());
    }
    if s.run_as_uid == Some(NOBODY) {
        parts.push("runs as nobody".to_string());
    }
    if let Some(why) = &s.root_because {
        parts.push(format!("runs as root ({why})"));
    }
    format!("sandbox: {}", parts.join(", "))
}

/// The CPU-time limit: twice the timeout, rounded up to whole seconds.
pub fn cpu_seconds(timeout: Duration) -> u64 {
    (timeout.as_secs_f64() * 2.0).ceil().max(1.0) as u64
}

/// The variables of `vars` a candidate may see: `PATH`, `LANG`, `LC_*`, `TERM` and the
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

/// The first file given to the candidate (its program, a file its command names, a file a
/// passed variable names) that the user `nobody` could not reach: the file, or a directory
/// above it, is closed to other users.
fn closed_to_others(command: &[OsString], env: &[(OsString, OsString)]) -> Option<PathBuf> {
    let program = command.first().and_then(|p| resolve_program(p));
    program
        .into_iter()
        .chain(command.iter().skip(1).map(PathBuf::from))
        .chain(env.iter().map(|(_, v)| PathBuf::from(v)))
        .filter(|p| p.is_file())
        .find(|p| !open_to_others(p))
}

/// True if other users may read or run `path` and pass through every directory above it.
fn open_to_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(path) = std::path::absolute(path) else {
        return false;
    };
    let mode = |p: &Path| p.metadata().map(|m| m.permissions().mode()).unwrap_or(0);
    mode(&path) & 0o005 != 0 && path.ancestors().skip(1).all(|d| mode(d) & 0o001 != 0)
}

/// True when the candidate's program, or a passed variable, is this binary: the user
/// trusts it then, so it is not hidden.
fn names_the_judge(exe: &Path, command: &[OsString], env: &[(OsString, OsString)]) -> bool {
    let program = command.first().and_then(|p| resolve_program(p));
    program.is_some_and(|p| same_file(exe, &p))
        || env.iter().any(|(_, v)| same_file(exe, Path::new(v)))
}

/// The file a program name runs: a name with a `/` as it is, otherwise the first
/// executable file of that name in `PATH`.
pub fn resolve_program(program: &OsStr) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return Some(path.to_path_buf());
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|d| d.join(path))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// True when both paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (a.metadata(), b.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Checks that a thread may make pid and mount namespaces, and makes the network
/// namespace every case shares (no interface up: no network at all).
fn probe_namespaces() -> Result<File, Unavailable> {
    let probe = thread::spawn(|| -> Result<File, Unavailable> {
        let fail = |feature: &'static str| {
            move |e: nix::Error| Unavailable {
                feature,
                reason: format!("{e} (namespaces need root here; try --sandbox basic)"),
            }
        };
        unshare(CloneFlags::CLONE_NEWPID).map_err(fail("a pid namespace"))?;
        unshare(CloneFlags::CLONE_NEWNS).map_err(fail("a mount namespace"))?;
        unshare(CloneFlags::CLONE_NEWNET).map_err(fail("a network namespace"))?;
        File::open("/proc/thread-self/ns/net").map_err(|e| Unavailable {
            feature: "a network namespace",
            reason: e.to_string(),
        })
    });
    probe.join().unwrap_or_else(|_| {
        Err(Unavailable {
            feature: "namespaces",
            reason: "the probe failed".to_string(),
        })
    })
}

/// Moves the calling thread (which must start a single child and then end) into fresh pid
/// and mount namespaces and the shared network namespace, so the next process it starts
/// is pid 1 of its own namespace.
pub fn enter_namespaces(netns: &File) -> nix::Result<()> {
    unshare(CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWNS)?;
    setns(netns, CloneFlags::CLONE_NEWNET)
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
    fn only_the_allow_list_and_passed_names_reach_the_candidate() {
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
    fn the_report_line_names_what_is_in_force() {
        let s = SandboxSummary {
            mechanism: Mechanism::Namespaces,
            namespaces: vec!["pid", "net", "mount"],
            memory_mib: Some(1024),
            env_cleared: true,
            run_as_uid: None,
            root_because: None,
        };
        assert_eq!(
            summary_line(&s),
            "sandbox: pid+net+mount namespaces, memory 1024 MiB, env cleared"
        );
        let root = SandboxSummary {
            root_because: Some("/root/a.py is closed to other users".to_string()),
            ..s
        };
        assert!(
            summary_line(&root).ends_with(", runs as root (/root/a.py is closed to other users)")
        );
        let none = SandboxSummary {
            mechanism: Mechanism::None,
            namespaces: vec![],
            memory_mib: None,
            env_cleared: false,
            run_as_uid: None,
            root_because: None,
        };
        assert_eq!(
            summary_line(&none),
            "sandbox: none (the command runs unconfined)"
        );
    }

    #[test]
    fn a_file_behind_a_closed_directory_is_closed_to_others() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let closed = dir.path().join("closed");
        std::fs::create_dir(&closed).expect("mkdir");
        let script = closed.join("a.py");
        std::fs::write(&script, "print(2)\n").expect("write");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert!(open_to_others(&script));
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        assert!(!open_to_others(&script));
        let command = [OsString::from("sh"), script.clone().into_os_string()];
        assert_eq!(closed_to_others(&command, &[]), Some(script));
        assert_eq!(closed_to_others(&[OsString::from("sh")], &[]), None);
    }

    #[test]
    fn cpu_time_is_twice_the_timeout_rounded_up() {
        assert_eq!(cpu_seconds(Duration::from_millis(300)), 1);
        assert_eq!(cpu_seconds(Duration::from_secs(5)), 10);
        assert_eq!(cpu_seconds(Duration::from_millis(2600)), 6);
    }
}
