//! The parts of a Kattis problem package beyond the test data (`beast cases --format
//! kattis`): the statement, made from the rules (`docs/RULES.md` section 1) by a small
//! Markdown-to-LaTeX translation; the input format validator; the accepted submission; and
//! one wrong-answer submission a catalogue reading the package's cases tell from ours.
//!
//! The validator and the submissions are Python 3 programs kept next to this file. Pure: the
//! caller passes the rules text and writes the files.

use crate::beast::{Puzzle, Rules, variant};
use crate::judge::separate;

/// The package's `uuid`: one problem, one identifier, whatever cases a pack holds.
pub const UUID: &str = "7c1f3a52-9d4e-4b8a-a6f0-2e5b8c91d437";

/// The input format validator (`input_validators/validate.py`): accepts exactly
/// what the parser accepts but a size number with a leading zero.
pub const VALIDATOR: &str = include_str!("kattis/validate.py");

/// The accepted submission (`submissions/accepted/beasts.py`).
pub const ACCEPTED: &str = include_str!("kattis/beasts.py");

/// The catalogue readings the accepted submission can be switched to (its `READING`), each
/// a wrong answer.
pub const WRONG_READINGS: [&str; 9] = [
    "order-turn",
    "bump-blocked",
    "target-after",
    "exhaust-stop",
    "distance-manhattan",
    "distance-chebyshev",
    "ties-reversed",
    "beasts-odd-turns",
    "beasts-every-turn",
];

/// The accepted submission switched to the catalogue reading `name`.
pub fn wrong_answer(name: &str) -> String {
    ACCEPTED.replacen("READING = \"\"", &format!("READING = \"{name}\""), 1)
}

/// The readings of [`WRONG_READINGS`] on which some puzzle of `puzzles` gets another answer
/// than ours (so that its submission is judged a wrong answer), within `keep_going`.
pub fn separated_readings(
    puzzles: &[&Puzzle],
    keep_going: &mut dyn FnMut() -> bool,
) -> Vec<&'static str> {
    WRONG_READINGS
        .iter()
        .filter(|name| {
            variant::find(name).is_some_and(|v| {
                let rules = v.apply(Rules::OURS);
                puzzles
                    .iter()
                    .any(|p| !separate::separated(p, &[rules], keep_going).is_empty())
            })
        })
        .copied()
        .collect()
}

/// A case's input as a Kattis package holds it: with standard line breaks. The judge
/// accepts CRLF (a case file may have them; generator 2's robustness twins do, but a
/// package holds none of those), and Kattis's `verifyproblem` warns on any test file that
/// has them; the puzzle is the same.
pub fn standard_line_breaks(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut bytes = input.iter().peekable();
    while let Some(&b) = bytes.next() {
        if b == b'\r' && bytes.peek() == Some(&&b'\n') {
            continue;
        }
        out.push(b);
    }
    out
}

/// The `problem.yaml` of the package.
pub fn problem_yaml() -> String {
    format!(
        "# Written by `beast cases --format kattis`.\n\
         name: \"aHHHH! The Beasts are HHHHere!\"\n\
         source: Code Golf Stack Exchange question 25557\n\
         source_url: https://codegolf.stackexchange.com/questions/25557\n\
         license: cc by-sa\n\
         rights_owner: the beast-judge authors\n\
         uuid: {UUID}\n\
         validation: default\n\
         limits:\n  time_multiplier: 5\n  time_safety_margin: 2\n"
    )
}

/// The statement (`problem_statement/problem.en.tex`) from the rules text: the puzzle's
/// section (`## 1.`) of `rules`, its turn as the description, then its input format and
/// output as the Input and Output sections. `None` if `rules` lacks one of them.
pub fn statement_tex(rules: &str) -> Option<String> {
    let section = section_one(rules)?;
    let part = |title: &str| subsection(section, title);
    let turn = part("One turn")?;
    let input = part("Input format")?;
    let output = part("Output")?;
    let mut tex = String::from(
        "% Written by `beast cases --format kattis` from docs/RULES.md.\n\
         \\problemname{aHHHH! The Beasts are HHHHere!}\n\n",
    );
    tex += "The player \\texttt{O} is in a walled map with beasts \\texttt{H}, solid walls \
            \\texttt{\\#} and movable walls \\textasciitilde{}. Given the map and the player's \
            moves, print how the game ends. Coordinates are (row, column), from zero, with row 0 \
            at the top.\n\n";
    tex += &latex(turn);
    tex += "\n\\section*{Input}\n\n";
    tex += &latex(input);
    tex += "\n\\section*{Output}\n\n";
    tex += &latex(output);
    Some(tex)
}

