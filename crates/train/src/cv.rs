//! Cross-validation by page or by site: split, train each fold on the others, label its pages,
//! score.
//!
//! Folds are trained in parallel up to a limit (each fold's trainer holds (k-1)/k of the data,
//! so the limit bounds memory). Every held-out page is scored at every threshold of a grid and
//! with Viterbi decoding ([`Assessment`]): the Victor paper's Table 2 figures come from the block
//! counts, the recommended threshold from the text-level scores. With a share below 1
//! ([`CvOptions::train_share`]), each fold trains on part of the other folds' pages
//! ([`training_subset`]): runs with growing shares over the same folds make a learning curve.
//! Which pages a share takes is [`CvOptions::curve_order`]: a seeded draw, or the pages a score
//! ranks first (a model's expected F1, lowest first: the pages active learning would have had
//! annotated first); the folds, and so the held-out pages, do not depend on it.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use victor_annotations::PageRef;
use victor_features::Segmenter;
use victor_label::{Labeler, Model};

use crate::assess::{Assessment, Scratch};
use crate::bundle::make_meta;
use crate::crf::TrainOptions;
use crate::pipeline::{Event, Setup, TrainError, prepare, train_crf};

/// Cross-validation settings.
#[derive(Clone, Debug)]
pub struct CvOptions {
    /// Number of folds (at least 2).
    pub folds: usize,
    /// Seed of the page shuffle.
    pub seed: u64,
    /// Thresholds to score.
    pub thresholds: Vec<f64>,
    /// Folds trained at the same time.
    pub parallel: usize,
    /// Calibrations expected-F1 decoding is also scored with (none: raw marginals only).
    pub calibrations: Vec<victor_label::Calibration>,
    /// Keep the pages of a site in one fold (`split_groups` over
    /// [`PageRef::site`](victor_annotations::PageRef::site)) instead of dealing pages
    /// out one by one.
    pub by_site: bool,
    /// Keep each fold's model bundle in `DIR/fold-K` (K from 1), with the ids of the pages it
    /// did not train on in `DIR/fold-K/held-out.txt`, one a line: to label those pages again,
    /// with other decodings or other tools.
    pub keep_models: Option<std::path::PathBuf>,
    /// What a kept fold's bundle may replace at `DIR/fold-K` (see
    /// [`check_replaceable`](crate::bundle::check_replaceable)).
    pub replace: crate::bundle::Replace,
    /// Share of each fold's training pages to train on, in (0, 1]; 1 trains on all of them. A
    /// smaller share takes the pages `training_subset` picks, so the pages of a smaller share
    /// are among those of a larger one and every share scores the same held-out pages: runs with
    /// growing shares make a learning curve.
    pub train_share: f64,
    /// Which of a fold's training pages a share below 1 takes (`curve_subset`). The folds do
    /// not depend on it, so curves in different orders score the same held-out pages.
    pub curve_order: CurveOrder,
}

/// In which order a fold's training pages enter a learning curve: a share takes the first
/// pages of this order, so the pages of a smaller share are among those of a larger one.
#[derive(Clone, Debug, PartialEq)]
pub enum CurveOrder {
    /// A seeded shuffle of each fold's training pages (`training_subset`, the seed mixed
    /// with the fold's number). With the seed of the folds, it is the draw `victor cv
    /// --learning-curve` has always made; other seeds draw other pages over the same folds.
    Random {
        /// Seed of the draw.
        seed: u64,
    },
    /// By a score per page, lowest first (ties in page order): one score for each page given
    /// to [`cross_validate`], in the same order. A model's expected text-level F1
    /// (`victor_label::Labeler::expected_f1`) makes it the order of uncertainty sampling.
    Ranked(std::sync::Arc<Vec<f64>>),
}

/// The outcome of one fold.
#[derive(Clone, Debug)]
pub struct FoldResult {
    /// Fold number (0-based).
    pub fold: usize,
    /// Pages trained on.
    pub train_pages: usize,
    /// Blocks of the pages trained on (what annotating them took, roughly).
    pub train_blocks: usize,
    /// Pages scored.
    pub test_pages: usize,
    /// Training time, seconds.
    pub seconds: f64,
    /// Ids of the pages trained on (those skipped included), in page order.
    pub train_ids: Vec<String>,
    /// Ids of the held-out pages, in page order (those not scored included).
    pub test_ids: Vec<String>,
    /// Scores of the held-out pages.
    pub assessment: Assessment,
}

