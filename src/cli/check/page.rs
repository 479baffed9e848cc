//! `beast check --page FILE...`: a challenge's saved answer pages judged end to end. The
//! engine reads the pages (`judge::page`); here the files are read, each answer's language
//! is looked up and its program checked (`CMD --version`), the code is written to a
//! private directory, compiled answers are built inside the jail (the build's own run of
//! the jail's command path, its program on stdout), and the answers run as `--answers`
//! runs them. `--list` shows what would run; `--extract DIR` writes the code and an
//! answers file.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use beast_engine::judge::leaderboard;
use beast_engine::judge::page::board::{self, Entry, Outcome};
use beast_engine::judge::page::languages::{self, Language};
use beast_engine::judge::page::{self, Extracted};
use beast_engine::judge::report::visible;

use super::answers::{self, Answer};
use super::event::Judged;
use super::plan::{Containment, PageAnswers, Plan, Work};
use super::runner::{Exit, InputMode, Runner};
use crate::cli::error::{self, Ended};
use crate::cli::sandbox::case::Workspace;
use crate::cli::sandbox::untrusted::{AnswerCommand, HostProgram, Named};
use crate::cli::sandbox::{Host, Request, Sandbox};

/// The most bytes of one saved page read.
const PAGE_LIMIT: u64 = 64 << 20;

/// The most bytes a build may write as its program.
const PROGRAM_LIMIT: usize = 64 << 20;

/// How long a build may take.
const BUILD_TIME: Duration = Duration::from_secs(120);

/// How long `CMD --version` may take.
const VERSION_TIME: Duration = Duration::from_secs(10);

/// The `--page` entries with the judged answers' outcomes, ranked.
pub fn ranked(page: &PageAnswers, judged: &[Judged]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = page
        .entries
        .iter()
        .map(|(entry, runs)| {
            let mut entry = entry.clone();
            if *runs && let Some(j) = judged.iter().find(|j| j.name == entry.name) {
                entry.outcome = outcome(j);
            }
            entry
        })
        .collect();
    board::rank(&mut entries);
    entries
}

/// A judged answer's outcome.
fn outcome(j: &Judged) -> Outcome {
    match &j.outcome {
        Ok(c) => {
            let mut verdicts: Vec<(String, usize)> = Vec::new();
            for r in &c.reports {
                let code = r.verdict.code().to_string();
                match verdicts.iter_mut().find(|(v, _)| *v == code) {
                    Some((_, n)) => *n += 1,
                    None => verdicts.push((code, 1)),
                }
            }
            Outcome::Judged {
                correct: c.summary.failed == 0 && c.summary.internal == 0,
                passed: c.summary.passed,
                total: c.summary.passed + c.summary.failed,
                verdicts,
                diagnosis: leaderboard::short_diagnosis(&c.diagnosis),
            }
        }
        Err(reason) => Outcome::CannotRun {
            reason: format!("cannot start: {reason}"),
        },
    }
}

/// What `--page` asks besides the run's flags.
pub struct PageArgs {
    /// The saved pages.
    pub files: Vec<PathBuf>,
    /// `--extract DIR`.
    pub extract: Option<PathBuf>,
    /// `--languages FILE`.
    pub languages: Option<PathBuf>,
    /// `--list`.
    pub list: bool,
}

/// One answer, planned: what was read, its language, and why it cannot run if it cannot.
struct Planned<'a> {
    read: Extracted,
    language: Option<&'a Language>,
    cannot: Option<String>,
    entry: Entry,
}

