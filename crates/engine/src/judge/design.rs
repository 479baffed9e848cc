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
pub use crate::judge::confirmation::{Confirmation, ENOUGH, Tally};
use crate::judge::diagnose::{
    Answer, Cause, Clue, Diagnosis, Explanation, Group, Hypothesis, Observed, Shape, Status,
    describe,
};
use crate::judge::generate::{GenOptions, generate};
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
    Output(Answer),
    /// Our answer (the event does not fire).
    Right(Answer),
    /// Anything but our answer (the event fires).
    Wrong(Answer),
}

/// A designed case: a puzzle and the label's prediction on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Designed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// What the label predicts.
    pub prediction: Prediction,
}

impl Designed {
    /// True if the answer's output `got` (read leniently) is what the label predicts.
    pub fn matches(&self, got: Option<&[u8]>) -> bool {
        let got = got.and_then(Answer::read);
        match self.prediction {
            Prediction::Output(a) | Prediction::Right(a) => got == Some(a),
            Prediction::Wrong(ours) => got != Some(ours),
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

    /// Judges the answer's outputs, one for each of [`puzzles`](Self::puzzles) in order
    /// (`None` where it gave none: a crash, a timeout).
    pub fn judge(&self, outputs: &[Option<Vec<u8>>]) -> Confirmation {
        let mut at = 0;
        let parts = self
            .parts
            .iter()
            .map(|part| {
                let n = part.cases.len();
                let got = &outputs[at.min(outputs.len())..(at + n).min(outputs.len())];
                at += n;
                let hit: Vec<bool> = part
                    .cases
                    .iter()
                    .zip(got)
                    .map(|(c, g)| c.matches(g.as_deref()))
                    .collect();
                // A pair on whose first puzzle the answer is right tells nothing of the
                // event (it fired and did no harm there): only the others count.
                let (matched, designed) = match part.paired {
                    true => (
                        hit.chunks(2).filter(|p| p.iter().all(|&h| h)).count(),
                        hit.chunks(2).filter(|p| p[0]).count(),
                    ),
                    false => (hit.iter().filter(|&&h| h).count(), n),
                };
                Tally {
                    name: part.name.clone(),
                    matched,
                    designed,
                    tried: part.tried,
                    paired: part.paired,
                }
            })
            .collect();
        Confirmation {
            rule_event: matches!(self.label, Label::Event(_)),
            parts,
        }
    }
}

/// The experiments of one group: its head's first, then those of the hypotheses the run
/// could not tell from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The group, as its index in the diagnosis.
    pub group: usize,
    /// The experiments.
    pub experiments: Vec<Experiment>,
}

/// The experiments of every labelled group of `d`, seeded by `seed`; `keep_going` is the
/// caller's budget (past it, parts have what was designed so far).
pub fn plan(
    observed: &[Observed],
    d: &Diagnosis,
    seed: u64,
    keep_going: impl Fn() -> bool,
) -> Vec<Plan> {
    let common = common_outputs(observed);
    // An own mistake elsewhere shows where the run's own mistakes are located: a designed
    // case for a hypothesis keeps out of their rule events.
    let elsewhere: u64 = d
        .groups
        .iter()
        .filter_map(|g| match &g.cause {
            Cause::Own {
                suspect: Some(s), ..
            } => s.clue.event(),
            _ => None,
        })
        .fold(0, |bits, e| bits | 1 << e.0);
    let heads: Vec<Hypothesis> = d
        .groups
        .iter()
        .filter_map(|g| match &g.cause {
            Cause::Hypothesis { head, .. } => Some(head.hypothesis),
            _ => None,
        })
        .collect();
    let mut plans = Vec::new();
    for (k, g) in d.groups.iter().enumerate() {
        let mut sources: Vec<&Puzzle> = g.cases.iter().map(|&i| observed[i].puzzle).collect();
        sources.sort_by_key(|p| crate::judge::diagnose::size(p));
        let seed = seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let experiments = match &g.cause {
            Cause::Hypothesis { head, also } => {
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
                        };
                        design_hypothesis(h, &sources, &against, seed, &keep_going)
                    })
                    .collect()
            }
            Cause::Own {
                suspect: Some(s), ..
            } => match s.clue {
                Clue::Rule(e) => vec![design_event(e, &sources, seed, &keep_going)],
                Clue::Input(_) => Vec::new(),
            },
            _ => Vec::new(),
        };
        if !experiments.is_empty() {
            plans.push(Plan {
                group: k,
                experiments,
            });
        }
    }
    plans
}

