//! What the answer may see: the read-only paths of its minimal root (or of its Landlock
//! allow-list), found once per answer on the judge's side from trusted inputs only: the
//! system directories; the judge's own `PATH` and the installations found through it
//! (version-manager shims resolved by the manager, when it lies outside every place the
//! command names); the paths the command line names, with the answer's own directory;
//! `--bind` paths (`--env` passes a value, never a path). The answer's words are an
//! [`AnswerCommand`] whose paths are looked at only through
//! [`AnswerCommand::paths`], and its files are data: a `#!` line is read (with
//! [`read_head`](super::untrusted::read_head)) only where the kernel reads it (the command's program is the script), and what it
//! names is shown only when it is a regular executable file the case's user could run on
//! the host, in a system directory or the one the judge's `PATH` finds; otherwise the
//! layout's notes say why. Nothing under a home the command line did not name is shown.
//! Inside all that, whatever must stay hidden is masked: the `--cases` directories, the
//! `examples/` and `target/` of a checkout of this project, and any file identical to the
//! running judge. The whole is made under a deadline ([`Layout::within`]). Every path shown
//! must be one the case's user could read on the host ([`reach`](super::reach)): each is
//! resolved once to its real path, and a path the command line names (or `--bind`) must
//! also be reachable, every directory on the way crossable; one that is not is refused
//! before the first case, saying which directory and why.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::spec::Bound;
use super::untrusted::{self, AnswerCommand, HostProgram, Named, NamedPath, too_wide};
use crate::cli::platform;

/// The system directories every answer sees, read-only (where they exist).
pub const SYSTEM: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// Directories whose name says "the programs of an installation below this prefix".
const BIN_DIRS: [&str; 3] = ["bin", "sbin", "libexec"];

/// The most files looked at, per bound directory, for copies of the judge.
const SCAN_LIMIT: usize = 20_000;

/// The most bytes of a file read for its `#!` line (the kernel's own limit).
const SHEBANG_BYTES: u64 = 256;

/// The most bytes of a `Cargo.toml` read to tell a checkout of this project.
const MANIFEST_BYTES: u64 = 64 << 10;

/// How deep `#!` lines are followed (interpreters that are scripts), as the kernel does.
const SHEBANG_DEPTH: usize = 4;

/// What the answer's root is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The command, its program resolved through a version manager's shim when it is one.
    pub command: AnswerCommand,
    /// Paths bound read-only at the same place, beyond [`SYSTEM`]; parents before children.
    pub ro: Vec<PathBuf>,
    /// How each of `ro` is made: from its real path, checked as the case's user.
    pub bound: Vec<Bound>,
    /// Paths inside those that are hidden.
    pub masks: Vec<PathBuf>,
    /// Why an interpreter a `#!` line names is not shown, one line each.
    pub notes: Vec<String>,
}

/// What the layout is made from.
#[derive(Clone, Debug)]
pub struct Request {
    /// The answer's command (relative paths already made absolute).
    pub command: AnswerCommand,
    /// `PATH` as the judge has it (and the answer gets it).
    pub path: Option<OsString>,
    /// `--bind` paths.
    pub binds: Vec<PathBuf>,
    /// The values of the variables passed with `--env`: passed, never bound (a copy of the
    /// judge one names is not masked where something else shows it).
    pub env_values: Vec<OsString>,
    /// `--cases` directories.
    pub cases: Vec<PathBuf>,
    /// The running judge.
    pub exe: PathBuf,
    /// The judge's home directory, never bound whole.
    pub home: Option<PathBuf>,
    /// True when the command names the judge itself: it is not masked then.
    pub judge_named: bool,
    /// The user id cases run as when they have one of their own (the first of the judge's
    /// range): an interpreter is shown only if any user could run it on the host, and every
    /// path only if that user could read it. `None`: cases run as the judge.
    pub case_uid: Option<u32>,
}

/// Why no layout was made.
#[derive(Debug, thiserror::Error)]
pub enum Unfinished {
    /// The judge was interrupted while making it.
    #[error("interrupted while the jail was being prepared")]
    Interrupted,
    /// It took longer than its deadline.
    #[error(
        "preparing the jail took more than {} s (a path the command names, or a file in it, \
         is slow to read); no case ran",
        .0.as_secs()
    )]
    TooSlow(Duration),
    /// The thread making it ended without one.
    #[error("preparing the jail failed: the layout's thread ended without a layout")]
    Lost,
    /// A path the jail would show is one the case's user could not read on the host.
    #[error("{0}")]
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Closed(String),
}

