//! Designed cases: the experiment that confirms a label before it heads a group.
//!
//! A label (a reading, an output shape, a constant, or the rule event that locates an
//! answer's own mistake) is a hypothesis of what the answer does. Matching the outputs it was
//! chosen for is no test of it: a mistake of the answer's own can give some of them by
//! chance. So the judge *designs* new cases on which the label predicts an output different
//! from every rival's, and the answer is run on them:
//!
//! - the rivals of a hypothesis are our reading, the run's other labels (and the hypotheses
//!   the run could not tell from it), and an own mistake elsewhere: such a mistake gives
//!   the outputs the answer's failures give most (`0`, `aHHHH!` and `0`), so a designed case
//!   never has one of those as its prediction;
//! - a label of several parts (a reading and a catalogue entry, or a reading and an output
//!   shape) is tested part by part: each part's cases are ones where the label without that
//!   part predicts another output;
//! - a rule event's cases come in pairs: a puzzle of the group where it fires, and the same
//!   puzzle changed by one cell or one move so that it no longer fires (every other event
//!   the same, or but one: a train cut to one `~` pushes one instead). The label predicts a
//!   wrong answer on the first and ours on the second.
//!
//! The cases are made around the group's own puzzles: each shrunk while the label still
//! tells, then changed one cell or move at a time in a seeded order, and, when those run out,
//! by the generator. Everything here is pure and seeded; the binary runs the answer on the
//! cases and [`Experiment::judge`] counts what matched. A label stays only if every part
//! matched on [`ENOUGH`] designed cases ([`settle`]); otherwise its group says "weak
//! evidence" and what was tried.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::beast::events::{self, RuleEvent};
use crate::beast::variant::{self, Variant};
use crate::beast::{Cell, Move, Puzzle, Rules};
use crate::grid::{Dir, Pos};
pub use crate::judge::confirmation::{Confirmation, Counted, ENOUGH, Strength, Tally, Tried};
use crate::judge::diagnose::{
    Cause, Clue, Diagnosis, Explanation, Group, Hypothesis, Observed, Printed, Shape, Status,
    describe,
};
use crate::judge::generate::{GenOptions, generate};
use crate::judge::separate::apart;
use crate::judge::shrink;
use crate::judge::verdict::Verdict;

/// How many designed cases (pairs) the judge makes for each part.
pub const WANTED: usize = 4;

/// How many pairs the judge makes for a rule event: more than [`WANTED`], since a pair
/// whose first puzzle the answer gets right tells nothing.
const PAIRS: usize = 6;

/// How many of a source's one-step changes are looked at before moving on.
const CHANGES_A_SOURCE: usize = 300;

/// How many generated puzzles are looked at when the group's own run out.
const GENERATED: u64 = 600;

/// The predicate asks of the engine-only shrink of a source.
const SHRINK_TRIES: usize = 300;

/// At most this many designed cases of a part are edits of one puzzle: a confirmation
/// rests on two unrelated puzzles at least.
const PER_PUZZLE: usize = WANTED - 1;
const _: () = assert!(PER_PUZZLE < WANTED && PER_PUZZLE >= 1);

/// How many of the run's other puzzles are edited, when the group's own do not give
/// enough telling cases.
const UNRELATED: usize = 12;

/// A designed puzzle, its prediction, and the puzzle it was made from.
type Found = (Puzzle, Printed, usize);

/// What a group's label claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The answer's output is the hypothesis's.
    Hypothesis(Hypothesis),
    /// The answer goes wrong where the rule event fires, and only there.
    Event(RuleEvent),
}

impl Label {
    /// The label in a few words: its flags, its shape's words, or the event's name.
    pub fn name(self) -> String {
        match self {
            Label::Hypothesis(h) => match h.flags() {
                f if f.is_empty() => h.words(),
                f => f,
            },
            Label::Event(e) => e.kind().name.to_string(),
        }
    }
}

/// What a label predicts the answer prints on a designed case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// The label's own output; every rival predicts another.
    Output(Printed),
    /// Our answer (the event does not fire).
    Right(Printed),
    /// Anything but our answer (the event fires).
    Wrong(Printed),
}

impl Prediction {
    /// The prediction as the JSON says it: `aHHHH!` and `3`, or `anything but 3`.
    pub fn words(self) -> String {
        let text = |a: Printed| match a.eaten {
            true => format!("aHHHH!\n{}\n", a.score),
            false => format!("{}\n", a.score),
        };
        match self {
            Prediction::Output(a) | Prediction::Right(a) => text(a),
            Prediction::Wrong(a) => {
                format!("anything but {}", text(a).trim_end().replace('\n', " "))
            }
        }
    }
}

/// A designed case: a puzzle and the label's prediction on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Designed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// What the label predicts.
    pub prediction: Prediction,
    /// The puzzle it was made from: cases of one origin are edits of one map, and count as
    /// one puzzle towards a confirmation.
    pub origin: usize,
}