/// The outputs an own mistake elsewhere would give: those the run's wrong answers give
/// most (on a quarter of them, and on three at least).
fn common_outputs(observed: &[Observed]) -> Vec<Answer> {
    let wrong: Vec<Answer> = observed
        .iter()
        .filter(|o| o.verdict == Verdict::WrongAnswer)
        .filter_map(|o| Answer::read(o.got))
        .collect();
    let mut seen: Vec<(Answer, usize)> = Vec::new();
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
/// without each of its parts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rivals<'a> {
    /// The run's other labels, and the hypotheses the run could not tell from it.
    pub hypotheses: &'a [Hypothesis],
    /// The outputs an own mistake elsewhere gives most: never a designed prediction.
    pub common: &'a [Answer],
    /// The rule events that locate the run's own mistakes, as bits over [`RuleEvent`]: a
    /// designed case goes through none of them.
    pub elsewhere: u64,
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
    let common: &[Answer] = match h {
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
            let tells_apart = |p: &Puzzle, rivals: &[Hypothesis], elsewhere: u64| {
                let a = h.answer(p)?;
                let other = |r: Hypothesis| r.answer(p).is_none_or(|b| b == a);
                let told = !common.contains(&a)
                    && !other(ours)
                    && !other(without)
                    && !rivals.iter().any(|&r| other(r))
                    && others.iter().all(|&w| w.answer(p) == Some(a))
                    && (elsewhere == 0
                        || event_bits(p, keep_going).is_some_and(|b| b & elsewhere == 0));
                told.then_some(a)
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(k as u64));
            let tells = |p: &Puzzle| tells_apart(p, &rivals, against.elsewhere);
            let (mut found, mut tried) = find_cases(sources, &tells, &mut rng, keep_going);
            if found.len() < WANTED && (!rivals.is_empty() || against.elsewhere != 0) {
                // Rivals that agree with it wherever it differs from ours cannot be told
                // apart from it: they stay beside it ("or equally"), and the part is tried
                // against ours and the label without it alone.
                let loose = |p: &Puzzle| tells_apart(p, &[], 0);
                let (more, also_tried) = find_cases(sources, &loose, &mut rng, keep_going);
                tried += also_tried;
                for m in more {
                    if found.len() < WANTED && !found.iter().any(|(q, _)| *q == m.0) {
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
fn output_part(name: String, found: Vec<(Puzzle, Answer)>, tried: usize) -> Part {
    Part {
        name,
        cases: found
            .into_iter()
            .map(|(puzzle, a)| Designed {
                puzzle,
                prediction: Prediction::Output(a),
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
    tells: &impl Fn(&Puzzle) -> Option<Answer>,
    rng: &mut ChaCha8Rng,
    keep_going: &impl Fn() -> bool,
) -> (Vec<(Puzzle, Answer)>, usize) {
    let mut found: Vec<(Puzzle, Answer)> = Vec::new();
    let mut tried = 0;
    let new = |p: &Puzzle, found: &[(Puzzle, Answer)]| {
        !sources.contains(&p) && !found.iter().any(|(q, _)| q == p)
    };
    // The group's puzzles, shrunk while the label still tells.
    for source in sources.iter().take(WANTED * 4) {
        if found.len() >= WANTED || !keep_going() {
            break;
        }
        tried += 1;
        let start = match tells(source) {
            Some(_) => Some((*source).clone()),
            None => {
                let mut hit = None;
                for c in changes(source, rng).into_iter().take(CHANGES_A_SOURCE / 3) {
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
        if let Some(a) = tells(&small.puzzle).filter(|_| new(&small.puzzle, &found)) {
            found.push((small.puzzle, a));
        }
    }
    // One-step changes of what was found, then of the sources.
    let mut bases: Vec<Puzzle> = found.iter().map(|(p, _)| p.clone()).collect();
    bases.extend(sources.iter().take(WANTED).map(|p| (*p).clone()));
    for base in &bases {
        for c in changes(base, rng).into_iter().take(CHANGES_A_SOURCE) {
            if found.len() >= WANTED || !keep_going() {
                break;
            }
            tried += 1;
            if let Some(a) = tells(&c).filter(|_| new(&c, &found)) {
                found.push((c, a));
            }
        }
    }
    // Small generated puzzles, of a few sizes.
    let from = rng.next_u64();
    for k in 0..GENERATED {
        if found.len() >= WANTED || !keep_going() {
            break;
        }
        let opts = GenOptions {
            cols: 6 + (k % 5) as usize,
            rows: 5 + (k % 4) as usize,
            beasts: 1 + (k % 3) as usize,
            walls_pct: 20 + (k % 3) as u8 * 10,
            moves: 6 + (k % 5) as usize,
        };
        let Ok(p) = generate(from.wrapping_add(k), &opts) else {
            continue;
        };
        tried += 1;
        if let Some(a) = tells(&p).filter(|_| new(&p, &found)) {
            found.push((p, a));
        }
    }
    (found, tried)
}

/// The rule events `puzzle` goes through, as bits over [`RuleEvent`]; `None` if undecided.
fn event_bits(puzzle: &Puzzle, keep_going: &impl Fn() -> bool) -> Option<u64> {
    let e = events::record(puzzle, keep_going).ok()?;
    Some(
        RuleEvent::all()
            .filter(|&x| e.has(x))
            .fold(0, |bits, x| bits | 1 << x.0),
    )
}

/// The experiment of rule event `event`: pairs of a source where it fires (as it is, else
/// its moves cut after the turn it first fires on) and the same puzzle changed by one step
/// so that it does not, every other event the same or but one.
pub fn design_event(
    event: RuleEvent,
    sources: &[&Puzzle],
    seed: u64,
    keep_going: &impl Fn() -> bool,
) -> Experiment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cases = Vec::new();
    let mut tried = 0;
    let bit = 1u64 << event.0;
    for source in sources.iter().take(WANTED * 6) {
        if cases.len() >= PAIRS * 2 || !keep_going() {
            break;
        }
        tried += 1;
        // The source as it is (the answer failed on it), else its moves cut after the
        // event first fires: what follows blurs the pair less.
        let first = events::record(source, keep_going)
            .ok()
            .and_then(|e| e.first_turn(event));
        let cut = match first {
            Some(t) if t > 0 && (t as usize) < source.moves().len() => {
                Some(source.with_moves(source.moves()[..t as usize].to_vec()))
            }
            _ => None,
        };
        let versions = std::iter::once((*source).clone()).chain(cut);
        for version in versions {
            let Some(bits) = event_bits(&version, keep_going).filter(|b| b & bit != 0) else {
                continue;
            };
            let without = without_event(&version, bit, bits, &mut rng, keep_going, &mut tried);
            let (Some(with), Some(without)) = (ours(&version), without) else {
                continue;
            };
            let Some(right) = ours(&without) else {
                continue;
            };
            cases.push(Designed {
                puzzle: version,
                prediction: Prediction::Wrong(with),
            });
            cases.push(Designed {
                puzzle: without,
                prediction: Prediction::Right(right),
            });
            break;
        }
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

/// The one-step change of `source` (whose events are `bits`) closest to it without the
/// event `bit`: the same other events, or but one more or fewer (a train cut to one `~`
/// pushes one instead).
fn without_event(
    source: &Puzzle,
    bit: u64,
    bits: u64,
    rng: &mut ChaCha8Rng,
    keep_going: &impl Fn() -> bool,
    tried: &mut usize,
) -> Option<Puzzle> {
    let mut hit: Option<(u32, Puzzle)> = None;
    for c in changes(source, rng).into_iter().take(CHANGES_A_SOURCE) {
        if !keep_going() || hit.as_ref().is_some_and(|(d, _)| *d == 0) {
            break;
        }
        *tried += 1;
        let Some(b) = event_bits(&c, keep_going).filter(|b| b & bit == 0) else {
            continue;
        };
        let apart = (b ^ (bits & !bit)).count_ones();
        if apart <= 1 && hit.as_ref().is_none_or(|(d, _)| apart < *d) {
            hit = Some((apart, c));
        }
    }
    hit.map(|(_, c)| c)
}

/// Our answer on `puzzle`.
fn ours(puzzle: &Puzzle) -> Option<Answer> {
    Hypothesis::reading(Rules::OURS).answer(puzzle)
}

/// Every puzzle one step from `p` (a move left out or changed, a move added, an interior
/// cell other than the player's changed), in a seeded order.
fn changes(p: &Puzzle, rng: &mut ChaCha8Rng) -> Vec<Puzzle> {
    const LETTERS: [Move; 5] = [
        Move::Step(Dir::Up),
        Move::Step(Dir::Down),
        Move::Step(Dir::Left),
        Move::Step(Dir::Right),
        Move::Wait,
    ];
    let moves = p.moves();
    let mut out: Vec<Puzzle> = Vec::new();
    for i in 0..moves.len() {
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
    for m in LETTERS {
        let mut more = moves.to_vec();
        more.push(m);
        out.push(p.with_moves(more));
    }
    let map = p.map();
    for row in 1..map.rows().saturating_sub(1) {
        for col in 1..map.cols().saturating_sub(1) {
            let at = Pos { row, col };
            let now = map[at];
            if now == Cell::Player {
                continue;
            }
            for cell in [Cell::Space, Cell::Wall, Cell::Movable, Cell::Beast] {
                if cell == now {
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
pub fn settle(d: &mut Diagnosis, plans: &[Plan], found: &[Vec<Confirmation>]) {
    for (plan, confirmations) in plans.iter().zip(found) {
        let Some(group) = d.groups.get_mut(plan.group) else {
            continue;
        };
        match &mut group.cause {
            Cause::Hypothesis { head, also } => {
                let confirmed: Vec<(Label, &Confirmation)> = plan
                    .experiments
                    .iter()
                    .map(|e| e.label)
                    .zip(confirmations)
                    .filter(|(_, c)| c.confirmed())
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
                g.confirmation.as_ref().is_none_or(Confirmation::confirmed),
            )),
            _ => None,
        })
        .collect();
    if standing.iter().all(|(_, _, ok)| *ok) && !plans.is_empty() {
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
        Cause::Hypothesis { head, .. } => format!(
            "not confirmed: {} gives these {} outputs, but a mistake of the answer's own may \
             give them by chance; {}",
            head.hypothesis.words(),
            group.cases.len(),
            c.words(),
        ),
        _ => format!("{}; {}", describe(&group.cause), c.words()),
    }
}

#[cfg(test)]
mod tests;
