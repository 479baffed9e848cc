//! The diagnosis of a whole run: which hypotheses explain the answer's outputs, and the
//! failures grouped by cause, one group a mistake.
//!
//! A **hypothesis** predicts the answer's output on every puzzle: a reading of the rules
//! (the 16 combinations of the four switches, each alone and with one more catalogue entry,
//! [`crate::beast::variant`]) with the output reshaped or not ([`Shape`]: one point a crush,
//! the score doubled or off by 2, the death line always missing or always there), or a
//! constant output. Outputs are compared leniently, as PE is.
//!
//! A label must be earned: a hypothesis heads a group only if it reproduces every case of
//! the group and **breaks no passing case** of the run. One case is weak evidence (an answer
//! prints one of a handful of short texts, so some hypothesis gives a single output by
//! chance): a hypothesis is *explained* only with [`STRONG`] wrong answers or more that no
//! simpler hypothesis reproduces; with fewer it is only *consistent*.
//!
//! Failures no earned hypothesis reproduces are the answer's own mistake. They are grouped
//! by the rule event ([`crate::beast::events`]) that best separates them from the passing
//! cases (the Ochiai score of spectrum-based fault localisation), which names the rule.

use crate::beast::events::{self, Event, Events};
use crate::beast::variant::{self, SWITCHES};
use crate::beast::{Ending, Puzzle, Rules, play_out_until};
use crate::judge::robustness::Layout;
use crate::judge::verdict::Verdict;

/// What the answer did on one case, as the diagnosis sees it.
#[derive(Clone, Copy, Debug)]
pub struct Observed<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// How the text the answer was given is laid out, taken from it when the case was made
    /// (a passing case's text is dropped before the diagnosis).
    pub layout: Layout,
    /// The expected output under our readings.
    pub expected: &'a str,
    /// What the answer printed.
    pub got: &'a [u8],
    /// The verdict.
    pub verdict: Verdict,
    /// True if the case passed.
    pub passed: bool,
}

/// The answer a golf answer gives, read leniently: `aHHHH!` and a score, or a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// True if it starts with `aHHHH!`.
    pub eaten: bool,
    /// The score.
    pub score: u64,
}

impl Answer {
    /// Reads `got` with all whitespace ignored; `None` if it is not of the answer's shape
    /// (then no hypothesis can give it).
    pub fn read(got: &[u8]) -> Option<Answer> {
        let text: Vec<u8> = got
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        let (eaten, digits) = match text.strip_prefix(b"aHHHH!") {
            Some(rest) => (true, rest),
            None => (false, &text[..]),
        };
        let canonical = !digits.is_empty()
            && digits.iter().all(u8::is_ascii_digit)
            && (digits[0] != b'0' || digits.len() == 1);
        if !canonical {
            return None;
        }
        let score = std::str::from_utf8(digits).ok()?.parse().ok()?;
        Some(Answer { eaten, score })
    }

    /// The engine's answer on `puzzle` under `rules`; `None` if it cannot be judged.
    fn of(puzzle: &Puzzle, rules: Rules) -> Option<Answer> {
        Answer::within(puzzle, rules, || true)
    }

    /// [`Answer::of`] within the caller's budget; `None` past it.
    fn within(puzzle: &Puzzle, rules: Rules, keep_going: impl FnMut() -> bool) -> Option<Answer> {
        play_out_until(puzzle, rules, keep_going)
            .ok()
            .map(|o| Answer {
                eaten: o.ending == Ending::Eaten,
                score: o.score,
            })
    }

    /// The canonical text: `aHHHH!` and the score on two lines, or the score.
    pub fn text(self) -> String {
        match self.eaten {
            true => format!("aHHHH!\n{}\n", self.score),
            false => format!("{}\n", self.score),
        }
    }
}

/// How an answer's output may be reshaped from a reading's answer: the output-level
/// hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// As the reading prints it.
    Same,
    /// One point a crushed beast instead of two.
    OnePoint,
    /// The score doubled.
    Doubled,
    /// The score plus 2.
    PlusTwo,
    /// The score minus 2.
    MinusTwo,
    /// The `aHHHH!` line never printed.
    NoDeathLine,
    /// The `aHHHH!` line always printed.
    AlwaysDeathLine,
}

/// Every shape, [`Shape::Same`] first.
pub const SHAPES: [Shape; 7] = [
    Shape::Same,
    Shape::OnePoint,
    Shape::Doubled,
    Shape::PlusTwo,
    Shape::MinusTwo,
    Shape::NoDeathLine,
    Shape::AlwaysDeathLine,
];

impl Shape {
    /// The output a reading's answer `a` becomes; `None` if the shape cannot give one.
    pub fn apply(self, a: Answer) -> Option<Answer> {
        let score = |score| Some(Answer { score, ..a });
        match self {
            Shape::Same => Some(a),
            Shape::OnePoint => score(a.score / 2),
            Shape::Doubled => score(a.score * 2),
            Shape::PlusTwo => score(a.score + 2),
            Shape::MinusTwo => a.score.checked_sub(2).and_then(score),
            Shape::NoDeathLine => Some(Answer { eaten: false, ..a }),
            Shape::AlwaysDeathLine => Some(Answer { eaten: true, ..a }),
        }
    }

    /// What the answer does, in words.
    pub fn words(self) -> &'static str {
        match self {
            Shape::Same => "prints the answer as it is",
            Shape::OnePoint => "scores 1 point a crushed beast instead of 2",
            Shape::Doubled => "doubles the score",
            Shape::PlusTwo => "adds 2 to the score",
            Shape::MinusTwo => "takes 2 off the score",
            Shape::NoDeathLine => "never prints the aHHHH! line",
            Shape::AlwaysDeathLine => "always prints the aHHHH! line, even when the player lives",
        }
    }
}

