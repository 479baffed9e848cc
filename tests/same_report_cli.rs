//! A report is a function of the binary, the answer, the seed and the flags: every search of
//! the diagnosis is bounded by counts, so the same run gives the same bytes (times aside)
//! beside processes that take every core, on one thread as on two.

use std::process::{Child, Command, Stdio};

use crate::util::{BEAST, beast, fixture};

/// Busy loops that take the machine's cores while they live; killed when dropped.
struct Hogs(Vec<Child>);

impl Hogs {
    fn spawn(n: usize) -> Hogs {
        let spin = || {
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .stdin(Stdio::null())
                .spawn()
                .expect("a busy loop starts")
        };
        Hogs((0..n).map(|_| spin()).collect())
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// The report (stdout, then stderr) of `beast check` of an answer that is flaky on some
/// puzzles and reads the rules as `--target after` on the others, with its times masked.
fn report(jobs: &str) -> String {
    let state = tempfile::tempdir().expect("a temporary folder");
    let out = beast()
        .env("BEAST", BEAST)
        .env("FLAKY_STATE", state.path())
        .args([
            "check",
            "--no-builtin",
            "--random",
            "40",
            "--seed",
            "5",
            "--repeat",
            "1",
        ])
        .args(["--sandbox", "none", "--jobs", jobs, "--", "sh"])
        .arg(fixture("flaky-first-run.sh"))
        .output()
        .expect("beast runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout) + "\n" + String::from_utf8_lossy(&out.stderr);
    text.lines()
        .map(|l| match l.starts_with("wall ") {
            // The wall time, the answer's time and its slowest case.
            true => "wall (masked)".to_string(),
            false => without_times(l),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` without its times: each ` (12.5 ms)` or ` (1.2 s)`.
fn without_times(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(" (") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let inside = &from[2..];
        let number = inside
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(0);
        let unit = [" ms)", " s)"]
            .into_iter()
            .find(|u| number > 0 && inside[number..].starts_with(u));
        match unit {
            Some(u) => rest = &inside[number + u.len()..],
            None => {
                out.push_str(" (");
                rest = inside;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn times_are_masked_and_nothing_else() {
    assert_eq!(without_times("AC  a (39.8 ms) (x) (2 s)"), "AC  a (x)");
    assert_eq!(without_times("b (ms) (3)"), "b (ms) (3)");
}

#[test]
#[cfg_attr(windows, ignore = "its answer is a shell script")]
fn the_same_run_gives_the_same_report_under_load_on_one_thread_as_on_two() {
    let loaded = {
        let _hogs = Hogs::spawn(3);
        report("1")
    };
    let other = report("2");
    // The diagnosis went through the flaky check, the hypothesis search and the design of
    // confirming cases.
    assert!(
        loaded.contains("WA x1: flaky: random-5-20 gave"),
        "{loaded}"
    );
    assert!(
        loaded.contains("(--target after) (confirmed on 4 of 4 designed cases)"),
        "{loaded}"
    );
    assert_eq!(loaded, other);
}

#[test]
fn the_time_budgets_are_refused_with_the_counts_that_replace_them() {
    for (args, instead) in [
        (
            &["check", "--shrink-time", "3", "--", BEAST][..],
            "--shrink-tries N",
        ),
        (
            &["check", "--engine-time", "10", "--", BEAST][..],
            "--engine-steps N",
        ),
        (&["audit", "--time-limit", "60"][..], "--budget N"),
    ] {
        let out = beast().args(args).output().expect("beast runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("is gone: ") && err.contains(instead),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn verbose_says_every_budget() {
    let out = beast()
        .args([
            "check",
            "-v",
            "--no-builtin",
            "--random",
            "1",
            "--seed",
            "1",
        ])
        .args([
            "--engine-steps",
            "777",
            "--shrink-tries",
            "55",
            "--sandbox",
            "none",
        ])
        .args(["--", BEAST])
        .output()
        .expect("beast runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    for said in [
        "judging a case 777 steps (--engine-steps",
        "the diagnosis 250000 steps",
        "the design of confirming cases 100000 steps",
        "shrinking 55 smaller puzzles a group (--shrink-tries)",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
}
