//! `beast fence` end to end: text art, JSON keys, refused moves and their exit code, bad
//! usage, moves from stdin and from a file, `--list`, and replaying a picked seed.

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{assert_exact_keys, beast, json};

fn fence() -> assert_cmd::Command {
    let mut cmd = beast();
    cmd.arg("fence");
    cmd
}

fn stdout_of(args: &[&str]) -> String {
    let out = fence().args(args).output().expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    json(stdout_of(&all).as_bytes())
}

#[test]
fn text_output_shows_labels_posts_sheep_and_the_status() {
    let out = stdout_of(&["--seed", "7", "--size", "2x1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Fence Posts 2x1, seed 7");
    assert_eq!(lines[1], "    a   b   c");
    assert_eq!(lines[2], " 1  +   +   +");
    let sheep = json_of(&["--seed", "7", "--size", "2x1"])["sheep"][0].clone();
    assert_eq!(lines[3], format!("      {}   {}", sheep[0], sheep[1]));
    assert_eq!(lines[4], " 2  +   +   +");
    assert!(lines.last().expect("a line").starts_with("Your move."));
}

#[test]
fn text_output_shows_built_fences_and_the_farmers_reply() {
    let out = stdout_of(&["--seed", "7", "--size", "1x1", "a1-b1"]);
    assert!(out.contains(" 1  +---+"), "{out}");
    assert!(out.contains("The farmer built "), "{out}");
    assert!(out.contains("(safe)."), "{out}");
}

#[test]
fn json_has_exactly_the_keys_of_the_issue() {
    let v = json_of(&["--seed", "3", "--size", "2x2", "a1-b1"]);
    assert_exact_keys(
        &v,
        &[
            "built", "farmer", "log", "over", "owner", "result", "seed", "sheep", "size",
            "to_move", "you",
        ],
    );
    assert_eq!(v["seed"], 3);
    assert_eq!(v["size"], "2x2");
    assert_eq!(v["sheep"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["owner"][0], serde_json::json!([null, null]));
    assert_eq!(v["to_move"], "you");
    assert_eq!(v["over"], false);
    assert_eq!(v["you"], serde_json::json!({"sheep": 0, "pens": 0}));
    assert_eq!(v["result"], Value::Null);
    let log = v["log"].as_array().expect("log");
    assert_eq!(
        log[0],
        serde_json::json!({"by": "you", "fence": "a1-b1", "claimed": [], "step": null})
    );
    assert_eq!(log[1]["by"], "farmer");
    assert_eq!(log[1]["step"], "safe");
    assert_eq!(v["built"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_refused_move_exits_1_with_the_reason_and_the_last_good_field() {
    fence()
        .args(["--seed", "1", "--size", "1x1", "a1-b1", "B1-A1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("a1-b1 is already built"))
        .stdout(predicate::str::contains(" 1  +---+"));
}

#[test]
fn a_malformed_or_off_grid_move_exits_1_with_its_reason() {
    fence()
        .args(["--seed", "1", "a1b1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("`a1b1` is not a fence"));
    fence()
        .args(["--seed", "1", "a1-z9"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("a1-z9 is off the 4x4 grid"));
}

#[test]
fn a_refused_move_in_json_mode_still_prints_the_last_good_state() {
    let out = fence()
        .args(["--json", "--seed", "1", "a1-b1", "a1-c1"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["log"][0]["fence"], "a1-b1");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a1-c1 joins posts that are not neighbours")
    );
}

#[test]
fn bad_usage_exits_2() {
    fence().args(["--size", "0x3"]).assert().code(2);
    fence()
        .args(["--size", "26x1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 to 25"));
    fence().args(["--seed", "minus"]).assert().code(2);
    fence().args(["--list", "--json"]).assert().code(2);
    fence()
        .args(["--moves-file", "/nonexistent/moves.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read moves file"));
}

#[test]
fn moves_can_come_from_stdin() {
    let out = fence()
        .args(["--json", "--seed", "5", "--size", "3x3", "-"])
        .write_stdin("a1-b1\n# comment\nc4 - d4, A2-A3\n")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let yours: Vec<&str> = v["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter(|m| m["by"] == "you")
        .filter_map(|m| m["fence"].as_str())
        .collect();
    assert_eq!(yours, ["a1-b1", "c4-d4", "a2-a3"]);
}

#[test]
fn moves_can_come_from_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("moves.txt");
    std::fs::write(&path, "a1-b1 b3-c3\n").expect("write");
    let v = json_of(&["--seed", "5", "--moves-file", path.to_str().expect("path")]);
    assert_eq!(v["log"][0]["fence"], "a1-b1");
    assert!(
        v["log"]
            .as_array()
            .expect("log")
            .iter()
            .any(|m| m["fence"] == "b3-c3" && m["by"] == "you")
    );
}

#[test]
fn list_prints_the_unbuilt_fences_one_per_line() {
    let out = stdout_of(&["--list", "--seed", "2", "--size", "1x1", "a1-b1"]);
    let lines: Vec<&str> = out.lines().collect();
    // Four fences: yours and the farmer's reply are built.
    assert_eq!(lines.len(), 2, "{out}");
    assert!(!lines.contains(&"a1-b1"));
    for line in lines {
        assert!(["a2-b2", "a1-a2", "b1-b2"].contains(&line), "{line}");
    }
}

#[test]
fn a_whole_game_through_the_command_ends_with_the_result_line() {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        let mut args = vec!["--list", "--seed", "9", "--size", "2x2"];
        args.extend(moves.iter().map(String::as_str));
        let open = stdout_of(&args);
        match open.lines().next() {
            Some(first) => moves.push(first.to_string()),
            None => break,
        }
    }
    let mut args = vec!["--seed", "9", "--size", "2x2"];
    args.extend(moves.iter().map(String::as_str));
    let out = stdout_of(&args);
    let last = out.lines().last().expect("a line");
    assert!(
        ["You win: ", "The farmer wins: ", "Draw: "]
            .iter()
            .any(|p| last.starts_with(p)),
        "{last}"
    );
    args.push("a1-b1");
    fence()
        .args(&args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the game is over"));
}

#[test]
fn a_picked_seed_is_printed_and_replays_the_same_game() {
    let out = stdout_of(&["a1-b1", "c3-c4"]);
    let seed = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("Picked seed "))
        .and_then(|l| l.split(';').next())
        .expect("the picked seed is printed");
    let again = stdout_of(&["--seed", seed, "a1-b1", "c3-c4"]);
    assert_eq!(
        out.lines().skip(1).collect::<Vec<_>>(),
        again.lines().collect::<Vec<_>>()
    );
}

#[test]
fn the_example_games_replay_without_a_refusal() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fence");
    let opening = format!("{dir}/opening.txt");
    let out = stdout_of(&["--seed", "7", "--moves-file", &opening]);
    assert!(
        out.lines()
            .last()
            .expect("a line")
            .starts_with("Your move."),
        "{out}"
    );
    let whole = format!("{dir}/whole-game-1x1.txt");
    let out = stdout_of(&["--seed", "1", "--size", "1x1", "--moves-file", &whole]);
    let last = out.lines().last().expect("a line");
    assert!(last.starts_with("The farmer wins: "), "{last}");
}
