//! Issue 30: `beast check` judges what the challenge promises. An answer whose only quirk is
//! input the challenge never shows (the moves split over lines) passes the default check,
//! and `--robustness` reports it in a section of its own without failing the run; an answer
//! tuned to the built-in examples is told so in the diagnosis's first line. The answers are
//! small scripts of our own, written by each test into a temporary directory.

use std::path::{Path, PathBuf};

use beast_engine::judge::cases;
use beast_engine::judge::generate::Recipe;
use serde_json::Value;

use crate::util::{BEAST, beast, example, json};

/// A temporary directory holding the test's answers and outputs.
struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Dir {
        Dir(tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir"))
    }

    /// Writes `text` to `name` in the directory, and returns its path.
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).expect("write the file");
        path
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

/// An answer that reads the size line, the rows and the first line of moves only, and lets
/// `beast` answer from those: right on the challenge's own form, wrong when later moves
/// are on a second line (the quirk of an answer that reads one line of moves).
fn one_moves_line(dir: &Dir) -> String {
    let script = format!(
        "IFS= read -r size\n\
         rows=$(printf '%s' \"$size\" | tr -d '\\r' | cut -d' ' -f2)\n\
         {{ printf '%s\\n' \"$size\"; head -n $((rows + 1)); }} | '{BEAST}'\n"
    );
    dir.write("one_line.sh", &script).display().to_string()
}

/// `beast check ARGS -- sh SCRIPT`, unconfined for speed: the exit code and stdout.
fn check(args: &[&str], script: &str) -> (Option<i32>, String) {
    let out = beast()
        .args(["check", "--sandbox", "none"])
        .args(args)
        .args(["--", "sh", script])
        .output()
        .expect("beast check runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

/// How many of the first 40 random cases of seed 1 have a twin with its moves split over
/// lines, as the engine makes them.
fn split_twins_of_seed_one() -> usize {
    let recipe = Recipe::default();
    cases::random_specs(1, 40)
        .into_iter()
        .filter_map(|spec| spec.twin_within(&recipe, || true))
        .filter(|twin| twin.as_ref().is_ok_and(|t| t.layout.moves_split))
        .count()
}

/// The JSON records of a `--format json` run.
fn records(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| json(l.as_bytes())).collect()
}

#[test]
fn a_split_moves_quirk_passes_the_default_check() {
    let dir = Dir::new();
    let answer = one_moves_line(&dir);
    let (code, text) = check(&["--random", "40", "--seed", "1"], &answer);
    assert_eq!(code, Some(0), "{text}");
    let all = crate::util::builtin_count() + 40;
    assert!(
        text.contains(&format!("diagnosis: correct on all {all} cases.")),
        "{text}"
    );
    assert!(!text.contains("robustness"), "{text}");
}

#[test]
fn a_split_moves_quirk_shows_under_robustness_in_its_own_section_and_still_passes() {
    let dir = Dir::new();
    let answer = one_moves_line(&dir);
    let (code, text) = check(&["--random", "40", "--seed", "1", "--robustness"], &answer);
    assert_eq!(code, Some(0), "never a failure:\n{text}");
    let section = format!(
        "robustness: fails when the moves are split over lines (2 of {} such cases); the \
         challenge does not promise such input",
        split_twins_of_seed_one()
    );
    assert!(text.contains(&section), "{text}");
    assert!(
        text.contains("  cases: random-1-6.robust, random-1-32.robust\n"),
        "{text}"
    );
    // The challenge's cases are judged as before: none of the section is in the diagnosis.
    let all = crate::util::builtin_count() + 40;
    assert!(
        text.contains(&format!("diagnosis: correct on all {all} cases.")),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("{all} passed, 0 failed\n")),
        "{text}"
    );

    // The JSON: each twin's record says it is one, the summary counts only the challenge's
    // cases and carries the section.
    let (code, out) = check(
        &[
            "--random",
            "40",
            "--seed",
            "1",
            "--robustness",
            "--format",
            "json",
        ],
        &answer,
    );
    assert_eq!(code, Some(0));
    let all = records(&out);
    let twins: Vec<&Value> = all
        .iter()
        .filter(|r| r["name"].as_str().is_some_and(|n| n.ends_with(".robust")))
        .collect();
    assert!(
        twins.len() >= split_twins_of_seed_one(),
        "{} twins",
        twins.len()
    );
    assert!(twins.iter().all(|r| r["robustness"] == true));
    let failed_twin = twins
        .iter()
        .find(|r| r["name"] == "random-1-6.robust")
        .expect("the twin of random-1-6");
    assert_eq!(failed_twin["passed"], false);
    // Its `gen` command prints the very text it failed on.
    let seed = cases::random_specs(1, 40).get(5).expect("random-1-6").seed;
    assert_eq!(
        failed_twin["gen"],
        format!("beast gen --seed {seed} --robustness").as_str()
    );
    let printed = beast()
        .args(["gen", "--seed", &seed.to_string(), "--robustness"])
        .output()
        .expect("beast gen runs");
    assert_eq!(
        failed_twin["puzzle"].as_str(),
        Some(String::from_utf8_lossy(&printed.stdout).as_ref())
    );
    let summary = all.last().expect("a summary");
    assert_eq!(
        (summary["passed"].as_u64(), summary["failed"].as_u64()),
        (Some(crate::util::builtin_count() as u64 + 40), Some(0))
    );
    let section = &summary["diagnosis"]["robustness"];
    assert_eq!(section["failed"], 2, "{section}");
    assert_eq!(section["failing"][0], "random-1-6.robust");
}

