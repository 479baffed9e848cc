//! Shards that merge into one report: the header a shard's JSON output starts with, the
//! case records it carries, the checks that the shards belong together, and the run
//! rebuilt from them as if one machine had run every case.
//!
//! A shard's output (`beast check --shard K/N --format json`) is one [`Record`] a line:
//! the [`Header`] first, then one case record per case (with `answer`, `index`, `puzzle`
//! and `gen`), then one summary per answer, and the leaderboard for `--answers`. Each line
//! is read by its `type`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::beast::Puzzle;
use crate::judge::cases::{Case, Origin, Shard, ShardError};
use crate::judge::record::{AnswerHeader, CaseRecord, Header, Record};
use crate::judge::report::{CaseReport, Source};
use crate::judge::robustness::TextForms;
use crate::judge::termination::Termination;
use crate::judge::verdict::Verdict;

/// A 64-bit FNV-1a fingerprint of `parts` (each part delimited), in hex: stable across
/// machines and builds, unlike the standard library's hasher.
pub fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for part in parts {
        for &b in (part.len() as u64).to_le_bytes().iter().chain(part) {
            eat(b);
        }
    }
    format!("{h:016x}")
}

/// One shard output to merge: its file name (for messages) and its records with their
/// line numbers.
#[derive(Clone, Debug)]
pub struct ShardFile {
    /// The file, as the user named it.
    pub file: String,
    /// Each record's line number (from 1) and the record; the header first.
    pub records: Vec<(usize, Record)>,
}

/// Only the kind of a line, to tell a header that does not read from a line that is no
/// header at all.
#[derive(Deserialize)]
struct Kind {
    #[serde(rename = "type")]
    kind: Option<String>,
}

impl ShardFile {
    /// Reads the shard output `text` of `file`, one record a line (blank lines skipped).
    pub fn parse(file: &str, text: &str) -> Result<ShardFile, MergeError> {
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let first = records.is_empty();
            let record = serde_json::from_str::<Record>(line).map_err(|e| {
                let kind = serde_json::from_str::<Kind>(line).ok().and_then(|k| k.kind);
                match (e.classify(), first, kind.as_deref()) {
                    (serde_json::error::Category::Data, true, Some("header")) => {
                        MergeError::BadHeader {
                            file: file.to_string(),
                            reason: json_error(&e),
                        }
                    }
                    (serde_json::error::Category::Data, true, _) => MergeError::NoHeader {
                        file: file.to_string(),
                    },
                    (serde_json::error::Category::Data, false, _) => MergeError::BadRecord {
                        file: file.to_string(),
                        line: i + 1,
                        reason: format!(
                            "not a record of `beast check --format json`: {}",
                            json_error(&e)
                        ),
                    },
                    _ => MergeError::BadRecord {
                        file: file.to_string(),
                        line: i + 1,
                        reason: format!(
                            "not a line of `beast check --format json` output: {}",
                            json_error(&e)
                        ),
                    },
                }
            })?;
            records.push((i + 1, record));
        }
        Ok(ShardFile {
            file: file.to_string(),
            records,
        })
    }
}

