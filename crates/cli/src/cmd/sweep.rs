//! `victor sweep`: block- and text-level figures at every other-threshold of a grid, and the
//! precision/recall plot of the Victor paper's Figure 2.
//!
//! Each page is loaded and its marginals computed once (`evaluate::load`); the page is then
//! swept on its own over the whole grid (`victor_eval::sweep_with_text`: per threshold only the
//! labels are re-decided, and the text re-rendered only where they changed), so pages run in
//! parallel and nothing but a few counts per threshold stays in memory. The per-page counts are
//! summed up in input order. A page that cannot be labelled counts as an empty output at every
//! threshold, as in `victor eval`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor_annotations::{Label, SourceKind};
use victor_eval::{Axes, Curve, GridError, PlotOptions, render_svg, threshold_grid};
use victor_eval::{
    BlockCounts, PageScore, SweepPage, SweepRow, TextScores, sweep, sweep_with_text,
};
use victor_label::{Threshold, render_text};

use super::eval::import_options;
use super::evaluate::input::{Input, open_all};
use super::evaluate::load::{Worker, empty_output};
use super::evaluate::table::Table;
use super::evaluate::{InputArgs, TEXT_COLUMNS, fig, num, text_cells};
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

/// One page's contribution at every threshold.
#[derive(Debug)]
struct PageSweep {
    /// Block counts per threshold, when the page was labelled and has gold labels.
    blocks: Option<Vec<BlockCounts>>,
    /// Text counts per threshold, when the page has a gold text.
    text: Option<Vec<PageScore>>,
    /// Set and id, with why the page could not be labelled.
    failed: Option<String>,
    /// The value of `--group-by`'s field for this page (`None`: not asked, or no such field).
    group: Option<String>,
}

/// Loads a page and sweeps it.
fn sweep_page(
    worker: &mut Worker<'_>,
    input: &Input,
    page: usize,
    thresholds: &[f64],
) -> PageSweep {
    let loaded = match worker.load(input, page) {
        Ok(l) => l,
        Err(f) => {
            let text = f
                .gold_text
                .as_ref()
                .map(|g| vec![empty_output(g); thresholds.len()]);
            return PageSweep {
                blocks: None,
                text,
                failed: Some(format!("{} {}: {}", input.name, f.id, f.reason)),
                group: None,
            };
        }
    };
    // Without gold labels the block counts are made against a stand-in and dropped.
    let stand_in;
    let gold: &[Label] = match &loaded.gold_labels {
        Ok(g) => g,
        Err(_) => {
            stand_in = vec![Label::Other; loaded.probs.len()];
            &stand_in
        }
    };
    let pages = [SweepPage {
        marginals: &loaded.probs,
        gold,
    }];
    let rows = match &loaded.gold_text {
        Some(bag) => sweep_with_text(
            &pages,
            std::slice::from_ref(bag),
            thresholds,
            |_, labels, out| render_text(&loaded.page, labels, false, out),
        ),
        None => sweep(&pages, thresholds),
    };
    match rows {
        Ok(rows) => PageSweep {
            blocks: loaded
                .gold_labels
                .is_ok()
                .then(|| rows.iter().map(|r| r.counts).collect()),
            text: loaded.gold_text.as_ref().map(|_| {
                rows.iter()
                    .map(|r| {
                        let page = r
                            .text_pages
                            .as_ref()
                            .and_then(|t| t.pages().first().copied());
                        // sweep_with_text scores the one page given at every threshold.
                        debug_assert!(page.is_some(), "a sweep row without the page's text score");
                        page.unwrap_or_default()
                    })
                    .collect()
            }),
            failed: None,
            group: None,
        },
        Err(e) => PageSweep {
            blocks: None,
            text: loaded
                .gold_text
                .as_ref()
                .map(|g| vec![empty_output(g); thresholds.len()]),
            failed: Some(format!("{} {}: {e}", input.name, loaded.id)),
            group: None,
        },
    }
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let thresholds = {
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
    }?;
    // The output files, checked before any work (the report goes to standard error when one
    // of them is `-`).
    let mut report = output::report_for(&[
        (args.csv.as_deref(), "--csv"),
        (args.plot.as_deref(), "--plot"),
    ])?;
    let model = model::load(args.input.model.as_deref())?;
    let inputs = open_all(
        &args.input.inputs,
        args.input.split(),
        match args.from {
            Some(FromArg::Importer(i)) => Some(i),
            _ => None,
        },
        &import_options(&args.input),
    )?;
    let (pages, seconds): (Vec<PageSweep>, f64) =
        args.input
            .map_pages(&inputs, &model, "sweep", "sweeping", |w, _, input, i| {
                let mut p = sweep_page(w, input, i, &thresholds);
                if let Some(field) = &args.group_by {
                    p.group = Some(
                        input
                            .page_field(i, field)
                            .unwrap_or_else(|| NO_VALUE.to_string()),
                    );
                }
                p
            })?;

    let rows = sum_up(&thresholds, &pages);
    let groups: Vec<(String, usize, Vec<SweepRow>)> = match args.group_by {
        Some(_) => by_group(&thresholds, &pages),
        None => Vec::new(),
    };
    let block_pages = pages.iter().filter(|p| p.blocks.is_some()).count();
    let text_pages = pages.iter().filter(|p| p.text.is_some()).count();
    let failed: Vec<&str> = pages.iter().filter_map(|p| p.failed.as_deref()).collect();

    // Which bundle labelled the pages, as lookup resolved it (`web`, or the folder).
    let model_name = model.name().to_string();
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    writeln!(
        report,
        "victor sweep: model {model_name}, {} (split {}): {} pages, {block_pages} with gold labels, {text_pages} with gold text",
        names.join(" + "),
        args.input.split,
        pages.len(),
    )?;
    write!(report, "{}", table(&rows, block_pages > 0))?;
    write!(
        report,
        "{}",
        highlights(&rows, model.recommended_threshold().map(Threshold::get))
    )?;
    if let Some(field) = &args.group_by {
        write!(report, "{}", group_table(field, &rows, &groups))?;
    }
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
            words::pages(pages.len()),
            words::count(thresholds.len(), "threshold", "thresholds")
        );
    }
    if let Some(path) = &args.csv {
        output::write_file_with(path, |buf| {
            write_csv(
                buf,
                &rows,
                &groups,
                args.group_by.is_some(),
                block_pages > 0,
            )
        })
        .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        // T = 0 (every block other) and T = 1 (nearly every block content) are nobody's
        // choice, and their points would squash the curves into a corner.
        let inner: Vec<SweepRow> = rows
            .iter()
            .filter(|r| r.threshold > 0.0 && r.threshold < 1.0)
            .cloned()
            .collect();
        let plotted = if inner.is_empty() { &rows } else { &inner };
        let mut curves = Vec::new();
        if block_pages > 0 {
            curves.push(Curve::blocks(plotted));
        }
        curves.extend(Curve::text(plotted));
        for (value, n, group_rows) in &groups {
            let inner: Vec<SweepRow> = group_rows
                .iter()
                .filter(|r| r.threshold > 0.0 && r.threshold < 1.0)
                .cloned()
                .collect();
            if let Some(mut c) = Curve::text(if inner.is_empty() { group_rows } else { &inner }) {
                c.name = format!("text: {value} ({n})");
                curves.push(c);
            }
        }
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
            recommended: model.recommended_threshold().map(Threshold::get),
            ..PlotOptions::default()
        };
        let svg = render_svg(&curves, &options).context("cannot draw the plot")?;
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