/// The plan of `beast check --page`: the pages read, the answers' code written and built,
/// and the run's answers set; `None` when `--list` or `--extract` did all there was to do.
pub fn plan(args: super::Args) -> Result<Option<Plan>, crate::cli::Error> {
    let page_args = PageArgs {
        files: args.page.clone(),
        extract: args.extract.clone(),
        languages: args.languages.clone(),
        list: args.list,
    };
    let mut plan = Plan::new(args)?;
    let extraction = read_pages(&page_args.files)?;
    if extraction.pages_missing {
        eprintln!(
            "note: the last page says has_more: true: pages are missing (save the next one \
             with &page=N and give it too)"
        );
    }
    let known = all_languages(page_args.languages.as_deref())?;
    let mut versions = Versions::default();
    versions.check_all(extraction.answers.iter().filter_map(|x| {
        let link = x.code.as_ref().and_then(|c| c.link_language.as_deref());
        languages::find(&known, &x.header.language, link)
    }));
    let planned: Vec<Planned> = extraction
        .answers
        .into_iter()
        .map(|x| plan_one(x, &known, &mut versions))
        .collect();
    if page_args.list {
        print!("{}", list(&planned));
        return Ok(None);
    }
    if let Some(dir) = &page_args.extract {
        write_extracted(dir, &planned)?;
        return Ok(None);
    }
    let Work::Run(run) = &mut plan.work else {
        return Err(error::usage(
            "--page runs answers: it does not go with --merge",
        ));
    };
    let (answers, page_run) = prepare(&planned, &run.containment)?;
    run.answers = answers;
    if run.answers.is_empty() {
        print!("{}", board::text(&ranked(&page_run, &[])));
        return Err(crate::cli::Error::Failed);
    }
    run.page = Some(page_run);
    Ok(Some(plan))
}

/// The pages read and their answers extracted; a bad page is a usage error saying where.
fn read_pages(files: &[PathBuf]) -> Result<page::Extraction, crate::cli::Error> {
    let mut texts = Vec::new();
    for path in files {
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(PAGE_LIMIT).read_to_string(&mut text))
            .with_context(|| format!("cannot read the page {}", path.display()))?;
        texts.push((path.display().to_string(), text));
    }
    page::extract(&texts).map_err(error::usage)
}

/// The user's languages (`--languages FILE`) before the built-in ones.
pub fn all_languages(file: Option<&Path>) -> Result<Vec<Language>, crate::cli::Error> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        language: Vec<Language>,
    }
    let mut all = Vec::new();
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the languages file {}", path.display()))?;
        let f: File = toml::from_str(&text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            let line = text[..at.min(text.len())].matches('\n').count() + 1;
            error::usage(format!("{}:{line}: {}", path.display(), e.message()))
        })?;
        all.extend(f.language);
    }
    all.extend(languages::builtin());
    Ok(all)
}

/// The programs checked so far: each one's version line, or why it cannot run.
#[derive(Default)]
pub struct Versions(HashMap<(String, Vec<String>), Result<String, String>>);

impl Versions {
    /// The programs of `languages` checked at once, each on a thread of its own (a
    /// version takes a shim tens of milliseconds).
    pub fn check_all<'a>(&mut self, languages: impl Iterator<Item = &'a Language>) {
        let mut wanted: Vec<(String, Vec<String>)> = languages
            .map(|l| (l.program.clone(), l.version.clone()))
            .filter(|k| !self.0.contains_key(k))
            .collect();
        wanted.sort();
        wanted.dedup();
        let found: Vec<_> = std::thread::scope(|scope| {
            let running: Vec<_> = wanted
                .iter()
                .map(|(p, a)| scope.spawn(move || probe(p, a)))
                .collect();
            running
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("the check failed".into())))
                .collect()
        });
        self.0.extend(wanted.into_iter().zip(found));
    }

    /// `program` checked by running it with `args` (once).
    pub fn of(&mut self, program: &str, args: &[String]) -> Result<String, String> {
        self.0
            .entry((program.to_string(), args.to_vec()))
            .or_insert_with(|| probe(program, args))
            .clone()
    }
}

