//! Shared fixtures for the `crf_*` tests: a synthetic three-label page task, a model trained on
//! it with `crfs`, brute-force inference, and file surgery helpers.
//!
//! The labels first appear in the order `text`, `other`, `header` (not alphabetical), so a
//! reader that assumed sorted labels would fail the tests.

#![allow(dead_code)]

use std::path::Path;

use crfs::Attribute;
use crfs::train::Trainer;
use ndarray::{Array2, ArrayView2};
use victor_label::CrfModel;

/// Label names in order of first appearance in the training data: the model's id order.
pub const LABELS_IN_ID_ORDER: [&str; 3] = ["text", "other", "header"];

/// A page: one attribute-name list and one label per block.
pub type Page = (Vec<Vec<String>>, Vec<&'static str>);

/// A small deterministic generator (64-bit LCG), so tests need no `rand`.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_f64() * n as f64) as usize).min(n - 1)
    }

    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }
}

/// Attribute names of a block with the given label, drawn with noise.
fn block_attrs(rng: &mut Rng, label: &str, first: bool) -> Vec<String> {
    let (heading, long, links, stop) = match label {
        "header" => (0.8, 0.05, 0.1, 0.2),
        "text" => (0.05, 0.7, 0.1, 0.7),
        _ => (0.05, 0.1, 0.6, 0.15),
    };
    let mut attrs = Vec::new();
    if first {
        attrs.push("pos=first".to_owned());
    }
    if rng.chance(heading) {
        attrs.push("tag=h".to_owned());
    }
    attrs.push(
        if rng.chance(long) {
            "len=long"
        } else {
            "len=short"
        }
        .to_owned(),
    );
    if rng.chance(links) {
        attrs.push("links=many".to_owned());
    }
    if rng.chance(stop) {
        attrs.push("stop=high".to_owned());
    }
    attrs.push(format!("noise={}", rng.below(5)));
    attrs
}

/// Next label of the hidden Markov chain.
fn next_label(rng: &mut Rng, prev: &str) -> &'static str {
    let u = rng.next_f64();
    match prev {
        "header" => {
            if u < 0.8 {
                "text"
            } else if u < 0.9 {
                "other"
            } else {
                "header"
            }
        }
        "text" => {
            if u < 0.75 {
                "text"
            } else if u < 0.9 {
                "other"
            } else {
                "header"
            }
        }
        _ => {
            if u < 0.7 {
                "other"
            } else if u < 0.85 {
                "text"
            } else {
                "header"
            }
        }
    }
}

/// `count` synthetic pages of `len` blocks; the first page starts text, other, header.
pub fn synthetic_pages(seed: u64, count: usize, len: usize) -> Vec<Page> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|p| {
            let mut labels: Vec<&'static str> = Vec::with_capacity(len);
            for t in 0..len {
                let label = match (p, t) {
                    (0, 0..=2) => LABELS_IN_ID_ORDER[t],
                    (_, 0) => "other",
                    _ => next_label(&mut rng, labels[t - 1]),
                };
                labels.push(label);
            }
            let items = labels
                .iter()
                .enumerate()
                .map(|(t, l)| block_attrs(&mut rng, l, t == 0))
                .collect();
            (items, labels)
        })
        .collect()
}

/// A random page of `len` blocks (labels discarded), for inference tests.
pub fn random_items(rng: &mut Rng, len: usize) -> Vec<Vec<String>> {
    let mut label = "other";
    (0..len)
        .map(|t| {
            label = next_label(rng, label);
            let mut attrs = block_attrs(rng, label, t == 0);
            if rng.chance(0.1) {
                attrs.push("never-seen-in-training".to_owned());
            }
            attrs
        })
        .collect()
}

/// `crfs` attributes (value 1) of one block.
pub fn to_attributes(item: &[String]) -> Vec<Attribute> {
    item.iter()
        .map(|a| Attribute::new(a.as_str(), 1.0))
        .collect()
}

/// Trains an L-BFGS model on `pages` and returns the model file's bytes.
pub fn train(pages: &[Page], path: &Path) -> Vec<u8> {
    let mut trainer = Trainer::lbfgs();
    for (items, labels) in pages {
        let xseq: Vec<Vec<Attribute>> = items.iter().map(|i| to_attributes(i)).collect();
        trainer.append(&xseq, labels).expect("append");
    }
    trainer.params_mut().set_c2(0.5).expect("c2");
    trainer
        .params_mut()
        .set_max_iterations(60)
        .expect("iterations");
    trainer.train(path).expect("train");
    std::fs::read(path).expect("read model")
}

/// The standard test model: 40 synthetic pages of 25 blocks.
pub fn trained_model() -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    train(
        &synthetic_pages(42, 40, 25),
        &dir.path().join("model.crfsuite"),
    )
}

/// Attribute ids of a block, skipping names the model does not know (as `crfs` does).
pub fn ids(model: &CrfModel, item: &[String]) -> Vec<u32> {
    item.iter().filter_map(|a| model.attr_id(a)).collect()
}

/// State scores of a page through the public helper.
pub fn scores(model: &CrfModel, items: &[Vec<String>]) -> Array2<f64> {
    let ids: Vec<Vec<u32>> = items.iter().map(|i| ids(model, i)).collect();
    let mut out = Array2::zeros((0, 0));
    model.state_scores(&ids, &mut out).expect("state scores");
    out
}

/// Exact inference by enumerating every label sequence: (marginals, ln Z, best path).
pub fn brute_force(model: &CrfModel, scores: ArrayView2<f64>) -> (Array2<f64>, f64, Vec<usize>) {
    let (n, l) = scores.dim();
    let trans = model.transitions();
    let total = l.pow(n as u32);
    let mut path = vec![0usize; n];
    let mut all = Vec::with_capacity(total);
    for code in 0..total {
        let mut c = code;
        for y in path.iter_mut() {
            *y = c % l;
            c /= l;
        }
        let mut score = 0.0;
        for t in 0..n {
            score += scores[[t, path[t]]];
            if t > 0 {
                score += trans[[path[t - 1], path[t]]];
            }
        }
        all.push((score, path.clone()));
    }
    let max = all
        .iter()
        .map(|(s, _)| *s)
        .fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = all.iter().map(|(s, _)| (s - max).exp()).sum();
    let log_z = max + sum.ln();
    let mut marginals = Array2::zeros((n, l));
    for (score, path) in &all {
        let p = (score - log_z).exp();
        for (t, &y) in path.iter().enumerate() {
            marginals[[t, y]] += p;
        }
    }
    let best = all
        .iter()
        .fold(None::<&(f64, Vec<usize>)>, |best, cand| match best {
            Some(b) if b.0 >= cand.0 => Some(b),
            _ => Some(cand),
        })
        .map(|(_, p)| p.clone())
        .unwrap_or_default();
    (marginals, log_z, best)
}

/// Offset of the first FEAT record and the number of records of a model file.
pub fn feat_records(bytes: &[u8]) -> (usize, usize) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let off = word(28);
    assert_eq!(&bytes[off..off + 4], b"FEAT");
    (off + 12, word(off + 8))
}

/// A copy of a model file with every weight multiplied by `factor`.
pub fn scale_weights(bytes: &[u8], factor: f64) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let (start, count) = feat_records(bytes);
    for k in 0..count {
        let at = start + 20 * k + 12;
        let w = f64::from_le_bytes(out[at..at + 8].try_into().unwrap());
        out[at..at + 8].copy_from_slice(&(w * factor).to_le_bytes());
    }
    out
}
