//! The one description of a contained run that both sides share: `beast check` writes it
//! as the arguments of the hidden `beast __contain` helper ([`Spec::to_args`]) and the
//! helper reads it back with clap ([`Spec`] is its `clap::Args`). Nothing else passes
//! between them but the environment and the three standard streams.

use std::ffi::OsString;
use std::path::PathBuf;

/// The name of the puzzle file in the answer's directory (`--input file`).
pub const INPUT_NAME: &str = "input.txt";

/// The answer's private directory inside the jail: its working directory, `HOME` and
/// `TMPDIR`, on the jail's private `/tmp`.
pub const JAILED_HOME: &str = "/tmp/answer";

/// The byte a jail started ahead of its case reads from its standard input to start the
/// answer (`--await-go`); the puzzle follows it.
pub const GO: u8 = b'!';

/// What a helper process is.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The jail's outer process: joins the case's cgroups, makes the namespaces (a user
    /// namespace first when the judge is not root), starts `init` in them and passes on
    /// how it ended.
    Outer,
    /// pid 1 of the jail: builds the minimal root, gives up every privilege and becomes
    /// the answer by `exec`.
    Init,
    /// No namespaces (`--sandbox basic`): a subreaper that confines itself (Landlock,
    /// seccomp, limits), starts the answer, and kills every descendant afterwards.
    Keep,
    /// One per check under root: when the judge is gone, however it went, kills every
    /// process left in the check's cgroups (`--cgroup`: their bases) and removes them.
    Warden,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Outer => "outer",
            Role::Init => "init",
            Role::Keep => "keep",
            Role::Warden => "warden",
        }
    }
}

/// Arguments of `beast __contain`, written by `beast check` only.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// What the helper is.
    #[arg(long, value_enum)]
    pub role: Role,
    /// The judge's process id: the helper gives up when it is gone.
    #[arg(long)]
    pub judge_pid: i32,
    /// `RLIMIT_AS` in bytes: only where no memory cgroup could be made.
    #[arg(long)]
    pub address_space: Option<u64>,
    /// `RLIMIT_NPROC`: only where no pids cgroup could be made.
    #[arg(long)]
    pub nproc: Option<u64>,
    /// `RLIMIT_CPU` in seconds.
    #[arg(long)]
    pub cpu: u64,
    /// `RLIMIT_FSIZE` in bytes.
    #[arg(long)]
    pub fsize: u64,
    /// The user and group id the answer runs as (the judge is root): one of a range, never
    /// shared by two answers running at once. Without it the answer keeps the judge's.
    #[arg(long)]
    pub uid: Option<u32>,
    /// A cgroup directory of the case to join before anything else (repeatable: one per
    /// v1 controller, or the one v2 cgroup).
    #[arg(long)]
    pub cgroup: Vec<PathBuf>,
    /// A path bound read-only into the minimal root, at the same place (jail), or one the
    /// answer may read (basic, with Landlock).
    #[arg(long)]
    pub ro: Vec<PathBuf>,
    /// A path inside a bound one that the answer must not see: a file becomes empty, a
    /// directory an empty, closed one.
    #[arg(long)]
    pub mask: Vec<PathBuf>,
    /// The size of the private `/tmp` in bytes (jail).
    #[arg(long)]
    pub tmp_size: u64,
    /// An empty directory the jail's root is built on (it is mounted over, in the jail's
    /// own mount namespace only).
    #[arg(long)]
    pub root_dir: Option<PathBuf>,
    /// The puzzle to copy into the private directory as `input.txt` (jail).
    #[arg(long)]
    pub input_file: Option<PathBuf>,
    /// Set up everything, then wait for one byte on standard input ([`GO`]) before starting
    /// the answer: a jail started ahead of its case (jail).
    #[arg(long)]
    pub await_go: bool,
    /// The answer's working directory.
    #[arg(long)]
    pub workdir: PathBuf,
    /// The answer's command.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<OsString>,
}

impl Spec {
    /// The same spec for another role (the outer process starts `init` with its own).
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn with_role(&self, role: Role) -> Spec {
        Spec {
            role,
            ..self.clone()
        }
    }

    /// The helper's arguments, after `__contain`, that parse back into this spec.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut flag = |name: &str, value: OsString| {
            a.push(format!("--{name}").into());
            a.push(value);
        };
        flag("role", self.role.name().into());
        flag("judge-pid", self.judge_pid.to_string().into());
        if let Some(v) = self.address_space {
            flag("address-space", v.to_string().into());
        }
        if let Some(v) = self.nproc {
            flag("nproc", v.to_string().into());
        }
        flag("cpu", self.cpu.to_string().into());
        flag("fsize", self.fsize.to_string().into());
        if let Some(v) = self.uid {
            flag("uid", v.to_string().into());
        }
        for p in &self.cgroup {
            flag("cgroup", p.clone().into_os_string());
        }
        for p in &self.ro {
            flag("ro", p.clone().into_os_string());
        }
        for p in &self.mask {
            flag("mask", p.clone().into_os_string());
        }
        flag("tmp-size", self.tmp_size.to_string().into());
        if let Some(p) = &self.root_dir {
            flag("root-dir", p.clone().into_os_string());
        }
        if let Some(p) = &self.input_file {
            flag("input-file", p.clone().into_os_string());
        }
        flag("workdir", self.workdir.clone().into_os_string());
        if self.await_go {
            a.push("--await-go".into());
        }
        a.push("--".into());
        a.extend(self.command.iter().cloned());
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Helper {
        #[command(flatten)]
        spec: Spec,
    }

    #[test]
    fn a_spec_written_as_arguments_parses_back_into_itself() {
        let spec = Spec {
            role: Role::Init,
            judge_pid: 42,
            address_space: Some(1 << 30),
            nproc: None,
            cpu: 4,
            fsize: 1025,
            uid: Some(1_879_048_193),
            cgroup: vec![
                "/sys/fs/cgroup/memory/a".into(),
                "/sys/fs/cgroup/pids/a".into(),
            ],
            ro: vec!["/opt/py".into(), "/tmp/x y".into()],
            mask: vec!["/opt/py/beast".into()],
            tmp_size: 64 << 20,
            root_dir: Some("/tmp/beast-check-1/root".into()),
            input_file: None,
            await_go: true,
            workdir: JAILED_HOME.into(),
            command: vec![
                "python3".into(),
                "--".into(),
                "-c".into(),
                "print(1)".into(),
            ],
        };
        let mut argv: Vec<OsString> = vec!["beast".into()];
        argv.extend(spec.to_args());
        let back = Helper::try_parse_from(argv).expect("parses");
        assert_eq!(back.spec, spec);
        assert_eq!(spec.with_role(Role::Outer).role, Role::Outer);
    }
}
