//! `beast check --page`: saved Stack Exchange API 2.3 answer pages judged end to end.
//! The pages are our own, in the API's exact shape: `examples/page` (both filters, two
//! pages, a TIO-only and an ATO answer, a struck-out score, a header without a comma, a
//! language not installed, a wrong claimed size) and pages made here.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::util::{beast, repo};

/// The example's two pages.
fn example_pages() -> [PathBuf; 2] {
    [
        repo("examples/page/page-1.json"),
        repo("examples/page/page-2.json"),
    ]
}

/// True when `program` runs here (as `beast languages` checks it).
fn installed(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One answer item in the API's shape.
fn item(id: u64, name: &str, date: i64, body: (&str, &str)) -> Value {
    let mut v = json!({
        "owner": {"account_id": id, "reputation": 1, "user_id": id, "user_type": "registered",
                  "display_name": name, "link": "https://codegolf.stackexchange.com/users/1"},
        "is_accepted": false, "score": 0, "last_activity_date": date, "creation_date": date,
        "answer_id": id, "question_id": 25557, "content_license": "CC BY-SA 4.0"
    });
    v[body.0] = json!(body.1);
    v
}

/// A page file of `items` in `dir`.
fn page(dir: &Path, name: &str, items: Vec<Value>, has_more: bool) -> PathBuf {
    let path = dir.join(name);
    let text =
        json!({"items": items, "has_more": has_more, "quota_max": 300, "quota_remaining": 299});
    std::fs::write(&path, text.to_string()).expect("write the page");
    path
}

#[test]
fn the_example_page_lists_each_answers_header_size_and_code_source() {
    let out = beast()
        .args(["check", "--list", "--page"])
        .args(example_pages())
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(id))
            .unwrap_or_else(|| panic!("no line for {id}: {text}"))
            .to_string()
    };
    // The struck-out 1180 is not the size; the renderer's final newline is not counted.
    let py_size = std::fs::read_to_string(repo("examples/page/src/beasts.py"))
        .expect("read")
        .trim_end()
        .len();
    assert!(
        line("101 by Ada: Python 3, ")
            .contains(&format!(", {py_size}, from block 1: run: python3"))
    );
    let perl = std::fs::read_to_string(repo("examples/page/src/beasts.pl")).expect("read");
    let claim = format!("claimed 3400, counted {}", perl.trim_end().len());
    assert!(line("102 by Bo & Cy: Perl 5").contains(&claim), "{text}");
    assert!(line("103 ").contains("from tio: run: node"), "{text}");
    assert!(line("104 ").contains("from block 1: build: gcc"), "{text}");
    assert!(line("106 ").contains("from ato: run: python3"), "{text}");
    assert!(
        line("107 ").contains("cannot run: Unobtainium: no interpreter known"),
        "{text}"
    );
    let ruby = line("105 by Fay: Ruby");
    match installed("ruby") {
        true => assert!(ruby.contains("run: ruby"), "{ruby}"),
        false => assert!(ruby.ends_with("cannot run: ruby not found"), "{ruby}"),
    }
    assert!(
        text.contains("header: no comma after the language; guessed language \"Ruby\""),
        "{text}"
    );
}

#[test]
fn the_example_page_runs_ranked_right_answers_by_size_then_date_and_cannot_run_last() {
    if !(installed("node") && installed("perl") && installed("gcc")) {
        eprintln!("skipped: node, perl or gcc is not installed");
        return;
    }
    let out = beast()
        .args([
            "check",
            "--no-builtin",
            "--random",
            "4",
            "--seed",
            "1",
            "--shrink",
            "none",
            "--timeout",
            "30",
        ])
        .args(["--format", "json", "--page"])
        .args(example_pages())
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let records: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "page-answer")
        .collect();
    let ids: Vec<u64> = records
        .iter()
        .map(|r| r["answer_id"].as_u64().unwrap_or(0))
        .collect();
    // Python (block, then the later ATO one), Node, C built in the jail, Perl; then the two
    // that cannot run, by date.
    assert_eq!(ids, [101, 106, 103, 104, 102, 105, 107], "{text}");
    for r in &records[..5] {
        assert_eq!(r["outcome"], "judged", "{r}");
        assert_eq!(r["correct"], true, "{r}");
        assert_eq!(r["verdicts"], json!([["AC", 4]]), "{r}");
    }
    assert_eq!(records[2]["source"], "tio");
    assert_eq!(records[1]["source"], "ato");
    assert!(
        records[4]["audit"]
            .as_str()
            .is_some_and(|a| a.starts_with("claimed 3400, counted "))
    );
    assert_eq!(records[6]["reason"], "Unobtainium: no interpreter known");
    assert!(
        records[5]["header_note"]
            .as_str()
            .is_some_and(|n| n.contains("no comma"))
    );
    // Answers that cannot run make the check fail.
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn a_failed_answer_ranks_after_the_right_ones_whatever_its_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let golf = std::fs::read_to_string(repo("examples/golf/beasts.py")).expect("read");
    let right = format!(
        "<h1>Python 3, {} bytes</h1>\n<pre><code>{}\n</code></pre>",
        golf.trim_end().len(),
        golf.trim_end()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    );
    let wrong = "<h1>Python 3, 8 bytes</h1>\n<pre><code>print(0)\n</code></pre>";
    let p = page(
        dir.path(),
        "p.json",
        vec![
            item(1, "Wrong", 10, ("body", wrong)),
            item(2, "Right", 20, ("body", &right)),
        ],
        false,
    );
    let out = beast()
        .args([
            "check",
            "--no-builtin",
            "--random",
            "3",
            "--seed",
            "2",
            "--shrink",
            "none",
            "--timeout",
            "30",
        ])
        .args(["--format", "json", "--page"])
        .arg(&p)
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let records: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "page-answer")
        .collect();
    assert_eq!(records.len(), 2, "{text}");
    assert_eq!(
        (
            records[0]["answer_id"].as_u64(),
            records[0]["correct"].as_bool()
        ),
        (Some(2), Some(true))
    );
    assert_eq!(
        (
            records[1]["answer_id"].as_u64(),
            records[1]["correct"].as_bool()
        ),
        (Some(1), Some(false))
    );
    assert_eq!(records[1]["counted"], 8);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn entities_in_code_are_decoded_and_extract_writes_what_answers_reads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let html = "<h1>Python 3, 25 bytes</h1>\n<pre class=\"lang-py\"><code>print(1 &lt; 2, \"&amp;\")\n</code></pre>";
    let md = "# Python 3, 12 bytes\r\n\r\n    print(&quot;&lt;&gt;&quot;)";
    let p = page(
        dir.path(),
        "p.json",
        vec![
            item(5, "A", 1, ("body", html)),
            item(6, "B", 2, ("body_markdown", md)),
        ],
        false,
    );
    let out_dir = dir.path().join("out");
    let out = beast()
        .args(["check", "--page"])
        .arg(&p)
        .arg("--extract")
        .arg(&out_dir)
        .output()
        .expect("beast runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let code = |name: &str| {
        std::fs::read_to_string(out_dir.join(name).join("code.py")).expect("extracted")
    };
    assert_eq!(code("5-python_3"), "print(1 < 2, \"&\")");
    assert_eq!(code("6-python_3"), "print(\"<>\")");
    let listed = beast()
        .args(["check", "--list", "--answers"])
        .arg(out_dir.join("answers.toml"))
        .output()
        .expect("beast runs");
    assert_eq!(
        listed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
}

