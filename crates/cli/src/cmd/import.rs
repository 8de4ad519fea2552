//! `victor import`: a gold standard in the shared data-set layout -> an annotated set.
//!
//! The work is `victor_annotations::import_set`; this module parses the options, runs
//! it on a pool of `--jobs` threads with a progress bar, prints skipped pages as they happen,
//! and prints the report's summary (the report itself lands in `OUTDIR/import-report.json`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;
use victor_annotations::REPORT_FILE;
use victor_annotations::{ImportEvent, ImportOptions, SourceKind, Supplemental, import_set};

use crate::util::{output, progress};

/// The importers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum From {
    /// L3S-GN1: labels from the annotated DOM in `blocks/` (sel1 header, sel2 text, sel3 by
    /// --supplemental, the rest other).
    #[value(name = "l3s-gn1")]
    L3sGn1,
    /// CleanEval: gold paragraphs marked `<h>` (header), `<p>` and `<l>` (text).
    Cleaneval,
    /// Plain-text gold, one paragraph a line (e.g. dragnet-train); headers from `h1`-`h6`. A line
    /// starting with `!@#$%^&*()` (Dragnet's separator before user comments) ends the gold.
    Text,
}

/// How supplemental L3S-GN1 runs (captions, datelines) count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SupplementalArg {
    /// As text (content).
    Text,
    /// As other (not content).
    Other,
}

/// Which pages of the manifest to import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SplitArg {
    /// The `dev` split.
    Dev,
    /// The `test` split.
    Test,
    /// Every page.
    All,
}

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
    from: From,
    /// The data-set folder (with manifest.jsonl).
    dir: PathBuf,
    /// The annotated set to write (created if needed; pages with the same id are replaced).
    #[arg(long, value_name = "OUTDIR")]
    out: PathBuf,
    /// How L3S-GN1 supplemental runs (sel3) count.
    #[arg(long, value_enum, default_value_t = SupplementalArg::Text)]
    supplemental: SupplementalArg,
    /// Import only this split.
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    split: SplitArg,
    /// Import at most N pages, spread evenly over the selection.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Share of a block's tokens that must align to content gold for it to be content.
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    threshold: f64,
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
    if !(0.0..=1.0).contains(&args.threshold) || args.threshold == 0.0 {
        anyhow::bail!("--threshold must be in (0, 1], not {}", args.threshold);
    }
    let source = match args.from {
        From::L3sGn1 => SourceKind::L3sGn1,
        From::Cleaneval => SourceKind::CleanEval,
        From::Text => SourceKind::Text,
    };
    let mut options = ImportOptions::new(source);
    options.supplemental = match args.supplemental {
        SupplementalArg::Text => Supplemental::Text,
        SupplementalArg::Other => Supplemental::Other,
    };
    options.split = match args.split {
        SplitArg::Dev => Some("dev".to_string()),
        SplitArg::Test => Some("test".to_string()),
        SplitArg::All => None,
    };
    options.sample = args.sample;
    options.threshold = args.threshold;
    options.name = args.name.clone();

    output::prepare_dir(&args.out, "--out")?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().context("cannot start worker threads")?;
    let bar = progress::bar(0, "pages", args.quiet);
    bar.set_message(format!("import {}", source));
    let on_event = |event: ImportEvent<'_>| match event {
        ImportEvent::Started { pages } => bar.set_length(pages as u64),
        ImportEvent::Imported { .. } => bar.inc(1),
        ImportEvent::Skipped { id, reason } => {
            bar.suspend(|| eprintln!("victor: skipped page {id}: {reason}"));
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
        eprintln!("victor: no page could be imported");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
