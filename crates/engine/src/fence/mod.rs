//! Fence Posts: dots and boxes against a farmer (RULES.md section 2).
//!
//! [`Field`] holds the rules, [`farmer`] the farmer's rule, [`notation`] the `a1-b1` fence
//! notation, [`art`] the text picture and [`screen`] the pure interactive screen. Everything
//! here is plain data and pure functions: no I/O, no clock.

pub mod art;
pub mod farmer;
pub mod field;
pub mod notation;
#[cfg(test)]
mod props;
pub mod screen;

pub use field::{
    Field, Move, Outcome, Pen, Refusal, RefusalKind, Score, Side, Size, SizeError, Step,
};
pub use notation::{Fence, NotationError, Orient, Post};
pub use screen::FenceScreen;