impl Designed {
    /// True if the answer's output `got` (read leniently) is what the label predicts.
    pub fn matches(&self, got: Option<&[u8]>) -> bool {
        let got = got.and_then(Printed::read);
        match self.prediction {
            Prediction::Output(a) | Prediction::Right(a) => got == Some(a),
            Prediction::Wrong(ours) => got != Some(ours),
        }
    }
}

/// How the answer's run on a designed case ended, as the experiment reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// It exited normally and printed this.
    Output(Vec<u8>),
    /// It crashed, timed out or was cut off: no output (a failure of the answer's).
    NoOutput,
    /// The judge could not set the case up (IE), twice: the case is no evidence either way.
    InternalError,
}

impl Ran {
    /// The output, when it printed one.
    fn output(&self) -> Option<&[u8]> {
        match self {
            Ran::Output(o) => Some(o),
            _ => None,
        }
    }
}

/// The designed cases of one part of a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The part, as the report names it: `--variant ties-reversed`, `push-train`.
    pub name: String,
    /// The cases; for a rule event in pairs, with it then without it.
    pub cases: Vec<Designed>,
    /// How many candidate puzzles were looked at.
    pub tried: usize,
    /// True for a rule event's pairs.
    pub paired: bool,
}

/// The experiment of one label: its parts and their designed cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Experiment {
    /// The label.
    pub label: Label,
    /// Its parts, each with its cases.
    pub parts: Vec<Part>,
}

impl Experiment {
    /// Every designed puzzle, in order: the binary runs the answer on each.
    pub fn puzzles(&self) -> impl Iterator<Item = &Puzzle> {
        self.parts
            .iter()
            .flat_map(|p| p.cases.iter().map(|c| &c.puzzle))
    }

    /// Judges the answer's runs, one for each of [`puzzles`](Self::puzzles) in order.
    ///
    /// A case that ended in IE is no evidence. For a reading, every other case counts: as a
    /// match where the answer printed the predicted output, against the label otherwise.
    /// For a rule event, a pair counts against it when the event fired and the answer was
    /// right; it tells nothing when the answer printed the same on both puzzles (its
    /// usual output, whatever the event); otherwise it is designed, and matched when the
    /// answer was right without the event.
    pub fn judge(&self, runs: &[Ran]) -> Confirmation {
        let mut at = 0;
        let mut tried: Vec<Tried> = Vec::new();
        let parts = self
            .parts
            .iter()
            .map(|part| {
                let n = part.cases.len();
                let got = &runs[at.min(runs.len())..(at + n).min(runs.len())];
                at += n;
                let ran: Vec<(&Designed, &Ran)> = part.cases.iter().zip(got).collect();
                let mut t = Tally {
                    name: part.name.clone(),
                    matched: 0,
                    designed: 0,
                    against: 0,
                    puzzles: 0,
                    tried: part.tried,
                    paired: part.paired,
                };
                let mut origins: Vec<usize> = Vec::new();
                let mut matched = |t: &mut Tally, origin: usize| {
                    t.matched += 1;
                    if !origins.contains(&origin) {
                        origins.push(origin);
                    }
                };
                let mut count = |case: &Designed, r: &Ran, counted| {
                    tried.push(Tried {
                        part: part.name.clone(),
                        puzzle: case.puzzle.to_string(),
                        predicted: case.prediction.words(),
                        got: r.output().map(|o| String::from_utf8_lossy(o).into_owned()),
                        counted,
                    })
                };
                match part.paired {
                    true => {
                        for pair in ran.chunks(2) {
                            let [(with, w), (without, wo)] = pair else {
                                continue;
                            };
                            let read = |r: &Ran| r.output().and_then(Printed::read);
                            let counted = if **w == Ran::InternalError
                                || **wo == Ran::InternalError
                                || (with.matches(w.output())
                                    && read(w).is_some()
                                    && read(w) == read(wo))
                            {
                                Counted::Nothing
                            } else if !with.matches(w.output()) {
                                t.against += 1;
                                Counted::Against
                            } else {
                                t.designed += 1;
                                match without.matches(wo.output()) {
                                    true => {
                                        matched(&mut t, with.origin);
                                        Counted::For
                                    }
                                    false => {
                                        t.against += 1;
                                        Counted::Against
                                    }
                                }
                            };
                            count(with, w, counted);
                            count(without, wo, counted);
                        }
                    }
                    false => {
                        for (case, r) in ran {
                            let counted = match (r, case.matches(r.output())) {
                                (Ran::InternalError, _) => Counted::Nothing,
                                (_, true) => {
                                    t.designed += 1;
                                    matched(&mut t, case.origin);
                                    Counted::For
                                }
                                (_, false) => {
                                    t.designed += 1;
                                    t.against += 1;
                                    Counted::Against
                                }
                            };
                            count(case, r, counted);
                        }
                    }
                }
                t.puzzles = origins.len();
                t
            })
            .collect();
        Confirmation {
            rule_event: matches!(self.label, Label::Event(_)),
            parts,
            tried,
            explains: None,
        }
    }
}

/// The experiments of one group: its head's first, then those of the hypotheses the run
/// could not tell from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupExperiments {
    /// The group, as its index in the diagnosis.
    pub group: usize,
    /// The experiments.
    pub experiments: Vec<Experiment>,
}

