//! Labelling with one of the seeds' rule-based methods ([`Method`]) instead of a model's CRF.
//!
//! The page is still read, segmented and given its language by the model's feature
//! configuration; the method's labels come with one-hot probabilities, so that whatever reads
//! probabilities (thresholds, confidence, `eval`'s figures) takes its labels back. One home for
//! this dispatch: [`Cleaner::with_method`](crate::Cleaner::with_method) and `victor eval --method`
//! both label through [`label_by_method`].

use victor_core::Label;
use victor_label::{Model, Probs};
use victor_methods::{Method, Methods};

/// Labels the blocks of `page` with `method` into `labels`, and their one-hot probabilities into
/// `probs` (both cleared first).
///
/// `language` is the page's language as feature extraction found it (ISO 639-3); without it the
/// model's feature configuration identifies it from the page's text, as it would for the CRF
/// (jusText picks its stop words by it). `methods` keeps the methods' state (stop-word lists)
/// between pages.
pub fn label_by_method(
    methods: &mut Methods,
    method: Method,
    model: &Model,
    page: &victor_features::Page,
    language: Option<&str>,
    labels: &mut Vec<Label>,
    probs: &mut Vec<Probs>,
) {
    let language = language.or_else(|| model.extractor.page_language(page).map(|l| l.code()));
    methods.label(method, page, language, labels);
    victor_methods::one_hot(labels, probs);
}