/// A hypothesis of what the answer prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hypothesis {
    /// A reading of the rules, its output reshaped by `shape`.
    Reading {
        /// The reading.
        rules: Rules,
        /// The shape of the output.
        shape: Shape,
    },
    /// The same output whatever the puzzle.
    Constant(Answer),
}

impl Hypothesis {
    /// The hypothesis of one reading printed as it is.
    pub fn reading(rules: Rules) -> Hypothesis {
        Hypothesis::Reading {
            rules,
            shape: Shape::Same,
        }
    }

    /// What it predicts from the reading's answer `a` (ignored by a constant).
    fn predict(self, a: Option<Answer>) -> Option<Answer> {
        match self {
            Hypothesis::Reading { shape, .. } => a.and_then(|a| shape.apply(a)),
            Hypothesis::Constant(c) => Some(c),
        }
    }

    /// What it predicts on `puzzle`.
    pub fn answer(self, puzzle: &Puzzle) -> Option<Answer> {
        match self {
            Hypothesis::Reading { rules, shape } => {
                Answer::of(puzzle, rules).and_then(|a| shape.apply(a))
            }
            Hypothesis::Constant(c) => Some(c),
        }
    }

    /// The reading, if it is one other than ours: the flags of its compare page.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Hypothesis::Reading { rules, .. } if rules != Rules::OURS => Some(rules),
            _ => None,
        }
    }

    /// How far it is from our readings: catalogue entries changed, plus one for a shape or
    /// a constant.
    pub fn cost(self) -> usize {
        match self {
            Hypothesis::Reading { rules, shape } => {
                changes(rules) + usize::from(shape != Shape::Same)
            }
            Hypothesis::Constant(_) => 1,
        }
    }

    /// The `beast` flags of its reading (empty for ours or a constant).
    pub fn flags(self) -> String {
        self.rules().map(variant::flags).unwrap_or_default()
    }

    /// What it says the answer does, in words, without the reading's flags when it is a
    /// reading alone (they are given beside it).
    pub fn plain_words(self) -> String {
        match self {
            Hypothesis::Reading {
                rules,
                shape: Shape::Same,
            } => variant::words(rules),
            h => h.words(),
        }
    }

    /// What it says the answer does, in words, with the reading's flags.
    pub fn words(self) -> String {
        match self {
            Hypothesis::Constant(c) => format!(
                "prints {:?} whatever the puzzle (a constant output)",
                c.text().trim_end()
            ),
            Hypothesis::Reading { rules, shape } => {
                let reading = format!("{} ({})", variant::words(rules), variant::flags(rules));
                match (rules == Rules::OURS, shape) {
                    (true, shape) => format!("it {} (our readings otherwise)", shape.words()),
                    (false, Shape::Same) => reading,
                    (false, shape) => format!("{reading}, and it {}", shape.words()),
                }
            }
        }
    }
}

/// Every reading the diagnosis tries, ours excluded, fewest changes from ours first: the 16
/// combinations of the switches, each alone and with one catalogue entry beyond them.
pub fn readings() -> Vec<Rules> {
    let mut all: Vec<(usize, usize, Rules)> = Vec::new();
    for bits in 0u32..16 {
        let mut rules = Rules::OURS;
        for (i, s) in SWITCHES.iter().enumerate() {
            if bits & (1 << i) != 0 {
                rules = s.other.apply(rules);
            }
        }
        let switches = bits.count_ones() as usize;
        if bits != 0 {
            all.push((switches, 0, rules));
        }
        for (k, v) in variant::beyond_switches().enumerate() {
            all.push((switches + 1, k + 1, v.apply(rules)));
        }
    }
    // Stable: among equals, the order of the switches' bits, then the catalogue's order.
    all.sort_by_key(|&(changes, _, _)| changes);
    all.into_iter().map(|(_, _, r)| r).collect()
}

/// How many catalogue entries a reading changes.
pub fn changes(rules: Rules) -> usize {
    variant::held_by(rules).count()
}

/// How far a diagnosis got; in JSON its [`name`](Status::name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every case passed.
    Correct,
    /// A hypothesis reproduces every wrong answer, breaks no passing case, and the run
    /// holds enough evidence for it.
    Explained,
    /// As explained, but on weak evidence (fewer than [`STRONG`] wrong answers).
    Consistent,
    /// Earned hypotheses reproduce some wrong answers, none all.
    Partial,
    /// No hypothesis earns a label.
    Unexplained,
}

impl Status {
    /// The name used in JSON: `correct`, `explained`, `consistent`, `partial`,
    /// `unexplained`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Explained => "explained",
            Status::Consistent => "consistent",
            Status::Partial => "partial",
            Status::Unexplained => "unexplained",
        }
    }
}

/// How many wrong answers a hypothesis must reproduce, beyond what simpler ones do, to be
/// called explained rather than consistent.
pub const STRONG: usize = 3;

/// The fewest failures a hypothesis must reproduce to head a group beside others: below
/// that a match is as likely chance as cause.
const PART: usize = 3;

/// A hypothesis and how well it explains the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The hypothesis.
    pub hypothesis: Hypothesis,
    /// How many wrong answers it reproduces.
    pub reproduces: usize,
    /// Of how many wrong answers.
    pub of: usize,
    /// How many passing cases it breaks (0 for every label the diagnosis gives).
    pub breaks: usize,
    /// How many of the wrong answers it reproduces no simpler hypothesis does.
    pub evidence: usize,
}

