//! No side doors: nothing an answer wrote runs, or is read as an instruction, outside the
//! jail (issue 34, items 1 to 3). Each attack runs and its harm is checked from outside: a
//! marker file that only code on the host could write, a planted secret in the judge's
//! output, a judge that does not end by itself. Each runs under every contained level, as
//! root and as a normal user made here; where it is safe, under `--sandbox none` too, to
//! show the test can tell. Then the honest answers those changes must keep running, and
//! an audit of every place the binary starts a process.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::jail::hostile::{left_running, levels};
use crate::util::{BEAST, repo};

/// The longest any check here may take.
const BOUND: Duration = Duration::from_secs(20);

/// The one case every answer here gets; its answer is `2`.
const PUZZLE: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n";

/// The user the normal-user runs are made as.
const USER: &str = "beast-judge-test";

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// A directory every user may read, holding a copy of the judge, the case, the answer's
/// files (`answer/`) and a directory anyone may write markers to (`marks/`), owned by
/// `user` when there is one.
struct Place {
    dir: tempfile::TempDir,
    judge: PathBuf,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let judge = root.join("beast");
        crate::util::copy_executable(BEAST, &judge);
        std::fs::create_dir_all(root.join("cases")).expect("mkdir");
        std::fs::write(root.join("cases/one.in"), PUZZLE).expect("write");
        std::fs::write(root.join("cases/one.out"), "2\n").expect("write");
        std::fs::create_dir_all(root.join("answer")).expect("mkdir");
        std::fs::create_dir_all(root.join("marks")).expect("mkdir");
        std::fs::set_permissions(root.join("marks"), std::fs::Permissions::from_mode(0o777))
            .expect("chmod");
        Place { dir, judge }
    }

    fn at(&self, rest: &str) -> PathBuf {
        self.dir.path().join(rest)
    }

    /// Writes an executable file.
    fn executable(&self, rest: &str, text: &str) -> PathBuf {
        let path = self.at(rest);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        crate::util::write_executable(&path, text.as_bytes());
        path
    }

    /// Gives the whole place to `user`.
    fn give_to(&self, user: &str) {
        let status = std::process::Command::new("chown")
            .args(["-R", &format!("{user}:{user}")])
            .arg(self.dir.path())
            .status()
            .expect("chown runs");
        assert!(status.success());
    }

    /// `beast check --sandbox LEVEL FLAGS --cases cases -- COMMAND`, as `user` when there is
    /// one, with `env` over the judge's own.
    fn check(
        &self,
        user: Option<&str>,
        level: &str,
        flags: &[&str],
        command: &[&Path],
        env: &[(&str, &Path)],
    ) -> Output {
        let mut cmd = match user {
            Some(user) => {
                let mut c = assert_cmd::Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&self.judge);
                c
            }
            None => assert_cmd::Command::new(&self.judge),
        };
        cmd.args([
            "check",
            "--sandbox",
            level,
            "--no-builtin",
            "--shrink",
            "none",
        ])
        .args(["--timeout", "5"])
        .args(flags)
        .arg("--cases")
        .arg(self.at("cases"))
        .arg("--")
        .args(command)
        .current_dir(self.dir.path())
        .timeout(BOUND);
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("beast runs")
    }
}

/// The judge's stdout and stderr together.
fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The normal user to run as, made when missing; `None` (saying why) where it cannot be.
fn normal_user() -> Option<&'static str> {
    if !is_root() {
        eprintln!("skipped the normal-user run: making a user needs root");
        return None;
    }
    let exists = std::process::Command::new("id")
        .arg(USER)
        .output()
        .is_ok_and(|o| o.status.success());
    let made = exists
        || std::process::Command::new("useradd")
            .args(["--create-home", USER])
            .status()
            .is_ok_and(|s| s.success());
    if !made {
        eprintln!("skipped the normal-user run: useradd {USER} failed");
        return None;
    }
    Some(USER)
}

