//! The rule switches: each reading of the beast rules that golf answers disagree on
//! (`--order`, `--bump`, `--target`, `--exhaust`, `--ties`, `--distance`, `--schedule`,
//! `--stay`, `--taken`) as plain data, and [`Rules`], one choice of each. `Rules::OURS` is
//! ours; what a switch does to a turn is decided in [`super::game`], and the named
//! readings are in [`super::variant`].

use crate::beast::choice::NEIGHBOURS;

/// Whom the beasts aim at (`--target`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// The player's cell at the start of the turn, before his move (our reading).
    #[default]
    Start,
    /// The player's cell after his move.
    After,
    /// The player's cell at the start of the latest odd turn: the start of the two-turn
    /// round whose even turn the beasts move on.
    RoundStart,
    /// The player's starting cell, whatever he has done since.
    GameStart,
}

/// What happens when the moves run out with the player and a beast alive (`--exhaust`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Exhaust {
    /// The player keeps waiting until he dies or the situation repeats (our reading).
    #[default]
    Wait,
    /// The game stops; the score is printed.
    Stop,
}

/// The order in which beasts move (`--order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Ranked once by position at game start; a beast keeps its rank (our reading).
    #[default]
    Initial,
    /// Re-ranked by current position at every beast turn.
    Turn,
}

/// Which way the beasts' ranks run, whenever they are given ([`Order`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rank {
    /// Top to bottom, left to right: reading order (our reading).
    #[default]
    Reading,
    /// Bottom to top, right to left: the last beast in reading order moves first.
    Reverse,
    /// Column by column, left to right, each column top to bottom.
    ColumnMajor,
    /// Row by row, top to bottom, each row right to left.
    RightToLeft,
}

impl Rank {
    /// Puts `beasts` in this rank order (by their positions now).
    pub fn arrange(self, beasts: &mut [crate::grid::Pos]) {
        match self {
            Rank::Reading => beasts.sort_unstable(),
            Rank::Reverse => beasts.sort_unstable_by(|a, b| b.cmp(a)),
            Rank::ColumnMajor => beasts.sort_unstable_by_key(|p| (p.col, p.row)),
            Rank::RightToLeft => {
                beasts.sort_unstable_by_key(|p| (p.row, std::cmp::Reverse(p.col)));
            }
        }
    }
}

/// What walking into a beast does (`--bump`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bump {
    /// The player dies (our reading).
    #[default]
    Death,
    /// The beast acts as a wall.
    Blocked,
}

/// The priority of a beast's eight neighbours when distances tie: the numbers of the tie
/// matrix `1 3 4 / 2 H 5 / 6 8 7`, highest priority first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ties(pub [u8; 8]);

impl Ties {
    /// Our reading: the matrix's own order, 1 first.
    pub const MATRIX: Ties = Ties([1, 2, 3, 4, 5, 6, 7, 8]);
    /// Reading order: row by row, left to right (1 3 4 2 5 6 8 7).
    pub const ROW_MAJOR: Ties = Ties([1, 3, 4, 2, 5, 6, 8, 7]);
    /// The matrix reversed: 8 first.
    pub const REVERSED: Ties = Ties([8, 7, 6, 5, 4, 3, 2, 1]);
    /// Clockwise from up: up, up-right, right, down-right, down, down-left, left, up-left
    /// (3 4 5 7 8 6 2 1).
    pub const CLOCKWISE: Ties = Ties([3, 4, 5, 7, 8, 6, 2, 1]);
    /// The matrix read column by column, each top to bottom (1 2 6 3 8 4 5 7).
    pub const COLUMN_MAJOR: Ties = Ties([1, 2, 6, 3, 8, 4, 5, 7]);

    /// The matrix order with the numbers `a` and `b` swapped.
    pub const fn swapped(a: u8, b: u8) -> Ties {
        let mut order = Ties::MATRIX.0;
        order[a as usize - 1] = b;
        order[b as usize - 1] = a;
        Ties(order)
    }

    /// The neighbour offsets `(row, col)` in priority order.
    pub(super) fn offsets(self) -> [(isize, isize); 8] {
        self.0.map(|n| NEIGHBOURS[usize::from(n.clamp(1, 8)) - 1])
    }
}

impl Default for Ties {
    fn default() -> Self {
        Ties::MATRIX
    }
}

/// How a beast measures the distance to its target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Distance {
    /// Exact Euclidean distance, compared as integer squares (our reading).
    #[default]
    Euclidean,
    /// Rows plus columns.
    Manhattan,
    /// The larger of rows and columns (king moves).
    Chebyshev,
    /// Euclidean, truncated to a whole number.
    Truncated,
    /// Euclidean times 30, truncated to a whole number (`int(30*sqrt(d))`): exact below a
    /// distance of 15, cells closer than 1/30 apart tie beyond.
    Scaled30,
    /// Euclidean, rounded to the nearest whole number (`round(sqrt(d))`).
    Rounded,
}

/// On which turns the beasts move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// Turns 2, 4, 6, ... (our reading).
    #[default]
    Even,
    /// Turns 1, 3, 5, ...
    Odd,
    /// Every turn.
    Every,
}

impl Schedule {
    /// True if the beasts move on `turn` (from 1).
    #[inline]
    pub fn beasts_move(self, turn: u64) -> bool {
        match self {
            Schedule::Even => turn.is_multiple_of(2),
            Schedule::Odd => turn % 2 == 1,
            Schedule::Every => true,
        }
    }
}

/// Whether a beast with an open neighbour may stay put.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stay {
    /// A beast must move when any neighbour is open (our reading).
    #[default]
    Never,
    /// A beast stays put when every open neighbour is farther from the target than it is.
    WhenFarther,
}

