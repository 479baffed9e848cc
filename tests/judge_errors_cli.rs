//! A failed set-up is the judge's error, not the answer's: when the sandbox helper cannot
//! set a case up, it says so in the judge's status file, a channel no answer can reach,
//! and the case is an IE (tried twice) that counts against nobody; the check exits 2. An
//! answer's own exit status, 125 and 127 included, is never read as one.
//!
//! The failure is a real one, made from outside: a `--bind` directory that vanishes
//! between the planning and a case (removed by the test once the first case's answer is
//! seen running). `--input file` and one job make every case set up its jail when it
//! starts, after the one before it ended.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::BEAST;

/// How long any run here may take.
const BOUND: Duration = Duration::from_secs(60);

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    })
}

/// A user for the non-root runs, made when missing (as `jail::breakouts` does).
fn test_user() -> Option<String> {
    let name = "beast-judge-test";
    let exists = Command::new("id")
        .arg(name)
        .output()
        .is_ok_and(|o| o.status.success());
    if !exists {
        let made = Command::new("useradd")
            .args(["--create-home", name])
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: cannot create the user {name} (useradd failed)");
            return None;
        }
    }
    Some(name.to_string())
}

/// Who runs the judge: root (or whoever runs the tests), and a normal user made for the
/// test when the tests run as root.
fn judges() -> Vec<Option<String>> {
    let mut who = vec![None];
    if is_root() {
        who.extend(test_user().map(Some));
    }
    who
}

/// A directory everyone may read, holding a copy of the judge (the user may not reach
/// the build's) and `shown/`, the directory the runs `--bind`; owned by `user`.
fn place(user: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let place = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let judge = place.path().join("beast");
    crate::util::copy_executable(BEAST, &judge);
    std::fs::create_dir(place.path().join("shown")).expect("mkdir");
    if let Some(user) = user {
        let status = Command::new("chown")
            .args(["-R", &format!("{user}:{user}")])
            .arg(place.path())
            .status()
            .expect("chown runs");
        assert!(status.success());
    }
    (place, judge)
}

/// `judge check ARGS` run by `user` (or by this process), in `dir`.
fn check(user: Option<&str>, judge: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut cmd = match user {
        Some(user) => {
            let mut c = Command::new("runuser");
            c.args(["-u", user, "--"]).arg(judge);
            c
        }
        None => Command::new(judge),
    };
    cmd.arg("check")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// True when a process runs whose first argument is `sh` and which has `marker` among its
/// arguments: the answer itself, started in its jail (its helper's first argument is the
/// judge).
fn answer_runs(marker: &str) -> bool {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return false;
    };
    procs.flatten().any(|p| {
        let Ok(cmdline) = std::fs::read(p.path().join("cmdline")) else {
            return false;
        };
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        args.first() == Some(&&b"sh"[..]) && args.contains(&marker.as_bytes())
    })
}

