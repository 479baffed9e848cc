//! Running a candidate once: spawn it in its own process group, feed it the puzzle, read its
//! output up to a cap, and kill the whole group on a timeout, on too much output, and once it
//! is done (so children it left running do not linger).

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{SigSet, Signal, killpg};
use nix::unistd::Pid;

/// How the puzzle reaches the candidate (`--input`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputMode {
    /// On standard input.
    #[default]
    Stdin,
    /// As one argument, substituted for `{}` or appended.
    Arg,
    /// As the path of a temporary file, substituted for `{}` or appended.
    File,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past the timeout; its group was killed.
    TimedOut,
    /// It printed more than the cap; its group was killed.
    OutputLimit,
}

/// One finished run.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended.
    pub ended: Ended,
    /// Its standard output (at most the cap, plus one byte for OLE).
    pub stdout: Vec<u8>,
    /// The end of its standard error.
    pub stderr: Vec<u8>,
    /// Wall-clock time from spawn to exit (or kill).
    pub elapsed: Duration,
}

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The command and its arguments.
    pub command: Vec<OsString>,
    /// How the puzzle is fed.
    pub input: InputMode,
    /// The time limit.
    pub timeout: Duration,
    /// The most bytes of output allowed.
    pub max_output: usize,
    /// The process groups running now, for [`Groups::kill_on_interrupt`].
    pub groups: Groups,
}

/// The process groups of the candidates running now.
#[derive(Clone, Debug, Default)]
pub struct Groups(Arc<Mutex<HashSet<i32>>>);

impl Groups {
    fn add(&self, id: i32) {
        if let Ok(mut set) = self.0.lock() {
            set.insert(id);
        }
    }

    fn remove(&self, id: i32) {
        if let Ok(mut set) = self.0.lock() {
            set.remove(&id);
        }
    }

    /// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread started after it,
    /// and starts a thread that waits for them: it kills every running group and exits with
    /// 128 + the signal. Call it before starting other threads. Children start with an
    /// empty signal mask (the standard library resets it), so candidates are unaffected.
    pub fn kill_on_interrupt(&self) -> nix::Result<()> {
        let mut set = SigSet::empty();
        for s in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
            set.add(s);
        }
        set.thread_block()?;
        let groups = self.clone();
        thread::spawn(move || {
            if let Ok(sig) = set.wait() {
                if let Ok(set) = groups.0.lock() {
                    for &id in set.iter() {
                        let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
                    }
                }
                eprintln!("\nbeast check: interrupted by {}", sig.as_str());
                std::process::exit(128 + sig as i32);
            }
        });
        Ok(())
    }
}

/// The most bytes of standard error kept.
const STDERR_KEPT: usize = 4096;

/// What the helper threads report.
enum Event {
    Output(Vec<u8>, bool),
    Exit(io::Result<ExitStatus>),
}

