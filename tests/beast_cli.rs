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

#[test]
fn man_prints_the_page_and_writes_one_a_subcommand() {
    beast()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(".ie"))
        .stdout(predicate::str::contains(".TH beast 1"))
        .stdout(predicate::str::contains("beast\\-check(1)"));
    let dir = tempfile::tempdir().expect("temp dir");
    beast()
        .args(["man", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    for page in ["beast.1", "beast-check.1", "beast-cases.1", "beast-man.1"] {
        let text = fs::read_to_string(dir.path().join(page)).expect(page);
        assert!(text.contains(".TH"), "{page} is not a man page");
    }
    assert!(!dir.path().join("beast-__contain.1").exists());
}

/// The JSON data of a replay page.
fn page_data(page: &str) -> serde_json::Value {
    let start = page.find(r#"id="replay-data">"#).expect("the data") + r#"id="replay-data">"#.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the end of the data");
    serde_json::from_str(&page[start..end]).expect("valid JSON")
}

fn html(args: &[&str], stdin: Option<String>) -> String {
    let mut cmd = beast();
    cmd.arg("--html").args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("UTF-8")
}

/// A `cols` x `rows` map with `beasts` beasts spread out and the player sealed in solid
/// wall, so that every one of the `moves` moves is played.
fn sealed_map(cols: usize, rows: usize, beasts: usize, moves: usize) -> String {
    let mut cells = vec![vec![' '; cols]; rows];
    for (r, row) in cells.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
                *cell = '#';
            } else if (r * 7 + c * 13) % 29 == 0 {
                *cell = '~';
            }
        }
    }
    let (mr, mc) = (rows / 2, cols / 2);
    for row in &mut cells[mr - 1..=mr + 1] {
        row[mc - 1..=mc + 1].fill('#');
    }
    cells[mr][mc] = 'O';
    let side = (beasts as f64).sqrt().ceil() as usize;
    let mut placed = 0;
    for i in 1..=side {
        for j in 1..=side {
            let (r, c) = (i * (rows - 2) / (side + 1), j * (cols - 2) / (side + 1));
            if placed < beasts && (r.abs_diff(mr) > 2 || c.abs_diff(mc) > 2) {
                cells[r][c] = 'H';
                placed += 1;
            }
        }
    }
    let mut text = format!("{cols} {rows}\n");
    for row in cells {
        text.extend(row);
        text.push('\n');
    }
    text.extend((0..moves).map(|i| ['U', 'R', 'D', 'L', 'W'][i % 5]));
    text.push('\n');
    text
}

#[test]
fn html_writes_one_self_contained_page_with_a_frame_for_every_turn() {
    let page = html(&[example("wikipedia.txt").to_str().expect("path")], None);
    assert!(page.starts_with("<!doctype html>"));
    assert!(page.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    for outside in ["http://", "https://", " src=", "<link"] {
        assert!(!page.contains(outside), "the page loads nothing: {outside}");
    }
    let data = page_data(&page);
    let game = &data["games"][0];
    assert_eq!(game["frames"].as_array().expect("frames").len(), 29);
    assert_eq!(game["ending"], "won");
    assert_eq!(data["result"], "won: score 8 after 29 turns");
    assert_eq!(data["cut"], serde_json::Value::Null);
    assert_eq!(data["moves"], "RRRUWWWRRRURWWWWRDRRWWRDWWWWD");
}

#[test]
fn html_compare_marks_the_first_turn_where_the_traces_differ() {
    let file = example("wikipedia.txt");
    let trace = |flags: &[&str]| -> Vec<String> {
        let out = beast()
            .arg("--trace")
            .args(flags)
            .arg(&file)
            .output()
            .expect("runs");
        let text = String::from_utf8(out.stderr).expect("UTF-8");
        // Our trace alone ends a turn's line with its rule events (`  [push-one]`): they
        // are no difference between the games.
        let unmarked: Vec<&str> = text
            .lines()
            .map(|l| match l.starts_with("turn ") {
                true => l.split("  [").next().unwrap_or(l),
                false => l,
            })
            .collect();
        unmarked
            .join("\n")
            .split("\n\n")
            .map(str::to_string)
            .collect()
    };
    let (ours, other) = (trace(&[]), trace(&["--target", "after"]));
    let first = ours
        .iter()
        .zip(&other)
        .position(|(a, b)| a != b)
        .expect("the readings differ on this map");
    let page = html(
        &["--compare", "--target after", file.to_str().expect("path")],
        None,
    );
    let data = page_data(&page);
    assert_eq!(
        data["first_difference"], first as u64,
        "trace block {first} is turn {first}"
    );
    assert_eq!(data["games"][1]["label"], "--target after");
}

#[test]
fn html_compare_with_an_unknown_flag_says_which_and_exits_2() {
    beast()
        .args(["--html", "--compare", "--target sideways"])
        .arg(example("wikipedia.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--compare \"--target sideways\""));
}

#[test]
fn html_of_a_200x100_map_with_20_beasts_and_2000_moves_is_under_5_mb_and_whole() {
    let page = html(&["-"], Some(sealed_map(200, 100, 20, 2000)));
    assert!(page.len() < 5_000_000, "{} bytes", page.len());
    let data = page_data(&page);
    assert_eq!(data["cut"], serde_json::Value::Null);
    assert_eq!(
        data["games"][0]["frames"].as_array().expect("frames").len(),
        2000
    );
}

#[test]
fn html_of_a_game_too_long_for_a_page_is_cut_at_a_stated_turn() {
    let page = html(&["-"], Some(sealed_map(600, 600, 1000, 1000)));
    assert!(page.len() < 5_000_000, "{} bytes", page.len());
    let data = page_data(&page);
    let frames = data["games"][0]["frames"].as_array().expect("frames").len();
    let cut = data["cut"].as_str().expect("a cut");
    assert!(frames < 1000);
    assert!(
        cut.contains(&format!("stops at turn {frames} of a longer game")),
        "{cut}"
    );
}

#[test]
fn trace_marks_each_turn_with_the_rule_events_beast_check_names() {
    // RR on `#O~~~ H#`: a train of three pushed, then the beast crushed against `#`, the
    // border's.
    beast()
        .arg("--trace")
        .arg(example("long-train-push.txt"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "turn 1: R pushes 3 walls and steps to (1,2)  [push-train]\n",
        ))
        .stderr(predicate::str::contains(
            "[push-train, crush-against-wall, crush-against-border]\n",
        ));
    // Under another reading the events (read under ours) are not marked.
    beast()
        .args(["--trace", "--exhaust", "stop"])
        .arg(example("long-train-push.txt"))
        .assert()
        .success()
        .stderr(predicate::str::contains("[push-train").not());
}
