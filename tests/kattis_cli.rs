//! The Kattis package of `beast cases --format kattis`: its input validator against the
//! parser, input for input; its submissions against the engine under their readings (and
//! the README's short answer under ours); and the whole package through Kattis's own
//! `verifyproblem`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use beast_engine::beast::Puzzle;
use beast_engine::judge::generate::{GenOptions, generate};
use beast_engine::judge::kattis;

use crate::util::{beast, repo};

/// The `python3` the validator runs on, or `None` (with the reason printed) when there is
/// none; under CI a missing one fails the test.
fn python() -> Option<&'static str> {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is missing, and CI must run this test"
        );
        eprintln!("skipped: no python3 to run the Kattis validator on");
        return None;
    }
    Some("python3")
}

/// The Rust string literals of `text` that hold a newline: the puzzles of a test file.
fn puzzle_literals(text: &str) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let body = &rest[start + 1..];
        let mut value = String::new();
        let mut chars = body.char_indices();
        let mut end = body.len();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    end = i;
                    break;
                }
                '\\' => match chars.next().map(|(_, e)| e) {
                    Some('n') => value.push('\n'),
                    Some('r') => value.push('\r'),
                    Some('t') => value.push('\t'),
                    Some('0') => value.push('\0'),
                    Some('u') => {
                        let hex: String = chars
                            .by_ref()
                            .map(|(_, h)| h)
                            .skip(1)
                            .take_while(|&h| h != '}')
                            .collect();
                        if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                        {
                            value.push(c);
                        }
                    }
                    Some('\n') => {
                        // A continued line: the next line's leading spaces are skipped.
                        while chars.clone().next().is_some_and(|(_, c)| c == ' ') {
                            chars.next();
                        }
                    }
                    Some(e) => value.push(e),
                    None => {}
                },
                c => value.push(c),
            }
        }
        if value.contains('\n') {
            found.push(value.into_bytes());
        }
        rest = body.get(end + 1..).unwrap_or_default();
    }
    found
}

/// What the parser says of `bytes`: `ok`, or the line and column it refuses at.
fn parser_says(bytes: &[u8]) -> String {
    match Puzzle::parse_owned(bytes.to_vec()) {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{}:{}", e.line, e.col),
    }
}

/// A small deterministic stream (xorshift), for the mutations.
struct Stream(u64);

impl Stream {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// The inputs the validator is tried on: the parse-error tests' puzzles, the example
/// puzzles, generated ones, each with a set of edits of the kinds the parser is strict or
/// lenient about, and random one-character edits of them all.
fn inputs() -> Vec<Vec<u8>> {
    let mut bases = Vec::new();
    for file in [
        "crates/engine/src/beast/tests/parse_errors.rs",
        "crates/engine/src/beast/tests/wide_rows.rs",
    ] {
        bases.extend(puzzle_literals(
            &fs::read_to_string(repo(file)).expect("the parser's tests"),
        ));
    }
    let mut examples: Vec<PathBuf> = fs::read_dir(repo("examples/beast"))
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    examples.sort();
    bases.extend(examples.iter().map(|p| fs::read(p).expect("example")));
    for seed in 0..30 {
        let opts = GenOptions {
            cols: 3 + (seed as usize * 7) % 20,
            rows: 3 + (seed as usize * 5) % 12,
            beasts: 1,
            moves: (seed as usize * 3) % 12,
            ..GenOptions::default()
        };
        if let Ok(p) = generate(seed, &opts) {
            bases.push(p.to_string().into_bytes());
        }
    }
    let mut all = Vec::new();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    for b in &bases {
        let t = text(b);
        all.push(b.clone());
        all.push([&b"\xef\xbb\xbf"[..], b].concat());
        all.push(t.replace('\n', "\r\n").into_bytes());
        all.push(t.trim_end_matches('\n').as_bytes().to_vec());
        all.push(format!("{}\r", t.trim_end_matches('\n')).into_bytes());
        all.push(format!("{t}U\u{a0}D\u{3000}L\x0bR\x1fW\n").into_bytes());
        all.push(format!("{t}\u{85}W\u{200b}\n").into_bytes());
        all.push(t.replacen(' ', "\t ", 1).into_bytes());
        all.push(format!("  {t}").into_bytes());
        all.push(t.replacen('\n', " \n", 1).into_bytes());
        all.push(t.replacen('\n', " 1\n", 1).into_bytes());
        all.push(format!("0{t}").into_bytes());
        all.push(format!("99999999999999999999{t}").into_bytes());
        all.push(t.replacen('#', "", 1).into_bytes());
        all.push(t.replacen(' ', "", 1).into_bytes());
        all.push([b.as_slice(), b"\xff"].concat());
        all.push(t.replacen("O", "Oé", 1).into_bytes());
    }
    let alphabet: &[&[u8]] = &[
        b"#",
        b"~",
        b"H",
        b"O",
        b" ",
        b"\n",
        b"\r",
        b"\t",
        b"U",
        b"W",
        b"u",
        b"x",
        b"0",
        b"7",
        b"\xc3\xa9",
        b"\xe2\x80\x83",
        b"\xc3",
        b"",
    ];
    let mut stream = Stream(0x9e37_79b9_7f4a_7c15);
    let everything = all.clone();
    for b in &everything {
        for _ in 0..6 {
            let at = stream.below(b.len() + 1);
            let with = alphabet[stream.below(alphabet.len())];
            // Insert `with` at `at`, or put it in place of the byte there.
            let replaced = stream.below(2);
            let mut edited = b[..at].to_vec();
            edited.extend_from_slice(with);
            edited.extend_from_slice(b.get(at + replaced..).unwrap_or_default());
            all.push(edited);
        }
    }
    all
}

/// Writes every input into `dir` and runs the validator on them with `--parse`: for each,
/// where it refuses (or `ok`) and its exit code.
fn validator_on(dir: &Path, inputs: &[Vec<u8>], python: &str) -> Vec<(String, i32)> {
    let validator = dir.join("validate.py");
    fs::write(&validator, kattis::VALIDATOR).expect("write the validator");
    let files: Vec<PathBuf> = inputs
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let path = dir.join(format!("{i}.in"));
            fs::write(&path, bytes).expect("write an input");
            path
        })
        .collect();
    let out = Command::new(python)
        .arg(&validator)
        .arg("--parse")
        .args(&files)
        .output()
        .expect("the validator runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| {
            let (place, code) = l.split_once(' ').expect("place and code");
            (place.to_string(), code.parse().expect("an exit code"))
        })
        .collect()
}

