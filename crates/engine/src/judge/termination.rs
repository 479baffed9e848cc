//! How an answer's run ended when it did not end with its output: the one typed account
//! of it, made by the process runner and carried in the case's report to the words, which
//! are made here alone ([`Termination`]'s `Display`; JSON and text both use them).

use std::fmt;

use serde::{Serialize, Serializer};

use crate::words::mib;

/// How a run that gives no verdict from its output ended (TLE, RTE, OLE, MLE), or why it
/// never started (IE).
#[derive(Clone, Debug, PartialEq)]
pub enum Termination {
    /// It printed more than the cap, in bytes, and was stopped.
    OutputLimit {
        /// The cap.
        cap: usize,
    },
    /// It was killed at the time limit, in seconds.
    TimeLimit {
        /// The limit.
        seconds: f64,
    },
    /// It ran out of memory.
    MemoryLimit {
        /// The limit, in MiB.
        limit_mib: u64,
        /// The peak its cgroup measured, in bytes, when the kernel's OOM kill ended it;
        /// `None` when only the program's own failure said so.
        peak: Option<u64>,
        /// The end of its standard error.
        stderr: String,
    },
    /// The puzzle was too long to pass as one argument: the answer never started.
    ArgumentTooLong,
    /// It exited with a status other than 0.
    Exited {
        /// The status.
        code: i32,
        /// The end of its standard error.
        stderr: String,
    },
    /// A signal killed it.
    Signaled {
        /// The signal's number.
        signal: i32,
        /// Its name, where the system has one (`SIGSEGV`).
        name: Option<String>,
        /// The end of its standard error.
        stderr: String,
    },
    /// The judge could not set the case up: a step of its jail failed before the answer
    /// started (IE). The helper told it on a channel of its own, never the answer's exit
    /// status.
    SetupFailed {
        /// The step and the system's reason: `bind a path: ENOENT: No such file or
        /// directory`.
        what: String,
    },
    /// Read back from a shard's record, which keeps the words only.
    Recorded(String),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The end of standard error, when there is one, after the account.
        let tail = |f: &mut fmt::Formatter<'_>, stderr: &str| match stderr.is_empty() {
            true => Ok(()),
            false => write!(f, "; stderr ends:\n{stderr}"),
        };
        match self {
            Termination::OutputLimit { cap } => write!(f, "printed more than {cap} bytes"),
            Termination::TimeLimit { seconds } => write!(f, "killed after {seconds} s"),
            Termination::MemoryLimit {
                limit_mib,
                peak: Some(peak),
                stderr,
            } => {
                write!(
                    f,
                    "killed by the kernel at the {limit_mib} MiB memory limit of its cgroup \
                     (peak {})",
                    mib(*peak)
                )?;
                tail(f, stderr)
            }
            Termination::MemoryLimit {
                limit_mib,
                peak: None,
                stderr,
            } => {
                write!(f, "ran out of the {limit_mib} MiB memory limit")?;
                tail(f, stderr)
            }
            Termination::ArgumentTooLong => write!(
                f,
                "the puzzle is longer than the system allows one argument (128 KiB); use \
                 --input file or stdin"
            ),
            Termination::Exited { code, stderr } => {
                write!(f, "exit code {code}")?;
                tail(f, stderr)
            }
            Termination::Signaled {
                signal,
                name,
                stderr,
            } => {
                write!(f, "killed by signal {signal}")?;
                if let Some(name) = name {
                    write!(f, " ({name})")?;
                }
                tail(f, stderr)
            }
            Termination::SetupFailed { what } => {
                write!(f, "internal error while setting up the jail: {what}")
            }
            Termination::Recorded(words) => f.write_str(words),
        }
    }
}

/// In JSON a termination is its words, as the records have always had them.
impl Serialize for Termination {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_is_told_in_its_own_words() {
        let cases = [
            (
                Termination::OutputLimit { cap: 1024 },
                "printed more than 1024 bytes",
            ),
            (
                Termination::TimeLimit { seconds: 2.5 },
                "killed after 2.5 s",
            ),
            (
                Termination::Exited {
                    code: 3,
                    stderr: String::new(),
                },
                "exit code 3",
            ),
            (
                Termination::Exited {
                    code: 1,
                    stderr: "Traceback\nKeyError".to_string(),
                },
                "exit code 1; stderr ends:\nTraceback\nKeyError",
            ),
            (
                Termination::Signaled {
                    signal: 11,
                    name: Some("SIGSEGV".to_string()),
                    stderr: String::new(),
                },
                "killed by signal 11 (SIGSEGV)",
            ),
            (
                Termination::MemoryLimit {
                    limit_mib: 256,
                    peak: None,
                    stderr: "MemoryError".to_string(),
                },
                "ran out of the 256 MiB memory limit; stderr ends:\nMemoryError",
            ),
            (
                Termination::SetupFailed {
                    what: "bind a path: ENOENT: No such file or directory".to_string(),
                },
                "internal error while setting up the jail: bind a path: ENOENT: No such \
                 file or directory",
            ),
            (
                Termination::Recorded("exit code 9".to_string()),
                "exit code 9",
            ),
        ];
        for (t, words) in cases {
            assert_eq!(t.to_string(), words);
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                serde_json::to_string(words).unwrap()
            );
        }
        let oom = Termination::MemoryLimit {
            limit_mib: 64,
            peak: Some(70 << 20),
            stderr: String::new(),
        };
        assert!(
            oom.to_string().starts_with(
                "killed by the kernel at the 64 MiB memory limit of its cgroup (peak "
            ),
            "{oom}"
        );
    }
}
