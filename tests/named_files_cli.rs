//! Nothing named is trusted: what lies in a directory the command line names is a
//! stranger's (in CI it comes with the pull request). Each attack runs the real binary and
//! checks the harm from outside: a unique token planted in the judge's environment and in
//! a file beside the directory never reaches the output; a file outside a pack's
//! directory is neither created nor changed; a FIFO does not hold the judge (a generous
//! ceiling); a big sparse case is refused by its size, within a small memory limit.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::BEAST;

/// The one case every directory here holds; its answer is `2`.
const PUZZLE: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n";

/// The token planted in the judge's environment.
const ENV_TOKEN: &str = "ENV-TOKEN-the-judges-own-environment-7f3a";

/// The token planted in a file beside the case directory.
const FILE_TOKEN: &str = "FILE-TOKEN-a-key-beside-the-directory-9c1e";

/// The longest any run here may take.
const CEILING: Duration = Duration::from_secs(60);

/// A directory holding `cases/` (with `ok.in` and `ok.out`), `secret` (the file token)
/// and `outside/`, a directory no pack may write into.
struct Place(tempfile::TempDir);

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().expect("temp dir");
        let place = Place(dir);
        std::fs::create_dir_all(place.at("cases")).expect("mkdir");
        std::fs::create_dir_all(place.at("outside")).expect("mkdir");
        std::fs::write(place.at("cases/ok.in"), PUZZLE).expect("write");
        std::fs::write(place.at("cases/ok.out"), "2\n").expect("write");
        std::fs::write(place.at("secret"), format!("{FILE_TOKEN}\n")).expect("write");
        std::fs::write(place.at("outside/victim"), "precious\n").expect("write");
        place
    }

    fn at(&self, rest: &str) -> PathBuf {
        self.0.path().join(rest)
    }

    /// A case `name` whose puzzle is the usual one.
    fn case(&self, name: &str) {
        std::fs::write(self.at(&format!("cases/{name}.in")), PUZZLE).expect("write");
    }

    /// `beast ARGS` run in the place, with the env token in its environment, killed at
    /// the ceiling: its output, and whether it ended by itself.
    fn beast(&self, args: &[&str]) -> (Output, bool) {
        let mut child = Command::new(BEAST)
            .args(args)
            .current_dir(self.0.path())
            .env("BEAST_TEST_TOKEN", ENV_TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("beast starts");
        let started = Instant::now();
        let mut ended = true;
        while child.try_wait().expect("wait").is_none() {
            if started.elapsed() > CEILING {
                let _ = child.kill();
                ended = false;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        (child.wait_with_output().expect("output"), ended)
    }

    /// `beast check --no-builtin --sandbox none --cases cases EXTRA -- sh -c 'echo 2'`.
    fn check(&self, extra: &[&str]) -> (Output, bool) {
        let mut args = vec![
            "check",
            "--no-builtin",
            "--sandbox",
            "none",
            "--cases",
            "cases",
        ];
        args.extend(extra);
        args.extend(["--", "sh", "-c", "echo 2"]);
        self.beast(&args)
    }

    /// Every file under `outside/`, with what it holds.
    fn outside(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut found = BTreeMap::new();
        let mut todo = vec![self.at("outside")];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).expect("read").flatten() {
                if e.file_type().expect("type").is_dir() {
                    todo.push(e.path());
                } else {
                    found.insert(e.path(), std::fs::read(e.path()).unwrap_or_default());
                }
            }
        }
        found
    }
}

/// Everything a run printed.
fn printed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Asserts no byte of either token reached the output, and returns the output.
fn no_token(out: &Output) -> String {
    let text = printed(out);
    // Even a part of a token would be a leak: its first 12 bytes are unique enough.
    for token in [ENV_TOKEN, FILE_TOKEN] {
        assert!(!text.contains(&token[..12]), "{token} printed:\n{text}");
    }
    text
}

#[test]
fn an_expected_output_linked_to_the_judges_environment_or_a_key_is_never_printed() {
    for (name, target) in [
        ("x", PathBuf::from("/proc/self/environ")),
        ("y", PathBuf::new()),
    ] {
        let place = Place::new();
        let target = match name {
            "y" => place.at("secret"),
            _ => target,
        };
        place.case(name);
        symlink(&target, place.at(&format!("cases/{name}.out"))).expect("symlink");
        for extra in [
            &[][..],
            &["-v"],
            &["--format", "json"],
            &["--format", "markdown"],
        ] {
            let (out, ended) = place.check(extra);
            assert!(ended);
            let text = no_token(&out);
            assert_eq!(out.status.code(), Some(2), "{text}");
            assert!(
                text.contains(&format!("cases/{name}.out leads outside cases")),
                "{text}"
            );
        }
        let (out, _) = place.beast(&["audit", "--cases", "cases"]);
        let text = no_token(&out);
        assert_eq!(out.status.code(), Some(2), "{text}");
    }
}

