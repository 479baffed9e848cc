//! `beast cases`: packs round-trip through `beast check`, the discriminating selection
//! catches every other switch combination, the Kattis layout, and refusing to overwrite.

use std::collections::BTreeSet;
use std::path::Path;

use beast_engine::beast::Rules;
use beast_engine::beast::variant;
use beast_engine::judge::cases::{builtin, random_specs};
use beast_engine::judge::generate::Recipe;
use beast_engine::judge::pack::{self, SAMPLES};
use predicates::prelude::*;

use crate::util::{BEAST, beast};

/// The stems of the files in `dir` ending in `.ext`.
fn stems(dir: &Path, ext: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("the directory exists")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(&format!(".{ext}")).map(str::to_string)
        })
        .collect()
}

/// The names of the cases a `beast check --format json` run failed.
fn failed_names(args: &[&str]) -> BTreeSet<String> {
    let out = beast()
        .args(["check", "--sandbox", "none", "--format", "json"])
        .args(args)
        .output()
        .expect("beast check runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["passed"] == false && v.get("summary").is_none())
        .filter_map(|v| v["name"].as_str().map(str::to_string))
        .collect()
}

/// The names `beast cases` writes for the built-ins plus `--random n --seed seed`.
fn expected_names(seed: u64, n: usize) -> BTreeSet<String> {
    let opts = Recipe::default();
    builtin()
        .cases
        .into_iter()
        .map(|c| c.name)
        .chain(
            random_specs(seed, n)
                .into_iter()
                .filter_map(|s| s.case(&opts).ok())
                .map(|c| c.name),
        )
        .collect()
}

#[test]
fn a_pack_round_trips_through_check_and_fails_what_check_random_fails() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("pack");
    beast()
        .args(["cases", "--random", "50", "--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let written = stems(&out, "in");
    assert_eq!(written, expected_names(3, 50));
    assert_eq!(stems(&out, "out"), written);

    let pack = out.to_string_lossy().into_owned();
    beast()
        .args([
            "check",
            "--sandbox",
            "none",
            "--no-builtin",
            "--cases",
            &pack,
            "--",
            BEAST,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{} passed, 0 failed",
            written.len()
        )));

    let from_pack = failed_names(&[
        "--no-builtin",
        "--cases",
        &pack,
        "--",
        BEAST,
        "--exhaust",
        "stop",
    ]);
    let from_random = failed_names(&[
        "--random",
        "50",
        "--seed",
        "3",
        "--",
        BEAST,
        "--exhaust",
        "stop",
    ]);
    assert!(!from_pack.is_empty(), "--exhaust stop fails some case");
    assert_eq!(from_pack, from_random);
}

#[test]
fn discriminating_selection_over_500_cases_is_failed_by_every_other_switch_combination() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("pack");
    let run = beast()
        .args([
            "cases",
            "--random",
            "500",
            "--seed",
            "1",
            "--select",
            "discriminating",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("beast cases runs");
    assert!(run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    let kept = stems(&out, "in");
    println!(
        "discriminating set over the built-ins and 500 random cases: {} cases",
        kept.len()
    );
    assert!(
        stderr.contains(&format!("kept {} of ", kept.len())),
        "{stderr}"
    );
    let all = expected_names(1, 500).len();
    assert!(kept.len() < all);

    let puzzles: Vec<_> = kept
        .iter()
        .map(|name| {
            let input = std::fs::read(out.join(format!("{name}.in"))).expect("the .in file");
            beast_engine::beast::Puzzle::parse_bytes(&input).expect("a valid puzzle")
        })
        .collect();
    for rules in pack::switch_combinations().into_iter().skip(1) {
        let caught = puzzles.iter().any(|p| {
            pack::answer(p, rules, &mut || true) != pack::answer(p, Rules::OURS, &mut || true)
        });
        assert!(caught, "no kept case fails {}", variant::flags(rules));
    }
}

#[test]
fn a_kattis_package_has_the_samples_the_secret_cases_and_a_problem_yaml() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("problem");
    beast()
        .args([
            "cases", "--random", "20", "--seed", "5", "--format", "kattis", "--out",
        ])
        .arg(&out)
        .assert()
        .success();

    let yaml = std::fs::read_to_string(out.join("problem.yaml")).expect("problem.yaml");
    let keys: Vec<(&str, &str)> = yaml
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with(' ') && !l.trim().is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    let name = keys.iter().find(|(k, _)| *k == "name").map(|(_, v)| *v);
    assert!(name.is_some_and(|n| n.contains("Beasts")), "{yaml}");
    assert!(keys.iter().any(|(k, _)| *k == "validation"));
    assert!(keys.iter().any(|(k, v)| *k == "license" && *v != "unknown"));
    assert!(keys.iter().any(|(k, v)| *k == "uuid" && v.len() == 36));
    for part in [
        "problem_statement/problem.en.tex",
        "input_validators/validate.py",
        "submissions/accepted/beasts.py",
        "submissions/wrong_answer/target-after.py",
    ] {
        assert!(out.join(part).is_file(), "no {part}");
    }

    let sample = out.join("data/sample");
    let secret = out.join("data/secret");
    let samples: BTreeSet<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
    assert_eq!(stems(&sample, "in"), samples);
    assert_eq!(stems(&sample, "ans"), samples);
    let rest: BTreeSet<String> = expected_names(5, 20)
        .difference(&samples)
        .cloned()
        .collect();
    assert_eq!(stems(&secret, "in"), rest);
    assert_eq!(stems(&secret, "ans"), rest);
    let files = std::fs::read_dir(&secret).expect("data/secret").count();
    assert_eq!(files, 2 * rest.len());

    beast()
        .args(["check", "--sandbox", "none", "--no-builtin", "--cases"])
        .arg(&secret)
        .args(["--", BEAST])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{} passed, 0 failed",
            rest.len()
        )));
}