/// The runs of an attack: every contained level as this user, and `auto` and `basic` as
/// the normal user.
fn runs(test: &str) -> Vec<(Option<&'static str>, &'static str)> {
    let mut all: Vec<(Option<&str>, &str)> = vec![(None, "auto")];
    all.extend(levels(test, true).into_iter().map(|l| (None, l)));
    if let Some(user) = normal_user() {
        all.extend([(Some(user), "auto"), (Some(user), "basic")]);
    }
    all
}

/// An answer that ships a version manager's folder beside itself (`shims/python3`, and a
/// `libexec/pyenv` that marks the host), naming the shim in its `#!` line (through `env`,
/// which the judge used to resolve as a shim of the user's).
fn shim_answer(place: &Place) -> (PathBuf, PathBuf) {
    let mark = place.at("marks/shim-ran");
    place.executable(
        "answer/libexec/pyenv",
        &format!(
            "#!/bin/sh\ntouch '{}'\necho /usr/bin/python3\n",
            mark.display()
        ),
    );
    place.executable(
        "answer/shims/python3",
        "#!/bin/sh\nexec \"$(dirname \"$0\")/../libexec/pyenv\" which python3\n",
    );
    let script = place.executable(
        "answer/answer.py",
        &format!(
            "#!/usr/bin/env {}\nimport sys\nsys.stdin.read()\nprint(2)\n",
            place.at("answer/shims/python3").display()
        ),
    );
    (script, mark)
}

#[test]
fn a_version_manager_shipped_beside_the_answer_never_runs_on_the_host() {
    for (user, level) in runs("the shipped shim test") {
        let place = Place::new();
        let (script, mark) = shim_answer(&place);
        if let Some(user) = user {
            place.give_to(user);
        }
        let python3 = Path::new("python3");
        for command in [vec![python3, script.as_path()], vec![script.as_path()]] {
            let out = place.check(user, level, &[], &command, &[]);
            assert!(
                !mark.exists(),
                "{user:?} {level} {command:?}: the answer's pyenv ran on the host: {}",
                said(&out)
            );
        }
        // Run as the program, the kernel would read that `#!` line: the report says why
        // the interpreter is missing.
        let out = place.check(user, level, &[], &[&script], &[]);
        assert!(
            said(&out).contains("is not shown to the answer"),
            "{user:?} {level}: {}",
            said(&out)
        );
    }
    // Unconfined, the answer runs its shim itself and marks the host: the test can tell.
    let place = Place::new();
    let (script, mark) = shim_answer(&place);
    place.check(None, "none", &[], &[&script], &[]);
    assert!(
        mark.exists(),
        "the unconfined shim should have marked the host"
    );
}

#[test]
fn post_never_runs_a_compiled_answer_nor_an_interpreter_it_ships() {
    let mut all = runs("the --post test");
    all.push((None, "none"));
    for (user, level) in all {
        let place = Place::new();
        let mark = place.at("marks/version-asked");
        let golf = place.executable(
            "answer/golf",
            &format!(
                "#!/bin/sh\n[ \"$1\" = --version ] && {{ touch '{}'; echo 'C 99.1'; exit 0; }}\n\
                 cat > /dev/null\necho 2\n",
                mark.display()
            ),
        );
        let source = place.at("answer/golf.c");
        std::fs::write(&source, "main(){puts(\"2\");}\n").expect("write");
        let shipped = place.executable(
            "answer/python3",
            &format!(
                "#!/bin/sh\n[ \"$1\" = --version ] && {{ touch '{}'; echo 'Python 9.9'; exit 0; }}\n\
                 cat > /dev/null\necho 2\n",
                mark.display()
            ),
        );
        let script = place.executable(
            "answer/answer.py",
            &format!("#!{}\nprint(2)\n", shipped.display()),
        );
        if let Some(user) = user {
            place.give_to(user);
        }
        let source_flag = source.to_str().expect("UTF-8");
        let compiled = place.check(
            user,
            level,
            &["--post", "--source", source_flag],
            &[&golf],
            &[],
        );
        let text = said(&compiled);
        assert!(
            !mark.exists(),
            "{user:?} {level}: ./golf --version ran: {text}"
        );
        assert_eq!(compiled.status.code(), Some(0), "{user:?} {level}: {text}");
        assert!(
            String::from_utf8_lossy(&compiled.stdout).starts_with("# C, 18 bytes"),
            "{user:?} {level}: {text}"
        );
        let shipped_run = place.check(user, level, &["--post"], &[&script], &[]);
        let text = said(&shipped_run);
        assert!(
            !mark.exists(),
            "{user:?} {level}: the shipped interpreter ran: {text}"
        );
        if level == "none" {
            // Unconfined the shipped interpreter passes the case: the post still names
            // the language from the extension, never from it.
            assert!(
                String::from_utf8_lossy(&shipped_run.stdout).starts_with("# Python, "),
                "{text}"
            );
        }
    }
}

