//! `beast ring` end to end: arguments, files and stdin in; board, trace, JSON and HTML out.
//! Expected values come from RULES.md section 3.

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::util::{assert_exact_keys, beast, json};

fn ring() -> assert_cmd::Command {
    let mut cmd = beast();
    cmd.arg("ring");
    cmd
}

/// Runs `beast ring --json ARGS...` and parses stdout.
fn json_of(args: &[&str]) -> Value {
    json(
        &ring()
            .arg("--json")
            .args(args)
            .output()
            .expect("runs")
            .stdout,
    )
}

#[test]
fn with_no_moves_it_prints_the_map_and_every_status_field() {
    ring()
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "#######\n#P...G#\n#.###.#\n#.....#\n#######\n",
        ))
        .stdout(predicate::str::contains(
            "player (1,1) | guard (1,5) | next guard (2,5) | turn 0 | score 0 | left 10 | playing | ",
        ));
}

#[test]
fn json_has_exactly_the_issue_keys() {
    let v = json_of(&["R"]);
    assert_exact_keys(
        &v,
        &[
            "dots",
            "guard",
            "history",
            "message",
            "next_guard",
            "patrol",
            "player",
            "remaining",
            "score",
            "state",
            "turn",
        ],
    );
}

#[test]
fn right_from_the_start_gives_player_1_2_guard_2_5_score_1_and_9_left() {
    let v = json_of(&["R"]);
    assert_eq!(v["player"], json!([1, 2]));
    assert_eq!(v["guard"], json!([2, 5]));
    assert_eq!(v["next_guard"], json!([3, 5]));
    assert_eq!(v["turn"], 1);
    assert_eq!(v["score"], 1);
    assert_eq!(v["remaining"], 9);
    assert_eq!(
        v["dots"],
        json!([
            [1, 3],
            [1, 4],
            [2, 1],
            [2, 5],
            [3, 1],
            [3, 2],
            [3, 3],
            [3, 4],
            [3, 5]
        ])
    );
    assert_eq!(v["state"], "playing");
    assert_eq!(v["history"], "R");
}

#[test]
fn moves_as_one_word_or_as_separate_letters_are_the_same() {
    assert_eq!(json_of(&["RRDL"]), json_of(&["R", "R", "D", "L"]));
    assert_eq!(json_of(&["RR", "DL"]), json_of(&["R R D L"]));
}

