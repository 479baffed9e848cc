//! The JSON report: one typed record a line (`judge::record::Record`). A case record as
//! each case finishes (a shard's also carries its place in the whole list, its puzzle and
//! its `beast gen` command, for `--merge`), then each answer's summary or why it could not
//! start, then for several answers the leaderboard. The words a person reads (the
//! diagnosis and summary lines, the text leaderboard) go to stderr.

use beast_engine::judge::leaderboard;
use beast_engine::judge::page::board;
use beast_engine::judge::record::{self, CannotStart, CaseRecord, Record, SummaryRecord};

use super::reporter::{Out, Reporter, interrupted_note};
use crate::cli::check::event::{Concluded, Event};

/// The JSON reporter.
pub struct Json {
    shard: bool,
    many: bool,
}

impl Json {
    /// The JSON report; `shard` when it is a shard's records, `many` when several answers
    /// run.
    pub fn new(shard: bool, many: bool) -> Json {
        Json { shard, many }
    }
}

impl Reporter for Json {
    fn on(&mut self, event: &Event<'_>, out: &mut Out) -> anyhow::Result<()> {
        match event {
            Event::RunStarted(start) => {
                if let Some(header) = start.shard {
                    out.print(&Record::Header(header.clone()).to_line()?);
                }
            }
            Event::CaseFinished {
                answer,
                ordinal,
                report,
            } => {
                let record = match self.shard {
                    true => CaseRecord::in_shard(report, *ordinal),
                    false => CaseRecord::of(report),
                };
                out.print(&Record::Case(record.of_answer(*answer)).to_line()?);
            }
            Event::CannotStart { name, reason } => {
                out.print(&Record::CannotStart(CannotStart::new(name, reason)).to_line()?);
            }
            Event::AnswerFinished(judged) => {
                if let Ok(Concluded {
                    summary,
                    diagnosis: d,
                    ..
                }) = &judged.outcome
                {
                    let record = SummaryRecord::of(summary, d, judged.sandbox.clone())
                        .of_answer(self.many.then_some(judged.name.as_str()));
                    out.print(&Record::Summary(record).to_line()?);
                    if !self.many {
                        out.note(&format!("diagnosis: {}\n", d.sentence));
                        out.note(&format!("{}\n", summary.line()));
                    }
                }
            }
            // A shard's records stay what `--merge` reads: its leaderboard, not the page's.
            Event::RunFinished(finish) if finish.page.is_some() && !self.shard => {
                let entries = finish.page.unwrap_or_default();
                out.print(&board::json_lines(entries));
                out.note(&board::text(entries));
            }
            Event::RunFinished(finish) if self.many => {
                let board = record::Leaderboard::of(finish.rows);
                out.print(&Record::Leaderboard(board).to_line()?);
                out.note(&leaderboard::text(finish.rows));
            }
            Event::Interrupted { signal, ran, of } => {
                out.note(&interrupted_note(*signal, *ran, *of));
            }
            _ => {}
        }
        Ok(())
    }
}
