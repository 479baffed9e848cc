//! How one case is contained, on the judge's side: [`Sandbox::prepare`] makes the process
//! to start (the answer itself under `--sandbox none`, else the `beast __contain` helper
//! with the case's [`Spec`]) and everything it holds until its run is over
//! ([`CaseResources`]: its private directory or puzzle file, cgroup, user id, network
//! namespace and status file); [`Spawner`] starts it from its own thread in the case's
//! namespaces and cgroups; [`Sandbox::finish_case`] reads what is left to read (memory,
//! the status file) and gives back what is reused. A new protection is added here and in
//! the helper's files: the case runner only starts, supervises and classifies.
//!
//! The answer's command is the layout's [`AnswerCommand`] with the puzzle placed in its
//! arguments (`--input arg|file`): it leaves here only as words passed on (a keeper's
//! arguments, a zygote's request), or, under `--sandbox none`, as the process itself.

use std::ffi::{OsStr, OsString};
#[cfg(jail)]
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::cgroup::{CaseGroup, ThreadEntry};
use super::spec::{Confinement, INPUT_NAME, Keeper, Limits, Spec};
#[cfg(jail)]
use super::spec::{JAILED_HOME, Jail, Outer};
use super::step::{SetUpFailure, Told, setup_failure};
use super::uids::Lease;
use super::untrusted::AnswerCommand;
#[cfg(jail)]
use super::zygote::{Held, Zygote};
use super::{Mechanism, Sandbox};
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
#[cfg_attr(not(jail), allow(dead_code))]
pub(super) const TMP_SIZE: u64 = 256 << 20;

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
    #[cfg_attr(not(jail), allow(dead_code))]
    pub(super) fn root_dir(&self) -> PathBuf {
        self.0.path().join("root")
    }
}

/// The terms one case of an answer is contained on: how the puzzle is fed, the time and
/// output limits, and where the case's files are made (its command is the sandbox's own,
/// [`super::layout::Layout::command`]).
#[derive(Clone, Copy, Debug)]
pub struct CaseTerms<'a> {
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
    /// The helper's status file, in the workspace: empty unless the set-up failed.
    status: Option<tempfile::NamedTempFile>,
}

impl CaseResources {
    /// The resources of a case that holds only its cgroup (a case of the jail's zygote).
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn of_group(group: Option<CaseGroup>) -> CaseResources {
        CaseResources {
            group,
            ..CaseResources::default()
        }
    }

    /// What the thread that starts the case's process needs: the namespaces and cgroups
    /// it enters first.
    pub fn spawner(&self) -> io::Result<Spawner> {
        Ok(Spawner {
            entry: self.entry.clone(),
        })
    }
}

/// Starts a case's process from a thread of its own, which it moves into the case's
/// namespaces (the jail under root: the helper is then pid 1 of its own) and cgroups (the
/// child is born in them).
pub struct Spawner {
    entry: Option<ThreadEntry>,
}

impl Spawner {
    /// True when it starts the process as it is, entering no namespace and no cgroup.
    pub fn enters_nothing(&self) -> bool {
        self.entry.is_none()
    }

    /// Spawns `cmd` from the calling thread, which must start nothing else and then end.
    pub fn spawn(self, cmd: &mut Command) -> io::Result<Child> {
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
    pub setup_failure: Option<Told>,
}

impl Sandbox {
    /// The process of one case on `input` and what it holds: the candidate itself, or
    /// the sandbox helper with the candidate's command after `--`, which waits for
    /// [`super::spec::GO`] before it starts the answer if `ahead`. A step of the judge's
    /// own set-up that fails is a [`SetUpFailure`] inside the error.
    pub fn prepare(
        &self,
        terms: &CaseTerms,
        input: &[u8],
        ahead: bool,
    ) -> io::Result<(Command, CaseResources)> {
        // The layout's command: relative paths made absolute, a shim resolved (as the user
        // wrote it under `--sandbox none`).
        let command = &self.layout.command;
        if self.mechanism == Mechanism::None {
            return plain_command(command, terms.input, input);
        }
        self.check_program(command)?;
        let mut res = CaseResources {
            lease: self.lease(),
            ..CaseResources::default()
        };
        let (workdir, home) = self
            .private_dir(terms, input, &mut res)
            .map_err(SetUpFailure::step("make the private directory"))?;
        let input_path = workdir.join(INPUT_NAME).into_os_string();
        let command = feed(command, terms.input, input, || Ok(input_path))?;
        self.case_resources(terms.workspace, &mut res)?;
        let keeper = self.keeper(terms, workdir, command, &res, ahead);
        let mut cmd = Spec::Keep(keeper).command(&self.exe);
        cmd.env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("HOME", &home)
            .env("TMPDIR", &home)
            .stdin(terms.input.stdin());
        Ok((cmd, res))
    }

