//! Every word of Fence Posts and its `--json` report: refusals (and their `Display`), the
//! result and status lines, what a build did, and the farmer's replies. The rules in
//! `field.rs` and `farmer.rs` return data only; the picture of the field is drawn by
//! [`super::art`].

use std::fmt;

use serde::Serialize;

use super::field::{Built, Field, Refusal, Score, Side, Winner};
use crate::words::count;

/// Why a build was refused: `a1-b1 is already built`.
pub fn refusal(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Malformed(e) => e.to_string(),
        Refusal::OffGrid { from, to, size } => format!("{from}-{to} is off the {size} grid"),
        Refusal::AlreadyBuilt(fence) => format!("{fence} is already built"),
        Refusal::OutOfTurn { to_move: Side::You } => {
            "it is your turn, not the farmer's".to_string()
        }
        Refusal::OutOfTurn {
            to_move: Side::Farmer,
        } => "it is the farmer's turn, not yours".to_string(),
        Refusal::GameOver => "the game is over: every fence is built".to_string(),
    }
}

/// A refusal's words are [`refusal`]'s.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&refusal(self))
    }
}

/// `41 sheep in 9 pens`, or `3 sheep in 1 pen`.
fn haul(score: Score) -> String {
    format!("{} sheep in {}", score.sheep, count(score.pens, "pen"))
}

/// The final line once the game is over, for example
/// `You win: 41 sheep in 9 pens to the farmer's 30 sheep in 7 pens.`
pub fn result_line(field: &Field) -> Option<String> {
    let (you, farmer) = (field.score(Side::You), field.score(Side::Farmer));
    Some(match field.winner()? {
        Winner::You => format!("You win: {} to the farmer's {}.", haul(you), haul(farmer)),
        Winner::Farmer => format!("The farmer wins: {} to your {}.", haul(farmer), haul(you)),
        Winner::Neither => format!("Draw: {} each.", haul(you)),
    })
}

/// The result line once the game is over, else whose move it is and the score so far.
pub fn status_line(field: &Field) -> String {
    if let Some(line) = result_line(field) {
        return line;
    }
    let (you, farmer) = (field.score(Side::You), field.score(Side::Farmer));
    let turn = match field.to_move() {
        Some(Side::Farmer) => "The farmer's move",
        _ => "Your move",
    };
    format!(
        "{turn}. You have {}, the farmer {}.",
        haul(you),
        haul(farmer)
    )
}

/// `You: 3 sheep, 1 pen`, the score as the play screen shows it.
pub fn score_of(side: Side, score: Score) -> String {
    let who = match side {
        Side::You => "You",
        Side::Farmer => "Farmer",
    };
    format!("{who}: {} sheep, {}", score.sheep, count(score.pens, "pen"))
}

/// `You built a1-b1.` or `The farmer built c3-d3 (close) and claimed c3.`
pub fn built(built: &Built) -> String {
    let who = match built.by {
        Side::You => "You",
        Side::Farmer => "The farmer",
    };
    let step = built.step.map(|s| format!(" ({s})")).unwrap_or_default();
    let claimed = if built.claimed.is_empty() {
        String::new()
    } else {
        let pens: Vec<String> = built.claimed.iter().map(ToString::to_string).collect();
        format!(" and claimed {}", pens.join(" and "))
    };
    format!("{who} built {}{step}{claimed}.", built.fence)
}

/// `The farmer built a1-b1 (safe), b2-c2 (close).`: the farmer's moves since your last
/// one, or `None` when it has not moved since.
pub fn farmer_replies(field: &Field) -> Option<String> {
    let log = field.log();
    let start = log
        .iter()
        .rposition(|m| m.by == Side::You)
        .map_or(log.len(), |i| i + 1);
    if start == log.len() {
        return None;
    }
    let replies: Vec<String> = log[start..]
        .iter()
        .map(|m| match m.step {
            Some(step) => format!("{} ({step})", m.fence),
            None => m.fence.to_string(),
        })
        .collect();
    Some(format!("The farmer built {}.", replies.join(", ")))
}

/// The `--json` object of a field: seed, size, sheep and owners by row, built fences, whose
/// move, the scores, the result line and the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The seed the game started from.
    pub seed: u64,
    /// `WxH`.
    pub size: String,
    /// Sheep per pen, row by row.
    pub sheep: Vec<Vec<u32>>,
    /// Every built fence, in fence order.
    pub built: Vec<String>,
    /// Each pen's owner, `you`, `farmer` or null, row by row.
    pub owner: Vec<Vec<Option<&'static str>>>,
    /// `you`, `farmer`, or null once the game is over.
    pub to_move: Option<&'static str>,
    /// True once every fence is built.
    pub over: bool,
    /// Your haul.
    pub you: ScoreReport,
    /// The farmer's haul.
    pub farmer: ScoreReport,
    /// The result line, once the game is over.
    pub result: Option<String>,
    /// Every build, in order.
    pub log: Vec<BuiltReport>,
}

/// One side's haul in the `--json` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreReport {
    /// Sheep in the side's pens.
    pub sheep: u32,
    /// Pens claimed.
    pub pens: u32,
}

/// One build in the `--json` log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BuiltReport {
    /// `you` or `farmer`.
    pub by: &'static str,
    /// The fence, like `a1-b1`.
    pub fence: String,
    /// The pens it completed.
    pub claimed: Vec<String>,
    /// The farmer's rule step that chose it, or null for your move.
    pub step: Option<&'static str>,
}

impl Report {
    /// The report of `field`.
    pub fn of(field: &Field) -> Report {
        let size = field.size();
        let by_rows = |row: usize| row * size.cols()..(row + 1) * size.cols();
        let score = |s: Score| ScoreReport {
            sheep: s.sheep,
            pens: s.pens,
        };
        Report {
            seed: field.seed(),
            size: size.to_string(),
            sheep: (0..size.rows())
                .map(|r| by_rows(r).map(|p| field.sheep(p)).collect())
                .collect(),
            built: field.built().iter().map(ToString::to_string).collect(),
            owner: (0..size.rows())
                .map(|r| by_rows(r).map(|p| field.owner(p).map(Side::name)).collect())
                .collect(),
            to_move: field.to_move().map(Side::name),
            over: field.is_over(),
            you: score(field.score(Side::You)),
            farmer: score(field.score(Side::Farmer)),
            result: result_line(field),
            log: field
                .log()
                .iter()
                .map(|m| BuiltReport {
                    by: m.by.name(),
                    fence: m.fence.to_string(),
                    claimed: m.claimed.iter().map(ToString::to_string).collect(),
                    step: m.step.map(|s| s.name()),
                })
                .collect(),
        }
    }
}
