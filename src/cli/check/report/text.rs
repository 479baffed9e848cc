//! The text report: the sandbox line, each case under `-v`, then for one answer its groups,
//! diagnosis, time, score and summary lines (or its `--post`), and for several the
//! leaderboard and each answer's report under it. The words of a case and a group are the
//! engine's (`judge::report`); the report's shape is made here, and only here.

use std::path::PathBuf;

use beast_engine::judge::leaderboard;
use beast_engine::judge::page::board;
use beast_engine::judge::report::{self, CaseReport, DiagnosisReport, Summary};
use beast_engine::play::{Color, Line};

use super::reporter::{Out, Reporter, interrupted_note};
use crate::cli::check::event::{Concluded, Event, Finish, Judged};
use crate::cli::check::plan::{Output, Post};
use crate::cli::check::post;

/// The text reporter.
pub struct Text {
    verbose: bool,
    quiet: bool,
    /// Colour the summary line (`--color`).
    paint: bool,
    post: Option<Post>,
    report_dir: Option<PathBuf>,
    many: bool,
}

impl Text {
    /// The text report of `output`; `many` when several answers run; its summary line
    /// coloured when `paint`.
    pub fn new(output: &Output, many: bool, paint: bool) -> Text {
        Text {
            verbose: output.verbose,
            quiet: output.quiet,
            paint,
            post: output.post.clone(),
            report_dir: output.report_dir.clone(),
            many,
        }
    }

    /// The end of one answer's report: the `--post` of a passing answer, or the
    /// diagnosis, time, score and summary lines (and why there is no post).
    fn ending_of_one(&self, j: &Judged, finish: &Finish<'_>, out: &mut Out) -> anyhow::Result<()> {
        let Ok(Concluded {
            reports,
            summary,
            diagnosis: d,
        }) = &j.outcome
        else {
            return Ok(());
        };
        let all_passed = summary.failed == 0 && summary.internal == 0;
        if let Some(p) = self.post.as_ref().filter(|_| all_passed) {
            let text = post::text(
                p.command.as_ref(),
                j.source.as_ref(),
                reports,
                finish.seed,
                p.language.as_deref(),
                (p.encoding, p.count_all),
                finish.interrupted,
            )?;
            // Interrupted while the interpreter was asked: the check ends, with no post.
            if (finish.interrupted)() {
                return Ok(());
            }
            out.print(&text);
            out.note(&format!("{}\n", summary.line()));
        } else {
            out.print(&ending_body(reports, summary, d));
            out.print_painted(&format!("{}\n", summary_line(summary, self.paint)));
            if self.post.is_some() {
                let why = post::refusal(summary);
                out.note(&format!("{why}\n"));
            }
        }
        Ok(())
    }

    /// The leaderboard and, under it, each answer's report in rank order (or where
    /// `--report-dir` put them).
    fn leaderboard(&self, finish: &Finish<'_>, out: &mut Out) {
        match finish.page {
            Some(entries) => out.print(&board::text(entries)),
            None => out.print(&leaderboard::text(finish.rows)),
        }
        match &self.report_dir {
            Some(dir) => out.print(&format!(
                "\neach answer's report: {}\n",
                dir.join("NAME.txt").display()
            )),
            None => {
                let ranked = finish
                    .rows
                    .iter()
                    .filter_map(|row| finish.judged.iter().find(|j| j.name == row.name));
                for j in ranked {
                    out.print(&format!(
                        "\n== {} ==\n{}",
                        report::visible(&j.name),
                        detail(j)
                    ));
                }
            }
        }
    }
}

