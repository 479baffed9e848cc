//! Beast puzzles ("aHHHH! The Beasts are HHHHere!"): the input format ([`parse`]), the rules
//! of a turn ([`game`]), a whole puzzle played out ([`mod@play_out`]), the switches of the
//! readings ([`rules`]), the catalogue of other readings ([`variant`]) and drawing
//! ([`render`]).

mod chase;
mod choice;
pub mod events;
pub mod game;
mod measure;
pub mod parse;
pub mod play_out;
mod region;
pub mod render;
pub mod replay;
pub mod rules;
pub mod screen;
pub mod variant;

pub use game::{Action, Crush, Game, GameOver, Status, Step};
pub use parse::{Cell, Move, ParseError, ParseErrorKind, Puzzle, move_string};
pub use play_out::{
    Ending, GameError, Outcome, WAIT_LIMIT, play_out, play_out_owned, play_out_until,
    play_out_until_with, play_out_with, wait_limit,
};
pub use render::Style;
pub use rules::{
    Blocked, Bump, Distance, Exhaust, Kill, Order, Push, Rank, Rules, Schedule, Stay, Taken,
    Target, Ties, Train,
};
pub use variant::{CATALOGUE, Variant};

impl crate::play::Playable for Game {
    type Move = Move;
    type Event = Step;
    type Refusal = GameOver;

    fn apply(&mut self, played: Move) -> Result<Step, GameOver> {
        Game::apply(self, played)
    }
}

#[cfg(test)]
mod tests;
