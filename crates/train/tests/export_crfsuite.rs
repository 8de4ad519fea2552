//! `export_crfsuite` writes exactly what `train_crf` gives the trainer: the example annotations
//! are exported, parsed back with CRFsuite's rules (tab-separated fields, `\:` and `\\` escapes,
//! value 1 when omitted, an empty line after each sequence), and compared page by page with the
//! attributes and labels the pipeline computes; a model trained on the parsed-back data is
//! byte-identical to the one `train_crf` writes.

use std::path::Path;

use crfs::Attribute;
use victor_annotations::Corpus;
use victor_features::{Extractor, FeatureConfig, Segmenter, Template};
use victor_train::CrfTrainer;
use victor_train::{Setup, TrainOptions, train_crf};
use victor_train::{attributes, export_crfsuite, prepare};

fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples")
}

/// One field `name[:value]` of CRFsuite's format.
fn parse_field(f: &str) -> (String, f64) {
    let mut name = String::new();
    let mut chars = f.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => name.push(chars.next().expect("escape at the end of a field")),
            ':' => {
                let v: f64 = chars.as_str().parse().expect("numeric value");
                return (name, v);
            }
            _ => name.push(c),
        }
    }
    (name, 1.0)
}

type Sequence = (Vec<String>, Vec<Vec<(String, f64)>>);

/// The sequences of a CRFsuite-format text.
fn parse(text: &str) -> Vec<Sequence> {
    let mut out = Vec::new();
    let (mut ys, mut xs) = (Vec::new(), Vec::new());
    for line in text.split('\n') {
        if line.is_empty() {
            if !ys.is_empty() {
                out.push((std::mem::take(&mut ys), std::mem::take(&mut xs)));
            }
            continue;
        }
        let mut fields = line.split('\t');
        ys.push(fields.next().expect("label").to_string());
        xs.push(fields.map(parse_field).collect());
    }
    assert!(
        ys.is_empty(),
        "the last sequence must end with an empty line"
    );
    out
}

#[test]
fn export_parses_back_to_what_the_trainer_gets() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let corpus = Corpus::open([examples()], None).expect("examples open");
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("data.crfsuite");
    let summary = export_crfsuite(corpus.pages(), setup, &file, &|_| {}).expect("export");
    let text = std::fs::read_to_string(&file).expect("export readable");
    assert!(text.ends_with("\n\n"), "a page ends with an empty line");
    let parsed = parse(&text);

    // Page by page against the pipeline's own attributes and labels.
    let mut seg = Segmenter::new();
    let mut expected = Vec::new();
    for r in corpus.pages() {
        let p = prepare(r, &mut seg, &extractor).expect("page loads");
        if p.labels.is_empty() {
            continue;
        }
        let x = attributes(&p.table, &template);
        let y: Vec<String> = p.labels.iter().map(|l| l.as_str().to_string()).collect();
        let x: Vec<Vec<(String, f64)>> = x
            .into_iter()
            .map(|item| item.into_iter().map(|a| (a.name, a.value)).collect())
            .collect();
        expected.push((y, x));
    }
    assert_eq!(expected.len(), corpus.len());
    assert_eq!(parsed.len(), expected.len());
    for (i, (got, want)) in parsed.iter().zip(&expected).enumerate() {
        assert_eq!(got.0, want.0, "labels of page {i}");
        assert_eq!(got.1.len(), want.1.len(), "blocks of page {i}");
        for (t, (g, w)) in got.1.iter().zip(&want.1).enumerate() {
            assert_eq!(g, w, "attributes of page {i}, block {t}");
        }
    }
    // The template's attributes have colons in their names ("U000:0"): escaping is exercised.
    assert!(text.contains("\\:"));
    assert!(expected[0].1[0].iter().any(|(n, _)| n.contains(':')));

    // The export's summary is the one a training run records (same pages, digest).
    let opts = TrainOptions {
        max_iterations: 5,
        ..TrainOptions::default()
    };
    let direct = dir.path().join("direct.crfsuite");
    let trained = train_crf(corpus.pages(), setup, &opts, &direct, &|_| {}).expect("trains");
    assert_eq!(summary.pages, trained.pages);
    assert_eq!(summary.blocks, trained.blocks);
    assert_eq!(summary.label_counts, trained.label_counts);
    assert_eq!(summary.digest, trained.digest);
    assert_eq!(
        summary.blocks,
        parsed.iter().map(|s| s.0.len()).sum::<usize>()
    );

    // Training on the parsed-back data gives the very same model file.
    let mut trainer = CrfTrainer::new(&opts).expect("trainer");
    for (ys, xs) in &parsed {
        let x: Vec<Vec<Attribute>> = xs
            .iter()
            .map(|item| item.iter().map(|(n, v)| Attribute::new(n, *v)).collect())
            .collect();
        let y: Vec<&str> = ys.iter().map(String::as_str).collect();
        trainer.append(&x, &y).expect("append");
    }
    let from_export = dir.path().join("from-export.crfsuite");
    trainer.train(&from_export).expect("trains from the export");
    assert_eq!(
        std::fs::read(&from_export).expect("model"),
        std::fs::read(&direct).expect("model"),
        "a model trained on the export differs from train_crf's"
    );
}

#[test]
fn export_of_no_usable_page_is_an_error() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("config");
    let template =
        Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema()).expect("template");
    let setup = Setup {
        extractor: &extractor,
        template: &template,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let err =
        export_crfsuite(&[], setup, &dir.path().join("x.crfsuite"), &|_| {}).expect_err("no pages");
    assert_eq!(err.to_string(), "no usable training pages (0 skipped)");
}
