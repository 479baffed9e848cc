//! `beast check` against hostile candidates (`tests/fixtures/hostile/`): each tries to
//! escape, cheat or read a secret. After each, no process it started is left (found by a
//! unique marker in `/proc/*/cmdline`), it passes no case it did not solve, its verdict
//! fits, and the check ends in bounded time. Tests of the namespace level skip, saying
//! why, where the kernel refuses namespaces. Each fixture's expected outcome is a row of
//! `tests/fixtures/hostile.tsv` (the test that runs it, its verdicts, the harm checked).

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::util::{BEAST, beast, fixture};

/// The one case every hostile run gets; its answer is `2`.
const PUZZLE: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n";

/// The longest any hostile check may take: a generous ceiling, past the answers' timeout
/// ([`ANSWER_TIMEOUT`]), so that a loaded machine fails no test.
const BOUND: Duration = Duration::from_secs(60);

/// The time limit of an answer that is to finish: generous, so that a loaded machine does
/// not turn it into a TLE.
const ANSWER_TIMEOUT: &str = "30";

/// The time limit of an answer that is to run out of time (it loops, or holds its
/// processes): its TLE ends the check soon.
pub const SHORT_TIMEOUT: &str = "2";

/// One row of `tests/fixtures/hostile.tsv`: a hostile fixture and what is expected of it.
#[derive(Debug)]
pub struct Row {
    /// The fixture's file name in `tests/fixtures/hostile/`.
    pub fixture: String,
    /// The test that runs it: `FILE::NAME` of `tests/jail/FILE.rs`.
    pub test: String,
    /// The verdicts it may get under a contained level; empty where the test checks only
    /// the harm.
    pub verdicts: Vec<String>,
    /// The harm its test checks from outside, in words.
    pub harm: String,
}

/// The rows of `tests/fixtures/hostile.tsv`, header and comments left out.
pub fn table() -> Vec<Row> {
    let text = std::fs::read_to_string(crate::util::repo("tests/fixtures/hostile.tsv"))
        .expect("the table of hostile fixtures");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fixture\t"))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "four columns: {l:?}");
            Row {
                fixture: cols[0].to_string(),
                test: cols[1].to_string(),
                verdicts: match cols[2] {
                    "-" => Vec::new(),
                    v => v.split(',').map(str::to_string).collect(),
                },
                harm: cols[3].to_string(),
            }
        })
        .collect()
}

/// The verdicts the table allows `fixture`; a fixture without a row, or without verdicts,
/// fails the test that asks.
pub fn expected_verdicts(fixture: &str) -> Vec<String> {
    let row = table().into_iter().find(|r| r.fixture == fixture);
    let verdicts = row.map(|r| r.verdicts).unwrap_or_default();
    assert!(
        !verdicts.is_empty(),
        "no verdicts for {fixture} in hostile.tsv"
    );
    verdicts
}

/// Checks that `fixture`'s verdict is one its row of the table allows.
fn assert_listed_verdict(fixture: &str, run: &Outcome, level: &str) {
    let allowed = expected_verdicts(fixture);
    assert!(
        allowed.contains(&run.verdict),
        "{level}: {fixture} got {} where hostile.tsv allows {allowed:?}: {run:?}",
        run.verdict
    );
}

pub fn hostile(name: &str) -> String {
    fixture("hostile").join(name).to_string_lossy().into_owned()
}

/// A case directory with the one case, in a directory the test owns.
pub struct Cases {
    /// The directory that holds `cases/`.
    pub root: tempfile::TempDir,
}

impl Cases {
    /// A fresh directory with the one case.
    pub fn new() -> Cases {
        let root = tempfile::tempdir().expect("temp dir");
        let dir = root.path().join("cases");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(dir.join("one.in"), PUZZLE).expect("write");
        std::fs::write(dir.join("one.out"), "2\n").expect("write");
        Cases { root }
    }

    /// The case directory.
    pub fn dir(&self) -> PathBuf {
        self.root.path().join("cases")
    }
}

