//! `victor bench`: speed of each pipeline stage, single-threaded, over pages held in memory.
//!
//! Every stage is timed as a cumulative pipeline (decode; decode + segment; ... ) over all pages,
//! repeated, the stages taking turns (each repetition runs every stage once); the median of the
//! repetitions is reported with pages/s, MB/s and the ratio to the
//! baseline (lol_html's tokenizer alone, with a no-op text handler), all in the same process.
//! The second row is victor's own tokenizer alone (`segment::tokenize_only`), which the
//! segmenter runs in place of lol_html; the third adds the tree builder
//! (`segment::tokenize_and_build`): the floor under any extractor's cost. `--only` runs the
//! stages whose names hold a text, for a profiler (eval/SPEED.md counts the floor's
//! instructions that way).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor::bench::{Bench, Timed};

use crate::util::streams::say;
use crate::util::{inputs, words};

/// Measure the speed of each pipeline stage (one thread, pages in memory, median of repeats).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    sources: inputs::PageArgs,
    /// Repetitions per stage (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = crate::util::values::at_least_one)]
    repeat: usize,
    /// Feature configuration (JSON) for the stages without a model; default: the built-in one.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Model bundle for the labeling stages, a folder or a name as for `victor label` (default:
    /// the built-in `default`).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// Skip the labeling stages (no model needed).
    #[arg(long)]
    no_label: bool,
    /// Run only the stages whose names hold TEXT (say `tree builder`): a profiler then sees
    /// that stage alone, beside the reading of the pages.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// List each file the walks of folders passed over, with why.
    #[arg(long, short)]
    verbose: bool,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let walk = args.sources.collect("time", None)?;
    walk.report(args.verbose);
    let paths: Vec<PathBuf> = walk.pages.into_iter().map(|i| i.path).collect();
    let mut pages: Vec<Vec<u8>> = Vec::with_capacity(paths.len());
    for p in &paths {
        pages.push(inputs::read_page(p).with_context(|| format!("cannot read {}", p.display()))?);
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let config = super::features::load_config(args.config.as_deref())?;
    let bench = Bench::new(&config).context("invalid feature configuration")?;
    say!(
        "victor bench: {}, {:.1} MB, {} per stage, 1 thread",
        words::pages(pages.len()),
        bytes as f64 / 1e6,
        words::count(args.repeat, "repetition", "repetitions")
    );
    let model = if args.no_label {
        None
    } else {
        Some(crate::util::model::load(args.model.as_deref())?)
    };
    let mut work = bench.stages(model.as_ref());
    if let Some(only) = &args.only {
        work.retain(|(name, _)| name.contains(only.as_str()));
    }
    let timed = Bench::time(&mut work, &pages, args.repeat);
    print_table(&timed, pages.len(), bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// The table of the stages' medians, with pages/s, MB/s and the ratio to the first stage's.
fn print_table(timed: &[Timed], pages: usize, bytes: usize) -> anyhow::Result<()> {
    let base = timed.first().map_or(f64::NAN, |s| s.median);
    let mut out = std::io::stdout();
    writeln!(
        out,
        "{:<40} {:>10} {:>10} {:>10} {:>9}",
        "stage", "median s", "pages/s", "MB/s", "x base"
    )?;
    for s in timed {
        let m = s.median;
        writeln!(
            out,
            "{:<40} {:>10.3} {:>10.0} {:>10.1} {:>9.2}",
            s.name,
            m,
            pages as f64 / m,
            bytes as f64 / 1e6 / m,
            m / base
        )?;
    }
    Ok(())
}
