//! `victor sweep` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor sweep`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor sweep` is not implemented yet")
}
