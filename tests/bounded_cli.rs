//! The judge's own work is bounded whatever the candidate or the puzzle: the diff of a huge
//! wrong answer, the `--random` count, and the waiting turns of a long chase.

use std::fs;

use crate::util::{beast, example};

/// A `--cases` directory holding the sample `name` (`name.txt` and `name.out`).
fn cases_dir(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for ext in ["txt", "out"] {
        let file = format!("{name}.{ext}");
        fs::copy(example(&file), dir.path().join(&file)).expect("copy the sample");
    }
    dir
}

/// 1 MiB of `8\n` against `aHHHH!\n0\n`: no line in common, the quadratic worst case of
/// a whole-text diff (over 120 s before the diff was capped). The report stays short.
#[test]
fn a_mebibyte_wrong_answer_gets_a_short_diff_with_a_note() {
    let dir = cases_dir("preference-death");
    let out = beast()
        .args(["check", "-v", "--no-builtin", "--cases"])
        .arg(dir.path())
        .args(["--", "sh", "-c", "yes 8 | head -c 1048576"])
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("sandbox: "), "{text}");
    assert!(text.contains("\nWA  preference-death"), "{text}");
    // The group shows the start of what was got, and how much there was.
    assert!(text.contains("bytes in all)"), "{text}");
    assert!(
        text.contains("diff cut: output differs at line 1; 1,048,576 bytes got"),
        "{text}"
    );
    assert!(text.len() < 8192, "{} bytes of report", text.len());
}

/// `--random` over 10 million is a usage error, not a "capacity overflow" panic or a
/// multi-gigabyte list.
#[test]
fn a_random_count_over_ten_million_is_refused_with_exit_2() {
    for n in ["10000001", "100000000", "18446744073709551615"] {
        let out = beast()
            .args(["check", "--random", n, "--seed", "1", "--", "true"])
            .output()
            .expect("beast runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{n}: {err}");
        assert!(
            err.contains(&format!("{n} random cases asked; at most 10,000,000 a run")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A valid 3 MB corridor whose beast needs over two million waiting turns to reach the
/// player: judged (it was refused with exit 2 when the waiting limit was a flat 2 million).
#[test]
fn a_corridor_needing_over_two_million_waiting_turns_is_judged() {
    let cols = 1_000_010;
    let wall = "#".repeat(cols);
    let puzzle = format!(
        "{cols} 3\n{wall}\n#O{}H#\n{wall}\nW\n",
        " ".repeat(cols - 4)
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("corridor.txt");
    fs::write(&file, puzzle).expect("write the corridor");
    beast()
        .arg("--json")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "\"turns\":{}",
            2 * (cols - 3)
        )))
        .stdout(predicates::str::contains("\"outcome\":\"eaten\""));
}
