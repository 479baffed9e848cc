//! What the challenge promises, and the robustness set beyond it.
//!
//! The challenge shows its input with LF line ends, every map row full width and the moves
//! on one line. `beast check` judges answers on that form only. Input that RULES.md accepts
//! but the challenge never promises — CRLF line ends, the moves split over several lines —
//! makes the opt-in **robustness set** (`--robustness`): its results are reported in a
//! section of their own and never count as failures. (RULES.md also accepts a short row,
//! padded with spaces; but the padding then reaches the right border, which must be `#`, so
//! no valid puzzle has one and the set has none.)
//!
//! This module owns the [`TextForms`] of a case's text (computed from its bytes when the case
//! is made, so it stays true once a passing case's text is dropped), the text of a puzzle
//! in a layout, the names of the random cases' robustness twins, and the section's report.

use crate::beast::{Puzzle, move_string};

/// A form of input beyond the challenge's promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// CRLF line ends.
    Crlf,
    /// The moves over more than one line.
    SplitMoves,
}

/// Every form, in a fixed order.
pub const FORMS: [Form; 2] = [Form::Crlf, Form::SplitMoves];

impl Form {
    /// The stable name, such as `crlf`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Crlf => "crlf",
            Form::SplitMoves => "moves-split",
        }
    }

    /// When an answer fails on it, as the section says: `fails {words}`.
    pub fn fails_when(self) -> &'static str {
        match self {
            Form::Crlf => "with CRLF line ends",
            Form::SplitMoves => "when the moves are split over lines",
        }
    }
}

/// How a case's text is laid out beyond what its puzzle says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextForms {
    /// Some line ends with CR LF.
    pub crlf: bool,
    /// The moves take more than one non-blank line.
    pub moves_split: bool,
}

impl TextForms {
    /// The layout of `input`, the text of `puzzle`.
    pub fn of(puzzle: &Puzzle, input: &[u8]) -> TextForms {
        let rows = puzzle.map().rows();
        let text = String::from_utf8_lossy(input);
        let move_lines = text
            .lines()
            .skip(rows + 1)
            .filter(|l| !l.trim().is_empty())
            .count();
        TextForms {
            crlf: input.contains(&b'\r'),
            moves_split: move_lines > 1,
        }
    }

    /// True if the text is in the challenge's own form.
    pub fn promised(self) -> bool {
        self.forms().next().is_none()
    }

    /// True if the text has `form`.
    pub fn has(self, form: Form) -> bool {
        match form {
            Form::Crlf => self.crlf,
            Form::SplitMoves => self.moves_split,
        }
    }

    /// The forms beyond the promise the text has.
    pub fn forms(self) -> impl Iterator<Item = Form> {
        FORMS.into_iter().filter(move |&f| self.has(f))
    }
}

/// The text of `puzzle` with CRLF line ends when `crlf`, and its moves split every `split`
/// moves when asked; with neither, the challenge's own form (the puzzle's `Display`).
pub fn text(puzzle: &Puzzle, crlf: bool, split: Option<usize>) -> String {
    let end = if crlf { "\r\n" } else { "\n" };
    let mut text = format!("{} {}{end}", puzzle.map().cols(), puzzle.map().rows());
    for r in 0..puzzle.map().rows() {
        let row: String = puzzle.map().row(r).iter().map(|c| c.symbol()).collect();
        text += &row;
        text += end;
    }
    let moves = move_string(puzzle.moves());
    match split {
        Some(width) if width > 0 && !moves.is_empty() => {
            for chunk in moves.as_bytes().chunks(width) {
                text += &String::from_utf8_lossy(chunk);
                text += end;
            }
        }
        _ => {
            text += &moves;
            text += end;
        }
    }
    text
}

/// What ends the name of a random case's robustness twin: `random-1-6.robust`.
pub const TWIN_SUFFIX: &str = ".robust";

/// The name of the robustness twin of the random case `name`.
pub fn twin_name(name: &str) -> String {
    format!("{name}{TWIN_SUFFIX}")
}

/// The case a robustness twin is the twin of, if `name` is a twin's.
pub fn base_of(name: &str) -> Option<&str> {
    name.strip_suffix(TWIN_SUFFIX)
}

