//! The GitHub Action (`action.yml`): its logic, `action/run.sh`, run as a runner would run
//! it, with a simulated `GITHUB_*` environment; how it gets `beast` (`action/install.sh`:
//! the cache key, the release download and its checksum); and `action.yml` passing it every
//! input. What an answer prints is data: it must stay inside the summary's code blocks and
//! never be read by the runner as a workflow command.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::util::{BEAST, repo};

/// A simulated runner: its temporary directory, step summary and output files.
struct Runner {
    dir: tempfile::TempDir,
}

impl Runner {
    fn new() -> Runner {
        Runner {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    /// Runs the action's script with these inputs (`INPUT_NAME` variables).
    fn run(&self, inputs: &[(&str, &str)]) -> Output {
        self.run_in(self.dir.path(), inputs)
    }

    /// Runs the action's script in the directory `workspace`, with these inputs and a
    /// `PATH` on which no `beast` is found: only the action can put it there.
    fn run_in(&self, workspace: &Path, inputs: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(repo("action/run.sh"))
            .current_dir(workspace)
            .env("PATH", path_without_beast())
            .env("BEAST", BEAST)
            .env("GITHUB_STEP_SUMMARY", self.path("summary.md"))
            .env("GITHUB_OUTPUT", self.path("output.txt"))
            .env("GITHUB_ENV", self.path("env.txt"))
            .env("GITHUB_PATH", self.path("path.txt"))
            .env("GITHUB_ACTION_PATH", repo(""))
            .env("RUNNER_TEMP", self.dir.path());
        for (name, value) in inputs {
            cmd.env(format!("INPUT_{}", name.to_uppercase()), value);
        }
        cmd.output().expect("bash runs the action")
    }

    fn summary(&self) -> String {
        fs::read_to_string(self.path("summary.md")).unwrap_or_default()
    }

    /// The value of `name` in the step's outputs (the last one written).
    fn output(&self, name: &str) -> Option<String> {
        let text = fs::read_to_string(self.path("output.txt")).unwrap_or_default();
        text.lines()
            .filter_map(|l| l.strip_prefix(&format!("{name}=")))
            .next_back()
            .map(str::to_string)
    }
}

/// Flags that keep the runs short: uncontained (the answers only run `beast` or python3).
const QUICK: (&str, &str) = ("args", "--sandbox none --no-builtin");

/// The test's `PATH` without the directories that hold a `beast`.
fn path_without_beast() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("beast").exists())
        .collect();
    std::env::join_paths(dirs)
        .expect("a PATH")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_passing_answer_writes_the_report_to_the_summary_and_the_junit_path_to_the_outputs() {
    let runner = Runner::new();
    let out = runner.run(&[("command", BEAST), ("random", "4"), ("seed", "7"), QUICK]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let summary = runner.summary();
    assert!(
        summary.starts_with("### beast check\n\n```text\n"),
        "{summary}"
    );
    assert!(summary.contains("4 passed, 0 failed"), "{summary}");
    let junit = runner.output("junit").expect("a junit output");
    let xml = fs::read_to_string(&junit).expect("the JUnit file");
    assert!(
        xml.contains("<testsuite") && xml.contains("random-7-4"),
        "{xml}"
    );
    assert_eq!(runner.output("status").as_deref(), Some("0"));
}

#[test]
fn a_failed_case_fails_the_step_unless_fail_is_false() {
    let runner = Runner::new();
    let wrong = runner.path("wrong.sh");
    fs::write(&wrong, "echo 0\n").expect("write");
    let command = format!("sh {}", wrong.display());
    let inputs = [("command", command.as_str()), ("random", "3"), QUICK];
    let out = runner.run(&inputs);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error title=beast-judge::a case failed"),
        "{stdout}"
    );
    assert!(runner.summary().contains(" failed"), "{}", runner.summary());
    let out = runner.run(&[inputs[0], inputs[1], inputs[2], ("fail", "false")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(runner.output("status").as_deref(), Some("1"));
}

#[test]
fn shards_write_json_that_a_merge_turns_into_the_leaderboard() {
    let runner = Runner::new();
    let answers = runner.path("answers.toml");
    fs::write(
        &answers,
        format!("[[answer]]\nname = \"judge\"\ncommand = [{BEAST:?}]\nsource = \"none\"\n"),
    )
    .expect("write the answers");
    let answers = answers.display().to_string();
    for shard in ["1", "2"] {
        let out = runner.run(&[
            ("answers", &answers),
            ("random", "6"),
            ("seed", "3"),
            ("shards", "2"),
            ("shard", shard),
            QUICK,
        ]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let report = runner.output("report").expect("a report");
        assert!(report.ends_with(&format!("shard-{shard}.json")), "{report}");
        assert!(
            fs::read_to_string(&report)
                .expect("shard")
                .contains("\"shard\"")
        );
    }
    assert!(runner.summary().contains("### beast check, shard 2/2"));
    let merge = runner
        .path("beast-check-*/shard-*.json")
        .display()
        .to_string();
    let out = runner.run(&[("merge", &merge), ("format", "markdown")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let summary = runner.summary();
    // After the shards' sections: the merged leaderboard, a Markdown table of every case.
    let merged = summary.split("```\n").last().unwrap_or_default();
    assert!(merged.contains("\n| # | answer |"), "{summary}");
    assert!(merged.contains("| 1 | judge | 6/6 |"), "{summary}");
}

#[test]
fn usage_errors_are_annotations_and_exit_2() {
    let runner = Runner::new();
    for (inputs, says) in [
        (
            vec![("random", "3")],
            "give exactly one of command, answers and merge",
        ),
        (
            vec![("command", BEAST), ("answers", "a.toml")],
            "exactly one",
        ),
        (
            vec![("command", BEAST), ("shards", "2"), ("shard", "3")],
            "past the 2 shards",
        ),
        (
            vec![("command", BEAST), ("format", "html")],
            "format must be",
        ),
        (vec![("merge", "nothing-*.json")], "no shard output matches"),
    ] {
        let out = runner.run(&inputs);
        assert_eq!(out.status.code(), Some(2), "{inputs:?}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("::error title=beast-judge::") && stdout.contains(says),
            "{stdout}"
        );
    }
}

/// The names of the inputs `action.yml` declares.
fn action_inputs() -> Vec<String> {
    let yml = fs::read_to_string(repo("action.yml")).expect("action.yml");
    let inputs_part = yml
        .split("\ninputs:\n")
        .nth(1)
        .and_then(|rest| rest.split("\noutputs:\n").next())
        .expect("an inputs block")
        .to_string();
    inputs_part
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':').to_string())
        .collect()
}

#[test]
fn action_yml_passes_every_input_to_the_script() {
    let yml = fs::read_to_string(repo("action.yml")).expect("action.yml");
    let names = action_inputs();
    assert!(names.len() >= 9, "{names:?}");
    let script = fs::read_to_string(repo("action/run.sh")).expect("run.sh");
    for name in &names {
        let var = format!("INPUT_{}", name.to_uppercase());
        assert!(
            yml.contains(&format!("{var}: ${{{{ inputs.{name} }}}}")),
            "action.yml does not pass {name}"
        );
        assert!(script.contains(&var), "run.sh does not read {var}");
    }
    assert!(yml.contains("using: composite"));
}

/// What CommonMark makes of a Markdown text's fenced code blocks: the lines outside every
/// block, the text of each block, and whether the text ends inside one (which would
/// swallow whatever a later step writes to the summary).
struct Fenced {
    outside: Vec<String>,
    blocks: Vec<String>,
    ends_open: bool,
}

/// A fence line: up to three spaces, then a run of at least three backticks or tildes.
/// Returns the fence's character, its length and what follows it.
fn fence(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = rest.len() - rest.trim_start_matches(c).len();
    (n >= 3).then(|| (c, n, &rest[n..]))
}

fn fenced(markdown: &str) -> Fenced {
    // A line ends at \n, \r\n or a lone \r.
    let text = markdown.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = Fenced {
        outside: Vec::new(),
        blocks: Vec::new(),
        ends_open: false,
    };
    let mut open: Option<(char, usize)> = None;
    let mut block = String::new();
    for line in text.split('\n') {
        match open {
            None => match fence(line) {
                // A backtick fence's info string may not hold a backtick.
                Some((c, n, info)) if c == '~' || !info.contains('`') => {
                    open = Some((c, n));
                    block.clear();
                }
                _ => out.outside.push(line.to_string()),
            },
            Some((c, n)) => match fence(line) {
                Some((d, m, after)) if d == c && m >= n && after.trim().is_empty() => {
                    out.blocks.push(std::mem::take(&mut block));
                    open = None;
                }
                _ => {
                    block.push_str(line);
                    block.push('\n');
                }
            },
        }
    }
    out.ends_open = open.is_some();
    out
}

/// An answer that prints Markdown meant to forge the summary, and workflow commands meant
/// for the runner, on stdout and on stderr (which the report shows as it is), then fails.
const FORGER: &str = "cat > /dev/null
forge() {
  printf '%s\\n' '```' '# Heading' '![x](http://example.invalid/x.png)' \\
    '<img src=http://example.invalid/y.png>' '0 failed' '``````' '~~~' \\
    '::warning title=forged::forged' '::add-mask::beast'
}
forge
forge >&2
exit 3
";

/// What the forger prints that would render, or be obeyed, outside a code block (also
/// where the report marks spaces as `·`).
const FORGED: [&str; 7] = [
    "Heading",
    "![x](",
    "<img",
    "example.invalid",
    "0 failed",
    "forged",
    "::add-mask::",
];

#[test]
fn what_an_answer_prints_stays_inside_one_code_block_of_the_summary_in_every_format() {
    let runner = Runner::new();
    fs::write(runner.path("forger.sh"), FORGER).expect("write");
    for format in ["text", "markdown", "json"] {
        for args in [
            "--sandbox none --no-builtin",
            "--sandbox none --no-builtin -v",
        ] {
            fs::write(runner.path("summary.md"), "").expect("empty the summary");
            let out = runner.run(&[
                ("command", "sh forger.sh"),
                ("random", "2"),
                ("format", format),
                ("args", args),
            ]);
            assert_eq!(out.status.code(), Some(1), "{format} {args}: {out:?}");
            let summary = runner.summary();
            let md = fenced(&summary);
            assert!(
                !md.ends_open,
                "{format} {args}: a block is left open:\n{summary}"
            );
            let outside = md.outside.join("\n");
            for forged in FORGED {
                assert!(
                    !outside.contains(forged),
                    "{format} {args}: {forged:?} is outside the code blocks:\n{summary}"
                );
            }
            if format == "text" {
                // The report shows the answer's output and stderr: all of it in one block.
                let report = md
                    .blocks
                    .iter()
                    .find(|b| b.contains("# Heading"))
                    .unwrap_or_else(|| panic!("{args}: no block has the output:\n{summary}"));
                for shown in ["```", "# Heading", "![x](http://", "<img src=", "0 failed"] {
                    assert!(report.contains(shown), "{args}: {shown:?} not in {report}");
                }
            }
        }
    }
}

#[test]
fn what_an_answer_prints_reaches_the_log_with_workflow_commands_stopped() {
    let runner = Runner::new();
    fs::write(runner.path("forger.sh"), FORGER).expect("write");
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let out = runner.run(&[("command", "sh forger.sh"), ("random", "2"), QUICK]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let log = String::from_utf8_lossy(&out.stdout);
        // The text report is in the log, between the stop and its resume token.
        let mut stopped: Option<String> = None;
        let mut inside = String::new();
        for line in log.lines() {
            match &stopped {
                None => {
                    if let Some(token) = line.strip_prefix("::stop-commands::") {
                        stopped = Some(token.to_string());
                        tokens.push(token.to_string());
                    } else if line.starts_with("::") {
                        assert!(
                            line.starts_with("::error title=beast-judge::"),
                            "a workflow command outside the stop: {line}\n{log}"
                        );
                    }
                }
                Some(token) if line == format!("::{token}::") => stopped = None,
                Some(_) => {
                    inside.push_str(line);
                    inside.push('\n');
                }
            }
        }
        assert!(stopped.is_none(), "the commands are never resumed:\n{log}");
        // Shown, and escaped besides: no line of the report starts a workflow command.
        for forged in [
            "\\u{3a}:warning title=forged::",
            "\\u{3a}:add-mask::beast",
            "0 passed, 2 failed",
        ] {
            assert!(inside.contains(forged), "{forged:?} not in the log:\n{log}");
        }
        let command = inside.lines().find(|l| l.trim_start().starts_with("::"));
        assert_eq!(command, None, "a workflow command in the report:\n{log}");
    }
    let token = &tokens[0];
    assert!(
        token.len() == 32 && token.chars().all(|c| c.is_ascii_hexdigit()),
        "{token}"
    );
    assert_ne!(
        tokens[0], tokens[1],
        "the resume token must not be guessable"
    );
}

/// The words the action's splitter makes of `command` (NUL-separated), or its error.
fn split(command: &str) -> Result<Vec<String>, String> {
    let script = format!(
        "source {:?}; if split_command \"$1\"; then printf '%s\\0' \"${{WORDS[@]}}\"; else printf '%s' \"$ERROR\"; exit 1; fi",
        repo("action/lib.sh")
    );
    let out = Command::new("bash")
        .args(["-c", &script, "split", command])
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(text);
    }
    Ok(text.split_terminator('\0').map(str::to_string).collect())
}

#[test]
fn a_command_is_split_as_a_shell_splits_its_words() {
    for command in [
        "python3 \"my answer.py\"",
        "python3 'my answer.py' --flag=1",
        "a\\ b c\\\\d",
        "x\"y z\"w 'it'\\''s' \"\"",
        "\"a\\\"b\" 'c\\d' \"e\\\\f\" \"g\\h\"",
        "  tabs\tand  spaces\t ",
        "a#b c~d e!f g=h",
        "'$HOME' \"\\$HOME\" \\$HOME '*' \"*.py\"",
    ] {
        // The oracle: a POSIX shell's own reading of the same words.
        let out = Command::new("sh")
            .args(["-c", &format!("printf '%s\\0' {command}")])
            .output()
            .expect("sh runs");
        let shell: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_terminator('\0')
            .map(str::to_string)
            .collect();
        assert_eq!(split(command), Ok(shell), "{command}");
    }
}

#[test]
fn a_command_may_be_a_yaml_list() {
    let words = Ok(vec!["python3".to_string(), "my answer.py".to_string()]);
    for list in [
        "[\"python3\", \"my answer.py\"]",
        "[python3, 'my answer.py']",
        // As `toJSON(matrix.command)` writes it.
        "[\n  \"python3\",\n  \"my answer.py\"\n]",
        "- python3\n- my answer.py\n",
        "- python3\n- \"my answer.py\"",
    ] {
        assert_eq!(split(list), words, "{list}");
    }
    assert_eq!(
        split("[\"it's\", 'it''s', \"a\\\\b\\\"c\"]"),
        Ok(vec!["it's".into(), "it's".into(), "a\\b\"c".into()])
    );
}

#[test]
fn shell_syntax_in_a_command_is_refused_and_nothing_of_it_runs() {
    let runner = Runner::new();
    let marker = runner.path("marker");
    for command in [
        format!("true; touch {}", marker.display()),
        format!("echo $(touch {})", marker.display()),
        format!("echo \"`touch {}`\"", marker.display()),
        format!("echo \"$(touch {})\"", marker.display()),
        format!("true && touch {}", marker.display()),
        format!("true | touch {}", marker.display()),
        format!("true\ntouch {}", marker.display()),
        "python3 *.py".to_string(),
        "python3 'unclosed.py".to_string(),
    ] {
        let out = runner.run(&[("command", &command), ("random", "1"), QUICK]);
        assert_eq!(out.status.code(), Some(2), "{command}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with("::error title=beast-judge::command: "),
            "{command}: {stdout}"
        );
        assert!(!marker.exists(), "{command} ran a shell");
    }
}

#[test]
fn a_quoted_command_runs_as_quoted_and_the_echoed_line_is_what_ran() {
    let runner = Runner::new();
    fs::copy(
        repo("crates/engine/src/judge/kattis/beasts.py"),
        runner.path("my answer.py"),
    )
    .expect("copy the reference answer");
    for command in [
        "python3 \"my answer.py\"",
        "python3 my\\ answer.py",
        "[\"python3\", \"my answer.py\"]",
        "- python3\n- my answer.py",
    ] {
        let out = runner.run(&[("command", command), ("random", "3"), QUICK]);
        assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
        let log = String::from_utf8_lossy(&out.stdout);
        let echoed = log.lines().next().unwrap_or_default();
        assert!(
            echoed.starts_with("beast check --random 3 ")
                && echoed.ends_with(" -- python3 'my answer.py'"),
            "{command}: {echoed}"
        );
        // The text report is in the log too.
        assert!(log.contains("\n3 passed, 0 failed\n"), "{log}");
        assert!(
            runner.summary().contains(echoed),
            "the summary names the line that ran"
        );
    }
}

#[test]
fn two_uses_in_one_job_keep_their_own_files() {
    let runner = Runner::new();
    let mut files = Vec::new();
    for seed in ["7", "8"] {
        let out = runner.run(&[("command", BEAST), ("random", "2"), ("seed", seed), QUICK]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let junit = runner.output("junit").expect("a junit output");
        let report = runner.output("report").expect("a report output");
        files.push((seed, junit, report));
    }
    assert_ne!(files[0].1, files[1].1, "one JUnit path for both");
    assert_ne!(files[0].2, files[1].2, "one report path for both");
    for (seed, junit, report) in &files {
        let xml = fs::read_to_string(junit).expect("the JUnit file");
        assert!(xml.contains(&format!("random-{seed}-1")), "{xml}");
        let text = fs::read_to_string(report).expect("the report");
        assert!(text.contains("2 passed, 0 failed"), "{text}");
    }
    let summary = runner.summary();
    assert!(
        summary.contains("### beast check\n") && summary.contains("### beast check (2)\n"),
        "{summary}"
    );
    // An id names the files; a second use of the same id is refused.
    let named = [("command", BEAST), ("random", "1"), ("id", "mine"), QUICK];
    assert_eq!(runner.run(&named).status.code(), Some(0));
    assert!(
        runner
            .output("junit")
            .is_some_and(|j| j.ends_with("beast-check-mine/junit.xml"))
    );
    let again = runner.run(&named);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stdout).contains("id 'mine' is already used"));
}

#[test]
fn the_shipped_challenge_answers_all_start_with_beast_on_the_path() {
    let runner = Runner::new();
    let out = runner.run_in(
        &repo(""),
        &[
            ("answers", "examples/challenge/answers.toml"),
            ("random", "2"),
            ("format", "markdown"),
            ("fail", "false"),
            QUICK,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let summary = runner.summary();
    assert!(!summary.contains("cannot start"), "{summary}");
    for name in ["reference", "stops-early", "tie-swap", "zero", "crash"] {
        assert!(
            summary.contains(&format!(" | {name} | ")),
            "{name}: {summary}"
        );
    }
    // The three that run `beast` itself ran every case: the reference passes them all.
    assert!(summary.contains(" | reference | 2/2 |"), "{summary}");
    assert_eq!(runner.output("status").as_deref(), Some("1"));
}

#[test]
fn an_error_of_beast_is_in_the_summary_and_an_error_annotation() {
    let runner = Runner::new();
    let out = runner.run(&[("answers", "no-such-answers.toml"), ("random", "1"), QUICK]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let annotation = stdout
        .lines()
        .find(|l| l.starts_with("::error title=beast-judge (exit 2)::"))
        .unwrap_or_else(|| panic!("no ::error line: {stdout}"));
    assert!(annotation.contains("no-such-answers.toml"), "{annotation}");
    let summary = runner.summary();
    let md = fenced(&summary);
    assert!(summary.contains("exit status 2"), "{summary}");
    assert!(
        md.blocks
            .iter()
            .any(|b| b.contains("error") && b.contains("no-such-answers.toml")),
        "{summary}"
    );
    assert_eq!(runner.output("status").as_deref(), Some("2"));
}

/// Writes a script at `path` and makes it executable.
fn executable(path: &Path, script: &str) {
    crate::util::write_executable(path, script.as_bytes());
}

/// `action/install.sh` with these arguments and variables.
fn install_sh(args: &[&Path], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(repo("action/install.sh")).args(args);
    for var in [
        "ACTION_REF",
        "ACTION_REPOSITORY",
        "GITHUB_ACTION_PATH",
        "RUNNER_OS",
        "RUNNER_ARCH",
        "RUSTC",
        "CARGO",
        "BEAST_RELEASES_URL",
    ] {
        cmd.env_remove(var);
    }
    for (name, value) in env {
        cmd.env(name, value);
    }
    cmd.output().expect("bash runs")
}

#[test]
fn the_cache_key_covers_every_file_the_build_reads_the_architecture_and_the_toolchain() {
    let dir = tempfile::tempdir().expect("temp dir");
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "src/main.rs",
        "crates/engine/src/lib.rs",
        "examples/beast/wikipedia.out",
        "docs/RULES.md",
        "target/release/beast",
    ] {
        let path = dir.path().join(file);
        fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        fs::write(&path, file).expect("write");
    }
    let x64 = [("RUNNER_OS", "Linux"), ("RUNNER_ARCH", "X64")];
    let key = |env: &[(&str, &str)]| {
        let out = install_sh(&[Path::new("key"), dir.path()], env);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let mut keys = vec![key(&x64)];
    assert_eq!(key(&x64), keys[0], "the key is stable");
    // The build's output is not its input.
    fs::write(dir.path().join("target/release/beast"), "rebuilt").expect("write");
    assert_eq!(key(&x64), keys[0], "target/ changed the key");
    for file in [
        "src/main.rs",
        "examples/beast/wikipedia.out",
        "docs/RULES.md",
        "Cargo.lock",
    ] {
        fs::write(dir.path().join(file), "changed").expect("write");
        keys.push(key(&x64));
    }
    keys.push(key(&[("RUNNER_OS", "Linux"), ("RUNNER_ARCH", "ARM64")]));
    let rustc = dir.path().join("other-rustc");
    executable(
        &rustc,
        "#!/bin/sh\necho 'rustc 1.99.0 (0123abcde 2027-01-01)'\n",
    );
    let rustc = rustc.display().to_string();
    keys.push(key(&[x64[0], x64[1], ("RUSTC", &rustc)]));
    let last = keys.last().expect("keys");
    assert!(last.contains("rustc-1.99.0"), "{last}");
    assert_eq!(keys.len(), 7);
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            assert_ne!(a, b, "two different builds share a key");
        }
    }
}

/// A simulated release: an action checkout of version 0.2.0, a release directory with
/// a fake `beast` archive and its SHA256SUMS, and a `cargo` that records a build.
struct Release {
    dir: tempfile::TempDir,
}

impl Release {
    fn new() -> Release {
        let release = Release {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        let action = release.action();
        fs::create_dir_all(&action).expect("mkdir");
        fs::write(
            action.join("Cargo.toml"),
            "[package]\nname = \"beast-judge\"\nversion = \"0.2.0\"\n",
        )
        .expect("write");
        let name = "beast-v0.2.0-x86_64-unknown-linux-musl";
        let staging = release.path(&format!("staging/{name}"));
        fs::create_dir_all(&staging).expect("mkdir");
        executable(
            &staging.join("beast"),
            "#!/bin/sh\necho beast 0.2.0 released\n",
        );
        let files = release.path("releases/v0.2.0");
        fs::create_dir_all(&files).expect("mkdir");
        let archive = files.join(format!("{name}.tar.gz"));
        let tar = Command::new("tar")
            .arg("-czf")
            .arg(&archive)
            .arg("-C")
            .arg(release.path("staging"))
            .arg(name)
            .status()
            .expect("tar");
        assert!(tar.success());
        let sums = Command::new("sha256sum")
            .arg(format!("{name}.tar.gz"))
            .current_dir(&files)
            .output()
            .expect("sha256sum");
        fs::write(files.join("SHA256SUMS"), sums.stdout).expect("write");
        // A cargo that records what it was asked and installs a beast of its own.
        executable(
            &release.path("cargo"),
            &format!(
                "#!/bin/sh\necho \"$@\" > {:?}\nfor a; do [ \"$prev\" = --root ] && root=$a; prev=$a; done\n\
                 mkdir -p \"$root/bin\"\nprintf '#!/bin/sh\\necho beast built\\n' > \"$root/bin/beast\"\n\
                 chmod 755 \"$root/bin/beast\"\n",
                release.path("built").display()
            ),
        );
        release
    }

    /// The action's checkout at `at` (a path under the release's directory), of version
    /// 0.2.0.
    fn checkout(&self, at: &str) -> PathBuf {
        let dir = self.path(at);
        fs::create_dir_all(&dir).expect("mkdir");
        fs::copy(self.action().join("Cargo.toml"), dir.join("Cargo.toml")).expect("copy");
        dir
    }

    /// Runs `install.sh install` of the checkout `action` for a Linux x64 runner.
    fn install_from(&self, action: &Path, env: &[(&str, &str)]) -> Output {
        let url = format!("file://{}", self.path("releases").display());
        let fake_cargo = self.path("cargo").display().to_string();
        let mut vars = vec![
            ("RUNNER_OS", "Linux"),
            ("RUNNER_ARCH", "X64"),
            ("BEAST_RELEASES_URL", url.as_str()),
            ("CARGO", fake_cargo.as_str()),
        ];
        vars.extend_from_slice(env);
        let root = self.path("root");
        install_sh(&[Path::new("install"), action, &root], &vars)
    }

    /// Runs `install.sh verify` of the installed root, as the step after a cache hit.
    fn verify(&self) -> Output {
        let url = format!("file://{}", self.path("releases").display());
        install_sh(
            &[Path::new("verify"), &self.path("root")],
            &[("BEAST_RELEASES_URL", url.as_str())],
        )
    }

    /// What the installed beast prints.
    fn says(&self) -> String {
        let ran = Command::new(self.installed()).output().expect("runs");
        String::from_utf8_lossy(&ran.stdout).into_owned()
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The action's checkout, where a runner keeps it: _actions/OWNER/REPO/REF.
    fn action(&self) -> PathBuf {
        self.path("_actions/beast-judge/beast-judge/v0.2.0")
    }

    /// Runs `install.sh install` for a Linux x64 runner with these variables.
    fn install(&self, env: &[(&str, &str)]) -> Output {
        self.install_from(&self.action(), env)
    }

    fn installed(&self) -> PathBuf {
        self.path("root/bin/beast")
    }

    /// What the fake cargo was asked to build, if anything.
    fn built(&self) -> Option<String> {
        fs::read_to_string(self.path("built")).ok()
    }
}

#[test]
fn the_release_of_the_actions_version_tag_is_downloaded_and_its_checksum_checked() {
    let release = Release::new();
    let action = release.action().display().to_string();
    // The ref and repository found in the action's path, as a runner lays it out.
    let out = release.install(&[("GITHUB_ACTION_PATH", &action)]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("(SHA-256 "),
        "{out:?}"
    );
    let ran = Command::new(release.installed()).output().expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout),
        "beast 0.2.0 released\n"
    );
    assert_eq!(release.built(), None, "built although a release exists");
}

#[test]
fn a_release_archive_that_does_not_match_its_checksum_is_refused() {
    let release = Release::new();
    let archive = release.path("releases/v0.2.0/beast-v0.2.0-x86_64-unknown-linux-musl.tar.gz");
    let mut bytes = fs::read(&archive).expect("read");
    bytes.extend_from_slice(b"tampered");
    fs::write(&archive, bytes).expect("write");
    let out = release.install(&[
        ("ACTION_REF", "v0.2.0"),
        ("ACTION_REPOSITORY", "beast-judge/beast-judge"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error title=beast-judge::") && stdout.contains("SHA-256"),
        "{stdout}"
    );
    assert!(
        !release.installed().exists(),
        "an unchecked binary was installed"
    );
    assert_eq!(release.built(), None);
}

#[test]
fn beast_is_built_from_source_only_where_no_release_exists() {
    let release = Release::new();
    let repo_env = ("ACTION_REPOSITORY", "beast-judge/beast-judge");
    let empty = release.path("empty");
    fs::create_dir_all(&empty).expect("mkdir");
    let empty_url = format!("file://{}", empty.display());
    let local = release.checkout("workspace/my-challenge");
    for (action, env) in [
        // The version has no release published.
        (
            release.action(),
            vec![repo_env, ("BEAST_RELEASES_URL", empty_url.as_str())],
        ),
        // A runner there is no binary for.
        (release.action(), vec![repo_env, ("RUNNER_ARCH", "ARM")]),
        // A local action (`uses: ./`): no repository to download from.
        (local, vec![]),
    ] {
        let _ = fs::remove_dir_all(release.path("root"));
        let _ = fs::remove_file(release.path("built"));
        let out = release.install_from(&action, &env);
        assert!(out.status.success(), "{env:?}: {out:?}");
        let built = release
            .built()
            .unwrap_or_else(|| panic!("{env:?}: not built: {out:?}"));
        assert!(
            built.starts_with("install --locked --path ") && built.contains("--root "),
            "{built}"
        );
        assert_eq!(release.says(), "beast built\n");
    }
}

#[test]
fn the_release_of_the_version_in_cargo_toml_is_downloaded_whatever_the_ref() {
    let release = Release::new();
    // `uses: beast-judge/beast-judge@v1` (the usual major pin), `@main` or a commit: the
    // runner's checkout of that ref says version 0.2.0, so the release v0.2.0 is it.
    for reference in ["v1", "main", "0123456789abcdef0123456789abcdef01234567"] {
        let _ = fs::remove_dir_all(release.path("root"));
        let action = release.checkout(&format!("_actions/beast-judge/beast-judge/{reference}"));
        let path = action.display().to_string();
        let out = release.install_from(&action, &[("GITHUB_ACTION_PATH", &path)]);
        assert!(out.status.success(), "{reference}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("Installed beast v0.2.0") && stdout.contains("(SHA-256 "),
            "{reference}: {stdout}"
        );
        assert_eq!(release.says(), "beast 0.2.0 released\n", "{reference}");
        assert_eq!(
            release.built(),
            None,
            "{reference}: built although a release exists"
        );
    }
}

#[test]
fn a_release_restored_from_the_cache_is_checked_again_before_it_runs() {
    let release = Release::new();
    let out = release.install(&[("ACTION_REPOSITORY", "beast-judge/beast-judge")]);
    assert!(out.status.success(), "{out:?}");
    // As restored: intact, it is checked and runs.
    let out = release.verify();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("checked again"));
    // A binary swapped in the cache is replaced by the checked archive's own.
    executable(&release.installed(), "#!/bin/sh\necho planted\n");
    assert!(release.verify().status.success());
    assert_eq!(release.says(), "beast 0.2.0 released\n");
    // An archive swapped in the cache is refused, and nothing of it is run.
    let kept = release.path("root/release/beast-v0.2.0-x86_64-unknown-linux-musl.tar.gz");
    let mut bytes = fs::read(&kept).expect("the kept archive");
    bytes.extend_from_slice(b"tampered");
    fs::write(&kept, bytes).expect("write");
    executable(&release.installed(), "#!/bin/sh\necho planted\n");
    let out = release.verify();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("::error title=beast-judge::the beast restored from the cache is an archive with SHA-256"),
        "{stdout}"
    );
}

#[test]
fn a_built_beast_restored_from_the_cache_must_have_the_sha256_recorded_at_its_build() {
    let release = Release::new();
    let local = release.checkout("workspace/my-challenge");
    assert!(release.install_from(&local, &[]).status.success());
    let out = release.verify();
    assert!(out.status.success(), "{out:?}");
    executable(&release.installed(), "#!/bin/sh\necho planted\n");
    let out = release.verify();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error title=beast-judge::")
            && stdout.contains("as recorded when it was built"),
        "{stdout}"
    );
}

#[test]
fn action_yml_saves_the_cache_right_after_installing_and_checks_what_it_restores() {
    let yml = fs::read_to_string(repo("action.yml")).expect("action.yml");
    let at = |what: &str| {
        yml.find(what)
            .unwrap_or_else(|| panic!("no {what} in action.yml"))
    };
    assert!(
        !yml.contains("uses: actions/cache@"),
        "the cache saves only in its post step"
    );
    let restore = at("uses: actions/cache/restore@");
    let install = at("install.sh\" install");
    let save = at("uses: actions/cache/save@");
    let verify = at("install.sh\" verify");
    let check = at("action/run.sh");
    assert!(restore < install && install < save && save < check && verify < check);
}

#[test]
fn the_runners_command_files_are_not_named_to_the_answer() {
    let runner = Runner::new();
    // Under `--sandbox none` the answer sees the judge's environment: the files through
    // which a step sets outputs, the summary and later steps' environment are not in it.
    fs::write(
        runner.path("writer.sh"),
        "for f in \"$GITHUB_OUTPUT\" \"$GITHUB_STEP_SUMMARY\" \"$GITHUB_ENV\" \"$GITHUB_PATH\"; do\n\
         [ -n \"$f\" ] && echo forged=1 >> \"$f\"\ndone\nexec beast\n",
    )
    .expect("write");
    let out = runner.run(&[("command", "sh writer.sh"), ("random", "2"), QUICK]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for file in ["output.txt", "summary.md", "env.txt"] {
        let text = fs::read_to_string(runner.path(file)).unwrap_or_default();
        assert!(!text.contains("forged=1"), "{file}: {text}");
    }
}

/// actionlint does not read a local action's inputs: every workflow here that uses the
/// action (`uses: ./`, or the repository at a tag) gives it only inputs it declares.
#[test]
fn the_workflows_give_the_action_only_its_inputs() {
    let inputs = action_inputs();
    let (mut uses, mut checked) = (0, 0);
    for dir in [".github/workflows", "examples/ci"] {
        for entry in fs::read_dir(repo(dir)).expect("a workflow directory") {
            let path = entry.expect("an entry").path();
            let text = fs::read_to_string(&path).expect("a workflow");
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let step = line.trim_start().trim_start_matches("- ");
                if step != "uses: ./" && !step.starts_with("uses: beast-judge/beast-judge@") {
                    continue;
                }
                uses += 1;
                // The indentation of the step's keys (`uses:`, `with:`, ...).
                let depth = |l: &str| l.len() - l.trim_start().len();
                let key = depth(line)
                    + if line.trim_start().starts_with("- ") {
                        2
                    } else {
                        0
                    };
                let step: Vec<&str> = lines[i + 1..]
                    .iter()
                    .copied()
                    .take_while(|l| l.trim().is_empty() || depth(l) >= key)
                    .collect();
                let Some(with) = step
                    .iter()
                    .position(|l| depth(l) == key && l.trim() == "with:")
                else {
                    continue;
                };
                for l in &step[with + 1..] {
                    if l.trim().is_empty() || l.trim().starts_with('#') {
                        continue;
                    }
                    if depth(l) <= key {
                        break;
                    }
                    if depth(l) == key + 2 {
                        let name = l.trim().split(':').next().unwrap_or_default();
                        assert!(
                            inputs.iter().any(|i| i == name),
                            "{}:{}: the action has no input {name:?}",
                            path.display(),
                            i + 1
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(uses >= 5, "only {uses} uses of the action found");
    assert!(checked >= 15, "only {checked} inputs checked");
}

/// `run.sh`'s log lines that the runner would read as workflow commands before the first
/// `::stop-commands::`.
fn commands_before_the_stop(log: &str) -> Vec<&str> {
    log.lines()
        .take_while(|l| !l.starts_with("::stop-commands::"))
        .filter(|l| l.starts_with("::"))
        .collect()
}

#[test]
fn args_post_and_quiet_work_since_format_is_passed_only_when_asked() {
    let runner = Runner::new();
    fs::copy(
        repo("crates/engine/src/judge/kattis/beasts.py"),
        runner.path("answer.py"),
    )
    .expect("copy the reference answer");
    let command = ("command", "python3 answer.py");
    let out = runner.run(&[
        command,
        ("random", "2"),
        ("args", "--sandbox none --no-builtin --post"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        !log.lines().next().unwrap_or_default().contains("--format"),
        "{log}"
    );
    let report = fs::read_to_string(runner.output("report").expect("a report")).expect("read");
    assert!(report.starts_with("# Python "), "the post: {report}");
    let out = runner.run(&[
        command,
        ("random", "2"),
        ("args", "--sandbox none --no-builtin -q"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = fs::read_to_string(runner.output("report").expect("a report")).expect("read");
    assert_eq!(report, "2 passed, 0 failed\n");
    // Asked for, the format is passed.
    let out = runner.run(&[command, ("random", "1"), ("format", "json"), QUICK]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        log.lines()
            .next()
            .unwrap_or_default()
            .contains(" --format json "),
        "{log}"
    );
}

#[test]
fn args_that_repeat_an_input_are_refused_naming_the_input() {
    let runner = Runner::new();
    for (args, input) in [
        ("--seed 3", "the input seed: give it as 'seed:'"),
        ("--random=5", "the input random"),
        ("--junit x.xml", "read its path from the output 'junit'"),
        ("--format text", "the input format"),
        ("--shard 1/2", "the inputs shard and shards"),
        ("-- ./answer", "the input command"),
    ] {
        let out = runner.run(&[("command", BEAST), ("args", args)]);
        assert_eq!(out.status.code(), Some(2), "{args}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with("::error title=beast-judge::args: ") && stdout.contains(input),
            "{args}: {stdout}"
        );
        assert!(!stdout.contains("multiple times"), "{stdout}");
    }
}

#[test]
fn beasts_directory_is_put_on_the_path_of_later_steps() {
    let runner = Runner::new();
    let out = runner.run(&[("command", BEAST), ("random", "1"), QUICK]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let path = fs::read_to_string(runner.path("path.txt")).expect("GITHUB_PATH written");
    let dir = Path::new(BEAST).parent().expect("a directory");
    let dir = dir.canonicalize().expect("canonical");
    assert!(
        path.lines()
            .any(|l| Path::new(l).canonicalize().ok().as_deref() == Some(&dir)),
        "{path}"
    );
    // A later step finds it there.
    let later = Command::new("sh")
        .args(["-c", "command -v beast"])
        .env("PATH", format!("{}:{}", path.trim(), path_without_beast()))
        .output()
        .expect("sh runs");
    assert!(later.status.success(), "{later:?}");
}

#[test]
fn a_failed_case_under_fail_false_is_a_warning_not_an_error() {
    let runner = Runner::new();
    fs::write(runner.path("wrong.sh"), "echo 0\n").expect("write");
    let out = runner.run(&[
        ("command", "sh wrong.sh"),
        ("random", "2"),
        ("fail", "false"),
        QUICK,
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        log.contains("::warning title=beast-judge::a case failed"),
        "{log}"
    );
    assert!(!log.contains("::error"), "{log}");
}

#[test]
fn an_input_holding_a_line_break_is_refused_before_anything_reaches_the_log() {
    let runner = Runner::new();
    let forged = "x\n::warning title=forged::forged\n::add-mask::beast";
    let list = "[\"sh\", \"a\\n::warning title=forged::forged\"]";
    let block = "- sh\n- \"a\\r::warning title=forged::forged\"";
    for inputs in [
        vec![("answers", forged)],
        vec![("command", BEAST), ("seed", forged)],
        vec![("command", BEAST), ("random", "2\r::warning::forged")],
        vec![("command", BEAST), ("id", forged)],
        vec![("command", BEAST), ("format", forged)],
        vec![("command", BEAST), ("fail", forged)],
        vec![("merge", forged)],
        vec![("command", list)],
        vec![("command", block)],
        vec![
            ("command", BEAST),
            ("args", "[\"--robustness\", \"x\\n::warning::forged\"]"),
        ],
    ] {
        let out = runner.run(&inputs);
        assert_eq!(out.status.code(), Some(2), "{inputs:?}: {out:?}");
        let log = String::from_utf8_lossy(&out.stdout);
        let commands = commands_before_the_stop(&log);
        assert!(
            commands
                .iter()
                .all(|l| l.starts_with("::error title=beast-judge::")),
            "{inputs:?}: a workflow command reached the log: {log}"
        );
        assert!(log.contains("line break"), "{inputs:?}: {log}");
        assert!(!log.contains("\n::warning"), "{log}");
    }
}