/// Why shards cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No input.
    #[error("nothing to merge: name the shard outputs")]
    Nothing,
    /// A file without a shard header.
    #[error(
        "{file}: not a shard output: its first line is not the header that `beast check --shard K/N --format json` prints"
    )]
    NoHeader {
        /// The file.
        file: String,
    },
    /// A header that does not read.
    #[error("{file}:1: the shard header does not read: {reason}")]
    BadHeader {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// Shards of different `beast` versions.
    #[error(
        "{file} was made by beast {found}, {first} by beast {expected}: run every shard with the same version"
    )]
    DifferentVersions {
        /// The file that differs.
        file: String,
        /// Its version.
        found: String,
        /// The first file.
        first: String,
        /// The first file's version.
        expected: String,
    },
    /// Shards of splits into different counts.
    #[error(
        "{file} is shard {found}, but {first} is shard {expected}: the shards split the cases differently"
    )]
    DifferentCounts {
        /// The file that differs.
        file: String,
        /// Its K/N.
        found: String,
        /// The first file.
        first: String,
        /// The first file's K/N.
        expected: String,
    },
    /// Shards of random cases from different seeds.
    #[error(
        "{file} ran random cases from seed {found:?}, {first} from seed {expected:?}: the shards must share a seed"
    )]
    DifferentSeeds {
        /// The file that differs.
        file: String,
        /// Its seed.
        found: Option<u64>,
        /// The first file.
        first: String,
        /// The first file's seed.
        expected: Option<u64>,
    },
    /// Shards of different case lists.
    #[error(
        "{file} split a different case set from {first} ({found_cases} cases, fingerprint {found}, against {expected_cases}, {expected}): run every shard with the same case options and files"
    )]
    DifferentCases {
        /// The file that differs.
        file: String,
        /// Its case count.
        found_cases: usize,
        /// Its fingerprint.
        found: String,
        /// The first file.
        first: String,
        /// The first file's case count.
        expected_cases: usize,
        /// The first file's fingerprint.
        expected: String,
    },
    /// Shards of different answers.
    #[error(
        "{file} ran other answers than {first} ({found} against {expected}): run every shard with the same answers"
    )]
    DifferentAnswers {
        /// The file that differs.
        file: String,
        /// Its answers.
        found: String,
        /// The first file.
        first: String,
        /// The first file's answers.
        expected: String,
    },
    /// The same shard twice.
    #[error("shard {shard} is given twice: {files}")]
    DuplicateShard {
        /// Its K/N.
        shard: String,
        /// The files that hold it.
        files: String,
    },
    /// Shards missing.
    #[error("{file}:1: {missing} of {count} {verb} missing: merge every shard")]
    MissingShards {
        /// The first file, whose header says N.
        file: String,
        /// The missing Ks in words: `shard 2`, `shards 2, 3 and 40 more`.
        missing: String,
        /// N.
        count: usize,
        /// `is` or `are`.
        verb: &'static str,
    },
    /// A line that is not a case record, summary or header.
    #[error("{file}:{line}: {reason}")]
    BadRecord {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A shard that lost lines (its summary does not match its records).
    #[error("{file}: the shard is incomplete: {reason}")]
    Incomplete {
        /// The file.
        file: String,
        /// What is missing.
        reason: String,
    },
}

/// One answer of the merged run: its cases in the order of the whole list.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedAnswer {
    /// The answer's name.
    pub name: String,
    /// Its golf score, if known.
    pub source: Option<Source>,
    /// Every case it ran, with its report, in list order.
    pub ran: Vec<(Case, CaseReport)>,
    /// Why it could not start, if a shard says it could not.
    pub cannot_start: Option<String>,
}

/// The merged run.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The header the shards share (of the first shard given).
    pub header: Header,
    /// Each answer's run.
    pub answers: Vec<MergedAnswer>,
}