#[test]
fn a_flags_file_linked_to_a_secret_is_never_quoted() {
    let place = Place::new();
    place.case("flags");
    std::fs::write(place.at("cases/flags.out"), "2\n").expect("write");
    symlink(place.at("secret"), place.at("cases/flags.args")).expect("symlink");
    let (out, _) = place.check(&[]);
    let text = no_token(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("cases/flags.args leads outside cases"),
        "{text}"
    );
    // The same secret copied in as a flags file is quoted, bounded: a few dozen bytes.
    std::fs::remove_file(place.at("cases/flags.args")).expect("rm");
    let long = format!("--{}", "A".repeat(50_000));
    std::fs::write(place.at("cases/flags.args"), &long).expect("write");
    let (out, _) = place.check(&[]);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("is not a rule flag"), "{text}");
    assert!(text.len() < 400, "{} bytes: {text}", text.len());
}

#[test]
fn a_link_within_the_case_directory_is_followed() {
    let place = Place::new();
    std::fs::create_dir_all(place.at("cases/real")).expect("mkdir");
    std::fs::write(place.at("cases/real/x.in"), PUZZLE).expect("write");
    symlink("real/x.in", place.at("cases/x.in")).expect("symlink");
    symlink("ok.out", place.at("cases/x.out")).expect("symlink");
    let (out, _) = place.check(&[]);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("2 passed"), "{text}");
}

#[test]
fn a_fifo_or_a_dangling_link_in_a_case_directory_is_skipped_with_a_note_never_waited_for() {
    let place = Place::new();
    let fifo = |name: &str| {
        nix::unistd::mkfifo(
            &place.at(name),
            nix::sys::stat::Mode::from_bits_truncate(0o644),
        )
        .expect("mkfifo");
    };
    fifo("cases/f.in");
    place.case("g");
    fifo("cases/g.out");
    place.case("h");
    fifo("cases/h.args");
    symlink("nowhere", place.at("cases/d.in")).expect("symlink");
    let (out, ended) = place.check(&[]);
    let text = printed(&out);
    assert!(ended, "the judge waited on a FIFO: {text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    for (case, file) in [("f", "f.in"), ("g", "g.out"), ("h", "h.args")] {
        assert!(
            text.contains(&format!(
                "note: skipped {case}: cases/{file} is not a regular file (a FIFO)"
            )),
            "{text}"
        );
    }
    assert!(
        text.contains("cases/d.in is not a regular file (a dangling link)"),
        "{text}"
    );
    assert!(text.contains("1 passed"), "{text}");
}

#[test]
fn a_big_sparse_case_is_refused_by_its_size_with_the_cap_stated_in_little_memory() {
    let place = Place::new();
    std::fs::File::create(place.at("cases/big.in"))
        .and_then(|f| f.set_len(400 << 20))
        .expect("sparse");
    // Under an address-space limit of 200 MiB, reading the case would fail on memory
    // (`beast FILE`, which reads what the user names whole, shows the limit bites).
    let limited = |what: &str| {
        let script = format!("ulimit -v 204800; exec \"$0\" {what}");
        Command::new("sh")
            .args(["-c", &script, BEAST])
            .current_dir(place.0.path())
            .output()
            .expect("sh runs")
    };
    let out = limited("check --no-builtin --sandbox none --cases cases -- sh -c 'echo 2'");
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("cases/big.in is 400 MiB; a case file may be at most 64 MiB"),
        "{text}"
    );
    assert!(text.len() < 400, "{} bytes: {text}", text.len());
    std::fs::write(place.at("big"), vec![b'7'; 300 << 20]).expect("write");
    let control = limited("big");
    assert_ne!(control.status.code(), Some(0), "{}", printed(&control));
}

#[test]
fn answers_files_shards_and_sources_linked_out_of_their_directory_are_never_read() {
    let place = Place::new();
    std::fs::create_dir_all(place.at("work")).expect("mkdir");
    symlink(place.at("secret"), place.at("work/answers.toml")).expect("symlink");
    symlink("/proc/self/environ", place.at("work/shard.jsonl")).expect("symlink");
    symlink(place.at("secret"), place.at("work/golf.sh")).expect("symlink");
    let runs: [&[&str]; 3] = [
        &["check", "--answers", "work/answers.toml"],
        &["check", "--merge", "work/shard.jsonl"],
        &[
            "check",
            "--no-builtin",
            "--sandbox",
            "none",
            "--cases",
            "cases",
            "--post",
            "--source",
            "work/golf.sh",
            "--",
            "sh",
            "-c",
            "echo 2",
        ],
    ];
    for args in runs {
        let (out, _) = place.beast(args);
        let text = no_token(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains("leads outside work"), "{args:?}: {text}");
    }
}

