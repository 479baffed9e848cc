//! Beast puzzles ("aHHHH! The Beasts are HHHHere!"): the input format ([`parse`]), the rules
//! of a turn ([`game`]), the switches of the readings ([`rules`]), the catalogue of other
//! readings ([`variant`]) and drawing ([`render`]).

mod choice;
pub mod events;
pub mod game;
pub mod parse;
mod region;
pub mod render;
pub mod replay;
pub mod rules;
pub mod screen;
pub mod variant;

pub use game::{
    Action, Crush, Ending, Game, GameError, GameOver, Outcome, Status, Step, WAIT_LIMIT, play_out,
    play_out_owned, play_out_until, play_out_until_with, play_out_with, wait_limit,
};
pub use parse::{Cell, Move, ParseError, ParseErrorKind, Puzzle, move_string};
pub use render::Style;
pub use rules::{Bump, Distance, Exhaust, Order, Rules, Schedule, Stay, Taken, Target, Ties};
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
