//! The one description of a contained run that both sides share: `beast check` writes it
//! as the arguments of the hidden `beast __contain` helper ([`Spec::to_args`]) and the
//! helper reads it back ([`Spec::parse`], the exact inverse, without clap: every case
//! starts a helper, and building a parser costs it more than the rest of its start).
//! Nothing else passes between them but the environment, the three standard streams and
//! the status file (`--status`), where a helper tells the judge of its own failure.
//!
//! A [`Spec`] is one variant a [`Role`], each holding exactly what that role uses: the
//! answer's [`Limits`] and what it sees ([`Confinement`], shared by the keeper and the
//! jail), the [`Jail`] a zygote builds, the [`Outer`] process around it, the [`Keeper`],
//! the [`Warden`] and the [`Mapping`]. A role writes only its own flags, and a flag of
//! another role is refused when read back. The answer's words, after `--`, are read back
//! as an [`AnswerCommand`], never as paths or flags.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::untrusted::AnswerCommand;

/// The hidden subcommand that makes `beast` the helper: `beast __contain SPEC...`.
pub const SUBCOMMAND: &str = "__contain";

/// The system directories every answer sees, read-only (where they exist).
pub const SYSTEM: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

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
    /// of `--outer-pid` (the outer process) with `newuidmap` and `newgidmap`.
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

    /// Its name on the command line (`--role NAME`).
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

/// The resource limits of the answer: set by the keeper on itself before it starts the
/// answer, or by a zygote on each answer the moment it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `RLIMIT_CPU` in seconds.
    pub cpu: u64,
    /// `RLIMIT_FSIZE` in bytes.
    pub fsize: u64,
    /// `RLIMIT_AS` in bytes: only where no memory cgroup could be made.
    pub address_space: Option<u64>,
    /// `RLIMIT_NPROC`: only where no pids cgroup could be made.
    pub nproc: Option<u64>,
}

/// What the answer runs as, sees and is held to, the same under basic and in the jail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confinement {
    /// Its resource limits.
    pub limits: Limits,
    /// The user and group id the answer runs as: one of a range (the judge's under root,
    /// or its user's subordinate ids), never shared by two answers running at once.
    /// Without it the answer keeps the judge's.
    pub uid: Option<u32>,
    /// A path bound read-only into the minimal root, at the same place (jail), or one the
    /// answer may read (basic, with Landlock), with the real path it is made from.
    pub ro: Vec<Bound>,
    /// A path inside a bound one that the answer must not see: a file becomes empty, a
    /// directory an empty, closed one.
    pub mask: Vec<PathBuf>,
    /// The answer's working directory.
    pub workdir: PathBuf,
}

/// The jail a zygote builds once and runs each case of its slot in ([`Role::Zygote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jail {
    /// What each answer runs as, sees and is held to.
    pub answer: Confinement,
    /// The size of the private `/tmp` (and `/dev/shm`) in bytes.
    pub tmp_size: u64,
    /// An empty directory the jail's root is built on (it is mounted over, in the jail's
    /// own mount namespace only).
    pub root_dir: PathBuf,
    /// The judge's status file (see [`Keeper::status`]), shared with the outer process
    /// and its mapper.
    pub status: Option<PathBuf>,
}

/// The outer process of one slot's jail ([`Role::Outer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outer {
    /// The judge's process id: the outer process gives up when it is gone.
    pub judge_pid: i32,
    /// The cgroup directories to join before anything else (the zygote is born in them).
    pub cgroup: Vec<PathBuf>,
    /// The jail its zygote builds.
    pub jail: Jail,
    /// One case's command to judge itself (a jail by hand, and the tests'); none when it
    /// passes its standard input, the judge's socket, on to the zygote.
    pub command: Option<AnswerCommand>,
}

/// The keeper of one case under `--sandbox basic` ([`Role::Keep`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keeper {
    /// The judge's process id: the keeper gives up when it is not its parent.
    pub judge_pid: i32,
    /// The case's cgroup directories to join before anything else (repeatable: one per
    /// v1 controller, or the one v2 cgroup); none where it was born in them.
    pub cgroup: Vec<PathBuf>,
    /// What the answer runs as, sees and is held to.
    pub answer: Confinement,
    /// Set up everything, then wait for one byte on standard input ([`GO`]) before starting
    /// the answer: a keeper started ahead of its case.
    pub await_go: bool,
    /// The judge's file (outside every jail) where the helper writes `STEP: REASON` when a
    /// step of the set-up fails before the answer starts: the judge's own failure (IE),
    /// told apart from any exit status the answer could give. Empty when the answer
    /// started.
    pub status: Option<PathBuf>,
    /// The answer's command.
    pub command: AnswerCommand,
}

