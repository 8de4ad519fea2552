//! `victor models`: the bundles victor knows, and what one of them is (where it was found, its
//! digest, what it was trained on, how it decodes, and where it came from when it was adapted).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// List the model bundles, or describe some (what --model NAME would load).
///
/// Without NAME, the bundles --model NAME finds, place by place in the order it looks:
/// $VICTOR_MODELS/NAME, ./models/NAME, ~/.local/share/victor/models/NAME
/// ($XDG_DATA_HOME/victor/models/NAME), then the bundles built into victor (`default` is
/// `web`, the bundle used without --model). With NAMEs (a name or a folder), each bundle's
/// description: where it was found, its digest (SHA-256 of victor.json and model.crfsuite),
/// the pages it was trained on and those left out, its decoding, its notes, and, for an
/// adapted bundle, its lineage (the bundle it was adapted from, down the chain).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Bundles to describe (names or folders).
    names: Vec<PathBuf>,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if args.names.is_empty() {
        write!(out, "{}", victor::models::catalog()?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (k, name) in args.names.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let files = victor::models::bundle_files(name)
            .with_context(|| format!("no bundle {}", name.display()))?;
        write!(out, "{}", files.describe(name)?)?;
    }
    Ok(ExitCode::SUCCESS)
}
