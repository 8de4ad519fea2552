//! `victor annotations` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor annotations`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor annotations` is not implemented yet")
}
