//! The integration tests of `beast`: one crate, one module a command or concern, the shared
//! helpers in `util`, the jail's tests in `jail/` by attack class. Engine-only tests are unit
//! tests of `crates/engine`. The jail's tests need Linux (`/proc`, namespaces), the pipe
//! tests Unix.

mod util;

mod action_cli;
mod answers_cli;
mod audit_cli;
mod beast_cli;
mod bounded_cli;
mod cases_cli;
mod catalogue_cli;
mod check_cli;
mod confirmed_cli;
mod diagnosis_cli;
mod everyday_cli;
mod examples;
mod fence_cli;
mod gen_cli;
#[cfg(unix)]
mod hostile_text_cli;
#[cfg(target_os = "linux")]
mod jail;
#[cfg(target_os = "linux")]
mod judge_errors_cli;
mod kattis_cli;
mod named_causes_cli;
#[cfg(target_os = "linux")]
mod named_files_cli;
mod page_cli;
#[cfg(unix)]
mod pipes_cli;
mod play_tty;
mod post_cli;
#[cfg(unix)]
mod quick_start;
#[cfg(unix)]
mod report_paths_cli;
mod ring_cli;
mod robustness_cli;
mod same_report_cli;
#[cfg(unix)]
mod shard_records_cli;
#[cfg(unix)]
mod startable_cli;