/// The diagnosis of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    /// Where it got.
    pub status: Status,
    /// For explained and consistent: the hypothesis and those the run cannot tell apart
    /// from it; for partial: the head of each group with one; otherwise none.
    pub readings: Vec<Explanation>,
    /// The failures grouped, biggest first.
    pub groups: Vec<Group>,
    /// Cases that gave an output the hypotheses were tried on (WA, and the passing ones).
    pub outputs: usize,
    /// Of those, the passing ones.
    pub passed: usize,
    /// Passing cases that differ only in whitespace (PE).
    pub presentation: usize,
    /// Wrong answers (WA).
    pub wrong: usize,
    /// Failures without an output to explain (TLE, RTE, OLE, ...).
    pub crashed: usize,
    /// Wrong answers that are the engine's own answer under our readings: the expected
    /// output (a case file) is what differs.
    pub disputed: usize,
    /// True if the search stopped early (the caller's budget ran out): it then covers the
    /// hypotheses tried so far.
    pub stopped_early: bool,
}

/// Something a case may go through or have that sets failing cases apart: a rule event of
/// its game, or a trait of its input text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clue {
    /// A rule event.
    Rule(Event),
    /// A trait of the input.
    Input(InputTrait),
}

/// Traits of a case's input text that a golf answer may trip on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputTrait {
    /// CRLF line ends.
    Crlf,
    /// The moves over more than one line.
    SplitMoves,
    /// More than 40 columns.
    Wide,
    /// More than 25 rows.
    Tall,
    /// No moves at all.
    NoMoves,
}

/// Every input trait, in a fixed order.
pub const TRAITS: [InputTrait; 5] = [
    InputTrait::Crlf,
    InputTrait::SplitMoves,
    InputTrait::Wide,
    InputTrait::Tall,
    InputTrait::NoMoves,
];

impl InputTrait {
    /// The stable name, such as `crlf`.
    pub fn name(self) -> &'static str {
        match self {
            InputTrait::Crlf => "crlf",
            InputTrait::SplitMoves => "moves-split",
            InputTrait::Wide => "wide-map",
            InputTrait::Tall => "tall-map",
            InputTrait::NoMoves => "no-moves",
        }
    }

    /// What a case with it has, as a verb phrase.
    pub fn words(self) -> &'static str {
        match self {
            InputTrait::Crlf => "has CRLF line ends",
            InputTrait::SplitMoves => "has its moves split over several lines",
            InputTrait::Wide => "has a map wider than 40 columns",
            InputTrait::Tall => "has a map taller than 25 rows",
            InputTrait::NoMoves => "has no moves at all",
        }
    }

    /// True if the case of `puzzle`, its text laid out as `layout`, has it.
    fn of(self, puzzle: &Puzzle, layout: Layout) -> bool {
        match self {
            InputTrait::Crlf => layout.crlf,
            InputTrait::SplitMoves => layout.moves_split,
            InputTrait::Wide => puzzle.map().cols() > 40,
            InputTrait::Tall => puzzle.map().rows() > 25,
            InputTrait::NoMoves => puzzle.moves().is_empty(),
        }
    }
}

impl Clue {
    /// The stable name: the event's, or the input trait's.
    pub fn name(self) -> &'static str {
        match self {
            Clue::Rule(e) => e.kind().name,
            Clue::Input(t) => t.name(),
        }
    }

    /// What a case with it does or has, as a verb phrase.
    pub fn words(self) -> &'static str {
        match self {
            Clue::Rule(e) => e.kind().words,
            Clue::Input(t) => t.words(),
        }
    }

    /// The rule event, if it is one.
    pub fn event(self) -> Option<Event> {
        match self {
            Clue::Rule(e) => Some(e),
            Clue::Input(_) => None,
        }
    }
}

/// What the rule events (and the input's traits) say of a group: the clue that best
/// separates its cases from the passing ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suspect {
    /// The clue.
    pub event: Clue,

    /// How many of the group's cases go through it.
    pub failing: usize,
    /// Of how many.
    pub of_failing: usize,
    /// How many passing cases go through it.
    pub passing: usize,
    /// Of how many.
    pub of_passing: usize,
}

impl Suspect {
    /// The suspect in words: `every failing case pushes a train of 2 or more ~; no passing
    /// case does`.
    pub fn words(&self) -> String {
        let kind = self.event;
        if self.failing < self.of_failing {
            return format!(
                "the closest clue: a case that {} ({} of the {} failing cases, {} of \
                 the {} passing ones) [{}]",
                kind.words(),
                self.failing,
                self.of_failing,
                self.passing,
                self.of_passing,
                kind.name()
            );
        }
        let failing = match self.of_failing {
            1 => "the failing case",
            _ => "every failing case",
        };
        let passing = match (self.passing, self.of_passing) {
            (0, _) => "no passing case does".to_string(),
            (1, n) => format!("1 passing case of {n} does"),
            (k, n) => format!("{k} passing cases of {n} do"),
        };
        let weak = match self.weak() {
            true => "weak evidence: ",
            false => "",
        };
        format!(
            "{weak}{failing} {}; {passing} [{}]",
            kind.words(),
            kind.name()
        )
    }

    /// True if many passing cases share it (a third or more): it tells little.
    pub fn weak(&self) -> bool {
        self.passing * WEAK >= self.of_passing && self.passing > 0
    }

    /// True if it sets the cases apart exactly: all of them, and no passing case.
    pub fn exact(&self) -> bool {
        self.failing == self.of_failing && self.passing == 0
    }
}

