//! Reports go where the user said: every file `--report-dir`, `--html-dir` and `--junit`
//! write lies inside its directory (or is the `--junit` file itself), named after the
//! answer made a file name, whatever the command was: an absolute path, `..`, control
//! characters, a name longer than a file system allows. Each test walks the tree around
//! the answer before and after the run, so a file written anywhere else is seen. The jail
//! has nothing to do with where reports go: the runs use `--sandbox none`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::util::{BEAST, beast};

/// Every file and directory under `dir`, symlinks not followed.
fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(path.clone());
            }
            found.insert(path);
        }
    }
    found
}

/// A fresh directory holding `answer/golf`, a script that prints 0 (right on the two
/// cases [`check_in`] runs), and an empty `work/`.
fn place() -> tempfile::TempDir {
    let t = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    std::fs::create_dir(t.path().join("answer")).expect("answer dir");
    std::fs::create_dir(t.path().join("work")).expect("work dir");
    let golf = t.path().join("answer/golf");
    crate::util::write_executable(&golf, b"#!/bin/sh\necho 0\n");
    t
}

/// Runs `beast check --sandbox none` on a few cases, in `place/work`, with every report
/// file asked for under `place/out`; returns its exit status and the files it added
/// under `place` (`out` is made by the judge).
fn check_in(place: &Path, command: &[OsString]) -> (Option<i32>, BTreeSet<PathBuf>) {
    let before = tree(place);
    let out = place.join("out");
    let status = beast()
        .current_dir(place.join("work"))
        .args(["check", "--sandbox", "none", "--shrink", "none"])
        .args(["--only", "no-beasts", "--only", "beast-behind-beast"])
        .arg("--report-dir")
        .arg(out.join("reports"))
        .arg("--html-dir")
        .arg(out.join("html"))
        .arg("--junit")
        .arg(out.join("junit.xml"))
        .arg("--")
        .args(command)
        .output()
        .expect("beast runs")
        .status
        .code();
    let added = tree(place).difference(&before).cloned().collect();
    (status, added)
}

/// The files a run should add: the report directory's two files named `stem`, the JUnit
/// file, and the directories that hold them (the `--html-dir` pages only where a
/// reading explains a group, which no case here does).
fn expected(place: &Path, stem: &str) -> BTreeSet<PathBuf> {
    let out = place.join("out");
    [
        out.clone(),
        out.join("reports"),
        out.join("reports").join(format!("{stem}.txt")),
        out.join("reports").join(format!("{stem}.json")),
        out.join("junit.xml"),
    ]
    .into_iter()
    .chain(out.join("html").exists().then(|| out.join("html")))
    .collect()
}

/// The name the text report in `place/out/reports` was given, without `.txt`.
fn report_stem(place: &Path, added: &BTreeSet<PathBuf>) -> String {
    let reports = place.join("out/reports");
    added
        .iter()
        .filter(|p| p.parent() == Some(&reports))
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| panic!("no text report in {}: {added:?}", reports.display()))
}

/// `path` as the start of a report's name: separators made '_', the leading one dropped.
fn flattened(path: &str) -> String {
    path.trim_start_matches('/').replace(['/', ' '], "_")
}

#[test]
fn an_absolute_command_has_its_report_in_the_report_dir_not_beside_the_answer() {
    let t = place();
    let golf = t.path().join("answer/golf");
    let (status, added) = check_in(t.path(), &[golf.clone().into()]);
    assert_eq!(status, Some(0), "the answer passes both cases: {added:?}");
    let stem = report_stem(t.path(), &added);
    let whole = flattened(&golf.to_string_lossy());
    assert!(
        whole.starts_with(&stem) && stem.len() >= whole.len().min(100),
        "{stem}"
    );
    assert_eq!(added, expected(t.path(), &stem));
    assert!(
        !t.path().join("answer/golf.txt").exists(),
        "nothing beside the answer"
    );
}

