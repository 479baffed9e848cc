//! The language a post's header names: from the judge's own interpreter and its version,
//! or from the source's extension, with the `#!` line's flags.

use crate::judge::escape::{markdown_code, markdown_text};

/// The post's language with the interpreter flags the answer runs with, as Code Golf posts
/// name them: `Perl 5.36 \`-n\``, as the header's Markdown: the language as text and the
/// flags (the answer's `#!` line, a stranger's text) as inline code, neither ever read as
/// Markdown or HTML.
pub fn with_flags(language: &str, flags: &[String]) -> String {
    let language = markdown_text(language);
    match flags.is_empty() {
        true => language,
        false => format!("{language} {}", markdown_code(&flags.join(" "))),
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
