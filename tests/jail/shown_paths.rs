//! Nothing the command line names is trusted: the jail shows a path only if the case's
//! user could read it on the host, at the moment of mounting. Each attack runs and its
//! harm is checked from outside (a planted secret, or a dot file's name, absent from
//! everything the judge prints), as root and as a normal user whose cases run as
//! subordinate ids (`/etc/subuid`, `newuidmap`); a run that cannot be made says why.
//! The attacks: a symlink named on the command line (as the program, an argument, a
//! path bound alone, `--bind`) that leads into a closed directory; `--env HOME`; a named
//! directory swapped for a symlink between two cases; and the answer whose directory its
//! case cannot list, which is refused before the first case instead of making every case
//! an IE.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::util::BEAST;

/// The longest any check here may take.
const BOUND: Duration = Duration::from_secs(30);

/// The one case every answer here gets; its answer is `2`.
const PUZZLE: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n";

/// What no output may ever hold.
const SECRET: &str = "the-closed-directory's-secret";

/// The normal user the runs are made as (the one `jail::side_doors` makes).
const USER: &str = "beast-judge-test";

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The first subordinate uid of `user`, when it has a range and `newuidmap` exists.
pub fn subordinate_first(user: &str) -> Option<u32> {
    let text = std::fs::read_to_string("/etc/subuid").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{user}:")))
        .and_then(|rest| rest.split(':').next()?.parse().ok())
}

/// The normal user with a subordinate range, made when missing; `None` (saying why) where
/// it cannot be had.
pub fn normal_user() -> Option<&'static str> {
    if !is_root() {
        eprintln!("skipped the normal-user run: making a user needs root");
        return None;
    }
    let exists = Command::new("id")
        .arg(USER)
        .output()
        .is_ok_and(|o| o.status.success());
    let made = exists
        || Command::new("useradd")
            .args(["--create-home", USER])
            .status()
            .is_ok_and(|s| s.success());
    if !made {
        eprintln!("skipped the normal-user run: useradd {USER} failed");
        return None;
    }
    if !Path::new("/usr/bin/newuidmap").is_file() || subordinate_first(USER).is_none() {
        eprintln!("skipped the normal-user run: no newuidmap (apt: uidmap) or no range");
        return None;
    }
    Some(USER)
}

/// Who runs the judge: root (this process) or the normal user.
fn runners() -> Vec<Option<&'static str>> {
    let mut all = vec![None];
    all.extend(normal_user().map(Some));
    all
}