/// Checks that `shards` are the N shards of one run and rebuilds that run: every case
/// exactly once, in the order of the whole list.
pub fn merge(shards: &[ShardFile]) -> Result<Merged, MergeError> {
    let headers = shards
        .iter()
        .map(header_of)
        .collect::<Result<Vec<(Header, Shard)>, MergeError>>()?;
    let ((first, first_shard), first_file) = match (headers.first(), shards.first()) {
        (Some(h), Some(f)) => (h, &f.file),
        _ => return Err(MergeError::Nothing),
    };
    for ((h, shard), f) in headers.iter().zip(shards).skip(1) {
        agree(first, *first_shard, first_file, h, *shard, &f.file)?;
    }
    let mut by_index: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for ((_, shard), f) in headers.iter().zip(shards) {
        by_index.entry(shard.index).or_default().push(&f.file);
    }
    if let Some((k, files)) = by_index.iter().find(|(_, files)| files.len() > 1) {
        return Err(MergeError::DuplicateShard {
            shard: format!("{k}/{}", first_shard.count),
            files: files.join(", "),
        });
    }
    // Every K lies in 1..=N and none repeats, so the count of those missing is known
    // without listing them: a header may claim billions of shards.
    let missing = first_shard.count - by_index.len();
    if missing > 0 {
        let named: Vec<String> = (1..=first_shard.count)
            .filter(|k| !by_index.contains_key(k))
            .take(MISSING_NAMED)
            .map(|k| k.to_string())
            .collect();
        return Err(MergeError::MissingShards {
            file: first_file.clone(),
            missing: missing_words(&named, missing),
            count: first_shard.count,
            verb: if missing == 1 { "is" } else { "are" },
        });
    }
    let mut answers: Vec<BTreeMap<usize, (Case, CaseReport)>> =
        first.answers.iter().map(|_| BTreeMap::new()).collect();
    let mut cannot_start: Vec<Option<String>> = first.answers.iter().map(|_| None).collect();
    for ((_, shard), f) in headers.iter().zip(shards) {
        records_of(f, *shard, first, &mut answers, &mut cannot_start)?;
    }
    Ok(Merged {
        header: Header {
            shard: format!("merged {}", first_shard.count),
            ..first.clone()
        },
        answers: first
            .answers
            .iter()
            .zip(answers.into_iter().zip(cannot_start))
            .map(|(a, (ran, cannot_start))| MergedAnswer {
                name: a.name.clone(),
                source: a.source.clone(),
                ran: ran.into_values().collect(),
                cannot_start,
            })
            .collect(),
    })
}

/// The most missing shards a refusal names one by one.
const MISSING_NAMED: usize = 10;

/// The missing shards in words: `shard 2`, `shards 2, 4`, or the first ones `named` and
/// how many more of the `missing`.
fn missing_words(named: &[String], missing: usize) -> String {
    match (named, missing - named.len()) {
        ([one], 0) => format!("shard {one}"),
        (_, 0) => format!("shards {}", named.join(", ")),
        (_, more) => format!("shards {} and {more} more", named.join(", ")),
    }
}

/// The header of a shard file and its K/N.
fn header_of(f: &ShardFile) -> Result<(Header, Shard), MergeError> {
    let Some((_, Record::Header(header))) = f.records.first() else {
        return Err(MergeError::NoHeader {
            file: f.file.clone(),
        });
    };
    let shard: Shard = header
        .shard
        .parse()
        .map_err(|e: ShardError| MergeError::BadHeader {
            file: f.file.clone(),
            reason: e.to_string(),
        })?;
    Ok((header.clone(), shard))
}

/// An error unless shard `h` (of `file`) belongs with the first one.
fn agree(
    first: &Header,
    first_shard: Shard,
    first_file: &str,
    h: &Header,
    shard: Shard,
    file: &str,
) -> Result<(), MergeError> {
    let (file, first_name) = (file.to_string(), first_file.to_string());
    if h.version != first.version {
        return Err(MergeError::DifferentVersions {
            file,
            found: h.version.clone(),
            first: first_name,
            expected: first.version.clone(),
        });
    }
    if shard.count != first_shard.count {
        return Err(MergeError::DifferentCounts {
            file,
            found: shard.to_string(),
            first: first_name,
            expected: first_shard.to_string(),
        });
    }
    if h.seed != first.seed {
        return Err(MergeError::DifferentSeeds {
            file,
            found: h.seed,
            first: first_name,
            expected: first.seed,
        });
    }
    if h.fingerprint != first.fingerprint || h.cases != first.cases {
        return Err(MergeError::DifferentCases {
            file,
            found_cases: h.cases,
            found: h.fingerprint.clone(),
            first: first_name,
            expected_cases: first.cases,
            expected: first.fingerprint.clone(),
        });
    }
    if h.answers != first.answers {
        let said = |a: &[AnswerHeader]| {
            let names: Vec<String> = a
                .iter()
                .map(|a| match &a.source {
                    Some(s) => format!("{} ({} bytes)", a.name, s.bytes),
                    None => a.name.clone(),
                })
                .collect();
            names.join(", ")
        };
        return Err(MergeError::DifferentAnswers {
            file,
            found: said(&h.answers),
            first: first_name,
            expected: said(&first.answers),
        });
    }
    Ok(())
}

