//! The catalogue of known readings: every way golf answers are known to read the rules
//! differently from us (RULES.md 1, "Readings we chose" and "Known facts for tests"), each
//! defined once here with its name, its plain words and the change to [`Rules`] it makes.
//!
//! The four reading switches (`--order`, `--bump`, `--target`, `--exhaust`) are in the
//! catalogue too, and [`SWITCHES`] gives each its own flag. Adding a reading is one entry in
//! [`CATALOGUE`]; `beast --variant NAME`, `beast variants` and the diagnosis of `beast check`
//! pick it up from there.

use crate::beast::rules::{
    Blocked, Bump, Diagonal, Distance, Exhaust, Follow, Kill, Order, Push, Rank, Rules, Schedule,
    Stalemate, Stay, Taken, Target, Ties, Train, Wait,
};

/// What a reading changes in [`Rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The beast order.
    Order(Order),
    /// Walking into a beast.
    Bump(Bump),
    /// Whom the beasts aim at.
    Target(Target),
    /// Moves running out.
    Exhaust(Exhaust),
    /// The tie-break order.
    Ties(Ties),
    /// The distance measure.
    Distance(Distance),
    /// When the beasts move.
    Schedule(Schedule),
    /// Whether a beast may stay put.
    Stay(Stay),
    /// A beast whose best cell was just taken.
    Taken(Taken),
    /// Which way the beasts' ranks run.
    Rank(Rank),
    /// What a train does against a beast.
    Push(Push),
    /// The longest train that moves.
    Train(Train),
    /// How a beast kills.
    Kill(Kill),
    /// Whether a move that moves nothing is a turn.
    Blocked(Blocked),
    /// Which diagonal steps a beast may take.
    Diagonal(Diagonal),
    /// Where the player is after a push.
    Follow(Follow),
    /// What ends the waiting as a stalemate.
    Stalemate(Stalemate),
    /// What a `W` in the moves is.
    Wait(Wait),
}

impl Change {
    /// True if `other` changes the same rule (the same field of [`Rules`]) as this one.
    pub fn same_rule(self, other: Change) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// `rules` with this change made.
    pub fn apply(self, rules: Rules) -> Rules {
        let mut r = rules;
        match self {
            Change::Order(v) => r.order = v,
            Change::Bump(v) => r.bump = v,
            Change::Target(v) => r.target = v,
            Change::Exhaust(v) => r.exhaust = v,
            Change::Ties(v) => r.ties = v,
            Change::Distance(v) => r.distance = v,
            Change::Schedule(v) => r.schedule = v,
            Change::Stay(v) => r.stay = v,
            Change::Taken(v) => r.taken = v,
            Change::Rank(v) => r.rank = v,
            Change::Push(v) => r.push = v,
            Change::Train(v) => r.train = v,
            Change::Kill(v) => r.kill = v,
            Change::Blocked(v) => r.blocked = v,
            Change::Diagonal(v) => r.diagonal = v,
            Change::Follow(v) => r.follow = v,
            Change::Stalemate(v) => r.stalemate = v,
            Change::Wait(v) => r.wait = v,
        }
        r
    }
}

/// One known way of reading the rules differently from us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The short name, as `beast --variant NAME` takes it.
    pub name: &'static str,
    /// What an answer with this reading does, in plain words.
    pub words: &'static str,
    /// The rule it misreads, as our readings (and docs/RULES.md) have it, in plain words:
    /// what a case that refutes it checks.
    pub rule: &'static str,
    /// The change it makes to our rules.
    pub change: Change,
}

impl Variant {
    /// `rules` with this reading.
    pub fn apply(&self, rules: Rules) -> Rules {
        self.change.apply(rules)
    }

    /// True if `rules` read the rules this way.
    pub fn holds_in(&self, rules: Rules) -> bool {
        self.apply(rules) == rules
    }

    /// True if one of the four switches selects this reading (it has its own flag).
    pub fn is_switch(&self) -> bool {
        SWITCHES.iter().any(|s| s.other == self.change)
    }

