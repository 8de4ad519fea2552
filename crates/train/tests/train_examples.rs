//! Trains a small model on the project's own example annotations (annotations/examples) and
//! labels the same pages back: block accuracy must be well above the all-`other` baseline, the
//! bundle must load, and the number of content blocks must never rise as the threshold falls.

use std::path::Path;

use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_features::{Extractor, FeatureConfig, Segmenter, Template};
use victor_label::{BundleError, Decoding, Labeler, Model, Threshold};
use victor_train::{Setup, TrainOptions, train_crf};
use victor_train::{make_meta, write_bundle};

fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples")
}

#[test]
fn trains_on_examples_and_labels_them_back() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let corpus = Corpus::open([examples()], None).expect("examples open");
    assert!(corpus.len() >= 4, "expected the example pages");
    let dir = tempfile::tempdir().expect("tempdir");
    let model_file = dir.path().join("model.crfsuite");
    let opts = TrainOptions {
        max_iterations: 100,
        ..TrainOptions::default()
    };
    let data = train_crf(corpus.pages(), setup, &opts, &model_file, &|_| {}).expect("trains");
    assert_eq!(data.pages, corpus.len());
    let bundle = dir.path().join("bundle");
    let meta = make_meta(setup, &opts, &data, Vec::new(), None, "test".into());
    write_bundle(&bundle, &meta, &model_file).expect("bundle written");
    let model = Model::load(&bundle).expect("bundle loads");
    // The bundle records how many attributes the model file holds (it once wrote 0).
    assert!(meta.training.attributes > 0);
    assert_eq!(meta.training.attributes, model.crf.num_attrs());

    let mut labeler = Labeler::new(&model);
    let mut seg = Segmenter::new();
    let (mut correct, mut total, mut other) = (0usize, 0usize, 0usize);
    let mut probs = Vec::new();
    let mut labels = Vec::new();
    for page in corpus.pages() {
        let a = page.load(&mut seg).expect("page loads");
        let table = extractor.extract(&a.page);
        labeler
            .label_table(&a.page, &table, Decoding::Viterbi, &mut probs, &mut labels)
            .expect("labels");
        for (g, p) in a.labels.iter().zip(&labels) {
            total += 1;
            correct += usize::from(g.is_content() == p.is_content());
            other += usize::from(*g == Label::Other);
        }
        // Fewer content blocks as the threshold falls, never more.
        let mut last = usize::MAX;
        for t in [1.0, 0.9, 0.7, 0.5, 0.3, 0.1, 0.0] {
            labeler
                .label_table(
                    &a.page,
                    &table,
                    Decoding::Threshold(Threshold::new(t).expect("a threshold")),
                    &mut probs,
                    &mut labels,
                )
                .expect("labels");
            let content = labels.iter().filter(|l| l.is_content()).count();
            assert!(
                content <= last,
                "content blocks rose from {last} to {content} at T={t}"
            );
            last = content;
            for (p, l) in probs.iter().zip(&labels) {
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                assert_eq!(*l == Label::Other, p[2] >= t);
            }
        }
        // Expected-F1 decoding is a threshold of the page's own: what it keeps is a prefix of
        // the blocks by P(other).
        labeler
            .label_table(
                &a.page,
                &table,
                Decoding::ExpectedF1(model.expected_options()),
                &mut probs,
                &mut labels,
            )
            .expect("labels");
        let kept = probs.iter().zip(&labels).filter(|(_, l)| l.is_content());
        let dropped = probs.iter().zip(&labels).filter(|(_, l)| !l.is_content());
        let most_kept = kept.map(|(p, _)| p[2]).fold(0.0f64, f64::max);
        let least_dropped = dropped.map(|(p, _)| p[2]).fold(1.0f64, f64::min);
        assert!(labels.iter().all(|l| !l.is_content()) || most_kept < least_dropped);
    }
    let acc = correct as f64 / total as f64;
    let baseline = other as f64 / total as f64;
    assert!(
        acc >= baseline + 0.5 * (1.0 - baseline),
        "accuracy {acc:.3} not well above the all-other baseline {baseline:.3}"
    );
}

