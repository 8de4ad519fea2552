//! `victor sweep`: block- and text-level figures at every other-threshold of a grid, and the
//! precision/recall plot of the Victor paper's Figure 2 ([`victor::eval::sweep()`] computes
//! them and builds the tables and the plot; this command prints and writes them).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor::Threshold;
use victor::eval::{Axes, GridError, PlotOptions, SourceKind, threshold_grid};

use super::evaluate::InputArgs;
use crate::util::streams::say;
use crate::util::{model, output, words};

/// Sweep the other-threshold and plot precision against recall.
///
/// For every threshold T from --min-threshold to --max-threshold by --step (both ends included), blocks whose
/// P(other) is at or above T are other, the rest the likelier of header and text; lower T keeps
/// less. Prints, and writes with --csv, one row per threshold: blocks labelled content, block
/// precision, recall, F1 and accuracy (as in `victor eval`), and text-level precision, recall
/// and F1 of the text output (macro over pages; median and micro in the CSV). With --plot,
/// draws precision against recall for blocks and for text, thresholds marked, as an SVG (the
/// degenerate ends T = 0 and T = 1 are left out of the plot, not of the table).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Importer for manifest sets: l3s-gn1, cleaneval or text (default: inferred, as in
    /// `victor eval --from`). A number here is the old spelling of --min-threshold, still taken
    /// with a warning.
    #[arg(long = "from", alias = "importer", value_name = "IMPORTER", value_parser = parse_from)]
    from: Option<FromArg>,
    /// Lowest threshold.
    #[arg(
        long,
        value_name = "T",
        default_value = "0",
        allow_negative_numbers = true
    )]
    min_threshold: Threshold,
    /// Highest threshold.
    #[arg(
        long,
        value_name = "T",
        alias = "to",
        default_value = "1",
        allow_negative_numbers = true
    )]
    max_threshold: Threshold,
    /// Distance between thresholds.
    #[arg(long, default_value_t = 0.02, allow_negative_numbers = true)]
    step: f64,
    /// Write the rows as CSV (`-`: to standard output, the table then to standard error).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Draw the precision/recall curves into this SVG file (SVG only: a PNG would need a font
    /// file for the bitmap renderer; a name ending in anything but .svg is refused).
    #[arg(long, value_name = "FILE.svg", value_parser = crate::util::values::svg_path)]
    plot: Option<PathBuf>,
    /// Title of the plot (default: the inputs and the model).
    #[arg(long)]
    title: Option<String>,
    /// Axes of the plot from 0 to 1 (default: zoomed to the curves).
    #[arg(long)]
    full_axes: bool,
    /// Also sweep each value of this manifest field on its own (e.g. `page_type` of wcxb): a
    /// table of text F1 by threshold with a column per value, the best threshold of each, a
    /// text curve per value in --plot, and with --csv every value's rows after the overall
    /// ones (a `group` column first: `(all)`, then each value; `(none)` for pages without it).
    #[arg(long, value_name = "FIELD")]
    group_by: Option<String>,
}

/// What `sweep --from` names: an importer, or (the old spelling, before `--from` meant the
/// importer in every command) the lowest threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
enum FromArg {
    /// `--from l3s-gn1|cleaneval|text`.
    Importer(SourceKind),
    /// `--from 0.2`: the old spelling of `--min-threshold 0.2`.
    MinThreshold(Threshold),
}

/// Parses `sweep --from`: an importer's name, or a number (the old lowest threshold).
fn parse_from(s: &str) -> Result<FromArg, String> {
    if let Ok(i) = s.parse::<SourceKind>() {
        return Ok(FromArg::Importer(i));
    }
    if s.trim().parse::<f64>().is_ok() {
        return s
            .parse::<Threshold>()
            .map(FromArg::MinThreshold)
            .map_err(|e| e.to_string());
    }
    Err(format!(
        "{s:?} is not an importer (l3s-gn1, cleaneval, text); the lowest threshold is --min-threshold"
    ))
}

