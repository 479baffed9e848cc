//! The paths shown to the answer (the judge's side): gathered from the trusted inputs (the
//! program the judge's `PATH` finds with its installation, the paths the command line names
//! with their own directories, `--bind`), never into a home they are not under, tidied
//! (parents before children, nothing the system directories show already), each made a
//! [`Bound`] and checked as the case's user would find it ([`reach`](super::super::reach)).
//! The `#!` rules are [`shebang`](super::shebang)'s, what stays hidden
//! [`masks`](super::masks)'s.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::masks::masks;
use super::{Layout, Request, SYSTEM, Unfinished};
use crate::cli::sandbox::spec::Bound;
use crate::cli::sandbox::untrusted::{self, Named, NamedPath, too_wide};

/// Directories whose name says "the programs of an installation below this prefix".
const BIN_DIRS: [&str; 3] = ["bin", "sbin", "libexec"];

impl Layout {
    /// The layout for one answer, made here and now (the tests'; the judge uses
    /// [`Layout::within`]).
    #[cfg(test)]
    pub fn new(req: &Request) -> Layout {
        Layout::gathered(req, &|| false)
    }

    /// The layout, `interrupted` stopping any version manager it asks; refused when a path it
    /// would show is closed to the case's user.
    pub(super) fn made(
        req: &Request,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Layout, Unfinished> {
        let layout = Layout::gathered(req, interrupted);
        for bound in &layout.bound {
            readable(bound, req.case_uid)?;
        }
        Ok(layout)
    }

    /// The layout, its paths not yet checked.
    fn gathered(req: &Request, interrupted: &dyn Fn() -> bool) -> Layout {
        let given = req.command.made_absolute();
        let named = Named::of(&given, req.home.as_deref());
        let mut view = View {
            req,
            named: &named,
            homes: homes(req.home.as_deref()),
            interrupted,
            ro: Vec::new(),
            whole_way: Vec::new(),
            notes: Vec::new(),
        };
        let mut command = given.clone();
        if given.program_is_looked_up()
            && let Some(found) = untrusted::on_path(given.program(), view.path()).first()
        {
            // What the jail's own `PATH` lookup finds first; a shim of it is resolved
            // only when it is the judge's (outside every place the command names).
            let real = view.behind_shim(found);
            if &real != found {
                command = given.with_program(real.clone());
            }
            view.installation(&real, false);
            view.kernel_interpreter(&real, 0);
        }
        for NamedPath { path, program } in given.paths() {
            view.named_path(path, program);
            if program {
                // The kernel reads its `#!` line: the program is the script.
                view.kernel_interpreter(path, 0);
            }
        }
        let View {
            mut ro,
            whole_way: mut named,
            mut notes,
            ..
        } = view;
        let binds: Vec<PathBuf> = req
            .binds
            .iter()
            .filter_map(|b| std::path::absolute(b).ok())
            .collect();
        ro.extend(binds.iter().cloned());
        named.extend(binds);
        let ro = tidy(ro);
        let bound = bound(&ro, &named);
        let named_by_env = req
            .env_values
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        // A copy of the judge the user runs on purpose (the program, or a variable passed
        // with --env) is not masked.
        let trusted: Vec<PathBuf> = std::iter::once(PathBuf::from(command.program()))
            .chain(named_by_env)
            .collect();
        let masks = masks(&ro, req, &trusted);
        notes.dedup();
        Layout {
            command,
            ro,
            bound,
            masks,
            notes,
        }
    }
}

/// How each path of `ro` is made: from its real path (as it resolves now), the whole way
/// checked for those the command line names (`named`).
fn bound(ro: &[PathBuf], named: &[PathBuf]) -> Vec<Bound> {
    ro.iter()
        .map(|at| Bound {
            at: at.clone(),
            named: named.contains(at),
            from: at.canonicalize().unwrap_or_else(|_| at.clone()),
        })
        .collect()
}

/// `Ok` when the case's user (`case_uid`, else the judge's) could read `bound` on the host
/// (see [`reach`](super::super::reach)); else which directory stops it, and how to open it.
#[cfg(target_os = "linux")]
fn readable(bound: &Bound, case_uid: Option<u32>) -> Result<(), Unfinished> {
    use super::super::reach::{Reader, open_bound};
    let reader = case_uid.map_or(Reader::Judge, Reader::Case);
    let Err(closed) = open_bound(bound, reader) else {
        return Ok(());
    };
    let leads = match bound.at == bound.from {
        true => String::new(),
        false => format!(" (it leads to {})", bound.from.display()),
    };
    let fix = match (closed.fix, reader) {
        (Some(mode), Reader::Case(_)) => format!(
            "; let other users in (chmod {mode} {}) or name a path they may read",
            closed.at.display()
        ),
        _ => String::new(),
    };
    Err(Unfinished::Closed(format!(
        "the jail cannot show {}{leads} to the answer: {closed}{fix}. No case ran",
        bound.at.display()
    )))
}

/// Every path is readable where no jail is made.
#[cfg(not(target_os = "linux"))]
fn readable(_bound: &Bound, _case_uid: Option<u32>) -> Result<(), Unfinished> {
    Ok(())
}

/// The paths being gathered for one answer, and the notes on what was left out.
pub(super) struct View<'a> {
    pub(super) req: &'a Request,
    pub(super) named: &'a Named,
    /// The home directories of the host (`$HOME`, `/root`, `/home/*`).
    homes: Vec<PathBuf>,
    pub(super) interrupted: &'a dyn Fn() -> bool,
    ro: Vec<PathBuf>,
    /// Those of `ro` the command line names (or `--bind`): checked the whole way.
    whole_way: Vec<PathBuf>,
    pub(super) notes: Vec<String>,
}

