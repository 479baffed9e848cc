//! Judging golf answers: verdicts, output comparison, the diagnosis of a run, case generation
//! and shrinking; and the audit of a challenge's examples.
//!
//! Everything here is pure: no files, no processes, no clock. The `beast check` command in the
//! binary runs candidates and feeds these parts.

pub mod audit;
pub mod budget;
pub mod cases;
pub mod confirmation;
pub mod design;
pub mod diagnose;
pub mod escape;
pub mod flaky;
pub mod generate;
pub mod kattis;
pub mod leaderboard;
pub mod merge;
pub mod pack;
pub mod page;
pub mod pipeline;
pub mod post;
pub mod record;
pub mod report;
pub mod robustness;
pub mod separate;
pub mod shrink;
pub mod termination;
pub mod tuning;
pub mod verdict;
