//! The audit in words: the text for a terminal ([`text`]), the Markdown for a Sandbox post
//! ([`markdown`]) and the JSON ([`json`]), each opening with the author's disputed examples.

use serde::Serialize;

use super::*;
use crate::judge::report::json_pretty;

/// The first lines of every rendering when an example's output is not the rules': one a
/// disputed example (`s4.out says `0`; the rules give `aHHHH!` then `0`; it agrees with:
/// --exhaust stop`), then which side the refutations use. `name` escapes an example's name
/// for the medium, `code` writes an output or a flag as code.
fn disputes(audit: &Audit, name: &dyn Fn(&str) -> String, code: &dyn Fn(&str) -> String) -> String {
    let said = |out: &str| {
        let lines: Vec<String> = out.lines().map(code).collect();
        match lines.is_empty() {
            true => "nothing".to_string(),
            false => lines.join(" then "),
        }
    };
    let mut s = String::new();
    for d in &audit.disputed {
        let agrees: Vec<String> = d.agrees.iter().map(|&r| code(&flags(r))).collect();
        let agrees = match agrees.is_empty() {
            true => "no known reading gives it".to_string(),
            false => format!("it agrees with: {}", agrees.join(", ")),
        };
        s += &format!(
            "Your example {}.out says {}; the rules give {}; {agrees}.\n",
            name(&d.example),
            said(&d.theirs),
            said(&d.ours)
        );
    }
    if !audit.disputed.is_empty() {
        s += "The refutations compare each reading with your examples' outputs, these \
              included, not with the rules'.\n\n";
    }
    s
}

/// The search in words: `20000 puzzles drawn at most (1234 drawn), of at most 8x8 with at
/// most 10 moves, --seed 1`.
fn search_words(audit: &Audit) -> String {
    format!(
        "{} random puzzles of at most {MAX_SIDE}x{MAX_SIDE} with at most {MAX_MOVES} moves \
         drawn ({} at most; for a reading none of them separates, then the built-in examples \
         and maps up to {WIDE_COLS} columns wide), --seed {}{}",
        audit.drawn,
        audit.search.puzzles,
        audit.search.seed,
        if audit.stopped {
            "; stopped at the engine's budget of steps"
        } else {
            ""
        }
    )
}

/// What an equivalent reading is, in words.
fn equivalent_words(e: &Equivalent, audit: &Audit) -> String {
    match e {
        Equivalent::Impossible(why) => format!("equivalent by the rules: {why}"),
        Equivalent::AsFarAsSearched => {
            format!("equivalent as far as searched ({})", search_words(audit))
        }
    }
}

/// `text` indented by `pad` spaces, line by line.
fn indent(text: &str, pad: usize) -> String {
    text.lines().map(|l| format!("{:pad$}{l}\n", "")).collect()
}

