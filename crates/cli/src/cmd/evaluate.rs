//! What `victor eval` and `victor sweep` share: the options that say what to evaluate, and a
//! run of [`victor::eval`] over the inputs' pages under a progress bar. The facade reads the
//! inputs, labels and scores the pages, and builds the tables; the commands print them.

use std::path::{Path, PathBuf};

use victor::eval::{Input, Labeling, Model, Selection, SourceKind, Supplemental};

use crate::util::streams::say;

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
    /// The split filter (`None` for all pages).
    pub(crate) fn split(&self) -> Option<&str> {
        match self.split.as_str() {
            "all" | "" => None,
            s => Some(s),
        }
    }

    /// Opens every input with the `--split` and `--supplemental` given and `importer`
    /// (`--from`), warning of each that holds no page of the split.
    pub(crate) fn open(&self, importer: Option<SourceKind>) -> anyhow::Result<Vec<Input>> {
        let selection = Selection {
            split: self.split(),
            importer,
            supplemental: self.supplemental,
        };
        let warn = |d: &Path| {
            say!(
                "victor: warning: no pages in {}{}",
                d.display(),
                self.split()
                    .map(|s| format!(" of split {s:?}"))
                    .unwrap_or_default()
            );
        };
        Ok(victor::eval::open_all(&self.inputs, &selection, warn)?)
    }

    /// Runs `f` with the labeling of `--method` on `--jobs` threads and a progress callback
    /// ticking a bar showing `message`; returns its result and the seconds taken. "No pages to
    /// `verb`" when the inputs hold none.
    pub(crate) fn run_pages<T>(
        &self,
        inputs: &[Input],
        model: &Model,
        verb: &str,
        message: &'static str,
        f: impl FnOnce(&Labeling<'_>, &(dyn Fn(usize) + Sync)) -> Result<T, victor::eval::EvalError>,
    ) -> anyhow::Result<(T, f64)> {
        let pages: usize = inputs.iter().map(Input::len).sum();
        if pages == 0 {
            anyhow::bail!(
                "no pages to {verb} in {}{}",
                crate::util::inputs::joined(&self.inputs),
                self.split()
                    .map(|s| format!(" (split {s:?})"))
                    .unwrap_or_default()
            );
        }
        let labeling = Labeling {
            model,
            method: self.method.method(),
            threads: crate::util::values::threads(self.jobs, pages),
        };
        let start = std::time::Instant::now();
        let bar = crate::util::progress::bar(pages as u64, "pages", self.quiet);
        bar.set_message(message);
        let out = f(&labeling, &|n| bar.inc(n as u64));
        bar.finish_and_clear();
        Ok((out?, start.elapsed().as_secs_f64()))
    }
}