/// The warden of one check under root ([`Role::Warden`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warden {
    /// The judge's process id: the warden acts once it is gone.
    pub judge_pid: i32,
    /// The bases of the check's cgroups, emptied and removed then.
    pub cgroups: Vec<PathBuf>,
}

/// The mapper of a normal user's outer process ([`Role::Map`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    /// The outer process, into whose user namespace the ids are mapped.
    pub outer_pid: i32,
    /// The case's subordinate id, mapped to itself (as user and group).
    pub uid: u32,
    /// The outer process's status file: a failed mapping is a failed set-up, told where
    /// the case's is.
    pub status: Option<PathBuf>,
}

/// Arguments of `beast __contain`, written by `beast check` (and by an outer process, for
/// its zygote and its mapper) only: one variant a role, holding what that role uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// The jail's outer process.
    Outer(Outer),
    /// Basic's keeper.
    Keep(Keeper),
    /// The check's warden.
    Warden(Warden),
    /// A normal user's id mapper.
    Map(Mapping),
    /// The jail's zygote.
    Zygote(Jail),
}

impl Spec {
    /// The warden of this judge's check over its cgroup `bases`.
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn warden(bases: Vec<PathBuf>) -> Spec {
        Spec::Warden(Warden {
            judge_pid: i32::try_from(std::process::id()).unwrap_or(i32::MAX),
            cgroups: bases,
        })
    }

    /// What the helper is.
    pub fn role(&self) -> Role {
        match self {
            Spec::Outer(_) => Role::Outer,
            Spec::Keep(_) => Role::Keep,
            Spec::Warden(_) => Role::Warden,
            Spec::Map(_) => Role::Map,
            Spec::Zygote(_) => Role::Zygote,
        }
    }

    /// The judge's status file of this helper (`--status`), where it tells a set-up step
    /// that failed; the warden has none.
    pub fn status(&self) -> Option<&Path> {
        match self {
            Spec::Outer(Outer { jail, .. }) | Spec::Zygote(jail) => jail.status.as_deref(),
            Spec::Keep(keeper) => keeper.status.as_deref(),
            Spec::Map(mapping) => mapping.status.as_deref(),
            Spec::Warden(_) => None,
        }
    }

    /// The helper's process for this spec: `exe` (this binary) run as [`SUBCOMMAND`] with
    /// the spec as its arguments; the caller sets its environment and streams.
    pub fn command(&self, exe: &Path) -> Command {
        let mut cmd = Command::new(exe);
        cmd.arg(SUBCOMMAND).args(self.to_args());
        cmd
    }