/// A clue shared by this fraction (1 in WEAK) of the passing cases or more is weak evidence.
const WEAK: usize = 3;

/// What a group of failures has in common.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The answer gave the engine's own answer: the expected output is what differs.
    EngineAgrees,
    /// An earned hypothesis reproduces each of them and breaks no passing case.
    Hypothesis {
        /// The hypothesis that heads the group.
        head: Explanation,
        /// Others that reproduce the same cases and break none, as simple: the run cannot
        /// tell them apart.
        also: Vec<Hypothesis>,
    },
    /// No earned hypothesis: a mistake of the answer's own, located by the rule event
    /// that best separates the group from the passing cases (when one does).
    Own {
        /// The event.
        suspect: Option<Suspect>,
    },
    /// Only whitespace differs (PE): passed unless `--strict`.
    Format {
        /// What differs, in words.
        how: String,
    },
    /// The answer gave different outputs on the same case when run again: nondeterministic.
    Flaky {
        /// The case shown, by name.
        name: String,
        /// What it gave on each run, in order.
        outputs: Vec<String>,
    },
    /// The same verdict; for a WA that is not an answer, the output got.
    Verdict {
        /// The verdict.
        verdict: Verdict,
        /// The output got, for a WA that is not an answer at all.
        got: Option<String>,
        /// The rule event that best separates the group from the passing cases.
        suspect: Option<Suspect>,
    },
}

impl Cause {
    /// The suspect event, for a group of the answer's own.
    pub fn suspect(&self) -> Option<Suspect> {
        match self {
            Cause::Own { suspect } | Cause::Verdict { suspect, .. } => *suspect,
            _ => None,
        }
    }
}

/// Failures with one cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The cause.
    pub cause: Cause,
    /// The failing cases, as indices into the observed list, in order.
    pub cases: Vec<usize>,
    /// The smallest of them (fewest cells, then fewest moves).
    pub smallest: usize,
    /// How its label fared on designed cases (`judge::design`), once tried.
    pub confirmation: Option<crate::judge::confirmation::Confirmation>,
}

impl Group {
    fn of(cause: Cause, cases: Vec<usize>, observed: &[Observed]) -> Group {
        let smallest = cases
            .iter()
            .copied()
            .min_by_key(|&i| size(observed[i].puzzle))
            .unwrap_or(0);
        Group {
            cause,
            cases,
            smallest,
            confirmation: None,
        }
    }
}

/// A hypothesis with the failures it reproduces (bits over the explainable wrong answers).
#[derive(Clone, Debug)]
struct Candidate {
    hypothesis: Hypothesis,
    covers: Vec<bool>,
    count: usize,
    breaks: usize,
}

