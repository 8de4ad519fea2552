//! `victor import`: a gold standard in the shared data-set layout -> an annotated set.
//!
//! The work is `victor::annotations::import_set`; this module parses the options, runs
//! it on a pool of `--jobs` threads with a progress bar, prints skipped pages as they happen,
//! and prints the report's summary (the report itself lands in `OUTDIR/import-report.json`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor::annotations::{ImportEvent, ImportOptions, REPORT_FILE, SourceKind, Supplemental};
use victor::annotations::{SplitChoice as SplitArg, import_set};

use crate::util::streams::say;
use crate::util::{output, progress};

/// Import a gold standard (l3s-gn1, cleaneval, or plain text) as annotated pages.
///
/// DIR holds `manifest.jsonl` (one page a line: id, html, gold, split, lang, url), the pages
/// and the gold files. Each page's gold is aligned to victor's blocks of the page; the page
/// (exact bytes) and its block labels are written to OUTDIR (see annotations/README.md), with
/// `import-report.json`: pages imported and skipped, and the fidelity of the labels to the
/// gold. A page that fails is reported and skipped.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The importer.
    #[arg(long, value_enum)]
    from: SourceKind,
    /// The data-set folder (with manifest.jsonl).
    dir: PathBuf,
    /// The annotated set to write (created if needed; pages with the same id are replaced).
    #[arg(long, value_name = "OUTDIR")]
    out: PathBuf,
    /// How L3S-GN1 supplemental runs (sel3) count.
    #[arg(long, value_enum, default_value_t = Supplemental::Text)]
    supplemental: Supplemental,
    /// Import only this split.
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    split: SplitArg,
    /// Import at most N pages, spread evenly over the selection.
    #[arg(long, value_name = "N", value_parser = crate::util::values::count)]
    sample: Option<usize>,
    /// Share of a block's tokens that must align to content gold for it to be content (in
    /// (0, 1]; `--threshold` is its old name, still taken: a threshold on P(other) is another
    /// thing).
    #[arg(
        long = "min-aligned",
        alias = "threshold",
        value_name = "SHARE",
        default_value_t = 0.5,
        allow_negative_numbers = true
    )]
    min_aligned: f64,
    /// Leave out pages whose labelled blocks cover less than this share of their gold text
    /// (0 to 1; e.g. 0.5: pages whose content is not in their HTML blocks, such as forums that
    /// ship their posts inside JavaScript data, are skipped and listed instead of teaching that
    /// everything is boilerplate). Default: keep every page.
    #[arg(long, value_name = "SHARE", value_parser = crate::util::values::share)]
    min_coverage: Option<f64>,
    /// Name of the set (default: DIR's folder name).
    #[arg(long)]
    name: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = crate::util::values::jobs)]
    jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.min_aligned) || args.min_aligned == 0.0 {
        anyhow::bail!("--min-aligned must be in (0, 1], not {}", args.min_aligned);
    }
    let mut options = ImportOptions::new(args.from);
    options.supplemental = args.supplemental;
    options.split = args.split.split();
    options.sample = args.sample;
    options.threshold = args.min_aligned;
    options.name = args.name.clone();
    options.min_coverage = args.min_coverage;

    output::prepare_dir(&args.out, "--out")?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().context("cannot start worker threads")?;
    let bar = progress::bar(0, "pages", args.quiet);
    bar.set_message(format!("import {}", args.from));
    let on_event = |event: ImportEvent<'_>| match event {
        ImportEvent::Started { pages } => bar.set_length(pages as u64),
        ImportEvent::Imported { .. } => bar.inc(1),
        ImportEvent::Skipped { id, reason } => {
            bar.suspend(|| say!("victor: skipped page {id}: {reason}"));
            bar.inc(1);
        }
    };
    let report = pool
        .install(|| import_set(&args.dir, &args.out, &options, &on_event))
        .with_context(|| format!("cannot import {}", args.dir.display()))?;
    bar.finish_and_clear();
    write!(std::io::stdout(), "{report}")?;
    writeln!(
        std::io::stdout(),
        "report: {}",
        args.out.join(REPORT_FILE).display()
    )?;
    if report.imported == 0 && report.selected > 0 {
        say!("victor: no page could be imported");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
