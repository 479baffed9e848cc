//! No command panics on a closed or full stdout or stderr. A closed pipe exits 0, as the
//! judge always did on a closed stdout; a full stdout is an error (exit 2); a full stderr
//! loses the messages but keeps the exit code. Each command here exited 101 (a panic) on
//! one of these before.

use std::fs::{self, File};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::{BEAST, example};

/// Where the child's stdout or stderr goes.
#[derive(Clone, Copy, Debug)]
enum Sink {
    /// A pipe whose read end is closed before the child starts: every write is EPIPE.
    Closed,
    /// `/dev/full`: every write is ENOSPC.
    Full,
    /// Captured by the test.
    Captured,
}

fn stdio(sink: Sink) -> Stdio {
    match sink {
        Sink::Closed => {
            let (read, write): (OwnedFd, OwnedFd) = nix::unistd::pipe().expect("a pipe");
            drop(read);
            Stdio::from(write)
        }
        Sink::Full => Stdio::from(
            File::options()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        ),
        Sink::Captured => Stdio::piped(),
    }
}

/// What a run left: its exit code and whatever of stdout and stderr was captured.
struct Ran {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs `beast ARGS` with stdout and stderr sent to the sinks.
fn run(args: &[&str], out: Sink, err: Sink) -> Ran {
    let o = Command::new(BEAST)
        .args(args)
        .env("BEAST", BEAST)
        .stdin(Stdio::null())
        .stdout(stdio(out))
        .stderr(stdio(err))
        .output()
        .expect("beast runs");
    Ran {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// False (with the reason printed) where the machine has no `/dev/full`.
fn has_dev_full() -> bool {
    let ok = Path::new("/dev/full").exists();
    if !ok {
        eprintln!("skipped: no /dev/full on this machine");
    }
    ok
}

/// A puzzle file the parser refuses.
fn bad_puzzle(dir: &Path) -> PathBuf {
    let path = dir.join("bad.txt");
    fs::write(&path, "5 3\n#####\n#O~h#\n#####\nR\n").expect("write");
    path
}

/// Commands that print to stdout, each with its arguments.
fn printing_commands() -> Vec<Vec<String>> {
    let w = example("wikipedia.txt").display().to_string();
    [
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["gen", "--seed", "1"],
        vec!["ring", "--html"],
        vec!["ring", "--json", "R"],
        vec!["ring", "--trace", "RRD"],
        vec!["fence", "--seed", "7", "a1-b1"],
        vec!["fence", "--seed", "7", "--json", "a1-b1"],
        vec![w.as_str()],
        vec!["--json", w.as_str()],
        vec!["--help"],
        vec!["check", "--shard", "1/8", "--", BEAST],
    ]
    .iter()
    .map(|a| a.iter().map(ToString::to_string).collect())
    .collect()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_closed_stdout_exits_0_quietly_in_every_command() {
    for args in printing_commands() {
        let r = run(&strs(&args), Sink::Closed, Sink::Captured);
        assert_eq!(r.code, Some(0), "beast {args:?}: {}", r.err);
        assert!(!r.err.contains("panicked"), "beast {args:?}: {}", r.err);
    }
}

#[test]
fn a_full_stdout_is_an_error_not_a_panic() {
    if !has_dev_full() {
        return;
    }
    for args in printing_commands() {
        if args[0] == "--help" || args[0] == "check" {
            continue; // clap's help and check's report have their own paths
        }
        let r = run(&strs(&args), Sink::Full, Sink::Captured);
        assert_eq!(r.code, Some(2), "beast {args:?}: {}", r.err);
        assert!(r.err.starts_with("error: "), "beast {args:?}: {}", r.err);
        assert!(r.err.contains("No space left"), "beast {args:?}: {}", r.err);
    }
}

#[test]
fn a_closed_stderr_keeps_the_answer_and_the_exit_code() {
    let w = example("wikipedia.txt").display().to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = bad_puzzle(dir.path());
    let bad = bad.to_str().expect("UTF-8 path");
    // The trace's stderr is its output: closed, it ends the run quietly.
    let r = run(&["--trace", &w], Sink::Captured, Sink::Closed);
    assert_eq!(r.code, Some(0));
    // Messages on stderr are lost, the answer and the exit code are not.
    let r = run(&["ring", "UUUUU"], Sink::Captured, Sink::Closed);
    assert_eq!(r.code, Some(0));
    assert!(r.out.contains("rejected: wall"), "{}", r.out);
    let r = run(&["fence", "--list", "a1-b1"], Sink::Captured, Sink::Closed);
    assert_eq!(r.code, Some(0));
    assert!(r.out.lines().count() > 10, "{}", r.out);
    assert_eq!(run(&[bad], Sink::Captured, Sink::Closed).code, Some(2));
    assert_eq!(
        run(&["--bogus"], Sink::Captured, Sink::Closed).code,
        Some(2)
    );
    let r = run(
        &["check", "--format", "json", "--shard", "1/8", "--", BEAST],
        Sink::Captured,
        Sink::Closed,
    );
    assert_eq!(r.code, Some(0));
    assert!(r.out.contains("\"summary\":true"), "{}", r.out);
}

#[test]
fn a_full_stderr_loses_messages_but_never_panics() {
    if !has_dev_full() {
        return;
    }
    let w = example("wikipedia.txt").display().to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = bad_puzzle(dir.path());
    let bad = bad.to_str().expect("UTF-8 path");
    // The trace cannot be written: an error, exit 2, its message lost too.
    let r = run(&["--trace", &w], Sink::Captured, Sink::Full);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.out, "");
    let r = run(&["ring", "UUUUU"], Sink::Captured, Sink::Full);
    assert_eq!(r.code, Some(0));
    assert!(r.out.contains("rejected: wall"), "{}", r.out);
    let r = run(&["fence", "--list", "a1-b1"], Sink::Captured, Sink::Full);
    assert_eq!(r.code, Some(0));
    assert_eq!(run(&[bad], Sink::Captured, Sink::Full).code, Some(2));
    assert_eq!(run(&["--bogus"], Sink::Captured, Sink::Full).code, Some(2));
    let r = run(
        &["check", "--format", "json", "--shard", "1/8", "--", BEAST],
        Sink::Captured,
        Sink::Full,
    );
    assert_eq!(r.code, Some(0));
    assert!(r.out.contains("\"summary\":true"), "{}", r.out);
}
