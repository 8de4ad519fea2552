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

#[test]
fn boost_fits_trees_that_like_passes_on_and_a_broken_forest_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let examples = examples();
    let boosted = tmp.path().join("boosted");
    run_ok(&[
        "train",
        s(&examples),
        "--boost",
        "--boost-trees",
        "7",
        "--boost-weight",
        "0.4",
        "--threshold-folds",
        "0",
        "--out",
        s(&boosted),
        "-q",
    ]);
    let m = meta(&boosted);
    assert_eq!(m["boost"]["weight"], 0.4);
    assert_eq!(m["boost"]["trees"], 7);
    assert_eq!(
        m["boost"]["forest"]["trees"].as_array().map(Vec::len),
        Some(7)
    );
    assert_eq!(
        m["boost"]["forest"]["columns"].as_array().map(Vec::len),
        Some(
            victor_features::Extractor::new(&Default::default())
                .expect("config")
                .schema()
                .len()
        )
    );

    // --like carries the trees' settings over; without --boost, no trees.
    let again = tmp.path().join("again");
    run_ok(&[
        "train",
        s(&examples),
        "--like",
        s(&boosted),
        "--threshold-folds",
        "0",
        "--out",
        s(&again),
        "-q",
    ]);
    let b = meta(&again);
    assert_eq!(
        b["boost"]["forest"], m["boost"]["forest"],
        "the same forest"
    );
    assert_eq!(b["boost"]["weight"], 0.4);
    let plain = tmp.path().join("plain");
    run_ok(&[
        "train",
        s(&examples),
        "--threshold-folds",
        "0",
        "--out",
        s(&plain),
        "-q",
    ]);
    assert!(meta(&plain).get("boost").is_none());

    // The blend moves the marginals: P(other) of the two bundles differ somewhere.
    let page = std::fs::read_dir(examples.join("pages"))
        .expect("pages")
        .flatten()
        .map(|e| e.path())
        .next()
        .expect("a page");
    let probs = |bundle: &Path| {
        let out = run_ok(&["label", "--model", s(bundle), "--format", "jsonl", s(&page)]);
        let out = String::from_utf8_lossy(&out.stdout).to_string();
        let v: serde_json::Value =
            serde_json::from_str(out.lines().next().expect("a line")).expect("json");
        v["blocks"]
            .as_array()
            .expect("blocks")
            .iter()
            .map(|b| b["probabilities"]["other"].as_f64().expect("p"))
            .collect::<Vec<f64>>()
    };
    let (pb, pp) = (probs(&boosted), probs(&plain));
    assert_eq!(pb.len(), pp.len());
    assert!(pb.iter().zip(&pp).any(|(a, b)| (a - b).abs() > 1e-6));

    // Bad settings and a broken forest: clear errors.
    let out = run(&[
        "train",
        s(&examples),
        "--boost",
        "--boost-weight",
        "1.5",
        "--out",
        s(&tmp.path().join("z")),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("from 0 to 1"));
    let mut broken = m.clone();
    broken["boost"]["forest"]["trees"][0]["feature"][0] = serde_json::json!(100000);
    std::fs::write(boosted.join("victor.json"), broken.to_string()).expect("write");
    let out = run(&["label", "--model", s(&boosted), s(&page)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("boosted trees"), "{err}");
}

#[test]
fn set_weight_weighs_a_set_and_refuses_names_and_numbers_it_cannot_use() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let examples = examples();
    let train = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "train",
            s(&examples),
            "--threshold-folds",
            "0",
            "--out",
            s(out),
            "-q",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let (plain, heavy) = (tmp.path().join("plain"), tmp.path().join("heavy"));
    assert!(train(&plain, &[]).status.success());
    assert!(
        train(&heavy, &["--set-weight", "examples=3"])
            .status
            .success()
    );
    let weights = &meta(&heavy)["training"]["set_weights"];
    assert_eq!(weights[0]["set"], "examples");
    assert_eq!(weights[0]["weight"], 3.0);
    assert!(meta(&plain)["training"].get("set_weights").is_none());
    let model = |d: &Path| std::fs::read(d.join("model.crfsuite")).expect("model");
    assert_ne!(model(&plain), model(&heavy), "the weight changes the fit");

    // A set that is not among the training sets, a weight that is not positive, and crfs
    // (which weighs every page alike) are refused, with nothing left behind.
    for (name, extra, says) in [
        ("typo", &["--set-weight", "exampels=2"][..], "exampels"),
        ("zero", &["--set-weight", "examples=0"][..], "positive"),
        ("nan", &["--set-weight", "examples=x"][..], "not a number"),
        (
            "crfs",
            &["--set-weight", "examples=2", "--trainer", "crfs"][..],
            "parallel",
        ),
    ] {
        let out = tmp.path().join(name);
        let o = train(&out, extra);
        assert!(!o.status.success(), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{name}: {err}");
        assert!(!out.exists(), "{name}: no bundle left behind");
    }
}