/// Adds the case records of shard file `f` to `answers` (one map per answer, by index),
/// checking each belongs to the shard, none repeats, and each answer's summary counts
/// them all; an answer's summary that says it could not start goes to `cannot_start`.
fn records_of(
    f: &ShardFile,
    shard: Shard,
    header: &Header,
    answers: &mut [BTreeMap<usize, (Case, CaseReport)>],
    cannot_start: &mut [Option<String>],
) -> Result<(), MergeError> {
    let mut counted: Vec<usize> = vec![0; answers.len()];
    let mut summarized: BTreeSet<usize> = BTreeSet::new();
    for (line, record) in f.records.iter().skip(1) {
        let bad = |reason: String| MergeError::BadRecord {
            file: f.file.clone(),
            line: *line,
            reason,
        };
        let (answer, total) = match record {
            Record::Leaderboard(_) => continue,
            Record::Header(_) => return Err(bad("a second header".to_string())),
            Record::Case(case) => {
                let answer = answer_of(case.answer.as_deref(), header).map_err(&bad)?;
                let (index, case, report) = case_of(case).map_err(&bad)?;
                if index >= header.cases || !shard.contains(index) {
                    return Err(bad(format!(
                        "case {} at position {index} is not in shard {shard} of {} cases",
                        report.name, header.cases
                    )));
                }
                if answers[answer].contains_key(&index) {
                    return Err(bad(format!(
                        "case {} of answer {} is given twice",
                        report.name, header.answers[answer].name
                    )));
                }
                // The summary counts the challenge's cases; the robustness set is apart.
                counted[answer] += usize::from(!report.robustness);
                answers[answer].insert(index, (case, report));
                continue;
            }
            Record::Summary(summary) => (
                answer_of(summary.answer.as_deref(), header).map_err(&bad)?,
                summary.total,
            ),
            Record::CannotStart(c) => {
                let answer = answer_of(Some(&c.answer), header).map_err(&bad)?;
                cannot_start[answer].get_or_insert_with(|| c.cannot_start.clone());
                (answer, c.total)
            }
        };
        summarized.insert(answer);
        if total != counted[answer] {
            return Err(MergeError::Incomplete {
                file: f.file.clone(),
                reason: format!(
                    "answer {} sums up {total} cases, but {} case records precede it",
                    header.answers[answer].name, counted[answer]
                ),
            });
        }
    }
    if let Some(a) = (0..answers.len()).find(|a| !summarized.contains(a)) {
        return Err(MergeError::Incomplete {
            file: f.file.clone(),
            reason: format!(
                "no summary of answer {}: the shard's output was cut short",
                header.answers[a].name
            ),
        });
    }
    Ok(())
}

/// The position in the header's answers of the answer a record is about: the one it
/// names, or the only answer.
fn answer_of(name: Option<&str>, header: &Header) -> Result<usize, String> {
    match name {
        Some(name) => header
            .answers
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| format!("answer {name:?} is not in the shard header")),
        None if header.answers.len() == 1 => Ok(0),
        None => Err("a record without its answer".to_string()),
    }
}

/// Whether a recorded case passed, from its verdict alone: AC passes, and PE unless the
/// shard ran under `--strict` (its record says so by `passed: false`); every other
/// verdict fails, whatever the record claims. A record can turn a pass into a failure,
/// never a failure into a pass.
fn passed(r: &CaseRecord) -> bool {
    match r.verdict {
        Verdict::Presentation => r.passed,
        v => v.passed(true),
    }
}

