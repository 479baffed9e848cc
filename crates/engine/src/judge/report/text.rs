//! The text report's parts: a case's report, the groups with the case each shows, the
//! cases the judge could not set up, the robustness section and the summary's lines.

use std::fmt::Write as _;

use super::sentence::cases;
use super::{CaseReport, ComparePage, GroupReport, Shown, Shrink, Summary};
use crate::judge::escape::{pasteable, visible, whitespace_shown};
use crate::judge::robustness::RobustnessReport;
use crate::judge::verdict::{Verdict, unified_diff};
use crate::words::{count, mib};

/// The most failing cases the robustness section names.
pub const ROBUSTNESS_NAMED: usize = 8;

/// The robustness section as the text report prints it: the sentence, then the failing
/// cases (at most [`ROBUSTNESS_NAMED`]).
pub fn robustness_text(r: &RobustnessReport) -> String {
    let mut s = format!("{}\n", visible(&r.sentence));
    if !r.failing.is_empty() {
        let named: Vec<String> = r
            .failing
            .iter()
            .take(ROBUSTNESS_NAMED)
            .map(|n| visible(n))
            .collect();
        let more = r.failing.len() - named.len();
        s += &format!("  cases: {}", named.join(", "));
        if more > 0 {
            s += &format!(" and {more} more");
        }
        s += "\n";
    }
    s
}
impl Summary {
    /// The memory line, where the sandbox measured memory: `memory: peak 12.5 MiB
    /// (random-1-3)`.
    pub fn memory_line(&self) -> Option<String> {
        let (name, bytes) = self.largest.as_ref()?;
        Some(format!("memory: peak {} ({})", mib(*bytes), visible(name)))
    }

    /// The summary line, `N passed, N failed`, or `N passed (K PE), N failed`, and `, K
    /// not judged (IE)` when the judge failed on some.
    pub fn line(&self) -> String {
        let passed = match self.presentation {
            0 => format!("{} passed", self.passed),
            pe => format!("{} passed ({pe} PE)", self.passed),
        };
        // A flaky case is no plain failure: `34 passed, 6 flaky`.
        let mut line = match (self.failed - self.flaky.min(self.failed), self.flaky) {
            (failed, 0) => format!("{passed}, {failed} failed"),
            (0, flaky) => format!("{passed}, {flaky} flaky"),
            (failed, flaky) => format!("{passed}, {failed} failed, {flaky} flaky"),
        };
        if self.internal > 0 {
            let _ = write!(line, ", {} not judged (IE)", self.internal);
        }
        line
    }

    /// The time line: `wall 3.9 s; answer 7.6 s over 240 cases (slowest random-1-3,
    /// 20.1 ms)`. The answer's time is summed over its runs, which overlap.
    pub fn time_line(&self) -> String {
        let total = self.passed + self.failed + self.internal;
        let secs = |ms: f64| match ms < 1000.0 {
            true => format!("{ms:.0} ms"),
            false => format!("{:.1} s", ms / 1000.0),
        };
        let mut s = String::new();
        if let Some(wall) = self.wall_ms {
            let _ = write!(s, "wall {}; ", secs(wall));
        }
        if total == 0 {
            s.push_str("no case finished");
            return s;
        }
        let _ = write!(
            s,
            "answer {} over {total} {}",
            secs(self.time_total_ms),
            cases(total)
        );
        if let Some((name, ms)) = &self.slowest {
            let _ = write!(s, " (slowest {}, {ms:.1} ms)", visible(name));
        }
        s
    }

    /// The score line, `score: 120 bytes, 118 chars (a.py)`, and what the count left out
    /// (`; not counted: the final newline`), if the source is known.
    pub fn score_line(&self) -> Option<String> {
        self.source.as_ref().map(|s| {
            let left = s.left_out.words().map(|w| format!("; {w}"));
            format!(
                "score: {} bytes, {} chars ({}){}",
                s.bytes,
                s.chars,
                visible(&s.file),
                left.unwrap_or_default()
            )
        })
    }
}