/// Progress of a cross-validation.
#[derive(Clone, Debug)]
pub enum CvEvent {
    /// A fold finished.
    FoldDone {
        /// Fold number, from 0 (the command line shows it from 1, as `DIR/fold-K` does).
        fold: usize,
        /// Its training time.
        seconds: f64,
    },
    /// The folds are made (sent once, before training).
    Folds {
        /// Pages per fold.
        sizes: Vec<usize>,
        /// Distinct sites, with `by_site` (0 otherwise).
        sites: usize,
        /// Pages without a known site (each its own group), with `by_site`.
        without_site: usize,
    },
    /// A page could not be loaded.
    Skipped {
        /// Page id.
        id: String,
        /// Why.
        reason: String,
    },
}

/// Fold of every page: a seeded shuffle dealt round-robin, so fold sizes differ by at most one.
pub(crate) fn split_folds(n: usize, folds: usize, seed: u64) -> Vec<usize> {
    let folds = folds.max(1);
    let mut fold = vec![0; n];
    for (k, &i) in shuffled(n, seed).iter().enumerate() {
        fold[i] = k % folds;
    }
    fold
}

/// Fold of every page when pages with the same key must share a fold: the groups (a page
/// without a key is a group of its own) in a seeded shuffle, then largest first, each to the
/// fold with the fewest pages so far (the first such fold on ties). Fold sizes stay close
/// unless one group is larger than a fold should be.
pub(crate) fn split_groups(keys: &[Option<String>], folds: usize, seed: u64) -> Vec<usize> {
    let folds = folds.max(1);
    let mut index: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        match key {
            Some(k) => {
                let g = *index.entry(k.as_str()).or_insert_with(|| {
                    groups.push(Vec::new());
                    groups.len() - 1
                });
                groups[g].push(i);
            }
            None => groups.push(vec![i]),
        }
    }
    let order = shuffled(groups.len(), seed);
    let mut order: Vec<&Vec<usize>> = order.iter().map(|&g| &groups[g]).collect();
    order.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let mut size = vec![0usize; folds];
    let mut fold = vec![0; keys.len()];
    for g in order {
        let f = (0..folds).min_by_key(|&f| size[f]).unwrap_or(0);
        size[f] += g.len();
        for &i in g {
            fold[i] = f;
        }
    }
    fold
}

/// Which of a fold's `n` training pages to train on when only `share` of them are wanted: the
/// first `ceil(share * n)` (at least one) of a shuffle seeded by `seed`, in their original
/// order. The shuffle does not depend on `share`, so the subsets of growing shares are nested.
pub(crate) fn training_subset(n: usize, share: f64, seed: u64) -> Vec<usize> {
    if share >= 1.0 || n == 0 {
        return (0..n).collect();
    }
    let k = ((share.max(0.0) * n as f64).ceil() as usize).clamp(1, n);
    let mut pick = shuffled(n, seed);
    pick.truncate(k);
    pick.sort_unstable();
    pick
}

/// Which of a fold's training pages to train on at `share`: `others` are the fold's training
/// pages (indices into the pages given to [`cross_validate`], in page order) and the result
/// indexes `others`, in its order. [`CurveOrder::Random`] is [`training_subset`] with a seed
/// of the fold's own; [`CurveOrder::Ranked`] takes the first `ceil(share * n)` (at least one)
/// by score, lowest first (a page without a score, or a NaN one, last). Either way the subsets
/// of growing shares are nested.
pub(crate) fn curve_subset(
    others: &[usize],
    share: f64,
    fold: usize,
    order: &CurveOrder,
) -> Vec<usize> {
    let n = others.len();
    match order {
        CurveOrder::Random { seed } => {
            let subset_seed = seed ^ (fold as u64 + 1).wrapping_mul(0xa076_1d64_78bd_642f);
            training_subset(n, share, subset_seed)
        }
        CurveOrder::Ranked(scores) => {
            if share >= 1.0 || n == 0 {
                return (0..n).collect();
            }
            let k = ((share.max(0.0) * n as f64).ceil() as usize).clamp(1, n);
            let score = |i: usize| {
                scores
                    .get(others[i])
                    .copied()
                    .filter(|s| !s.is_nan())
                    .unwrap_or(f64::INFINITY)
            };
            let mut pick: Vec<usize> = (0..n).collect();
            // Stable: equal scores keep page order.
            pick.sort_by(|&a, &b| score(a).total_cmp(&score(b)));
            pick.truncate(k);
            pick.sort_unstable();
            pick
        }
    }
}

