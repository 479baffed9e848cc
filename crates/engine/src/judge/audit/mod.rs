//! `beast audit`, for challenge authors: which known readings of the rules a challenge's
//! examples leave open, a small puzzle that separates each open reading from ours, and the
//! few cases that, added to the examples, decide them all.
//!
//! The known readings ([`known_readings`]) are the catalogue ([`variant::CATALOGUE`]) and the
//! combinations of two or more of the four switches ([`pack::switch_combinations`]); they,
//! the draws and the shrink that keeps a puzzle separating are [`crate::judge::separate`]'s.
//! An example *refutes* a
//! reading when the engine answers differently under it. For each open reading a seeded
//! search ([`Search`]) draws small puzzles (generator 1, at most [`MAX_SIDE`]x[`MAX_SIDE`]
//! with at most [`MAX_MOVES`] moves, from a ChaCha8 stream seeded with the user's seed)
//! until one separates it, then shrinks that one ([`crate::judge::shrink`]). A reading no
//! drawn puzzle separates is *equivalent as far as searched*; one the rules themselves make
//! equivalent to ours ([`impossible`]) is said so with the reason. The added cases are the greedy cover
//! ([`pack::greedy_cover`]) of the open readings by the separating puzzles.
//!
//! Everything here is pure: the binary reads the examples and prints. This file holds the
//! search and the cover; the words of the audit (text, Markdown and JSON) are made in
//! [`words`] ([`words::text`], [`words::markdown`] and [`words::json`]).

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::beast::replay::{self, Limits};
use crate::beast::variant;
use crate::beast::{Puzzle, Rules, Ties};
use crate::judge::cases::{Case, builtin};
use crate::judge::escape;
use crate::judge::pack;
use crate::judge::report::visible;
pub use crate::judge::separate::{MAX_MOVES, MAX_SIDE, WIDE_COLS, known_readings};
use crate::judge::separate::{
    Printed, answer, differ, differs_from, draw, separated, shrink_separating,
};
use crate::judge::verdict;
use crate::words::count;

pub mod words;

/// One drawn puzzle in this many of the search's count is drawn by the wide stage, which
/// runs only when the small stage leaves a reading unseparated.
const WIDE_SHARE: usize = 4;

/// How many times shrinking asks whether a candidate still separates.
const SHRINK_ASKS: usize = 2_000;

/// The most puzzles shrunk to separate several open readings at once.
const MAX_JOINT: usize = 100;

/// The search's parameters, all said in the audit's output so a run can be repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The seed of the ChaCha8 stream the puzzles are drawn from.
    pub seed: u64,
    /// The most puzzles drawn.
    pub puzzles: usize,
}

impl Default for Search {
    /// Seed 1, 20,000 puzzles.
    fn default() -> Self {
        Search {
            seed: 1,
            puzzles: 20_000,
        }
    }
}

/// A puzzle on which two readings print different things.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Separating {
    /// The puzzle, shrunk, in the challenge's own form (LF, full rows, one move line).
    pub puzzle: Puzzle,
    /// What we print.
    pub ours: String,
    /// What the other reading prints.
    pub theirs: String,
    /// The first turn where the two games part (the replay's compare), if the replays tell.
    pub parts_at: Option<u64>,
    /// Which stage of the search found it.
    pub found: Stage,
}

/// The stage of the search that found a separating puzzle: the small puzzles first; then,
/// for a reading none of them separates, the judge's own built-in examples (each designed
/// to decide a rule or a reading), then wider puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A drawn puzzle of at most [`MAX_SIDE`]x[`MAX_SIDE`].
    Small,
    /// The built-in example of this name, past the small puzzles.
    Designed(String),
    /// A drawn puzzle up to [`WIDE_COLS`] columns wide, past the small ones.
    Wide,
}

