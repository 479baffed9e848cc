//! The Code Golf answer post of a checked answer (`beast check --post`): the header
//! `# Python 3.11, 91 bytes`, the code as a Markdown block, and a line saying what it passed.
//! Every word of the post is made here; the binary finds the language and reads the code.

use crate::words;

/// How the code's bytes are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, the file as it is: every byte counts.
    Utf8,
    /// ISO 8859-1: one byte a character, for code whose every character is U+0000 to
    /// U+00FF. A file that is not UTF-8 is read as Latin-1 bytes already.
    Latin1,
}

/// Why the code cannot be posted as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PostError {
    /// Under UTF-8 the file is not UTF-8 text.
    #[error(
        "the code is not UTF-8 text (byte {offset} is not): add --encoding latin-1 to post \
         it one byte a character"
    )]
    NotUtf8 {
        /// The offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// Under Latin-1 a character has no Latin-1 byte.
    #[error(
        "{line}:{column}: {ch:?} (U+{code:04X}) has no Latin-1 byte: post it as UTF-8 \
         (leave out --encoding)",
        code = u32::from(*ch)
    )]
    NotLatin1 {
        /// The character.
        ch: char,
        /// Its line, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
    },
}

/// The code as text, and its length in bytes under `encoding`.
pub fn measure(code: &[u8], encoding: Encoding) -> Result<(String, usize), PostError> {
    match (std::str::from_utf8(code), encoding) {
        (Ok(text), Encoding::Utf8) => Ok((text.to_string(), code.len())),
        (Err(e), Encoding::Utf8) => Err(PostError::NotUtf8 {
            offset: e.valid_up_to(),
        }),
        (Ok(text), Encoding::Latin1) => {
            for (l, line) in text.split('\n').enumerate() {
                if let Some((c, ch)) = line
                    .chars()
                    .enumerate()
                    .find(|(_, ch)| u32::from(*ch) > 0xFF)
                {
                    return Err(PostError::NotLatin1 {
                        ch,
                        line: l + 1,
                        column: c + 1,
                    });
                }
            }
            Ok((text.to_string(), text.chars().count()))
        }
        (Err(_), Encoding::Latin1) => {
            Ok((code.iter().map(|&b| char::from(b)).collect(), code.len()))
        }
    }
}

/// Interpreters whose language has another name than the program's: `(program, language)`.
const LANGUAGES: [(&str, &str); 12] = [
    ("python", "Python"),
    ("pypy", "Python (PyPy)"),
    ("node", "JavaScript (Node.js)"),
    ("perl", "Perl"),
    ("ruby", "Ruby"),
    ("bash", "Bash"),
    ("sh", "sh"),
    ("lua", "Lua"),
    ("php", "PHP"),
    ("awk", "AWK"),
    ("gawk", "AWK (gawk)"),
    ("julia", "Julia"),
];

/// The post's language from the interpreter `program` (a path or a name, such as
/// `/usr/bin/python3`) and the first line it prints for `--version`: the language's name
/// and the major.minor version found in that line (`Python 3.11`); `None` when `program`
/// is empty.
pub fn language(program: &str, version: &str) -> Option<String> {
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let stem = if stem.is_empty() { base } else { stem };
    if stem.is_empty() {
        return None;
    }
    let name = LANGUAGES
        .iter()
        .find(|(p, _)| *p == stem)
        .map_or_else(|| capitalized(stem), |(_, l)| (*l).to_string());
    Some(match major_minor(version) {
        Some(v) => format!("{name} {v}"),
        None => name,
    })
}

/// The first `MAJOR.MINOR` in `text` (`Python 3.11.7` gives `3.11`, `v5.36.0` gives `5.36`).
fn major_minor(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit());
        if starts {
            let major = digits(i);
            let dot = i + major;
            if bytes.get(dot) == Some(&b'.') {
                let minor = digits(dot + 1);
                if minor > 0 {
                    return Some(text[i..dot + 1 + minor].to_string());
                }
            }
            i += major;
        } else {
            i += 1;
        }
    }
    None
}

