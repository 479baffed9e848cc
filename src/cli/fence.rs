//! `beast fence`: not built yet.

use std::process::ExitCode;

/// Arguments of `beast fence`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `beast fence`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("beast fence is not built yet")
}
