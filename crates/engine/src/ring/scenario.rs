//! The three staged scenarios of RULES.md section 3, by name.

use std::fmt;
use std::str::FromStr;

use crate::grid::{Dir, Pos};

/// A staged position that shows one way to lose. It starts at turn 0 with an empty history
/// and is played with the same resolver as the original game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// Player (3,4), guard (2,5) at patrol index 1, all dots: `R` sends both to (3,5).
    SharedDestination,
    /// Player (1,5), guard (1,4) at patrol index 11, all dots: `L` swaps their cells.
    ExchangedEdge,
    /// As shared-destination, but only the dot at (3,5) is left and the score is 9.
    FinalItem,
}

/// How a scenario is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The player's cell.
    pub player: Pos,
    /// The guard's patrol index.
    pub patrol_index: usize,
    /// `None` for all ten dots, or the only dots left.
    pub only_dots: Option<&'static [Pos]>,
    /// The score (10 minus the dots left).
    pub score: u32,
    /// The move that shows the contact.
    pub then: Dir,
}

/// The only dot left in final-item: the contact cell.
const FINAL_ITEM_DOTS: [Pos; 1] = [Pos::new(3, 5)];

/// A scenario name that is not one of [`Scenario::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scenario {0:?}: use shared-destination, exchanged-edge or final-item")]
pub struct UnknownScenario(pub String);

impl Scenario {
    /// The three scenarios, in the order of RULES.md.
    pub const ALL: [Scenario; 3] = [
        Scenario::SharedDestination,
        Scenario::ExchangedEdge,
        Scenario::FinalItem,
    ];

    /// The scenario's name: `shared-destination`, `exchanged-edge` or `final-item`.
    pub const fn name(self) -> &'static str {
        match self {
            Scenario::SharedDestination => "shared-destination",
            Scenario::ExchangedEdge => "exchanged-edge",
            Scenario::FinalItem => "final-item",
        }
    }

    /// Positions, patrol index, dots, score and the move to try, from the RULES.md table.
    pub const fn setup(self) -> Setup {
        match self {
            Scenario::SharedDestination => Setup {
                player: Pos::new(3, 4),
                patrol_index: 1,
                only_dots: None,
                score: 0,
                then: Dir::Right,
            },
            Scenario::ExchangedEdge => Setup {
                player: Pos::new(1, 5),
                patrol_index: 11,
                only_dots: None,
                score: 0,
                then: Dir::Left,
            },
            Scenario::FinalItem => Setup {
                player: Pos::new(3, 4),
                patrol_index: 1,
                only_dots: Some(&FINAL_ITEM_DOTS),
                score: 9,
                then: Dir::Right,
            },
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scenario {
    type Err = UnknownScenario;

    fn from_str(name: &str) -> Result<Scenario, UnknownScenario> {
        Scenario::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownScenario(name.to_string()))
    }
}
