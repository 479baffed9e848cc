//! `--report-dir DIR`: each answer's text report in DIR/NAME.txt and its JSON report (case
//! records and summary) in DIR/NAME.json, NAME the answer's name made a file name
//! ([`answers::file_name`]): every file lands in DIR, whatever the command was, written
//! through the write gate (a link in DIR is replaced, never written through).

use std::path::PathBuf;

use anyhow::Context;
use beast_engine::judge::record::{CaseRecord, Record, SummaryRecord};
use beast_engine::judge::report;

use super::reporter::{Out, Reporter};
use super::text::detail;
use crate::cli::check::answers;
use crate::cli::check::event::{Concluded, Event};
use crate::cli::files::Target;

/// The report-directory reporter.
pub struct ReportDir(PathBuf);

impl ReportDir {
    /// Writes into `dir` at the end.
    pub fn new(dir: PathBuf) -> ReportDir {
        ReportDir(dir)
    }
}

impl Reporter for ReportDir {
    fn on(&mut self, event: &Event<'_>, _out: &mut Out) -> anyhow::Result<()> {
        let Event::RunFinished(finish) = event else {
            return Ok(());
        };
        let dir = &self.0;
        let target = Target::create(dir)
            .with_context(|| format!("cannot make the report directory {}", dir.display()))?;
        for j in finish.judged {
            // A file read on a terminal: its text through the terminal's layer.
            let text = report::terminal(&format!(
                "{}\n{}",
                report::visible(&j.sandbox.line),
                detail(j)
            ));
            let mut json = String::new();
            if let Ok(Concluded {
                reports,
                summary,
                diagnosis: d,
            }) = &j.outcome
            {
                for r in reports {
                    json += &Record::Case(CaseRecord::of(r)).to_line()?;
                }
                let record = SummaryRecord::of(summary, d, j.sandbox.clone());
                json += &Record::Summary(record).to_line()?;
            }
            for (ext, contents) in [("txt", text), ("json", json)] {
                let name = format!("{}.{ext}", answers::file_name(&j.name));
                target.replace(name.as_ref(), contents.as_bytes())?;
            }
        }
        Ok(())
    }
}
