//! The answers file of `beast check --answers FILE`: one `[[answer]]` table an answer, with
//! its name, its command, and optionally how it takes the puzzle and its source file.
//!
//! ```toml
//! [[answer]]
//! name = "python"
//! command = ["python3", "answers/beasts.py"]
//! input = "stdin"                  # stdin (default), arg or file
//! source = "answers/beasts.py"     # for the byte count [default: the script named]
//! ```
//!
//! Paths are relative to the directory `beast check` runs in. A command is read into an
//! [`AnswerCommand`], never empty.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::Context;
use beast_engine::words;
use serde::Deserialize;
use toml::Spanned;

use super::runner::InputMode;
use crate::cli::files;
use crate::cli::sandbox::untrusted::AnswerCommand;

/// One answer to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Its name in the leaderboard and its report file's name.
    pub name: String,
    /// The command and its arguments.
    pub command: AnswerCommand,
    /// How it gets the puzzle.
    pub input: InputMode,
    /// Its source file for the golf score: `None` for the script the command names,
    /// `Some("none")` for no score.
    pub source: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    answer: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: Spanned<String>,
    command: Spanned<Command>,
    input: Option<Spanned<String>>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Command {
    Words(Vec<String>),
    Line(String),
}

/// The longest name of an answer's report files (before `.txt`): well within the 255
/// bytes every file system allows a name.
pub const FILE_NAME_MAX: usize = 100;

/// A character an answer's name may use: one that is never a path separator, a control
/// character or a space on any system.
fn file_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+')
}

/// True when `name` can name an answer's report files as it is (an `--answers` name must):
/// letters, digits, '-', '_', '+' and '.', not first, at most [`FILE_NAME_MAX`] of them.
/// A file named from it stays in its directory: no separator, no `..`, no hidden file.
pub fn is_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= FILE_NAME_MAX
        && name.chars().all(file_name_char)
        && !name.starts_with('.')
}

/// The name of an answer's report files (`--report-dir`, `--html-dir`): `name` itself
/// when [`is_file_name`] takes it (every `--answers` name), else `name` with each other
/// character made '_', its leading '.' and '_' dropped and cut to [`FILE_NAME_MAX`]
/// (`/usr/bin/python3 x.py` gives `usr_bin_python3_x.py`); `answer` when nothing is left.
/// What it returns always passes [`is_file_name`].
pub fn file_name(name: &str) -> String {
    if is_file_name(name) {
        return name.to_string();
    }
    let made: String = name
        .chars()
        .map(|c| if file_name_char(c) { c } else { '_' })
        .skip_while(|&c| matches!(c, '.' | '_'))
        .take(FILE_NAME_MAX)
        .collect();
    match made.is_empty() {
        true => "answer".to_string(),
        false => made,
    }
}

/// Reads and checks the answers file at `path`.
pub fn read(path: &Path) -> anyhow::Result<Vec<Answer>> {
    let text = files::read::read_named_text(path, files::Limit::ANSWERS)
        .with_context(|| format!("cannot read the answers file {}", path.display()))?;
    parse(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))
}

/// `line:col` of byte `at` in `text`.
fn place(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{col}")
}

