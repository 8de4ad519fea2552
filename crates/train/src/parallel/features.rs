//! The features, as CRFsuite builds them, and the indexes an evaluation reads: feature ids of
//! state and transition pairs, the blocks of work, and the prior's weight of each feature.

use super::{BLOCK_MEMORY, BLOCKS, NONE, ParallelError, ParallelTrainer};

/// Features and the indexes built from the data for optimisation.
pub(super) struct Model {
    pub(super) labels: usize,
    pub(super) attrs: usize,
    /// Feature id of each (attribute, label) pair, [`NONE`] if not a feature.
    pub(super) state_fid: Vec<u32>,
    /// Feature id of each (label, label) pair, [`NONE`] if not a feature.
    pub(super) trans_fid: Vec<u32>,
    /// Features: (is transition, source, destination), in feature-id order.
    pub(super) features: Vec<(bool, u32, u32)>,
    /// Sequence offsets of the blocks of work (each block sums into its own buffers).
    pub(super) blocks: Vec<usize>,
    /// Whether each sequence has an unknown label.
    pub(super) partial: Vec<bool>,
    /// The prior's weight of each feature (by feature id), or empty without a prior (all 0).
    pub(super) centre: Vec<f64>,
}

impl Model {
    /// The feature vector `x` as dense weights: state `[attribute][label]` and transition
    /// `[label][label]` (0 where a pair is no feature).
    pub(super) fn dense(&self, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
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

impl ParallelTrainer {
    /// Builds the features and the inverted index.
    pub(super) fn model(&self, min_freq: f64) -> Result<Model, ParallelError> {
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
