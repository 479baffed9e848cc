//! `beast ring`: not built yet.

use std::process::ExitCode;

/// Arguments of `beast ring`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `beast ring`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("beast ring is not built yet")
}
