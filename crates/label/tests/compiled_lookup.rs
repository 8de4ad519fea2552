//! The compiled template (lookup by value) must give exactly the state scores of the plain
//! string path (build every attribute string, look it up by name), on real pages, including
//! the page ends where row offsets fall outside the page.

use std::path::Path;

use ndarray::Array2;
use victor_features::{Extractor, FeatureConfig, Segmenter, Template};
use victor_label::CrfModel;
use victor_label::{BUNDLE_FORMAT, BundleMeta, DataInfo, TrainingInfo};

const PAGES: &[&str] = &[
    "<html><head><title>Storm hits the coast</title></head><body><div class=nav><a href=/>Home</a> | <a href=/n>News</a></div>\
     <h1>Storm hits the coast</h1><p>A strong storm hit the coast on Monday, the weather service said. Thousands lost power.</p>\
     <p>Officials said <b>repairs</b> would take days, and asked people to stay home.</p><div id=footer>Copyright 2008</div></body></html>",
    "<html><body><ul><li><a href=a>One</a><li><a href=b>Two</a></ul><h2>Report</h2><p>The committee published its report, \
     which found no wrongdoing. It will be debated next week.</p><p>Comments (3)</p></body></html>",
    // More than twice the window (8 blocks each way): the inner blocks take the direct path.
    "<html><body><div class=menu><a href=/>Home</a> <a href=/a>World</a> <a href=/b>Sport</a></div><h1>Storm hits the coast</h1>\
     <p>One. The storm came in the night, and the wind was strong.</p><p>Two, 12 May 2008.</p><p>Three: the town's mayor spoke to reporters on Tuesday.</p>\
     <ul><li><a href=1>Four</a></li><li><a href=2>Five</a></li><li>Six items of news</li></ul><p>Seven people were hurt, and two were taken to hospital.</p>\
     <table><tr><td>Eight</td><td>9:30 pm</td></tr><tr><td>Ten of the roads</td><td>were closed</td></tr></table><h2>Report</h2>\
     <p>Eleven lines of power fell, and the company said it would restore them soon.</p><p>Twelve.</p><p>Thirteen schools were closed on Wednesday.</p>\
     <p>Fourteen, said the <i>police</i>, and <b>fifteen</b>.</p><div id=sidebar><p>Sixteen related stories</p><p>Seventeen more</p></div>\
     <p>Eighteen, www.example.com</p><p>Nineteen shops were open again by Friday, the chamber of commerce said.</p><p>Twenty.</p>\
     <div id=footer>Copyright 2008 | About | Contact</div></body></html>",
];

fn labels_for(text: &str) -> &'static str {
    if text.contains("Storm hits") || text == "Report" {
        "header"
    } else if text.split(' ').count() > 4 {
        "text"
    } else {
        "other"
    }
}

#[test]
fn compiled_scores_equal_string_lookup() {
    let extractor = Extractor::new(&FeatureConfig::default()).expect("default config");
    let template = Template::parse(victor_features::DEFAULT_TEMPLATE, extractor.schema())
        .expect("default template");
    let mut seg = Segmenter::new();
    let mut trainer = crfs::Trainer::lbfgs()
        .with_max_iterations(30)
        .expect("params");
    let mut tables = Vec::new();
    let mut buf = String::new();
    for html in PAGES.iter().cycle().take(9) {
        let page = seg.segment(html).expect("segments");
        let table = extractor.extract(&page);
        let xseq: Vec<Vec<crfs::Attribute>> = (0..table.blocks)
            .map(|t| {
                let mut v = Vec::new();
                template.for_each_attribute(&table, t, &mut buf, |a| {
                    v.push(crfs::Attribute::new(a, 1.0))
                });
                v
            })
            .collect();
        let yseq: Vec<&str> = page
            .blocks
            .iter()
            .map(|b| labels_for(page.block_text(b)))
            .collect();
        trainer.append(&xseq, &yseq).expect("append");
        tables.push((page, table));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("model.crfsuite");
    trainer.train(&path).expect("trains");
    let bytes = std::fs::read(&path).expect("model file");
    let meta = BundleMeta {
        format: BUNDLE_FORMAT.into(),
        victor_version: "test".into(),
        feature_version: victor_features::FEATURE_VERSION.into(),
        labels: vec!["header".into(), "text".into(), "other".into()],
        features: FeatureConfig::default(),
        template: victor_features::DEFAULT_TEMPLATE.into(),
        training: TrainingInfo::default(),
        data: DataInfo::default(),
        recommendation: None,
        boost: None,
        notes: String::new(),
        origin: None,
        pages: None,
        gate: None,
    };
    let model = victor_label::Model::from_parts(
        &serde_json::to_string(&meta).expect("json"),
        &bytes,
        Path::new("test"),
    )
    .expect("bundle loads");
    let crf = CrfModel::from_bytes(&bytes).expect("model");
    let mut labeler = victor_label::Labeler::new(&model);
    for (page, table) in &tables {
        // String path.
        let l = crf.num_labels();
        let mut want = Array2::<f64>::zeros((table.blocks, l));
        for t in 0..table.blocks {
            template.for_each_attribute(table, t, &mut buf, |a| {
                if let Some(id) = crf.attr_id(a) {
                    for k in 0..l {
                        want[[t, k]] += crf.state_weights()[[id as usize, k]];
                    }
                }
            });
        }
        let mut probs = Vec::new();
        labeler
            .probabilities(page, table, &mut probs)
            .expect("probabilities");
        let mut got_marg = Array2::<f64>::zeros((0, 0));
        let mut ws = victor_label::Workspace::new();
        crf.marginals(want.view(), &mut ws, &mut got_marg)
            .expect("marginals of string scores");
        let order: Vec<usize> = ["header", "text", "other"]
            .iter()
            .map(|n| crf.label_id(n).expect("label"))
            .collect();
        for t in 0..table.blocks {
            for (k, &id) in order.iter().enumerate() {
                let a = probs[t][k];
                let b = got_marg[[t, id]];
                assert!(
                    (a - b).abs() < 1e-12,
                    "block {t} label {k}: compiled {a} vs string {b}"
                );
            }
        }
    }
}

#[test]
fn the_long_page_has_inner_blocks() {
    let page = Segmenter::new().segment(PAGES[2]).expect("segments");
    assert!(
        page.blocks.len() > 2 * 8 + 4,
        "{} blocks",
        page.blocks.len()
    );
}
