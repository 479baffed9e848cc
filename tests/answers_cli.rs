//! Judging a whole challenge: `beast check --answers FILE` ranks many answers in one run,
//! and `--shard K/N` outputs merge with `--merge` into the report of one run of every case.
//! The answers are `beast` itself under known misreadings, and a script that crashes.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::util::{BEAST, beast};

/// `beast check` with `BEAST` passed through the sandbox, for the scripts that run it.
fn check() -> assert_cmd::Command {
    let mut cmd = beast();
    // A generous time limit: a loaded machine must not turn a slow run into a TLE.
    cmd.env("BEAST", BEAST)
        .args(["check", "--env", "BEAST", "--bind", BEAST])
        .args(["--timeout", "60"]);
    cmd
}

/// A challenge's answers as scripts in a fresh directory, and the answers file naming
/// them (in the order given), each scored by its script.
struct Challenge {
    dir: tempfile::TempDir,
}

impl Challenge {
    fn new(answers: &[(&str, &str)]) -> Challenge {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
        let mut toml = String::new();
        for (name, script) in answers {
            let path = dir.path().join(format!("{name}.sh"));
            std::fs::write(&path, script).expect("write the script");
            toml += &format!(
                "[[answer]]\nname = \"{name}\"\ncommand = [\"sh\", \"{}\"]\n\n",
                path.display()
            );
        }
        std::fs::write(dir.path().join("answers.toml"), toml).expect("write the answers");
        Challenge { dir }
    }

    fn answers(&self) -> PathBuf {
        self.dir.path().join("answers.toml")
    }

    /// The golf count of the answer's script (no final newline).
    fn bytes(&self, name: &str) -> u64 {
        let code = std::fs::read(self.dir.path().join(format!("{name}.sh"))).expect("the script");
        beast_engine::judge::post::count(&code, false).bytes as u64
    }
}

/// The four answers of the proof: right, stopping when the moves run out, a swapped tie,
/// and a crash. Listed in an order that is not the ranking; the scripts' lengths rank
/// the wrong ones stop < tie < crash.
fn four_answers() -> Challenge {
    Challenge::new(&[
        (
            "crash",
            "# reads the puzzle, then fails on it\necho 'IndexError: list index out of range' >&2\nexit 3\n",
        ),
        ("tie", "exec \"$BEAST\" --variant tie-up-over-left\n"),
        ("stop", "exec \"$BEAST\" --exhaust stop\n"),
        ("right", "exec \"$BEAST\" \"$@\" # the reference answer\n"),
    ])
}

/// Parses JSON lines.
fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

#[test]
fn the_leaderboard_ranks_correct_answers_first_then_by_bytes_and_names_each_mistake() {
    let c = four_answers();
    let out = check()
        .arg("--answers")
        .arg(c.answers())
        .args(["--random", "40", "--seed", "5", "--shrink", "none"])
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "an answer fails");
    let lines = json_lines(&out.stdout);
    let board = lines.last().expect("the leaderboard");
    let rows = board["leaderboard"].as_array().expect("rows");
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["right", "stop", "tie", "crash"]);
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {board}"))
    };
    assert_eq!(row("right")["diagnosis"], "correct");
    assert_eq!(row("right")["correct"], true);
    let said = |name: &str| row(name)["diagnosis"].as_str().unwrap_or("").to_string();
    assert!(
        said("stop").starts_with("beast --exhaust stop:"),
        "{}",
        said("stop")
    );
    // One wrong answer is weak evidence, and the row says so.
    assert!(
        said("tie").starts_with("beast --variant tie-up-over-left:")
            || said("tie")
                .starts_with("consistent with beast --variant tie-up-over-left (weak evidence: "),
        "{}",
        said("tie")
    );
    assert!(said("crash").ends_with(" RTE"), "{}", said("crash"));
    for name in ["right", "stop", "tie", "crash"] {
        assert_eq!(row(name)["bytes"], c.bytes(name), "{name}");
        assert_eq!(row(name)["chars"], c.bytes(name), "{name}: ASCII");
        assert!(row(name)["total"].as_u64() > Some(40), "{name}");
    }
    assert_eq!(row("crash")["passed"], 0);
    // Every answer ran the same cases: one object per case and answer, and a summary each.
    let cases = lines.iter().filter(|l| l.get("verdict").is_some());
    assert_eq!(
        cases.count() as u64,
        4 * row("right")["total"].as_u64().unwrap_or(0)
    );
    let summaries = lines.iter().filter(|l| l["summary"] == true).count();
    assert_eq!(summaries, 4);
}