/// `word` with its first letter in upper case.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The languages a source file's extension names, for an answer whose interpreter the
/// judge does not run itself (a compiled answer): `(extension, language)`.
const EXTENSIONS: [(&str, &str); 24] = [
    ("c", "C"),
    ("cc", "C++"),
    ("cpp", "C++"),
    ("cxx", "C++"),
    ("rs", "Rust"),
    ("go", "Go"),
    ("java", "Java"),
    ("kt", "Kotlin"),
    ("cs", "C#"),
    ("hs", "Haskell"),
    ("zig", "Zig"),
    ("nim", "Nim"),
    ("py", "Python"),
    ("pl", "Perl"),
    ("rb", "Ruby"),
    ("js", "JavaScript (Node.js)"),
    ("sh", "sh"),
    ("bash", "Bash"),
    ("lua", "Lua"),
    ("php", "PHP"),
    ("awk", "AWK"),
    ("jl", "Julia"),
    ("swift", "Swift"),
    ("f90", "Fortran"),
];

/// The post's language from a source file's extension (`c` gives `C`), without a version;
/// `None` for an extension no language is known by.
pub fn language_of_extension(extension: &str) -> Option<&'static str> {
    EXTENSIONS
        .iter()
        .find(|(e, _)| e.eq_ignore_ascii_case(extension))
        .map(|(_, l)| *l)
}

/// What the answer passed: the cases of the run, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Passed {
    /// The challenge's samples.
    pub samples: usize,
    /// The other built-in cases, the rule examples.
    pub examples: usize,
    /// Cases from `--cases` directories.
    pub files: usize,
    /// Random puzzles and the run's seed.
    pub random: Option<(usize, u64)>,
}

