//! # victor-train: annotated pages -> a linear-chain CRF -> a model bundle
//!
//! The training stage of victor; the modules' public items are re-exported here:
//!
//! - `adapt`: a trained bundle adapted to new pages (a prior centred on its weights, its
//!   forest extended) ([`Adapt`]);
//! - `crf`: one wrapper over the trainers ([`CrfTrainer`]): this crate's parallel L-BFGS (the
//!   default) and crfs's (L-BFGS as the reference, L2-SGD, averaged perceptron, passive
//!   aggressive, AROW);
//! - `parallel`: the parallel, deterministic L-BFGS trainer, with partial labels
//!   ([`ParallelTrainer`]);
//! - `boost`: boosted trees over the raw features, fitted beside the CRF and blended into its
//!   marginals ([`BoostOptions`]);
//! - `pipeline`: annotated pages to attributes, in parallel, streamed into the trainer
//!   ([`train_crf`]);
//! - `assess`: labelled pages scored against gold at many thresholds at once ([`Assessment`]);
//! - `cv`: cross-validation by page, folds in parallel ([`cross_validate`]);
//! - `select`: model selection: folds merged ([`merge_folds`]), the recommended decoding chosen
//!   ([`recommend`]);
//! - `bundle`: the bundle description and its atomic writing ([`write_bundle`]);
//! - [`gate`]: the gate of an adapted bundle fitted on the pages' profiles, and the sample of
//!   profiles every bundle stores;
//! - `make`: annotated pages to a bundle folder, the whole of `victor train` ([`train_bundle`]),
//!   and the check of the pages before any work ([`check_pages`]);
//! - `recipe`: the one assembly of a training or an adaptation that every front end calls
//!   ([`Recipe`], [`AdaptSettings`], [`usable_pages`]).
//!
//! The recommended other-threshold of a bundle is chosen by cross-validation on the training
//! pages alone (the threshold with the best text-level F1), never on test pages.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod adapt;
mod assess;
mod boost;
mod bundle;
mod crf;
mod cv;
pub mod gate;
mod make;
mod parallel;
mod pipeline;
mod recipe;
mod select;

pub use adapt::{
    Adapt, AdaptDecoding, Base, DEFAULT_LEAF_PRIOR, DEFAULT_PRIOR, DEFAULT_TREES, MIN_CV_PAGES,
};
pub use assess::Assessment;
pub use boost::{BoostError, BoostOptions};
pub use bundle::{Replace, check_replaceable, make_meta, write_bundle, write_bundle_replacing};
pub use crf::{Algorithm, CrfError, CrfTrainer, Engine, TrainOptions};
pub use cv::{CurveOrder, CvEvent, CvOptions, FoldResult, cross_validate};
pub use make::{
    BadPage, DecodingSource, Made, MakeEvent, Plan, check_pages, check_threshold_folds,
    choose_decoding, sort_out_pages, train_bundle,
};
pub use parallel::{LbfgsParams, Outcome, ParallelError, ParallelTrainer, Prior};
pub use pipeline::{
    DataSummary, Event, Prepared, Setup, TrainError, attributes, export_crfsuite, prepare,
    train_crf,
};
pub use recipe::{AdaptSettings, Recipe, Unusable, UnusableWhy, like_boost, usable_pages};
pub use select::{merge_folds, recommend, threshold_cv};
