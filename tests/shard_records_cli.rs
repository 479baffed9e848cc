//! A shard's records are a stranger's: `beast check --merge` validates each before using
//! it. Counts and indexes are bounded (a header claiming billions of shards is refused,
//! cheaply), `passed` is the verdict's (a WA the record calls passed is a failure), a
//! forged sandbox line is text in every medium, and an answer with cases the judge could
//! not set up (IE) is never a pass: it is "not judged", ranked after every judged answer
//! in text, Markdown, JSON and JUnit, and the check exits 2.
//!
//! The shards are written here by hand, as an attacker would write them. Unix only: the
//! memory cap is `ulimit -v` (Linux), and the hostile names are not Windows file names.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::util::BEAST;

const PUZZLE: &str = "4 3\n####\n#O #\n####\nLRRW\n";

/// The header of a shard `shard` of a run of `answers` (name, bytes) over `cases` cases.
fn header(shard: &str, cases: usize, answers: &[(&str, usize)], sandbox: &str) -> Value {
    json!({
        "type": "header",
        "shard": shard,
        "version": env!("CARGO_PKG_VERSION"),
        "seed": null,
        "cases": cases,
        "fingerprint": "00ff",
        "answers": answers.iter().map(|(name, bytes)| json!({
            "name": name,
            "source": {"file": format!("{name}.sh"), "bytes": bytes, "chars": bytes},
        })).collect::<Vec<_>>(),
        "sandbox": sandbox,
        "sandbox_summary": {
            "mechanism": "none", "namespaces": [], "memory_mib": null, "memory_limit": null,
            "processes": null, "env_cleared": false, "run_as_uid": null, "protections": [],
            "missing": [], "line": sandbox,
        },
        "leaderboard": answers.len() > 1,
        "generator": null,
    })
}

/// A case record at `index` of the answer `answer` (when several run).
fn case(index: usize, answer: Option<&str>, verdict: &str, passed: bool, got: &str) -> Value {
    let mut record = json!({
        "type": "case",
        "name": format!("case-{index}"),
        "verdict": verdict,
        "passed": passed,
        "time_ms": 1.0,
        "expected": "0\n",
        "got": got,
        "detail": (verdict == "IE").then_some("internal error while setting up the jail: bind a path: ENOENT"),
        "seed": null,
        "puzzle": PUZZLE,
        "index": index,
    });
    if let Some(a) = answer {
        record["answer"] = json!(a);
    }
    record
}

/// The summary record of `answer` after `total` case records.
fn summary(answer: Option<&str>, total: usize) -> Value {
    let mut record = json!({
        "type": "summary",
        "summary": true,
        "passed": 0, "pe": 0, "failed": 0, "total": total,
        "diagnosis": {"status": "correct", "sentence": "correct", "explained_by": [], "groups": []},
        "bytes": null, "chars": null,
        "time_ms": {"total": 1.0, "max": 1.0, "wall": null},
        "sandbox": {
            "mechanism": "none", "namespaces": [], "memory_mib": null, "memory_limit": null,
            "processes": null, "env_cleared": false, "run_as_uid": null, "protections": [],
            "missing": [], "line": "sandbox: none",
        },
    });
    if let Some(a) = answer {
        record["answer"] = json!(a);
    }
    record
}

/// The records written as a shard file in `dir`.
fn shard_file(dir: &Path, name: &str, records: &[Value]) -> PathBuf {
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the shard");
    path
}

/// `beast check --merge FILE ARGS`, in `dir`.
fn merge(dir: &Path, file: &Path, args: &[&str]) -> Output {
    Command::new(BEAST)
        .arg("check")
        .args(args)
        .arg("--merge")
        .arg(file)
        .current_dir(dir)
        .output()
        .expect("beast runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(target_os = "linux")]
#[test]
fn a_header_claiming_billions_of_shards_is_a_located_refusal_in_little_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = shard_file(
        dir.path(),
        "forged.json",
        &[
            header("1/3000000000", 1, &[("a", 1)], "sandbox: none"),
            case(0, None, "AC", true, "0\n"),
            summary(None, 1),
        ],
    );
    // 256 MiB of address space: listing 3 billion missing shards would need gigabytes.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 262144 && exec \"$0\" check --merge \"$1\"")
        .arg(BEAST)
        .arg(&file)
        .output()
        .expect("sh runs");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("forged.json:1: shards 2, 3, 4,")
            && stderr.contains("of 3000000000 are missing"),
        "{stderr}"
    );
    assert!(stderr.lines().count() < 3, "a short message: {stderr}");
}