/// Runs `program args` (its version) within [`VERSION_TIME`], as the judge runs any
/// program of its own (`HostProgram`: found on its own `PATH`, output bounded, killed at
/// the deadline): its first line, or why it does not run (`ruby not found`, `python2
/// fails: python2 --version does not succeed`).
fn probe(program: &str, args: &[String]) -> Result<String, String> {
    let path = std::env::var_os("PATH");
    // No answer's command: no place is the answer's.
    let named = Named::default();
    let found = HostProgram::find(OsStr::new(program), path.as_deref(), &named)
        .ok_or_else(|| format!("{program} not found"))?;
    let shown = format!("{program} {}", args.join(" "));
    let words: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let ran = found
        .run(&words, &[], VERSION_TIME, &|| false)
        .ok_or_else(|| format!("{program} fails: `{shown}` does not start or finish"))?;
    if !ran.success {
        return Err(format!("{program} fails: `{shown}` does not succeed"));
    }
    let out = format!("{}\n{}", ran.stdout, ran.stderr);
    Ok(out
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .trim()
        .to_string())
}

/// An answer's name in the run: its id and its language, made a file name.
fn name_of(x: &Extracted) -> String {
    let language: String = x.header.language.to_lowercase().chars().take(30).collect();
    answers::file_name(&format!("{}-{language}", x.answer_id))
}

/// One answer planned: its language found and checked, its size counted, its entry made.
fn plan_one<'a>(read: Extracted, known: &'a [Language], versions: &mut Versions) -> Planned<'a> {
    let link_language = read.code.as_ref().and_then(|c| c.link_language.as_deref());
    let language = languages::find(known, &read.header.language, link_language);
    let shown_language = match (&read.header.language, link_language) {
        (l, Some(id)) if l.is_empty() => id.to_string(),
        (l, _) => l.clone(),
    };
    let cannot = match (&read.code, language) {
        (None, _) => Some(format!("no code: {}", read.notes.join("; "))),
        (Some(_), None) => Some(format!("{shown_language}: no interpreter known")),
        (Some(_), Some(l)) => versions.of(&l.program, &l.version).err(),
    };
    let single = language.map_or_else(
        || languages::single_byte(&shown_language),
        |l| l.single_byte,
    );
    let counted = read
        .code
        .as_ref()
        .map(|c| page::count(&c.text, read.header.unit, single, read.flag_bytes));
    let entry = Entry {
        answer_id: read.answer_id,
        name: name_of(&read),
        author: read.author.clone(),
        language: shown_language,
        date: read.date,
        claimed: read.header.claimed,
        unit: read.header.unit,
        counted: counted.map(|c| c.0),
        counting: counted.map(|c| c.1),
        source: read.code.as_ref().map(|c| c.source.words()),
        flags: read.flags.clone(),
        audit: counted.and_then(|(n, _)| page::audit(read.header.claimed, n)),
        header_note: read.header.unreadable.clone(),
        outcome: Outcome::CannotRun {
            reason: cannot.clone().unwrap_or_default(),
        },
    };
    Planned {
        read,
        language,
        cannot,
        entry,
    }
}

/// The code file's name for an answer of `language`.
fn file_name(language: &Language, code: &str) -> String {
    language.file.replace("{main}", &languages::java_main(code))
}

/// `--list`: each answer, what was read and how it would run. Every text of the page is
/// made visible.
fn list(planned: &[Planned]) -> String {
    let mut s = String::new();
    for p in planned {
        let e = &p.entry;
        let size = match (e.claimed, e.counted) {
            (Some(c), Some(n)) if c != n => format!("claimed {c}, counted {n}"),
            (Some(c), Some(_)) => format!("{c}"),
            (None, Some(n)) => format!("no claim, counted {n}"),
            (Some(c), None) => format!("claimed {c}, no code"),
            (None, None) => "-".to_string(),
        };
        let how = match (&p.cannot, p.language, &p.read.code) {
            (Some(why), _, _) => format!("cannot run: {why}"),
            (None, Some(l), Some(code)) => {
                let file = file_name(l, &String::from_utf8_lossy(&code.text));
                let main = languages::java_main(&String::from_utf8_lossy(&code.text));
                let shown = l.artifact.as_deref().unwrap_or(&file);
                let run = languages::command(l, shown, &p.read.flags, &main).join(" ");
                match &l.build {
                    Some(b) => format!("build: {b} (with {file}); run: {run}"),
                    None => format!("run: {run}"),
                }
            }
            _ => "-".to_string(),
        };
        let language = match e.flags.is_empty() {
            true => e.language.clone(),
            false => format!("{} {}", e.language, e.flags.join(" ")),
        };
        s += &format!(
            "{} by {}: {}, {size}, from {}: {how}\n",
            e.answer_id,
            visible(&e.author),
            visible(&language),
            e.source.as_deref().unwrap_or("nowhere"),
        );
        if let Some(note) = &e.header_note {
            s += &format!("    header: {}\n", visible(note));
        }
    }
    s
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s)
        .unwrap_or_default()
        .replace('\u{7f}', "\\u007f")
}