    /// The helper's arguments, after `__contain`, that parse back into this spec: the
    /// role's own flags, in one order for every role, then `--` and the command, if any.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args = Args::default();
        args.flag("role", self.role().name());
        match self {
            Spec::Outer(outer) => {
                args.flag("judge-pid", outer.judge_pid.to_string());
                args.jail(&outer.jail, &outer.cgroup);
                args.command(outer.command.as_ref().map_or(&[], AnswerCommand::words));
            }
            Spec::Zygote(jail) => {
                args.jail(jail, &[]);
                args.command(&[]);
            }
            Spec::Keep(keeper) => {
                let answer = &keeper.answer;
                args.flag("judge-pid", keeper.judge_pid.to_string());
                args.limits(&answer.limits);
                args.uid(answer.uid);
                args.paths("cgroup", &keeper.cgroup);
                args.paths("mask", &answer.mask);
                args.path("status", keeper.status.as_deref());
                args.flag("workdir", &answer.workdir);
                if keeper.await_go {
                    args.0.push("--await-go".into());
                }
                args.bound(&answer.ro);
                args.command(keeper.command.words());
            }
            Spec::Warden(warden) => {
                args.flag("judge-pid", warden.judge_pid.to_string());
                args.paths("cgroup", &warden.cgroups);
                args.command(&[]);
            }
            Spec::Map(mapping) => {
                args.flag("outer-pid", mapping.outer_pid.to_string());
                args.uid(Some(mapping.uid));
                args.path("status", mapping.status.as_deref());
                args.command(&[]);
            }
        }
        args.0
    }

    /// The spec [`Spec::to_args`] wrote (the arguments after `__contain`), or what is
    /// wrong with them: a flag the role does not take is refused, as is a command for a
    /// role that runs none.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Spec, String> {
        let mut given = Flags::read(args.into_iter())?;
        let role = given.role.take().ok_or_else(|| missing("role"))?;
        let spec = match role {
            Role::Outer => Spec::Outer(Outer {
                judge_pid: given.judge_pid()?,
                cgroup: std::mem::take(&mut given.cgroup),
                jail: given.jail()?,
                command: AnswerCommand::from_words(std::mem::take(&mut given.command)),
            }),
            Role::Zygote => Spec::Zygote(given.jail()?),
            Role::Keep => {
                let judge_pid = given.judge_pid()?;
                let answer = given.confinement()?;
                let command = AnswerCommand::from_words(std::mem::take(&mut given.command))
                    .ok_or_else(|| "no command after --".to_string())?;
                Spec::Keep(Keeper {
                    judge_pid,
                    cgroup: std::mem::take(&mut given.cgroup),
                    answer,
                    await_go: std::mem::take(&mut given.await_go),
                    status: given.status.take(),
                    command,
                })
            }
            Role::Warden => Spec::Warden(Warden {
                judge_pid: given.judge_pid()?,
                cgroups: std::mem::take(&mut given.cgroup),
            }),
            Role::Map => Spec::Map(Mapping {
                outer_pid: pid("outer-pid", given.outer_pid.take())?,
                uid: small("uid", given.uid.take().ok_or_else(|| missing("uid"))?)?,
                status: given.status.take(),
            }),
        };
        match given.left_over() {
            None => Ok(spec),
            Some("--") => Err(format!("the {} role runs no command", role.name())),
            Some(flag) => Err(format!(
                "--{flag}: not an argument of the {} role",
                role.name()
            )),
        }
    }
}

/// The arguments being written, flag by flag.
#[derive(Default)]
struct Args(Vec<OsString>);

impl Args {
    fn flag(&mut self, name: &str, value: impl Into<OsString>) {
        self.0.push(format!("--{name}").into());
        self.0.push(value.into());
    }

    fn path(&mut self, name: &str, value: Option<&Path>) {
        if let Some(p) = value {
            self.flag(name, p);
        }
    }

    fn paths(&mut self, name: &str, values: &[PathBuf]) {
        for p in values {
            self.flag(name, p);
        }
    }

    fn uid(&mut self, uid: Option<u32>) {
        if let Some(v) = uid {
            self.flag("uid", v.to_string());
        }
    }

    fn limits(&mut self, limits: &Limits) {
        if let Some(v) = limits.address_space {
            self.flag("address-space", v.to_string());
        }
        if let Some(v) = limits.nproc {
            self.flag("nproc", v.to_string());
        }
        self.flag("cpu", limits.cpu.to_string());
        self.flag("fsize", limits.fsize.to_string());
    }

    fn bound(&mut self, ro: &[Bound]) {
        for b in ro {
            self.0.push(if b.named { "--named" } else { "--ro" }.into());
            self.0.push(b.at.clone().into_os_string());
            self.0.push(b.from.clone().into_os_string());
        }
    }

    /// A jail's flags (an outer process's `cgroup` among them, in their old place).
    fn jail(&mut self, jail: &Jail, cgroup: &[PathBuf]) {
        let answer = &jail.answer;
        self.limits(&answer.limits);
        self.uid(answer.uid);
        self.paths("cgroup", cgroup);
        self.paths("mask", &answer.mask);
        self.flag("tmp-size", jail.tmp_size.to_string());
        self.flag("root-dir", &jail.root_dir);
        self.path("status", jail.status.as_deref());
        self.flag("workdir", &answer.workdir);
        self.bound(&answer.ro);
    }

    fn command(&mut self, command: &[OsString]) {
        self.0.push("--".into());
        self.0.extend(command.iter().cloned());
    }
}

