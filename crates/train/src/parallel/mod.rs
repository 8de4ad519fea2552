//! A parallel, deterministic L-BFGS trainer for linear-chain CRFs, with partial labels.
//!
//! It trains the same model as crfs's (and CRFsuite's) L-BFGS trainer and writes the same
//! CRFsuite model file, but computes the objective over all cores:
//!
//! - **Data**: attribute names are interned once as they are appended; items are kept as flat
//!   arrays of attribute ids (values are stored only if one differs from 1), plus the inverted
//!   index (attribute -> occurrences) that the gradient pass reads.
//! - **Features**: as CRFsuite builds them with `possible_states`/`possible_transitions` off:
//!   an (attribute, label) state feature for each pair seen on a labelled block, a (label,
//!   label) transition feature for each pair of labelled neighbours, each kept when its
//!   frequency reaches `min_freq`; numbered as crfs numbers them (state features by attribute
//!   then label, then transitions), so weights can be compared feature by feature.
//! - **Objective**: the negative log-likelihood, each sequence's times its weight (1 unless
//!   appended with another, `--set-weight`), plus `c2 * |w - w0|^2`: `w0` is 0 (the usual L2
//!   penalty), or, with a [`Prior`], the weights of the model being adapted (MAP adaptation:
//!   a Gaussian prior centred on them; see [`Prior`]). Per evaluation, the weights
//!   are scattered into a dense attribute x label table; every sequence (in parallel) gets its
//!   state scores as sums of table rows, a scaled forward-backward in f64, its loss, its node
//!   marginals minus their targets, and its transition counts; then the state gradient is
//!   gathered per attribute (in parallel over attributes, occurrences in item order) and the
//!   losses and transition counts are summed in sequence order. No sum depends on how work is
//!   split between threads, so the model is the same, bit for bit, whatever the thread count.
//! - **Partial labels**: a block may have no label. The likelihood of a sequence is then the sum
//!   over all labelings that agree with its labelled blocks: a second forward-backward with the
//!   other labels of labelled blocks masked out gives that sum and the target marginals
//!   (for a fully labelled sequence, the one-hot labels and the score of the path, the same
//!   numbers by a shorter way).
//! - **Optimiser**: `liblbfgs` (the Rust port of libLBFGS that crfs uses): L-BFGS with
//!   CRFsuite's defaults (6 memories, epsilon 1e-5, More-Thuente line search), OWL-QN with a
//!   backtracking line search when `c1 > 0`, and CRFsuite's stopping rules, which the port
//!   lacks and this module adds: `max_iterations` counts line-search steps (the port counts the
//!   starting point too, so crfs takes one step fewer), and the delta test (relative decrease
//!   below 1e-5 over 10 steps) applies. As in CRFsuite, an optimiser error (a line search
//!   that cannot progress) ends the optimisation and the current weights are written.
//!
//! One file a job: `append` interns the data, `prior` centres the penalty, `features`
//! builds the features and the index, `objective` evaluates the objective and its gradient
//! (over the numeric kernels of `lattice`), `optimise` runs L-BFGS, and `write` writes the
//! model file.

use rustc_hash::FxHashMap;

mod append;
mod features;
mod lattice;
mod objective;
mod optimise;
mod prior;
mod write;

#[cfg(test)]
mod tests;

pub use optimise::{LbfgsParams, Outcome};
pub use prior::Prior;

/// No label: the block's label is unknown (partial labels), or a pair is not a feature.
const NONE: u32 = u32::MAX;

/// Blocks of sequences the work is split into (at most).
const BLOCKS: usize = 64;

/// Memory the blocks' gradient buffers may take together, bytes.
const BLOCK_MEMORY: usize = 256 << 20;

/// Errors of the parallel trainer.
#[derive(Debug, thiserror::Error)]
pub enum ParallelError {
    /// A sequence weight that is not a positive, finite number.
    #[error("sequence {index}: weight {weight} is not a positive number")]
    Weight {
        /// The sequence's position among those appended.
        index: usize,
        /// The weight given.
        weight: f64,
    },
    /// A sequence whose attribute and label lists differ in length.
    #[error("sequence {index}: {items} items but {labels} labels")]
    Length {
        /// The sequence's position among those appended.
        index: usize,
        /// Items given.
        items: usize,
        /// Labels given.
        labels: usize,
    },
    /// More attributes, labels, items or features than the model format holds.
    #[error("too many {0} for a CRFsuite model (more than 2^32 - 1)")]
    TooMany(&'static str),
    /// A weight vector whose length is not the number of features.
    #[error("{given} weights for {features} features")]
    Weights {
        /// Weights given.
        given: usize,
        /// Features of the data.
        features: usize,
    },
    /// Nothing to train on.
    #[error("no training data (no sequence with a labelled block)")]
    NoData,
    /// A prior that cannot centre the penalty.
    #[error("prior: {0}")]
    Prior(String),
    /// Writing the model failed.
    #[error("cannot write model {path}: {source}")]
    Io {
        /// The model file.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Training data: interned attributes and labels, flat items, per-sequence offsets.
#[derive(Debug, Default)]
pub struct ParallelTrainer {
    attr_ids: FxHashMap<Box<str>, u32>,
    attr_names: Vec<Box<str>>,
    label_names: Vec<String>,
    /// Item offsets of the sequences (`seqs + 1` entries).
    seq_start: Vec<usize>,
    /// Occurrence offsets of the items (`items + 1` entries).
    item_start: Vec<usize>,
    /// Attribute id of each occurrence.
    occ_attr: Vec<u32>,
    /// Value of each occurrence; `None` while every value is 1.
    occ_value: Option<Vec<f64>>,
    /// Label id of each item, [`NONE`] when unknown.
    item_label: Vec<u32>,
    /// Weight of each sequence in the objective.
    seq_weight: Vec<f64>,
    /// The prior's non-zero state weights (attribute id, label id, weight) and transition
    /// weights (label id, label id, weight), when adapting ([`Self::set_prior`]).
    prior_state: Vec<(u32, u32, f64)>,
    prior_trans: Vec<(u32, u32, f64)>,
}

impl ParallelTrainer {
    /// An empty trainer.
    pub fn new() -> ParallelTrainer {
        ParallelTrainer {
            seq_start: vec![0],
            item_start: vec![0],
            ..Default::default()
        }
    }

    /// Sequences appended.
    pub fn sequences(&self) -> usize {
        self.seq_start.len() - 1
    }

    /// Label names, in id order (first appearance, the prior's first).
    pub fn labels(&self) -> &[String] {
        &self.label_names
    }

    /// Items appended.
    pub fn items(&self) -> usize {
        self.item_label.len()
    }
}
