//! `victor label` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor label`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor label` is not implemented yet")
}
