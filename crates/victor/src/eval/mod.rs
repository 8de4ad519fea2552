//! Scoring a model on pages with a gold standard: what `victor eval` and `victor sweep`
//! compute, without the printing (feature `eval`).
//!
//! The data flows one way through the modules:
//! - `input`: a folder -> an [`Input`]: an annotated set (`set.json`, pages with block labels)
//!   or a data set in the manifest format (`manifest.jsonl`, pages and gold files), with the
//!   importer that turns its gold into block labels ([`open_all`], [`Selection`]);
//! - `load`: one page of an input -> victor's blocks, their marginals (the model's CRF, or a
//!   rule-based [`Method`]'s one-hot labels), the gold block labels and the gold
//!   text's tokens. Pages of a manifest set are imported in memory, with the same importer as
//!   `victor import`; their gold text is the gold file (markers stripped, as the acceptance
//!   scorer reads it). Pages of an annotated set have no gold file: their gold text is the text
//!   of the blocks labelled content;
//! - `score`: loaded pages -> block-level and text-level scores per page, summed per input
//!   and overall ([`evaluate`] -> [`Evaluation`]); `report`: its tables and CSV files;
//! - `sweep`: loaded pages -> the same figures at every threshold of a grid ([`sweep()`] ->
//!   [`Sweep`]), their tables, CSV file and precision/recall plot;
//! - `table`: figures -> aligned terminal tables and CSV cells.
//!
//! Pages are labelled on a pool of threads ([`Labeling::threads`]), each with its own buffers;
//! the results keep the order of the inputs and their pages, so no figure depends on the
//! number of threads. A caller shows progress with the callback each run takes (one call a
//! page). The scores themselves are [`victor_eval`]'s.

mod input;
mod load;
mod report;
mod score;
mod sweep;
mod table;

pub use input::{Input, InputError, Selection, open_all};
pub use report::{Problems, RunInfo};
pub use score::{Evaluation, evaluate};
pub use sweep::{Sweep, sweep};
pub use victor_annotations::{ImportError, LoadError, SourceKind, Supplemental};
pub use victor_eval::{Axes, GridError, PlotError, PlotOptions, threshold_grid};
pub use victor_label::Model;

use rayon::prelude::*;

use crate::Method;
use load::Worker;

/// How the pages of an evaluation are labelled.
#[derive(Clone, Copy, Debug)]
pub struct Labeling<'m> {
    /// The model bundle: it segments the pages, and its CRF labels them.
    pub model: &'m Model,
    /// A rule-based method that labels instead of the CRF (`None`: the CRF).
    pub method: Option<Method>,
    /// Worker threads (at least one is used).
    pub threads: usize,
}

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The pool of worker threads could not be made.
    #[error("cannot start worker threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
}

/// Maps `f(worker, input index, input, page index)` over every page of `inputs` on
/// `labeling.threads` threads, one [`Worker`] each; calls `progress(1)` once a page. The
/// results keep input and page order.
fn map_pages<T: Send>(
    inputs: &[Input],
    labeling: &Labeling<'_>,
    progress: &(dyn Fn(usize) + Sync),
    f: impl Fn(&mut Worker<'_>, usize, &Input, usize) -> T + Sync + Send,
) -> Result<Vec<T>, EvalError> {
    let jobs: Vec<(usize, &Input, usize)> = inputs
        .iter()
        .enumerate()
        .flat_map(|(k, input)| (0..input.len()).map(move |i| (k, input, i)))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(labeling.threads)
        .build()
        .map_err(EvalError::Threads)?;
    let init = || Worker::new(labeling.model).with_method(labeling.method);
    Ok(pool.install(|| {
        jobs.par_iter()
            .map_init(init, |w, &(k, input, i)| {
                let out = f(w, k, input, i);
                progress(1);
                out
            })
            .collect()
    }))
}
