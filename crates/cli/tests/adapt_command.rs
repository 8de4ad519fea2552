//! `victor train --adapt BUNDLE`: the lineage an adapted bundle records, the limits of the
//! prior, few pages, and bad annotated pages found before any work.

mod common;

use std::path::Path;

use common::{examples, run, run_ok, s};

fn meta(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("victor.json")).expect("victor.json");
    serde_json::from_str(&text).expect("json")
}

/// SHA-256 over victor.json, a NUL byte and model.crfsuite: what `origin.digest` records.
fn digest(dir: &Path) -> String {
    let a = std::fs::read(dir.join("victor.json")).expect("victor.json");
    let b = std::fs::read(dir.join("model.crfsuite")).expect("model");
    victor_label::bundle_digest(&a, &b)
}

/// A small bundle trained from zero on the example pages, to adapt.
fn base(dir: &Path) {
    run_ok(&[
        "train",
        s(&examples()),
        "--threshold-folds",
        "0",
        "--boost",
        "--boost-trees",
        "3",
        "--out",
        s(dir),
        "-q",
    ]);
}

#[test]
fn an_adapted_bundle_records_its_lineage_down_the_chain() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, b1, b2) = (
        tmp.path().join("base"),
        tmp.path().join("once"),
        tmp.path().join("twice"),
    );
    base(&b0);
    let out = run_ok(&[
        "train",
        s(&examples()),
        "--adapt",
        s(&b0),
        "--prior",
        "7",
        "--adapt-trees",
        "2",
        "--out",
        s(&b1),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    // Five pages: too few to cross-validate, and it says so.
    assert!(err.contains("too few to cross-validate"), "{err}");
    let m1 = meta(&b1);
    let o = &m1["origin"];
    assert_eq!(o["bundle"], s(&b0));
    assert_eq!(o["digest"], digest(&b0));
    assert_eq!(o["prior"], 7.0);
    assert_eq!(o["trees"], 2);
    assert_eq!(o["base_pages"], meta(&b0)["data"]["pages"]);
    assert!(
        o.get("from").is_none(),
        "a bundle trained from zero has no origin"
    );
    assert_eq!(m1["training"]["c2"], 7.0);
    // The base's features, template and decoding are kept; its forest is extended.
    let m0 = meta(&b0);
    assert_eq!(m1["features"], m0["features"]);
    assert_eq!(m1["template"], m0["template"]);
    assert_eq!(m1["threshold"], m0["threshold"]);
    assert_eq!(m1["boost"]["trees"], 5);
    // The lineage note names the pages adapted on before the base, whose own pages it gives
    // in its description: "... trees added on 5 pages" would read as if they were the base's.
    let notes = m1["notes"].as_str().expect("notes");
    assert!(
        notes.starts_with(&format!("Adapted on 5 pages from {} (sha256 ", s(&b0))),
        "{notes}"
    );
    assert!(
        notes.ends_with(&format!(
            "trained on {} pages), prior 7, 2 trees added.",
            meta(&b0)["data"]["pages"]
        )),
        "{notes}"
    );

    // Adapting the adapted bundle nests the first origin in the second.
    run_ok(&[
        "train",
        s(&examples()),
        "--adapt",
        s(&b1),
        "--prior",
        "inf",
        "--adapt-trees",
        "0",
        "--out",
        s(&b2),
        "-q",
    ]);
    let m2 = meta(&b2);
    assert_eq!(m2["origin"]["bundle"], s(&b1));
    assert_eq!(m2["origin"]["digest"], digest(&b1));
    assert_eq!(m2["origin"]["prior"], "inf");
    assert_eq!(m2["origin"]["from"], m1["origin"]);
    // An infinitely strong prior and no further trees: the bundle labels as its base does.
    let page = examples().join("pages");
    let label =
        |m: &Path| run_ok(&["label", "--model", s(m), "--format", "jsonl", s(&page)]).stdout;
    assert_eq!(label(&b1), label(&b2));
    // victor models shows the lineage.
    let shown = run_ok(&["models", s(&b2)]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("adapted from:") && shown.contains("which was adapted from:"),
        "{shown}"
    );
}

#[test]
fn a_bad_annotated_page_stops_training_before_any_work_unless_skipped() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("set");
    for sub in ["pages", "labels"] {
        std::fs::create_dir_all(set.join(sub)).expect("mkdir");
        for e in std::fs::read_dir(examples().join(sub)).expect("examples") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), set.join(sub).join(e.file_name())).expect("copy");
        }
    }
    std::fs::copy(examples().join("set.json"), set.join("set.json")).expect("copy");
    let first = std::fs::read_dir(set.join("labels"))
        .expect("labels")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .min()
        .expect("a label file");
    std::fs::write(&first, "{ not json").expect("write");
    let out_dir = tmp.path().join("m");
    let out = run(&["train", s(&set), "--out", s(&out_dir), "-q"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad page") && err.contains("--skip-bad-pages"),
        "{err}"
    );
    // Reported first: nothing was trained, nothing written.
    assert!(!out_dir.exists());
    let out = run_ok(&[
        "train",
        s(&set),
        "--skip-bad-pages",
        "--threshold-folds",
        "0",
        "--out",
        s(&out_dir),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    // The header counts the pages used.
    assert!(
        err.contains("4 annotated pages (1 bad one left out)"),
        "{err}"
    );
    // victor.json records what the bundle was trained on: the set's pages used, and the page
    // left out with why (issue 67); `victor models` says both.
    let m = meta(&out_dir);
    assert_eq!(m["data"]["pages"], 4);
    let sets = m["data"]["sets"].as_array().expect("sets");
    assert_eq!(sets.len(), 1);
    assert_eq!(sets[0]["pages"], 4);
    let bad_id = first
        .file_stem()
        .and_then(|n| n.to_str())
        .expect("an id")
        .to_string();
    let left_out = sets[0]["left_out"].as_array().expect("left_out");
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert_eq!(left_out[0]["id"], bad_id.as_str());
    let why = left_out[0]["reason"].as_str().expect("reason");
    assert!(why.contains("not a valid record"), "{why}");
    let shown = run_ok(&["models", s(&out_dir)]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains(&format!(
            "trained:  4 pages, {} blocks: examples (4 pages; 1 page left out: {bad_id}: ",
            m["data"]["blocks"]
        )),
        "{shown}"
    );
    // Cross-validation follows the same rule: stopped before any fold, or run on the 4.
    let out = run(&["cv", s(&set), "--folds", "2", "-q"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("victor cv: bad page") && !err.contains("fold 1"),
        "{err}"
    );
    let out = run_ok(&["cv", s(&set), "--folds", "2", "--skip-bad-pages", "-q"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4 pages (1 bad one left out)"), "{err}");
}

#[test]
fn adapting_refuses_options_that_would_not_apply() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ex = examples();
    let out = tmp.path().join("x");
    for extra in [
        &["--c2", "3"][..],
        &["--boost"],
        &["--like", "web"],
        &["--c1", "0.1"],
    ] {
        let mut args = vec!["train", s(&ex), "--adapt", "web", "--out"];
        args.push(s(&out));
        args.extend_from_slice(extra);
        let r = run(&args);
        assert!(!r.status.success(), "{extra:?} accepted");
    }
    // A prior below 0 is not a prior.
    let r = run(&[
        "train",
        s(&ex),
        "--adapt",
        "web",
        "--prior",
        "-1",
        "--out",
        s(&out),
    ]);
    assert!(!r.status.success());
}

/// A copy of the example set in which every page is partially labelled: only its header and
/// text blocks are known (`"unlabelled": "unknown"`), the rest unknown.
fn partial_examples(dst: &Path) {
    for sub in ["pages", "labels"] {
        std::fs::create_dir_all(dst.join(sub)).expect("mkdir");
        for e in std::fs::read_dir(examples().join(sub)).expect("examples") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), dst.join(sub).join(e.file_name())).expect("copy");
        }
    }
    std::fs::copy(examples().join("set.json"), dst.join("set.json")).expect("copy");
    for e in std::fs::read_dir(dst.join("labels")).expect("labels") {
        let path = e.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let mut record: serde_json::Value = serde_json::from_str(&text).expect("json");
        record["unlabelled"] = "unknown".into();
        let known: Vec<serde_json::Value> = record["labels"]
            .as_array()
            .expect("labels")
            .iter()
            .filter(|l| l["label"] != "other")
            .cloned()
            .collect();
        record["labels"] = known.into();
        std::fs::write(&path, record.to_string()).expect("write");
    }
}

#[test]
fn five_partially_labelled_pages_adapt_and_cross_validation_says_why_it_cannot_score() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("partial");
    partial_examples(&set);
    let b0 = tmp.path().join("base");
    base(&b0);
    let out_dir = tmp.path().join("adapted");
    let out = run_ok(&[
        "train",
        s(&set),
        "--adapt",
        s(&b0),
        "--adapt-decoding",
        "pages",
        "--out",
        s(&out_dir),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    // Too few pages to choose a decoding on them: the base's is kept, and it says why.
    assert!(
        err.contains("too few to cross-validate") && err.contains("decoding is kept"),
        "{err}"
    );
    let m = meta(&out_dir);
    assert_eq!(m["data"]["pages"], 5);
    // Unknown blocks are summed over, not counted as a label.
    let counted: u64 = m["data"]["label_counts"]
        .as_array()
        .expect("label_counts")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .sum();
    assert!(
        m["data"]["blocks"].as_u64().is_some_and(|b| counted < b),
        "{m}"
    );
    assert_eq!(m["threshold"], meta(&b0)["threshold"]);
    // Cross-validation scores fully labelled pages only: with none, an error, not a table of
    // zeros.
    let out = run(&["cv", s(&set), "--adapt", s(&b0), "--folds", "3", "-q"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no held-out page could be scored"), "{err}");
}
