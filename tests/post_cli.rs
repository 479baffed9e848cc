//! `beast check --post`: the Code Golf answer post of an answer that passes. The answers are
//! small scripts that run `beast` itself, so they pass every case.

use std::fs;

use predicates::prelude::*;

use crate::util::{BEAST, beast};

/// `beast check` on a few cases, uncontained (the scripts only run `beast`), with `BEAST`
/// passed on.
fn check(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = beast();
    cmd.env("BEAST", BEAST).args([
        "check",
        "--sandbox",
        "none",
        "--env",
        "BEAST",
        "--random",
        "3",
        "--seed",
        "7",
    ]);
    cmd.args(args);
    cmd
}

/// A script `answer.sh` in a new directory that runs `beast` on its input, and the directory.
fn answer_script() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("answer.sh");
    fs::write(&path, "exec \"$BEAST\" \"$@\"\n").expect("write the script");
    let path = path.display().to_string();
    (dir, path)
}

#[test]
fn post_names_the_interpreter_counts_bytes_and_says_what_passed() {
    let (_dir, script) = answer_script();
    let out = check(&["--post", "--", "bash", &script])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "{} passed, 0 failed",
            crate::util::builtin_count() + 3
        )))
        .get_output()
        .stdout
        .clone();
    let post = String::from_utf8(out).expect("UTF-8");
    let version = env!("CARGO_PKG_VERSION");
    let (header, rest) = post.split_once('\n').expect("a header line");
    assert!(header.starts_with("# Bash "), "{post}");
    assert!(header.ends_with(", 18 bytes"), "no final newline: {post}");
    assert_eq!(
        rest,
        format!(
            "\n    exec \"$BEAST\" \"$@\"\n\nPasses the 5 samples, {} rule examples and 3 random \
             puzzles (seed 7) of beast-judge {version}\n",
            crate::util::builtin_count() - 5
        )
    );
}

#[test]
fn backticks_go_in_pre_and_latin1_counts_a_byte_a_character() {
    let (dir, _) = answer_script();
    let source = dir.path().join("golf.txt");
    fs::write(&source, "é=`x`\n").expect("write");
    let source = source.display().to_string();
    let run = |encoding: &str| {
        check(&[
            "--no-builtin",
            "--post",
            "--language",
            "Golf 1",
            "--source",
            &source,
            "--encoding",
            encoding,
            "--",
            BEAST,
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
    };
    let version = env!("CARGO_PKG_VERSION");
    let tail = format!("Passes 3 random puzzles (seed 7) of beast-judge {version}\n");
    let body = format!("<pre><code>é=&#96;x&#96;</code></pre>\n\n{tail}");
    assert_eq!(
        String::from_utf8_lossy(&run("utf-8")),
        format!("# Golf 1, 6 bytes\n\n{body}")
    );
    assert_eq!(
        String::from_utf8_lossy(&run("latin-1")),
        format!("# Golf 1, 5 bytes\n\n{body}")
    );
}

#[test]
fn a_character_latin1_lacks_is_refused_with_its_place() {
    let (dir, _) = answer_script();
    let source = dir.path().join("golf.txt");
    fs::write(&source, "ab\nc→\n").expect("write");
    check(&[
        "--no-builtin",
        "--post",
        "--language",
        "X",
        "--encoding",
        "latin-1",
    ])
    .arg("--source")
    .arg(&source)
    .args(["--", BEAST])
    .assert()
    .code(2)
    .stdout("")
    .stderr(predicate::str::contains(
        "2:2: '→' (U+2192) has no Latin-1 byte",
    ));
}

#[test]
fn post_without_a_source_is_refused_before_any_case_runs() {
    check(&["--post", "--", BEAST])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--post needs the answer's code"))
        .stderr(predicate::str::contains("passed").not());
}

#[test]
fn a_failing_answer_gets_its_report_and_no_post() {
    let (dir, _) = answer_script();
    let wrong = dir.path().join("wrong.sh");
    fs::write(&wrong, "echo 0\n").expect("write");
    check(&["--no-builtin", "--post", "--language", "sh", "--", "sh"])
        .arg(&wrong)
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"\d+ passed, [1-9]\d* failed\n$").expect("regex"))
        .stdout(predicate::str::contains("# sh").not())
        .stderr(predicate::str::contains("no post"));
}

/// `--post` asks the judge's own interpreter its version, after every case ran: an
/// interrupt then ends the check at once (130 for SIGINT, 143 for SIGTERM), prints no post
/// and leaves no process. The interpreter is a fixture first on `PATH`, a `bash` that
/// sleeps on `--version` (and runs the real one otherwise).
#[cfg(unix)]
#[test]
fn an_interrupt_during_the_interpreters_version_query_ends_the_post() {
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let (dir, script) = answer_script();
        let bin = tempfile::tempdir().expect("temp dir");
        let asked = bin.path().join("asked");
        let fake = bin.path().join("bash");
        crate::util::write_executable(
            &fake,
            format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo $$ > '{}'; exec sleep 120; fi\n\
                 exec /bin/bash \"$@\"\n",
                asked.display()
            )
            .as_bytes(),
        );
        let path = format!(
            "{}:{}",
            bin.path().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut child = Command::new(BEAST)
            .env("BEAST", BEAST)
            .env("PATH", path)
            .args(["check", "--sandbox", "none", "--env", "BEAST"])
            .args(["--only", "no-beasts", "--post", "--", "bash", &script])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("beast starts");
        let started = Instant::now();
        let ceiling = Duration::from_secs(60);
        while fs::read_to_string(&asked).map_or(true, |s| !s.ends_with('\n')) {
            assert!(started.elapsed() < ceiling, "the version was never asked");
            assert!(
                child.try_wait().expect("waits").is_none(),
                "beast ended first"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let sleeper = fs::read_to_string(&asked).expect("its pid");
        let sent = Instant::now();
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let out = child.wait_with_output().expect("beast ends");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(code),
            "SIG{signal}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            sent.elapsed() < Duration::from_secs(30),
            "SIG{signal} took {:?} (the query sleeps 120 s)",
            sent.elapsed()
        );
        assert!(
            !stdout.contains("# Bash"),
            "no post after SIG{signal}: {stdout}"
        );
        let gone = !Path::new(&format!("/proc/{}", sleeper.trim())).exists();
        assert!(
            gone || !cfg!(target_os = "linux"),
            "the query was left running"
        );
    }
}
