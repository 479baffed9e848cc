//! The diagnosis in words: a group's cause ([`describe`]) and a format-only difference
//! ([`format_difference`]).

use crate::judge::diagnose::findings::{Cause, STRONG};
use crate::judge::verdict::Verdict;

/// What differs between `expected` and `got` when only whitespace does, in words.
pub fn format_difference(expected: &str, got: &[u8]) -> String {
    let got = String::from_utf8_lossy(got);
    let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let mut said = Vec::new();
    if lines(expected) > 1 && lines(&got) == 1 {
        said.push("prints the answer on one line");
    } else if lines(&got) != lines(expected) {
        said.push("splits the answer over other lines");
    }
    if got.contains('\r') {
        said.push("ends lines with CRLF");
    }
    if got.lines().any(|l| l != l.trim()) || got.contains("  ") {
        said.push("adds spaces");
    }
    if !got.ends_with('\n') {
        said.push("leaves out the last newline");
    } else if got.ends_with("\n\n") {
        said.push("adds blank lines");
    }
    if said.is_empty() {
        said.push("changes whitespace");
    }
    format!("format only (PE): it {}", said.join(", "))
}

/// At most 40 characters of `text`, with `...` when cut.
fn short(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Plain words for a group's cause: the hypothesis (with its evidence when it is weak),
/// the suspect rule event of the answer's own mistake, or the verdict.
pub fn describe(cause: &Cause) -> String {
    match cause {
        Cause::EngineAgrees => "the engine's answer under our readings: the expected output \
                                file may be wrong"
            .to_string(),
        Cause::Hypothesis { head, .. } if head.evidence < STRONG => format!(
            "consistent with: {} (weak evidence: {} wrong {}; try --random 200)",
            head.hypothesis.words(),
            head.evidence,
            if head.evidence == 1 {
                "answer"
            } else {
                "answers"
            }
        ),
        Cause::Hypothesis { head, .. } => head.hypothesis.words(),
        Cause::Own { suspect: Some(s) } => {
            format!("a mistake of the answer's own: {}", s.words())
        }
        Cause::Own { suspect: None } => {
            "a mistake of the answer's own (no rule event sets these cases apart)".to_string()
        }
        Cause::Format { how } => how.clone(),
        Cause::Flaky {
            name,
            outputs,
            verdicts,
        } => {
            // Each run's verdict is said where they differ (an RTE once, a clean exit once).
            let apart = verdicts.windows(2).any(|w| w[0] != w[1]);
            let runs: Vec<String> = outputs
                .iter()
                .zip(verdicts)
                .map(|(o, v)| {
                    let printed = match o.split_whitespace().collect::<Vec<_>>() {
                        w if w.is_empty() => "nothing".to_string(),
                        w => format!("`{}`", short(&w.join("`/`"))),
                    };
                    match apart {
                        true => format!("{printed} ({})", v.code()),
                        false => printed,
                    }
                })
                .collect();
            format!(
                "flaky: {name} gave {} (the answer is nondeterministic: no rule is blamed for these cases)",
                runs.join(", ")
            )
        }
        Cause::Verdict {
            verdict,
            got,
            suspect,
        } => {
            let what = match (verdict, got) {
                (Verdict::WrongAnswer, Some(g)) => format!("prints {:?}, not an answer", short(g)),
                (Verdict::WrongAnswer, None) => "prints something that is not an answer".into(),
                (Verdict::TimeLimit, _) => "ran past the time limit".into(),
                (Verdict::RuntimeError, _) => "exited with an error or a signal".into(),
                (Verdict::OutputLimit, _) => "printed more than the output limit".into(),
                (Verdict::MemoryLimit, _) => "used more than the memory limit".into(),
                _ => "a wrong answer".into(),
            };
            match suspect {
                Some(s) if s.exact() => format!("{what}: {}", s.words()),
                _ => what,
            }
        }
    }
}