impl View<'_> {
    /// The judge's `PATH`, which the answer gets too.
    pub(super) fn path(&self) -> Option<&OsStr> {
        self.req.path.as_deref()
    }

    /// A path the command line names: a directory itself (unless too wide), a file with
    /// its own directory (or alone, when that is too wide); the program also with its
    /// installation. Nothing that leads into a home the path itself is not under.
    fn named_path(&mut self, path: &Path, program: bool) {
        if !path.is_absolute() || path.symlink_metadata().is_err() || self.leads_into_a_home(path) {
            return;
        }
        if path.is_dir() {
            if !too_wide(path, self.req.home.as_deref()) {
                self.show(path, true);
            }
            return;
        }
        match path.parent() {
            Some(dir)
                if !too_wide(dir, self.req.home.as_deref()) && !self.leads_into_a_home(dir) =>
            {
                self.show(dir, true);
            }
            _ => self.show(path, true),
        }
        if program {
            self.installation(path, true);
        }
    }

    /// Shows `path`; `named` when the command line names it (then checked the whole way).
    fn show(&mut self, path: &Path, named: bool) {
        self.ro.push(path.to_path_buf());
        if named {
            self.whole_way.push(path.to_path_buf());
        }
    }

    /// A program found through the judge's `PATH` (or named as the program, `named`): the
    /// file, the file it resolves to, and that one's installation prefix.
    pub(super) fn installation(&mut self, program: &Path, named: bool) {
        if !program.is_absolute() {
            return;
        }
        self.show(program, named);
        if let Ok(real) = program.canonicalize() {
            if real != program {
                self.show(&real, named);
            }
            if let Some(prefix) = prefix_of(&real, self.req.home.as_deref()) {
                self.show(&prefix, named);
            }
        }
    }

    /// True when `path` resolves into a home directory it is not itself under (a symlink
    /// of the answer's pointing at `~/.ssh`).
    fn leads_into_a_home(&self, path: &Path) -> bool {
        let Ok(real) = path.canonicalize() else {
            return false;
        };
        self.homes
            .iter()
            .any(|h| real.starts_with(h) && !path.starts_with(h))
    }
}

/// True for a path under a system directory.
pub(super) fn in_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

/// The home directories of this host: `home`, `/root` and each directory of `/home`.
fn homes(home: Option<&Path>) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = home.map(Path::to_path_buf).into_iter().collect();
    all.push(PathBuf::from("/root"));
    if let Ok(entries) = std::fs::read_dir("/home") {
        all.extend(entries.flatten().map(|e| e.path()));
    }
    all
}

/// The installation a program belongs to: the parent of its `bin` (or `sbin`, `libexec`)
/// directory when that holds a `lib` directory too (a pyenv, nvm or SDKMAN version
/// directory, `/opt/x`), else the program's own directory; never a home directory.
fn prefix_of(program: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let dir = program.parent()?;
    let named_bin = dir
        .file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| BIN_DIRS.contains(&n));
    let prefix = dir.parent().filter(|p| named_bin && p.join("lib").is_dir());
    let chosen = prefix.unwrap_or(dir).to_path_buf();
    (!too_wide(&chosen, home)).then_some(chosen)
}

/// The paths to bind, without those the system directories or another bound path
/// already show, nor any under `/proc`, `/dev` or `/sys`; parents before children.
fn tidy(ro: Vec<PathBuf>) -> Vec<PathBuf> {
    let special = ["/proc", "/dev", "/sys"];
    let mut kept: Vec<PathBuf> = ro
        .into_iter()
        .filter(|p| p.exists())
        .filter(|p| !SYSTEM.iter().any(|s| p.starts_with(s)))
        .filter(|p| !special.iter().any(|s| p.starts_with(s)))
        .collect();
    kept.sort();
    kept.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for p in kept {
        if !out.iter().any(|o| p.starts_with(o)) {
            out.push(p);
        }
    }
    out
}
