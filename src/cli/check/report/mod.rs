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

use std::io;

use super::event::Event;
use super::plan::{Format, Output};
use crate::cli::paint::ColorChoice;
pub use reporter::{Out, Reporter};

/// Every reporter of a check, and where they write.
pub struct Reporters {
    out: Out,
    list: Vec<Box<dyn Reporter>>,
    /// `-q`: no note is printed.
    quiet: bool,
}

impl Reporters {
    /// The reporters `output` asks for; `many` when several answers run, `bar` when stderr
    /// is a terminal (and `-q` is not given); the bar and the text report's summary line
    /// coloured as `color` allows on their streams.
    pub fn new(output: &Output, many: bool, bar: bool, color: ColorChoice) -> Reporters {
        let bar = (bar && !output.quiet).then(|| progress::bar(color.on(&io::stderr())));
        let paint = color.on(&io::stdout());
        Reporters::writing_to(output, many, bar.clone(), Out::with(bar), paint)
    }

    /// The reporters of `output`, writing to `out`; the text's summary line coloured when
    /// `paint`.
    fn writing_to(
        output: &Output,
        many: bool,
        bar: Option<indicatif::ProgressBar>,
        out: Out,
        paint: bool,
    ) -> Reporters {
        let mut list: Vec<Box<dyn Reporter>> = Vec::new();
        if let Some(bar) = &bar {
            list.push(Box::new(progress::Progress::new(bar.clone())));
        }
        if let Some(dir) = &output.report_dir {
            list.push(Box::new(dir::ReportDir::new(dir.clone())));
        }
        list.push(match output.format {
            Format::Text => Box::new(text::Text::new(output, many, paint)),
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
            out,
            list,
            quiet: output.quiet,
        }
    }

    /// Where a line from another thread goes (the interrupt handler's): around the bar.
    pub fn notice(&self) -> impl Fn(&str) + Send + Sync + 'static {
        self.out.notice()
    }

