//! Verdicts and output comparison: AC, WA, PE from the candidate's output, TLE, RTE and OLE
//! from how it ran, IE when the judge could not set the case up, and the unified diff
//! shown with a WA.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The verdict on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// Internal error: the judge could not set the case up (its jail), so the answer never
    /// ran. It counts against nobody: neither passed nor failed (isolate's `XX`).
    #[serde(rename = "IE")]
    InternalError,
}

impl Verdict {
    /// The two- or three-letter code: `AC`, `WA`, `PE`, `TLE`, `RTE`, `OLE`, `MLE`, `IE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::Presentation => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::RuntimeError => "RTE",
            Verdict::OutputLimit => "OLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::InternalError => "IE",
        }
    }

    /// The verdict of a code such as `WA` (as [`Verdict::code`] writes it).
    pub fn from_code(code: &str) -> Option<Verdict> {
        [
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::Presentation,
            Verdict::TimeLimit,
            Verdict::RuntimeError,
            Verdict::OutputLimit,
            Verdict::MemoryLimit,
            Verdict::InternalError,
        ]
        .into_iter()
        .find(|v| v.code() == code)
    }

    /// True when the verdict is on the answer: every one but IE, which says the judge
    /// failed and the answer never ran.
    pub fn judged(self) -> bool {
        self != Verdict::InternalError
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

/// How much of the two outputs [`unified_diff_within`] compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiffLimits {
    /// Lines of each side compared, from a few lines before the first difference.
    pub lines: usize,
    /// Bytes of each side compared; a longer line is cut.
    pub bytes: usize,
}

impl Default for DiffLimits {
    /// 32 lines and 4 KiB of each side.
    fn default() -> Self {
        DiffLimits {
            lines: 32,
            bytes: 4 << 10,
        }
    }
}

/// Unchanged lines shown around a change.
const CONTEXT: usize = 3;

/// A unified diff of `expected` against `got`, with `---`/`+++` headers, or an empty string
/// when the texts are equal. Invalid UTF-8 in `got` is shown as U+FFFD. Bounded work: see
/// [`unified_diff_within`] with the [`DiffLimits::default`].
pub fn unified_diff(expected: &[u8], got: &[u8]) -> String {
    unified_diff_within(expected, got, DiffLimits::default())
}

/// [`unified_diff`] on capped text, so its work is bounded whatever the outputs.
///
/// The lines before the first difference are skipped in one linear scan; then at most
/// `limits.lines` lines and `limits.bytes` bytes of each side, from `CONTEXT` lines
/// before it, are diffed (a quadratic diff of a few KiB, never of the whole output). When a
/// side is longer than that, a last line `\ diff cut: output differs at line N; B bytes
/// got, E bytes expected` says so. Line numbers in the hunk headers are those of the whole
/// texts.
pub fn unified_diff_within(expected: &[u8], got: &[u8], limits: DiffLimits) -> String {
    if expected == got {
        return String::new();
    }
    let (first, offset) = first_difference(expected, got);
    let skipped = first.saturating_sub(CONTEXT);
    let start = line_start(expected, offset, first - skipped);
    let old = Window::of(&expected[start..], limits);
    let new = Window::of(&got[start..], limits);
    let mut text = String::from("--- expected\n+++ got\n");
    write_hunks(&mut text, &old.text(), &new.text(), skipped);
    if old.cut || new.cut {
        text.push_str(&format!(
            "\\ diff cut: output differs at line {}; {} bytes got, {} bytes expected\n",
            first + 1,
            thousands(got.len()),
            thousands(expected.len()),
        ));
    }
    text
}

/// The index (from 0) of the first line that differs, and its byte offset. Lines keep
/// their `\n`, so a missing final newline is a difference.
fn first_difference(a: &[u8], b: &[u8]) -> (usize, usize) {
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let line_begin = a[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let line = a[..line_begin].iter().filter(|&&c| c == b'\n').count();
    (line, line_begin)
}

/// The byte offset of the line `back` lines before the one starting at `offset`.
fn line_start(text: &[u8], offset: usize, back: usize) -> usize {
    if back == 0 {
        return offset;
    }
    text[..offset]
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, c)| **c == b'\n')
        .nth(back)
        .map_or(0, |(i, _)| i + 1)
}

/// The capped part of one side that is diffed.
struct Window<'a> {
    bytes: &'a [u8],
    /// True when the side goes on past the window.
    cut: bool,
}

impl<'a> Window<'a> {
    /// At most `limits.lines` lines and `limits.bytes` bytes of `rest`, ending at a line
    /// end when the byte cap allows, else at a character boundary.
    fn of(rest: &'a [u8], limits: DiffLimits) -> Window<'a> {
        let mut end = rest
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == b'\n')
            .nth(limits.lines.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i + 1);
        if end > limits.bytes {
            end = rest[..limits.bytes]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or_else(|| char_boundary(rest, limits.bytes), |i| i + 1);
        }
        Window {
            bytes: &rest[..end],
            cut: end < rest.len(),
        }
    }

    /// The window as text; a cut window ends with a newline, so that no `No newline at end
    /// of file` hint is given for a side that goes on.
    fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(self.bytes).into_owned();
        if self.cut && !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }
}

/// The largest UTF-8 character boundary of `bytes` at or before `at`, above 0 when there
/// is one (a window holds at least one character when it can).
fn char_boundary(bytes: &[u8], at: usize) -> usize {
    (1..=at)
        .rev()
        .find(|&i| bytes.get(i).is_none_or(|&c| c & 0xC0 != 0x80))
        .unwrap_or(at)
}