/// Diagnoses a run on `threads` threads. `keep_going` is asked before each reading is
/// tried; once it says `false` the search ends with what it has (the caller's time budget).
pub fn diagnose(
    observed: &[Observed],
    threads: usize,
    keep_going: impl Fn() -> bool + Sync,
) -> Diagnosis {
    // A case the judge could not set up (IE) says nothing of the answer: it is left out.
    let failing: Vec<usize> = (0..observed.len())
        .filter(|&i| !observed[i].passed && observed[i].verdict.judged())
        .collect();
    let wrong: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|&i| observed[i].verdict == Verdict::WrongAnswer && !engine_agrees(&observed[i]))
        .collect();
    let passing: Vec<usize> = (0..observed.len())
        .filter(|&i| observed[i].passed)
        .collect();
    let mut d = Diagnosis {
        status: Status::Unexplained,
        readings: Vec::new(),
        groups: Vec::new(),
        outputs: wrong.len() + passing.len(),
        passed: passing.len(),
        presentation: observed
            .iter()
            .filter(|o| o.verdict == Verdict::Presentation)
            .count(),
        wrong: wrong.len(),
        crashed: failing
            .iter()
            .filter(|&&i| {
                !matches!(
                    observed[i].verdict,
                    Verdict::WrongAnswer | Verdict::Presentation
                )
            })
            .count(),
        disputed: observed.iter().filter(|o| engine_agrees(o)).count(),
        stopped_early: false,
    };
    let mut groups: Vec<Group> = Vec::new();
    let agreed: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|&i| engine_agrees(&observed[i]))
        .collect();
    if !agreed.is_empty() {
        groups.push(Group::of(Cause::EngineAgrees, agreed, observed));
    }
    let explainable: Vec<(usize, Answer)> = wrong
        .iter()
        .filter_map(|&i| Answer::read(observed[i].got).map(|a| (i, a)))
        .collect();
    let mut passing_answers: Vec<(usize, Option<Answer>)> = passing
        .iter()
        .map(|&i| (i, Answer::read(observed[i].got)))
        .collect();
    passing_answers.sort_by_key(|&(i, _)| size(observed[i].puzzle));
    let (candidates, stopped) = if explainable.is_empty() {
        (Vec::new(), false)
    } else {
        search(
            observed,
            &explainable,
            &passing_answers,
            threads,
            &keep_going,
        )
    };
    d.stopped_early = stopped;
    // Earned hypotheses, greedily: the one reproducing the most failures left, simplest
    // first among equals.
    let mut left: Vec<bool> = vec![true; explainable.len()];
    let mut heads: Vec<Explanation> = Vec::new();
    loop {
        let remaining = left.iter().filter(|&&l| l).count();
        let overlap = |c: &Candidate| {
            c.covers
                .iter()
                .zip(&left)
                .filter(|&(&x, &l)| x && l)
                .count()
        };
        let best = candidates
            .iter()
            .filter(|c| c.breaks == 0)
            .map(|c| (overlap(c), c))
            .filter(|&(n, _)| n > 0)
            .min_by_key(|&(n, c)| (std::cmp::Reverse(n), c.hypothesis.cost()));
        let Some((n, best)) = best else { break };
        // Beside other causes a hypothesis needs a few failures of its own; alone it may
        // explain everything on weak evidence (and says so).
        let alone = heads.is_empty() && n == remaining && remaining == wrong.len();
        if !alone && n < PART {
            break;
        }
        let cases: Vec<usize> = (0..explainable.len())
            .filter(|&k| left[k] && best.covers[k])
            .collect();
        let simpler_covers = |k: usize| {
            candidates.iter().any(|c| {
                c.breaks == 0 && c.covers[k] && c.hypothesis.cost() < best.hypothesis.cost()
            })
        };
        let evidence = cases.iter().filter(|&&k| !simpler_covers(k)).count();
        let head = Explanation {
            hypothesis: best.hypothesis,
            reproduces: best.count,
            of: wrong.len(),
            breaks: 0,
            evidence,
        };
        let also: Vec<Hypothesis> = candidates
            .iter()
            .filter(|c| {
                c.breaks == 0
                    && c.hypothesis != best.hypothesis
                    && c.hypothesis.cost() == best.hypothesis.cost()
                    && cases.iter().all(|&k| c.covers[k])
            })
            .map(|c| c.hypothesis)
            .take(4)
            .collect();
        for &k in &cases {
            left[k] = false;
        }
        heads.push(head);
        let indices = cases.iter().map(|&k| explainable[k].0).collect();
        groups.push(Group::of(
            Cause::Hypothesis { head, also },
            indices,
            observed,
        ));
    }
    let all_covered = explainable.len() == wrong.len() && left.iter().all(|&l| !l);
    d.status = match heads.first() {
        Some(h) if all_covered => {
            if h.evidence >= STRONG {
                Status::Explained
            } else {
                Status::Consistent
            }
        }
        Some(_) => Status::Partial,
        None => Status::Unexplained,
    };
    if matches!(d.status, Status::Explained | Status::Consistent) {
        let first = groups.iter().find_map(|g| match &g.cause {
            Cause::Hypothesis { head, also } => Some((head, also)),
            _ => None,
        });
        d.readings = match first {
            Some((head, also)) => std::iter::once(*head)
                .chain(also.iter().map(|&h| Explanation {
                    hypothesis: h,
                    ..*head
                }))
                .collect(),
            None => heads.clone(),
        };
    } else {
        d.readings = heads;
    }
    // The answer's own mistakes, located by the rule events.
    let own: Vec<usize> = (0..explainable.len())
        .filter(|&k| left[k])
        .map(|k| explainable[k].0)
        .collect();
    let garbled: Vec<usize> = wrong
        .iter()
        .copied()
        .filter(|&i| Answer::read(observed[i].got).is_none())
        .collect();
    let crashes: Vec<usize> = failing
        .iter()
        .copied()
        .filter(|&i| {
            !matches!(
                observed[i].verdict,
                Verdict::WrongAnswer | Verdict::Presentation
            )
        })
        .collect();
    let needs_events = !own.is_empty() || !garbled.is_empty() || !crashes.is_empty();
    let spectrum = needs_events.then(|| Spectrum::of(observed, &passing, &keep_going));
    if !own.is_empty() {
        for (cases, suspect) in own_groups(&own, spectrum.as_ref()) {
            groups.push(Group::of(Cause::Own { suspect }, cases, observed));
        }
        if let Some(spectrum) = &spectrum {
            absorb_chance_matches(&mut groups, &mut d, spectrum, observed);
        }
    }
    if !garbled.is_empty() {
        let suspect = spectrum.as_ref().and_then(|s| s.best(&garbled));
        let got = String::from_utf8_lossy(observed[garbled[0]].got)
            .trim_end()
            .to_string();
        let same = garbled
            .iter()
            .all(|&i| String::from_utf8_lossy(observed[i].got).trim_end() == got);
        groups.push(Group::of(
            Cause::Verdict {
                verdict: Verdict::WrongAnswer,
                got: same.then_some(got),
                suspect,
            },
            garbled,
            observed,
        ));
    }
    let mut verdicts: Vec<Verdict> = crashes.iter().map(|&i| observed[i].verdict).collect();
    verdicts.dedup();
    verdicts.sort_by_key(|v| v.code());
    verdicts.dedup();
    for v in verdicts {
        let cases: Vec<usize> = crashes
            .iter()
            .copied()
            .filter(|&i| observed[i].verdict == v)
            .collect();
        let suspect = spectrum.as_ref().and_then(|s| s.best(&cases));
        groups.push(Group::of(
            Cause::Verdict {
                verdict: v,
                got: None,
                suspect,
            },
            cases,
            observed,
        ));
    }
    let pe: Vec<usize> = (0..observed.len())
        .filter(|&i| observed[i].verdict == Verdict::Presentation)
        .collect();
    if !pe.is_empty() {
        let how = format_difference(observed[pe[0]].expected, observed[pe[0]].got);
        groups.push(Group::of(Cause::Format { how }, pe, observed));
    }
    if observed.iter().all(|o| o.passed || !o.verdict.judged()) {
        d.status = Status::Correct;
        d.readings.clear();
    }
    // Biggest first; a format group (passed) after the failures.
    groups.sort_by_key(|g| {
        (
            matches!(g.cause, Cause::Format { .. }),
            std::cmp::Reverse(g.cases.len()),
        )
    });
    d.groups = groups;
    d
}