#[test]
fn the_validator_accepts_and_refuses_exactly_where_the_parser_does() {
    let Some(python) = python() else { return };
    let inputs = inputs();
    let dir = tempfile::tempdir().expect("temp dir");
    let said = validator_on(dir.path(), &inputs, python);
    assert_eq!(said.len(), inputs.len());
    let mut accepted = 0;
    let mut zeros = 0;
    for (bytes, (said, code)) in inputs.iter().zip(&said) {
        let parser = parser_says(bytes);
        assert_eq!(
            *said,
            parser,
            "the validator and the parser differ on {:?}",
            String::from_utf8_lossy(bytes)
        );
        // As a validator, it refuses what the parser refuses, and a size with a leading
        // zero; it accepts the rest.
        let text = String::from_utf8_lossy(bytes);
        let size = text
            .trim_start_matches('\u{feff}')
            .lines()
            .next()
            .unwrap_or("");
        let leading_zero = size
            .split_ascii_whitespace()
            .any(|t| t.len() > 1 && t.starts_with('0'));
        let want = if parser == "ok" && !leading_zero {
            42
        } else {
            43
        };
        assert_eq!(*code, want, "exit code on {text:?}");
        accepted += usize::from(parser == "ok");
        zeros += usize::from(parser == "ok" && leading_zero);
    }
    eprintln!(
        "{} inputs: {accepted} accepted by both, {zeros} of them with a leading zero",
        inputs.len()
    );
    // Both kinds are well represented, so neither half of the comparison is empty.
    assert!(
        accepted > 200,
        "only {accepted} of {} accepted",
        inputs.len()
    );
    assert!(inputs.len() - accepted > 500, "too few refused");
    assert!(zeros > 10, "only {zeros} valid inputs with a leading zero");
    // And as Kattis runs it: the input on stdin, the verdict in the exit code.
    let validator = dir.path().join("validate.py");
    for (bytes, want) in [(&inputs[0], said[0].1), (&inputs[11], said[11].1)] {
        let mut child = Command::new(python)
            .arg(&validator)
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the validator runs");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), bytes)
            .expect("write the input");
        assert_eq!(child.wait().expect("exits").code(), Some(want));
    }
    assert_eq!(
        (said[0].1, said[11].1),
        (43, 43),
        "the first base is a refused puzzle"
    );
}

