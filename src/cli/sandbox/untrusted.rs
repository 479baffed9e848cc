//! The answer's words and files, which the judge never trusts, and how it touches them.
//! The answer's command is an [`AnswerCommand`], never a plain list of strings: its words
//! are data, passed on as they are (to a zygote, in a keeper's arguments) and started only
//! inside the jail, basic's keeper, or under `--sandbox none` as the user asked. The paths
//! they name ([`AnswerCommand::paths`], and the places around them, [`Named`]) are the
//! answer's: the judge looks at what they are to decide what the jail shows, reads them
//! only with [`read_head`] (without blocking, regular files only, a bounded prefix), and
//! shows them only as a [`Bound`](super::spec::Bound) that [`reach`](super::reach) opens
//! by descriptor, as the case's user, before it is mounted. They never decide what runs on
//! the host: besides the judge itself, only a [`HostProgram`] runs there before a case, and
//! one can only be had through the judge's own `PATH`, outside every named place: a version
//! manager's `which` and an interpreter's `--version`, bounded in time and output.

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::platform;

/// The answer's command: its program and arguments as the user wrote them (or as the
/// layout made them: relative paths made absolute, a shim resolved, the puzzle placed),
/// never empty. It is no path and no `Command`: a word becomes a path only through
/// [`AnswerCommand::paths`] or [`AnswerCommand::program_file`], to be looked at, and a
/// process only where the answer is contained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerCommand(Vec<OsString>);

/// A word of the answer's command that may name a path (see [`AnswerCommand::paths`]):
/// what lies there is the answer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedPath<'a> {
    /// The word, as a path (absolute where it existed when the layout was made).
    pub path: &'a Path,
    /// True for the program, the command's first word.
    pub program: bool,
}

impl AnswerCommand {
    /// The command of `words`, the program first; `None` when there is no word.
    pub fn from_words(words: Vec<OsString>) -> Option<AnswerCommand> {
        (!words.is_empty()).then_some(AnswerCommand(words))
    }

    /// The program, its first word: a name without `/` is looked up in `PATH`.
    pub fn program(&self) -> &OsStr {
        self.0.first().map_or(OsStr::new(""), OsString::as_os_str)
    }

    /// Its arguments, after the program.
    pub fn args(&self) -> &[OsString] {
        self.0.get(1..).unwrap_or_default()
    }

    /// Every word, the program first, to pass on as they are: in a zygote's request, in a
    /// keeper's arguments.
    pub fn words(&self) -> &[OsString] {
        &self.0
    }

    /// The words as one line, for messages (lossy where a word is not UTF-8).
    pub fn shown(&self) -> String {
        let words: Vec<_> = self.0.iter().map(|w| w.to_string_lossy()).collect();
        words.join(" ")
    }

    /// True when the program is a name without `/`: `PATH` finds it, and it names no place.
    pub fn program_is_looked_up(&self) -> bool {
        !self.program().as_encoded_bytes().contains(&b'/')
    }

    /// The words that may name a path, in order: the program when it holds a `/`, and every
    /// argument. The judge looks at what is there (is it a directory, where does it lead)
    /// to decide what the jail shows; it reads it only with [`read_head`].
    pub fn paths(&self) -> impl Iterator<Item = NamedPath<'_>> {
        let looked_up = self.program_is_looked_up();
        self.0
            .iter()
            .enumerate()
            .filter(move |(i, _)| *i > 0 || !looked_up)
            .map(|(i, word)| NamedPath {
                path: Path::new(word),
                program: i == 0,
            })
    }

    /// The file the program names, to look at (does it exist, is it the judge), never to
    /// run on the host: the program itself when it holds a `/`, else the first executable
    /// file of that name in `path`.
    pub fn program_file(&self, path: Option<&OsStr>) -> Option<PathBuf> {
        let program = Path::new(self.program());
        if !self.program_is_looked_up() {
            return Some(program.to_path_buf());
        }
        std::env::split_paths(path?)
            .map(|d| d.join(program))
            .find(|c| runnable(c))
    }

    /// The same command, each word that is a relative path existing from here made
    /// absolute (the answer runs in its own directory); a program without a `/` and an
    /// option stay as they are.
    pub fn made_absolute(&self) -> AnswerCommand {
        let words = self.0.iter().enumerate();
        AnswerCommand(words.map(|(i, w)| absolute(w, i == 0)).collect())
    }

    /// The same arguments after `program` (the real program behind a shim).
    pub fn with_program(&self, program: PathBuf) -> AnswerCommand {
        let mut words = vec![program.into_os_string()];
        words.extend_from_slice(self.args());
        AnswerCommand(words)
    }

    /// The same program with `args` (the puzzle placed for `--input arg|file`).
    pub fn with_args(&self, args: Vec<OsString>) -> AnswerCommand {
        let mut words = vec![self.program().to_os_string()];
        words.extend(args);
        AnswerCommand(words)
    }
}

