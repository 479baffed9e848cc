//! The results of a check run, as data: each case's report, the groups of failures with the
//! case each shows, the diagnosis and the summary. They are rendered in the child modules,
//! one a format: `text` (the text report), `junit` (JUnit XML); the JSON lines are the
//! typed records of [`record`](crate::judge::record), made from these types. [`escape`](crate::judge::escape)
//! (re-exported here) makes a stranger's text safe for each medium and its whitespace
//! visible for all of them, and `sentence` says the diagnosis in one sentence.

mod junit;
mod sentence;
mod text;

use serde::{Deserialize, Serialize};

use crate::beast::{Puzzle, Rules, variant};
use crate::judge::cases::Case;
use crate::judge::design;
use crate::judge::diagnose::{Cause, Diagnosis, Group, Status};
use crate::judge::post::LeftOut;
use crate::judge::robustness::RobustnessReport;
use crate::judge::termination::Termination;
use crate::judge::verdict::Verdict;

pub use self::junit::{Suite, junit, junit_suites};
pub use self::text::{ROBUSTNESS_NAMED, group_text, internal_text, robustness_text, text};
pub use crate::judge::escape::{
    html_pre, html_text, json_pretty, json_text, markdown_code, markdown_text, needs_html_code,
    pasteable, script_json, terminal, visible, whitespace_shown, xml_escape,
};

/// The result of one case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseReport {
    /// The file stem, or `random-SEED-I`.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// True if the verdict counts as passed.
    pub passed: bool,
    /// Wall-clock time of the candidate's run, in milliseconds.
    pub time_ms: f64,
    /// The puzzle fed to the candidate, in the input format.
    pub puzzle: String,
    /// The expected output.
    pub expected: String,
    /// What the candidate printed (invalid UTF-8 shown as U+FFFD).
    pub got: String,
    /// For TLE, RTE, OLE and MLE: how the run ended, such as `exit code 3`.
    pub detail: Option<Termination>,
    /// For a WA under `-v`: the readings this one case is consistent with.
    pub consistent: Option<String>,
    /// For a random case: the `beast gen` seed, for others `None`.
    pub seed: Option<u64>,
    /// For a random case: the `beast gen` command that prints the puzzle.
    pub reproduce: Option<String>,
    /// The most memory the case held at once, in bytes, where the sandbox measured it.
    pub peak_memory: Option<u64>,
    /// True for a case of the robustness set (input the challenge does not promise): it is
    /// reported apart and never counts as a failure.
    pub robustness: bool,
}

impl CaseReport {
    /// True if the case counts as a failure: it did not pass, it is not of the
    /// robustness set (which never counts), and the judge could set it up (an IE counts
    /// against nobody).
    pub fn failed(&self) -> bool {
        !self.passed && !self.robustness && self.verdict.judged()
    }
}

/// A case shrunk to a smaller one that still shows its group's mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shrink {
    /// The original case's size.
    pub from: Size,
    /// The shrunk case's size.
    pub to: Size,
}

/// How large a puzzle is: its map's columns and rows, and its number of moves. Serialised
/// as the array `[cols, rows, moves]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "(usize, usize, usize)")]
pub struct Size {
    /// The map's columns.
    pub cols: usize,
    /// The map's rows.
    pub rows: usize,
    /// The number of moves.
    pub moves: usize,
}

impl Size {
    /// The size of `puzzle`.
    pub fn of(puzzle: &Puzzle) -> Size {
        Size {
            cols: puzzle.map().cols(),
            rows: puzzle.map().rows(),
            moves: puzzle.moves().len(),
        }
    }

    /// A key that orders sizes smallest first: by the map's area, then by the moves.
    pub fn order(self) -> usize {
        self.cols * self.rows * 1000 + self.moves
    }
}

impl From<Size> for (usize, usize, usize) {
    fn from(s: Size) -> Self {
        (s.cols, s.rows, s.moves)
    }
}

/// The case a group shows: its smallest failure, shrunk when asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shown {
    /// The name of the case it comes from.
    pub name: String,
    /// The puzzle shown, in the input format (shrunk when `shrunk` is set).
    pub puzzle: String,
    /// The expected output on it.
    pub expected: String,
    /// What the answer printed on it.
    pub got: String,
    /// How the run ended, for TLE, RTE, OLE and MLE.
    pub detail: Option<Termination>,
    /// How it was shrunk, if it was.
    pub shrunk: Option<Shrink>,
    /// Set when shrinking ran out of its budget: the smaller puzzles it could look at.
    pub stopped_early: Option<usize>,
    /// For a random case, the `beast gen` command of the original puzzle.
    pub reproduce: Option<String>,
    /// For a group located by a rule event: where the case shown first goes through it,
    /// such as `turn 5 (move R)`.
    pub located: Option<String>,
    /// Why it is larger than 8x8 with 10 moves, when it is.
    pub unshrunk: Option<String>,
}

