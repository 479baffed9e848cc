//! The one description of a contained run that both sides share: `beast check` writes it
//! as the arguments of the hidden `beast __contain` helper ([`Spec::to_args`]) and the
//! helper reads it back ([`Spec::parse`], the exact inverse, without clap: every case
//! starts a helper, and building a parser costs it more than the rest of its start).
//! Nothing else passes between them but the environment, the three standard streams and
//! the status file (`--status`), where a helper tells the judge of its own failure.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The hidden subcommand that makes `beast` the helper: `beast __contain SPEC...`.
pub const SUBCOMMAND: &str = "__contain";

/// The name of the puzzle file in the answer's directory (`--input file`).
pub const INPUT_NAME: &str = "input.txt";

/// The answer's private directory inside the jail: its working directory, `HOME` and
/// `TMPDIR`, on the jail's private `/tmp`.
#[cfg_attr(not(jail), allow(dead_code))]
pub const JAILED_HOME: &str = "/tmp/answer";

/// The byte a jail started ahead of its case reads from its standard input to start the
/// answer (`--await-go`); the puzzle follows it.
pub const GO: u8 = b'!';

/// What a helper process is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The jail's outer process: makes the namespaces (a user namespace first when the
    /// judge is not root), starts the zygote in them and passes on how it ended (or, given
    /// a command, judges that one case itself).
    Outer,
    /// No namespaces (`--sandbox basic`): a subreaper that confines itself (Landlock,
    /// seccomp, limits), starts the answer, and kills every descendant afterwards.
    Keep,
    /// One per check under root: when the judge is gone, however it went, kills every
    /// process left in the check's cgroups (`--cgroup`: their bases) and removes them.
    Warden,
    /// Started by a normal user's outer process before it makes its user namespace: once
    /// told on standard input, maps the case's subordinate id (`--uid`) into the namespace
    /// of `--judge-pid` (here the outer process) with `newuidmap` and `newgidmap`.
    Map,
    /// pid 1 of a jail that serves one slot's cases one after another: builds the minimal
    /// root once, then starts each case's answer asked for on its standard input (the
    /// judge's socket, see [`super::wire`]) in namespaces of the case's own.
    Zygote,
}

impl Role {
    /// Every role, for [`Role::named`].
    const ALL: [Role; 5] = [
        Role::Outer,
        Role::Keep,
        Role::Warden,
        Role::Map,
        Role::Zygote,
    ];

    fn name(self) -> &'static str {
        match self {
            Role::Outer => "outer",
            Role::Keep => "keep",
            Role::Warden => "warden",
            Role::Map => "map",
            Role::Zygote => "zygote",
        }
    }

    fn named(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }

    /// True for the roles that run the answer's command given after `--` (the warden and
    /// the mapper run none; a zygote is told each case's command on the judge's socket, and
    /// an outer process runs one only when given it).
    fn runs_a_command(self) -> bool {
        matches!(self, Role::Keep)
    }
}

/// One path the answer sees beyond the system directories, as the judge decided it once
/// for every case: where the answer sees it, the real path (no symbolic link on it) it is
/// made from, and whether the case's user must be able to cross every directory on the
/// way to it (a path the command line names) or only to read it (an installation the
/// judge's `PATH` found). The helper checks it again, by descriptor, before each mount
/// (see [`super::reach`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Where the answer sees it.
    pub at: PathBuf,
    /// The real path it is made from.
    pub from: PathBuf,
    /// True when every directory on the way to `from` is checked too.
    pub named: bool,
}

/// Arguments of `beast __contain`, written by `beast check` only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// What the helper is.
    pub role: Role,
    /// The judge's process id: the helper gives up when it is gone.
    pub judge_pid: i32,
    /// `RLIMIT_AS` in bytes: only where no memory cgroup could be made.
    pub address_space: Option<u64>,
    /// `RLIMIT_NPROC`: only where no pids cgroup could be made.
    pub nproc: Option<u64>,
    /// `RLIMIT_CPU` in seconds.
    pub cpu: u64,
    /// `RLIMIT_FSIZE` in bytes.
    pub fsize: u64,
    /// The user and group id the answer runs as (the judge is root): one of a range, never
    /// shared by two answers running at once. Without it the answer keeps the judge's.
    pub uid: Option<u32>,
    /// A cgroup directory of the case to join before anything else (repeatable: one per
    /// v1 controller, or the one v2 cgroup).
    pub cgroup: Vec<PathBuf>,
    /// A path bound read-only into the minimal root, at the same place (jail), or one the
    /// answer may read (basic, with Landlock), with the real path it is made from.
    pub ro: Vec<Bound>,
    /// A path inside a bound one that the answer must not see: a file becomes empty, a
    /// directory an empty, closed one.
    pub mask: Vec<PathBuf>,
    /// The size of the private `/tmp` in bytes (jail).
    pub tmp_size: u64,
    /// An empty directory the jail's root is built on (it is mounted over, in the jail's
    /// own mount namespace only).
    pub root_dir: Option<PathBuf>,
    /// Set up everything, then wait for one byte on standard input ([`GO`]) before starting
    /// the answer: a keeper started ahead of its case (basic).
    pub await_go: bool,
    /// The judge's file (outside every jail) where the helper writes `STEP: REASON` when a
    /// step of the set-up fails before the answer starts: the judge's own failure (IE),
    /// told apart from any exit status the answer could give. Empty when the answer
    /// started.
    pub status: Option<PathBuf>,
    /// The answer's working directory.
    pub workdir: PathBuf,
    /// The answer's command.
    pub command: Vec<OsString>,
}

