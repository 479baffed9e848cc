//! The jail against the attacks that broke the earlier sandbox, each checked from outside:
//! a file on the host, a process left, a secret in the output, segments in `ipcs`, the
//! host's name. And the honest answers that could not run: a JVM under the default
//! memory limit, a `python3` under a directory closed to others, a script that calls a
//! helper next to itself under `/tmp`. Tests of the jail skip, saying why, where the
//! kernel refuses it; tests of root-only attacks skip as a normal user.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::jail::hostile::{
    Cases, SHORT_TIMEOUT, hostile, leaves_nothing, left_running, levels, marker, namespaces, run,
    run_with,
};
use crate::util::{BEAST, beast};

/// The longest any check here may take.
const BOUND: Duration = Duration::from_secs(20);

/// The first case object of a `beast check --format json` run's output.
fn first_case(text: &str) -> serde_json::Value {
    serde_json::from_str(text.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// A world-writable directory of the test's, so that only the sandbox stands in the way.
fn open_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    dir
}

#[test]
fn unmounting_and_remounting_are_refused() {
    for level in levels("the umount test", true) {
        let cases = Cases::new();
        let host = open_dir();
        let target = host.path().to_str().expect("path");
        let o = run(level, &cases, "umount.sh", &[target], &[]);
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
        assert!(
            !host.path().join("pwned").exists(),
            "{level}: wrote on the host"
        );
    }
}

#[test]
fn no_process_environment_shows_the_judges_token() {
    for level in levels("the environ test", true) {
        let cases = Cases::new();
        let o = run(level, &cases, "environ.sh", &[], &[("GITHUB_TOKEN", "2")]);
        assert_eq!(o.got, "no token\n", "{level}: {o:?}");
    }
    // Without a sandbox it finds the judge's: the test can tell.
    let o = run(
        "none",
        &Cases::new(),
        "environ.sh",
        &[],
        &[("GITHUB_TOKEN", "2")],
    );
    assert_eq!(o.got, "2\n", "{o:?}");
}

#[test]
fn no_network_namespace_of_the_host_can_be_joined() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("address").port().to_string();
    for level in levels("the setns test", false) {
        let cases = Cases::new();
        let o = run(level, &cases, "join-net.sh", &[&port], &[]);
        assert_eq!(o.got, "no network\n", "{level}: {o:?}");
    }
}

#[test]
fn the_hosts_name_and_sysctls_stay_as_they_were() {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let before = (
        nix::unistd::gethostname().expect("hostname"),
        read("/proc/sys/kernel/printk_ratelimit"),
        read("/proc/sys/vm/stat_interval"),
    );
    for level in levels("the host settings test", true) {
        let cases = Cases::new();
        let o = run(level, &cases, "host-settings.sh", &["x"], &[]);
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
        let after = (
            nix::unistd::gethostname().expect("hostname"),
            read("/proc/sys/kernel/printk_ratelimit"),
            read("/proc/sys/vm/stat_interval"),
        );
        assert_eq!(after, before, "{level}");
    }
}

