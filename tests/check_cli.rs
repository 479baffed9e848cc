//! `beast check`: judging candidate programs. The candidates are `beast` itself (with rule
//! switches) and the small shell scripts in `tests/fixtures/`. On Windows, which runs no
//! `#!` script, the tests of the scripts are ignored, and those that signal are Unix-only.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use beast_engine::beast::{Ending, Exhaust, Puzzle, Rules, play_out};
use predicates::prelude::*;

use crate::util::{BEAST, assert_has_keys, beast, fixture};

/// `beast check` with `BEAST` set and passed through the sandbox for the fixtures that
/// wrap it (`--env` passes the value, `--bind` shows the file).
fn check() -> assert_cmd::Command {
    let mut cmd = beast();
    cmd.env("BEAST", BEAST)
        .args(["check", "--env", "BEAST", "--bind", BEAST]);
    cmd
}

/// Runs `beast check ARGS` with `--format json`; returns the case objects and the exit code.
fn check_json(args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>) {
    let (objects, _, code) = check_json_summary(args);
    (objects, code)
}

/// [`check_json`] with the summary object.
fn check_json_summary(args: &[&str]) -> (Vec<serde_json::Value>, serde_json::Value, Option<i32>) {
    let out = check()
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("beast runs");
    let text = String::from_utf8(out.stdout).expect("JSON is UTF-8");
    let mut objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    // A shard's output starts with the header `--merge` checks.
    if args.contains(&"--shard") {
        let header = objects.remove(0);
        assert!(header["fingerprint"].is_string(), "{header}");
    }
    let summary = objects.pop().expect("a summary object");
    assert_eq!(summary["summary"], true, "{summary}");
    assert_eq!(
        summary["passed"].as_u64().unwrap_or(0) + summary["failed"].as_u64().unwrap_or(0),
        objects.len() as u64
    );
    (objects, summary, out.status.code())
}