/// Tries every hypothesis on the run: returns each that breaks no passing case and
/// reproduces at least one of the `explainable` wrong answers (with `breaks` 0; constants
/// also when they break one, with `breaks` counted), and whether `keep_going` stopped the
/// search early.
fn search(
    observed: &[Observed],
    explainable: &[(usize, Answer)],
    passing: &[(usize, Option<Answer>)],
    threads: usize,
    keep_going: &(impl Fn() -> bool + Sync),
) -> (Vec<Candidate>, bool) {
    let mut all = vec![Rules::OURS];
    all.extend(readings());
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let share_of = |rules: &[Rules]| -> Vec<Candidate> {
        let mut found = Vec::new();
        for &rules in rules {
            if !keep_going() {
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                break;
            }
            // A label breaks no passing case: the passing cases first, smallest first, so
            // that most readings are ruled out, every shape, after a few cheap games.
            let mut shapes: Vec<Shape> = SHAPES
                .into_iter()
                .filter(|&s| rules != Rules::OURS || s != Shape::Same)
                .collect();
            for &(i, got) in passing {
                if shapes.is_empty() {
                    break;
                }
                let a = Answer::within(observed[i].puzzle, rules, keep_going);
                shapes.retain(|&shape| {
                    got.is_some() && Hypothesis::Reading { rules, shape }.predict(a) == got
                });
            }
            if shapes.is_empty() {
                continue;
            }
            let answers: Vec<Option<Answer>> = explainable
                .iter()
                .map(|&(i, _)| Answer::within(observed[i].puzzle, rules, keep_going))
                .collect();
            let mut alive: Vec<Candidate> = Vec::new();
            for shape in shapes {
                let hypothesis = Hypothesis::Reading { rules, shape };
                let covers: Vec<bool> = explainable
                    .iter()
                    .zip(&answers)
                    .map(|(&(_, got), &a)| hypothesis.predict(a) == Some(got))
                    .collect();
                let count = covers.iter().filter(|&&c| c).count();
                if count > 0 {
                    alive.push(Candidate {
                        hypothesis,
                        covers,
                        count,
                        breaks: 0,
                    });
                }
            }
            found.extend(alive);
        }
        found
    };
    // The readings are shared out in turn, so each thread gets a fair mix of the costly
    // ones; the results are put back in the readings' order.
    let threads = threads.clamp(1, all.len());
    let shares: Vec<Vec<Rules>> = (0..threads)
        .map(|t| all.iter().skip(t).step_by(threads).copied().collect())
        .collect();
    let mut found: Vec<Candidate> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares
            .iter()
            .map(|share| scope.spawn(|| share_of(share)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let rank = |h: &Hypothesis| match h {
        Hypothesis::Reading { rules, shape } => (
            all.iter().position(|x| x == rules).unwrap_or(usize::MAX),
            SHAPES.iter().position(|s| s == shape).unwrap_or(0),
        ),
        Hypothesis::Constant(_) => (usize::MAX, 0),
    };
    found.sort_by_key(|c| rank(&c.hypothesis));
    // Constant outputs.
    let mut constants: Vec<Answer> = explainable.iter().map(|&(_, a)| a).collect();
    constants.sort_by_key(|a| (a.eaten, a.score));
    constants.dedup();
    for c in constants {
        let covers: Vec<bool> = explainable.iter().map(|&(_, a)| a == c).collect();
        let count = covers.iter().filter(|&&x| x).count();
        let breaks = passing.iter().filter(|&&(_, got)| got != Some(c)).count();
        found.push(Candidate {
            hypothesis: Hypothesis::Constant(c),
            covers,
            count,
            breaks,
        });
    }
    (found, stopped.into_inner())
}

/// The rule events of every case the spectrum needs, under our readings, and the traits
/// of its input.
struct Spectrum {
    /// Each case's events, `None` where they were not recorded.
    events: Vec<Option<Events>>,
    /// Each case's input traits, as bits in the order of [`TRAITS`].
    traits: Vec<u8>,
    /// The passing cases.
    passing: Vec<usize>,
}

impl Spectrum {
    fn of(observed: &[Observed], passing: &[usize], keep_going: &impl Fn() -> bool) -> Spectrum {
        let events = observed
            .iter()
            .map(|o| events::record(o.puzzle, keep_going).ok())
            .collect();
        let traits = observed
            .iter()
            .map(|o| {
                TRAITS
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.of(o.puzzle, o.layout))
                    .fold(0u8, |bits, (k, _)| bits | 1 << k)
            })
            .collect();
        Spectrum {
            events,
            traits,
            passing: passing.to_vec(),
        }
    }

    fn has(&self, i: usize, clue: Clue) -> bool {
        match clue {
            Clue::Rule(e) => self.events[i].as_ref().is_some_and(|x| x.has(e)),
            Clue::Input(t) => {
                let k = TRAITS.iter().position(|&x| x == t).unwrap_or(0);
                self.traits[i] & 1 << k != 0
            }
        }
    }

    /// The event that best separates `failing` from the passing cases: among the events
    /// every failing case goes through, if there are any (a rule read wrong shows only
    /// where the rule is used), the one with the best Ochiai score; `None` if no failing
    /// case goes through any event.
    fn best(&self, failing: &[usize]) -> Option<Suspect> {
        if self.passing.is_empty() {
            return None;
        }
        let clues = Event::all()
            .map(Clue::Rule)
            .chain(TRAITS.iter().map(|&t| Clue::Input(t)));
        let counts: Vec<(Clue, usize)> = clues
            .map(|e| (e, failing.iter().filter(|&&i| self.has(i, e)).count()))
            .collect();
        // A clue every failing case has is preferred, unless many passing cases share it:
        // then the clue that tells failing from passing best (Ochiai) is taken.
        let everywhere = counts.iter().any(|&(e, f)| {
            let p = self.passing.iter().filter(|&&i| self.has(i, e)).count();
            f == failing.len() && p * WEAK < self.passing.len()
        });
        let mut best: Option<(f64, Suspect)> = None;
        for (e, f) in counts {
            if f == 0 || (everywhere && f < failing.len()) {
                continue;
            }
            let p = self.passing.iter().filter(|&&i| self.has(i, e)).count();
            let score = f as f64 / ((failing.len() * (f + p)) as f64).sqrt();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((
                    score,
                    Suspect {
                        event: e,
                        failing: f,
                        of_failing: failing.len(),
                        passing: p,
                        of_passing: self.passing.len(),
                    },
                ));
            }
        }
        best.map(|(_, s)| s)
    }
}

