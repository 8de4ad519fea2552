//! The parallel trainer against crfs (the reference), against brute-force enumeration of
//! labelings (partial labels), and across thread counts.

use crfs::Attribute;
use crfs::train::Trainer;

// A seeded generator, so that a failing case can be replayed.
use fastrand::Rng;
use victor_train::{LbfgsParams, ParallelTrainer};

const LABELS: [&str; 3] = ["header", "text", "other"];

type Seq = (Vec<Vec<Attribute>>, Vec<Option<&'static str>>);

/// `n` sequences of `min_len..=max_len` items; each item has a few attributes out of 40, the
/// label depends on some of them (so there is something to learn); `unknown` in 0..=100 is the
/// percentage of items left unlabelled.
fn sequences(seed: u64, n: usize, min_len: usize, max_len: usize, unknown: usize) -> Vec<Seq> {
    let mut r = Rng::with_seed(seed);
    (0..n)
        .map(|_| {
            let len = min_len + r.usize(..max_len - min_len + 1);
            let mut xs = Vec::new();
            let mut ys = Vec::new();
            for _ in 0..len {
                let k = 2 + r.usize(..4);
                let ids: Vec<usize> = (0..k).map(|_| r.usize(..40)).collect();
                let y = if r.usize(..5) == 0 {
                    LABELS[r.usize(..3)]
                } else {
                    LABELS[ids[0] % 3]
                };
                xs.push(
                    ids.iter()
                        .map(|i| Attribute::new(format!("f{i}"), 1.0))
                        .collect(),
                );
                ys.push((r.usize(..100) >= unknown).then_some(y));
            }
            (xs, ys)
        })
        .collect()
}

/// A feature record of a model file: type, source, destination, weight.
type Record = (u32, u32, u32, f64);

/// The FEAT records of a CRFsuite model file, and the bytes after them.
fn features_of(model: &[u8]) -> (Vec<Record>, Vec<u8>) {
    let u32_at = |o: usize| u32::from_le_bytes(model[o..o + 4].try_into().expect("4 bytes"));
    let off = u32_at(28) as usize;
    assert_eq!(&model[off..off + 4], b"FEAT");
    let n = u32_at(off + 8) as usize;
    let recs = (0..n)
        .map(|i| {
            let o = off + 12 + 20 * i;
            let w = f64::from_le_bytes(model[o + 12..o + 20].try_into().expect("8 bytes"));
            (u32_at(o), u32_at(o + 4), u32_at(o + 8), w)
        })
        .collect();
    (recs, model[off + 12 + 20 * n..].to_vec())
}

#[test]
fn same_model_as_crfs_after_the_same_steps() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = sequences(7, 40, 3, 12, 0);
    for (c2, iters) in [(1.0, 30), (10.0, 100)] {
        let mut reference = Trainer::lbfgs()
            .with_c2(c2)
            .expect("c2")
            .with_max_iterations(iters)
            .expect("iterations");
        let mut parallel = ParallelTrainer::new();
        for (xs, ys) in &data {
            let ys: Vec<&str> = ys.iter().map(|y| y.expect("labelled")).collect();
            reference.append(xs, &ys).expect("append");
            parallel.append(xs, &ys).expect("append");
        }
        let a = dir.path().join("crfs.crfsuite");
        let b = dir.path().join("parallel.crfsuite");
        reference.train(&a).expect("crfs trains");
        // crfs takes `iters - 1` steps and never applies the delta test.
        let params = LbfgsParams {
            c2,
            max_iterations: iters - 1,
            period: 0,
            ..LbfgsParams::default()
        };
        let out = parallel.train(&params, &b, |_, _| {}).expect("trains");
        assert!(out.warning.is_none(), "{:?}", out.warning);
        assert!(out.iterations < iters && !out.delta_stop);
        let (fa, rest_a) = features_of(&std::fs::read(&a).expect("model"));
        let (fb, rest_b) = features_of(&std::fs::read(&b).expect("model"));
        assert_eq!(fa.len(), fb.len(), "number of features (c2 {c2})");
        for (x, y) in fa.iter().zip(&fb) {
            assert_eq!((x.0, x.1, x.2), (y.0, y.1, y.2), "feature order");
            assert!(
                (x.3 - y.3).abs() <= 1e-6 * x.3.abs().max(1e-3),
                "weight {:?}: crfs {} parallel {} (c2 {c2})",
                (x.0, x.1, x.2),
                x.3,
                y.3
            );
        }
        // Dictionaries and feature references: byte for byte.
        assert_eq!(rest_a, rest_b, "model file after the features");
        // The loss at crfs's weights is the parallel trainer's final loss.
        let (wb, ob) = parallel.weights(&params).expect("weights");
        let wa: Vec<f64> = fa.iter().map(|f| f.3).collect();
        assert_eq!(wa.len(), wb.len());
        let (la, _) = parallel.objective(&wa, c2, 0.0).expect("objective");
        assert!(
            (la - ob.loss).abs() <= 1e-6 * la.abs(),
            "loss at crfs's weights {la}, parallel {}",
            ob.loss
        );
        // And victor's own reader loads the model.
        let bytes = std::fs::read(&b).expect("model");
        assert!(crfs::Model::new(&bytes).is_ok());
    }
}