/// A relative path that exists from here, made absolute (the answer runs in its own
/// directory); anything else as it is. A program without a `/` is looked up in `PATH`.
fn absolute(arg: &OsStr, program: bool) -> OsString {
    let path = Path::new(arg);
    let bytes = arg.as_encoded_bytes();
    let looked_up = program && !bytes.contains(&b'/');
    if looked_up || path.is_absolute() || bytes.starts_with(b"-") || !path.exists() {
        return arg.to_os_string();
    }
    std::path::absolute(path).map_or_else(|_| arg.to_os_string(), PathBuf::into_os_string)
}

/// The most bytes a host program's output is read of (the rest is drained and dropped).
const OUTPUT_KEPT: u64 = 64 << 10;

/// Directories never shown whole: they hold far more than one answer.
pub fn too_wide(dir: &Path, home: Option<&Path>) -> bool {
    const WIDE: [&str; 7] = [
        "/", "/home", "/root", "/tmp", "/var/tmp", "/dev/shm", "/run",
    ];
    WIDE.iter().any(|w| dir == Path::new(w))
        || home.is_some_and(|h| dir == h)
        || dir.parent() == Some(Path::new("/home"))
}

/// The places an answer's command names: each existing absolute path of it that is a
/// directory, and the directory of each that is a file (or the file alone, when its
/// directory is too wide to show). What lies inside them is the answer's: it is shown to
/// the answer, and never run nor trusted on the host.
#[derive(Clone, Debug, Default)]
pub struct Named {
    /// The places, each as written and as the file system resolves it.
    places: Vec<PathBuf>,
}

impl Named {
    /// The places `command` names (its words already made absolute where they exist; a
    /// program without a `/` names none).
    pub fn of(command: &AnswerCommand, home: Option<&Path>) -> Named {
        let mut places = Vec::new();
        for NamedPath { path, .. } in command.paths() {
            if !path.is_absolute() || path.symlink_metadata().is_err() {
                continue;
            }
            let place = match path.parent() {
                _ if path.is_dir() && !too_wide(path, home) => path.to_path_buf(),
                Some(dir) if !path.is_dir() && !too_wide(dir, home) => dir.to_path_buf(),
                _ => path.to_path_buf(),
            };
            places.extend(path.canonicalize().ok().filter(|c| c != path).map(|c| {
                match (path.is_dir(), c.parent()) {
                    (false, Some(dir)) if !too_wide(dir, home) => dir.to_path_buf(),
                    _ => c,
                }
            }));
            places.push(place);
        }
        places.sort();
        places.dedup();
        Named { places }
    }

    /// True when `path`, as written or resolved, lies in a place the command names.
    pub fn holds(&self, path: &Path) -> bool {
        let inside = |p: &Path| self.places.iter().any(|n| p.starts_with(n));
        inside(path) || path.canonicalize().is_ok_and(|c| inside(&c))
    }

    /// The places, for tests.
    #[cfg(test)]
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub fn places(&self) -> &[PathBuf] {
        &self.places
    }
}

/// Every regular executable file called `name` (a name without `/`) in the absolute
/// directories of `path`, in order: what a lookup in the jail may find (those in a place
/// the command names too, which the judge never runs).
pub fn on_path(name: &OsStr, path: Option<&OsStr>) -> Vec<PathBuf> {
    if name.is_empty() || name.as_encoded_bytes().contains(&b'/') {
        return Vec::new();
    }
    path.map(std::env::split_paths)
        .into_iter()
        .flatten()
        .filter(|d| d.is_absolute())
        .map(|d| d.join(name))
        .filter(|c| runnable(c))
        .collect()
}

/// A program the judge may run on the host: found through its own `PATH` outside every
/// place the command names, or the version manager behind such a program's shim. Nothing
/// else can make one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostProgram {
    path: PathBuf,
}

/// What a [`HostProgram`] printed, and whether it succeeded.
#[derive(Debug, Default)]
pub struct Ran {
    /// True for exit status 0.
    pub success: bool,
    /// Its standard output (at most [`OUTPUT_KEPT`] bytes, lossy UTF-8).
    pub stdout: String,
    /// Its standard error (the same).
    pub stderr: String,
}