/// The experiments of every labelled group of `d`, seeded by `seed`; `keep_going` is the
/// caller's budget (past it, parts have what was designed so far).
pub fn for_groups(
    observed: &[Observed],
    d: &Diagnosis,
    seed: u64,
    keep_going: impl Fn() -> bool,
) -> Vec<GroupExperiments> {
    let common = common_outputs(observed);
    // An own mistake elsewhere shows where the run's own mistakes are located: a designed
    // case for a hypothesis keeps out of their rule events.
    let elsewhere: u128 = d
        .groups
        .iter()
        .filter_map(|g| match &g.cause {
            Cause::Own {
                suspect: Some(s), ..
            } => s.clue.event(),
            _ => None,
        })
        .fold(0, |bits, e| bits | e.bit());
    let heads: Vec<Hypothesis> = d
        .groups
        .iter()
        .filter_map(|g| match &g.cause {
            Cause::Hypothesis { head, .. } => Some(head.hypothesis),
            _ => None,
        })
        .collect();
    let mut designed = Vec::new();
    for (k, g) in d.groups.iter().enumerate() {
        let mut sources: Vec<&Puzzle> = g.cases.iter().map(|&i| observed[i].puzzle).collect();
        sources.sort_by_key(|p| crate::judge::diagnose::size(p));
        let mut unrelated: Vec<&Puzzle> = (0..observed.len())
            .filter(|i| !g.cases.contains(i))
            .map(|i| observed[i].puzzle)
            .collect();
        unrelated.sort_by_key(|p| crate::judge::diagnose::size(p));
        unrelated.truncate(UNRELATED);
        let seed = seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let experiments = match &g.cause {
            Cause::Hypothesis { head, also } => {
                // The answer's other usual wrong outputs: those of the cases the label does
                // not explain (its own are what it predicts).
                let elsewhere_observed: Vec<Observed> = (0..observed.len())
                    .filter(|i| !g.cases.contains(i))
                    .map(|i| observed[i])
                    .collect();
                let common = common_outputs(&elsewhere_observed);
                let candidates: Vec<Hypothesis> = std::iter::once(head.hypothesis)
                    .chain(also.iter().copied())
                    .collect();
                candidates
                    .iter()
                    .map(|&h| {
                        let rivals: Vec<Hypothesis> = heads
                            .iter()
                            .chain(&candidates)
                            .copied()
                            .filter(|&r| r != h)
                            .collect();
                        let against = Rivals {
                            hypotheses: &rivals,
                            common: &common,
                            elsewhere,
                            unrelated: &unrelated,
                        };
                        design_hypothesis(h, &sources, &against, seed, &keep_going)
                    })
                    .collect()
            }
            Cause::Own {
                suspect: Some(s), ..
            } => match s.clue {
                Clue::Rule(e) => vec![design_event(e, &sources, &common, seed, &keep_going)],
                Clue::Input(_) => Vec::new(),
            },
            _ => Vec::new(),
        };
        if !experiments.is_empty() {
            designed.push(GroupExperiments {
                group: k,
                experiments,
            });
        }
    }
    designed
}

/// The outputs an own mistake elsewhere would give: those the run's wrong answers give
/// most (on a quarter of them, and on three at least).
fn common_outputs(observed: &[Observed]) -> Vec<Printed> {
    let wrong: Vec<Printed> = observed
        .iter()
        .filter(|o| o.verdict == Verdict::WrongAnswer)
        .filter_map(|o| Printed::read(o.got))
        .collect();
    let mut seen: Vec<(Printed, usize)> = Vec::new();
    for a in &wrong {
        match seen.iter_mut().find(|(x, _)| x == a) {
            Some((_, n)) => *n += 1,
            None => seen.push((*a, 1)),
        }
    }
    let at_least = (wrong.len() / 4).max(3);
    seen.into_iter()
        .filter(|&(_, n)| n >= at_least)
        .map(|(a, _)| a)
        .collect()
}

/// What a hypothesis's designed cases must tell it from, beside our reading and itself
/// without each of its parts. (A rule event's pairs keep out of every usual wrong output
/// of the answer, its group's own included: the "without" case must not be right by
/// chance.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Rivals<'a> {
    /// The run's other labels, and the hypotheses the run could not tell from it.
    pub hypotheses: &'a [Hypothesis],
    /// The outputs an own mistake elsewhere gives most: never a designed prediction.
    pub common: &'a [Printed],
    /// The rule events that locate the run's own mistakes, as bits over [`RuleEvent`]: a
    /// designed case goes through none of them.
    pub elsewhere: u128,
    /// The run's other puzzles, smallest first: unrelated maps whose one-step changes may
    /// tell too, so that a confirmation need not rest on edits of the group's one map.
    pub unrelated: &'a [&'a Puzzle],
}

