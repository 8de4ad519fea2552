//! `victor eval` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor eval`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor eval` is not implemented yet")
}
