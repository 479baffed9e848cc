//! The results of a check run and their renderings: the text report and JUnit XML; the
//! JSON lines are the typed records of [`record`](crate::judge::record), made from these
//! types.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::beast::{Rules, variant};
use crate::judge::diagnose::{Cause, Diagnosis, Explanation, Hypothesis, STRONG, Shape, Status};
use crate::judge::post::LeftOut;
use crate::judge::robustness::RobustnessReport;
use crate::judge::termination::Termination;
use crate::judge::verdict::{Verdict, unified_diff};
use crate::words::{count, mib};

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
    /// Original size and move count: `(cols, rows, moves)`.
    pub from: (usize, usize, usize),
    /// Shrunk size and move count: `(cols, rows, moves)`.
    pub to: (usize, usize, usize),
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
    /// Set when shrinking ran out of its budget: the seconds it had.
    pub stopped_early: Option<f64>,
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
            sentence: sentence(d),
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

/// The diagnosis in one sentence.
fn sentence(d: &Diagnosis) -> String {
    let say = |e: &Explanation| e.hypothesis.words();
    // Only a rule event locates a mistake in the rules (not an output shape or a trait).
    let located = d
        .groups
        .iter()
        .any(|g| matches!(&g.cause, Cause::Own { suspect: Some(s) } if s.event.event().is_some()));
    let flaky = d
        .groups
        .iter()
        .find(|g| matches!(g.cause, Cause::Flaky { .. }));
    let crashed = match d.crashed {
        0 => String::new(),
        n if d.wrong == 0 => format!(
            ": {n} {} failed without an answer (see the groups).",
            cases(n)
        ),
        n => format!(
            " {n} more {} failed without an answer (see the groups).",
            cases(n)
        ),
    };
    let early = if d.stopped_early {
        " The search stopped early, at its time budget: it covers the hypotheses tried."
    } else {
        ""
    };
    let wrong_answers = |n: usize| {
        if n == 1 {
            "wrong answer"
        } else {
            "wrong answers"
        }
    };
    let mut text = match (d.status, d.readings.split_first()) {
        (Status::Correct, _) => {
            let mut t = format!("correct on all {} {}", d.outputs, cases(d.outputs));
            if d.presentation > 0 {
                t += &format!(
                    ", {} of them with only whitespace differing (PE, see the group)",
                    d.presentation
                );
            }
            t + "."
        }
        (Status::Explained, Some((first, rest))) => {
            let what = match first.hypothesis {
                Hypothesis::Reading {
                    rules,
                    shape: Shape::Same,
                } if rules != Rules::OURS => format!(
                    "what beast {} prints: {}",
                    variant::flags(rules),
                    variant::words(rules)
                ),
                h => format!("what one hypothesis gives: {}", h.words()),
            };
            let mut t = format!(
                "all {} outputs ({} passed, {} failed) are {what}. Evidence: {} {} that no \
                 simpler hypothesis reproduces.",
                d.outputs,
                d.passed,
                d.wrong,
                first.evidence,
                wrong_answers(first.evidence),
            );
            if !rest.is_empty() {
                let others: Vec<String> = rest.iter().map(say).collect();
                t += &format!(
                    " Equally consistent with every case run: {}.",
                    others.join("; ")
                );
            }
            t
        }
        (Status::Consistent, Some((first, rest))) => {
            let mut t = format!(
                "consistent with {} (weak evidence: {} {}, fewer than {STRONG}); run more cases (--random 200) to tell",
                say(first),
                first.evidence,
                wrong_answers(first.evidence),
            );
            if !rest.is_empty() {
                let others: Vec<String> = rest.iter().map(say).collect();
                t += &format!(", or with {}", others.join("; or "));
            }
            t + "."
        }
        (Status::Partial, Some((first, _))) => format!(
            "no one hypothesis explains every output. {} of the {} wrong answers are: {}; the rest looks like a mistake of the answer's own (see the groups).",
            first.reproduces,
            first.of,
            say(first),
        ),
        _ if d.wrong == 0 && d.crashed > 0 => "no wrong answer to explain".to_string(),
        _ if d.wrong == 0 => "no wrong answer to explain.".to_string(),
        _ => format!(
            "no known reading or output hypothesis reproduces the {} {} without breaking a passing case: it looks like a mistake of the answer's own ({}).",
            d.wrong,
            wrong_answers(d.wrong),
            match located {
                true => "the groups locate it in the rules",
                false => "see the groups",
            }
        ),
    };
    if let Some(g) = flaky {
        text = format!(
            "the answer is nondeterministic: {} {} gave another output when run again (the \
             first group). Of the other cases: {text}",
            g.cases.len(),
            cases(g.cases.len())
        );
    }
    text += &crashed;
    if d.disputed > 0 {
        text += &format!(
            " {} {} the engine's own answer where the case file expects another: the expected \
             output may be wrong.",
            d.disputed,
            if d.disputed == 1 {
                "output is"
            } else {
                "outputs are"
            }
        );
    }
    text += early;
    text
}