/// The parts of a hypothesis, each with the hypothesis without it: one a catalogue entry
/// of its reading, and its shape; a constant is one part.
fn parts_of(h: Hypothesis) -> Vec<(String, Hypothesis)> {
    match h {
        Hypothesis::Constant(_) => vec![(
            Label::Hypothesis(h).name(),
            Hypothesis::reading(Rules::OURS),
        )],
        Hypothesis::Reading { rules, shape } => {
            let held: Vec<&Variant> = variant::held_by(rules).collect();
            let mut parts: Vec<(String, Hypothesis)> = held
                .iter()
                .map(|v| {
                    let rest = held
                        .iter()
                        .filter(|w| w.name != v.name)
                        .fold(Rules::OURS, |r, w| w.apply(r));
                    (v.flags(), Hypothesis::Reading { rules: rest, shape })
                })
                .collect();
            if shape != Shape::Same {
                let name = format!("\"{}\"", shape.words());
                parts.push((
                    name,
                    Hypothesis::Reading {
                        rules,
                        shape: Shape::Same,
                    },
                ));
            }
            parts
        }
    }
}

/// The experiment of hypothesis `h`: for each part, cases on which `h` predicts an output
/// that our reading, `h` without the part, every rival and the common outputs do not.
pub fn design_hypothesis(
    h: Hypothesis,
    sources: &[&Puzzle],
    against: &Rivals,
    seed: u64,
    keep_going: &impl Fn() -> bool,
) -> Experiment {
    let rivals = against.hypotheses;
    // A constant output is what the common outputs are made of: "an own mistake that gives
    // the common output" is the constant itself, no rival of it. It is told from our
    // reading by the cases where ours prints another output.
    let common: &[Printed] = match h {
        Hypothesis::Constant(_) => &[],
        Hypothesis::Reading { .. } => against.common,
    };
    let ours = Hypothesis::reading(Rules::OURS);
    let all = parts_of(h);
    let withouts: Vec<Hypothesis> = all.iter().map(|(_, w)| *w).collect();
    let parts = all
        .into_iter()
        .enumerate()
        .map(|(k, (name, without))| {
            // The other parts make no difference on a part's cases: its prediction stands
            // or falls with this part alone.
            let others: Vec<Hypothesis> = withouts
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, &w)| w)
                .collect();
            // A rival that shares the part agrees on it: telling it apart is another
            // part's work.
            let rivals: Vec<Hypothesis> = rivals
                .iter()
                .copied()
                .filter(|&r| !shares(r, h, without))
                .collect();
            let tells_apart = |p: &Puzzle, rivals: &[Hypothesis], elsewhere: u128| {
                let a = h.answer(p)?;
                // Told from a rival where both are decided and differ ([`apart`]).
                let told_from = |r: Hypothesis| apart(Some(a), r.answer(p));
                let told = !common.contains(&a)
                    && told_from(ours)
                    && told_from(without)
                    && rivals.iter().all(|&r| told_from(r))
                    && others.iter().all(|&w| w.answer(p) == Some(a))
                    && (elsewhere == 0
                        || event_bits(p, keep_going).is_some_and(|b| b & elsewhere == 0));
                told.then_some(a)
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(k as u64));
            let tells = |p: &Puzzle| tells_apart(p, &rivals, against.elsewhere);
            let (mut found, mut tried) =
                find_cases(sources, against.unrelated, &tells, &mut rng, keep_going);
            if found.len() < WANTED && (!rivals.is_empty() || against.elsewhere != 0) {
                // Rivals that agree with it wherever it differs from ours cannot be told
                // apart from it: they stay beside it ("or equally"), and the part is tried
                // against ours and the label without it alone.
                let loose = |p: &Puzzle| tells_apart(p, &[], 0);
                let (more, also_tried) =
                    find_cases(sources, against.unrelated, &loose, &mut rng, keep_going);
                tried += also_tried;
                for m in more {
                    if found.len() < WANTED && room_for(&found, &m.0, m.2) {
                        found.push(m);
                    }
                }
            }
            output_part(name, found, tried)
        })
        .collect();
    Experiment {
        label: Label::Hypothesis(h),
        parts,
    }
}

/// The part `name` of a hypothesis's experiment: the cases `found`, each with the output
/// the hypothesis predicts, after `tried` puzzles.
fn output_part(name: String, found: Vec<Found>, tried: usize) -> Part {
    Part {
        name,
        cases: found
            .into_iter()
            .map(|(puzzle, a, origin)| Designed {
                puzzle,
                prediction: Prediction::Output(a),
                origin,
            })
            .collect(),
        tried,
        paired: false,
    }
}

/// True if rival `r` holds the part of `h` that `without` leaves out: the same catalogue
/// entry, or the same shape.
fn shares(r: Hypothesis, h: Hypothesis, without: Hypothesis) -> bool {
    match (r, h, without) {
        (
            Hypothesis::Reading { rules, shape },
            Hypothesis::Reading {
                rules: hr,
                shape: hs,
            },
            Hypothesis::Reading {
                rules: wr,
                shape: ws,
            },
        ) => match hr == wr {
            true => shape == hs && hs != ws,
            false => variant::held_by(hr)
                .filter(|v| !v.holds_in(wr))
                .all(|v| v.holds_in(rules)),
        },
        _ => false,
    }
}