#[test]
fn a_descriptor_the_caller_left_open_does_not_reach_the_answer() {
    let secret = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(secret.path(), "2\n").expect("write");
    std::fs::set_permissions(secret.path(), std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let mut all = levels("the fd test", true);
    all.push("none");
    for level in all {
        let cases = Cases::new();
        let check = format!(
            "exec 7<'{}'; exec '{BEAST}' check --sandbox {level} --format json --no-builtin \
             --shrink none --cases '{}' -- '{}'",
            secret.path().display(),
            cases.dir().display(),
            hostile("fd7.sh")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &check])
            .output()
            .expect("sh runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = first_case(&text);
        // Without a sandbox the descriptor arrives: the test can tell.
        let leaked = if level == "none" { "2\n" } else { "no fd 7\n" };
        assert_eq!(first["got"], leaked, "{level}: {text}");
    }
}

/// The host's System V shared memory segments of `size` bytes.
fn segments_of(size: u64) -> usize {
    let table = std::fs::read_to_string("/proc/sysvipc/shm").unwrap_or_default();
    table
        .lines()
        .skip(1)
        .filter(|l| l.split_whitespace().nth(3) == Some(&size.to_string()))
        .count()
}

#[test]
fn system_v_shared_memory_is_gone_with_the_case() {
    // An odd size no other program uses.
    let size: u64 = (48 << 20) + 4096 * 7;
    for level in levels("the SysV test", true) {
        let cases = Cases::new();
        let o = run(level, &cases, "sysv-shm.sh", &[&size.to_string()], &[]);
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
        assert_eq!(segments_of(size), 0, "{level}: segments left on the host");
    }
}

#[test]
fn a_file_in_dev_shm_is_gone_with_the_case() {
    for level in levels("the /dev/shm test", true) {
        let name = marker("shm");
        let cases = Cases::new();
        let o = run(level, &cases, "dev-shm.sh", &[&name], &[]);
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
        assert!(
            !Path::new("/dev/shm").join(&name).exists(),
            "{level}: left in /dev/shm"
        );
    }
}

#[test]
fn memory_is_counted_for_the_whole_case() {
    if !is_root() || !namespaces("the per-case memory test") {
        eprintln!("skipped: a memory cgroup needs root here");
        return;
    }
    let cases = Cases::new();
    // Its children sleep 5 s: the short timeout ends it.
    let flags = ["--memory", "256", "--timeout", SHORT_TIMEOUT];
    let o = run_with("strict", &cases, "hog.py", &[], &[], &flags);
    assert_ne!(o.verdict, "AC", "{o:?}");
    let peak = o.peak_memory_mib.expect("a peak is measured");
    assert!(
        peak <= 260.0,
        "30 children of 100 MiB held {peak} MiB: {o:?}"
    );
}

/// The host's view of the cgroup a process is in, per controller (`memory` -> its path).
fn cgroup_of(pid: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            Some((controllers.to_string(), path.to_string()))
        })
        .collect()
}

#[test]
fn an_answer_is_born_in_its_cases_cgroups_and_they_go_with_the_check() {
    if !is_root() || !namespaces("the cgroup test") {
        eprintln!("skipped: the case cgroups need root here");
        return;
    }
    let mark = marker("cgroup");
    // The one case's right answer, late: a wrong one would have the diagnosis run the
    // answer again on the cases it designs, each costing the sleep.
    let cases = crate::jail::hostile::Cases::new();
    let mut check = std::process::Command::new(BEAST)
        .args(["check", "--sandbox", "strict", "--no-builtin", "--cases"])
        .arg(cases.dir())
        .args(["--shrink", "none", "--timeout", "30", "--"])
        .args(["sh", "-c", "sleep 5; echo 2", &mark])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("beast runs");
    let case_dir = format!("/beast-{}/case-", check.id());
    // A generous ceiling: a loaded machine may take a while to set up the jail.
    let deadline = Instant::now() + BOUND;
    let mut seen = Vec::new();
    while seen.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        // The answer itself, not the judge or its helper, whose command lines hold it too.
        seen = crate::jail::hostile::with_marker(&mark);
        seen.retain(|s| {
            s.split_once(": ")
                .is_some_and(|(_, cmd)| cmd.starts_with("sh "))
        });
    }
    let pid = seen
        .first()
        .and_then(|s| s.split(':').next())
        .expect("the answer started");
    let groups = cgroup_of(pid);
    for controller in ["memory", "pids"] {
        let (_, path) = groups
            .iter()
            .find(|(c, _)| c.split(',').any(|c| c == controller) || c.is_empty())
            .unwrap_or_else(|| panic!("no {controller} line: {groups:?}"));
        assert!(
            path.contains(&case_dir),
            "{controller}: {path} ({groups:?})"
        );
    }
    let ended = check.wait().expect("beast ends");
    assert_eq!(ended.code(), Some(0), "{ended:?}");
    let own = cgroup_of("self");
    for (controller, path) in own
        .iter()
        .filter(|(c, _)| ["memory", "pids"].contains(&c.as_str()))
    {
        let base = Path::new("/sys/fs/cgroup")
            .join(controller)
            .join(path.trim_start_matches('/'))
            .join(format!("beast-{}", check.id()));
        assert!(!base.exists(), "left: {}", base.display());
    }
}

