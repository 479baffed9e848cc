//! The two gates through which the judge touches a file because the command line names it:
//! [`read`](mod@read) for what it reads (case directories, answers files, shards, `--source`, a
//! pack's manifest), [`write`](mod@write) for what it writes (packs, `--report-dir`, `--html-dir`,
//! `--junit`, manual pages). A path the user names is the user's; what lies beneath it is
//! a stranger's (in CI it comes with the pull request), so each gate opens the named
//! directory once, by descriptor (`cap-std`: `openat2` with `RESOLVE_BENEATH` and
//! `RESOLVE_NO_MAGICLINKS` on Linux), and touches nothing but through it: no link is
//! followed out of it, and nothing it writes goes through a link.
//!
//! A file named directly (`--answers FILE`, `--merge FILE`, `--source FILE`, `--junit
//! FILE`) is opened the same way beneath its own parent directory: a link it is itself is
//! followed only within that directory (read), or replaced (write).

pub mod read;
pub mod write;

#[cfg(all(test, unix))]
mod tests;

use std::ffi::OsStr;
use std::path::Path;

pub use self::read::{Folder, Limit};
pub use self::write::Target;

/// `path` split into the directory it lies in (`.` for a bare name) and its last
/// component, or `None` when it names no file (`/`, `..`, empty).
fn split(path: &Path) -> Option<(&Path, &OsStr)> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some((dir, name))
}

/// A path as errors and notes show it: every character a terminal would act on escaped.
fn shown(path: &Path) -> String {
    beast_engine::judge::report::visible(&path.to_string_lossy())
}
