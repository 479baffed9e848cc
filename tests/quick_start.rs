//! The README's quick start, line by line, on a copy of the repository: every line of its
//! marked block (`<!-- quick-start ... -->` to `<!-- /quick-start -->`) runs as written
//! in a shell and prints what its comment says after the last `: `. Read from README.md
//! itself, so the block cannot go stale. Two lines are stood in for: `make run` runs
//! the Makefile as written, with a `cargo` on `PATH` that puts the binary under test where
//! `cargo run --release` would build it (a release build would take minutes here); and
//! `make test` is this very suite, so it is not run again from inside it.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::util::{BEAST, repo};

/// The lines of the README's quick-start block, without its fences.
fn quick_start() -> Vec<String> {
    let readme = fs::read_to_string(repo("README.md")).expect("README.md");
    let start = readme
        .find("<!-- quick-start")
        .expect("README.md marks its quick start");
    let block = &readme[start..];
    let end = block
        .find("<!-- /quick-start -->")
        .expect("the quick start's block is closed");
    block[..end]
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

/// What a line's comment says it prints: the text after the comment's last `: `, without
/// a leading `prints`, cut at ` then ` into the parts printed in order.
fn promised(line: &str) -> Vec<String> {
    let comment = line.split_once(" # ").map_or("", |(_, c)| c);
    let said = comment.rsplit(": ").next().unwrap_or_default();
    let said = said.strip_prefix("prints ").unwrap_or(said);
    said.split(" then ").map(|s| s.trim().to_string()).collect()
}

/// Copies the repository's files into `to`, but its build output and git directory.
fn copy_repository(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).expect("a directory") {
        let entry = entry.expect("an entry");
        let name = entry.file_name();
        if from == repo("").as_path() && (name == "target" || name == ".git") {
            continue;
        }
        let kind = entry.file_type().expect("a file type");
        let dest = to.join(&name);
        if kind.is_dir() {
            fs::create_dir(&dest).expect("mkdir");
            copy_repository(&entry.path(), &dest);
        } else if kind.is_file() {
            // What may be run is copied by a child process ("Text file busy" otherwise).
            let mode = entry.metadata().expect("metadata").permissions();
            let mode = std::os::unix::fs::PermissionsExt::mode(&mode);
            match mode & 0o111 {
                0 => {
                    fs::copy(entry.path(), &dest).expect("copy");
                }
                _ => crate::util::copy_executable(entry.path(), &dest),
            }
        }
    }
}

/// A `cargo` that does what `cargo run --release --quiet -- ARGS` does with the binary
/// under test, and refuses anything else.
const CARGO: &str = r#"#!/bin/sh
[ "$1 $2 $3 $4" = "run --release --quiet --" ] || { echo "the quick start asked cargo for: $*" >&2; exit 99; }
shift 4
mkdir -p target/release && cp "$BEAST_UNDER_TEST" target/release/beast && exec target/release/beast "$@"
"#;

#[test]
fn every_line_of_the_readmes_quick_start_runs_as_written_on_a_fresh_copy() {
    use std::os::unix::fs::PermissionsExt;
    let lines = quick_start();
    assert!(lines.len() >= 5, "{lines:?}");
    // The first screen's two set-up commands, first.
    assert!(lines[0].starts_with("make run "), "{lines:?}");
    assert!(lines[1].starts_with("make test "), "{lines:?}");
    let clone = tempfile::tempdir().expect("temp dir");
    // A clone others may enter, as a fresh clone is: the jail shows an answer only what
    // the case's user may reach (a temporary directory is made 0700).
    fs::set_permissions(clone.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    copy_repository(&repo(""), clone.path());
    let tools = tempfile::tempdir().expect("temp dir");
    let cargo = tools.path().join("cargo");
    crate::util::write_executable(&cargo, CARGO.as_bytes());
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(tools.path().to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .expect("a PATH");
    for line in &lines {
        if line.starts_with("make test ") {
            continue;
        }
        let out = Command::new("sh")
            .args(["-c", line])
            .current_dir(clone.path())
            .env("PATH", &path)
            .env("BEAST_UNDER_TEST", BEAST)
            .env_remove("CARGO")
            .env_remove("MAKEFLAGS")
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{line}: {out:?}");
        let mut rest = stdout.as_ref();
        for part in promised(line) {
            let at = rest
                .find(&part)
                .unwrap_or_else(|| panic!("{line}: {part:?} not printed:\n{stdout}"));
            rest = &rest[at + part.len()..];
        }
    }
    assert!(
        clone.path().join("target/release/beast").exists(),
        "make run built no beast where the quick start runs it"
    );
}
