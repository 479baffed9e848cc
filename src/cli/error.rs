//! How a command ends when it does not simply succeed, and the exit status each way gets.
//! Every command returns [`Error`]; [`Error::code`] is the one place exit statuses are
//! decided, and `cli::run` applies it once.

use std::io;

/// What every command returns: `Ok` for success, or how it ended otherwise.
pub type Ended = Result<(), Error>;

/// Why a command did not end with success.
#[derive(Debug)]
pub enum Error {
    /// The command ran and found a failure: a check failed or a move was refused. The
    /// report has been printed.
    Failed,
    /// Bad input, bad usage, or a file or stream that failed; the message says which.
    Input(anyhow::Error),
    /// The judge failed: it could not set up this many cases (IE), whatever the answers
    /// did with the others. The report has been printed.
    NotJudged(usize),
    /// A signal cut the run short, after the running candidates were stopped and the
    /// command cleaned up.
    Interrupted(i32),
    /// The contained answer's own exit status, passed on by the sandbox helper.
    Relayed(u8),
}

/// Exit status 1: a check failed or a move was refused.
const FAILED: u8 = 1;
/// Exit status 2: bad input or usage.
const BAD_INPUT: u8 = 2;

impl Error {
    /// The process's exit status for this ending: 1 failed, 2 bad input or usage or cases
    /// the judge could not set up, 128 + the signal when interrupted, the answer's own
    /// status when relayed, and 0 for a closed output pipe (the reader has all it wanted).
    pub fn code(&self) -> u8 {
        match self {
            Error::Failed => FAILED,
            Error::Input(err) if is_broken_pipe(err) => 0,
            Error::Input(_) => BAD_INPUT,
            Error::NotJudged(_) => BAD_INPUT,
            Error::Interrupted(sig) => 128u8.saturating_add(u8::try_from(*sig).unwrap_or(0)),
            Error::Relayed(code) => *code,
        }
    }

    /// The message to print on stderr, if any.
    pub fn message(&self) -> Option<String> {
        match self {
            Error::Input(err) if !is_broken_pipe(err) => Some(format!("error: {err:#}")),
            Error::NotJudged(n) => Some(format!(
                "error: {} not judged: the sandbox could not set {} up (IE, twice; see the \
                 report). The answers are not to blame",
                beast_engine::words::count(*n as u64, "case"),
                if *n == 1 { "it" } else { "them" }
            )),
            _ => None,
        }
    }
}

impl<E: Into<anyhow::Error>> From<E> for Error {
    fn from(err: E) -> Error {
        Error::Input(err.into())
    }
}

/// A usage error with this message: exit status 2.
pub fn usage(message: impl std::fmt::Display) -> Error {
    Error::Input(anyhow::anyhow!("{message}"))
}

/// True when the error chain ends in a closed pipe (stdout, or stderr under `--trace`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_has_its_documented_exit_status() {
        assert_eq!(Error::Failed.code(), 1);
        assert_eq!(Error::from(anyhow::anyhow!("bad")).code(), 2);
        assert_eq!(Error::Interrupted(2).code(), 130);
        assert_eq!(Error::Relayed(7).code(), 7);
        let ie = Error::NotJudged(2);
        assert_eq!(ie.code(), 2);
        assert!(
            ie.message()
                .is_some_and(|m| m.starts_with("error: 2 cases not judged"))
        );
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        let closed = Error::from(anyhow::Error::from(pipe).context("cannot write"));
        assert_eq!((closed.code(), closed.message()), (0, None));
    }
}