/// The text of section 1 of the rules, from its heading to the next rule line.
fn section_one(rules: &str) -> Option<&str> {
    let start = rules.find("\n## 1.")? + 1;
    let body = &rules[start..];
    let end = body.find("\n-----").unwrap_or(body.len());
    Some(&body[..end])
}

/// The body of the `### TITLE` subsection of `section`.
fn subsection<'a>(section: &'a str, title: &str) -> Option<&'a str> {
    let heading = format!("\n### {title}\n");
    let start = section.find(&heading)? + heading.len();
    let body = &section[start..];
    let end = body.find("\n### ").map_or(body.len(), |i| i + 1);
    Some(&body[..end])
}

/// A list being written: the indent of its markers and of its items' text, and whether it
/// is numbered.
struct List {
    marker: usize,
    content: usize,
    numbered: bool,
}

impl List {
    fn end(&self) -> &'static str {
        if self.numbered {
            "\\end{enumerate}\n"
        } else {
            "\\end{itemize}\n"
        }
    }
}

/// The Markdown of the rules as LaTeX: paragraphs, nested `-` and `1.` lists (a list nests
/// by its markers' indent, and text less indented than an item's text leaves it), fenced
/// code blocks as `verbatim`, and inline code, bold and italic.
fn latex(markdown: &str) -> String {
    let mut out = String::new();
    let mut lists: Vec<List> = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        if text.is_empty() {
            out.push('\n');
            continue;
        }
        if text.starts_with("```") {
            out += "\\begin{verbatim}\n";
            for code in lines.by_ref() {
                if code.trim_start().starts_with("```") {
                    break;
                }
                out += code.get(indent..).unwrap_or(code.trim_start());
                out.push('\n');
            }
            out += "\\end{verbatim}\n";
            continue;
        }
        match list_item(text) {
            Some((numbered, rest)) => {
                while let Some(top) = lists.pop_if(|top| {
                    top.marker > indent || (top.marker == indent && top.numbered != numbered)
                }) {
                    out += top.end();
                }
                if lists.last().is_none_or(|top| top.marker < indent) {
                    out += if numbered {
                        "\\begin{enumerate}\n"
                    } else {
                        "\\begin{itemize}\n"
                    };
                    lists.push(List {
                        marker: indent,
                        content: indent + text.len() - rest.len(),
                        numbered,
                    });
                }
                out += "\\item ";
                out += &inline(rest);
                out.push('\n');
            }
            None => {
                while let Some(top) = lists.pop_if(|top| top.content > indent) {
                    out += top.end();
                }
                out += &inline(text);
                out.push('\n');
            }
        }
    }
    while let Some(top) = lists.pop() {
        out += top.end();
    }
    out
}

/// A list item's kind and its text: `- x` and `1. x`.
fn list_item(text: &str) -> Option<(bool, &str)> {
    if let Some(rest) = text.strip_prefix("- ") {
        return Some((false, rest));
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text.get(digits..)?.strip_prefix(". ")?;
    (digits > 0).then_some((true, rest))
}

/// One line of Markdown text as LaTeX: `code`, **bold** and *italic*, the rest escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out += "\\texttt{";
            out += &escape(part)
                .replace(' ', "\\ ")
                .replace('\'', "\\textquotesingle{}");
            out += "}";
        } else {
            out += &emphasis(&escape(part));
        }
    }
    out
}

/// `**bold**` and `*italic*` as `\textbf` and `\emph`.
fn emphasis(text: &str) -> String {
    let mut out = String::new();
    let mut bold = false;
    let mut italic = false;
    let mut rest = text;
    while let Some(i) = rest.find('*') {
        out += &rest[..i];
        if rest[i..].starts_with("**") {
            out += if bold { "}" } else { "\\textbf{" };
            bold = !bold;
            rest = &rest[i + 2..];
        } else {
            out += if italic { "}" } else { "\\emph{" };
            italic = !italic;
            rest = &rest[i + 1..];
        }
    }
    out += rest;
    if bold {
        out.push('}');
    }
    if italic {
        out.push('}');
    }
    out
}

