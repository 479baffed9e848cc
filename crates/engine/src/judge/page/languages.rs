//! The languages a page's answers can be run in: the built-in map from the names headers
//! give (`Python 3`, `Perl 5`, `C (gcc)`...) and the ids TIO and ATO links give
//! (`python3`, `perl5`) to the command that runs the code, and for compiled languages the
//! build that makes the program first. A user's file adds more (read by the binary into
//! the same [`Language`]). Which of them is installed is the binary's question.

use serde::{Deserialize, Serialize};

/// How to run code of one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// Its name as leaderboards write it.
    pub name: String,
    /// The names headers give it, lower case (`python 3`, `python3`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The ids TIO and ATO links give it.
    #[serde(default)]
    pub link_ids: Vec<String>,
    /// The program that must be installed (checked by running it with `version`).
    pub program: String,
    /// The arguments that make `program` print its version and succeed.
    #[serde(default = "default_version")]
    pub version: Vec<String>,
    /// The code file's name: `code.py`, or `{main}.java` for the class name.
    pub file: String,
    /// A shell script that builds the code, run in the jail in a private directory with
    /// the code file as `$1`. `None` for an interpreted language.
    #[serde(default)]
    pub build: Option<String>,
    /// The file the build makes (`a`, `a.jar`): `{code}` of the command.
    #[serde(default)]
    pub artifact: Option<String>,
    /// The command: `{code}` is the code file (or the built program), `{flags}` the
    /// answer's flags (zero or more words), `{main}` the class of a Java answer.
    pub run: Vec<String>,
    /// One byte a character (a single-byte code page), not UTF-8.
    #[serde(default)]
    pub single_byte: bool,
}

fn default_version() -> Vec<String> {
    vec!["--version".to_string()]
}

/// A built-in entry.
#[allow(clippy::too_many_arguments)]
fn entry(
    name: &str,
    aliases: &[&str],
    link_ids: &[&str],
    program: &str,
    version: &[&str],
    file: &str,
    build: Option<(&str, &str)>,
    run: &[&str],
) -> Language {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect();
    Language {
        name: name.into(),
        aliases: words(aliases),
        link_ids: words(link_ids),
        program: program.into(),
        version: words(version),
        file: file.into(),
        build: build.map(|(script, _)| script.to_string()),
        artifact: build.map(|(_, artifact)| artifact.to_string()),
        run: words(run),
        single_byte: false,
    }
}

/// The built-in map.
pub fn builtin() -> Vec<Language> {
    let v = &["--version"][..];
    vec![
        entry(
            "Python 3",
            &[
                "python 3",
                "python3",
                "python",
                "python 3.x",
                "pypy 3",
                "pypy3",
            ],
            &["python3", "python3-cython", "python"],
            "python3",
            v,
            "code.py",
            None,
            &["python3", "{flags}", "{code}"],
        ),
        entry(
            "Python 2",
            &["python 2", "python2"],
            &["python2"],
            "python2",
            v,
            "code.py",
            None,
            &["python2", "{flags}", "{code}"],
        ),
        entry(
            "Perl 5",
            &["perl 5", "perl", "perl5"],
            &["perl5", "perl"],
            "perl",
            v,
            "code.pl",
            None,
            &["perl", "{flags}", "{code}"],
        ),
        entry(
            "Ruby",
            &["ruby"],
            &["ruby"],
            "ruby",
            v,
            "code.rb",
            None,
            &["ruby", "{flags}", "{code}"],
        ),
        entry(
            "JavaScript (Node.js)",
            &[
                "javascript (node.js)",
                "node.js",
                "node",
                "nodejs",
                "javascript",
                "js",
                "javascript (es6)",
                "es6",
                "javascript (v8)",
            ],
            &["javascript-node", "node"],
            "node",
            v,
            "code.js",
            None,
            &["node", "{flags}", "{code}"],
        ),
        entry(
            "Bash",
            &[
                "bash",
                "bash + coreutils",
                "bash + gnu utilities",
                "shell",
                "sh",
            ],
            &["bash"],
            "bash",
            v,
            "code.sh",
            None,
            &["bash", "{flags}", "{code}"],
        ),
        entry(
            "AWK",
            &["awk", "gawk", "gnu awk", "mawk"],
            &["awk", "gawk"],
            "awk",
            &["-W", "version"],
            "code.awk",
            None,
            &["awk", "{flags}", "-f", "{code}"],
        ),
        entry(
            "C (gcc)",
            &["c (gcc)", "c", "gcc", "c (clang)", "c99", "c11"],
            &["c-gcc", "c-clang", "c"],
            "gcc",
            v,
            "code.c",
            Some(("gcc -O2 -w -o a \"$1\" -lm", "a")),
            &["{code}"],
        ),
        entry(
            "C++ (gcc)",
            &["c++ (gcc)", "c++", "g++", "cpp", "c++ (clang)", "c++17"],
            &["cpp-gcc", "cpp-clang", "cpp"],
            "g++",
            v,
            "code.cpp",
            Some(("g++ -O2 -w -o a \"$1\"", "a")),
            &["{code}"],
        ),
        entry(
            "Java",
            &[
                "java",
                "java (jdk)",
                "java (openjdk)",
                "java (openjdk 8)",
                "java 8",
            ],
            &["java-jdk", "java-openjdk", "java"],
            "javac",
            v,
            "{main}.java",
            Some((
                "mkdir o && javac -d o \"$1\" && jar cf a.jar -C o .",
                "a.jar",
            )),
            &["java", "-cp", "{code}", "{main}"],
        ),
        entry(
            "Lua",
            &["lua", "lua 5.4", "lua 5.3"],
            &["lua"],
            "lua",
            &["-v"],
            "code.lua",
            None,
            &["lua", "{flags}", "{code}"],
        ),
        entry(
            "PHP",
            &["php", "php 7", "php 8"],
            &["php"],
            "php",
            v,
            "code.php",
            None,
            &["php", "{flags}", "{code}"],
        ),
    ]
}