/// Parses an answers file; an error starts with `line:col: `.
pub fn parse(text: &str) -> Result<Vec<Answer>, String> {
    let file: File = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map_or_else(|| "1:1".to_string(), |s| place(text, s.start));
        // toml quotes a bad key or value whole: a few dozen characters of it are shown.
        format!("{at}: {}", words::cut(e.message(), 160))
    })?;
    if file.answer.is_empty() {
        return Err("1:1: no answer: add an [[answer]] table with a name and a command".into());
    }
    let mut answers: Vec<Answer> = Vec::new();
    for entry in file.answer {
        let at = |span: std::ops::Range<usize>| place(text, span.start);
        let name = entry.name.get_ref();
        if !is_file_name(name) {
            return Err(format!(
                "{}: the name {} must be letters, digits, '-', '_', '+' or '.' (not first), \
                 at most {FILE_NAME_MAX} of them, as it names the answer's report file",
                at(entry.name.span()),
                words::quoted(name)
            ));
        }
        if answers.iter().any(|a| &a.name == name) {
            return Err(format!(
                "{}: the name {name:?} is given twice",
                at(entry.name.span())
            ));
        }
        let command: Vec<OsString> = match entry.command.get_ref() {
            Command::Words(words) => words.iter().map(OsString::from).collect(),
            Command::Line(line) => line.split_whitespace().map(OsString::from).collect(),
        };
        let Some(command) = AnswerCommand::from_words(command) else {
            return Err(format!(
                "{}: the command of {name} is empty",
                at(entry.command.span())
            ));
        };
        let input = match &entry.input {
            None => InputMode::Stdin,
            Some(mode) => super::args::input_mode(mode.get_ref()).ok_or_else(|| {
                format!(
                    "{}: input must be stdin, arg or file, not {}",
                    at(mode.span()),
                    words::quoted(mode.get_ref())
                )
            })?,
        };
        answers.push(Answer {
            name: name.clone(),
            command,
            input,
            source: entry.source.map(PathBuf::from),
        });
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_has_a_name_a_command_and_options() {
        let a = parse(
            "[[answer]]\nname = \"py\"\ncommand = [\"python3\", \"a.py\"]\ninput = \"arg\"\n\
             source = \"a.py\"\n\n[[answer]]\nname = \"ref\"\ncommand = \"beast --exhaust stop\"\n",
        )
        .expect("reads");
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].command.words(), ["python3", "a.py"]);
        assert_eq!(a[0].input, InputMode::Arg);
        assert_eq!(a[0].source, Some(PathBuf::from("a.py")));
        assert_eq!(a[1].command.words(), ["beast", "--exhaust", "stop"]);
        assert_eq!(a[1].input, InputMode::Stdin);
    }

    #[test]
    fn a_report_file_name_never_leaves_its_directory() {
        for (name, made) in [
            ("golf", "golf"),
            ("python3 x.py", "python3_x.py"),
            ("/usr/bin/python3 x.py", "usr_bin_python3_x.py"),
            ("../../etc/passwd", "etc_passwd"),
            ("..", "answer"),
            ("a\0b\nc\u{7f}", "a_b_c_"),
            ("été", "t_"),
        ] {
            assert_eq!(file_name(name), made, "{name:?}");
        }
        let long = "x".repeat(5000);
        assert_eq!(file_name(&long).len(), FILE_NAME_MAX);
        for name in [
            "",
            ".",
            "..",
            "/",
            "a/b",
            &long,
            "-\u{0}-",
            "\u{202e}txt.exe",
        ] {
            assert!(is_file_name(&file_name(name)), "{name:?}");
        }
    }

    #[test]
    fn the_example_answers_file_reads() {
        let a = parse(include_str!("../../../examples/challenge/answers.toml")).expect("reads");
        let names: Vec<&str> = a.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            names,
            ["reference", "stops-early", "tie-swap", "zero", "crash"]
        );
    }

    #[test]
    fn a_bad_answers_file_is_refused_where_it_goes_wrong() {
        let twice = "[[answer]]\nname = \"a\"\ncommand = \"x\"\n[[answer]]\nname = \"a\"\ncommand = \"y\"\n";
        assert_eq!(
            parse(twice).unwrap_err(),
            "5:8: the name \"a\" is given twice"
        );
        let slash = "[[answer]]\nname = \"../a\"\ncommand = \"x\"\n";
        assert!(parse(slash).unwrap_err().starts_with("2:8: the name"));
        let mode = "[[answer]]\nname = \"a\"\ncommand = \"x\"\ninput = \"pipe\"\n";
        assert!(
            parse(mode)
                .unwrap_err()
                .starts_with("4:9: input must be stdin, arg or file")
        );
        let unknown = "[[answer]]\nname = \"a\"\ncmd = \"x\"\n";
        assert!(
            parse(unknown).unwrap_err().starts_with("3:1:"),
            "{:?}",
            parse(unknown)
        );
        assert!(parse("").unwrap_err().contains("no answer"));
    }

    #[test]
    fn a_bad_name_or_key_is_quoted_in_a_few_dozen_characters() {
        let long = "\u{1b}[2J".repeat(10_000);
        for text in [
            format!("[[answer]]\nname = \"{long}\"\ncommand = \"x\"\n"),
            format!("[[answer]]\nname = \"a\"\ncommand = \"x\"\ninput = \"{long}\"\n"),
            format!("[[answer]]\n{}= 1\n", "k".repeat(50_000)),
        ] {
            let err = parse(&text.replace('\u{1b}', "\\u001b")).unwrap_err();
            assert!(err.len() < 400, "{} bytes: {err}", err.len());
            assert!(!err.contains('\u{1b}'), "{err}");
        }
    }
}