/// Up to [`WANTED`] new puzzles on which `tells` gives a prediction, with it, and how many
/// candidates were looked at: the sources shrunk, their one-step changes, then generated
/// puzzles.
fn find_cases(
    sources: &[&Puzzle],
    unrelated: &[&Puzzle],
    tells: &impl Fn(&Puzzle) -> Option<Printed>,
    rng: &mut ChaCha8Rng,
    keep_going: &impl Fn() -> bool,
) -> (Vec<Found>, usize) {
    let mut found: Vec<Found> = Vec::new();
    let mut tried = 0;
    let new = |p: &Puzzle, origin: usize, found: &[Found]| {
        !sources.contains(&p) && room_for(found, p, origin)
    };
    // The group's puzzles, shrunk while the label still tells.
    for (origin, source) in sources.iter().enumerate().take(WANTED * 4) {
        if found.len() >= WANTED || !keep_going() {
            break;
        }
        tried += 1;
        let start = match tells(source) {
            Some(_) => Some((*source).clone()),
            None => {
                let mut hit = None;
                for c in changes(source, Changing::Anything, rng)
                    .into_iter()
                    .take(CHANGES_A_SOURCE / 3)
                {
                    tried += 1;
                    if tells(&c).is_some() {
                        hit = Some(c);
                        break;
                    }
                }
                hit
            }
        };
        let Some(start) = start else { continue };
        let small = shrink::shrink_within(&start, SHRINK_TRIES, keep_going, |p| tells(p).is_some());
        tried += small.tries;
        if let Some(a) = tells(&small.puzzle).filter(|_| new(&small.puzzle, origin, &found)) {
            found.push((small.puzzle, a, origin));
        }
    }
    // One-step changes of what was found, then of the sources, then of the run's other
    // puzzles (each its own origin, after the generated ones').
    let mut bases: Vec<(Puzzle, usize)> = found.iter().map(|(p, _, o)| (p.clone(), *o)).collect();
    bases.extend(sources.iter().take(WANTED).cloned().cloned().zip(0..));
    let far = sources.len() + GENERATED as usize;
    bases.extend(unrelated.iter().cloned().cloned().zip(far..));
    for (base, origin) in &bases {
        for c in changes(base, Changing::Anything, rng)
            .into_iter()
            .take(CHANGES_A_SOURCE)
        {
            let of_origin = found.iter().filter(|(_, _, o)| o == origin).count();
            if found.len() >= WANTED || !keep_going() || of_origin >= PER_PUZZLE {
                break;
            }
            tried += 1;
            if let Some(a) = tells(&c).filter(|_| new(&c, *origin, &found)) {
                found.push((c, a, *origin));
            }
        }
    }
    // Small generated puzzles, of a few sizes.
    let from = rng.next_u64();
    for k in 0..GENERATED {
        if found.len() >= WANTED || !keep_going() {
            break;
        }
        // One in four is long and narrow: far distances (15 cells or more) need room; one
        // in four has the shape of the first case found (the label tells on such maps).
        let like = found.first().map(|(p, _, _)| GenOptions {
            cols: p.map().cols() + (k % 3) as usize,
            rows: p.map().rows() + (k % 2) as usize,
            beasts: beasts_of(p).max(1),
            walls_pct: 20 + (k % 4) as u8 * 15,
            moves: p.moves().len().max(1) + (k % 3) as usize,
        });
        let opts = match k % 4 {
            2 if like.is_some() => like.unwrap_or_default(),
            3 => GenOptions {
                cols: 14 + (k % 11) as usize,
                rows: 3 + (k % 3) as usize,
                beasts: 1 + (k % 2) as usize,
                walls_pct: 10 + (k % 3) as u8 * 10,
                moves: 4 + (k % 5) as usize,
            },
            _ => GenOptions {
                cols: 6 + (k % 5) as usize,
                rows: 5 + (k % 4) as usize,
                beasts: 1 + (k % 3) as usize,
                walls_pct: 20 + (k % 3) as u8 * 10,
                moves: 6 + (k % 5) as usize,
            },
        };
        let Ok(p) = generate(from.wrapping_add(k), &opts) else {
            continue;
        };
        tried += 1;
        let origin = sources.len() + k as usize;
        if let Some(a) = tells(&p).filter(|_| new(&p, origin, &found)) {
            found.push((p, a, origin));
        }
    }
    (found, tried)
}

/// How many beasts `p` has.
fn beasts_of(p: &Puzzle) -> usize {
    let m = p.map();
    (0..m.rows())
        .flat_map(|row| (0..m.cols()).map(move |col| Pos { row, col }))
        .filter(|&at| m[at] == Cell::Beast)
        .count()
}

/// True if `p` is not among `found` and fewer than [`PER_PUZZLE`] of them come from
/// `origin`.
fn room_for(found: &[Found], p: &Puzzle, origin: usize) -> bool {
    !found.iter().any(|(q, _, _)| q == p)
        && found.iter().filter(|(_, _, o)| *o == origin).count() < PER_PUZZLE
}

/// The rule events `puzzle` goes through, as bits over [`RuleEvent`]; `None` if undecided.
fn event_bits(puzzle: &Puzzle, keep_going: &impl Fn() -> bool) -> Option<u128> {
    Some(events::record(puzzle, keep_going).ok()?.bits())
}

