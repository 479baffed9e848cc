//! What a check tells its reporters, in order: the events of a run, in the manner of
//! nextest's `TestEvent`. A run of answers and a `--merge` of shards emit the same ones,
//! so every format is written by one reporter from them alone ([`super::report`]).
//!
//! The order: [`Event::RunStarted`]; then [`Event::CaseFinished`] for each case in the
//! case list's order (a job the engine could not decide or an answer that stopped gives
//! [`Event::JobDone`] only), with [`Event::Note`]s between; [`Event::Diagnosing`]; then,
//! answer by answer, [`Event::AnswerFinished`] or [`Event::CannotStart`];
//! [`Event::RunFinished`]; and last [`Event::Interrupted`] when a signal cut the run short.

use beast_engine::judge::leaderboard;
use beast_engine::judge::record::{self, SandboxRecord};
use beast_engine::judge::report::{CaseReport, DiagnosisReport, Source, Summary};

/// One answer's run, concluded: its cases' reports, its summary and its diagnosis.
pub struct Concluded {
    /// Its cases' reports, in the case list's order.
    pub reports: Vec<CaseReport>,
    /// Its summary.
    pub summary: Summary,
    /// Its diagnosis, with the groups of failures.
    pub diagnosis: DiagnosisReport,
}

/// One answer's judged run: what its reporters need of it once it is concluded.
pub struct Judged {
    /// The answer's name.
    pub name: String,
    /// Its cases' reports, its summary and its diagnosis; or why it could not start.
    pub outcome: Result<Concluded, String>,
    /// Its source, for the score.
    pub source: Option<Source>,
    /// What contained it, as the JSON summary has it (the report's line in `line`).
    pub sandbox: SandboxRecord,
}

impl Judged {
    /// Its leaderboard row.
    pub fn row(&self) -> leaderboard::Row {
        match &self.outcome {
            Ok(c) => leaderboard::Row::judged(&self.name, &c.summary, &c.diagnosis),
            Err(reason) => leaderboard::Row::cannot_start(&self.name, reason, self.source.as_ref()),
        }
    }

    /// True when every case passed, and every case was judged (an IE is never a pass).
    pub fn passed(&self) -> bool {
        self.outcome
            .as_ref()
            .is_ok_and(|c| c.summary.failed == 0 && c.summary.internal == 0)
    }

    /// The cases the judge could not set up (IE).
    pub fn not_judged(&self) -> usize {
        self.outcome.as_ref().map_or(0, |c| c.summary.internal)
    }
}

/// What is known when a run starts.
pub struct Start<'a> {
    /// The answers' names, in order.
    pub answers: Vec<&'a str>,
    /// Each answer's sandbox line, in the same order.
    pub sandbox_lines: Vec<&'a str>,
    /// A shard's first record (`--shard` with JSON): what `--merge` checks.
    pub shard: Option<&'a record::Header>,
    /// The number of jobs: every answer's cases.
    pub jobs: usize,
}

/// What the end of a run hands every reporter.
pub struct Finish<'a> {
    /// Every answer, in order.
    pub judged: &'a [Judged],
    /// The leaderboard's rows, ranked.
    pub rows: &'a [leaderboard::Row],
    /// The random cases' seed, if any (for `--post`).
    pub seed: Option<u64>,
    /// True once a signal has interrupted the check: a reporter that waits on a program
    /// (`--post` asks the interpreter its version) gives up then, and prints nothing more.
    pub interrupted: &'a (dyn Fn() -> bool + Sync),
    /// `--page`: every answer of the page, ranked (the leaderboard's place).
    pub page: Option<&'a [beast_engine::judge::page::board::Entry]>,
}

/// One thing that happened in a check.
pub enum Event<'a> {
    /// The run begins.
    RunStarted(&'a Start<'a>),
    /// A case finished, reported in the case list's order.
    CaseFinished {
        /// The answer's name when several answers run.
        answer: Option<&'a str>,
        /// The case's place in the whole case list (a shard's record carries it).
        ordinal: usize,
        /// The case's report.
        report: &'a CaseReport,
    },
    /// A job left the pool (ran, skipped or cut): this many cases have failed so far.
    JobDone {
        /// Failed cases so far.
        failed: usize,
    },
    /// A line for the user, not part of the report (stderr).
    Note(&'a str),
    /// The cases are over; the diagnosis and shrinking run.
    Diagnosing,
    /// An answer's run is concluded.
    AnswerFinished(&'a Judged),
    /// An answer could not start (with several answers: its row says so).
    CannotStart {
        /// The answer's name.
        name: &'a str,
        /// Why.
        reason: &'a str,
    },
    /// Every answer is concluded.
    RunFinished(&'a Finish<'a>),
    /// A signal cut the run short: the report covers the cases that finished.
    Interrupted {
        /// The signal.
        signal: i32,
        /// Cases that finished.
        ran: usize,
        /// Cases there were.
        of: usize,
    },
}
