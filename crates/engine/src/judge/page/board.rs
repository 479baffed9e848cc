//! The page's ranking: every answer with its claimed and counted size, where its code
//! came from, its verdicts and diagnosis, or why it could not run. Right answers first,
//! by counted size and then date; answers that failed next, in the same order; answers
//! that could not run last, by date. In text, Markdown and JSON (one record an answer).
//! Every text of the page (names, languages, reasons) is escaped for the medium here.

use serde::Serialize;

use super::Counting;
use super::header::Unit;
use crate::judge::escape::markdown_text;
use crate::judge::report::{json_text, visible};

/// How an answer fared.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// It ran on the cases.
    Judged {
        /// Every case passed.
        correct: bool,
        /// Cases passed.
        passed: usize,
        /// Cases run.
        total: usize,
        /// Each verdict's count (`AC`, `WA`...), in the order first seen.
        verdicts: Vec<(String, usize)>,
        /// The diagnosis in a few words.
        diagnosis: String,
    },
    /// It could not run, and why.
    CannotRun {
        /// Why: `ruby not found`, `05AB1E: no interpreter known`.
        reason: String,
    },
}

/// One answer's entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// `answer_id`.
    pub answer_id: u64,
    /// Its name in the run (and its report file's).
    pub name: String,
    /// Its author.
    pub author: String,
    /// The header's language.
    pub language: String,
    /// `creation_date`.
    pub date: i64,
    /// The size the header claims.
    pub claimed: Option<usize>,
    /// What the header's size counts.
    pub unit: Unit,
    /// The size counted, when there is code.
    pub counted: Option<usize>,
    /// How it was counted.
    pub counting: Option<Counting>,
    /// `block N`, `tio` or `ato`.
    pub source: Option<String>,
    /// Its flags.
    pub flags: Vec<String>,
    /// "claimed 840, counted 856" where they differ.
    pub audit: Option<String>,
    /// Why the snippet cannot read its header, with the guess.
    pub header_note: Option<String>,
    /// How it fared.
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl Entry {
    fn class(&self) -> u8 {
        match &self.outcome {
            Outcome::Judged { correct: true, .. } => 0,
            Outcome::Judged { .. } => 1,
            Outcome::CannotRun { .. } => 2,
        }
    }
}

/// Ranks the entries: right answers by counted size then date, failed ones the same,
/// cannot-run ones by date; the answer id breaks ties.
pub fn rank(entries: &mut [Entry]) {
    entries.sort_by_key(|e| {
        let size = match e.class() {
            2 => None,
            _ => Some(e.counted.unwrap_or(usize::MAX)),
        };
        (e.class(), size, e.date, e.answer_id)
    });
}

/// The size cell: the counted size, and the claim where it differs.
fn size_cell(e: &Entry) -> String {
    match (e.counted, e.claimed) {
        (Some(n), Some(c)) if n != c => format!("{n} (claimed {c})"),
        (Some(n), _) => n.to_string(),
        (None, Some(c)) => format!("- (claimed {c})"),
        (None, None) => "-".to_string(),
    }
}

/// The verdicts cell (`70/70`, `64/70 6 WA`) or `cannot run`.
fn verdicts_cell(e: &Entry) -> String {
    match &e.outcome {
        Outcome::Judged {
            passed,
            total,
            verdicts,
            ..
        } => {
            let failed: Vec<String> = verdicts
                .iter()
                .filter(|(v, _)| v != "AC")
                .map(|(v, n)| format!("{n} {v}"))
                .collect();
            match failed.is_empty() {
                true => format!("{passed}/{total}"),
                false => format!("{passed}/{total} {}", failed.join(" ")),
            }
        }
        Outcome::CannotRun { .. } => "-".to_string(),
    }
}

/// The last cell: the diagnosis or why it cannot run, then the audit and header notes.
fn why_cell(e: &Entry) -> String {
    let mut parts = vec![match &e.outcome {
        Outcome::Judged { diagnosis, .. } => diagnosis.clone(),
        Outcome::CannotRun { reason } => format!("cannot run: {reason}"),
    }];
    parts.extend(e.audit.clone());
    parts.extend(e.header_note.as_ref().map(|n| format!("header: {n}")));
    parts.join("; ")
}

const HEADERS: [&str; 7] = ["#", "answer", "author", "language", "size", "passed", "why"];

/// The cells of an entry, unescaped.
fn cells(rank: usize, e: &Entry) -> [String; 7] {
    let source = e.source.as_deref().unwrap_or("no code");
    [
        rank.to_string(),
        format!("{} ({source})", e.answer_id),
        e.author.clone(),
        match e.flags.is_empty() {
            true => e.language.clone(),
            false => format!("{} {}", e.language, e.flags.join(" ")),
        },
        size_cell(e),
        verdicts_cell(e),
        why_cell(e),
    ]
}