    /// The program of `command` names a file the answer's `PATH` finds (`NotFound`
    /// otherwise: the answer's failure to start, not the judge's).
    fn check_program(&self, command: &AnswerCommand) -> io::Result<()> {
        let path = self
            .env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_os_str());
        if command.program_file(path).is_none_or(|p| !p.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no program {}", command.program().to_string_lossy()),
            ));
        }
        Ok(())
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
            self.remove_group(group);
        }
        // The helper's own channel, not the answer's exit status.
        end.setup_failure = res.status.as_ref().and_then(|f| setup_failure(f.path()));
        self.give_back(res.lease.take());
        end
    }

    /// The case's cgroup, its network namespace (the jail under root) and the helper's
    /// status file.
    fn case_resources(&self, workspace: &Workspace, res: &mut CaseResources) -> io::Result<()> {
        res.group = self
            .case_group()
            .map_err(SetUpFailure::step("make the case's cgroup"))?;
        res.entry = res.group.as_ref().and_then(|g| g.thread_entry());
        // Where the helper tells a failed set-up: a file of the judge's, which no answer
        // can reach (the workspace lists nothing to others; the jail does not show it).
        res.status = Some(
            tempfile::Builder::new()
                .prefix("status-")
                .tempfile_in(workspace.path())
                .map_err(SetUpFailure::step("make the status file"))?,
        );
        Ok(())
    }

    /// The candidate's working directory as it sees it, and its HOME. Under namespaces it
    /// is made by the jail on a fresh tmpfs (the puzzle file is handed over here); in basic
    /// mode it is made here, owned by the user the candidate runs as.
    fn private_dir(
        &self,
        terms: &CaseTerms,
        input: &[u8],
        res: &mut CaseResources,
    ) -> io::Result<(PathBuf, PathBuf)> {
        let base = terms.workspace.path();
        let as_file = terms.input == InputMode::File;
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

    /// The keeper's description of this case (`--sandbox basic`; the jail's cases are
    /// asked of its zygotes, see [`super::zygote`]).
    fn keeper(
        &self,
        terms: &CaseTerms,
        workdir: PathBuf,
        command: AnswerCommand,
        res: &CaseResources,
        ahead: bool,
    ) -> Keeper {
        Keeper {
            judge_pid: self.judge_pid(),
            // Born in the case's cgroups (`ThreadEntry`), or joining them itself.
            cgroup: match (&res.group, &res.entry) {
                (Some(g), None) => g.dirs(),
                _ => Vec::new(),
            },
            answer: self.confinement(terms, res.lease.as_ref().map(|l| l.uid), workdir),
            await_go: ahead,
            status: res.status.as_ref().map(|f| f.path().to_path_buf()),
            command,
        }
    }

    /// What the answer runs as (`uid`), sees and is held to on `terms`, in `workdir`:
    /// the same under basic and in the jail.
    fn confinement(&self, terms: &CaseTerms, uid: Option<u32>, workdir: PathBuf) -> Confinement {
        Confinement {
            limits: Limits {
                cpu: super::limits::cpu_seconds(terms.timeout),
                fsize: terms.max_output as u64 + 1,
                address_space: self.address_space(),
                nproc: self.nproc(),
            },
            uid,
            ro: self.layout.bound.clone(),
            mask: self.layout.masks.clone(),
            workdir,
        }
    }

    /// The judge's process id, as a helper compares it.
    fn judge_pid(&self) -> i32 {
        i32::try_from(self.judge_pid).unwrap_or(i32::MAX)
    }
}

/// One case of the jail, ready to ask a zygote for: the request, the zygote's ends of the answer's
/// pipes and cgroup files, the judge's ends, and the case's cgroup.
#[cfg(jail)]
pub struct JailedCase {
    /// What the zygote is asked.
    pub request: super::wire::Request,
    /// The descriptors that go with it.
    pub fds: super::wire::RequestFds,
    /// The answer's standard input, the judge's end (the puzzle on standard input).
    pub stdin: Option<File>,
    /// Its standard output, the judge's end.
    pub stdout: File,
    /// Its standard error, the judge's end.
    pub stderr: File,
    /// The case's cgroup, if cgroups can be had.
    pub group: Option<CaseGroup>,
}