/// Each case's jail (or basic's keeper) is started while the one before runs: the last ones
/// wait for a case that never comes, and must not outlive the check.
#[test]
fn a_helper_started_ahead_of_a_case_that_never_comes_is_gone_with_the_check() {
    for level in levels("the helper-ahead test", true) {
        let mark = marker("ahead");
        let out = beast()
            .args(["check", "--sandbox", level, "--no-builtin", "--random", "2"])
            .args(["--seed", "1", "--shrink", "none", "--jobs", "2", "--"])
            .args(["sh", "-c", "echo 0", &mark])
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        assert_eq!(out.status.code(), Some(1), "{level}: {out:?}");
        let left = left_running(&mark);
        assert!(left.is_empty(), "{level}: left running: {left:?}");
    }
}

#[test]
fn another_answers_output_is_out_of_reach() {
    if !namespaces("the stdout test") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let answers = dir.path().join("answers.toml");
    let toml = format!(
        "[[answer]]\nname = \"writer\"\ncommand = [\"{}\"]\n\n\
         [[answer]]\nname = \"honest\"\ncommand = [\"{BEAST}\"]\n",
        hostile("stdout-writer.sh")
    );
    std::fs::write(&answers, toml).expect("write");
    let out = beast()
        // Three cases on two jobs: the honest answer's run while the writer's third does.
        .args([
            "check",
            "--sandbox",
            "strict",
            "--format",
            "json",
            "--jobs",
            "2",
        ])
        .args([
            "--no-builtin",
            "--random",
            "3",
            "--seed",
            "3",
            "--shrink",
            "none",
        ])
        .arg("--answers")
        .arg(&answers)
        .timeout(BOUND)
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let honest_failures = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["answer"] == "honest" && v["passed"] == false)
        .count();
    assert_eq!(honest_failures, 0, "{text}");
    assert!(text.contains("\"answer\":\"honest\""), "{text}");
}

/// A fake checkout of this project with a copy of the judge in `target/`, the built-in
/// cases' answers in `examples/`, and the hostile script at its root.
fn checkout_with_copies(case_answer: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().expect("temp dir");
    let repo = root.path();
    std::fs::write(
        repo.join("Cargo.toml"),
        "[package]\nname = \"beast-judge\"\n",
    )
    .expect("write");
    std::fs::create_dir_all(repo.join("target/debug")).expect("mkdir");
    crate::util::copy_executable(BEAST, repo.join("target/debug/beast"));
    std::fs::create_dir_all(repo.join("examples/beast")).expect("mkdir");
    std::fs::write(repo.join("examples/beast/one.out"), case_answer).expect("write");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    std::fs::write(repo.join(".git/answer"), case_answer).expect("write");
    let script = repo.join("copies.sh");
    crate::util::copy_executable(hostile("copies.sh"), &script);
    (root, script)
}

#[test]
fn no_other_copy_of_the_judge_nor_the_built_in_answers_is_reachable() {
    let mut all = levels("the copies test", true);
    all.push("none");
    for level in all {
        let (_root, script) = checkout_with_copies("2\n");
        let cases = Cases::new();
        let out = beast()
            .args([
                "check",
                "--sandbox",
                level,
                "--format",
                "json",
                "--no-builtin",
            ])
            .args(["--shrink", "none", "--cases"])
            .arg(cases.dir())
            .arg("--")
            .arg(&script)
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = first_case(&text);
        // Without a sandbox it finds a copy: the test can tell.
        let held = if level == "none" { "2\n" } else { "held\n" };
        assert_eq!(first["got"], held, "{level}: {text}");
    }
}

#[test]
fn stopping_every_process_stops_only_the_answers_own() {
    for level in levels("the SIGSTOP test", true) {
        let mark = marker("stop-all");
        let cases = Cases::new();
        let start = Instant::now();
        // Its sleeper holds the case until the short timeout ends it.
        let short = ["--timeout", SHORT_TIMEOUT];
        let o = run_with(level, &cases, "stop-all.sh", &[&mark], &[], &short);
        assert!(start.elapsed() < BOUND, "{level}: the judge hung: {o:?}");
        let left = left_running(&mark);
        assert!(left.is_empty(), "{level}: left: {left:?}");
    }
}

#[test]
fn a_session_left_after_killing_the_keeper_is_killed() {
    // TLE when the sleeper holds the output open until the case is killed.
    leaves_nothing("kill-keeper.sh");
}

/// Where `javac` is, or why the test cannot run.
fn javac() -> Option<PathBuf> {
    let found = std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("javac"))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("skipped: no javac on PATH");
    }
    found
}

