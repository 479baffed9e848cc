//! Clues and localisation: the rule events ([`crate::beast::events`]) and input traits a
//! case has, and the one ([`Suspect`]) that best separates failing cases from passing ones
//! (the Ochiai score of spectrum-based fault localisation), which names the rule.

use crate::beast::Puzzle;
use crate::beast::events::{self, Events, RuleEvent};
use crate::judge::robustness::TextForms;

/// Something a case may go through or have that sets failing cases apart: a rule event of
/// its game, or a trait of its input text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clue {
    /// A rule event.
    Rule(RuleEvent),
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
    pub(super) fn of(self, puzzle: &Puzzle, layout: TextForms) -> bool {
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
    pub fn event(self) -> Option<RuleEvent> {
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
    pub clue: Clue,

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
        let kind = self.clue;
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

/// The rule events of every case the spectrum needs, under our readings, and the traits
/// of its input.
pub(super) struct Spectrum {
    /// Each case's events, `None` where they were not recorded.
    events: Vec<Option<Events>>,
    /// Each case's input traits, as bits in the order of [`TRAITS`].
    traits: Vec<u8>,
    /// The passing cases.
    passing: Vec<usize>,
}

impl Spectrum {
    /// The spectrum of `cases` (each a puzzle and the layout of its text), `passing` among
    /// them, within the caller's budget.
    pub(super) fn of(
        cases: &[(&Puzzle, TextForms)],
        passing: &[usize],
        keep_going: &impl Fn() -> bool,
    ) -> Spectrum {
        let events = cases
            .iter()
            .map(|&(puzzle, _)| events::record(puzzle, keep_going).ok())
            .collect();
        let traits = cases
            .iter()
            .map(|&(puzzle, layout)| {
                TRAITS
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.of(puzzle, layout))
                    .fold(0u8, |bits, (k, _)| bits | 1 << k)
            })
            .collect();
        Spectrum {
            events,
            traits,
            passing: passing.to_vec(),
        }
    }

    /// True if case `i` has `clue`.
    pub(super) fn has(&self, i: usize, clue: Clue) -> bool {
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
    pub(super) fn best(&self, failing: &[usize]) -> Option<Suspect> {
        if self.passing.is_empty() {
            return None;
        }
        let clues = RuleEvent::all()
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
                        clue: e,
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

/// The answer's own failures in groups, one a suspect event: the failures that go through
/// the best event are one group; when they are most of what is left (three quarters), the
/// rest joins them, since one mistake need not show in every case the same way.
pub(super) fn own_groups(
    own: &[usize],
    spectrum: Option<&Spectrum>,
) -> Vec<(Vec<usize>, Option<Suspect>)> {
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
                RuleEvent::all()
                    .filter(|&e| same_rule(Clue::Rule(e), suspect.clue))
                    .map(Clue::Rule)
                    .chain([suspect.clue])
                    .any(|e| s.has(i, e))
            })
        });
        let exact = with
            .iter()
            .filter(|&&i| spectrum.is_some_and(|s| s.has(i, suspect.clue)))
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
pub(super) fn same_rule(a: Clue, b: Clue) -> bool {
    match (a, b) {
        (Clue::Rule(x), Clue::Rule(y)) => x.same_rule(y),
        _ => a == b,
    }
}
