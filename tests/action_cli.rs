//! The GitHub Action (`action.yml`): its logic, `action/run.sh`, run as a runner would run
//! it, with a simulated `GITHUB_*` environment, and `action.yml` passing it every input.

use std::fs;
use std::path::Path;
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
        let mut cmd = Command::new("bash");
        cmd.arg(repo("action/run.sh"))
            .current_dir(self.dir.path())
            .env("BEAST", BEAST)
            .env("GITHUB_STEP_SUMMARY", self.path("summary.md"))
            .env("GITHUB_OUTPUT", self.path("output.txt"))
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

/// Flags that keep the runs short: uncontained (the answers only run `beast`).
const QUICK: (&str, &str) = ("args", "--sandbox none --no-builtin");

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
    let merge = runner.path("shard-*.json").display().to_string();
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

#[test]
fn the_cache_key_follows_the_sources() {
    let dir = tempfile::tempdir().expect("temp dir");
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "src/main.rs",
        "crates/engine/src/lib.rs",
    ] {
        let path = dir.path().join(file);
        fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        fs::write(&path, file).expect("write");
    }
    let key = |dir: &Path| {
        let out = Command::new("bash")
            .arg(repo("action/run.sh"))
            .arg("--key")
            .arg(dir)
            .output()
            .expect("runs");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let first = key(dir.path());
    assert_eq!(first.trim().len(), 16, "{first}");
    assert_eq!(key(dir.path()), first);
    fs::write(dir.path().join("src/main.rs"), "changed").expect("write");
    assert_ne!(key(dir.path()), first);
}

#[test]
fn action_yml_passes_every_input_to_the_script() {
    let yml = fs::read_to_string(repo("action.yml")).expect("action.yml");
    let inputs_part = yml
        .split("\ninputs:\n")
        .nth(1)
        .and_then(|rest| rest.split("\noutputs:\n").next())
        .expect("an inputs block");
    let names: Vec<&str> = inputs_part
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':'))
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    let script = fs::read_to_string(repo("action/run.sh")).expect("run.sh");
    for name in names {
        let var = format!("INPUT_{}", name.to_uppercase());
        assert!(
            yml.contains(&format!("{var}: ${{{{ inputs.{name} }}}}")),
            "action.yml does not pass {name}"
        );
        assert!(script.contains(&var), "run.sh does not read {var}");
    }
    assert!(yml.contains("using: composite"));
}