/// The experiment of rule event `event`: pairs of a source where it fires and the same
/// puzzle changed by one step so that it does not, every other event the same or but one.
/// The sources as they are come first (the answer failed on them: the event's harm is
/// seen); only then their moves cut after the turn the event first fires on, which blurs
/// the pair less but may end as the rules do whatever the answer does with the event.
pub fn design_event(
    event: RuleEvent,
    sources: &[&Puzzle],
    common: &[Printed],
    seed: u64,
    keep_going: &impl Fn() -> bool,
) -> Experiment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cases = Vec::new();
    let mut tried = 0;
    let bit = event.bit();
    let sources = &sources[..sources.len().min(WANTED * 6)];
    let cut = |source: &Puzzle| {
        let first = events::record(source, keep_going)
            .ok()
            .and_then(|e| e.first_turn(event));
        match first {
            Some(t) if t > 0 && (t as usize) < source.moves().len() => {
                Some(source.with_moves(source.moves()[..t as usize].to_vec()))
            }
            _ => None,
        }
    };
    let as_they_are = sources.iter().map(|&s| Some(s.clone()));
    let cut_short = sources.iter().map(|&s| cut(s));
    let mut paired = vec![false; sources.len()];
    for (origin, version) in as_they_are.enumerate().chain(cut_short.enumerate()) {
        if cases.len() >= PAIRS * 2 || !keep_going() {
            break;
        }
        let Some(version) = version.filter(|_| !paired[origin]) else {
            continue;
        };
        tried += 1;
        let Some(bits) = event_bits(&version, keep_going).filter(|b| b & bit != 0) else {
            continue;
        };
        let without = match event {
            e if e.is_shape() => square_version(&version, bits, keep_going, &mut tried),
            RuleEvent::WAIT_MOVE => blocked_version(&version, bits, keep_going, &mut tried),
            _ => without_event(&version, bit, bits, &mut rng, keep_going, &mut tried),
        };
        let (Some(with), Some(without)) = (ours(&version), without) else {
            continue;
        };
        // Right without the event must be more than the answer's usual output.
        let Some(right) = ours(&without).filter(|a| !common.contains(a)) else {
            continue;
        };
        paired[origin] = true;
        cases.push(Designed {
            puzzle: version,
            prediction: Prediction::Wrong(with),
            origin,
        });
        cases.push(Designed {
            puzzle: without,
            prediction: Prediction::Right(right),
            origin,
        });
    }
    Experiment {
        label: Label::Event(event),
        parts: vec![Part {
            name: event.kind().name.to_string(),
            cases,
            tried,
            paired: true,
        }],
    }
}

/// The one-step change of `source` (whose events are `bits`) without the event `bit`: one
/// cell changed, neither a beast nor the moves (they would change the whole game), and
/// every other event the same, but that a train cut to one `~` pushes one instead.
fn without_event(
    source: &Puzzle,
    bit: u128,
    bits: u128,
    rng: &mut ChaCha8Rng,
    keep_going: &impl Fn() -> bool,
    tried: &mut usize,
) -> Option<Puzzle> {
    let others = bits & !bit;
    let (may_gain, may_lose) = allowance(source, bit, keep_going);
    for c in changes(source, Changing::CellsNotBeasts, rng)
        .into_iter()
        .take(CHANGES_A_SOURCE)
    {
        if !keep_going() {
            break;
        }
        *tried += 1;
        let Some(b) = event_bits(&c, keep_going).filter(|b| b & bit == 0) else {
            continue;
        };
        let (gained, lost) = (b & !others, others & !b);
        if gained & !may_gain == 0 && lost & !may_lose == 0 {
            return Some(c);
        }
    }
    None
}

/// What a change of `source` that removes the event `bit` may gain and lose besides, as
/// bits: a train cut to one `~` pushes one instead. A beast kept from a step in one
/// direction walks another path from then on: the change may gain any beast's step, tie
/// or squeeze, and lose those that first happened on the step's turn or later. Everything
/// the player does, and the ending, stays the same.
fn allowance(source: &Puzzle, bit: u128, keep_going: &impl Fn() -> bool) -> (u128, u128) {
    let event = RuleEvent::all().find(|e| e.bit() == bit);
    match event {
        Some(RuleEvent::PUSH_TRAIN) => (RuleEvent::PUSH_ONE.bit(), 0),
        Some(e) if e.is_beast_step() => {
            let moves = RuleEvent::all()
                .filter(|m| m.is_beast_move())
                .fold(0, |bits, m| bits | m.bit());
            let Ok(seen) = events::record(source, keep_going) else {
                return (0, 0);
            };
            let from = seen.first_turn(e).unwrap_or(0);
            let later = seen
                .iter()
                .filter(|&(m, t)| m.is_beast_move() && t >= from)
                .fold(0, |bits, (m, _)| bits | m.bit());
            (moves, later)
        }
        _ => (0, 0),
    }
}