    /// Hands `event` to every reporter in turn; the first error stops it. A note is
    /// printed here, whatever the format (but for `-q`).
    pub fn emit(&mut self, event: Event<'_>) -> anyhow::Result<()> {
        if let (Event::Note(text), false) = (&event, self.quiet) {
            self.out.note(&format!("{text}\n"));
        }
        for r in &mut self.list {
            r.on(&event, &mut self.out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use beast_engine::judge::report::CaseReport;
    use beast_engine::judge::termination::Termination;
    use beast_engine::judge::verdict::Verdict;

    use super::*;
    use crate::cli::check::event::Start;
    use crate::cli::check::plan::Post;

    fn output(format: Format) -> Output {
        Output {
            format,
            verbose: false,
            junit: None,
            report_dir: None,
            shard: None,
            post: None,
            quiet: false,
        }
    }

    fn reporters(output: &Output, many: bool) -> Reporters {
        Reporters::writing_to(output, many, None, Out::keeping(), false)
    }

    fn failed_case() -> CaseReport {
        CaseReport {
            name: "crash".to_string(),
            verdict: Verdict::RuntimeError,
            passed: false,
            time_ms: 1.0,
            puzzle: "3 3\n###\n#H#\n###\n\n".to_string(),
            expected: "0\n".to_string(),
            got: String::new(),
            detail: Some(Termination::Exited {
                code: 1,
                stderr: String::new(),
            }),
            consistent: None,
            seed: None,
            reproduce: None,
            peak_memory: None,
            robustness: false,
        }
    }

    fn start<'a>(lines: Vec<&'a str>) -> Start<'a> {
        Start {
            answers: vec!["a"; lines.len()],
            sandbox_lines: lines,
            shard: None,
            jobs: 1,
        }
    }

    #[test]
    fn a_json_case_record_is_one_typed_line_and_a_shards_carries_its_place() {
        let report = failed_case();
        let case = |shard: bool| {
            let mut r =
                Reporters::writing_to(&output(Format::Json), false, None, Out::keeping(), false);
            if shard {
                r.list = vec![Box::new(json::Json::new(true, false))];
            }
            r.emit(Event::CaseFinished {
                answer: None,
                ordinal: 7,
                report: &report,
            })
            .expect("written");
            let line = r.out.kept_text().0.to_string();
            serde_json::from_str::<serde_json::Value>(&line).expect("one JSON line")
        };
        let plain = case(false);
        assert_eq!(plain["type"], "case");
        assert_eq!(plain["detail"], "exit code 1");
        assert!(plain.get("index").is_none(), "{plain}");
        assert_eq!(case(true)["index"], 7);
    }

    #[test]
    fn notes_go_to_stderr_in_every_format_and_a_finished_job_prints_nothing() {
        for format in [Format::Text, Format::Json, Format::Markdown] {
            let mut r = reporters(&output(format), false);
            r.emit(Event::Note("note: skipped random-1-4: undecided"))
                .unwrap();
            r.emit(Event::JobDone { failed: 3 }).unwrap();
            assert_eq!(
                r.out.kept_text(),
                ("", "note: skipped random-1-4: undecided\n"),
                "{format:?}"
            );
        }
    }

    #[test]
    fn the_text_reports_sandbox_line_is_on_stdout_but_on_stderr_under_post() {
        let line = "sandbox: none (the command runs unconfined)";
        let mut r = reporters(&output(Format::Text), false);
        r.emit(Event::RunStarted(&start(vec![line]))).unwrap();
        assert_eq!(r.out.kept_text(), (format!("{line}\n").as_str(), ""));
        let post = Output {
            post: Some(Post {
                command: None,
                language: None,
                encoding: beast_engine::judge::post::Encoding::Utf8,
                count_all: false,
            }),
            ..output(Format::Text)
        };
        let mut r = reporters(&post, false);
        r.emit(Event::RunStarted(&start(vec![line]))).unwrap();
        assert_eq!(r.out.kept_text(), ("", format!("{line}\n").as_str()));
    }

    #[test]
    fn answers_in_different_sandboxes_get_a_line_each() {
        let mut r = reporters(&output(Format::Text), true);
        let lines = vec!["sandbox: jail: a", "sandbox: basic: b"];
        let start = Start {
            answers: vec!["one", "two"],
            ..start(lines)
        };
        r.emit(Event::RunStarted(&start)).unwrap();
        assert_eq!(
            r.out.kept_text().0,
            "sandbox (one): jail: a\nsandbox (two): basic: b\n"
        );
    }

    #[test]
    fn a_cut_run_says_so_on_stdout_in_text_and_on_stderr_otherwise() {
        let cut = || Event::Interrupted {
            signal: 2,
            ran: 5,
            of: 9,
        };
        let mut text = reporters(&output(Format::Text), false);
        text.emit(cut()).unwrap();
        assert!(
            text.out
                .kept_text()
                .0
                .starts_with("interrupted (signal 2): the report covers the 5 cases")
        );
        for format in [Format::Json, Format::Markdown] {
            let mut r = reporters(&output(format), false);
            r.emit(cut()).unwrap();
            let (out, err) = r.out.kept_text();
            assert_eq!(out, "", "{format:?}");
            assert!(err.contains("of 9"), "{format:?}: {err}");
        }
    }

    #[test]
    fn a_case_is_printed_in_text_only_under_verbose_with_its_answers_name() {
        let report = failed_case();
        let event = || Event::CaseFinished {
            answer: Some("golfer"),
            ordinal: 0,
            report: &report,
        };
        let mut quiet = reporters(&output(Format::Text), true);
        quiet.emit(event()).unwrap();
        assert_eq!(quiet.out.kept_text(), ("", ""));
        let verbose = Output {
            verbose: true,
            ..output(Format::Text)
        };
        let mut loud = reporters(&verbose, true);
        loud.emit(event()).unwrap();
        let (out, _) = loud.out.kept_text();
        assert!(out.starts_with("golfer: RTE crash"), "{out}");
        assert!(out.contains("exit code 1"), "{out}");
    }
}