/// The flags as read, before the role takes those it uses; whatever is left over is a
/// flag of another role.
#[derive(Default)]
struct Flags {
    role: Option<Role>,
    judge_pid: Option<u64>,
    outer_pid: Option<u64>,
    address_space: Option<u64>,
    nproc: Option<u64>,
    cpu: Option<u64>,
    fsize: Option<u64>,
    uid: Option<u64>,
    tmp_size: Option<u64>,
    cgroup: Vec<PathBuf>,
    ro: Vec<Bound>,
    mask: Vec<PathBuf>,
    root_dir: Option<PathBuf>,
    status: Option<PathBuf>,
    workdir: Option<PathBuf>,
    await_go: bool,
    command: Vec<OsString>,
}

impl Flags {
    /// Every flag of `args`, up to `--`; the command after it.
    fn read(mut args: impl Iterator<Item = OsString>) -> Result<Flags, String> {
        let mut given = Flags::default();
        while let Some(arg) = args.next() {
            let name = arg.to_str().unwrap_or("").to_string();
            if name == "--" {
                break;
            }
            if name == "--await-go" {
                given.await_go = true;
                continue;
            }
            let value = args
                .next()
                .ok_or_else(|| format!("{} needs a value", arg.to_string_lossy()))?;
            let number = |v: &OsString| -> Result<Option<u64>, String> {
                v.to_str()
                    .and_then(|t| t.parse().ok())
                    .map(Some)
                    .ok_or_else(|| format!("{name}: not a number: {}", v.to_string_lossy()))
            };
            match name.as_str() {
                "--role" => {
                    let r = Role::named(value.to_str().unwrap_or(""));
                    given.role = Some(r.ok_or_else(|| format!("no role {value:?}"))?);
                }
                "--judge-pid" => given.judge_pid = number(&value)?,
                "--outer-pid" => given.outer_pid = number(&value)?,
                "--address-space" => given.address_space = number(&value)?,
                "--nproc" => given.nproc = number(&value)?,
                "--cpu" => given.cpu = number(&value)?,
                "--fsize" => given.fsize = number(&value)?,
                "--uid" => given.uid = number(&value)?,
                "--tmp-size" => given.tmp_size = number(&value)?,
                "--cgroup" => given.cgroup.push(PathBuf::from(value)),
                "--ro" | "--named" => {
                    let from = args.next().ok_or_else(|| {
                        format!("{name} needs a path and the path it is made from")
                    })?;
                    given.ro.push(Bound {
                        at: PathBuf::from(value),
                        from: PathBuf::from(from),
                        named: name == "--named",
                    });
                }
                "--mask" => given.mask.push(PathBuf::from(value)),
                "--root-dir" => given.root_dir = Some(PathBuf::from(value)),
                "--status" => given.status = Some(PathBuf::from(value)),
                "--workdir" => given.workdir = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown argument {}", arg.to_string_lossy())),
            }
        }
        given.command = args.collect();
        Ok(given)
    }

    /// `--judge-pid`, taken.
    fn judge_pid(&mut self) -> Result<i32, String> {
        pid("judge-pid", self.judge_pid.take())
    }

    /// The answer's limits, taken.
    fn limits(&mut self) -> Result<Limits, String> {
        Ok(Limits {
            cpu: self.cpu.take().ok_or_else(|| missing("cpu"))?,
            fsize: self.fsize.take().ok_or_else(|| missing("fsize"))?,
            address_space: self.address_space.take(),
            nproc: self.nproc.take(),
        })
    }

    /// What the answer runs as, sees and is held to, taken.
    fn confinement(&mut self) -> Result<Confinement, String> {
        Ok(Confinement {
            limits: self.limits()?,
            uid: self.uid.take().map(|v| small("uid", v)).transpose()?,
            ro: std::mem::take(&mut self.ro),
            mask: std::mem::take(&mut self.mask),
            workdir: self.workdir.take().ok_or_else(|| missing("workdir"))?,
        })
    }

    /// A zygote's jail, taken.
    fn jail(&mut self) -> Result<Jail, String> {
        Ok(Jail {
            answer: self.confinement()?,
            tmp_size: self.tmp_size.take().ok_or_else(|| missing("tmp-size"))?,
            root_dir: self.root_dir.take().ok_or_else(|| missing("root-dir"))?,
            status: self.status.take(),
        })
    }

