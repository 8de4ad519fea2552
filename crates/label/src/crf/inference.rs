//! Inference on one sequence: state scores, exact marginals (scaled forward-backward) and the
//! Viterbi path.
//!
//! Everything works from a `positions x labels` matrix of *state scores*, `scores[[t, y]]` =
//! the sum of the state weights of position `t`'s attributes for label `y`
//! ([`CrfModel::state_scores`] builds it from attribute ids). With transitions `T`, a label
//! sequence `y` scores `sum_t scores[[t, y_t]] + sum_t T[[y_{t-1}, y_t]]` and
//! `P(y | x) = exp(score(y)) / Z`.
//!
//! **Marginals.** [`CrfModel::marginals`] runs forward-backward with per-position scaling
//! (Rabiner's scheme, as CRFsuite does): each forward row is normalised to sum 1 and the backward
//! rows reuse the same factors, so nothing grows with the sequence length. Before
//! exponentiating, each position's scores are shifted by their maximum and the transitions by
//! theirs, so no factor exceeds 1 whatever the weights' size. If a row still degenerates (all
//! factors underflow to 0, or a non-finite or non-normalised result, which takes weight
//! differences beyond ~700), the sequence is recomputed entirely in log space, which cannot
//! overflow; results agree with CRFsuite to ~1e-13.
//!
//! **Viterbi.** [`CrfModel::viterbi_into`] maximises in the log domain; ties go to the lowest
//! label id, as in `crfs` and CRFsuite.
//!
//! **Buffers.** A [`Workspace`] holds the forward, backward, scale and back-pointer arrays and
//! grows to the longest sequence seen; the output matrices are reshaped in place. After the
//! first call of a given size, inference allocates nothing.

use ndarray::{Array2, ArrayView2, ArrayViewMut1};

use super::error::InferenceError;
use super::model::CrfModel;

/// Tolerance on a marginal row's sum before the scaled result is distrusted.
const NORMALISATION_SLACK: f64 = 1e-10;

/// Reusable buffers for [`CrfModel::marginals`] and [`CrfModel::viterbi_into`].
///
/// One per thread; it is not tied to a model and grows to the largest `positions x labels`
/// seen.
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    /// Per-position factors: `exp(score - max)` in the scaled pass, raw scores in log space.
    state: Vec<f64>,
    /// Scaled forward values, then the marginals.
    alpha: Vec<f64>,
    /// Scaled backward values.
    beta: Vec<f64>,
    /// Scaling factor of each position (1 / forward row sum).
    scale: Vec<f64>,
    /// Viterbi back-pointers.
    back: Vec<u32>,
    /// A few rows of scratch space.
    row: Vec<f64>,
}

impl Workspace {
    /// An empty workspace; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sizes the forward-backward buffers for `n` positions of `l` labels.
    fn prepare(&mut self, n: usize, l: usize) {
        self.state.resize(n * l, 0.0);
        self.alpha.resize(n * l, 0.0);
        self.beta.resize(n * l, 0.0);
        self.scale.resize(n, 0.0);
        self.row.resize(2 * l, 0.0);
    }
}

/// Makes `m` a `rows x cols` matrix, reusing its allocation when it is large enough.
///
/// The contents are unspecified (callers overwrite or zero them).
fn reuse_matrix(m: &mut Array2<f64>, rows: usize, cols: usize) -> Result<(), InferenceError> {
    if m.dim() == (rows, cols) {
        return Ok(());
    }
    let too_long = || InferenceError::TooLong { positions: rows };
    let len = rows.checked_mul(cols).ok_or_else(too_long)?;
    let (mut data, _) = std::mem::take(m).into_raw_vec_and_offset();
    data.resize(len, 0.0);
    *m = Array2::from_shape_vec((rows, cols), data).map_err(|_| too_long())?;
    Ok(())
}

