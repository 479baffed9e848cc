//! How one case is contained, on the judge's side: [`Sandbox::prepare`] makes the process
//! to start (the answer itself under `--sandbox none`, else the `beast __contain` helper
//! with the case's [`Spec`]) and everything it holds until its run is over
//! ([`CaseResources`]: its private directory or puzzle file, cgroup, user id, network
//! namespace and status file); [`Spawner`] starts it from its own thread in the case's
//! namespaces and cgroups; [`Sandbox::finish_case`] reads what is left to read (memory,
//! the status file) and gives back what is reused. A new protection is added here and in
//! the helper's files: the case runner only starts, supervises and classifies.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::cgroup::{CaseGroup, ThreadEntry};
use super::spec::{INPUT_NAME, JAILED_HOME, Role, Spec};
use super::{Lease, Mechanism, Sandbox};
use crate::cli::platform;

/// How the puzzle reaches the candidate (`--input`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputMode {
    /// On standard input.
    #[default]
    Stdin,
    /// As one argument, substituted for `{}` or appended.
    Arg,
    /// As the path of a file named `input.txt` in the candidate's private directory,
    /// substituted for `{}` or appended.
    File,
}

impl InputMode {
    /// The candidate's standard input: a pipe for the puzzle, or nothing.
    fn stdin(self) -> Stdio {
        match self {
            InputMode::Stdin => Stdio::piped(),
            _ => Stdio::null(),
        }
    }
}

/// The largest private `/tmp` (and `/dev/shm`) of a jail; the memory limit, when smaller.
const TMP_SIZE: u64 = 256 << 20;

/// The directory of one check's private case directories, removed at the end.
#[derive(Debug)]
pub struct Workspace(tempfile::TempDir);

impl Workspace {
    /// A fresh directory under the system's temporary directory that `nobody` may cross
    /// but not list (case directories have unguessable names).
    pub fn new() -> io::Result<Workspace> {
        let dir = tempfile::Builder::new().prefix("beast-check-").tempdir()?;
        platform::crossable_only(dir.path())?;
        std::fs::create_dir(dir.path().join("root"))?;
        Ok(Workspace(dir))
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The empty directory every jail builds its root on (in its own mount namespace).
    fn root_dir(&self) -> PathBuf {
        self.0.path().join("root")
    }
}

/// What the sandbox needs of the candidate to contain one of its cases.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// The command and its arguments, as the user wrote them.
    pub command: &'a [OsString],
    /// How the puzzle is fed.
    pub input: InputMode,
    /// The time limit.
    pub timeout: Duration,
    /// The most bytes of output allowed.
    pub max_output: usize,
    /// Where private directories and puzzle files are made.
    pub workspace: &'a Workspace,
}

/// Files, cgroups, the user id and the network namespace of one case, which live until
/// its run is over.
#[derive(Default)]
pub struct CaseResources {
    _dir: Option<tempfile::TempDir>,
    file: Option<tempfile::NamedTempFile>,
    group: Option<CaseGroup>,
    entry: Option<ThreadEntry>,
    lease: Option<Lease>,
    network: Option<File>,
    /// The helper's status file, in the workspace: empty unless the set-up failed.
    status: Option<tempfile::NamedTempFile>,
}

impl CaseResources {
    /// What the thread that starts the case's process needs: the namespaces and cgroups
    /// it enters first.
    pub fn spawner(&self) -> io::Result<Spawner> {
        Ok(Spawner {
            network: self.network.as_ref().map(File::try_clone).transpose()?,
            entry: self.entry.clone(),
        })
    }
}

/// Starts a case's process from a thread of its own, which it moves into the case's
/// namespaces (the jail under root: the helper is then pid 1 of its own) and cgroups (the
/// child is born in them).
pub struct Spawner {
    network: Option<File>,
    entry: Option<ThreadEntry>,
}

impl Spawner {
    /// True when it starts the process as it is, entering no namespace and no cgroup.
    pub fn enters_nothing(&self) -> bool {
        self.network.is_none() && self.entry.is_none()
    }