/// One form's figures in the section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormFigures {
    /// The form.
    pub form: Form,
    /// Cases of the set with it.
    pub cases: usize,
    /// Of those, the ones that failed where the same puzzle in the challenge's form passed.
    pub failed: usize,
    /// True if the section says the answer fails on it.
    pub blamed: bool,
}

/// The robustness section of one answer's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobustnessReport {
    /// Cases of the set that ran.
    pub ran: usize,
    /// Cases of the set that failed.
    pub failed: usize,
    /// Each form's figures, in the order of [`FORMS`], forms no case has left out.
    pub forms: Vec<FormFigures>,
    /// The failing cases' names, in run order.
    pub failing: Vec<String>,
    /// The section's sentence, with its `robustness: ` prefix.
    pub sentence: String,
}

/// One case of the robustness set, as the section sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ran<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its text's layout.
    pub layout: TextForms,
    /// True if it passed.
    pub passed: bool,
}

/// The section for the robustness cases `ran` (each with its layout); `promised_passed`
/// tells whether the case of that name, in the challenge's form, passed (a twin's base). A
/// failure is put down to the input's form only where the base passed or is not in the run.
/// `None` when no robustness case ran.
pub fn report(
    ran: &[Ran],
    promised_passed: &dyn Fn(&str) -> Option<bool>,
) -> Option<RobustnessReport> {
    if ran.is_empty() {
        return None;
    }
    let failing: Vec<&Ran> = ran.iter().filter(|r| !r.passed).collect();
    let for_its_form = |r: &Ran| base_of(r.name).and_then(promised_passed).unwrap_or(true);
    let forms: Vec<FormFigures> = FORMS
        .into_iter()
        .filter(|&f| ran.iter().any(|r| r.layout.has(f)))
        .map(|form| {
            let with = |l: &TextForms| l.has(form);
            let alone = |l: &TextForms| l.forms().eq([form]);
            let failed = failing
                .iter()
                .filter(|r| with(&r.layout) && for_its_form(r))
                .count();
            let alone_failed = failing.iter().any(|r| alone(&r.layout) && for_its_form(r));
            let alone_ran = ran.iter().any(|r| alone(&r.layout));
            FormFigures {
                form,
                cases: ran.iter().filter(|r| with(&r.layout)).count(),
                failed,
                blamed: failed > 0 && (alone_failed || !alone_ran),
            }
        })
        .collect();
    let own_form_too = failing.iter().filter(|r| !for_its_form(r)).count();
    let sentence = sentence(ran.len(), failing.len(), &forms, own_form_too);
    Some(RobustnessReport {
        ran: ran.len(),
        failed: failing.len(),
        forms,
        failing: failing.iter().map(|r| r.name.to_string()).collect(),
        sentence,
    })
}

/// `case` or `cases`.
fn cases_word(n: usize) -> &'static str {
    if n == 1 { "case" } else { "cases" }
}