impl Stage {
    /// The stage as JSON names it: `small`, `designed`, `wide`.
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Small => "small",
            Stage::Designed(_) => "designed",
            Stage::Wide => "wide",
        }
    }

    /// Why the puzzle is bigger than the small ones, in words; empty for a small one.
    fn words(&self) -> String {
        match self {
            Stage::Small => String::new(),
            Stage::Designed(name) => format!(
                "no puzzle of at most {MAX_SIDE}x{MAX_SIDE} separated it, so the search went past them: the built-in example {} does",
                visible(name)
            ),
            Stage::Wide => format!(
                "no puzzle of at most {MAX_SIDE}x{MAX_SIDE} separated it, so the search went past them, to maps of up to {WIDE_COLS} columns"
            ),
        }
    }
}

impl Separating {
    /// The puzzle's text in the challenge's form.
    pub fn text(&self) -> String {
        self.puzzle.to_string()
    }
}

/// Why an open reading has no separating puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equivalent {
    /// The rules make every game under it the same as ours; the reason.
    Impossible(&'static str),
    /// No puzzle of the search separated it.
    AsFarAsSearched,
}

/// A reading the examples leave open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecided {
    /// The reading.
    pub rules: Rules,
    /// The smallest separating puzzle found, or why there is none.
    pub separating: Result<Separating, Equivalent>,
}

/// A reading an example refutes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The reading.
    pub rules: Rules,
    /// The name of the first example (in the examples' order) on which it answers otherwise.
    pub refuted_by: String,
}

/// An example whose expected output (the author's `.out`) is not what the rules give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disputed {
    /// The example's name.
    pub example: String,
    /// What its `.out` says.
    pub theirs: String,
    /// What the rules (our readings) give.
    pub ours: String,
    /// The known readings that give the author's output, in the order of
    /// [`known_readings`].
    pub agrees: Vec<Rules>,
}

/// A case to add to the examples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// The puzzle, in the challenge's form.
    pub puzzle: Puzzle,
    /// What we print on it.
    pub output: String,
    /// The open readings it refutes, as positions in [`Audit::undecided`].
    pub refutes: Vec<usize>,
    /// True if the games of every reading it refutes part only after the moves ran out
    /// (the player waits).
    pub after_moves: bool,
}

impl Added {
    /// The rules it checks, in plain words (one sentence each), from the readings it
    /// refutes among `undecided`.
    pub fn checks(&self, undecided: &[Undecided]) -> Vec<&'static str> {
        let mut rules: Vec<&'static str> = Vec::new();
        for &r in &self.refutes {
            for v in undecided
                .get(r)
                .into_iter()
                .flat_map(|u| variant::held_by(u.rules))
            {
                if !rules.contains(&v.rule) {
                    rules.push(v.rule);
                }
            }
        }
        rules
    }
}

/// The whole audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    /// The examples' names, in order.
    pub examples: Vec<String>,
    /// The examples whose expected output is not the rules', in order: the refutations
    /// compare each reading with the examples' own outputs, these included.
    pub disputed: Vec<Disputed>,
    /// The readings the examples refute, in the order of [`known_readings`].
    pub decided: Vec<Decided>,
    /// The readings they leave open, in the same order.
    pub undecided: Vec<Undecided>,
    /// The cases to add: a greedy cover of the separable open readings.
    pub add: Vec<Added>,
    /// The search's parameters.
    pub search: Search,
    /// How many puzzles the search drew (fewer than asked once every open reading was
    /// separated, or when the caller's budget ran out).
    pub drawn: usize,
    /// True if the caller's budget ended the search before it was done.
    pub stopped: bool,
}

/// The reason the rules make `rules` answer as ours on every puzzle, when they do: a tie
/// order that ranks the orthogonal steps among themselves, and the diagonal steps among
/// themselves, as ours does. An orthogonal and a diagonal step never tie (with offset `d`
/// from the beast to its target, `|d - m1|² - |d - m2|²` is `1 - 2·(an integer)`, odd), so
/// only those two rankings ever break a tie.
pub fn impossible(rules: Rules) -> Option<&'static str> {
    let ties_only = Rules {
        ties: Rules::OURS.ties,
        ..rules
    } == Rules::OURS;
    if !ties_only || rules.ties == Rules::OURS.ties {
        return None;
    }
    let among = |ties: Ties, diagonal: bool| -> Vec<u8> {
        ties.0
            .iter()
            .copied()
            .filter(|n| matches!(n, 1 | 4 | 6 | 7) == diagonal)
            .collect()
    };
    let same = [false, true]
        .iter()
        .all(|&d| among(rules.ties, d) == among(Rules::OURS.ties, d));
    same.then_some(
        "the tie pairs it swaps can never occur: an orthogonal and a diagonal step never tie \
         (their squared distances to any cell differ by an odd number), and it ranks the \
         orthogonal steps among themselves, and the diagonal ones, as we do",
    )
}