/// Text shown indented under a report line: each line escaped by [`visible`], at most 10
/// lines and 1 KiB, with a note of how much was left out.
fn block(s: &mut String, indent: &str, text: &str) {
    const LINES: usize = 10;
    const BYTES: usize = 1024;
    let mut used = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if i == LINES || used > BYTES {
            let _ = writeln!(
                s,
                "{indent}... ({} more lines, {} bytes in all)",
                lines.len() - i,
                text.len()
            );
            return;
        }
        let shown: String = line.chars().take(200).collect();
        used += shown.len();
        let _ = writeln!(s, "{indent}{}", visible(&shown));
    }
    if lines.is_empty() {
        let _ = writeln!(s, "{indent}(nothing)");
    }
}

/// The text report of one case (printed with `-v`): a verdict line, and for a failure what
/// went wrong and the puzzle. Ends with a newline.
pub fn text(r: &CaseReport) -> String {
    let mut s = format!(
        "{:<3} {} ({:.1} ms)\n",
        r.verdict.code(),
        visible(&r.name),
        r.time_ms
    );
    if r.passed && r.verdict == Verdict::Accepted {
        return s;
    }
    if let Some(d) = &r.detail {
        block(&mut s, "    ", &d.to_string());
    }
    if matches!(r.verdict, Verdict::WrongAnswer | Verdict::Presentation) {
        for line in unified_diff(r.expected.as_bytes(), r.got.as_bytes()).lines() {
            let _ = writeln!(s, "    {}", visible(line));
        }
    }
    if let Some(m) = &r.consistent {
        let _ = writeln!(s, "    this case alone is consistent with {m}");
    }
    if let Some(cmd) = &r.reproduce {
        let _ = writeln!(s, "    puzzle: {cmd}");
    }
    s
}

/// What the cases the judge could not set up say, each different failure once with
/// the cases it stopped: `IE x2: internal error while setting up the jail: STEP:
/// REASON` and `  cases: a, b`, then that the answer is not to blame. Empty when there
/// is none.
pub fn internal_text(reports: &[CaseReport]) -> String {
    let mut seen: Vec<(String, Vec<&str>)> = Vec::new();
    for r in reports.iter().filter(|r| !r.verdict.judged()) {
        let words = r
            .detail
            .as_ref()
            .map_or_else(String::new, ToString::to_string);
        match seen.iter_mut().find(|(w, _)| *w == words) {
            Some((_, names)) => names.push(&r.name),
            None => seen.push((words, vec![&r.name])),
        }
    }
    let mut s = String::new();
    for (words, names) in &seen {
        let _ = writeln!(s, "IE x{}: {}", names.len(), visible(words));
        let shown: Vec<String> = names.iter().take(10).map(|n| visible(n)).collect();
        let _ = write!(s, "  cases: {}", shown.join(", "));
        if names.len() > 10 {
            let _ = write!(s, ", and {} more", names.len() - 10);
        }
        s.push('\n');
    }
    if !seen.is_empty() {
        s += "  the answer is not to blame: these cases were not judged (tried twice)\n\n";
    }
    s
}

/// The text of one group: its count, cause and cases, then the case it shows with its
/// puzzle, expected output and output got. Ends with a newline.
pub fn group_text(g: &GroupReport) -> String {
    let mut s = format!(
        "{} x{}: {}\n",
        g.verdict.code(),
        g.cases.len(),
        visible(&g.cause)
    );
    if let Some(n) = g.evidence {
        let _ = writeln!(
            s,
            "  evidence: {} that no simpler hypothesis reproduces",
            count(n as u64, "wrong answer")
        );
    }
    for other in &g.also {
        let _ = writeln!(
            s,
            "  or equally (the run cannot tell them apart): {}",
            visible(other)
        );
    }
    const NAMED: usize = 10;
    let names: Vec<String> = g.cases.iter().take(NAMED).map(|n| visible(n)).collect();
    let _ = write!(s, "  cases: {}", names.join(", "));
    if g.cases.len() > NAMED {
        let _ = write!(s, ", and {} more", g.cases.len() - NAMED);
    }
    s.push('\n');
    shown_text(&mut s, &g.shown, g.verdict);
    if let Some(c) = &g.compare {
        compare_line(&mut s, c);
    }
    s
}

