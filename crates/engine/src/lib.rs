//! The engine of beast-judge: the "aHHHH! The Beasts are HHHHere!" code golf puzzle
//! ([`beast`]), the judge of golf answers ([`judge`]), and two small grid games
//! ([`fence`], [`ring`]) on a shared [`grid`], with pure screen models for play ([`play`]).
//!
//! The crate does no I/O: no files, no processes, no clock, no terminal. Every function
//! returns data; the words are made in one render module a game. Every game has one shape,
//! [`play::Playable`]: a move in, what it did or why it was refused out. Randomness comes only
//! from `rand_chacha` streams seeded with a number the caller chooses.
//!
//! Judging a puzzle from another program takes a parse and one call:
//!
//! ```
//! use beast_engine::beast::{Ending, Puzzle, Rules, play_out};
//!
//! let text = "5 4\n#####\n#O H#\n#~  #\n#####\nRW\n";
//! let puzzle = Puzzle::parse(text)?;
//! let outcome = play_out(&puzzle, Rules::default())?;
//! assert_eq!(outcome.ending, Ending::Eaten);
//! assert_eq!(outcome.answer(), "aHHHH!\n0\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A malformed puzzle is a [`beast::ParseError`] that says where (line and column) and why.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod beast;
pub mod fence;
pub mod grid;
pub mod judge;
pub mod play;
pub mod ring;
pub mod words;
