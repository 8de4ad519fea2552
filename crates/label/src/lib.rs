//! victor-label: from a trained CRF model to per-block labels.
//!
//! Today the crate holds the CRF core ([`crf`]): reading a CRFsuite model file and computing
//! exact per-block marginals and Viterbi paths. The rest of the crate — model bundles (model plus
//! feature configuration), the threshold on `P(other)`, and the output formats — comes later
//! and builds on [`crf::CrfModel`].

pub mod crf;
