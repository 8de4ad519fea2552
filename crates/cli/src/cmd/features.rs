//! `victor features`: the blocks of pages with every feature value, raw and discretized.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use victor::features::{Extractor, FeatureConfig, FeatureFormat as Format, FeatureWriter};
use victor::features::{Segmenter, Template};

use crate::util::inputs;
use crate::util::streams::say;

/// Print the blocks of pages with every feature value, raw and discretized.
///
/// A block is a run of text between two tags (`<p>Hello <b>world</b>!</p>` gives "Hello",
/// "world", "!"). Features follow the Victor paper's section 3.2, discretized by the bins of the
/// feature configuration.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    sources: inputs::PageArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Feature configuration (JSON); default: the built-in templates/features.json.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// CRF++ template; with it, jsonl rows also list the block's CRF attributes.
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// List each file the walks of folders passed over, with why (by default one line counts
    /// them by reason).
    #[arg(long, short)]
    verbose: bool,
}

/// The feature configuration of `--config` (`bench` reads it so too).
pub(crate) fn load_config(path: Option<&Path>) -> anyhow::Result<FeatureConfig> {
    Ok(victor::features::read_config(path)?)
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = victor::features::read_config(args.config.as_deref())?;
    let extractor = Extractor::new(&config).context("invalid feature configuration")?;
    let schema = extractor.schema();
    let template = match &args.template {
        None => None,
        Some(p) => Some(
            Template::parse(&victor::features::read_template(Some(p))?, schema)
                .with_context(|| format!("in template {}", p.display()))?,
        ),
    };
    let walk = args.sources.collect("read", None)?;
    walk.report(args.verbose);
    let pages: Vec<PathBuf> = walk.pages.into_iter().map(|i| i.path).collect();
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    let mut writer = FeatureWriter::new(out, args.format, &extractor, template.as_ref())?;
    let mut segmenter = Segmenter::new();
    let mut failures = 0usize;
    for path in &pages {
        let bytes = match inputs::read_page(path) {
            Ok(b) => b,
            Err(e) => {
                say!("victor: {}: cannot read: {e}", path.display());
                failures += 1;
                continue;
            }
        };
        // As in `label`: an empty input is a failure, not a page without blocks.
        if let Some(reason) = inputs::empty_input(path, &bytes) {
            say!("victor: {}: {reason}", path.display());
            failures += 1;
            continue;
        }
        match victor::features::process(&bytes, &mut segmenter, &extractor) {
            Ok(p) => writer.page(&path.display().to_string(), &p)?,
            Err(e) => {
                say!("victor: {}: {e}", path.display());
                failures += 1;
            }
        }
    }
    writer.flush()?;
    if failures > 0 {
        say!("victor: {failures} of {} pages failed", pages.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
