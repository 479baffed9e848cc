//! What the designed cases of a label showed (`judge::design`), and its words: how the
//! label was confirmed, or why its evidence is weak, or what refuted it. A leaf: the
//! diagnosis's groups hold it.
//!
//! The strength of a label is decided here alone ([`Confirmation::strength`]); the group
//! line, the diagnosis and the summary all ask it. A confirmation is an experiment that
//! could have failed: [`ENOUGH`] designed cases (pairs) from at least two unrelated puzzles,
//! every one as the label predicts, and none against it.

/// How many designed cases (pairs, for a rule event) a part must match to stay.
pub const ENOUGH: usize = 3;

/// How far the designed cases bear a label out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Every part matched on [`ENOUGH`] designed cases from two unrelated puzzles or more,
    /// and no case went against it.
    Confirmed,
    /// Every designed case went as the label predicts, but they are all edits of one
    /// puzzle: the label is kept, hedged ("consistent with"), never "confirmed".
    Consistent,
    /// Too few telling cases could be designed, or they came from one puzzle, or a rule
    /// event's pairs are mixed (more for it than against): the label may hold, but nothing
    /// here shows it.
    Weak,
    /// A designed case went against it: the answer gave another output than the reading
    /// predicts, or was right where the rule event fired in as many pairs as bear it out.
    Refuted,
}

impl Strength {
    /// `confirmed`, `weak` or `refuted`, as the JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Confirmed => "confirmed",
            Strength::Consistent => "consistent",
            Strength::Weak => "weak",
            Strength::Refuted => "refuted",
        }
    }
}

/// What one part's designed cases showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// The part's name.
    pub name: String,
    /// The cases (pairs) the answer's outputs matched.
    pub matched: usize,
    /// Of how many designed (for a rule event: the pairs on whose first puzzle the answer
    /// went wrong, as the label predicts; on the others the event did no harm).
    pub designed: usize,
    /// How many designed cases (pairs) went against the label: for a rule event, a pair
    /// whose first puzzle fires the event and the answer got right; for a reading, a case
    /// whose output is not the reading's.
    pub against: usize,
    /// From how many unrelated puzzles the matched cases come (edits of one map are one).
    pub puzzles: usize,
    /// How many candidate puzzles were looked at to design them.
    pub tried: usize,
    /// True for a rule event's pairs.
    pub paired: bool,
}

impl Tally {
    /// True if the part earned its place: [`ENOUGH`] matches from two unrelated puzzles,
    /// none against.
    pub fn confirmed(&self) -> bool {
        self.strength() == Strength::Confirmed
    }

    /// How far the part's cases bear it out.
    pub fn strength(&self) -> Strength {
        match (self.against, self.matched, self.puzzles) {
            (0, m, p) if m >= ENOUGH && p >= 2 => Strength::Confirmed,
            (0, m, _) if m >= ENOUGH && !self.paired => Strength::Consistent,
            (0, _, _) => Strength::Weak,
            // A pair against a rule event outweighed by the pairs for it: mixed evidence.
            (a, m, _) if self.paired && m > a => Strength::Weak,
            _ => Strength::Refuted,
        }
    }

    /// `4 of 4 designed cases`, or for a rule event `3 of 4 designed pairs`.
    fn figures(&self) -> String {
        let what = match (self.paired, self.designed) {
            (true, 1) => "designed pair",
            (true, _) => "designed pairs",
            (false, 1) => "designed case",
            (false, _) => "designed cases",
        };
        format!("{} of {} {what}", self.matched, self.designed)
    }
}

/// How one designed case counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// As the label predicts.
    For,
    /// Against the label.
    Against,
    /// No evidence either way: an IE, or a pair on which the answer printed the same.
    Nothing,
}

impl Counted {
    /// `for`, `against` or `nothing`, as the JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Counted::For => "for",
            Counted::Against => "against",
            Counted::Nothing => "nothing",
        }
    }
}

/// One designed case as it ran: enough to run it again and check the count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tried {
    /// The part of the label it tests.
    pub part: String,
    /// The puzzle, in the input format.
    pub puzzle: String,
    /// What the label predicts: an output, or `anything but` one.
    pub predicted: String,
    /// What the answer printed; `None` where it printed nothing (a crash, a timeout, an
    /// IE).
    pub got: Option<String>,
    /// How it counted.
    pub counted: Counted,
}

/// What an experiment found: one tally a part, and every case it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirmation {
    /// True for a rule event's experiment (pairs with and without it).
    pub rule_event: bool,
    /// Each part's tally.
    pub parts: Vec<Tally>,
    /// Every designed case, in order (pairs with the event first).
    pub tried: Vec<Tried>,
    /// For a reading that heads a group: the wrong answers of the run it alone explains.
    /// Fewer than [`ENOUGH`] keep it at most consistent, however its designed cases went:
    /// the group line then says what the diagnosis line says.
    pub explains: Option<usize>,
}

impl Confirmation {
    /// True if every part matched on [`ENOUGH`] designed cases, and none went against it.
    pub fn confirmed(&self) -> bool {
        self.strength() == Strength::Confirmed
    }