impl HostProgram {
    /// The first regular executable file called `name` (a name without `/`) in the
    /// trusted directories of `path`, itself outside every named place.
    pub fn find(name: &OsStr, path: Option<&OsStr>, named: &Named) -> Option<HostProgram> {
        HostProgram::find_all(name, path, named).into_iter().next()
    }

    /// Every such file, in the order of `path`.
    pub fn find_all(name: &OsStr, path: Option<&OsStr>, named: &Named) -> Vec<HostProgram> {
        on_path(name, path)
            .into_iter()
            .filter(|c| c.parent().is_some_and(|d| !named.holds(d)) && !named.holds(c))
            .map(|path| HostProgram { path })
            .collect()
    }

    /// `file`, found in `path` as [`on_path`] finds it, as a program the judge may run:
    /// `None` when it lies in a named place.
    pub fn trusted(file: &Path, path: Option<&OsStr>, named: &Named) -> Option<HostProgram> {
        HostProgram::find_all(file.file_name()?, path, named)
            .into_iter()
            .find(|p| p.path == file)
    }

    /// The program, as found (not resolved: a shim keeps its name).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The real program behind a pyenv, rbenv, nodenv or goenv shim (`ROOT/shims/NAME`),
    /// asked of the version manager itself (`ROOT/libexec/TOOL which NAME`) when it too
    /// lies outside every named place; `None` when this is no shim.
    pub fn through_shim(
        &self,
        path: Option<&OsStr>,
        named: &Named,
        interrupted: &dyn Fn() -> bool,
    ) -> Option<PathBuf> {
        let dir = self.path.parent()?;
        if dir.file_name()? != "shims" || named.holds(&self.path) {
            return None;
        }
        let root = dir.parent()?;
        let name = self.path.file_name()?;
        ["pyenv", "rbenv", "nodenv", "goenv"]
            .iter()
            .find_map(|tool| {
                let manager = root.join("libexec").join(tool);
                if !runnable(&manager) || named.holds(&manager) || named.holds(root) {
                    return None;
                }
                let manager = HostProgram { path: manager };
                let mut env = Vec::new();
                env.extend(path.map(|p| (OsString::from("PATH"), p.to_os_string())));
                let out = manager.run(
                    &[OsStr::new("which"), name],
                    &env,
                    Duration::from_secs(5),
                    interrupted,
                )?;
                let real = PathBuf::from(out.stdout.trim());
                (out.success && real.is_absolute() && runnable(&real) && !named.holds(&real))
                    .then_some(real)
            })
    }

    /// Runs the program with `args` (and `env` over the judge's own), stdin closed, for at
    /// most `time` or until `interrupted` says so: what it printed, or `None` when it could
    /// not start or was stopped.
    pub fn run(
        &self,
        args: &[&OsStr],
        env: &[(OsString, OsString)],
        time: Duration,
        interrupted: &dyn Fn() -> bool,
    ) -> Option<Ran> {
        let mut cmd = Command::new(&self.path);
        cmd.args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        platform::own_group(&mut cmd);
        let mut child = cmd.spawn().ok()?;
        #[allow(
            clippy::default_constructed_unit_structs,
            reason = "a unit struct on Unix, a table of jobs on Windows"
        )]
        let trees = platform::Trees::default();
        let _ = trees.hold(&child);
        let id = i32::try_from(child.id()).unwrap_or(i32::MAX);
        let reader = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut kept = Vec::new();
                if let Some(mut p) = pipe {
                    let _ = p.by_ref().take(OUTPUT_KEPT).read_to_end(&mut kept);
                    let _ = io::copy(&mut p, &mut io::sink());
                }
                String::from_utf8_lossy(&kept).into_owned()
            })
        };
        let out = reader(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let err = reader(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() < time && !interrupted() => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => {
                    trees.kill(id);
                    let _ = child.kill();
                    let _ = child.wait();
                    return None;
                }
            }
        };
        // What it left holding the pipes is ended with it.
        trees.kill(id);
        Some(Ran {
            success: status.success(),
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
        })
    }
}

/// True for a regular file (symlinks followed) that someone may run.
pub fn runnable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && platform::is_executable(&m))
}

