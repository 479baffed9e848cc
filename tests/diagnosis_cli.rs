//! `beast check`'s diagnosis of a whole run, the groups of failures and the rest of the
//! golfer's report. The candidates are `beast` itself under known misreadings.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use beast_engine::beast::{CATALOGUE, Puzzle};
use predicates::prelude::*;

use crate::util::{BEAST, beast};

/// Runs `beast check ARGS --format json` and returns the summary object and the exit code.
fn summary(args: &[&str]) -> (serde_json::Value, Option<i32>) {
    let out = beast()
        .arg("check")
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("beast runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let last = text.lines().last().expect("a summary line");
    (serde_json::from_str(last).expect("JSON"), out.status.code())
}

/// `beast check --random 100 --seed 1` of `beast` itself judging under `flags`: the
/// summary object and the exit code.
fn beast_under(flags: &[&str]) -> (serde_json::Value, Option<i32>) {
    let mut args = vec!["--random", "100", "--seed", "1", "--", BEAST];
    args.extend_from_slice(flags);
    summary(&args)
}

fn flags_named(diagnosis: &serde_json::Value) -> Vec<String> {
    diagnosis["explained_by"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|e| e["flags"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_catalogue_mistake_is_diagnosed_and_shown_on_a_small_puzzle() {
    for v in CATALOGUE {
        let (s, code) = beast_under(&["--variant", v.name]);
        assert_eq!(code, Some(1), "{}: some case fails", v.name);
        let d = &s["diagnosis"];
        assert_eq!(d["status"], "explained", "{}: {d}", v.name);
        assert!(
            flags_named(d).contains(&v.flags()),
            "{}: named {:?}",
            v.name,
            flags_named(d)
        );
        for g in d["groups"].as_array().expect("groups") {
            // The group a reading explains names the flags of its compare page.
            let flags = g["compare"]["flags"].as_str().expect("a compare page");
            let cause = g["cause"].as_str().expect("a cause");
            assert!(cause.ends_with(&format!("({flags})")), "{}: {g}", v.name);
            let text = g["smallest"]["puzzle"].as_str().expect("puzzle");
            let p = Puzzle::parse(text).expect("valid");
            let (cols, rows, moves) = (p.map().cols(), p.map().rows(), p.moves().len());
            assert!(
                cols <= 8 && rows <= 8 && moves <= 10,
                "{}: shown {cols}x{rows} with {moves} moves",
                v.name
            );
        }
    }
}

#[test]
fn two_independent_mistakes_are_never_blamed_on_one_alone() {
    let (s, code) = beast_under(&["--target", "after", "--variant", "tie-down-over-left"]);
    assert_eq!(code, Some(1));
    let d = &s["diagnosis"];
    match d["status"].as_str() {
        Some("explained") => {
            for f in flags_named(d) {
                assert!(
                    f.contains("--target after") && f.contains("--variant"),
                    "one alone: {f}"
                );
            }
        }
        Some("partial") => {}
        other => panic!("{other:?}: {d}"),
    }
}

#[test]
fn a_mistake_outside_the_catalogue_is_not_explained() {
    // Adds a crushed beast's points twice when the player dies: no reading does that.
    let script =
        "\"$BEAST\" | awk 'NR==1 && /aHHHH/ {d=1; print; next} d {print $1 + 2; next} {print}'";
    let out = beast()
        .env("BEAST", BEAST)
        .args(["check", "--random", "60", "--seed", "3", "--format", "json"])
        .args(["--", "sh", "-c", script])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let s: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("summary")).expect("JSON");
    assert_eq!(out.status.code(), Some(1));
    let status = s["diagnosis"]["status"].as_str().unwrap_or_default();
    assert!(
        status == "unexplained" || status == "partial",
        "{}",
        s["diagnosis"]
    );
}

#[test]
fn the_text_report_groups_failures_and_ends_with_the_diagnosis() {
    beast()
        .args(["check", "--random", "200", "--seed", "4", "--"])
        .args([BEAST, "--exhaust", "stop"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"(?m)^  cases: .*, and \d+ more$").expect("regex"))
        .stdout(predicate::str::contains("diagnosis: all 240 outputs ("))
        .stdout(
            predicate::str::is_match(r"(?m)^time: [0-9.]+ ms in all; slowest .*, [0-9.]+ ms\n")
                .expect("regex"),
        )
        .stdout(predicate::function(|out: &str| {
            // One group: one explanation and one shown case, not one a failure.
            out.matches("smallest: ").count() == 1
        }));
}

/// Runs `beast check ARGS` with stdout read for one line and then closed, as
/// `| head -1` does; returns the exit code.
fn closed_after_one_line(args: &[&str]) -> Option<i32> {
    let mut child = Command::new(BEAST)
        .arg("check")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let stdout = child.stdout.take().expect("piped");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    // The reader is dropped here: the pipe is closed.
    child.wait().expect("exits").code()
}

#[test]
fn a_closed_pipe_keeps_the_verdicts_exit_status() {
    let failing = ["-v", "--", BEAST, "--exhaust", "stop"];
    assert_eq!(closed_after_one_line(&failing), Some(1));
    let failing_json = ["--format", "json", "--", BEAST, "--exhaust", "stop"];
    assert_eq!(closed_after_one_line(&failing_json), Some(1));
    assert_eq!(closed_after_one_line(&["-v", "--", BEAST]), Some(0));
}

#[test]
fn shards_of_random_cases_must_share_a_seed() {
    beast()
        .args(["check", "--random", "10", "--shard", "1/2", "--", BEAST])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: shards must share a seed: add --seed",
        ));
}

#[test]
fn only_runs_the_matching_cases_and_list_names_them() {
    beast()
        .args(["check", "--only", "tie-*", "--list", "--", BEAST])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("tie-up-over-down\n"))
        .stdout(predicate::str::contains("wikipedia").not());
    let (s, code) = summary(&["--only", "wikipedia*", "--", BEAST]);
    assert_eq!(code, Some(0));
    assert_eq!(s["total"], 2, "wikipedia and wikipedia-eaten-on-tenth-move");
}