impl Spec {
    /// A spec for `role` on behalf of the judge `judge_pid`, with nothing else set: no
    /// limit, no uid, no cgroup, nothing bound or masked, no root, `/` as the working
    /// directory and no command. Each role sets only the fields it uses.
    pub fn new(role: Role, judge_pid: i32) -> Spec {
        Spec {
            role,
            judge_pid,
            address_space: None,
            nproc: None,
            cpu: 0,
            fsize: 0,
            uid: None,
            cgroup: Vec::new(),
            ro: Vec::new(),
            mask: Vec::new(),
            tmp_size: 0,
            root_dir: None,
            await_go: false,
            status: None,
            workdir: PathBuf::from("/"),
            command: Vec::new(),
        }
    }

    /// The warden of this judge's check over its cgroup `bases`.
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn warden(bases: Vec<PathBuf>) -> Spec {
        let judge_pid = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        Spec {
            cgroup: bases,
            ..Spec::new(Role::Warden, judge_pid)
        }
    }

    /// The mapper of this spec's case uid into the user namespace of `outer` (the outer
    /// process that starts it).
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn mapper(&self, outer: i32) -> Spec {
        Spec {
            uid: self.uid,
            // A failed mapping is a failed set-up: the mapper tells it where the case does.
            status: self.status.clone(),
            ..Spec::new(Role::Map, outer)
        }
    }