#[test]
fn the_text_leaderboard_heads_each_answers_report_and_markdown_is_a_table() {
    let c = four_answers();
    let run = |format: &str| {
        check()
            .arg("--answers")
            .arg(c.answers())
            // Generator 1's 20 cases of seed 5 tell the tie answer wrong; the ranking is
            // what this test is about.
            .args([
                "--no-builtin",
                "--random",
                "20",
                "--seed",
                "5",
                "--generator",
                "1",
            ])
            .args(["--shrink", "none", "--format", format])
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone()
    };
    let text = String::from_utf8(run("text")).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("sandbox: "), "{text}");
    assert!(lines[1].starts_with("#  answer  passed  bytes"), "{text}");
    for (line, name) in lines[2..6].iter().zip(["right", "stop", "tie", "crash"]) {
        assert!(line.contains(&format!(" {name} ")), "{name}: {line}");
    }
    let right = text.find("\n== right ==\n").expect("right's report");
    let crash = text.find("\n== crash ==\n").expect("crash's report");
    assert!(right < crash, "in rank order: {text}");
    assert!(
        text.contains("IndexError: list index out of range"),
        "{text}"
    );
    let md = String::from_utf8(run("markdown")).expect("UTF-8");
    let lines: Vec<&str> = md.lines().collect();
    // What contained them, a blank line, then the table.
    assert!(lines[0].starts_with("sandbox: "), "{md}");
    assert_eq!(lines[1], "", "{md}");
    let rows = &lines[2..];
    assert_eq!(rows.len(), 6, "{md}");
    assert!(
        rows[0].starts_with("| # | answer | passed | bytes |"),
        "{md}"
    );
    assert!(rows[2].starts_with("| 1 | right | 20/20 |"), "{md}");
}

