//! What `victor eval` and `victor sweep` share: reading evaluation inputs and labelling their
//! pages against a gold standard.
//!
//! The data flows through three modules:
//! - [`input`]: a folder given on the command line -> an [`Input`](input::Input): an annotated
//!   set (`set.json`, pages with block labels) or a data set in the manifest format
//!   (`manifest.jsonl`, pages and gold files), with the importer that turns its gold into
//!   block labels;
//! - [`load`]: one page of an input -> a [`Loaded`](load::Loaded) page: victor's blocks, their
//!   marginals, the gold block labels and the gold text's tokens. Pages of a manifest set are
//!   imported in memory, with the same importer as `victor import`; their gold text is the
//!   gold file (markers stripped, as the acceptance scorer reads it). Pages of an annotated set
//!   have no gold file: their gold text is the text of the blocks labelled content;
//! - [`table`]: figures -> aligned terminal tables.
//!
//! The commands run [`load`] on a pool of threads (one [`Worker`](load::Worker) each), score
//! what they need from each page, and sum the scores up per input and overall.

pub(crate) mod input;
pub(crate) mod load;
pub(crate) mod table;

use std::path::PathBuf;

use victor_annotations::Supplemental;
use victor_eval::{BlockMetrics, TextSummary};

/// The options of `victor eval` and `victor sweep` that say what to evaluate.
#[derive(clap::Args, Debug)]
pub(crate) struct InputArgs {
    /// Annotated sets (folders with set.json) or data sets in the manifest format (folders
    /// with manifest.jsonl, pages and gold files).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Model bundle folder, or a name: $VICTOR_MODELS/NAME, ./models/NAME,
    /// ~/.local/share/victor/models/NAME, or a bundle built into the binary (default: the
    /// built-in `default`).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// Labeler: the model's CRF, or one of the seeds' rule-based cleaners (their
    /// probabilities are one-hot: one point on a sweep, the same labels at any threshold).
    #[arg(long, value_enum, default_value_t = crate::cmd::label::MethodArg::Crf)]
    pub method: crate::cmd::label::MethodArg,
    /// Only pages of this split (`dev`, `test`; `all`: every page).
    #[arg(long, default_value = "all")]
    pub split: String,
    /// How L3S-GN1 supplemental runs count when importing a manifest set.
    #[arg(long, value_enum, default_value_t = Supplemental::Text)]
    pub supplemental: Supplemental,
    /// Threads (default: all cores).
    #[arg(long, short, value_name = "N", value_parser = crate::util::values::jobs)]
    pub jobs: Option<usize>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

impl InputArgs {
    /// The error for inputs that hold no page: names them, and the split.
    pub(crate) fn no_pages(&self, verb: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "no pages to {verb} in {}{}",
            crate::util::inputs::joined(&self.inputs),
            self.split()
                .map(|s| format!(" (split {s:?})"))
                .unwrap_or_default()
        )
    }

    /// The split filter (`None` for all pages).
    pub(crate) fn split(&self) -> Option<&str> {
        match self.split.as_str() {
            "all" | "" => None,
            s => Some(s),
        }
    }

    /// Labels every page of `inputs` with `f(worker, input index, input, page index)` on
    /// `--jobs` threads, one [`Worker`](load::Worker) each (with the `--method` labeler), under
    /// a progress bar showing `message`. Returns the results in input and page order, and the
    /// seconds taken; "no pages to `verb`" when the inputs hold none.
    pub(crate) fn map_pages<T: Send>(
        &self,
        inputs: &[input::Input],
        model: &victor_label::Model,
        verb: &str,
        message: &'static str,
        f: impl Fn(&mut load::Worker<'_>, usize, &input::Input, usize) -> T + Sync + Send,
    ) -> anyhow::Result<(Vec<T>, f64)> {
        let jobs: Vec<(usize, &input::Input, usize)> = inputs
            .iter()
            .enumerate()
            .flat_map(|(k, input)| (0..input.len()).map(move |i| (k, input, i)))
            .collect();
        if jobs.is_empty() {
            return Err(self.no_pages(verb));
        }
        let pool = self.pool(jobs.len())?;
        let start = std::time::Instant::now();
        let bar = crate::util::progress::bar(jobs.len() as u64, "pages", self.quiet);
        bar.set_message(message);
        let out = crate::util::progress::par_map(
            &pool,
            &jobs,
            &bar,
            || load::Worker::new(model).with_method(self.method.method()),
            |w, &(k, input, i)| f(w, k, input, i),
        );
        bar.finish_and_clear();
        Ok((out, start.elapsed().as_secs_f64()))
    }

    /// A thread pool of `--jobs` threads (every core by default), no more than `items`.
    pub(crate) fn pool(&self, items: usize) -> anyhow::Result<rayon::ThreadPool> {
        let jobs = crate::util::values::threads(self.jobs, items);
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| anyhow::anyhow!("cannot start worker threads: {e}"))
    }
}

/// Formats a figure in `0..=1` with four decimals (`-` when absent).
pub(crate) fn fig(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"))
}

/// Formats a figure for CSV: its shortest exact form, empty when absent.
pub(crate) fn num(x: Option<f64>) -> String {
    x.map_or_else(String::new, |v| v.to_string())
}

/// Block-level figures, each formatted by `cell` ([`fig`] or [`num`]; empty where `some` is
/// false, when no page had block labels), in the order of `victor eval`'s table and CSV file:
/// accuracy, unlabelled accuracy, precision, recall, F1.
pub(crate) fn block_cells(
    m: &BlockMetrics,
    some: bool,
    cell: fn(Option<f64>) -> String,
) -> [String; 5] {
    [
        m.accuracy,
        m.unlabelled_accuracy,
        m.precision,
        m.recall,
        m.f1,
    ]
    .map(|x| cell(some.then_some(x)))
}

/// The CSV columns of [`text_cells`], in its order.
pub(crate) const TEXT_COLUMNS: [&str; 7] = [
    "text_precision",
    "text_recall",
    "text_f1",
    "text_median_f1",
    "text_micro_precision",
    "text_micro_recall",
    "text_micro_f1",
];

/// A text-level summary's figures, each formatted by `cell` ([`fig`] or [`num`]), in the order
/// of victor's tables and CSV files: macro precision, recall and F1, median F1, then micro
/// precision, recall and F1.
pub(crate) fn text_cells(s: Option<TextSummary>, cell: fn(Option<f64>) -> String) -> [String; 7] {
    [
        s.map(|s| s.macro_avg.precision),
        s.map(|s| s.macro_avg.recall),
        s.map(|s| s.macro_avg.f1),
        s.map(|s| s.median_f1),
        s.map(|s| s.micro.precision),
        s.map(|s| s.micro.recall),
        s.map(|s| s.micro.f1),
    ]
    .map(cell)
}