    /// Spawns `cmd` from the calling thread, which must start nothing else and then end.
    pub fn spawn(self, cmd: &mut Command) -> io::Result<Child> {
        if let Some(ns) = &self.network {
            super::enter_case_namespaces(ns)?;
        }
        let entry = self.entry.as_ref();
        let spawned = match entry.map(ThreadEntry::enter) {
            Some(Err(e)) => Err(e),
            _ => cmd.spawn(),
        };
        // Born in the case's cgroups, the child keeps them: this thread has no more
        // business there.
        if let Some(entry) = entry {
            entry.leave();
        }
        spawned
    }
}

/// What a case's resources said once its run was over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseEnd {
    /// The most memory the case held at once, where its cgroup measured it.
    pub peak_memory: Option<u64>,
    /// True when its memory cgroup killed a process for want of memory.
    pub oom_killed: bool,
    /// What the helper wrote in its status file (`STEP: REASON`): the set-up failed.
    pub setup_failure: Option<String>,
}

impl Sandbox {
    /// The process of one case on `input` and what it holds: the candidate itself, or
    /// the sandbox helper with the candidate's command after `--`, which waits for
    /// [`super::spec::GO`] before it starts the answer if `ahead`. A step of the judge's
    /// own set-up that fails is a [`SetUp`] inside the error.
    pub fn prepare(
        &self,
        candidate: &Candidate,
        input: &[u8],
        ahead: bool,
    ) -> io::Result<(Command, CaseResources)> {
        let (program, rest) = candidate
            .command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command given"))?;
        if self.mechanism == Mechanism::None {
            return plain_command(program, rest, candidate.input, input);
        }
        // The layout's command: relative paths made absolute, a shim resolved.
        let (program, rest) = self.layout.command.split_first().unwrap_or((program, rest));
        let path = self
            .env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_os_str());
        if super::layout::resolve_program(program, path).is_none_or(|p| !p.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no program {}", program.to_string_lossy()),
            ));
        }
        let mut res = CaseResources {
            lease: self.lease(),
            ..CaseResources::default()
        };
        let (workdir, home) = self
            .private_dir(candidate, input, &mut res)
            .map_err(SetUp::step("make the private directory"))?;
        let input_path = workdir.join(INPUT_NAME).into_os_string();
        let mut command = vec![program.clone()];
        command.extend(feed(rest, candidate.input, input, || Ok(input_path))?);
        self.case_resources(candidate.workspace, &mut res)?;
        let spec = self.case_spec(candidate, workdir, command, &res, ahead);
        let mut cmd = spec.command(&self.exe);
        cmd.env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("HOME", &home)
            .env("TMPDIR", &home)
            .stdin(candidate.input.stdin());
        Ok((cmd, res))
    }

    /// Lets go of the resources of a case whose process never started, its user id given
    /// back.
    pub fn abandon(&self, mut res: CaseResources) {
        self.give_back(res.lease.take());
    }

    /// Once a case's run is over: kills whatever is left in its cgroup, reads what it
    /// measured and what the helper's status file says, and gives back its user id and
    /// network namespace for the next case.
    pub fn finish_case(&self, mut res: CaseResources) -> CaseEnd {
        let mut end = CaseEnd::default();
        if let Some(group) = res.group.take() {
            // Whatever the answer did to its keeper, nothing of the case outlives it.
            group.kill_all();
            let usage = group.usage();
            end.peak_memory = usage.peak;
            end.oom_killed = usage.oom_killed;
        }
        // The helper's own channel, not the answer's exit status.
        end.setup_failure = res.status.as_ref().and_then(|f| setup_failure(f.path()));
        self.give_back(res.lease.take());
        if let Some(ns) = res.network.take() {
            self.host.give_network(ns);
        }
        end
    }

    /// The case's cgroup, its network namespace (the jail under root) and the helper's
    /// status file.
    fn case_resources(&self, workspace: &Workspace, res: &mut CaseResources) -> io::Result<()> {
        res.group = self
            .case_group()
            .map_err(SetUp::step("make the case's cgroup"))?;
        res.entry = res.group.as_ref().and_then(|g| g.thread_entry());
        if self.direct_jail() {
            res.network = Some(
                self.host
                    .take_network()
                    .map_err(SetUp::step("make a network namespace"))?,
            );
        }
        // Where the helper tells a failed set-up: a file of the judge's, which no answer
        // can reach (the workspace lists nothing to others; the jail does not show it).
        res.status = Some(
            tempfile::Builder::new()
                .prefix("status-")
                .tempfile_in(workspace.path())
                .map_err(SetUp::step("make the status file"))?,
        );
        Ok(())
    }

    /// The candidate's working directory as it sees it, and its HOME. Under namespaces it
    /// is made by the jail on a fresh tmpfs (the puzzle file is handed over here); in basic
    /// mode it is made here, owned by the user the candidate runs as.
    fn private_dir(
        &self,
        candidate: &Candidate,
        input: &[u8],
        res: &mut CaseResources,
    ) -> io::Result<(PathBuf, PathBuf)> {
        let base = candidate.workspace.path();
        let as_file = candidate.input == InputMode::File;
        if self.mechanism == Mechanism::Jail {
            if as_file {
                let mut f = tempfile::Builder::new()
                    .prefix("puzzle-")
                    .tempfile_in(base)?;
                f.write_all(input)?;
                res.file = Some(f);
            }
            return Ok((PathBuf::from(JAILED_HOME), PathBuf::from(JAILED_HOME)));
        }
        let dir = tempfile::Builder::new().prefix("case-").tempdir_in(base)?;
        if as_file {
            std::fs::write(dir.path().join(INPUT_NAME), input)?;
        }
        if let Some(id) = res.lease.as_ref().map(|l| l.uid) {
            platform::chown(dir.path(), id)?;
            if as_file {
                platform::chown(&dir.path().join(INPUT_NAME), id)?;
            }
        }
        let path = dir.path().to_path_buf();
        res._dir = Some(dir);
        Ok((path.clone(), path))
    }

    /// The helper's description of this case.
    fn case_spec(
        &self,
        candidate: &Candidate,
        workdir: PathBuf,
        command: Vec<OsString>,
        res: &CaseResources,
        ahead: bool,
    ) -> Spec {
        let jail = self.mechanism == Mechanism::Jail;
        Spec {
            role: match (jail, self.direct_jail()) {
                (true, true) => Role::Init,
                (true, false) => Role::Outer,
                (false, _) => Role::Keep,
            },
            judge_pid: i32::try_from(self.judge_pid).unwrap_or(i32::MAX),
            address_space: self.address_space(),
            nproc: self.nproc(),
            cpu: super::cpu_seconds(candidate.timeout),
            fsize: candidate.max_output as u64 + 1,
            uid: res.lease.as_ref().map(|l| l.uid),
            // Born in the case's cgroups (`ThreadEntry`), or joining them itself.
            cgroup: match (&res.group, &res.entry) {
                (Some(g), None) => g.dirs(),
                _ => Vec::new(),
            },
            ro: self.layout.bound.clone(),
            mask: self.layout.masks.clone(),
            tmp_size: self.memory_bytes().unwrap_or(TMP_SIZE).min(TMP_SIZE),
            root_dir: jail.then(|| candidate.workspace.root_dir()),
            input_file: res
                .file
                .as_ref()
                .filter(|_| jail)
                .map(|f| f.path().to_path_buf()),
            await_go: ahead,
            status: res.status.as_ref().map(|f| f.path().to_path_buf()),
            workdir,
            command,
        }
    }
}