/// One mistake, one group: a hypothesis that heads a smaller group than the answer's own
/// mistake, every case of which goes through the clue that every case of that mistake has,
/// is the same mistake reproduced by chance, not a cause of its own; its cases join the
/// mistake's group, and the diagnosis no longer names it.
fn absorb_chance_matches(
    groups: &mut Vec<Group>,
    d: &mut Diagnosis,
    spectrum: &Spectrum,
    observed: &[Observed],
) {
    let own = groups.iter().position(
        |g| matches!(&g.cause, Cause::Own { suspect: Some(s) } if s.failing == s.of_failing),
    );
    let Some(own) = own else { return };
    let Cause::Own {
        suspect: Some(suspect),
    } = groups[own].cause
    else {
        return;
    };
    let size = groups[own].cases.len();
    let chance = |g: &Group| {
        matches!(g.cause, Cause::Hypothesis { .. })
            && g.cases.len() < size
            && g.cases.iter().all(|&i| spectrum.has(i, suspect.event))
    };
    let mut cases = groups[own].cases.clone();
    let mut gone = Vec::new();
    for g in groups.iter().filter(|g| chance(g)) {
        cases.extend(&g.cases);
        if let Cause::Hypothesis { head, .. } = &g.cause {
            gone.push(head.hypothesis);
        }
    }
    if gone.is_empty() {
        return;
    }
    cases.sort_unstable();
    let suspect = spectrum.best(&cases);
    groups[own] = Group::of(Cause::Own { suspect }, cases, observed);
    groups.retain(|g| !chance(g) || matches!(g.cause, Cause::Own { .. }));
    d.readings.retain(|e| !gone.contains(&e.hypothesis));
    if d.readings.is_empty() {
        d.status = Status::Unexplained;
    }
}

/// The answer's own failures in groups, one a suspect event: the failures that go through
/// the best event are one group; when they are most of what is left (three quarters), the
/// rest joins them, since one mistake need not show in every case the same way.
fn own_groups(own: &[usize], spectrum: Option<&Spectrum>) -> Vec<(Vec<usize>, Option<Suspect>)> {
    const MOST: usize = 4;
    let mut left = own.to_vec();
    let mut groups = Vec::new();
    while !left.is_empty() {
        let suspect = spectrum.and_then(|s| s.best(&left));
        let Some(suspect) = suspect.filter(|_| groups.len() < 2) else {
            groups.push((left, suspect));
            break;
        };
        if suspect.failing * MOST >= left.len() * 3 {
            groups.push((left, Some(suspect)));
            break;
        }
        // One cause, one group: the cases of the same rule told by a sibling event (a crush
        // against `~` beside one against `#`, one tie beside another) join it.
        let (with, without): (Vec<usize>, Vec<usize>) = left.iter().partition(|&&i| {
            spectrum.is_some_and(|s| {
                Event::all()
                    .filter(|&e| same_rule(Clue::Rule(e), suspect.event))
                    .map(Clue::Rule)
                    .chain([suspect.event])
                    .any(|e| s.has(i, e))
            })
        });
        let exact = with
            .iter()
            .filter(|&&i| spectrum.is_some_and(|s| s.has(i, suspect.event)))
            .count();
        groups.push((
            with.clone(),
            Some(Suspect {
                failing: exact,
                of_failing: with.len(),
                ..suspect
            }),
        ));
        left = without;
    }
    groups
}

/// True if two clues tell of the same rule in other spellings: the crushes (against `#`
/// or `~`), the ties.
fn same_rule(a: Clue, b: Clue) -> bool {
    let family = |c: Clue| match c.name() {
        n if n.starts_with("crush-") => "crush",
        n if n.starts_with("tie-") => "tie",
        n => n,
    };
    family(a) == family(b)
}

/// True for a wrong answer that is the engine's own under our readings.
fn engine_agrees(o: &Observed) -> bool {
    o.verdict == Verdict::WrongAnswer && reproduces(o.puzzle, Rules::OURS, o.got)
}

/// What differs between `expected` and `got` when only whitespace does, in words.
pub fn format_difference(expected: &str, got: &[u8]) -> String {
    let got = String::from_utf8_lossy(got);
    let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let mut said = Vec::new();
    if lines(expected) > 1 && lines(&got) == 1 {
        said.push("prints the answer on one line");
    } else if lines(&got) != lines(expected) {
        said.push("splits the answer over other lines");
    }
    if got.contains('\r') {
        said.push("ends lines with CRLF");
    }
    if got.lines().any(|l| l != l.trim()) || got.contains("  ") {
        said.push("adds spaces");
    }
    if !got.ends_with('\n') {
        said.push("leaves out the last newline");
    } else if got.ends_with("\n\n") {
        said.push("adds blank lines");
    }
    if said.is_empty() {
        said.push("changes whitespace");
    }
    format!("format only (PE): it {}", said.join(", "))
}

