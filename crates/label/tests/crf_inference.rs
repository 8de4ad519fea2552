//! Inference against exact enumeration and against `crfs`'s own tagger, on models trained here.

mod crf_support;

use std::time::Instant;

use crf_support::{
    Rng, brute_force, random_items, scale_weights, scores, to_attributes, trained_model,
};
use ndarray::{Array2, ShapeBuilder, array};
use victor_label::{CrfModel, InferenceError, Workspace};

/// Viterbi labels from `crfs`'s tagger, as ids of `model`.
fn crfs_viterbi(bytes: &[u8], model: &CrfModel, items: &[Vec<String>]) -> Vec<usize> {
    let reference = crfs::Model::new(bytes).unwrap();
    let tagger = reference.tagger().unwrap();
    let xseq: Vec<Vec<crfs::Attribute>> = items.iter().map(|i| to_attributes(i)).collect();
    tagger
        .tag(&xseq)
        .unwrap()
        .into_iter()
        .map(|name| model.label_id(name).unwrap())
        .collect()
}

#[test]
fn marginals_and_viterbi_equal_brute_force_enumeration() {
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let mut rng = Rng(5);
    let mut ws = Workspace::new();
    let mut marginals = Array2::zeros((0, 0));
    let mut checked = 0;
    for n in 1..=6 {
        for _ in 0..20 {
            let items = random_items(&mut rng, n);
            let s = scores(&model, &items);
            let (exact, exact_log_z, exact_best) = brute_force(&model, s.view());
            let log_z = model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
            assert_eq!(marginals.dim(), (n, 3));
            assert!((log_z - exact_log_z).abs() < 1e-12 * exact_log_z.abs().max(1.0));
            for t in 0..n {
                assert!((marginals.row(t).sum() - 1.0).abs() < 1e-12);
                for y in 0..3 {
                    let (ours, truth) = (marginals[[t, y]], exact[[t, y]]);
                    assert!(
                        (ours - truth).abs() < 1e-12,
                        "n={n} t={t} y={y}: {ours} vs {truth}"
                    );
                }
            }
            let path = model.viterbi(s.view(), &mut ws).unwrap();
            assert_eq!(path, exact_best);
            assert_eq!(path, crfs_viterbi(&bytes, &model, &items));
            checked += 1;
        }
    }
    assert_eq!(checked, 120);
}

#[test]
fn viterbi_equals_the_crfs_tagger_on_long_pages() {
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let mut rng = Rng(11);
    let mut ws = Workspace::new();
    let mut path = Vec::new();
    let mut marginals = Array2::zeros((0, 0));
    for _ in 0..50 {
        let n = 1 + rng.below(300);
        let items = random_items(&mut rng, n);
        let s = scores(&model, &items);
        let best = model.viterbi_into(s.view(), &mut ws, &mut path).unwrap();
        assert_eq!(path, crfs_viterbi(&bytes, &model, &items));
        // The returned score is the path's score, and no more than ln Z.
        let trans = model.transitions();
        let mut score = s[[0, path[0]]];
        for t in 1..n {
            score += s[[t, path[t]]] + trans[[path[t - 1], path[t]]];
        }
        assert!((best - score).abs() < 1e-9);
        let log_z = model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
        assert!(best <= log_z);
    }
}

/// 100,000 positions with every weight multiplied by 1000 (state scores in the thousands):
/// a naive `exp` would overflow at the first position, an unscaled forward pass at the second.
#[test]
fn long_sequences_with_huge_weights_stay_normalised() {
    let bytes = scale_weights(&trained_model(), 1000.0);
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let mut rng = Rng(3);
    let items = random_items(&mut rng, 100_000);
    let s = scores(&model, &items);
    let max_score = s.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(max_score > 1000.0, "weights not large: {max_score}");

    let mut ws = Workspace::new();
    let mut marginals = Array2::zeros((0, 0));
    let start = Instant::now();
    let log_z = model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
    let elapsed = start.elapsed();
    assert!(log_z.is_finite());
    for row in marginals.rows() {
        assert!(row.iter().all(|p| (0.0..=1.0 + 1e-12).contains(p)));
        assert!((row.sum() - 1.0).abs() < 1e-12);
    }

    let path = model.viterbi(s.view(), &mut ws).unwrap();
    assert_eq!(path, crfs_viterbi(&bytes, &model, &items));
    // With weights this large the posterior is nearly certain: the best path carries almost all
    // the probability mass, and ln Z is within ln(3) per position of its score.
    let agree = path
        .iter()
        .enumerate()
        .filter(|&(t, &y)| marginals[[t, y]] > 0.5)
        .count();
    assert!(agree as f64 > 0.99 * path.len() as f64, "{agree}");
    println!(
        "100000 positions, |score| up to {max_score:.0}: marginals in {:.1} ms ({:.3} us/position), \
         Viterbi path mass > 0.5 at {agree} positions",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e6 / 1e5
    );
}

