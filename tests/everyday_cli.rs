//! Everyday use (issue 31): a typo gets clap's suggestion, nothing is passed on to the
//! answer silently, the output controls (`-q`, `--color`, the `BEAST_*` defaults), the byte
//! count golfers post (`beast score`, the score line, the post's header), packs that
//! replace the previous one, and help texts and install steps that work.

use std::path::{Path, PathBuf};

use crate::util::{BEAST, beast, example, repo};

/// A directory of one case, the Wikipedia sample as `wikipedia.in` with its answer.
fn one_case() -> tempfile::TempDir {
    one_case_expecting("8\n")
}

/// A directory of one case, the Wikipedia sample, whose expected output is `expected`.
fn one_case_expecting(expected: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = std::fs::read(example("wikipedia.txt")).expect("the sample");
    std::fs::write(dir.path().join("wikipedia.in"), puzzle).expect("written");
    std::fs::write(dir.path().join("wikipedia.out"), expected).expect("written");
    dir
}

/// `beast ARGS`: its exit code, stdout and stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = beast().args(args).output().expect("beast runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_unknown_option_of_a_subcommand_is_an_error_with_clap_suggestion() {
    for (typo, meant) in [
        (
            &["check", "--radom", "5", "--", "python3", "a.py"][..],
            "--random",
        ),
        (&["check", "--sed", "3", "--", "python3", "a.py"], "--seed"),
        (&["check", "--quite", "--", "python3", "a.py"], "--quiet"),
        (&["gen", "--sed", "3"], "--seed"),
        (&["cases", "--forse", "--out", "x"], "--force"),
    ] {
        let (code, out, err) = run(typo);
        assert_eq!(code, Some(2), "{typo:?}: {err}");
        let typed = typo.iter().find(|w| w.starts_with("--") && **w != "--");
        let typed = typed.expect("a typo");
        assert!(
            err.contains(&format!("unexpected argument '{typed}'")),
            "{typo:?}: {err}"
        );
        assert!(
            err.contains(&format!("a similar argument exists: '{meant}'")),
            "{typo:?}: {err}"
        );
        assert!(!err.contains("does not exist"), "{typo:?}: {err}");
        assert!(
            !err.contains("as a value"),
            "after `--` is the answer's: {err}"
        );
        assert_eq!(out, "", "{typo:?}");
    }
}

#[test]
fn a_mistyped_subcommand_or_a_missing_file_spelt_like_one_gets_did_you_mean() {
    for (typo, meant) in [
        (&["chek", "--", "python3", "a.py"][..], "check"),
        (&["genn"], "gen"),
        (&["scor", "a.py"], "score"),
        (&["--color", "never", "cheque"], "check"),
    ] {
        let (code, _, err) = run(typo);
        assert_eq!(code, Some(2), "{typo:?}: {err}");
        let word = typo.iter().find(|w| !w.starts_with('-') && **w != "never");
        let word = word.expect("the typo");
        assert!(
            err.contains(&format!("unrecognized subcommand '{word}'")),
            "{typo:?}: {err}"
        );
        assert!(
            err.contains(&format!("a similar subcommand exists: '{meant}'")),
            "{typo:?}: {err}"
        );
    }
}

