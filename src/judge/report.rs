//! The results of a check run and their three renderings: the text report, one JSON object
//! per case with a summary object, and JUnit XML.

use std::fmt::Write as _;

use serde::Serialize;

use crate::judge::verdict::{Verdict, unified_diff};

/// The shrunk form of a failing random case.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShrunkCase {
    /// The `beast gen` seed of the original puzzle.
    pub seed: u64,
    /// Original size and move count: `(cols, rows, moves)`.
    pub from: (usize, usize, usize),
    /// Shrunk size and move count: `(cols, rows, moves)`.
    pub to: (usize, usize, usize),
    /// The shrunk puzzle in the input format.
    pub puzzle: String,
}

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
    /// The expected output.
    pub expected: String,
    /// What the candidate printed (invalid UTF-8 shown as U+FFFD).
    pub got: String,
    /// For TLE, RTE and OLE: what happened, such as `exit code 3`.
    pub detail: Option<String>,
    /// For WA: which other reading reproduces the output, in plain words.
    pub reading_match: Option<String>,
    /// For a random case: the `beast gen` seed, for others `None`.
    pub seed: Option<u64>,
    /// For a random case: the `beast gen` command that prints the original puzzle.
    pub reproduce: Option<String>,
    /// For a failing random case that was shrunk.
    pub shrunk: Option<ShrunkCase>,
}

/// Passed and failed counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
}

impl Summary {
    /// Counts `reports`.
    pub fn of(reports: &[CaseReport]) -> Summary {
        let passed = reports.iter().filter(|r| r.passed).count();
        Summary {
            passed,
            failed: reports.len() - passed,
        }
    }

    /// The summary line, `N passed, N failed`.
    pub fn line(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failed)
    }
}

/// `line` with control characters other than tab written as escapes (`\u{1b}`), so a
/// candidate's output cannot drive the terminal that reads the report.
pub fn visible(line: &str) -> String {
    line.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The text report of one case: a verdict line, and for a failure what went wrong, the
/// explanation, and the shrunk puzzle ready to paste. Ends with a newline.
pub fn text(r: &CaseReport) -> String {
    let mut s = format!("{:<3} {} ({:.1} ms)\n", r.verdict.code(), r.name, r.time_ms);
    if r.passed && r.verdict == Verdict::Accepted {
        return s;
    }
    if let Some(d) = &r.detail {
        let _ = writeln!(s, "    {}", visible(d));
    }
    if matches!(r.verdict, Verdict::WrongAnswer | Verdict::Presentation) {
        for line in unified_diff(r.expected.as_bytes(), r.got.as_bytes()).lines() {
            let _ = writeln!(s, "    {}", visible(line));
        }
    }
    if let Some(m) = &r.reading_match {
        let _ = writeln!(s, "    {m}");
    }
    if let Some(seed) = r.seed {
        let _ = write!(s, "    seed {seed}");
        if let Some(sh) = &r.shrunk {
            let (c, rows, m) = sh.from;
            let _ = write!(s, ", original {c}x{rows}, {m} moves");
        }
        if let Some(cmd) = &r.reproduce {
            let _ = write!(s, " ({cmd})");
        }
        s.push('\n');
    }
    if let Some(sh) = &r.shrunk {
        let (c, rows, m) = sh.to;
        let _ = writeln!(s, "shrunk to {c}x{rows}, {m} moves:");
        s += &sh.puzzle;
        if !sh.puzzle.ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

/// The JSON object of one case: `name`, `verdict`, `time_ms`, `expected`, `got`,
/// `reading_match` (or null), `shrunk` (the puzzle text, or null), and also `passed`,
/// `detail` and `seed`.
pub fn json(r: &CaseReport) -> serde_json::Value {
    serde_json::json!({
        "name": r.name,
        "verdict": r.verdict,
        "passed": r.passed,
        "time_ms": (r.time_ms * 1000.0).round() / 1000.0,
        "expected": r.expected,
        "got": r.got,
        "detail": r.detail,
        "reading_match": r.reading_match,
        "seed": r.seed,
        "shrunk": r.shrunk.as_ref().map(|s| s.puzzle.clone()),
    })
}

/// The final JSON object: `{"summary": true, "passed": N, "failed": N, "total": N}`.
pub fn json_summary(s: Summary) -> serde_json::Value {
    serde_json::json!({
        "summary": true,
        "passed": s.passed,
        "failed": s.failed,
        "total": s.passed + s.failed,
    })
}

/// Escapes text for XML 1.0 content and attributes. Characters XML cannot hold at all
/// (most control characters) become U+FFFD.
pub fn xml_escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s += "&amp;",
            '<' => s += "&lt;",
            '>' => s += "&gt;",
            '"' => s += "&quot;",
            '\'' => s += "&apos;",
            '\t' | '\n' | '\r' => s.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => s.push('\u{fffd}'),
            c => s.push(c),
        }
    }
    s
}

