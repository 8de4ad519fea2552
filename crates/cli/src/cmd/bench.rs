//! `victor bench` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor bench` is not implemented yet")
}
