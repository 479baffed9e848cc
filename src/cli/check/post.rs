//! `beast check --post`: the Code Golf answer post of an answer that passed. The words are
//! the engine's (`judge::post`); this file reads the code, asks the interpreter its version
//! and counts what passed.

use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use beast_engine::judge::post::{self, Encoding, Passed};
use beast_engine::judge::report::{CaseReport, Source, Summary};
use beast_engine::judge::{cases, pack};

/// The refusal of `--post` without a source file, before any case runs.
pub const NO_SOURCE: &str = "--post needs the answer's code: name it with --source FILE (no \
                             script was found in the command)";

/// How long the interpreter may take to print its version.
const VERSION_TIME: Duration = Duration::from_secs(5);

/// The post of the answer run by `command`, whose code is `source`, that passed every one
/// of `reports` (random ones from `seed`); `language` overrides the interpreter's. The
/// code is counted and shown as golfers count it (without its `#!` line, whose flags the
/// header names, and one final newline), or whole with `count_all`.
pub fn text(
    command: &[OsString],
    source: Option<&Source>,
    reports: &[CaseReport],
    seed: Option<u64>,
    language: Option<&str>,
    (encoding, count_all): (Encoding, bool),
) -> anyhow::Result<String> {
    let source = source.context(NO_SOURCE)?;
    let path = Path::new(&source.file);
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read the source {}", path.display()))?;
    let (counted, left_out) = post::golfed(&bytes, count_all);
    let (code, count) = post::measure(counted, encoding)
        .with_context(|| format!("cannot post {}", path.display()))?;
    let language = match language {
        Some(l) => l.to_string(),
        None => interpreter_language(command, path)?,
    };
    let flags = match left_out.shebang {
        true => post::shebang(&bytes).map(|s| s.flags).unwrap_or_default(),
        false => Vec::new(),
    };
    Ok(post::post(
        &post::with_flags(&language, &flags),
        count,
        &code,
        &passed(reports, seed),
        env!("CARGO_PKG_VERSION"),
    ))
}

/// Why there is no post of an answer judged as `summary` says: a failed case, or a case
/// the judge could not set up (IE).
pub fn refusal(summary: &Summary) -> String {
    match summary.failed {
        0 => post::no_post_not_judged(summary.internal),
        failed => post::no_post(failed, summary.passed + failed),
    }
}

/// What passed, by kind: samples, rule examples, `--cases` files and random puzzles.
fn passed(reports: &[CaseReport], seed: Option<u64>) -> Passed {
    let builtin: Vec<String> = cases::builtin().cases.into_iter().map(|c| c.name).collect();
    let mut p = Passed::default();
    let mut random = 0;
    for r in reports {
        if r.seed.is_some() {
            random += 1;
        } else if pack::is_sample(&r.name) {
            p.samples += 1;
        } else if builtin.contains(&r.name) {
            p.examples += 1;
        } else {
            p.files += 1;
        }
    }
    p.random = seed.map(|s| (random, s));
    p
}

/// The language of the interpreter the command runs: its first word, or, when that is the
/// script itself, the program its `#!` line names; with the version the interpreter prints.
fn interpreter_language(command: &[OsString], script: &Path) -> anyhow::Result<String> {
    let first = command.first().map(Path::new);
    let program = match first {
        Some(p) if same_file(p, script) => shebang(script)?,
        Some(p) => p.to_string_lossy().into_owned(),
        None => String::new(),
    };
    let version = version_line(&program);
    post::language(&program, &version).with_context(|| {
        format!(
            "cannot tell the language of {}: name it with --language",
            script.display()
        )
    })
}

/// True if `a` and `b` name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The interpreter of a script's `#!` line (`#!/usr/bin/env python3` and `#!/usr/bin/env
/// -S python3 -u` give `python3`), as the engine reads the line.
fn shebang(script: &Path) -> anyhow::Result<String> {
    let text = std::fs::read(script)
        .with_context(|| format!("cannot read the source {}", script.display()))?;
    match post::shebang(&text) {
        Some(line) => Ok(line.program),
        None => anyhow::bail!(
            "{} has no #! line to tell its language: name it with --language",
            script.display()
        ),
    }
}

/// The first line `program --version` prints (on stdout, or stderr if not), or an empty
/// line when it cannot start or takes too long.
fn version_line(program: &str) -> String {
    let Ok(mut child) = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        return String::new();
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < VERSION_TIME => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return String::new();
            }
        }
    }
    let read = |pipe: Option<&mut dyn Read>| {
        let mut s = String::new();
        if let Some(p) = pipe {
            let _ = p.take(4096).read_to_string(&mut s);
        }
        s
    };
    let out = read(child.stdout.as_mut().map(|p| p as &mut dyn Read));
    let err = read(child.stderr.as_mut().map(|p| p as &mut dyn Read));
    let text = if out.trim().is_empty() { err } else { out };
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .trim()
        .to_string()
}
