//! The JSON lines of `beast check`, typed: one [`Record`] a line, its kind in its `type`
//! key. `--format json`, a shard's output, the `--answers` JSON and the `--report-dir`
//! files are written from these types, and [`merge`](crate::judge::merge) reads a shard
//! back into them.
//!
//! A line is the record serialized through a [`serde_json::Value`], so its keys come out
//! sorted, and through [`json_text`], so the characters a report never prints raw are
//! escaped. The keys are the ones the README documents, plus `type`.

use serde::{Deserialize, Serialize};

use crate::judge::diagnose::Status;
use crate::judge::leaderboard::Row;
use crate::judge::report::{
    CaseReport, DiagnosisReport, ExplainedBy, GroupReport, Source, Summary, json_text,
};
use crate::judge::verdict::Verdict;

/// One line of `beast check`'s JSON output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// The first line of a shard's output.
    Header(Header),
    /// One case's result.
    Case(CaseRecord),
    /// One answer's summary and diagnosis.
    Summary(SummaryRecord),
    /// An answer of `--answers` that could not start.
    CannotStart(CannotStart),
    /// The last line of a run of `--answers`: the ranking.
    Leaderboard(Leaderboard),
}

impl Record {
    /// The record as one line of JSON text, with its newline.
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        Ok(format!("{}\n", json_text(&serde_json::to_value(self)?)))
    }
}

/// The first line of a shard's output: what must agree across shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// `K/N`.
    pub shard: String,
    /// The `beast` version that ran it.
    pub version: String,
    /// The seed of the random cases, if any.
    pub seed: Option<u64>,
    /// How many cases the whole (unsharded) list has.
    pub cases: usize,
    /// A fingerprint of the whole case list: its sources, names and contents.
    pub fingerprint: String,
    /// The answers run, in order.
    pub answers: Vec<AnswerHeader>,
    /// The sandbox line of the report.
    pub sandbox: String,
    /// The sandbox object of the JSON summary.
    pub sandbox_summary: SandboxRecord,
    /// True for a run of `--answers`, which ends with the leaderboard.
    #[serde(default)]
    pub leaderboard: bool,
    /// For a run with random cases: the generator version that made them, in words
    /// (`generator 2: sizes from 3x3 ...`); the same seed gives other cases under another.
    #[serde(default)]
    pub generator: Option<String>,
}

/// One answer named in a header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerHeader {
    /// Its name (the command, for a run of one answer).
    pub name: String,
    /// Its golf score, if known.
    pub source: Option<Source>,
}

/// How an answer was contained, as the JSON summary's `sandbox` object says it. The
/// binary's sandbox fills it in; the engine only carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxRecord {
    /// `jail`, `basic` or `none`.
    pub mechanism: String,
    /// The namespaces in force, empty without them.
    pub namespaces: Vec<String>,
    /// The memory limit in MiB, or null.
    pub memory_mib: Option<u64>,
    /// How memory is limited: `cgroup`, `rlimit` (address space), or null.
    pub memory_limit: Option<String>,
    /// The most processes a case may have, or null.
    pub processes: Option<u64>,
    /// True when the environment is cleared to an allow-list.
    pub env_cleared: bool,
    /// The first user id answers run as when it is changed.
    pub run_as_uid: Option<u32>,
    /// Every protection in force, in words.
    pub protections: Vec<String>,
    /// Every protection missing, with the reason.
    pub missing: Vec<String>,
    /// The report's sandbox line.
    pub line: String,
}