/// The candidate itself, in its own process group (`--sandbox none`), with the puzzle in
/// a temporary file for `--input file`.
fn plain_command(
    program: &OsString,
    rest: &[OsString],
    mode: InputMode,
    input: &[u8],
) -> io::Result<(Command, CaseResources)> {
    let mut res = CaseResources::default();
    let mut cmd = Command::new(program);
    platform::own_group(&mut cmd);
    let args = feed(rest, mode, input, || {
        let file = plain_input_file(input)?;
        let path = file.path().as_os_str().to_os_string();
        res.file = Some(file);
        Ok(path)
    })?;
    cmd.args(args).stdin(mode.stdin());
    Ok((cmd, res))
}

/// The candidate's arguments with the puzzle placed (`--input arg|file`).
fn feed(
    rest: &[OsString],
    mode: InputMode,
    input: &[u8],
    file_path: impl FnOnce() -> io::Result<OsString>,
) -> io::Result<Vec<OsString>> {
    Ok(match mode {
        InputMode::Stdin => rest.to_vec(),
        InputMode::Arg => substitute(rest, &platform::os_string(input.to_vec())),
        InputMode::File => substitute(rest, &file_path()?),
    })
}

/// A step of the set-up that the judge itself does (its cgroup, directories, the helper's
/// start) and that failed: carried inside an `io::Error` to the case runner, which makes
/// it an IE like a failure the helper tells.
#[derive(Debug)]
pub struct SetUp {
    step: &'static str,
    source: io::Error,
}