/// The case a group of `verdict` shows: its name, how it was shrunk, the puzzle to paste,
/// where the rule event first happens, how the run ended, and (unless a limit ended it)
/// the expected output and the output got, whitespace shown.
fn shown_text(s: &mut String, sh: &Shown, verdict: Verdict) {
    let _ = write!(s, "  smallest: {}", visible(&sh.name));
    if let Some(cmd) = &sh.reproduce {
        let _ = write!(s, " ({cmd})");
    }
    match sh.shrunk {
        Some(Shrink { from, to }) => {
            let (was, now) = (
                count(from.moves as u64, "move"),
                count(to.moves as u64, "move"),
            );
            let _ = writeln!(
                s,
                ", shrunk from {}x{} with {was} to {}x{} with {now}:",
                from.cols, from.rows, to.cols, to.rows
            );
        }
        None => *s += ":\n",
    }
    if let Some(why) = &sh.unshrunk {
        let _ = writeln!(s, "  (larger than 8x8 with 10 moves: {})", visible(why));
    }
    *s += &pasteable(&sh.puzzle);
    if let Some(at) = &sh.located {
        let _ = writeln!(s, "  in this case it first happens on {at}");
    }
    if let Some(d) = &sh.detail {
        block(s, "  ", &d.to_string());
    }
    if !matches!(
        verdict,
        Verdict::TimeLimit | Verdict::OutputLimit | Verdict::MemoryLimit
    ) {
        *s += "  expected (· a space, ␍ a carriage return, ⏎ a newline):\n";
        block(s, "    ", &whitespace_shown(&sh.expected));
        *s += "  got:\n";
        block(s, "    ", &whitespace_shown(&sh.got));
    }
    if let Some(tries) = sh.stopped_early {
        let _ = writeln!(
            s,
            "  shrinking stopped after {tries} smaller puzzles looked at; the smallest case \
             found so far"
        );
    }
}

/// The line that says how to see a group's compare page: the files written, or the
/// command that writes it.
fn compare_line(s: &mut String, c: &ComparePage) {
    let flags = visible(&c.flags);
    let _ = match &c.written {
        Some((puzzle, page)) => writeln!(
            s,
            "  compare page: {} (beast --html --compare \"{flags}\" {} > {})",
            visible(page),
            visible(puzzle),
            visible(page)
        ),
        None => writeln!(
            s,
            "  compare page: save the puzzle above as case.txt, then \
             beast --html --compare \"{flags}\" case.txt > case.html"
        ),
    };
}

#[cfg(test)]
mod tests {
    use super::super::tests::report;
    use super::super::{Size, Source};
    use super::*;
    use crate::beast::Rules;

    #[test]
    fn the_summary_counts_passes_failures_and_time() {
        let mut rs = [
            report("a", Verdict::Accepted),
            report("b", Verdict::Presentation),
            report("c", Verdict::WrongAnswer),
        ];
        rs[1].time_ms = 4.0;
        let mut sum = Summary::of(&rs);
        assert_eq!(sum.line(), "2 passed (1 PE), 1 failed");
        sum.flaky = 1;
        assert_eq!(sum.line(), "2 passed (1 PE), 1 flaky");
        sum.failed = 3;
        assert_eq!(sum.line(), "2 passed (1 PE), 2 failed, 1 flaky");
        (sum.failed, sum.flaky) = (1, 0);
        assert_eq!(
            sum.time_line(),
            "answer 6 ms over 3 cases (slowest b, 4.0 ms)"
        );
        sum.wall_ms = Some(3900.0);
        sum.time_total_ms = 7600.0;
        assert_eq!(
            sum.time_line(),
            "wall 3.9 s; answer 7.6 s over 3 cases (slowest b, 4.0 ms)"
        );
    }