    /// True if the label stays, confirmed or hedged as consistent.
    pub fn stands(&self) -> bool {
        matches!(self.strength(), Strength::Confirmed | Strength::Consistent)
    }

    /// The label's strength: refuted if a part is, confirmed if every part is, consistent
    /// if every part is at least that, else weak.
    pub fn strength(&self) -> Strength {
        let each = || self.parts.iter().map(Tally::strength);
        let held = |s| matches!(s, Strength::Confirmed | Strength::Consistent);
        let few = self.explains.is_some_and(|n| n < ENOUGH);
        match () {
            _ if each().any(|s| s == Strength::Refuted) => Strength::Refuted,
            _ if self.parts.is_empty() => Strength::Weak,
            _ if each().all(|s| s == Strength::Confirmed) && !few => Strength::Confirmed,
            _ if each().all(held) => Strength::Consistent,
            _ => Strength::Weak,
        }
    }

    /// How the label was confirmed, or why the evidence is weak, in words.
    pub fn words(&self) -> String {
        let event = self.rule_event;
        if self.confirmed() {
            return match self.parts.as_slice() {
                [one] if event => format!(
                    "confirmed on {} ({}: wrong with it, right without)",
                    one.figures(),
                    pair_words(&one.name)
                ),
                [one] => format!("confirmed on {}", one.figures()),
                all => {
                    let each: Vec<String> = all
                        .iter()
                        .map(|t| format!("{} on {}", t.name, t.figures()))
                        .collect();
                    format!("confirmed part by part: {}", each.join("; "))
                }
            };
        }
        if self.strength() == Strength::Consistent {
            let few = self.explains.filter(|&n| n < ENOUGH).map(|n| {
                format!(
                    "{} to explain, fewer than {ENOUGH}",
                    crate::words::count(n as u64, "wrong answer")
                )
            });
            let each: Vec<String> = few
                .clone()
                .into_iter()
                .chain(
                    self.parts
                        .iter()
                        .map(|t| match (t.confirmed(), few.is_some()) {
                            (true, true) => format!("{} as predicted on {}", t.name, t.figures()),
                            (true, false) => format!("{} confirmed on {}", t.name, t.figures()),
                            (false, _) => format!(
                                "{} as predicted on {}, all edits of one puzzle",
                                t.name,
                                t.figures()
                            ),
                        }),
                )
                .collect();
            return format!("not confirmed: {}", each.join("; "));
        }
        if self.strength() == Strength::Refuted {
            let each: Vec<String> = self
                .parts
                .iter()
                .filter(|t| t.against > 0)
                .map(|t| match event {
                    true => format!(
                        "{} happens in {} the answer got right",
                        t.name,
                        crate::words::count(t.against as u64, "designed case")
                    ),
                    false => format!(
                        "the answer did not give what {} predicts on {} of {}",
                        t.name,
                        t.against,
                        crate::words::count(t.designed as u64, "designed case")
                    ),
                })
                .collect();
            return format!("refuted: {}", each.join("; "));
        }
        let each: Vec<String> = self
            .parts
            .iter()
            .map(|t| match (t.confirmed(), t.designed, event) {
                (true, _, _) => format!("{} confirmed on {}", t.name, t.figures()),
                (false, _, _) if t.against > 0 => format!(
                    "the answer was wrong with {} and right without on {}, but {} happens in \
                     {} the answer got right",
                    t.name,
                    t.figures(),
                    t.name,
                    crate::words::count(t.against as u64, "designed case")
                ),
                (false, d, _) if d >= ENOUGH && t.matched >= ENOUGH && t.puzzles < 2 => format!(
                    "{} matched on {}, all edits of one puzzle",
                    t.name,
                    t.figures()
                ),
                (false, d, _) if d < ENOUGH => format!(
                    "{} could be designed for {} ({} puzzles tried)",
                    match (d, t.paired) {
                        (0, true) => "no pair".to_string(),
                        (0, false) => "no telling case".to_string(),
                        (d, true) => format!("only {}", crate::words::count(d as u64, "pair")),
                        (d, false) =>
                            format!("only {}", crate::words::count(d as u64, "telling case")),
                    },
                    t.name,
                    t.tried
                ),
                (false, _, true) => format!(
                    "the answer was wrong with {} and right without on only {}",
                    t.name,
                    t.figures()
                ),
                (false, _, false) => format!(
                    "the answer gave what {} predicts on only {}",
                    t.name,
                    t.figures()
                ),
            })
            .collect();
        let how = match event {
            true => "",
            false => {
                " (each designed so that its output is the label's alone, and turns on that \
                 part)"
            }
        };
        format!("weak evidence: {}{how}", each.join("; "))
    }
}

/// What a rule event's pair is, in words: the same puzzle with and without the event, or,
/// for the events no one-cell change removes, the change that does.
fn pair_words(name: &str) -> String {
    use crate::beast::events::RuleEvent;
    match RuleEvent::named(name) {
        Some(e) if e.is_shape() => {
            format!("the same game with and without {name}, on the map and on it made square")
        }
        Some(RuleEvent::WAIT_MOVE) => format!(
            "the same game with and without {name}, each W made a step against a wall beside \
             the player"
        ),
        _ => format!("the same puzzle with and without {name}"),
    }
}