#[cfg(jail)]
impl Sandbox {
    /// Starts the jail's zygote of one slot on `terms`, and waits until it is ready.
    #[cfg(jail)]
    pub fn start_zygote(&self, terms: &CaseTerms) -> io::Result<Zygote> {
        let sandbox = self;
        let lease = sandbox.lease();
        let status = match super::zygote::status_file(terms.workspace.path()) {
            Ok(f) => f,
            Err(e) => {
                sandbox.give_back(lease);
                return Err(e);
            }
        };
        let uid = lease.as_ref().map(|l| l.uid);
        let outer = Outer {
            judge_pid: sandbox.judge_pid(),
            // The zygote enters each case's cgroup itself.
            cgroup: Vec::new(),
            jail: Jail {
                answer: sandbox.confinement(terms, uid, PathBuf::from(JAILED_HOME)),
                tmp_size: sandbox.memory_bytes().unwrap_or(TMP_SIZE).min(TMP_SIZE),
                root_dir: terms.workspace.root_dir(),
                status: Some(status.path().to_path_buf()),
            },
            command: None,
        };
        let held = Held {
            lease,
            pool: sandbox.host.uids.clone(),
            status,
        };
        Zygote::launch(&sandbox.exe, &outer, held)
    }

    /// One case on `terms` and `input`, as a zygote is asked for it. An error of the
    /// judge's own set-up is a [`SetUpFailure`] inside it; a command that names no program is the
    /// answer's (`NotFound`).
    pub fn jailed_case(&self, terms: &CaseTerms, input: &[u8]) -> io::Result<JailedCase> {
        let command = self.jailed_command(terms, input)?;
        let mut env = self.env.clone();
        env.push(("HOME".into(), super::spec::JAILED_HOME.into()));
        env.push(("TMPDIR".into(), super::spec::JAILED_HOME.into()));
        let pipes = std::io::pipe;
        let pipe = SetUpFailure::step("make the answer's pipes");
        let stdin = match terms.input {
            InputMode::Stdin => Some(pipes().map_err(pipe)?),
            _ => None,
        };
        let (out_r, out_w) = pipes().map_err(SetUpFailure::step("make the answer's pipes"))?;
        let (err_r, err_w) = pipes().map_err(SetUpFailure::step("make the answer's pipes"))?;
        let group = self
            .case_group()
            .map_err(SetUpFailure::step("make the case's cgroup"))?;
        let (entry, enter, leave) = match &group {
            Some(g) => g
                .entry()
                .map_err(SetUpFailure::step("open the case's cgroup"))?,
            None => (super::wire::Entry::None, Vec::new(), Vec::new()),
        };
        let fds = |files: Vec<File>| files.into_iter().map(Into::into).collect::<Vec<_>>();
        let (enter, leave) = (fds(enter), fds(leave));
        let request = super::wire::Request {
            command,
            env,
            input_file: (terms.input == InputMode::File).then(|| input.to_vec()),
            stdin: stdin.is_some(),
            entry,
            enter: enter.len(),
        };
        let (stdin_r, stdin_w) = match stdin {
            Some((r, w)) => (Some(r.into()), Some(platform::pipe_end(w))),
            None => (None, None),
        };
        Ok(JailedCase {
            request,
            fds: super::wire::RequestFds {
                stdin: stdin_r,
                stdout: out_w.into(),
                stderr: err_w.into(),
                enter,
                leave,
            },
            stdin: stdin_w,
            stdout: platform::pipe_end(out_r),
            stderr: platform::pipe_end(err_r),
            group,
        })
    }

    /// The answer's command as the jail runs it: the layout's (relative paths made
    /// absolute, a shim resolved), with the puzzle placed for `--input arg|file`.
    fn jailed_command(&self, terms: &CaseTerms, input: &[u8]) -> io::Result<AnswerCommand> {
        let command = &self.layout.command;
        self.check_program(command)?;
        let input_path = PathBuf::from(super::spec::JAILED_HOME).join(INPUT_NAME);
        feed(command, terms.input, input, || {
            Ok(input_path.into_os_string())
        })
    }
}

/// The candidate itself, in its own process group (`--sandbox none`), with the puzzle in
/// a temporary file for `--input file`.
fn plain_command(
    command: &AnswerCommand,
    mode: InputMode,
    input: &[u8],
) -> io::Result<(Command, CaseResources)> {
    let mut res = CaseResources::default();
    let fed = feed(command, mode, input, || {
        let file = plain_input_file(input)?;
        let path = file.path().as_os_str().to_os_string();
        res.file = Some(file);
        Ok(path)
    })?;
    let program = fed.program();
    let mut cmd = Command::new(program);
    platform::own_group(&mut cmd);
    cmd.args(fed.args()).stdin(mode.stdin());
    Ok((cmd, res))
}

/// The candidate's command with the puzzle placed in its arguments (`--input arg|file`).
fn feed(
    command: &AnswerCommand,
    mode: InputMode,
    input: &[u8],
    file_path: impl FnOnce() -> io::Result<OsString>,
) -> io::Result<AnswerCommand> {
    let rest = command.args();
    Ok(match mode {
        InputMode::Stdin => command.clone(),
        InputMode::Arg => command.with_args(substitute(rest, &platform::os_string(input.to_vec()))),
        InputMode::File => command.with_args(substitute(rest, &file_path()?)),
    })
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
