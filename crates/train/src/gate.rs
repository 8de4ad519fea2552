//! Fitting the gate of an adapted bundle ([`victor_label::gate`] says what it does).
//!
//! Every trained bundle stores the profiles of a sample of its training pages
//! ([`sample_pages`]). Adapting it, the gate is a logistic regression that tells the user's
//! pages (the adaptation's) from that sample, each side weighing half, on standardised
//! profiles with an L2 penalty ([`fit_logistic`], Newton's method: a few dozen values, a few
//! hundred pages). Its bounds come from the user's own pages scored as new pages would be: each
//! scored by a gate fitted without it (five folds): the adapted model applies in full from the
//! log-odds that [`FULL_QUANTILE`] of them reach, and the base alone [`RAMP`] below.

use victor_features::{PROFILE_DIMS, PageProfile, profile_names};
use victor_label::BundleImage;
use victor_label::gate::{Gate, GateFit, Logistic, PageSample, SampledSet, Term};

use crate::crf::TrainOptions;
use crate::pipeline::DataSummary;

/// The gate of a bundle trained with `opts` on the pages `data` summarises, and the base's
/// files it keeps as `base/`: when adapting with a gate (`Adapt::gate`) from a base that stores
/// a page sample; `None` otherwise. What `victor train --adapt` writes and what each fold of its
/// cross-validation labels with.
pub fn for_adaptation<'a>(
    opts: &'a TrainOptions,
    data: &DataSummary,
) -> Option<(Gate, &'a BundleImage)> {
    let a = opts.adapt.as_ref().filter(|a| a.gate)?;
    // The sample was checked as the base was loaded.
    let sample = a.base.sample.as_ref()?.profiles().ok()?;
    if sample.is_empty() || data.profiles.is_empty() {
        return None;
    }
    let user: Vec<PageProfile> = data.profiles.iter().map(|(_, p)| *p).collect();
    Some((fit_gate(&user, &sample), &a.base.image))
}

/// Most pages a bundle's [`PageSample`] holds (about 60 KB of `victor.json`); a bundle trained
/// on more stores an even spread of each set's pages, in proportion to the sets' sizes.
pub const SAMPLE_PAGES: usize = 600;

/// The L2 penalty of the gate's regression, per unit of the mean log loss (eval/adapt-gate.md).
pub const GATE_L2: f64 = 0.015;

/// The share of the user's pages (scored held out) that the adapted model applies to in full.
pub const FULL_QUANTILE: f64 = 0.2;

/// How far below the full bound, in log-odds, the adapted model's share falls to 0.
pub const RAMP: f64 = 0.5;

/// Folds in which the user's pages are scored held out.
const FOLDS: usize = 5;

/// The profiles of an even spread of `profiles` (each with its set's name, in training order),
/// at most [`SAMPLE_PAGES`] of them, each set in proportion to its pages.
pub fn sample_pages(profiles: &[(String, PageProfile)]) -> PageSample {
    let mut sets: Vec<(String, Vec<&PageProfile>)> = Vec::new();
    for (set, p) in profiles {
        match sets.iter_mut().find(|(s, _)| s == set) {
            Some((_, v)) => v.push(p),
            None => sets.push((set.clone(), vec![p])),
        }
    }
    let total = profiles.len();
    let mut picked = Vec::new();
    let mut counts = Vec::new();
    for (set, pages) in &sets {
        let n = pages.len();
        let take = if total <= SAMPLE_PAGES {
            n
        } else {
            ((n * SAMPLE_PAGES) as f64 / total as f64).round().max(1.0) as usize
        }
        .min(n);
        // Evenly spread: the pages at i * n / take.
        picked.extend((0..take).map(|i| *pages[i * n / take]));
        counts.push(SampledSet {
            set: set.clone(),
            pages: n,
            sampled: take,
        });
    }
    PageSample::new(counts, &picked)
}

