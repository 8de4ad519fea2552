//! # victor-label: a model bundle -> per-block marginals -> labels under the other-threshold
//!
//! The labeling stage of victor:
//!
//! - [`crf`]: the CRF core, reading a CRFsuite model file and computing exact per-block
//!   marginals (scaled forward-backward) and Viterbi paths; crfs's tagger offers Viterbi only;
//! - [`boost`]: boosted trees over the raw features, blended into the CRF's marginals;
//! - [`bundle`]: model bundles (`model.crfsuite` + `victor.json`), checked on load against the
//!   features this victor computes;
//! - [`compiled`]: the template compiled against the model, so that attributes are looked up by
//!   value rather than built as strings on the hot path;
//! - [`labeler`]: pages to marginals to labels, by threshold on P(other) (Victor section 5.2), by
//!   Viterbi, or by the threshold of each page that maximises its expected F1 ([`expected`]);
//! - [`expected`]: that expected-F1 decoding;
//! - [`render`]: labelled blocks back to text, and the output formats;
//! - [`linearize`]: Kitten's lists and tables in the text output (`--linearize`).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod boost;
pub mod bundle;
pub mod compiled;
pub mod crf;
pub mod expected;
pub mod labeler;
pub mod linearize;
pub mod render;

pub use bundle::{BundleError, BundleMeta, Model, RecommendedDecoding};
pub use labeler::{LabelError, LabeledPage, Labeler, Scratch};
/// The label vocabulary and the threshold decision, from `victor-core`: the types of this
/// crate's API.
pub use victor_core::{Decoding, Label, Probs, decide, decide_page};