/// Runs the Python program `code` on each input in one process (each run with its own
/// stdin and stdout, its `sys.exit` caught); what it printed on each.
fn python_outputs(python: &str, code: &str, inputs: &[String], dir: &Path) -> Vec<String> {
    let program = dir.join("program.py");
    fs::write(&program, code).expect("write the program");
    let driver = r#"
import io, json, sys
code = open(sys.argv[1]).read()
outputs = []
for path in sys.argv[2:]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(open(path, "rb").read()), encoding="utf-8")
    sys.stdout = out = io.StringIO()
    try:
        exec(compile(code, "program.py", "exec"), {"__name__": "__main__"})
    except SystemExit:
        pass
    sys.stdout = sys.__stdout__
    outputs.append(out.getvalue())
print(json.dumps(outputs))
"#;
    let files: Vec<PathBuf> = inputs
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.join(format!("case-{i}.txt"));
            fs::write(&path, text).expect("write a case");
            path
        })
        .collect();
    let out = Command::new(python)
        .arg("-c")
        .arg(driver)
        .arg(&program)
        .args(&files)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON list")
}

#[test]
fn the_submissions_answer_as_the_engine_does_under_their_readings() {
    use beast_engine::beast::{Rules, play_out, variant};
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut puzzles: Vec<Puzzle> = beast_engine::judge::cases::builtin()
        .cases
        .into_iter()
        .map(|c| c.puzzle)
        .collect();
    puzzles.extend((0..40).filter_map(|seed| generate(seed, &GenOptions::default()).ok()));
    let texts: Vec<String> = puzzles.iter().map(ToString::to_string).collect();
    // The README's short answer too, under ours.
    let golf = fs::read_to_string(repo("examples/golf/beasts.py")).expect("the golf answer");
    let got = python_outputs(python, &golf, &texts, dir.path());
    for ((puzzle, text), got) in puzzles.iter().zip(&texts).zip(&got) {
        let want = play_out(puzzle, Rules::OURS).expect("judged").answer();
        assert_eq!(*got, want, "examples/golf/beasts.py on\n{text}");
    }
    let mut readings = vec![("", Rules::OURS)];
    for name in kattis::WRONG_READINGS {
        let v = variant::find(name).expect("a catalogue reading");
        readings.push((name, v.apply(Rules::OURS)));
    }
    for (name, rules) in readings {
        let code = if name.is_empty() {
            kattis::ACCEPTED.to_string()
        } else {
            kattis::wrong_answer(name)
        };
        let got = python_outputs(python, &code, &texts, dir.path());
        let mut differ = 0;
        for ((puzzle, text), got) in puzzles.iter().zip(&texts).zip(&got) {
            let want = play_out(puzzle, rules).expect("judged").answer();
            assert_eq!(*got, want, "reading {name:?} on\n{text}");
            let ours = play_out(puzzle, Rules::OURS).expect("judged").answer();
            differ += usize::from(want != ours);
        }
        // Each wrong answer is wrong somewhere: the comparison is not of equal programs.
        assert_eq!(
            differ == 0,
            name.is_empty(),
            "{name}: {differ} cases differ from ours"
        );
    }
}

/// Kattis's `verifyproblem`: on PATH, or in the virtual environment `.ci/run` makes.
fn verifyproblem() -> Option<PathBuf> {
    let local = repo("target/problemtools/bin/verifyproblem");
    if local.is_file() {
        return Some(local);
    }
    Command::new("verifyproblem")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success())
        .then(|| PathBuf::from("verifyproblem"))
}

#[test]
fn verifyproblem_accepts_the_package_with_no_error_or_warning() {
    let Some(verify) = verifyproblem() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "problemtools is missing, and CI (.ci/run) installs it"
        );
        eprintln!(
            "skipped: Kattis problemtools is not installed (`pip install problemtools`, with \
             pypy3, lualatex and tidy; .ci/run installs them)"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = dir.path().join("beasts");
    beast()
        .args([
            "cases", "--format", "kattis", "--random", "20", "--seed", "1", "--out",
        ])
        .arg(&pack)
        .assert()
        .success();
    let out = Command::new(&verify)
        .arg(&pack)
        .current_dir(dir.path())
        .output()
        .expect("verifyproblem runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("beasts tested: 0 errors, 0 warnings"),
        "verifyproblem said:\n{text}"
    );
    for name in kattis::WRONG_READINGS {
        assert!(
            text.lines()
                .any(|l| l.contains(&format!("wrong_answer/{name}.py")) && l.contains("OK: WA")),
            "{name} is not judged a wrong answer:\n{text}"
        );
    }
    assert!(
        text.contains("accepted/beasts.py (Python 3 (w/PyPy3)) OK: AC"),
        "{text}"
    );
}