/// A number a record holds that must be a finite amount, at least 0 (a time, a size).
fn amount(name: &str, what: &str, value: f64) -> Result<f64, String> {
    match value.is_finite() && value >= 0.0 {
        true => Ok(value),
        false => Err(format!(
            "case {name}: {what} {value} is not a number of at least 0"
        )),
    }
}

/// The case and its report from one case record, with its position in the whole list.
fn case_of(r: &CaseRecord) -> Result<(usize, Case, CaseReport), String> {
    let name = r.name.clone();
    let passed = passed(r);
    let time_ms = amount(&name, "time_ms", r.time_ms)?;
    let peak_memory_mib = match r.peak_memory_mib {
        Some(m) => Some(amount(&name, "peak_memory_mib", m)?),
        None => None,
    };
    let index = r
        .index
        .ok_or_else(|| format!("case {name} without its index"))?;
    let puzzle_text = r
        .puzzle
        .clone()
        .ok_or_else(|| format!("case {name} without its puzzle"))?;
    let puzzle = Puzzle::parse(&puzzle_text)
        .map_err(|e| format!("the puzzle of case {name} does not parse: {e}"))?;
    // Taken from the text before a passing case's is dropped.
    let layout = TextForms::of(&puzzle, puzzle_text.as_bytes());
    let case = Case {
        name: name.clone(),
        puzzle,
        input: if passed {
            Vec::new()
        } else {
            puzzle_text.clone().into_bytes()
        },
        expected: r.expected.clone(),
        origin: match r.seed {
            Some(seed) => Origin::Random { seed },
            None if crate::judge::cases::is_builtin(&r.name) => Origin::Builtin,
            None => Origin::File,
        },
        layout,
        robustness: r.robustness,
    };
    let report = CaseReport {
        name,
        verdict: r.verdict,
        passed,
        time_ms,
        // A passing case keeps no text, as in a run on one machine.
        puzzle: if passed { String::new() } else { puzzle_text },
        expected: r.expected.clone(),
        got: r.got.clone(),
        detail: r.detail.clone().map(Termination::Recorded),
        consistent: None,
        seed: r.seed,
        reproduce: r.r#gen.clone(),
        peak_memory: peak_memory_mib.map(|m| (m * f64::from(1u32 << 20)) as u64),
        robustness: r.robustness,
    };
    Ok((index, case, report))
}