/// One group of failures with a common cause.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupReport {
    /// The verdict of its cases.
    pub verdict: Verdict,
    /// The cause in words: a reading with its flags, or the verdict and outputs.
    pub cause: String,
    /// The case names, in order.
    pub cases: Vec<String>,
    /// The case shown.
    pub shown: Shown,
    /// For a group a reading explains: the page that shows its smallest case under both.
    pub compare: Option<ComparePage>,
    /// Other hypotheses the run cannot tell apart from the group's, in words.
    pub also: Vec<String>,
    /// For a group a hypothesis heads: how many of its wrong answers no simpler hypothesis
    /// reproduces.
    pub evidence: Option<usize>,
    /// The name of the rule event the group is located by, if it is.
    pub event: Option<String>,
    /// What the designed cases of its label showed, when an experiment tried it.
    pub confirmation: Option<crate::judge::confirmation::Confirmation>,
}

impl GroupReport {
    /// The report of `group`, a group of the failures of `ran`, showing `shown`: its cause
    /// in words, its cases' names and, for a hypothesis the experiments did not refute,
    /// the compare page and the evidence.
    pub fn of(group: &Group, shown: Shown, ran: &[(Case, CaseReport)]) -> GroupReport {
        // True unless an experiment refuted the group's label.
        let standing = group.confirmation.as_ref().is_none_or(|c| c.stands());
        let head = match &group.cause {
            Cause::Hypothesis { head, .. } if standing => Some(head),
            _ => None,
        };
        GroupReport {
            verdict: ran[group.smallest].1.verdict,
            compare: head
                .and_then(|h| h.hypothesis.rules())
                .map(|rules| ComparePage {
                    flags: variant::flags(rules),
                    rules,
                    written: None,
                }),
            also: match &group.cause {
                Cause::Hypothesis { also, .. } => also.iter().map(|h| h.words()).collect(),
                _ => Vec::new(),
            },
            evidence: head.map(|h| h.evidence),
            // A rule event the experiment did not bear out is named in no field.
            event: group
                .cause
                .suspect()
                .filter(|_| standing)
                .map(|s| s.clue.name().to_string()),
            cause: design::describe_group(group),
            confirmation: group.confirmation.clone(),
            cases: group.cases.iter().map(|&i| ran[i].1.name.clone()).collect(),
            shown,
        }
    }
}

/// The `beast --html --compare` page of a group's smallest case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComparePage {
    /// The reading's `beast` flags, as `--compare` takes them (the page's label).
    pub flags: String,
    /// The reading itself, for the page.
    pub rules: Rules,
    /// With `--html-dir`: the files written, `(puzzle, page)`.
    pub written: Option<(String, String)>,
}

/// One hypothesis named by the diagnosis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplainedBy {
    /// The exact `beast` flags that select its reading (empty for ours or a constant).
    pub flags: String,
    /// What it does, in words.
    pub words: String,
    /// How many wrong answers it reproduces.
    pub reproduces: usize,
    /// Of how many.
    pub of: usize,
    /// How many passing cases it would break.
    pub breaks: usize,
    /// How many of the wrong answers it reproduces no simpler hypothesis does.
    pub evidence: usize,
}

/// The diagnosis of a run, ready to print.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagnosisReport {
    /// `correct`, `explained`, `consistent`, `partial` or `unexplained`.
    pub status: Status,
    /// The one-sentence diagnosis, without the `diagnosis: ` prefix.
    pub sentence: String,
    /// The readings named.
    pub explained_by: Vec<ExplainedBy>,
    /// The failures, grouped.
    pub groups: Vec<GroupReport>,
    /// The robustness section, when robustness cases ran (they are in no group).
    pub robustness: Option<RobustnessReport>,
}

impl DiagnosisReport {
    /// The report of `d`, with the groups already made.
    pub fn new(d: &Diagnosis, groups: Vec<GroupReport>) -> DiagnosisReport {
        let explained_by = d
            .readings
            .iter()
            .map(|e| ExplainedBy {
                flags: e.hypothesis.flags(),
                words: e.hypothesis.plain_words(),
                reproduces: e.reproduces,
                of: e.of,
                breaks: e.breaks,
                evidence: e.evidence,
            })
            .collect();
        DiagnosisReport {
            status: d.status,
            sentence: sentence::sentence(d),
            explained_by,
            groups,
            robustness: None,
        }
    }

    /// The group a failing case belongs to.
    pub fn group_of(&self, name: &str) -> Option<&GroupReport> {
        self.groups
            .iter()
            .find(|g| g.cases.iter().any(|c| c == name))
    }
}