/// `--extract DIR`: each answer's code in `DIR/NAME/`, and `DIR/answers.toml` that
/// `--answers` reads (compiled answers build in their private directory on each run).
fn write_extracted(dir: &Path, planned: &[Planned]) -> Ended {
    let mut toml = String::from(
        "# The answers of a saved page, extracted by `beast check --page --extract`.\n\
         # Fix an answer's file and run: beast check --answers THIS_FILE\n",
    );
    for p in planned {
        let Some(code) = &p.read.code else {
            toml += &format!(
                "\n# {}: {}\n",
                p.entry.name,
                visible(p.cannot.as_deref().unwrap_or(""))
            );
            continue;
        };
        let text = String::from_utf8_lossy(&code.text);
        let file = match p.language {
            Some(l) => file_name(l, &text),
            None => "code.txt".to_string(),
        };
        let answer_dir = dir.join(&p.entry.name);
        std::fs::create_dir_all(&answer_dir)
            .with_context(|| format!("cannot make {}", answer_dir.display()))?;
        let path = answer_dir.join(&file);
        std::fs::write(&path, &code.run)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let Some(l) = p.language else {
            toml += &format!(
                "\n# {}: {}\n",
                p.entry.name,
                visible(p.cannot.as_deref().unwrap_or(""))
            );
            continue;
        };
        let path_text = path.display().to_string();
        let main = languages::java_main(&text);
        let command: Vec<String> = match (&l.build, &l.artifact) {
            (Some(build), Some(artifact)) => {
                let run = languages::command(l, artifact, &p.read.flags, &main).join(" ");
                vec![
                    "sh".into(),
                    "-c".into(),
                    format!("cd \"${{TMPDIR:-/tmp}}\" && {{ {build}; }} >&2 && exec {run}"),
                    "sh".into(),
                    path_text.clone(),
                ]
            }
            _ => languages::command(l, &path_text, &p.read.flags, &main),
        };
        if let Some(why) = &p.cannot {
            toml += &format!("\n# cannot run here: {}\n", visible(why));
        }
        let words: Vec<String> = command.iter().map(|w| toml_string(w)).collect();
        toml += &format!(
            "\n[[answer]]\nname = {}\ncommand = [{}]\nsource = {}\n",
            toml_string(&p.entry.name),
            words.join(", "),
            toml_string(&path_text)
        );
    }
    let file = dir.join("answers.toml");
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    std::fs::write(&file, toml).with_context(|| format!("cannot write {}", file.display()))?;
    eprintln!("wrote {} answers and {}", planned.len(), file.display());
    Ok(())
}

