//! `victor train` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor train`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor train` is not implemented yet")
}