/// What one hostile check gave.
#[derive(Debug)]
pub struct Outcome {
    /// The case's peak memory, where a cgroup measured it.
    pub peak_memory_mib: Option<f64>,
    /// Its verdict.
    pub verdict: String,
    /// What it printed.
    pub got: String,
    /// The verdict's detail.
    pub detail: String,
    /// The check's exit code.
    pub code: Option<i32>,
    /// How long the check took.
    pub took: Duration,
}

/// Runs `beast check --sandbox LEVEL` on the one case with `script ARGS` as the candidate.
pub fn run(
    level: &str,
    cases: &Cases,
    script: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Outcome {
    run_with(level, cases, script, args, env, &[])
}

/// [`run`] with more flags of `beast check`.
pub fn run_with(
    level: &str,
    cases: &Cases,
    script: &str,
    args: &[&str],
    env: &[(&str, &str)],
    flags: &[&str],
) -> Outcome {
    let start = Instant::now();
    let mut cmd = beast();
    cmd.args([
        "check",
        "--sandbox",
        level,
        "--format",
        "json",
        "--no-builtin",
    ])
    // Containment is the point here; shrinking a TLE would run it again and again.
    .args(["--shrink", "none"])
    .args(match flags.contains(&"--timeout") {
        true => &[][..],
        false => &["--timeout", ANSWER_TIMEOUT][..],
    })
    .args(flags)
    .arg("--cases")
    .arg(cases.dir())
    .arg("--")
    .arg(hostile(script))
    .args(args)
    .envs(env.iter().copied())
    .timeout(BOUND);
    let out = cmd.output().expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    let case: serde_json::Value = serde_json::from_str(first)
        .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
    Outcome {
        peak_memory_mib: case["peak_memory_mib"].as_f64(),
        verdict: case["verdict"].as_str().unwrap_or_default().to_string(),
        got: case["got"].as_str().unwrap_or_default().to_string(),
        detail: case["detail"].as_str().unwrap_or_default().to_string(),
        code: out.status.code(),
        took: start.elapsed(),
    }
}

/// A marker no other process has in its command line.
pub fn marker(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("hostile-{name}-{}-{nanos}", std::process::id())
}

/// Processes whose command line holds `marker`, waiting up to 3 s for them to go (a
/// loaded machine may be slow to reap what was killed).
pub fn left_running(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let found = with_marker(marker);
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn with_marker(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(marker) {
            found.push(format!("{name}: {text}"));
        }
    }
    found
}

/// `beast check --sandbox strict` over `count` random cases of seed 1, no built-in ones.
fn strict_random(count: &str) -> assert_cmd::Command {
    let mut cmd = beast();
    cmd.args(["check", "--sandbox", "strict", "--no-builtin"])
        .args(["--random", count, "--seed", "1"]);
    cmd
}

/// True when `--sandbox strict` works here; prints why not otherwise.
pub fn namespaces(test: &str) -> bool {
    static AVAILABLE: OnceLock<Result<(), String>> = OnceLock::new();
    let available = AVAILABLE.get_or_init(|| {
        let out = strict_random("1")
            .args(["--", BEAST])
            .output()
            .expect("beast runs");
        if out.status.code() == Some(2) {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        } else {
            Ok(())
        }
    });
    match available {
        Ok(()) => true,
        Err(why) => {
            eprintln!("skipped {test} at --sandbox strict: {why}");
            false
        }
    }
}

/// The levels to run a test at: `strict` where namespaces work, and `basic` if it holds
/// there too.
pub fn levels(test: &str, basic_too: bool) -> Vec<&'static str> {
    let mut v = Vec::new();
    if namespaces(test) {
        v.push("strict");
    }
    if basic_too {
        v.push("basic");
    }
    v
}