/// One case's result: `name`, `verdict`, `passed`, `time_ms`, `expected`, `got`,
/// `detail`, `seed`; `peak_memory_mib` where the sandbox measured it; for a failure also
/// `puzzle`, and `gen` for a random one. A shard's record also has `index`, and `puzzle`
/// and `gen` for a passing case too; a record of one of several answers has `answer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRecord {
    /// The file stem, or `random-SEED-I`.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// True if the verdict counts as passed.
    pub passed: bool,
    /// The candidate's wall-clock time in milliseconds, to the microsecond.
    pub time_ms: f64,
    /// The expected output.
    pub expected: String,
    /// What the candidate printed (invalid UTF-8 shown as U+FFFD).
    pub got: String,
    /// For TLE, RTE, OLE and MLE: what happened.
    pub detail: Option<String>,
    /// The `beast gen` seed of a random case.
    pub seed: Option<u64>,
    /// The most memory the case held at once, in MiB to one decimal, where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_memory_mib: Option<f64>,
    /// The puzzle fed to the candidate: a failing case's, or every case's in a shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
    /// The `beast gen` command of a random case: a failing one's, or every one's in a
    /// shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#gen: Option<String>,
    /// The answer it is of, when several answers run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// In a shard: the case's position in the whole (unsharded) list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// True for a case of the robustness set (input the challenge does not promise): it
    /// never counts as a failure, and `--merge` keeps it apart. Left out when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub robustness: bool,
}

/// For serde: leaves a false flag out of a record.
fn is_false(flag: &bool) -> bool {
    !flag
}

impl CaseRecord {
    /// The record of `r`, as `--format json` prints it.
    pub fn of(r: &CaseReport) -> CaseRecord {
        CaseRecord {
            name: r.name.clone(),
            verdict: r.verdict,
            passed: r.passed,
            time_ms: round_ms(r.time_ms),
            expected: r.expected.clone(),
            got: r.got.clone(),
            detail: r.detail.as_ref().map(ToString::to_string),
            seed: r.seed,
            peak_memory_mib: r.peak_memory.map(mib_number),
            puzzle: (!r.passed).then(|| r.puzzle.clone()),
            r#gen: r.reproduce.clone().filter(|_| !r.passed),
            answer: None,
            index: None,
            robustness: r.robustness,
        }
    }

    /// The record of `r` in a shard, at `index` of the whole list: with its puzzle and its
    /// `beast gen` command whether it passed or not, as a merge needs them.
    pub fn in_shard(r: &CaseReport, index: usize) -> CaseRecord {
        CaseRecord {
            puzzle: Some(r.puzzle.clone()),
            r#gen: r.reproduce.clone(),
            index: Some(index),
            ..CaseRecord::of(r)
        }
    }

    /// The same record, of the answer `name` when there is one.
    pub fn of_answer(self, name: Option<&str>) -> CaseRecord {
        CaseRecord {
            answer: name.map(str::to_string),
            ..self
        }
    }
}

/// One answer's summary: its counts, golf score, times, sandbox and diagnosis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRecord {
    /// Always true: the key that marked a summary before records had a `type`.
    pub summary: bool,
    /// Cases that passed.
    pub passed: usize,
    /// Of those, the ones where only whitespace differs (PE).
    pub pe: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases the judge could not set up (IE), neither passed nor failed; absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ie: usize,
    /// Of the failed cases, the ones that gave other outputs when run again; absent when
    /// none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flaky: usize,
    /// Cases run.
    pub total: usize,
    /// The diagnosis.
    pub diagnosis: DiagnosisRecord,
    /// The golf score in bytes, when the source is known.
    pub bytes: Option<usize>,
    /// The golf score in characters, when the source is known.
    pub chars: Option<usize>,
    /// The answer's times.
    pub time_ms: Times,
    /// The signal that cut the run short, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<i32>,
    /// How the answer was contained.
    pub sandbox: SandboxRecord,
    /// The answer's name, when several answers run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

impl SummaryRecord {
    /// The summary of `s` and `d`, contained by `sandbox`.
    pub fn of(s: &Summary, d: &DiagnosisReport, sandbox: SandboxRecord) -> SummaryRecord {
        SummaryRecord {
            summary: true,
            passed: s.passed,
            pe: s.presentation,
            failed: s.failed,
            ie: s.internal,
            flaky: s.flaky,
            total: s.passed + s.failed + s.internal,
            diagnosis: DiagnosisRecord::of(d),
            bytes: s.source.as_ref().map(|x| x.bytes),
            chars: s.source.as_ref().map(|x| x.chars),
            time_ms: Times {
                total: round_ms(s.time_total_ms),
                max: round_ms(s.slowest.as_ref().map_or(0.0, |x| x.1)),
                wall: s.wall_ms.map(round_ms),
            },
            interrupted: s.interrupted,
            sandbox,
            answer: None,
        }
    }