/// `source` (whose events are `bits`) made square by rows or columns of `#` past its
/// border: the same game on a map of another shape, the one change that removes a trait of
/// the shape. Kept only if every event but the shape's is the same (a crush against the
/// old border is now one against an inner wall: such a source makes no pair).
fn square_version(
    source: &Puzzle,
    bits: u128,
    keep_going: &impl Fn() -> bool,
    tried: &mut usize,
) -> Option<Puzzle> {
    let shape = RuleEvent::NOT_SQUARE.bit() | RuleEvent::WIDER_THAN_TALL.bit();
    let map = source.map();
    let side = map.cols().max(map.rows());
    let mut square = crate::grid::Grid::new(side, side, Cell::Wall);
    for (at, &cell) in map.iter() {
        square[at] = cell;
    }
    let square = Puzzle::new(square, source.moves().to_vec()).ok()?;
    *tried += 1;
    event_bits(&square, keep_going).filter(|&b| b == bits & !shape)?;
    Some(square)
}

/// `source` (whose events are `bits`) with each `W` it plays made a step against a `#`
/// next to the player: the same game (a blocked step uses up the turn, as a wait does),
/// the one change that removes `wait-move`. Kept only if every other event is the same,
/// `blocked-move` gained; `None` where a `W` has no `#` beside the player.
fn blocked_version(
    source: &Puzzle,
    bits: u128,
    keep_going: &impl Fn() -> bool,
    tried: &mut usize,
) -> Option<Puzzle> {
    use crate::beast::{Game, Status};
    let mut game = Game::new(source, Rules::OURS);
    let mut moves = source.moves().to_vec();
    for m in moves.iter_mut() {
        if game.status() != Status::Playing {
            break;
        }
        if *m == Move::Wait {
            let at = game.player();
            let wall = |d: &Dir| at.step(*d).and_then(|p| game.map().get(p)) == Some(&Cell::Wall);
            *m = Move::Step(
                [Dir::Up, Dir::Down, Dir::Left, Dir::Right]
                    .into_iter()
                    .find(wall)?,
            );
        }
        game.apply(*m).ok()?;
    }
    let blocked = source.with_moves(moves);
    *tried += 1;
    let wanted = bits & !RuleEvent::WAIT_MOVE.bit() | RuleEvent::BLOCKED_MOVE.bit();
    event_bits(&blocked, keep_going).filter(|&b| b == wanted)?;
    Some(blocked)
}

/// Our answer on `puzzle`.
fn ours(puzzle: &Puzzle) -> Option<Printed> {
    Printed::of(puzzle, Rules::OURS)
}

/// What a one-step change may touch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Changing {
    /// A move or any interior cell but the player's.
    Anything,
    /// An interior cell that is neither the player's nor a beast's, into anything but a
    /// beast: the same game, one wall or space different.
    CellsNotBeasts,
}