/// What `serde_json` says of a line that does not read, cut to a few dozen characters: it
/// quotes a bad string value whole (`invalid type: string "..."`).
fn json_error(e: &serde_json::Error) -> String {
    crate::words::cut(&e.to_string(), 160)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::diagnose::Status;
    use crate::judge::record::{SandboxRecord, SummaryRecord};
    use crate::judge::report::{DiagnosisReport, Summary};

    const PUZZLE: &str = "5 3\n#####\n#O~H#\n#####\nR\n";

    fn header(shard: &str) -> Record {
        Record::Header(Header {
            shard: shard.to_string(),
            version: "0.1.0".to_string(),
            seed: Some(7),
            cases: 4,
            fingerprint: "00ff".to_string(),
            answers: vec![AnswerHeader {
                name: "a".to_string(),
                source: None,
            }],
            sandbox: "sandbox: none".to_string(),
            sandbox_summary: SandboxRecord::default(),
            leaderboard: false,
            generator: None,
        })
    }

    fn case(index: usize) -> Record {
        Record::Case(CaseRecord {
            name: format!("random-7-{index}"),
            verdict: Verdict::Accepted,
            passed: true,
            time_ms: 1.0,
            expected: "2\n".to_string(),
            got: "2\n".to_string(),
            detail: None,
            seed: Some(40 + index as u64),
            peak_memory_mib: None,
            puzzle: Some(PUZZLE.to_string()),
            r#gen: None,
            answer: None,
            index: Some(index),
            robustness: false,
        })
    }

    fn summary(total: usize) -> Record {
        let d = DiagnosisReport {
            status: Status::Correct,
            sentence: "correct".to_string(),
            explained_by: Vec::new(),
            groups: Vec::new(),
            robustness: None,
        };
        let s = Summary {
            passed: total,
            ..Summary::default()
        };
        Record::Summary(SummaryRecord::of(&s, &d, SandboxRecord::default()))
    }

    fn shard(k: usize, n: usize, cases: &[usize]) -> ShardFile {
        let mut lines = vec![header(&format!("{k}/{n}"))];
        lines.extend(cases.iter().map(|&i| case(i)));
        lines.push(summary(cases.len()));
        ShardFile {
            file: format!("shard-{k}.json"),
            records: lines
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i + 1, v))
                .collect(),
        }
    }

    /// `f` with its header changed by `change`.
    fn with_header(mut f: ShardFile, change: impl FnOnce(&mut Header)) -> ShardFile {
        if let Some((_, Record::Header(h))) = f.records.first_mut() {
            change(h);
        }
        f
    }

    #[test]
    fn every_shard_given_rebuilds_every_case_in_order() {
        let m = merge(&[shard(2, 2, &[1, 3]), shard(1, 2, &[0, 2])]).expect("merges");
        let names: Vec<&str> = m.answers[0]
            .ran
            .iter()
            .map(|(c, _)| c.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["random-7-0", "random-7-1", "random-7-2", "random-7-3"]
        );
        assert_eq!(m.answers[0].ran[1].0.origin, Origin::Random { seed: 41 });
    }

    /// Issue 30: a merged case keeps what a run on one machine knows of it: its text's
    /// layout (taken before a passing case's text is dropped), its robustness flag, and
    /// whether it is a built-in example (for the tuned-to-the-examples lead).
    #[test]
    fn a_merged_case_keeps_its_layout_its_robustness_flag_and_its_origin() {
        let Record::Case(mut r) = case(0) else {
            panic!("a case record")
        };
        r.puzzle = Some(PUZZLE.replace('\n', "\r\n"));
        r.robustness = true;
        r.seed = None;
        r.name = "simple-crush".to_string();
        let (_, c, report) = case_of(&r).expect("a case");
        assert!(c.input.is_empty(), "a passing case's text is dropped");
        assert!(c.layout.crlf && c.robustness && report.robustness);
        assert_eq!(c.origin, Origin::Builtin);
        r.name = "mine".to_string();
        assert_eq!(case_of(&r).expect("a case").1.origin, Origin::File);
    }

    #[test]
    fn a_missing_shard_is_refused() {
        let e = merge(&[shard(1, 3, &[0, 3]), shard(3, 3, &[2])]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shard-1.json:1: shard 2 of 3 is missing: merge every shard"
        );
        let e = merge(&[shard(1, 5, &[0, 3])]).unwrap_err();
        assert!(
            e.to_string().contains(": shards 2, 3, 4, 5 of 5 are"),
            "{e}"
        );
    }

    #[test]
    fn a_header_claiming_billions_of_shards_is_refused_without_listing_them() {
        let e = merge(&[shard(1, 3_000_000_000, &[0])]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shard-1.json:1: shards 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2999999989 more of \
             3000000000 are missing: merge every shard"
        );
    }

    #[test]
    fn a_record_never_makes_a_failure_pass() {
        let Record::Case(mut r) = case(0) else {
            panic!("a case record")
        };
        r.verdict = Verdict::WrongAnswer;
        assert!(r.passed, "the forged record says it passed");
        let (_, c, report) = case_of(&r).expect("a case");
        assert!(!report.passed && report.failed(), "WA is a failure");
        assert_eq!(c.input, PUZZLE.as_bytes(), "a failing case keeps its text");
        r.verdict = Verdict::InternalError;
        assert!(!case_of(&r).expect("a case").2.passed);
        r.verdict = Verdict::Presentation;
        assert!(case_of(&r).expect("a case").2.passed);
        r.passed = false;
        assert!(!case_of(&r).expect("a case").2.passed, "PE under --strict");
        r.verdict = Verdict::Accepted;
        assert!(case_of(&r).expect("a case").2.passed);
        r.time_ms = f64::NAN;
        let e = case_of(&r).unwrap_err();
        assert!(e.contains("time_ms NaN is not a number"), "{e}");
    }

    #[test]
    fn a_duplicated_shard_is_refused() {
        let e = merge(&[shard(1, 2, &[0, 2]), shard(1, 2, &[0, 2])]).unwrap_err();
        assert!(matches!(e, MergeError::DuplicateShard { .. }), "{e}");
    }

    #[test]
    fn shards_of_different_seeds_are_refused() {
        let other = with_header(shard(2, 2, &[1, 3]), |h| h.seed = Some(8));
        let e = merge(&[shard(1, 2, &[0, 2]), other]).unwrap_err();
        assert!(matches!(e, MergeError::DifferentSeeds { .. }), "{e}");
    }

    #[test]
    fn shards_of_different_case_sets_are_refused() {
        let other = with_header(shard(2, 2, &[1, 3]), |h| h.fingerprint = "0100".into());
        let e = merge(&[shard(1, 2, &[0, 2]), other]).unwrap_err();
        assert!(matches!(e, MergeError::DifferentCases { .. }), "{e}");
    }

    #[test]
    fn shards_of_different_versions_are_refused() {
        let other = with_header(shard(2, 2, &[1, 3]), |h| h.version = "0.0.9".into());
        let e = merge(&[shard(1, 2, &[0, 2]), other]).unwrap_err();
        assert!(e.to_string().contains("made by beast 0.0.9"), "{e}");
    }

    #[test]
    fn a_case_outside_its_shard_or_given_twice_is_refused() {
        let e = merge(&[shard(1, 2, &[0, 1]), shard(2, 2, &[3])]).unwrap_err();
        assert!(e.to_string().contains("not in shard 1/2"), "{e}");
        let e = merge(&[shard(1, 2, &[0, 0]), shard(2, 2, &[1, 3])]).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
    }

    #[test]
    fn a_shard_cut_short_is_refused() {
        let mut cut = shard(2, 2, &[1, 3]);
        cut.records.pop();
        let e = merge(&[shard(1, 2, &[0, 2]), cut]).unwrap_err();
        assert!(matches!(e, MergeError::Incomplete { .. }), "{e}");
        let no_header = ShardFile {
            file: "x".to_string(),
            records: vec![(1, case(0))],
        };
        assert!(matches!(
            merge(&[no_header]).unwrap_err(),
            MergeError::NoHeader { .. }
        ));
    }

    #[test]
    fn a_shard_reads_back_from_its_lines_by_their_type() {
        let f = shard(1, 2, &[0, 2]);
        let mut text = String::new();
        for (_, r) in &f.records {
            text += &r.to_line().expect("serializes");
        }
        let back = ShardFile::parse("shard-1.json", &text).expect("reads");
        assert_eq!(back.records, f.records);
        // A line without a type is no header, whatever its keys.
        let untyped = text.replacen("\"type\":\"header\",", "", 1);
        let e = ShardFile::parse("old.json", &untyped).unwrap_err();
        assert!(matches!(e, MergeError::NoHeader { .. }), "{e}");
        let broken = text.replacen("\"fingerprint\":\"00ff\",", "", 1);
        let e = ShardFile::parse("broken.json", &broken).unwrap_err();
        assert!(e.to_string().contains("missing field `fingerprint`"), "{e}");
        let e = ShardFile::parse("cut.json", &format!("{text}{{\"type\":")).unwrap_err();
        assert!(
            e.to_string().starts_with("cut.json:5: not a line of"),
            "{e}"
        );
    }

    #[test]
    fn fingerprints_tell_parts_apart() {
        let ab: [&[u8]; 2] = [b"ab", b""];
        let a_b: [&[u8]; 2] = [b"a", b"b"];
        assert_ne!(fingerprint(ab), fingerprint(a_b));
        assert_eq!(
            fingerprint(ab),
            fingerprint([b"ab".as_slice(), b"".as_slice()])
        );
    }
}
