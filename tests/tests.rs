//! The integration tests of `beast`: one crate, one module a command or concern, the shared
//! helpers in `util`. Engine-only tests are unit tests of `crates/engine`.

mod util;

mod action_cli;
mod answers_cli;
mod beast_cli;
mod bounded_cli;
mod cases_cli;
mod check_cli;
mod contain_cli;
mod diagnosis_cli;
mod examples;
mod fence_cli;
mod gen_cli;
mod jail_cli;
mod kattis_cli;
mod pipes_cli;
mod play_tty;
mod post_cli;
mod ring_cli;
