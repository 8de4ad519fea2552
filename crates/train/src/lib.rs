//! # victor-train: annotated pages -> a linear-chain CRF -> a model bundle
//!
//! The training stage of victor:
//!
//! - [`crf`]: one wrapper over the trainers: this crate's parallel L-BFGS (the default) and
//!   crfs's (L-BFGS as the reference, L2-SGD, averaged perceptron, passive aggressive, AROW);
//! - [`parallel`]: the parallel, deterministic L-BFGS trainer, with partial labels;
//! - [`boost`]: boosted trees over the raw features, fitted beside the CRF and blended into its
//!   marginals;
//! - [`pipeline`]: annotated pages to attributes, in parallel, streamed into the trainer;
//! - [`assess`]: labelled pages scored against gold at many thresholds at once;
//! - [`cv`]: cross-validation by page, folds in parallel;
//! - [`select`]: model selection: folds merged, the recommended decoding chosen;
//! - [`bundle`]: the bundle description and its atomic writing.
//!
//! The recommended other-threshold of a bundle is chosen by cross-validation on the training
//! pages alone (the threshold with the best text-level F1), never on test pages.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod assess;
pub mod boost;
pub mod bundle;
pub mod crf;
pub mod cv;
pub mod parallel;
pub mod pipeline;
pub mod select;

pub use crf::{Algorithm, Engine, TrainOptions};
pub use pipeline::{DataSummary, Event, Setup, TrainError, train_crf};