#[test]
fn merged_shards_keep_the_robustness_set_apart() {
    let dir = Dir::new();
    let answer = one_moves_line(&dir);
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let (code, out) = check(
            &[
                "--random",
                "40",
                "--seed",
                "1",
                "--robustness",
                "--no-builtin",
                "--shard",
                k,
                "--format",
                "json",
            ],
            &answer,
        );
        assert_eq!(code, Some(0), "{out}");
        let name = format!("shard{}.json", &k[..1]);
        shards.push(dir.write(&name, &out).display().to_string());
    }
    let out = beast()
        .args(["check", "--merge"])
        .args(&shards)
        .output()
        .expect("beast check --merge runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(out.status.code(), Some(0), "{text}");
    let section = format!(
        "robustness: fails when the moves are split over lines (2 of {} such",
        split_twins_of_seed_one()
    );
    assert!(text.contains(&section), "{text}");
    assert!(text.ends_with("40 passed, 0 failed\n"), "{text}");
}

/// A Python answer that knows the built-in examples' outputs by heart and prints `0` for
/// anything else.
fn lookup_table(dir: &Dir) -> String {
    let mut table = String::new();
    let examples = std::fs::read_dir(example("")).expect("the examples");
    for entry in examples {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "txt") {
            let out = path.with_extension("out");
            let (Ok(input), Ok(output)) = (
                std::fs::read_to_string(&path),
                std::fs::read_to_string(&out),
            ) else {
                continue;
            };
            table += &format!("    {input:?}: {output:?},\n");
        }
    }
    let script = format!(
        "import sys\nTABLE = {{\n{table}}}\n\
         sys.stdout.write(TABLE.get(sys.stdin.read(), '0\\n'))\n"
    );
    dir.write("lookup.py", &script).display().to_string()
}

