//! `beast check` refuses, before the first case, a program that could not start on any
//! case: a directory or a device named as the program, a script without its run bit, a
//! `#!` line ending in a carriage return. Each refusal says what the program is and what
//! to do, exits 2 as a missing program does, and runs nothing.

use std::path::Path;

use crate::util::beast;

/// `beast check -- PROGRAM` run in `dir` (unsandboxed, so that nothing but the refusal
/// could stop it): its exit code and stderr.
fn check(dir: &Path, program: &str) -> (Option<i32>, String, String) {
    let out = beast()
        .current_dir(dir)
        .args(["check", "--sandbox", "none", "--", program])
        .output()
        .expect("beast runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `text` to `dir/name` with the permission bits `mode`.
fn script(dir: &Path, name: &str, text: &[u8], mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    crate::util::write_executable(&path, text);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A script's body that leaves a mark in `dir` on every case it runs.
fn marking(dir: &Path) -> String {
    format!("touch '{}'; echo 8", dir.join("ran-a-case").display())
}

#[test]
fn a_script_without_its_run_bit_is_refused_with_chmod_and_its_interpreter() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!("#!/bin/sh\n{}\n", marking(dir.path()));
    script(dir.path(), "answer.sh", text.as_bytes(), 0o644);
    let (code, out, err) = check(dir.path(), "./answer.sh");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the program ./answer.sh cannot start: it has no run bit"),
        "{err}"
    );
    assert!(err.contains("`chmod +x ./answer.sh`"), "{err}");
    assert!(err.contains("`beast check -- sh ./answer.sh`"), "{err}");
    assert!(
        !out.contains("RTE") && !err.contains("Permission denied"),
        "{out}{err}"
    );
    assert!(!dir.path().join("ran-a-case").exists(), "a case ran");
    // Made executable, the same script runs.
    script(dir.path(), "answer.sh", text.as_bytes(), 0o755);
    let (code, _, err) = check(dir.path(), "./answer.sh");
    assert_ne!(code, Some(2), "{err}");
    assert!(dir.path().join("ran-a-case").exists(), "{err}");
}

#[test]
fn a_directory_or_a_device_as_the_program_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("answer")).expect("mkdir");
    for (program, is) in [
        ("./answer", "is a directory, not a program file"),
        ("/dev/null", "is a character device, not a program file"),
    ] {
        let (code, _, err) = check(dir.path(), program);
        assert_eq!(code, Some(2), "{program}: {err}");
        assert!(
            err.contains(&format!("the program {program} {is}")),
            "{program}: {err}"
        );
        assert!(!err.contains("does not exist"), "{program}: {err}");
    }
    // What does not exist is still said so.
    let (code, _, err) = check(dir.path(), "./no-such-answer");
    assert_eq!(code, Some(2));
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn a_hash_bang_line_ending_in_a_carriage_return_is_refused_with_the_conversion() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!("#!/bin/sh\r\n{}\r\n", marking(dir.path()));
    script(dir.path(), "answer.sh", text.as_bytes(), 0o755);
    let (code, out, err) = check(dir.path(), "./answer.sh");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("the `#!` line ends in a carriage return (CRLF line endings)"),
        "{err}"
    );
    assert!(
        err.contains("dos2unix ./answer.sh") && err.contains("sed -i 's/\\r$//' ./answer.sh"),
        "{err}"
    );
    assert!(!dir.path().join("ran-a-case").exists(), "a case ran");
    // A CR elsewhere is the script's own business: only the `#!` line's is refused.
    let text = format!("#!/bin/sh\n{} \r\n", marking(dir.path()));
    script(dir.path(), "answer.sh", text.as_bytes(), 0o755);
    let (code, _, err) = check(dir.path(), "./answer.sh");
    assert_ne!(code, Some(2), "{err}");
}
