//! What the answer may see: the read-only paths of its minimal root (or of its Landlock
//! allow-list), found once per answer on the judge's side. The system directories; the
//! program and interpreter the command resolves to (through `PATH`, version-manager shims
//! and `#!` lines) with their installation prefix; every existing path the command names
//! and the answer's own directory; and `--bind` paths. Inside those, whatever must stay
//! hidden is masked: the `--cases` directories, the `examples/` and `target/` of a
//! checkout of this project, and any file identical to the running judge.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::cli::platform;

/// The system directories every answer sees, read-only (where they exist).
pub const SYSTEM: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// Directories whose name says "the programs of an installation below this prefix".
const BIN_DIRS: [&str; 3] = ["bin", "sbin", "libexec"];

/// The most files looked at, per bound directory, for copies of the judge.
const SCAN_LIMIT: usize = 20_000;

/// What the answer's root is made of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The command, its program resolved through a version manager's shim when it is one.
    pub command: Vec<OsString>,
    /// Paths bound read-only at the same place, beyond [`SYSTEM`]; parents before children.
    pub ro: Vec<PathBuf>,
    /// Paths inside those that are hidden.
    pub masks: Vec<PathBuf>,
}

/// What the layout is made from.
pub struct Request<'a> {
    /// The answer's command (relative paths already made absolute).
    pub command: &'a [OsString],
    /// `PATH` as the answer gets it.
    pub path: Option<&'a OsStr>,
    /// `--bind` paths.
    pub binds: &'a [PathBuf],
    /// The values of the variables passed with `--env` (the paths among them are bound).
    pub env_values: Vec<&'a OsStr>,
    /// `--cases` directories.
    pub cases: &'a [PathBuf],
    /// The running judge.
    pub exe: &'a Path,
    /// The judge's home directory, never bound whole.
    pub home: Option<&'a Path>,
    /// True when the command names the judge itself: it is not masked then.
    pub judge_named: bool,
}

impl Layout {
    /// The layout for one answer.
    pub fn new(req: &Request) -> Layout {
        let mut command: Vec<OsString> = req
            .command
            .iter()
            .enumerate()
            .map(|(i, a)| absolute(a, i == 0))
            .collect();
        let mut ro: Vec<PathBuf> = Vec::new();
        let found = command
            .first()
            .and_then(|program| resolve_program(program, req.path));
        if let Some(found) = found {
            let real = match through_shim(&found, req.path) {
                Some(real) => {
                    command[0] = real.clone().into_os_string();
                    real
                }
                None => found,
            };
            program_paths(&real, req, &mut ro, 0);
        }
        for arg in command.iter().skip(1) {
            let path = Path::new(arg);
            if !path.is_absolute() || !path.exists() {
                continue;
            }
            if path.is_dir() {
                // A home directory, `/` or `/tmp` named on the command line is not shown.
                if !too_wide(path, req.home) {
                    ro.push(path.to_path_buf());
                }
            } else {
                own_directory(path, req.home, &mut ro);
                script_interpreter(path, req, &mut ro, 0);
            }
        }
        let named_by_env: Vec<PathBuf> = req
            .env_values
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute() && p.exists())
            .collect();
        ro.extend(named_by_env.iter().cloned());
        ro.extend(req.binds.iter().filter_map(|b| std::path::absolute(b).ok()));
        let ro = tidy(ro);
        // A copy of the judge the user runs on purpose (the program, or a variable passed
        // with --env) is not masked.
        let trusted: Vec<PathBuf> = command
            .first()
            .map(PathBuf::from)
            .into_iter()
            .chain(named_by_env)
            .collect();
        let masks = masks(&ro, req, &trusted);
        Layout { command, ro, masks }
    }
}

/// A relative path that exists from here, made absolute (the answer runs in its own
/// directory); anything else as it is. A program without a `/` is looked up in `PATH`.
pub fn absolute(arg: &OsStr, program: bool) -> OsString {
    let path = Path::new(arg);
    let bytes = arg.as_encoded_bytes();
    let looked_up = program && !bytes.contains(&b'/');
    if looked_up || path.is_absolute() || bytes.starts_with(b"-") || !path.exists() {
        return arg.to_os_string();
    }
    std::path::absolute(path).map_or_else(|_| arg.to_os_string(), PathBuf::into_os_string)
}

/// The file a program name runs: a name with a `/` as it is, otherwise the first
/// executable file of that name in `path`.
pub fn resolve_program(program: &OsStr, path: Option<&OsStr>) -> Option<PathBuf> {
    let p = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return Some(p.to_path_buf());
    }
    std::env::split_paths(path?).map(|d| d.join(p)).find(|c| {
        c.metadata()
            .is_ok_and(|m| m.is_file() && platform::is_executable(&m))
    })
}

/// The real program behind a pyenv or rbenv shim (`ROOT/shims/NAME`), asked of the
/// version manager itself (`ROOT/libexec/TOOL which NAME`) once per check.
fn through_shim(program: &Path, path: Option<&OsStr>) -> Option<PathBuf> {
    let dir = program.parent()?;
    if dir.file_name()? != "shims" {
        return None;
    }
    let root = dir.parent()?;
    let name = program.file_name()?;
    ["pyenv", "rbenv", "nodenv", "goenv"]
        .iter()
        .find_map(|tool| {
            let manager = root.join("libexec").join(tool);
            if !manager.is_file() {
                return None;
            }
            let mut cmd = std::process::Command::new(&manager);
            cmd.arg("which").arg(name);
            if let Some(p) = path {
                cmd.env("PATH", p);
            }
            let out = cmd.stderr(std::process::Stdio::null()).output().ok()?;
            let text = String::from_utf8(out.stdout).ok()?;
            let real = PathBuf::from(text.trim());
            (out.status.success() && real.is_file()).then_some(real)
        })
}

