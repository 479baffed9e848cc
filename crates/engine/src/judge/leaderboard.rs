//! The leaderboard of a whole challenge (`beast check --answers`): one row per answer with
//! its passed count, diagnosis, golf score and time, ranked correct first and then by
//! bytes, every answer with a case the judge could not set up (IE, not judged) after every
//! judged one, in text and Markdown (its JSON line is [`record::Leaderboard`](crate::judge::record::Leaderboard)).

use std::fmt::Write as _;

use serde::Serialize;

use crate::judge::diagnose::Status;
use crate::judge::report::{DiagnosisReport, Source, Summary, markdown_text, visible};
use crate::judge::verdict::Verdict;

/// One answer's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The answer's name, from the answers file.
    pub name: String,
    /// True if it passed every case, and every case was judged.
    pub correct: bool,
    /// Cases the judge could not set up (IE): an answer with one is not judged, and
    /// ranks after every judged answer.
    pub internal: usize,
    /// Cases passed.
    pub passed: usize,
    /// Of those, the ones where only whitespace differs (PE).
    pub presentation: usize,
    /// Cases run.
    pub total: usize,
    /// `correct`, the reading that explains the failures, or why it could not run.
    pub diagnosis: String,
    /// The golf score in bytes, when the source is known.
    pub bytes: Option<usize>,
    /// The golf score in characters, when the source is known.
    pub chars: Option<usize>,
    /// The slowest case and its time in milliseconds.
    pub slowest: Option<(String, f64)>,
    /// The answer's total run time in milliseconds.
    pub time_ms: f64,
}

impl Row {
    /// The row of an answer that ran: its summary and its diagnosis. An IE never counts
    /// for the answer: with one, it is not correct, its diagnosis starts `not judged`
    /// (and says `correct` of nothing), and it ranks after every judged answer.
    pub fn judged(name: &str, summary: &Summary, d: &DiagnosisReport) -> Row {
        Row {
            name: name.to_string(),
            correct: summary.failed == 0 && summary.internal == 0,
            internal: summary.internal,
            passed: summary.passed,
            presentation: summary.presentation,
            total: summary.passed + summary.failed,
            diagnosis: match (summary.internal, d.status) {
                (0, _) => short_diagnosis(d),
                (n, Status::Correct) => format!("not judged: {n} IE"),
                (n, _) => format!("not judged: {n} IE; {}", short_diagnosis(d)),
            },
            bytes: summary.source.as_ref().map(|s| s.bytes),
            chars: summary.source.as_ref().map(|s| s.chars),
            slowest: summary.slowest.clone(),
            time_ms: summary.time_total_ms,
        }
    }

    /// The row of an answer that could not start, with the reason.
    pub fn cannot_start(name: &str, reason: &str, source: Option<&Source>) -> Row {
        Row {
            name: name.to_string(),
            correct: false,
            internal: 0,
            passed: 0,
            presentation: 0,
            total: 0,
            diagnosis: format!("cannot start: {reason}"),
            bytes: source.map(|s| s.bytes),
            chars: source.map(|s| s.chars),
            slowest: None,
            time_ms: 0.0,
        }
    }
}

/// The diagnosis of a run in a few words, for its row: `correct`, the explaining reading
/// as `beast` flags and words, the closest reading of a partial one, and the count of
/// each verdict that is not a wrong answer (`30 RTE`).
pub fn short_diagnosis(d: &DiagnosisReport) -> String {
    let failed_by = |pick: fn(Verdict) -> bool| {
        let mut counts: Vec<(Verdict, usize)> = Vec::new();
        for g in d.groups.iter().filter(|g| pick(g.verdict)) {
            match counts.iter_mut().find(|(v, _)| *v == g.verdict) {
                Some((_, n)) => *n += g.cases.len(),
                None => counts.push((g.verdict, g.cases.len())),
            }
        }
        counts
            .iter()
            .map(|(v, n)| format!("{n} {}", v.code()))
            .collect::<Vec<_>>()
    };
    let crashes = failed_by(|v| !matches!(v, Verdict::WrongAnswer | Verdict::Presentation));
    let wrong = failed_by(|v| matches!(v, Verdict::WrongAnswer | Verdict::Presentation));
    let first = d.explained_by.first();
    let base = match (d.status, first) {
        (Status::Correct, _) => return "correct".to_string(),
        (Status::Explained, Some(e)) if !e.flags.is_empty() && !e.words.contains(", and it ") => {
            format!("beast {}: {}", e.flags, e.words)
        }
        (Status::Explained, Some(e)) => e.words.clone(),
        (Status::Consistent, Some(e)) => format!(
            "consistent with {} (weak evidence: {})",
            match e.flags.is_empty() {
                true => e.words.clone(),
                false => format!("beast {}", e.flags),
            },
            crate::words::count(e.evidence as u64, "wrong answer")
        ),
        (Status::Partial, Some(e)) => format!(
            "partly {} ({} of {} wrong answers)",
            match e.flags.is_empty() {
                true => e.words.clone(),
                false => format!("beast {}", e.flags),
            },
            e.reproduces,
            e.of
        ),
        _ if wrong.is_empty() => String::new(),
        _ => format!("unexplained {}", wrong.join(", ")),
    };
    let mut parts: Vec<String> = Vec::new();
    if !base.is_empty() {
        parts.push(base);
    }
    parts.extend(crashes);
    if parts.is_empty() {
        // Failures the groups do not name (none shown): say the status.
        return d.status.name().to_string();
    }
    parts.join("; ")
}