/// A class-balanced logistic regression of `positive` against `negative` on profiles
/// standardised over both, with the L2 penalty `l2` on the weights (not on the bias).
pub fn fit_logistic(positive: &[PageProfile], negative: &[PageProfile], l2: f64) -> Logistic {
    let d = PROFILE_DIMS;
    let rows: Vec<(&PageProfile, f64)> = positive
        .iter()
        .map(|p| (p, 1.0))
        .chain(negative.iter().map(|p| (p, 0.0)))
        .collect();
    let n = rows.len().max(1) as f64;
    let mut mean = [0f64; PROFILE_DIMS];
    for (p, _) in &rows {
        for (m, &x) in mean.iter_mut().zip(&p.0) {
            *m += f64::from(x) / n;
        }
    }
    let mut scale = [0f64; PROFILE_DIMS];
    for (p, _) in &rows {
        for ((s, &x), m) in scale.iter_mut().zip(&p.0).zip(&mean) {
            *s += (f64::from(x) - m).powi(2) / n;
        }
    }
    for s in &mut scale {
        *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
    }
    // Each side weighs half, whatever its size.
    let (np, nn) = (positive.len().max(1) as f64, negative.len().max(1) as f64);
    let z: Vec<([f64; PROFILE_DIMS], f64, f64)> = rows
        .iter()
        .map(|(p, y)| {
            let mut v = [0f64; PROFILE_DIMS];
            for (i, x) in v.iter_mut().enumerate() {
                *x = (f64::from(p.0[i]) - mean[i]) / scale[i];
            }
            let w = if *y > 0.5 { 0.5 / np } else { 0.5 / nn };
            (v, *y, w)
        })
        .collect();
    // Newton's method on [weights..., bias]: the objective is convex, and a few steps reach it.
    let mut beta = vec![0f64; d + 1];
    for _ in 0..50 {
        let mut grad = vec![0f64; d + 1];
        let mut hess = vec![0f64; (d + 1) * (d + 1)];
        for (v, y, w) in &z {
            let s = beta[d] + v.iter().zip(&beta).map(|(x, b)| x * b).sum::<f64>();
            let p = 1.0 / (1.0 + (-s).exp());
            let (g, h) = (w * (p - y), w * p * (1.0 - p));
            for i in 0..=d {
                let xi = if i < d { v[i] } else { 1.0 };
                grad[i] += g * xi;
                for j in 0..=i {
                    let xj = if j < d { v[j] } else { 1.0 };
                    hess[i * (d + 1) + j] += h * xi * xj;
                }
            }
        }
        for i in 0..d {
            grad[i] += l2 * beta[i];
            hess[i * (d + 1) + i] += l2;
        }
        // A tiny ridge on the bias keeps the system positive definite when one side is empty.
        hess[d * (d + 1) + d] += 1e-9;
        let Some(step) = solve_symmetric(&hess, &grad, d + 1) else {
            break;
        };
        let mut moved = 0f64;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b -= s;
            moved = moved.max(s.abs());
        }
        if moved < 1e-10 {
            break;
        }
    }
    let terms = profile_names()
        .into_iter()
        .enumerate()
        .map(|(i, name)| Term {
            name,
            mean: mean[i],
            scale: scale[i],
            weight: beta[i],
        })
        .collect();
    Logistic {
        bias: beta[d],
        terms,
    }
}

/// Solves `A x = b` for a symmetric positive definite `A` (its lower triangle, row-major, `n`
/// by `n`) by Cholesky's decomposition; `None` when `A` is not positive definite.
fn solve_symmetric(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0f64; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    Some(x)
}

/// The `q` quantile of `v` (sorted in place), linear between neighbours.
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let at = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (at - lo as f64)
}