/// Every puzzle one step from `p` (a move left out or changed, a move added, an interior
/// cell other than the player's changed; only the cells of `what` allows), in a seeded
/// order.
fn changes(p: &Puzzle, what: Changing, rng: &mut ChaCha8Rng) -> Vec<Puzzle> {
    const LETTERS: [Move; 5] = [
        Move::Step(Dir::Up),
        Move::Step(Dir::Down),
        Move::Step(Dir::Left),
        Move::Step(Dir::Right),
        Move::Wait,
    ];
    let moves = p.moves();
    let mut out: Vec<Puzzle> = Vec::new();
    let cells_only = what == Changing::CellsNotBeasts;
    for i in (0..moves.len()).filter(|_| !cells_only) {
        let mut fewer = moves.to_vec();
        fewer.remove(i);
        out.push(p.with_moves(fewer));
        for m in LETTERS {
            if m != moves[i] {
                let mut other = moves.to_vec();
                other[i] = m;
                out.push(p.with_moves(other));
            }
        }
    }
    for m in LETTERS.into_iter().filter(|_| !cells_only) {
        let mut more = moves.to_vec();
        more.push(m);
        out.push(p.with_moves(more));
    }
    let map = p.map();
    for row in 1..map.rows().saturating_sub(1) {
        for col in 1..map.cols().saturating_sub(1) {
            let at = Pos { row, col };
            let now = map[at];
            if now == Cell::Player || (cells_only && now == Cell::Beast) {
                continue;
            }
            for cell in [Cell::Space, Cell::Wall, Cell::Movable, Cell::Beast] {
                if cell == now || (cells_only && cell == Cell::Beast) {
                    continue;
                }
                let mut changed = map.clone();
                changed[at] = cell;
                if let Ok(q) = Puzzle::new(changed, moves.to_vec()) {
                    out.push(q);
                }
            }
        }
    }
    // Fisher-Yates, seeded.
    for i in (1..out.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// Applies the experiments' findings to the diagnosis: each labelled group records its
/// confirmation; a hypothesis the run could not tell from the head that is confirmed where
/// the head is not takes its place, and one not confirmed is dropped; a head not confirmed
/// leaves the readings the diagnosis names, and the status follows.
pub fn settle(d: &mut Diagnosis, designed: &[GroupExperiments], found: &[Vec<Confirmation>]) {
    for (group_experiments, confirmations) in designed.iter().zip(found) {
        let Some(group) = d.groups.get_mut(group_experiments.group) else {
            continue;
        };
        match &mut group.cause {
            Cause::Hypothesis { head, also } => {
                // A reading heading a group explains the wrong answers it reproduces.
                let confirmations: Vec<Confirmation> = confirmations
                    .iter()
                    .map(|c| Confirmation {
                        explains: Some(head.reproduces),
                        ..c.clone()
                    })
                    .collect();
                let confirmed: Vec<(Label, &Confirmation)> = group_experiments
                    .experiments
                    .iter()
                    .map(|e| e.label)
                    .zip(&confirmations)
                    .filter(|(_, c)| c.stands())
                    .collect();
                let is = |h: Hypothesis| confirmed.iter().any(|(l, _)| *l == Label::Hypothesis(h));
                match confirmed.first() {
                    Some((label, c)) => {
                        if let Label::Hypothesis(h) = label {
                            head.hypothesis = *h;
                        }
                        let first = head.hypothesis;
                        also.retain(|&h| h != first && is(h));
                        group.confirmation = Some((*c).clone());
                    }
                    None => {
                        group.confirmation = confirmations.first().cloned();
                    }
                }
            }
            Cause::Own { .. } => group.confirmation = confirmations.first().cloned(),
            _ => {}
        }
    }
    // The readings named: the confirmed heads (with their equals, for a single cause).
    let standing: Vec<(Explanation, Vec<Hypothesis>, bool)> = d
        .groups
        .iter()
        .filter_map(|g| match &g.cause {
            Cause::Hypothesis { head, also } => Some((
                *head,
                also.clone(),
                g.confirmation.as_ref().is_none_or(Confirmation::stands),
            )),
            _ => None,
        })
        .collect();
    // A label kept only as consistent (its designed cases all edits of one puzzle) makes
    // the diagnosis "consistent with", never "explained".
    let hedged = d.groups.iter().any(|g| {
        matches!(g.cause, Cause::Hypothesis { .. })
            && g.confirmation
                .as_ref()
                .is_some_and(|c| c.strength() == Strength::Consistent)
    });
    if hedged && d.status == Status::Explained {
        d.status = Status::Consistent;
    }
    // Heads their designed cases confirm (every part, and three wrong answers or more to
    // explain) are explained however few wrong answers need the whole of a combination:
    // the experiment says how strong, as on the group line.
    let heads = || {
        d.groups
            .iter()
            .filter(|g| matches!(g.cause, Cause::Hypothesis { .. }))
    };
    let confirmed = heads().count() > 0
        && heads().all(|g| g.confirmation.as_ref().is_some_and(Confirmation::confirmed));
    if confirmed && d.status == Status::Consistent {
        d.status = Status::Explained;
    }
    if standing.iter().all(|(_, _, ok)| *ok) && !designed.is_empty() {
        // Every label stands; the heads may have changed.
        if let (Some((head, also, _)), Status::Explained | Status::Consistent) =
            (standing.first(), d.status)
        {
            d.readings = std::iter::once(*head)
                .chain(also.iter().map(|&h| Explanation {
                    hypothesis: h,
                    ..*head
                }))
                .collect();
        }
        return;
    }
    let kept: Vec<Explanation> = standing
        .iter()
        .filter(|(_, _, ok)| *ok)
        .map(|(h, _, _)| *h)
        .collect();
    if kept.len() == standing.len() {
        return;
    }
    d.status = match kept.is_empty() {
        true if d.status != Status::Correct => Status::Unexplained,
        true => d.status,
        false => Status::Partial,
    };
    d.readings = kept;
}

/// A group's cause in words, with how its label was confirmed (or why its evidence is
/// weak) when an experiment tried it.
pub fn describe_group(group: &Group) -> String {
    let Some(c) = &group.confirmation else {
        return describe(&group.cause);
    };
    match &group.cause {
        Cause::Hypothesis { head, .. } if c.confirmed() => {
            format!("{} ({})", head.hypothesis.words(), c.words())
        }
        Cause::Hypothesis { head, .. } if c.stands() => {
            format!(
                "consistent with: {} ({})",
                head.hypothesis.words(),
                c.words()
            )
        }
        Cause::Hypothesis { head, .. } => format!(
            "not confirmed: {} gives these {} outputs, but a mistake of the answer's own may \
             give them by chance; {}",
            head.hypothesis.words(),
            group.cases.len(),
            c.words(),
        ),
        // An event the designed pairs do not bear out locates nothing: the group says so,
        // and shows its smallest case.
        Cause::Own {
            suspect: Some(s), ..
        } if !c.confirmed() => format!(
            "a mistake of the answer's own: no rule event accounts for these failures \
             ({} was tried: {})",
            s.clue.name(),
            c.words()
        ),
        // Confirmed by its pairs: the experiment, not the spectrum's share, says how strong.
        Cause::Own { suspect: Some(s) } => format!(
            "a mistake of the answer's own: {}; {}",
            s.words().trim_start_matches("weak evidence: "),
            c.words()
        ),
        _ => format!("{}; {}", describe(&group.cause), c.words()),
    }
}

#[cfg(test)]
mod tests;
