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
mod reporter;
pub mod text;

use super::event::Event;
use super::plan::{Format, Output};
pub use reporter::{Out, Reporter};

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
            out: Out::with(bar),
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
