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

use std::path::Path;

use crfs::Attribute;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

mod lattice;
mod write;

use lattice::{forward_backward, gather, marginals, scatter};

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

/// Optimisation parameters (CRFsuite's L-BFGS parameters and defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct LbfgsParams {
    /// L1 penalty (> 0: OWL-QN).
    pub c1: f64,
    /// L2 penalty.
    pub c2: f64,
    /// Line-search steps at most (CRFsuite's `max_iterations`).
    pub max_iterations: usize,
    /// Features with a lower frequency are dropped.
    pub min_freq: f64,
    /// Stop when the gradient norm is below `epsilon * max(1, |w|)`.
    pub epsilon: f64,
    /// Stop when the objective improved by less than `delta` (relative) over `period` iterations.
    pub delta: f64,
    /// See `delta`; 0 disables that test.
    pub period: usize,
    /// Line search trials per iteration.
    pub max_linesearch: usize,
}

impl Default for LbfgsParams {
    fn default() -> Self {
        LbfgsParams {
            c1: 0.0,
            c2: 1.0,
            max_iterations: usize::MAX,
            min_freq: 0.0,
            epsilon: 1e-5,
            delta: 1e-5,
            period: 10,
            max_linesearch: 20,
        }
    }
}

/// What the optimisation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Objective (regularised negative log-likelihood) at the final weights.
    pub loss: f64,
    /// Objective evaluations.
    pub evaluations: usize,
    /// Line-search steps taken.
    pub iterations: usize,
    /// Whether the delta test stopped the optimisation.
    pub delta_stop: bool,
    /// Features in the training set (before zero weights are pruned from the file).
    pub features: usize,
    /// Why the optimiser stopped early, when it reported an error (weights are still written).
    pub warning: Option<String>,
}

/// A Gaussian prior centred on the weights of a trained model, for adapting that model to new
/// pages (MAP adaptation, as Chelba and Acero adapt a maximum-entropy model): the penalty
/// `c2 * |w|^2` becomes `c2 * |w - w0|^2`, where `w0` is the model's weight of each feature (0
/// for a feature the model does not have) and `c2` ([`LbfgsParams::c2`]) is the strength of the
/// prior.
///
/// The features are those the new pages give (as without a prior) and every feature of the
/// model: a feature the new pages never touch keeps its weight; one they touch moves as far as
/// their evidence outweighs the prior. The optimisation starts at `w0`. An infinitely strong
/// prior gives the model back unchanged; a prior of strength 0 leaves the likelihood alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prior {
    /// Label names, in the model's order (they become the trainer's first labels).
    pub labels: Vec<String>,
    /// State weights: an attribute and its weight for each label of `labels`.
    pub state: Vec<(String, Vec<f64>)>,
    /// Transition weights, `labels x labels`, from-major (`trans[i * L + j]`: label i to j).
    pub trans: Vec<f64>,
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

/// Features and the indexes built from the data for optimisation.
struct Model {
    labels: usize,
    attrs: usize,
    /// Feature id of each (attribute, label) pair, [`NONE`] if not a feature.
    state_fid: Vec<u32>,
    /// Feature id of each (label, label) pair, [`NONE`] if not a feature.
    trans_fid: Vec<u32>,
    /// Features: (is transition, source, destination), in feature-id order.
    features: Vec<(bool, u32, u32)>,
    /// Sequence offsets of the blocks of work (each block sums into its own buffers).
    blocks: Vec<usize>,
    /// Whether each sequence has an unknown label.
    partial: Vec<bool>,
    /// The prior's weight of each feature (by feature id), or empty without a prior (all 0).
    centre: Vec<f64>,
}

impl Model {
    /// The feature vector `x` as dense weights: state `[attribute][label]` and transition
    /// `[label][label]` (0 where a pair is no feature).
    fn dense(&self, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let l = self.labels;
        let mut w_state = vec![0.0f64; self.attrs * l];
        let mut w_trans = vec![0.0f64; l * l];
        for (&(trans, src, dst), &w) in self.features.iter().zip(x) {
            let k = src as usize * l + dst as usize;
            if trans {
                w_trans[k] = w;
            } else {
                w_state[k] = w;
            }
        }
        (w_state, w_trans)
    }
}

/// Per-thread scratch of the forward-backward.
#[derive(Default)]
struct Scratch {
    score: Vec<f64>,
    exp_state: Vec<f64>,
    alpha: Vec<f64>,
    beta: Vec<f64>,
    scale: Vec<f64>,
    c_alpha: Vec<f64>,
    c_beta: Vec<f64>,
    c_scale: Vec<f64>,
    delta: Vec<f64>,
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

    /// Adds a fully labelled sequence. An empty sequence is ignored.
    pub fn append(&mut self, xseq: &[Vec<Attribute>], yseq: &[&str]) -> Result<(), ParallelError> {
        self.append_weighted(xseq, yseq, 1.0)
    }

