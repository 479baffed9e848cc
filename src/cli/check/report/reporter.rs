//! What every reporter writes through, and the one trait they share: [`Out`], the way to
//! the terminal, and [`Reporter`]. Every line `Out` prints or notes passes the terminal's
//! layer of escaping (`judge::report::terminal`) on its way: whatever a renderer let
//! through, no raw control character and no workflow command's `::` at a line's start.

use std::io::{self, Write};
use std::path::Path;

use beast_engine::judge::report::terminal;
use indicatif::ProgressBar;

use crate::cli::check::event::Event;

/// Standard output and standard error for reporters. Standard output stops printing,
/// quietly, once its reader has gone (`| head -1`); the exit status is still the verdict's.
pub struct Out {
    closed: bool,
    bar: Option<ProgressBar>,
    /// What was printed and noted, kept instead of written (the reporters' tests).
    kept: Option<(String, String)>,
}

impl Out {
    /// Output with no progress bar.
    pub fn plain() -> Out {
        Out::with(None)
    }

    /// Output that lifts `bar`, if any, around every line.
    pub fn with(bar: Option<ProgressBar>) -> Out {
        Out {
            closed: false,
            bar,
            kept: None,
        }
    }

    /// Output that keeps what it is given: stdout and stderr, for [`Out::kept_text`].
    #[cfg(test)]
    pub fn keeping() -> Out {
        Out {
            closed: false,
            bar: None,
            kept: Some((String::new(), String::new())),
        }
    }

    /// What a [`Out::keeping`] was given: stdout, stderr.
    #[cfg(test)]
    pub fn kept_text(&self) -> (&str, &str) {
        self.kept
            .as_ref()
            .map_or(("", ""), |(o, e)| (o.as_str(), e.as_str()))
    }

    /// Where a line from another thread goes: stderr, around the progress bar if there is
    /// one.
    pub fn notice(&self) -> impl Fn(&str) + Send + Sync + 'static {
        let bar = self.bar.clone();
        move |text: &str| {
            let text = terminal(text);
            match &bar {
                Some(bar) => bar.suspend(|| eprint!("{text}")),
                None => eprint!("{text}"),
            }
        }
    }

    /// Prints `text` on stdout, made safe for the terminal; after a write error nothing
    /// more is printed.
    pub fn print(&mut self, text: &str) {
        self.print_raw(&terminal(text));
    }

    /// Prints `line`, the judge's own words painted with its colours (the summary line:
    /// counts, no stranger's text), as it is.
    pub fn print_painted(&mut self, line: &str) {
        self.print_raw(line);
    }

    /// Prints `text` on stdout as it is.
    fn print_raw(&mut self, text: &str) {
        if let Some((out, _)) = &mut self.kept {
            out.push_str(text);
            return;
        }
        if self.closed {
            return;
        }
        let write = || {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        };
        let result = match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        };
        self.closed = result.is_err();
    }

    /// Prints `text` on stderr, made safe for the terminal (end it with a newline).
    pub fn note(&mut self, text: &str) {
        let text = terminal(text);
        let text = text.as_str();
        if let Some((_, err)) = &mut self.kept {
            err.push_str(text);
            return;
        }
        let write = || {
            let mut err = io::stderr().lock();
            let _ = err.write_all(text.as_bytes());
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }
}

impl Drop for Out {
    /// Clears the progress bar however the run ends, an interrupt or an error included.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What writes one part of the report from the events.
pub trait Reporter {
    /// Takes one event; an error stops the report (the run's exit status says so).
    fn on(&mut self, event: &Event<'_>, out: &mut Out) -> anyhow::Result<()>;
}

/// The note a cut run ends with.
pub fn interrupted_note(signal: i32, ran: usize, of: usize) -> String {
    format!(
        "interrupted (signal {signal}): the report covers the {ran} cases that finished \
         before it, of {of} (no shrinking, a short diagnosis)\n"
    )
}

/// Writes a report file at `path` through the write gate: a new file in its directory
/// renamed over it, so that a symbolic link someone planted at `path` (in a shared report
/// directory) is replaced, never written through.
pub fn write_report_file(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    crate::cli::files::write::replace_named(path, contents)
}
