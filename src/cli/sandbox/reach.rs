//! Whether the case's user could read a path on the host: the one test of every path the
//! jail shows beyond the system directories. It is made twice with the same code: by the
//! judge once an answer, so that a path the case could not read is refused before the first
//! case, saying why and how to fix it; and by the jail's `init` (or `basic`'s keeper) for
//! every case, on the very descriptor it then mounts, so that a path swapped for a symlink
//! or closed between the check and the mount, or between two cases, shows nothing.
//!
//! A path is opened one component at a time from `/` (`O_PATH | O_NOFOLLOW`): a symbolic
//! link anywhere on it is refused, since the judge decided the real path once. Each
//! directory on the way must let the reader cross it (when the whole way is checked), and
//! the target must let it read: a directory list and cross, a file read. The permission
//! bits are read as the kernel reads them for a user with no supplementary group: the
//! owner's when it owns the file, the group's when its group is the file's, else the
//! others'.

use std::fmt;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use nix::fcntl::{OFlag, open, openat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstat};

use super::spec::Bound;

/// Who must be able to read the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A case's own user id (and group id of the same number), with no supplementary
    /// group: the one the case runs as under root, or a subordinate id.
    Case(u32),
    /// The judge's own user, with its groups (a normal user's case without a uid of its
    /// own runs as the judge).
    Judge,
    /// Whoever opens it: only the walk itself is checked (the jail's `init` in a user
    /// namespace of the judge's own, whose view of other users' ids is the overflow id).
    #[cfg_attr(not(jail), allow(dead_code))]
    Opener,
}

/// What a path needs of its reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// Cross a directory on the way (`x`).
    Cross,
    /// List and cross the directory shown (`r` and `x`).
    List,
    /// Read the file shown (`r`).
    Read,
}

impl Need {
    fn bits(self) -> u32 {
        match self {
            Need::Cross => 0o1,
            Need::List => 0o5,
            Need::Read => 0o4,
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Need::Cross => "cross",
            Need::List => "list",
            Need::Read => "read",
        }
    }

    /// The `chmod` that would let others do it.
    fn fix(self) -> &'static str {
        match self {
            Need::Cross => "o+x",
            Need::List => "o+rx",
            Need::Read => "o+r",
        }
    }
}

/// Why a path is not shown: where on it, and what stands in the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    /// The path on the way (or the target) that stopped it.
    pub at: PathBuf,
    /// What is wrong there, in words.
    pub why: String,
    /// The `chmod` mode that would open it to others, when permissions are the reason.
    pub fix: Option<&'static str>,
}

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.at.display(), self.why)
    }
}

/// Opens the path `bound` shows, from its real path, for `reader`: every directory on the
/// way checked when the command line names it (`bound.named`: a path of the answer's, or
/// `--bind`), the target always. The `O_PATH` descriptor to mount, or why the reader could
/// not have read it. The one way a shown path is opened, by the judge and by the helpers.
pub fn open_bound(bound: &Bound, reader: Reader) -> Result<OwnedFd, Closed> {
    open_as(&bound.from, reader, bound.named)
}

/// Opens `path` (absolute, and as the judge resolved it: no symbolic link on it) for
/// `reader`, checking every directory on the way when `whole_way`, and the target always:
/// the `O_PATH` descriptor to mount, or why the reader could not have read it.
fn open_as(path: &Path, reader: Reader, whole_way: bool) -> Result<OwnedFd, Closed> {
    let flags = OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let closed = |at: &Path, why: String| Closed {
        at: at.to_path_buf(),
        why,
        fix: None,
    };
    let mut here = PathBuf::from("/");
    let mut fd = open("/", flags | OFlag::O_DIRECTORY, Mode::empty())
        .map_err(|e| closed(&here, format!("cannot be opened: {}", e.desc())))?;
    let mut stat = fstat(&fd).map_err(|e| closed(&here, format!("cannot be read: {e}")))?;
    let mut first = true;
    for part in path.components() {
        let name = match part {
            Component::RootDir if first => {
                first = false;
                continue;
            }
            Component::Normal(name) => name,
            _ => return Err(closed(path, "is not an absolute, plain path".to_string())),
        };
        first = false;
        if whole_way {
            allows(&stat, reader, Need::Cross, &here)?;
        }
        here.push(name);
        fd = openat(&fd, name, flags, Mode::empty())
            .map_err(|e| closed(&here, format!("cannot be opened: {}", e.desc())))?;
        stat = fstat(&fd).map_err(|e| closed(&here, format!("cannot be read: {e}")))?;
        if kind(&stat) == SFlag::S_IFLNK {
            return Err(closed(
                &here,
                "is a symbolic link now (the path changed since the check began)".to_string(),
            ));
        }
    }
    let need = match kind(&stat) {
        SFlag::S_IFDIR => Need::List,
        _ => Need::Read,
    };
    allows(&stat, reader, need, &here)?;
    Ok(fd)
}

/// True when the descriptor is of a directory.
#[cfg_attr(not(jail), allow(dead_code))]
pub fn is_dir(fd: impl AsFd) -> bool {
    fstat(fd).is_ok_and(|s| kind(&s) == SFlag::S_IFDIR)
}