#[test]
fn kattis_answers_and_bare_inputs_are_cases() {
    let dir = tempfile::tempdir().expect("temp dir");
    let reaper = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";
    std::fs::write(dir.path().join("a.in"), reaper).expect("write");
    std::fs::write(dir.path().join("a.ans"), "aHHHH!\n0\n").expect("write");
    std::fs::write(dir.path().join("b.in"), reaper).expect("write");
    let dir_arg = dir.path().to_str().expect("path");
    beast()
        .args(["check", "--no-builtin", "--cases", dir_arg, "--", BEAST])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2 passed, 0 failed"))
        .stderr(predicate::str::contains(
            "note: b has no b.out or b.ans: the engine's answer is expected",
        ));
}

#[test]
fn the_golf_score_counts_the_scripts_bytes_and_characters() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("answer.sh");
    let source = "#!/bin/sh\n# é\nexec \"$BEAST\"\n";
    std::fs::write(&script, source).expect("write");
    let script_arg = script.to_str().expect("path");
    let out = beast()
        .env("BEAST", BEAST)
        .args(["check", "--format", "json", "--", "sh", script_arg])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let s: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("summary")).expect("JSON");
    // The é is 2 bytes and 1 character.
    assert_eq!(
        (s["bytes"].as_u64(), s["chars"].as_u64()),
        (Some(source.len() as u64), Some(source.len() as u64 - 1))
    );
    assert!(s["time_ms"]["max"].as_f64().is_some_and(|m| m > 0.0));
    let (s, _) = summary(&["--source", "none", "--", "sh", script_arg]);
    assert!(s["bytes"].is_null());
}

#[test]
fn shrinking_can_be_turned_off() {
    let (s, _) = summary(&["--shrink", "none", "--", BEAST, "--exhaust", "stop"]);
    let groups = s["diagnosis"]["groups"].as_array().expect("groups");
    assert!(!groups.is_empty());
    assert!(groups.iter().all(|g| g["smallest"]["shrunk"] == false));
}

#[test]
fn variants_lists_the_catalogue_and_judges_under_it() {
    beast()
        .arg("variants")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("--variant tie-up-over-left"))
        .stdout(predicate::str::contains("--exhaust stop"));
    let reaper = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";
    for (flags, answer) in [
        (vec![], "aHHHH!\n0\n"),
        (vec!["--variant", "exhaust-stop"], "0\n"),
        (vec!["--exhaust", "stop"], "0\n"),
    ] {
        beast()
            .args(&flags)
            .write_stdin(reaper)
            .assert()
            .code(0)
            .stdout(answer);
    }
    beast()
        .args(["--variant", "nonsense"])
        .write_stdin(reaper)
        .assert()
        .code(2);
}

#[test]
fn a_case_past_the_engines_budget_is_skipped_as_too_large() {
    let dir = tempfile::tempdir().expect("temp dir");
    let long = format!("7 3\n#######\n#O#  H#\n#######\n{}\n", "W".repeat(5000));
    std::fs::write(dir.path().join("long.in"), long).expect("write");
    std::fs::write(dir.path().join("short.in"), "5 3\n#####\n#O~H#\n#####\nR\n").expect("write");
    let dir_arg = dir.path().to_str().expect("path");
    beast()
        .args(["check", "--no-builtin", "--engine-time", "0.000001"])
        .args(["--cases", dir_arg, "--", BEAST])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 passed, 0 failed"))
        .stderr(predicate::str::contains(
            "note: skipped long: case too large to judge",
        ));
}

#[test]
fn each_group_a_reading_explains_links_its_compare_page_and_html_dir_writes_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pages = dir.path().join("pages");
    let out = beast()
        .arg("check")
        .args(["--random", "100", "--seed", "1", "--html-dir"])
        .arg(&pages)
        .args(["--", BEAST, "--target", "after"])
        .output()
        .expect("beast runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let page = pages.join("group-1.html");
    let puzzle = pages.join("group-1.txt");
    let want = format!(
        "  compare page: {} (beast --html --compare \"--target after\" {} > {})",
        page.display(),
        puzzle.display(),
        page.display()
    );
    assert!(text.contains(&want), "{text}");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.contains(r#""label":"--target after""#));
    assert!(
        !html.contains(r#""first_difference":null"#),
        "the readings differ on it"
    );
    // The command printed makes the same page.
    let again = beast()
        .args(["--html", "--compare", "--target after"])
        .arg(&puzzle)
        .output()
        .expect("beast runs");
    assert_eq!(String::from_utf8(again.stdout).expect("UTF-8"), html);
}
