//! The vocabulary every victor crate shares, and nothing else: the three block labels of the
//! Victor paper ([`Label`]), a block's marginal probabilities ([`Probs`]) and the decision that
//! turns them into a label under a threshold on P(other) ([`decide`], [`decide_page`]), the ways
//! of choosing labels from them ([`Decoding`], with its checked [`Threshold`] and the settings of
//! expected-F1 decoding; [`DecodingChoice`] for a decoding as a person names it), and the words texts are measured in
//! ([`words`]: the text-level score's tokens, which the expected-F1 decoding counts too).
//!
//! It lives apart so that labelling, evaluation and the seeds' methods name a label without
//! pulling in the annotation importer, the feature extractor or the CRF. It has no dependencies
//! beyond `serde`, `thiserror` and `unicode-normalization`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod decide;
mod decoding;
mod label;
pub mod words;

pub use decide::{Probs, decide, decide_page};
pub use decoding::{
    Calibration, Decoding, DecodingChoice, DecodingChoiceError, ExpectedOptions, Threshold,
    ThresholdError,
};
pub use label::{Label, UnknownLabel};
