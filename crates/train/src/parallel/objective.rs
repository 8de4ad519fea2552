//! The objective: the regularised negative log-likelihood and its gradient, sequences in
//! parallel blocks fixed by the data, their sums added in block order.

use rayon::prelude::*;

use super::features::Model;
use super::lattice::{forward_backward, gather, marginals, scatter};
use super::{ParallelError, ParallelTrainer};

/// Per-thread scratch of the forward-backward.
#[derive(Default)]
pub(super) struct Scratch {
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

/// The weights of one evaluation as every sequence reads them: dense state weights
/// (attribute x label), transition weights (label x label) and their exp.
struct Weights<'a> {
    state: &'a [f64],
    trans: &'a [f64],
    exp_trans: &'a [f64],
}

/// The targets of a partially labelled sequence: the marginals given its known `labels`
/// ([`NONE`](super::NONE) where unknown), subtracted (times the weight `w`) from the node
/// marginals in `d` and the transition counts in `tr`; returns log Z restricted to the
/// labelings that agree with the known labels (with the scores' `shift` added back).
#[allow(clippy::too_many_arguments)]
fn constrained_targets(
    l: usize,
    labels: &[u32],
    wt: &Weights,
    shift: f64,
    w: f64,
    sc: &mut Scratch,
    d: &mut [f64],
    tr: &mut [f64],
) -> f64 {
    let len = labels.len();
    let log_zc = forward_backward(
        l,
        len,
        &sc.exp_state,
        wt.exp_trans,
        Some(labels),
        &mut sc.c_alpha,
        &mut sc.c_beta,
        &mut sc.c_scale,
    ) + shift;
    marginals(
        l,
        len,
        &sc.c_alpha,
        &sc.c_beta,
        &sc.c_scale,
        &sc.exp_state,
        wt.exp_trans,
        d,
        tr,
        -w,
    );
    log_zc
}

/// The targets of a fully labelled sequence: its labels themselves, subtracted (times the
/// weight `w`) from `d` and `tr`; returns the score of their path (log Z restricted to them),
/// from the state scores `score` and the transition weights `w_trans`.
fn path_targets(
    l: usize,
    labels: &[u32],
    score: &[f64],
    w_trans: &[f64],
    w: f64,
    d: &mut [f64],
    tr: &mut [f64],
) -> f64 {
    let mut path = 0.0;
    for t in 0..labels.len() {
        let y = labels[t] as usize;
        path += score[t * l + y];
        d[t * l + y] -= w;
        if t > 0 {
            let k = labels[t - 1] as usize * l + y;
            path += w_trans[k];
            tr[k] -= w;
        }
    }
    path
}

impl ParallelTrainer {
    /// The objective (regularised negative log-likelihood) and its gradient at `x`.
    pub(super) fn evaluate(&self, m: &Model, c2: f64, x: &[f64], g: &mut [f64]) -> f64 {
        let l = m.labels;
        let (w_state, w_trans) = m.dense(x);
        let exp_trans: Vec<f64> = w_trans.iter().map(|w| w.exp()).collect();
        let wt = Weights {
            state: &w_state,
            trans: &w_trans,
            exp_trans: &exp_trans,
        };

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
                    loss += self.sequence(m, s, &wt, sc, &mut g_state, &mut g_trans);
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
    /// gradient (expected minus target counts, times the weight) to `g_state` (attribute x
    /// label) and `g_trans` (label x label).
    fn sequence(
        &self,
        m: &Model,
        s: usize,
        wt: &Weights,
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
        let shift = self.state_scores(l, b, len, wt.state, sc);
        let labels = &self.item_label[b..e];
        let log_z = forward_backward(
            l,
            len,
            &sc.exp_state,
            wt.exp_trans,
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
            wt.exp_trans,
            d,
            tr,
            w,
        );
        let nll = if m.partial[s] {
            let log_zc = constrained_targets(l, labels, wt, shift, w, sc, d, tr);
            w * (log_z - log_zc)
        } else {
            let path = path_targets(l, labels, &sc.score, wt.trans, w, d, tr);
            w * (log_z - path)
        };
        // State gradient: each attribute of an item gets the item's marginals minus targets.
        for t in 0..len {
            let (ids, vals) = self.occurrences(b + t);
            scatter(l, g_state, ids, vals, &d[t * l..(t + 1) * l]);
        }
        sc.delta = dbuf;
        nll
    }

    /// The attribute ids of item `i`'s occurrences, and their values (`None` while every
    /// value of the data is 1).
    fn occurrences(&self, i: usize) -> (&[u32], Option<&[f64]>) {
        let (o0, o1) = (self.item_start[i], self.item_start[i + 1]);
        let vals = self.occ_value.as_ref().map(|v| &v[o0..o1]);
        (&self.occ_attr[o0..o1], vals)
    }

    /// The state scores of the `len` items from item `b` (`l` labels each) into `sc.score`,
    /// and their exp into `sc.exp_state`, shifted by each position's maximum; returns the sum
    /// of the shifts (to be added back to log Z).
    fn state_scores(
        &self,
        l: usize,
        b: usize,
        len: usize,
        w_state: &[f64],
        sc: &mut Scratch,
    ) -> f64 {
        sc.score.clear();
        sc.score.resize(len * l, 0.0);
        for t in 0..len {
            let (ids, vals) = self.occurrences(b + t);
            gather(l, w_state, ids, vals, &mut sc.score[t * l..(t + 1) * l]);
        }
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
        shift
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

    /// The node marginals of every block of every sequence at weights `w` (by feature id),
    /// block after block, label after label: the model's predictions, for comparing two
    /// weight vectors that the likelihood cannot tell apart.
    #[cfg(test)]
    pub(super) fn node_marginals(&self, w: &[f64]) -> Vec<f64> {
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
}