/// A JUnit XML report: one `<testsuite>` named `suite` with a `<testcase>` per case, and a
/// `<failure>` (type = the verdict) holding the text report of each failing one.
pub fn junit(suite: &str, reports: &[CaseReport]) -> String {
    let sum = Summary::of(reports);
    let total: f64 = reports.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0;
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let suite = xml_escape(suite);
    let _ = writeln!(
        s,
        "<testsuites name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{total:.3}\">",
        reports.len(),
        sum.failed
    );
    let _ = writeln!(
        s,
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{total:.3}\">",
        reports.len(),
        sum.failed
    );
    for r in reports {
        let _ = write!(
            s,
            "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\"",
            xml_escape(&r.name),
            r.time_ms / 1000.0
        );
        if r.passed {
            s += "/>\n";
            continue;
        }
        let message = r
            .reading_match
            .clone()
            .or_else(|| r.detail.clone())
            .unwrap_or_else(|| r.verdict.code().to_string());
        let _ = writeln!(
            s,
            ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
            r.verdict.code(),
            xml_escape(&message),
            xml_escape(&text(r))
        );
    }
    s += "  </testsuite>\n</testsuites>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_a_report_are_escaped() {
        assert_eq!(visible("-8\x1b[31m\x01\tok"), "-8\\u{1b}[31m\\u{1}\tok");
    }

    fn report(name: &str, verdict: Verdict) -> CaseReport {
        CaseReport {
            name: name.to_string(),
            verdict,
            passed: verdict.passed(false),
            time_ms: 1.25,
            expected: "aHHHH!\n0\n".to_string(),
            got: "0\n".to_string(),
            detail: None,
            reading_match: None,
            seed: None,
            reproduce: None,
            shrunk: None,
        }
    }

    #[test]
    fn the_summary_line_counts_passes_and_failures() {
        let rs = [
            report("a", Verdict::Accepted),
            report("b", Verdict::Presentation),
            report("c", Verdict::WrongAnswer),
        ];
        assert_eq!(Summary::of(&rs).line(), "2 passed, 1 failed");
    }

    #[test]
    fn a_wrong_answer_shows_the_diff_and_the_reading() {
        let mut r = report("reaper", Verdict::WrongAnswer);
        r.reading_match = Some("matches if X (--exhaust stop)".to_string());
        let t = text(&r);
        assert!(t.starts_with("WA  reaper (1.2 ms)\n"), "{t}");
        assert!(t.contains("    -aHHHH!\n"), "{t}");
        assert!(t.contains("    matches if X (--exhaust stop)\n"), "{t}");
    }

    #[test]
    fn a_shrunk_case_is_printed_ready_to_paste() {
        let mut r = report("random-1-3", Verdict::WrongAnswer);
        r.seed = Some(99);
        r.shrunk = Some(ShrunkCase {
            seed: 99,
            from: (16, 10, 30),
            to: (5, 3, 1),
            puzzle: "5 3\n#####\n#O~H#\n#####\nR\n".to_string(),
        });
        let t = text(&r);
        assert!(t.contains("    seed 99, original 16x10, 30 moves\n"), "{t}");
        assert!(
            t.ends_with("shrunk to 5x3, 1 moves:\n5 3\n#####\n#O~H#\n#####\nR\n"),
            "{t}"
        );
    }

    #[test]
    fn json_has_the_documented_keys() {
        let v = json(&report("x", Verdict::TimeLimit));
        for key in [
            "name",
            "verdict",
            "time_ms",
            "expected",
            "got",
            "reading_match",
            "shrunk",
        ] {
            assert!(v.get(key).is_some(), "{key} in {v}");
        }
        assert_eq!(v["verdict"], "TLE");
        assert!(v["shrunk"].is_null());
    }

    #[test]
    fn xml_escaping_removes_what_xml_cannot_hold() {
        assert_eq!(
            xml_escape("a<b & \"c\"\u{0}"),
            "a&lt;b &amp; &quot;c&quot;\u{fffd}"
        );
    }

    #[test]
    fn junit_counts_failures_and_holds_the_report() {
        let rs = [
            report("ok", Verdict::Accepted),
            report("bad<1>", Verdict::RuntimeError),
        ];
        let x = junit("beast check", &rs);
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("<testcase name=\"ok\""), "{x}");
        assert!(x.contains("<failure type=\"RTE\""), "{x}");
        assert!(x.contains("bad&lt;1&gt;"), "{x}");
    }
}
