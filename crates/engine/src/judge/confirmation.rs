//! What the designed cases of a label showed (`judge::design`), and its words: how the
//! label was confirmed, or why its evidence is weak. A leaf: the diagnosis's groups hold it.

/// How many designed cases (pairs, for a rule event) a part must match to stay.
pub const ENOUGH: usize = 3;

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
    /// How many candidate puzzles were looked at to design them.
    pub tried: usize,
    /// True for a rule event's pairs.
    pub paired: bool,
}

impl Tally {
    /// True if the part earned its place.
    pub fn confirmed(&self) -> bool {
        self.matched >= ENOUGH
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

/// What an experiment found: one tally a part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirmation {
    /// True for a rule event's experiment (pairs with and without it).
    pub rule_event: bool,
    /// Each part's tally.
    pub parts: Vec<Tally>,
}

impl Confirmation {
    /// True if every part matched on [`ENOUGH`] designed cases.
    pub fn confirmed(&self) -> bool {
        !self.parts.is_empty() && self.parts.iter().all(Tally::confirmed)
    }

    /// How the label was confirmed, or why the evidence is weak, in words.
    pub fn words(&self) -> String {
        let event = self.rule_event;
        if self.confirmed() {
            return match self.parts.as_slice() {
                [one] if event => format!(
                    "confirmed on {} (the same puzzle with and without {}: wrong with it, \
                     right without)",
                    one.figures(),
                    one.name
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
        let each: Vec<String> = self
            .parts
            .iter()
            .map(|t| match (t.confirmed(), t.designed, event) {
                (true, _, _) => format!("{} confirmed on {}", t.name, t.figures()),
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