    /// The `beast` flags that select this reading: `--target after` for a switch,
    /// `--variant NAME` otherwise.
    pub fn flags(&self) -> String {
        match SWITCHES.iter().find(|s| s.other == self.change) {
            Some(s) => format!("--{} {}", s.flag, s.other_value),
            None => format!("--variant {}", self.name),
        }
    }
}

/// One of the four rule switches that have a flag of their own, such as `--target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// The flag without dashes: `target`.
    pub flag: &'static str,
    /// The help text of the flag.
    pub help: &'static str,
    /// The value that selects our reading: `start`.
    pub ours_value: &'static str,
    /// Our reading.
    pub ours: Change,
    /// The value that selects the other reading: `after`.
    pub other_value: &'static str,
    /// The other reading (also in [`CATALOGUE`]).
    pub other: Change,
}

impl Switch {
    /// The reading a flag value names, if it is one of the two.
    pub fn change(&self, value: &str) -> Option<Change> {
        if value == self.ours_value {
            Some(self.ours)
        } else if value == self.other_value {
            Some(self.other)
        } else {
            None
        }
    }
}

/// The four rule switches, in the order `beast --help` lists them.
pub const SWITCHES: [Switch; 4] = [
    Switch {
        flag: "order",
        help: "Beast order: `initial` ranks once by start position; `turn` re-ranks every beast turn",
        ours_value: "initial",
        ours: Change::Order(Order::Initial),
        other_value: "turn",
        other: Change::Order(Order::Turn),
    },
    Switch {
        flag: "bump",
        help: "Walking into a beast: `death` kills the player; `blocked` treats the beast as a wall",
        ours_value: "death",
        ours: Change::Bump(Bump::Death),
        other_value: "blocked",
        other: Change::Bump(Bump::Blocked),
    },
    Switch {
        flag: "target",
        help: "Beasts aim at the player's cell at the `start` of the turn, or `after` his move",
        ours_value: "start",
        ours: Change::Target(Target::Start),
        other_value: "after",
        other: Change::Target(Target::After),
    },
    Switch {
        flag: "exhaust",
        help: "Moves run out: `wait` until eaten or stalemate; `stop` and print the score",
        ours_value: "wait",
        ours: Change::Exhaust(Exhaust::Wait),
        other_value: "stop",
        other: Change::Exhaust(Exhaust::Stop),
    },
];

/// A tie swap: the reading where a tie between `b` and `a` (matrix numbers, `a` ours) goes
/// to `b`.
const fn tie(name: &'static str, words: &'static str, rule: &'static str, a: u8, b: u8) -> Variant {
    Variant {
        name,
        words,
        rule,
        change: Change::Ties(Ties::swapped(a, b)),
    }
}