#[test]
fn a_puzzle_file_that_exists_is_judged_even_when_spelt_like_a_subcommand() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(example("wikipedia.txt"), dir.path().join("chek")).expect("copied");
    let out = beast()
        .current_dir(dir.path())
        .arg("chek")
        .output()
        .expect("beast runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "8\n");
    let (code, _, err) = run(&["no-such-puzzle.txt"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read no-such-puzzle.txt"), "{err}");
}

#[test]
fn an_answers_command_before_the_double_dash_is_refused_and_runs_nothing() {
    for words in [
        &["check", "python3", "a.py", "--random", "3"][..],
        &["check", "--random", "3", "python3", "a.py"],
    ] {
        let (code, out, err) = run(words);
        assert_eq!(code, Some(2), "{words:?}: {err}");
        assert!(
            err.contains(
                "put the answer's command after `--`: beast check [OPTIONS] -- python3 a.py"
            ),
            "{words:?}: {err}"
        );
        assert_eq!(out, "", "{words:?}: nothing ran");
    }
    let (code, _, err) = run(&["check", "--random", "3"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no answer to check: put its command after `--`"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn every_word_after_the_double_dash_is_the_answers_and_none_is_beasts() {
    let cases = one_case();
    let work = tempfile::tempdir().expect("temp dir");
    let seen = work.path().join("args.txt");
    let script = format!(
        "printf '%s\\n' \"$@\" > '{}'; cat > /dev/null; echo 8",
        seen.display()
    );
    let cases_dir = cases.path().to_str().expect("UTF-8 path");
    let (code, out, err) = run(&[
        "check",
        "--sandbox",
        "none",
        "--no-builtin",
        "--cases",
        cases_dir,
        "--",
        "sh",
        "-c",
        &script,
        "sh",
        "--random",
        "3",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("1 passed, 0 failed\n"),
        "one case, no random ones: {out}"
    );
    let args = std::fs::read_to_string(&seen).expect("the answer ran");
    assert_eq!(args, "--random\n3\n");
}

#[test]
fn quiet_prints_the_summary_line_alone() {
    let cases = one_case();
    let dir = cases.path().to_str().expect("UTF-8 path");
    let common = [
        "check",
        "-q",
        "--sandbox",
        "none",
        "--no-builtin",
        "--cases",
        dir,
    ];
    let (code, out, err) = run(&[&common[..], &["--", BEAST]].concat());
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(0), "1 passed, 0 failed\n", "")
    );
    let other = one_case_expecting("9\n");
    let other = other.path().to_str().expect("UTF-8 path");
    let wrong = [&common[..6], &[other, "--", BEAST]].concat();
    let (code, out, _) = run(&wrong);
    assert_eq!((code, out.as_str()), (Some(1), "0 passed, 1 failed\n"));
    let (code, _, err) = run(&["check", "-q", "-v", "--", BEAST]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot be used with"), "{err}");
}

/// `beast --trace` of the Wikipedia sample with `args` first and `env` set: its stderr,
/// the board drawn, piped.
fn trace(args: &[&str], env: &[(&str, &str)]) -> String {
    let sample = example("wikipedia.txt");
    let mut cmd = beast();
    cmd.env_remove("NO_COLOR").env_remove("BEAST_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(args)
        .arg("--trace")
        .arg(sample)
        .output()
        .expect("beast runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn color_always_paints_even_into_a_pipe_never_and_no_color_do_not() {
    const ESC: &str = "\x1b[";
    assert!(trace(&["--color", "always"], &[]).contains(ESC));
    assert!(trace(&["--color=always"], &[("NO_COLOR", "1")]).contains(ESC));
    assert!(trace(&[], &[("BEAST_COLOR", "always")]).contains(ESC));
    assert!(!trace(&["--color", "never"], &[("BEAST_COLOR", "always")]).contains(ESC));
    assert!(!trace(&[], &[]).contains(ESC), "auto, piped");
    assert!(!trace(&["--color", "auto"], &[("NO_COLOR", "1")]).contains(ESC));
    let (code, _, err) = run(&["--color", "always", "check", "--radom", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains(ESC), "clap's error is painted too: {err:?}");
    let (code, _, err) = run(&["--color", "never", "check", "--radom", "1"]);
    assert_eq!(code, Some(2));
    assert!(!err.contains(ESC) && err.contains("'--random'"), "{err:?}");
}

#[test]
fn check_paints_its_summary_line_only_as_color_says() {
    let cases = one_case();
    let dir = cases.path().to_str().expect("UTF-8 path");
    let check = |color: &str| {
        let out = beast()
            .env_remove("NO_COLOR")
            .env_remove("BEAST_COLOR")
            .args([
                "check",
                "--color",
                color,
                "--sandbox",
                "none",
                "--no-builtin",
            ])
            .args(["--cases", dir, "--", BEAST])
            .output()
            .expect("beast runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let always = check("always");
    assert!(
        always.contains("\x1b[") && always.contains("1 passed, 0 failed"),
        "{always:?}"
    );
    let never = check("never");
    assert!(
        !never.contains('\x1b') && never.ends_with("\n1 passed, 0 failed\n"),
        "{never:?}"
    );
    assert!(!check("auto").contains('\x1b'), "auto, piped");
}

#[test]
fn color_is_taken_on_every_command_before_or_after_its_name() {
    for args in [
        &["--color", "never", "gen", "--seed", "1"][..],
        &["gen", "--seed", "1", "--color", "never"],
        &["score", "--color=always", "Cargo.toml"],
        &["variants", "--color", "auto"],
    ] {
        let out = beast()
            .current_dir(repo(""))
            .args(args)
            .output()
            .expect("beast runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let (code, _, err) = run(&["gen", "--color", "sometimes"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid value 'sometimes'"), "{err}");
}

#[test]
fn the_machines_defaults_come_from_the_environment_and_show_in_help() {
    let (_, help, _) = run(&["check", "--help"]);
    for name in [
        "BEAST_TIMEOUT",
        "BEAST_JOBS",
        "BEAST_SANDBOX",
        "BEAST_COLOR",
    ] {
        assert!(help.contains(&format!("[env: {name}=")), "{name}: {help}");
    }
    let cases = one_case();
    let dir = cases.path().to_str().expect("UTF-8 path");
    let slow = |env: &[(&str, &str)], extra: &[&str]| {
        let mut cmd = beast();
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd
            .args(["check", "--no-builtin", "--cases", dir, "--format", "json"])
            .args(extra)
            .args(["--", "sh", "-c", "sleep 3; echo 8"])
            .output()
            .expect("beast runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let env = [("BEAST_TIMEOUT", "0.3"), ("BEAST_SANDBOX", "none")];
    let timed_out = slow(&env, &[]);
    assert!(timed_out.contains("\"verdict\":\"TLE\""), "{timed_out}");
    assert!(timed_out.contains("\"mechanism\":\"none\""), "{timed_out}");
    let flag_wins = slow(&env, &["--timeout", "10"]);
    assert!(flag_wins.contains("\"verdict\":\"AC\""), "{flag_wins}");
    let (code, _, err) = {
        let out = beast()
            .env("BEAST_JOBS", "0")
            .args(["check", "--", "sh"])
            .output()
            .expect("beast runs");
        (
            out.status.code(),
            (),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(code, Some(2));
    assert!(err.contains("--jobs <N>"), "{err}");
}

/// A file `name` holding `text` in a fresh directory.
fn source(name: &str, text: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("written");
    (dir, path)
}

#[test]
fn the_score_leaves_out_the_shebang_line_and_one_final_newline_and_says_so() {
    let (_dir, path) = source("a.py", "#!/usr/bin/env python3\nprint('é')\n".as_bytes());
    let file = path.to_str().expect("UTF-8 path");
    let (code, out, _) = run(&["score", file]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!(
            "{file}: 11 bytes, 10 chars (10 bytes in Latin-1); not counted: the #! line, the \
             final newline\n"
        )
    );
    let (_, all, _) = run(&["score", "--count-all", file]);
    assert_eq!(
        all,
        format!("{file}: 35 bytes, 34 chars (34 bytes in Latin-1)\n")
    );
}

#[test]
fn score_counts_every_file_and_standard_input_and_refuses_a_missing_one() {
    let (_a, a) = source("a.pl", b"print 8");
    let (_b, b) = source("b.js", b"alert(8)\n\n");
    let out = beast()
        .args(["score"])
        .arg(&a)
        .arg(&b)
        .arg("-")
        .write_stdin("x\r\n")
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with("a.pl: 7 bytes, 7 chars"), "{text}");
    assert!(
        lines[1].ends_with("b.js: 9 bytes, 9 chars; not counted: the final newline"),
        "one newline only: {text}"
    );
    assert_eq!(
        lines[2],
        "standard input: 1 byte, 1 char; not counted: the final newline"
    );
    let (code, out, err) = run(&["score", "no-such-answer.py"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("cannot read no-such-answer.py"), "{err}");
}

/// `beast check --sandbox none` of the script `a.sh` (made executable) on the Wikipedia
/// sample, run from its directory, with `args`; stdout.
#[cfg(unix)]
fn check_script(text: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("a.sh");
    crate::util::write_executable(&path, text.as_bytes());
    let cases = one_case();
    let out = beast()
        .current_dir(dir.path())
        .env("BEAST", BEAST)
        .args([
            "check",
            "--sandbox",
            "none",
            "--env",
            "BEAST",
            "--no-builtin",
            "--cases",
        ])
        .arg(cases.path())
        .args(args)
        .args(["--", "./a.sh"])
        .output()
        .expect("beast runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn the_check_score_line_is_the_golfers_count() {
    let out = check_script("#!/bin/sh\nexec \"$BEAST\"\n", &[]);
    assert!(
        out.contains(
            "score: 13 bytes, 13 chars (./a.sh); not counted: the #! line, the final newline\n"
        ),
        "{out}"
    );
    let all = check_script("#!/bin/sh\nexec \"$BEAST\"\n", &["--count-all"]);
    assert!(
        all.contains("score: 24 bytes, 24 chars (./a.sh)\n"),
        "{all}"
    );
}

#[cfg(unix)]
#[test]
fn the_post_names_the_shebang_lines_flags_and_shows_the_code_counted() {
    let script = "#!/bin/sh -e\nexec \"$BEAST\"\n";
    let post = check_script(script, &["--post", "--language", "sh"]);
    assert!(
        post.starts_with("# sh `-e`, 13 bytes\n\n    exec \"$BEAST\"\n"),
        "{post}"
    );
    let all = check_script(script, &["--post", "--language", "sh", "--count-all"]);
    assert!(
        all.starts_with("# sh, 27 bytes\n\n    #!/bin/sh -e\n"),
        "{all}"
    );
    let through_env = check_script("#!/usr/bin/env -S sh -e\nexec \"$BEAST\"\n", &["--post"]);
    let header = through_env.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("# sh") && header.ends_with(" `-e`, 13 bytes"),
        "the language of the program env runs: {through_env}"
    );
}

/// The files under `dir`, relative, `/` between their parts, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("under dir");
                found.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// `beast cases --no-builtin --random N --seed 1 --out DIR ARGS`: exit code and stderr.
fn pack(dir: &Path, n: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = beast()
        .args([
            "cases",
            "--no-builtin",
            "--random",
            n,
            "--seed",
            "1",
            "--out",
        ])
        .arg(dir)
        .args(args)
        .output()
        .expect("beast runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn force_replaces_the_previous_pack_and_leaves_the_users_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("pack");
    assert_eq!(pack(&out, "20", &[]).0, Some(0));
    assert_eq!(
        files_under(&out).len(),
        41,
        "40 case files and the manifest"
    );
    std::fs::write(out.join("notes.txt"), "mine").expect("written");
    std::fs::write(out.join("mine.in"), "3 3\n###\n#H#\n###\n\n").expect("written");
    let (code, err) = pack(&out, "5", &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("holds a pack already"), "{err}");
    let (code, err) = pack(&out, "5", &["--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("removed 30 files of the previous pack"),
        "{err}"
    );
    let left = files_under(&out);
    assert_eq!(left.len(), 13, "{left:?}");
    assert!(left.contains(&"notes.txt".to_string()) && left.contains(&"mine.in".to_string()));
    let ins = left.iter().filter(|f| f.starts_with("random-1-")).count();
    assert_eq!(ins, 10, "{left:?}");
}

#[test]
fn force_replaces_a_kattis_packages_secret_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("problem");
    let kattis = ["--format", "kattis"];
    assert_eq!(pack(&out, "20", &kattis).0, Some(0));
    assert_eq!(files_under(&out.join("data/secret")).len(), 40);
    let before = files_under(&out);
    std::fs::write(out.join("data/secret/README"), "mine").expect("written");
    let (code, err) = pack(&out, "3", &[&kattis[..], &["--force"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let after = files_under(&out);
    let gone = before.iter().filter(|f| !after.contains(f)).count();
    assert!(gone >= 34, "the 17 cases no longer in the pack: {gone}");
    let said = format!("removed {gone} files of the previous pack");
    assert!(err.contains(&said), "{err}");
    let secret = files_under(&out.join("data/secret"));
    assert_eq!(secret.len(), 7, "3 cases and the user's README: {secret:?}");
    assert_eq!(files_under(&out.join("data/sample")).len(), 10);
}

#[test]
fn a_manifest_naming_files_outside_the_pack_removes_none_of_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let victim = dir.path().join("victim.in");
    std::fs::write(&victim, "keep").expect("written");
    let out = dir.path().join("pack");
    std::fs::create_dir(&out).expect("made");
    let listed = format!(
        "../victim.in\n{}\n/etc/hostname\nnotes.in/../../victim.in\n",
        victim.display()
    );
    std::fs::write(out.join(".beast-cases-files"), listed).expect("written");
    let (code, err) = pack(&out, "2", &["--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("removed 0 files"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("still there"),
        "keep"
    );
}

/// The subcommands a `--help` lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

/// The `examples/...` paths `text` names.
fn example_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("examples/") {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
            .unwrap_or(tail.len());
        paths.push(tail[..end].trim_end_matches('.').to_string());
        rest = &tail[end..];
    }
    paths
}

#[test]
fn every_examples_path_a_help_text_names_exists() {
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let mut walked = 0;
    let mut named = Vec::new();
    while let Some(path) = todo.pop() {
        let (code, help, err) = run(&[
            path.iter().map(String::as_str).collect::<Vec<_>>(),
            vec!["--help"],
        ]
        .concat());
        assert_eq!(code, Some(0), "{path:?}: {err}");
        walked += 1;
        named.extend(example_paths(&help));
        for sub in subcommands(&help) {
            todo.push([path.clone(), vec![sub]].concat());
        }
    }
    assert!(walked >= 12, "the walk reached {walked} commands");
    assert!(
        !named.is_empty(),
        "no help names an example: the walk saw nothing"
    );
    for p in &named {
        assert!(
            repo(p).exists(),
            "a help text names {p}, which does not exist"
        );
    }
}

#[test]
fn the_help_says_what_the_commands_do_in_whole_sentences() {
    let (_, help, _) = run(&["--help"]);
    assert!(
        help.contains("(repeatable; `beast variants` lists them)"),
        "the --variant text: {help}"
    );
    let (_, gen_help, _) = run(&["gen", "--help"]);
    assert!(
        !gen_help.contains("short rows"),
        "gen makes no short rows: {gen_help}"
    );
}

/// The shell lines of the first ```sh block under the README's section `heading`.
#[cfg(unix)]
fn readme_block(heading: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(repo("README.md")).expect("the README");
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no section {heading}"));
    section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap_or_else(|| panic!("no sh block under {heading}"))
        .lines()
        .map(str::to_string)
        .collect()
}

#[cfg(unix)]
#[test]
fn the_readmes_completion_and_man_install_lines_work_in_a_fresh_home() {
    let home = tempfile::tempdir().expect("temp dir");
    let bin = Path::new(BEAST).parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut lines = readme_block("Shell completions");
    lines.extend(readme_block("Manual pages"));
    // A line that pipes into `man` needs a pager; the others make files.
    let script: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.contains("| man"))
        .collect();
    assert!(script.len() >= 6, "{script:?}");
    let out = std::process::Command::new("bash")
        .args(["-euc", &script.join("\n")])
        .env("HOME", home.path())
        .env("PATH", path)
        .current_dir(home.path())
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{script:?}: {out:?}");
    for made in [
        ".local/share/bash-completion/completions/beast",
        ".zfunc/_beast",
        ".config/fish/completions/beast.fish",
        ".local/share/man/man1/beast.1",
        ".local/share/man/man1/beast-check.1",
    ] {
        let file = home.path().join(made);
        let len = std::fs::metadata(&file).map_or(0, |m| m.len());
        assert!(len > 100, "{made} was not made");
    }
    let zshrc = std::fs::read_to_string(home.path().join(".zshrc")).expect(".zshrc");
    assert!(zshrc.contains("fpath=(~/.zfunc $fpath)"), "{zshrc}");
}

#[cfg(unix)]
#[test]
fn force_removes_no_file_through_a_symbolic_link() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().expect("temp dir");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("secret")).expect("made");
    let kept = elsewhere.join("secret/x.in");
    std::fs::write(&kept, "keep").expect("written");
    let target = dir.path().join("target.in");
    std::fs::write(&target, "keep").expect("written");
    let out = dir.path().join("problem");
    std::fs::create_dir(&out).expect("made");
    symlink(&elsewhere, out.join("data")).expect("a link");
    std::fs::write(out.join("beast-cases-kattis.txt"), "data/secret/x.in\n").expect("written");
    // A link in the place of the package's `data` is refused before anything is written
    // (nothing removed through it, nothing written into where it leads).
    let (code, err) = pack(&out, "1", &["--format", "kattis", "--force"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("problem/data is a link"), "{err}");
    assert_eq!(std::fs::read_to_string(&kept).ok().as_deref(), Some("keep"));
    assert!(
        !elsewhere.join("sample").exists(),
        "nothing written through the link"
    );
    let files = dir.path().join("pack");
    std::fs::create_dir(&files).expect("made");
    symlink(&target, files.join("a.in")).expect("a link");
    std::fs::write(files.join(".beast-cases-files"), "a.in\n").expect("written");
    let (code, err) = pack(&files, "1", &["--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("removed 1 file of"), "the link itself: {err}");
    assert_eq!(
        std::fs::read_to_string(&target).ok().as_deref(),
        Some("keep")
    );
}