/// Ranks the rows: correct answers first, then the other judged ones, then every answer
/// not judged (an IE); within each, by bytes (an unknown score last), then by name.
pub fn rank(rows: &mut [Row]) {
    let key = |r: &Row| {
        (
            r.internal > 0,
            !r.correct,
            r.bytes.is_none(),
            r.bytes,
            r.name.clone(),
        )
    };
    rows.sort_by_key(key);
}

/// The cells of a row, in column order: rank, answer, passed, bytes, chars, slowest,
/// time, diagnosis.
fn cells(rank: usize, row: &Row) -> [String; 8] {
    let count = |n: Option<usize>| n.map_or("-".to_string(), |n| n.to_string());
    [
        rank.to_string(),
        visible(&row.name),
        match row.presentation {
            0 => format!("{}/{}", row.passed, row.total),
            pe => format!("{}/{} ({pe} PE)", row.passed, row.total),
        },
        count(row.bytes),
        count(row.chars),
        row.slowest.as_ref().map_or("-".to_string(), |(name, ms)| {
            format!("{ms:.1} ms ({})", visible(name))
        }),
        format!("{:.1} ms", row.time_ms),
        visible(&row.diagnosis),
    ]
}

const HEADERS: [&str; 8] = [
    "#",
    "answer",
    "passed",
    "bytes",
    "chars",
    "slowest",
    "time",
    "diagnosis",
];

/// The leaderboard as a plain-text table, columns aligned, the diagnosis last. Ends with a
/// newline.
pub fn text(rows: &[Row]) -> String {
    let table: Vec<[String; 8]> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| cells(i + 1, r))
        .collect();
    let mut widths = HEADERS.map(|h| h.chars().count());
    for row in &table {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut s = String::new();
    let mut line = |cells: &[String]| {
        let mut l = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let numeric = matches!(i, 0 | 3 | 4 | 6);
            let _ = match (i, numeric) {
                (7, _) => write!(l, "{cell}"),
                (_, true) => write!(l, "{cell:>w$}  "),
                (_, false) => write!(l, "{cell:<w$}  "),
            };
        }
        s += l.trim_end();
        s.push('\n');
    };
    line(&HEADERS.map(String::from));
    for row in &table {
        line(row);
    }
    s
}

