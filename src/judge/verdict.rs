//! Verdicts and output comparison: AC, WA, PE from the candidate's output, TLE, RTE and OLE
//! from how it ran, and the unified diff shown with a WA.

use std::fmt;

use serde::Serialize;

/// The verdict on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Verdict {
    /// Accepted: the output matches.
    #[serde(rename = "AC")]
    Accepted,
    /// Wrong answer: the output differs.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// Presentation error: only whitespace differs.
    #[serde(rename = "PE")]
    Presentation,
    /// Time limit exceeded: the process group was killed.
    #[serde(rename = "TLE")]
    TimeLimit,
    /// Runtime error: a non-zero exit or a signal.
    #[serde(rename = "RTE")]
    RuntimeError,
    /// Output limit exceeded.
    #[serde(rename = "OLE")]
    OutputLimit,
    /// Memory limit exceeded.
    #[serde(rename = "MLE")]
    MemoryLimit,
}

impl Verdict {
    /// The two- or three-letter code: `AC`, `WA`, `PE`, `TLE`, `RTE`, `OLE`, `MLE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::Presentation => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::RuntimeError => "RTE",
            Verdict::OutputLimit => "OLE",
            Verdict::MemoryLimit => "MLE",
        }
    }

    /// True if the case counts as passed: AC always, PE unless `strict`.
    pub fn passed(self, strict: bool) -> bool {
        match self {
            Verdict::Accepted => true,
            Verdict::Presentation => !strict,
            _ => false,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Compares the candidate's output with the expected one: [`Verdict::Accepted`],
/// [`Verdict::Presentation`] or [`Verdict::WrongAnswer`].
///
/// Normally trailing whitespace on each line and a missing final newline are ignored, and a
/// difference in whitespace alone is PE. With `strict` only identical bytes are AC; a
/// whitespace-only difference is still reported as PE (which then fails).
pub fn compare(expected: &[u8], got: &[u8], strict: bool) -> Verdict {
    let same = if strict {
        expected == got
    } else {
        normalize(expected) == normalize(got)
    };
    if same {
        Verdict::Accepted
    } else if without_whitespace(expected) == without_whitespace(got) {
        Verdict::Presentation
    } else {
        Verdict::WrongAnswer
    }
}

/// True if `got` matches `expected` in the lenient sense of [`compare`].
pub fn matches(expected: &[u8], got: &[u8]) -> bool {
    compare(expected, got, false) == Verdict::Accepted
}

/// The lines with trailing whitespace removed, and without the empty line a final newline
/// leaves.
fn normalize(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').map(trim_end).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &line[..end]
}

fn without_whitespace(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// A unified diff of `expected` against `got`, with `---`/`+++` headers, or an empty string
/// when the texts are equal. Invalid UTF-8 in `got` is shown as U+FFFD.
pub fn unified_diff(expected: &[u8], got: &[u8]) -> String {
    let expected = String::from_utf8_lossy(expected);
    let got = String::from_utf8_lossy(got);
    let diff = similar::TextDiff::from_lines(expected.as_ref(), got.as_ref());
    let mut text = diff
        .unified_diff()
        .context_radius(3)
        .header("expected", "got")
        .missing_newline_hint(true)
        .to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_output_is_ac() {
        assert_eq!(compare(b"8\n", b"8\n", false), Verdict::Accepted);
        assert_eq!(compare(b"8\n", b"8\n", true), Verdict::Accepted);
    }

    #[test]
    fn a_missing_final_newline_is_ignored() {
        assert_eq!(
            compare(b"aHHHH!\n0\n", b"aHHHH!\n0", false),
            Verdict::Accepted
        );
    }

    #[test]
    fn trailing_whitespace_on_a_line_is_ignored() {
        assert_eq!(
            compare(b"aHHHH!\n0\n", b"aHHHH!  \r\n0\t\n", false),
            Verdict::Accepted
        );
    }

    #[test]
    fn other_whitespace_differences_are_pe() {
        assert_eq!(compare(b"8\n", b" 8\n", false), Verdict::Presentation);
        assert_eq!(
            compare(b"aHHHH!\n0\n", b"aHHHH! 0\n", false),
            Verdict::Presentation
        );
        assert_eq!(compare(b"8\n", b"8\n\n", false), Verdict::Presentation);
        assert!(Verdict::Presentation.passed(false));
    }

    #[test]
    fn strict_compares_bytes_and_pe_fails() {
        assert_eq!(compare(b"8\n", b"8", true), Verdict::Presentation);
        assert_eq!(compare(b"8\n", b"8 \n", true), Verdict::Presentation);
        assert!(!Verdict::Presentation.passed(true));
    }

    #[test]
    fn different_characters_are_wa() {
        assert_eq!(compare(b"aHHHH!\n0\n", b"0\n", false), Verdict::WrongAnswer);
        assert_eq!(compare(b"8\n", b"6\n", true), Verdict::WrongAnswer);
        assert_eq!(compare(b"8\n", b"", false), Verdict::WrongAnswer);
        assert_eq!(compare(b"8\n", b"\xff\n", false), Verdict::WrongAnswer);
    }

    #[test]
    fn only_ac_and_lenient_pe_pass() {
        for v in [
            Verdict::WrongAnswer,
            Verdict::TimeLimit,
            Verdict::RuntimeError,
            Verdict::OutputLimit,
        ] {
            assert!(!v.passed(false), "{v}");
        }
        assert!(Verdict::Accepted.passed(true));
    }

    #[test]
    fn the_diff_is_unified_expected_against_got() {
        let d = unified_diff(b"aHHHH!\n0\n", b"0\n");
        assert!(d.starts_with("--- expected\n+++ got\n@@"), "{d}");
        assert!(d.contains("\n-aHHHH!\n"), "{d}");
        assert!(d.ends_with('\n'));
        assert_eq!(unified_diff(b"8\n", b"8\n"), "");
    }

    #[test]
    fn the_diff_survives_invalid_utf8() {
        let d = unified_diff(b"8\n", b"\xff\xfe\n");
        assert!(d.contains("+\u{fffd}\u{fffd}"), "{d}");
    }
}
