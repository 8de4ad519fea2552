//! The `regexp` module: every key's feature is the 1-based index of the key's first expression
//! that matches a block (0 if none), whatever the other keys match; a bad expression is a
//! configuration error that names its key and index.

use victor_features::{ConfigError, Extractor, FeatureConfig, Segmenter};

/// The shipped configuration with only the `regexp` module, and these expressions.
fn config(regexp: &str) -> FeatureConfig {
    FeatureConfig {
        modules: vec!["regexp".to_string()],
        bins: Default::default(),
        regexp: serde_json::from_str(regexp).expect("expressions parse"),
        ..FeatureConfig::default()
    }
}

/// The raw `regexp.KEY` value of every block of `html`.
fn values(extractor: &Extractor, html: &str, key: &str) -> Vec<f32> {
    let col = extractor
        .schema()
        .columns
        .iter()
        .position(|c| c.name == format!("regexp.{key}"))
        .expect("column exists");
    let page = Segmenter::new().segment(html).expect("segments");
    let table = extractor.extract(&page);
    (0..table.blocks).map(|b| table.raw(b, col)).collect()
}

#[test]
fn each_key_numbers_its_own_first_matching_expression() {
    let ex = Extractor::new(&config(
        r#"{"a": ["cat", "dog", "o"], "b": ["x", "dog"], "c": ["zzz"]}"#,
    ))
    .expect("compiles");
    let html = "<p>hot dog</p><p>a cat and a dog</p><p>box</p><p>none here</p>";
    // "hot dog": a's "dog" (2) before "o" (3); b's "dog" (2).
    assert_eq!(values(&ex, html, "a"), [2.0, 1.0, 3.0, 3.0]);
    assert_eq!(values(&ex, html, "b"), [2.0, 2.0, 1.0, 0.0]);
    assert_eq!(values(&ex, html, "c"), [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_bad_expression_names_its_key_and_index() {
    let err = Extractor::new(&config(r#"{"a": ["ok"], "b": ["fine", "(unclosed"]}"#))
        .expect_err("must not compile");
    match &err {
        ConfigError::Regex { name, index, .. } => {
            assert_eq!((name.as_str(), *index), ("b", 1), "{err}");
        }
        other => panic!("unexpected error: {other}"),
    }
    assert!(err.to_string().contains("regexp.b[1]"), "{err}");
}

/// The `regexp` module of a shipped configuration, alone.
fn shipped(path: &str) -> Extractor {
    let text = std::fs::read_to_string(path).expect("template readable");
    let full = FeatureConfig::from_json(&text).expect("template parses");
    let c = FeatureConfig {
        modules: vec!["regexp".to_string()],
        ..full
    };
    Extractor::new(&c).expect("compiles")
}

#[test]
fn shipped_dates_and_times_cover_english_and_cjk_forms() {
    let html = "<p>Posted on March 5, 2008 at 3:04 PM</p>\
                <p>发布时间：2008年3月5日 上午10:30</p>\
                <p>3月5日 星期三</p>\
                <p>二〇〇八 2008年度报告</p>\
                <p>10时30分开始</p>\
                <p>2008년 3월 5일</p>\
                <p>更新于2008-03-05</p>\
                <p>model x2008 and x10:30</p>";
    for path in [
        "../../templates/features.json",
        "../../templates/features-all-text.json",
    ] {
        let ex = shipped(path);
        // date: 1 ISO or CJK full date, 3 "March 5, 2008", 5 "March 5" or "3月5日", 8 a year.
        assert_eq!(
            values(&ex, html, "date"),
            [3.0, 1.0, 5.0, 8.0, 0.0, 1.0, 1.0, 0.0],
            "{path}"
        );
        // time: 1 "10:30" (also right after a CJK character), 2 "3 pm" or "10时30分".
        assert_eq!(
            values(&ex, html, "time"),
            [1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0],
            "{path}"
        );
    }
}