/// The post's last line: `Passes the 5 samples and 1,000 random puzzles (seed 7) of
/// beast-judge 0.2.0`.
pub fn passes_line(passed: &Passed, version: &str) -> String {
    let mut parts = Vec::new();
    if passed.samples > 0 {
        parts.push(format!("the {}", counted(passed.samples, "sample")));
    }
    if passed.examples > 0 {
        parts.push(counted(passed.examples, "rule example"));
    }
    if passed.files > 0 {
        parts.push(counted(passed.files, "more case"));
    }
    if let Some((n, seed)) = passed.random.filter(|(n, _)| *n > 0) {
        parts.push(format!("{} (seed {seed})", counted(n, "random puzzle")));
    }
    let list = match parts.split_last() {
        None => "no case".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    format!("Passes {list} of beast-judge {version}")
}

/// `n` grouped in thousands, then `noun`, plural unless `n` is 1: `1,000 random puzzles`.
fn counted(n: usize, noun: &str) -> String {
    words::count(n as u64, noun).replacen(&n.to_string(), &grouped(n), 1)
}

/// `n` with its thousands grouped: `1,234,567`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// True if `code` cannot go in an indented block as it is: it holds a backtick, or a
/// character that does not print (a control character other than a newline or a tab).
fn needs_pre(code: &str) -> bool {
    code.chars()
        .any(|c| c == '`' || (c.is_control() && c != '\n' && c != '\t'))
}

/// The code as a Markdown block: indented by four spaces; or, when it holds backticks or
/// characters that do not print, a `<pre><code>` block with `&`, `<`, `>`, the backticks
/// and those characters written as HTML character references, as Attempt This Online does.
/// One final newline of the file is not shown.
pub fn code_block(code: &str) -> String {
    let code = code.strip_suffix('\n').unwrap_or(code);
    if !needs_pre(code) {
        return code
            .split('\n')
            .map(|line| format!("    {line}\n"))
            .collect();
    }
    let mut s = String::from("<pre><code>");
    for c in code.chars() {
        match c {
            '&' => s += "&amp;",
            '<' => s += "&lt;",
            '>' => s += "&gt;",
            '`' => s += "&#96;",
            '\n' | '\t' => s.push(c),
            c if c.is_control() => s += &format!("&#x{:X};", u32::from(c)),
            c => s.push(c),
        }
    }
    s += "</code></pre>\n";
    s
}

/// The whole post: the header, the code block and the line of what passed, a blank line
/// between each.
pub fn post(language: &str, bytes: usize, code: &str, passed: &Passed, version: &str) -> String {
    format!(
        "# {language}, {}\n\n{}\n{}\n",
        words::count(bytes as u64, "byte"),
        code_block(code),
        passes_line(passed, version)
    )
}

/// Why there is no post: the answer failed `failed` of the `total` cases.
pub fn no_post(failed: usize, total: usize) -> String {
    format!(
        "no post: the answer fails {} of {}, and a post says it passes them all",
        counted(failed, "case"),
        grouped(total)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_counts_bytes_and_latin1_one_a_character() {
        let code = "print('é')\n".as_bytes();
        assert_eq!(measure(code, Encoding::Utf8).map(|m| m.1), Ok(12));
        assert_eq!(measure(code, Encoding::Latin1).map(|m| m.1), Ok(11));
        let raw = b"a\xe9b";
        assert_eq!(
            measure(raw, Encoding::Utf8),
            Err(PostError::NotUtf8 { offset: 1 })
        );
        assert_eq!(measure(raw, Encoding::Latin1), Ok(("aéb".to_string(), 3)));
    }

    #[test]
    fn a_character_latin1_cannot_encode_is_refused_with_its_place() {
        let err = measure("ab\nc→d\n".as_bytes(), Encoding::Latin1).unwrap_err();
        assert_eq!(
            err,
            PostError::NotLatin1 {
                ch: '→',
                line: 2,
                column: 2
            }
        );
        assert!(err.to_string().starts_with("2:2: '→' (U+2192)"), "{err}");
    }

    #[test]
    fn the_language_comes_from_the_interpreter_and_its_version_line() {
        assert_eq!(
            language("python3", "Python 3.11.7").as_deref(),
            Some("Python 3.11")
        );
        assert_eq!(
            language(
                "/usr/bin/perl",
                "This is perl 5, version 36, subversion 0 (v5.36.0)"
            )
            .as_deref(),
            Some("Perl 5.36")
        );
        assert_eq!(
            language("node", "v20.11.1").as_deref(),
            Some("JavaScript (Node.js) 20.11")
        );
        assert_eq!(language("golfscript", "").as_deref(), Some("Golfscript"));
        assert_eq!(
            language("ruby3.2", "ruby 3.2.3").as_deref(),
            Some("Ruby 3.2")
        );
        assert_eq!(language("", "Python 3.11.7"), None);
    }

    #[test]
    fn the_last_line_lists_what_passed_with_thousands_grouped() {
        let passed = Passed {
            samples: 5,
            random: Some((1000, 7)),
            ..Passed::default()
        };
        assert_eq!(
            passes_line(&passed, "0.2.0"),
            "Passes the 5 samples and 1,000 random puzzles (seed 7) of beast-judge 0.2.0"
        );
        let all = Passed {
            samples: 5,
            examples: 35,
            files: 1,
            random: Some((1_234_567, 3)),
        };
        assert_eq!(
            passes_line(&all, "0.2.0"),
            "Passes the 5 samples, 35 rule examples, 1 more case and 1,234,567 random puzzles \
             (seed 3) of beast-judge 0.2.0"
        );
    }

    #[test]
    fn plain_code_is_indented_and_backticks_or_controls_go_in_pre_with_escapes() {
        assert_eq!(
            code_block("a=1\n\nprint(a)\n"),
            "    a=1\n    \n    print(a)\n"
        );
        assert_eq!(
            code_block("s=`x`<&>\u{1}\n"),
            "<pre><code>s=&#96;x&#96;&lt;&amp;&gt;&#x1;</code></pre>\n"
        );
        assert_eq!(code_block("a\tb<"), "    a\tb<\n");
    }

    #[test]
    fn a_failing_answer_gets_no_post_and_is_told_why() {
        assert_eq!(
            no_post(1, 1040),
            "no post: the answer fails 1 case of 1,040, and a post says it passes them all"
        );
    }

    #[test]
    fn the_post_is_header_code_and_what_passed() {
        let passed = Passed {
            samples: 5,
            ..Passed::default()
        };
        assert_eq!(
            post("Python 3.11", 10, "print(8)\n", &passed, "0.2.0"),
            "# Python 3.11, 10 bytes\n\n    print(8)\n\nPasses the 5 samples of beast-judge 0.2.0\n"
        );
    }
}
