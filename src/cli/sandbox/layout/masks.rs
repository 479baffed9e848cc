//! What stays hidden inside the paths shown (the judge's side): the `--cases` directories,
//! a repository's history, the `examples/`, `target/` and `tests/` of a checkout of this
//! project, and any copy of the judge, each masked wherever the answer sees it; a copy the
//! user runs on purpose ([`names_the_judge`]) is not.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{Request, SYSTEM};
use crate::cli::platform;
use crate::cli::sandbox::untrusted::{self, AnswerCommand};

/// The most files looked at, per bound directory, for copies of the judge.
const SCAN_LIMIT: usize = 20_000;

/// The most bytes of a `Cargo.toml` read to tell a checkout of this project.
const MANIFEST_BYTES: u64 = 64 << 10;

/// What must stay hidden inside the bound paths (and on the system `PATH`); copies of
/// the judge among `trusted` stay. A mask is placed where the answer sees the file: a path
/// found through its real location (a `--cases` directory) is put back under the bound
/// path that shows it, even when that path goes through a symlink.
pub(super) fn masks(ro: &[PathBuf], req: &Request, trusted: &[PathBuf]) -> Vec<PathBuf> {
    let mut masks: Vec<PathBuf> = Vec::new();
    let shown: Vec<(PathBuf, PathBuf)> = ro
        .iter()
        .cloned()
        .chain(SYSTEM.iter().map(PathBuf::from))
        .filter_map(|r| Some((r.canonicalize().ok()?, r)))
        .collect();
    // Every place where the answer sees the file whose real path is `real` (one bound
    // path may show another's through a symlink: each gets the mask).
    let seen_at = |real: &Path| -> Vec<PathBuf> {
        shown
            .iter()
            .filter_map(|(canonical, at)| {
                let rest = real.strip_prefix(canonical).ok()?;
                Some(if rest.as_os_str().is_empty() {
                    at.clone()
                } else {
                    at.join(rest)
                })
            })
            .collect()
    };
    for dir in req.cases.iter().filter_map(|d| d.canonicalize().ok()) {
        masks.extend(seen_at(&dir));
    }
    for bound in ro.iter().filter(|r| r.is_dir()) {
        // A repository's history holds what its files once held, and its config the
        // tokens CI checkouts store.
        let git = bound.join(".git");
        if git.exists() {
            masks.push(git);
        }
        for checkout in checkouts(bound) {
            for part in ["examples", "target", "tests", ".git"] {
                let real = checkout.join(part).canonicalize();
                masks.extend(real.ok().map(|p| seen_at(&p)).unwrap_or_default());
            }
        }
    }
    if !req.judge_named {
        let scan: Vec<PathBuf> = ro
            .iter()
            .cloned()
            .chain(
                req.path
                    .as_deref()
                    .map(std::env::split_paths)
                    .into_iter()
                    .flatten()
                    .filter(|d| d.canonicalize().is_ok_and(|c| !seen_at(&c).is_empty())),
            )
            .collect();
        let exe = req
            .exe
            .canonicalize()
            .map(|c| seen_at(&c))
            .unwrap_or_default();
        let copies = copies_of(&req.exe, &scan).into_iter().chain(exe);
        masks.extend(copies.filter(|c| !trusted.contains(c)));
    }
    masks.sort();
    masks.dedup();
    masks
}

/// Checkouts of this project at, above or just below `dir`.
fn checkouts(dir: &Path) -> Vec<PathBuf> {
    let is_checkout = |d: &Path| {
        untrusted::read_head(&d.join("Cargo.toml"), MANIFEST_BYTES)
            .is_ok_and(|t| String::from_utf8_lossy(&t).contains("name = \"beast-judge\""))
    };
    let mut found: Vec<PathBuf> = dir
        .ancestors()
        .filter(|d| is_checkout(d))
        .map(Path::to_path_buf)
        .collect();
    if let Ok(entries) = std::fs::read_dir(dir) {
        found.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir() && is_checkout(p)),
        );
    }
    found
}

/// Files under `dirs` with the judge's size and bytes.
fn copies_of(exe: &Path, dirs: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(meta) = exe.metadata() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut seen = 0usize;
    for dir in dirs {
        let mut todo = vec![dir.clone()];
        while let Some(d) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                if d.is_file() && same_bytes(exe, &d, meta.len()) {
                    found.push(d);
                }
                continue;
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > SCAN_LIMIT * dirs.len().max(1) {
                    break;
                }
                let Ok(ft) = entry.file_type() else { continue };
                let path = entry.path();
                if ft.is_dir() {
                    todo.push(path);
                } else if ft.is_file()
                    && (looks_like_a_judge(&path)
                        || entry.metadata().is_ok_and(|m| m.len() == meta.len())
                            && same_bytes(exe, &path, meta.len()))
                {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// True for a program named like a build of this judge, whatever its version: `beast`, or
/// `beast-HASH` in a cargo `deps` directory, that is an ELF file.
fn looks_like_a_judge(path: &Path) -> bool {
    let name = path.file_name().and_then(OsStr::to_str).unwrap_or_default();
    let in_deps = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == "deps");
    let named = name == "beast" || (in_deps && name.starts_with("beast-") && !name.contains('.'));
    named && untrusted::read_head(path, 4).is_ok_and(|magic| magic == b"\x7fELF")
}

/// True when both files hold the same `len` bytes (or are one file).
fn same_bytes(a: &Path, b: &Path, len: u64) -> bool {
    let (Ok(ma), Ok(mb)) = (a.metadata(), b.metadata()) else {
        return false;
    };
    if platform::same_file_meta(&ma, &mb) {
        return true;
    }
    if mb.len() != len {
        return false;
    }
    let open = |p: &Path| {
        platform::open_without_blocking(p)
            .ok()
            .filter(|f| f.metadata().is_ok_and(|m| m.is_file()))
    };
    let (Some(mut x), Some(mut y)) = (open(a), open(b)) else {
        return false;
    };
    // Chunk by chunk: a file of the judge's size that differs early costs one chunk.
    let (mut bx, mut by) = (vec![0u8; 64 << 10], vec![0u8; 64 << 10]);
    loop {
        let (Ok(n), Ok(m)) = (read_full(&mut x, &mut bx), read_full(&mut y, &mut by)) else {
            return false;
        };
        if n != m || bx[..n] != by[..m] {
            return false;
        }
        if n == 0 {
            return true;
        }
    }
}

/// Fills `buf` as far as the file goes: how many bytes were read (0 at its end).
fn read_full(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

/// True when the answer's program, or a passed variable, is this binary: the user trusts
/// it then, so it is not masked.
pub fn names_the_judge(
    exe: &Path,
    command: &AnswerCommand,
    env: &[(OsString, OsString)],
    path: Option<&OsStr>,
) -> bool {
    let program = command.program_file(path);
    program.is_some_and(|p| same_file(exe, &p))
        || env.iter().any(|(_, v)| same_file(exe, Path::new(v)))
}

/// True when both paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.metadata(), b.metadata()) {
        (Ok(a), Ok(b)) => platform::same_file_meta(&a, &b),
        _ => false,
    }
}