/// The ranking as a text table, every cell made visible. Ends with a newline.
pub fn text(entries: &[Entry]) -> String {
    let table: Vec<[String; 7]> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| cells(i + 1, e).map(|c| visible(&c)))
        .collect();
    let mut widths = HEADERS.map(|h| h.chars().count());
    for row in &table {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for row in std::iter::once(HEADERS.map(String::from)).chain(table) {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            match i {
                6 => line += cell,
                0 => line += &format!("{cell:>w$}  "),
                _ => line += &format!("{cell:<w$}  "),
            }
        }
        s += line.trim_end();
        s.push('\n');
    }
    s
}

/// The ranking as a Markdown table, every cell escaped as the leaderboard's are. Ends
/// with a newline.
pub fn markdown(entries: &[Entry]) -> String {
    let mut s = format!("| {} |\n", HEADERS.join(" | "));
    s += "|--:|---|---|---|--:|---|---|\n";
    for (i, e) in entries.iter().enumerate() {
        let row: Vec<String> = cells(i + 1, e).iter().map(|c| markdown_text(c)).collect();
        s += &format!("| {} |\n", row.join(" | "));
    }
    s
}

/// One JSON line an entry, with its rank; hidden characters escaped.
pub fn json_lines(entries: &[Entry]) -> String {
    #[derive(Serialize)]
    struct Ranked<'a> {
        r#type: &'static str,
        rank: usize,
        #[serde(flatten)]
        entry: &'a Entry,
    }
    let mut s = String::new();
    for (i, entry) in entries.iter().enumerate() {
        let value = serde_json::to_value(Ranked {
            r#type: "page-answer",
            rank: i + 1,
            entry,
        })
        .unwrap_or_default();
        s += &json_text(&value);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: u64, counted: usize, date: i64, outcome: Outcome) -> Entry {
        Entry {
            answer_id: id,
            name: format!("a{id}"),
            author: "x".into(),
            language: "Python 3".into(),
            date,
            claimed: Some(counted),
            unit: Unit::Bytes,
            counted: Some(counted),
            counting: Some(Counting::Utf8Bytes),
            source: Some("block 1".into()),
            flags: vec![],
            audit: None,
            header_note: None,
            outcome,
        }
    }

    fn judged(correct: bool) -> Outcome {
        Outcome::Judged {
            correct,
            passed: if correct { 3 } else { 1 },
            total: 3,
            verdicts: if correct {
                vec![("AC".into(), 3)]
            } else {
                vec![("AC".into(), 1), ("WA".into(), 2)]
            },
            diagnosis: if correct {
                "correct".into()
            } else {
                "unexplained 2 WA".into()
            },
        }
    }

    #[test]
    fn right_answers_rank_first_by_size_then_date_and_cannot_run_last() {
        let cannot = Outcome::CannotRun {
            reason: "ruby not found".into(),
        };
        let mut e = vec![
            entry(1, 50, 10, cannot),
            entry(2, 90, 5, judged(false)),
            entry(3, 120, 1, judged(true)),
            entry(4, 100, 9, judged(true)),
            entry(5, 100, 3, judged(true)),
        ];
        rank(&mut e);
        let ids: Vec<u64> = e.iter().map(|e| e.answer_id).collect();
        assert_eq!(ids, [5, 4, 3, 2, 1]);
        let t = text(&e);
        assert!(
            t.contains("cannot run: ruby not found") && t.contains("1/3 2 WA"),
            "{t}"
        );
    }

    #[test]
    fn a_strangers_text_is_escaped_in_every_format() {
        let mut e = entry(9, 10, 1, judged(true));
        e.author = "<img src=x>|\u{1b}[31m\u{202e}".into();
        let md = markdown(&[e.clone()]);
        assert!(
            !md.contains("<img") && !md.contains('\u{1b}') && !md.contains('\u{202e}'),
            "{md}"
        );
        let t = text(&[e.clone()]);
        assert!(!t.contains('\u{1b}') && !t.contains('\u{202e}'), "{t}");
        let j = json_lines(&[e]);
        assert!(!j.contains('\u{1b}') && !j.contains('\u{202e}'), "{j}");
        let back: serde_json::Value = serde_json::from_str(j.trim()).expect("json");
        assert_eq!(back["author"], "<img src=x>|\u{1b}[31m\u{202e}");
        assert_eq!(back["rank"], 1);
    }
}
