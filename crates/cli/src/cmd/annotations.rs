//! `victor annotations`: work with annotated sets. `stats` prints the label distribution (the
//! Victor paper's Table 1) of each set and the counts of every page.
//!
//! Pages are loaded for real (segmented again, every label checked against its block), in
//! parallel, so the figures are those training will see; a page that fails to load is reported
//! and makes the command fail after printing the rest.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use victor::annotations::{Corpus, LoadError, SetStats};
use victor::annotations::{write_stats_csv, write_stats_table};

use crate::util::streams::say;
use crate::util::{progress, words};

/// Work with annotated pages (statistics).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Label distribution of annotated sets (Victor's Table 1) and per-page counts.
    Stats(StatsArgs),
}

/// Output formats of `victor annotations stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Per-page counts, then each set's Table 1 (label, block count, %).
    Table,
    /// Rows `scope,set,page,split,label,blocks,percent`: scope `set` for the set totals
    /// (labels header, text, other, total), `page` for each page's counts.
    Csv,
}

#[derive(clap::Args, Debug)]
struct StatsArgs {
    /// Annotated set folders.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Count only the pages of this split (e.g. dev, test).
    #[arg(long)]
    split: Option<String>,
    /// Leave out the per-page counts (table format).
    #[arg(long)]
    no_pages: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = crate::util::values::jobs)]
    jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Stats(a) => stats(a),
    }
}

fn stats(args: StatsArgs) -> anyhow::Result<ExitCode> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().context("cannot start worker threads")?;
    let mut sets = Vec::new();
    let mut failed = 0usize;
    for dir in &args.dirs {
        let corpus = Corpus::open([dir], args.split.as_deref())
            .with_context(|| format!("cannot open annotated set {}", dir.display()))?;
        let (stats, errors) = pool.install(|| count_set(&corpus, dir, args.quiet));
        for e in &errors {
            say!("victor: {e}");
        }
        failed += errors.len();
        sets.push(stats);
    }
    let written = {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        match args.format {
            Format::Table => {
                write_stats_table(&mut out, &sets, !args.no_pages).map_err(anyhow::Error::from)
            }
            Format::Csv => write_stats_csv(&mut out, &sets).map_err(anyhow::Error::from),
        }
        .and_then(|()| out.flush().map_err(anyhow::Error::from))
    };
    // A reader that stops early (`| head`) ends the run as it ends every command's
    // (util::streams).
    written.context("cannot write the statistics")?;
    if failed > 0 {
        say!("victor: {} could not be loaded", words::pages(failed));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Loads every page of a set in parallel (labels checked) and counts its labels.
fn count_set(corpus: &Corpus, dir: &Path, quiet: bool) -> (SetStats, Vec<LoadError>) {
    let name = corpus
        .pages()
        .first()
        .map_or_else(|| dir.display().to_string(), |p| p.set.clone());
    let bar = progress::bar(corpus.len() as u64, "pages", quiet);
    bar.set_message(name.clone());
    let counted = SetStats::count(corpus, name, &|| bar.inc(1));
    bar.finish_and_clear();
    counted
}
