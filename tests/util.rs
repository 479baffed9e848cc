//! Helpers shared by every integration test: the binary, paths to the shipped examples and
//! the fixtures, JSON parsing and key checks, and a tmux session for terminal tests.

use std::path::PathBuf;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The `beast` binary under test.
pub const BEAST: &str = env!("CARGO_BIN_EXE_beast");

/// `beast` as an `assert_cmd` command.
pub fn beast() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("beast")
}

/// The Python the fixture answers run on: the system's `/usr/bin/python3` where there is
/// one, else whatever `python3` the `PATH` finds. A version manager's shim (pyenv's is a
/// shell script that runs `pyenv exec`) costs about 60 ms a start, three times the
/// interpreter's own, and the trial answers start thousands of times.
pub fn python3() -> &'static str {
    match std::path::Path::new("/usr/bin/python3").is_file() {
        true => "/usr/bin/python3",
        false => "python3",
    }
}

/// A path inside the repository.
pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A beast example: `examples/beast/NAME`.
pub fn example(name: &str) -> PathBuf {
    repo("examples/beast").join(name)
}

/// A test fixture: `tests/fixtures/NAME`.
pub fn fixture(name: &str) -> PathBuf {
    repo("tests/fixtures").join(name)
}

/// Writes `bytes` to `path` as an executable (mode 0755) that may be run at once.
///
/// The file is written by a child `sh`, never by this process: the tests run on many
/// threads, and a file this process held open for writing would be inherited, open, by
/// any child another thread forks before that child's `exec`, so running the file at that
/// moment fails with "Text file busy" (ETXTBSY). A file written and closed by a process
/// that has ended is held open by nobody.
pub fn write_executable(path: impl AsRef<std::path::Path>, bytes: &[u8]) {
    let path = path.as_ref();
    use std::io::Write as _;
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("sh runs");
    child
        .stdin
        .take()
        .expect("a stdin")
        .write_all(bytes)
        .expect("write the executable");
    let status = child.wait().expect("sh ends");
    assert!(status.success(), "writing {} failed", path.display());
}

/// Copies the file `from` to `to` as an executable (mode 0755) that may be run at once;
/// the copy is made by a child process, for the reason `write_executable` gives.
#[cfg(unix)]
pub fn copy_executable(from: impl AsRef<std::path::Path>, to: impl AsRef<std::path::Path>) {
    let (from, to) = (from.as_ref(), to.as_ref());
    let status = Command::new("cp")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp runs");
    assert!(status.success(), "copying {} failed", from.display());
    let status = Command::new("chmod")
        .arg("755")
        .arg(to)
        .status()
        .expect("chmod runs");
    assert!(status.success(), "chmod {} failed", to.display());
}

/// Parses a command's stdout as one JSON value, saying what it was when it is not.
pub fn json(stdout: &[u8]) -> Value {
    serde_json::from_slice(stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(stdout)
        )
    })
}

/// Asserts that the JSON object `v` has exactly `keys` (in any order).
pub fn assert_exact_keys(v: &Value, keys: &[&str]) {
    let mut got: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    got.sort_unstable();
    let mut want = keys.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "keys of {v}");
}

/// Asserts that the JSON object `v` has at least `keys`.
pub fn assert_has_keys(v: &Value, keys: &[&str]) {
    for key in keys {
        assert!(v.get(key).is_some(), "{key} missing in {v}");
    }
}

/// A tmux server of a test's own, running one session named `play`.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `script` in a tmux session of `cols` x `rows` on a socket of this test's own;
    /// `None` (with a message) where tmux cannot be had.
    pub fn start(name: &str, cols: u16, rows: u16, script: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: tmux is not installed, so no pseudo-terminal can be had here");
            return None;
        }
        let tmux = Tmux {
            socket: format!("beast-{name}-{}", std::process::id()),
        };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            &cols,
            "-y",
            &rows,
            "sh",
            "-c",
            script,
        ]);
        Some(tmux)
    }

    /// Runs one tmux command on this server and returns its stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Sends keys to the session.
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// The screen as text, one line a row.
    pub fn screen(&self) -> String {
        self.run(&["capture-pane", "-t", "play", "-p"])
    }

    /// Waits up to 10 s for `text` to show on the screen; returns the last screen.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) || start.elapsed() > Duration::from_secs(10) {
                return screen;
            }
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

/// How many built-in cases `beast check` runs: the example pairs of `examples/beast`
/// (`NAME.txt` or `NAME.in` with `NAME.out`). Counted from the files, since rule examples
/// are added there.
pub fn builtin_count() -> usize {
    let dir = repo("examples/beast");
    std::fs::read_dir(&dir)
        .expect("examples")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "out"))
        .filter(|p| p.with_extension("txt").is_file() || p.with_extension("in").is_file())
        .count()
}