/// Copies `scores` into `dst` (row-major, resized to fit) and checks that all are finite.
fn copy_scores(scores: ArrayView2<'_, f64>, dst: &mut Vec<f64>) -> Result<(), InferenceError> {
    let l = scores.ncols().max(1);
    dst.clear();
    match scores.as_slice() {
        Some(contiguous) => dst.extend_from_slice(contiguous),
        None => dst.extend(scores.iter().copied()),
    }
    match dst.iter().position(|x| !x.is_finite()) {
        Some(k) => Err(InferenceError::NonFiniteScore {
            position: k / l,
            label: k % l,
        }),
        None => Ok(()),
    }
}

/// `ln(sum(exp(xs)))` without overflow; `xs` finite and non-empty.
fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    max + xs.iter().map(|&x| (x - max).exp()).sum::<f64>().ln()
}

impl CrfModel {
    /// Checks that `scores` has one column per label; returns `(positions, labels)`.
    fn check_width(&self, width: usize) -> Result<usize, InferenceError> {
        let l = self.num_labels();
        if width == l {
            Ok(l)
        } else {
            Err(InferenceError::LabelCount {
                expected: l,
                found: width,
            })
        }
    }

    /// Builds the `items.len() x num_labels` state-score matrix of a sequence whose position `t`
    /// has the attribute ids `items[t]` (each with value 1).
    ///
    /// `out` is reshaped (reusing its allocation) and overwritten. An id at or beyond
    /// [`num_attrs`](CrfModel::num_attrs) is an error; ids for attributes the model lacks
    /// should simply not be passed (see [`attr_id`](CrfModel::attr_id)).
    pub fn state_scores<A: AsRef<[u32]>>(
        &self,
        items: &[A],
        out: &mut Array2<f64>,
    ) -> Result<(), InferenceError> {
        reuse_matrix(out, items.len(), self.num_labels())?;
        out.fill(0.0);
        for (position, (item, row)) in items.iter().zip(out.rows_mut()).enumerate() {
            self.add_state_scores(item.as_ref(), row)
                .map_err(|e| match e {
                    InferenceError::UnknownAttribute {
                        attr, num_attrs, ..
                    } => InferenceError::UnknownAttribute {
                        attr,
                        num_attrs,
                        position: Some(position),
                    },
                    other => other,
                })?;
        }
        Ok(())
    }

    /// Adds the state weights of `attr_ids` (each with value 1) to one row of scores.
    ///
    /// `row` must have [`num_labels`](CrfModel::num_labels) entries. On error the row is left
    /// unchanged.
    pub fn add_state_scores(
        &self,
        attr_ids: &[u32],
        mut row: ArrayViewMut1<'_, f64>,
    ) -> Result<(), InferenceError> {
        self.check_width(row.len())?;
        let weights = self.state_weights();
        let num_attrs = weights.nrows();
        if let Some(&attr) = attr_ids.iter().find(|&&a| a as usize >= num_attrs) {
            return Err(InferenceError::UnknownAttribute {
                attr,
                num_attrs,
                position: None,
            });
        }
        for &attr in attr_ids {
            row += &weights.row(attr as usize);
        }
        Ok(())
    }

    /// Exact marginals `out[[t, y]] = P(y_t = y | x)` of a sequence given its state scores
    /// (`positions x num_labels`, see [`state_scores`](CrfModel::state_scores)).
    ///
    /// `out` is reshaped to the size of `scores` (reusing its allocation); every row sums to 1.
    /// Returns `ln Z`, the log partition function (0 for an empty sequence).
    /// Errors if `scores` has the wrong width or holds a NaN or infinity.
    pub fn marginals(
        &self,
        scores: ArrayView2<'_, f64>,
        ws: &mut Workspace,
        out: &mut Array2<f64>,
    ) -> Result<f64, InferenceError> {
        let l = self.check_width(scores.ncols())?;
        let n = scores.nrows();
        reuse_matrix(out, n, l)?;
        if n == 0 {
            return Ok(0.0);
        }
        ws.prepare(n, l);
        let log_z = match self.forward_backward_scaled(scores, ws)? {
            Some(log_z) => log_z,
            None => self.forward_backward_log(scores, ws),
        };
        for (o, &p) in out.iter_mut().zip(&ws.alpha) {
            *o = p;
        }
        Ok(log_z)
    }

