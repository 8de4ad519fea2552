//! `victor import` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor import`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor import` is not implemented yet")
}