/// The separating puzzle `puzzle` with both outputs and the turn where the games part.
fn separating(puzzle: Puzzle, rules: Rules, found: Stage) -> Separating {
    let ours = answer(&puzzle, Rules::OURS, &mut || true).unwrap_or_default();
    let theirs = answer(&puzzle, rules, &mut || true).unwrap_or_default();
    let parts_at = parts_at(&puzzle, rules);
    Separating {
        puzzle,
        ours,
        theirs,
        parts_at,
        found,
    }
}

/// The first turn where the games of `puzzle` under our readings and under `rules` part,
/// if the replays tell.
fn parts_at(puzzle: &Puzzle, rules: Rules) -> Option<u64> {
    match (
        replay::replay(puzzle, Rules::OURS, Limits::default()),
        replay::replay(puzzle, rules, Limits::default()),
    ) {
        (Ok(a), Ok(b)) => replay::first_difference(&a, &b),
        _ => None,
    }
}

/// Audits `examples` against every [`known_readings`] reading: which they refute, which
/// they leave open, a shrunk separating puzzle for each open one (searched as `search`
/// says, while `keep_going` says yes), and the cases to add.
pub fn audit(examples: &[Case], search: Search, keep_going: &mut dyn FnMut() -> bool) -> Audit {
    let mut decided = Vec::new();
    let mut open = Vec::new();
    let readings = known_readings();
    // A reading is refuted by an example whose own output it does not give (the author's
    // `.out` where there is one, else the rules').
    let gives = |c: &Case, rules: Rules| {
        answer(&c.puzzle, rules, &mut || true)
            .is_none_or(|a| verdict::matches(c.expected.as_bytes(), a.as_bytes()))
    };
    let disputed: Vec<Disputed> = examples
        .iter()
        .filter(|c| !gives(c, Rules::OURS))
        .map(|c| Disputed {
            example: c.name.clone(),
            theirs: c.expected.clone(),
            ours: answer(&c.puzzle, Rules::OURS, &mut || true).unwrap_or_default(),
            agrees: readings.iter().copied().filter(|&r| gives(c, r)).collect(),
        })
        .collect();
    for rules in readings {
        let refuted_by = examples.iter().find(|c| !gives(c, rules));
        match refuted_by {
            Some(c) => decided.push(Decided {
                rules,
                refuted_by: c.name.clone(),
            }),
            None => open.push(rules),
        }
    }
    let mut found: Vec<Option<Result<Separating, Equivalent>>> = open
        .iter()
        .map(|&r| impossible(r).map(|why| Err(Equivalent::Impossible(why))))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(search.seed);
    // Puzzles shrunk to separate several open readings at once: candidates for the cover.
    let mut joint: Vec<Puzzle> = Vec::new();
    let mut joint_sets: Vec<Vec<usize>> = Vec::new();
    let mut drawn = 0;
    let mut stopped = false;
    while drawn < search.puzzles && found.iter().any(Option::is_none) {
        if !keep_going() {
            stopped = true;
            break;
        }
        drawn += 1;
        let Some(puzzle) = draw(&mut rng, 3..=MAX_SIDE) else {
            continue;
        };
        let Some(ours) = Printed::within(&puzzle, Rules::OURS, &mut *keep_going) else {
            continue;
        };
        let separates: Vec<usize> = (0..open.len())
            .filter(|&i| {
                !matches!(found[i], Some(Err(_)))
                    && differs_from(&puzzle, ours, open[i], keep_going)
            })
            .collect();
        let newly = separates.iter().filter(|&&i| found[i].is_none()).count();
        for &i in &separates {
            if found[i].is_none() {
                let small = shrink_separating(&puzzle, &[open[i]], SHRINK_ASKS, keep_going);
                found[i] = Some(Ok(separating(small, open[i], Stage::Small)));
            }
        }
        // A puzzle that separates more readings than any kept so far, or new ones with
        // others, is shrunk for them all: a candidate case for the cover.
        let widest = joint_sets.iter().map(Vec::len).max().unwrap_or(1);
        if separates.len() > 1 && (separates.len() > widest || newly > 0) && joint.len() < MAX_JOINT
        {
            let all: Vec<Rules> = separates.iter().map(|&i| open[i]).collect();
            joint.push(shrink_separating(&puzzle, &all, SHRINK_ASKS, keep_going));
            joint_sets.push(separates);
        }
    }
    // Past the small puzzles, for the readings none of them separates: the built-in
    // examples (designed cases, some wider than the small puzzles), then wide draws.
    if !stopped && search.puzzles > 0 && found.iter().any(Option::is_none) {
        let designed = builtin().cases;
        for (i, f) in found.iter_mut().enumerate() {
            if f.is_some() {
                continue;
            }
            let by = designed
                .iter()
                .filter(|c| !c.robustness && !examples.iter().any(|e| e.name == c.name))
                .find(|c| differ(&c.puzzle, Rules::OURS, open[i], keep_going));
            if let Some(c) = by {
                let stage = Stage::Designed(c.name.clone());
                *f = Some(Ok(separating(c.puzzle.clone(), open[i], stage)));
            }
        }
    }
    let wide_budget = drawn + search.puzzles / WIDE_SHARE;
    while drawn < wide_budget && found.iter().any(Option::is_none) && !stopped {
        if !keep_going() {
            stopped = true;
            break;
        }
        drawn += 1;
        let Some(puzzle) = draw(&mut rng, MAX_SIDE + 1..=WIDE_COLS) else {
            continue;
        };
        let Some(ours) = Printed::within(&puzzle, Rules::OURS, &mut *keep_going) else {
            continue;
        };
        for i in 0..open.len() {
            if found[i].is_none() && differs_from(&puzzle, ours, open[i], keep_going) {
                let small = shrink_separating(&puzzle, &[open[i]], SHRINK_ASKS, keep_going);
                found[i] = Some(Ok(separating(small, open[i], Stage::Wide)));
            }
        }
    }
    let undecided: Vec<Undecided> = open
        .iter()
        .zip(found)
        .map(|(&rules, f)| Undecided {
            rules,
            separating: f.unwrap_or(Err(Equivalent::AsFarAsSearched)),
        })
        .collect();
    let add = cover(&undecided, joint);
    Audit {
        examples: examples.iter().map(|c| c.name.clone()).collect(),
        disputed,
        decided,
        undecided,
        add,
        search,
        drawn,
        stopped,
    }
}