#[test]
fn bundles_made_for_other_features_are_refused() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let corpus = Corpus::open([examples()], None).expect("examples open");
    let dir = tempfile::tempdir().expect("tempdir");
    let model_file = dir.path().join("model.crfsuite");
    let opts = TrainOptions {
        max_iterations: 5,
        ..TrainOptions::default()
    };
    let data = train_crf(corpus.pages(), setup, &opts, &model_file, &|_| {}).expect("trains");
    let mut meta = make_meta(setup, &opts, &data, Vec::new(), None, String::new());
    let bytes = std::fs::read(&model_file).expect("model");
    meta.feature_version = "victor-features-0".into();
    let json = serde_json::to_string(&meta).expect("json");
    assert!(matches!(
        Model::from_parts(&json, &bytes, dir.path()),
        Err(BundleError::Version { .. })
    ));
    meta.feature_version = victor_features::FEATURE_VERSION.into();
    meta.template = "U00:%x[0,no-such-feature]\n".into();
    let json = serde_json::to_string(&meta).expect("json");
    assert!(matches!(
        Model::from_parts(&json, &bytes, dir.path()),
        Err(BundleError::Inconsistent(_))
    ));
    meta.template = victor_features::DEFAULT_TEMPLATE.into();
    let json = serde_json::to_string(&meta).expect("json");
    assert!(matches!(
        Model::from_parts(&json, &bytes[..bytes.len() / 2], dir.path()),
        Err(BundleError::Model { .. })
    ));
    assert!(matches!(
        Model::from_parts("{not json", &bytes, dir.path()),
        Err(BundleError::Meta { .. })
    ));
    assert!(matches!(
        Model::load(&dir.path().join("missing")),
        Err(BundleError::Io { .. })
    ));
    assert!(Model::from_parts(&json, &bytes, dir.path()).is_ok());
}

/// Copies the example set to `dst`, every page partially labelled: only its content blocks and
/// the first block (as `other`) are known.
fn partial_copy(dst: &Path) -> usize {
    use victor_annotations::SetWriter;
    let src = examples();
    for sub in ["pages", "labels"] {
        std::fs::create_dir_all(dst.join(sub)).expect("mkdir");
        for e in std::fs::read_dir(src.join(sub)).expect("read_dir") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), dst.join(sub).join(e.file_name())).expect("copy");
        }
    }
    std::fs::copy(src.join("set.json"), dst.join("set.json")).expect("copy");
    let corpus = Corpus::open([dst], None).expect("copy opens");
    let writer = SetWriter::open(dst).expect("writer");
    let mut seg = Segmenter::new();
    let mut unknown = 0;
    for r in corpus.pages() {
        let mut a = r.load(&mut seg).expect("loads");
        let partial: Vec<Option<Label>> = a
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| (i == 0 || l.is_content()).then_some(*l))
            .collect();
        unknown += partial.iter().filter(|l| l.is_none()).count();
        a.record
            .set_partial_labels(&a.page, &partial)
            .expect("partial labels");
        writer.write_labels(&a.record).expect("written");
    }
    unknown
}

#[test]
fn trains_on_partially_labelled_pages() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let set = dir.path().join("partial");
    let unknown = partial_copy(&set);
    assert!(unknown > 0);
    let corpus = Corpus::open([&set], None).expect("opens");
    let model_file = dir.path().join("model.crfsuite");
    let opts = TrainOptions {
        max_iterations: 30,
        ..TrainOptions::default()
    };
    let data = train_crf(corpus.pages(), setup, &opts, &model_file, &|_| {}).expect("trains");
    assert_eq!(data.pages, corpus.len());
    assert_eq!(data.unknown, unknown);
    let bytes = std::fs::read(&model_file).expect("model");
    assert!(crfs::Model::new(&bytes).is_ok());
    // crfs cannot take them, and says why.
    let crfs_opts = TrainOptions {
        engine: victor_train::Engine::Crfs,
        ..opts
    };
    let err = train_crf(corpus.pages(), setup, &crfs_opts, &model_file, &|_| {})
        .expect_err("crfs refuses unknown labels");
    assert!(err.to_string().contains("unknown"), "{err}");
}
