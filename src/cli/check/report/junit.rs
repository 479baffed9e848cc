//! `--junit FILE`: the run as JUnit XML, one suite, or one an answer in the leaderboard's
//! order (an answer not judged after every judged one; the XML is the engine's,
//! `judge::report::junit_suites`).

use std::path::PathBuf;

use anyhow::Context;
use beast_engine::judge::cases::Shard;
use beast_engine::judge::report;

use super::reporter::{Out, Reporter, write_report_file};
use crate::cli::check::event::{Event, Judged};

/// The JUnit reporter.
pub struct Junit {
    path: PathBuf,
    shard: Option<Shard>,
    many: bool,
}

impl Junit {
    /// Writes `path` at the end; the suite's name says the shard.
    pub fn new(path: PathBuf, shard: Option<Shard>, many: bool) -> Junit {
        Junit { path, shard, many }
    }
}

impl Reporter for Junit {
    fn on(&mut self, event: &Event<'_>, _out: &mut Out) -> anyhow::Result<()> {
        let Event::RunFinished(finish) = event else {
            return Ok(());
        };
        let suite = match self.shard {
            Some(shard) => format!("beast check (shard {shard})"),
            None => "beast check".to_string(),
        };
        // In rank order, as the leaderboard has them.
        let ranked: Vec<&Judged> = finish
            .rows
            .iter()
            .filter_map(|row| finish.judged.iter().find(|j| j.name == row.name))
            .collect();
        let names: Vec<String> = ranked
            .iter()
            .map(|j| match self.many {
                true => format!("{suite}: {}", j.name),
                false => suite.clone(),
            })
            .collect();
        let suites: Vec<report::Suite> = ranked
            .iter()
            .zip(&names)
            .filter_map(|(j, name)| {
                j.outcome.as_ref().ok().map(|c| report::Suite {
                    name,
                    reports: &c.reports,
                    diagnosis: &c.diagnosis,
                    sandbox: &j.sandbox.line,
                })
            })
            .collect();
        let junit = report::junit_suites(&suite, &suites);
        write_report_file(&self.path, junit.as_bytes())
            .with_context(|| format!("cannot write the JUnit report to {}", self.path.display()))
    }
}