/// The group of pages without `--group-by`'s field, as `victor eval` names it.
const NO_VALUE: &str = "(none)";

/// The rows of each value of `--group-by`'s field, in the values' order, with its page count.
fn by_group(thresholds: &[f64], pages: &[PageSweep]) -> Vec<(String, usize, Vec<SweepRow>)> {
    let mut members: std::collections::BTreeMap<&str, Vec<&PageSweep>> = Default::default();
    for p in pages {
        members
            .entry(p.group.as_deref().unwrap_or(NO_VALUE))
            .or_default()
            .push(p);
    }
    members
        .into_iter()
        .map(|(value, ps)| (value.to_string(), ps.len(), sum_up(thresholds, ps)))
        .collect()
}

/// Sums the pages' contributions per threshold, in page order.
fn sum_up<'a>(thresholds: &[f64], pages: impl IntoIterator<Item = &'a PageSweep>) -> Vec<SweepRow> {
    let mut counts = vec![BlockCounts::new(); thresholds.len()];
    let mut texts = vec![TextScores::new(); thresholds.len()];
    for p in pages {
        if let Some(b) = &p.blocks {
            for (c, page) in counts.iter_mut().zip(b) {
                c.merge(page);
            }
        }
        if let Some(t) = &p.text {
            for (s, page) in texts.iter_mut().zip(t) {
                s.push(*page);
            }
        }
    }
    thresholds
        .iter()
        .zip(counts)
        .zip(texts)
        .map(|((&threshold, counts), text)| SweepRow {
            threshold,
            content_blocks: counts.labelled_content(),
            block: counts.metrics(),
            text: text.summary(),
            counts,
            text_pages: Some(text),
        })
        .collect()
}

/// The rows as a terminal table.
fn table(rows: &[SweepRow], blocks: bool) -> String {
    let mut t = Table::new(&[
        "T",
        "content blocks",
        "block P",
        "block R",
        "block F1",
        "accuracy",
        "text P",
        "text R",
        "text F1",
        "median F1",
    ]);
    for r in rows {
        let b = |x: f64| fig(blocks.then_some(x));
        let mut row = vec![
            format!("{}", r.threshold),
            r.content_blocks.to_string(),
            b(r.block.precision),
            b(r.block.recall),
            b(r.block.f1),
            b(r.block.accuracy),
        ];
        // The table shows the macro figures and the median, not the micro ones.
        row.extend(text_cells(r.text, fig).into_iter().take(4));
        t.row(row);
    }
    format!("\n{}", t.render())
}