/// Every known reading, the four switches first.
pub const CATALOGUE: &[Variant] = &[
    Variant {
        name: "order-turn",
        words: "the beasts are re-ranked by position every turn",
        rule: "the beasts keep the rank of their starting positions (top to bottom, left to right) as they move",
        change: Change::Order(Order::Turn),
    },
    Variant {
        name: "bump-blocked",
        words: "walking into a beast is blocked instead of fatal",
        rule: "walking into a beast kills the player",
        change: Change::Bump(Bump::Blocked),
    },
    Variant {
        name: "target-after",
        words: "the beasts aim at the player after his move",
        rule: "the beasts aim at the player's cell at the start of the turn, before his move",
        change: Change::Target(Target::After),
    },
    Variant {
        name: "exhaust-stop",
        words: "the game stops when the moves run out",
        rule: "when the moves run out the player waits until a beast gets him or the game is a stalemate",
        change: Change::Exhaust(Exhaust::Stop),
    },
    tie(
        "tie-up-over-left",
        "a tie between left and up goes to up",
        "a tie between left and up goes to left",
        2,
        3,
    ),
    tie(
        "tie-right-over-left",
        "a tie between left and right goes to right",
        "a tie between left and right goes to left",
        2,
        5,
    ),
    tie(
        "tie-down-over-left",
        "a tie between left and down goes to down",
        "a tie between left and down goes to left",
        2,
        8,
    ),
    tie(
        "tie-right-over-up",
        "a tie between up and right goes to right",
        "a tie between up and right goes to up",
        3,
        5,
    ),
    tie(
        "tie-down-over-up",
        "a tie between up and down goes to down",
        "a tie between up and down goes to up",
        3,
        8,
    ),
    tie(
        "tie-down-over-right",
        "a tie between right and down goes to down",
        "a tie between right and down goes to right",
        5,
        8,
    ),
    tie(
        "tie-upright-over-upleft",
        "a tie between up-left and up-right goes to up-right",
        "a tie between up-left and up-right goes to up-left",
        1,
        4,
    ),
    tie(
        "tie-downleft-over-upleft",
        "a tie between up-left and down-left goes to down-left",
        "a tie between up-left and down-left goes to up-left",
        1,
        6,
    ),
    tie(
        "tie-downright-over-upleft",
        "a tie between up-left and down-right goes to down-right",
        "a tie between up-left and down-right goes to up-left",
        1,
        7,
    ),
    tie(
        "tie-downleft-over-upright",
        "a tie between up-right and down-left goes to down-left",
        "a tie between up-right and down-left goes to up-right",
        4,
        6,
    ),
    tie(
        "tie-downright-over-upright",
        "a tie between up-right and down-right goes to down-right",
        "a tie between up-right and down-right goes to up-right",
        4,
        7,
    ),
    tie(
        "tie-downright-over-downleft",
        "a tie between down-left and down-right goes to down-right",
        "a tie between down-left and down-right goes to down-left",
        6,
        7,
    ),
    Variant {
        name: "ties-row-major",
        words: "ties go to the first neighbour in reading order, row by row",
        rule: "a tie goes to the lowest number of the matrix 1 3 4 / 2 H 5 / 6 8 7",
        change: Change::Ties(Ties::ROW_MAJOR),
    },
    Variant {
        name: "ties-reversed",
        words: "ties go to the highest number of the tie matrix",
        rule: "a tie goes to the lowest number of the matrix 1 3 4 / 2 H 5 / 6 8 7",
        change: Change::Ties(Ties::REVERSED),
    },
    Variant {
        name: "distance-manhattan",
        words: "the beasts measure distance as rows plus columns (Manhattan)",
        rule: "the beasts measure straight-line (Euclidean) distance",
        change: Change::Distance(Distance::Manhattan),
    },
    Variant {
        name: "distance-chebyshev",
        words: "the beasts measure distance in king moves (Chebyshev)",
        rule: "the beasts measure straight-line (Euclidean) distance",
        change: Change::Distance(Distance::Chebyshev),
    },
    Variant {
        name: "distance-truncated",
        words: "the beasts truncate distances to whole numbers",
        rule: "the beasts compare exact distances",
        change: Change::Distance(Distance::Truncated),
    },
    Variant {
        name: "beasts-odd-turns",
        words: "the beasts move on odd turns",
        rule: "the beasts move on even turns (2, 4, 6, ...)",
        change: Change::Schedule(Schedule::Odd),
    },
    Variant {
        name: "beasts-every-turn",
        words: "the beasts move on every turn",
        rule: "the beasts move on even turns (2, 4, 6, ...)",
        change: Change::Schedule(Schedule::Every),
    },
    Variant {
        name: "beast-may-stay",
        words: "a beast stays put when every open cell is farther away",
        rule: "a beast must move when any neighbour is open, even one farther away",
        change: Change::Stay(Stay::WhenFarther),
    },
    Variant {
        name: "no-next-best",
        words: "a beast whose best cell was just taken stays put",
        rule: "a beast whose best cell was just taken takes its next best",
        change: Change::Taken(Taken::Stays),
    },
    Variant {
        name: "order-reverse",
        words: "the beasts move in reverse order, bottom to top and right to left",
        rule: "the beasts move in rank order, top to bottom and left to right",
        change: Change::Rank(Rank::Reverse),
    },
    Variant {
        name: "distance-30-sqrt",
        words: "the beasts compare distances as int(30*sqrt(d)), so cells at 15 or more \
                that differ by less than 1/30 tie",
        rule: "the beasts compare exact distances",
        change: Change::Distance(Distance::Scaled30),
    },
    Variant {
        name: "crush-against-beast",
        words: "a beast with another beast behind it is crushed, as against a wall",
        rule: "a beast with a beast behind it is not crushed: nothing moves",
        change: Change::Push(Push::CrushAgainstBeast),
    },
    Variant {
        name: "loose-beast-pushed",
        words: "a beast that is not wedged is pushed along with the train",
        rule: "a beast that is not wedged acts as a wall: nothing moves",
        change: Change::Push(Push::LooseBeast),
    },
    Variant {
        name: "train-of-two",
        words: "a train of three or more movable walls stays put",
        rule: "a train of movable walls of any length is pushed",
        change: Change::Train(Train::AtMost(2)),
    },
    Variant {
        name: "train-of-one",
        words: "only a single movable wall is pushed; a train of two or more stays put",
        rule: "a train of movable walls of any length is pushed",
        change: Change::Train(Train::AtMost(1)),
    },
    Variant {
        name: "kill-next-door",
        words: "a beast kills the player from a neighbouring cell once the beasts have moved",
        rule: "a beast kills the player only by moving onto his cell",
        change: Change::Kill(Kill::Adjacent),
    },
    Variant {
        name: "blocked-no-turn",
        words: "a move that moves nothing (into a wall, or a train that cannot move) is no turn",
        rule: "a move that moves nothing still uses up its turn",
        change: Change::Blocked(Blocked::NoTurn),
    },
    Variant {
        name: "no-squeeze",
        words: "a beast never squeezes diagonally between two walls",
        rule: "a beast may squeeze diagonally between two walls",
        change: Change::Diagonal(Diagonal::NoSqueeze),
    },
    Variant {
        name: "wait-skipped",
        words: "a W in the moves is skipped, as if it were a space (no turn)",
        rule: "a W in the moves is a turn in which the player does nothing",
        change: Change::Wait(Wait::Skipped),
    },
    Variant {
        name: "crush-only-against-wall",
        words: "only `#` crushes: a beast with a movable wall behind it acts as a wall",
        rule: "a beast wedged against a movable wall is crushed, as against `#`",
        change: Change::Push(Push::OnlyAgainstWall),
    },
    Variant {
        name: "crush-not-against-border",
        words: "the map's border does not crush: a beast with the outer `#` behind it acts as a wall",
        rule: "a beast wedged against the map's border `#` is crushed, as against an inner wall",
        change: Change::Push(Push::NotAgainstBorder),
    },
    Variant {
        name: "push-stays",
        words: "the player stays where he was when he pushes a train",
        rule: "the player steps into the first wall's old cell when he pushes a train",
        change: Change::Follow(Follow::Stays),
    },
    Variant {
        name: "four-neighbours",
        words: "a beast looks only at its 4 orthogonal neighbours, never diagonally",
        rule: "a beast may step to any of its 8 neighbours, diagonals included",
        change: Change::Diagonal(Diagonal::Never),
    },
    Variant {
        name: "stalemate-any-turn",
        words: "a repeat of the beasts' positions on any turn is a stalemate (the first odd wait ends the game)",
        rule: "a stalemate is a repeat of the beasts' positions on a turn of the same parity",
        change: Change::Stalemate(Stalemate::AnyTurn),
    },
    Variant {
        name: "distance-rounded",
        words: "the beasts round distances to the nearest whole number",
        rule: "the beasts compare exact distances",
        change: Change::Distance(Distance::Rounded),
    },
    Variant {
        name: "order-column-major",
        words: "the beasts are ranked column by column, left to right, each column top to bottom",
        rule: "the beasts are ranked row by row, top to bottom, each row left to right",
        change: Change::Rank(Rank::ColumnMajor),
    },
    Variant {
        name: "order-right-to-left",
        words: "the beasts are ranked row by row, top to bottom, but each row right to left",
        rule: "the beasts are ranked row by row, top to bottom, each row left to right",
        change: Change::Rank(Rank::RightToLeft),
    },
    Variant {
        name: "kill-at-target",
        words: "a beast that steps onto the player's cell of the start of the turn kills him, though he has left it",
        rule: "a beast that steps onto the cell the player left this turn does not kill him",
        change: Change::Kill(Kill::AtTarget),
    },
    Variant {
        name: "crush-always",
        words: "a beast at the end of a pushed train is crushed whatever is behind it",
        rule: "a beast is crushed only with `#` or `~` behind it; with a space or a beast behind it, nothing moves",
        change: Change::Push(Push::Always),
    },
    Variant {
        name: "ties-clockwise",
        words: "ties go clockwise from up: up, up-right, right, down-right, down, down-left, left, up-left",
        rule: "a tie goes to the lowest number of the matrix 1 3 4 / 2 H 5 / 6 8 7",
        change: Change::Ties(Ties::CLOCKWISE),
    },
    Variant {
        name: "ties-column-major",
        words: "ties go to the first neighbour in the tie matrix read column by column",
        rule: "a tie goes to the lowest number of the matrix 1 3 4 / 2 H 5 / 6 8 7",
        change: Change::Ties(Ties::COLUMN_MAJOR),
    },
    Variant {
        name: "stalemate-from-start",
        words: "the beasts standing where they stood before any earlier turn of the same parity, the moves' turns included, is a stalemate",
        rule: "a stalemate is a repeat of the beasts' positions while the player waits after the moves run out",
        change: Change::Stalemate(Stalemate::FromStart),
    },
    Variant {
        name: "target-round-start",
        words: "the beasts aim at the player's cell at the start of the round (the odd turn before theirs)",
        rule: "the beasts aim at the player's cell at the start of their own turn, before his move",
        change: Change::Target(Target::RoundStart),
    },
    Variant {
        name: "target-game-start",
        words: "the beasts aim at the player's starting cell, wherever he has gone",
        rule: "the beasts aim at the player's cell at the start of their own turn, before his move",
        change: Change::Target(Target::GameStart),
    },
    Variant {
        name: "crush-player-stays",
        words: "the player stays where he was when his push crushes a beast",
        rule: "the player steps into the first wall's old cell when his push crushes a beast",
        change: Change::Follow(Follow::StaysOnCrush),
    },
];