impl Reporter for Text {
    fn on(&mut self, event: &Event<'_>, out: &mut Out) -> anyhow::Result<()> {
        match event {
            Event::RunStarted(_) | Event::RunFinished(_) if self.quiet => {
                if let Event::RunFinished(finish) = event {
                    quiet_ending(finish, self.many, self.paint, out);
                }
            }
            Event::RunStarted(start) => {
                let lines = sandbox_lines(&start.answers, &start.sandbox_lines);
                match self.post {
                    Some(_) => out.note(&lines),
                    None => out.print(&lines),
                }
            }
            Event::CaseFinished { answer, report, .. } if self.verbose => match answer {
                Some(name) => out.print(&format!(
                    "{}: {}",
                    report::visible(name),
                    report::text(report)
                )),
                None => out.print(&report::text(report)),
            },
            Event::RunFinished(finish) if self.many => self.leaderboard(finish, out),
            Event::RunFinished(finish) => {
                if let Some(j) = finish.judged.first() {
                    self.ending_of_one(j, finish, out)?;
                }
            }
            Event::Interrupted { signal, ran, of } => {
                out.print(&interrupted_note(*signal, *ran, *of));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The report's first lines: the sandbox line once when every answer has the same, else
/// one line per answer, named.
pub fn sandbox_lines(names: &[&str], lines: &[&str]) -> String {
    sandbox_lines_with(names, lines, report::visible)
}

/// The sandbox lines as [`sandbox_lines`] makes them, each name and line (a shard's line is
/// a stranger's text) escaped by `escape`, the layer of the medium they land in.
pub fn sandbox_lines_with(names: &[&str], lines: &[&str], escape: fn(&str) -> String) -> String {
    let first = lines.first().copied().unwrap_or_default();
    if lines.iter().all(|l| *l == first) {
        return format!("{}\n", escape(first));
    }
    names
        .iter()
        .zip(lines)
        .map(|(name, line)| {
            let rest = line.strip_prefix("sandbox: ").unwrap_or(line);
            format!("sandbox ({}): {}\n", escape(name), escape(rest))
        })
        .collect()
}

/// All `-q` prints: the summary line of one answer, or the leaderboard of several.
fn quiet_ending(finish: &Finish<'_>, many: bool, paint: bool, out: &mut Out) {
    if let Some(entries) = finish.page {
        return out.print(&board::text(entries));
    }
    if many {
        return out.print(&leaderboard::text(finish.rows));
    }
    match finish.judged.first().map(|j| &j.outcome) {
        Some(Ok(Concluded { summary, .. })) => {
            out.print_painted(&format!("{}\n", summary_line(summary, paint)));
        }
        Some(Err(reason)) => out.print(&format!("cannot start: {}\n", report::visible(reason))),
        None => {}
    }
}

/// One answer's report under the leaderboard or in `--report-dir`: its groups, diagnosis,
/// time, score and summary line, or why it could not start.
pub fn detail(j: &Judged) -> String {
    match &j.outcome {
        Ok(c) => format!(
            "{}{}\n",
            ending_body(&c.reports, &c.summary, &c.diagnosis),
            c.summary.line()
        ),
        Err(reason) => format!("cannot start: {}\n", report::visible(reason)),
    }
}

/// The end of the text report but its summary line: the groups, the diagnosis, the time
/// and score lines.
fn ending_body(reports: &[CaseReport], summary: &Summary, d: &DiagnosisReport) -> String {
    let mut s = report::internal_text(reports);
    for g in &d.groups {
        s += &report::group_text(g);
        s.push('\n');
    }
    s += &format!("diagnosis: {}\n", report::visible(&d.sentence));
    if let Some(r) = &d.robustness {
        s += &report::robustness_text(r);
    }
    s += &format!("{}\n", summary.time_line());
    if let Some(line) = summary.memory_line() {
        s += &format!("{line}\n");
    }
    if let Some(line) = summary.score_line() {
        s += &format!("{line}\n");
    }
    s
}

/// The summary line, green when every case passed and red otherwise, when `paint`.
fn summary_line(summary: &Summary, paint: bool) -> String {
    let color = match summary.failed {
        0 => Color::Green,
        _ => Color::Red,
    };
    crate::cli::paint::paint(&Line::default().with(summary.line(), color), paint)
}
