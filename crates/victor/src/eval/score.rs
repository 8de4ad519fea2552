//! `victor eval`'s computation: each page labelled and scored on its own (block counts and
//! token counts, both additive), the scores summed up in input order per input and overall, so
//! the figures do not depend on the number of threads.
//!
//! Block level: the Victor paper's figures (section 5.2) from the confusion matrix of gold and
//! predicted block labels ([`victor_eval::BlockCounts`]). Text level: victor's text output, as
//! `victor label --format text` writes it, against the gold text, with the acceptance scorer's
//! tokens and rules ([`victor_eval::PageScore`]); a page that cannot be labelled counts as an
//! empty output, as a missing output file does for the scorer, so the macro F1 of a manifest
//! set is what `checks/score.py` reports for `victor label`'s outputs.

use victor_core::Label;
use victor_eval::{BlockCounts, PageScore, TextScores};
use victor_label::Decoding;

use super::input::Input;
use super::load::{Worker, empty_output};
use super::{EvalError, Labeling, map_pages};

/// What one page contributes.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// Index of its input.
    pub(crate) input: usize,
    /// Page id.
    pub(crate) id: String,
    /// The value of the grouping field for this page (`None`: no such field).
    pub(crate) group: Option<String>,
    /// Block counts, when the page was labelled and has gold labels.
    pub(crate) blocks: Option<BlockCounts>,
    /// Text-level counts, when the page has a gold text.
    pub(crate) text: Option<PageScore>,
    /// Why the page could not be labelled.
    pub(crate) failed: Option<String>,
    /// Why the page has no gold block labels.
    pub(crate) no_labels: Option<String>,
}

/// The sums over the pages of one input (or of all).
#[derive(Debug, Default)]
pub(crate) struct Totals {
    pub(crate) pages: usize,
    pub(crate) failed: usize,
    pub(crate) no_labels: usize,
    pub(crate) block_pages: usize,
    pub(crate) blocks: BlockCounts,
    pub(crate) text: TextScores,
}

impl Totals {
    fn add(&mut self, o: &Outcome) {
        self.pages += 1;
        self.failed += usize::from(o.failed.is_some());
        self.no_labels += usize::from(o.failed.is_none() && o.no_labels.is_some());
        if let Some(b) = &o.blocks {
            self.block_pages += 1;
            self.blocks.merge(b);
        }
        if let Some(t) = o.text {
            self.text.push(t);
        }
    }
}

/// The scores of a model on the pages of some inputs, per page, per input and overall
/// ([`evaluate`]); its tables and CSV files are in [`Evaluation::report`] and the methods
/// after it.
#[derive(Debug)]
pub struct Evaluation<'i> {
    pub(crate) inputs: &'i [Input],
    pub(crate) outcomes: Vec<Outcome>,
    pub(crate) per_input: Vec<Totals>,
    pub(crate) all: Totals,
}

impl Evaluation<'_> {
    /// Pages scored (those that could not be labelled included).
    pub fn pages(&self) -> usize {
        self.outcomes.len()
    }

    /// Pages that could not be read or labelled (scored as empty output at the text level).
    pub fn failed(&self) -> usize {
        self.all.failed
    }
}

/// Labels every page of `inputs` as `labeling` says, decoding its marginals with `decoding`
/// (`None`: the labels of the labeling's rule-based method), scores it against its gold, and
/// sums the scores up; `group_by` names a manifest field whose values group the text-level
/// figures ([`Evaluation::by_group`]). `progress` hears of every page done.
///
/// # Errors
///
/// [`EvalError`] when the worker threads cannot start; a page that fails is scored, not an
/// error.
pub fn evaluate<'i>(
    inputs: &'i [Input],
    labeling: &Labeling<'_>,
    decoding: Option<Decoding>,
    group_by: Option<&str>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Evaluation<'i>, EvalError> {
    let outcomes = map_pages(inputs, labeling, progress, |w, k, input, i| {
        let mut o = score_page(w, input, k, i, decoding);
        if let Some(field) = group_by {
            o.group = input.page_field(i, field);
        }
        o
    })?;
    let mut per_input: Vec<Totals> = inputs.iter().map(|_| Totals::default()).collect();
    let mut all = Totals::default();
    for o in &outcomes {
        if let Some(t) = per_input.get_mut(o.input) {
            t.add(o);
        }
        all.add(o);
    }
    Ok(Evaluation {
        inputs,
        outcomes,
        per_input,
        all,
    })
}