impl Layout {
    /// What an answer run under `--sandbox none` is given: its command as it is, nothing
    /// bound, nothing masked (it sees what the user sees).
    pub fn unconfined(command: AnswerCommand) -> Layout {
        Layout {
            command,
            ro: Vec::new(),
            bound: Vec::new(),
            masks: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The layout for one answer, made here and now (the tests'; the judge uses
    /// [`Layout::within`]).
    #[cfg(test)]
    pub fn new(req: &Request) -> Layout {
        Layout::gathered(req, &|| false)
    }

    /// The layout for one answer, made on a thread of its own within `time`; `interrupted`
    /// (asked every few milliseconds) stops it early, as an interrupt does. A version
    /// manager still asked then is killed.
    pub fn within(
        req: Request,
        time: Duration,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Layout, Unfinished> {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            let layout = Layout::made(&req, &|| stopped.load(Ordering::SeqCst));
            let _ = tx.send(layout);
        });
        let started = Instant::now();
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(layout) => return layout,
                Err(RecvTimeoutError::Disconnected) => return Err(Unfinished::Lost),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let why = if interrupted() {
                Unfinished::Interrupted
            } else if started.elapsed() >= time {
                Unfinished::TooSlow(time)
            } else {
                continue;
            };
            stop.store(true, Ordering::SeqCst);
            // A moment for the thread to kill what it started; a read stuck in the kernel
            // is left behind, and ends with the process.
            let _ = rx.recv_timeout(Duration::from_millis(200));
            return Err(why);
        }
    }

    /// The layout, `interrupted` stopping any version manager it asks; refused when a path it
    /// would show is closed to the case's user.
    fn made(req: &Request, interrupted: &dyn Fn() -> bool) -> Result<Layout, Unfinished> {
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
/// (see [`super::reach`]); else which directory stops it, and how to open it.
#[cfg(target_os = "linux")]
fn readable(bound: &Bound, case_uid: Option<u32>) -> Result<(), Unfinished> {
    use super::reach::{Reader, open_bound};
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
struct View<'a> {
    req: &'a Request,
    named: &'a Named,
    /// The home directories of the host (`$HOME`, `/root`, `/home/*`).
    homes: Vec<PathBuf>,
    interrupted: &'a dyn Fn() -> bool,
    ro: Vec<PathBuf>,
    /// Those of `ro` the command line names (or `--bind`): checked the whole way.
    whole_way: Vec<PathBuf>,
    notes: Vec<String>,
}

impl View<'_> {
    fn path(&self) -> Option<&OsStr> {
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
    fn installation(&mut self, program: &Path, named: bool) {
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

    /// The interpreter of the `#!` line of `script`, which the kernel reads because the
    /// script is the program it runs: shown when it is a regular executable file the
    /// case's user could run, in a system directory or the one the judge's `PATH` finds;
    /// with `env`, the program it names, found through the judge's `PATH`.
    fn kernel_interpreter(&mut self, script: &Path, depth: usize) {
        if depth >= SHEBANG_DEPTH {
            return;
        }
        let Ok(head) = untrusted::read_head(script, SHEBANG_BYTES) else {
            return;
        };
        let Some((interpreter, argument)) = shebang(&head) else {
            return;
        };
        let interpreter = PathBuf::from(interpreter);
        let shown = match self.interpreter(&interpreter) {
            Ok(shown) => shown,
            Err(why) => {
                self.refuse(&interpreter, &why);
                return;
            }
        };
        if let Some(real) = &shown {
            self.kernel_interpreter(real, depth + 1);
        }
        if interpreter.file_name().is_none_or(|n| n != "env") {
            return;
        }
        let Some(name) = argument.as_deref().and_then(env_program) else {
            return;
        };
        let named = PathBuf::from(&name);
        match self.interpreter(&named) {
            Ok(Some(real)) => self.kernel_interpreter(&real, depth + 1),
            Ok(None) => {}
            Err(why) => self.refuse(&named, &why),
        }
    }

    /// Notes that `interpreter` is not shown, and why.
    fn refuse(&mut self, interpreter: &Path, why: &str) {
        let text = interpreter.to_string_lossy();
        let text: String = text.chars().take(120).collect();
        self.notes.push(format!(
            "note: the `#!` interpreter {} is not shown to the answer: {why}",
            beast_engine::judge::report::visible(&text)
        ));
    }

    /// Whether an interpreter a `#!` line names is shown: `Ok(Some(file))` when it is and
    /// its installation is bound (the file, to follow its own `#!`), `Ok(None)` when the
    /// system directories show it already, `Err(why)` when it is not shown. A name
    /// without `/` (after `env`) is looked up in the judge's `PATH`, as `env` does in the
    /// jail: the first that may be shown is.
    fn interpreter(&mut self, named: &Path) -> Result<Option<PathBuf>, String> {
        if named.as_os_str().as_encoded_bytes().contains(&b'/') {
            return self.shown_file(named, false);
        }
        let mut first_why = None;
        for found in untrusted::on_path(named.as_os_str(), self.path()) {
            if self.named.holds(&found) {
                // The answer's own, shown with the place the command names.
                return Ok(None);
            }
            let file = self.behind_shim(&found);
            match self.shown_file(&file, true) {
                Ok(shown) => return Ok(shown),
                Err(why) => {
                    first_why.get_or_insert(why);
                }
            }
        }
        Err(first_why.unwrap_or_else(|| "the judge's PATH has no such program".to_string()))
    }

    /// Whether the file `file` (`on_path`: found through the judge's `PATH`) is shown as
    /// an interpreter, as [`View::interpreter`] says.
    fn shown_file(&mut self, file: &Path, on_path: bool) -> Result<Option<PathBuf>, String> {
        if !file.is_absolute() {
            return Err("it is not an absolute path".to_string());
        }
        let meta =
            std::fs::metadata(file).map_err(|_| "it does not exist on the host".to_string())?;
        let real = file
            .canonicalize()
            .map_err(|e| format!("it cannot be resolved: {e}"))?;
        let system = in_system(file) && in_system(&real);
        if !system && !on_path && !self.judges_own(file, &real) {
            return Err(
                "it is neither in a system directory nor the one the judge's PATH finds"
                    .to_string(),
            );
        }
        if !meta.is_file() {
            return Err("it is not a regular file".to_string());
        }
        if !platform::is_executable(&meta) {
            return Err("it is not executable".to_string());
        }
        let runs = match self.req.case_uid.is_some() {
            true => platform::others_may_run(&real),
            false => platform::may_run(&real),
        };
        if !runs {
            return Err("the case's user could not run it on the host".to_string());
        }
        if system {
            return Ok(None);
        }
        self.installation(file, false);
        Ok(Some(real))
    }

    /// The real program behind `found` (a file of the judge's `PATH`) when it is a shim
    /// of a version manager that lies outside every named place; else `found`.
    fn behind_shim(&self, found: &Path) -> PathBuf {
        HostProgram::trusted(found, self.path(), self.named)
            .and_then(|p| p.through_shim(self.path(), self.named, self.interrupted))
            .unwrap_or_else(|| found.to_path_buf())
    }

    /// True when the judge's `PATH` finds, for the file name of `file`, the same file.
    fn judges_own(&self, file: &Path, real: &Path) -> bool {
        let Some(name) = file.file_name() else {
            return false;
        };
        let Some(found) = HostProgram::find(name, self.path(), self.named) else {
            return false;
        };
        let resolved = found
            .through_shim(self.path(), self.named, self.interrupted)
            .unwrap_or_else(|| found.path().to_path_buf());
        [found.path(), resolved.as_path()]
            .iter()
            .any(|p| p.canonicalize().is_ok_and(|c| c == real))
    }
}

/// True for a path under a system directory.
fn in_system(path: &Path) -> bool {
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

/// The interpreter and the optional argument of a `#!` line at the start of `head`, split
/// as the kernel splits it (the interpreter up to the first blank, the rest trimmed).
fn shebang(head: &[u8]) -> Option<(OsString, Option<String>)> {
    let line = head.strip_prefix(b"#!")?;
    let end = line.iter().position(|&b| b == b'\n').unwrap_or(line.len());
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let line = &line[..end];
    let start = line.iter().position(|b| !blank(b))?;
    let line = &line[start..];
    let split = line.iter().position(blank).unwrap_or(line.len());
    let (interpreter, rest) = line.split_at(split);
    let rest = String::from_utf8_lossy(rest).trim().to_string();
    Some((
        platform::os_string(interpreter.to_vec()),
        (!rest.is_empty()).then_some(rest),
    ))
}

/// The program `env` runs, from the argument of a `#!/usr/bin/env` line (`-S` split): its
/// first word that is neither an option nor an assignment.
fn env_program(argument: &str) -> Option<String> {
    argument
        .split_whitespace()
        .find(|w| !w.starts_with('-') && !w.contains('='))
        .map(str::to_string)
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

/// What must stay hidden inside the bound paths (and on the system `PATH`); copies of
/// the judge among `trusted` stay. A mask is placed where the answer sees the file: a path
/// found through its real location (a `--cases` directory) is put back under the bound
/// path that shows it, even when that path goes through a symlink.
fn masks(ro: &[PathBuf], req: &Request, trusted: &[PathBuf]) -> Vec<PathBuf> {
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

/// The paths `read` allows with every mask cut out, for Landlock, which can only allow:
/// a directory holding a mask is replaced by its entries (down to the mask), the mask left
/// out.
#[cfg_attr(not(jail), allow(dead_code))]
pub fn without_masks(read: &[PathBuf], masks: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = read.to_vec();
    while let Some(p) = todo.pop() {
        if masks.iter().any(|m| p.starts_with(m)) {
            continue;
        }
        let holds_mask = masks.iter().any(|m| m.starts_with(&p));
        match std::fs::read_dir(&p) {
            Ok(entries) if holds_mask && p.is_dir() => {
                todo.extend(entries.flatten().map(|e| e.path()));
            }
            _ => out.push(p),
        }
    }
    out.sort();
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(command: &[OsString], exe: &Path, cases: &[PathBuf]) -> Request {
        Request {
            command: AnswerCommand::from_words(command.to_vec()).expect("a command"),
            path: None,
            binds: Vec::new(),
            env_values: Vec::new(),
            cases: cases.to_vec(),
            exe: exe.to_path_buf(),
            home: None,
            judge_named: false,
            case_uid: None,
        }
    }

    #[cfg(unix)]
    fn executable(path: &Path, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }

    #[test]
    #[cfg(unix)]
    fn a_script_brings_its_own_directory_and_the_prefix_of_the_interpreter_path_finds() {
        let dir = tempfile::tempdir().expect("temp dir");
        let prefix = dir.path().join("py");
        std::fs::create_dir_all(prefix.join("lib")).expect("mkdir");
        let python = prefix.join("bin/python3");
        executable(&python, "");
        let answer = dir.path().join("answer");
        let script = answer.join("a.py");
        executable(&script, &format!("#!{}\nprint(2)\n", python.display()));
        let command = [script.clone().into_os_string()];
        let exe = dir.path().join("no-judge");
        let mut req = request(&command, &exe, &[]);
        req.path = Some(prefix.join("bin").into_os_string());
        let layout = Layout::new(&req);
        assert!(layout.ro.contains(&answer), "{layout:?}");
        assert!(layout.ro.contains(&prefix), "{layout:?}");
        assert!(layout.notes.is_empty(), "{layout:?}");
        // Off the judge's PATH the same interpreter is not shown, and the notes say why.
        req.path = None;
        let layout = Layout::new(&req);
        assert_eq!(layout.ro, vec![answer], "{layout:?}");
        assert!(
            layout.notes[0].contains("is not shown to the answer: it is neither in a system"),
            "{layout:?}"
        );
    }

    #[test]
    #[cfg(unix)]
    fn a_shebang_is_read_only_when_the_script_is_the_program() {
        let dir = tempfile::tempdir().expect("temp dir");
        let secret = dir.path().join("home/.ssh");
        executable(&secret.join("id_rsa"), "KEY");
        let script = dir.path().join("answer/a.py");
        executable(&script, &format!("#!{}\n", secret.join("id_rsa").display()));
        let command = [OsString::from("/bin/sh"), script.clone().into_os_string()];
        let exe = dir.path().join("no-judge");
        let layout = Layout::new(&request(&command, &exe, &[]));
        assert_eq!(layout.ro, vec![dir.path().join("answer")], "{layout:?}");
        assert!(layout.notes.is_empty(), "{layout:?}");
    }

    #[test]
    #[cfg(unix)]
    fn a_fifo_in_a_shebang_neither_hangs_nor_is_shown() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o755))
            .expect("mkfifo");
        let script = dir.path().join("answer/a.sh");
        executable(&script, &format!("#!{}\n", fifo.display()));
        let command = [script.into_os_string()];
        let exe = dir.path().join("no-judge");
        let started = Instant::now();
        let layout = Layout::within(
            request(&command, &exe, &[]),
            Duration::from_secs(5),
            &|| false,
        )
        .expect("made in time");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(!layout.ro.contains(&fifo), "{layout:?}");
        assert!(layout.notes[0].contains("is not shown"), "{layout:?}");
    }

    #[test]
    fn kernel_splits_a_shebang_into_interpreter_and_one_argument() {
        let (i, a) = shebang(b"#! /usr/bin/env -S python3 -u\nx").expect("a line");
        assert_eq!(
            (i.as_os_str(), a.as_deref()),
            (OsStr::new("/usr/bin/env"), Some("-S python3 -u"))
        );
        assert_eq!(env_program("-S python3 -u").as_deref(), Some("python3"));
        assert_eq!(env_program("A=1 perl").as_deref(), Some("perl"));
        assert!(shebang(b"print(2)").is_none());
        assert!(shebang(b"#!   \n").is_none());
    }

    #[test]
    fn a_copy_of_the_judge_and_a_checkouts_answers_are_masked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let exe = dir.path().join("judge");
        std::fs::write(&exe, b"\x7fELF judge bytes").expect("write");
        let checkout = dir.path().join("repo");
        std::fs::create_dir_all(checkout.join("examples/beast")).expect("mkdir");
        std::fs::create_dir_all(checkout.join("target/debug")).expect("mkdir");
        std::fs::write(
            checkout.join("Cargo.toml"),
            "[package]\nname = \"beast-judge\"\n",
        )
        .expect("write");
        std::fs::write(checkout.join("bin-copy"), b"\x7fELF judge bytes").expect("write");
        let script = checkout.join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.into_os_string()];
        let layout = Layout::new(&request(&command, &exe, &[]));
        assert!(layout.ro.contains(&checkout), "{layout:?}");
        for hidden in ["examples", "target", "bin-copy"] {
            assert!(
                layout.masks.contains(&checkout.join(hidden)),
                "{hidden}: {layout:?}"
            );
        }
    }

    #[test]
    fn landlock_allows_everything_around_a_mask_but_the_mask() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).expect("mkdir");
        std::fs::write(root.join("a/b/secret"), "x").expect("write");
        std::fs::write(root.join("a/b/open"), "x").expect("write");
        std::fs::write(root.join("a/c"), "x").expect("write");
        let allowed = without_masks(&[root.to_path_buf()], &[root.join("a/b/secret")]);
        assert_eq!(allowed, vec![root.join("a/b/open"), root.join("a/c")]);
    }