/// The grid of thresholds from the options (`--from T`, the old spelling of
/// `--min-threshold`, said to be read so).
fn thresholds(args: &Args) -> anyhow::Result<Vec<f64>> {
    let mut min = args.min_threshold;
    if let Some(FromArg::MinThreshold(t)) = args.from {
        say!(
            "victor sweep: --from {t} is read as --min-threshold {t} (--from names the importer, as in victor eval)"
        );
        min = t;
    }
    threshold_grid(min.get(), args.max_threshold.get(), args.step).map_err(|e| match e {
        GridError::Ends { from, to } => anyhow::anyhow!(
            "need 0 <= --min-threshold <= --max-threshold <= 1, got --min-threshold {from} --max-threshold {to}"
        ),
        GridError::Step(s) => anyhow::anyhow!("--step must be positive, got {s}"),
        other => anyhow::anyhow!("--step: {other}"),
    })
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let thresholds = thresholds(&args)?;
    // The output files, checked before any work (the report goes to standard error when one
    // of them is `-`).
    let mut report = output::report_for(&[
        (args.csv.as_deref(), "--csv"),
        (args.plot.as_deref(), "--plot"),
    ])?;
    let model = model::load(args.input.model.as_deref())?;
    let inputs = args.input.open(match args.from {
        Some(FromArg::Importer(i)) => Some(i),
        _ => None,
    })?;
    let group_by = args.group_by.as_deref();
    let (sweep, seconds) = args.input.run_pages(
        &inputs,
        &model,
        "sweep",
        "sweeping",
        |labeling, progress| {
            victor::eval::sweep(&inputs, labeling, &thresholds, group_by, progress)
        },
    )?;

    // Which bundle labelled the pages, as lookup resolved it (`web`, or the folder).
    let model_name = model.name().to_string();
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    let recommended = model.recommended_threshold().map(Threshold::get);
    writeln!(
        report,
        "victor sweep: model {model_name}, {} (split {}): {} pages, {} with gold labels, {} with gold text",
        names.join(" + "),
        args.input.split,
        sweep.pages(),
        sweep.block_pages(),
        sweep.text_pages(),
    )?;
    write!(report, "{}", sweep.table())?;
    write!(report, "{}", sweep.highlights(recommended))?;
    if let Some(field) = group_by {
        write!(report, "{}", sweep.group_table(field))?;
    }
    let failed = sweep.failed();
    if !failed.is_empty() {
        say!(
            "victor sweep: {} could not be labelled (text level: scored as empty output):",
            words::pages(failed.len())
        );
        for f in failed.iter().take(20) {
            say!("  {f}");
        }
    }
    if !args.input.quiet {
        say!(
            "victor sweep: {} x {} in {seconds:.2} s",
            words::pages(sweep.pages()),
            words::count(thresholds.len(), "threshold", "thresholds")
        );
    }
    if let Some(path) = &args.csv {
        output::write_file_with(path, |buf| Ok(sweep.write_csv(buf)?))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        let options = PlotOptions {
            title: args
                .title
                .clone()
                .unwrap_or_else(|| format!("{} — {}", names.join(" + "), model_title(&model_name))),
            axes: if args.full_axes {
                Axes::Full
            } else {
                Axes::Zoom
            },
            label_step: if args.step >= 0.1 { args.step } else { 0.1 },
            recommended,
            ..PlotOptions::default()
        };
        let svg = sweep.plot(&options).context("cannot draw the plot")?;
        output::write_file(path, svg.as_bytes())?;
    }
    // As `victor eval`: the figures count unreadable pages as empty output, and the run fails.
    if !failed.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The last component of a model path, for plot titles.
fn model_title(model: &str) -> String {
    std::path::Path::new(model).file_name().map_or_else(
        || model.to_string(),
        |n| format!("model {}", n.to_string_lossy()),
    )
}
