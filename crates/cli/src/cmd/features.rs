//! `victor features`: the blocks of pages with every feature value, raw and discretized.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;
use victor_features::{Extractor, FeatureConfig, Segmenter, Template};

use crate::util::inputs;
use crate::util::streams::say;

/// Output formats of `victor features`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// One JSON object per block: page, block, text, offsets, path (its last 64 tag names at
    /// most), and every feature as {"raw": number, "bin": label} under its name (plus
    /// "attributes" with --template).
    Jsonl,
    /// One row per block: page, block, text, then each feature's raw value and its bin.
    Csv,
    /// CRF++ column format: one block a line, the discretized value of every feature in schema
    /// order, tab-separated; a blank line between pages.
    Crfpp,
}

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

/// Most tag names of a block's path printed: deeper paths keep their last ones after `…/`.
const PATH_NAMES: usize = 64;

pub(crate) fn load_config(path: Option<&Path>) -> anyhow::Result<FeatureConfig> {
    match path {
        None => Ok(FeatureConfig::default()),
        Some(p) => {
            let s = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read feature configuration {}", p.display()))?;
            FeatureConfig::from_json(&s).with_context(|| format!("in {}", p.display()))
        }
    }
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let extractor = Extractor::new(&config).context("invalid feature configuration")?;
    let schema = extractor.schema();
    let template = match &args.template {
        None => None,
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read template {}", p.display()))?;
            Some(
                Template::parse(&text, schema)
                    .with_context(|| format!("in template {}", p.display()))?,
            )
        }
    };
    let walk = args.sources.collect("read", None)?;
    walk.report(args.verbose);
    let pages: Vec<PathBuf> = walk.pages.into_iter().map(|i| i.path).collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut csv_out =
        (args.format == Format::Csv).then(|| csv::Writer::from_writer(std::io::stdout()));
    if let Some(w) = &mut csv_out {
        let mut header = vec!["page".to_string(), "block".into(), "text".into()];
        for c in &schema.columns {
            header.push(c.name.clone());
            header.push(format!("{}:bin", c.name));
        }
        w.write_record(&header)?;
    }
    let mut segmenter = Segmenter::new();
    let mut failures = 0usize;
    let mut buf = String::new();
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
        let p = match victor_features::process(&bytes, &mut segmenter, &extractor) {
            Ok(p) => p,
            Err(e) => {
                say!("victor: {}: {e}", path.display());
                failures += 1;
                continue;
            }
        };
        let name = path.display().to_string();
        for (i, b) in p.page.blocks.iter().enumerate() {
            let text = p.page.block_text(b);
            match args.format {
                Format::Jsonl => {
                    let mut feats = serde_json::Map::new();
                    for (c, col) in schema.columns.iter().enumerate() {
                        let raw = p.table.raw(i, c);
                        let bin = bin_label(col, p.table.value(i, c)).to_string();
                        let raw = serde_json::Number::from_f64(f64::from(raw))
                            .map_or(serde_json::Value::Null, serde_json::Value::Number);
                        feats.insert(
                            col.name.clone(),
                            serde_json::json!({"raw": raw, "bin": bin}),
                        );
                    }
                    let mut row = serde_json::json!({
                        "page": name,
                        "block": i,
                        "text": text,
                        "start": b.source.start,
                        "end": b.source.end,
                        "path": p.page.path_tail(b.parent, PATH_NAMES),
                        "space_before": b.space_before,
                        "features": feats,
                    });
                    if let Some(t) = &template {
                        let mut attrs = Vec::new();
                        t.for_each_attribute(&p.table, i, &mut buf, |a| {
                            attrs.push(serde_json::Value::from(a))
                        });
                        row["attributes"] = serde_json::Value::Array(attrs);
                    }
                    serde_json::to_writer(&mut out, &row)?;
                    out.write_all(b"\n")?;
                }
                Format::Csv => {
                    if let Some(w) = &mut csv_out {
                        let mut rec = vec![name.clone(), i.to_string(), text.to_string()];
                        for (c, col) in schema.columns.iter().enumerate() {
                            rec.push(p.table.raw(i, c).to_string());
                            rec.push(bin_label(col, p.table.value(i, c)).to_string());
                        }
                        w.write_record(&rec)?;
                    }
                }
                Format::Crfpp => {
                    for (c, col) in schema.columns.iter().enumerate() {
                        if c > 0 {
                            out.write_all(b"\t")?;
                        }
                        let label = col
                            .labels
                            .get(usize::from(p.table.value(i, c)))
                            .map_or("?", String::as_str);
                        out.write_all(label.as_bytes())?;
                    }
                    out.write_all(b"\n")?;
                }
            }
        }
        if args.format == Format::Crfpp {
            out.write_all(b"\n")?;
        }
    }
    if let Some(mut w) = csv_out {
        w.flush()?;
    }
    out.flush()?;
    if failures > 0 {
        say!("victor: {failures} of {} pages failed", pages.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The name of a column's bin `value`. The discretization gives each column's values from its
/// own bins, so the name is always there; a release build prints `""` where it were not.
fn bin_label(col: &victor_features::Column, value: u16) -> &str {
    let label = col.labels.get(usize::from(value));
    debug_assert!(
        label.is_some(),
        "bin {value} of a column with {} bins",
        col.labels.len()
    );
    label.map_or("", String::as_str)
}