    /// The first flag no role's field took (`--` for a command), if any.
    fn left_over(&self) -> Option<&'static str> {
        [
            ("judge-pid", self.judge_pid.is_some()),
            ("outer-pid", self.outer_pid.is_some()),
            ("address-space", self.address_space.is_some()),
            ("nproc", self.nproc.is_some()),
            ("cpu", self.cpu.is_some()),
            ("fsize", self.fsize.is_some()),
            ("uid", self.uid.is_some()),
            ("tmp-size", self.tmp_size.is_some()),
            ("cgroup", !self.cgroup.is_empty()),
            ("ro", self.ro.iter().any(|b| !b.named)),
            ("named", self.ro.iter().any(|b| b.named)),
            ("mask", !self.mask.is_empty()),
            ("root-dir", self.root_dir.is_some()),
            ("status", self.status.is_some()),
            ("workdir", self.workdir.is_some()),
            ("await-go", self.await_go),
            ("--", !self.command.is_empty()),
        ]
        .into_iter()
        .find_map(|(flag, left)| left.then_some(flag))
    }
}

/// The refusal of a spec without the flag `--what`.
fn missing(what: &str) -> String {
    format!("no --{what}")
}

/// A process id given as `--what`.
fn pid(what: &str, v: Option<u64>) -> Result<i32, String> {
    let v = v.ok_or_else(|| missing(what))?;
    i32::try_from(v).map_err(|_| format!("--{what}: too large"))
}

/// A user id given as `--what`.
fn small(what: &str, v: u64) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("--{what}: {v} is too large"))
}