/// The section's sentence.
fn sentence(ran: usize, failed: usize, forms: &[FormFigures], own_form_too: usize) -> String {
    let what: Vec<&str> = forms
        .iter()
        .map(|f| match f.form {
            Form::Crlf => "CRLF line ends",
            Form::SplitMoves => "moves split over lines",
        })
        .collect();
    if failed == 0 {
        return format!(
            "robustness: all {ran} {} beyond the challenge's promise pass ({}).",
            cases_word(ran),
            what.join(", ")
        );
    }
    let blamed: Vec<String> = forms
        .iter()
        .filter(|f| f.blamed)
        .map(|f| {
            format!(
                "{} ({} of {} such {})",
                f.form.fails_when(),
                f.failed,
                f.cases,
                cases_word(f.cases)
            )
        })
        .collect();
    let mut s = if blamed.is_empty() {
        format!("robustness: {failed} of {ran} cases beyond the challenge's promise fail")
    } else {
        format!("robustness: fails {}", blamed.join(" and "))
    };
    s += "; the challenge does not promise such input, so they do not count as failures.";
    let clean: Vec<String> = forms
        .iter()
        .filter(|f| f.failed == 0)
        .map(|f| format!("{} ({})", f.form.fails_when(), f.cases))
        .collect();
    if !clean.is_empty() {
        s += &format!(" It passes every case {}.", clean.join(" and "));
    }
    if own_form_too > 0 && !blamed.is_empty() {
        s += &format!(
            " {own_form_too} more {} in the challenge's own form too (see the diagnosis).",
            match own_form_too {
                1 => "fails",
                _ => "fail",
            }
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str = "5 3\n#####\n#O~H#\n#####\nRWWLD\n";

    fn puzzle() -> Puzzle {
        Puzzle::parse(PUZZLE).expect("valid")
    }

    fn ran(name: &str, layout: TextForms, passed: bool) -> Ran<'_> {
        Ran {
            name,
            layout,
            passed,
        }
    }

    #[test]
    fn the_challenges_own_form_is_promised() {
        let p = puzzle();
        assert!(TextForms::of(&p, PUZZLE.as_bytes()).promised());
        assert_eq!(text(&p, false, None), PUZZLE);
        assert_eq!(text(&p, false, Some(10)), PUZZLE);
    }

    #[test]
    fn crlf_and_split_moves_are_beyond_the_promise() {
        let p = puzzle();
        let crlf = text(&p, true, None);
        assert_eq!(
            TextForms::of(&p, crlf.as_bytes()),
            TextForms {
                crlf: true,
                moves_split: false
            }
        );
        let split = text(&p, false, Some(2));
        assert!(split.ends_with("\nRW\nWL\nD\n"), "{split}");
        let l = TextForms::of(&p, split.as_bytes());
        assert!(l.moves_split && !l.crlf && !l.promised());
        assert_eq!(l.forms().collect::<Vec<_>>(), [Form::SplitMoves]);
        for t in [crlf, split] {
            assert_eq!(Puzzle::parse(&t), Ok(p.clone()), "{t:?}");
        }
    }

    #[test]
    fn a_twin_is_named_after_its_case() {
        assert_eq!(twin_name("random-1-6"), "random-1-6.robust");
        assert_eq!(base_of("random-1-6.robust"), Some("random-1-6"));
        assert_eq!(base_of("random-1-6"), None);
    }

    #[test]
    fn the_section_names_the_form_that_fails_where_the_one_line_form_passes() {
        let split = TextForms {
            crlf: false,
            moves_split: true,
        };
        let crlf = TextForms {
            crlf: true,
            moves_split: false,
        };
        let both = TextForms {
            crlf: true,
            moves_split: true,
        };
        let all = [
            ran("random-1-1.robust", split, false),
            ran("random-1-2.robust", split, true),
            ran("random-1-3.robust", crlf, true),
            ran("random-1-4.robust", both, false),
            ran("random-1-5.robust", split, false),
        ];
        // random-1-5 fails in the challenge's form too.
        let base = |name: &str| Some(name != "random-1-5");
        let r = report(&all, &base).expect("a section");
        assert_eq!((r.ran, r.failed), (5, 3));
        assert_eq!(r.forms.len(), 2);
        assert_eq!((r.forms[0].form, r.forms[0].failed), (Form::Crlf, 1));
        assert!(!r.forms[0].blamed, "the CRLF-only case passed");
        assert_eq!((r.forms[1].cases, r.forms[1].failed), (4, 2));
        assert!(r.forms[1].blamed);
        assert_eq!(
            r.sentence,
            "robustness: fails when the moves are split over lines (2 of 4 such cases); the \
             challenge does not promise such input, so they do not count as failures. 1 more \
             fails in the challenge's own form too (see the diagnosis)."
        );
        assert_eq!(
            r.failing,
            [
                "random-1-1.robust",
                "random-1-4.robust",
                "random-1-5.robust"
            ]
        );
    }

    #[test]
    fn a_set_that_passes_says_so_and_no_set_says_nothing() {
        let crlf = TextForms {
            crlf: true,
            moves_split: false,
        };
        let r = report(&[ran("x", crlf, true)], &|_| None).expect("a section");
        assert_eq!(
            r.sentence,
            "robustness: all 1 case beyond the challenge's promise pass (CRLF line ends)."
        );
        assert_eq!(report(&[], &|_| None), None);
    }
}
