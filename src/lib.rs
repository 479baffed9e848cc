//! beast-judge: a deterministic engine for the "aHHHH! The Beasts are HHHHere!" code golf
//! puzzle, a judge for golf answers, and two small grid games (Fence Posts, Ring Collector).
//!
//! The library does no I/O: no files, no processes, no clock. Randomness comes only from
//! `rand_chacha` streams seeded with a number the caller chooses.

pub mod beast;
pub mod fence;
pub mod grid;
pub mod judge;
pub mod play;
pub mod ring;
