//! The read gate: a directory the command line names, opened once ([`Folder`]), and every
//! file read beneath it through that descriptor: no link followed out of it nor through a
//! `/proc` magic link, regular files only (a FIFO, device or socket is refused before it
//! is opened, so nothing blocks), nothing the kernel makes up (`/proc`, `/sys`), and a size
//! cap ([`Limit`]) checked before a byte is read.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use beast_engine::words;
use cap_std::fs::Dir;

use crate::cli::platform;

/// The most bytes a kind of file may hold, and what it is called in the refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The most bytes.
    pub bytes: u64,
    /// What the file is, as the refusal says it: `a case file`.
    pub what: &'static str,
}

impl Limit {
    /// A case's puzzle (`NAME.in`, `NAME.txt`).
    pub const CASE: Limit = Limit {
        bytes: 64 << 20,
        what: "a case file",
    };
    /// A case's expected output (`NAME.out`, `NAME.ans`): what an answer may print by
    /// default (`--max-output 1M`).
    pub const EXPECTED: Limit = Limit {
        bytes: 1 << 20,
        what: "an expected output",
    };
    /// A case's rule flags (`NAME.args`).
    pub const FLAGS: Limit = Limit {
        bytes: 64 << 10,
        what: "a flags file",
    };
    /// `--answers FILE`.
    pub const ANSWERS: Limit = Limit {
        bytes: 1 << 20,
        what: "an answers file",
    };
    /// A shard's output (`--merge`).
    pub const SHARD: Limit = Limit {
        bytes: 1 << 30,
        what: "a shard output",
    };
    /// An answer's source (`--source`, the script the command names).
    pub const SOURCE: Limit = Limit {
        bytes: 16 << 20,
        what: "a source file",
    };
    /// The manifest of a pack `beast cases --force` replaces.
    pub const MANIFEST: Limit = Limit {
        bytes: 16 << 20,
        what: "a pack's manifest",
    };
}

/// Why the gate would not read a file.
#[derive(Debug)]
pub enum Refused {
    /// Nothing by that name.
    Missing,
    /// Something other than a regular file: a FIFO, a device, a socket, a directory, a
    /// dangling link or a loop of links. Skipped with a note where a file is optional.
    NotRegular(&'static str),
    /// A link that leads outside the directory.
    Outside,
    /// A file of `/proc` or `/sys`.
    Kernel,
    /// More bytes than the limit.
    TooBig {
        /// Its size.
        size: u64,
        /// The limit.
        limit: Limit,
    },
    /// The system refused (permissions, ...).
    Io(io::Error),
}

/// A file the gate would not read: which, beneath which directory, and why.
#[derive(Debug)]
pub struct Refusal {
    /// The file, as the user would write it (`cases/x.in`).
    pub file: PathBuf,
    /// The directory it was read beneath.
    pub dir: PathBuf,
    /// Why.
    pub why: Refused,
}

impl Refusal {
    /// True when there is no such file at all (a dangling link is something).
    pub fn missing(&self) -> bool {
        matches!(self.why, Refused::Missing)
    }