/// The example pairs in `examples/beast/` the engine accepts: the built-in cases. Counted
/// here from the files, since others add rule examples there.
fn examples() -> Vec<(String, Puzzle)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/beast");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("examples") {
        let path = entry.expect("entry").path();
        let input = path.extension().is_some_and(|e| e == "txt" || e == "in");
        if input && path.with_extension("out").is_file() {
            let bytes = std::fs::read(&path).expect("readable");
            let name = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            if let Ok(p) = Puzzle::parse_bytes(&bytes) {
                found.push((name, p));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.dedup_by(|a, b| a.0 == b.0);
    found
}

fn names_with(objects: &[serde_json::Value], verdict: &str) -> BTreeSet<String> {
    objects
        .iter()
        .filter(|o| o["verdict"] == verdict)
        .map(|o| o["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn beast_itself_passes_every_case() {
    let line = format!("(?m)^{} passed, 0 failed$", examples().len() + 40);
    check()
        .args(["--random", "40", "--seed", "11", "--", BEAST])
        .assert()
        .code(0)
        .stdout(predicate::str::is_match(line).expect("regex"));
}

#[test]
fn stopping_when_moves_run_out_fails_exactly_the_games_that_outlive_their_moves() {
    let (objects, summary, code) = check_json_summary(&[
        "--random",
        "40",
        "--seed",
        "5",
        "--",
        BEAST,
        "--exhaust",
        "stop",
    ]);
    assert_eq!(code, Some(1));
    // The oracle: the engine under both readings. A case should fail when the moves run out
    // with the player alive (`stop` ends `alive`) and waiting on then gets him eaten.
    let mut puzzles = examples();
    let generated = beast_engine::judge::cases::random_specs(5, 40)
        .into_iter()
        .filter_map(|spec| spec.case(&Default::default()).ok());
    puzzles.extend(generated.map(|c| (c.name, c.puzzle)));
    let stop = Rules {
        exhaust: Exhaust::Stop,
        ..Rules::OURS
    };
    let expected: BTreeSet<String> = puzzles
        .iter()
        .filter(|(_, p)| {
            let outlives = play_out(p, stop).is_ok_and(|o| o.ending == Ending::Alive);
            let eaten_later =
                play_out(p, Rules::default()).is_ok_and(|o| o.ending == Ending::Eaten);
            outlives && eaten_later
        })
        .map(|(n, _)| n.clone())
        .collect();
    assert!(expected.contains("waiting-for-the-reaper"));
    assert!(expected.len() >= 3, "{expected:?}");
    assert_eq!(names_with(&objects, "WA"), expected);
    let diagnosis = &summary["diagnosis"];
    assert_eq!(diagnosis["status"], "explained", "{diagnosis}");
    assert_eq!(diagnosis["explained_by"][0]["flags"], "--exhaust stop");
    assert_eq!(
        diagnosis["explained_by"][0]["words"],
        "the game stops when the moves run out"
    );
    assert_eq!(diagnosis["groups"].as_array().map(Vec::len), Some(1));
    for o in objects.iter().filter(|o| o["verdict"] == "WA") {
        assert!(o["puzzle"].is_string(), "{o}");
    }
}

#[test]
fn the_text_report_explains_and_ends_with_the_summary_line() {
    check()
        .args(["--", BEAST, "--exhaust", "stop"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(
                r"(?m)^WA x\d+: the game stops when the moves run out \(--exhaust stop\) \(confirmed on \d of \d designed cases\)$",
            )
            .expect("regex"),
        )
        .stdout(predicate::str::contains("waiting-for-the-reaper"))
        .stdout(predicate::str::contains(
            "are what beast --exhaust stop prints: the game stops when the moves run out.",
        ))
        .stdout(predicate::str::is_match(r"\n\d+ passed, [1-9]\d* failed\n$").expect("regex"));
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn a_candidate_that_sleeps_gets_tle_and_is_killed_in_time() {
    let start = Instant::now();
    let (objects, code) = check_json(&[
        "--no-builtin",
        "--random",
        "4",
        "--seed",
        "1",
        "--no-shrink",
        "--timeout",
        "0.3",
        "--",
        fixture("sleep.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(objects.len(), 4);
    assert_eq!(names_with(&objects, "TLE").len(), 4);
    // Four cases, each killed at 0.3 s, not after the 60 s sleep: a generous ceiling, far
    // below one sleep.
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn a_candidate_that_exits_3_gets_rte() {
    check()
        .args(["--", fixture("exit3.sh").to_str().expect("path")])
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(r"(?m)^RTE x\d+: exited with an error or a signal$")
                .expect("regex"),
        )
        .stdout(predicate::str::contains(
            "  exit code 3; stderr ends:\n  index out of range\n",
        ))
        .stdout(predicate::str::is_match(r"\n0 passed, [1-9]\d* failed\n$").expect("regex"));
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn a_candidate_that_prints_forever_gets_ole() {
    let (objects, code) = check_json(&[
        "--max-output",
        "64K",
        "--",
        fixture("forever.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&objects, "OLE").len(), objects.len());
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn a_candidate_that_ignores_stdin_is_judged_without_crashing() {
    // A 300x300 puzzle is far more than a pipe holds, so feeding it meets a closed pipe.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::from("300 300\n");
    text += &"#".repeat(300);
    text.push('\n');
    for r in 1..299 {
        let inner = if r == 1 {
            format!("O~H{}", " ".repeat(295))
        } else {
            " ".repeat(298)
        };
        text += &format!("#{inner}#\n");
    }
    text += &"#".repeat(300);
    text += "\nR\n";
    std::fs::write(dir.path().join("big.in"), &text).expect("write");
    std::fs::write(dir.path().join("big.out"), "2\n").expect("write");
    let (objects, code) = check_json(&[
        "--cases",
        dir.path().to_str().expect("path"),
        "--",
        fixture("ignores-stdin.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    let verdict = |name: &str| {
        objects
            .iter()
            .find(|o| o["name"] == name)
            .map(|o| o["verdict"].clone())
    };
    assert_eq!(verdict("big"), Some("WA".into()));
    assert_eq!(
        verdict("wikipedia"),
        Some("AC".into()),
        "it always prints 8"
    );
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn children_left_running_and_invalid_utf8_do_not_stop_the_judge() {
    let start = Instant::now();
    check()
        .args(["--", fixture("leaves-child.sh").to_str().expect("path")])
        .assert()
        .code(0);
    // A generous ceiling, below the 30 s the child sleeps: the judge did not wait for it.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let (objects, code) = check_json(&["--", fixture("invalid-utf8.sh").to_str().expect("path")]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&objects, "WA").len(), examples().len());
    assert_eq!(objects[0]["got"], "\u{fffd}\u{fffd}\n");
}

/// The puzzle a group shows, from the JSON summary.
fn shown_puzzle(group: &serde_json::Value) -> Puzzle {
    let text = group["smallest"]["puzzle"].as_str().expect("a puzzle");
    Puzzle::parse(text).expect("the shown puzzle is valid")
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn a_planted_bug_is_caught_by_random_cases_and_shrunk_small() {
    let (objects, summary, code) = check_json_summary(&[
        "--no-builtin",
        "--random",
        "20",
        "--seed",
        "2",
        "--",
        fixture("planted.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert!(names_with(&objects, "WA").len() > 1, "the bug is caught");
    // Not a reading but an output hypothesis: one point a crush.
    let diagnosis = &summary["diagnosis"];
    assert_eq!(diagnosis["explained_by"][0]["flags"], "", "{diagnosis}");
    let words = diagnosis["explained_by"][0]["words"]
        .as_str()
        .unwrap_or_default();
    assert!(words.contains("1 point a crushed beast"), "{diagnosis}");
    let dir = tempfile::tempdir().expect("temp dir");
    let groups = diagnosis["groups"].as_array().expect("groups");
    assert!(!groups.is_empty());
    for (i, g) in groups.iter().enumerate() {
        assert_eq!(g["smallest"]["shrunk"], true, "{g}");
        let p = shown_puzzle(g);
        let (cols, rows, moves) = (p.map().cols(), p.map().rows(), p.moves().len());
        assert!(cols <= 8 && rows <= 8 && moves <= 10, "{p}");
        let answer = play_out(&p, Rules::default()).expect("decided").answer();
        std::fs::write(dir.path().join(format!("g{i}.in")), p.to_string()).expect("write");
        std::fs::write(dir.path().join(format!("g{i}.out")), answer).expect("write");
    }
    // Every shown puzzle still fails.
    let (again, code) = check_json(&[
        "--no-builtin",
        "--cases",
        dir.path().to_str().expect("path"),
        "--",
        fixture("planted.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&again, "WA").len(), groups.len());
}

#[test]
fn the_text_report_of_a_shrunk_case_is_ready_to_paste() {
    let out = check()
        .args([
            "--no-builtin",
            "--random",
            "3",
            "--seed",
            "1",
            "--",
            BEAST,
            "--exhaust",
            "stop",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let (_, after) = text.split_once(", shrunk from ").expect("a shrunk case");
    let (head, rest) = after.split_once(":\n").expect("header line");
    assert!(
        predicate::str::is_match(r"^\d+x\d+ with \d+ moves to \d+x\d+ with \d+ moves$")
            .expect("regex")
            .eval(head),
        "{head:?}"
    );
    // Pasted into a shell, the command judges the puzzle: its lines are the here-document.
    let (_, body) = rest
        .split_once("beast <<'EOF'\n")
        .expect("a pasteable command");
    let (puzzle, _) = body
        .split_once("\nEOF\n")
        .expect("the end of the here-document");
    let puzzle = format!("{puzzle}\n");
    Puzzle::parse(&puzzle).expect("pastes as a valid puzzle");
    assert!(text.contains("(beast gen --seed "), "{text}");
}

#[test]
fn shards_split_the_cases_without_overlap() {
    let mut seen = BTreeSet::new();
    let mut total = 0;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (objects, code) = check_json(&[
            "--random", "7", "--seed", "3", "--shard", &shard, "--", BEAST,
        ]);
        assert_eq!(code, Some(0));
        total += objects.len();
        for o in objects {
            seen.insert(o["name"].as_str().expect("name").to_string());
        }
    }
    let all = examples().len() + 7;
    assert_eq!(total, all, "built-in and 7 random cases");
    assert_eq!(seen.len(), all);
    check()
        .args(["--shard", "4/3", "--", BEAST])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("K/N"));
}

#[test]
fn json_has_one_object_per_case_with_the_documented_keys() {
    let (objects, code) = check_json(&["--", BEAST, "--exhaust", "stop"]);
    assert_eq!(code, Some(1));
    assert_eq!(objects.len(), examples().len());
    for o in &objects {
        assert_has_keys(
            o,
            &[
                "name", "verdict", "time_ms", "expected", "got", "detail", "seed",
            ],
        );
        assert!(o["time_ms"].is_number());
        assert_eq!(o["puzzle"].is_string(), o["passed"] == false, "{o}");
    }
    let reaper = objects
        .iter()
        .find(|o| o["name"] == "waiting-for-the-reaper")
        .expect("built in");
    assert_eq!(reaper["expected"], "aHHHH!\n0\n");
    assert_eq!(reaper["got"], "0\n");
    assert!(
        reaper["puzzle"]
            .as_str()
            .is_some_and(|p| p.ends_with("WWW\n"))
    );
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn the_junit_report_parses_as_xml() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("report.xml");
    check()
        .args([
            "--junit",
            file.to_str().expect("path"),
            "--",
            fixture("invalid-utf8.sh").to_str().expect("path"),
        ])
        .assert()
        .code(1);
    let xml = std::fs::read_to_string(&file).expect("written");
    let doc = roxmltree::Document::parse(&xml).expect("valid XML");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let n = examples().len();
    assert_eq!(cases.len(), n);
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, n);
    let suite = doc
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .expect("a suite");
    assert_eq!(suite.attribute("failures"), Some(n.to_string().as_str()));
}

/// `check` with a time limit generous enough that a loaded machine never turns a case
/// into TLE, for tests of how the input arrives.
fn patient_check() -> assert_cmd::Command {
    let mut cmd = check();
    cmd.args(["--timeout", "60"]);
    cmd
}

#[test]
fn input_as_a_file_reaches_the_candidate() {
    // `beast FILE` reads a path; `{}` is replaced by it.
    patient_check()
        .args(["--input", "file", "--", BEAST, "{}"])
        .assert()
        .code(0);
    patient_check()
        .args(["--input", "file", "--", BEAST])
        .assert()
        .code(0);
}

#[test]
#[cfg_attr(windows, ignore = "its candidate runs sh")]
fn input_as_an_argument_reaches_the_candidate() {
    // As one argument: `sh -c 'printf %s "$1" | beast' _ PUZZLE`.
    patient_check()
        .args([
            "--input",
            "arg",
            "--",
            "sh",
            "-c",
            "printf %s \"$1\" | \"$BEAST\"",
            "sh",
        ])
        .assert()
        .code(0);
}

#[test]
fn exit_codes_are_0_pass_1_fail_2_usage_or_cannot_start() {
    check().args(["--", BEAST]).assert().code(0);
    check()
        .args(["--", BEAST, "--target", "after"])
        .assert()
        .code(1);
    check()
        .args(["--timeout", "-1", "--", BEAST])
        .assert()
        .code(2);
    check().assert().code(2);
    check()
        .args(["--", "/no/such/golf-answer", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the program /no/such/golf-answer does not exist",
        ));
}

#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn fail_fast_stops_after_the_first_failure() {
    let (objects, code) = check_json(&[
        "--jobs",
        "1",
        "--fail-fast",
        "--",
        fixture("exit3.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(objects.len(), 1);
}

#[test]
#[cfg_attr(windows, ignore = "its candidate runs sh")]
fn strict_turns_whitespace_differences_into_failures() {
    let script = "\"$BEAST\" | tr '\\n' ' '";
    check()
        .args(["-v", "--", "sh", "-c", script])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("PE "));
    check()
        .args(["--strict", "--", "sh", "-c", script])
        .assert()
        .code(1);
}

/// Sends SIGINT and reads `/proc`: Unix only.
#[cfg(unix)]
#[test]
fn an_interrupted_check_kills_the_running_candidate_and_removes_its_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).expect("mkdir");
    std::fs::write(cases.join("one.in"), "5 3\n#####\n#O~H#\n#####\nR\n").expect("write");
    std::fs::write(cases.join("one.out"), "2\n").expect("write");
    let pid_file = dir.path().join("pid");
    let child = std::process::Command::new(BEAST)
        .env("PIDFILE", &pid_file)
        .env("TMPDIR", &tmp)
        // Unsandboxed: the candidate writes its pid where this test reads it.
        .args([
            "check",
            "--sandbox",
            "none",
            "--env",
            "PIDFILE",
            "--input",
            "file",
        ])
        .args(["--no-builtin", "--timeout", "60", "--cases"])
        .arg(&cases)
        .arg("--")
        .arg(fixture("sleep-pid.sh"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("beast starts");
    let start = Instant::now();
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
        {
            break pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the candidate never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let check_pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    nix::sys::signal::kill(check_pid, nix::sys::signal::Signal::SIGINT).expect("signal");
    let ended = child.wait_with_output().expect("exits");
    assert_eq!(ended.status.code(), Some(130));
    // The interrupt handler says so, through the reporters (around the bar on a terminal).
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert!(
        stderr.contains("beast check: interrupted by SIGINT; stopping"),
        "{stderr}"
    );
    // No case finished: the report claims nothing of the answer.
    let stdout = String::from_utf8_lossy(&ended.stdout);
    assert!(
        stdout.contains("diagnosis: no case finished: nothing is judged.")
            && stdout.contains("; no case finished\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("correct on all") && !stdout.contains("-0 ms"),
        "{stdout}"
    );
    // The candidate (a zombie at most, until its parent reaps it) is no longer sleeping;
    // a loaded machine may take a moment to deliver the kill.
    let start = Instant::now();
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let running = state
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'));
        if !running {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "candidate {pid} still runs: {state}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("tmp").flatten().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn an_expected_output_that_the_engine_disputes_is_named_not_blamed_on_a_reading() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A walled-in player with no beast: won before the first move, so the answer is 0.
    std::fs::write(dir.path().join("sealed.in"), "3 3\n###\n#O#\n###\n").expect("write");
    std::fs::write(dir.path().join("sealed.out"), "2\n").expect("write");
    check()
        .args(["--no-builtin", "--cases"])
        .arg(dir.path())
        .args(["--", BEAST])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "the engine's answer under our readings: the expected output file may be wrong",
        ))
        .stdout(predicate::str::contains("--order turn").not())
        .stderr(predicate::str::contains(
            "sealed.out differs from the engine's answer",
        ));
}

#[test]
fn a_disputed_expected_output_is_shown_as_it_ran_not_shrunk_for_nothing() {
    // The Wikipedia sample (40x23, answer 8) with a case file that expects 9: the answer
    // prints the engine's own answer, so no smaller puzzle can fail the same way. Trying
    // 2,000 of them ran the answer 2,000 times for a case it never got wrong.
    let dir = tempfile::tempdir().expect("temp dir");
    let sample = std::fs::read(crate::util::example("wikipedia.txt")).expect("sample");
    std::fs::write(dir.path().join("wiki.in"), sample).expect("write");
    std::fs::write(dir.path().join("wiki.out"), "9\n").expect("write");
    check()
        .args(["--sandbox", "none", "--no-builtin", "--cases"])
        .arg(dir.path())
        .args(["--", BEAST])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "the answer printed the engine's own answer: only the case file expects another",
        ))
        .stdout(predicate::str::contains("no smaller puzzle tried").not());
}

#[test]
fn a_check_with_no_case_to_run_is_a_usage_error_not_a_pass() {
    let dir = tempfile::tempdir().expect("temp dir");
    check()
        .args(["--no-builtin", "--cases"])
        .arg(dir.path())
        .args(["--", BEAST])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case to run"));
}

/// Built without the jail (`--no-default-features`, or not Linux), `check` runs answers
/// in a process group (a Job Object on Windows), says exactly that, and `--sandbox strict`
/// and `basic` refuse.
#[cfg(not(jail))]
#[test]
fn without_the_jail_the_first_line_says_so_and_strict_refuses() {
    let out = beast()
        .args(["check", "--random", "3", "--seed", "1", "--", BEAST])
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let held = if cfg!(windows) {
        "a Job Object per case (its process tree ended with the case)"
    } else {
        "a process group"
    };
    let why = if cfg!(target_os = "linux") {
        "it is Linux-only and needs the `jail` feature"
    } else {
        "it is Linux-only"
    };
    assert!(
        text.starts_with(&format!(
            "sandbox: none (the command runs unconfined): {held}, the timeout and the output \
             cap; missing: the jail (this build has none: {why})\n"
        )),
        "{text}"
    );
    for level in ["strict", "basic"] {
        let out = beast()
            .args([
                "check",
                "--sandbox",
                level,
                "--random",
                "1",
                "--seed",
                "1",
                "--",
                BEAST,
            ])
            .output()
            .expect("beast runs");
        assert_eq!(out.status.code(), Some(2), "{level}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("this build has none"), "{level}: {err}");
    }
}

/// The score counts the script a command runs, never a compiled program: one that starts
/// like a Windows executable (`MZ`) or Mach-O is skipped as ELF is. (`sh` runs each file
/// here as a script, so both judge.)
#[test]
#[cfg_attr(windows, ignore = "its candidate runs sh")]
fn the_score_skips_compiled_programs_of_every_system() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("answer.sh");
    std::fs::write(&script, "exec \"$BEAST\"\n").expect("write");
    let pe = dir.path().join("answer.exe");
    std::fs::write(&pe, "MZ=1; exec \"$BEAST\"\n").expect("write");
    let mach_o = dir.path().join("answer.macho");
    let mut bytes = 0xfeed_facf_u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(b"=1 2>/dev/null; exec \"$BEAST\"\n");
    std::fs::write(&mach_o, bytes).expect("write");
    let score = |file: &Path| {
        let out = check()
            .args(["--no-builtin", "--random", "1", "--seed", "1", "--", "sh"])
            .arg(file)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{text}");
        text.lines().any(|l| l.starts_with("score: "))
    };
    assert!(score(&script), "a script is scored");
    assert!(!score(&pe), "a Windows executable is not");
    assert!(!score(&mach_o), "a Mach-O program is not");
}

/// Under `--sandbox none` one thread watches a case's pipes and its end (a pidfd): an
/// answer that closes both pipes and keeps running is still stopped at its timeout.
#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell command")]
fn without_a_sandbox_an_answer_that_closes_its_pipes_and_sleeps_gets_tle() {
    let start = Instant::now();
    let (objects, code) = check_json(&[
        "--sandbox",
        "none",
        "--no-builtin",
        "--random",
        "2",
        "--no-shrink",
        "--timeout",
        "0.3",
        "--",
        "sh",
        "-c",
        "exec >&- 2>&-; sleep 60",
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&objects, "TLE").len(), 2, "{objects:?}");
    // Killed at 0.3 s each, not after the 60 s sleep: a generous ceiling.
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

/// Under `--sandbox none` an answer that exits and leaves a process holding its output
/// open is judged on what it printed: its group is killed at its exit, so the pipe ends
/// and the run is no TLE.
#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell command")]
fn without_a_sandbox_a_process_left_holding_the_output_is_killed_at_the_answers_exit() {
    let start = Instant::now();
    let (objects, code) = check_json(&[
        "--sandbox",
        "none",
        "--no-builtin",
        "--random",
        "2",
        "--no-shrink",
        "--timeout",
        "20",
        "--",
        "sh",
        "-c",
        "echo 0; echo oops >&2; sleep 60 & exit 3",
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&objects, "RTE").len(), 2, "{objects:?}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// Under `--sandbox none` output past the cap is an OLE, read from the same `poll`.
#[test]
#[cfg_attr(windows, ignore = "its candidate is a shell script")]
fn without_a_sandbox_a_candidate_that_prints_forever_gets_ole() {
    let (objects, code) = check_json(&[
        "--sandbox",
        "none",
        "--no-builtin",
        "--random",
        "2",
        "--max-output",
        "64K",
        "--",
        fixture("forever.sh").to_str().expect("path"),
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(names_with(&objects, "OLE").len(), objects.len());
}