    /// The same summary, of the answer `name` when there is one.
    pub fn of_answer(self, name: Option<&str>) -> SummaryRecord {
        SummaryRecord {
            answer: name.map(str::to_string),
            ..self
        }
    }
}

/// For `skip_serializing_if`: a count of none is left out.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// An answer's times, in milliseconds to the microsecond.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Times {
    /// Its run time summed over its cases.
    pub total: f64,
    /// Its slowest case's.
    pub max: f64,
    /// The whole run's wall-clock time, when measured.
    pub wall: Option<f64>,
}

/// The diagnosis of a summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagnosisRecord {
    /// `correct`, `explained`, `consistent`, `partial` or `unexplained`.
    pub status: Status,
    /// The one-sentence diagnosis.
    pub sentence: String,
    /// The hypotheses named.
    pub explained_by: Vec<ExplainedBy>,
    /// The failures, grouped.
    pub groups: Vec<GroupRecord>,
    /// The robustness section, when robustness cases ran (`--robustness`); never failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robustness: Option<RobustnessRecord>,
}

impl DiagnosisRecord {
    /// The record of `d`.
    pub fn of(d: &DiagnosisReport) -> DiagnosisRecord {
        DiagnosisRecord {
            status: d.status,
            sentence: d.sentence.clone(),
            explained_by: d.explained_by.clone(),
            groups: d.groups.iter().map(GroupRecord::of).collect(),
            robustness: d.robustness.as_ref().map(|r| RobustnessRecord {
                sentence: r.sentence.clone(),
                ran: r.ran,
                failed: r.failed,
                failing: r.failing.clone(),
            }),
        }
    }
}

/// The robustness section of a summary: input the challenge does not promise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RobustnessRecord {
    /// The section's sentence, `robustness: ...`.
    pub sentence: String,
    /// Robustness cases run.
    pub ran: usize,
    /// Of those, the ones that failed.
    pub failed: usize,
    /// Their names.
    pub failing: Vec<String>,
}

/// One group of failures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupRecord {
    /// The cause in words.
    pub cause: String,
    /// The verdict of its cases.
    pub verdict: Verdict,
    /// The case names, in order.
    pub cases: Vec<String>,
    /// The case it shows.
    pub smallest: SmallestRecord,
    /// The hypotheses the run cannot tell from the group's, in words.
    pub also: Vec<String>,
    /// For a group a hypothesis heads: its wrong answers no simpler hypothesis reproduces.
    pub evidence: Option<usize>,
    /// The rule event that locates a mistake of the answer's own.
    pub event: Option<String>,
    /// Where the case shown first goes through that event, such as `turn 1 (move D)`.
    pub located: Option<String>,
    /// For a group a reading heads: its compare page.
    pub compare: Option<CompareRecord>,
    /// What the designed cases of its label showed, when an experiment tried it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<ConfirmationRecord>,
}

/// The experiment of a group's label, as the JSON gives it: its strength (the same the
/// words say) and every designed case, so anyone can run them again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfirmationRecord {
    /// `confirmed`, `weak` or `refuted`.
    pub strength: String,
    /// The designed cases, in order.
    pub designed: Vec<DesignedRecord>,
}

/// One designed case as it ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignedRecord {
    /// The part of the label it tests.
    pub part: String,
    /// The puzzle, in the input format.
    pub puzzle: String,
    /// What the label predicts: an output, or `anything but` one.
    pub predicted: String,
    /// What the answer printed; `null` where it printed nothing.
    pub got: Option<String>,
    /// `for`, `against` or `nothing` (an IE, or a pair the answer printed the same on).
    pub counted: String,
}

impl ConfirmationRecord {
    /// The record of `c`.
    pub fn of(c: &crate::judge::confirmation::Confirmation) -> ConfirmationRecord {
        ConfirmationRecord {
            strength: c.strength().name().to_string(),
            designed: c
                .tried
                .iter()
                .map(|t| DesignedRecord {
                    part: t.part.clone(),
                    puzzle: t.puzzle.clone(),
                    predicted: t.predicted.clone(),
                    got: t.got.clone(),
                    counted: t.counted.name().to_string(),
                })
                .collect(),
        }
    }
}