    /// The most probable label sequence (label ids), as a new vector.
    ///
    /// Convenience over [`viterbi_into`](CrfModel::viterbi_into), which reuses the path buffer.
    pub fn viterbi(
        &self,
        scores: ArrayView2<'_, f64>,
        ws: &mut Workspace,
    ) -> Result<Vec<usize>, InferenceError> {
        let mut path = Vec::with_capacity(scores.nrows());
        self.viterbi_into(scores, ws, &mut path)?;
        Ok(path)
    }

    /// Writes the most probable label sequence into `path` (cleared first) and returns its
    /// score (`ln` of its unnormalised probability; 0 for an empty sequence).
    ///
    /// Ties go to the lower label id, as in `crfs`'s and CRFsuite's taggers.
    pub fn viterbi_into(
        &self,
        scores: ArrayView2<'_, f64>,
        ws: &mut Workspace,
        path: &mut Vec<usize>,
    ) -> Result<f64, InferenceError> {
        let l = self.check_width(scores.ncols())?;
        let n = scores.nrows();
        path.clear();
        if n == 0 {
            return Ok(0.0);
        }
        copy_scores(scores, &mut ws.state)?;
        ws.back.resize(n * l, 0);
        ws.row.resize(2 * l, 0.0);
        let (mut prev, mut cur) = ws.row.split_at_mut(l);
        prev.copy_from_slice(&ws.state[..l]);
        for (srow, back) in ws
            .state
            .chunks_exact(l)
            .zip(ws.back.chunks_exact_mut(l))
            .skip(1)
        {
            let columns = self.trans_by_target.chunks_exact(l);
            for (((c, b), &s), column) in cur.iter_mut().zip(back).zip(srow).zip(columns) {
                let (mut best, mut arg) = (f64::NEG_INFINITY, 0);
                for (i, (&p, &w)) in prev.iter().zip(column).enumerate() {
                    if p + w > best {
                        best = p + w;
                        arg = i;
                    }
                }
                *c = best + s;
                *b = arg as u32;
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        let (mut best, mut last) = (f64::NEG_INFINITY, 0);
        for (i, &p) in prev.iter().enumerate() {
            if p > best {
                best = p;
                last = i;
            }
        }
        path.resize(n, 0);
        path[n - 1] = last;
        for t in (1..n).rev() {
            path[t - 1] = ws.back[t * l + path[t]] as usize;
        }
        Ok(best)
    }

    /// Scaled forward-backward; leaves the marginals in `ws.alpha` and returns `ln Z`.
    ///
    /// `Ok(None)` if the scaled arithmetic degenerated and the log-space pass must be used
    /// (every score has been checked to be finite by then).
    fn forward_backward_scaled(
        &self,
        scores: ArrayView2<'_, f64>,
        ws: &mut Workspace,
    ) -> Result<Option<f64>, InferenceError> {
        let l = self.num_labels();
        let n = scores.nrows();
        let exp_trans = &self.exp_trans;
        // ln Z = sum of the shifts + sum of ln(forward row sums).
        let mut log_z = (n - 1) as f64 * self.trans_max;

        // Per-position factors exp(score - max score).
        copy_scores(scores, &mut ws.state)?;
        for e in ws.state.chunks_exact_mut(l) {
            let max = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            for x in e.iter_mut() {
                *x = (*x - max).exp();
            }
            log_z += max;
        }

        // Forward: alpha[t] = normalise(e[t] * (alpha[t-1] . T)).
        for t in 0..n {
            let (done, todo) = ws.alpha.split_at_mut(t * l);
            let cur = &mut todo[..l];
            let e = &ws.state[t * l..(t + 1) * l];
            if t == 0 {
                cur.copy_from_slice(e);
            } else {
                let prev = &done[(t - 1) * l..];
                cur.fill(0.0);
                for (&p, trow) in prev.iter().zip(exp_trans.chunks_exact(l)) {
                    for (c, &w) in cur.iter_mut().zip(trow) {
                        *c += p * w;
                    }
                }
                for (c, &x) in cur.iter_mut().zip(e) {
                    *c *= x;
                }
            }
            let sum: f64 = cur.iter().sum();
            let c = 1.0 / sum;
            if !(sum > 0.0 && c.is_finite()) {
                return Ok(None);
            }
            for a in cur.iter_mut() {
                *a *= c;
            }
            ws.scale[t] = c;
            log_z += sum.ln();
        }

        // Backward: beta[n-1] = scale[n-1]; beta[t] = scale[t] * T . (e[t+1] * beta[t+1]).
        let last = &mut ws.beta[(n - 1) * l..n * l];
        last.fill(ws.scale[n - 1]);
        let tmp = &mut ws.row[..l];
        for t in (0..n - 1).rev() {
            let (head, tail) = ws.beta.split_at_mut((t + 1) * l);
            let cur = &mut head[t * l..];
            let next = &tail[..l];
            let e = &ws.state[(t + 1) * l..(t + 2) * l];
            for ((x, &b), &f) in tmp.iter_mut().zip(next).zip(e) {
                *x = b * f;
            }
            let c = ws.scale[t];
            for (b, trow) in cur.iter_mut().zip(exp_trans.chunks_exact(l)) {
                let dot: f64 = trow.iter().zip(tmp.iter()).map(|(&w, &x)| w * x).sum();
                *b = c * dot;
            }
        }

        // Marginals: alpha * beta / scale, into alpha.
        for ((a, b), &c) in ws
            .alpha
            .chunks_exact_mut(l)
            .zip(ws.beta.chunks_exact(l))
            .zip(&ws.scale)
        {
            let mut sum = 0.0;
            for (x, &y) in a.iter_mut().zip(b) {
                *x *= y / c;
                sum += *x;
            }
            if !(sum.is_finite() && (sum - 1.0).abs() <= NORMALISATION_SLACK) {
                return Ok(None);
            }
            for x in a.iter_mut() {
                *x /= sum;
            }
        }
        if !log_z.is_finite() {
            return Ok(None);
        }
        Ok(Some(log_z))
    }

    /// Forward-backward in log space; leaves the marginals in `ws.alpha`, returns `ln Z`.
    ///
    /// Slower (one `exp` per label pair and position) but immune to overflow and underflow;
    /// used when the scaled pass degenerates. Each forward row is log-normalised and each
    /// backward row shifted by its maximum, so the values stay near the size of one position's
    /// scores and keep their precision on long sequences. `scores` must be finite.
    fn forward_backward_log(&self, scores: ArrayView2<'_, f64>, ws: &mut Workspace) -> f64 {
        let l = self.num_labels();
        let n = scores.nrows();
        for (s, &x) in ws.state.iter_mut().zip(scores.iter()) {
            *s = x;
        }
        let trans = self.transitions();
        let (tmp, _) = ws.row.split_at_mut(l);

        // Forward: alpha[t][j] = s[t][j] + lse_i(alpha[t-1][i] + T[i][j]), then normalised.
        let mut log_z = 0.0;
        for t in 0..n {
            let (done, todo) = ws.alpha.split_at_mut(t * l);
            let cur = &mut todo[..l];
            let s = &ws.state[t * l..(t + 1) * l];
            if t == 0 {
                cur.copy_from_slice(s);
            } else {
                let prev = &done[(t - 1) * l..];
                let columns = self.trans_by_target.chunks_exact(l);
                for ((a, &sj), column) in cur.iter_mut().zip(s).zip(columns) {
                    for ((x, &p), &w) in tmp.iter_mut().zip(prev).zip(column) {
                        *x = p + w;
                    }
                    *a = sj + log_sum_exp(tmp);
                }
            }
            let norm = log_sum_exp(cur);
            for a in cur.iter_mut() {
                *a -= norm;
            }
            log_z += norm;
        }

        // Backward: beta[t][i] = lse_j(T[i][j] + s[t+1][j] + beta[t+1][j]), minus its maximum.
        ws.beta[(n - 1) * l..n * l].fill(0.0);
        for t in (0..n - 1).rev() {
            let (head, tail) = ws.beta.split_at_mut((t + 1) * l);
            let cur = &mut head[t * l..];
            let next = &tail[..l];
            let s = &ws.state[(t + 1) * l..(t + 2) * l];
            for (b, trow) in cur.iter_mut().zip(trans.rows()) {
                for (((x, &w), &sj), &bj) in tmp.iter_mut().zip(trow.iter()).zip(s).zip(next) {
                    *x = w + sj + bj;
                }
                *b = log_sum_exp(tmp);
            }
            let max = cur.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            for b in cur.iter_mut() {
                *b -= max;
            }
        }

        // Marginals: softmax of alpha + beta, row by row.
        for (a, b) in ws.alpha.chunks_exact_mut(l).zip(ws.beta.chunks_exact(l)) {
            for (x, &y) in a.iter_mut().zip(b) {
                *x += y;
            }
            let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut sum = 0.0;
            for x in a.iter_mut() {
                *x = (*x - max).exp();
                sum += *x;
            }
            for x in a.iter_mut() {
                *x /= sum;
            }
        }
        log_z
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    /// A 3-label model with the given transitions and no attributes.
    fn model(trans: Array2<f64>) -> CrfModel {
        CrfModel::from_weights(
            vec!["a".into(), "b".into(), "c".into()],
            Vec::new(),
            Array2::zeros((0, 3)),
            trans,
        )
    }

    /// Deterministic pseudo-random numbers in [-1, 1).
    fn noise(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn scaled_and_log_space_agree() {
        let m = model(array![[0.5, -1.0, 2.0], [0.0, 1.5, -0.5], [-2.0, 0.3, 0.7]]);
        let mut seed = 7;
        let scores = Array2::from_shape_fn((50, 3), |_| 3.0 * noise(&mut seed));
        let mut ws = Workspace::new();
        ws.prepare(50, 3);
        let z_scaled = m
            .forward_backward_scaled(scores.view(), &mut ws)
            .unwrap()
            .unwrap();
        let scaled = ws.alpha.clone();
        let z_log = m.forward_backward_log(scores.view(), &mut ws);
        assert!((z_scaled - z_log).abs() < 1e-10 * z_log.abs());
        for (a, b) in scaled.iter().zip(&ws.alpha) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    /// 100,000 positions with scores up to +-1000 and transitions up to +-50: the scaled pass
    /// (when it does not hand over) and the log-space pass agree, and rows sum to 1.
    #[test]
    fn long_sequences_with_large_weights() {
        // Weights this large keep every scaled row representable: the scaled pass must succeed
        // and agree with the log-space one on a sequence of 100,000 blocks.
        let mut seed = 1;
        let trans = Array2::from_shape_fn((3, 3), |_| 50.0 * noise(&mut seed));
        let m = model(trans);
        let n = 100_000;
        let scores = Array2::from_shape_fn((n, 3), |_| 100.0 * noise(&mut seed));
        let mut ws = Workspace::new();
        ws.prepare(n, 3);
        let z = m
            .forward_backward_scaled(scores.view(), &mut ws)
            .unwrap()
            .expect("scaled forward-backward underflowed on moderate weights");
        let scaled_marginals = ws.alpha.clone();
        let log_z = m.forward_backward_log(scores.view(), &mut ws);
        let mut worst = 0.0f64;
        for row in ws.alpha.chunks_exact(3) {
            worst = worst.max((row.iter().sum::<f64>() - 1.0).abs());
        }
        assert!(worst < 1e-13, "log-space rows off by {worst}");
        assert!((z - log_z).abs() <= 1e-11 * log_z.abs(), "{z} vs {log_z}");
        for (a, b) in scaled_marginals.iter().zip(&ws.alpha) {
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
    }

    #[test]
    fn huge_weights_stay_normalised_in_log_space() {
        let mut seed = 7;
        let m = model(Array2::from_shape_fn((3, 3), |_| 50.0 * noise(&mut seed)));
        let n = 100_000;
        let scores = Array2::from_shape_fn((n, 3), |_| 1000.0 * noise(&mut seed));
        let mut ws = Workspace::new();
        ws.prepare(n, 3);
        let log_z = m.forward_backward_log(scores.view(), &mut ws);
        assert!(log_z.is_finite(), "log Z {log_z}");
        for row in ws.alpha.chunks_exact(3) {
            let sum: f64 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-13, "row sums to {sum}");
            assert!(row.iter().all(|p| (0.0..=1.0).contains(p)), "{row:?}");
        }
    }

    #[test]
    fn extreme_weights_fall_back_to_log_space_and_stay_exact() {
        // Transition differences of ~2000 make every scaled forward row underflow.
        let m = model(array![
            [0.0, -2000.0, -2000.0],
            [-2000.0, 0.0, -2000.0],
            [-2000.0, -2000.0, 0.0]
        ]);
        // Position 0 wants label 0, position 1 wants label 1 by more than the penalty.
        let scores = array![[0.0, -5000.0, -5000.0], [-5000.0, 0.0, -5000.0]];
        let mut ws = Workspace::new();
        ws.prepare(2, 3);
        assert_eq!(
            m.forward_backward_scaled(scores.view(), &mut ws).unwrap(),
            None
        );
        let mut out = Array2::zeros((0, 0));
        let log_z = m.marginals(scores.view(), &mut ws, &mut out).unwrap();
        // Best path 0 -> 1 scores -2000; every other is below by >= 3000.
        assert!((log_z - -2000.0).abs() < 1e-9, "{log_z}");
        assert_eq!(out, array![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    }

    #[test]
    fn buffers_are_reused() {
        let m = model(Array2::zeros((3, 3)));
        let mut ws = Workspace::new();
        let mut out = Array2::zeros((0, 0));
        let big = Array2::zeros((100, 3));
        m.marginals(big.view(), &mut ws, &mut out).unwrap();
        let (ptr, cap) = (out.as_ptr(), ws.alpha.capacity());
        let small = Array2::zeros((10, 3));
        m.marginals(small.view(), &mut ws, &mut out).unwrap();
        assert_eq!(out.dim(), (10, 3));
        assert_eq!(out.as_ptr(), ptr);
        assert_eq!(ws.alpha.capacity(), cap);
        for p in out.iter() {
            assert!((p - 1.0 / 3.0).abs() < 1e-15);
        }
    }

    #[test]
    fn non_finite_scores_and_wrong_widths_are_errors() {
        let m = model(Array2::zeros((3, 3)));
        let mut ws = Workspace::new();
        let mut out = Array2::zeros((0, 0));
        let bad = array![[0.0, 1.0, 2.0], [0.0, f64::NAN, 0.0]];
        let err = InferenceError::NonFiniteScore {
            position: 1,
            label: 1,
        };
        assert_eq!(m.marginals(bad.view(), &mut ws, &mut out), Err(err.clone()));
        assert_eq!(m.viterbi(bad.view(), &mut ws), Err(err));
        let narrow = Array2::zeros((4, 2));
        let width = InferenceError::LabelCount {
            expected: 3,
            found: 2,
        };
        assert_eq!(
            m.marginals(narrow.view(), &mut ws, &mut out),
            Err(width.clone())
        );
        assert_eq!(m.viterbi(narrow.view(), &mut ws), Err(width));
    }

    #[test]
    fn empty_sequences() {
        let m = model(Array2::zeros((3, 3)));
        let mut ws = Workspace::new();
        let mut out = Array2::ones((5, 3));
        let empty = Array2::zeros((0, 3));
        assert_eq!(m.marginals(empty.view(), &mut ws, &mut out), Ok(0.0));
        assert_eq!(out.dim(), (0, 3));
        assert_eq!(m.viterbi(empty.view(), &mut ws), Ok(Vec::new()));
    }
}
