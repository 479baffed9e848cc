//! Beast puzzles ("aHHHH! The Beasts are HHHHere!"): the input format ([`parse`]), the rules
//! of a turn ([`game`]) and drawing ([`render`]).

pub mod game;
pub mod parse;
pub mod render;
pub mod screen;

pub use game::{
    Action, Bump, Crush, Ending, Exhaust, Game, GameError, Order, Outcome, Rules, Status, Step,
    Target, WAIT_LIMIT, judge, judge_with, wait_limit,
};
pub use parse::{Cell, Move, ParseError, ParseErrorKind, Puzzle, move_string};
pub use render::Style;

#[cfg(test)]
mod tests;