/// The first `limit` bytes of the regular file at `path` (symlinks followed), read without
/// ever blocking on a FIFO or a device: anything but a regular file is refused before it
/// is read, and checked again once open.
pub fn read_head(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let not_regular = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        )
    };
    if !path.metadata()?.is_file() {
        return Err(not_regular());
    }
    let file = platform::open_without_blocking(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut head = Vec::new();
    file.take(limit).read_to_end(&mut head)?;
    Ok(head)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn executable(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }

    fn answer_command(words: Vec<OsString>) -> AnswerCommand {
        AnswerCommand::from_words(words).expect("a command")
    }

    #[test]
    fn an_answers_words_name_paths_only_where_the_kernel_would_open_them() {
        assert_eq!(AnswerCommand::from_words(Vec::new()), None);
        let words = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let paths = |c: &AnswerCommand| {
            c.paths()
                .map(|p| (p.path.to_path_buf(), p.program))
                .collect::<Vec<_>>()
        };
        let looked_up = answer_command(words(&["python3", "/srv/a.py", "-u"]));
        assert!(looked_up.program_is_looked_up());
        assert_eq!(
            paths(&looked_up),
            [("/srv/a.py".into(), false), ("-u".into(), false)]
        );
        let script = answer_command(words(&["/srv/golf", "x"]));
        assert_eq!(
            paths(&script),
            [("/srv/golf".into(), true), ("x".into(), false)]
        );
        assert_eq!(script.program_file(None), Some("/srv/golf".into()));
        assert_eq!(looked_up.program_file(None), None, "no PATH, no program");
        let moved = looked_up
            .with_program("/opt/py/bin/python3".into())
            .with_args(words(&["/srv/b.py"]));
        assert_eq!(moved.words(), words(&["/opt/py/bin/python3", "/srv/b.py"]));
        assert_eq!(
            (moved.program(), moved.args()),
            ("/opt/py/bin/python3".as_ref(), &words(&["/srv/b.py"])[..])
        );
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644))
            .expect("mkfifo");
        let started = Instant::now();
        assert!(read_head(&fifo, 256).is_err());
        assert!(read_head(Path::new("/dev/zero"), 256).is_err());
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn only_a_bounded_prefix_is_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'#'; 10_000]).expect("write");
        assert_eq!(read_head(&big, 256).expect("read").len(), 256);
    }

    #[test]
    fn a_program_in_a_named_place_or_a_relative_path_entry_is_never_a_host_program() {
        let dir = tempfile::tempdir().expect("temp dir");
        let answer = dir.path().join("answer");
        executable(&answer.join("bin/python3"), "#!/bin/sh\n");
        std::fs::write(answer.join("a.py"), "print(2)\n").expect("write");
        let command = answer_command(vec!["python3".into(), answer.join("a.py").into()]);
        let named = Named::of(&command, None);
        assert_eq!(named.places(), std::slice::from_ref(&answer));
        let path = std::env::join_paths([answer.join("bin"), PathBuf::from("bin")]).expect("join");
        assert_eq!(
            HostProgram::find(OsStr::new("python3"), Some(&path), &named),
            None
        );
        let outside = dir.path().join("outside/bin");
        executable(&outside.join("python3"), "#!/bin/sh\n");
        let path = std::env::join_paths([&outside]).expect("join");
        let found = HostProgram::find(OsStr::new("python3"), Some(&path), &named);
        assert_eq!(found.map(|p| p.path), Some(outside.join("python3")));
    }

    #[test]
    fn a_shims_manager_inside_a_named_place_is_never_run() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("answer");
        let mark = dir.path().join("ran");
        executable(&root.join("shims/python3"), "#!/bin/sh\n");
        executable(
            &root.join("libexec/pyenv"),
            &format!("#!/bin/sh\ntouch '{}'\necho /bin/sh\n", mark.display()),
        );
        std::fs::write(root.join("a.py"), "").expect("write");
        let shim = HostProgram {
            path: root.join("shims/python3"),
        };
        let command = answer_command(vec!["python3".into(), root.join("a.py").into()]);
        let named = Named::of(&command, None);
        assert_eq!(shim.through_shim(None, &named, &|| false), None);
        assert!(!mark.exists());
        // Outside every named place it is the user's own version manager: asked.
        let named = Named::default();
        assert_eq!(
            shim.through_shim(None, &named, &|| false),
            Some("/bin/sh".into())
        );
        assert!(mark.exists());
    }

    #[test]
    fn a_host_program_that_hangs_is_stopped_in_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        executable(&dir.path().join("slow"), "#!/bin/sh\nsleep 30\n");
        let path = dir.path().as_os_str().to_os_string();
        let slow =
            HostProgram::find(OsStr::new("slow"), Some(&path), &Named::default()).expect("found");
        let started = Instant::now();
        assert!(
            slow.run(&[], &[], Duration::from_millis(300), &|| false)
                .is_none()
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
