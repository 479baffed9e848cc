//! The write gate: a directory the judge writes into, opened once ([`Target`]), and every
//! file and directory it makes there made beneath that descriptor, never through a link:
//! a subdirectory is opened without following one (a link in its place is refused), a new
//! file is created with `O_EXCL` (anything in its place, a dangling link too, refuses
//! it), and a file replaced is written as a new file renamed over the old name, so a link
//! there is replaced, never written through.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::Context;
use cap_fs_ext::DirExt;
use cap_std::fs::Dir;

use super::read::Folder;

/// A directory the judge writes into, opened once.
#[derive(Debug)]
pub struct Target {
    dir: Dir,
    path: PathBuf,
}

impl Target {
    /// The directory `path`, made with its missing parents first (the path itself is the
    /// user's: links on the way to it are followed, as the user wrote it).
    pub fn create(path: &Path) -> anyhow::Result<Target> {
        std::fs::create_dir_all(path)
            .with_context(|| format!("cannot create {}", super::shown(path)))?;
        Target::open(path)
    }

    /// The existing directory `path`.
    pub fn open(path: &Path) -> anyhow::Result<Target> {
        let dir = Dir::open_ambient_dir(path, cap_std::ambient_authority())
            .with_context(|| format!("cannot open the directory {}", super::shown(path)))?;
        Ok(Target {
            dir,
            path: path.to_path_buf(),
        })
    }

    /// The directory `rel` beneath this one (plain names only, no `..`), each part made
    /// when missing and opened without following a link: a link, or a file, in the place
    /// of one is refused.
    pub fn subdir(&self, rel: &Path) -> anyhow::Result<Target> {
        self.walk(rel, true)?
            .ok_or_else(|| anyhow::anyhow!("{} is missing", super::shown(&self.path.join(rel))))
    }

    /// The existing directory `rel` beneath this one, as [`Target::subdir`] opens it, or
    /// `None` when a part of it is missing or is no directory of its own (a link).
    pub fn existing_subdir(&self, rel: &Path) -> anyhow::Result<Option<Target>> {
        self.walk(rel, false)
    }

    /// Opens (and with `make`, makes) each part of `rel` without following a link.
    fn walk(&self, rel: &Path, make: bool) -> anyhow::Result<Option<Target>> {
        let mut dir = self.dir.try_clone()?;
        let mut path = self.path.clone();
        for part in rel.components() {
            let Component::Normal(name) = part else {
                anyhow::bail!(
                    "{} is no plain path beneath {}",
                    rel.display(),
                    self.shown()
                );
            };
            path.push(name);
            let made = match make {
                true => dir.create_dir(name),
                false => Ok(()),
            };
            match made {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                    return Err(e)
                        .with_context(|| format!("cannot create {}", super::shown(&path)));
                }
                _ => {}
            }
            match dir.symlink_metadata(name) {
                Ok(m) if m.is_dir() => {}
                Ok(m) if make => anyhow::bail!(
                    "{} is {}, not a directory: the judge writes only into directories of its \
                     own beneath {} (remove it)",
                    super::shown(&path),
                    if m.is_symlink() { "a link" } else { "a file" },
                    self.shown()
                ),
                _ => return Ok(None),
            }
            dir = dir
                .open_dir_nofollow(name)
                .with_context(|| format!("cannot open {}", super::shown(&path)))?;
        }
        Ok(Some(Target { dir, path }))
    }

    /// True when something is at `name` (not followed: a dangling link is something).
    pub fn holds(&self, name: &OsStr) -> bool {
        self.dir.symlink_metadata(name).is_ok()
    }

    /// Writes the new file `name` (`O_CREAT | O_EXCL`: refused when anything, a dangling
    /// link too, is in its place).
    pub fn write_new(&self, name: &OsStr, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.path.join(name);
        let mut options = cap_std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = self
            .dir
            .open_with(name, &options)
            .with_context(|| format!("cannot create {}", super::shown(&path)))?;
        file.write_all(bytes)
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", super::shown(&path)))
    }

    /// Writes `name` as a new file renamed over it: whatever was there, a link included,
    /// is replaced, never written through.
    pub fn replace(&self, name: &OsStr, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.path.join(name);
        let context = || format!("cannot write {}", super::shown(&path));
        let mut file = cap_tempfile::TempFile::new(&self.dir).with_context(context)?;
        file.write_all(bytes)
            .and_then(|()| file.flush())
            .with_context(context)?;
        file.replace(name).with_context(context)
    }

    /// Removes the file or link `name` (a link itself, never what it leads to); `false`
    /// when there was nothing, or a directory, by that name.
    pub fn remove(&self, name: &OsStr) -> anyhow::Result<bool> {
        match self.dir.symlink_metadata(name) {
            Ok(m) if !m.is_dir() => {}
            _ => return Ok(false),
        }
        self.dir
            .remove_file_or_symlink(name)
            .with_context(|| format!("cannot remove {}", super::shown(&self.path.join(name))))?;
        Ok(true)
    }

    /// The same directory, to read through the read gate (a pack's manifest).
    pub fn reader(&self) -> anyhow::Result<Folder> {
        Ok(Folder::of(self.dir.try_clone()?, self.path.clone()))
    }

    fn shown(&self) -> String {
        super::shown(&self.path)
    }
}

/// Writes the file at `path`, named directly (`--junit FILE`), in its existing directory
/// by a new file renamed over it: a link at `path` is replaced, never written through.
pub fn replace_named(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let (dir, name) = super::split(path)
        .ok_or_else(|| anyhow::anyhow!("{} names no file", super::shown(path)))?;
    Target::open(dir)
        .with_context(|| format!("cannot write {}", super::shown(path)))?
        .replace(name, bytes)
}
