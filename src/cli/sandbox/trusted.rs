//! What the judge trusts when it prepares an answer's jail, and how it touches the answer's
//! files. The answer's files are data: the directories its command names ([`Named`]) never
//! decide what runs on the host. Besides the judge itself, only a [`HostProgram`] runs
//! there before a case, and one can only be had through the judge's own `PATH`, outside
//! every named directory: a version manager's `which` and an interpreter's `--version`,
//! bounded in time and output. The answer's own files are read with [`read_head`]:
//! without blocking, regular files only, a bounded prefix.

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::platform;

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
    /// The places `command` names (its words already made absolute where they exist).
    pub fn of(command: &[OsString], home: Option<&Path>) -> Named {
        let mut places = Vec::new();
        for (i, word) in command.iter().enumerate() {
            let path = Path::new(word);
            // A program without a `/` is looked up in `PATH`: it names no place.
            let looked_up = i == 0 && !word.as_encoded_bytes().contains(&b'/');
            if looked_up || !path.is_absolute() || path.symlink_metadata().is_err() {
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
        let command = [OsString::from("python3"), answer.join("a.py").into()];
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
        let named = Named::of(&[OsString::from("python3"), root.join("a.py").into()], None);
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