impl GroupRecord {
    /// The record of `g`.
    pub fn of(g: &GroupReport) -> GroupRecord {
        GroupRecord {
            cause: g.cause.clone(),
            verdict: g.verdict,
            cases: g.cases.clone(),
            smallest: SmallestRecord {
                name: g.shown.name.clone(),
                puzzle: g.shown.puzzle.clone(),
                expected: g.shown.expected.clone(),
                got: g.shown.got.clone(),
                shrunk: g.shown.shrunk.is_some(),
                stopped_early: g.shown.stopped_early.is_some(),
            },
            also: g.also.clone(),
            evidence: g.evidence,
            event: g.event.clone(),
            located: g.shown.located.clone(),
            compare: g.compare.as_ref().map(|c| CompareRecord {
                flags: c.flags.clone(),
                puzzle: c.written.as_ref().map(|w| w.0.clone()),
                page: c.written.as_ref().map(|w| w.1.clone()),
            }),
            confirmation: g.confirmation.as_ref().map(ConfirmationRecord::of),
        }
    }
}

/// The case a group shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmallestRecord {
    /// The case it comes from.
    pub name: String,
    /// The puzzle shown.
    pub puzzle: String,
    /// The expected output on it.
    pub expected: String,
    /// What the answer printed on it.
    pub got: String,
    /// True if it was shrunk.
    pub shrunk: bool,
    /// True if shrinking ran out of its budget.
    pub stopped_early: bool,
}

/// A group's compare page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareRecord {
    /// The reading's flags, as `beast --html --compare` takes them.
    pub flags: String,
    /// With `--html-dir`: the puzzle file written.
    pub puzzle: Option<String>,
    /// With `--html-dir`: the page written.
    pub page: Option<String>,
}

/// The summary of an answer of `--answers` that could not start: no case ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CannotStart {
    /// Always true, as on every summary.
    pub summary: bool,
    /// The answer.
    pub answer: String,
    /// Always 0.
    pub passed: usize,
    /// Always 0.
    pub failed: usize,
    /// Always 0.
    pub total: usize,
    /// Why it could not start.
    pub cannot_start: String,
}

impl CannotStart {
    /// The summary of `answer`, which could not start for `reason`.
    pub fn new(answer: &str, reason: &str) -> CannotStart {
        CannotStart {
            summary: true,
            answer: answer.to_string(),
            passed: 0,
            failed: 0,
            total: 0,
            cannot_start: reason.to_string(),
        }
    }
}

/// The ranking of a run of `--answers`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The rows, best first.
    pub leaderboard: Vec<RankedRow>,
}

impl Leaderboard {
    /// The record of `rows`, ranked already.
    pub fn of(rows: &[Row]) -> Leaderboard {
        Leaderboard {
            leaderboard: rows
                .iter()
                .enumerate()
                .map(|(i, r)| RankedRow {
                    rank: i + 1,
                    name: r.name.clone(),
                    correct: r.correct,
                    ie: r.internal,
                    passed: r.passed,
                    pe: r.presentation,
                    total: r.total,
                    diagnosis: r.diagnosis.clone(),
                    bytes: r.bytes,
                    chars: r.chars,
                    slowest: r.slowest.as_ref().map(|(name, ms)| Slowest {
                        name: name.clone(),
                        ms: round_ms(*ms),
                    }),
                    time_ms: round_ms(r.time_ms),
                })
                .collect(),
        }
    }
}

