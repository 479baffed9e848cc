//! The `beast` command as a user runs it: output bytes, JSON keys, trace, errors, exit codes.

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

use predicates::prelude::*;

use crate::util::{BEAST, assert_has_keys, beast, example};

/// The Wikipedia map with other moves.
fn wikipedia_with(moves: &str) -> String {
    let text = fs::read_to_string(example("wikipedia.txt")).expect("sample");
    let map: Vec<&str> = text.lines().take(24).collect();
    format!("{}\n{moves}\n", map.join("\n"))
}

#[test]
fn a_file_argument_prints_exactly_the_answer() {
    beast()
        .arg(example("wikipedia.txt"))
        .assert()
        .success()
        .stdout("8\n")
        .stderr("");
}

#[test]
fn stdin_and_dash_read_the_same_puzzle() {
    let text = fs::read_to_string(example("preference-death.txt")).expect("sample");
    for args in [vec![], vec!["-"]] {
        beast()
            .args(&args)
            .write_stdin(text.clone())
            .assert()
            .success()
            .stdout("aHHHH!\n0\n");
    }
}

#[test]
fn wikipedia_rrdddrrrww_is_alive_after_nine_moves_and_eaten_on_the_tenth() {
    beast()
        .args(["--exhaust", "stop", "--json"])
        .write_stdin(wikipedia_with("RRDDDRRRW"))
        .assert()
        .success()
        .stdout(predicate::str::contains(r#""outcome":"alive""#))
        .stdout(predicate::str::contains(r#""turns":9"#));
    beast()
        .arg("--json")
        .write_stdin(wikipedia_with("RRDDDRRRWW"))
        .assert()
        .success()
        .stdout(predicate::str::contains(r#""outcome":"eaten""#))
        .stdout(predicate::str::contains(r#""turns":10"#))
        .stdout(predicate::str::contains(r#""moves_used":10"#));
}

#[test]
fn json_has_every_documented_key() {
    let out = beast()
        .args(["--json"])
        .arg(example("wikipedia.txt"))
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_has_keys(
        &v,
        &[
            "outcome",
            "score",
            "turns",
            "moves_used",
            "beasts_left",
            "crushed",
        ],
    );
    assert_eq!(v["outcome"], "won");
    assert_eq!(v["beasts_left"], 0);
    assert_eq!(v["score"], 8);
    let crushed = v["crushed"].as_array().expect("a list");
    assert_eq!(crushed.len(), 4);
    for c in crushed {
        assert!(
            c["turn"].is_u64() && c["row"].is_u64() && c["col"].is_u64(),
            "{c}"
        );
    }
}

#[test]
fn trace_draws_every_turn_on_stderr_and_leaves_stdout_alone() {
    beast()
        .arg("--trace")
        .arg(example("preference-win.txt"))
        .assert()
        .success()
        .stdout("2\n")
        .stderr(predicate::str::contains("turn 0: start"))
        .stderr(predicate::str::contains(
            "turn 2: R walks to (1,2); beasts move (3,3)->(3,2)",
        ))
        .stderr(predicate::str::contains("crushes the beast at (3,2)"))
        .stderr(predicate::str::contains("#O~H#").not())
        .stderr(predicate::str::contains("\x1b[").not());
}

#[test]
fn trace_in_unicode_uses_the_double_width_glyphs() {
    beast()
        .args(["--trace", "--style", "unicode"])
        .arg(example("simple-crush.txt"))
        .assert()
        .success()
        .stderr(predicate::str::contains("██◄►▓▓├┤██"));
}

#[test]
fn exhaust_stop_prints_the_score_when_the_moves_run_out() {
    beast()
        .args(["--exhaust", "stop"])
        .arg(example("waiting-for-the-reaper.txt"))
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn target_after_changes_sample_three() {
    beast()
        .args(["--target", "after", "--exhaust", "stop"])
        .arg(example("preference-win.txt"))
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn bad_input_exits_2_with_line_and_column() {
    beast()
        .write_stdin("5 3\n#####\n#O~h#\n#####\nR\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: line 3, column 4: 'h' is not a map character",
        ));
}

#[test]
fn a_missing_file_exits_2_and_names_it() {
    beast()
        .arg("no/such/puzzle.txt")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/puzzle.txt"));
}

#[test]
fn an_unknown_switch_value_is_a_usage_error() {
    beast()
        .args(["--order", "sideways"])
        .arg(example("simple-crush.txt"))
        .assert()
        .code(2);
}

#[test]
fn help_explains_each_rule_switch() {
    beast()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("--order"))
        .stdout(predicate::str::contains("--bump"))
        .stdout(predicate::str::contains("--target"))
        .stdout(predicate::str::contains("--exhaust"));
}

#[test]
fn a_closed_stdout_pipe_exits_quietly() {
    let mut child = Command::new(BEAST)
        .args(["--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(wikipedia_with("RRDDDRRRWW").as_bytes())
        .expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn completions_are_printed_for_bash() {
    beast()
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout(predicate::str::contains("_beast"));
}