/// The gate of a bundle adapted on pages of profiles `user` from a base whose sample is
/// `base`: the regression on all of them, its bounds from the user's pages scored held out.
pub fn fit_gate(user: &[PageProfile], base: &[PageProfile]) -> Gate {
    let model = fit_logistic(user, base, GATE_L2);
    let mut held_out: Vec<f64> = Vec::with_capacity(user.len());
    if user.len() >= FOLDS {
        for k in 0..FOLDS {
            let train: Vec<PageProfile> = user
                .iter()
                .enumerate()
                .filter(|(i, _)| i % FOLDS != k)
                .map(|(_, p)| *p)
                .collect();
            let test = user.iter().enumerate().filter(|(i, _)| i % FOLDS == k);
            let m = fit_logistic(&train, base, GATE_L2);
            held_out.extend(test.map(|(_, p)| m.log_odds(p)));
        }
    } else {
        // Too few pages to hold any out: their own scores, which flatter the gate.
        held_out.extend(user.iter().map(|p| model.log_odds(p)));
    }
    let full = quantile(&mut held_out.clone(), FULL_QUANTILE);
    let none = full - RAMP;
    let user_full =
        held_out.iter().filter(|&&s| s >= full).count() as f64 / user.len().max(1) as f64;
    let base_none =
        base.iter().filter(|p| model.log_odds(p) <= none).count() as f64 / base.len().max(1) as f64;
    Gate {
        profile: victor_features::PROFILE_VERSION.to_string(),
        none,
        full,
        fitted: GateFit {
            pages: user.len(),
            base_pages: base.len(),
            l2: GATE_L2,
            user_full,
            base_none,
        },
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A profile with value `a` in its first slot and `b` in its second, the rest small noise.
    fn profile(a: f32, b: f32, seed: usize) -> PageProfile {
        let mut v = [0f32; PROFILE_DIMS];
        for (i, x) in v.iter_mut().enumerate() {
            *x = (((seed * 31 + i * 17) % 97) as f32) / 970.0;
        }
        v[0] = a;
        v[1] = b;
        PageProfile(v)
    }

    #[test]
    fn the_regression_separates_what_differs_and_ignores_noise() {
        let user: Vec<PageProfile> = (0..50).map(|i| profile(0.8, 0.1, i)).collect();
        let base: Vec<PageProfile> = (0..300)
            .map(|i| profile(0.2, 0.1 + (i % 7) as f32 * 0.01, i + 1000))
            .collect();
        let m = fit_logistic(&user, &base, GATE_L2);
        assert!(m.log_odds(&profile(0.8, 0.1, 7)) > 1.0);
        assert!(m.log_odds(&profile(0.2, 0.1, 7)) < -1.0);
        // The first value carries the separation.
        let w0 = m.terms[0].weight.abs();
        assert!(m.terms[2..].iter().all(|t| t.weight.abs() < w0), "{m:?}");
        let gate = fit_gate(&user, &base);
        assert_eq!(gate.check(), Ok(()));
        assert_eq!(gate.share(&profile(0.8, 0.1, 3)), 1.0);
        assert_eq!(gate.share(&profile(0.2, 0.1, 3)), 0.0);
        // The full bound is the FULL_QUANTILE of the held-out scores: the rest reach it.
        assert!(gate.fitted.user_full >= 1.0 - FULL_QUANTILE - 0.05);
        assert!(gate.fitted.base_none >= 0.9);
    }

    #[test]
    fn a_sample_keeps_each_set_in_proportion() {
        let mut ps = Vec::new();
        for i in 0..900 {
            ps.push(("a".to_string(), profile(0.1, 0.0, i)));
        }
        for i in 0..300 {
            ps.push(("b".to_string(), profile(0.9, 0.0, i)));
        }
        let s = sample_pages(&ps);
        assert_eq!(s.sample.pages, SAMPLE_PAGES);
        assert_eq!(
            s.sets
                .iter()
                .map(|x| (x.set.as_str(), x.pages, x.sampled))
                .collect::<Vec<_>>(),
            vec![("a", 900, 450), ("b", 300, 150)]
        );
        let small = sample_pages(&ps[..10]);
        assert_eq!(small.sample.pages, 10);
    }

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4, 2], [2, 3]] x = [2, 1] -> x = [0.5, 0]
        let x = solve_symmetric(&[4.0, 0.0, 2.0, 3.0], &[2.0, 1.0], 2).expect("solves");
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert!(solve_symmetric(&[-1.0], &[1.0], 1).is_none());
    }
}