fn cases(n: usize) -> &'static str {
    if n == 1 { "case" } else { "cases" }
}

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

/// Passed and failed counts, the time taken and the golf score.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Of those, the ones where only whitespace differs (PE).
    pub presentation: usize,
    /// Cases that failed.
    pub failed: usize,
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
            internal,
            time_total_ms: reports.iter().map(|r| r.time_ms).sum(),
            slowest,
            largest,
            source: None,
            wall_ms: None,
            interrupted: None,
        }
    }

    /// The memory line, where the sandbox measured memory: `memory: peak 12.5 MiB
    /// (random-1-3)`.
    pub fn memory_line(&self) -> Option<String> {
        let (name, bytes) = self.largest.as_ref()?;
        Some(format!("memory: peak {} ({})", mib(*bytes), visible(name)))
    }

    /// The summary line, `N passed, N failed`, or `N passed (K PE), N failed`, and `, K
    /// not judged (IE)` when the judge failed on some.
    pub fn line(&self) -> String {
        let mut line = match self.presentation {
            0 => format!("{} passed, {} failed", self.passed, self.failed),
            pe => format!("{} passed ({pe} PE), {} failed", self.passed, self.failed),
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

/// True for characters a report never prints raw: control characters other than tab and
/// newline (C0 and C1), the Unicode line and paragraph separators (U+2028, U+2029, line
/// breaks like the others), and the format characters that reorder or hide text
/// (bidirectional overrides and isolates, zero-width characters, the byte-order mark).
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c,
            '\u{00ad}' | '\u{061c}' | '\u{180e}' | '\u{200b}'..='\u{200f}'
            | '\u{2028}' | '\u{2029}'
            | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}')
}