/// Text with LaTeX's special characters written as commands.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out += "\\textbackslash{}",
            '{' | '}' | '#' | '$' | '%' | '&' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out += "\\textasciicircum{}",
            '~' => out += "\\textasciitilde{}",
            '…' => out += "\\ldots{}",
            '→' => out += "$\\rightarrow$",
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kattis_input_has_standard_line_breaks_and_the_same_puzzle() {
        let crlf = b"3 3\r\n###\r\n#O#\r\n###\r\nW\r\nR\r\n";
        let lf = standard_line_breaks(crlf);
        assert_eq!(lf, b"3 3\n###\n#O#\n###\nW\nR\n");
        let a = crate::beast::Puzzle::parse(std::str::from_utf8(crlf).expect("text"));
        let b = crate::beast::Puzzle::parse(std::str::from_utf8(&lf).expect("text"));
        assert_eq!(a.map(|p| p.to_string()).ok(), b.map(|p| p.to_string()).ok());
        assert_eq!(standard_line_breaks(b"a\rb\n"), b"a\rb\n");
    }

    const RULES: &str = "# Rules\n\n## 1. Beasts\n\nSource: elsewhere.\n\n### Input format\n\
        ```\nCOLS ROWS\n```\n- Accepted: `#` and `~`.\n  - a *short* row;\n\n### One turn\n\
        1. **The player acts.**\n   - `W`: nothing.\n2. Next.\n\n### Output\nThe score, 50% \
        of it.\n\n### Readings we chose\n| a | b |\n\n-----\n## 2. Other\n";

    #[test]
    fn the_statement_takes_the_turn_input_and_output_of_section_one() {
        let tex = statement_tex(RULES).expect("all three parts");
        assert!(tex.contains("\\problemname{aHHHH! The Beasts are HHHHere!}"));
        let input = tex.find("\\section*{Input}").expect("input");
        let output = tex.find("\\section*{Output}").expect("output");
        let turn = tex.find("\\textbf{The player acts.}").expect("the turn");
        assert!(turn < input && input < output);
        assert!(tex.contains("\\begin{verbatim}\nCOLS ROWS\n\\end{verbatim}"));
        assert!(tex.contains("\\item Accepted: \\texttt{\\#} and \\texttt{\\textasciitilde{}}."));
        assert!(tex.contains("\\item a \\emph{short} row;"));
        assert!(tex.contains("The score, 50\\% of it."));
        assert!(!tex.contains("Readings") && !tex.contains("Source") && !tex.contains("Other"));
    }

    #[test]
    fn lists_nest_and_close_in_order() {
        let tex = latex("1. one\n   - a\n     - b\n   - c\n2. two\n\nafter\n");
        assert_eq!(
            tex,
            "\\begin{enumerate}\n\\item one\n\\begin{itemize}\n\\item a\n\\begin{itemize}\n\
             \\item b\n\\end{itemize}\n\\item c\n\\end{itemize}\n\\item two\n\n\
             \\end{enumerate}\nafter\n"
        );
    }

    #[test]
    fn the_statement_needs_every_part() {
        assert_eq!(statement_tex("## 1. Beasts\n### One turn\nx\n"), None);
    }

    #[test]
    fn wrong_answers_are_the_accepted_submission_with_one_reading() {
        assert!(ACCEPTED.contains("\nREADING = \"\"\n"));
        for name in WRONG_READINGS {
            assert!(
                variant::find(name).is_some(),
                "{name} is not in the catalogue"
            );
            let wa = wrong_answer(name);
            assert!(wa.contains(&format!("\nREADING = \"{name}\"\n")));
            let code = ACCEPTED.split("READING = \"\"").nth(1).unwrap_or_default();
            assert!(code.contains(&format!("\"{name}\"")), "{name} is not read");
        }
    }

    #[test]
    fn a_reading_no_puzzle_tells_apart_gets_no_submission() {
        let plain = Puzzle::parse("5 3\n#####\n#O H#\n#####\n\n").expect("valid");
        let none = separated_readings(&[&plain], &mut || true);
        assert!(!none.contains(&"bump-blocked"));
        let cases = crate::judge::cases::builtin().cases;
        let bump = cases
            .iter()
            .find(|c| c.name == "bump-is-death-not-a-wall")
            .expect("built in");
        assert!(separated_readings(&[&bump.puzzle], &mut || true).contains(&"bump-blocked"));
    }

    #[test]
    fn problem_yaml_has_a_license_and_the_uuid() {
        let yaml = problem_yaml();
        assert!(yaml.contains("license: cc by-sa\n"));
        assert!(yaml.contains(&format!("uuid: {UUID}\n")));
    }
}