/// The failures of `observed` grouped by cause, as the diagnosis made them.
pub fn group(_observed: &[Observed], diagnosis: &Diagnosis) -> Vec<Group> {
    diagnosis.groups.clone()
}

/// A puzzle's size for choosing the smallest case: cells, then moves.
pub fn size(p: &Puzzle) -> (usize, usize) {
    (p.map().cols() * p.map().rows(), p.moves().len())
}

/// True if the engine's answers on `puzzle` under `a` and `b` differ (leniently), both
/// being decided. The condition that keeps a shrunk case showing a reading's mistake.
pub fn readings_differ(puzzle: &Puzzle, a: Rules, b: Rules) -> bool {
    match (Answer::of(puzzle, a), Answer::of(puzzle, b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// True if `hypothesis` predicts another answer than ours on `puzzle`: the condition that
/// keeps a shrunk case showing the hypothesis's mistake.
pub fn hypothesis_differs(puzzle: &Puzzle, hypothesis: Hypothesis) -> bool {
    match (hypothesis.answer(puzzle), Answer::of(puzzle, Rules::OURS)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// True if `got` is, leniently, what `hypothesis` predicts on `puzzle`.
pub fn predicted(puzzle: &Puzzle, hypothesis: Hypothesis, got: &[u8]) -> bool {
    Answer::read(got).is_some_and(|a| hypothesis.answer(puzzle) == Some(a))
}

/// True if `got` is, leniently, what the engine answers on `puzzle` under `rules`.
pub fn reproduces(puzzle: &Puzzle, rules: Rules, got: &[u8]) -> bool {
    Answer::read(got).is_some_and(|a| Answer::of(puzzle, rules) == Some(a))
}

/// The readings under which the engine gives `got` on this one case, fewest changes
/// first, up to `limit`: what the case is *consistent with*, not a diagnosis.
pub fn consistent_with(puzzle: &Puzzle, got: &[u8], limit: usize) -> Vec<Rules> {
    let Some(answer) = Answer::read(got) else {
        return Vec::new();
    };
    readings()
        .into_iter()
        .filter(|&r| Answer::of(puzzle, r) == Some(answer))
        .take(limit)
        .collect()
}

/// The kind of a wrong answer, which shrinking keeps: whether the death line and the score
/// differ from the expected answer, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Not an answer at all.
    Garbled,
    /// An answer: (got `aHHHH!` where expected did not or vice versa, the score's order
    /// relative to the expected one).
    Answer {
        /// The death line differs.
        death: bool,
        /// Got's score compared with the expected one.
        score: std::cmp::Ordering,
    },
}

/// The kind of difference between `expected` and `got`.
pub fn difference(expected: &str, got: &[u8]) -> Difference {
    match (Answer::read(expected.as_bytes()), Answer::read(got)) {
        (Some(e), Some(g)) => Difference::Answer {
            death: e.eaten != g.eaten,
            score: g.score.cmp(&e.score),
        },
        _ => Difference::Garbled,
    }
}

/// At most 40 characters of `text`, with `...` when cut.
fn short(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Plain words for a group's cause: the hypothesis (with its evidence when it is weak),
/// the suspect rule event of the answer's own mistake, or the verdict.
pub fn describe(cause: &Cause) -> String {
    match cause {
        Cause::EngineAgrees => "the engine's answer under our readings: the expected output \
                                file may be wrong"
            .to_string(),
        Cause::Hypothesis { head, .. } if head.evidence < STRONG => format!(
            "consistent with: {} (weak evidence: {} wrong {}; try --random 200)",
            head.hypothesis.words(),
            head.evidence,
            if head.evidence == 1 {
                "answer"
            } else {
                "answers"
            }
        ),
        Cause::Hypothesis { head, .. } => head.hypothesis.words(),
        Cause::Own { suspect: Some(s) } => {
            format!("a mistake of the answer's own: {}", s.words())
        }
        Cause::Own { suspect: None } => {
            "a mistake of the answer's own (no rule event sets these cases apart)".to_string()
        }
        Cause::Format { how } => how.clone(),
        Cause::Flaky { name, outputs } => {
            let runs: Vec<String> = outputs
                .iter()
                .map(|o| match o.split_whitespace().collect::<Vec<_>>() {
                    w if w.is_empty() => "nothing".to_string(),
                    w => format!("`{}`", short(&w.join("`/`"))),
                })
                .collect();
            format!(
                "flaky: {name} gave {} (the answer is nondeterministic: no rule is blamed for these cases)",
                runs.join(", ")
            )
        }
        Cause::Verdict {
            verdict,
            got,
            suspect,
        } => {
            let what = match (verdict, got) {
                (Verdict::WrongAnswer, Some(g)) => format!("prints {:?}, not an answer", short(g)),
                (Verdict::WrongAnswer, None) => "prints something that is not an answer".into(),
                (Verdict::TimeLimit, _) => "ran past the time limit".into(),
                (Verdict::RuntimeError, _) => "exited with an error or a signal".into(),
                (Verdict::OutputLimit, _) => "printed more than the output limit".into(),
                (Verdict::MemoryLimit, _) => "used more than the memory limit".into(),
                _ => "a wrong answer".into(),
            };
            match suspect {
                Some(s) if s.exact() => format!("{what}: {}", s.words()),
                _ => what,
            }
        }
    }
}

#[cfg(test)]
mod tests;