/// `line` with every `hidden` character (and newlines) written as an escape such as
/// `\u{1b}` or `\u{202e}`, so a candidate's output cannot drive the terminal, or reorder
/// the text, of whoever reads the report.
pub fn visible(line: &str) -> String {
    line.chars()
        .map(|c| {
            if hidden(c) || c == '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// JSON text with every `hidden` character inside its strings written as a `\uXXXX`
/// escape (serde_json escapes only C0 controls). The value is unchanged.
pub fn json_text(value: &serde_json::Value) -> String {
    let mut s = String::new();
    for c in value.to_string().chars() {
        if hidden(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(s, "\\u{u:04x}");
            }
        } else {
            s.push(c);
        }
    }
    s
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
    let sh = &g.shown;
    let _ = write!(s, "  smallest: {}", visible(&sh.name));
    if let Some(cmd) = &sh.reproduce {
        let _ = write!(s, " ({cmd})");
    }
    match sh.shrunk {
        Some(Shrink { from, to }) => {
            let (was, now) = (count(from.2 as u64, "move"), count(to.2 as u64, "move"));
            let _ = writeln!(
                s,
                ", shrunk from {}x{} with {was} to {}x{} with {now}:",
                from.0, from.1, to.0, to.1
            );
        }
        None => s += ":\n",
    }
    if let Some(why) = &sh.unshrunk {
        let _ = writeln!(s, "  (larger than 8x8 with 10 moves: {})", visible(why));
    }
    s += &pasteable(&sh.puzzle);
    if let Some(at) = &sh.located {
        let _ = writeln!(s, "  in this case it first happens on {at}");
    }
    if let Some(d) = &sh.detail {
        block(&mut s, "  ", &d.to_string());
    }
    if !matches!(
        g.verdict,
        Verdict::TimeLimit | Verdict::OutputLimit | Verdict::MemoryLimit
    ) {
        s += "  expected (· a space, ␍ a carriage return, ⏎ a newline):\n";
        block(&mut s, "    ", &whitespace_shown(&sh.expected));
        s += "  got:\n";
        block(&mut s, "    ", &whitespace_shown(&sh.got));
    }
    if let Some(secs) = sh.stopped_early {
        let _ = writeln!(
            s,
            "  shrinking stopped after {secs} s; the smallest case found so far"
        );
    }
    if let Some(c) = &g.compare {
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
    s
}

/// `text` with its whitespace made visible, as code.golf's diff shows it: `·` for a
/// space, `␍` for a carriage return, `⏎` at the end of each line that has a newline.
pub fn whitespace_shown(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            ' ' => s.push('·'),
            '\r' => s.push('␍'),
            '\n' => s += "⏎\n",
            c => s.push(c),
        }
    }
    s
}

/// A puzzle, whole, as a shell command that judges it: `beast <<'EOF'` and the puzzle, or,
/// when it holds a carriage return or a character a terminal would not show, a `printf`
/// of its exact bytes piped into `beast`.
pub fn pasteable(puzzle: &str) -> String {
    let plain = puzzle.ends_with('\n')
        && !puzzle.lines().any(|l| l == "EOF")
        && puzzle
            .chars()
            .all(|c| c == '\n' || !(hidden(c) || c == '\r'));
    if plain {
        return format!("beast <<'EOF'\n{puzzle}EOF\n");
    }
    let mut body = String::new();
    for c in puzzle.chars() {
        match c {
            '\\' => body += "\\\\",
            '\'' => body += "'\\''",
            '%' => body += "%%",
            '\n' => body += "\\n",
            '\r' => body += "\\r",
            c if hidden(c) || !c.is_ascii() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(body, "\\{b:03o}");
                }
            }
            c => body.push(c),
        }
    }
    format!("printf '{body}' | beast\n")
}

/// Escapes text for XML 1.0 content and attributes. Characters XML cannot hold at all
/// (most control characters) become U+FFFD; the other `hidden` ones are written as
/// visible escapes such as `\u{202e}`.
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
            c if hidden(c) => s += &c.escape_unicode().to_string(),
            c => s.push(c),
        }
    }
    s
}

/// One JUnit `<testsuite>`: an answer's cases, its diagnosis and its sandbox line.
#[derive(Clone, Copy, Debug)]
pub struct Suite<'a> {
    /// The suite's name.
    pub name: &'a str,
    /// Its cases.
    pub reports: &'a [CaseReport],
    /// Its diagnosis.
    pub diagnosis: &'a DiagnosisReport,
    /// How its answer was contained.
    pub sandbox: &'a str,
}

/// A JUnit XML report: one `<testsuite>` named `suite` with a `<testcase>` per case, and a
/// `<failure>` (type = the verdict) on each failing one, whose message is its group's
/// cause and whose text holds the run's diagnosis and the case's own report. The suite's
/// `sandbox` property says how the candidate was contained.
pub fn junit(suite: &str, reports: &[CaseReport], d: &DiagnosisReport, sandbox: &str) -> String {
    junit_suites(
        suite,
        &[Suite {
            name: suite,
            reports,
            diagnosis: d,
            sandbox,
        }],
    )
}