/// An output on one line: `aHHHH! 0`.
fn one_line(output: &str) -> String {
    output.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The audit for reading in a terminal.
pub fn text(audit: &Audit) -> String {
    let mut s = disputes(audit, &visible, &|t| format!("`{}`", visible(t)));
    s += &format!(
        "Examples: {} ({})\nKnown readings: {} (the catalogue and the switch combinations)\n",
        audit.examples.len(),
        audit
            .examples
            .iter()
            .map(|n| visible(n))
            .collect::<Vec<_>>()
            .join(", "),
        audit.decided.len() + audit.undecided.len()
    );
    s += &format!(
        "\nDecided: {} answer otherwise on an example\n",
        count(audit.decided.len() as u64, "reading")
    );
    let width = audit
        .decided
        .iter()
        .map(|d| flags(d.rules).len())
        .max()
        .unwrap_or(0);
    for d in &audit.decided {
        s += &format!(
            "  {:<width$}  refuted by {}\n",
            flags(d.rules),
            visible(&d.refuted_by)
        );
    }
    if audit.undecided.is_empty() {
        s += "\nUndecided: none. Your examples decide every known reading; nothing to add.\n";
        return s;
    }
    s += &format!(
        "\nUndecided: {} pass every example\n",
        count(audit.undecided.len() as u64, "reading")
    );
    for u in &audit.undecided {
        s += &format!("\n  {}: {}\n", flags(u.rules), variant::words(u.rules));
        match &u.separating {
            Ok(sep) => {
                let (cols, rows) = (sep.puzzle.map().cols(), sep.puzzle.map().rows());
                let parts = sep
                    .parts_at
                    .map_or(String::new(), |t| format!("; the games part at turn {t}"));
                s += &format!(
                    "    separated by this {cols}x{rows} puzzle with {}{parts}:\n",
                    count(sep.puzzle.moves().len() as u64, "move")
                );
                if sep.found != Stage::Small {
                    s += &format!("    ({})\n", sep.found.words());
                }
                s += &indent(&sep.text(), 6);
                s += &format!(
                    "    ours: {}    theirs: {}\n",
                    one_line(&sep.ours),
                    one_line(&sep.theirs)
                );
            }
            Err(e) => s += &format!("    {}\n", equivalent_words(e, audit)),
        }
    }
    if audit.add.is_empty() {
        s += "\nNo case to add: no searched puzzle separates an open reading.\n";
    } else {
        s += &format!(
            "\nAdd {}: together they refute every separable open reading\n",
            count(audit.add.len() as u64, "case")
        );
        for (i, a) in audit.add.iter().enumerate() {
            let names: Vec<String> = a
                .refutes
                .iter()
                .map(|&r| flags(audit.undecided[r].rules))
                .collect();
            s += &format!("\n  case {} (refutes {}):\n", i + 1, names.join("; "));
            s += &indent(&a.puzzle.to_string(), 6);
            s += "    output:\n";
            s += &indent(&a.output, 6);
        }
    }
    s += &format!("\nSearch: {}\n", search_words(audit));
    s
}

/// The note of a proposed case decided only after the moves ran out.
const AFTER_MOVES: &str = "It is decided only after the moves run out: the player keeps \
     waiting, and the beasts keep moving, until one gets him or the game is a stalemate.";

/// The audit as a block to paste into a sandbox post: what the examples do not decide, and
/// the test cases that do.
pub fn markdown(audit: &Audit) -> String {
    let mut s = disputes(audit, &escape::markdown_text, &escape::markdown_code);
    if audit.undecided.is_empty() {
        return s + "Your examples decide every reading of the rules that `beast audit` knows: \
               no test case to add.\n";
    }
    s += "Your examples do not decide:\n\n";
    for u in &audit.undecided {
        s += &format!("- `{}`: {}\n", flags(u.rules), variant::words(u.rules));
    }
    s += &match audit.add.len() {
        0 => "\nNo test case found decides them.\n".to_string(),
        1 => "\nThis test case does:\n".to_string(),
        n => format!("\nThese {n} test cases do:\n"),
    };
    for (i, a) in audit.add.iter().enumerate() {
        s += &format!(
            "\nTest case {}:\n\n```\n{}```\n\nOutput:\n\n```\n{}```\n",
            i + 1,
            a.puzzle,
            a.output
        );
        s += &match a.checks(&audit.undecided).as_slice() {
            [] => String::new(),
            [one] => format!("\nIt checks that {one}.\n"),
            all => {
                let each: Vec<String> = all.iter().map(|r| format!("- {r}\n")).collect();
                format!("\nIt checks that:\n\n{}", each.concat())
            }
        };
        if a.after_moves {
            s += &format!("\n{AFTER_MOVES}\n");
        }
    }
    let equivalent: Vec<String> = audit
        .undecided
        .iter()
        .filter_map(|u| {
            u.separating
                .as_ref()
                .err()
                .map(|e| format!("`{}`: {}", flags(u.rules), equivalent_words(e, audit)))
        })
        .collect();
    if !equivalent.is_empty() {
        s += &format!("\nNot decided by any case: {}.\n", equivalent.join("; "));
    }
    s
}

/// A separating puzzle in the JSON output.
#[derive(Serialize)]
struct JsonSeparating {
    puzzle: String,
    ours: String,
    theirs: String,
    parts_at: Option<u64>,
    found: &'static str,
    designed: Option<String>,
}

/// An open reading in the JSON output.
#[derive(Serialize)]
struct JsonUndecided {
    flags: String,
    words: String,
    separating: Option<JsonSeparating>,
    equivalent: Option<String>,
}

/// A refuted reading in the JSON output.
#[derive(Serialize)]
struct JsonDecided {
    flags: String,
    refuted_by: String,
}

/// An added case in the JSON output.
#[derive(Serialize)]
struct JsonAdded {
    puzzle: String,
    output: String,
    refutes: Vec<String>,
    checks: Vec<&'static str>,
    after_moves: bool,
}

/// The search in the JSON output.
#[derive(Serialize)]
struct JsonSearch {
    seed: u64,
    puzzles: usize,
    drawn: usize,
    stopped: bool,
    max_side: usize,
    max_moves: usize,
    wide_cols: usize,
}

/// The JSON output.
#[derive(Serialize)]
struct JsonAudit {
    examples: Vec<String>,
    disputed: Vec<JsonDisputed>,
    refuted_against: &'static str,
    undecided: Vec<JsonUndecided>,
    decided: Vec<JsonDecided>,
    add: Vec<JsonAdded>,
    search: JsonSearch,
}

/// An example whose output is not the rules', in JSON.
#[derive(Serialize)]
struct JsonDisputed {
    example: String,
    theirs: String,
    ours: String,
    agrees_with: Vec<String>,
}

/// The audit as pretty JSON with a final newline: `{"disputed": [{"example", "theirs",
/// "ours", "agrees_with"}], "refuted_against", "undecided": [{"flags", "separating":
/// {"puzzle", "ours", "theirs"} | null, "equivalent"}], "decided": [{"flags",
/// "refuted_by"}], "add": [{"puzzle", "output"}]}`, plus the words, the turn where the
/// games part, what each added case refutes, the examples and the search. `equivalent` is
/// `null` for a separated reading, else the reason in words.
pub fn json(audit: &Audit) -> String {
    let doc = JsonAudit {
        examples: audit.examples.clone(),
        disputed: audit
            .disputed
            .iter()
            .map(|d| JsonDisputed {
                example: d.example.clone(),
                theirs: d.theirs.clone(),
                ours: d.ours.clone(),
                agrees_with: d.agrees.iter().map(|&r| flags(r)).collect(),
            })
            .collect(),
        refuted_against: "the examples' outputs",
        undecided: audit
            .undecided
            .iter()
            .map(|u| JsonUndecided {
                flags: flags(u.rules),
                words: variant::words(u.rules),
                separating: u.separating.as_ref().ok().map(|s| JsonSeparating {
                    puzzle: s.text(),
                    ours: s.ours.clone(),
                    theirs: s.theirs.clone(),
                    parts_at: s.parts_at,
                    found: s.found.name(),
                    designed: match &s.found {
                        Stage::Designed(name) => Some(name.clone()),
                        _ => None,
                    },
                }),
                equivalent: u
                    .separating
                    .as_ref()
                    .err()
                    .map(|e| equivalent_words(e, audit)),
            })
            .collect(),
        decided: audit
            .decided
            .iter()
            .map(|d| JsonDecided {
                flags: flags(d.rules),
                refuted_by: d.refuted_by.clone(),
            })
            .collect(),
        add: audit
            .add
            .iter()
            .map(|a| JsonAdded {
                puzzle: a.puzzle.to_string(),
                output: a.output.clone(),
                refutes: a
                    .refutes
                    .iter()
                    .map(|&r| flags(audit.undecided[r].rules))
                    .collect(),
                checks: a.checks(&audit.undecided),
                after_moves: a.after_moves,
            })
            .collect(),
        search: JsonSearch {
            seed: audit.search.seed,
            puzzles: audit.search.puzzles,
            drawn: audit.drawn,
            stopped: audit.stopped,
            max_side: MAX_SIDE,
            max_moves: MAX_MOVES,
            wide_cols: WIDE_COLS,
        },
    };
    // Serializing strings, numbers and options cannot fail.
    let mut text = serde_json::to_value(&doc).map_or_else(|_| String::new(), |v| json_pretty(&v));
    text.push('\n');
    text
}
