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

/// What labels a page (`victor label --method`, `victor eval --method`): the bundle's CRF or
/// one of the seeds' rule-based methods.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MethodChoice {
    /// The model bundle's CRF (`--model`).
    #[default]
    Crf,
    /// jusText (seed 002): paragraphs by length, link and stop-word density, then by context.
    Justext,
    /// Body text extraction (seed 004): the span with the most words inside and tags outside.
    Bte,
    /// Kimatu (seed 000): blocks of the same appearance by their content-relevance ratio.
    Kimatu,
}

impl MethodChoice {
    /// The rule-based method, `None` for the CRF.
    pub fn method(self) -> Option<Method> {
        match self {
            MethodChoice::Crf => None,
            MethodChoice::Justext => Some(Method::Justext),
            MethodChoice::Bte => Some(Method::Bte),
            MethodChoice::Kimatu => Some(Method::Kimatu),
        }
    }
}