    #[cfg(unix)]
    #[test]
    fn a_mask_follows_the_bound_path_through_a_symlink() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("cases")).expect("mkdir");
        let script = real.join("cheat.sh");
        std::fs::write(&script, "cat cases/*.out\n").expect("write");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let command = [
            OsString::from("/bin/sh"),
            link.join("cheat.sh").into_os_string(),
        ];
        let exe = dir.path().join("none");
        let cases = [real.join("cases")];
        let layout = Layout::new(&request(&command, &exe, &cases));
        assert!(layout.ro.contains(&link), "{layout:?}");
        assert!(layout.masks.contains(&link.join("cases")), "{layout:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_mask_is_placed_at_every_path_that_shows_the_hidden_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("cases")).expect("mkdir");
        std::fs::write(real.join("cheat.sh"), "cat cases/*.out\n").expect("write");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        // The program's directory through the link, its installation at the real path.
        let command = [link.join("cheat.sh").into_os_string()];
        let exe = dir.path().join("none");
        let cases = [real.join("cases")];
        let layout = Layout::new(&request(&command, &exe, &cases));
        assert!(
            layout.ro.contains(&link) && layout.ro.contains(&real),
            "{layout:?}"
        );
        for shown in [&link, &real] {
            assert!(layout.masks.contains(&shown.join("cases")), "{layout:?}");
        }
    }

    #[test]
    fn a_repositorys_history_is_masked_and_an_older_judge_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("answers");
        std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
        std::fs::create_dir_all(repo.join("old/target/debug/deps")).expect("mkdir");
        std::fs::write(
            repo.join("old/target/debug/deps/beast-0123abcd"),
            b"\x7fELF older",
        )
        .expect("write");
        std::fs::write(repo.join("old/beast"), b"\x7fELF older").expect("write");
        std::fs::write(repo.join("old/beast.txt"), b"notes").expect("write");
        let script = repo.join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.into_os_string()];
        let exe = dir.path().join("judge");
        std::fs::write(&exe, b"\x7fELF this build").expect("write");
        let layout = Layout::new(&request(&command, &exe, &[]));
        for hidden in [".git", "old/target/debug/deps/beast-0123abcd", "old/beast"] {
            assert!(
                layout.masks.contains(&repo.join(hidden)),
                "{hidden}: {layout:?}"
            );
        }
        assert!(
            !layout.masks.contains(&repo.join("old/beast.txt")),
            "{layout:?}"
        );
    }

    #[test]
    fn a_home_directory_named_on_the_command_line_is_not_shown() {
        let home = tempfile::tempdir().expect("temp dir");
        let command = [
            OsString::from("/bin/ls"),
            home.path().as_os_str().to_os_string(),
        ];
        let exe = home.path().join("none");
        let mut req = request(&command, &exe, &[]);
        req.home = Some(home.path().to_path_buf());
        let layout = Layout::new(&req);
        assert!(layout.ro.is_empty(), "{layout:?}");
    }

    #[test]
    fn a_file_in_the_home_directory_is_bound_alone() {
        let home = tempfile::tempdir().expect("temp dir");
        let script = home.path().join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.clone().into_os_string()];
        let exe = home.path().join("none");
        let mut req = request(&command, &exe, &[]);
        req.home = Some(home.path().to_path_buf());
        let layout = Layout::new(&req);
        assert_eq!(layout.ro, vec![script]);
    }

    /// Whatever an answer's files hold (`#!` lines naming shims of its own, secrets under
    /// a home, FIFOs, symlinks, random text), every path shown lies within the trusted
    /// inputs: the system directories, the installations the judge's `PATH` finds, and the
    /// paths the command line names with their own directories. No shim of the answer's is
    /// run, and the layout is made at once.
    #[cfg(unix)]
    mod property {
        use super::*;
        use proptest::prelude::*;
        use std::os::unix::fs::PermissionsExt;

        /// A host with a judge's `PATH`, a home holding secrets, and an answer's directory
        /// holding hostile files.
        struct World {
            _dir: tempfile::TempDir,
            root: PathBuf,
        }

        impl World {
            fn new() -> World {
                let dir = tempfile::tempdir().expect("temp dir");
                let root = dir.path().to_path_buf();
                let home = root.join("home");
                let answer = root.join("answer");
                std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
                // Executable, so that only where it lies keeps it out.
                executable(&home.join(".ssh/id_rsa"), "SECRET");
                std::fs::write(home.join(".git-credentials"), "SECRET").expect("write");
                executable(&home.join("bin/tool"), "#!/bin/sh\n");
                executable(&root.join("inst/bin/python3"), "#!/bin/sh\n");
                std::fs::create_dir_all(root.join("inst/lib")).expect("mkdir");
                executable(&root.join("closed/bin/closedtool"), "#!/bin/sh\n");
                std::fs::set_permissions(
                    root.join("closed"),
                    std::fs::Permissions::from_mode(0o700),
                )
                .expect("chmod");
                executable(
                    &answer.join("shims/python3"),
                    &format!("#!{}\n", home.join(".ssh/id_rsa").display()),
                );
                executable(
                    &answer.join("libexec/pyenv"),
                    &format!(
                        "#!/bin/sh\ntouch '{}'\necho {}\n",
                        root.join("marker").display(),
                        home.join(".ssh/id_rsa").display()
                    ),
                );
                nix::unistd::mkfifo(
                    &answer.join("fifo"),
                    nix::sys::stat::Mode::from_bits_truncate(0o755),
                )
                .expect("mkfifo");
                let link = |to: &Path, name: &str| {
                    std::os::unix::fs::symlink(to, answer.join(name)).expect("link");
                };
                link(&home.join(".ssh/id_rsa"), "link-key");
                link(&home.join(".ssh"), "link-ssh");
                link(&home, "link-home");
                World { _dir: dir, root }
            }

            fn at(&self, rest: &str) -> PathBuf {
                self.root.join(rest)
            }

            /// The `#!` lines an answer may write.
            fn shebangs(&self) -> Vec<String> {
                let p = |rest: &str| self.at(rest).display().to_string();
                vec![
                    format!("#!{}", p("answer/shims/python3")),
                    format!("#!/usr/bin/env {}", p("answer/shims/python3")),
                    "#!/usr/bin/env python3".to_string(),
                    "#!/usr/bin/env shims/python3".to_string(),
                    format!("#!{}", p("home/.ssh/id_rsa")),
                    format!("#!{}", p("home/.ssh")),
                    format!("#!{}", p("answer/link-key")),
                    format!("#!{}/id_rsa", p("answer/link-ssh")),
                    format!("#!{}/.git-credentials", p("answer/link-home")),
                    format!("#!{}", p("answer/fifo")),
                    "#!/bin/sh".to_string(),
                    format!("#!{}", p("home/bin/tool")),
                    "#!/usr/bin/env tool".to_string(),
                    format!("#!{}", p("closed/bin/closedtool")),
                    "#!/usr/bin/env -S closedtool -x".to_string(),
                    "#!relative/python3".to_string(),
                    format!("#!{} -u", p("inst/bin/python3")),
                ]
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn every_path_shown_lies_within_the_trusted_inputs(
                pick in 0usize..64,
                random in "#![ -~]{0,40}",
                shape in 0usize..7,
                own_uid in any::<bool>(),
                answers_path in any::<bool>(),
            ) {
                let w = World::new();
                let lines = w.shebangs();
                let line = lines.get(pick).cloned().unwrap_or(random);
                let script = w.at("answer/a.py");
                executable(&script, &format!("{line}\nprint(2)\n"));
                let os = |p: PathBuf| p.into_os_string();
                let command: Vec<OsString> = match shape {
                    0 => vec![os(script.clone())],
                    1 => vec!["python3".into(), os(script.clone())],
                    2 => vec![os(w.at("answer/link-key"))],
                    3 => vec!["sh".into(), os(w.at("answer/link-ssh"))],
                    4 => vec![os(w.at("answer/fifo"))],
                    5 => vec!["/bin/sh".into(), os(script.clone()), os(w.at("home/.ssh/id_rsa"))],
                    _ => vec![os(w.at("answer/shims/python3")), os(script.clone())],
                };
                // A judge's PATH may hold the answer's own directory (a CI job that put
                // `./shims` on it): what lies there is still the answer's.
                let first = if answers_path { "answer/shims" } else { "inst/bin" };
                let path = std::env::join_paths([
                    w.at(first),
                    w.at("inst/bin"),
                    w.at("home/bin"),
                    w.at("closed/bin"),
                    PathBuf::from("/usr/bin"),
                    PathBuf::from("/bin"),
                ])
                .expect("a PATH");
                let req = Request {
                    path: Some(path),
                    home: Some(w.at("home")),
                    case_uid: own_uid.then_some(crate::cli::sandbox::FIRST_UID),
                    ..request(&command, &w.at("no-judge"), &[])
                };
                let started = Instant::now();
                let layout = Layout::new(&req);
                prop_assert!(started.elapsed() < Duration::from_secs(3));
                prop_assert!(!w.at("marker").exists(), "an answer's shim ran: {layout:?}");
                let mut trusted: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
                trusted.extend([w.at("inst"), w.at("home/bin"), w.at("closed/bin")]);
                for word in &command {
                    let p = Path::new(word);
                    if p.is_absolute() {
                        trusted.push(p.to_path_buf());
                        trusted.extend(p.parent().map(Path::to_path_buf));
                    }
                }
                for shown in &layout.ro {
                    prop_assert!(
                        trusted.iter().any(|t| shown.starts_with(t)),
                        "{} is no trusted input: {line:?} {command:?} {layout:?}",
                        shown.display()
                    );
                    let real = shown.canonicalize().unwrap_or_else(|_| shown.clone());
                    let secret = real.starts_with(w.at("home/.ssh"))
                        || real == w.at("home/.git-credentials")
                        || real == w.at("home");
                    prop_assert!(
                        !secret || shape == 5,
                        "{} shows a secret: {line:?} {command:?} {layout:?}",
                        shown.display()
                    );
                    prop_assert!(
                        !(own_uid && real.starts_with(w.at("closed"))),
                        "{} is closed to the case's user: {layout:?}",
                        shown.display()
                    );
                }
            }
        }
    }
}