/// The code written to a private directory, compiled answers built in the jail, and the
/// answers that run; with the entries of every answer.
fn prepare(
    planned: &[Planned],
    containment: &Containment,
) -> Result<(Vec<Answer>, PageAnswers), crate::cli::Error> {
    let dir = tempfile::Builder::new()
        .prefix("beast-page-")
        .tempdir()
        .context("cannot make a directory for the page's code")?;
    let mut answers = Vec::new();
    let mut entries = Vec::new();
    let mut builder: Option<Builder> = None;
    for p in planned {
        let mut entry = p.entry.clone();
        let ready = match (&p.cannot, p.language, &p.read.code) {
            (None, Some(l), Some(code)) => {
                let answer_dir = dir.path().join(&entry.name);
                std::fs::create_dir_all(&answer_dir).context("cannot make the code's directory")?;
                let text = String::from_utf8_lossy(&code.text);
                let path = answer_dir.join(file_name(l, &text));
                std::fs::write(&path, &code.run).context("cannot write an answer's code")?;
                let program = match (&l.build, &l.artifact) {
                    (Some(build), Some(artifact)) => {
                        let b = match &mut builder {
                            Some(b) => b,
                            None => builder.insert(Builder::new(containment)?),
                        };
                        b.build(build, artifact, &path, &answer_dir.join(artifact))
                    }
                    _ => Ok(path.clone()),
                };
                program.and_then(|program| {
                    let main = languages::java_main(&text);
                    let words =
                        languages::command(l, &program.display().to_string(), &p.read.flags, &main);
                    let command =
                        AnswerCommand::from_words(words.into_iter().map(OsString::from).collect())
                            .ok_or_else(|| format!("{} has no command to run", l.name))?;
                    Ok(Answer {
                        name: entry.name.clone(),
                        command,
                        input: InputMode::Stdin,
                        source: Some(PathBuf::from("none")),
                    })
                })
            }
            _ => Err(p.cannot.clone().unwrap_or_default()),
        };
        match ready {
            Ok(answer) => {
                answers.push(answer);
                entries.push((entry, true));
            }
            Err(reason) => {
                entry.outcome = Outcome::CannotRun { reason };
                entries.push((entry, false));
            }
        }
    }
    Ok((
        answers,
        PageAnswers {
            entries,
            _dir: Some(dir),
        },
    ))
}

/// What builds compiled answers: the jail of the run's containment, one run of the build
/// script an answer, its program read from its stdout.
struct Builder {
    host: Arc<Host>,
    workspace: Arc<Workspace>,
    memory_mib: u64,
    pass_env: Vec<OsString>,
    binds: Vec<PathBuf>,
}

impl Builder {
    fn new(containment: &Containment) -> anyhow::Result<Builder> {
        let workspace =
            Arc::new(Workspace::new().context("cannot make a directory for the builds")?);
        let host = Arc::new(Host::probe(containment.level, workspace.path())?);
        Ok(Builder {
            host,
            workspace,
            memory_mib: containment.memory_mib,
            pass_env: containment.pass_env.clone(),
            binds: containment.binds.clone(),
        })
    }

    /// Runs `script` on `source` in the jail and writes the `artifact` it makes to `out`;
    /// why not, in a few words, when the build fails.
    fn build(
        &self,
        script: &str,
        artifact: &str,
        source: &Path,
        out: &Path,
    ) -> Result<PathBuf, String> {
        let command = AnswerCommand::from_words(vec![
            "sh".into(),
            "-c".into(),
            format!("{{ {script}; }} >&2 && cat {artifact}").into(),
            "sh".into(),
            source.into(),
        ])
        .ok_or("build: no command")?;
        let request = Request {
            memory_mib: self.memory_mib,
            pass_env: &self.pass_env,
            cases: &[],
            binds: &self.binds,
            command: &command,
        };
        let sandbox =
            Sandbox::new(&request, &self.host, &|| false).map_err(|e| format!("build: {e}"))?;
        let runner = Runner {
            running: Default::default(),
            command,
            input: InputMode::Stdin,
            timeout: BUILD_TIME,
            max_output: PROGRAM_LIMIT,
            sandbox: Arc::new(sandbox),
            workspace: self.workspace.clone(),
            ahead: Default::default(),
        };
        let run = runner.run(b"");
        runner.ahead.drain();
        let run = run.map_err(|e| format!("build: {e}"))?;
        if run.ended != Exit::Exited(0) {
            let why = String::from_utf8_lossy(&run.stderr);
            let line = why
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default();
            return Err(format!("build failed ({:?}): {line}", run.ended));
        }
        std::fs::write(out, &run.stdout).map_err(|e| format!("build: {e}"))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o755));
        }
        Ok(out.to_path_buf())
    }
}
