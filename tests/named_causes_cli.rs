//! Errors name their cause, as a newcomer needs them to: an empty puzzle file by its name
//! and the word empty, a bad value from the environment by its variable, `--only`
//! patterns that matched nothing by the patterns; a bad `BEAST_COLOR` is a warning, not
//! a broken `beast FILE`; `--color always` wins over `NO_COLOR`, and clap's own errors
//! follow `--color` and `NO_COLOR`; `-j N` is `--jobs N`; the golf count says the carriage
//! returns and the byte order mark it counted and the `#!` flags it left out.

use std::path::PathBuf;

use crate::util::{BEAST, beast, example};

/// `beast ARGS` with `env` set and the colour variables removed first: exit code, stdout,
/// stderr.
fn run(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut cmd = beast();
    for var in [
        "NO_COLOR",
        "BEAST_COLOR",
        "CLICOLOR_FORCE",
        "BEAST_TIMEOUT",
        "BEAST_JOBS",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(args).output().expect("beast runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file `name` holding `text` in a fresh directory.
fn file(name: &str, text: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

const ESC: &str = "\x1b[";

/// The start of crossterm's code that sets a foreground colour.
const SET_COLOUR: &str = "\x1b[38;5;";

#[test]
fn an_empty_puzzle_file_is_named_and_said_to_be_empty() {
    let (_dir, path) = file("puzzle.txt", b"");
    let name = path.to_str().expect("UTF-8 path");
    let (code, out, err) = run(&[name], &[]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.starts_with(&format!("error: {name} is empty: a puzzle starts with")),
        "{err}"
    );
    let (code, _, err) = beast()
        .write_stdin("\n")
        .output()
        .map(|o| {
            (
                o.status.code(),
                (),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        })
        .expect("beast runs");
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: standard input is empty"), "{err}");
    // A file that is not empty but wrong is named with the place.
    let (_dir, bad) = file("bad.txt", b"5 3\n#####\n#O~h#\n#####\nR\n");
    let bad = bad.to_str().expect("UTF-8 path");
    let (code, _, err) = run(&[bad], &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with(&format!("error: {bad}: line 3, column 4: 'h' is not")),
        "{err}"
    );
}

#[test]
fn a_bad_value_from_the_environment_names_its_variable() {
    for (var, value, flag) in [
        ("BEAST_TIMEOUT", "abc", "--timeout <SECONDS>"),
        ("BEAST_JOBS", "0", "--jobs <N>"),
        ("BEAST_SANDBOX", "bogus", "--sandbox <SANDBOX>"),
    ] {
        let (code, _, err) = run(&["check", "--", BEAST], &[(var, value)]);
        assert_eq!(code, Some(2), "{var}: {err}");
        assert!(
            err.starts_with(&format!(
                "error: invalid value '{value}' in the environment variable {var}, the default \
                 of '{flag}'"
            )),
            "{var}: {err}"
        );
    }
    // A bad value typed is the flag's, as clap says it.
    let (code, _, err) = run(
        &["check", "--timeout", "xyz", "--", BEAST],
        &[("BEAST_TIMEOUT", "abc")],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("invalid value 'xyz' for '--timeout <SECONDS>'"),
        "{err}"
    );
    assert!(!err.contains("BEAST_TIMEOUT"), "{err}");
}

#[test]
fn a_bad_beast_color_is_a_warning_and_beast_file_still_judges() {
    let sample = example("wikipedia.txt");
    let sample = sample.to_str().expect("UTF-8 path");
    let (code, out, err) = run(&[sample], &[("BEAST_COLOR", "bogus")]);
    assert_eq!((code, out.as_str()), (Some(0), "8\n"), "{err}");
    assert!(
        err.contains("warning: BEAST_COLOR=bogus is not auto, always or never: ignored"),
        "{err}"
    );
    // A bad --color typed is still refused.
    let (code, _, err) = run(&["--color", "bogus", sample], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid value 'bogus'"), "{err}");
}

#[test]
fn color_always_wins_over_no_color_and_clap_follows_both() {
    let sample = example("wikipedia.txt");
    let sample = sample.to_str().expect("UTF-8 path");
    let (code, _, trace) = run(
        &["--color", "always", "--trace", sample],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(code, Some(0));
    // Colour, not bare reset codes: a foreground colour is set.
    assert!(trace.contains(SET_COLOUR), "{trace:?}");
    let (code, out, _) = run(
        &[
            "check",
            "--color",
            "always",
            "--sandbox",
            "none",
            "--only",
            "no-beasts",
            "--",
            BEAST,
        ],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(code, Some(0));
    let summary = out.lines().last().unwrap_or_default();
    assert!(
        summary.contains(SET_COLOUR) && summary.contains("1 passed, 0 failed"),
        "the summary line is painted: {out:?}"
    );
    // clap's own errors: coloured under --color always (NO_COLOR or not), plain under
    // NO_COLOR, even when CLICOLOR_FORCE asks clap's terminal library for colour.
    let typo = ["check", "--radom", "1"];
    let (_, _, err) = run(
        &[&["--color", "always"][..], &typo].concat(),
        &[("NO_COLOR", "1")],
    );
    assert!(err.contains(ESC), "{err:?}");
    let (_, _, err) = run(&typo, &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]);
    assert!(
        !err.contains('\x1b') && err.contains("'--radom'"),
        "{err:?}"
    );
    let (_, _, err) = run(&typo, &[("BEAST_COLOR", "never"), ("CLICOLOR_FORCE", "1")]);
    assert!(!err.contains('\x1b'), "{err:?}");
}

#[test]
fn only_patterns_that_match_nothing_are_named() {
    let (code, _, err) = run(
        &["check", "--only", "nomatch*", "--only", "x?", "--", BEAST],
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--only 'nomatch*' --only 'x?' matched no case's name"),
        "{err}"
    );
    assert!(!err.contains("notes above"), "{err}");
}

#[test]
fn dash_j_is_jobs() {
    let (code, out, err) = run(
        &[
            "check",
            "-j",
            "1",
            "--sandbox",
            "none",
            "--only",
            "no-beasts",
            "--",
            BEAST,
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    let (code, _, err) = run(&["check", "-j", "0", "--", BEAST], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("'--jobs <N>'"), "{err}");
}

#[test]
fn the_score_says_the_carriage_returns_and_bom_it_counted_and_the_flags_it_left_out() {
    let (_dir, crlf) = file("a.py", b"\xEF\xBB\xBFa=1\r\nb=2\r\nprint(8)\r\n");
    let crlf = crlf.to_str().expect("UTF-8 path");
    let (code, out, _) = run(&["score", crlf], &[]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!(
            "{crlf}: 21 bytes, 19 chars; not counted: the final newline; 2 carriage returns \
             counted; a BOM counted\n"
        )
    );
    let (_dir, perl) = file("a.pl", b"#!perl -n\nprint 8\n");
    let perl = perl.to_str().expect("UTF-8 path");
    let (_, out, _) = run(&["score", perl], &[]);
    assert_eq!(
        out,
        format!(
            "{perl}: 7 bytes, 7 chars; not counted: the #! line with its flag -n (a post names \
             it in its header), the final newline\n"
        )
    );
}