/// log sum exp.
fn lse(v: &[f64]) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

#[test]
fn partial_likelihood_equals_brute_force_enumeration() {
    let data = sequences(11, 12, 1, 5, 40);
    let mut t = ParallelTrainer::new();
    for (xs, ys) in &data {
        t.append_partial(xs, ys).expect("append");
    }
    let feats = t.features(0.0).expect("features");
    let mut r = Rng::with_seed(3);
    let w: Vec<f64> = feats
        .iter()
        .map(|_| (r.usize(..2001) as f64 - 1000.0) / 500.0)
        .collect();
    let state = |attr: &str, y: &str| -> f64 {
        feats
            .iter()
            .zip(&w)
            .filter(|((tr, s, d), _)| !tr && s == attr && d == y)
            .map(|(_, w)| w)
            .sum()
    };
    let trans = |p: &str, y: &str| -> f64 {
        feats
            .iter()
            .zip(&w)
            .filter(|((tr, s, d), _)| *tr && s == p && d == y)
            .map(|(_, w)| w)
            .sum()
    };
    let mut expected = 0.0;
    for (xs, ys) in &data {
        if ys.iter().all(Option::is_none) {
            continue;
        }
        let n = xs.len();
        let mut all = Vec::new();
        let mut agree = Vec::new();
        for code in 0..3usize.pow(n as u32) {
            let path: Vec<&str> = (0..n)
                .map(|i| LABELS[code / 3usize.pow(i as u32) % 3])
                .collect();
            let mut score = 0.0;
            for i in 0..n {
                score += xs[i].iter().map(|a| state(&a.name, path[i])).sum::<f64>();
                if i > 0 {
                    score += trans(path[i - 1], path[i]);
                }
            }
            all.push(score);
            if ys.iter().zip(&path).all(|(y, p)| y.is_none_or(|y| y == *p)) {
                agree.push(score);
            }
        }
        expected += lse(&all) - lse(&agree);
    }
    let (got, grad) = t.objective(&w, 0.0, 0.0).expect("objective");
    assert!(
        (got - expected).abs() <= 1e-9 * expected.abs(),
        "forward-backward {got}, enumeration {expected}"
    );
    // The gradient agrees with central differences of the objective.
    for f in (0..w.len()).step_by(7) {
        let h = 1e-5;
        let mut wp = w.clone();
        wp[f] += h;
        let mut wm = w.clone();
        wm[f] -= h;
        let fp = t.objective(&wp, 0.0, 0.0).expect("objective").0;
        let fm = t.objective(&wm, 0.0, 0.0).expect("objective").0;
        let numeric = (fp - fm) / (2.0 * h);
        assert!(
            (numeric - grad[f]).abs() <= 1e-5 * numeric.abs().max(1.0),
            "feature {f}: gradient {} vs numeric {numeric}",
            grad[f]
        );
    }
}

#[test]
fn fully_labelled_pages_give_the_same_likelihood_through_the_partial_path() {
    let data = sequences(5, 20, 2, 9, 0);
    let mut full = ParallelTrainer::new();
    let mut partial = ParallelTrainer::new();
    for (xs, ys) in &data {
        let labels: Vec<&str> = ys.iter().map(|y| y.expect("labelled")).collect();
        full.append(xs, &labels).expect("append");
        partial.append_partial(xs, ys).expect("append");
    }
    let params = LbfgsParams {
        c2: 1.0,
        max_iterations: 20,
        ..LbfgsParams::default()
    };
    let (wa, oa) = full.weights(&params).expect("trains");
    let (wb, ob) = partial.weights(&params).expect("trains");
    assert_eq!(wa, wb);
    assert_eq!(oa.loss, ob.loss);
}

#[test]
fn the_model_does_not_depend_on_the_thread_count() {
    let data = sequences(13, 300, 2, 30, 10);
    let mut t = ParallelTrainer::new();
    for (xs, ys) in &data {
        t.append_partial(xs, ys).expect("append");
    }
    let params = LbfgsParams {
        c2: 1.0,
        max_iterations: 15,
        ..LbfgsParams::default()
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| t.weights(&params).expect("trains"))
    };
    let (w1, o1) = run(1);
    for threads in [2, 3, 5] {
        let (w, o) = run(threads);
        assert_eq!(w1, w, "{threads} threads");
        assert_eq!(o1.loss, o.loss);
    }
}

#[test]
fn unknown_only_and_mismatched_sequences() {
    let mut t = ParallelTrainer::new();
    let xs = vec![vec![Attribute::new("a", 1.0)]; 2];
    t.append_partial(&xs, &[None, None]).expect("ignored");
    assert_eq!(t.sequences(), 0);
    assert!(t.append(&xs, &["text"]).is_err());
    let params = LbfgsParams::default();
    assert!(
        t.weights(&params).is_err(),
        "no data is an error, not a panic"
    );
}
