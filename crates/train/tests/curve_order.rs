//! `cross_validate` with a share below 1 in random and in ranked order, on the project's own
//! example annotations: the held-out pages are the same whatever the order, the ranked order
//! trains on the pages it ranks first, and a seed draws the same pages every time.

use std::path::Path;
use std::sync::Arc;

use victor_annotations::Corpus;
use victor_features::{Extractor, FeatureConfig, Template};
use victor_train::{CurveOrder, CvOptions, FoldResult, cross_validate};
use victor_train::{Setup, TrainOptions};

fn run(order: CurveOrder) -> Vec<FoldResult> {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples");
    let corpus = Corpus::open([dir], None).expect("examples open");
    let opts = TrainOptions {
        max_iterations: 10,
        ..TrainOptions::default()
    };
    let cv = CvOptions {
        folds: 2,
        seed: 3,
        thresholds: vec![0.5],
        parallel: 1,
        calibrations: Vec::new(),
        by_site: false,
        keep_models: None,
        replace: victor_train::Replace::OnlyBundle,
        train_share: 0.5,
        curve_order: order,
    };
    cross_validate(corpus.pages(), setup, &opts, &cv, &|_| {}).expect("cross-validates")
}

fn ids(results: &[FoldResult], train: bool) -> Vec<Vec<String>> {
    results
        .iter()
        .map(|r| {
            if train {
                r.train_ids.clone()
            } else {
                r.test_ids.clone()
            }
        })
        .collect()
}

#[test]
fn curve_orders_change_the_training_pages_not_the_held_out_ones() {
    let pages: Vec<String> = Corpus::open(
        [Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples")],
        None,
    )
    .expect("examples open")
    .pages()
    .iter()
    .map(|p| p.id.clone())
    .collect();
    assert!(pages.len() >= 5, "expected the example pages");
    let n = pages.len();
    // Scores falling with the page index, then rising: two opposite rankings.
    let falling = CurveOrder::Ranked(Arc::new((0..n).map(|i| (n - i) as f64).collect()));
    let rising = CurveOrder::Ranked(Arc::new((0..n).map(|i| i as f64).collect()));
    let runs = [
        run(CurveOrder::Random { seed: 3 }),
        run(CurveOrder::Random { seed: 3 }),
        run(CurveOrder::Random { seed: 9 }),
        run(falling),
        run(rising),
    ];
    let held_out = ids(&runs[0], false);
    for r in &runs {
        assert_eq!(ids(r, false), held_out, "the held-out pages moved");
    }
    assert_eq!(
        ids(&runs[0], true),
        ids(&runs[1], true),
        "a seed draws the same pages"
    );
    let (falling, rising) = (ids(&runs[3], true), ids(&runs[4], true));
    for (fold, (f, r)) in falling.iter().zip(&rising).enumerate() {
        let others: Vec<&String> = pages
            .iter()
            .filter(|p| !held_out[fold].contains(p))
            .collect();
        let k = others.len().div_ceil(2);
        assert_eq!(f.len(), k);
        assert_ne!(f, r, "fold {fold}: opposite rankings took the same pages");
        // Falling scores: the last pages rank first; rising: the first ones.
        let last: Vec<String> = others[others.len() - k..]
            .iter()
            .map(|s| (*s).clone())
            .collect();
        let first: Vec<String> = others[..k].iter().map(|s| (*s).clone()).collect();
        assert_eq!(*f, last);
        assert_eq!(*r, first);
    }
}
