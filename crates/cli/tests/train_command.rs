//! `victor train --like BUNDLE`: a bundle's recorded recipe (feature configuration and
//! template) retrained as it was, whatever templates/ holds now.

mod common;

use std::path::Path;

use common::{examples, root, run, run_ok, s};

fn meta(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("victor.json")).expect("victor.json");
    serde_json::from_str(&text).expect("json")
}

#[test]
fn like_retrains_a_bundles_recipe() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let examples = examples();
    let config = root().join("templates/features-all-text.json");
    let template = root().join("templates/all-text.tpl");
    let first = tmp.path().join("first");
    run_ok(&[
        "train",
        s(&examples),
        "--config",
        s(&config),
        "--template",
        s(&template),
        "--threshold-folds",
        "0",
        "--out",
        s(&first),
        "-q",
    ]);

    let again = tmp.path().join("again");
    run_ok(&[
        "train",
        s(&examples),
        "--like",
        s(&first),
        "--threshold-folds",
        "0",
        "--out",
        s(&again),
        "-q",
    ]);
    let (a, b) = (meta(&first), meta(&again));
    assert_eq!(a["features"], b["features"]);
    assert_eq!(a["template"], b["template"]);
    // Not the defaults: the all-text recipe has no main-content module.
    assert_ne!(
        b["template"].as_str(),
        Some(victor_features::DEFAULT_TEMPLATE)
    );
    let model = |d: &Path| std::fs::read(d.join("model.crfsuite")).expect("model");
    assert_eq!(
        model(&first),
        model(&again),
        "the same model, byte for byte"
    );

    // --like takes both: a configuration or template beside it is refused.
    let out = run(&[
        "train",
        s(&examples),
        "--like",
        s(&first),
        "--config",
        s(&config),
        "--out",
        s(&tmp.path().join("x")),
    ]);
    assert!(!out.status.success());

    // A folder without victor.json: an error naming the file.
    let out = run(&[
        "train",
        s(&examples),
        "--like",
        s(tmp.path()),
        "--out",
        s(&tmp.path().join("y")),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("victor.json"), "{err}");
    assert!(!tmp.path().join("y").exists(), "no bundle left behind");
}