/// Languages golfers score one byte a character, with their own code page, that no
/// interpreter here runs: their size is counted, and their answers say why they cannot
/// run.
pub const SINGLE_BYTE: &[&str] = &[
    "05ab1e",
    "jelly",
    "charcoal",
    "husk",
    "vyxal",
    "mathgolf",
    "japt",
    "brachylog",
    "apl (dyalog unicode)",
    "apl",
    "stax",
    "canvas",
    "keg",
    "pyth",
    "cjam",
    "golfscript",
];

/// A header's language name made comparable: lower case, backticks and markup gone, spaces
/// single.
pub fn normalized(name: &str) -> String {
    name.to_lowercase()
        .replace('`', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The forms of a name tried in turn: as written, without a parenthesized part, with the
/// version cut to its major number, and without a version.
fn forms(name: &str) -> Vec<String> {
    let whole = normalized(name);
    let no_parens: String = match whole.find(" (") {
        Some(i) if whole.ends_with(')') => whole[..i].to_string(),
        _ => whole.clone(),
    };
    let cut = |major: bool| -> String {
        let mut words: Vec<String> = no_parens.split(' ').map(str::to_string).collect();
        if let Some(last) = words
            .last_mut()
            .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()) && is_version(w))
        {
            match major {
                true => *last = last.split('.').next().unwrap_or_default().to_string(),
                false => {
                    last.clear();
                }
            }
        }
        words.join(" ").trim().to_string()
    };
    let mut out = vec![whole.clone(), no_parens.clone(), cut(true), cut(false)];
    out.dedup();
    out
}

/// True for a version word (`3`, `3.8`, `5.36.0`), not a language named by digits.
fn is_version(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The language of a header's name, or of a link's id when the name finds none.
pub fn find<'a>(
    languages: &'a [Language],
    name: &str,
    link_id: Option<&str>,
) -> Option<&'a Language> {
    for form in forms(name) {
        let hit = languages.iter().find(|l| {
            normalized(&l.name) == form || l.aliases.iter().any(|a| normalized(a) == form)
        });
        if hit.is_some() {
            return hit;
        }
    }
    let id = link_id?.to_lowercase();
    languages.iter().find(|l| l.link_ids.contains(&id))
}

/// True when `name` is a single-byte code-page language this judge knows of.
pub fn single_byte(name: &str) -> bool {
    forms(name)
        .iter()
        .any(|f| SINGLE_BYTE.contains(&f.as_str()))
}

/// The class a Java answer's `main` is in: the last `class`, `interface`, `enum` or
/// `record` named before the first `main(`; `Main` when none is.
pub fn java_main(code: &str) -> String {
    let before = code.find("main(").map_or(code, |i| &code[..i]);
    let words: Vec<&str> = before
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| matches!(w[0], "class" | "interface" | "enum" | "record"))
        .map(|w| w[1].to_string())
        .next_back()
        .unwrap_or_else(|| "Main".to_string())
}

/// The command of `language` for a code file or program `code`, with `flags`; `main` the
/// Java class.
pub fn command(language: &Language, code: &str, flags: &[String], main: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in &language.run {
        match word.as_str() {
            "{flags}" => out.extend(flags.iter().cloned()),
            w => out.push(w.replace("{code}", code).replace("{main}", main)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_find_their_language() {
        let all = builtin();
        let name = |n: &str| find(&all, n, None).map(|l| l.name.as_str());
        assert_eq!(name("Python 3.8"), Some("Python 3"));
        assert_eq!(name("Python 3 (PyPy)"), Some("Python 3"));
        assert_eq!(name("Perl 5"), Some("Perl 5"));
        assert_eq!(name("JavaScript (Node.js)"), Some("JavaScript (Node.js)"));
        assert_eq!(name("C (gcc)"), Some("C (gcc)"));
        assert_eq!(name("C++ (gcc)"), Some("C++ (gcc)"));
        assert_eq!(name("Java 8"), Some("Java"));
        assert_eq!(name("05AB1E"), None);
        assert_eq!(
            find(&all, "", Some("perl5")).map(|l| l.name.as_str()),
            Some("Perl 5")
        );
        assert!(single_byte("05AB1E") && !single_byte("Python 3"));
    }

    #[test]
    fn a_command_takes_the_code_flags_and_class() {
        let all = builtin();
        let perl = find(&all, "Perl 5", None).expect("perl");
        assert_eq!(
            command(perl, "c.pl", &["-0p".into()], ""),
            ["perl", "-0p", "c.pl"]
        );
        let java = find(&all, "Java", None).expect("java");
        let main = java_main("interface B{static void main(String[]a){}}");
        assert_eq!(
            command(java, "a.jar", &[], &main),
            ["java", "-cp", "a.jar", "B"]
        );
    }
}