/// A directory every user may cross, holding the case (`cases/`), an open `answer/`
/// and a closed (0700) `closed/` with the secret in a file anyone could read were the
/// directory open; all the runner's.
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().expect("temp dir");
        chmod(dir.path(), 0o755);
        let place = Place { dir };
        std::fs::create_dir_all(place.at("cases")).expect("mkdir");
        std::fs::write(place.at("cases/one.in"), PUZZLE).expect("write");
        std::fs::write(place.at("cases/one.out"), "2\n").expect("write");
        std::fs::create_dir_all(place.at("answer")).expect("mkdir");
        std::fs::create_dir_all(place.at("closed")).expect("mkdir");
        let secret = place.at("closed/secret.txt");
        std::fs::write(&secret, format!("{SECRET}\n")).expect("write");
        place.executable(
            "closed/prog.sh",
            &format!(
                "#!/bin/sh\ncat > /dev/null\ncat '{}' 2>/dev/null\necho 2\n",
                secret.display()
            ),
        );
        // Prints its first argument's file (what the jail shows of it), then the answer.
        place.executable(
            "answer/cat.sh",
            "#!/bin/sh\ncat > /dev/null\ncat \"$1\" 2>/dev/null\necho 2\n",
        );
        place
    }

    fn at(&self, rest: &str) -> PathBuf {
        self.dir.path().join(rest)
    }

    fn executable(&self, rest: &str, text: &str) -> PathBuf {
        let path = self.at(rest);
        crate::util::write_executable(&path, text.as_bytes());
        path
    }

    /// Gives the place to `user` (when there is one) and closes `closed/`.
    fn ready(&self, user: Option<&str>) {
        if let Some(user) = user {
            let status = Command::new("chown")
                .args(["-R", &format!("{user}:{user}")])
                .arg(self.dir.path())
                .status()
                .expect("chown runs");
            assert!(status.success());
        }
        chmod(&self.at("closed"), 0o700);
    }

    /// `beast check --sandbox LEVEL FLAGS --cases cases -- COMMAND` as `user` (root when
    /// `None`), with `env` over the judge's own.
    fn check(
        &self,
        user: Option<&str>,
        level: &str,
        flags: &[&str],
        command: &[&Path],
        env: &[(&str, &Path)],
    ) -> Output {
        // `runuser` sets the user's own HOME: `env` sets the test's after it.
        let mut cmd = assert_cmd::Command::new("runuser");
        match user {
            Some(user) => cmd.args(["-u", user, "--"]),
            None => cmd.args(["-u", "root", "--"]),
        };
        cmd.arg("/usr/bin/env");
        for (k, v) in env {
            cmd.arg(format!("{k}={}", v.display()));
        }
        cmd.arg(BEAST)
            .args(["check", "--sandbox", level, "--no-builtin"])
            .args(["--shrink", "none", "--timeout", "10"])
            .args(flags)
            .arg("--cases")
            .arg(self.at("cases"))
            .arg("--")
            .args(command)
            .current_dir(self.dir.path())
            .timeout(BOUND);
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

/// The levels a runner's attacks run at: the jail (`auto`), and `basic` under root (a
/// normal user's `basic` runs the answer as that user: a limit the README names).
fn levels_for(user: Option<&str>) -> Vec<&'static str> {
    match user {
        None => vec!["auto", "basic"],
        Some(_) => vec!["auto"],
    }
}

#[test]
fn a_symlink_named_on_the_command_line_shows_nothing_of_the_closed_directory_it_leads_into() {
    for user in runners() {
        let place = Place::new();
        let key = place.at("answer/key");
        std::os::unix::fs::symlink(place.at("closed/secret.txt"), &key).expect("link");
        let run = place.at("answer/run");
        std::os::unix::fs::symlink(place.at("closed/prog.sh"), &run).expect("link");
        // A link in a directory of its own, for --bind, and one in `/tmp`, too wide to
        // show whole: that one would be bound alone.
        let elsewhere = tempfile::tempdir().expect("temp dir");
        chmod(elsewhere.path(), 0o755);
        let bind = elsewhere.path().join("key");
        std::os::unix::fs::symlink(place.at("closed/secret.txt"), &bind).expect("link");
        let lone_link = tempfile::Builder::new()
            .prefix("beast-alone-")
            .make_in("/tmp", |p| {
                std::os::unix::fs::symlink(place.at("closed/secret.txt"), p)
            })
            .expect("a link in /tmp");
        let lone = lone_link.path().to_path_buf();
        place.ready(user);
        let sh = Path::new("/bin/sh");
        let cat = place.at("answer/cat.sh");
        let bind_flag = bind.to_str().expect("a path");
        // Reads the bound link by its path (named nowhere else on the command line).
        let bound = place.executable(
            "answer/bound.sh",
            &format!(
                "#!/bin/sh\ncat > /dev/null\ncat '{}' 2>/dev/null\necho 2\n",
                bind.display()
            ),
        );
        let attacks: [(&str, Vec<&str>, Vec<&Path>); 4] = [
            ("the program", vec![], vec![&run]),
            ("--bind", vec!["--bind", bind_flag], vec![&bound]),
            ("a path bound alone", vec![], vec![sh, &cat, &lone]),
            ("an argument", vec![], vec![sh, &cat, &key]),
        ];
        for level in levels_for(user) {
            for (what, flags, command) in &attacks {
                let out = place.check(user, level, flags, command, &[]);
                let text = said(&out);
                let who = format!("{user:?} {level} {what}");
                assert!(!text.contains(SECRET), "{who}: the secret is out: {text}");
                if *what == "an argument" {
                    // Its own directory is shown; the link in it leads nowhere in the jail.
                    assert_eq!(out.status.code(), Some(0), "{who}: {text}");
                } else {
                    assert_eq!(out.status.code(), Some(2), "{who}: {text}");
                    assert!(text.contains("the jail cannot show"), "{who}: {text}");
                    assert!(text.contains("closed"), "{who}: {text}");
                }
            }
        }
    }
    // Unconfined, the program and the argument's link read the secret: the test can tell.
    let place = Place::new();
    let key = place.at("answer/key");
    std::os::unix::fs::symlink(place.at("closed/secret.txt"), &key).expect("link");
    let run = place.at("answer/run");
    std::os::unix::fs::symlink(place.at("closed/prog.sh"), &run).expect("link");
    place.ready(None);
    let cat = place.at("answer/cat.sh");
    for command in [vec![run.as_path()], vec![Path::new("/bin/sh"), &cat, &key]] {
        let out = place.check(None, "none", &[], &command, &[]);
        assert!(said(&out).contains(SECRET), "{}", said(&out));
    }
}

