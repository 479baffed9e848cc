//! Every string from outside is escaped for the medium it lands in. The attacks come from
//! a challenge repository's files: case files named with an escape code, a newline and a
//! GitHub workflow command (`::error::`), an answer that prints them, a puzzle file whose
//! name would break the replay page, and a `#!` line whose flags would be HTML in a post.
//! The harm is checked from outside: no raw escape byte on stdout or stderr, no line that
//! begins with `::`, Markdown with no raw HTML, a replay page whose data reads back.
//! Unix only: Windows allows no such file name.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{BEAST, example};

/// Case names no terminal or CI log may see raw.
const HOSTILE: [(&str, &str); 3] = [
    ("red\u{1b}[31mx", "beast-acts-as-wall"),
    ("nl\n::error::x", "beast-behind-beast"),
    ("::error file=x::boom", "no-beasts"),
];

/// A case directory holding the examples under the hostile names.
fn hostile_cases() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, example_name) in HOSTILE {
        for ext in ["txt", "out"] {
            std::fs::copy(
                example(&format!("{example_name}.{ext}")),
                dir.path().join(format!("{name}.{ext}")),
            )
            .expect("copy an example");
        }
    }
    dir
}

/// `beast ARGS`, its output kept.
fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(BEAST)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("beast runs")
}

/// Panics if `out` holds a raw escape byte, or a line (of stdout or stderr) that a GitHub
/// Actions runner reads as a workflow command.
fn assert_harmless(what: &str, out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !bytes.contains(&0x1b),
            "{what}: a raw escape on {stream}: {text:?}"
        );
        let command = text.lines().find(|l| l.trim_start().starts_with("::"));
        assert_eq!(
            command, None,
            "{what}: a workflow command on {stream}: {text}"
        );
    }
}

#[test]
fn hostile_case_names_and_outputs_reach_the_terminal_escaped_in_every_format() {
    let cases = hostile_cases();
    let dir = cases.path().to_str().expect("a UTF-8 path");
    // The answer prints a workflow command and an escape code of its own.
    let answer = ["--", "sh", "-c", "printf '::error::got\\n\\033[31m\\n'"];
    let mut runs: Vec<(String, Vec<&str>)> = Vec::new();
    for format in ["text", "markdown", "json"] {
        let mut args = vec!["check", "--cases", dir, "--no-builtin", "--shrink", "none"];
        args.extend(["-v", "--format", format]);
        args.extend(answer);
        runs.push((format!("check --format {format}"), args));
    }
    runs.push((
        "check --list".to_string(),
        vec![
            "check",
            "--cases",
            dir,
            "--no-builtin",
            "--list",
            "--",
            "sh",
        ],
    ));
    for format in ["text", "markdown", "json"] {
        let args = vec![
            "audit",
            "--cases",
            dir,
            "--no-builtin",
            "--budget",
            "5",
            "--format",
            format,
        ];
        runs.push((format!("audit --format {format}"), args));
    }
    for (what, args) in &runs {
        let out = run(args, cases.path());
        assert!(out.status.code().is_some_and(|c| c <= 1), "{what}: {out:?}");
        assert_harmless(what, &out);
    }
    // The names are still there to read, escaped.
    let out = run(&runs[0].1, cases.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    for shown in [
        "red\\e[31mx",
        "nl\\n::error::x",
        "\\u{3a}:error file=x::boom",
    ] {
        assert!(stdout.contains(shown), "{shown} in {stdout}");
    }
}

#[test]
fn a_file_name_that_would_break_the_replay_page_is_its_title_as_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let hostile = "__DATA__ <!--<script>alert(1)&\"'__TITLE__.txt";
    let puzzle = std::fs::read(example("beast-behind-beast.txt")).expect("an example");
    std::fs::write(dir.path().join(hostile), &puzzle).expect("write");
    std::fs::write(dir.path().join("plain.txt"), &puzzle).expect("write");
    let page = |name: &str| {
        let out = run(&["--html", name], dir.path());
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let (bad, plain) = (page(hostile), page("plain.txt"));
    let between = |page: &str, open: &str, close: &str| -> String {
        let start = page.find(open).expect("the element") + open.len();
        let len = page[start..].find(close).expect("its end");
        page[start..start + len].to_string()
    };
    let title = between(&bad, "<title>", "</title>");
    assert!(!title.contains('<') && !title.contains('"'), "{title}");
    assert!(
        title.contains("__DATA__ &lt;!--&lt;script&gt;alert(1)&amp;"),
        "{title}"
    );
    let data_tag = "<script type=\"application/json\" id=\"replay-data\">";
    let data = |page: &str| -> Value {
        serde_json::from_str(&between(page, data_tag, "</script>")).expect("the data is JSON")
    };
    let (mut bad_data, plain_data) = (data(&bad), data(&plain));
    assert_eq!(bad_data["title"], hostile, "the name reads back as it is");
    bad_data["title"] = plain_data["title"].clone();
    assert_eq!(
        bad_data, plain_data,
        "the rest of the data is the page's own"
    );
    assert_eq!(
        bad.matches("<script").count(),
        plain.matches("<script").count()
    );
}

#[test]
fn a_shebang_lines_flags_are_code_in_the_post_never_html() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("golf.sh");
    std::fs::write(
        &script,
        "#!/bin/sh -e `</code><img src=x onerror=alert(1)>[x](https://e/)\nexec \"$BEAST\"\n",
    )
    .expect("write");
    let script = script.to_str().expect("UTF-8");
    let out = Command::new(BEAST)
        .env("BEAST", BEAST)
        .args([
            "check",
            "--sandbox",
            "none",
            "--env",
            "BEAST",
            "--only",
            "no-beasts",
        ])
        .args(["--post", "--language", "sh", "--", "sh", script])
        .output()
        .expect("beast runs");
    let post = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{post}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let header = post.lines().next().expect("a header");
    assert!(header.starts_with("# sh <code>"), "{header}");
    assert_eq!(
        header.matches('<').count(),
        2,
        "only <code> and </code>: {header}"
    );
    assert!(!header.contains('[') && !header.contains('`'), "{header}");
    assert_harmless("--post", &out);
}