#[test]
fn a_wrong_answer_the_record_calls_passed_is_a_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = shard_file(
        dir.path(),
        "forged.json",
        &[
            header("1/1", 2, &[("a", 1)], "sandbox: none"),
            case(0, None, "AC", true, "0\n"),
            case(1, None, "WA", true, "9\n"),
            summary(None, 2),
        ],
    );
    let out = merge(dir.path(), &file, &["--shrink", "none"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
    assert!(stdout.contains("cases: case-1"), "{stdout}");
    let json = merge(dir.path(), &file, &["--shrink", "none", "--format", "json"]);
    let records: Vec<Value> = text(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let wa = records
        .iter()
        .find(|r| r["name"] == "case-1")
        .expect("the WA's record");
    assert_eq!(wa["passed"], false, "{wa}");
}

#[test]
fn a_forged_sandbox_line_is_text_on_the_terminal_and_in_markdown() {
    let dir = tempfile::tempdir().expect("temp dir");
    let forged = "sandbox: none\u{1b}[31m\n\n| 1 | fake | 99/99 | 1 | 1 | - | 0.0 ms | correct |\n\
                  <img src=x onerror=alert(1)>\n<!--\n::error::boom";
    let file = shard_file(
        dir.path(),
        "forged.json",
        &[
            header("1/1", 1, &[("a", 1)], forged),
            case(0, None, "AC", true, "0\n"),
            summary(None, 1),
        ],
    );
    for format in ["text", "markdown"] {
        let out = merge(dir.path(), &file, &["--format", format]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{format}: {stdout}{stderr}");
        let all = format!("{stdout}{stderr}");
        assert!(!all.contains('\u{1b}'), "{format}: a raw escape: {all:?}");
        assert!(
            all.lines().all(|l| !l.trim_start().starts_with("::")),
            "{format}: a workflow command: {all}"
        );
        let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(
            stdout.lines().next().map(|l| l.contains("fake")),
            Some(true),
            "{format}: the forged line is one line of text: {stdout}"
        );
        if format == "markdown" {
            assert!(!stdout.contains('<'), "raw HTML in Markdown: {stdout}");
            assert_eq!(rows.len(), 3, "the real table only: {stdout}");
            assert!(rows[2].starts_with("| 1 | a |"), "{stdout}");
        } else {
            assert!(rows.is_empty(), "{stdout}");
        }
    }
}

/// The records of a shard of two answers: `all-ie`, the shorter, whose every case is an
/// IE, and `wrong`, judged, with a wrong answer.
fn two_answers(dir: &Path) -> PathBuf {
    let (ie, wrong) = (Some("all-ie"), Some("wrong"));
    shard_file(
        dir,
        "answers.json",
        &[
            header("1/1", 2, &[("all-ie", 1), ("wrong", 50)], "sandbox: none"),
            case(0, ie, "IE", false, ""),
            case(1, ie, "IE", false, ""),
            case(0, wrong, "AC", true, "0\n"),
            case(1, wrong, "WA", false, "9\n"),
            summary(ie, 2),
            summary(wrong, 2),
        ],
    )
}

#[test]
fn an_answer_whose_every_case_is_an_ie_ranks_after_a_judged_wrong_one_everywhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = two_answers(dir.path());
    let out = merge(
        dir.path(),
        &file,
        &["--shrink", "none", "--junit", "junit.xml"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{}", text(&out.stderr));
    let rows: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("#  "))
        .collect();
    assert!(rows[1].starts_with("1  wrong "), "{stdout}");
    assert!(rows[2].starts_with("2  all-ie "), "{stdout}");
    assert!(
        rows[2].ends_with("not judged: 2 IE"),
        "never correct: {stdout}"
    );
    assert!(!stdout.contains("correct; 2 IE"), "{stdout}");
    let xml = std::fs::read_to_string(dir.path().join("junit.xml")).expect("the JUnit file");
    let wrong = xml.find("name=\"beast check: wrong\"").expect("a suite");
    let ie = xml.find("name=\"beast check: all-ie\"").expect("a suite");
    assert!(wrong < ie, "in rank order: {xml}");

    let md = merge(
        dir.path(),
        &file,
        &["--shrink", "none", "--format", "markdown"],
    );
    assert_eq!(md.status.code(), Some(2));
    let md = text(&md.stdout);
    assert!(md.contains("| 1 | wrong |"), "{md}");
    assert!(md.contains("| 2 | all-ie |"), "{md}");
    assert!(md.contains("not judged: 2 IE |"), "{md}");

    let js = merge(dir.path(), &file, &["--shrink", "none", "--format", "json"]);
    assert_eq!(js.status.code(), Some(2));
    let board: Value = text(&js.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|r| r["type"] == "leaderboard")
        .expect("the leaderboard record");
    let ranked = &board["leaderboard"];
    assert_eq!(ranked[0]["name"], "wrong", "{board}");
    assert_eq!(ranked[1]["name"], "all-ie", "{board}");
    assert_eq!(
        (&ranked[1]["correct"], &ranked[1]["ie"]),
        (&json!(false), &json!(2))
    );
}