impl Runner {
    /// The command as the user wrote it, for messages.
    pub fn display(&self) -> String {
        self.command
            .iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs the candidate on `input`. An `Err` means the command could not be started.
    pub fn run(&self, input: &[u8]) -> io::Result<Run> {
        let (program, rest) = self
            .command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command given"))?;
        let mut cmd = Command::new(program);
        cmd.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // The temporary file lives until the run is over.
        let mut _file = None;
        match self.input {
            InputMode::Stdin => {
                cmd.args(rest).stdin(Stdio::piped());
            }
            InputMode::Arg => {
                cmd.args(substitute(rest, OsStr::from_bytes(input)))
                    .stdin(Stdio::null());
            }
            InputMode::File => {
                let mut f = tempfile::Builder::new()
                    .prefix("beast-check-")
                    .suffix(".txt")
                    .tempfile()?;
                f.write_all(input)?;
                f.flush()?;
                cmd.args(substitute(rest, f.path().as_os_str()))
                    .stdin(Stdio::null());
                _file = Some(f);
            }
        }
        let start = Instant::now();
        let mut child = cmd.spawn()?;
        let group_id = i32::try_from(child.id()).unwrap_or(i32::MAX);
        self.groups.add(group_id);
        let group = Pid::from_raw(group_id);
        let kill = || {
            // ESRCH (the group is gone already) is fine.
            let _ = killpg(group, Signal::SIGKILL);
        };
        if let Some(mut stdin) = child.stdin.take() {
            // A write of at most 4 KiB to a fresh pipe never blocks; larger inputs get a
            // thread. Either way EPIPE (the candidate closed its stdin) is ignored.
            if input.len() <= 4096 {
                let _ = stdin.write_all(input);
            } else {
                let data = input.to_vec();
                thread::spawn(move || {
                    let _ = stdin.write_all(&data);
                });
            }
        }
        let (tx, rx) = mpsc::channel();
        let stderr = spawn_stderr_reader(&mut child);
        if let Some(out) = child.stdout.take() {
            let tx = tx.clone();
            let cap = self.max_output;
            thread::spawn(move || {
                let (bytes, over) = read_capped(out, cap);
                let _ = tx.send(Event::Output(bytes, over));
            });
        }
        thread::spawn(move || {
            let status = child.wait();
            let _ = tx.send(Event::Exit(status));
        });

        let deadline = start + self.timeout;
        let mut output: Option<Vec<u8>> = None;
        let mut status: Option<ExitStatus> = None;
        let mut ended = None;
        let mut elapsed = None;
        while output.is_none() || status.is_none() {
            let now = Instant::now();
            let wait = if ended.is_some() {
                // Killed: give the threads a moment to report, then give up on them.
                Duration::from_millis(200)
            } else {
                deadline.saturating_duration_since(now)
            };
            match rx.recv_timeout(wait) {
                Ok(Event::Output(bytes, over)) => {
                    if over && ended.is_none() {
                        kill();
                        ended = Some(Ended::OutputLimit);
                        elapsed = Some(start.elapsed());
                    }
                    output = Some(bytes);
                }
                Ok(Event::Exit(s)) => {
                    elapsed.get_or_insert_with(|| start.elapsed());
                    status = Some(s?);
                    // Anything it left behind holds our pipes open: end it now.
                    kill();
                }
                Err(RecvTimeoutError::Timeout) if ended.is_none() => {
                    kill();
                    ended = Some(Ended::TimedOut);
                    elapsed = Some(start.elapsed());
                }
                Err(_) => break,
            }
        }
        kill();
        self.groups.remove(group_id);
        let ended = ended.unwrap_or(match status {
            Some(s) => match (s.code(), s.signal()) {
                (Some(code), _) => Ended::Exited(code),
                (None, Some(sig)) => Ended::Signaled(sig),
                (None, None) => Ended::Signaled(0),
            },
            None => Ended::TimedOut,
        });
        // The group is dead, so standard error reaches its end at once, unless an escaped
        // grandchild still holds it.
        let stderr = stderr
            .and_then(|rx| rx.recv_timeout(Duration::from_millis(100)).ok())
            .unwrap_or_default();
        Ok(Run {
            ended,
            stdout: output.unwrap_or_default(),
            stderr,
            elapsed: elapsed.unwrap_or_else(|| start.elapsed()),
        })
    }
}

/// The arguments with every `{}` replaced by `value`, or with `value` appended if none
/// holds `{}`.
fn substitute(args: &[OsString], value: &OsStr) -> Vec<OsString> {
    let mut found = false;
    let mut out: Vec<OsString> = args
        .iter()
        .map(|a| {
            let bytes = a.as_bytes();
            if !bytes.windows(2).any(|w| w == b"{}") {
                return a.clone();
            }
            found = true;
            let mut v = Vec::with_capacity(bytes.len() + value.len());
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"{}") {
                    v.extend_from_slice(value.as_bytes());
                    i += 2;
                } else {
                    v.push(bytes[i]);
                    i += 1;
                }
            }
            OsStr::from_bytes(&v).to_os_string()
        })
        .collect();
    if !found {
        out.push(value.to_os_string());
    }
    out
}

/// Reads up to `cap` bytes; the flag says the reader had more than that.
fn read_capped(mut r: impl Read, cap: usize) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => return (buf, false),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > cap {
                    buf.truncate(cap + 1);
                    return (buf, true);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return (buf, false),
        }
    }
}

/// Keeps the last bytes of standard error and drains the rest, so the candidate never
/// blocks on a full pipe.
fn spawn_stderr_reader(child: &mut Child) -> Option<mpsc::Receiver<Vec<u8>>> {
    let mut err = child.stderr.take()?;
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            match err.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    // Keep the end: that is where interpreters print the exception.
                    kept.extend_from_slice(&chunk[..n]);
                    if kept.len() > 2 * STDERR_KEPT {
                        kept.drain(..kept.len() - STDERR_KEPT);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        if kept.len() > STDERR_KEPT {
            kept.drain(..kept.len() - STDERR_KEPT);
        }
        let _ = tx.send(kept);
    });
    Some(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn braces_are_substituted_or_the_value_appended() {
        let v = OsStr::new("/tmp/p.txt");
        assert_eq!(
            substitute(&os(&["-f", "{}", "x{}y"]), v),
            os(&["-f", "/tmp/p.txt", "x/tmp/p.txty"])
        );
        assert_eq!(substitute(&os(&["-f"]), v), os(&["-f", "/tmp/p.txt"]));
    }

    #[test]
    fn output_over_the_cap_is_flagged() {
        let (b, over) = read_capped(&[7u8; 100][..], 10);
        assert!(over);
        assert_eq!(b.len(), 11);
        let (b, over) = read_capped(&[7u8; 10][..], 10);
        assert!(!over);
        assert_eq!(b.len(), 10);
    }
}