#[test]
fn an_answer_tuned_to_the_builtin_cases_is_told_so_with_both_rates() {
    let dir = Dir::new();
    let answer = lookup_table(&dir);
    let out = beast()
        .args([
            "check",
            "--sandbox",
            "none",
            "--random",
            "30",
            "--seed",
            "2",
        ])
        .args(["--format", "json", "--", crate::util::python3(), &answer])
        .output()
        .expect("beast check runs");
    assert_eq!(out.status.code(), Some(1));
    let all = records(&String::from_utf8(out.stdout).expect("UTF-8"));
    let summary = all.last().expect("a summary");
    let failed = summary["failed"].as_u64().expect("a count");
    let builtin_failed = all
        .iter()
        .filter(|r| r["passed"] == false && r["seed"].is_null() && r.get("summary").is_none())
        .count();
    assert_eq!(builtin_failed, 0, "the table knows every example");
    assert!(failed >= 15, "{failed} of 30 random cases fail");
    let sentence = summary["diagnosis"]["sentence"]
        .as_str()
        .expect("a sentence");
    let lead = format!(
        "every built-in case passes, {failed} of 30 random ones fail: the answer may be tuned \
         to the examples. "
    );
    assert!(sentence.starts_with(&lead), "{sentence}");
    // The diagnosis goes on after it, as a sentence of its own.
    let rest = &sentence[lead.len()..];
    assert!(rest.starts_with(char::is_uppercase), "{sentence}");
}

#[test]
fn an_honest_answer_gets_no_tuned_line() {
    let dir = Dir::new();
    let answer = one_moves_line(&dir);
    let (code, text) = check(&["--random", "30", "--seed", "2"], &answer);
    assert_eq!(code, Some(0));
    assert!(!text.contains("tuned"), "{text}");
}

#[test]
fn a_pack_writes_its_robustness_set_apart_and_check_reads_only_the_pack() {
    let dir = Dir::new();
    let pack = dir.path().join("pack");
    beast()
        .args([
            "cases",
            "--no-builtin",
            "--random",
            "20",
            "--seed",
            "1",
            "--robustness",
        ])
        .arg("--out")
        .arg(&pack)
        .assert()
        .success();
    let twin = std::fs::read_to_string(pack.join("robustness/random-1-6.robust.in"))
        .expect("the twin of random-1-6");
    let base = std::fs::read_to_string(pack.join("random-1-6.in")).expect("random-1-6");
    assert_ne!(twin, base);
    assert_eq!(twin.replace(['\r', '\n'], ""), base.replace('\n', ""));
    assert!(!pack.join("random-1-6.robust.in").exists());
    // The pack's own cases are in the challenge's form; `--cases pack` runs only them.
    let answer = one_moves_line(&dir);
    let (code, text) = check(
        &["--no-builtin", "--cases", &pack.display().to_string()],
        &answer,
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.ends_with("20 passed, 0 failed\n"), "{text}");
    beast()
        .args([
            "cases",
            "--random",
            "2",
            "--seed",
            "1",
            "--robustness",
            "--format",
            "markdown",
        ])
        .assert()
        .failure()
        .stderr(predicates::str::contains("use it with --format files"));
}

#[test]
fn a_failing_robustness_case_does_not_stop_a_fail_fast_run() {
    let dir = Dir::new();
    let answer = one_moves_line(&dir);
    let (code, text) = check(
        &[
            "--random",
            "40",
            "--seed",
            "1",
            "--robustness",
            "--fail-fast",
            "--no-builtin",
        ],
        &answer,
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.ends_with("40 passed, 0 failed\n"), "{text}");
    assert!(
        text.contains("  cases: random-1-6.robust, random-1-32.robust\n"),
        "{text}"
    );
}

#[test]
fn the_list_names_only_the_twins_that_run() {
    let out = beast()
        .args([
            "check",
            "--list",
            "--no-builtin",
            "--random",
            "40",
            "--seed",
            "1",
        ])
        .args(["--robustness", "--", "true"])
        .output()
        .expect("beast check --list runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let recipe = Recipe::default();
    let mut want = Vec::new();
    for spec in cases::random_specs(1, 40) {
        want.push(spec.name.clone());
        if spec.twin_within(&recipe, || true).is_some() {
            want.push(format!("{}.robust", spec.name));
        }
    }
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}