/// A JUnit XML report named `name` with one `<testsuite>` per answer, as [`junit`] makes
/// for one.
pub fn junit_suites(name: &str, suites: &[Suite]) -> String {
    let sums: Vec<Summary> = suites.iter().map(|x| Summary::of(x.reports)).collect();
    let tests: usize = suites.iter().map(|x| x.reports.len()).sum();
    let failures: usize = sums.iter().map(|x| x.failed).sum();
    let errors: usize = sums.iter().map(|x| x.internal).sum();
    let total: f64 = sums.iter().map(|x| x.time_total_ms).sum::<f64>() / 1000.0;
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        xml_escape(name)
    );
    for (x, sum) in suites.iter().zip(&sums) {
        suite_xml(&mut s, x, sum);
    }
    s += "</testsuites>\n";
    s
}

/// One `<testsuite>` element.
fn suite_xml(s: &mut String, x: &Suite, sum: &Summary) {
    let (reports, d) = (x.reports, x.diagnosis);
    let total = sum.time_total_ms / 1000.0;
    let suite = xml_escape(x.name);
    let _ = writeln!(
        s,
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{total:.3}\">",
        reports.len(),
        sum.failed,
        sum.internal
    );
    let _ = writeln!(
        s,
        "    <properties>\n      <property name=\"sandbox\" value=\"{}\"/>\n    </properties>",
        xml_escape(x.sandbox)
    );
    for r in reports {
        let _ = write!(
            s,
            "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\"",
            xml_escape(&r.name),
            r.time_ms / 1000.0
        );
        if r.passed {
            *s += "/>\n";
            continue;
        }
        if !r.verdict.judged() {
            // The judge's failure, not the answer's: an error, as JUnit tells a test
            // that could not run from one that failed.
            let message = r
                .detail
                .as_ref()
                .map_or_else(String::new, ToString::to_string);
            let _ = writeln!(
                s,
                ">\n      <error type=\"IE\" message=\"{}\">{}</error>\n    </testcase>",
                xml_escape(&message),
                xml_escape(&text(r))
            );
            continue;
        }
        let message = d
            .group_of(&r.name)
            .map(|g| g.cause.clone())
            .or_else(|| r.detail.as_ref().map(ToString::to_string))
            .unwrap_or_else(|| r.verdict.code().to_string());
        let body = format!("diagnosis: {}\n{}", d.sentence, text(r));
        let _ = writeln!(
            s,
            ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
            r.verdict.code(),
            xml_escape(&message),
            xml_escape(&body)
        );
    }
    *s += "  </testsuite>\n";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_a_report_are_escaped() {
        assert_eq!(visible("-8\x1b[31m\x01\tok"), "-8\\u{1b}[31m\\u{1}\tok");
    }

    #[test]
    fn bidi_format_and_c1_characters_are_escaped_everywhere() {
        let evil = "ok\u{202e}kO\u{85}\u{9b}31m\u{200b}";
        assert_eq!(visible(evil), "ok\\u{202e}kO\\u{85}\\u{9b}31m\\u{200b}");
        let json = json_text(&serde_json::json!({ "got": evil }));
        assert!(json.is_ascii(), "{json}");
        assert!(
            json.contains("\\u202e") && json.contains("\\u0085"),
            "{json}"
        );
        let back: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(back["got"], evil);
        let xml = xml_escape(evil);
        assert!(
            !xml.contains('\u{202e}') && !xml.contains('\u{85}'),
            "{xml}"
        );
    }

    #[test]
    fn unicode_line_and_paragraph_separators_are_escaped_like_other_line_breaks() {
        let broken = "2\u{2028}aHHHH!\u{2029}0";
        assert_eq!(visible(broken), "2\\u{2028}aHHHH!\\u{2029}0");
        let json = json_text(&serde_json::json!({ "got": broken }));
        assert!(
            json.contains("\\u2028") && json.contains("\\u2029"),
            "{json}"
        );
        let xml = xml_escape(broken);
        assert!(
            !xml.contains('\u{2028}') && !xml.contains('\u{2029}'),
            "{xml}"
        );
    }

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

    fn diagnosis() -> DiagnosisReport {
        DiagnosisReport {
            status: Status::Unexplained,
            sentence: "it looks like a mistake".to_string(),
            explained_by: Vec::new(),
            groups: Vec::new(),
            robustness: None,
        }
    }

    fn diagnosed(status: Status, readings: Vec<Explanation>) -> Diagnosis {
        Diagnosis {
            status,
            readings,
            groups: Vec::new(),
            presentation: 0,
            outputs: 40,
            passed: 28,
            wrong: 12,
            crashed: 0,
            disputed: 0,
            stopped_early: false,
        }
    }

    #[test]
    fn each_diagnosis_says_what_it_found_in_one_sentence() {
        let stop = crate::beast::variant::find("exhaust-stop")
            .map(|v| v.apply(crate::beast::Rules::OURS))
            .expect("in the catalogue");
        let e = Explanation {
            hypothesis: Hypothesis::reading(stop),
            reproduces: 12,
            of: 12,
            breaks: 0,
            evidence: 12,
        };
        assert_eq!(
            sentence(&diagnosed(Status::Explained, vec![e])),
            "all 40 outputs (28 passed, 12 failed) are what beast --exhaust stop prints: the \
             game stops when the moves run out. Evidence: 12 wrong answers that no simpler \
             hypothesis reproduces."
        );
        let weak = Explanation { evidence: 1, ..e };
        let consistent = sentence(&diagnosed(Status::Consistent, vec![weak]));
        assert!(
            consistent.starts_with(
                "consistent with the game stops when the moves run out (--exhaust stop) \
                 (weak evidence: 1 wrong answer, fewer than 3)"
            ),
            "{consistent}"
        );
        let part = Explanation { reproduces: 7, ..e };
        let partial = sentence(&diagnosed(Status::Partial, vec![part]));
        assert!(
            partial.contains("7 of the 12 wrong answers are: the game stops"),
            "{partial}"
        );
        let mut crashed = diagnosed(Status::Unexplained, Vec::new());
        (crashed.wrong, crashed.crashed, crashed.stopped_early) = (0, 3, true);
        let said = sentence(&crashed);
        assert!(
            said.starts_with("no wrong answer to explain: 3 cases failed without an answer"),
            "{said}"
        );
        assert!(said.contains("The search stopped early"), "{said}");
    }

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
                    from: (16, 10, 30),
                    to: (5, 3, 1),
                }),
                stopped_early: Some(10.0),
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
            t.contains("shrinking stopped after 10 s; the smallest case found so far"),
            "{t}"
        );
    }

    #[test]
    fn whitespace_is_shown_visibly() {
        assert_eq!(whitespace_shown("aHHHH! 0\r\n"), "aHHHH!·0␍⏎\n");
    }

    #[test]
    fn a_puzzle_with_carriage_returns_is_shown_as_its_exact_bytes() {
        assert_eq!(
            pasteable("3 3\r\n###\r\n#O#\r\n###\r\nW'\n"),
            "printf '3 3\\r\\n###\\r\\n#O#\\r\\n###\\r\\nW'\\''\\n' | beast\n"
        );
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
        let x = junit("beast check", &rs, &diagnosis(), "sandbox: none");
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("<testcase name=\"ok\""), "{x}");
        assert!(x.contains("<failure type=\"RTE\""), "{x}");
        assert!(x.contains("bad&lt;1&gt;"), "{x}");
        assert!(x.contains("diagnosis: it looks like a mistake"), "{x}");
        assert!(
            x.contains("<property name=\"sandbox\" value=\"sandbox: none\"/>"),
            "{x}"
        );
    }
}
