//! The check's reporters: one a format, each made from the [`Event`]s of a run alone (so a
//! `--merge` of shards, which replays their records as the same events, is written by the
//! same code). [`Reporters`] hands each event to every reporter the plan asks for, in a
//! fixed order: the progress bar, `--report-dir`, the format on stdout (text, JSON or
//! Markdown), `--junit`. Every line reaches the terminal through [`Out`], which lifts the
//! progress bar around it: no note crosses the bar.

mod dir;
pub mod html;
mod json;
mod junit;
mod markdown;
mod progress;
pub mod text;

use std::io::{self, Write};

use indicatif::ProgressBar;

use super::event::Event;
use super::plan::{Format, Output};

/// Standard output and standard error for reporters. Standard output stops printing,
/// quietly, once its reader has gone (`| head -1`); the exit status is still the verdict's.
pub struct Out {
    closed: bool,
    bar: Option<ProgressBar>,
}

impl Out {
    /// Output with no progress bar.
    pub fn plain() -> Out {
        Out {
            closed: false,
            bar: None,
        }
    }

    /// Prints `text` on stdout; after a write error nothing more is printed.
    pub fn print(&mut self, text: &str) {
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

    /// Prints `text` on stderr, as it is (end it with a newline).
    pub fn note(&mut self, text: &str) {
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

/// Every reporter of a check, and where they write.
pub struct Reporters {
    out: Out,
    list: Vec<Box<dyn Reporter>>,
}

impl Reporters {
    /// The reporters `output` asks for; `many` when several answers run, `bar` when stderr
    /// is a terminal.
    pub fn new(output: &Output, many: bool, bar: bool) -> Reporters {
        let bar = bar.then(progress::bar);
        let mut list: Vec<Box<dyn Reporter>> = Vec::new();
        if let Some(bar) = &bar {
            list.push(Box::new(progress::Progress::new(bar.clone())));
        }
        if let Some(dir) = &output.report_dir {
            list.push(Box::new(dir::ReportDir::new(dir.clone())));
        }
        list.push(match output.format {
            Format::Text => Box::new(text::Text::new(output, many)),
            Format::Json => Box::new(json::Json::new(output.shard_records(), many)),
            Format::Markdown => Box::new(markdown::Markdown),
        });
        if let Some(path) = &output.junit {
            list.push(Box::new(junit::Junit::new(
                path.clone(),
                output.shard,
                many,
            )));
        }
        Reporters {
            out: Out { closed: false, bar },
            list,
        }
    }

    /// Hands `event` to every reporter in turn; the first error stops it. A note is
    /// printed here, whatever the format.
    pub fn emit(&mut self, event: Event<'_>) -> anyhow::Result<()> {
        if let Event::Note(text) = &event {
            self.out.note(&format!("{text}\n"));
        }
        for r in &mut self.list {
            r.on(&event, &mut self.out)?;
        }
        Ok(())
    }
}

/// The note a cut run ends with.
fn interrupted_note(signal: i32, ran: usize, of: usize) -> String {
    format!(
        "interrupted (signal {signal}): the report covers the {ran} cases that finished \
         before it, of {of} (no shrinking, a short diagnosis)\n"
    )
}
