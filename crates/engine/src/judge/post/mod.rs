//! The Code Golf answer post of a checked answer (`beast check --post`): the header
//! `# Python 3.11, 91 bytes`, the code as a Markdown block, and a line saying what it passed.
//! Every word of the post is made here (this file); the binary finds the language and reads
//! the code. The golf count (`beast score`, the score line) is in [`counting`], the language a
//! header names in [`header`].

use crate::judge::escape::{html_pre, needs_html_code};
use crate::words;

pub mod counting;
pub mod header;
pub use counting::*;
pub use header::*;

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

/// The code as a Markdown block: indented by four spaces; or, when it holds backticks,
/// characters that do not print, or a line a CI log would read as a workflow command
/// (`::error::`), a `<pre><code>` block with `&`, `<`, `>`, the backticks and those
/// characters written as HTML character references, as Attempt This Online does
/// ([`html_pre`]). One final newline of the file is not shown.
pub fn code_block(code: &str) -> String {
    let code = code.strip_suffix('\n').unwrap_or(code);
    if !needs_html_code(code) {
        return code
            .split('\n')
            .map(|line| format!("    {line}\n"))
            .collect();
    }
    format!("<pre><code>{}</code></pre>\n", html_pre(code))
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

/// Why there is no post when every case judged passed but `internal` could not be set up
/// (IE): the judge failed, not the answer, and the post would claim cases never run.
pub fn no_post_not_judged(internal: usize) -> String {
    format!(
        "no post: {} not judged (IE: the judge could not set {} up; the answer is not to \
         blame): check again",
        counted(internal, "case"),
        if internal == 1 { "it" } else { "them" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_golf_count_leaves_out_the_shebang_line_and_one_final_newline() {
        let code = b"#!/usr/bin/env python3\nprint(8)\n";
        let (part, left) = golfed(code, false);
        assert_eq!(part, b"print(8)");
        assert_eq!(
            left.words().as_deref(),
            Some("not counted: the #! line, the final newline")
        );
        assert_eq!(golfed(code, true), (&code[..], LeftOut::default()));
        assert_eq!(golfed(b"a\n\n", false).0, b"a\n");
        assert_eq!(golfed(b"a\r\n", false).0, b"a");
        assert_eq!(golfed(b"#!perl", false).0, b"");
        let plain = golfed(b"a # #!x", false);
        assert_eq!(plain, (&b"a # #!x"[..], LeftOut::default()));
        assert_eq!(plain.1.words(), None);
    }

    #[test]
    fn carriage_returns_and_a_bom_are_counted_and_said() {
        let crlf = b"a\r\nb\r\nc\r\nd\r\n";
        let c = count(crlf, false);
        // The final \r\n is the final newline; the other three CRs count.
        assert_eq!((c.bytes, c.left_out.carriage_returns), (10, 3));
        assert_eq!(
            score_line("a.py", &c),
            "a.py: 10 bytes, 10 chars; not counted: the final newline; 3 carriage returns \
             counted"
        );
        let bom = count(b"\xEF\xBB\xBFprint(8)", false);
        assert_eq!(bom.bytes, 11);
        assert_eq!(bom.left_out.words().as_deref(), Some("a BOM counted"));
        let all = count(b"\xEF\xBB\xBFa\r\n", true);
        assert_eq!(
            all.left_out.words().as_deref(),
            Some("1 carriage return counted; a BOM counted")
        );
        assert_eq!(count(b"print(8)\n", false).left_out.carriage_returns, 0);
    }

    #[test]
    fn the_flags_of_a_hash_bang_line_left_out_are_named() {
        let c = count(b"#!perl -n\nprint 8\n", false);
        assert_eq!(c.left_out.flags, vec!["-n".to_string()]);
        assert_eq!(
            score_line("a.pl", &c),
            "a.pl: 7 bytes, 7 chars; not counted: the #! line with its flag -n (a post names \
             it in its header), the final newline"
        );
        let two = count(b"#!/usr/bin/perl -l -n\nprint", false);
        assert!(
            two.left_out
                .words()
                .is_some_and(|w| w.contains("its flags -l -n (a post names them")),
            "{two:?}"
        );
    }

    #[test]
    fn a_score_line_says_bytes_chars_latin1_and_what_was_left_out() {
        let c = count("#!/usr/bin/perl -n\nprint'é'\n".as_bytes(), false);
        assert_eq!((c.bytes, c.chars, c.latin1), (9, 8, Some(8)));
        assert_eq!(
            score_line("a.pl", &c),
            "a.pl: 9 bytes, 8 chars (8 bytes in Latin-1); not counted: the #! line with its \
             flag -n (a post names it in its header), the final newline"
        );
        let all = count(b"print 1\n", true);
        assert_eq!(score_line("b", &all), "b: 8 bytes, 8 chars");
        assert_eq!(count("→".as_bytes(), false).latin1, None);
    }

    #[test]
    fn the_shebang_names_its_interpreter_and_flags_through_env_too() {
        let read = |s: &str| shebang(s.as_bytes()).map(|s| (s.program, s.flags));
        let flags = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            read("#!/usr/bin/perl -n\nprint"),
            Some(("/usr/bin/perl".to_string(), flags(&["-n"])))
        );
        assert_eq!(
            read("#!/usr/bin/env -S python3 -u\n"),
            Some(("python3".to_string(), flags(&["-u"])))
        );
        assert_eq!(
            read("#! /usr/bin/env python3\r\n"),
            Some(("python3".to_string(), flags(&[])))
        );
        assert_eq!(read("print(1)"), None);
        assert_eq!(read("#!\n"), None);
        assert_eq!(with_flags("Perl 5.36", &flags(&["-n"])), "Perl 5.36 `-n`");
        assert_eq!(with_flags("Python 3.11", &[]), "Python 3.11");
    }

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
        assert_eq!(
            code_block("p\n::error::x\n"),
            "<pre><code>p\n&#58;:error::x</code></pre>\n"
        );
    }

    #[test]
    fn hostile_shebang_flags_reach_the_header_as_inline_code_only() {
        let flags = vec![
            "`</code><img".to_string(),
            "src=x".to_string(),
            "onerror=alert(1)>[x](https://e/)".to_string(),
        ];
        let header = with_flags("Perl 5.36", &flags);
        assert!(
            header.starts_with("Perl 5.36 <code>&#96;&#60;&#47;code&#62;&#60;img src&#61;x"),
            "{header}"
        );
        assert_eq!(
            header.matches('<').count(),
            2,
            "only the code element: {header}"
        );
        assert!(!header.contains('[') && !header.contains('`'), "{header}");
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