#[test]
fn a_rejected_move_is_reported_and_the_run_goes_on_with_exit_0() {
    ring()
        .args(["--json", "U", "R"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "move 1 (U): U rejected: wall at (0,1).",
        ))
        .stdout(predicate::str::contains(r#""history":"R""#))
        .stdout(predicate::str::contains(r#""turn":1"#));
}

#[test]
fn the_full_winning_walk_wins_with_exit_0() {
    let v = json_of(&["RRRRDDLLLLU"]);
    assert_eq!(v["state"], "won");
    assert_eq!(v["score"], 10);
    assert_eq!(v["remaining"], 0);
    assert_eq!(v["dots"], json!([]));
    ring().arg("RRRRDDLLLLU").assert().success();
}

#[test]
fn moves_after_the_end_are_refused_but_the_run_goes_on() {
    ring()
        .args(["--scenario", "exchanged-edge", "--json", "L", "R", "D"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "move 2 (R): R refused: the game is lost",
        ))
        .stderr(predicate::str::contains("move 3 (D): D refused"))
        .stdout(predicate::str::contains(r#""history":"L""#));
}

#[test]
fn each_staged_scenario_loads_at_turn_0_and_its_move_loses() {
    for (name, then, player, guard, score, remaining) in [
        ("shared-destination", "R", [3, 4], [2, 5], 0, 10),
        ("exchanged-edge", "L", [1, 5], [1, 4], 0, 10),
        ("final-item", "R", [3, 4], [2, 5], 9, 1),
    ] {
        let start = json_of(&["--scenario", name]);
        assert_eq!(start["player"], json!(player), "{name}");
        assert_eq!(start["guard"], json!(guard), "{name}");
        assert_eq!(start["turn"], 0, "{name}");
        assert_eq!(start["history"], "", "{name}");
        assert_eq!(start["state"], "playing", "{name}");
        let end = json_of(&["--scenario", name, then]);
        assert_eq!(end["state"], "lost", "{name}");
        assert_eq!(end["score"], score, "{name}");
        assert_eq!(end["remaining"], remaining, "{name}");
    }
    let end = json_of(&["--scenario", "final-item", "R"]);
    assert_eq!(end["dots"], json!([[3, 5]]));
}

#[test]
fn a_staged_game_is_labelled_staged_in_the_text_output() {
    ring()
        .args(["--scenario", "shared-destination", "R"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "STAGED scenario: shared-destination\n",
        ))
        .stdout(predicate::str::contains("\n#....X#\n"))
        .stdout(predicate::str::contains("both reach (3,5): lost."));
}

#[test]
fn trace_prints_the_status_after_every_move() {
    let out = ring()
        .args(["--trace", "RUR"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("utf-8");
    let traced: Vec<&str> = text.lines().filter(|l| l.contains(": player (")).collect();
    assert_eq!(traced.len(), 3, "{text}");
    assert!(traced[0].starts_with("  1 R: player (1,2)"), "{text}");
    assert!(traced[1].contains("U rejected: wall at (0,2)."), "{text}");
    assert!(traced[2].starts_with("  3 R: player (1,3)"), "{text}");
}

#[test]
fn moves_come_from_a_file_or_from_stdin() {
    let from_file = json_of(&["--moves-file", "examples/ring/win.moves"]);
    assert_eq!(from_file["state"], "won");
    let out = ring()
        .args(["--json", "-"])
        .write_stdin("RRRR\nDD\nLLLL\nU\n")
        .output()
        .expect("runs");
    let from_stdin: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(from_stdin, from_file);
    let out = ring()
        .args(["--json", "--moves-file", "-"])
        .write_stdin("R")
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["history"], "R");
}

#[test]
fn the_example_walkthroughs_replay() {
    let v = json_of(&["--moves-file", "examples/ring/blocked-up-then-right.moves"]);
    assert_eq!(
        (v["player"].clone(), v["turn"].clone()),
        (json!([1, 2]), json!(1))
    );
    ring()
        .args(["--moves-file", "examples/ring/win-then-refused.moves"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "move 12 (R): R refused: the game is won",
        ));
}

#[test]
fn a_bad_move_letter_is_a_usage_error_that_says_where() {
    ring()
        .args(["RR", "DxL"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "MOVES argument 2 (\"DxL\"), column 2: 'x' is not a move (use U, D, L or R)",
        ));
    ring()
        .args(["R d"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "MOVES argument 1 (\"R d\"), column 3: 'd' is not a move (moves are upper case: U, D, L or R)",
        ));
    ring()
        .arg("-")
        .write_stdin("RR\nD W")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "stdin: line 2, column 3: 'W' is not a move",
        ));
}

#[test]
fn a_bad_moves_file_names_the_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.moves");
    std::fs::write(&path, "RR\n\n  L?").expect("write");
    ring()
        .arg("--moves-file")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "bad.moves: line 3, column 4: '?' is not a move",
        ));
    ring()
        .args(["--moves-file", "no/such/file"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read moves file no/such/file",
        ));
}

#[test]
fn usage_errors_exit_2() {
    ring().args(["--scenario", "nope"]).assert().code(2);
    ring()
        .args(["-", "R"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`-` (moves from stdin) must be the only MOVES argument",
        ));
    ring().args(["--html", "R"]).assert().code(2);
    ring().args(["--json", "--trace"]).assert().code(2);
}

#[test]
fn html_writes_one_self_contained_page() {
    ring()
        .arg("--html")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("<!doctype html>"))
        .stdout(predicate::str::contains("</html>"))
        .stdout(predicate::str::contains("STAGED"))
        .stdout(predicate::str::contains("http:").not())
        .stdout(predicate::str::contains("https:").not());
}