#[test]
fn env_home_passes_the_value_and_shows_nothing_of_the_judges_home() {
    const DOT_FILE: &str = ".judges-own-dot-file";
    for user in runners() {
        let place = Place::new();
        let home = place.at("home");
        std::fs::create_dir_all(&home).expect("mkdir");
        std::fs::write(home.join(DOT_FILE), "x").expect("write");
        // Lists the home the judge has (its path written here), and tells its value.
        let ls = place.executable(
            "answer/ls.sh",
            &format!(
                "#!/bin/sh\ncat > /dev/null\nls -a '{}' 2>/dev/null\necho 2\n",
                home.display()
            ),
        );
        place.ready(user);
        let mut levels = levels_for(user);
        if user.is_some() {
            levels.push("basic");
        }
        for level in levels {
            let out = place.check(user, level, &["--env", "HOME"], &[&ls], &[("HOME", &home)]);
            let text = said(&out);
            assert!(!text.contains(DOT_FILE), "{user:?} {level}: {text}");
            assert_eq!(out.status.code(), Some(0), "{user:?} {level}: {text}");
        }
    }
    // Unconfined, the same answer lists it: the test can tell.
    let place = Place::new();
    let home = place.at("home");
    std::fs::create_dir_all(&home).expect("mkdir");
    std::fs::write(home.join(DOT_FILE), "x").expect("write");
    let ls = place.executable(
        "answer/ls.sh",
        &format!(
            "#!/bin/sh\ncat > /dev/null\nls -a '{}'\necho 2\n",
            home.display()
        ),
    );
    let out = place.check(None, "none", &["--env", "HOME"], &[&ls], &[("HOME", &home)]);
    assert!(said(&out).contains(DOT_FILE), "{}", said(&out));
}

/// Runs the jail's helper as `beast check` does for one case (the outer process, which
/// makes the namespaces and starts `init`), as `user` with the case's `uid`, showing
/// `at` (made from `from`, every directory on the way checked) to a command that prints
/// what it sees there.
fn one_case(user: Option<&str>, uid: u32, root_dir: &Path, at: &Path, from: &Path) -> Output {
    let mut cmd = match user {
        Some(user) => {
            let mut c = Command::new("runuser");
            c.args(["-u", user, "--", BEAST]);
            c
        }
        None => Command::new(BEAST),
    };
    let shown = at.display();
    cmd.args(["__contain", "--role", "outer", "--judge-pid"])
        .arg(std::process::id().to_string())
        .args(["--cpu", "5", "--fsize", "1048576", "--uid"])
        .arg(uid.to_string())
        .args(["--tmp-size", "1048576", "--root-dir"])
        .arg(root_dir)
        .args(["--workdir", "/tmp/answer", "--named"])
        .arg(at)
        .arg(from)
        .args(["--", "/bin/sh", "-c"])
        .arg(format!(
            "cat '{shown}/a.txt'; ls -a '{shown}'; cat '{shown}/secret.txt'"
        ));
    cmd.env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the helper runs")
}