#[test]
fn an_interpreter_named_by_its_absolute_path_gets_no_file_in_its_directory() {
    let t = place();
    let script = t.path().join("answer/x.py");
    std::fs::write(&script, "print(0)\n").expect("the script");
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).is_file());
    let Some(python) = python else {
        eprintln!("skipped: no python3 in /usr/bin or /usr/local/bin");
        return;
    };
    let bin = Path::new(python).parent().expect("a directory");
    let bin_before = tree(bin);
    let (status, added) = check_in(t.path(), &[python.into(), script.clone().into()]);
    assert_eq!(
        status,
        Some(0),
        "the answer passes, the report is no usage error"
    );
    let stem = report_stem(t.path(), &added);
    assert!(stem.starts_with(&flattened(python)), "{stem}");
    assert_eq!(added, expected(t.path(), &stem));
    assert_eq!(
        tree(bin),
        bin_before,
        "no file appeared in {}",
        bin.display()
    );
}

#[test]
fn a_command_that_climbs_with_dot_dot_stays_in_the_report_dir() {
    let t = place();
    // Run from `work`, `../answer/golf` is the script; joined to `out/reports` as it is,
    // its report would land in `out/answer/`.
    let (status, added) = check_in(t.path(), &["../answer/golf".into()]);
    assert_eq!(status, Some(0));
    assert_eq!(added, expected(t.path(), "answer_golf"));
}

#[test]
fn control_characters_and_a_name_too_long_for_a_file_make_a_short_plain_name() {
    let t = place();
    // `sh -c 'echo 0' NAME...`: the arguments after the script are the shell's own, so
    // they shape the answer's name only.
    let long = "a".repeat(400);
    let command: Vec<OsString> = ["sh", "-c", "echo 0", "x\n\x01\x1b[2J/..", &long]
        .into_iter()
        .map(OsString::from)
        .collect();
    let (status, added) = check_in(t.path(), &command);
    assert_eq!(status, Some(0), "written, not refused by the file system");
    let reports: Vec<&PathBuf> = added
        .iter()
        .filter(|p| p.parent() == Some(&t.path().join("out/reports")))
        .collect();
    assert_eq!(reports.len(), 2, "{added:?}");
    for r in reports {
        let name = r
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("sh_-c_echo_0_x____2J_.."), "{name}");
        assert!(name.len() <= 100 + ".json".len(), "{name}");
        assert!(!name.chars().any(char::is_control), "{name:?}");
    }
    let stem = report_stem(t.path(), &added);
    assert_eq!(added, expected(t.path(), &stem));
}

#[test]
fn compare_pages_of_an_absolute_command_stay_in_the_html_dir() {
    let t = place();
    // `beast --target after` by its absolute path: a reading explains its failures, so
    // the compare pages are written too.
    let (status, added) = check_in(t.path(), &[BEAST.into(), "--target".into(), "after".into()]);
    assert!(matches!(status, Some(0 | 1)), "{status:?}");
    let out = t.path().join("out");
    for path in &added {
        assert!(
            path.starts_with(&out),
            "{} is outside {}",
            path.display(),
            out.display()
        );
    }
    let beside = PathBuf::from(format!("{BEAST} --target after.txt"));
    assert!(!beside.exists(), "{} was written", beside.display());
}

#[test]
fn a_symbolic_link_planted_at_a_report_file_is_replaced_never_written_through() {
    let t = place();
    let golf = t.path().join("answer/golf");
    let (status, added) = check_in(t.path(), &[golf.clone().into()]);
    assert_eq!(status, Some(0), "the first run passes: {added:?}");
    let stem = report_stem(t.path(), &added);
    // Someone else with write access to the report directory plants links to a file of
    // the user's, hoping the next run writes the report into it.
    let victim = t.path().join("victim");
    std::fs::write(&victim, "the user's own file\n").expect("the victim");
    let out = t.path().join("out");
    let planted = [
        out.join("reports").join(format!("{stem}.txt")),
        out.join("reports").join(format!("{stem}.json")),
        out.join("junit.xml"),
    ];
    for link in &planted {
        std::fs::remove_file(link).expect("the first run's file");
        std::os::unix::fs::symlink(&victim, link).expect("plant a link");
    }
    let (status, _) = check_in(t.path(), &[golf.into()]);
    assert_eq!(status, Some(0));
    assert_eq!(
        std::fs::read_to_string(&victim).expect("the victim"),
        "the user's own file\n",
        "a report was written through a planted link"
    );
    for file in &planted {
        let meta = std::fs::symlink_metadata(file).expect("the report file");
        assert!(meta.is_file(), "{} is a plain file again", file.display());
        assert!(meta.len() > 0, "{} holds the report", file.display());
    }
}