/// Appends the hunks of the line diff of `old` against `new`, numbering lines from
/// `skipped + 1`.
fn write_hunks(out: &mut String, old: &str, new: &str, skipped: usize) {
    let diff = similar::TextDiff::from_lines(old, new);
    for group in diff.grouped_ops(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = hunk_range(
            skipped + first.old_range().start,
            last.old_range().end + skipped,
        );
        let new_range = hunk_range(
            skipped + first.new_range().start,
            last.new_range().end + skipped,
        );
        out.push_str(&format!("@@ -{old_range} +{new_range} @@\n"));
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Equal => ' ',
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                };
                out.push(sign);
                out.push_str(change.value());
                if change.missing_newline() {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
}

/// A hunk's line range `START,LEN` in unified format: lines from 1, `,1` left out, and an
/// empty range starting at the line before it.
fn hunk_range(start: usize, end: usize) -> String {
    match end - start {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        len => format!("{},{len}", start + 1),
    }
}

/// `n` with commas between groups of three digits: `1,048,576`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ie_is_a_verdict_on_the_judge_neither_passed_nor_judged() {
        let ie = Verdict::InternalError;
        assert_eq!(Verdict::from_code(ie.code()), Some(ie));
        assert_eq!(serde_json::to_string(&ie).unwrap(), "\"IE\"");
        assert!(!ie.passed(false) && !ie.judged());
        assert!(Verdict::RuntimeError.judged());
    }

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

    #[test]
    fn small_diffs_are_the_full_unified_diff() {
        let full = |a: &str, b: &str| {
            similar::TextDiff::from_lines(a, b)
                .unified_diff()
                .context_radius(3)
                .header("expected", "got")
                .missing_newline_hint(true)
                .to_string()
        };
        let numbered: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let changed = numbered.replace("\n12\n", "\ntwelve\n");
        for (a, b) in [
            ("aHHHH!\n0\n", "0\n"),
            ("8\n", "8"),
            ("8", "8\n9\n"),
            ("", "1\n"),
            (numbered.as_str(), changed.as_str()),
            (numbered.as_str(), "1\n2\n"),
        ] {
            let mut want = full(a, b);
            if !want.ends_with('\n') {
                want.push('\n');
            }
            assert_eq!(
                unified_diff(a.as_bytes(), b.as_bytes()),
                want,
                "{a:?} vs {b:?}"
            );
        }
    }

    #[test]
    fn hunks_keep_the_line_numbers_of_the_whole_output() {
        let numbered: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let changed = numbered.replace("\n50\n", "\nfifty\n");
        let d = unified_diff(numbered.as_bytes(), changed.as_bytes());
        assert!(d.contains("@@ -47,7 +47,7 @@\n 47\n"), "{d}");
        assert!(d.contains("-50\n+fifty\n"), "{d}");
    }

    #[test]
    fn a_mebibyte_of_wrong_lines_gives_a_short_diff_and_a_note() {
        let got = "8\n".repeat(1 << 19);
        let d = unified_diff(b"8\n", got.as_bytes());
        let limits = DiffLimits::default();
        assert!(d.lines().count() <= limits.lines + 4, "{d}");
        assert!(d.len() <= limits.bytes + 200, "{} bytes", d.len());
        assert!(
            d.starts_with("--- expected\n+++ got\n@@ -1 +1,32 @@\n 8\n+8\n"),
            "{d}"
        );
        assert!(
            d.ends_with(
                "\\ diff cut: output differs at line 2; 1,048,576 bytes got, 2 bytes expected\n"
            ),
            "{d}"
        );
    }

    #[test]
    fn one_long_line_is_cut_at_the_byte_cap() {
        let got = "é".repeat(1 << 19);
        let d = unified_diff_within(
            b"8\n",
            got.as_bytes(),
            DiffLimits {
                lines: 32,
                bytes: 101,
            },
        );
        let plus = d
            .lines()
            .find(|l| l.starts_with('+') && !l.starts_with("+++"));
        assert_eq!(plus, Some(format!("+{}", "é".repeat(50)).as_str()), "{d}");
        assert!(!d.contains("No newline"), "{d}");
        assert!(d.contains("differs at line 1; 1,048,576 bytes got"), "{d}");
    }

    #[test]
    fn a_late_difference_skips_the_equal_lines() {
        let same = "7\n".repeat(100_000);
        let d = unified_diff(
            format!("{same}8\n").as_bytes(),
            format!("{same}9\n").as_bytes(),
        );
        assert_eq!(
            d,
            "--- expected\n+++ got\n@@ -99998,4 +99998,4 @@\n 7\n 7\n 7\n-8\n+9\n"
        );
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_048_576), "1,048,576");
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::*;

    /// Texts of up to 12 short lines from a small alphabet, so that diffs repeat lines.
    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof!["a\n", "b\n", "c\n", "\n", "a"], 0..12)
            .prop_map(|lines| lines.concat())
    }

    proptest! {
        /// Within the caps the bounded diff is exactly similar's whole unified diff.
        #[test]
        fn within_the_caps_the_diff_is_the_full_one(a in text(), b in text()) {
            let mut want = similar::TextDiff::from_lines(&a, &b)
                .unified_diff()
                .context_radius(3)
                .header("expected", "got")
                .missing_newline_hint(true)
                .to_string();
            if !want.is_empty() && !want.ends_with('\n') {
                want.push('\n');
            }
            prop_assert_eq!(unified_diff(a.as_bytes(), b.as_bytes()), want);
        }
    }
}