#[test]
fn a_named_directory_swapped_for_a_symlink_between_cases_shows_nothing_of_its_target() {
    // The layout is decided once and the mounts made again for every case: here the same
    // description of a case is run twice, the directory swapped in between, as another
    // user who may write its parent could do while a check runs.
    let Some(first_id) = nix::unistd::geteuid()
        .is_root()
        .then_some(1_879_048_192u32 + 65_000)
    else {
        eprintln!("skipped: running the helper as root and as a user needs root");
        return;
    };
    for user in runners() {
        let place = Place::new();
        let shared = place.at("shared");
        let answer = shared.join("answer");
        std::fs::create_dir_all(&answer).expect("mkdir");
        std::fs::write(answer.join("a.txt"), "open file\n").expect("write");
        std::fs::create_dir_all(place.at("root")).expect("mkdir");
        place.ready(user);
        // Anyone may write the parent: another user can swap what is in it.
        chmod(&shared, 0o777);
        let uid = match user {
            Some(u) => subordinate_first(u).expect("a range") + 7,
            None => first_id,
        };
        let real = answer.canonicalize().expect("real path");
        let out = one_case(user, uid, &place.at("root"), &answer, &real);
        let text = said(&out);
        assert!(
            text.contains("open file"),
            "{user:?}: the first case: {text}"
        );
        std::fs::rename(&answer, shared.join("old")).expect("rename");
        std::os::unix::fs::symlink(place.at("closed"), &answer).expect("link");
        let out = one_case(user, uid, &place.at("root"), &answer, &real);
        let text = said(&out);
        assert!(
            !text.contains(SECRET) && !text.contains("secret.txt"),
            "{user:?}: the closed directory is shown: {text}"
        );
        assert_eq!(out.status.code(), Some(125), "{user:?}: {text}");
        assert!(text.contains("is a symbolic link now"), "{user:?}: {text}");
    }
}

#[test]
fn an_answer_directory_its_case_cannot_list_is_refused_before_any_case() {
    for user in runners() {
        // Closed to others (0700, the runner's), and crossable but not listable (0711,
        // root's: a normal user's jail could not even list it to set a case up).
        let mut shapes = vec![("0700", None)];
        if user.is_some() {
            shapes.push(("0711 root", Some(0o711)));
        }
        for (shape, root_owned) in shapes {
            let place = Place::new();
            // A wrong answer: it prints 1.
            let script = place.executable("answer/a.sh", "#!/bin/sh\ncat > /dev/null\necho 1\n");
            place.ready(user);
            let dir = place.at("answer");
            match root_owned {
                Some(mode) => {
                    std::os::unix::fs::chown(&dir, Some(0), Some(0)).expect("chown");
                    chmod(&dir, mode);
                }
                None => chmod(&dir, 0o700),
            }
            let out = place.check(user, "auto", &["--format", "json"], &[&script], &[]);
            let err = String::from_utf8_lossy(&out.stderr);
            let who = format!("{user:?} {shape}");
            assert_eq!(out.status.code(), Some(2), "{who}: {}", said(&out));
            assert!(out.stdout.is_empty(), "{who}: a case ran: {}", said(&out));
            let mode = if root_owned.is_some() {
                "drwx--x--x"
            } else {
                "drwx------"
            };
            for part in [
                format!("the jail cannot show {}", dir.display()),
                format!("{} is {mode}", dir.display()),
                "may not list".to_string(),
                format!("chmod o+rx {}", dir.display()),
            ] {
                assert!(err.contains(&part), "{who}: no {part:?} in: {err}");
            }
        }
    }
}