#[test]
fn a_bad_page_is_refused_where_it_goes_wrong() {
    let dir = tempfile::tempdir().expect("temp dir");
    let refusal = |files: &[PathBuf]| {
        let out = beast()
            .args(["check", "--list", "--page"])
            .args(files)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\n \"items\": [\n  {\"answer_id\": 1,,}\n ]\n}").expect("write");
    assert!(
        refusal(std::slice::from_ref(&bad)).contains("bad.json:3:"),
        "{}",
        refusal(&[bad])
    );
    let api = dir.path().join("api.json");
    std::fs::write(
        &api,
        r#"{"error_id":502,"error_message":"too many requests from this IP","error_name":"throttle_violation"}"#,
    )
    .expect("write");
    let why = refusal(&[api]);
    assert!(why.contains("error 502 throttle_violation"), "{why}");
    let a = page(
        dir.path(),
        "a.json",
        vec![item(9, "A", 1, ("body", "<p>x</p>"))],
        true,
    );
    let b = page(
        dir.path(),
        "b.json",
        vec![item(9, "A", 1, ("body", "<p>x</p>"))],
        false,
    );
    let why = refusal(&[a.clone(), b]);
    assert!(
        why.contains("answer_id 9 is given twice") && why.contains("a.json: items[0]"),
        "{why}"
    );
    // A last page with has_more: the pages after it are missing, and the run says so.
    let out = beast()
        .args(["check", "--list", "--page"])
        .arg(&a)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("pages are missing"));
}

#[test]
fn a_strangers_text_on_the_page_reaches_the_terminal_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let evil = "Eve\u{1b}]0;owned\u{7}\u{202e}";
    let body = "<h1>Evil\u{1b}[31m, 3 bytes</h1><pre><code>x\n</code></pre>";
    let p = page(
        dir.path(),
        "p.json",
        vec![item(3, evil, 1, ("body", body))],
        false,
    );
    for format in ["text", "markdown"] {
        let out = beast()
            .args(["check", "--format", format, "--page"])
            .arg(&p)
            .output()
            .expect("runs");
        let all = [out.stdout, out.stderr].concat();
        assert!(
            !all.contains(&0x1b) && !all.contains(&0x07),
            "{}",
            String::from_utf8_lossy(&all)
        );
        assert!(!String::from_utf8_lossy(&all).contains('\u{202e}'));
    }
}

#[test]
fn compiled_answers_are_built_in_the_jail_and_then_run() {
    let mut items = Vec::new();
    if installed("g++") {
        let cpp = "#include &lt;cstdio&gt;\nint main(){puts(\"0\");}";
        items.push(item(
            1,
            "C",
            1,
            (
                "body",
                &*format!("<h1>C++ (gcc), 40 bytes</h1><pre><code>{cpp}\n</code></pre>"),
            ),
        ));
    }
    if installed("javac") && installed("jar") {
        let java = "interface B{static void main(String[]a)throws Exception{System.in.readAllBytes();System.out.println(0);}}";
        items.push(item(
            2,
            "J",
            2,
            (
                "body",
                &*format!("<h1>Java, 99 bytes</h1><pre><code>{java}\n</code></pre>"),
            ),
        ));
    }
    if items.is_empty() {
        eprintln!("skipped: neither g++ nor javac is installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let p = page(dir.path(), "p.json", items, false);
    let out = beast()
        .args([
            "check",
            "--no-builtin",
            "--random",
            "2",
            "--seed",
            "1",
            "--shrink",
            "none",
            "--timeout",
            "30",
        ])
        .args(["--format", "json", "--page"])
        .arg(&p)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let records: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "page-answer")
        .collect();
    assert!(!records.is_empty(), "{text}");
    // Each was built and ran: printing 0 is a wrong answer, not a build failure.
    for r in &records {
        assert_eq!(r["outcome"], "judged", "{r}");
        assert_eq!(r["verdicts"], json!([["WA", 2]]), "{r}");
    }
}