/// Text F1 (macro) by threshold, overall and for each value of `--group-by`'s field, and the
/// best threshold of each.
fn group_table(
    field: &str,
    rows: &[SweepRow],
    groups: &[(String, usize, Vec<SweepRow>)],
) -> String {
    let mut head = vec!["T".to_string(), format!("all ({})", pages_of(rows))];
    head.extend(groups.iter().map(|(v, n, _)| format!("{v} ({n})")));
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = Table::new(&head_refs);
    let f1 = |r: &SweepRow| fig(r.text.map(|x| x.macro_avg.f1));
    for (k, r) in rows.iter().enumerate() {
        let mut row = vec![format!("{}", r.threshold), f1(r)];
        row.extend(
            groups
                .iter()
                .map(|(_, _, g)| g.get(k).map_or_else(String::new, f1)),
        );
        t.row(row);
    }
    let mut best = vec![format!("all {}", best_text(rows))];
    best.extend(
        groups
            .iter()
            .map(|(v, _, g)| format!("{v} {}", best_text(g))),
    );
    format!(
        "\nText F1 by {field} and threshold\n{}\nbest text F1 by {field}: {}\n",
        t.render(),
        best.join("; ")
    )
}

/// Pages with text figures in a sweep's rows.
fn pages_of(rows: &[SweepRow]) -> usize {
    rows.first()
        .and_then(|r| r.text_pages.as_ref())
        .map_or(0, |t| t.pages().len())
}

/// "F1 at T = t" for the best text F1 of the rows ("no text" without text figures).
fn best_text(rows: &[SweepRow]) -> String {
    rows.iter()
        .filter_map(|r| r.text.map(|x| (r.threshold, x.macro_avg.f1)))
        .fold(None, |acc: Option<(f64, f64)>, (t, k)| match acc {
            Some((_, bk)) if bk >= k => acc,
            _ => Some((t, k)),
        })
        .map_or_else(
            || "no text".to_string(),
            |(t, f)| format!("{f:.4} at T = {t}"),
        )
}

/// The best thresholds by block F1 and by text F1, and the model's recommendation.
fn highlights(rows: &[SweepRow], recommended: Option<f64>) -> String {
    let best = |key: &dyn Fn(&SweepRow) -> Option<f64>| {
        rows.iter()
            .filter_map(|r| key(r).map(|k| (r.threshold, k)))
            .fold(None, |acc: Option<(f64, f64)>, (t, k)| match acc {
                Some((_, bk)) if bk >= k => acc,
                _ => Some((t, k)),
            })
    };
    let mut s = String::new();
    if let Some((t, f)) = best(&|r| Some(r.block.f1)) {
        s.push_str(&format!("\nbest block F1 {f:.4} at T = {t}"));
    }
    if let Some((t, f)) = best(&|r| r.text.map(|x| x.macro_avg.f1)) {
        s.push_str(&format!("; best text F1 {f:.4} at T = {t}"));
    }
    s.push_str(&match recommended {
        Some(t) => format!("; the model recommends T = {t}\n"),
        None => "; the model recommends Viterbi decoding (no threshold)\n".to_string(),
    });
    s
}

/// Columns of `--csv` before the text figures ([`TEXT_COLUMNS`]).
const CSV_COLUMNS: [&str; 7] = [
    "threshold",
    "content_blocks",
    "block_precision",
    "block_recall",
    "block_f1",
    "accuracy",
    "unlabelled_accuracy",
];

/// Writes the rows as CSV; with `grouped`, a `group` column first and every group's rows after
/// the overall ones.
fn write_csv(
    buf: &mut Vec<u8>,
    rows: &[SweepRow],
    groups: &[(String, usize, Vec<SweepRow>)],
    grouped: bool,
    blocks: bool,
) -> anyhow::Result<()> {
    let b = |x: f64| num(blocks.then_some(x));
    let mut w = csv::Writer::from_writer(buf);
    let group_column = grouped.then_some(&"group");
    w.write_record(
        group_column
            .into_iter()
            .chain(&CSV_COLUMNS)
            .chain(&TEXT_COLUMNS),
    )?;
    let all = std::iter::once(("(all)", rows));
    let each = groups.iter().map(|(v, _, g)| (v.as_str(), g.as_slice()));
    for (value, r) in all
        .chain(each)
        .flat_map(|(v, rs)| rs.iter().map(move |r| (v, r)))
    {
        let mut record: Vec<String> = grouped.then(|| value.to_string()).into_iter().collect();
        record.extend([
            r.threshold.to_string(),
            r.content_blocks.to_string(),
            b(r.block.precision),
            b(r.block.recall),
            b(r.block.f1),
            b(r.block.accuracy),
            b(r.block.unlabelled_accuracy),
        ]);
        record.extend(text_cells(r.text, num));
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}
