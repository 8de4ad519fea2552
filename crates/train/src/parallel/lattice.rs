//! The numeric kernels of one evaluation: weight rows gathered into state scores, gradient
//! rows scattered back, and the scaled forward-backward over a sequence's lattice.

use super::NONE;

/// Adds to `row` the weight rows (`l` labels each) of the attributes `ids`, times `vals`.
/// The common label counts get loops of fixed length, which keep the sums in registers.
pub(super) fn gather(l: usize, w: &[f64], ids: &[u32], vals: Option<&[f64]>, row: &mut [f64]) {
    fn fixed<const N: usize>(w: &[f64], ids: &[u32], vals: Option<&[f64]>, row: &mut [f64]) {
        let mut acc = [0.0f64; N];
        match vals {
            None => {
                for &a in ids {
                    let a = a as usize * N;
                    let r = &w[a..a + N];
                    for y in 0..N {
                        acc[y] += r[y];
                    }
                }
            }
            Some(v) => {
                for (&a, &v) in ids.iter().zip(v) {
                    let a = a as usize * N;
                    let r = &w[a..a + N];
                    for y in 0..N {
                        acc[y] += v * r[y];
                    }
                }
            }
        }
        row.copy_from_slice(&acc);
    }
    match l {
        2 => fixed::<2>(w, ids, vals, row),
        3 => fixed::<3>(w, ids, vals, row),
        4 => fixed::<4>(w, ids, vals, row),
        _ => {
            row.fill(0.0);
            for (k, &a) in ids.iter().enumerate() {
                let v = vals.map_or(1.0, |v| v[k]);
                let r = &w[a as usize * l..(a as usize + 1) * l];
                row.iter_mut().zip(r).for_each(|(x, r)| *x += v * r);
            }
        }
    }
}

/// Adds `d` (one value per label) times `vals` to the gradient rows of the attributes `ids`.
pub(super) fn scatter(l: usize, g: &mut [f64], ids: &[u32], vals: Option<&[f64]>, d: &[f64]) {
    fn fixed<const N: usize>(g: &mut [f64], ids: &[u32], vals: Option<&[f64]>, d: &[f64]) {
        let mut dd = [0.0f64; N];
        dd.copy_from_slice(d);
        match vals {
            None => {
                for &a in ids {
                    let a = a as usize * N;
                    let r = &mut g[a..a + N];
                    for y in 0..N {
                        r[y] += dd[y];
                    }
                }
            }
            Some(v) => {
                for (&a, &v) in ids.iter().zip(v) {
                    let a = a as usize * N;
                    let r = &mut g[a..a + N];
                    for y in 0..N {
                        r[y] += v * dd[y];
                    }
                }
            }
        }
    }
    match l {
        2 => fixed::<2>(g, ids, vals, d),
        3 => fixed::<3>(g, ids, vals, d),
        4 => fixed::<4>(g, ids, vals, d),
        _ => {
            for (k, &a) in ids.iter().enumerate() {
                let v = vals.map_or(1.0, |v| v[k]);
                let r = &mut g[a as usize * l..(a as usize + 1) * l];
                r.iter_mut().zip(d).for_each(|(x, d)| *x += v * d);
            }
        }
    }
}

/// Scaled forward-backward over `len` positions and `l` labels; with `mask`, a position with a
/// known label allows only that label. Returns log Z (of the shifted scores).
#[allow(clippy::too_many_arguments)]
pub(super) fn forward_backward(
    l: usize,
    len: usize,
    exp_state: &[f64],
    exp_trans: &[f64],
    mask: Option<&[u32]>,
    alpha: &mut Vec<f64>,
    beta: &mut Vec<f64>,
    scale: &mut Vec<f64>,
) -> f64 {
    alpha.clear();
    alpha.resize(len * l, 0.0);
    beta.clear();
    beta.resize(len * l, 0.0);
    scale.clear();
    scale.resize(len, 0.0);
    let allowed = |t: usize, y: usize| match mask {
        Some(m) => m[t] == NONE || m[t] as usize == y,
        None => true,
    };
    let mut log_z = 0.0;
    for t in 0..len {
        let mut sum = 0.0;
        for y in 0..l {
            let v = if !allowed(t, y) {
                0.0
            } else if t == 0 {
                exp_state[y]
            } else {
                let mut acc = 0.0;
                for p in 0..l {
                    acc += alpha[(t - 1) * l + p] * exp_trans[p * l + y];
                }
                acc * exp_state[t * l + y]
            };
            alpha[t * l + y] = v;
            sum += v;
        }
        let s = 1.0 / sum;
        scale[t] = s;
        for y in 0..l {
            alpha[t * l + y] *= s;
        }
        log_z -= s.ln();
    }
    for y in 0..l {
        beta[(len - 1) * l + y] = if allowed(len - 1, y) {
            scale[len - 1]
        } else {
            0.0
        };
    }
    for t in (0..len - 1).rev() {
        for p in 0..l {
            let mut acc = 0.0;
            for y in 0..l {
                acc += exp_trans[p * l + y] * exp_state[(t + 1) * l + y] * beta[(t + 1) * l + y];
            }
            beta[t * l + p] = if allowed(t, p) { acc * scale[t] } else { 0.0 };
        }
    }
    log_z
}

/// Adds `sign` times the node marginals to `d` and the transition marginals to `tr`, from a
/// forward-backward whose beta carries the scale of its own position (as
/// [`forward_backward`] leaves it).
#[allow(clippy::too_many_arguments)]
pub(super) fn marginals(
    l: usize,
    len: usize,
    alpha: &[f64],
    beta: &[f64],
    scale: &[f64],
    exp_state: &[f64],
    exp_trans: &[f64],
    d: &mut [f64],
    tr: &mut [f64],
    sign: f64,
) {
    for t in 0..len {
        let inv = 1.0 / scale[t];
        for y in 0..l {
            d[t * l + y] += sign * alpha[t * l + y] * beta[t * l + y] * inv;
        }
    }
    for t in 0..len.saturating_sub(1) {
        for p in 0..l {
            let a = alpha[t * l + p];
            if a == 0.0 {
                continue;
            }
            for y in 0..l {
                tr[p * l + y] += sign
                    * a
                    * exp_trans[p * l + y]
                    * exp_state[(t + 1) * l + y]
                    * beta[(t + 1) * l + y];
            }
        }
    }
}