#[test]
fn existing_files_are_kept_without_force_and_the_first_is_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("pack");
    let write = |force: bool| {
        let mut cmd = beast();
        cmd.args([
            "cases",
            "--no-builtin",
            "--random",
            "2",
            "--seed",
            "9",
            "--out",
        ])
        .arg(&out);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
    };
    write(false).success();
    // Files of no pack of ours: the pack's manifest gone, only the names collide.
    std::fs::remove_file(out.join(".beast-cases-files")).expect("the manifest");
    let first = out.join("random-9-1.in");
    std::fs::write(&first, "changed").expect("writable");
    write(false).code(2).stderr(
        predicate::str::contains(first.display().to_string())
            .and(predicate::str::contains("--force")),
    );
    assert_eq!(
        std::fs::read_to_string(&first).ok().as_deref(),
        Some("changed")
    );
    write(true).success();
    assert_ne!(
        std::fs::read_to_string(&first).ok().as_deref(),
        Some("changed")
    );
}

#[test]
fn readings_files_list_the_sixteen_switch_combinations() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("pack");
    beast()
        .args(["cases", "--readings", "--out"])
        .arg(&out)
        .assert()
        .success();
    for c in builtin().cases {
        let text = std::fs::read_to_string(out.join(format!("{}.readings.json", c.name)))
            .expect("a readings file per case");
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let readings = json["readings"].as_array().expect("a list");
        assert_eq!(readings.len(), 16);
        for (r, rules) in readings.iter().zip(pack::switch_combinations()) {
            assert_eq!(r["flags"], variant::flags(rules));
            assert_eq!(
                r["answer"].as_str().map(str::to_string),
                pack::answer(&c.puzzle, rules, &mut || true)
            );
        }
    }
}

#[test]
fn markdown_prints_a_test_cases_block_shortest_first_within_max_size() {
    let run = beast()
        .args(["cases", "--format", "markdown", "--max-size", "40"])
        .output()
        .expect("beast cases runs");
    assert!(run.status.success());
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.starts_with("## Test cases\n"));
    let mut small: Vec<_> = builtin()
        .cases
        .into_iter()
        .filter(|c| c.input.len() <= 40)
        .collect();
    small.sort_by(|a, b| (a.input.len(), &a.name).cmp(&(b.input.len(), &b.name)));
    let listed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('`')?.strip_suffix('`'))
        .filter(|l| !l.starts_with('`'))
        .collect();
    let want: Vec<&str> = small.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(listed, want);
}

#[test]
fn max_size_makes_random_puzzles_that_fit_instead_of_an_empty_block() {
    // Every default puzzle is 207 bytes: the options shrink so that ten of 200 are made.
    let run = beast()
        .args(["cases", "--no-builtin", "--random", "10", "--seed", "1"])
        .args(["--format", "markdown", "--max-size", "200"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "--size 15x9 --beasts 3 --moves 28",
        ));
    let text = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    let blocks: Vec<&str> = text.split("\n```\n").skip(1).step_by(4).collect();
    assert_eq!(blocks.len(), 10, "{text}");
    for block in blocks {
        let puzzle = format!("{block}\n");
        assert!(puzzle.len() <= 200, "{puzzle}");
        assert!(
            beast_engine::beast::Puzzle::parse(&puzzle).is_ok(),
            "{puzzle}"
        );
    }
    beast()
        .args(["cases", "--no-builtin", "--random", "3", "--seed", "1"])
        .args(["--format", "markdown", "--max-size", "16"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--max-size 16 is too small"));
    beast()
        .args(["cases", "--format", "markdown", "--max-size", "5"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no case to write"));
}

#[test]
fn files_and_kattis_formats_need_out() {
    beast()
        .args(["cases"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out"));
    beast()
        .args(["cases", "--format", "kattis"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out"));
}