/// `beast cases --out pack ARGS` in `place`.
fn pack(place: &Place, out: &str, args: &[&str]) -> (Output, String) {
    let mut all = vec!["cases", "--out", out];
    all.extend(args);
    let (output, _) = place.beast(&all);
    let text = printed(&output);
    (output, text)
}

#[test]
fn a_dangling_case_link_in_a_pack_directory_creates_nothing_outside() {
    let place = Place::new();
    let before = place.outside();
    std::fs::create_dir_all(place.at("pack")).expect("mkdir");
    symlink(place.at("outside/planted"), place.at("pack/wikipedia.in")).expect("symlink");
    let (out, text) = pack(&place, "pack", &[]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("pack/wikipedia.in exists already"), "{text}");
    let (out, text) = pack(&place, "pack", &["--force"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(place.outside(), before);
    let written = place
        .at("pack/wikipedia.in")
        .symlink_metadata()
        .expect("there");
    assert!(written.is_file(), "the link was replaced by the case file");
}

#[test]
fn an_existing_expected_output_link_is_replaced_under_force_never_written_through() {
    let place = Place::new();
    assert_eq!(pack(&place, "pack", &[]).0.status.code(), Some(0));
    let before = place.outside();
    std::fs::remove_file(place.at("pack/wikipedia.out")).expect("rm");
    symlink(place.at("outside/victim"), place.at("pack/wikipedia.out")).expect("symlink");
    let (out, text) = pack(&place, "pack", &["--force"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(place.outside(), before);
    let written = std::fs::read_to_string(place.at("pack/wikipedia.out")).expect("read");
    assert!(
        written.starts_with("aHHHH!") || written.trim().parse::<u64>().is_ok(),
        "{written}"
    );
}

#[test]
fn a_robustness_or_kattis_secret_directory_that_is_a_link_is_refused() {
    let place = Place::new();
    let before = place.outside();
    for (dir, sub, args) in [
        (
            "pack",
            "robustness",
            &["--random", "3", "--seed", "1", "--robustness"][..],
        ),
        (
            "kattis",
            "data/secret",
            &["--random", "3", "--seed", "1", "--format", "kattis"],
        ),
    ] {
        let link = place.at(&format!("{dir}/{sub}"));
        std::fs::create_dir_all(link.parent().expect("a parent")).expect("mkdir");
        symlink(place.at("outside"), &link).expect("symlink");
        for force in [&[][..], &["--force"]] {
            let mut all = args.to_vec();
            all.extend(force);
            let (out, text) = pack(&place, dir, &all);
            assert_eq!(out.status.code(), Some(2), "{text}");
            assert!(text.contains(&format!("{dir}/{sub} is a link")), "{text}");
            assert_eq!(place.outside(), before, "{dir}/{sub} {force:?}");
        }
    }
}

#[test]
fn a_manifest_that_is_a_link_is_neither_read_nor_written_through() {
    let place = Place::new();
    let before = place.outside();
    std::fs::create_dir_all(place.at("pack")).expect("mkdir");
    symlink(
        place.at("outside/victim"),
        place.at("pack/.beast-cases-files"),
    )
    .expect("symlink");
    let (out, text) = pack(&place, "pack", &[]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("holds a pack already"), "{text}");
    let (out, text) = pack(&place, "pack", &["--force"]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("pack/.beast-cases-files leads outside pack"),
        "{text}"
    );
    assert_eq!(place.outside(), before);
    // A manifest link within the pack is read, and replaced by the new manifest.
    std::fs::remove_file(place.at("pack/.beast-cases-files")).expect("rm");
    std::fs::write(place.at("pack/old-list"), "# beast cases\nold.in\n").expect("write");
    std::fs::write(place.at("pack/old.in"), PUZZLE).expect("write");
    symlink("old-list", place.at("pack/.beast-cases-files")).expect("symlink");
    let (out, text) = pack(&place, "pack", &["--force"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let manifest = place
        .at("pack/.beast-cases-files")
        .symlink_metadata()
        .expect("there");
    assert!(manifest.is_file(), "the manifest link was replaced");
    assert!(
        !place.at("pack/old.in").exists(),
        "the old pack's case was removed"
    );
    assert_eq!(place.outside(), before);
}

#[test]
fn a_named_file_that_is_a_path_of_the_users_is_read_as_named() {
    // The path to the directory is the user's: a link on the way to it is followed.
    let place = Place::new();
    symlink(place.at("cases"), place.at("via")).expect("symlink");
    let (out, _) = place.beast(&[
        "check",
        "--no-builtin",
        "--sandbox",
        "none",
        "--cases",
        "via",
        "--",
        "sh",
        "-c",
        "echo 2",
    ]);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 passed"), "{text}");
    assert!(Path::new(&place.at("via/ok.in")).exists());
}
