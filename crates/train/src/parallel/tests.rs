//! The trainer's unit tests: the lattice, weights, the prior and the blocks of work.

use crfs::Attribute;

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
