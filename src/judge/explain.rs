//! Explaining a wrong answer: which other readings of the rules (RULES.md 1, "Readings we
//! chose") reproduce the candidate's output, said in plain words.

use crate::beast::{Bump, Exhaust, Order, Puzzle, Rules, Target, judge};
use crate::judge::verdict;

/// Every combination of readings other than ours, fewest changes first; among equals in the
/// order `--order`, `--bump`, `--target`, `--exhaust`.
pub fn other_readings() -> Vec<Rules> {
    let mut all: Vec<(u32, u32, Rules)> = (1u32..16)
        .map(|bits| {
            let rules = Rules {
                order: if bits & 1 != 0 {
                    Order::Turn
                } else {
                    Order::Initial
                },
                bump: if bits & 2 != 0 {
                    Bump::Blocked
                } else {
                    Bump::Death
                },
                target: if bits & 4 != 0 {
                    Target::After
                } else {
                    Target::Start
                },
                exhaust: if bits & 8 != 0 {
                    Exhaust::Stop
                } else {
                    Exhaust::Wait
                },
            };
            (bits.count_ones(), bits.reverse_bits(), rules)
        })
        .collect();
    // reverse_bits ranks `--order` (bit 0) first among combinations of equal size.
    all.sort_by_key(|&(n, order, _)| (n, std::cmp::Reverse(order)));
    all.into_iter().map(|(_, _, r)| r).collect()
}

/// The readings of `rules` that differ from ours, one `(words, flag)` pair each.
fn differences(rules: Rules) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    if rules.order == Order::Turn {
        out.push((
            "the beasts are re-ranked by position every turn",
            "--order turn",
        ));
    }
    if rules.bump == Bump::Blocked {
        out.push((
            "walking into a beast is blocked instead of fatal",
            "--bump blocked",
        ));
    }
    if rules.target == Target::After {
        out.push((
            "the beasts aim at the player after his move",
            "--target after",
        ));
    }
    if rules.exhaust == Exhaust::Stop {
        out.push(("the game stops when the moves run out", "--exhaust stop"));
    }
    out
}

/// The flags that select `rules`, such as `--target after --exhaust stop`; empty for ours.
pub fn flags(rules: Rules) -> String {
    differences(rules)
        .iter()
        .map(|(_, f)| *f)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One reading in plain words with its flags, such as
/// `the game stops when the moves run out (--exhaust stop)`.
pub fn describe(rules: Rules) -> String {
    let words: Vec<&str> = differences(rules).iter().map(|(w, _)| *w).collect();
    let words = match words.as_slice() {
        [] => "our readings".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    format!("{words} ({})", flags(rules))
}

/// The readings with the fewest changes from ours under which the engine's answer matches
/// `got` (leniently, as in [`verdict::compare`]). Empty when none does.
pub fn matching_readings(puzzle: &Puzzle, got: &[u8]) -> Vec<Rules> {
    let mut found: Vec<Rules> = Vec::new();
    let mut size = None;
    for rules in other_readings() {
        let n = differences(rules).len();
        if size.is_some_and(|s| n > s) {
            break;
        }
        let Ok(outcome) = judge(puzzle, rules) else {
            continue;
        };
        if verdict::matches(outcome.answer().as_bytes(), got) {
            found.push(rules);
            size = Some(n);
        }
    }
    found
}

/// What [`explain`] says when `got` is the engine's own answer under our readings, so the
/// expected output, not the candidate, is what differs.
pub const ENGINE_AGREES: &str =
    "matches the engine's answer under our readings: the expected output file may be wrong";

/// The explanation of a wrong answer, such as
/// `matches if the game stops when the moves run out (--exhaust stop)`, or `None` when no
/// other reading reproduces `got`. When our own readings reproduce it, says so
/// ([`ENGINE_AGREES`]) rather than blaming a reading.
pub fn explain(puzzle: &Puzzle, got: &[u8]) -> Option<String> {
    if judge(puzzle, Rules::default()).is_ok_and(|o| verdict::matches(o.answer().as_bytes(), got)) {
        return Some(ENGINE_AGREES.to_string());
    }
    let found = matching_readings(puzzle, got);
    if found.is_empty() {
        return None;
    }
    let parts: Vec<String> = found.into_iter().map(describe).collect();
    Some(format!("matches if {}", parts.join(", or if ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAPER: &str = "5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";

    #[test]
    fn fifteen_other_readings_single_changes_first() {
        let all = other_readings();
        assert_eq!(all.len(), 15);
        assert!(!all.contains(&Rules::default()));
        let firsts: Vec<String> = all[..4].iter().map(|&r| flags(r)).collect();
        assert_eq!(
            firsts,
            [
                "--order turn",
                "--bump blocked",
                "--target after",
                "--exhaust stop"
            ]
        );
        assert_eq!(
            flags(all[14]),
            "--order turn --bump blocked --target after --exhaust stop"
        );
    }

    #[test]
    fn stopping_when_the_moves_run_out_is_named() {
        let p = Puzzle::parse(REAPER).expect("valid");
        assert_eq!(
            explain(&p, b"0\n").as_deref(),
            Some("matches if the game stops when the moves run out (--exhaust stop)")
        );
    }

    #[test]
    fn an_answer_no_reading_gives_is_unexplained() {
        let p = Puzzle::parse(REAPER).expect("valid");
        assert_eq!(explain(&p, b"42\n"), None);
    }

    #[test]
    fn combined_readings_are_said_together() {
        let rules = Rules {
            target: Target::After,
            exhaust: Exhaust::Stop,
            ..Rules::default()
        };
        assert_eq!(
            describe(rules),
            "the beasts aim at the player after his move and the game stops when the moves \
             run out (--target after --exhaust stop)"
        );
    }

    #[test]
    fn aiming_after_the_move_is_found_on_sample_three() {
        // Sample 3 (`WRD` -> 2) needs `--target start`; aiming after the move, the beast
        // eats the player instead.
        let p = Puzzle::parse("5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWRD\n").expect("valid");
        let found = matching_readings(&p, b"aHHHH!\n0\n");
        assert!(
            found.iter().any(|r| r.target == Target::After),
            "{:?}",
            found
        );
    }
}
