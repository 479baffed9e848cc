//! `beast gen`: seeded puzzles in the exact input format.

use beast_engine::beast::{Cell, Puzzle};
use predicates::prelude::*;

use crate::util::beast;

fn generate(args: &[&str]) -> String {
    let out = beast().arg("gen").args(args).output().expect("beast runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_same_seed_prints_the_same_puzzle() {
    assert_eq!(generate(&["--seed", "42"]), generate(&["--seed", "42"]));
    assert_ne!(generate(&["--seed", "42"]), generate(&["--seed", "43"]));
}

#[test]
fn output_is_a_valid_puzzle_with_the_options_asked_for() {
    let text = generate(&[
        "--seed", "7", "--size", "9x6", "--beasts", "2", "--walls", "40", "--moves", "12",
    ]);
    let p = Puzzle::parse(&text).expect("gen prints a valid puzzle");
    assert_eq!((p.map().cols(), p.map().rows()), (9, 6));
    assert_eq!(p.moves().len(), 12);
    let beasts = p
        .map()
        .cells()
        .iter()
        .filter(|&&c| c == Cell::Beast)
        .count();
    assert_eq!(beasts, 2);
    assert!(text.starts_with("9 6\n#########\n"));
}

#[test]
fn generated_puzzles_are_judged_by_beast() {
    let text = generate(&["--seed", "3"]);
    beast()
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"^(aHHHH!\n)?\d+\n$").expect("regex"));
}

#[test]
fn bad_options_are_usage_errors() {
    beast()
        .args(["gen", "--seed", "1", "--size", "2x9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3x3"));
    beast()
        .args(["gen", "--seed", "1", "--size", "big"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("COLSxROWS"));
}

#[test]
fn gen_without_a_seed_picks_one_and_prints_it_on_stderr() {
    let out = beast()
        .args(["gen", "--moves", "7"])
        .output()
        .expect("beast runs");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let seed = stderr
        .trim()
        .strip_prefix("beast gen --seed ")
        .and_then(|rest| rest.strip_suffix(" --moves 7"))
        .expect("the seed is printed as a beast gen command");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        generate(&["--seed", seed, "--moves", "7"])
    );
}