    /// [`Self::append`], the sequence's negative log-likelihood counted `weight` times.
    pub fn append_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[&str],
        weight: f64,
    ) -> Result<(), ParallelError> {
        if xseq.len() != yseq.len() {
            return Err(self.length_error(xseq.len(), yseq.len()));
        }
        self.append_with(
            xseq.len(),
            weight,
            |t| Some(yseq[t]),
            |t, f| {
                for a in &xseq[t] {
                    f(&a.name, a.value);
                }
            },
        )
    }

    /// Adds a sequence in which some labels may be unknown (`None`). A sequence without any
    /// known label carries no information and is ignored, as is an empty one.
    pub fn append_partial(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[Option<&str>],
    ) -> Result<(), ParallelError> {
        self.append_partial_weighted(xseq, yseq, 1.0)
    }

    /// [`Self::append_partial`], the sequence's negative log-likelihood counted `weight`
    /// times.
    pub fn append_partial_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[Option<&str>],
        weight: f64,
    ) -> Result<(), ParallelError> {
        if xseq.len() != yseq.len() {
            return Err(self.length_error(xseq.len(), yseq.len()));
        }
        if yseq.iter().all(Option::is_none) {
            return Ok(());
        }
        self.append_with(
            xseq.len(),
            weight,
            |t| yseq[t],
            |t, f| {
                for a in &xseq[t] {
                    f(&a.name, a.value);
                }
            },
        )
    }

    /// The id of a label, interned at its first appearance.
    fn label_id(&mut self, name: &str) -> Result<u32, ParallelError> {
        if let Some(i) = self.label_names.iter().position(|l| l == name) {
            return Ok(i as u32);
        }
        let id = u32::try_from(self.label_names.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ParallelError::TooMany("labels"))?;
        self.label_names.push(name.to_string());
        Ok(id)
    }

    /// The id of an attribute, interned at its first appearance.
    fn attr_id(&mut self, name: &str) -> Result<u32, ParallelError> {
        if let Some(&id) = self.attr_ids.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.attr_names.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ParallelError::TooMany("attributes"))?;
        self.attr_ids.insert(name.into(), id);
        self.attr_names.push(name.into());
        Ok(id)
    }

    /// Centres the penalty on `prior`'s weights instead of 0 ([`Prior`]): training then adapts
    /// that model to the appended pages. Call it before appending, so that the prior's labels
    /// keep its order; a second call replaces the first prior (its names stay interned).
    ///
    /// # Errors
    ///
    /// [`ParallelError::Weights`] when a state row or the transition table does not have one
    /// weight per label (or pair of labels); [`ParallelError::Prior`] for a weight that is
    /// not finite.
    pub fn set_prior(&mut self, prior: &Prior) -> Result<(), ParallelError> {
        let l = prior.labels.len();
        if prior.trans.len() != l * l {
            return Err(ParallelError::Weights {
                given: prior.trans.len(),
                features: l * l,
            });
        }
        let ids = prior
            .labels
            .iter()
            .map(|name| self.label_id(name))
            .collect::<Result<Vec<u32>, _>>()?;
        let finite = |w: &f64| {
            if w.is_finite() {
                Ok(())
            } else {
                Err(ParallelError::Prior(format!("a weight of {w}")))
            }
        };
        let mut state = Vec::new();
        for (name, row) in &prior.state {
            if row.len() != l {
                return Err(ParallelError::Weights {
                    given: row.len(),
                    features: l,
                });
            }
            let a = self.attr_id(name)?;
            for (y, w) in row.iter().enumerate() {
                finite(w)?;
                if *w != 0.0 {
                    state.push((a, ids[y], *w));
                }
            }
        }
        // Transitions by the trainer's label ids, which the data may extend later.
        let mut trans = Vec::new();
        for (k, w) in prior.trans.iter().enumerate() {
            finite(w)?;
            if *w != 0.0 {
                trans.push((ids[k / l], ids[k % l], *w));
            }
        }
        self.prior_state = state;
        self.prior_trans = trans;
        Ok(())
    }

    fn length_error(&self, items: usize, labels: usize) -> ParallelError {
        ParallelError::Length {
            index: self.sequences(),
            items,
            labels,
        }
    }

    /// Adds a sequence of `len` items weighing `weight`: `label(t)` is item t's label,
    /// `attrs(t, f)` calls `f` with each of its attributes (name, value).
    fn append_with<'a>(
        &mut self,
        len: usize,
        weight: f64,
        label: impl Fn(usize) -> Option<&'a str>,
        attrs: impl Fn(usize, &mut dyn FnMut(&str, f64)),
    ) -> Result<(), ParallelError> {
        if len == 0 {
            return Ok(());
        }
        if !(weight.is_finite() && weight > 0.0) {
            return Err(ParallelError::Weight {
                index: self.sequences(),
                weight,
            });
        }
        for t in 0..len {
            let lid = match label(t) {
                Some(name) => self.label_id(name)?,
                None => NONE,
            };
            self.item_label.push(lid);
            let mut err = None;
            attrs(t, &mut |name, value| {
                let id = match self.attr_id(name) {
                    Ok(id) => id,
                    Err(e) => {
                        err = Some(e);
                        return;
                    }
                };
                self.occ_attr.push(id);
                if value != 1.0 && self.occ_value.is_none() {
                    self.occ_value = Some(vec![1.0; self.occ_attr.len() - 1]);
                }
                if let Some(v) = self.occ_value.as_mut() {
                    v.push(value);
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            self.item_start.push(self.occ_attr.len());
        }
        if u32::try_from(self.item_label.len()).is_err() {
            return Err(ParallelError::TooMany("items"));
        }
        self.seq_start.push(self.item_label.len());
        self.seq_weight.push(weight);
        Ok(())
    }

    /// Builds the features and the inverted index.
    fn model(&self, min_freq: f64) -> Result<Model, ParallelError> {
        let l = self.label_names.len();
        let a = self.attr_names.len();
        let mut state_freq = vec![0.0f64; a * l];
        let mut state_seen = vec![false; a * l];
        let mut trans_freq = vec![0.0f64; l * l];
        let mut trans_seen = vec![false; l * l];
        let mut partial = Vec::with_capacity(self.sequences());
        for s in 0..self.sequences() {
            let (b, e) = (self.seq_start[s], self.seq_start[s + 1]);
            partial.push(self.item_label[b..e].contains(&NONE));
            for i in b..e {
                let y = self.item_label[i];
                if y == NONE {
                    continue;
                }
                for o in self.item_start[i]..self.item_start[i + 1] {
                    let k = self.occ_attr[o] as usize * l + y as usize;
                    state_freq[k] += self.occ_value.as_ref().map_or(1.0, |v| v[o]);
                    state_seen[k] = true;
                }
                if i > b && self.item_label[i - 1] != NONE {
                    let k = self.item_label[i - 1] as usize * l + y as usize;
                    trans_freq[k] += 1.0;
                    trans_seen[k] = true;
                }
            }
        }
        // The prior's features are features too, whether or not the data has them.
        for &(a, y, _) in &self.prior_state {
            state_seen[a as usize * l + y as usize] = true;
            state_freq[a as usize * l + y as usize] = f64::INFINITY;
        }
        for &(i, j, _) in &self.prior_trans {
            trans_seen[i as usize * l + j as usize] = true;
            trans_freq[i as usize * l + j as usize] = f64::INFINITY;
        }
        let mut features = Vec::new();
        // Feature ids in CRFsuite's order: state features (attribute-major), then transitions.
        let mut number = |seen: &[bool], freq: &[f64], transition: bool| {
            let mut fid = vec![NONE; seen.len()];
            for (k, id) in fid.iter_mut().enumerate() {
                if seen[k] && freq[k] >= min_freq {
                    *id = u32::try_from(features.len())
                        .ok()
                        .filter(|&f| f != NONE)
                        .ok_or(ParallelError::TooMany("features"))?;
                    features.push((transition, (k / l) as u32, (k % l) as u32));
                }
            }
            Ok::<_, ParallelError>(fid)
        };
        let state_fid = number(&state_seen, &state_freq, false)?;
        let trans_fid = number(&trans_seen, &trans_freq, true)?;
        // Blocks of about equal numbers of items, as many as the data allows up to BLOCKS
        // (and their gradient buffers within BLOCK_MEMORY); the split depends on the data only.
        let seqs = self.sequences();
        let per_block = (a * l * 8).max(1);
        let k = BLOCKS
            .min(seqs)
            .min((BLOCK_MEMORY / per_block).max(1))
            .max(1);
        let target = self.items().div_ceil(k);
        let mut blocks = vec![0usize];
        let mut from = 0;
        for s in 0..seqs {
            if self.seq_start[s + 1] - from >= target {
                blocks.push(s + 1);
                from = self.seq_start[s + 1];
            }
        }
        if blocks.last() != Some(&seqs) {
            blocks.push(seqs);
        }
        let mut centre = Vec::new();
        if !(self.prior_state.is_empty() && self.prior_trans.is_empty()) {
            centre = vec![0.0; features.len()];
            for &(a, y, w) in &self.prior_state {
                centre[state_fid[a as usize * l + y as usize] as usize] = w;
            }
            for &(i, j, w) in &self.prior_trans {
                centre[trans_fid[i as usize * l + j as usize] as usize] = w;
            }
        }
        Ok(Model {
            labels: l,
            attrs: a,
            state_fid,
            trans_fid,
            features,
            blocks,
            partial,
            centre,
        })
    }

    /// The objective (regularised negative log-likelihood) and its gradient at `x`.
    fn evaluate(&self, m: &Model, c2: f64, x: &[f64], g: &mut [f64]) -> f64 {
        let l = m.labels;
        let (w_state, w_trans) = m.dense(x);
        let exp_trans: Vec<f64> = w_trans.iter().map(|w| w.exp()).collect();

        // Each block of sequences (fixed by the data, not by the threads) sums its loss and
        // gradient into its own buffers; the blocks' sums are then added in block order.
        let parts: Vec<(f64, Vec<f64>, Vec<f64>)> = m
            .blocks
            .par_windows(2)
            .map_init(Scratch::default, |sc, w| {
                let mut loss = 0.0;
                let mut g_state = vec![0.0f64; m.attrs * l];
                let mut g_trans = vec![0.0f64; l * l];
                for s in w[0]..w[1] {
                    loss += self.sequence(
                        m,
                        s,
                        &w_state,
                        &w_trans,
                        &exp_trans,
                        sc,
                        &mut g_state,
                        &mut g_trans,
                    );
                }
                (loss, g_state, g_trans)
            })
            .collect();
        let mut loss = 0.0;
        let mut g_state = vec![0.0f64; m.attrs * l];
        let mut g_trans = vec![0.0f64; l * l];
        for (pl, ps, pt) in &parts {
            loss += pl;
            g_state.iter_mut().zip(ps).for_each(|(a, b)| *a += b);
            g_trans.iter_mut().zip(pt).for_each(|(a, b)| *a += b);
        }
        for (f, &(trans, src, dst)) in m.features.iter().enumerate() {
            let k = src as usize * l + dst as usize;
            g[f] = if trans { g_trans[k] } else { g_state[k] };
        }
        if c2 > 0.0 {
            for (f, (gi, &xi)) in g.iter_mut().zip(x).enumerate() {
                let d = xi - m.centre.get(f).copied().unwrap_or(0.0);
                *gi += 2.0 * c2 * d;
                loss += c2 * d * d;
            }
        }
        loss
    }

    /// One sequence: returns its negative log-likelihood times its weight and adds its
    /// gradient (expected minus target counts, times the weight) to `g_state` (attribute x label) and `g_trans` (label x label).
    #[allow(clippy::too_many_arguments)]
    fn sequence(
        &self,
        m: &Model,
        s: usize,
        w_state: &[f64],
        w_trans: &[f64],
        exp_trans: &[f64],
        sc: &mut Scratch,
        g_state: &mut [f64],
        g_trans: &mut [f64],
    ) -> f64 {
        let l = m.labels;
        let (b, e) = (self.seq_start[s], self.seq_start[s + 1]);
        let len = e - b;
        let w = self.seq_weight.get(s).copied().unwrap_or(1.0);
        let mut dbuf = std::mem::take(&mut sc.delta);
        dbuf.clear();
        dbuf.resize(len * l, 0.0);
        let d = &mut dbuf[..];
        let tr = g_trans;
        sc.score.clear();
        sc.score.resize(len * l, 0.0);
        for t in 0..len {
            let i = b + t;
            let (o0, o1) = (self.item_start[i], self.item_start[i + 1]);
            let ids = &self.occ_attr[o0..o1];
            let vals = self.occ_value.as_ref().map(|v| &v[o0..o1]);
            gather(l, w_state, ids, vals, &mut sc.score[t * l..(t + 1) * l]);
        }
        // exp of the scores shifted by each position's maximum (added back to log Z).
        sc.exp_state.clear();
        sc.exp_state.resize(len * l, 0.0);
        let mut shift = 0.0;
        for t in 0..len {
            let row = &sc.score[t * l..(t + 1) * l];
            let mx = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            shift += mx;
            for (e, r) in sc.exp_state[t * l..(t + 1) * l].iter_mut().zip(row) {
                *e = (r - mx).exp();
            }
        }
        let labels = &self.item_label[b..e];
        let log_z = forward_backward(
            l,
            len,
            &sc.exp_state,
            exp_trans,
            None,
            &mut sc.alpha,
            &mut sc.beta,
            &mut sc.scale,
        ) + shift;
        // Model marginals into d and tr.
        marginals(
            l,
            len,
            &sc.alpha,
            &sc.beta,
            &sc.scale,
            &sc.exp_state,
            exp_trans,
            d,
            tr,
            w,
        );
        let nll = if m.partial[s] {
            let log_zc = forward_backward(
                l,
                len,
                &sc.exp_state,
                exp_trans,
                Some(labels),
                &mut sc.c_alpha,
                &mut sc.c_beta,
                &mut sc.c_scale,
            ) + shift;
            // Targets: the marginals given the known labels.
            marginals(
                l,
                len,
                &sc.c_alpha,
                &sc.c_beta,
                &sc.c_scale,
                &sc.exp_state,
                exp_trans,
                d,
                tr,
                -w,
            );
            w * (log_z - log_zc)
        } else {
            // Targets are the labels themselves; log Z restricted to them is the path score.
            let mut path = 0.0;
            for t in 0..len {
                let y = labels[t] as usize;
                path += sc.score[t * l + y];
                d[t * l + y] -= w;
                if t > 0 {
                    let k = labels[t - 1] as usize * l + y;
                    path += w_trans[k];
                    tr[k] -= w;
                }
            }
            w * (log_z - path)
        };
        // State gradient: each attribute of an item gets the item's marginals minus targets.
        for t in 0..len {
            let i = b + t;
            let (o0, o1) = (self.item_start[i], self.item_start[i + 1]);
            let ids = &self.occ_attr[o0..o1];
            let vals = self.occ_value.as_ref().map(|v| &v[o0..o1]);
            scatter(l, g_state, ids, vals, &d[t * l..(t + 1) * l]);
        }
        sc.delta = dbuf;
        nll
    }

    /// Trains and writes the CRFsuite model file to `model_path`.
    pub fn train(
        &self,
        p: &LbfgsParams,
        model_path: &Path,
        mut progress: impl FnMut(usize, f64),
    ) -> Result<Outcome, ParallelError> {
        let (w, outcome, m) = self.optimise(p, &mut progress)?;
        let bytes = self.model_bytes(&m, &w)?;
        std::fs::write(model_path, bytes).map_err(|source| ParallelError::Io {
            path: model_path.to_path_buf(),
            source,
        })?;
        Ok(outcome)
    }

    /// Runs L-BFGS (OWL-QN when `c1 > 0`) and returns the weights by feature id.
    fn optimise(
        &self,
        p: &LbfgsParams,
        progress: &mut dyn FnMut(usize, f64),
    ) -> Result<(Vec<f64>, Outcome, Model), ParallelError> {
        if self.sequences() == 0 || self.label_names.is_empty() {
            return Err(ParallelError::NoData);
        }
        let m = self.model(p.min_freq)?;
        let nf = m.features.len();
        // From the prior's weights when adapting (where the optimum lies when the data is
        // weak), from 0 otherwise.
        let mut w = if m.centre.is_empty() {
            vec![0.0f64; nf]
        } else {
            m.centre.clone()
        };
        if p.c2 == f64::INFINITY {
            // An infinitely strong prior: its weights are the optimum.
            let mut g = vec![0.0; nf];
            let loss = self.evaluate(&m, 0.0, &w, &mut g);
            let outcome = Outcome {
                loss,
                evaluations: 1,
                features: nf,
                ..Outcome::default()
            };
            return Ok((w, outcome, m));
        }
        let mut evaluations = 0usize;
        let mut last = 0.0;
        let mut history: Vec<f64> = Vec::new();
        let mut delta_stop = false;
        // liblbfgs counts the starting point as an iteration: one more gives `max_iterations`
        // line-search steps, as CRFsuite takes.
        let mut opt = liblbfgs::lbfgs()
            .with_max_iterations(p.max_iterations.saturating_add(1))
            .with_epsilon(p.epsilon)
            .with_fx_delta(p.delta, p.period)
            .with_max_linesearch(p.max_linesearch);
        opt = if p.c1 > 0.0 {
            opt.with_linesearch_algorithm("BacktrackingStrongWolfe")
                .with_orthantwise(p.c1, 0, nf)
        } else {
            opt.with_linesearch_algorithm("MoreThuente")
        };
        let result = opt.minimize(
            &mut w,
            |x: &[f64], g: &mut [f64]| {
                evaluations += 1;
                last = self.evaluate(&m, p.c2, x, g);
                Ok(last)
            },
            |pr: &liblbfgs::Progress| {
                // Progress `niter` = steps taken + 1 (the starting point is reported twice).
                let Some(step) = pr.niter.checked_sub(1) else {
                    return false;
                };
                if step < history.len() {
                    return false;
                }
                history.push(pr.fx);
                if step > 0 {
                    progress(step, pr.fx);
                }
                // CRFsuite's delta test (liblbfgs stores delta and period but never applies
                // them): stop when the objective fell by less than `delta` (relative) over the
                // last `period` steps.
                delta_stop = p.period > 0
                    && step >= p.period
                    && ((history[step - p.period] - pr.fx) / pr.fx).abs() < p.delta;
                delta_stop
            },
        );
        // The callback sees every state but the last unless the delta test stopped it there.
        let iterations = if delta_stop {
            history.len().saturating_sub(1)
        } else {
            history.len()
        };
        let (loss, warning) = match result {
            Ok(r) => (r.fx, None),
            Err(e) => (last, Some(format!("{e:#}"))),
        };
        if !delta_stop && iterations > 0 && warning.is_none() {
            progress(iterations, loss);
        }
        Ok((
            w,
            Outcome {
                loss,
                evaluations,
                iterations,
                delta_stop,
                features: nf,
                warning,
            },
            m,
        ))
    }

    /// The node marginals of every block of every sequence at weights `w` (by feature id),
    /// block after block, label after label: the model's predictions, for comparing two
    /// weight vectors that the likelihood cannot tell apart.
    #[cfg(test)]
    fn node_marginals(&self, w: &[f64]) -> Vec<f64> {
        let Ok(m) = self.model(0.0) else {
            return Vec::new();
        };
        let l = m.labels;
        let (w_state, w_trans) = m.dense(w);
        let exp_trans: Vec<f64> = w_trans.iter().map(|w| w.exp()).collect();
        let mut sc = Scratch::default();
        let mut out = Vec::new();
        for s in 0..self.sequences() {
            let (b, e) = (self.seq_start[s], self.seq_start[s + 1]);
            let len = e - b;
            sc.score.clear();
            sc.score.resize(len * l, 0.0);
            for t in 0..len {
                let (o0, o1) = (self.item_start[b + t], self.item_start[b + t + 1]);
                gather(
                    l,
                    &w_state,
                    &self.occ_attr[o0..o1],
                    None,
                    &mut sc.score[t * l..(t + 1) * l],
                );
            }
            sc.exp_state = sc.score.iter().map(|v| v.exp()).collect();
            forward_backward(
                l,
                len,
                &sc.exp_state,
                &exp_trans,
                None,
                &mut sc.alpha,
                &mut sc.beta,
                &mut sc.scale,
            );
            for t in 0..len {
                for y in 0..l {
                    out.push(sc.alpha[t * l + y] * sc.beta[t * l + y] / sc.scale[t]);
                }
            }
        }
        out
    }

    /// Optimises without writing a model: the weights by feature id (state features by
    /// attribute then label, then transitions) and the outcome. For tests and comparisons.
    ///
    /// # Errors
    ///
    /// [`ParallelError::NoData`] without data.
    pub fn weights(&self, p: &LbfgsParams) -> Result<(Vec<f64>, Outcome), ParallelError> {
        let (w, o, _) = self.optimise(p, &mut |_, _| {})?;
        Ok((w, o))
    }

    /// The objective at weights `w` (by feature id, see [`Self::features`]): the negative
    /// log-likelihood of the data plus `c2 * |w|^2`, and its gradient.
    ///
    /// # Errors
    ///
    /// [`ParallelError::NoData`] without data; [`ParallelError::Length`] when `w` does not
    /// have one weight per feature.
    pub fn objective(
        &self,
        w: &[f64],
        c2: f64,
        min_freq: f64,
    ) -> Result<(f64, Vec<f64>), ParallelError> {
        if self.sequences() == 0 || self.label_names.is_empty() {
            return Err(ParallelError::NoData);
        }
        let m = self.model(min_freq)?;
        if w.len() != m.features.len() {
            return Err(ParallelError::Weights {
                given: w.len(),
                features: m.features.len(),
            });
        }
        let mut g = vec![0.0; m.features.len()];
        let f = self.evaluate(&m, c2, w, &mut g);
        Ok((f, g))
    }

    /// Features of the data in feature-id order: (is transition, attribute or previous-label
    /// name, label name).
    ///
    /// # Errors
    ///
    /// Only when the data has more features than a model holds.
    pub fn features(&self, min_freq: f64) -> Result<Vec<(bool, String, String)>, ParallelError> {
        let m = self.model(min_freq)?;
        Ok(m.features
            .iter()
            .map(|&(t, s, d)| {
                let src = if t {
                    self.label_names[s as usize].clone()
                } else {
                    self.attr_names[s as usize].to_string()
                };
                (t, src, self.label_names[d as usize].clone())
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few short sequences, fully labelled, with attributes shared between labels.
    fn data() -> ParallelTrainer {
        let mut t = ParallelTrainer::new();
        let names = ["a", "b", "c", "d", "e"];
        let labels = ["x", "y", "z"];
        for s in 0..6usize {
            let len = 2 + s % 4;
            let xs: Vec<Vec<Attribute>> = (0..len)
                .map(|i| {
                    (0..3)
                        .map(|k| Attribute::new(names[(s + i * 2 + k) % 5], 1.0))
                        .collect()
                })
                .collect();
            let ys: Vec<&str> = (0..len).map(|i| labels[(s * 7 + i * 5) % 3]).collect();
            t.append(&xs, &ys).expect("append");
        }
        t
    }

    #[test]
    fn constrained_forward_backward_matches_the_path_on_full_labels() {
        let t = data();
        let mut m = t.model(0.0).expect("model");
        let w: Vec<f64> = (0..m.features.len())
            .map(|f| ((f * 37 % 11) as f64 - 5.0) / 7.0)
            .collect();
        let mut g_path = vec![0.0; w.len()];
        let f_path = t.evaluate(&m, 0.0, &w, &mut g_path);
        m.partial.iter_mut().for_each(|p| *p = true);
        let mut g_fb = vec![0.0; w.len()];
        let f_fb = t.evaluate(&m, 0.0, &w, &mut g_fb);
        assert!(
            (f_path - f_fb).abs() <= 1e-9 * f_path.abs(),
            "{f_path} vs {f_fb}"
        );
        for (a, b) in g_path.iter().zip(&g_fb) {
            assert!((a - b).abs() <= 1e-9, "{a} vs {b}");
        }
    }

    /// Sequence `s` of the synthetic data of [`data`], with its labels.
    fn sequence_of(s: usize) -> (Vec<Vec<Attribute>>, Vec<&'static str>) {
        let names = ["a", "b", "c", "d", "e"];
        let labels = ["x", "y", "z"];
        let len = 2 + s % 4;
        let xs = (0..len)
            .map(|i| {
                (0..3)
                    .map(|k| Attribute::new(names[(s + i * 2 + k) % 5], 1.0))
                    .collect()
            })
            .collect();
        let ys = (0..len).map(|i| labels[(s * 7 + i * 5) % 3]).collect();
        (xs, ys)
    }

    #[test]
    fn a_weight_counts_a_sequence_as_often_as_appending_it() {
        // Weight 2 on a full sequence and 3 on a partial one against the same sequences
        // appended 2 and 3 times: the same objective and gradient at any weights.
        let (mut weighted, mut repeated) = (ParallelTrainer::new(), ParallelTrainer::new());
        for s in 0..6usize {
            let (xs, ys) = sequence_of(s);
            let partial: Vec<Option<&str>> = ys
                .iter()
                .enumerate()
                .map(|(i, y)| (i != 1).then_some(*y))
                .collect();
            match s {
                2 => {
                    weighted.append_weighted(&xs, &ys, 2.0).expect("append");
                    for _ in 0..2 {
                        repeated.append(&xs, &ys).expect("append");
                    }
                }
                4 => {
                    weighted
                        .append_partial_weighted(&xs, &partial, 3.0)
                        .expect("append");
                    for _ in 0..3 {
                        repeated.append_partial(&xs, &partial).expect("append");
                    }
                }
                _ => {
                    weighted.append(&xs, &ys).expect("append");
                    repeated.append(&xs, &ys).expect("append");
                }
            }
        }
        let n = weighted.features(0.0).expect("features").len();
        assert_eq!(n, repeated.features(0.0).expect("features").len());
        let w: Vec<f64> = (0..n).map(|i| ((i * 37 % 11) as f64 - 5.0) / 7.0).collect();
        let (fa, ga) = weighted.objective(&w, 0.5, 0.0).expect("objective");
        let (fb, gb) = repeated.objective(&w, 0.5, 0.0).expect("objective");
        assert!((fa - fb).abs() <= 1e-9 * fb.abs(), "{fa} against {fb}");
        for (a, b) in ga.iter().zip(&gb) {
            assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{a} against {b}");
        }
        // And a weight changes the objective: it is not ignored.
        let mut plain = ParallelTrainer::new();
        for s in 0..6usize {
            let (xs, ys) = sequence_of(s);
            plain.append(&xs, &ys).expect("append");
        }
        let (fp, _) = plain.objective(&w, 0.5, 0.0).expect("objective");
        assert!((fp - fa).abs() > 1e-6);
    }

    #[test]
    fn a_weight_that_is_not_positive_is_refused() {
        let (xs, ys) = sequence_of(1);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let mut t = ParallelTrainer::new();
            let err = t.append_weighted(&xs, &ys, bad).expect_err("refused");
            assert!(
                matches!(err, ParallelError::Weight { index: 0, .. }),
                "{err}"
            );
            assert_eq!(t.sequences(), 0);
        }
    }

    /// Sequences whose labels follow their attributes with noise: every attribute is seen
    /// with every label, so the likelihood alone has one finite optimum (no penalty needed).
    fn noisy(n: usize, seed: usize) -> Vec<(Vec<Vec<Attribute>>, Vec<&'static str>)> {
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        let labels = ["x", "y", "z"];
        (0..n)
            .map(|s| {
                let len = 3 + (s * 5 + seed) % 4;
                let mut xs = Vec::new();
                let mut ys = Vec::new();
                for i in 0..len {
                    let h = (s * 31 + i * 17 + seed * 7) % 97;
                    let attrs: Vec<Attribute> = (0..2)
                        .map(|k| Attribute::new(names[(h / (k + 1) + k * 3) % names.len()], 1.0))
                        .collect();
                    // Mostly the first attribute's label, a third of the time another.
                    let lab = if h.is_multiple_of(3) {
                        (h / 3) % 3
                    } else {
                        (h % 7) % 3
                    };
                    xs.push(attrs);
                    ys.push(labels[lab]);
                }
                (xs, ys)
            })
            .collect()
    }

    /// A trainer holding `data`, with `prior` set first when given.
    fn trainer_of(
        data: &[(Vec<Vec<Attribute>>, Vec<&'static str>)],
        prior: Option<&Prior>,
    ) -> ParallelTrainer {
        let mut t = ParallelTrainer::new();
        if let Some(p) = prior {
            t.set_prior(p).expect("prior");
        }
        for (xs, ys) in data {
            t.append(xs, ys).expect("append");
        }
        t
    }

    /// The prior made of a trained model's weights: by feature, as `features` lists them.
    fn prior_of(t: &ParallelTrainer, w: &[f64]) -> Prior {
        let labels = t.labels().to_vec();
        let l = labels.len();
        let mut state: Vec<(String, Vec<f64>)> = Vec::new();
        let mut trans = vec![0.0; l * l];
        let lid = |n: &str| labels.iter().position(|x| x == n).expect("label");
        for ((is_trans, src, dst), &wf) in t.features(0.0).expect("features").iter().zip(w) {
            if *is_trans {
                trans[lid(src) * l + lid(dst)] = wf;
            } else {
                match state.iter_mut().find(|(a, _)| a == src) {
                    Some((_, row)) => row[lid(dst)] = wf,
                    None => {
                        let mut row = vec![0.0; l];
                        row[lid(dst)] = wf;
                        state.push((src.clone(), row));
                    }
                }
            }
        }
        Prior {
            labels,
            state,
            trans,
        }
    }

    /// Weights by (is transition, source, destination), for comparing two trainers.
    fn by_name(t: &ParallelTrainer, w: &[f64]) -> std::collections::BTreeMap<String, f64> {
        t.features(0.0)
            .expect("features")
            .into_iter()
            .zip(w)
            .map(|((tr, s, d), &v)| (format!("{tr} {s} {d}"), v))
            .collect()
    }

    #[test]
    fn an_infinitely_strong_prior_gives_the_base_model_back() {
        let base_data = noisy(12, 1);
        let base = trainer_of(&base_data, None);
        let params = LbfgsParams {
            c2: 0.5,
            ..LbfgsParams::default()
        };
        let (w0, _) = base.weights(&params).expect("trains");
        let prior = prior_of(&base, &w0);
        let new_data = noisy(20, 5);
        let adapted = trainer_of(&new_data, Some(&prior));
        let want = by_name(&base, &w0);
        for c2 in [f64::INFINITY, 1e9] {
            let p = LbfgsParams {
                c2,
                ..LbfgsParams::default()
            };
            let (w, _) = adapted.weights(&p).expect("adapts");
            let got = by_name(&adapted, &w);
            for (k, v) in &got {
                // The base's features keep its weights; a feature only the new data has
                // stays at 0.
                let expect = want.get(k).copied().unwrap_or(0.0);
                assert!(
                    (v - expect).abs() <= 1e-6,
                    "c2 {c2}: {k}: {v} against {expect}"
                );
            }
            assert!(want.keys().all(|k| got.contains_key(k)));
        }
        // A weaker prior moves: the new data is not ignored.
        let (w, _) = adapted
            .weights(&LbfgsParams {
                c2: 0.5,
                ..LbfgsParams::default()
            })
            .expect("adapts");
        let got = by_name(&adapted, &w);
        assert!(
            got.iter()
                .any(|(k, v)| (v - want.get(k).copied().unwrap_or(0.0)).abs() > 0.05)
        );
    }

    #[test]
    fn without_a_prior_adapting_is_training_from_scratch() {
        // The base saw part of the new pages, so its features are among theirs; with a prior
        // of strength 0 (no penalty at all) the optimum is the likelihood's alone, the one a
        // training from zero finds.
        let data = noisy(30, 3);
        let base = trainer_of(&data[..10], None);
        let (w0, _) = base
            .weights(&LbfgsParams {
                c2: 1.0,
                ..LbfgsParams::default()
            })
            .expect("trains");
        let prior = prior_of(&base, &w0);
        let p = LbfgsParams {
            c2: 0.0,
            epsilon: 1e-9,
            delta: 0.0,
            period: 0,
            ..LbfgsParams::default()
        };
        let scratch = trainer_of(&data, None);
        let (ws, os) = scratch.weights(&p).expect("trains");
        let adapted = trainer_of(&data, Some(&prior));
        let (wa, oa) = adapted.weights(&p).expect("adapts");
        let (a, b) = (by_name(&scratch, &ws), by_name(&adapted, &wa));
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "the same features"
        );
        assert!(
            (os.loss - oa.loss).abs() <= 1e-6 * os.loss.abs(),
            "{} against {}",
            os.loss,
            oa.loss
        );
        // The same model: the weights themselves may differ where the likelihood cannot tell
        // them apart (an attribute's weights all shifted alike), the marginals may not.
        let (ma, mb) = (scratch.node_marginals(&ws), adapted.node_marginals(&wa));
        assert_eq!(ma.len(), mb.len());
        for (x, y) in ma.iter().zip(&mb) {
            assert!((x - y).abs() <= 1e-4, "marginal {x} against {y}");
        }
        // And the prior was used: the optimisation started at the base's weights, not at 0.
        assert!(w0.iter().any(|&w| w != 0.0));
    }

    #[test]
    fn the_penalty_is_centred_on_the_prior() {
        let data = noisy(8, 2);
        let base = trainer_of(&data, None);
        let w0: Vec<f64> = (0..base.features(0.0).expect("features").len())
            .map(|i| (i as f64 * 0.37).sin())
            .collect();
        let prior = prior_of(&base, &w0);
        let t = trainer_of(&data, Some(&prior));
        // At the prior's weights the penalty is 0: the objective is the likelihood alone.
        let (f_centre, _) = t.objective(&w0, 3.0, 0.0).expect("objective");
        let (f_plain, _) = t.objective(&w0, 0.0, 0.0).expect("objective");
        assert!((f_centre - f_plain).abs() <= 1e-9 * f_plain.abs());
        // Elsewhere it is c2 |w - w0|^2.
        let w1: Vec<f64> = w0.iter().map(|w| w + 0.5).collect();
        let (f1, _) = t.objective(&w1, 3.0, 0.0).expect("objective");
        let (g1, _) = t.objective(&w1, 0.0, 0.0).expect("objective");
        let n = w0.len() as f64;
        assert!((f1 - g1 - 3.0 * 0.25 * n).abs() <= 1e-6 * f1.abs());
    }

    #[test]
    fn blocks_cover_every_sequence_once() {
        let t = data();
        let m = t.model(0.0).expect("model");
        assert_eq!(m.blocks.first(), Some(&0));
        assert_eq!(m.blocks.last(), Some(&t.sequences()));
        assert!(m.blocks.windows(2).all(|w| w[0] < w[1]));
    }
}