/// Loads, labels and scores one page.
fn score_page(
    worker: &mut Worker<'_>,
    input: &Input,
    input_index: usize,
    page: usize,
    decoding: Option<Decoding>,
) -> Outcome {
    let mut out = Outcome {
        input: input_index,
        id: input.page_id(page).to_string(),
        group: None,
        blocks: None,
        text: None,
        failed: None,
        no_labels: None,
    };
    let loaded = match worker.load(input, page) {
        Ok(l) => l,
        Err(f) => {
            out.id = f.id;
            out.text = f.gold_text.as_ref().map(empty_output);
            out.failed = Some(f.reason);
            return out;
        }
    };
    let mut labels: Vec<Label> = Vec::with_capacity(loaded.probs.len());
    match decoding {
        // A rule-based method labelled the page itself.
        None => labels.extend_from_slice(&loaded.method_labels),
        Some(decoding) => {
            if let Err(e) = worker.labeler.decide_labels(
                &loaded.page,
                &loaded.table,
                &loaded.probs,
                decoding,
                &mut labels,
            ) {
                out.text = loaded.gold_text.as_ref().map(empty_output);
                out.failed = Some(e.to_string());
                return out;
            }
        }
    }
    match &loaded.gold_labels {
        Ok(gold) => {
            let mut counts = BlockCounts::new();
            match counts.add_page(gold, &labels) {
                Ok(()) => out.blocks = Some(counts),
                Err(e) => out.no_labels = Some(e.to_string()),
            }
        }
        Err(reason) => out.no_labels = Some(reason.clone()),
    }
    if let Some(gold) = &loaded.gold_text {
        out.text = Some(worker.text_score(&loaded.page, &labels, gold));
    }
    out
}

#[cfg(all(test, feature = "builtin"))]
mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::super::{Selection, open_all, sweep};
    use super::*;

    /// The annotated example set of the repository.
    fn examples() -> Vec<PathBuf> {
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples")]
    }

    #[test]
    fn figures_do_not_depend_on_the_threads_and_progress_hears_every_page() {
        let model = crate::models::default_model().unwrap();
        let inputs = open_all(&examples(), &Selection::default(), |_| {}).unwrap();
        let pages: usize = inputs.iter().map(Input::len).sum();
        assert!(pages > 0);
        let decoding = Some(model.recommended_decoding());
        let csv = |threads: usize| {
            let done = AtomicUsize::new(0);
            let labeling = Labeling {
                model: &model,
                method: None,
                threads,
            };
            let tick = |n: usize| {
                done.fetch_add(n, Ordering::Relaxed);
            };
            let ev = evaluate(&inputs, &labeling, decoding, None, &tick).unwrap();
            assert_eq!((ev.pages(), ev.failed()), (pages, 0));
            assert_eq!(done.load(Ordering::Relaxed), pages);
            assert!(ev.report().contains("Block level"), "{}", ev.report());
            let mut out = Vec::new();
            ev.write_pages_csv(&mut out).unwrap();
            let swept = sweep(&inputs, &labeling, &[0.0, 0.5, 1.0], None, &|_| {}).unwrap();
            assert_eq!((swept.pages(), swept.block_pages()), (pages, pages));
            swept.write_csv(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let one = csv(1);
        assert_eq!(one.lines().count(), 1 + pages + 1 + 3, "{one}");
        assert_eq!(one, csv(2));
    }
}
