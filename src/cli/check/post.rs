//! `beast check --post`: the Code Golf answer post of an answer that passed. The words are
//! the engine's (`judge::post`); this file reads the code, names its language (from the
//! judge's own interpreter, asked its version, or the source's extension: nothing of the
//! answer's runs on the host) and counts what passed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use beast_engine::judge::post::{self, Encoding, Passed};
use beast_engine::judge::report::{CaseReport, Source, Summary};
use beast_engine::judge::{cases, pack};

use super::load;
use crate::cli::files;
use crate::cli::sandbox::untrusted::{self, AnswerCommand, HostProgram, Named};

/// The refusal of `--post` without a source file, before any case runs.
pub const NO_SOURCE: &str = "--post needs the answer's code: name it with --source FILE (no \
                             script was found in the command)";

/// How long the interpreter may take to print its version.
const VERSION_TIME: Duration = Duration::from_secs(5);

/// The post of the answer run by `command`, whose code is `source`, that passed every one
/// of `reports` (random ones from `seed`); `language` overrides the interpreter's. The
/// code is counted and shown as golfers count it (without its `#!` line, whose flags the
/// header names, and one final newline), or whole with `count_all`. The interpreter's
/// version query gives up once `interrupted` says so.
pub fn text(
    command: Option<&AnswerCommand>,
    source: Option<&Source>,
    reports: &[CaseReport],
    seed: Option<u64>,
    language: Option<&str>,
    (encoding, count_all): (Encoding, bool),
    interrupted: &dyn Fn() -> bool,
) -> anyhow::Result<String> {
    let source = source.context(NO_SOURCE)?;
    let path = Path::new(&source.file);
    let bytes = files::read::read_named(path, files::Limit::SOURCE)
        .with_context(|| format!("cannot read the source {}", path.display()))?;
    let (counted, left_out) = post::golfed(&bytes, count_all);
    let (code, count) = post::measure(counted, encoding)
        .with_context(|| format!("cannot post {}", path.display()))?;
    let language = match language {
        Some(l) => l.to_string(),
        None => interpreter_language(command, path, interrupted)?,
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

/// The language of the answer, found without running anything of the answer's: the
/// interpreter the command runs (its first word, or, when that is the script itself, what
/// its `#!` line names) when that is an interpreter the judge itself finds through its own
/// `PATH`, outside every place the command names, with the version it prints; otherwise
/// the language of the source file's extension (no version). The version query gives up
/// once `interrupted` says so.
fn interpreter_language(
    command: Option<&AnswerCommand>,
    script: &Path,
    interrupted: &dyn Fn() -> bool,
) -> anyhow::Result<String> {
    let command = command.map(AnswerCommand::made_absolute);
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let named = command
        .as_ref()
        .map(|c| Named::of(c, home.as_deref()))
        .unwrap_or_default();
    let path = std::env::var_os("PATH");
    let word = match command.as_ref().map(|c| Path::new(c.program())) {
        Some(p) if same_file(p, script) => shebang(script),
        Some(p) => Some(p.to_string_lossy().into_owned()),
        None => None,
    };
    let judges = word
        .as_deref()
        .and_then(|w| judges_interpreter(w, path.as_deref(), &named).map(|p| (w, p)));
    if let Some((word, program)) = judges
        && let Some(language) = post::language(word, &version_line(&program, interrupted))
    {
        return Ok(language);
    }
    let extension = script.extension().and_then(|e| e.to_str());
    extension
        .and_then(post::language_of_extension)
        .map(str::to_string)
        .with_context(|| {
            format!(
                "cannot tell the language of {}: its interpreter is not one the judge finds \
                 on its own PATH, and its extension names none; name it with --language",
                script.display()
            )
        })
}

/// The judge's own interpreter for `word` (a name, or a path the judge's `PATH` finds under
/// its file name): an interpreter, found through the judge's `PATH` outside every named
/// place. A compiled answer is never one.
fn judges_interpreter(word: &str, path: Option<&OsStr>, named: &Named) -> Option<HostProgram> {
    let given = Path::new(word);
    let name = given.file_name()?;
    if !load::is_interpreter(&name.to_string_lossy()) {
        return None;
    }
    let found = HostProgram::find(name, path, named)?;
    if !word.contains('/') {
        return Some(found);
    }
    let same = found.path().canonicalize().ok()? == given.canonicalize().ok()?;
    same.then_some(found)
}

/// True if `a` and `b` name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The interpreter a script's `#!` line names (`#!/usr/bin/env python3` and `#!/usr/bin/env
/// -S python3 -u` give `python3`), as the engine reads the line, read without blocking from
/// the first bytes of the file.
fn shebang(script: &Path) -> Option<String> {
    let head = untrusted::read_head(script, 256).ok()?;
    post::shebang(&head).map(|line| line.program)
}

/// The first line the judge's interpreter prints for `--version` (on stdout, or stderr if
/// not), or an empty line when it cannot start, takes too long or `interrupted` says so.
fn version_line(program: &HostProgram, interrupted: &dyn Fn() -> bool) -> String {
    let Some(ran) = program.run(&[OsStr::new("--version")], &[], VERSION_TIME, interrupted) else {
        return String::new();
    };
    let text = if ran.stdout.trim().is_empty() {
        ran.stderr
    } else {
        ran.stdout
    };
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .trim()
        .to_string()
}