/// The `beast` flags of a reading, as the audit names it.
fn flags(rules: Rules) -> String {
    variant::flags(rules)
}

/// The greedy cover of the separable open readings by their separating puzzles and the
/// `joint` ones: the fewest of them (greedily) that refute every one, shorter puzzles first
/// among equals.
fn cover(undecided: &[Undecided], joint: Vec<Puzzle>) -> Vec<Added> {
    let puzzles: Vec<&Puzzle> = undecided
        .iter()
        .filter_map(|u| u.separating.as_ref().ok().map(|s| &s.puzzle))
        .chain(&joint)
        .collect();
    let readings: Vec<Rules> = undecided.iter().map(|u| u.rules).collect();
    let sets: Vec<Vec<usize>> = puzzles
        .iter()
        .map(|p| separated(p, &readings, &mut || true))
        .collect();
    let cost: Vec<usize> = puzzles.iter().map(|p| p.to_string().len()).collect();
    let chosen = pack::greedy_cover(&sets, readings.len(), &cost).chosen;
    chosen
        .into_iter()
        .map(|i| {
            let moves = puzzles[i].moves().len() as u64;
            let after_moves = sets[i]
                .iter()
                .all(|&r| parts_at(puzzles[i], readings[r]).is_some_and(|t| t > moves));
            Added {
                puzzle: puzzles[i].clone(),
                output: answer(puzzles[i], Rules::OURS, &mut || true).unwrap_or_default(),
                refutes: sets[i].clone(),
                after_moves,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::words::text;
    use super::*;

    fn samples() -> Vec<Case> {
        builtin()
            .cases
            .into_iter()
            .filter(|c| pack::is_sample(&c.name))
            .collect()
    }

    #[test]
    fn a_tie_order_that_only_swaps_an_orthogonal_with_a_diagonal_step_is_impossible() {
        let left_upleft = Rules {
            ties: Ties::swapped(1, 2),
            ..Rules::OURS
        };
        assert!(impossible(left_upleft).is_some());
        for r in known_readings() {
            assert_eq!(impossible(r), None, "{}", variant::flags(r));
        }
        assert_eq!(impossible(Rules::OURS), None);
    }

    #[test]
    fn an_example_refutes_a_reading_when_the_reading_answers_otherwise_on_it() {
        let audit = audit(
            &samples(),
            Search {
                seed: 1,
                puzzles: 0,
            },
            &mut || true,
        );
        for d in &audit.decided {
            let c = samples().into_iter().find(|c| c.name == d.refuted_by);
            let c = c.expect("a sample");
            assert!(differ(&c.puzzle, Rules::OURS, d.rules, &mut || true));
        }
        for u in &audit.undecided {
            for c in samples() {
                assert!(!differ(&c.puzzle, Rules::OURS, u.rules, &mut || true));
            }
            assert_eq!(u.separating, Err(Equivalent::AsFarAsSearched));
        }
        assert!(audit.add.is_empty());
    }

    #[test]
    fn separating_puzzles_separate_are_small_and_in_the_challenges_form() {
        let audit = audit(&samples(), Search::default(), &mut || true);
        for u in &audit.undecided {
            let Ok(s) = &u.separating else { continue };
            let text = s.text();
            let again = Puzzle::parse(&text).expect("valid");
            assert_eq!(again, s.puzzle);
            assert!(!text.contains('\r'));
            assert_eq!(text.lines().count(), s.puzzle.map().rows() + 2);
            let side = match s.found {
                Stage::Small => MAX_SIDE,
                _ => WIDE_COLS.max(40),
            };
            assert!(s.puzzle.map().cols() <= side && s.puzzle.map().rows() <= side);
            assert!(s.puzzle.moves().len() <= MAX_MOVES);
            assert!(differ(&s.puzzle, Rules::OURS, u.rules, &mut || true));
            assert_ne!(s.ours, s.theirs);
        }
        for (i, _) in audit.undecided.iter().enumerate() {
            let separable = audit.undecided[i].separating.is_ok();
            let covered = audit.add.iter().any(|a| a.refutes.contains(&i));
            assert_eq!(separable, covered, "{}", flags(audit.undecided[i].rules));
        }
    }

    #[test]
    fn a_reading_no_small_puzzle_separates_is_separated_past_them_and_said_so() {
        // `int(30*sqrt(d))` parts from exact squares only at distances of 15 or more: no
        // map of at most 8x8 holds one.
        let c30 = variant::find("distance-30-sqrt").expect("in the catalogue");
        let audit = audit(&samples(), Search::default(), &mut || true);
        let u = audit
            .undecided
            .iter()
            .find(|u| u.rules == c30.apply(Rules::OURS))
            .expect("the samples leave it open");
        let s = u.separating.as_ref().expect("separated");
        assert_ne!(s.found, Stage::Small);
        assert!(s.puzzle.map().cols() > MAX_SIDE);
        assert!(differ(&s.puzzle, Rules::OURS, u.rules, &mut || true));
        let text = text(&audit);
        assert!(text.contains("so the search went past them"), "{text}");
    }

    #[test]
    fn the_same_seed_gives_the_same_audit() {
        let search = Search {
            seed: 7,
            puzzles: 300,
        };
        let a = audit(&samples(), search, &mut || true);
        let b = audit(&samples(), search, &mut || true);
        assert_eq!(a, b);
    }

    #[test]
    fn a_stopped_search_says_so() {
        let a = audit(&samples(), Search::default(), &mut || false);
        assert!(a.stopped);
        assert!(text(&a).contains("stopped at the engine's budget of steps"));
    }
}