/// The catalogue entry named `name`.
pub fn find(name: &str) -> Option<&'static Variant> {
    CATALOGUE.iter().find(|v| v.name == name)
}

/// The catalogue entries that have no switch of their own (`--variant NAME` only).
pub fn beyond_switches() -> impl Iterator<Item = &'static Variant> {
    CATALOGUE.iter().filter(|v| !v.is_switch())
}

/// The catalogue entries that `rules` reads the rules by, in catalogue order.
pub fn held_by(rules: Rules) -> impl Iterator<Item = &'static Variant> {
    CATALOGUE.iter().filter(move |v| v.holds_in(rules))
}

/// The `beast` flags that select `rules`, such as `--target after --variant
/// tie-up-over-left`; empty for ours. Only readings made of catalogue entries are named.
pub fn flags(rules: Rules) -> String {
    held_by(rules)
        .map(|v| v.flags())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What `rules` do differently from ours, in plain words: `the beasts aim at the player
/// after his move and the game stops when the moves run out`; `our readings` for ours.
pub fn words(rules: Rules) -> String {
    let words: Vec<&str> = held_by(rules).map(|v| v.words).collect();
    match words.as_slice() {
        [] => "our readings".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Reads rule flags as `beast` takes them: `--order turn`, `--exhaust=stop`,
/// `--variant NAME`, ...
pub fn parse_flags(text: &str) -> Result<Rules, String> {
    use crate::words::{quoted, shortened};
    let mut rules = Rules::OURS;
    let mut tokens = text.split_whitespace();
    while let Some(tok) = tokens.next() {
        let (flag, value) = match tok.split_once('=') {
            Some((f, v)) => (f, v),
            None => (tok, tokens.next().unwrap_or("")),
        };
        let bad = || format!("unknown value {} for {}", quoted(value), shortened(flag));
        let change = match flag.strip_prefix("--") {
            Some("variant") => find(value).map(|v| v.change).ok_or_else(bad)?,
            Some(name) => match SWITCHES.iter().find(|s| s.flag == name) {
                Some(s) => s.change(value).ok_or_else(bad)?,
                None => return Err(format!("{} is not a rule flag", quoted(tok))),
            },
            None => return Err(format!("{} is not a rule flag", quoted(tok))),
        };
        rules = change.apply(rules);
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_entry_changes_our_rules() {
        for (i, v) in CATALOGUE.iter().enumerate() {
            assert!(
                CATALOGUE[..i].iter().all(|w| w.name != v.name),
                "{}",
                v.name
            );
            assert_ne!(v.apply(Rules::OURS), Rules::OURS, "{}", v.name);
            assert!(!v.holds_in(Rules::OURS), "{}", v.name);
        }
    }

    #[test]
    fn each_entry_says_the_rule_it_misreads_in_other_words() {
        for v in CATALOGUE {
            assert!(!v.rule.is_empty() && v.rule != v.words, "{}", v.name);
        }
        // A tie swap's rule gives the tie to the other side.
        let swap = find("tie-right-over-up").expect("in the catalogue");
        assert_eq!(swap.words, "a tie between up and right goes to right");
        assert_eq!(swap.rule, "a tie between up and right goes to up");
    }

    #[test]
    fn each_switch_reading_is_a_catalogue_entry() {
        for s in SWITCHES {
            assert!(CATALOGUE.iter().any(|v| v.change == s.other), "{}", s.flag);
            assert_eq!(s.ours.apply(Rules::OURS), Rules::OURS, "{}", s.flag);
        }
        assert_eq!(CATALOGUE.iter().filter(|v| v.is_switch()).count(), 4);
    }

    #[test]
    fn twelve_tie_pairs_are_swapped() {
        let ties = CATALOGUE
            .iter()
            .filter(|v| matches!(v.change, Change::Ties(_)) && v.name.starts_with("tie-"))
            .count();
        assert_eq!(ties, 12);
        assert_eq!(Ties::swapped(2, 3).0, [1, 3, 2, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn flags_read_back_to_the_same_rules() {
        for v in CATALOGUE {
            let rules = v.apply(Rules::OURS);
            assert_eq!(parse_flags(&flags(rules)), Ok(rules), "{}", v.name);
        }
        let both = find("tie-up-over-left")
            .map(|v| v.apply(Change::Target(Target::After).apply(Rules::OURS)))
            .expect("in the catalogue");
        assert_eq!(flags(both), "--target after --variant tie-up-over-left");
        assert_eq!(parse_flags(&flags(both)), Ok(both));
    }

    #[test]
    fn rule_flags_parse_in_both_spellings() {
        let r = parse_flags("--order turn --bump=blocked\n--target after --exhaust stop")
            .expect("valid");
        assert_eq!(r.order, Order::Turn);
        assert_eq!(r.bump, Bump::Blocked);
        assert_eq!(r.target, Target::After);
        assert_eq!(r.exhaust, Exhaust::Stop);
        assert!(parse_flags("--order sideways").is_err());
        assert!(parse_flags("--variant nonsense").is_err());
        assert!(parse_flags("--colour red").is_err());
        assert_eq!(parse_flags(""), Ok(Rules::OURS));
    }

    #[test]
    fn combined_readings_are_said_together() {
        let rules =
            Change::Exhaust(Exhaust::Stop).apply(Change::Target(Target::After).apply(Rules::OURS));
        assert_eq!(
            words(rules),
            "the beasts aim at the player after his move and the game stops when the moves \
             run out"
        );
        assert_eq!(words(Rules::OURS), "our readings");
    }
}