/// What a beast does when its best cell was taken earlier in the same turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Taken {
    /// It takes its next best open cell (our reading).
    #[default]
    NextBest,
    /// It stays put.
    Stays,
}

/// What a train of movable walls does against a beast (RULES.md 1, "One turn").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Push {
    /// Ours: a beast wedged against `#` or `~` is crushed; any other beast acts as a wall.
    #[default]
    Ours,
    /// A beast with another beast behind it is crushed too, as against a wall.
    CrushAgainstBeast,
    /// A beast that is not wedged, with a space behind it, is pushed along with the train.
    LooseBeast,
    /// Only `#` crushes: a beast with a `~` behind it acts as a wall.
    OnlyAgainstWall,
    /// The map's border does not crush: a beast with the outer ring of `#` behind it acts
    /// as a wall (an inner `#` or a `~` still crushes).
    NotAgainstBorder,
    /// A beast at the end of a train is crushed whatever is behind it (a space or a beast
    /// too): the train moves into its cell.
    Always,
}

/// Where the player is after he pushes a train (RULES.md 1, "One turn").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Follow {
    /// He steps into the first wall's old cell (our reading).
    #[default]
    Steps,
    /// He stays where he was; the first wall's old cell is left a space.
    Stays,
    /// He steps into it after a plain push, but stays where he was after a push that
    /// crushes a beast.
    StaysOnCrush,
}

/// What ends the waiting after the moves run out as a stalemate (RULES.md 1, "Output").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stalemate {
    /// A repeat of the beasts' positions on a turn of the same parity (our reading).
    #[default]
    SameParity,
    /// A repeat on any turn: as the beasts never move on an odd turn, the first odd wait
    /// ends the game.
    AnyTurn,
    /// A repeat, on a turn of the same parity, of the positions the beasts had on any turn
    /// since the first, the turns of the moves included (not only the waiting ones).
    FromStart,
}

/// The longest train of movable walls the player can push (RULES.md 1: any length).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Train {
    /// A train of any length moves (our reading).
    #[default]
    Any,
    /// At most this many walls move; a longer train stays put.
    AtMost(u8),
}

impl Train {
    /// True if a train of `walls` movable walls may move.
    #[inline]
    pub fn moves(self, walls: usize) -> bool {
        match self {
            Train::Any => true,
            Train::AtMost(n) => walls <= usize::from(n),
        }
    }
}

/// How a beast kills the player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kill {
    /// By stepping onto his cell (our reading).
    #[default]
    Step,
    /// Also by standing next to him (any of his 8 neighbours) once the beasts have moved.
    Adjacent,
    /// Also by stepping onto their target cell (where the player was at the start of the
    /// turn), though he has left it.
    AtTarget,
}

/// Whether a move that moves nothing still uses up the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Blocked {
    /// A blocked move still uses up the turn (our reading: RULES.md 1, "One turn").
    #[default]
    Turn,
    /// A move into `#`, or against a train that cannot move, is no turn at all.
    NoTurn,
}

/// Which diagonal steps a beast may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// Every one, squeezing between two walls too (our reading: RULES.md 1, "Candidates").
    #[default]
    Open,
    /// A diagonal neighbour between two walls (`#` or `~`) is closed, as corners are in
    /// many grid games.
    NoSqueeze,
    /// None: a beast looks only at its 4 orthogonal neighbours.
    Never,
}

/// What a `W` in the moves is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wait {
    /// A turn in which the player does nothing (our reading: RULES.md 1, "One turn").
    #[default]
    Turn,
    /// Skipped, as if it were whitespace: no turn (the waiting after the moves run out is
    /// unchanged).
    Skipped,
}

/// The readings of the rules that golf answers disagree on. `Rules::default()` (and
/// [`Rules::OURS`]) is ours; the named readings are in [`crate::beast::variant`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Beast order.
    pub order: Order,
    /// Walking into a beast.
    pub bump: Bump,
    /// Whom the beasts aim at.
    pub target: Target,
    /// Moves running out.
    pub exhaust: Exhaust,
    /// Tie-break order.
    pub ties: Ties,
    /// The distance measure.
    pub distance: Distance,
    /// When the beasts move.
    pub schedule: Schedule,
    /// Whether a beast may stay put.
    pub stay: Stay,
    /// A beast whose best cell was just taken.
    pub taken: Taken,
    /// Which way the ranks run.
    pub rank: Rank,
    /// What a train does against a beast.
    pub push: Push,
    /// The longest train that moves.
    pub train: Train,
    /// How a beast kills.
    pub kill: Kill,
    /// Whether a move that moves nothing is a turn.
    pub blocked: Blocked,
    /// Which diagonal steps a beast may take.
    pub diagonal: Diagonal,
    /// Where the player is after a push.
    pub follow: Follow,
    /// What ends the waiting as a stalemate.
    pub stalemate: Stalemate,
    /// What a `W` in the moves is.
    pub wait: Wait,
}

impl Rules {
    /// Our readings, as a constant.
    pub const OURS: Rules = Rules {
        order: Order::Initial,
        bump: Bump::Death,
        target: Target::Start,
        exhaust: Exhaust::Wait,
        ties: Ties::MATRIX,
        distance: Distance::Euclidean,
        schedule: Schedule::Even,
        stay: Stay::Never,
        taken: Taken::NextBest,
        rank: Rank::Reading,
        push: Push::Ours,
        train: Train::Any,
        kill: Kill::Step,
        blocked: Blocked::Turn,
        diagonal: Diagonal::Open,
        follow: Follow::Steps,
        stalemate: Stalemate::SameParity,
        wait: Wait::Turn,
    };
}