/// A home holding secrets (`.ssh/id_rsa`, `.git-credentials`), world-readable so that only
/// the layout stands in the way, and two answers that name them in their `#!` lines and
/// print them.
fn secret_answers(place: &Place, home: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
    for (file, text) in [
        (".ssh/id_rsa", "SECRET-KEY-34\n"),
        (".git-credentials", "https://SECRET-TOKEN-34@example.com\n"),
    ] {
        std::fs::write(home.join(file), text).expect("write");
        std::fs::set_permissions(home.join(file), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    let print = format!(
        "cat > /dev/null\ncat '{0}/.ssh/id_rsa' '{0}/.git-credentials' 2>/dev/null\necho 2\n",
        home.display()
    );
    vec![
        place.executable(
            "answer/dir.sh",
            &format!("#!{}/.ssh/id_rsa\n{print}", home.display()),
        ),
        place.executable(
            "answer/wide.sh",
            &format!("#!{}/.git-credentials\n{print}", home.display()),
        ),
    ]
}

#[test]
fn a_shebang_naming_a_secret_shows_nothing_of_it() {
    let sh = Path::new("sh");
    for (user, level) in runs("the secret test") {
        let place = Place::new();
        // A home of the test's making as root; the normal user's own home as it.
        let home = match user {
            Some(user) => PathBuf::from("/home").join(user),
            None => place.at("home"),
        };
        let scripts = secret_answers(&place, &home);
        if let Some(user) = user {
            place.give_to(user);
            let status = std::process::Command::new("chown")
                .args(["-R", &format!("{user}:{user}")])
                .arg(&home)
                .status()
                .expect("chown runs");
            assert!(status.success());
        }
        for script in &scripts {
            for command in [vec![sh, script.as_path()], vec![script.as_path()]] {
                let out = place.check(user, level, &[], &command, &[("HOME", &home)]);
                let text = said(&out);
                assert!(
                    !text.contains("SECRET"),
                    "{user:?} {level} {command:?}: a secret reached the report: {text}"
                );
            }
        }
    }
    // Unconfined the answer reads them: the test can tell.
    let place = Place::new();
    let home = place.at("home");
    let scripts = secret_answers(&place, &home);
    let out = place.check(None, "none", &[], &[sh, &scripts[0]], &[("HOME", &home)]);
    assert!(said(&out).contains("SECRET-KEY-34"), "{}", said(&out));
}

#[test]
fn a_fifo_named_by_a_shebang_or_as_the_source_does_not_hang_the_judge() {
    for (user, level) in runs("the FIFO test") {
        let place = Place::new();
        let fifo = place.at("answer/fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o755))
            .expect("mkfifo");
        let script = place.executable(
            "answer/answer.sh",
            &format!("#!{}\ncat > /dev/null\necho 2\n", fifo.display()),
        );
        if let Some(user) = user {
            place.give_to(user);
        }
        let started = Instant::now();
        let out = place.check(user, level, &[], &[&script], &[]);
        assert!(started.elapsed() < BOUND, "{user:?} {level}");
        assert!(
            said(&out).contains("is not shown to the answer"),
            "{user:?} {level}: {}",
            said(&out)
        );
        let fifo_flag = fifo.to_str().expect("UTF-8");
        let out = place.check(
            user,
            level,
            &["--source", fifo_flag],
            &[Path::new("/bin/sh"), &script],
            &[],
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{user:?} {level}: {}",
            said(&out)
        );
        assert!(
            said(&out).contains("is not a regular file"),
            "{}",
            said(&out)
        );
    }
}

#[test]
fn sigterm_while_the_jail_is_prepared_stops_the_judge_at_once() {
    // The user's own version manager is slow to answer `which`: the judge is still
    // preparing the jail when the signal comes.
    let place = Place::new();
    let started_mark = place.at("marks/asked");
    place.executable("vm/shims/python3", "#!/bin/sh\nexit 1\n");
    place.executable(
        "vm/libexec/pyenv",
        &format!(
            "#!/bin/sh\ntouch '{}'\nsleep 30\necho /usr/bin/python3\n",
            started_mark.display()
        ),
    );
    let script = place.executable("answer/answer.py", "print(2)\n");
    let path = format!(
        "{}:{}",
        place.at("vm/shims").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let tmp = place.at("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let mut judge = std::process::Command::new(&place.judge)
        .args(["check", "--no-builtin", "--cases"])
        .arg(place.at("cases"))
        .arg("--")
        .arg("python3")
        .arg(&script)
        .env("PATH", &path)
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("beast starts");
    let waiting = Instant::now();
    while !started_mark.exists() && waiting.elapsed() < BOUND {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(started_mark.exists(), "the version manager was never asked");
    let signalled = Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(judge.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("kill");
    let status = loop {
        if let Some(status) = judge.try_wait().expect("wait") {
            break status;
        }
        // A generous ceiling: a loaded machine may be slow to deliver and act on it.
        if signalled.elapsed() > BOUND {
            let _ = judge.kill();
            panic!("the judge did not stop within {BOUND:?} of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut judge.stderr.take().expect("stderr"), &mut stderr)
        .expect("read");
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    let vm = place.at("vm").display().to_string();
    assert!(left_running(&vm).is_empty(), "the version manager is left");
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("read").flatten().collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// The honest scripts the new rules must keep running as `./answer` under the default
/// sandbox: `#!/usr/bin/env python3`, `#!/usr/bin/perl` and `#!/bin/sh`.
#[test]
fn honest_scripts_run_as_the_program_under_the_default_sandbox() {
    let scripts = [
        (
            "/usr/bin/python3",
            "answer.py",
            "#!/usr/bin/env python3\nimport sys\nsys.stdin.read()\nprint(2)\n",
        ),
        (
            "/usr/bin/perl",
            "answer.pl",
            "#!/usr/bin/perl\nmy @l = <STDIN>; print 1+1, \"\\n\";\n",
        ),
        (
            "/bin/sh",
            "answer.sh",
            "#!/bin/sh\ncat > /dev/null\necho 2\n",
        ),
    ];
    for (needs, name, text) in scripts {
        if !Path::new(needs).exists() {
            eprintln!("skipped {name}: no {needs}");
            continue;
        }
        let place = Place::new();
        let script = place.executable(&format!("answer/{name}"), text);
        let out = place.check(None, "auto", &[], &[&script], &[]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", said(&out));
        assert!(
            !said(&out).contains("is not shown"),
            "{name}: {}",
            said(&out)
        );
    }
}

/// `python3` from the version manager on the judge's `PATH` (pyenv's shim here) runs the
/// manager's interpreter in the jail; `--post` names its version.
#[test]
fn python3_from_a_version_manager_on_the_path_runs_and_posts() {
    let Some(shim) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("python3"))
        .find(|p| p.is_file())
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("shims")))
    else {
        eprintln!("skipped: python3 on PATH is no version manager's shim");
        return;
    };
    let place = Place::new();
    let script = place.executable(
        "answer/answer.py",
        "import sys\nsys.stdin.read()\nprint(2)\n",
    );
    let out = place.check(
        None,
        "auto",
        &["--post"],
        &[Path::new("python3"), &script],
        &[],
    );
    let text = said(&out);
    assert_eq!(out.status.code(), Some(0), "{}: {text}", shim.display());
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("# Python 3."),
        "{text}"
    );
}

#[test]
fn a_compiled_c_answer_posts_under_the_default_sandbox() {
    let Some(cc) = ["/usr/bin/cc", "/usr/bin/gcc"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        eprintln!("skipped: no C compiler");
        return;
    };
    let place = Place::new();
    let source = place.at("answer/golf.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(void){char b[4096];while(fread(b,1,sizeof b,stdin)>0);\
         puts(\"2\");return 0;}\n",
    )
    .expect("write");
    let golf = place.at("answer/golf");
    let built = std::process::Command::new(cc)
        .arg("-o")
        .arg(&golf)
        .arg(&source)
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "{cc} failed");
    let source_flag = source.to_str().expect("UTF-8");
    let out = place.check(
        None,
        "auto",
        &["--post", "--source", source_flag],
        &[&golf],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("# C, 102 bytes"),
        "{}",
        said(&out)
    );
}

/// The places [`every_process_the_judge_starts_is_itself_its_paths_or_jailed`] knows,
/// each with why it may start a process.
const SITES: [(&str, &str, &str); 7] = [
    (
        "src/cli/sandbox/spec.rs",
        "Command::new(exe)",
        "the judge itself (the sandbox helper, every role: Spec::command)",
    ),
    (
        "src/cli/sandbox/helper/jail.rs",
        "Command::new(program)",
        "inside the jail: the zygote's case thread starts the answer, every privilege given up",
    ),
    (
        "src/cli/sandbox/helper/keep.rs",
        "Command::new(program)",
        "inside basic's confinement: the keeper starts the answer",
    ),
    (
        "src/cli/sandbox/untrusted.rs",
        "Command::new(&self.path)",
        "a HostProgram: found through the judge's PATH outside every named place",
    ),
    (
        "src/cli/sandbox/case.rs",
        "Command::new(program)",
        "the answer under --sandbox none, as the user asked",
    ),
    (
        "src/cli/sandbox/subordinate.rs",
        "Command::new(program)",
        "newuidmap or newgidmap from a system directory (MAPPERS), never a PATH the answer sets",
    ),
    (
        "src/cli/sandbox/procs.rs",
        "Command::new(\"sleep\")",
        "a unit test's child",
    ),
];

/// Every place the binary starts a process, and why it may: the judge itself, a program
/// found through the judge's own `PATH` (a `HostProgram`), a process inside the jail (or
/// `basic`'s confinement), or the answer under `--sandbox none`, which the user asked for.
/// A new place fails this test until it is added here with its reason.
#[test]
fn every_process_the_judge_starts_is_itself_its_paths_or_jailed() {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut todo = vec![repo("src")];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let file = path
                .strip_prefix(repo(""))
                .expect("under the repository")
                .display()
                .to_string();
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with("//") {
                    continue;
                }
                let starts = ["Command::new(", "execv", "fork(", "posix_spawn", ".exec()"];
                if !starts.iter().any(|s| line.contains(s)) || line.contains("clap::Command") {
                    continue;
                }
                let at = line.find("Command::new(").map_or(line, |i| &line[i..]);
                let site = at
                    .split_once(')')
                    .map_or(at.to_string(), |(a, _)| format!("{a})"));
                let site = match line.find("std::process::Command::new(") {
                    Some(_) => format!("std::process::{site}"),
                    None => site,
                };
                found.push((file.clone(), site));
            }
        }
    }
    for (file, site) in &found {
        let known = SITES.iter().find(|(f, s, _)| f == file && s == site);
        assert!(
            known.is_some(),
            "{file}: `{site}` starts a process no one has classified: add it to SITES with \
             why it is the judge, a program of the judge's PATH, or inside the jail"
        );
    }
    for (file, site, why) in SITES {
        assert!(
            found.iter().any(|(f, s)| f == file && s == site),
            "{file}: `{site}` ({why}) is gone: take it out of SITES"
        );
    }
}