#[test]
fn an_answer_that_cannot_start_is_a_row_and_the_rest_still_run() {
    let c = Challenge::new(&[("right", "exec \"$BEAST\"\n")]);
    let answers = c.dir.path().join("with-ghost.toml");
    let mut toml = std::fs::read_to_string(c.answers()).expect("answers");
    toml += "[[answer]]\nname = \"ghost\"\ncommand = [\"/nonexistent/ghost\"]\n";
    std::fs::write(&answers, toml).expect("write");
    let out = check()
        .arg("--answers")
        .arg(&answers)
        .args([
            "--no-builtin",
            "--random",
            "5",
            "--seed",
            "1",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out.stdout);
    let rows = &lines.last().expect("leaderboard")["leaderboard"];
    assert_eq!(rows[0]["name"], "right");
    assert_eq!(rows[0]["passed"], 5);
    assert_eq!(rows[1]["name"], "ghost");
    let said = rows[1]["diagnosis"].as_str().unwrap_or("");
    assert!(said.starts_with("cannot start: "), "{said}");
    assert!(said.contains("ghost"), "names the program: {said}");
}

#[test]
fn report_dir_holds_each_answers_report() {
    let c = Challenge::new(&[
        ("right", "exec \"$BEAST\"\n"),
        ("stop", "exec \"$BEAST\" --exhaust stop\n"),
    ]);
    let dir = c.dir.path().join("reports");
    let out = check()
        .arg("--answers")
        .arg(c.answers())
        .arg("--report-dir")
        .arg(&dir)
        .args(["--random", "10", "--seed", "2", "--shrink", "none"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("UTF-8");
    assert!(
        !text.contains("== stop =="),
        "the detail goes to files: {text}"
    );
    let stop = std::fs::read_to_string(dir.join("stop.txt")).expect("stop.txt");
    assert!(
        stop.contains("diagnosis: all ") && stop.contains("beast --exhaust stop"),
        "{stop}"
    );
    let json = std::fs::read(dir.join("right.json")).expect("right.json");
    let last = json_lines(&json).pop().expect("summary");
    assert_eq!(last["diagnosis"]["status"], "correct");
}

/// `text` without its measurements: a figure in ms (and the case named after it) becomes
/// `T`, the time line (`wall ...; answer ...`) and the `memory:` line go and runs of spaces
/// (table alignment) become one.
fn untimed(text: &str) -> String {
    let mut lines = Vec::new();
    let measured =
        |l: &&str| l.starts_with("wall ") || l.starts_with("answer ") || l.starts_with("memory: ");
    for line in text.lines().filter(|l| !measured(l)) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let timed = tokens.get(i + 1) == Some(&"ms") && tokens[i].parse::<f64>().is_ok();
            if !timed {
                kept.push(tokens[i]);
                i += 1;
                continue;
            }
            i += 2;
            if tokens.get(i).is_some_and(|t| t.starts_with('(')) {
                while i < tokens.len() && !tokens[i].ends_with(')') {
                    i += 1;
                }
                i += 1;
            }
            kept.push("T");
        }
        lines.push(kept.join(" "));
    }
    lines.join("\n")
}

/// A JSON value without its timings (`time_ms`, `slowest`).
fn untimed_json(mut v: serde_json::Value) -> serde_json::Value {
    match &mut v {
        serde_json::Value::Object(map) => {
            map.remove("time_ms");
            map.remove("slowest");
            map.remove("peak_memory_mib");
            // The designed cases: only a run that can run the answer again has them.
            map.remove("confirmation");
            for (_, x) in map.iter_mut() {
                *x = untimed_json(x.take());
            }
        }
        serde_json::Value::Array(items) => {
            for x in items.iter_mut() {
                *x = untimed_json(x.take());
            }
        }
        _ => {}
    }
    v
}

/// `text` without what only a run that can run the answer again says: how a label was
/// confirmed on designed cases, and the weak-evidence words a merged run keeps instead.
fn unconfirmed(text: &str) -> String {
    let mut s = text.to_string();
    while let Some(at) = s
        .find(" (confirmed ")
        .or_else(|| s.find(" (not confirmed: "))
    {
        let mut depth = 0;
        let end = s[at + 1..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(s.len(), |(i, _)| at + 2 + i);
        s.replace_range(at..end, "");
    }
    s = s.replace("consistent with: ", "");
    let (open, close) = (" (weak evidence: ", "; try --random 200)");
    let lines: Vec<String> = s
        .split('\n')
        .map(|line| match (line.find(open), line.find(close)) {
            (Some(a), Some(b)) if a < b => format!("{}{}", &line[..a], &line[b + close.len()..]),
            _ => line.to_string(),
        })
        .collect();
    lines.join("\n")
}

/// Runs `beast check ARGS` as shards 1/3, 2/3 and 3/3 into files in `dir`, and returns
/// their paths.
fn shards(dir: &Path, args: &[&str]) -> Vec<PathBuf> {
    (1..=3)
        .map(|k| {
            let out = check()
                .args(["--shard", &format!("{k}/3"), "--format", "json"])
                .args(args)
                .output()
                .expect("runs");
            assert!(out.status.code().is_some_and(|c| c <= 1), "shard {k}");
            let path = dir.join(format!("shard-{k}.json"));
            std::fs::write(&path, &out.stdout).expect("write the shard");
            path
        })
        .collect()
}

/// The stdout of `beast check ARGS`, checking its exit code.
fn stdout_of(args: &[&str], extra: &[&Path], code: i32) -> String {
    let out = check().args(args).args(extra).output().expect("runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Shards 1/3, 2/3 and 3/3 merged give the unsharded report, in text and JSON.
fn merge_equals_one_run(args: &[&str]) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let files = shards(dir.path(), args);
    let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let merge = |format: &str| {
        stdout_of(
            &["--shrink", "none", "--format", format, "--merge"][..],
            &files,
            1,
        )
    };
    let whole = |format: &str| {
        let mut all = vec!["--format", format];
        all.extend(args);
        stdout_of(&all, &[], 1)
    };
    let (merged, one) = (merge("text"), whole("text"));
    assert!(merged.contains("\ndiagnosis: "), "{merged}");
    assert_eq!(untimed(&unconfirmed(&merged)), untimed(&unconfirmed(&one)));
    let json = |text: &str| -> Vec<serde_json::Value> {
        json_lines(unconfirmed(text).as_bytes())
            .into_iter()
            .map(untimed_json)
            .collect()
    };
    let (merged, one) = (json(&merge("json")), json(&whole("json")));
    assert!(merged.len() > 40, "{} lines", merged.len());
    assert_eq!(merged, one);
}

#[test]
fn three_shards_merge_into_the_report_of_one_run() {
    merge_equals_one_run(&[
        "--random", "40", "--seed", "9", "--shrink", "none", "--", BEAST, "--target", "after",
    ]);
}

#[test]
fn three_shards_of_many_answers_merge_into_one_leaderboard() {
    let c = four_answers();
    let answers = c.answers().display().to_string();
    merge_equals_one_run(&[
        "--answers",
        &answers,
        "--random",
        "30",
        "--seed",
        "9",
        "--shrink",
        "none",
    ]);
}

#[test]
fn inconsistent_shards_are_refused_with_the_reason() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let base = ["--no-builtin", "--sandbox", "none", "--seed"];
    let shard = |name: &str, seed: &str, random: &str, k: &str| {
        let out = check()
            .args(base)
            .args([seed, "--random", random, "--shard", k, "--format", "json"])
            .args(["--", BEAST])
            .output()
            .expect("runs");
        let path = dir.path().join(name);
        std::fs::write(&path, &out.stdout).expect("write");
        path
    };
    let one = shard("one", "1", "6", "1/3");
    let two = shard("two", "1", "6", "2/3");
    let three = shard("three", "1", "6", "3/3");
    let other_seed = shard("other-seed", "2", "6", "2/3");
    let other_cases = shard("other-cases", "1", "7", "2/3");
    let refused = |files: &[&PathBuf], reason: &str| {
        check()
            .arg("--merge")
            .args(files)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(reason));
    };
    refused(&[&one, &three], "shard 2 of 3 is missing");
    refused(&[&one, &two, &two, &three], "shard 2/3 is given twice");
    refused(&[&one, &other_seed, &three], "the shards must share a seed");
    refused(&[&one, &other_cases, &three], "a different case set");
    let text = std::fs::read_to_string(&two).expect("read");
    let old = dir.path().join("old");
    std::fs::write(
        &old,
        text.replacen(
            &format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\":\"0.0.1\"",
            1,
        ),
    )
    .expect("write");
    refused(&[&one, &old, &three], "made by beast 0.0.1");
    let cut = dir.path().join("cut");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n")).expect("write");
    refused(&[&one, &cut, &three], "the shard is incomplete");
    // The three together merge, with JUnit.
    let junit = dir.path().join("junit.xml");
    check()
        .arg("--merge")
        .args([&one, &two, &three])
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("6 passed, 0 failed"));
    let xml = std::fs::read_to_string(&junit).expect("JUnit");
    assert!(xml.contains("tests=\"6\" failures=\"0\""), "{xml}");
}