    /// True when the file is no regular file: a case skips it with a note.
    pub fn not_regular(&self) -> bool {
        matches!(self.why, Refused::NotRegular(_))
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = super::shown(&self.file);
        match &self.why {
            Refused::Missing => write!(f, "{file} does not exist"),
            Refused::NotRegular(what) => write!(f, "{file} is not a regular file ({what})"),
            Refused::Outside => write!(
                f,
                "{file} leads outside {}: a link is followed only within the directory named",
                super::shown(&self.dir)
            ),
            Refused::Kernel => write!(
                f,
                "{file} is a file of /proc or /sys, which the kernel makes up as it is read"
            ),
            Refused::TooBig { size, limit } => write!(
                f,
                "{file} is {}; {} may be at most {}",
                words::size(*size),
                limit.what,
                words::size(limit.bytes)
            ),
            Refused::Io(e) => write!(f, "cannot read {file}: {e}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// A directory the command line names, opened once: every file of it is read beneath it.
#[derive(Debug)]
pub struct Folder {
    dir: Dir,
    path: PathBuf,
}

impl Folder {
    /// Opens the directory `path` (the path itself is the user's: links on the way to it
    /// are followed, as the user wrote it).
    pub fn open(path: &Path) -> io::Result<Folder> {
        let dir = Dir::open_ambient_dir(path, cap_std::ambient_authority())?;
        Ok(Folder {
            dir,
            path: path.to_path_buf(),
        })
    }

    /// The folder of an open directory descriptor (the write gate's, for its manifest).
    pub(super) fn of(dir: Dir, path: PathBuf) -> Folder {
        Folder { dir, path }
    }

    /// The names of its entries, sorted (what each is, is found when it is read).
    pub fn names(&self) -> io::Result<Vec<OsString>> {
        let mut names = Vec::new();
        for entry in self.dir.entries()? {
            names.push(entry?.file_name());
        }
        names.sort();
        Ok(names)
    }

    /// All of the regular file `name`, at most `limit` bytes, opened beneath this folder.
    pub fn read(&self, name: &OsStr, limit: Limit) -> Result<Vec<u8>, Refusal> {
        let refuse = |why| Refusal {
            file: self.path.join(name),
            dir: self.path.clone(),
            why,
        };
        // What it is, before it is opened: a FIFO or a device is never opened.
        let meta = self
            .dir
            .metadata(name)
            .map_err(|e| refuse(self.classify(name, e)))?;
        if !meta.is_file() {
            return Err(refuse(Refused::NotRegular(kind(&meta.file_type()))));
        }
        let file = self
            .dir
            .open_with(name, &platform::gate_read_options())
            .map_err(|e| refuse(self.classify(name, e)))?
            .into_std();
        // And again once open, for a file swapped since.
        let meta = file.metadata().map_err(|e| refuse(Refused::Io(e)))?;
        if !meta.is_file() {
            return Err(refuse(Refused::NotRegular("no longer a regular file")));
        }
        if platform::kernel_file(&file) {
            return Err(refuse(Refused::Kernel));
        }
        if meta.len() > limit.bytes {
            return Err(refuse(Refused::TooBig {
                size: meta.len(),
                limit,
            }));
        }
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        file.take(limit.bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| refuse(Refused::Io(e)))?;
        if bytes.len() as u64 > limit.bytes {
            return Err(refuse(Refused::TooBig {
                size: bytes.len() as u64,
                limit,
            }));
        }
        Ok(bytes)
    }

    /// What an error opening or looking at `name` means.
    fn classify(&self, name: &OsStr, e: io::Error) -> Refused {
        let here = self.dir.symlink_metadata(name);
        match e.kind() {
            io::ErrorKind::NotFound if here.is_err() => Refused::Missing,
            io::ErrorKind::NotFound => Refused::NotRegular("a dangling link"),
            // cap-std's own refusal of a path that escapes (no system error number).
            io::ErrorKind::PermissionDenied if e.raw_os_error().is_none() => Refused::Outside,
            _ if platform::link_loop(&e) => {
                Refused::NotRegular("a loop of links or a /proc magic link")
            }
            _ => Refused::Io(e),
        }
    }
}

/// What a file that is not regular is, in words.
fn kind(t: &cap_std::fs::FileType) -> &'static str {
    use cap_fs_ext::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "neither a file nor a directory"
    }
}

/// All of the file at `path`, named directly: read beneath its own directory (a link it is
/// itself is followed only within that directory), at most `limit` bytes.
pub fn read_named(path: &Path, limit: Limit) -> anyhow::Result<Vec<u8>> {
    let (dir, name) = super::split(path)
        .ok_or_else(|| anyhow::anyhow!("{} names no file", super::shown(path)))?;
    let folder = Folder::open(dir).map_err(|e| anyhow::anyhow!("{}: {e}", super::shown(dir)))?;
    let bytes = folder.read(name, limit).map_err(|mut r| {
        r.file = path.to_path_buf();
        r
    })?;
    Ok(bytes)
}

/// [`read_named`] as UTF-8 text.
pub fn read_named_text(path: &Path, limit: Limit) -> anyhow::Result<String> {
    let bytes = read_named(path, limit)?;
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", super::shown(path)))
}