/// `0..n` in a seeded Fisher-Yates shuffle.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    for i in (1..n).rev() {
        // splitmix64
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let j = (z % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The fold of every page (by site when `cv.by_site`: a site's pages stay in one fold), with
/// the number of distinct sites and of pages without one (0 and 0 unless by site).
fn assign_folds(pages: &[PageRef], folds: usize, cv: &CvOptions) -> (Vec<usize>, usize, usize) {
    if !cv.by_site {
        return (split_folds(pages.len(), folds, cv.seed), 0, 0);
    }
    let keys: Vec<Option<String>> = pages.par_iter().map(|p| p.site().ok().flatten()).collect();
    let mut distinct: Vec<&str> = keys.iter().flatten().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let without = keys.iter().filter(|k| k.is_none()).count();
    (split_groups(&keys, folds, cv.seed), distinct.len(), without)
}

/// Scores a fold's `model` on its held-out pages `test`, in parallel: the assessment (the
/// pages' parts merged in page order) and the pages scored. A partially labelled page is not
/// scored (the scores need a label on every block); one that cannot be read or labelled is
/// reported as skipped.
fn score_fold(
    test: &[&PageRef],
    model: &Model,
    setup: Setup<'_>,
    cv: &CvOptions,
    on: &(dyn Fn(CvEvent) + Sync),
) -> (Assessment, usize) {
    let scored = AtomicUsize::new(0);
    let parts: Vec<Assessment> = test
        .par_iter()
        .map_init(
            || {
                (
                    Segmenter::new(),
                    Labeler::new(model),
                    Scratch::default(),
                    Vec::new(),
                    Vec::new(),
                )
            },
            |(seg, labeler, scratch, probs, vit), r| {
                let mut a =
                    Assessment::with_calibrations(cv.thresholds.clone(), cv.calibrations.clone());
                match prepare(r, seg, setup.extractor) {
                    // Partially labelled pages train the folds but are not scored: the
                    // scores need a label on every block.
                    Ok(p) if p.is_partial() => {}
                    Ok(p) => {
                        let inferred = labeler
                            .probabilities(&p.page, &p.table, probs)
                            .and_then(|()| labeler.viterbi(&p.page, &p.table, vit));
                        match inferred {
                            Ok(()) => match a.add_page(&p.page, &p.labels, probs, vit, scratch) {
                                Ok(()) => {
                                    scored.fetch_add(1, Ordering::Relaxed);
                                }
                                Err(e) => on(CvEvent::Skipped {
                                    id: r.id.clone(),
                                    reason: format!("held out, not scored: {e}"),
                                }),
                            },
                            Err(e) => on(CvEvent::Skipped {
                                id: r.id.clone(),
                                reason: format!("held out, not scored: {e}"),
                            }),
                        }
                    }
                    Err(e) => on(CvEvent::Skipped {
                        id: r.id.clone(),
                        reason: e.to_string(),
                    }),
                }
                a
            },
        )
        .collect();
    let mut assessment =
        Assessment::with_calibrations(cv.thresholds.clone(), cv.calibrations.clone());
    for p in &parts {
        assessment.merge(p);
    }
    (assessment, scored.load(Ordering::Relaxed))
}

/// Runs a k-fold cross-validation over `pages`.
pub fn cross_validate(
    pages: &[PageRef],
    setup: Setup<'_>,
    opts: &TrainOptions,
    cv: &CvOptions,
    on: &(dyn Fn(CvEvent) + Sync),
) -> Result<Vec<FoldResult>, TrainError> {
    let folds = cv.folds.max(2).min(pages.len().max(2));
    let (assign, sites, without_site) = assign_folds(pages, folds, cv);
    let mut sizes = vec![0; folds];
    for &f in &assign {
        sizes[f] += 1;
    }
    on(CvEvent::Folds {
        sizes,
        sites,
        without_site,
    });
    let mut opts = opts.clone();
    opts.verbose = false;
    let run_fold = |fold: usize| -> Result<FoldResult, TrainError> {
        let others: Vec<usize> = (0..pages.len()).filter(|&i| assign[i] != fold).collect();
        let train: Vec<PageRef> = curve_subset(&others, cv.train_share, fold, &cv.curve_order)
            .into_iter()
            .map(|i| pages[others[i]].clone())
            .collect();
        let test: Vec<&PageRef> = pages
            .iter()
            .zip(&assign)
            .filter(|(_, f)| **f == fold)
            .map(|(p, _)| p)
            .collect();
        let dir = tempfile::tempdir().map_err(|source| TrainError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
        let model_path = dir.path().join(victor_label::MODEL_FILE);
        let note = |e: Event| {
            if let Event::Skipped { id, reason } = e {
                on(CvEvent::Skipped { id, reason });
            }
        };
        let data = train_crf(&train, setup, &opts, &model_path, &note)?;
        let mut meta = make_meta(setup, &opts, &data, Vec::new(), None, String::new());
        // Adapting with a gate, each fold is gated as the final bundle will be: its gate fitted
        // on the fold's training pages, its base the bundle adapted.
        let gated = crate::gate::for_adaptation(&opts, &data);
        let meta_json = serde_json::to_string(&meta).map_err(|e| {
            TrainError::Bundle(victor_label::BundleError::Inconsistent(format!(
                "fold {}: its bundle description does not serialise: {e}",
                fold + 1
            )))
        })?;
        let bytes = std::fs::read(&model_path).map_err(|source| TrainError::Io {
            path: model_path.clone(),
            source,
        })?;
        let mut model = Model::from_parts(&meta_json, &bytes, dir.path())?;
        if let Some((gate, image)) = &gated {
            let base = Model::from_image(image, &dir.path().join(victor_label::gate::BASE_DIR))?;
            model = model.with_gate(gate.clone(), base)?;
            meta.gate = Some(gate.clone());
        }
        if let Some(keep) = &cv.keep_models {
            let out = keep.join(format!("fold-{}", fold + 1));
            let base = gated.as_ref().map(|(_, image)| *image);
            crate::bundle::write_bundle_replacing(&out, &meta, &model_path, base, cv.replace)?;
            let ids: String = test.iter().map(|p| format!("{}\n", p.id)).collect();
            let list = out.join(crate::bundle::HELD_OUT_FILE);
            victor_features::file::write_file(&list, ids.as_bytes())
                .map_err(|source| TrainError::Io { path: list, source })?;
        }
        let (assessment, scored) = score_fold(&test, &model, setup, cv, on);
        on(CvEvent::FoldDone {
            fold,
            seconds: data.seconds,
        });
        Ok(FoldResult {
            fold,
            train_pages: data.pages,
            train_blocks: data.blocks,
            test_pages: scored,
            seconds: data.seconds,
            train_ids: train.iter().map(|p| p.id.clone()).collect(),
            test_ids: test.iter().map(|p| p.id.clone()).collect(),
            assessment,
        })
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cv.parallel.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let results: Vec<Result<FoldResult, TrainError>> =
        pool.install(|| (0..folds).into_par_iter().map(run_fold).collect());
    results.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_are_balanced_and_seeded() {
        let a = split_folds(23, 5, 7);
        let mut counts = [0; 5];
        for &f in &a {
            counts[f] += 1;
        }
        assert!(counts.iter().all(|&c| c == 4 || c == 5));
        assert_eq!(a, split_folds(23, 5, 7));
        assert_ne!(a, split_folds(23, 5, 8));
    }

    #[test]
    fn training_subsets_are_nested_and_sized() {
        assert_eq!(training_subset(7, 1.0, 3), (0..7).collect::<Vec<_>>());
        assert_eq!(training_subset(0, 0.5, 3), Vec::<usize>::new());
        // ceil(0.1 * 7) = 1: never nothing.
        assert_eq!(training_subset(7, 0.1, 3).len(), 1);
        assert_eq!(training_subset(7, 0.0, 3).len(), 1);
        let mut prev: Vec<usize> = Vec::new();
        for (share, len) in [(0.25, 25), (0.5, 50), (0.75, 75), (0.999, 100)] {
            let s = training_subset(100, share, 11);
            assert_eq!(s.len(), len);
            assert!(s.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
            assert!(prev.iter().all(|i| s.contains(i)), "{share}: not nested");
            prev = s;
        }
        assert_ne!(training_subset(100, 0.5, 11), training_subset(100, 0.5, 12));
    }

    #[test]
    fn curve_subsets_follow_their_order() {
        // Fold 0's training pages: every page but 0, 5 and 10 (15 pages in all).
        let others: Vec<usize> = (0..15).filter(|i| i % 5 != 0).collect();
        // The random order is the draw `training_subset` has always made for fold 0.
        let seed = 4;
        let random = CurveOrder::Random { seed };
        let old_seed = seed ^ 1u64.wrapping_mul(0xa076_1d64_78bd_642f);
        assert_eq!(
            curve_subset(&others, 0.5, 0, &random),
            training_subset(others.len(), 0.5, old_seed)
        );
        assert_eq!(
            curve_subset(&others, 0.5, 0, &random),
            curve_subset(&others, 0.5, 0, &random)
        );
        assert_ne!(
            curve_subset(&others, 0.5, 0, &random),
            curve_subset(&others, 0.5, 0, &CurveOrder::Random { seed: 5 })
        );
        // Ranked: page i scores (i * 7) % 15; NaN and missing scores go last.
        let mut scores: Vec<f64> = (0..15).map(|i| ((i * 7) % 15) as f64).collect();
        scores[14] = f64::NAN;
        let ranked = CurveOrder::Ranked(std::sync::Arc::new(scores.clone()));
        let mut prev: Vec<usize> = Vec::new();
        for share in [0.1, 0.25, 0.5, 0.75, 0.99] {
            let s = curve_subset(&others, share, 0, &ranked);
            assert_eq!(s.len(), ((share * 12.0_f64).ceil() as usize).max(1));
            assert!(s.windows(2).all(|w| w[0] < w[1]), "in page order");
            assert!(prev.iter().all(|i| s.contains(i)), "{share}: not nested");
            // Nothing left out scores lower than what was taken.
            let worst = s
                .iter()
                .map(|&i| scores[others[i]])
                .fold(f64::MIN, f64::max);
            for i in (0..others.len()).filter(|i| !s.contains(i)) {
                let sc = scores[others[i]];
                assert!(sc.is_nan() || sc >= worst, "{share}: left out {i}");
            }
            prev = s;
        }
        // The lowest scores: pages 13 (1), 11 (2), 9 (3); ceil(0.15 * 12) = 2 takes 13 and 11.
        let two: Vec<usize> = curve_subset(&others, 0.15, 0, &ranked)
            .iter()
            .map(|&i| others[i])
            .collect();
        assert_eq!(two, vec![11, 13]);
        assert!(!curve_subset(&others, 0.9, 0, &ranked).contains(&(others.len() - 1)));
        let short = CurveOrder::Ranked(std::sync::Arc::new(vec![0.0; 3]));
        assert_eq!(curve_subset(&others, 0.1, 0, &short), vec![0, 1]);
        assert_eq!(curve_subset(&others, 1.0, 0, &ranked).len(), 12);
    }

    #[test]
    fn groups_share_a_fold_and_folds_stay_balanced() {
        // 3 pages of a.com, 2 of b.com, 5 without a site, 2 of c.com: 12 pages, 3 folds.
        let keys: Vec<Option<String>> = [
            "a.com", "b.com", "", "a.com", "", "c.com", "", "b.com", "", "a.com", "c.com", "",
        ]
        .iter()
        .map(|k| (!k.is_empty()).then(|| k.to_string()))
        .collect();
        let f = split_groups(&keys, 3, 1);
        for site in ["a.com", "b.com", "c.com"] {
            let folds: Vec<usize> = (0..keys.len())
                .filter(|&i| keys[i].as_deref() == Some(site))
                .map(|i| f[i])
                .collect();
            assert!(folds.windows(2).all(|w| w[0] == w[1]), "{site}: {folds:?}");
        }
        let mut counts = [0; 3];
        for &k in &f {
            counts[k] += 1;
        }
        assert_eq!(counts, [4, 4, 4]);
        assert_eq!(f, split_groups(&keys, 3, 1));
        // The largest group goes first, to fold 0.
        assert_eq!(f[0], 0);
    }

    #[test]
    fn without_keys_groups_are_single_pages() {
        let keys = vec![None; 10];
        let f = split_groups(&keys, 5, 3);
        let mut counts = [0; 5];
        for &k in &f {
            counts[k] += 1;
        }
        assert_eq!(counts, [2; 5]);
    }

    #[test]
    fn a_site_larger_than_a_fold_stays_whole() {
        let mut keys = vec![Some("big.com".to_string()); 6];
        keys.extend([None, None]);
        let f = split_groups(&keys, 4, 9);
        assert!(f[..6].iter().all(|&k| k == f[0]));
        assert!(f[6..].iter().all(|&k| k != f[0]));
    }
}
