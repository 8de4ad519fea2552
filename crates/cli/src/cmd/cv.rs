//! `victor cv` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `victor cv`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`victor cv` is not implemented yet")
}
