//! `victor features` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor features`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor features` is not implemented yet")
}