    #[test]
    fn no_finished_case_has_no_answer_time() {
        let mut sum = Summary::of(&[]);
        // The sum of no times, which a float sum makes -0.
        sum.time_total_ms = -0.0;
        sum.wall_ms = Some(1500.0);
        assert_eq!(sum.time_line(), "wall 1.5 s; no case finished");
    }

    #[test]
    fn the_score_counts_bytes_and_characters() {
        let s = Source::measure("a.py".to_string(), "print('é')\n".as_bytes(), true);
        assert_eq!((s.bytes, s.chars), (12, 11));
        let golfed = Source::measure("a.py".to_string(), "print('é')\n".as_bytes(), false);
        assert_eq!((golfed.bytes, golfed.chars), (11, 10));
        let sum = Summary {
            source: Some(golfed),
            ..Summary::of(&[])
        };
        assert_eq!(
            sum.score_line().as_deref(),
            Some("score: 11 bytes, 10 chars (a.py); not counted: the final newline")
        );
    }

    #[test]
    fn a_wrong_answer_shows_the_diff() {
        let r = report("reaper", Verdict::WrongAnswer);
        let t = text(&r);
        assert!(t.starts_with("WA  reaper (1.2 ms)\n"), "{t}");
        assert!(t.contains("    -aHHHH!\n"), "{t}");
    }

    #[test]
    fn a_group_shows_its_count_names_and_smallest_case() {
        let g = GroupReport {
            verdict: Verdict::WrongAnswer,
            cause: "the game stops when the moves run out (--exhaust stop)".to_string(),
            cases: (0..12).map(|i| format!("random-1-{i}")).collect(),
            shown: Shown {
                name: "random-1-3".to_string(),
                puzzle: "5 3\n#####\n#O~H#\n#####\nR\n".to_string(),
                expected: "2\n".to_string(),
                got: "0\n".to_string(),
                detail: None,
                shrunk: Some(Shrink {
                    from: Size {
                        cols: 16,
                        rows: 10,
                        moves: 30,
                    },
                    to: Size {
                        cols: 5,
                        rows: 3,
                        moves: 1,
                    },
                }),
                stopped_early: Some(2000),
                reproduce: Some("beast gen --seed 99".to_string()),
                located: Some("turn 1 (move R)".to_string()),
                unshrunk: None,
            },
            compare: Some(ComparePage {
                flags: "--exhaust stop".to_string(),
                rules: Rules::OURS,
                written: None,
            }),
            also: vec!["another reading".to_string()],
            evidence: Some(12),
            event: None,
            confirmation: None,
        };
        let t = group_text(&g);
        assert!(
            t.contains("beast --html --compare \"--exhaust stop\" case.txt > case.html"),
            "{t}"
        );
        assert!(t.starts_with("WA x12: the game stops"), "{t}");
        assert!(t.contains("random-1-9, and 2 more\n"), "{t}");
        assert!(
            t.contains("shrunk from 16x10 with 30 moves to 5x3 with 1 move:\nbeast <<'EOF'\n5 3\n"),
            "{t}"
        );
        assert!(t.contains("  got:\n    0⏎\n"), "{t}");
        assert!(
            t.contains("  evidence: 12 wrong answers that no simpler"),
            "{t}"
        );
        assert!(t.contains("  or equally (the run cannot tell them apart): another reading\n"));
        assert!(
            t.contains("\nbeast <<'EOF'\n5 3\n#####\n#O~H#\n#####\nR\nEOF\n"),
            "{t}"
        );
        assert!(
            t.contains("  in this case it first happens on turn 1 (move R)\n"),
            "{t}"
        );
        assert!(
            t.contains("shrinking stopped after 2000 smaller puzzles looked at; the smallest case found so far"),
            "{t}"
        );
    }
}
