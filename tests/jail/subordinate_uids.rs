//! As a normal user whom `/etc/subuid` and `/etc/subgid` give a range (the set-up rootless
//! podman uses, through `newuidmap`), each case of the jail runs as an id of that range:
//! the user's own owner-only files are closed to the answer, as they are under root.
//! Without a range the answer runs as the user, as before; the first line says which.
//! The attack: an answer that prints an owner-only file beside it. `--sandbox basic`,
//! which runs it as the user, shows that the attack is real.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::BEAST;

const SECRET: &str = "the user's own secret";

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    })
}

/// `name`, made when missing: with a subordinate range (useradd's default here), or with
/// none.
fn user(name: &str, range: bool) -> Option<String> {
    let exists = Command::new("id")
        .arg(name)
        .output()
        .is_ok_and(|o| o.status.success());
    if !exists {
        let mut add = Command::new("useradd");
        add.arg("--create-home");
        if !range {
            add.args(["-K", "SUB_UID_COUNT=0", "-K", "SUB_GID_COUNT=0"]);
        }
        if !add.arg(name).status().is_ok_and(|s| s.success()) {
            eprintln!("skipped: cannot create the user {name}");
            return None;
        }
    }
    let listed = |file: &str| {
        std::fs::read_to_string(file)
            .is_ok_and(|t| t.lines().any(|l| l.starts_with(&format!("{name}:"))))
    };
    if listed("/etc/subuid") != range || listed("/etc/subgid") != range {
        eprintln!(
            "skipped: {name} has {} range",
            if range { "no" } else { "a" }
        );
        return None;
    }
    Some(name.to_string())
}

/// A copy of the judge and `golf/answer.sh` beside `golf/secret.txt` (mode 0600), all the
/// user's, in a directory everyone may cross.
fn place(user: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let place = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let judge = place.path().join("beast");
    crate::util::copy_executable(BEAST, &judge);
    let golf = place.path().join("golf");
    std::fs::create_dir(&golf).expect("mkdir");
    let secret = golf.join("secret.txt");
    std::fs::write(&secret, format!("{SECRET}\n")).expect("write");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let script = golf.join("answer.sh");
    std::fs::write(
        &script,
        format!("cat {} 2>/dev/null\necho 0\n", secret.display()),
    )
    .expect("write");
    let owned = Command::new("chown")
        .args(["-R", &format!("{user}:{user}")])
        .arg(place.path())
        .status()
        .expect("chown runs");
    assert!(owned.success());
    (place, judge, script)
}

/// The judge run by `user` at `level` on the case `no-beasts`: its first line and the
/// answer's output.
fn run(user: &str, judge: &Path, script: &Path, level: &str) -> (String, String) {
    let out = Command::new("runuser")
        .args(["-u", user, "--"])
        .arg(judge)
        .args([
            "check",
            "--sandbox",
            level,
            "--format",
            "json",
            "--only",
            "no-beasts",
        ])
        .args(["--shrink", "none", "--", "sh"])
        .arg(script)
        .current_dir(judge.parent().expect("a directory"))
        .output()
        .expect("runuser runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let case: serde_json::Value = serde_json::from_str(text.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| {
            panic!(
                "{level}: {e}: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let summary: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap_or_default()).expect("a summary");
    let line = summary["sandbox"]["line"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (line, case["got"].as_str().unwrap_or_default().to_string())
}

fn mappers_here() -> bool {
    ["/usr/bin/newuidmap", "/usr/bin/newgidmap"]
        .iter()
        .all(|p| Path::new(p).is_file())
}

#[test]
fn with_a_subordinate_range_each_case_runs_as_one_and_the_users_own_files_are_closed() {
    if !is_root() || !mappers_here() {
        eprintln!("skipped: needs root (to make the user) and newuidmap (apt: uidmap)");
        return;
    }
    let Some(user) = user("beast-judge-test", true) else {
        return;
    };
    let (_place, judge, script) = place(&user);
    let (line, got) = run(&user, &judge, &script, "auto");
    assert!(
        line.contains("own subordinate uid per case from "),
        "the first line says it: {line}"
    );
    assert_eq!(
        got, "0\n",
        "the answer ran, and its owner-only neighbour stayed closed"
    );
    let (line, got) = run(&user, &judge, &script, "basic");
    assert!(line.contains("the judge's uid"), "{line}");
    assert!(got.contains(SECRET), "as the user the attack works: {got}");
}

#[test]
fn without_a_subordinate_range_the_answer_runs_as_the_user_and_the_first_line_says_why() {
    if !is_root() {
        eprintln!("skipped: needs root (to make the user)");
        return;
    }
    let Some(user) = user("beast-judge-nosub", false) else {
        return;
    };
    let (_place, judge, script) = place(&user);
    let (line, got) = run(&user, &judge, &script, "auto");
    assert!(line.starts_with("sandbox: jail: "), "{line}");
    assert!(
        line.contains("the judge's uid, never root (no subordinate uid: "),
        "{line}"
    );
    // Today's behaviour, a limit the README names: the answer runs as the user.
    assert!(got.contains(SECRET), "{got}");
}