/// Runs `cmd`, whose answer (`sh -c 'sleep 1; echo 0' MARKER`) is slow on purpose; once
/// the first case's answer runs, removes `shown`, which the judge binds into every jail:
/// the next case cannot be set up. Returns what the judge printed.
fn with_a_vanishing_bind(mut cmd: Command, shown: &Path, marker: &str) -> Output {
    let mut child = cmd.spawn().expect("the judge starts");
    let since = Instant::now();
    while !answer_runs(marker) {
        if child.try_wait().is_ok_and(|s| s.is_some()) {
            let out = child.wait_with_output().expect("the judge ended");
            panic!(
                "the judge ended before the answer was seen: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(since.elapsed() < BOUND, "the first case's answer never ran");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::remove_dir(shown).expect("remove the bound directory");
    let out = child.wait_with_output().expect("the judge ends");
    assert!(
        since.elapsed() < BOUND,
        "the judge took {:?}",
        since.elapsed()
    );
    out
}

/// The arguments of a run with a vanishing bind: two cases (both answered by `0`), one at
/// a time, each with its own jail set up when it starts.
fn vanishing_args<'a>(shown: &'a str, marker: &'a str) -> Vec<&'a str> {
    vec![
        "--bind",
        shown,
        "--input",
        "file",
        "--jobs",
        "1",
        "--shrink",
        "none",
        "--only",
        "no-beasts",
        "--only",
        "beast-behind-beast",
        "--timeout",
        "30",
        "--",
        "sh",
        "-c",
        "sleep 1; echo 0",
        marker,
    ]
}

#[test]
fn a_jail_that_cannot_be_set_up_is_an_internal_error_and_the_check_exits_2() {
    for user in judges() {
        let who = user.as_deref().unwrap_or("this user");
        let (place, judge) = place(user.as_deref());
        let shown = place.path().join("shown");
        let junit = place.path().join("junit.xml");
        let marker = format!("ie-marker-{}-{who}", std::process::id());
        let shown_arg = shown.to_string_lossy().into_owned();
        let junit_arg = junit.to_string_lossy().into_owned();
        let mut args = vec!["--format", "json", "--junit", &junit_arg];
        args.extend(vanishing_args(&shown_arg, &marker));
        let cmd = check(user.as_deref(), &judge, place.path(), &args);
        let out = with_a_vanishing_bind(cmd, &shown, &marker);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{who}: {stdout}{stderr}");
        assert!(
            stderr.contains("error: 1 case not judged: the sandbox could not set it up"),
            "{who}: {stderr}"
        );
        let records: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        let verdicts: Vec<&str> = records
            .iter()
            .filter(|r| r["type"] == "case")
            .map(|r| r["verdict"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(verdicts, ["AC", "IE"], "{who}: {stdout}");
        let ie = records.iter().find(|r| r["verdict"] == "IE").expect("IE");
        let detail = ie["detail"].as_str().unwrap_or_default();
        assert!(
            detail.starts_with("internal error while setting up the jail: bind a path: "),
            "{who}: {detail}"
        );
        assert_eq!(ie["passed"], false);
        let summary = records.last().expect("a summary");
        assert_eq!(
            (&summary["passed"], &summary["failed"], &summary["ie"]),
            (&1.into(), &0.into(), &1.into()),
            "{who}: the IE counts against nobody: {summary}"
        );
        let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
        assert!(
            xml.contains("failures=\"0\" errors=\"1\"") && xml.contains("<error type=\"IE\""),
            "{who}: an error, not a failure: {xml}"
        );
        assert!(!xml.contains("<failure"), "{who}: {xml}");
    }
}

#[test]
fn the_text_report_the_leaderboard_and_the_post_do_not_count_an_ie_against_the_answer() {
    let (place, judge) = place(None);
    let script = place.path().join("golf.sh");
    std::fs::write(&script, "echo 0\n").expect("the source");
    let source = script.to_string_lossy().into_owned();
    // `--post` is a text report's.
    let asked: [&[&str]; 2] = [&["--post", "--source", &source], &["--format", "markdown"]];
    for (n, (format, flags)) in ["text", "markdown"].into_iter().zip(asked).enumerate() {
        let shown = place.path().join("shown");
        std::fs::create_dir_all(&shown).expect("mkdir");
        let marker = format!("ie-report-{}-{n}", std::process::id());
        let shown_arg = shown.to_string_lossy().into_owned();
        let mut args = flags.to_vec();
        args.extend(vanishing_args(&shown_arg, &marker));
        let out = with_a_vanishing_bind(check(None, &judge, place.path(), &args), &shown, &marker);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(2), "{format}: {all}");
        match format {
            "text" => {
                assert!(
                    all.contains("IE x1: internal error while setting up the jail: bind a path:"),
                    "{all}"
                );
                assert!(
                    all.contains("1 passed, 0 failed, 1 not judged (IE)"),
                    "{all}"
                );
                assert!(all.contains("no post: 1 case not judged"), "{all}");
                assert!(!all.contains("RTE"), "{all}");
            }
            _ => {
                let row = all
                    .lines()
                    .find(|l| l.starts_with("| 1 |"))
                    .unwrap_or_else(|| panic!("no row: {all}"));
                assert!(
                    row.contains("| 1/1 |"),
                    "only the judged case counts: {row}"
                );
                assert!(row.contains("not judged: 1 IE"), "{row}");
            }
        }
    }
}

#[test]
fn an_answer_that_exits_125_or_127_is_still_a_runtime_error() {
    for user in judges() {
        let who = user.as_deref().unwrap_or("this user");
        let (place, judge) = place(user.as_deref());
        for code in ["125", "127"] {
            // It even says what the helper would say on a failed step.
            let script = format!(
                "echo 'beast sandbox: cannot bind a path: ENOENT: No such file or directory' \
                 >&2; exit {code}"
            );
            let out = check(
                user.as_deref(),
                &judge,
                place.path(),
                &[
                    "--format",
                    "json",
                    "--shrink",
                    "none",
                    "--only",
                    "no-beasts",
                    "--",
                    "sh",
                    "-c",
                    &script,
                ],
            )
            .output()
            .expect("the judge runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{who}, exit {code}: {stdout}");
            let case: serde_json::Value =
                serde_json::from_str(stdout.lines().next().unwrap_or_default()).expect("JSON");
            assert_eq!(case["verdict"], "RTE", "{who}, exit {code}: {stdout}");
            let detail = case["detail"].as_str().unwrap_or_default();
            assert!(detail.starts_with(&format!("exit code {code}")), "{detail}");
        }
    }
}

#[test]
fn a_bound_path_under_var_tmp_is_shown_and_nothing_is_made_on_the_hosts_tmp() {
    // The jail's `/var/tmp` is a link to its `/tmp`; made absolute, the judge followed it
    // out of the new root and made the bound path's place on the host's `/tmp`.
    let dir = tempfile::Builder::new()
        .prefix("beast-bind-")
        .tempdir_in("/var/tmp")
        .expect("a directory in /var/tmp");
    std::fs::write(dir.path().join("shown.txt"), "0\n").expect("write");
    let name = dir.path().file_name().expect("a name").to_owned();
    let on_host_tmp = Path::new("/tmp").join(&name);
    let shown = dir.path().join("shown.txt");
    let read = format!("cat {}", shown.display());
    let out = Command::new(BEAST)
        .args(["check", "--shrink", "none", "--only", "no-beasts", "--bind"])
        .arg(&shown)
        .args(["--", "sh", "-c", &read])
        .stdin(Stdio::null())
        .output()
        .expect("the judge runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!on_host_tmp.exists(), "{} was made", on_host_tmp.display());
    assert_eq!(out.status.code(), Some(0), "the answer reads it: {text}");
}