#[test]
fn a_java_answer_runs_under_the_default_sandbox() {
    let Some(javac) = javac() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("Answer.java");
    // The one case's answer is 2; what matters here is that a JVM starts and reads stdin.
    let java = "public class Answer { public static void main(String[] a) throws Exception {\n\
                byte[] in = System.in.readAllBytes();\n\
                System.out.println(in.length > 0 ? \"2\" : \"empty\"); } }\n";
    std::fs::write(&source, java).expect("write");
    let compiled = std::process::Command::new(javac)
        .arg("-d")
        .arg(dir.path())
        .arg(&source)
        .status()
        .expect("javac runs");
    assert!(compiled.success());
    let cases = Cases::new();
    let out = beast()
        .args([
            "check",
            "--no-builtin",
            "--shrink",
            "none",
            "--timeout",
            "10",
        ])
        .arg("--cases")
        .arg(cases.dir())
        .args(["--", "java", "-cp"])
        .arg(dir.path())
        .arg("Answer")
        .timeout(Duration::from_secs(60))
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let first = text.lines().next().unwrap_or_default();
    if is_root() && namespaces("the JVM line test") {
        assert!(first.contains("memory cgroup 1024 MiB"), "{first}");
    }
}

#[test]
fn a_python3_behind_a_closed_directory_runs_honestly_and_not_as_root() {
    if !is_root() {
        eprintln!("skipped: only root has directories closed to the answer's user here");
        return;
    }
    let Some(python) = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        eprintln!("skipped: no system python3");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let closed = dir.path().join("versions");
    let bin = closed.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::os::unix::fs::symlink(python, bin.join("python3")).expect("link");
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let script = dir.path().join("a.py");
    std::fs::write(
        &script,
        "import os, sys\nsys.stdin.read()\nprint(2 if os.getuid() != 0 else 'root')\n",
    )
    .expect("write");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for level in levels("the closed python3 test", true) {
        let cases = Cases::new();
        let out = beast()
            .args([
                "check",
                "--sandbox",
                level,
                "--no-builtin",
                "--shrink",
                "none",
            ])
            .arg("--cases")
            .arg(cases.dir())
            .args(["--", "python3"])
            .arg(&script)
            .env("PATH", &path)
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{level}: {text}");
    }
}

#[test]
fn a_script_under_tmp_calls_the_helper_next_to_it() {
    let dir = tempfile::Builder::new()
        .prefix("beast-helper-")
        .tempdir_in("/tmp")
        .expect("a directory in /tmp");
    let helper = dir.path().join("helper.sh");
    crate::util::write_executable(&helper, b"#!/bin/sh\necho 2\n");
    let script = dir.path().join("answer.sh");
    crate::util::write_executable(
        &script,
        b"#!/bin/sh\ncat > /dev/null\nexec \"$(dirname \"$0\")/helper.sh\"\n",
    );
    for level in levels("the helper test", true) {
        let cases = Cases::new();
        let out = beast()
            .args([
                "check",
                "--sandbox",
                level,
                "--no-builtin",
                "--shrink",
                "none",
            ])
            .arg("--cases")
            .arg(cases.dir())
            .arg("--")
            .arg(&script)
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{level}: {text}");
    }
}

/// A user for the non-root test, made when missing: its name and home.
fn test_user() -> Option<(String, PathBuf)> {
    let name = "beast-judge-test";
    let exists = std::process::Command::new("id")
        .arg(name)
        .output()
        .is_ok_and(|o| o.status.success());
    if !exists {
        let made = std::process::Command::new("useradd")
            .args(["--create-home", name])
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: cannot create the user {name} (useradd failed)");
            return None;
        }
    }
    Some((name.to_string(), PathBuf::from("/home").join(name)))
}