/// The common case: a model with ordinary weights on a long page takes the fast scaled path.
#[test]
fn long_sequences_with_ordinary_weights() {
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let items = random_items(&mut Rng(21), 100_000);
    let s = scores(&model, &items);
    let mut ws = Workspace::new();
    let mut marginals = Array2::zeros((0, 0));
    model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
    let start = Instant::now();
    let log_z = model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
    let fb = start.elapsed();
    let start = Instant::now();
    let path = model.viterbi(s.view(), &mut ws).unwrap();
    let viterbi = start.elapsed();
    assert!(log_z.is_finite() && log_z > 0.0);
    for row in marginals.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-12);
    }
    assert_eq!(path, crfs_viterbi(&bytes, &model, &items));
    println!(
        "100000 positions, ordinary weights: marginals {:.3} us/position, Viterbi {:.3} us/position",
        fb.as_secs_f64() * 10.0,
        viterbi.as_secs_f64() * 10.0
    );
}

#[test]
fn state_scores_sum_the_weights_of_each_positions_attributes() {
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let w = model.state_weights();
    let a = model.attr_id("tag=h").unwrap();
    let b = model.attr_id("len=long").unwrap();
    let items: Vec<Vec<u32>> = vec![vec![a, b], vec![], vec![b, b]];
    let mut out = Array2::from_elem((7, 1), 9.0);
    model.state_scores(&items, &mut out).unwrap();
    assert_eq!(out.dim(), (3, 3));
    for y in 0..3 {
        assert_eq!(out[[0, y]], w[[a as usize, y]] + w[[b as usize, y]]);
        assert_eq!(out[[1, y]], 0.0);
        assert_eq!(out[[2, y]], 2.0 * w[[b as usize, y]]);
    }

    let (first, second) = ([a], [b, 11]);
    let bad: Vec<&[u32]> = vec![&first, &second];
    assert_eq!(
        model.state_scores(&bad, &mut out),
        Err(InferenceError::UnknownAttribute {
            attr: 11,
            num_attrs: 11,
            position: Some(1)
        })
    );
    assert_eq!(
        model.state_scores(&bad, &mut out).unwrap_err().to_string(),
        "attribute id 11 out of range (the model has 11 attributes) at position 1"
    );

    // One row at a time; on error the row is untouched.
    let mut row = array![1.0, 2.0, 3.0];
    model.add_state_scores(&[a], row.view_mut()).unwrap();
    assert_eq!(row[2], 3.0 + w[[a as usize, 2]]);
    let before = row.clone();
    assert!(model.add_state_scores(&[a, 99], row.view_mut()).is_err());
    assert_eq!(row, before);
    let mut short = array![0.0, 0.0];
    assert_eq!(
        model.add_state_scores(&[a], short.view_mut()),
        Err(InferenceError::LabelCount {
            expected: 3,
            found: 2
        })
    );
}

/// Score matrices need not be contiguous: a transposed (column-major) view gives the same
/// results.
#[test]
fn any_memory_layout_of_scores_is_accepted() {
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let items = random_items(&mut Rng(8), 40);
    let s = scores(&model, &items);
    let mut column_major = Array2::zeros((40, 3).f());
    column_major.assign(&s);
    let view = column_major.view();
    assert!(view.as_slice().is_none());
    let mut ws = Workspace::new();
    let (mut a, mut b) = (Array2::zeros((0, 0)), Array2::zeros((0, 0)));
    let za = model.marginals(s.view(), &mut ws, &mut a).unwrap();
    let zb = model.marginals(view, &mut ws, &mut b).unwrap();
    assert_eq!(za, zb);
    assert_eq!(a, b);
    assert_eq!(
        model.viterbi(s.view(), &mut ws).unwrap(),
        model.viterbi(view, &mut ws).unwrap()
    );
}
