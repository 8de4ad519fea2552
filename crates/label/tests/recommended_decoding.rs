//! The decoding a bundle recommends, read from its `victor.json`: expected-F1 decoding where
//! its cross-validation chose it, else its threshold, else Viterbi. Bundles written before the
//! `decoding` field existed keep their threshold.

use std::path::Path;

use victor_label::{Decoding, DecodingChoice, Model, Threshold};

fn threshold(t: f64) -> Decoding {
    Decoding::Threshold(Threshold::new(t).expect("a threshold"))
}

fn shipped() -> (serde_json::Value, Vec<u8>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/news");
    let meta = std::fs::read_to_string(dir.join("victor.json")).expect("models/news/victor.json");
    let model = std::fs::read(dir.join("model.crfsuite")).expect("models/news/model.crfsuite");
    (serde_json::from_str(&meta).expect("json"), model)
}

fn load(meta: &serde_json::Value, model: &[u8]) -> Model {
    Model::from_parts(&meta.to_string(), model, Path::new("test")).expect("bundle loads")
}

#[test]
fn the_bundle_names_its_default_decoding() {
    let (mut meta, model) = shipped();
    let t = &mut meta["threshold"];
    t["value"] = 0.6.into();
    t["expected_f1"] = 0.9.into();

    t["decoding"] = "threshold".into();
    assert_eq!(load(&meta, &model).recommended_decoding(), threshold(0.6));

    meta["threshold"]["decoding"] = "expected-f1".into();
    let m = load(&meta, &model);
    assert_eq!(
        m.recommended_decoding(),
        Decoding::ExpectedF1(m.expected_options())
    );
    assert_eq!(
        m.recommended_threshold(),
        Threshold::new(0.6).ok(),
        "the threshold stays for sweeps"
    );

    // Written before the field existed: the threshold.
    let o = meta["threshold"].as_object_mut().expect("object");
    o.remove("decoding");
    o.remove("expected_f1");
    assert_eq!(load(&meta, &model).recommended_decoding(), threshold(0.6));

    meta["threshold"] = serde_json::Value::Null;
    assert_eq!(
        load(&meta, &model).recommended_decoding(),
        Decoding::Viterbi
    );
}

#[test]
fn an_unknown_decoding_is_an_error() {
    let (mut meta, model) = shipped();
    meta["threshold"]["decoding"] = "best-guess".into();
    let err = Model::from_parts(&meta.to_string(), &model, Path::new("bundle/victor.json"))
        .expect_err("unknown decoding");
    assert!(err.to_string().contains("best-guess"), "{err}");
}

#[test]
fn the_bundle_records_its_expected_f1_settings() {
    use victor_label::Labeler;
    use victor_label::{Calibration, ExpectedOptions};

    let (mut meta, model) = shipped();
    meta["threshold"]["decoding"] = "expected-f1".into();
    let o = meta["threshold"].as_object_mut().expect("object");
    o.remove("calibration");
    o.remove("min_words");
    // Absent: the raw marginals and no minimum.
    assert_eq!(
        load(&meta, &model).expected_options(),
        ExpectedOptions::default()
    );

    meta["threshold"]["calibration"] = serde_json::json!({"scale": 0.5, "shift": 0.25});
    meta["threshold"]["min_words"] = 1_000_000.into();
    let m = load(&meta, &model);
    assert_eq!(
        m.expected_options(),
        ExpectedOptions {
            calibration: Calibration {
                scale: 0.5,
                shift: 0.25,
                // A bundle written before the spread existed decodes as before.
                spread: 0.0,
            },
            min_words: 1_000_000,
        }
    );
    // The labeler applies them: no page has a million words, so nothing is kept.
    let html = b"<html><body><h1>A headline</h1><p>A paragraph of plain running text that \
                 a reader would keep, with a few more words in it.</p></body></html>";
    let mut labeler = Labeler::new(&m);
    let page = labeler
        .label_bytes(html, Decoding::ExpectedF1(m.expected_options()))
        .expect("labels");
    assert!(page.labels.iter().all(|l| !l.is_content()));

    meta["threshold"]["min_words"] = 0.into();
    let m = load(&meta, &model);
    let mut labeler = Labeler::new(&m);
    let page = labeler
        .label_bytes(html, Decoding::ExpectedF1(m.expected_options()))
        .expect("labels");
    assert!(page.labels.iter().any(|l| l.is_content()));
}

#[test]
fn a_chosen_decoding_is_completed_by_the_bundle() {
    let (mut meta, model) = shipped();
    meta["threshold"]["value"] = 0.6.into();
    meta["threshold"]["calibration"] = serde_json::json!({"scale": 0.5, "shift": 0.25});
    let m = load(&meta, &model);
    let pick = |c: &str| m.decoding(Some(c.parse::<DecodingChoice>().expect("a decoding")));
    assert_eq!(pick("threshold"), Ok(threshold(0.6)));
    assert_eq!(pick("threshold 0.3"), Ok(threshold(0.3)));
    assert_eq!(pick("viterbi"), Ok(Decoding::Viterbi));
    let Ok(Decoding::ExpectedF1(opts)) = pick("expected-f1") else {
        panic!("expected-F1 decoding");
    };
    assert_eq!(
        opts.calibration.scale, 0.5,
        "the bundle's settings travel with it"
    );
    assert_eq!(m.decoding(None), Ok(m.recommended_decoding()));

    meta["threshold"] = serde_json::Value::Null;
    let m = load(&meta, &model);
    assert!(m.decoding(Some(DecodingChoice::Threshold(None))).is_err());
}

#[test]
fn a_threshold_out_of_range_is_refused_as_the_bundle_is_read() {
    let (mut meta, model) = shipped();
    meta["threshold"]["value"] = 1.5.into();
    let err = Model::from_parts(&meta.to_string(), &model, Path::new("bundle"))
        .expect_err("out of range");
    let err = err.to_string();
    assert!(
        err.contains("victor.json") && err.contains("threshold 1.5 is not within 0 and 1"),
        "{err}"
    );
}