/// The program itself and its installation prefix, and the interpreter of its `#!` line.
fn program_paths(program: &Path, req: &Request, ro: &mut Vec<PathBuf>, depth: usize) {
    if depth > 4 || !program.is_absolute() {
        return;
    }
    ro.push(program.to_path_buf());
    if let Ok(real) = program.canonicalize() {
        if real != program {
            ro.push(real.clone());
        }
        if let Some(prefix) = prefix_of(&real, req.home) {
            ro.push(prefix);
        }
    }
    script_interpreter(program, req, ro, depth);
}

/// The interpreter a `#!` line names (through `env`), with its prefix.
fn script_interpreter(script: &Path, req: &Request, ro: &mut Vec<PathBuf>, depth: usize) {
    let Some(line) = shebang(script) else {
        return;
    };
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return;
    };
    let interpreter = PathBuf::from(first);
    let named = if interpreter.file_name().is_some_and(|n| n == "env") {
        words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .and_then(|w| resolve_program(OsStr::new(w), req.path))
    } else {
        Some(interpreter.clone())
    };
    program_paths(&interpreter, req, ro, depth + 1);
    if let Some(named) = named
        && named != interpreter
    {
        let real = through_shim(&named, req.path).unwrap_or(named);
        program_paths(&real, req, ro, depth + 1);
    }
}

/// The `#!` line of a file, without the `#!`.
fn shebang(path: &Path) -> Option<String> {
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let head = head.get(..n)?.strip_prefix(b"#!")?;
    let end = head.iter().position(|&b| b == b'\n').unwrap_or(head.len());
    String::from_utf8(head[..end].to_vec()).ok()
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

/// The directory of a file the command names: the answer's own directory, unless that is
/// too wide to show (a home directory, `/`, `/tmp`); then the file alone.
fn own_directory(file: &Path, home: Option<&Path>, ro: &mut Vec<PathBuf>) {
    match file.parent() {
        Some(dir) if !too_wide(dir, home) => ro.push(dir.to_path_buf()),
        _ => ro.push(file.to_path_buf()),
    }
}

/// Directories never bound whole: they hold far more than one answer.
fn too_wide(dir: &Path, home: Option<&Path>) -> bool {
    const WIDE: [&str; 7] = [
        "/", "/home", "/root", "/tmp", "/var/tmp", "/dev/shm", "/run",
    ];
    WIDE.iter().any(|w| dir == Path::new(w))
        || home.is_some_and(|h| dir == h)
        || dir.parent() == Some(Path::new("/home"))
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
    // Where the answer sees the file whose real path is `real`, if it does.
    let seen_at = |real: &Path| -> Option<PathBuf> {
        shown.iter().find_map(|(canonical, at)| {
            let rest = real.strip_prefix(canonical).ok()?;
            Some(if rest.as_os_str().is_empty() {
                at.clone()
            } else {
                at.join(rest)
            })
        })
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
                masks.extend(real.ok().and_then(|p| seen_at(&p)));
            }
        }
    }
    if !req.judge_named {
        let scan: Vec<PathBuf> = ro
            .iter()
            .cloned()
            .chain(
                req.path
                    .map(std::env::split_paths)
                    .into_iter()
                    .flatten()
                    .filter(|d| d.canonicalize().ok().and_then(|c| seen_at(&c)).is_some()),
            )
            .collect();
        let exe = req.exe.canonicalize().ok().and_then(|c| seen_at(&c));
        let copies = copies_of(req.exe, &scan).into_iter().chain(exe);
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
        std::fs::read_to_string(d.join("Cargo.toml"))
            .is_ok_and(|t| t.contains("name = \"beast-judge\""))
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
    let mut magic = [0u8; 4];
    named
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok()
        && magic == *b"\x7fELF"
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
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(command: &'a [OsString], exe: &'a Path, cases: &'a [PathBuf]) -> Request<'a> {
        Request {
            command,
            path: None,
            binds: &[],
            env_values: Vec::new(),
            cases,
            exe,
            home: None,
            judge_named: false,
        }
    }

    #[test]
    #[cfg_attr(windows, ignore = "a `#!` line and Unix paths")]
    fn a_script_brings_its_own_directory_and_its_interpreter_prefix() {
        let dir = tempfile::tempdir().expect("temp dir");
        let prefix = dir.path().join("py");
        std::fs::create_dir_all(prefix.join("bin")).expect("mkdir");
        std::fs::create_dir_all(prefix.join("lib")).expect("mkdir");
        let python = prefix.join("bin/python3");
        std::fs::write(&python, "").expect("write");
        let answer = dir.path().join("answer");
        std::fs::create_dir(&answer).expect("mkdir");
        let script = answer.join("a.py");
        std::fs::write(&script, format!("#!{}\nprint(2)\n", python.display())).expect("write");
        let command = [script.clone().into_os_string()];
        let exe = dir.path().join("no-judge");
        let layout = Layout::new(&request(&command, &exe, &[]));
        assert!(layout.ro.contains(&answer), "{layout:?}");
        assert!(layout.ro.contains(&prefix), "{layout:?}");
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
        req.home = Some(home.path());
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
        req.home = Some(home.path());
        let layout = Layout::new(&req);
        assert_eq!(layout.ro, vec![script]);
    }
}