fn kind(stat: &FileStat) -> SFlag {
    SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT
}

/// `Ok` when `reader` may do `need` with the file `stat` describes (at `at`).
fn allows(stat: &FileStat, reader: Reader, need: Need, at: &Path) -> Result<(), Closed> {
    let (uid, gids) = match reader {
        Reader::Opener => return Ok(()),
        Reader::Case(id) => (id, vec![id]),
        Reader::Judge => {
            let uid = nix::unistd::geteuid().as_raw();
            if uid == 0 {
                return Ok(());
            }
            let mut gids = vec![nix::unistd::getegid().as_raw()];
            gids.extend(
                nix::unistd::getgroups()
                    .unwrap_or_default()
                    .iter()
                    .map(|g| g.as_raw()),
            );
            (uid, gids)
        }
    };
    let bits = if stat.st_uid == uid {
        stat.st_mode >> 6
    } else if gids.contains(&stat.st_gid) {
        stat.st_mode >> 3
    } else {
        stat.st_mode
    } & 0o7;
    if bits & need.bits() == need.bits() {
        return Ok(());
    }
    let who = match reader {
        Reader::Case(id) => format!("the case's user (uid {id})"),
        _ => "the judge's user".to_string(),
    };
    Err(Closed {
        at: at.to_path_buf(),
        why: format!(
            "is {} {}:{}, which {who} may not {}",
            mode_text(stat),
            owner_name(stat.st_uid),
            group_name(stat.st_gid),
            need.verb()
        ),
        fix: Some(need.fix()),
    })
}

/// The mode as `ls -l` shows it: `drwx------`.
fn mode_text(stat: &FileStat) -> String {
    let kind = match kind(stat) {
        SFlag::S_IFDIR => 'd',
        SFlag::S_IFLNK => 'l',
        SFlag::S_IFREG => '-',
        _ => '?',
    };
    let mut text = String::from(kind);
    for shift in [6, 3, 0] {
        let bits = (stat.st_mode >> shift) & 0o7;
        text.push(if bits & 4 != 0 { 'r' } else { '-' });
        text.push(if bits & 2 != 0 { 'w' } else { '-' });
        text.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    text
}

fn owner_name(uid: u32) -> String {
    nix::unistd::User::from_uid(nix::unistd::Uid::from_raw(uid))
        .ok()
        .flatten()
        .map_or_else(|| uid.to_string(), |u| u.name)
}

fn group_name(gid: u32) -> String {
    nix::unistd::Group::from_gid(nix::unistd::Gid::from_raw(gid))
        .ok()
        .flatten()
        .map_or_else(|| gid.to_string(), |g| g.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A user id no file here belongs to.
    const STRANGER: u32 = 1_879_048_192 + 7;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[test]
    fn a_closed_directory_on_the_way_stops_a_stranger_but_not_its_trusted_target() {
        let dir = tempfile::tempdir().expect("temp dir");
        chmod(dir.path(), 0o755);
        let closed = dir.path().join("closed");
        let open = closed.join("open");
        std::fs::create_dir_all(&open).expect("mkdir");
        chmod(&closed, 0o700);
        let got = open_as(&open, Reader::Case(STRANGER), true).expect_err("closed on the way");
        assert_eq!(got.at, closed);
        assert!(got.why.contains("drwx------") && got.why.contains("may not cross"));
        assert_eq!(got.fix, Some("o+x"));
        // Without the way (an installation the judge's PATH found), the target decides.
        assert!(open_as(&open, Reader::Case(STRANGER), false).is_ok());
        chmod(&open, 0o711);
        let got = open_as(&open, Reader::Case(STRANGER), false).expect_err("not listable");
        assert!(got.why.contains("may not list"), "{got}");
        assert_eq!(got.fix, Some("o+rx"));
    }

    #[test]
    fn a_file_bound_alone_needs_read_and_its_owner_reads_by_the_owners_bits() {
        let dir = tempfile::tempdir().expect("temp dir");
        chmod(dir.path(), 0o755);
        let file = dir.path().join("key");
        std::fs::write(&file, "SECRET").expect("write");
        chmod(&file, 0o600);
        let got = open_as(&file, Reader::Case(STRANGER), true).expect_err("owner only");
        assert!(got.why.contains("-rw-------") && got.why.contains("may not read"));
        let owner = std::fs::metadata(&file).map(|m| std::os::unix::fs::MetadataExt::uid(&m));
        assert!(open_as(&file, Reader::Case(owner.expect("stat")), true).is_ok());
        chmod(&file, 0o644);
        assert!(open_as(&file, Reader::Case(STRANGER), true).is_ok());
    }

    #[test]
    fn a_symlink_anywhere_on_the_path_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        chmod(dir.path(), 0o755);
        let real = dir.path().join("real");
        std::fs::create_dir(&real).expect("mkdir");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        for path in [
            link.clone(),
            link.join("."),
            dir.path().join("real/../real"),
        ] {
            let got = open_as(&path, Reader::Opener, true);
            assert!(got.is_err(), "{}", path.display());
        }
        assert!(open_as(&real, Reader::Case(STRANGER), true).is_ok());
    }
}