impl SetUp {
    /// Wraps an error of `step`.
    pub fn step(step: &'static str) -> impl FnOnce(io::Error) -> io::Error {
        move |source| io::Error::other(SetUp { step, source })
    }

    /// The failed step inside `e`, if it is one.
    pub fn of(e: &io::Error) -> Option<&SetUp> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<SetUp>())
    }
}

impl std::fmt::Display for SetUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.step, self.source)
    }
}

impl std::error::Error for SetUp {}

/// The most bytes of a status file read.
const STATUS_KEPT: u64 = 1024;

/// What the helper wrote in its status file at `path` (`STEP: REASON`), if anything: a
/// bounded prefix, as text.
fn setup_failure(path: &Path) -> Option<String> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(STATUS_KEPT).read_to_end(&mut bytes))
        .ok()?;
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The puzzle in a temporary file, for `--input file` without a sandbox.
fn plain_input_file(input: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut f = tempfile::Builder::new()
        .prefix("beast-check-")
        .suffix(".txt")
        .tempfile()?;
    f.write_all(input)?;
    f.flush()?;
    Ok(f)
}

/// The arguments with every `{}` replaced by `value`, or with `value` appended if none
/// holds `{}`.
fn substitute(args: &[OsString], value: &OsStr) -> Vec<OsString> {
    let mut found = false;
    let mut out: Vec<OsString> = args
        .iter()
        .map(|a| {
            let bytes = a.as_encoded_bytes();
            if !bytes.windows(2).any(|w| w == b"{}") {
                return a.clone();
            }
            found = true;
            let mut v = Vec::with_capacity(bytes.len() + value.len());
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"{}") {
                    v.extend_from_slice(value.as_encoded_bytes());
                    i += 2;
                } else {
                    v.push(bytes[i]);
                    i += 1;
                }
            }
            platform::os_string(v)
        })
        .collect();
    if !found {
        out.push(value.to_os_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_of_the_judges_own_set_up_is_told_apart_from_other_errors() {
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        let failed = SetUp::step("make the case's cgroup")(denied);
        assert_eq!(
            SetUp::of(&failed).map(ToString::to_string).as_deref(),
            Some("make the case's cgroup: permission denied")
        );
        let answers = io::Error::new(io::ErrorKind::NotFound, "no program ./golf");
        assert!(SetUp::of(&answers).is_none());
    }

    #[test]
    fn a_status_file_says_a_step_only_when_the_helper_wrote_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("status");
        std::fs::write(&path, "").expect("write");
        assert_eq!(setup_failure(&path), None);
        std::fs::write(&path, "bind a path: ENOENT\n").expect("write");
        assert_eq!(setup_failure(&path).as_deref(), Some("bind a path: ENOENT"));
        std::fs::write(&path, "x".repeat(10_000)).expect("write");
        assert_eq!(
            setup_failure(&path).map(|s| s.len()),
            Some(1024),
            "a bounded prefix"
        );
        assert_eq!(setup_failure(&dir.path().join("none")), None);
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn braces_are_substituted_or_the_value_appended() {
        let v = OsStr::new("/tmp/p.txt");
        assert_eq!(
            substitute(&os(&["-f", "{}", "x{}y"]), v),
            os(&["-f", "/tmp/p.txt", "x/tmp/p.txty"])
        );
        assert_eq!(substitute(&os(&["-f"]), v), os(&["-f", "/tmp/p.txt"]));
    }
}