/// The leaderboard as a Markdown table, ready to paste into the challenge post. Ends with
/// a newline.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = format!("| {} |\n", HEADERS.join(" | "));
    s += "|--:|---|--:|--:|--:|---|--:|---|\n";
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = cells(i + 1, r).iter().map(|c| markdown_text(c)).collect();
        s += &format!("| {} |\n", cells.join(" | "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::report::{ExplainedBy, GroupReport, Shown};

    fn row(name: &str, correct: bool, bytes: Option<usize>) -> Row {
        Row {
            name: name.to_string(),
            correct,
            internal: 0,
            passed: if correct { 10 } else { 7 },
            presentation: 0,
            total: 10,
            diagnosis: if correct { "correct" } else { "x" }.to_string(),
            bytes,
            chars: bytes,
            slowest: Some(("random-1-0".to_string(), 2.5)),
            time_ms: 20.0,
        }
    }

    fn group(verdict: Verdict, n: usize) -> GroupReport {
        GroupReport {
            verdict,
            cause: "c".to_string(),
            cases: (0..n).map(|i| format!("c{i}")).collect(),
            shown: Shown {
                name: "c0".to_string(),
                puzzle: String::new(),
                expected: String::new(),
                got: String::new(),
                detail: None,
                shrunk: None,
                stopped_early: None,
                reproduce: None,
                located: None,
                unshrunk: None,
            },
            compare: None,
            also: Vec::new(),
            evidence: None,
            event: None,
            confirmation: None,
        }
    }

    fn diagnosis(status: Status, groups: Vec<GroupReport>) -> DiagnosisReport {
        DiagnosisReport {
            status,
            sentence: String::new(),
            explained_by: vec![ExplainedBy {
                flags: "--exhaust stop".to_string(),
                words: "the game stops when the moves run out".to_string(),
                reproduces: 5,
                of: 8,
                breaks: 0,
                evidence: 5,
            }],
            groups,
            robustness: None,
        }
    }

    #[test]
    fn correct_answers_rank_first_then_the_shortest() {
        let mut rows = vec![
            row("wrong-short", false, Some(10)),
            row("right-long", true, Some(300)),
            row("right-unknown", true, None),
            row("right-short", true, Some(120)),
        ];
        rank(&mut rows);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            ["right-short", "right-long", "right-unknown", "wrong-short"]
        );
    }

    #[test]
    fn an_answer_with_an_ie_is_not_judged_and_ranks_after_every_judged_one() {
        let summary = |passed, failed, internal| Summary {
            passed,
            failed,
            internal,
            ..Summary::default()
        };
        let all_ie = Row::judged(
            "all-ie",
            &summary(0, 0, 2),
            &diagnosis(Status::Correct, Vec::new()),
        );
        assert!(!all_ie.correct);
        assert_eq!(all_ie.diagnosis, "not judged: 2 IE");
        let wrong = diagnosis(Status::Explained, vec![group(Verdict::WrongAnswer, 8)]);
        let some_ie = Row::judged("some-ie", &summary(1, 8, 1), &wrong);
        assert!(
            some_ie
                .diagnosis
                .starts_with("not judged: 1 IE; beast --exhaust")
        );
        let mut rows = vec![
            Row {
                bytes: Some(1),
                ..all_ie
            },
            some_ie,
            row("wrong-long", false, Some(500)),
            row("right", true, Some(300)),
        ];
        rank(&mut rows);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["right", "wrong-long", "all-ie", "some-ie"]);
        let table = text(&rows);
        assert!(
            table
                .lines()
                .nth(3)
                .is_some_and(|l| l.starts_with("3  all-ie")),
            "{table}"
        );
    }

    #[test]
    fn a_row_names_the_explaining_reading_or_the_crashes() {
        let explained = diagnosis(Status::Explained, vec![group(Verdict::WrongAnswer, 8)]);
        assert_eq!(
            short_diagnosis(&explained),
            "beast --exhaust stop: the game stops when the moves run out"
        );
        let partial = diagnosis(
            Status::Partial,
            vec![
                group(Verdict::WrongAnswer, 5),
                group(Verdict::RuntimeError, 2),
            ],
        );
        assert_eq!(
            short_diagnosis(&partial),
            "partly beast --exhaust stop (5 of 8 wrong answers); 2 RTE"
        );
        let mut crashed = diagnosis(
            Status::Unexplained,
            vec![
                group(Verdict::RuntimeError, 30),
                group(Verdict::RuntimeError, 4),
            ],
        );
        crashed.explained_by.clear();
        assert_eq!(short_diagnosis(&crashed), "34 RTE");
        let correct = diagnosis(Status::Correct, Vec::new());
        assert_eq!(short_diagnosis(&correct), "correct");
    }

    #[test]
    fn an_answer_that_cannot_start_is_a_row_with_the_reason() {
        let r = Row::cannot_start("ghost", "No such file or directory", None);
        assert!(!r.correct);
        assert_eq!(r.diagnosis, "cannot start: No such file or directory");
        assert!(text(&[r]).contains("0/0"));
    }

    #[test]
    fn the_text_table_aligns_its_columns() {
        let t = text(&[
            row("a", true, Some(5)),
            row("longer-name", false, Some(1234)),
        ]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3, "{t}");
        assert!(lines[0].starts_with("#  answer       passed  bytes"), "{t}");
        assert!(lines[1].starts_with("1  a            10/10       5"), "{t}");
        assert!(lines[2].ends_with("  x"), "{t}");
    }

    #[test]
    fn markdown_cells_render_an_answers_name_as_written_never_as_html_or_a_link() {
        let r = row(
            "<img src=x onerror=y>[a](http://e/)*b*_c_`d`&amp;\nrow",
            true,
            Some(5),
        );
        let md = markdown(&[r]);
        let line = md.lines().nth(2).expect("the row");
        assert!(
            line.contains(
                r"&lt;img src=x onerror=y&gt;\[a\](http://e/)\*b\*\_c\_\`d\`&amp;amp;\\nrow"
            ),
            "{md}"
        );
        assert!(!md.contains("<img"), "{md}");
        assert_eq!(md.lines().count(), 3, "one line a row: {md}");
    }

    #[test]
    fn markdown_cells_escape_pipes() {
        let mut r = row("a|b", true, Some(5));
        r.diagnosis = "x | y".to_string();
        let md = markdown(&[r]);
        assert!(md.starts_with("| # | answer | passed |"), "{md}");
        assert!(md.contains("| 1 | a\\|b | 10/10 | 5 | 5 |"), "{md}");
        assert!(md.contains("x \\| y |"), "{md}");
    }

    #[test]
    fn json_rows_carry_rank_and_score() {
        let record =
            crate::judge::record::Record::Leaderboard(crate::judge::record::Leaderboard::of(&[
                row("a", true, Some(5)),
            ]));
        let line = record.to_line().expect("serializes");
        let v: serde_json::Value = serde_json::from_str(&line).expect("JSON");
        assert_eq!(v["type"], "leaderboard");
        assert_eq!(v["leaderboard"][0]["rank"], 1);
        assert_eq!(v["leaderboard"][0]["bytes"], 5);
        assert_eq!(v["leaderboard"][0]["slowest"]["name"], "random-1-0");
    }
}