/// One row of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankedRow {
    /// Its rank, from 1.
    pub rank: usize,
    /// The answer's name.
    pub name: String,
    /// True if it passed every case, and every case was judged.
    pub correct: bool,
    /// Cases the judge could not set up (IE): the answer is not judged; absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ie: usize,
    /// Cases passed.
    pub passed: usize,
    /// Of those, the ones where only whitespace differs (PE).
    pub pe: usize,
    /// Cases run.
    pub total: usize,
    /// Its diagnosis in a few words.
    pub diagnosis: String,
    /// The golf score in bytes, when the source is known.
    pub bytes: Option<usize>,
    /// The golf score in characters, when the source is known.
    pub chars: Option<usize>,
    /// Its slowest case.
    pub slowest: Option<Slowest>,
    /// Its total run time in milliseconds.
    pub time_ms: f64,
}

/// An answer's slowest case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slowest {
    /// The case.
    pub name: String,
    /// Its time in milliseconds.
    pub ms: f64,
}

/// Milliseconds rounded to the microsecond, as JSON carries them.
fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// Bytes in MiB rounded to one decimal, as JSON carries them.
fn mib_number(bytes: u64) -> f64 {
    (bytes as f64 / f64::from(1u32 << 20) * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(name: &str, verdict: Verdict) -> CaseReport {
        CaseReport {
            name: name.to_string(),
            verdict,
            passed: verdict.passed(false),
            time_ms: 1.25,
            puzzle: "5 3\n#####\n#O~H#\n#####\nR\n".to_string(),
            expected: "aHHHH!\n0\n".to_string(),
            got: "0\n".to_string(),
            detail: None,
            consistent: None,
            seed: Some(7),
            reproduce: Some("beast gen --seed 7".to_string()),
            peak_memory: None,
            robustness: false,
        }
    }

    fn value(record: &Record) -> serde_json::Value {
        let line = record.to_line().expect("serializes");
        serde_json::from_str(&line).expect("one JSON line")
    }

    #[test]
    fn a_case_has_the_documented_keys_and_its_type() {
        let v = value(&Record::Case(CaseRecord::of(&report(
            "x",
            Verdict::TimeLimit,
        ))));
        for key in [
            "name", "verdict", "time_ms", "expected", "got", "puzzle", "gen",
        ] {
            assert!(v.get(key).is_some(), "{key} in {v}");
        }
        assert_eq!(v["type"], "case");
        assert_eq!(v["verdict"], "TLE");
        assert!(v["detail"].is_null() && v.get("index").is_none(), "{v}");
        let passed = value(&Record::Case(CaseRecord::of(&report(
            "y",
            Verdict::Accepted,
        ))));
        assert!(passed.get("puzzle").is_none() && passed.get("gen").is_none());
        let shard = CaseRecord::in_shard(&report("y", Verdict::Accepted), 4);
        let v = value(&Record::Case(shard.of_answer(Some("a"))));
        assert_eq!((&v["index"], &v["answer"]), (&4.into(), &"a".into()));
        assert!(v["puzzle"].is_string() && v["gen"].is_string(), "{v}");
    }

    #[test]
    fn a_summary_has_the_documented_keys() {
        let d = DiagnosisReport {
            status: Status::Unexplained,
            sentence: "it looks like a mistake".to_string(),
            explained_by: Vec::new(),
            groups: Vec::new(),
            robustness: None,
        };
        let s = SummaryRecord::of(&Summary::default(), &d, SandboxRecord::default());
        let v = value(&Record::Summary(s));
        assert_eq!(
            (&v["type"], &v["summary"]),
            (&"summary".into(), &true.into())
        );
        assert_eq!(v["diagnosis"]["status"], "unexplained");
        assert!(
            v["time_ms"]["total"].is_number() && v["bytes"].is_null(),
            "{v}"
        );
        assert!(
            v.get("interrupted").is_none() && v.get("answer").is_none(),
            "{v}"
        );
    }

    #[test]
    fn every_record_reads_back_as_itself() {
        let records = [
            Record::Case(CaseRecord::in_shard(&report("x", Verdict::WrongAnswer), 2)),
            Record::CannotStart(CannotStart::new("a", "no program ./a.out")),
            Record::Leaderboard(Leaderboard {
                leaderboard: Vec::new(),
            }),
        ];
        for r in records {
            let line = r.to_line().expect("serializes");
            let back: Record = serde_json::from_str(&line).expect("reads back");
            assert_eq!(back, r, "{line}");
        }
    }
}