/// Passed and failed counts, the time taken and the golf score.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Of those, the ones where only whitespace differs (PE).
    pub presentation: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Of those, the ones that gave other outputs when run again (the diagnosis's flaky
    /// group): not a plain failure.
    pub flaky: usize,
    /// Cases the judge could not set up (IE): neither passed nor failed.
    pub internal: usize,
    /// The candidate's total run time, in milliseconds.
    pub time_total_ms: f64,
    /// The slowest case and its time, in milliseconds.
    pub slowest: Option<(String, f64)>,
    /// The case that held the most memory, and how much, in bytes.
    pub largest: Option<(String, u64)>,
    /// The answer's length in bytes and characters, and the file measured.
    pub source: Option<Source>,
    /// The wall-clock time of the whole run, in milliseconds, when the caller measured it.
    pub wall_ms: Option<f64>,
    /// The signal that cut the run short, when one did: the report covers the cases that
    /// finished before it.
    pub interrupted: Option<i32>,
}

/// The golf score: the length of the answer's source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The file measured.
    pub file: String,
    /// Its length in bytes.
    pub bytes: usize,
    /// Its length in characters (UTF-8; a byte that is not UTF-8 counts as one).
    pub chars: usize,
    /// What the golf count left out (the `#!` line, the final newline).
    #[serde(default)]
    pub left_out: LeftOut,
}

impl Source {
    /// Measures `bytes`, the contents of `file`, as golfers count
    /// ([`crate::judge::post::count`]); with `all`, every byte.
    pub fn measure(file: String, bytes: &[u8], all: bool) -> Source {
        let count = crate::judge::post::count(bytes, all);
        Source {
            file,
            bytes: count.bytes,
            chars: count.chars,
            left_out: count.left_out,
        }
    }
}

impl Summary {
    /// Counts `reports`.
    pub fn of(reports: &[CaseReport]) -> Summary {
        let passed = reports.iter().filter(|r| r.passed).count();
        let internal = reports.iter().filter(|r| !r.verdict.judged()).count();
        let slowest = reports
            .iter()
            .max_by(|a, b| a.time_ms.total_cmp(&b.time_ms))
            .map(|r| (r.name.clone(), r.time_ms));
        let largest = reports
            .iter()
            .filter_map(|r| Some((r.name.clone(), r.peak_memory?)))
            .max_by_key(|(_, bytes)| *bytes);
        Summary {
            passed,
            presentation: reports
                .iter()
                .filter(|r| r.passed && r.verdict == Verdict::Presentation)
                .count(),
            failed: reports.len() - passed - internal,
            flaky: 0,
            internal,
            time_total_ms: reports.iter().map(|r| r.time_ms).sum(),
            slowest,
            largest,
            source: None,
            wall_ms: None,
            interrupted: None,
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(super) fn report(name: &str, verdict: Verdict) -> CaseReport {
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
            seed: None,
            reproduce: None,
            peak_memory: None,
            robustness: false,
        }
    }

    #[test]
    fn a_case_the_judge_could_not_set_up_counts_against_nobody() {
        let mut ie = report("jailless", Verdict::InternalError);
        ie.detail = Some(Termination::SetupFailed {
            what: "bind a path: ENOENT".to_string(),
        });
        let reports = [
            report("a", Verdict::Accepted),
            ie,
            report("c", Verdict::WrongAnswer),
        ];
        let sum = Summary::of(&reports);
        assert_eq!((sum.passed, sum.failed, sum.internal), (1, 1, 1));
        assert_eq!(sum.line(), "1 passed, 1 failed, 1 not judged (IE)");
        assert_eq!(
            internal_text(&reports),
            "IE x1: internal error while setting up the jail: bind a path: ENOENT\n  cases: \
             jailless\n  the answer is not to blame: these cases were not judged (tried \
             twice)\n\n"
        );
        assert_eq!(internal_text(&reports[..1]), "");
        let xml = junit("s", &reports, &diagnosis(), "sandbox: none");
        assert!(xml.contains(r#"failures="1" errors="1""#), "{xml}");
        assert!(
            xml.contains(r#"<error type="IE" message="internal error while setting up"#),
            "{xml}"
        );
        assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    }

    #[test]
    fn a_shrink_is_serialised_as_its_sizes_arrays() {
        let size = |cols, rows, moves| Size { cols, rows, moves };
        let shrink = Shrink {
            from: size(16, 10, 30),
            to: size(5, 3, 1),
        };
        let json = serde_json::to_string(&shrink).expect("serialisable");
        assert_eq!(json, r#"{"from":[16,10,30],"to":[5,3,1]}"#);
        assert!(size(4, 4, 99).order() < size(5, 4, 0).order());
        assert!(size(5, 4, 1).order() < size(5, 4, 2).order());
    }

    pub(super) fn diagnosis() -> DiagnosisReport {
        DiagnosisReport {
            status: Status::Unexplained,
            sentence: "it looks like a mistake".to_string(),
            explained_by: Vec::new(),
            groups: Vec::new(),
            robustness: None,
        }
    }
}
