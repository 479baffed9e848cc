//! A normal user's subordinate ids (`/etc/subuid`, `/etc/subgid`), as rootless podman uses
//! them: where the user has a range and the system has `newuidmap` and `newgidmap`, each
//! case of the jail runs as an id of that range, so the user's own owner-only files are
//! closed to the answer, as they are under root. The judge's side finds the range
//! ([`ids`]); the helper's side maps one case's id into the outer process's user
//! namespace: a process in that namespace cannot run the set-uid mapper itself, so the
//! outer process starts a mapper before it makes the namespace ([`Mapper`]), and the
//! mapper (`__contain --role map`) runs `newuidmap` and `newgidmap` on it ([`map`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use nix::unistd::{Pid, getegid, geteuid};

use super::spec::{GO, Mapping, Spec};
use super::step::{Failure, SETUP_FAILED, Step, go};

/// A user's subordinate ids: the same numbers for users and groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subordinate {
    /// The first id.
    pub first: u32,
    /// How many.
    pub count: u32,
}

/// Where the set-uid mappers are looked for: system directories only, never `PATH`.
const MAPPERS: [&str; 3] = ["/usr/bin", "/bin", "/usr/sbin"];

/// The system's `newuidmap` or `newgidmap`.
fn mapper(name: &str) -> Option<PathBuf> {
    MAPPERS
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

/// The first range of `/etc/subuid`-style `text` for the user `name` (or its number
/// `uid`): `NAME:FIRST:COUNT` lines.
pub fn range_of(text: &str, name: &str, uid: u32) -> Option<Subordinate> {
    text.lines().find_map(|line| {
        let mut fields = line.trim().split(':');
        let (who, first, count) = (fields.next()?, fields.next()?, fields.next()?);
        if who != name && who.parse() != Ok(uid) {
            return None;
        }
        let (first, count) = (first.parse().ok()?, count.parse().ok()?);
        (count >= 2).then_some(Subordinate { first, count })
    })
}

/// The judge's user's subordinate ids, or why there are none: the same range must start
/// both files (the case's uid is its gid too), and both mappers must be there.
pub fn ids() -> Result<Subordinate, String> {
    let uid = geteuid();
    let user = nix::unistd::User::from_uid(uid)
        .ok()
        .flatten()
        .map_or_else(|| uid.to_string(), |u| u.name);
    for name in ["newuidmap", "newgidmap"] {
        if mapper(name).is_none() {
            return Err(format!("no {name} (the uidmap package)"));
        }
    }
    let read = |file: &str| {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        range_of(&text, &user, uid.as_raw()).ok_or_else(|| format!("no range for {user} in {file}"))
    };
    let (uids, gids) = (read("/etc/subuid")?, read("/etc/subgid")?);
    if uids.first != gids.first {
        return Err(format!(
            "the ranges of {user} in /etc/subuid and /etc/subgid start apart"
        ));
    }
    Ok(Subordinate {
        first: uids.first,
        count: uids.count.min(gids.count),
    })
}

/// A mapper started ahead of the outer process's user namespace, waiting for its go.
pub struct Mapper(Child);

impl Mapper {
    /// Starts the mapper `mapping` (of this process's case uid, into this process's user
    /// namespace), which will map it (and the judge's own ids) once the namespace is made.
    pub fn start(mapping: Mapping) -> Result<Mapper, Failure> {
        let exe = std::env::current_exe().step("find the judge's binary")?;
        let child = Spec::Map(mapping)
            .command(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .step("start the id mapper")?;
        Ok(Mapper(child))
    }

    /// Tells the mapper that the user namespace is made, and waits until it has mapped it.
    pub fn finish(mut self) -> Result<(), Failure> {
        let told = self.0.stdin.take().map(|mut s| s.write_all(&[GO]));
        let status = self.0.wait().step("wait for the id mapper")?;
        match (told, status.success()) {
            (Some(Ok(())), true) => Ok(()),
            _ => Err(Failure {
                step: "map the subordinate ids",
                reason: format!("the mapper ended with {status}"),
                code: SETUP_FAILED,
            }),
        }
    }
}

/// The mapper's role: once told, maps the judge's own uid and gid to themselves and the
/// case's id (`--uid`) to itself in the user namespace of `--outer-pid` (the outer
/// process), through `newuidmap` and `newgidmap`.
pub fn map(mapping: &Mapping) -> Result<u8, Failure> {
    let case = mapping.uid;
    if !go() {
        return Ok(SETUP_FAILED);
    }
    let pid = Pid::from_raw(mapping.outer_pid).to_string();
    for (name, own) in [
        ("newuidmap", geteuid().as_raw()),
        ("newgidmap", getegid().as_raw()),
    ] {
        let program = mapper(name).ok_or_else(|| Failure {
            step: "map the subordinate ids",
            reason: format!("no {name}"),
            code: SETUP_FAILED,
        })?;
        let (own, case) = (own.to_string(), case.to_string());
        let out = Command::new(program)
            .args([&pid, &own, &own, "1", &case, &case, "1"])
            .stdin(Stdio::null())
            .output()
            .step("run the id mapper")?;
        if !out.status.success() {
            return Err(Failure {
                step: "map the subordinate ids",
                reason: format!("{name}: {}", String::from_utf8_lossy(&out.stderr).trim()),
                code: SETUP_FAILED,
            });
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_users_first_range_is_read_by_name_or_number() {
        let text = "root:1:2\nann:100000:65536\nann:165536:65536\n1001:200000:10\nbad:x:3\n";
        let range = |first, count| Some(Subordinate { first, count });
        assert_eq!(range_of(text, "ann", 1000), range(100_000, 65_536));
        assert_eq!(range_of(text, "bob", 1001), range(200_000, 10));
        assert_eq!(range_of(text, "bad", 7), None);
        assert_eq!(range_of(text, "eve", 1002), None);
        assert_eq!(range_of("one:5:1\n", "one", 9), None, "one id is no range");
    }
}