impl Outer {
    /// The mapper of this outer process's case uid into the user namespace of
    /// `outer_pid` (the outer process itself, which starts it); none without a case uid.
    #[cfg_attr(not(jail), allow(dead_code))]
    pub fn mapping(&self, outer_pid: i32) -> Option<Mapping> {
        Some(Mapping {
            outer_pid,
            uid: self.jail.answer.uid?,
            // A failed mapping is a failed set-up: the mapper tells it where the case does.
            status: self.jail.status.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Confinement {
        Confinement {
            limits: Limits {
                cpu: 4,
                fsize: 1025,
                address_space: Some(1 << 30),
                nproc: Some(512),
            },
            uid: Some(1_879_048_193),
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
            workdir: JAILED_HOME.into(),
        }
    }

    fn jail() -> Jail {
        Jail {
            answer: answer(),
            tmp_size: 64 << 20,
            root_dir: "/tmp/beast-check-1/root".into(),
            status: Some("/tmp/beast-check-1/status-x".into()),
        }
    }

    fn command() -> AnswerCommand {
        let words = ["python3", "--", "-c", "print(1)"].map(OsString::from);
        AnswerCommand::from_words(words.to_vec()).expect("a command")
    }

    /// Every role's spec with every field it has set, then with only what it needs.
    fn every_role() -> Vec<Spec> {
        let cgroups: Vec<PathBuf> = vec![
            "/sys/fs/cgroup/memory/a".into(),
            "/sys/fs/cgroup/pids/a".into(),
        ];
        let bare = Confinement {
            limits: Limits {
                cpu: 0,
                fsize: 0,
                address_space: None,
                nproc: None,
            },
            uid: None,
            ro: Vec::new(),
            mask: Vec::new(),
            workdir: "/".into(),
        };
        let bare_jail = Jail {
            answer: bare.clone(),
            tmp_size: 0,
            root_dir: "/r".into(),
            status: None,
        };
        vec![
            Spec::Outer(Outer {
                judge_pid: 42,
                cgroup: cgroups.clone(),
                jail: jail(),
                command: Some(command()),
            }),
            Spec::Outer(Outer {
                judge_pid: 42,
                cgroup: Vec::new(),
                jail: bare_jail.clone(),
                command: None,
            }),
            Spec::Zygote(jail()),
            Spec::Zygote(bare_jail),
            Spec::Keep(Keeper {
                judge_pid: 42,
                cgroup: cgroups.clone(),
                answer: answer(),
                await_go: true,
                status: Some("/tmp/beast-check-1/status-y".into()),
                command: command(),
            }),
            Spec::Keep(Keeper {
                judge_pid: 42,
                cgroup: Vec::new(),
                answer: bare,
                await_go: false,
                status: None,
                command: AnswerCommand::from_words(vec!["./golf".into()]).expect("a command"),
            }),
            Spec::Warden(Warden {
                judge_pid: 42,
                cgroups,
            }),
            Spec::Warden(Warden {
                judge_pid: 42,
                cgroups: Vec::new(),
            }),
            Spec::Map(Mapping {
                outer_pid: 43,
                uid: 100_007,
                status: Some("/tmp/beast-check-1/status-x".into()),
            }),
            Spec::Map(Mapping {
                outer_pid: 43,
                uid: 100_007,
                status: None,
            }),
        ]
    }

    #[test]
    fn every_roles_spec_written_as_arguments_parses_back_into_itself() {
        let specs = every_role();
        for role in Role::ALL {
            assert!(specs.iter().any(|s| s.role() == role), "{role:?} is tried");
            assert_eq!(Role::named(role.name()), Some(role));
        }
        for spec in specs {
            assert_eq!(Spec::parse(spec.to_args()), Ok(spec.clone()));
            let started = spec.command(Path::new("/usr/bin/beast"));
            let args: Vec<OsString> = started.get_args().map(OsString::from).collect();
            assert_eq!(args[0], SUBCOMMAND);
            assert_eq!(Spec::parse(args[1..].to_vec()), Ok(spec));
        }
    }

    #[test]
    fn an_outer_process_is_written_as_before_the_roles_were_told_apart() {
        let outer = Spec::Outer(Outer {
            judge_pid: 42,
            cgroup: vec!["/sys/fs/cgroup/beast/1".into()],
            jail: jail(),
            command: AnswerCommand::from_words(vec!["./golf".into()]),
        });
        let words: Vec<String> = outer
            .to_args()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            words.join(" "),
            "--role outer --judge-pid 42 --address-space 1073741824 --nproc 512 --cpu 4 \
             --fsize 1025 --uid 1879048193 --cgroup /sys/fs/cgroup/beast/1 --mask \
             /opt/py/beast --tmp-size 67108864 --root-dir /tmp/beast-check-1/root --status \
             /tmp/beast-check-1/status-x --workdir /tmp/answer --ro /opt/py /opt/py --named \
             /tmp/x y /srv/x y -- ./golf"
        );
    }

    #[test]
    fn the_mapper_carries_the_outer_processs_uid_and_status_and_nothing_else() {
        let outer = Outer {
            judge_pid: 42,
            cgroup: Vec::new(),
            jail: jail(),
            command: None,
        };
        assert_eq!(
            outer.mapping(43),
            Some(Mapping {
                outer_pid: 43,
                uid: 1_879_048_193,
                status: Some("/tmp/beast-check-1/status-x".into()),
            })
        );
        let mut own = outer;
        own.jail.answer.uid = None;
        assert_eq!(own.mapping(43), None, "no case uid, no mapper");
        let warden = Spec::warden(vec!["/sys/fs/cgroup/memory/beast-1".into()]);
        assert_eq!(warden.status(), None);
        assert_eq!(Spec::parse(warden.to_args()), Ok(warden));
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
            with(&["--tmp-size", "4", "--", "true"]),
            Err("--tmp-size: not an argument of the keep role".to_string())
        );
        assert_eq!(
            with(&["--root-dir", "/r", "--", "true"]),
            Err("--root-dir: not an argument of the keep role".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "judge", "--", "true"])),
            Err("no role \"judge\"".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "keep", "--", "true"])),
            Err("no --judge-pid".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "warden", "--judge-pid", "1", "--", "true"])),
            Err("the warden role runs no command".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "warden", "--judge-pid", "1", "--cpu", "2"])),
            Err("--cpu: not an argument of the warden role".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--role", "map", "--outer-pid", "1", "--"])),
            Err("no --uid".to_string())
        );
        assert_eq!(
            Spec::parse(os(&["--judge-pid", "1", "--"])),
            Err("no --role".to_string())
        );
        let zygote = Spec::Zygote(jail()).to_args();
        let mut with_pid = os(&["--judge-pid", "7"]);
        with_pid.extend(zygote);
        assert_eq!(
            Spec::parse(with_pid),
            Err("--judge-pid: not an argument of the zygote role".to_string())
        );
    }
}