    /// The helper's process for this spec: `exe` (this binary) run as [`SUBCOMMAND`] with
    /// the spec as its arguments; the caller sets its environment and streams.
    pub fn command(&self, exe: &Path) -> Command {
        let mut cmd = Command::new(exe);
        cmd.arg(SUBCOMMAND).args(self.to_args());
        cmd
    }

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
        for p in &self.mask {
            flag("mask", p.clone().into_os_string());
        }
        flag("tmp-size", self.tmp_size.to_string().into());
        if let Some(p) = &self.root_dir {
            flag("root-dir", p.clone().into_os_string());
        }
        if let Some(p) = &self.status {
            flag("status", p.clone().into_os_string());
        }
        flag("workdir", self.workdir.clone().into_os_string());
        if self.await_go {
            a.push("--await-go".into());
        }
        for b in &self.ro {
            a.push(if b.named { "--named" } else { "--ro" }.into());
            a.push(b.at.clone().into_os_string());
            a.push(b.from.clone().into_os_string());
        }
        a.push("--".into());
        a.extend(self.command.iter().cloned());
        a
    }

    /// The spec [`Spec::to_args`] wrote (the arguments after `__contain`), or what is
    /// wrong with them.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Spec, String> {
        let mut args = args.into_iter();
        let mut role = None;
        let mut judge_pid = None;
        let (mut address_space, mut nproc, mut uid) = (None, None, None);
        let (mut cpu, mut fsize, mut tmp_size) = (None, None, None);
        let (mut cgroup, mut ro, mut mask) = (Vec::new(), Vec::new(), Vec::new());
        let (mut root_dir, mut workdir) = (None, None);
        let mut status = None;
        let mut await_go = false;
        while let Some(arg) = args.next() {
            let name = arg.to_str().unwrap_or("").to_string();
            if name == "--" {
                break;
            }
            if name == "--await-go" {
                await_go = true;
                continue;
            }
            let value = args
                .next()
                .ok_or_else(|| format!("{} needs a value", arg.to_string_lossy()))?;
            let number = |v: &OsString| -> Result<u64, String> {
                v.to_str()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| format!("{name}: not a number: {}", v.to_string_lossy()))
            };
            match name.as_str() {
                "--role" => {
                    let r = Role::named(value.to_str().unwrap_or(""));
                    role = Some(r.ok_or_else(|| format!("no role {value:?}"))?);
                }
                "--judge-pid" => judge_pid = Some(number(&value)?),
                "--address-space" => address_space = Some(number(&value)?),
                "--nproc" => nproc = Some(number(&value)?),
                "--cpu" => cpu = Some(number(&value)?),
                "--fsize" => fsize = Some(number(&value)?),
                "--uid" => uid = Some(number(&value)?),
                "--tmp-size" => tmp_size = Some(number(&value)?),
                "--cgroup" => cgroup.push(PathBuf::from(value)),
                "--ro" | "--named" => {
                    let from = args.next().ok_or_else(|| {
                        format!("{name} needs a path and the path it is made from")
                    })?;
                    ro.push(Bound {
                        at: PathBuf::from(value),
                        from: PathBuf::from(from),
                        named: name == "--named",
                    });
                }
                "--mask" => mask.push(PathBuf::from(value)),
                "--root-dir" => root_dir = Some(PathBuf::from(value)),
                "--status" => status = Some(PathBuf::from(value)),
                "--workdir" => workdir = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown argument {}", arg.to_string_lossy())),
            }
        }
        let command: Vec<OsString> = args.collect();
        let missing = |what: &str| format!("no --{what}");
        let small = |what: &str, v: u64| -> Result<u32, String> {
            u32::try_from(v).map_err(|_| format!("--{what}: {v} is too large"))
        };
        let role = role.ok_or_else(|| missing("role"))?;
        if command.is_empty() && role.runs_a_command() {
            return Err("no command after --".to_string());
        }
        Ok(Spec {
            role,
            judge_pid: i32::try_from(judge_pid.ok_or_else(|| missing("judge-pid"))?)
                .map_err(|_| "--judge-pid: too large".to_string())?,
            address_space,
            nproc,
            cpu: cpu.ok_or_else(|| missing("cpu"))?,
            fsize: fsize.ok_or_else(|| missing("fsize"))?,
            uid: uid.map(|v| small("uid", v)).transpose()?,
            cgroup,
            ro,
            mask,
            tmp_size: tmp_size.ok_or_else(|| missing("tmp-size"))?,
            root_dir,
            await_go,
            status,
            workdir: workdir.ok_or_else(|| missing("workdir"))?,
            command,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_written_as_arguments_parses_back_into_itself() {
        let spec = Spec {
            role: Role::Keep,
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
            ro: vec![
                Bound {
                    at: "/opt/py".into(),
                    from: "/opt/py".into(),
                    named: false,
                },
                Bound {
                    at: "/tmp/x y".into(),
                    from: "/srv/x y".into(),
                    named: true,
                },
            ],
            mask: vec!["/opt/py/beast".into()],
            tmp_size: 64 << 20,
            root_dir: Some("/tmp/beast-check-1/root".into()),
            await_go: true,
            status: Some("/tmp/beast-check-1/status-x".into()),
            workdir: JAILED_HOME.into(),
            command: vec![
                "python3".into(),
                "--".into(),
                "-c".into(),
                "print(1)".into(),
            ],
        };
        assert_eq!(Spec::parse(spec.to_args()), Ok(spec.clone()));
        let bare = Spec {
            address_space: None,
            uid: None,
            cgroup: Vec::new(),
            root_dir: None,
            await_go: false,
            status: None,
            ..spec.with_role(Role::Warden)
        };
        assert_eq!(Spec::parse(bare.to_args()), Ok(bare));
        for role in Role::ALL {
            assert_eq!(Role::named(role.name()), Some(role));
        }
    }

    #[test]
    fn the_warden_and_the_mapper_need_no_command_and_carry_only_what_they_use() {
        let warden = Spec::warden(vec!["/sys/fs/cgroup/memory/beast-1".into()]);
        assert!(warden.command.is_empty());
        assert_eq!(Spec::parse(warden.to_args()), Ok(warden.clone()));
        let outer = Spec {
            uid: Some(100_007),
            status: Some("/tmp/beast-check-1/status-x".into()),
            command: vec!["./golf".into()],
            ..Spec::new(Role::Outer, 42)
        };
        let mapper = outer.mapper(43);
        assert_eq!((mapper.role, mapper.judge_pid), (Role::Map, 43));
        assert_eq!((mapper.uid, &mapper.status), (outer.uid, &outer.status));
        assert!(mapper.command.is_empty() && mapper.ro.is_empty());
        assert_eq!(Spec::parse(mapper.to_args()), Ok(mapper));
        let started = outer.command(Path::new("/usr/bin/beast"));
        let args: Vec<OsString> = started.get_args().map(OsString::from).collect();
        assert_eq!(args[0], SUBCOMMAND);
        assert_eq!(Spec::parse(args[1..].to_vec()), Ok(outer));
    }

    #[test]
    fn a_spec_that_to_args_could_not_have_written_is_refused_saying_why() {
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let base = [
            "--role",
            "keep",
            "--judge-pid",
            "1",
            "--cpu",
            "2",
            "--fsize",
            "3",
            "--tmp-size",
            "4",
            "--workdir",
            "/w",
        ];
        let with = |extra: &[&str]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            Spec::parse(os(&v))
        };
        assert!(with(&["--", "true"]).is_ok());
        assert_eq!(with(&["--"]), Err("no command after --".to_string()));
        assert_eq!(
            with(&["--cpu", "x", "--", "true"]),
            Err("--cpu: not a number: x".to_string())
        );
        assert_eq!(
            with(&["--bogus", "1", "--", "true"]),
            Err("unknown argument --bogus".to_string())
        );
        assert_eq!(with(&["--uid"]), Err("--uid needs a value".to_string()));
        assert_eq!(
            Spec::parse(os(&["--role", "judge", "--", "true"])),
            Err("no role \"judge\"".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "keep", "--", "true"])),
            Err("no --judge-pid".to_string())
        );
    }
}