#[test]
fn as_a_normal_user_the_users_secrets_stay_out_of_reach() {
    if !is_root() {
        eprintln!("skipped: the test makes a user, which needs root");
        return;
    }
    let Some((user, home)) = test_user() else {
        return;
    };
    let chown = |p: &Path| {
        std::process::Command::new("chown")
            .args(["-R", &format!("{user}:{user}")])
            .arg(p)
            .status()
            .expect("chown runs")
    };
    std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
    std::fs::write(home.join(".ssh/id_rsa"), "2\n").expect("write");
    std::fs::write(home.join(".bashrc"), "# the user's own\n").expect("write");
    chown(&home);
    // The judge, the script and the cases where the user can reach them.
    let place = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let judge = place.path().join("beast");
    crate::util::copy_executable(BEAST, &judge);
    let script = place.path().join("secrets.sh");
    crate::util::copy_executable(hostile("secrets.sh"), &script);
    let cases = place.path().join("cases");
    std::fs::create_dir(&cases).expect("mkdir");
    std::fs::write(
        cases.join("one.in"),
        "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n",
    )
    .expect("write");
    std::fs::write(cases.join("one.out"), "2\n").expect("write");
    chown(place.path());
    for level in ["auto", "basic"] {
        let out = std::process::Command::new("runuser")
            .args(["-u", &user, "--"])
            .arg(&judge)
            .args([
                "check",
                "--sandbox",
                level,
                "--format",
                "json",
                "--no-builtin",
            ])
            .args(["--shrink", "none", "--timeout", "30", "--cases"])
            .arg(&cases)
            .arg("--")
            .arg(&script)
            .env("HOME", &home)
            .current_dir(place.path())
            .output()
            .expect("runuser runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let first: serde_json::Value =
            serde_json::from_str(text.lines().next().unwrap_or_default()).unwrap_or_else(|e| {
                panic!(
                    "{level}: {e}: {text} {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        assert_eq!(first["got"], "held\n", "{level}: {text}");
        let rc = std::fs::read_to_string(home.join(".bashrc")).expect("read");
        assert_eq!(rc, "# the user's own\n", "{level}: .bashrc was written");
    }
}

/// Where `program` is on `PATH`.
fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// An honest answer in each installed language of golf reads the puzzle and prints the
/// one case's answer under the default sandbox (the seccomp filter, the minimal root).
#[test]
fn honest_answers_in_every_installed_language_pass_under_the_default_sandbox() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p.display().to_string()
    };
    let c_source = write(
        "a.c",
        "#include <stdio.h>\nint main(void){char b[4096];while(fread(b,1,sizeof b,stdin)>0);\
         puts(\"2\");return 0;}\n",
    );
    let c_binary = dir.path().join("a.out").display().to_string();
    let mut answers: Vec<(&str, Vec<String>)> = vec![
        (
            "sh",
            vec!["sh".into(), write("a.sh", "cat > /dev/null; echo 2\n")],
        ),
        (
            "bash",
            vec![
                "bash".into(),
                write("a.bash", "mapfile -t l; echo $((1+1))\n"),
            ],
        ),
        (
            "python3",
            vec![
                "python3".into(),
                write("a.py", "import sys\nsys.stdin.read()\nprint(2)\n"),
            ],
        ),
        (
            "perl",
            vec![
                "perl".into(),
                write("a.pl", "my @l = <STDIN>; print 1+1, \"\\n\";\n"),
            ],
        ),
        (
            "node",
            vec![
                "node".into(),
                write("a.js", "require('fs').readFileSync(0); console.log(2);\n"),
            ],
        ),
        (
            "ruby",
            vec!["ruby".into(), write("a.rb", "STDIN.read; puts 2\n")],
        ),
    ];
    if let Some(cc) = on_path("cc") {
        let built = std::process::Command::new(cc)
            .args(["-O2", "-o", &c_binary, &c_source])
            .status()
            .is_ok_and(|s| s.success());
        if built {
            answers.push(("cc", vec![c_binary.clone()]));
        }
    }
    for (language, command) in answers {
        if language != "cc" && on_path(language).is_none() {
            eprintln!("skipped {language}: not installed");
            continue;
        }
        let cases = Cases::new();
        let out = beast()
            .args(["check", "--no-builtin", "--shrink", "none", "--cases"])
            .arg(cases.dir())
            .arg("--")
            .args(&command)
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{language}: {text}");
    }
}

/// A judge killed by SIGKILL while its case runs an answer that cleared its own
/// parent-death signal: nothing of the case is left.
#[test]
fn a_cleared_parent_death_signal_does_not_outlive_a_killed_judge() {
    for level in levels("the cleared death signal test", true) {
        let mark = marker("deathsig");
        let cases = Cases::new();
        let mut judge = std::process::Command::new(BEAST)
            .args([
                "check",
                "--sandbox",
                level,
                "--no-builtin",
                "--timeout",
                "60",
            ])
            .arg("--cases")
            .arg(cases.dir())
            .arg("--")
            .arg(hostile("clears-deathsig.py"))
            .arg(&mark)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("beast starts");
        // The judge's own command line holds the marker too: wait for another process.
        let judge_pid = format!("{}:", judge.id());
        let others = |mark: &str| {
            crate::jail::hostile::with_marker(mark)
                .into_iter()
                .filter(|p| !p.starts_with(&judge_pid))
                .count()
        };
        let start = Instant::now();
        while others(&mark) == 0 {
            assert!(start.elapsed() < BOUND, "{level}: the answer never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        // Give it the moment it needs to clear the signal.
        std::thread::sleep(Duration::from_millis(300));
        let _ = judge.kill();
        let _ = judge.wait();
        // A generous ceiling for the kill to land on a loaded machine.
        let deadline = Instant::now() + BOUND;
        let mut left = crate::jail::hostile::with_marker(&mark);
        while !left.is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            left = crate::jail::hostile::with_marker(&mark);
        }
        assert!(left.is_empty(), "{level}: left running: {left:?}");
    }
}

#[test]
fn a_symlink_on_the_way_does_not_unmask_the_cases() {
    for level in levels("the symlinked cases test", true) {
        let cases = Cases::new();
        let root = cases.root.path();
        let script = root.join("cheat.sh");
        crate::util::write_executable(
            &script,
            b"#!/bin/sh\ncat > /dev/null\ncat \"$(dirname \"$0\")\"/cases/*.out\n",
        );
        let link = tempfile::tempdir().expect("temp dir");
        let through = link.path().join("link");
        std::os::unix::fs::symlink(root, &through).expect("link");
        let out = beast()
            .args([
                "check",
                "--sandbox",
                level,
                "--format",
                "json",
                "--no-builtin",
            ])
            .args(["--shrink", "none", "--cases"])
            .arg(cases.dir())
            .arg("--")
            .arg(through.join("cheat.sh"))
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = first_case(&text);
        assert_ne!(first["verdict"], "AC", "{level}: {text}");
    }
}

/// The filter's refusals, made by the answer through `syscall()` itself: a new user or
/// mount namespace, `setns`, the keyring, io_uring, userfaultfd, perf, BPF, `ptrace`,
/// another process's memory, the new mount API, `mount`, an x32 number and `clone` with a
/// namespace flag all fail with `EPERM`, and `clone3` with `ENOSYS`. Without a sandbox
/// most of them succeed: the test can tell.
#[test]
#[cfg(target_arch = "x86_64")]
fn the_refused_system_calls_fail_with_eperm_inside() {
    let mut all = levels("the refused-calls test", true);
    all.push("none");
    for level in all {
        let cases = Cases::new();
        let o = run(level, &cases, "refused-calls.py", &[], &[]);
        if level == "none" {
            assert_ne!(o.got, "held\n", "none: {o:?}");
            assert!(o.got.contains("keyctl"), "none: {o:?}");
            continue;
        }
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
    }
}

#[test]
fn vsock_is_refused() {
    let mut all = levels("the vsock test", true);
    all.push("none");
    for level in all {
        let cases = Cases::new();
        let o = run(level, &cases, "vsock.py", &[], &[]);
        if level == "none" {
            if o.got != "open\n" {
                eprintln!("skipped the contrast: this kernel has no vsock ({o:?})");
            }
            continue;
        }
        assert_eq!(o.got, "held\n", "{level}: {o:?}");
    }
}

#[test]
fn basic_refuses_posix_message_queues_that_would_outlive_the_case() {
    let Some(cc) = on_path("cc") else {
        eprintln!("skipped: no C compiler");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let binary = dir.path().join("mq-fill");
    let built = std::process::Command::new(cc)
        .arg("-o")
        .arg(&binary)
        .arg(crate::util::fixture("hostile").join("mq-fill.c"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "mq-fill.c compiles");
    let cases = Cases::new();
    let out = beast()
        .args([
            "check",
            "--sandbox",
            "basic",
            "--format",
            "json",
            "--no-builtin",
        ])
        .args(["--shrink", "none", "--cases"])
        .arg(cases.dir())
        .arg("--")
        .arg(&binary)
        .arg(marker("mq"))
        .timeout(BOUND)
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = first_case(&text);
    assert_eq!(first["got"], "held\n", "{text}");
}

/// As a normal user (no cgroups): an answer that clears its parent-death signal, and one
/// that kills its keeper, leave nothing when their case ends.
#[test]
fn as_a_normal_user_a_cleared_parent_death_signal_ends_with_its_case() {
    if !is_root() {
        eprintln!("skipped: the test makes a user, which needs root");
        return;
    }
    let Some((user, _home)) = test_user() else {
        return;
    };
    let place = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let judge = place.path().join("beast");
    crate::util::copy_executable(BEAST, &judge);
    for name in ["clears-deathsig.py", "kill-keeper.sh"] {
        crate::util::copy_executable(hostile(name), place.path().join(name));
    }
    let cases = place.path().join("cases");
    std::fs::create_dir(&cases).expect("mkdir");
    std::fs::write(
        cases.join("one.in"),
        "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n",
    )
    .expect("write");
    std::fs::write(cases.join("one.out"), "2\n").expect("write");
    let runs = [
        ("auto", "clears-deathsig.py"),
        ("basic", "clears-deathsig.py"),
        ("basic", "kill-keeper.sh"),
    ];
    for (level, name) in runs {
        let script = place.path().join(name);
        let mark = marker("user-deathsig");
        let out = std::process::Command::new("runuser")
            .args(["-u", &user, "--"])
            .arg(&judge)
            .args([
                "check",
                "--sandbox",
                level,
                "--no-builtin",
                "--shrink",
                "none",
            ])
            .args(["--timeout", "2", "--cases"])
            .arg(&cases)
            .arg("--")
            .arg(&script)
            .arg(&mark)
            .current_dir(place.path())
            .output()
            .expect("runuser runs");
        assert_eq!(out.status.code(), Some(1), "{level} {name}: {out:?}");
        let left = left_running(&mark);
        assert!(left.is_empty(), "{level} {name}: left running: {left:?}");
    }
}

/// A known limit, named in the README: two jails that map the same host file can wake each
/// other through a futex on it (isolate and bubblewrap share it). Refusing shared futexes
/// would abort `java` and `node`, whose `pthread_join` waits on one. When this test fails,
/// the channel is closed: change the README's line. As root and as a normal user whose
/// cases run as subordinate ids.
#[test]
fn two_jails_wake_each_other_through_a_futex_on_a_shared_file_a_known_limit() {
    if !is_root() || !namespaces("the futex test") || on_path("gcc").is_none() {
        eprintln!("skipped: needs root (to run as a user too), the jail and gcc");
        return;
    }
    let dir = open_dir();
    let program = dir.path().join("futex-across");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(crate::jail::hostile::hostile("futex-across.c"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "gcc builds the fixture");
    let mut runners = vec![(None, FIRST_UID + 64_000)];
    if let Some(user) = crate::jail::shown_paths::normal_user() {
        let first = crate::jail::shown_paths::subordinate_first(user).expect("a range");
        runners.push((Some(user), first + 64));
    }
    for (user, uid) in runners {
        let jail = |n: u32, role: &str| {
            let root = dir.path().join(format!("root-{uid}-{n}"));
            std::fs::create_dir_all(&root).expect("mkdir");
            std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o777)).expect("chmod");
            let mut cmd = std::process::Command::new("/usr/sbin/runuser");
            cmd.args(["-u", user.unwrap_or("root"), "--", BEAST]);
            cmd.args(["__contain", "--role", "outer", "--judge-pid"])
                .arg(std::process::id().to_string())
                .args(["--cpu", "20", "--fsize", "4096", "--uid"])
                .arg((uid + n).to_string())
                .args(["--tmp-size", "1048576", "--root-dir"])
                .arg(&root)
                .args(["--workdir", "/tmp/answer", "--named"])
                .arg(dir.path())
                .arg(dir.path().canonicalize().expect("real path"))
                .arg("--")
                .arg(&program)
                .args([role, "/bin/sh"])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("a jail starts")
        };
        let waiter = jail(1, "wait");
        let waker = jail(2, "wake").wait_with_output().expect("the waker ends");
        let waited = waiter.wait_with_output().expect("the waiter ends");
        let (woke, was) = (
            String::from_utf8_lossy(&waker.stdout),
            String::from_utf8_lossy(&waited.stdout),
        );
        assert_eq!(
            (woke.trim(), was.trim()),
            ("woke 1", "woken"),
            "{user:?}: the channel is closed"
        );
    }
}

/// The first uid root's cases get.
const FIRST_UID: u32 = 1_879_048_192;