/// Runs a candidate that leaves processes behind and checks none is left; its verdict is
/// one its row of `hostile.tsv` allows.
pub fn leaves_nothing(script: &str) {
    let verdicts = expected_verdicts(script);
    for level in levels(script, true) {
        let mark = marker(script);
        let cases = Cases::new();
        // An answer that may run out of time gets a short limit; the others a generous one.
        let flags: &[&str] = match verdicts.iter().any(|v| v == "TLE") {
            true => &["--timeout", SHORT_TIMEOUT],
            false => &[],
        };
        let o = run_with(level, &cases, script, &[&mark], &[], flags);
        assert_listed_verdict(script, &o, level);
        assert_eq!(o.code, Some(1), "{level}: {o:?}");
        assert!(o.took < BOUND, "{level}: {o:?}");
        let left = left_running(&mark);
        assert!(left.is_empty(), "{level}: left running: {left:?}");
    }
}

#[test]
fn a_sleeper_in_its_own_session_is_killed() {
    leaves_nothing("setsid-sleeper.sh");
    // Without a sandbox it escapes the process group kill: the test can tell.
    let mark = marker("unsandboxed");
    run("none", &Cases::new(), "setsid-sleeper.sh", &[&mark], &[]);
    let left = with_marker(&mark);
    for line in &left {
        if let Some(pid) = line.split(':').next().and_then(|p| p.parse::<i32>().ok()) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
    assert!(
        !left.is_empty(),
        "the unsandboxed sleeper should have escaped"
    );
}

#[test]
fn a_killed_judge_takes_its_candidates_with_it() {
    for level in levels("the SIGKILL test", true) {
        let mark = marker("judge-killed");
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
            .arg(hostile("ignores-term.sh"))
            .arg(&mark)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("beast starts");
        // The judge's own command line holds the marker too: wait for another process.
        let judge_pid = format!("{}:", judge.id());
        let start = Instant::now();
        while with_marker(&mark).iter().all(|p| p.starts_with(&judge_pid)) {
            assert!(
                start.elapsed() < BOUND,
                "{level}: the candidate never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = judge.kill();
        let _ = judge.wait();
        let left = left_running(&mark);
        assert!(left.is_empty(), "{level}: left running: {left:?}");
    }
}

#[test]
fn a_double_forked_sleeper_is_killed() {
    leaves_nothing("double-fork.sh");
}

#[test]
fn a_candidate_that_ignores_sigterm_is_killed_on_time() {
    leaves_nothing("ignores-term.sh");
}

#[test]
fn five_hundred_children_are_all_killed() {
    // TLE, or RTE when the process limit stops it first.
    leaves_nothing("fork500.sh");
}

#[test]
fn a_candidate_starts_once_another_lets_go_of_every_process_it_may_have() {
    // Under root every candidate runs as `nobody`, and they share its process limit.
    if !nix::unistd::Uid::effective().is_root() || !namespaces("shared process limit") {
        eprintln!("skipped: candidates share a user only when the judge is root");
        return;
    }
    let mark = marker("hold-processes.sh");
    let holder = std::thread::spawn(move || {
        let cases = Cases::new();
        let short = ["--timeout", SHORT_TIMEOUT];
        run_with("strict", &cases, "hold-processes.sh", &[&mark], &[], &short)
    });
    // Let the first reach the limit, then start another while it holds it (up to its 2 s
    // timeout).
    std::thread::sleep(Duration::from_millis(800));
    let out = strict_random("3")
        .args(["--timeout", "20", "--shrink", "none", "--", BEAST])
        .timeout(BOUND)
        .output()
        .expect("beast runs");
    let held = holder.join().expect("the first check ran");
    assert_listed_verdict("hold-processes.sh", &held, "strict");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Runs `beast check` under `script(1)`, so it has a controlling terminal the candidate
/// could reach. Returns what appeared on that terminal.
fn on_a_terminal(level: &str, script_name: &str) -> Option<String> {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: script(1) is not installed, so no terminal to attack");
        return None;
    }
    let cases = Cases::new();
    let inner = format!(
        "{BEAST} check --sandbox {level} --no-builtin --timeout 2 --cases {} -- {}",
        cases.dir().display(),
        hostile(script_name)
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .output()
        .expect("script runs");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_terminal_behind_the_report_is_out_of_reach() {
    for level in ["strict", "basic"] {
        if level == "strict" && !namespaces("the terminal test") {
            continue;
        }
        for script in ["dev-tty.sh", "tiocsti.py"] {
            let Some(screen) = on_a_terminal(level, script) else {
                return;
            };
            assert!(!screen.contains("pwned-by"), "{level} {script}: {screen}");
            assert!(
                screen.contains("0 passed, 1 failed"),
                "{level} {script}: {screen}"
            );
        }
    }
    // The attack works without a sandbox: the test can tell.
    if let Some(screen) = on_a_terminal("none", "dev-tty.sh") {
        assert!(screen.contains("pwned-by-tty"), "{screen}");
    }
}

#[test]
fn the_judges_secrets_stay_out_of_the_environment() {
    for level in levels("token", true) {
        let cases = Cases::new();
        let o = run(level, &cases, "token.sh", &[], &[("GITHUB_TOKEN", "2")]);
        assert_listed_verdict("token.sh", &o, level);
        assert_eq!(o.got, "no token\n", "{level}");
    }
    // Passed on purpose with --env, it arrives.
    let cases = Cases::new();
    let mut cmd = beast();
    cmd.args(["check", "--env", "GITHUB_TOKEN", "--no-builtin", "--cases"])
        .arg(cases.dir())
        .arg("--")
        .arg(hostile("token.sh"))
        .env("GITHUB_TOKEN", "2")
        .assert()
        .code(0);
}

#[test]
fn local_network_services_are_out_of_reach() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("address").port().to_string();
    for level in levels("the network test", false) {
        let cases = Cases::new();
        let o = run(level, &cases, "connect.py", &[&port], &[]);
        assert_listed_verdict("connect.py", &o, level);
        assert!(o.got.starts_with("no network"), "{level}: {o:?}");
    }
    let cases = Cases::new();
    let o = run("none", &cases, "connect.py", &[&port], &[]);
    assert_eq!(o.verdict, "AC", "without a sandbox it connects: {o:?}");
}

#[test]
fn the_judge_cannot_be_run_to_get_the_answer() {
    for level in levels("the exec test", false) {
        let cases = Cases::new();
        let o = run(level, &cases, "exec-judge.sh", &[BEAST], &[]);
        assert_ne!(o.verdict, "AC", "{level}: {o:?}");
        assert_eq!(o.code, Some(1), "{level}: {o:?}");
    }
    let cases = Cases::new();
    let o = run("none", &cases, "exec-judge.sh", &[BEAST], &[]);
    assert_eq!(o.verdict, "AC", "without a sandbox it cheats: {o:?}");
}

#[test]
fn the_expected_outputs_cannot_be_read() {
    for level in levels("the .out test", false) {
        let cases = Cases::new();
        let dir = cases.dir();
        let o = run(
            level,
            &cases,
            "read-out.sh",
            &[dir.to_str().expect("path")],
            &[],
        );
        assert_ne!(o.verdict, "AC", "{level}: {o:?}");
    }
    let cases = Cases::new();
    let dir = cases.dir();
    let o = run(
        "none",
        &cases,
        "read-out.sh",
        &[dir.to_str().expect("path")],
        &[],
    );
    assert_eq!(o.verdict, "AC", "without a sandbox it cheats: {o:?}");
}

#[test]
fn nothing_outside_the_private_directory_is_written() {
    use std::os::unix::fs::PermissionsExt;
    for level in levels("the write test", false) {
        let cases = Cases::new();
        let open = cases.root.path().join("open");
        std::fs::create_dir(&open).expect("mkdir");
        for d in [cases.root.path(), &open, &cases.dir()] {
            // World-writable, so only the sandbox stands in the way.
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        }
        let dirs = [cases.dir(), open.clone()];
        let args: Vec<&str> = dirs.iter().map(|d| d.to_str().expect("path")).collect();
        let o = run(level, &cases, "write-outside.sh", &args, &[]);
        assert_listed_verdict("write-outside.sh", &o, level);
        for d in &dirs {
            assert!(
                !d.join("pwned").exists(),
                "{level}: wrote into {}",
                d.display()
            );
        }
        let out = std::fs::read_to_string(cases.dir().join("one.out")).expect("read");
        assert_eq!(out, "2\n", "{level}: the expected output was changed");
    }
}

#[test]
fn four_gib_is_a_memory_limit_verdict() {
    for level in levels("the memory test", true) {
        let cases = Cases::new();
        let o = run_with(level, &cases, "alloc.py", &[], &[], &["--memory", "256"]);
        assert_listed_verdict("alloc.py", &o, level);
        assert!(o.detail.contains("256 MiB"), "{level}: {o:?}");
        assert!(o.took < BOUND, "{level}: {o:?}");
    }
}

#[test]
fn the_report_starts_with_what_is_in_force() {
    let cases = Cases::new();
    let out = beast()
        .args(["check", "--sandbox", "basic", "--memory", "256"])
        .args(["--no-builtin", "--cases"])
        .arg(cases.dir())
        .args(["--", BEAST])
        .output()
        .expect("beast runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("sandbox: basic: Landlock file access, "),
        "{first}"
    );
    assert!(first.contains("seccomp"), "{first}");
    assert!(
        first.contains("; missing: namespaces (--sandbox basic)"),
        "{first}"
    );
    let memory = if nix::unistd::geteuid().is_root() {
        "memory cgroup 256 MiB"
    } else {
        "memory is RLIMIT_AS 256 MiB, so a JVM needs --memory 0"
    };
    assert!(first.contains(memory), "{first}");
    if namespaces("the report line test") {
        let out = beast()
            .args(["check", "--no-builtin", "--cases"])
            .arg(cases.dir())
            .args(["--", BEAST])
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(
                "sandbox: jail: user+mount+pid+net+ipc+uts+cgroup namespaces, minimal root, \
                 mounts locked, own uid per case from 1879048192, no capabilities, seccomp, \
                 memory cgroup 1024 MiB, pids cgroup 256, env cleared, inherited fds closed"
            ),
            "{first}"
        );
        assert!(!first.contains("missing"), "{first}");
    }
}

#[test]
fn a_puzzle_too_long_for_one_argument_fails_only_its_case() {
    let cases = Cases::new();
    // 400x400: 160 KB, over the 128 KiB Linux allows one argument.
    let mut big = String::from("400 400\n");
    for r in 0..400 {
        let row = if r == 0 || r == 399 {
            "#".repeat(400)
        } else if r == 1 {
            format!("#O~H{}#", " ".repeat(395))
        } else {
            format!("#{}#", " ".repeat(398))
        };
        big += &row;
        big.push('\n');
    }
    big += "R\n";
    std::fs::write(cases.dir().join("big.in"), &big).expect("write");
    std::fs::write(cases.dir().join("big.out"), "2\n").expect("write");
    let out = beast()
        .args([
            "check",
            "--input",
            "arg",
            "--format",
            "json",
            "--no-builtin",
        ])
        .args(["--env", "BEAST", "--bind", BEAST, "--cases"])
        .arg(cases.dir())
        .args(["--", "sh", "-c", "printf %s \"$1\" | \"$BEAST\"", "sh"])
        .env("BEAST", BEAST)
        .output()
        .expect("beast runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let verdict = |name: &str| {
        objects
            .iter()
            .find(|o| o["name"] == name)
            .map(|o| (o["verdict"].clone(), o["detail"].clone()))
    };
    let (v, detail) = verdict("big").expect("big ran");
    assert_eq!(v, "RTE");
    assert!(
        detail.as_str().is_some_and(|d| d.contains("--input file")),
        "{detail}"
    );
    assert_eq!(verdict("one").map(|v| v.0), Some("AC".into()));
    // The answer never saw the puzzle, so no smaller one is tried in its place.
    let shown = objects
        .iter()
        .find_map(|o| o["diagnosis"]["groups"].get(0))
        .map(|g| g["smallest"].clone())
        .expect("a group shows the big case");
    assert_eq!(shown["name"], "big", "{shown}");
    assert_eq!(shown["shrunk"], false, "{shown}");
    assert_eq!(shown["stopped_early"], false, "{shown}");
}

/// The private `/tmp` of the namespaces keeps the files an answer is given: a program under
/// `/tmp` that the command names, and one an `--env` variable names (a checkout in `/tmp`,
/// as CI may use, runs `"$BEAST"` from there).
#[test]
fn files_under_tmp_that_the_answer_is_given_stay_visible() {
    if !namespaces("files_under_tmp_that_the_answer_is_given_stay_visible") {
        return;
    }
    let dir = tempfile::Builder::new()
        .prefix("beast-tmp-")
        .tempdir_in("/tmp")
        .expect("a directory in /tmp");
    let copy = dir.path().join("judge-copy");
    crate::util::copy_executable(BEAST, &copy);
    let script = dir.path().join("answer.sh");
    crate::util::write_executable(&script, b"#!/bin/sh\nexec \"$JUDGE\"\n");
    let size = std::fs::metadata(&copy).expect("copied").len();
    let cases = Cases::new();
    // The script runs the copy; then the copy is both the command and the variable.
    for command in [&script, &copy] {
        let out = beast()
            .args(["check", "--sandbox", "strict", "--no-builtin"])
            .args(["--env", "JUDGE", "--cases"])
            .arg(cases.dir())
            .arg("--")
            .arg(command)
            .env("JUDGE", &copy)
            .timeout(BOUND)
            .output()
            .expect("beast runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}: {text}", command.display());
    }
    let after = std::fs::metadata(&copy).expect("still there").len();
    assert_eq!(after, size, "the host's file is untouched");
}

// An answer in a directory closed to its case's user is refused before the first case:
// see `jail::shown_paths::an_answer_directory_its_case_cannot_list_is_refused_before_any_case`.

/// A function's text from its name to its closing brace.
fn body_of(from_name: &str) -> &str {
    &from_name[..from_name.find("\n}\n").unwrap_or(from_name.len())]
}

/// The short names a row's verdicts are spelled in (`beast check --format json`).
const VERDICTS: [&str; 8] = ["AC", "WA", "PE", "TLE", "RTE", "OLE", "MLE", "IE"];

#[test]
fn the_table_lists_every_hostile_fixture_and_the_test_that_runs_it() {
    let rows = table();
    let mut files: Vec<String> = std::fs::read_dir(fixture("hostile"))
        .expect("the hostile fixtures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = rows.iter().map(|r| r.fixture.clone()).collect();
    listed.sort();
    assert_eq!(
        listed, files,
        "one row of hostile.tsv a fixture, and no other"
    );
    for row in &rows {
        let (file, name) = row.test.split_once("::").expect("FILE::NAME");
        let path = crate::util::repo(&format!("tests/jail/{file}.rs"));
        let source = std::fs::read_to_string(&path).expect("the test's file");
        let start = source
            .find(&format!("\nfn {name}() {{"))
            .unwrap_or_else(|| panic!("{}: no test {name} in {}", row.fixture, path.display()));
        let before = &source[start.saturating_sub(200)..start];
        assert!(before.contains("#[test]"), "{name} is not a test");
        let quoted = format!("\"{}\"", row.fixture);
        // The test names the fixture, or calls a function of its file that does.
        let helpers: Vec<String> = source
            .split("\nfn ")
            .skip(1)
            .filter(|f| body_of(f).contains(&quoted))
            .filter_map(|f| f.split_once('(').map(|(n, _)| format!("{n}(")))
            .collect();
        let body = body_of(&source[start + "\nfn ".len()..]);
        assert!(
            body.contains(&quoted) || helpers.iter().any(|h| body.contains(h.as_str())),
            "{name} does not run {}",
            row.fixture
        );
        for v in &row.verdicts {
            assert!(
                VERDICTS.contains(&v.as_str()),
                "{}: no verdict {v}",
                row.fixture
            );
        }
        assert!(
            !row.harm.trim().is_empty(),
            "{}: no harm named",
            row.fixture
        );
    }
}
