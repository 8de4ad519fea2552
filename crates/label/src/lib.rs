//! # victor-label: a model bundle -> per-block marginals -> labels under the other-threshold
//!
//! The labeling stage of victor; the modules' public items are re-exported here:
//!
//! - `crf`: the CRF core, reading a CRFsuite model file ([`CrfModel`]) and computing exact
//!   per-block marginals (scaled forward-backward) and Viterbi paths ([`Workspace`]); crfs's
//!   tagger offers Viterbi only;
//! - [`boost`]: boosted trees over the raw features, blended into the CRF's marginals;
//! - `bundle`: model bundles (`model.crfsuite` + `victor.json`, [`Model`], [`BundleMeta`]),
//!   checked on load against the features this victor computes;
//! - `compiled`: the template compiled against the model, so that attributes are looked up by
//!   value rather than built as strings on the hot path;
//! - `labeler`: pages to marginals to labels ([`Labeler`]), by threshold on P(other) (Victor
//!   section 5.2), by Viterbi, or by the threshold of each page that maximises its expected F1;
//! - `expected`: that expected-F1 decoding ([`expected_f1`], [`decide_expected`]);
//! - `text`: labelled blocks back to text ([`render_text`]), joined as the page had them (the
//!   output formats that carry more are the facade's, `victor::output`);
//! - `linearize`: Kitten's lists and tables in the text output ([`render_text_with`],
//!   `--linearize`);
//! - `markdown`: the kept blocks as Markdown with the page's structure ([`render_markdown`]).
//! - [`gate`]: how much of an adapted bundle applies to a page, its base taking the rest;
//! - `metadata`: a page's title, author, date, site name and canonical URL ([`metadata()`]);
//! - `confidence`: how far to trust a page's extraction ([`confidence()`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

pub mod boost;
mod bundle;
mod compiled;
mod confidence;
mod crf;
mod expected;
pub mod gate;
mod labeler;
mod linearize;
mod markdown;
mod metadata;
mod text;

pub use bundle::{
    BUNDLE_FORMAT, BundleError, BundleImage, BundleMeta, DataInfo, DecodingRecommendation, LeftOut,
    META_FILE, MODEL_FILE, Model, NoThreshold, Origin, RecommendedDecoding, SetWeight,
    TrainingInfo, TrainingSet, bundle_digest,
};
pub use confidence::confidence;
pub use crf::{CrfModel, InferenceError, ModelError, Workspace};
pub use expected::{
    ExpectedScratch, MIN_WORDS_GRID, block_words, calibration_grid, decide_expected, expected_f1,
    page_threshold,
};
pub use labeler::{LabelError, LabeledPage, Labeler, Scratch};
pub use linearize::{TextOptions, render_text_with};
pub use markdown::{MarkdownOptions, render_markdown};
pub use metadata::{DateSource, Metadata, PageContext, metadata, metadata_with};
pub use text::render_text;
/// The label vocabulary and the threshold decision, from `victor-core`: the types of this
/// crate's API.
pub use victor_core::{
    Calibration, Decoding, DecodingChoice, DecodingChoiceError, ExpectedOptions, Label, Probs,
    Threshold, ThresholdError, decide, decide_page,
};
